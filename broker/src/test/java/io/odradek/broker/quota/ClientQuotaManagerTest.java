package io.odradek.broker.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.replication.config.DynamicConfigStore;
import io.odradek.replication.config.QuotaEntity;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Which quota applies to a client, which rate it shares, and how long it is throttled (a hand-moved clock). */
class ClientQuotaManagerTest {
    private static final String DEFAULT = null;
    private final ClientQuotas quotas = new ClientQuotas(QuotaWindows.KAFKA_DEFAULTS);
    private final Map<QuotaEntity, Map<String, Double>> configured = new HashMap<>();

    private void set(String user, String clientId, boolean hasUser, boolean hasClient, String key, double value) {
        TreeMap<String, String> parts = new TreeMap<>();
        if (hasUser) {
            parts.put(QuotaEntity.USER, user);
        }
        if (hasClient) {
            parts.put(QuotaEntity.CLIENT_ID, clientId);
        }
        configured.computeIfAbsent(new QuotaEntity(parts), e -> new HashMap<>()).put(key, value);
        quotas.update(configured);
    }

    private void client(String clientId, double produceRate) {
        set(null, clientId, false, true, "producer_byte_rate", produceRate);
    }

    private double producerQuota(String user, String clientId) {
        return quotas.quotaLimit(QuotaKind.PRODUCE, user, clientId);
    }

    @Test
    void withoutQuotasNothingIsThrottledOrMeasured() {
        assertThat(quotas.enabled(QuotaKind.PRODUCE)).isFalse();
        assertThat(quotas.recordAndGetThrottleMs(QuotaKind.PRODUCE, "ANONYMOUS", "app", 1e12, 0)).isZero();
        assertThat(quotas.maxValueInQuotaWindow(QuotaKind.FETCH, "ANONYMOUS", "app")).isEqualTo(Double.MAX_VALUE);
    }

    @Test
    void mostSpecificQuotaWinsInKafkasPrecedenceOrder() {
        set(DEFAULT, null, false, true, "producer_byte_rate", 8);           // /config/clients/<default>
        assertThat(producerQuota("alice", "app")).isEqualTo(8);
        client("app", 7);                                                     // /config/clients/app
        assertThat(producerQuota("alice", "app")).isEqualTo(7);
        set(DEFAULT, null, true, false, "producer_byte_rate", 6);           // /config/users/<default>
        assertThat(producerQuota("alice", "app")).isEqualTo(6);
        set(DEFAULT, DEFAULT, true, true, "producer_byte_rate", 5);         // /config/users/<default>/clients/<default>
        assertThat(producerQuota("alice", "app")).isEqualTo(5);
        set(DEFAULT, "app", true, true, "producer_byte_rate", 4);           // /config/users/<default>/clients/app
        assertThat(producerQuota("alice", "app")).isEqualTo(4);
        set("alice", null, true, false, "producer_byte_rate", 3);           // /config/users/alice
        assertThat(producerQuota("alice", "app")).isEqualTo(3);
        set("alice", DEFAULT, true, true, "producer_byte_rate", 2);         // /config/users/alice/clients/<default>
        assertThat(producerQuota("alice", "app")).isEqualTo(2);
        set("alice", "app", true, true, "producer_byte_rate", 1);           // /config/users/alice/clients/app
        assertThat(producerQuota("alice", "app")).isEqualTo(1);

        // Other clients fall through to what matches them.
        assertThat(producerQuota("alice", "other")).isEqualTo(2);
        assertThat(producerQuota("bob", "app")).isEqualTo(4);
        assertThat(producerQuota("bob", "other")).isEqualTo(5);
    }

    @Test
    void clientIdQuotaIsSharedByEveryConnectionWithThatClientIdWhateverTheUser() {
        client("app", 1000);
        ClientQuotaManager m = quotas.manager(QuotaKind.PRODUCE);
        assertThat(m.tagsOf("alice", "app")).isEqualTo(new ClientQuotaManager.Tags("", "app"));
        assertThat(m.tagsOf("bob", "app")).isEqualTo(new ClientQuotaManager.Tags("", "app"));
        assertThat(producerQuota("bob", "other")).isEqualTo(Double.MAX_VALUE);
    }

    @Test
    void userQuotaIsSharedByEveryClientIdOfThatUser() {
        set("alice", null, true, false, "consumer_byte_rate", 1000);
        ClientQuotaManager m = quotas.manager(QuotaKind.FETCH);
        assertThat(m.tagsOf("alice", "a")).isEqualTo(new ClientQuotaManager.Tags("alice", ""));
        assertThat(m.tagsOf("alice", "b")).isEqualTo(new ClientQuotaManager.Tags("alice", ""));
        // A kind with no quota configured measures nothing.
        assertThat(quotas.enabled(QuotaKind.PRODUCE)).isFalse();
    }

