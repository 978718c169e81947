package io.odradek.broker.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.log.LogConfig;
import io.odradek.log.LogException;
import io.odradek.log.PartitionLog;
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

    private static void deleteRecursively(Path root) throws Exception {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
