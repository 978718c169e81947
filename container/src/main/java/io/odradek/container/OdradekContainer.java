package io.odradek.container;

import com.github.dockerjava.api.command.InspectContainerResponse;
import java.util.Locale;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.utility.DockerImageName;

/**
 * The Odradek image ({@code odradek}, built by this module as target/odradek-image.tar; {@code docker load -i} it)
 * in Testcontainers, started as Testcontainers' own {@code org.testcontainers.kafka.KafkaContainer} starts
 * apache/kafka, which also works with this image ({@code DockerImageName.parse("odradek")
 * .asCompatibleSubstituteFor("apache/kafka")}):
 * <ul>
 * <li>clients outside Docker use {@link #getBootstrapServers()} (listener PLAINTEXT, port 9092 mapped); containers
 * on the same network reach listener BROKER at {@code <network alias or host name>:9093};</li>
 * <li>a single combined broker and controller (process.roles=broker,controller, the controller on 9094);</li>
 * <li>the advertised listeners are only known once the container runs (the mapped port), so the container
 * waits for a start script that sets KAFKA_ADVERTISED_LISTENERS and runs the image's /etc/kafka/docker/run;</li>
 * <li>ready once the broker logs "Transitioning from RECOVERY to RUNNING".</li>
 * </ul>
 * Broker settings: {@link #withBrokerConfig(String, String)} (an env variable KAFKA_..., as the image reads them).
 */
public class OdradekContainer extends GenericContainer<OdradekContainer> {
    /** The image this module builds. */
    public static final DockerImageName DEFAULT_IMAGE = DockerImageName.parse("odradek:latest");
    /** The port clients outside Docker connect to (mapped to a random host port). */
    public static final int KAFKA_PORT = 9092;
    /** The listener containers on the same network use. */
    public static final int BROKER_PORT = 9093;
    public static final int CONTROLLER_PORT = 9094;

    static final String START_SCRIPT = "/tmp/testcontainers_start.sh";

    public OdradekContainer() {
        this(DEFAULT_IMAGE);
    }

    public OdradekContainer(String image) {
        this(DockerImageName.parse(image));
    }

    public OdradekContainer(DockerImageName image) {
        super(image);
        image.assertCompatibleWith(DockerImageName.parse("odradek"));
        withExposedPorts(KAFKA_PORT);
        withEnv("CLUSTER_ID", "4L6g3nShT-eMCtK--X86sw");
        withEnv("KAFKA_NODE_ID", "1");
        withEnv("KAFKA_PROCESS_ROLES", "broker,controller");
        withEnv("KAFKA_LISTENERS", "PLAINTEXT://0.0.0.0:" + KAFKA_PORT + ",BROKER://0.0.0.0:" + BROKER_PORT
                + ",CONTROLLER://localhost:" + CONTROLLER_PORT);
        withEnv("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP", "BROKER:PLAINTEXT,PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        withEnv("KAFKA_INTER_BROKER_LISTENER_NAME", "BROKER");
        withEnv("KAFKA_CONTROLLER_LISTENER_NAMES", "CONTROLLER");
        withEnv("KAFKA_CONTROLLER_QUORUM_VOTERS", "1@localhost:" + CONTROLLER_PORT);
        withEnv("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "1");
        withEnv("KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS", "1");
        withEnv("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "1");
        withEnv("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "1");
        withEnv("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0");
        withCommand("sh", "-c", "while [ ! -f " + START_SCRIPT + " ]; do sleep 0.1; done; " + START_SCRIPT);
        waitingFor(Wait.forLogMessage(".*Transitioning from RECOVERY to RUNNING.*", 1));
    }

    /** Sets broker key {@code key} (Kafka's name, e.g. num.partitions) through its KAFKA_ variable. */
    public OdradekContainer withBrokerConfig(String key, String value) {
        return withEnv(envName(key), value);
    }

    /** The variable the image reads for broker key {@code key}: num.partitions is KAFKA_NUM_PARTITIONS. */
    public static String envName(String key) {
        StringBuilder name = new StringBuilder("KAFKA_");
        for (char c : key.toCharArray()) {
            switch (c) {
                case '.' -> name.append('_');
                case '_' -> name.append("__");
                case '-' -> name.append("___");
                default -> name.append(Character.toUpperCase(c));
            }
        }
        return name.toString().toUpperCase(Locale.ROOT);
    }

    /** host:port for clients outside Docker. */
    public String getBootstrapServers() {
        return getHost() + ":" + getMappedPort(KAFKA_PORT);
    }

    @Override
    protected void containerIsStarting(InspectContainerResponse containerInfo) {
        String advertised = "PLAINTEXT://" + getBootstrapServers() + ",BROKER://"
                + containerInfo.getConfig().getHostName() + ":" + BROKER_PORT;
        String script = "#!/bin/sh\nexport KAFKA_ADVERTISED_LISTENERS=" + advertised + "\nexec /etc/kafka/docker/run\n";
        copyFileToContainer(Transferable.of(script, 0777), START_SCRIPT);
    }
}
