package io.odradek.replication.partition;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.log.LogConfig;
import io.odradek.log.PartitionLog;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionsTest {
    @TempDir
    Path dir;

    private final Map<String, PartitionLog> logs = new HashMap<>();
    private final Partitions partitions = new Partitions(new Partitions.Source() {
        @Override
        public Optional<PartitionLog> partitionLog(String topic, int partition) {
            return Optional.ofNullable(logs.get(topic + "-" + partition));
        }

        @Override
        public OptionalInt leaderEpoch(String topic, int partition) {
            return logs.containsKey(topic + "-" + partition) ? OptionalInt.of(5) : OptionalInt.empty();
        }
    }, new PartitionWriters(1), new WaitingOperations<>("test"));

    @AfterEach
    void tearDown() {
        partitions.close();
        logs.values().forEach(PartitionLog::close);
    }

    private PartitionLog create(String topic, int partition) {
        PartitionLog log = PartitionLog.open(dir.resolve(Integer.toString(logs.size())), topic, partition, LogConfig.defaults());
        logs.put(topic + "-" + partition, log);
        return log;
    }

    @Test
    void aPartitionIsMadeOnceWithTheEpochFromTheMetadata() {
        PartitionLog log = create("orders", 0);
        Partition first = partitions.partition("orders", 0).orElseThrow();

        assertThat(partitions.partition("orders", 0)).containsSame(first);
        assertThat(first.log()).isSameAs(log);
        assertThat(first.leaderEpoch()).isEqualTo(5);
        assertThat(partitions.partition("orders", 1)).isEmpty();
    }

    @Test
    void aRecreatedTopicGetsAFreshPartitionAndADeletedOneNone() {
        create("orders", 0);
        Partition old = partitions.partition("orders", 0).orElseThrow();

        logs.remove("orders-0").close();
        assertThat(partitions.partition("orders", 0)).isEmpty();

        PartitionLog recreated = create("orders", 0);
        Partition fresh = partitions.partition("orders", 0).orElseThrow();
        assertThat(fresh).isNotSameAs(old);
        assertThat(fresh.log()).isSameAs(recreated);
    }
}
