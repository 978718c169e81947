package io.odradek.compat.external;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.compat.OdradekBroker;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kafka-python 2.0.2 against a broker emulating Kafka 0.11.0 ({@code odradek.emulate.version=0.11.0}). kafka-python
 * guesses the broker's release from the API versions it lists (no Metadata v5, so not 1.0; Metadata v4, so 0.11.0)
 * and then speaks 0.11.0's protocol as it does against a real 0.11.0 broker: record batches (magic 2) with Produce
 * v3 and Fetch v4, and a consumer group (JoinGroup v2) that commits.
 */
@ExtendWith(ExternalClients.class)
class KafkaPythonEmulatedVersionTest {
    @RegisterExtension
    static final OdradekBroker broker = OdradekBroker.withConfig(Map.of("odradek.emulate.version", "0.11.0",
            "group.initial.rebalance.delay.ms", "0"));

    @Test
    void kafkaPythonDetectsKafka0110AndProducesAndConsumesWithItsVersions() throws Exception {
        KafkaPython python = new KafkaPython(broker, null);
        String topic = "kafka-python-emulated-0110";
        String group = "kafka-python-emulated-0110-group";
        broker.createTopic(topic, 2);

        Map<String, String> messages = OldClientRecords.messages("", 0, 6);
        List<String> lines = OldClientRecords.expected(messages, k -> KcatTest.murmur2(k, 2), Map.of());
        KafkaPython.Run produced = python.produce(topic, "gzip", messages);
        assertThat(produced.events("apiVersion")).extracting(e -> e.get("version").toString())
                .as(produced.describe()).containsExactly("[0,11,0]");
        assertThat(produced.events("delivered")).extracting(OldClientRecords::line).containsExactlyElementsOf(lines);
        assertThat(produced.requestsSent()).contains("Produce v3").noneMatch(r -> r.startsWith("Produce v4"));

        KafkaPython.Run read = python.consume(topic, group, messages.size());
        assertThat(read.events("apiVersion")).extracting(e -> e.get("version").toString()).containsExactly("[0,11,0]");
        assertThat(OldClientRecords.sorted(read.events("message").stream().map(OldClientRecords::line).toList()))
                .as(read.describe()).containsExactlyElementsOf(OldClientRecords.sorted(lines));
        assertThat(OldClientRecords.committed(broker, group)).isEqualTo(OldClientRecords.ends(lines));
        // kafka-python's own choices for a 0.11.0 broker (it never uses OffsetCommit v3 / OffsetFetch v2+).
        assertThat(read.requestsSent()).contains("Fetch v4", "JoinGroup v2", "OffsetCommit v2", "OffsetFetch v1");
    }
}
