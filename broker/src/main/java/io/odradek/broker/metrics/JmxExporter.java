package io.odradek.broker.metrics;

import java.lang.management.ManagementFactory;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.NotCompliantMBeanException;
import javax.management.ObjectName;
import javax.management.StandardMBean;

/**
 * Exports the broker's metrics as MBeans under Kafka's names ({@link MetricName#mbeanName()}), with the attributes
 * Yammer's JmxReporter gives them, so Kafka's JmxTool, jconsole and JMX-exporter dashboards read them: a meter has
 * Count, EventType, RateUnit, MeanRate, OneMinuteRate, FiveMinuteRate, FifteenMinuteRate; a histogram Count, Min,
 * Max, Mean, StdDev, 50thPercentile ... 999thPercentile; a gauge Value. An MBean reads its metric when asked, so
 * nothing runs for JMX while nobody reads.
 *
 * <p>Several brokers in one JVM (the embedded cluster, tests) share the platform MBean server and Kafka's names carry
 * no broker id: the first broker to register a name keeps it; a later broker's metric of the same name is not
 * exported (one log line per broker, not per metric), and the broker runs on. Replacing the first broker's MBean
 * instead would silently switch a running dashboard to another broker's numbers, and unregistering it would remove
 * the first broker's metric when the second closes. On close a broker unregisters only the MBeans it registered.
 */
final class JmxExporter implements Meters.Listener, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(JmxExporter.class.getName());

    /** Yammer's MeterMBean attributes (the getters' names, as a standard MBean shows them). */
    public interface MeterMBean {
        long getCount();

        String getEventType();

        TimeUnit getRateUnit();

        double getMeanRate();

        double getOneMinuteRate();

        double getFiveMinuteRate();

        double getFifteenMinuteRate();
    }

    /** Yammer's HistogramMBean attributes. */
    public interface HistogramMBean {
        long getCount();

        double getMin();

        double getMax();

        double getMean();

        double getStdDev();

        double get50thPercentile();

        double get75thPercentile();

        double get95thPercentile();

        double get98thPercentile();

        double get99thPercentile();

        double get999thPercentile();
    }

    /** Yammer's GaugeMBean attribute. */
    public interface GaugeMBean {
        Object getValue();
    }

    private final MBeanServer server;
    private final String broker;
    /** The names this broker registered (and so unregisters). */
    private final Set<ObjectName> registered = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean collisionLogged = new AtomicBoolean();
    private volatile boolean closed;

    /** {@code broker}: how the log lines name this broker ("node 1"). */
    JmxExporter(MBeanServer server, String broker) {
        this.server = server;
        this.broker = broker;
    }

    static JmxExporter platform(String broker) {
        return new JmxExporter(ManagementFactory.getPlatformMBeanServer(), broker);
    }

    @Override
    public void added(Metric metric) {
        if (closed) {
            return;
        }
        ObjectName name;
        try {
            name = new ObjectName(metric.name().mbeanName());
        } catch (MalformedObjectNameException e) {
            LOG.log(System.Logger.Level.WARNING, "not exporting " + metric.name() + " over JMX: " + e.getMessage());
            return;
        }
        try {
            server.registerMBean(mbean(metric), name);
            registered.add(name);
        } catch (InstanceAlreadyExistsException e) {
            if (collisionLogged.compareAndSet(false, true)) {
                LOG.log(System.Logger.Level.INFO, broker + ": " + name + " is already registered in this JVM (another"
                        + " broker's); this broker's metrics under names taken are not exported over JMX"
                        + " (odradek.metrics.jmx.enable=false turns its JMX export off)");
            }
        } catch (JMException e) {
            LOG.log(System.Logger.Level.WARNING, "not exporting " + name + " over JMX: " + e);
        }
    }

    @Override
    public void removed(Metric metric) {
        try {
            unregister(new ObjectName(metric.name().mbeanName()));
        } catch (MalformedObjectNameException e) {
            // never registered
        }
    }

    private void unregister(ObjectName name) {
        if (registered.remove(name)) {
            try {
                server.unregisterMBean(name);
            } catch (InstanceNotFoundException e) {
                // someone else took it down
            } catch (JMException e) {
                LOG.log(System.Logger.Level.WARNING, "cannot unregister " + name + ": " + e);
            }
        }
    }

    /** Unregisters every MBean this broker registered. */
    @Override
    public void close() {
        closed = true;
        for (ObjectName name : Set.copyOf(registered)) {
            unregister(name);
        }
    }

    private static StandardMBean mbean(Metric metric) throws NotCompliantMBeanException {
        if (metric instanceof Metric.Meter m) {
            return new StandardMBean(new MeterView(m), MeterMBean.class);
        }
        if (metric instanceof Metric.Histogram h) {
            return new StandardMBean(new HistogramView(h), HistogramMBean.class);
        }
        Metric.Gauge g = (Metric.Gauge) metric;
        return new StandardMBean((GaugeMBean) g::value, GaugeMBean.class);
    }

    private record MeterView(Metric.Meter m) implements MeterMBean {
        @Override
        public long getCount() {
            return m.count();
        }

        @Override
        public String getEventType() {
            return m.eventType();
        }

        @Override
        public TimeUnit getRateUnit() {
            return m.rateUnit();
        }

        @Override
        public double getMeanRate() {
            return m.meanRate();
        }

        @Override
        public double getOneMinuteRate() {
            return m.oneMinuteRate();
        }

        @Override
        public double getFiveMinuteRate() {
            return m.fiveMinuteRate();
        }

        @Override
        public double getFifteenMinuteRate() {
            return m.fifteenMinuteRate();
        }
    }

    private record HistogramView(Metric.Histogram h) implements HistogramMBean {
        @Override
        public long getCount() {
            return h.count();
        }

        @Override
        public double getMin() {
            return h.min();
        }

        @Override
        public double getMax() {
            return h.max();
        }

        @Override
        public double getMean() {
            return h.mean();
        }

        @Override
        public double getStdDev() {
            return h.stdDev();
        }

        @Override
        public double get50thPercentile() {
            return h.percentile(0.5);
        }

        @Override
        public double get75thPercentile() {
            return h.percentile(0.75);
        }

        @Override
        public double get95thPercentile() {
            return h.percentile(0.95);
        }

        @Override
        public double get98thPercentile() {
            return h.percentile(0.98);
        }

        @Override
        public double get99thPercentile() {
            return h.percentile(0.99);
        }

        @Override
        public double get999thPercentile() {
            return h.percentile(0.999);
        }
    }
}
