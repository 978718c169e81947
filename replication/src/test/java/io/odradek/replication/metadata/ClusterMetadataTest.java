package io.odradek.replication.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.wire.ErrorCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterMetadataTest {
    @TempDir
    Path dir;

    @Test
    void topicsSurviveReopeningWithTheirIdsAndConfigs() {
        ClusterMetadata first = ClusterMetadata.open(List.of(dir), 1);
        TopicInfo orders = first.createTopic("orders", 3, Map.of("retention.ms", "60000", "cleanup.policy", "compact,delete"));
        TopicInfo audit = first.createTopic("audit-log", 1, Map.of());

        ClusterMetadata reopened = ClusterMetadata.open(List.of(dir), 1);

        assertThat(reopened.clusterId()).isEqualTo(first.clusterId());
        assertThat(reopened.topics()).containsExactly(audit, orders);
        assertThat(reopened.topic(orders.id())).contains(orders);
        assertThat(reopened.topic("orders").orElseThrow().configs())
                .containsExactlyInAnyOrderEntriesOf(Map.of("retention.ms", "60000", "cleanup.policy", "compact,delete"));
    }

    @Test
    void deletedTopicIsGoneAfterReopening() {
        ClusterMetadata metadata = ClusterMetadata.open(List.of(dir), 1);
        TopicInfo t = metadata.createTopic("gone", 2, Map.of());

        assertThat(metadata.deleteTopic("gone")).isEqualTo(t);

        ClusterMetadata reopened = ClusterMetadata.open(List.of(dir), 1);
        assertThat(reopened.topics()).isEmpty();
        assertThat(reopened.topic(t.id())).isEmpty();
    }

    @Test
    void createRefusesExistingCollidingAndInvalidNames() {
        ClusterMetadata metadata = ClusterMetadata.open(List.of(dir), 1);
        metadata.createTopic("my.topic", 1, Map.of());

        assertError(() -> metadata.createTopic("my.topic", 1, Map.of()), ErrorCode.TOPIC_ALREADY_EXISTS,
                "Topic 'my.topic' already exists.");
        assertError(() -> metadata.createTopic("my_topic", 1, Map.of()), ErrorCode.INVALID_TOPIC_EXCEPTION,
                "Topic 'my_topic' collides with existing topic: my.topic");
        assertError(() -> metadata.createTopic("bad name", 1, Map.of()), ErrorCode.INVALID_TOPIC_EXCEPTION,
                "Topic name \"bad name\" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'");
        assertError(() -> metadata.createTopic("zero", 0, Map.of()), ErrorCode.INVALID_PARTITIONS,
                "Number of partitions was set to an invalid non-positive value.");
        assertThat(metadata.topics()).extracting(TopicInfo::name).containsExactly("my.topic");
    }

    @Test
    void deletingAnUnknownTopicIsUnknownTopicOrPartition() {
        ClusterMetadata metadata = ClusterMetadata.open(List.of(dir), 1);

        assertThatThrownBy(() -> metadata.deleteTopic("nope")).isInstanceOf(MetadataException.class)
                .extracting(e -> ((MetadataException) e).error()).isEqualTo(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    }

    @Test
    void internalTopicsAreMarkedInternal() {
        ClusterMetadata metadata = ClusterMetadata.open(List.of(dir), 1);

        assertThat(metadata.createTopic("__consumer_offsets", 50, Map.of()).internal()).isTrue();
        assertThat(metadata.createTopic("__mine", 1, Map.of()).internal()).isFalse();
    }

    @Test
    void catalogIsAReadableLineFileWithoutLeftoverTempFile() throws Exception {
        ClusterMetadata metadata = ClusterMetadata.open(List.of(dir), 1);
        TopicInfo t = metadata.createTopic("orders", 2, Map.of("retention.ms", "1000"));

        Path file = dir.resolve("__cluster_metadata").resolve("topics");
        assertThat(Files.readAllLines(file)).containsExactly("# odradek topics v1",
                "orders\t" + Ids.toBase64(t.id()) + "\t2\tretention.ms=1000");
        assertThat(dir.resolve("__cluster_metadata").resolve("topics.tmp")).doesNotExist();
    }

    private static void assertError(Runnable action, ErrorCode code, String message) {
        assertThatThrownBy(action::run).isInstanceOfSatisfying(MetadataException.class, e -> {
            assertThat(e.error()).isEqualTo(code);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }
}
