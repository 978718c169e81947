package io.odradek.compat.cluster;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * A test class's own three-node cluster with default settings: launched before its first test, closed after its
 * last. Test classes run one at a time, so the one static field serves each class in turn.
 */
abstract class WithThreeNodeCluster {
    static OdradekCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = OdradekCluster.launch(3);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
            cluster = null;
        }
    }
}