    @Test
    void withSeveralLevelsTheFirstConfiguredEntityDecidesWhatIsShared() {
        client("app", 1000);
        set("alice", null, true, false, "producer_byte_rate", 2000);
        ClientQuotaManager m = quotas.manager(QuotaKind.PRODUCE);
        assertThat(m.tagsOf("alice", "app")).isEqualTo(new ClientQuotaManager.Tags("alice", ""));
        assertThat(m.tagsOf("bob", "app")).isEqualTo(new ClientQuotaManager.Tags("", "app"));
        assertThat(producerQuota("alice", "app")).isEqualTo(2000);
        assertThat(producerQuota("bob", "app")).isEqualTo(1000);
    }

    @Test
    void throttleIsTheTimeForTheRateToComeBackToTheQuota() {
        client("app", 1000); // bytes per second
        // One window's worth at once is allowed.
        assertThat(quotas.recordAndGetThrottleMs(QuotaKind.PRODUCE, "ANONYMOUS", "app", 1000, 0)).isZero();
        // 3000 bytes over a 1 s window: 3000 B/s, (3000 - 1000) / 1000 * 1000 ms.
        assertThat(quotas.recordAndGetThrottleMs(QuotaKind.PRODUCE, "ANONYMOUS", "app", 2000, 100)).isEqualTo(2000);
        // At 3 s the same 3000 bytes are within 1000 B/s again.
        assertThat(quotas.recordAndGetThrottleMs(QuotaKind.PRODUCE, "ANONYMOUS", "app", 0, 3000)).isZero();
        // 4500 bytes over 4 s: 1125 B/s, (125 / 1000) * 4000 ms.
        assertThat(quotas.recordAndGetThrottleMs(QuotaKind.PRODUCE, "ANONYMOUS", "app", 1500, 4000)).isEqualTo(500);
    }

    @Test
    void aClientHeldByItsThrottlesAveragesItsQuota() {
        client("app", 1_048_576);
        long now = 0;
        long sent = 0;
        while (now < 10_000) { // 64 KiB requests, each sent as soon as the last throttle ends
            sent += 65_536;
            now += quotas.recordAndGetThrottleMs(QuotaKind.PRODUCE, "ANONYMOUS", "app", 65_536, now) + 1;
        }
        double rate = sent / (now / 1000.0);
        assertThat(rate).isBetween(1_048_576 * 0.95, 1_048_576 * 1.05);
    }

    @Test
    void requestPercentageThrottleIsAtMostOneWindow() {
        set(null, "app", false, true, "request_percentage", 10); // a tenth of a thread
        // 5 s of handler time in one request: 500 %-seconds.
        assertThat(quotas.recordAndGetThrottleMs(QuotaKind.REQUEST, "ANONYMOUS", "app", 500, 0)).isEqualTo(1000);
    }

    @Test
    void aConsumersFetchIsBoundedByWhatItsQuotaAllowsInOneWindow() {
        set(null, "reader", false, true, "consumer_byte_rate", 1_048_576);
        assertThat(quotas.maxValueInQuotaWindow(QuotaKind.FETCH, "ANONYMOUS", "reader")).isEqualTo(1_048_576.0);
        assertThat(quotas.maxValueInQuotaWindow(QuotaKind.FETCH, "ANONYMOUS", "other")).isEqualTo(Double.MAX_VALUE);
    }

    @Test
    void aRemovedQuotaStopsThrottlingAtOnce() {
        client("app", 10);
        assertThat(quotas.recordAndGetThrottleMs(QuotaKind.PRODUCE, "ANONYMOUS", "app", 1000, 0)).isPositive();
        configured.clear();
        quotas.update(configured);
        assertThat(quotas.recordAndGetThrottleMs(QuotaKind.PRODUCE, "ANONYMOUS", "app", 1000, 1)).isZero();
    }

    @Test
    void aLoweredQuotaAppliesToTheNextRequest() {
        client("app", 1_000_000);
        assertThat(quotas.recordAndGetThrottleMs(QuotaKind.PRODUCE, "ANONYMOUS", "app", 1000, 0)).isZero();
        client("app", 100);
        // 2000 bytes in a 1 s window against 100 B/s: (2000 - 100) / 100 * 1000 ms.
        assertThat(quotas.recordAndGetThrottleMs(QuotaKind.PRODUCE, "ANONYMOUS", "app", 1000, 10)).isEqualTo(19_000);
    }

    @Test
    void clientIdsSprayedWhileAQuotaExistedLeaveNothingMeasuredOnceEveryQuotaIsRemoved() {
        client("app", 1000);
        for (int i = 0; i < 1000; i++) {
            quotas.recordAndGetThrottleMs(QuotaKind.PRODUCE, "ANONYMOUS", "spray-" + i, 100, i);
        }
        ClientQuotaManager m = quotas.manager(QuotaKind.PRODUCE);
        assertThat(m.rateCount()).isEqualTo(1000);
        configured.clear();
        quotas.update(configured);
        assertThat(m.rateCount()).isZero();
        // A quota set again starts from nothing measured.
        client("app", 1000);
        assertThat(quotas.recordAndGetThrottleMs(QuotaKind.PRODUCE, "ANONYMOUS", "app", 1000, 2000)).isZero();
        assertThat(m.rateCount()).isEqualTo(1);
    }

