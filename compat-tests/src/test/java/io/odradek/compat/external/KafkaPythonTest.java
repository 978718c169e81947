package io.odradek.compat.external;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.odradek.compat.OdradekBroker;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * kafka-python 2.0.2, the last release of the client many Python applications still run: a producer of keyed
 * gzip records and a consumer group that commits and resumes. With its version auto-detection it asks
 * ApiVersions (v0) and picks its newest request versions the broker lists; pinned to {@code api_version=(0, 10,
 * 1)} it speaks Kafka 0.10.1's protocol: Produce v2 with a magic 1 message set (a gzip wrapper message),
 * Fetch v3 answered with magic 1, ListOffsets v1, GroupCoordinator (FindCoordinator) v0, JoinGroup v1,
 * OffsetCommit v2 and OffsetFetch v1.
 */
@ExtendWith(ExternalClients.class)
class KafkaPythonTest {
    @RegisterExtension
    static final OdradekBroker broker = OdradekBroker.withConfig(Map.of("group.initial.rebalance.delay.ms", "0"));

    @ParameterizedTest(name = "api_version {0}")
    @ValueSource(strings = {"auto", "0.10.1"})
    void keyedGzipRecordsAreReadByAGroupThatResumesFromItsCommittedOffsets(String version) throws Exception {
        KafkaPython python = new KafkaPython(broker, version.equals("auto") ? null
                : Arrays.stream(version.split("\\.")).map(Integer::valueOf).toList());
        String topic = "kafka-python-" + version.replace(".", "");
        String group = "kafka-python-group-" + version.replace(".", "");
        broker.createTopic(topic, 2);

        long before = System.currentTimeMillis();
        Map<String, String> first = OldClientRecords.messages("", 0, 8);
        List<String> firstLines = OldClientRecords.expected(first, k -> KcatTest.murmur2(k, 2), Map.of());
        KafkaPython.Run produced = python.produce(topic, "gzip", first);
        assertThat(produced.events("delivered")).as(produced.describe()).extracting(OldClientRecords::line)
                .containsExactlyElementsOf(firstLines);
        assertThat(StoredBatches.codecs(broker.partitionDir(topic, 0))).as("stored as the producer compressed")
                .isNotEmpty().containsOnly("gzip");

        KafkaPython.Run read = python.consume(topic, group, first.size());
        assertThat(OldClientRecords.sorted(lines(read.events("message")))).as(read.describe())
                .containsExactlyElementsOf(OldClientRecords.sorted(firstLines));
        long after = System.currentTimeMillis();
        assertThat(read.events("message")).as("CreateTime (type 0) as the producer stamped each record")
                .allMatch(e -> e.get("timestampType").asInt() == 0)
                .extracting(e -> e.get("timestamp").asLong()).allMatch(t -> t >= before && t <= after);
        Map<Integer, Long> firstEnds = OldClientRecords.ends(firstLines);
        assertThat(committed(read)).as("what the consumer's commit() stored").isEqualTo(firstEnds);
        assertThat(OldClientRecords.committed(broker, group)).isEqualTo(firstEnds);

        Map<String, String> second = OldClientRecords.messages("", 8, 13);
        List<String> secondLines = OldClientRecords.expected(second, k -> KcatTest.murmur2(k, 2), firstEnds);
        assertThat(python.produce(topic, "gzip", second).events("delivered")).extracting(OldClientRecords::line)
                .containsExactlyElementsOf(secondLines);

        KafkaPython.Run resumed = python.consume(topic, group, second.size());
        assertThat(OldClientRecords.sorted(lines(resumed.events("message"))))
                .as("a new consumer of the group starts at the committed offsets; %s", resumed.describe())
                .containsExactlyElementsOf(OldClientRecords.sorted(secondLines));
        assertThat(OldClientRecords.committed(broker, group)).isEqualTo(OldClientRecords.ends(secondLines));
        if (!version.equals("auto")) {
            assertThat(read.requestsSent()).as("Kafka 0.10.1's versions").contains("Fetch v3", "OffsetCommit v2",
                    "OffsetFetch v1", "JoinGroup v1");
            assertThat(produced.requestsSent()).contains("Produce v2");
        }
    }

    private static List<String> lines(List<JsonNode> events) {
        return events.stream().map(OldClientRecords::line).toList();
    }

    private static Map<Integer, Long> committed(KafkaPython.Run run) {
        return run.events("committed").stream().collect(java.util.stream.Collectors.toMap(
                e -> e.get("partition").asInt(), e -> e.get("offset").asLong()));
    }
}
