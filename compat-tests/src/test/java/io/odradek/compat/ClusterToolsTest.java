package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.tools.LogDirsCommand;
import org.apache.kafka.tools.MetadataQuorumCommand;
import org.apache.kafka.tools.TopicCommand;
import org.apache.kafka.tools.reassign.ReassignPartitionsCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kafka's own cluster tools against a single-node Odradek: kafka-metadata-quorum, kafka-topics --alter,
 * kafka-log-dirs and kafka-reassign-partitions --list.
 */
class ClusterToolsTest {
    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withConfig(Map.of());

    @Test
    void metadataQuorumStatusShowsThisBrokerLeadingAOneVoterQuorum() throws Exception {
        KafkaTool.Exited status = KafkaTool.runToExit(MetadataQuorumCommand::main,
                "--bootstrap-server", broker.bootstrap(), "describe", "--status");

        assertThat(status.status()).as(status.stderr()).isZero();
        assertThat(status.stdout()).containsPattern("LeaderId:\\s+1\\b")
                .containsPattern("LeaderEpoch:\\s+1\\b")
                .containsPattern("HighWatermark:\\s+0\\b")
                .containsPattern("CurrentVoters:\\s+\\[\\{\"id\": 1\\b");
    }

    @Test
    void topicsAlterGrowsATopicThatDescribeThenShowsLedByThisBroker() throws Exception {
        broker.createTopic("orders", 1);

        // kafka-topics exits from a finally block and then again from main, so its status here is not telling:
        // the describe that follows shows what the alter did.
        KafkaTool.runToExit(TopicCommand::main, "--bootstrap-server", broker.bootstrap(),
                "--alter", "--topic", "orders", "--partitions", "3");
        KafkaTool.Exited describe = KafkaTool.runToExit(TopicCommand::main, "--bootstrap-server", broker.bootstrap(),
                "--describe", "--topic", "orders");

        assertThat(describe.stdout()).containsPattern("PartitionCount:\\s*3")
                .containsPattern("Partition: 2\\s+Leader: 1\\s+Replicas: 1\\s+Isr: 1");
    }

    @Test
    void logDirsDescribeListsEveryPartitionOfTheBroker() throws Exception {
        broker.createTopic("orders", 2);

        KafkaTool.Exited dirs = KafkaTool.runToExit(LogDirsCommand::main, "--bootstrap-server", broker.bootstrap(),
                "--describe", "--broker-list", "1");

        assertThat(dirs.status()).as(dirs.stderr()).isZero();
        assertThat(dirs.stdout()).contains("\"partition\":\"orders-0\"").contains("\"partition\":\"orders-1\"")
                .contains("\"logDir\":\"" + broker.logDir().toAbsolutePath().normalize() + "\"");
    }

    @Test
    void reassignPartitionsListShowsNothingInProgress() throws Exception {
        broker.createTopic("orders", 1);

        KafkaTool.Output list = KafkaTool.run(ReassignPartitionsCommand::main,
                "--bootstrap-server", broker.bootstrap(), "--list");

        assertThat(list.stdout()).isEqualToIgnoringNewLines("No partition reassignments found.");
    }
}
