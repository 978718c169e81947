package io.odradek.broker.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.log.LogConfig;
import io.odradek.log.LogException;
import io.odradek.log.PartitionLog;
import io.odradek.log.StorageLimits;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.replication.metadata.TopicInfo;
import io.odradek.wire.ErrorCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopicServiceTest {
    @TempDir
    Path dir;

    private TopicService open() {
        return TopicService.open(new TopicService.Settings(List.of(dir), 1, LogConfig.defaults(), 1, (short) 1,
                true, true, 300_000L));
    }

    @Test
    void topicsKeepTheirIdsConfigsAndLogsAcrossARestart() {
        TopicInfo orders;
        try (TopicService topics = open()) {
            orders = topics.createTopic("orders", 2, Map.of("retention.ms", "5000"), false);
        }
        try (TopicService topics = open()) {
            assertThat(topics.topic("orders")).contains(orders);
            assertThat(topics.topicName(orders.id())).contains("orders");
            assertThat(topics.topicNameOrNull(orders.id())).isEqualTo("orders");
            assertThat(topics.topicNameOrNull(java.util.UUID.randomUUID())).isNull();
            assertThat(topics.topicId("orders")).contains(orders.id());
            PartitionLog log = topics.partitionLog("orders", 1).orElseThrow();
            assertThat(log.topicId()).isEqualTo(orders.id());
            assertThat(log.config().retentionMs()).isEqualTo(5000);
            assertThat(topics.partitionLog("orders", 2)).isEmpty();
        }
    }

    @Test
    void partitionDirsOfATopicMissingFromTheCatalogAreRemovedAtStart() {
        try (TopicService topics = open()) {
            topics.createTopic("kept", 1, Map.of(), false);
        }
        // As if a deletion reached the catalog but not the directories before a crash.
        PartitionLog.open(dir, "ghost", 0, LogConfig.defaults(),
                PartitionLog.Options.defaults().withTopicId(UUID.randomUUID())).close();

        try (TopicService topics = open()) {
            assertThat(topics.topics()).extracting(TopicInfo::name).containsExactly("kept");
            assertThat(dir.resolve("ghost-0")).doesNotExist();
            assertThat(dir.resolve("kept-0")).isDirectory();
        }
    }

    @Test
    void missingPartitionDirsAreCreatedAtStart() throws Exception {
        TopicInfo t;
        try (TopicService topics = open()) {
            t = topics.createTopic("orders", 2, Map.of(), false);
        }
        deleteRecursively(dir.resolve("orders-1"));

        try (TopicService topics = open()) {
            assertThat(topics.partitionLog("orders", 1).orElseThrow().topicId()).isEqualTo(t.id());
        }
    }

    @Test
    void aLostCatalogIsRebuiltFromPartitionDirs() throws Exception {
        TopicInfo t;
        try (TopicService topics = open()) {
            t = topics.createTopic("orders", 3, Map.of(), false);
        }
        Files.delete(dir.resolve("__cluster_metadata").resolve("topics"));

        try (TopicService topics = open()) {
            assertThat(topics.topic("orders")).get().satisfies(restored -> {
                assertThat(restored.id()).isEqualTo(t.id());
                assertThat(restored.partitions()).isEqualTo(3);
            });
        }
    }

    @Test
    void aPartitionDirOfAnotherTopicIdStopsTheStart() throws Exception {
        try (TopicService topics = open()) {
            topics.createTopic("orders", 1, Map.of(), false);
        }
        deleteRecursively(dir.resolve("orders-0"));
        PartitionLog.open(dir, "orders", 0, LogConfig.defaults(),
                PartitionLog.Options.defaults().withTopicId(UUID.randomUUID())).close();

        assertThatThrownBy(this::open).isInstanceOfSatisfying(LogException.class,
                e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INCONSISTENT_TOPIC_ID))
                .hasMessageContaining("orders-0");
    }

    @Test
    void deleteRemovesTheTopicEverywhere() {
        try (TopicService topics = open()) {
            TopicInfo t = topics.createTopic("orders", 2, Map.of(), false);

            assertThat(topics.deleteTopic("orders")).isEqualTo(t);

            assertThat(topics.topics()).isEmpty();
            assertThat(topics.partitionLog("orders", 0)).isEmpty();
            assertThat(dir.resolve("orders-0")).doesNotExist();
        }
        try (TopicService topics = open()) {
            assertThat(topics.topics()).isEmpty();
        }
    }

    @Test
    void aCreationWhosePartitionLogFailsLeavesNothingBehindAndTheBrokerRestarts() throws Exception {
        // A plain file where partition 2's directory would go: its log cannot be created.
        Files.writeString(dir.resolve("orders-2"), "in the way");
        try (TopicService topics = open()) {
            assertThatThrownBy(() -> topics.createTopic("orders", 4, Map.of(), false))
                    .isInstanceOfSatisfying(MetadataException.class,
                            e -> assertThat(e.error()).isEqualTo(ErrorCode.KAFKA_STORAGE_ERROR))
                    .hasMessageContaining("Cannot create the logs of topic 'orders'")
                    .hasMessageContaining("partition 2 of topic orders");
            assertThat(topics.topics()).isEmpty();
            assertThat(dir.resolve("orders-0")).doesNotExist();
            assertThat(dir.resolve("orders-1")).doesNotExist();
        }
        Files.delete(dir.resolve("orders-2"));
        try (TopicService topics = open()) {
            assertThat(topics.topics()).isEmpty();
            assertThat(topics.createTopic("orders", 4, Map.of(), false).partitions()).isEqualTo(4);
        }
    }

    @Test
    void aStartThatCannotOpenAPartitionNamesTheTopicAndPartition() throws Exception {
        try (TopicService topics = open()) {
            topics.createTopic("orders", 2, Map.of(), false);
        }
        deleteRecursively(dir.resolve("orders-1"));
        Files.writeString(dir.resolve("orders-1"), "in the way");

        assertThatThrownBy(this::open).isInstanceOf(LogException.class)
                .hasMessageStartingWith("cannot open partition 1 of topic orders in " + dir);
    }

    @Test
    void partitionDirsOfACreationThatCrashedBeforeItsCatalogWriteAreRemovedAtStart() {
        try (TopicService topics = open()) {
            assertThat(topics.topics()).isEmpty();
        }
        // The very first creation crashed after its logs, before the catalog: the dirs are orphans.
        PartitionLog.open(dir, "half", 0, LogConfig.defaults(),
                PartitionLog.Options.defaults().withTopicId(UUID.randomUUID())).close();

        try (TopicService topics = open()) {
            assertThat(topics.topics()).isEmpty();
            assertThat(dir.resolve("half-0")).doesNotExist();
        }
    }

    @Test
    void osLimitFailuresAreExplainedWithTheLimitToRaise() {
        String files = StorageLimits.describe(new java.io.IOException("/data/t-7/00000000000000000000.log: Too many open files"));
        String maps = StorageLimits.describe(new java.io.IOException("Map failed", new OutOfMemoryError("Map failed")));

        assertThat(files).startsWith("/data/t-7/00000000000000000000.log: Too many open files (the open-file limit is reached (ulimit -n = ")
                .contains("raise it (ulimit -n");
        assertThat(maps).startsWith("Map failed (the memory-map limit is reached (vm.max_map_count = ")
                .contains("sysctl vm.max_map_count");
        assertThat(StorageLimits.describe(new java.io.IOException("Permission denied"))).isEqualTo("Permission denied");
    }

    @Test
    void aDeletionInterruptedByACrashIsCompletedAtStartNotUndone() throws Exception {
        TopicInfo t;
        try (TopicService topics = open()) {
            t = topics.createTopic("orders", 2, Map.of(), false);
            topics.createTopic("kept", 1, Map.of(), false);
        }
        // The crash came after partition 0 was renamed for deletion, before partition 1 and the catalog.
        String hex = t.id().toString().replace("-", "");
        Files.move(dir.resolve("orders-0"), dir.resolve("orders-0." + hex + "-delete"));

        try (TopicService topics = open()) {
            assertThat(topics.topics()).extracting(TopicInfo::name).containsExactly("kept");
        }
        try (Stream<Path> children = Files.list(dir)) {
            assertThat(children.map(p -> p.getFileName().toString()).filter(n -> n.contains("orders")))
                    .as("no partition dir or deletion marker of orders is left").isEmpty();
        }
        try (TopicService topics = open()) {
            assertThat(topics.topics()).extracting(TopicInfo::name).containsExactly("kept");
        }
    }

    @Test
    void aDeletionMarkerOfAnotherTopicIdDoesNotTouchTheTopicOfThatName() throws Exception {
        try (TopicService topics = open()) {
            topics.createTopic("orders", 1, Map.of(), false);
        }
        // Left by an earlier incarnation of "orders", deleted and created again.
        Files.createDirectories(dir.resolve("orders-0." + UUID.randomUUID().toString().replace("-", "") + "-delete"));

        try (TopicService topics = open()) {
            assertThat(topics.topics()).extracting(TopicInfo::name).containsExactly("orders");
            assertThat(topics.partitionLog("orders", 0)).isPresent();
        }
    }

    private static void deleteRecursively(Path root) throws Exception {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
