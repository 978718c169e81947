package io.odradek.broker.container;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.Broker;
import io.odradek.broker.BrokerConfig;
import io.odradek.replication.metadata.MetaProperties;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContainerMainTest {
    @TempDir
    Path dir;

    @Test
    void freshLogDirsAreFormattedWithTheClusterIdOfTheEnvironment() {
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        ContainerMain.format(Map.of("log.dirs", a + "," + b, "node.id", "3"), "4L6g3nShT-eMCtK--X86sw");
        assertThat(MetaProperties.read(a)).isEqualTo(new MetaProperties("4L6g3nShT-eMCtK--X86sw", 3));
        assertThat(MetaProperties.read(b)).isEqualTo(new MetaProperties("4L6g3nShT-eMCtK--X86sw", 3));
    }

    @Test
    void anAlreadyFormattedDirKeepsItsClusterId() {
        new MetaProperties("OLD_cluster_id_000000w", 1).write(dir);
        ContainerMain.format(Map.of("log.dirs", dir.toString(), "node.id", "1"), "4L6g3nShT-eMCtK--X86sw");
        assertThat(MetaProperties.read(dir)).isEqualTo(new MetaProperties("OLD_cluster_id_000000w", 1));
    }

    @Test
    void aSingleNodeBrokerIsRunningOnceStarted() throws Exception {
        try (Broker broker = Broker.start(BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0",
                "log.dirs", dir.toString())))) {
            assertThat(ContainerMain.isRunning(broker)).isTrue();
        }
    }
}
