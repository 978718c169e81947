package io.odradek.replication.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetaPropertiesTest {
    @TempDir
    Path root;

    @Test
    void writesKafkaFormatInEveryLogDirWithOneGeneratedClusterId() throws Exception {
        Path a = root.resolve("a");
        Path b = root.resolve("b");

        MetaProperties meta = MetaProperties.ensure(List.of(a, b), 7);

        assertThat(meta.clusterId()).hasSize(22).matches("[A-Za-z0-9_-]{22}").doesNotStartWith("-");
        for (Path dir : List.of(a, b)) {
            assertThat(Files.readAllLines(dir.resolve("meta.properties")))
                    .contains("version=1", "cluster.id=" + meta.clusterId(), "node.id=7");
        }
    }

    @Test
    void keepsTheClusterIdAndFillsInANewDir() {
        Path a = root.resolve("a");
        String clusterId = MetaProperties.ensure(List.of(a), 1).clusterId();

        MetaProperties again = MetaProperties.ensure(List.of(a, root.resolve("new")), 1);

        assertThat(again.clusterId()).isEqualTo(clusterId);
        assertThat(MetaProperties.read(root.resolve("new"))).isEqualTo(new MetaProperties(clusterId, 1));
    }

    @Test
    void refusesADirOfAnotherNode() {
        MetaProperties.ensure(List.of(root), 1);

        assertThatThrownBy(() -> MetaProperties.ensure(List.of(root), 2))
                .hasMessageContaining("Stored node id 1").hasMessageContaining("node.id 2");
    }

    @Test
    void refusesDirsOfDifferentClusters() {
        Path a = root.resolve("a");
        Path b = root.resolve("b");
        MetaProperties.ensure(List.of(a), 1);
        MetaProperties.ensure(List.of(b), 1);

        assertThatThrownBy(() -> MetaProperties.ensure(List.of(a, b), 1)).hasMessageContaining("different clusters");
    }

    @Test
    void idsRoundTripThroughKafkasBase64Form() {
        java.util.UUID id = Ids.randomId();

        assertThat(Ids.fromBase64(Ids.toBase64(id))).isEqualTo(id);
        assertThat(Ids.toBase64(new java.util.UUID(0, 1))).isEqualTo("AAAAAAAAAAAAAAAAAAAAAQ");
    }
}
