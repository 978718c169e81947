package io.odradek.broker.metrics;

import io.odradek.broker.BrokerConfig;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * issue 11 (metrics): the broker's meters, under Kafka's names: the {@code BrokerTopicMetrics} meters (broker-wide
 * and per topic, {@link #topics()}), the {@code RequestMetrics} meters and histograms fed by the dispatcher
 * ({@link #requests()}), and the gauges other parts of the broker register ({@link #gauge}). Exporters read
 * {@link #registry()}: the MBeans of {@code odradek.metrics.jmx.enable} (on by default), the Prometheus endpoint.
 * One daemon thread per broker ticks the meters' rates every 5 s, as Yammer's meters tick; {@link #close()} stops it
 * and unregisters the MBeans.
 */
public final class BrokerMetrics implements AutoCloseable {
    /** The config key turning the JMX export on (default true); the embedded broker turns it off. */
    public static final String JMX_ENABLE = "odradek.metrics.jmx.enable";

    private final Meters meters;
    private final BrokerTopicMetrics topics;
    private final RequestMeters requests;
    private final ScheduledExecutorService ticker;
    private final JmxExporter jmx;

    private BrokerMetrics(LongSupplier nanoClock, boolean tick, JmxExporter jmx) {
        this.meters = new Meters(nanoClock);
        this.jmx = jmx;
        if (jmx != null) {
            meters.addListener(jmx);
        }
        this.topics = new BrokerTopicMetrics(meters);
        this.requests = new RequestMeters(meters);
        if (tick) {
            ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "odradek-metrics-ticker");
                t.setDaemon(true);
                return t;
            });
            ticker.scheduleAtFixedRate(this::tick, Ewma.TICK_SECONDS, Ewma.TICK_SECONDS, TimeUnit.SECONDS);
        } else {
            ticker = null;
        }
    }

    public static BrokerMetrics create(BrokerConfig config) {
        String jmxEnable = config.get(JMX_ENABLE);
        boolean jmx = jmxEnable == null || Boolean.parseBoolean(jmxEnable);
        return new BrokerMetrics(System::nanoTime, true, jmx ? JmxExporter.platform("node " + config.nodeId()) : null);
    }

    /** Tests: meters on {@code nanoClock}, ticked only by {@link #tick()}, not exported over JMX. */
    public static BrokerMetrics manual(LongSupplier nanoClock) {
        return new BrokerMetrics(nanoClock, false, null);
    }

    /** What the exporters read. */
    public MetricRegistry registry() {
        return meters;
    }

    /** The registry with its meter and histogram factories (for meters other parts of the broker own). */
    public Meters meters() {
        return meters;
    }

    /**
     * Registers a gauge read at each scrape (JMX attribute Value; a Prometheus gauge), replacing one of that name.
     * For meters that other parts of the broker own (partition counts, controller state, connection counts).
     */
    public void gauge(MetricName name, Supplier<? extends Number> value) {
        meters.put(new SuppliedGauge(name, value));
    }

    /** Unregisters the metric of that name, if any (a deleted topic's meters). */
    public void remove(MetricName name) {
        meters.remove(name);
    }

    /** The dispatcher's per-request report. */
    public RequestMetrics requests() {
        return requests;
    }

    /** The BrokerTopicMetrics meters, broker-wide and per topic (the data path counts into them). */
    public BrokerTopicMetrics topics() {
        return topics;
    }

    /** Moves every meter's rates by what it counted since the last tick (the ticker's job; tests call it). */
    public void tick() {
        meters.forEachMeter(RateMeter::tick);
    }

    @Override
    public void close() {
        if (ticker != null) {
            ticker.shutdownNow();
        }
        if (jmx != null) {
            jmx.close();
        }
    }
}
