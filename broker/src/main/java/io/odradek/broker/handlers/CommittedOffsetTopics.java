package io.odradek.broker.handlers;

import io.odradek.broker.topics.TopicService;
import io.odradek.coordinator.group.OffsetCommitRequest;
import io.odradek.coordinator.offsets.TopicPartition;
import io.odradek.replication.metadata.TopicInfo;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The topics of an offset commit (OffsetCommit, TxnOffsetCommit), which both APIs treat alike: each
 * request topic is resolved to its name (by topic id from {@code firstTopicIdVersion}), partitions of
 * unknown topics or out of range are refused here (UNKNOWN_TOPIC_OR_PARTITION, or UNKNOWN_TOPIC_ID for a
 * topic named by id, see {@link UnknownTopicId}), so are those of topics the client may not READ
 * (TOPIC_AUTHORIZATION_FAILED, Kafka's order: an unknown id first, then authorization, then existence), the
 * rest go to the group coordinator, and the response
 * answers every partition in request order. The two APIs have their own field descriptors, hence
 * {@link RequestFields} and {@link ResponseFields}.
 */
final class CommittedOffsetTopics {
    /**
     * One API's request topic and partition fields; {@code commitTimestamp} is OffsetCommit v1's per-partition
     * commit time, null for an API without one.
     */
    record RequestFields(Field<String> name, Field<UUID> topicId, Field<List<Struct>> partitions,
            Field<Integer> partitionIndex, Field<Long> committedOffset, Field<Integer> committedLeaderEpoch,
            Field<String> committedMetadata, Field<Long> commitTimestamp) {
        RequestFields(Field<String> name, Field<UUID> topicId, Field<List<Struct>> partitions,
                Field<Integer> partitionIndex, Field<Long> committedOffset, Field<Integer> committedLeaderEpoch,
                Field<String> committedMetadata) {
            this(name, topicId, partitions, partitionIndex, committedOffset, committedLeaderEpoch, committedMetadata, null);
        }
    }

    /** One API's response topic and partition fields. */
    record ResponseFields(Field<List<Struct>> topics, Field<String> name, Field<UUID> topicId,
            Field<List<Struct>> partitions, Field<Integer> partitionIndex, Field<Short> errorCode) {
    }

    /** When a topic named by id answers UNKNOWN_TOPIC_ID rather than UNKNOWN_TOPIC_OR_PARTITION. */
    enum UnknownTopicId {
        /** When the id names no topic (as Kafka's KafkaApis). */
        WHEN_ID_UNKNOWN,
        /** Also when the name it resolved to has no topic by the time it is looked up (a deletion racing the request). */
        WHEN_TOPIC_UNKNOWN
    }

    private final short firstTopicIdVersion;
    private final UnknownTopicId unknownTopicId;
    private final RequestFields requestFields;
    private final ResponseFields responseFields;

    CommittedOffsetTopics(short firstTopicIdVersion, UnknownTopicId unknownTopicId, RequestFields requestFields,
            ResponseFields responseFields) {
        this.firstTopicIdVersion = firstTopicIdVersion;
        this.unknownTopicId = unknownTopicId;
        this.requestFields = requestFields;
        this.responseFields = responseFields;
    }

    /** One topic of the request, the name it resolved to (null if unknown), its partitions and the errors of those refused here. */
    private record TopicEntry(Struct topic, String name, List<Integer> partitions, List<ErrorCode> refused) {
    }

    /**
     * Resolves a request's topics, refusing the partitions of unknown topics and out-of-range partitions, and
     * those of topics {@code mayRead} refuses.
     */
    Resolved resolve(List<Struct> requestTopics, short version, TopicService topics, Predicate<String> mayRead) {
        boolean byId = version >= firstTopicIdVersion;
        Resolved resolved = new Resolved();
        for (Struct t : requestTopics) {
            String name = byId ? topics.topicName(t.get(requestFields.topicId())).orElse(null) : t.get(requestFields.name());
            TopicInfo info = name == null ? null : topics.topic(name).orElse(null);
            boolean unknownId = byId && (unknownTopicId == UnknownTopicId.WHEN_ID_UNKNOWN ? name == null : info == null);
            TopicEntry entry = new TopicEntry(t, name, new ArrayList<>(), new ArrayList<>());
            resolved.entries.add(entry);
            boolean unauthorized = name != null && !mayRead.test(name);
            for (Struct p : t.get(requestFields.partitions())) {
                int index = p.get(requestFields.partitionIndex());
                entry.partitions().add(index);
                if (unauthorized) {
                    entry.refused().add(ErrorCode.TOPIC_AUTHORIZATION_FAILED);
                    continue;
                }
                if (info == null || index < 0 || index >= info.partitions()) {
                    entry.refused().add(unknownId ? ErrorCode.UNKNOWN_TOPIC_ID : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
                    continue;
                }
                entry.refused().add(null);
                resolved.valid.add(new OffsetCommitRequest.Partition(new TopicPartition(name, index),
                        p.get(requestFields.committedOffset()),
                        p.get(requestFields.committedLeaderEpoch()),
                        p.get(requestFields.committedMetadata()),
                        requestFields.commitTimestamp() == null ? OffsetCommitRequest.Partition.NOW
                                : p.get(requestFields.commitTimestamp())));
            }
        }
        return resolved;
    }

    /** Every topic and partition of the request answered {@code error} (a refusal of the whole request). */
    Struct refuseAll(List<Struct> requestTopics, Struct response, ErrorCode error) {
        for (Struct t : requestTopics) {
            Struct topic = response.add(responseFields.topics())
                    .set(responseFields.name(), t.get(requestFields.name()))
                    .set(responseFields.topicId(), t.get(requestFields.topicId()));
            for (Struct p : t.get(requestFields.partitions())) {
                topic.add(responseFields.partitions())
                        .set(responseFields.partitionIndex(), p.get(requestFields.partitionIndex()))
                        .set(responseFields.errorCode(), error.code());
            }
        }
        return response;
    }

    /** A request's topics once resolved: the partitions to commit, and what to answer for each. */
    final class Resolved {
        private final List<TopicEntry> entries = new ArrayList<>();
        private final List<OffsetCommitRequest.Partition> valid = new ArrayList<>();

        private Resolved() {
        }

        /** The partitions not refused here, in request order, for the group coordinator. */
        List<OffsetCommitRequest.Partition> valid() {
            return valid;
        }

        /**
         * Adds every request topic and partition to {@code response} with its error: the refusal, else the
         * coordinator's result (UNKNOWN_SERVER_ERROR if it has none), passed through {@code forClient}.
         */
        Struct addTo(Struct response, Map<TopicPartition, ErrorCode> results, UnaryOperator<ErrorCode> forClient) {
            for (TopicEntry e : entries) {
                Struct topic = response.add(responseFields.topics())
                        .set(responseFields.name(), e.topic().get(requestFields.name()))
                        .set(responseFields.topicId(), e.topic().get(requestFields.topicId()));
                for (int i = 0; i < e.partitions().size(); i++) {
                    int partition = e.partitions().get(i);
                    ErrorCode error = e.refused().get(i) != null ? e.refused().get(i)
                            : results.getOrDefault(new TopicPartition(e.name(), partition), ErrorCode.UNKNOWN_SERVER_ERROR);
                    topic.add(responseFields.partitions())
                            .set(responseFields.partitionIndex(), partition)
                            .set(responseFields.errorCode(), forClient.apply(error).code());
                }
            }
            return response;
        }
    }
}