    @Test
    void ratesUnusedForAnHourExpireEvenIfNothingOfTheirKindIsRecordedAgain() {
        client("app", 1000);
        set(null, "app", false, true, "request_percentage", 50);
        for (int i = 0; i < 100; i++) {
            quotas.recordAndGetThrottleMs(QuotaKind.PRODUCE, "ANONYMOUS", "spray-" + i, 100, 0);
        }
        ClientQuotaManager produce = quotas.manager(QuotaKind.PRODUCE);
        assertThat(produce.rateCount()).isEqualTo(100);
        long anHourLater = TimeUnit.HOURS.toMillis(1) + TimeUnit.MINUTES.toMillis(1) + 1;
        quotas.recordAndGetThrottleMs(QuotaKind.REQUEST, "ANONYMOUS", "app", 1, anHourLater - 120_000);
        assertThat(produce.rateCount()).as("not yet an hour unused").isEqualTo(100);
        // Only request time is recorded from now on (fetches, metadata): the produce rates still expire.
        quotas.recordAndGetThrottleMs(QuotaKind.REQUEST, "ANONYMOUS", "app", 1, anHourLater);
        assertThat(produce.rateCount()).isZero();
        assertThat(quotas.manager(QuotaKind.REQUEST).rateCount()).isEqualTo(1);
    }

    @Test
    void aQuotaChangedWhileAnotherThreadLooksItUpIsTheOneEnforced() throws Exception {
        ClientQuotaManager m = quotas.manager(QuotaKind.PRODUCE);
        AtomicBoolean done = new AtomicBoolean();
        Thread reader = new Thread(() -> {
            while (!done.get()) {
                m.quotaLimit("ANONYMOUS", "app");
            }
        });
        reader.start();
        try {
            for (int i = 1; i <= 300_000; i++) {
                m.update(Map.of(clientOnly("app"), Map.of("producer_byte_rate", (double) i)));
                double seen = m.quotaLimit("ANONYMOUS", "app");
                if (seen != i) {
                    assertThat(seen).as("the quota just set, after %d changes", i).isEqualTo(i);
                }
            }
        } finally {
            done.set(true);
            reader.join();
        }
    }

    @Test
    void ofTwoQuotaChangesAppliedAtOnceTheNewerStaysInForce() throws Exception {
        PausingStore store = new PausingStore();
        ClientQuotas following = ClientQuotas.following(store, QuotaWindows.KAFKA_DEFAULTS);
        store.pauseNextRead();
        Thread older = new Thread(() -> store.set(Map.of(clientOnly("app"), Map.of("producer_byte_rate", 1000.0))));
        older.start();
        store.paused.await(); // the first change's listener has read the quotas with 1000 and not applied them yet
        Thread newer = new Thread(() -> store.set(Map.of(clientOnly("app"), Map.of("producer_byte_rate", 2000.0))));
        newer.start();
        while (newer.isAlive() && newer.getState() != Thread.State.BLOCKED) {
            Thread.sleep(1); // the second change's listener either applied 2000 or waits for the first's
        }
        store.release.countDown();
        older.join();
        newer.join();
        assertThat(following.quotaLimit(QuotaKind.PRODUCE, "ANONYMOUS", "app")).isEqualTo(2000);
    }

    /** A store whose next quota read can be held after reading, as a listener thread may be descheduled. */
    private static final class PausingStore implements DynamicConfigStore {
        private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
        private volatile Map<QuotaEntity, Map<String, Double>> quotas = Map.of();
        private final AtomicBoolean pauseNext = new AtomicBoolean();
        final CountDownLatch paused = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        void pauseNextRead() {
            pauseNext.set(true);
        }

        void set(Map<QuotaEntity, Map<String, Double>> all) {
            quotas = all;
            listeners.forEach(Runnable::run);
        }

        @Override
        public Map<QuotaEntity, Map<String, Double>> quotas() {
            Map<QuotaEntity, Map<String, Double>> read = quotas;
            if (pauseNext.compareAndSet(true, false)) {
                paused.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return read;
        }

        @Override
        public void addListener(Runnable onChange) {
            listeners.add(onChange);
        }

        @Override
        public Map<String, String> brokerConfigs(String broker) {
            return Map.of();
        }

        @Override
        public CompletableFuture<Void> alterBrokerConfigs(String broker, Map<String, String> changes) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<Void> alterQuotas(Map<QuotaEntity, Map<String, Double>> changes) {
            throw new UnsupportedOperationException();
        }
    }

    private static QuotaEntity clientOnly(String clientId) {
        TreeMap<String, String> parts = new TreeMap<>();
        parts.put(QuotaEntity.CLIENT_ID, clientId);
        return new QuotaEntity(parts);
    }
}
