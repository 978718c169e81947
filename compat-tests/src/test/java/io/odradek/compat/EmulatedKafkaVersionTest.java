package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.NodeApiVersions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kafka 4.4's Java clients against a broker emulating Kafka 2.8 ({@code odradek.emulate.version=2.8}): they negotiate
 * 2.8's versions and work as against a real 2.8 broker, classic consumer groups included; the KIP-848 consumer
 * protocol, which 2.8 lacks, fails with the client's own error.
 */
class EmulatedKafkaVersionTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @RegisterExtension
    static final OdradekBroker BROKER = OdradekBroker.withConfig(Map.of("odradek.emulate.version", "2.8",
            "offsets.topic.num.partitions", "3", "group.initial.rebalance.delay.ms", "0"));

    @Test
    void theJavaClientSeesKafka28sVersions() throws Exception {
        try (RawConnection client = new RawConnection(BROKER.port())) {
            // A 4.4 client opens with ApiVersions v5: above 2.8's v3, so the v0 UNSUPPORTED_VERSION answer comes back.
            assertThat(Errors.forCode(client.apiVersions())).isEqualTo(Errors.UNSUPPORTED_VERSION);
            // It retries at v3, as it does against 2.8, and negotiates from what that answer lists.
            ApiVersionsResponseData data = client.roundTrip(new ApiVersionsRequest.Builder().build((short) 3),
                    ApiVersionsResponse.class).data();
            NodeApiVersions versions = new NodeApiVersions(data.apiKeys(), data.supportedFeatures(),
                    data.finalizedFeatures(), data.finalizedFeaturesEpoch());
            Map<String, Short> negotiated = new TreeMap<>();
            for (ApiKeys api : List.of(ApiKeys.PRODUCE, ApiKeys.FETCH, ApiKeys.LIST_OFFSETS, ApiKeys.METADATA,
                    ApiKeys.OFFSET_COMMIT, ApiKeys.OFFSET_FETCH, ApiKeys.FIND_COORDINATOR, ApiKeys.JOIN_GROUP,
                    ApiKeys.API_VERSIONS, ApiKeys.INIT_PRODUCER_ID)) {
                negotiated.put(api.name, versions.latestUsableVersion(api));
            }
            assertThat(negotiated).isEqualTo(Map.of("Produce", (short) 9, "Fetch", (short) 12, "ListOffsets", (short) 6,
                    "Metadata", (short) 11, "OffsetCommit", (short) 8, "OffsetFetch", (short) 7, "FindCoordinator",
                    (short) 3, "JoinGroup", (short) 7, "ApiVersions", (short) 3, "InitProducerId", (short) 4));
            assertThat(versions.apiVersion(ApiKeys.CONSUMER_GROUP_HEARTBEAT)).isNull();
            assertThat(versions.apiVersion(ApiKeys.DESCRIBE_TOPIC_PARTITIONS)).isNull();
            assertThat(versions.finalizedFeatures()).isEmpty();
            assertThat(versions.finalizedFeaturesEpoch()).isEqualTo(-1L);
        }
    }

    @Test
    void aProducerAndAClassicGroupConsumerWorkAsAgainstKafka28() throws Exception {
        String topic = "emulated-28";
        BROKER.createTopic(topic, 2);
        KafkaProducer<String, String> producer = Clients.producer(BROKER, Map.of());
        Map<String, RecordMetadata> acks = new TreeMap<>();
        for (int i = 0; i < 20; i++) {
            acks.put("key-" + i, producer.send(new ProducerRecord<>(topic, i % 2, "key-" + i, "value-" + i)).get());
        }
        assertThat(acks.values()).extracting(RecordMetadata::offset).containsOnly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);

        KafkaConsumer<String, String> consumer = Clients.consumer(BROKER, Map.of(
                ConsumerConfig.GROUP_ID_CONFIG, "emulated-28-group",
                ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"));
        consumer.subscribe(List.of(topic));
        List<String> seen = new ArrayList<>();
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (seen.size() < 20 && System.nanoTime() < deadline) {
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                RecordMetadata ack = acks.get(r.key());
                assertThat(r.partition() + "@" + r.offset()).as(r.key()).isEqualTo(ack.partition() + "@" + ack.offset());
                seen.add(r.key() + "=" + r.value());
            }
        }
        assertThat(seen).hasSize(20).containsAll(
                acks.keySet().stream().map(k -> k + "=value-" + k.substring("key-".length())).toList());
        consumer.commitSync();
        assertThat(consumer.groupMetadata().generationId()).isGreaterThan(0);

        Map<TopicPartition, OffsetAndMetadata> committed = OdradekBroker.await(
                BROKER.admin().listConsumerGroupOffsets("emulated-28-group").partitionsToOffsetAndMetadata());
        assertThat(committed).containsOnlyKeys(new TopicPartition(topic, 0), new TopicPartition(topic, 1));
        assertThat(committed.values()).extracting(OffsetAndMetadata::offset).containsOnly(10L);
    }

    @Test
    void theNewConsumerGroupProtocolFailsAsAgainstKafka28() {
        String topic = "emulated-28-kip848";
        BROKER.createTopic(topic, 1);
        KafkaConsumer<String, String> consumer = Clients.consumer(BROKER, Map.of(
                ConsumerConfig.GROUP_ID_CONFIG, "emulated-28-kip848-group",
                ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer"));
        consumer.subscribe(List.of(topic));
        Throwable failure = null;
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (failure == null && System.nanoTime() < deadline) {
            try {
                consumer.poll(Duration.ofMillis(200));
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        assertThat(failure).isInstanceOf(UnsupportedVersionException.class)
                .hasMessage("The cluster does not support the new CONSUMER group protocol. Set group.protocol=classic"
                        + " on the consumer configs to revert to the CLASSIC protocol until the cluster is upgraded.");
    }
}
