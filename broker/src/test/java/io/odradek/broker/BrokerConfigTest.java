package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.odradek.broker.config.ConfigException;
import io.odradek.log.LogConfig;
import io.odradek.log.LogManager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerConfigTest {
    private static final long HOUR_MS = 3_600_000L;

    @TempDir
    Path dir;

    @Test
    void defaultsAreKafkasExceptAListenerOnLoopbackAndADataDirHere() {
        BrokerConfig c = BrokerConfig.defaults();

        assertThat(c.listenerHost()).isEqualTo("127.0.0.1");
        assertThat(c.listenerPort()).isEqualTo(9092);
        assertThat(c.advertisedHost()).isEqualTo("127.0.0.1");
        assertThat(c.advertisedPort()).isEqualTo(9092);
        assertThat(c.nodeId()).isEqualTo(1);
        assertThat(c.logDirs()).containsExactly(Path.of("data").toAbsolutePath());
        assertThat(c.numPartitions()).isEqualTo(1);
        assertThat(c.defaultReplicationFactor()).isEqualTo((short) 1);
        assertThat(c.autoCreateTopicsEnable()).isTrue();
        assertThat(c.socketRequestMaxBytes()).isEqualTo(104_857_600);
        assertThat(c.messageMaxBytes()).isEqualTo(1_048_588);
        assertThat(c.logRetentionMs()).isEqualTo(168 * HOUR_MS);
        assertThat(c.logRollMs()).isEqualTo(168 * HOUR_MS);
        assertThat(c.logFlushIntervalMs()).isEqualTo(Long.MAX_VALUE);
        assertThat(c.logRetentionCheckIntervalMs()).isEqualTo(300_000L);
        assertThat(c.offsetsTopicNumPartitions()).isEqualTo(50);
        assertThat(c.offsetsRetentionMs()).isEqualTo(10_080 * 60_000L);
        assertThat(c.groupInitialRebalanceDelayMs()).isEqualTo(3000);
        assertThat(c.groupMinSessionTimeoutMs()).isEqualTo(6000);
        assertThat(c.groupMaxSessionTimeoutMs()).isEqualTo(1_800_000);
        assertThat(c.isDefault("num.partitions")).isTrue();
    }

    @Test
    void partitionLayerKeysHaveKafkasDefaultsAndSizeThePools() {
        BrokerConfig c = BrokerConfig.defaults();
        assertThat(c.numIoThreads()).isEqualTo(8);
        assertThat(c.fetchMaxBytes()).isEqualTo(57_671_680);
        assertThat(c.logBackground()).isEqualTo(new LogManager.Background(10, 1, 2, 86_400_000L, 600_000L));
        assertThat(c.logBackground()).isEqualTo(LogManager.Background.DEFAULTS);

        BrokerConfig set = BrokerConfig.of(Map.of("background.threads", "3", "log.cleaner.threads", "2",
                "num.recovery.threads.per.data.dir", "4", "producer.id.expiration.ms", "1000",
                "producer.id.expiration.check.interval.ms", "100", "fetch.max.bytes", "1048576", "num.io.threads", "2"));
        assertThat(set.logBackground()).isEqualTo(new LogManager.Background(3, 2, 4, 1000L, 100L));
        assertThat(set.fetchMaxBytes()).isEqualTo(1_048_576);
        assertThat(set.numIoThreads()).isEqualTo(2);
    }

    @Test
    void logDefaultsCarryTheBrokersLogSettingsUnderTopicKeys() {
        BrokerConfig c = BrokerConfig.of(Map.of(
                "log.segment.bytes", "2097152",
                "log.retention.hours", "1",
                "log.retention.bytes", "5000000",
                "log.index.interval.bytes", "1024",
                "log.message.timestamp.type", "LogAppendTime",
                "message.max.bytes", "2000000"));

        LogConfig log = c.logDefaults();
        assertThat(log.segmentBytes()).isEqualTo(2_097_152);
        assertThat(log.retentionMs()).isEqualTo(HOUR_MS);
        assertThat(log.retentionBytes()).isEqualTo(5_000_000L);
        assertThat(log.indexIntervalBytes()).isEqualTo(1024);
        assertThat(log.isLogAppendTime()).isTrue();
        assertThat(log.maxMessageBytes()).isEqualTo(2_000_000);
        assertThat(log.segmentMs()).isEqualTo(168 * HOUR_MS);
        assertThat(log.flushMs()).isEqualTo(Long.MAX_VALUE);
        assertThat(BrokerConfig.defaults().logDefaults()).isEqualTo(LogConfig.defaults());
    }

    @Test
    void produceValidationIsFullUnlessTheOperatorTrustsItsClients() {
        assertThat(BrokerConfig.defaults().logDefaults().fullRecordValidation()).isTrue();
        BrokerConfig trusted = BrokerConfig.of(Map.of("odradek.produce.validation", "header",
                "log.message.timestamp.after.max.ms", "60000"));
        assertThat(trusted.logDefaults().fullRecordValidation()).isFalse();
        assertThat(trusted.logDefaults().timestampAfterMaxMs()).isEqualTo(60_000L);
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("odradek.produce.validation", "none")))
                .hasMessageContaining("odradek.produce.validation");
    }

    @Test
    void retentionMillisWinOverMinutesWhichWinOverHours() {
        assertThat(retention(Map.of("log.retention.hours", "2"))).isEqualTo(2 * HOUR_MS);
        assertThat(retention(Map.of("log.retention.hours", "2", "log.retention.minutes", "3"))).isEqualTo(180_000L);
        assertThat(retention(Map.of("log.retention.hours", "2", "log.retention.minutes", "3",
                "log.retention.ms", "4000"))).isEqualTo(4000L);
        assertThat(retention(Map.of("log.retention.ms", "-5"))).isEqualTo(-1L);
        assertThat(retention(Map.of("log.retention.hours", "-1"))).isEqualTo(-1L);
        assertThat(BrokerConfig.of(Map.of("log.retention.minutes", "3")).effectiveConfigs())
                .contains(entry("log.retention.ms", "180000"), entry("log.retention.minutes", "3"));
    }

    @Test
    void zeroRetentionIsRefusedNamingTheKeyThatSetIt() {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("log.retention.minutes", "0")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value 0 for configuration log.retention.minutes: "
                        + "retention must be unlimited (-1) or at least 1 ms");
    }

    @Test
    void rollMillisWinOverHours() {
        assertThat(BrokerConfig.of(Map.of("log.roll.hours", "1")).logRollMs()).isEqualTo(HOUR_MS);
        assertThat(BrokerConfig.of(Map.of("log.roll.hours", "1", "log.roll.ms", "500")).logRollMs()).isEqualTo(500L);
    }

    @Test
    void listenerWithHostAndPort() {
        BrokerConfig c = BrokerConfig.of(Map.of("listeners", "PLAINTEXT://10.1.2.3:19092"));
        assertThat(c.listenerHost()).isEqualTo("10.1.2.3");
        assertThat(c.listenerPort()).isEqualTo(19092);
        assertThat(c.advertisedHost()).isEqualTo("10.1.2.3");
        assertThat(c.advertisedPort()).isEqualTo(19092);
    }

    @Test
    void emptyHostListensEverywhereAndAdvertisesLoopback() {
        BrokerConfig c = BrokerConfig.of(Map.of("listeners", "PLAINTEXT://:9093"));
        assertThat(c.listenerHost()).isEqualTo("0.0.0.0");
        assertThat(c.listenerAddress().getAddress().isAnyLocalAddress()).isTrue();
        assertThat(c.listenerAddress().getPort()).isEqualTo(9093);
        assertThat(c.advertisedHost()).isEqualTo("127.0.0.1");
        assertThat(c.advertisedPort()).isEqualTo(9093);

        BrokerConfig wildcard = BrokerConfig.of(Map.of("listeners", "PLAINTEXT://0.0.0.0:9093"));
        assertThat(wildcard.advertisedHost()).isEqualTo("127.0.0.1");
    }

    @Test
    void ipv6HostIsWrittenInBrackets() {
        BrokerConfig c = BrokerConfig.of(Map.of("listeners", "PLAINTEXT://[::1]:9092"));
        assertThat(c.listenerHost()).isEqualTo("::1");
        assertThat(c.listener()).hasToString("PLAINTEXT://[::1]:9092");
    }

    @Test
    void portZeroIsAdvertisedAsZeroSoTheBoundPortIsUsed() {
        BrokerConfig c = BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0"));
        assertThat(c.listenerPort()).isZero();
        assertThat(c.advertisedPort()).isZero();
    }

    @Test
    void advertisedListenerOfTheSameNameIsGivenToClients() {
        BrokerConfig c = BrokerConfig.of(Map.of(
                "listeners", "PLAINTEXT://:9092",
                "advertised.listeners", "PLAINTEXT://broker1.example.com:19092"));
        assertThat(c.advertisedHost()).isEqualTo("broker1.example.com");
        assertThat(c.advertisedPort()).isEqualTo(19092);
    }

    @Test
    void kafkasCombinedModeServerPropertiesServeClientsOnThePlaintextListener() {
        BrokerConfig c = BrokerConfig.of(Map.of(
                "process.roles", "broker,controller",
                "controller.quorum.bootstrap.servers", "localhost:9093",
                "listeners", "CONTROLLER://:9093,PLAINTEXT://:9092",
                "advertised.listeners", "PLAINTEXT://localhost:9092,CONTROLLER://localhost:9093",
                "controller.listener.names", "CONTROLLER",
                "inter.broker.listener.name", "PLAINTEXT",
                "listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SSL:SSL"));
        assertThat(c.listenerPort()).isEqualTo(9092);
        assertThat(c.advertisedHost()).isEqualTo("localhost");
        assertThat(c.unknownKeys()).isEmpty();
        // One bootstrap controller, this node: a one-voter quorum on the CONTROLLER listener.
        assertThat(c.clusterRoles().voters()).containsExactly(
                Map.entry(1, java.net.InetSocketAddress.createUnresolved("localhost", 9093)));
    }

    @Test
    void advertisingTheWildcardAddressIsRefused() {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("advertised.listeners", "PLAINTEXT://0.0.0.0:9092")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("advertised.listeners cannot use the nonroutable meta-address 0.0.0.0. "
                        + "Use a routable IP address.");
    }

    @Test
    void malformedListenersAreRefused() {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "127.0.0.1:9092")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Error creating broker listeners from '[127.0.0.1:9092]': "
                        + "Unable to parse 127.0.0.1:9092 to a broker endpoint");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("listeners", "PLAINTEXT://:70000")))
                .hasMessageContaining("is not between 0 and 65535");
    }

    @Test
    void invalidValuesNameTheKeyAndTheValue() {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("num.partitions", "many")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value many for configuration num.partitions: Not a number of type INT");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("num.partitions", "0")))
                .hasMessage("Invalid value 0 for configuration num.partitions: Value must be at least 1");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("auto.create.topics.enable", "yes")))
                .hasMessage("Invalid value yes for configuration auto.create.topics.enable: "
                        + "Expected value to be either true or false");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("log.message.timestamp.type", "Now")))
                .hasMessage("Invalid value Now for configuration log.message.timestamp.type: "
                        + "String must be one of: CreateTime, LogAppendTime");
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("default.replication.factor", "40000")))
                .hasMessage("Invalid value 40000 for configuration default.replication.factor: "
                        + "Not a number of type SHORT");
    }

    @Test
    void unknownKeyIsWarnedAboutOnceAndIgnored() {
        List<LogRecord> records = new ArrayList<>();
        Logger logger = Logger.getLogger(BrokerConfig.class.getName());
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(capture);
        try {
            BrokerConfig c = BrokerConfig.of(Map.of("num.partitons", "3", "num.replica.fetchers", "2"));

            assertThat(c.unknownKeys()).containsExactly("num.partitons");
            assertThat(c.numPartitions()).isEqualTo(1);
            assertThat(records).singleElement().satisfies(r -> {
                assertThat(r.getLevel()).isEqualTo(Level.WARNING);
                // Never the value: an unknown key may be a plugin's secret.
                assertThat(r.getMessage()).isEqualTo("Ignoring unknown configuration num.partitons");
            });
            // A Kafka key we do not act on is accepted quietly and still reported.
            assertThat(c.effectiveConfigs()).containsEntry("num.replica.fetchers", "2").doesNotContainKey("num.partitons");
        } finally {
            logger.removeHandler(capture);
        }
    }

    @Test
    void overridesWinOverTheFile() throws IOException {
        Path file = dir.resolve("server.properties");
        Files.writeString(file, """
                # a Kafka-style file
                node.id=7
                num.partitions = 3
                log.dirs=%s
                auto.create.topics.enable=false
                """.formatted(dir.resolve("logs")));

        BrokerConfig c = BrokerConfig.load(file, Map.of("num.partitions", "5"));

        assertThat(c.nodeId()).isEqualTo(7);
        assertThat(c.numPartitions()).isEqualTo(5);
        assertThat(c.autoCreateTopicsEnable()).isFalse();
        assertThat(c.logDirs()).containsExactly(dir.resolve("logs"));
        assertThat(c.isDefault("num.partitions")).isFalse();
        assertThat(c.isDefault("message.max.bytes")).isTrue();
    }

    @Test
    void missingFileIsAConfigError() {
        Path missing = dir.resolve("nope.properties");
        assertThatThrownBy(() -> BrokerConfig.load(missing, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Config file " + missing + " does not exist");
    }

    @Test
    void logDirsWinOverLogDirAndAreAbsolute() {
        assertThat(BrokerConfig.of(Map.of("log.dir", "/var/a", "log.dirs", "/var/b, /var/c")).logDirs())
                .containsExactly(Path.of("/var/b"), Path.of("/var/c"));
        assertThat(BrokerConfig.of(Map.of("log.dir", "/var/a")).logDirs()).containsExactly(Path.of("/var/a"));
        assertThat(BrokerConfig.of(Map.of("log.dirs", "rel/x")).logDirs())
                .containsExactly(Path.of("rel/x").toAbsolutePath());
    }

    @Test
    void brokerIdStandsInForAnUnsetNodeId() {
        assertThat(BrokerConfig.of(Map.of("broker.id", "4")).nodeId()).isEqualTo(4);
        assertThat(BrokerConfig.of(Map.of("broker.id", "4", "node.id", "4")).nodeId()).isEqualTo(4);
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("broker.id", "4", "node.id", "5")))
                .hasMessage("Invalid value 4 for configuration broker.id: must equal node.id (5) when both are set");
    }

    @Test
    void effectiveConfigsListEveryKeyWithItsValue() {
        Map<String, String> all = BrokerConfig.of(Map.of("listeners", "PLAINTEXT://:9092")).effectiveConfigs();
        assertThat(all).contains(
                entry("listeners", "PLAINTEXT://:9092"),
                entry("advertised.listeners", "PLAINTEXT://127.0.0.1:9092"),
                entry("node.id", "1"),
                entry("log.segment.bytes", "1073741824"),
                entry("log.retention.ms", "604800000"),
                entry("log.retention.hours", "168"),
                entry("log.flush.interval.ms", Long.toString(Long.MAX_VALUE)),
                entry("message.max.bytes", "1048588"),
                entry("log.cleanup.policy", "delete"));
        assertThat(all).doesNotContainKey("log.retention.minutes");
    }

    private static long retention(Map<String, String> settings) {
        BrokerConfig c = BrokerConfig.of(settings);
        assertThat(c.logDefaults().retentionMs()).isEqualTo(c.logRetentionMs());
        return c.logRetentionMs();
    }
}
