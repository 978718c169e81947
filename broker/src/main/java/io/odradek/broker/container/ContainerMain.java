package io.odradek.broker.container;

import io.odradek.broker.Broker;
import io.odradek.broker.Main;
import io.odradek.broker.logging.LogSetup;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.metadata.MetaProperties;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The container image's entry point ({@code /etc/kafka/docker/run} execs it): the broker configured from the
 * environment as apache/kafka's image does ({@link KafkaEnvironment}). Arguments {@code NAME=value} set variables,
 * as apache/kafka's run script exports its arguments; {@code --config file} and {@code --override key=value} are
 * passed on to {@link Main} (an override wins over the environment).
 * <p>
 * Before the broker starts, log dirs holding no {@code meta.properties} are formatted with {@code CLUSTER_ID}
 * (Kafka's launch runs {@code kafka-storage format}, ignoring "already formatted"). Once the broker serves clients
 * and is unfenced it logs Kafka's line "Transitioning from RECOVERY to RUNNING", the line Testcontainers'
 * KafkaContainer waits for. SIGTERM closes the broker through Main's shutdown hook.
 */
public final class ContainerMain {
    /** Kafka's BrokerLifecycleManager line on unfencing; Testcontainers waits for ".*Transitioning from RECOVERY to RUNNING.*". */
    public static final String RUNNING_LINE = "The broker has been unfenced. Transitioning from RECOVERY to RUNNING.";

    private ContainerMain() {
    }

    public static void main(String[] args) {
        // First, as in Main: nothing may log before JUL's manager is chosen, or the shutdown hook's lines are lost.
        LogSetup.installLogManager();
        Map<String, String> env = new HashMap<>(System.getenv());
        List<String> passed = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            int eq = arg.indexOf('=');
            if (arg.startsWith("-")) {
                passed.add(arg);
                if (eq < 0 && i + 1 < args.length) {
                    passed.add(args[++i]);
                }
            } else if (eq > 0) {
                env.put(arg.substring(0, eq), arg.substring(eq + 1));
            } else {
                passed.add(arg);
            }
        }
        Map<String, String> all = KafkaEnvironment.withDefaults(env);
        Map<String, String> configs = KafkaEnvironment.configs(all);
        format(configs, KafkaEnvironment.clusterId(all));
        List<String> mainArgs = new ArrayList<>();
        configs.forEach((key, value) -> {
            mainArgs.add("--override");
            mainArgs.add(key + "=" + value);
        });
        mainArgs.addAll(passed);
        Main.main(mainArgs.toArray(String[]::new), ContainerMain::logWhenRunning);
    }

    /** Writes meta.properties with {@code clusterId} into every log dir when none of them has one yet. */
    static void format(Map<String, String> configs, String clusterId) {
        String dirs = configs.getOrDefault("log.dirs", configs.get("log.dir"));
        String nodeId = configs.getOrDefault("node.id", configs.get("broker.id"));
        if (dirs == null || nodeId == null || clusterId == null || clusterId.isBlank()) {
            return; // the broker's own defaults and checks apply
        }
        List<Path> logDirs = new ArrayList<>();
        for (String dir : dirs.split(",")) {
            if (!dir.isBlank()) {
                logDirs.add(Path.of(dir.trim()));
            }
        }
        if (logDirs.stream().anyMatch(dir -> MetaProperties.read(dir) != null)) {
            return; // formatted: the stored id stands, as "already formatted" does in Kafka
        }
        int node;
        try {
            node = Integer.parseInt(nodeId.trim());
        } catch (NumberFormatException e) {
            return; // the broker refuses the value with Kafka's message
        }
        MetaProperties meta = new MetaProperties(clusterId.trim(), node);
        logDirs.forEach(meta::write);
        System.out.println("===> Formatted " + logDirs + " with cluster id " + clusterId.trim());
    }

    /** Logs {@link #RUNNING_LINE} once this broker {@link #isRunning is running} (at once on a single node). */
    static void logWhenRunning(Broker broker) {
        Thread watcher = new Thread(() -> {
            try {
                while (!isRunning(broker)) {
                    Thread.sleep(20);
                }
                log().log(System.Logger.Level.INFO, RUNNING_LINE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                log().log(System.Logger.Level.DEBUG, "broker closed before it was running: " + e);
            }
        }, "running-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }

    private static System.Logger log() {
        return System.getLogger(ContainerMain.class.getName());
    }

    /**
     * Accepting clients (a cluster broker: caught up with the metadata past its registration) and unfenced in
     * that image. Accepting first: at a restart the image read from disk still shows the last run's registration
     * unfenced.
     */
    static boolean isRunning(Broker broker) {
        if (!broker.network().accepting()) {
            return false;
        }
        BrokerRegistration self = broker.cluster().image().brokers().get(broker.cluster().localBrokerId());
        return self != null && !self.fenced();
    }
}
