package io.odradek.broker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/** The MBeans under Kafka's names with Yammer's JmxReporter attributes; two brokers sharing one MBean server. */
class JmxExporterTest {
    final MBeanServer server = MBeanServerFactory.newMBeanServer();

    @Test
    void aMeterHasYammersMeterAttributes() throws Exception {
        Meters meters = new Meters(System::nanoTime);
        meters.addListener(new JmxExporter(server, "node 1"));
        meters.meter(TopicMeters.name("BytesInPerSec", "orders"), "bytes").mark(512);

        ObjectName name = new ObjectName("kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec,topic=orders");
        assertThat(server.getAttribute(name, "Count")).isEqualTo(512L);
        assertThat(server.getAttribute(name, "EventType")).isEqualTo("bytes");
        assertThat(server.getAttribute(name, "RateUnit")).isEqualTo(TimeUnit.SECONDS);
        assertThat(server.getAttribute(name, "OneMinuteRate")).isEqualTo(0.0);
        for (String attribute : new String[] {"MeanRate", "FiveMinuteRate", "FifteenMinuteRate"}) {
            assertThat(server.getAttribute(name, attribute)).isInstanceOf(Double.class);
        }
    }

    @Test
    void aHistogramHasYammersHistogramAttributes() throws Exception {
        Meters meters = new Meters(System::nanoTime);
        meters.addListener(new JmxExporter(server, "node 1"));
        RecentHistogram h = meters.histogram(RequestMeters.name("TotalTimeMs", "Produce"));
        h.update(2);
        h.update(4);

        ObjectName name = new ObjectName("kafka.network:type=RequestMetrics,name=TotalTimeMs,request=Produce");
        assertThat(server.getAttribute(name, "Count")).isEqualTo(2L);
        assertThat(server.getAttribute(name, "Min")).isEqualTo(2.0);
        assertThat(server.getAttribute(name, "Max")).isEqualTo(4.0);
        assertThat(server.getAttribute(name, "Mean")).isEqualTo(3.0);
        assertThat((double) server.getAttribute(name, "StdDev")).isCloseTo(Math.sqrt(2), org.assertj.core.api.Assertions.within(1e-9));
        assertThat(server.getAttribute(name, "50thPercentile")).isEqualTo(3.0);
        for (String p : new String[] {"75thPercentile", "95thPercentile", "98thPercentile", "99thPercentile", "999thPercentile"}) {
            assertThat(server.getAttribute(name, p)).isEqualTo(4.0);
        }
    }

    @Test
    void aGaugeIsReadWhenAskedAndReplacedByName() throws Exception {
        Meters meters = new Meters(System::nanoTime);
        meters.addListener(new JmxExporter(server, "node 1"));
        MetricName gauge = MetricName.of("kafka.server", "ReplicaManager", "UnderReplicatedPartitions");
        meters.put(new SuppliedGauge(gauge, () -> 3));
        ObjectName name = new ObjectName(gauge.mbeanName());
        assertThat(server.getAttribute(name, "Value")).isEqualTo(3);
        meters.put(new SuppliedGauge(gauge, () -> 0));
        assertThat(server.getAttribute(name, "Value")).isEqualTo(0);
        meters.remove(gauge);
        assertThat(server.isRegistered(name)).isFalse();
    }

    @Test
    void aSecondBrokerLeavesTheFirstBrokersNamesToItAndItsOwnGoOnClose() throws Exception {
        Meters first = new Meters(System::nanoTime);
        JmxExporter firstJmx = new JmxExporter(server, "node 1");
        first.addListener(firstJmx);
        Meters second = new Meters(System::nanoTime);
        JmxExporter secondJmx = new JmxExporter(server, "node 2");
        second.addListener(secondJmx);
        MetricName shared = TopicMeters.name("MessagesInPerSec", null);
        first.meter(shared, "messages").mark(1);
        second.meter(shared, "messages").mark(100); // not exported: the name is the first broker's
        second.meter(TopicMeters.name("MessagesInPerSec", "only-on-2"), "messages").mark(5);

        ObjectName sharedName = new ObjectName(shared.mbeanName());
        assertThat(server.getAttribute(sharedName, "Count")).isEqualTo(1L);
        ObjectName own = new ObjectName("kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec,topic=only-on-2");
        assertThat(server.getAttribute(own, "Count")).isEqualTo(5L);

        secondJmx.close();
        assertThat(server.isRegistered(sharedName)).as("the first broker's MBean stays").isTrue();
        assertThat(server.isRegistered(own)).isFalse();
        firstJmx.close();
        assertThat(server.queryNames(new ObjectName("kafka.server:*"), null)).isEmpty();
    }

    @Test
    void tagsFollowTypeAndNameSortedByKey() {
        assertThat(RequestMeters.requestsName("Produce", (short) 9).mbeanName())
                .isEqualTo("kafka.network:type=RequestMetrics,name=RequestsPerSec,request=Produce,version=9");
        assertThat(new MetricName("kafka.server", "BrokerTopicMetrics", "BytesOutPerSec", Map.of("topic", "a"))
                .mbeanName()).isEqualTo("kafka.server:type=BrokerTopicMetrics,name=BytesOutPerSec,topic=a");
    }
}
