package io.odradek.compat.external;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.odradek.compat.OdradekBroker;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Sarama 1.22, a Go client from before Kafka 2.1 that many services still build against. It sends no
 * ApiVersions: its {@code Config.Version} fixes every request version. Its default, V0_8_2_0, produces with
 * Produce v0 (magic 0 messages, no timestamps), fetches with Fetch v0 and asks ListOffsets v0 for the end.
 * V0_10_2_0 uses Produce v2 (magic 1), Fetch v3, ListOffsets v1; even V2_1_0_0 stops at Produce v3 and Fetch v4
 * (v2 batches), Metadata v5. Its ConsumerGroup needs V0_10_2_0 at least and then sends JoinGroup v1, SyncGroup
 * v0, Heartbeat v0, OffsetFetch v1 and OffsetCommit v1 (v2 only with Consumer.Offsets.Retention set), whatever
 * the version.
 */
@ExtendWith(ExternalClients.class)
class SaramaTest {
    @RegisterExtension
    static final OdradekBroker broker = OdradekBroker.withConfig(Map.of("group.initial.rebalance.delay.ms", "0"));

    @ParameterizedTest(name = "Sarama version {0}, compression {1}")
    @CsvSource({"default, none", "default, gzip", "0.10.2.0, snappy", "0.10.2.0, lz4", "2.1.0, none"})
    void syncProducerKeyedMessagesAreReadBackExactlyByPartitionConsumers(String version, String codec)
            throws Exception {
        Sarama sarama = new Sarama(broker, version.equals("default") ? Sarama.DEFAULT_VERSION : version);
        String topic = "sarama-" + version.replace(".", "") + "-" + codec; // no dots: Kafka warns of them
        broker.createTopic(topic, 3);
        Map<String, String> messages = OldClientRecords.messages("", 0, 12);
        List<String> expected = OldClientRecords.expected(messages, k -> Sarama.partition(k, 3), Map.of());

        long before = System.currentTimeMillis();
        Sarama.Run produced = sarama.produce(topic, codec, messages);
        long after = System.currentTimeMillis();
        assertThat(produced.events("delivered")).extracting(OldClientRecords::line)
                .as("Sarama's FNV-1a partitions, offsets in send order")
                .containsExactlyElementsOf(expected);

        Sarama.Run read = sarama.consume(topic, 3);
        Map<Integer, Long> ends = OldClientRecords.ends(expected);
        assertThat(read.events("end")).extracting(e -> e.get("partition").asInt() + ":" + e.get("offset").asLong())
                .as("ListOffsets latest").containsExactly(
                        "0:" + ends.getOrDefault(0, 0L), "1:" + ends.getOrDefault(1, 0L),
                        "2:" + ends.getOrDefault(2, 0L));
        assertThat(read.events("message")).extracting(OldClientRecords::line)
                .containsExactlyElementsOf(OldClientRecords.sorted(expected));
        if (version.equals("default")) {
            assertThat(read.events("message")).extracting(e -> e.get("timestamp").asLong())
                    .as("magic 0 messages carry no timestamp").containsOnly(-1L);
        } else {
            assertThat(read.events("message")).extracting(e -> e.get("timestamp").asLong())
                    .as("the producer's CreateTime, kept through conversion").allMatch(t -> t >= before && t <= after);
        }
        for (int p = 0; p < 3; p++) {
            assertThat(StoredBatches.codecs(broker.partitionDir(topic, p))).as("partition %d stored as sent", p)
                    .containsOnly(codec);
        }
    }

    @ParameterizedTest(name = "Sarama version {0}")
    @ValueSource(strings = {"0.10.2.0", "2.1.0"})
    void consumerGroupResumesFromTheOffsetsItCommitted(String version) throws Exception {
        Sarama sarama = new Sarama(broker, version);
        String topic = "sarama-group-" + version.replace(".", "");
        String group = "sarama-g-" + version.replace(".", "");
        broker.createTopic(topic, 2);
        Map<String, String> first = OldClientRecords.messages("", 0, 7);
        List<String> firstLines = OldClientRecords.expected(first, k -> Sarama.partition(k, 2), Map.of());
        assertThat(sarama.produce(topic, "none", first).events("delivered")).extracting(OldClientRecords::line)
                .containsExactlyElementsOf(firstLines);

        Sarama.Run read = sarama.group(topic, group, first.size());
        assertThat(read.events("groupError")).as(read.process().describe()).isEmpty();
        assertThat(read.events("assigned")).extracting(e -> e.get("topic").asText() + " " + e.get("partitions"))
                .containsExactly(topic + " [0,1]");
        assertThat(OldClientRecords.sorted(lines(read.events("message")))).as(read.process().describe())
                .containsExactlyElementsOf(OldClientRecords.sorted(firstLines));
        Map<Integer, Long> firstEnds = OldClientRecords.ends(firstLines);
        assertThat(OldClientRecords.committed(broker, group)).as("committed when the member closed")
                .isEqualTo(firstEnds);

        Map<String, String> second = OldClientRecords.messages("", 7, 11);
        List<String> secondLines = OldClientRecords.expected(second, k -> Sarama.partition(k, 2), firstEnds);
        sarama.produce(topic, "none", second);
        Sarama.Run resumed = sarama.group(topic, group, second.size());
        assertThat(resumed.events("groupError")).as(resumed.process().describe()).isEmpty();
        assertThat(OldClientRecords.sorted(lines(resumed.events("message"))))
                .as("the next member starts at the committed offsets; %s", resumed.process().describe())
                .containsExactlyElementsOf(OldClientRecords.sorted(secondLines));
        assertThat(OldClientRecords.committed(broker, group)).isEqualTo(OldClientRecords.ends(secondLines));
    }

    private static List<String> lines(List<JsonNode> events) {
        return events.stream().map(OldClientRecords::line).collect(Collectors.toList());
    }
}
