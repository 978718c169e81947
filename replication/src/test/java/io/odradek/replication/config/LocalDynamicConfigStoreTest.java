package io.odradek.replication.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalDynamicConfigStoreTest {
    @TempDir
    Path dir;

    private static <V> Map<String, V> nullable(String key, V value) {
        Map<String, V> map = new HashMap<>();
        map.put(key, value);
        return map;
    }

    @Test
    void brokerConfigsAndQuotasSurviveAReopen() throws Exception {
        LocalDynamicConfigStore store = new LocalDynamicConfigStore(dir);
        QuotaEntity defaultClient = QuotaEntity.of(nullable(QuotaEntity.CLIENT_ID, null));
        QuotaEntity alice = QuotaEntity.of(Map.of(QuotaEntity.USER, "alice & bob", QuotaEntity.CLIENT_ID, "x=y"));
        store.alterBrokerConfigs("", Map.of("log.retention.ms", "60000")).get();
        store.alterBrokerConfigs("1", Map.of("message.max.bytes", "2000", "log.cleanup.policy", "compact,delete")).get();
        store.alterQuotas(Map.of(defaultClient, Map.of("producer_byte_rate", 1048576.0),
                alice, Map.of("consumer_byte_rate", 0.5))).get();

        LocalDynamicConfigStore reopened = new LocalDynamicConfigStore(dir);

        assertThat(reopened.brokerConfigs("")).containsExactly(Map.entry("log.retention.ms", "60000"));
        assertThat(reopened.brokerConfigs("1")).containsExactly(Map.entry("log.cleanup.policy", "compact,delete"),
                Map.entry("message.max.bytes", "2000"));
        assertThat(reopened.brokerConfigs("2")).isEmpty();
        assertThat(reopened.quotas()).containsOnly(Map.entry(defaultClient, Map.of("producer_byte_rate", 1048576.0)),
                Map.entry(alice, Map.of("consumer_byte_rate", 0.5)));
        assertThat(Files.readAllLines(dir.resolve("dynamic-configs"), StandardCharsets.UTF_8))
                .contains("broker\t\tlog.retention.ms=60000", "quota\tclient-id\tproducer_byte_rate=1048576.0");
    }

    @Test
    void groupConfigsSurviveAReopenBesideBrokerConfigsAndARemovedLastKeyDropsTheGroup() throws Exception {
        LocalDynamicConfigStore store = new LocalDynamicConfigStore(dir);
        AtomicInteger changes = new AtomicInteger();
        store.addListener(changes::incrementAndGet);
        store.alterBrokerConfigs("", Map.of("log.retention.ms", "60000")).get();
        store.alterGroupConfigs("orders queue&1", Map.of("share.auto.offset.reset", "earliest",
                "share.record.lock.duration.ms", "20000")).get();
        store.alterGroupConfigs("streams-app", Map.of("streams.num.standby.replicas", "1")).get();
        store.alterGroupConfigs("streams-app", nullable("streams.num.standby.replicas", null)).get();

        LocalDynamicConfigStore reopened = new LocalDynamicConfigStore(dir);

        assertThat(changes.get()).isEqualTo(4);
        assertThat(reopened.groupConfigs("orders queue&1")).containsExactly(
                Map.entry("share.auto.offset.reset", "earliest"), Map.entry("share.record.lock.duration.ms", "20000"));
        assertThat(reopened.groupConfigs()).containsOnlyKeys("orders queue&1");
        assertThat(reopened.groupConfigs("streams-app")).isEmpty();
        assertThat(reopened.brokerConfigs("")).containsExactly(Map.entry("log.retention.ms", "60000"));
        assertThat(Files.readAllLines(dir.resolve("dynamic-configs"), StandardCharsets.UTF_8)).contains(
                "group\torders+queue%261\tshare.auto.offset.reset=earliest&share.record.lock.duration.ms=20000");
    }

    @Test
    void removingTheLastKeyDropsTheEntityAndListenersHearEachChange() throws Exception {
        LocalDynamicConfigStore store = new LocalDynamicConfigStore(dir);
        AtomicInteger changes = new AtomicInteger();
        store.addListener(changes::incrementAndGet);

        store.alterBrokerConfigs("1", Map.of("log.segment.bytes", "1048576")).get();
        store.alterBrokerConfigs("1", Map.of("log.segment.bytes", "1048576")).get(); // no change
        store.alterBrokerConfigs("1", nullable("log.segment.bytes", null)).get();

        assertThat(changes).hasValue(2);
        assertThat(store.snapshot().brokers()).isEmpty();
        assertThat(new LocalDynamicConfigStore(dir).brokerConfigs("1")).isEmpty();
    }

    @Test
    void writesAndListenersRunOnTheConfigThreadNotTheCaller() throws Exception {
        LocalDynamicConfigStore store = new LocalDynamicConfigStore(dir);
        List<String> threads = new CopyOnWriteArrayList<>();
        store.addListener(() -> threads.add(Thread.currentThread().getName()));

        store.alterQuotas(Map.of(QuotaEntity.of(Map.of(QuotaEntity.CLIENT_ID, "app")),
                Map.of("producer_byte_rate", 1024.0))).get();
        store.alterBrokerConfigs("", Map.of("log.retention.ms", "1")).get();

        assertThat(threads).containsExactly(LocalDynamicConfigStore.THREAD_NAME, LocalDynamicConfigStore.THREAD_NAME);
        assertThat(new LocalDynamicConfigStore(dir).brokerConfigs("")).containsExactly(Map.entry("log.retention.ms", "1"));
    }

    @Test
    void theDynamicConfigsFileWithItsPasswordsIsReadableByItsOwnerOnly() throws Exception {
        LocalDynamicConfigStore store = new LocalDynamicConfigStore(dir);
        store.alterBrokerConfigs("1", Map.of("listener.name.sasl_plaintext.plain.sasl.jaas.config",
                "PlainLoginModule required user_alice=\"throwaway\";")).get();

        assertThat(Files.getPosixFilePermissions(dir.resolve("dynamic-configs")))
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(new LocalDynamicConfigStore(dir).brokerConfigs("1"))
                .containsOnlyKeys("listener.name.sasl_plaintext.plain.sasl.jaas.config");
    }
}
