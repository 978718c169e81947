package io.odradek.bench.embedded;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Node;

/**
 * The probe both embedded brokers are measured with: one AdminClient describeCluster, the first request a test
 * would have answered, and the times it prints. Times are wall-clock milliseconds since the JVM's own start
 * (RuntimeMXBean.getStartTime(), taken by the JVM before main runs), so class loading of the broker, of the
 * client and of whatever the broker brings on its classpath all count.
 */
final class FirstAnswer {
    private FirstAnswer() {}

    /** Milliseconds since the epoch at which this JVM started. */
    static long jvmStart() {
        return ManagementFactory.getRuntimeMXBean().getStartTime();
    }

    /**
     * Asks bootstrapServers for its cluster's nodes and prints one RESULT line: side, JVM start to main, to the
     * broker's start returning, and to the answer; the broker start alone (start call to return); the client's
     * part (start returned to answer: creating the AdminClient, its first connection and the request); the node
     * count answered (1, so the answer is real).
     */
    static void describeClusterAndReport(String side, long jvmStart, long mainStart, long brokerStarted,
            String bootstrapServers) throws Exception {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, "bench-first-answer");
        Collection<Node> nodes;
        try (Admin admin = Admin.create(props)) {
            nodes = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS);
        }
        long answered = System.currentTimeMillis();
        System.out.printf("RESULT side=%s jvm_to_main_ms=%d jvm_to_broker_started_ms=%d jvm_to_answer_ms=%d"
                + " broker_start_ms=%d client_answer_ms=%d nodes=%d%n",
                side, mainStart - jvmStart, brokerStarted - jvmStart, answered - jvmStart,
                brokerStarted - mainStart, answered - brokerStarted, nodes.size());
        System.out.flush();
    }
}
