package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.group.GroupCoordinatorConfig;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.transaction.InitProducerIdResult;
import io.odradek.coordinator.transaction.TransactionCoordinatorConfig;
import io.odradek.coordinator.transaction.TransactionDescription;
import io.odradek.wire.ErrorCode;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerServicesTest {
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    @TempDir
    Path dir;

    @Test
    void partitionWritersFollowNumIoThreadsUpToTheCores() {
        assertThat(BrokerServices.writerThreads(BrokerConfig.of(Map.of("num.io.threads", "1")))).isEqualTo(1);
        assertThat(BrokerServices.writerThreads(BrokerConfig.of(Map.of("num.io.threads", "64")))).isEqualTo(Math.min(64, CORES));
        assertThat(BrokerServices.writerThreads(BrokerConfig.of(Map.of()))).isEqualTo(Math.min(8, CORES));
    }

    @Test
    void coordinatorWriteTimeoutsComeFromKafkasKeysWithKafkasDefaults() {
        Map<String, String> defaults = BrokerConfig.of(Map.of()).effectiveConfigs();
        assertThat(GroupCoordinatorConfig.from(defaults).offsetCommitTimeoutMs()).isEqualTo(5000);
        assertThat(TransactionCoordinatorConfig.from(defaults).requestTimeoutMs()).isEqualTo(30_000);

        Map<String, String> set = BrokerConfig.of(Map.of("offsets.commit.timeout.ms", "700",
                "request.timeout.ms", "900")).effectiveConfigs();
        assertThat(GroupCoordinatorConfig.from(set).offsetCommitTimeoutMs()).isEqualTo(700);
        assertThat(TransactionCoordinatorConfig.from(set).requestTimeoutMs()).isEqualTo(900);
    }

    @Test
    void addOffsetsToTxnUsesTheExistingOffsetsTopicsPartitionCountNotTheConfiguredOne() throws Exception {
        // __consumer_offsets created earlier with 7 partitions; the broker now says 50 (the default)
        GroupCoordinatorConfig earlier = GroupCoordinatorConfig.from(Map.of("offsets.topic.num.partitions", "7"));
        try (BrokerServices first = BrokerServices.open(config())) {
            first.topics.createTopic(OffsetsTopic.NAME, 7, earlier.offsetsTopicConfigs(), false);
        }
        String group = "g"; // abs(hash) % 7 = 5, % 50 = 3
        try (BrokerServices services = BrokerServices.open(config())) {
            assertThat(services.groups.partitionFor(group)).isEqualTo(5);
            while (!services.transactionStateTopic.ensureCreated() || !services.transactions.isLoaded()) {
                Thread.sleep(10);
            }
            InitProducerIdResult producer = services.transactions.initProducerId("tx", 60_000, -1L, (short) -1, false, false).join();
            assertThat(producer.error()).isEqualTo(ErrorCode.NONE);

            assertThat(services.transactions.addOffsets("tx", producer.producerId(), producer.producerEpoch(), group).join())
                    .isEqualTo(ErrorCode.NONE);

            TransactionDescription txn = services.transactions.describeTransactions(List.of("tx")).join().get(0);
            assertThat(txn.state()).isEqualTo("Ongoing");
            assertThat(txn.topics()).containsExactly(Map.entry(OffsetsTopic.NAME, List.of(5)));
        }
    }

    private BrokerConfig config() {
        Map<String, String> props = new HashMap<>();
        props.put("log.dirs", dir.toString());
        props.put("node.id", "1");
        props.put("listeners", "PLAINTEXT://127.0.0.1:0");
        props.put("transaction.state.log.num.partitions", "2");
        return BrokerConfig.of(props);
    }
}
