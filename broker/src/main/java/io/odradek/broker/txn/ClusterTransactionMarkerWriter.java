package io.odradek.broker.txn;

import io.odradek.broker.cluster.ClusterView;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.coordinator.transaction.TransactionMarkerWriter;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.PartitionRegistration;
import io.odradek.replication.cluster.TopicImage;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.WriteTxnMarkersApi;
import io.odradek.wire.api.WriteTxnMarkersApi.Request.WritableTxnMarker;
import io.odradek.wire.api.WriteTxnMarkersApi.Request.WritableTxnMarker.WritableTxnMarkerTopic;
import io.odradek.wire.api.WriteTxnMarkersApi.Response.WritableTxnMarkerResult;
import io.odradek.wire.api.WriteTxnMarkersApi.Response.WritableTxnMarkerResult.WritableTxnMarkerTopicResult;
import io.odradek.wire.api.WriteTxnMarkersApi.Response.WritableTxnMarkerResult.WritableTxnMarkerTopicResult.WritableTxnMarkerPartitionResult;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The transaction coordinator's markers in a cluster (Kafka's TransactionMarkerChannelManager): each
 * partition's marker goes to its leader in the newest metadata image. Partitions led here are written by the
 * {@link LocalTransactionMarkerWriter}; the others go as one WriteTxnMarkers v1 request per leader broker
 * (all of that broker's partitions of this transaction in it), through the {@link InterBrokerSender}.
 *
 * <p>Answers per partition, never an exceptional future, as the coordinator expects: the leader's answer;
 * NONE for a partition whose topic is gone from the image or beyond its partition count (Kafka drops it from
 * the transaction); NOT_LEADER_OR_FOLLOWER (retried by the coordinator after its backoff) for a partition
 * with no leader now, and for every partition of a broker that could not be reached or whose connection
 * broke, as Kafka re-queues the markers of a disconnected broker; UNKNOWN_SERVER_ERROR for a partition the
 * leader's response left out (Kafka fails such a response too).
 */
public final class ClusterTransactionMarkerWriter implements TransactionMarkerWriter {
    private static final System.Logger LOG = System.getLogger(ClusterTransactionMarkerWriter.class.getName());
    /** WriteTxnMarkers v1: every Kafka broker from 2.4 on reads it; v2 adds only the TransactionVersion field. */
    static final short VERSION = 1;

    private final ClusterView cluster;
    private final TransactionMarkerWriter local;
    private final InterBrokerSender sender;

    public ClusterTransactionMarkerWriter(ClusterView cluster, TransactionMarkerWriter local, InterBrokerSender sender) {
        this.cluster = cluster;
        this.local = local;
        this.sender = sender;
    }

    @Override
    public CompletableFuture<Map<TopicPartition, ErrorCode>> writeMarkers(long producerId, short producerEpoch,
            int coordinatorEpoch, boolean commit, Collection<TopicPartition> partitions) {
        ClusterImage image = cluster.image();
        int self = cluster.localBrokerId();
        Map<TopicPartition, ErrorCode> answered = new ConcurrentHashMap<>();
        List<TopicPartition> here = new ArrayList<>();
        Map<Integer, List<TopicPartition>> byLeader = new TreeMap<>();
        for (TopicPartition tp : partitions) {
            TopicImage topic = image.topic(tp.topic()).orElse(null);
            PartitionRegistration registration = topic == null ? null : topic.partition(tp.partition());
            if (registration == null) {
                answered.put(tp, ErrorCode.NONE); // deleted: no marker can ever be written there
            } else if (!registration.hasLeader()) {
                answered.put(tp, ErrorCode.NOT_LEADER_OR_FOLLOWER); // offline: retried until it has a leader
            } else if (registration.leader() == self) {
                here.add(tp);
            } else {
                byLeader.computeIfAbsent(registration.leader(), b -> new ArrayList<>()).add(tp);
            }
        }
        List<CompletableFuture<Void>> sends = new ArrayList<>();
        if (!here.isEmpty()) {
            sends.add(local.writeMarkers(producerId, producerEpoch, coordinatorEpoch, commit, here)
                    .handle((errors, failure) -> {
                        here.forEach(tp -> answered.put(tp, failure != null || errors == null
                                ? ErrorCode.UNKNOWN_SERVER_ERROR : errors.getOrDefault(tp, ErrorCode.UNKNOWN_SERVER_ERROR)));
                        return null;
                    }));
        }
        byLeader.forEach((broker, tps) -> sends.add(
                sendTo(broker, request(producerId, producerEpoch, coordinatorEpoch, commit, tps), producerId, tps, answered)));
        return CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).handle((v, ignored) -> {
            Map<TopicPartition, ErrorCode> ordered = new LinkedHashMap<>();
            partitions.forEach(tp -> ordered.put(tp, answered.getOrDefault(tp, ErrorCode.UNKNOWN_SERVER_ERROR)));
            return ordered;
        });
    }

    private CompletableFuture<Void> sendTo(int broker, Struct request, long producerId, List<TopicPartition> tps,
            Map<TopicPartition, ErrorCode> answered) {
        CompletableFuture<Struct> response;
        try {
            response = sender.send(broker, WriteTxnMarkersApi.SPEC, VERSION, request);
        } catch (RuntimeException e) {
            response = CompletableFuture.failedFuture(e);
        }
        return response.handle((body, failure) -> {
            if (failure != null) {
                LOG.log(System.Logger.Level.DEBUG, "WriteTxnMarkers to broker " + broker + " failed, retried: " + failure);
                tps.forEach(tp -> answered.put(tp, ErrorCode.NOT_LEADER_OR_FOLLOWER));
                return null;
            }
            Map<TopicPartition, ErrorCode> errors = errors(body, producerId);
            tps.forEach(tp -> answered.put(tp, errors.getOrDefault(tp, ErrorCode.UNKNOWN_SERVER_ERROR)));
            return null;
        });
    }

    /** One marker for the transaction, its partitions grouped by topic. */
    static Struct request(long producerId, short producerEpoch, int coordinatorEpoch, boolean commit,
            List<TopicPartition> partitions) {
        Map<String, List<Integer>> byTopic = new LinkedHashMap<>();
        partitions.forEach(tp -> byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(tp.partition()));
        Struct request = WriteTxnMarkersApi.Request.SCHEMA.newStruct();
        Struct marker = request.add(WriteTxnMarkersApi.Request.MARKERS)
                .set(WritableTxnMarker.PRODUCER_ID, producerId)
                .set(WritableTxnMarker.PRODUCER_EPOCH, producerEpoch)
                .set(WritableTxnMarker.TRANSACTION_RESULT, commit)
                .set(WritableTxnMarker.COORDINATOR_EPOCH, coordinatorEpoch);
        byTopic.forEach((topic, indexes) -> marker.add(WritableTxnMarker.TOPICS)
                .set(WritableTxnMarkerTopic.NAME, topic)
                .set(WritableTxnMarkerTopic.PARTITION_INDEXES, indexes));
        return request;
    }

    /** The errors the response gives this producer's marker, by partition. */
    private static Map<TopicPartition, ErrorCode> errors(Struct response, long producerId) {
        Map<TopicPartition, ErrorCode> errors = new HashMap<>();
        for (Struct marker : response.get(WriteTxnMarkersApi.Response.MARKERS)) {
            if (marker.get(WritableTxnMarkerResult.PRODUCER_ID) != producerId) {
                continue;
            }
            for (Struct topic : marker.get(WritableTxnMarkerResult.TOPICS)) {
                String name = topic.get(WritableTxnMarkerTopicResult.NAME);
                for (Struct p : topic.get(WritableTxnMarkerTopicResult.PARTITIONS)) {
                    errors.put(new TopicPartition(name, p.get(WritableTxnMarkerPartitionResult.PARTITION_INDEX)),
                            ErrorCode.forCode(p.get(WritableTxnMarkerPartitionResult.ERROR_CODE)));
                }
            }
        }
        return errors;
    }
}
