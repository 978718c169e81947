package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.utils.internals.Exit;
import org.apache.kafka.tools.JmxTool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kafka's own JmxTool (kafka-tools 4.4), pointed at a JMX connector of this JVM as an operator points it at a
 * broker's JMX port, reads the broker's meters under Kafka's MBean names.
 */
class JmxToolTest {
    @RegisterExtension
    static final OdradekBroker BROKER = OdradekBroker.withDefaults();

    static JMXConnectorServer connector;

    @BeforeAll
    static void startJmxConnector() throws Exception {
        // An RMI connector without a registry: its address carries the stub, so no fixed port is needed.
        connector = JMXConnectorServerFactory.newJMXConnectorServer(new JMXServiceURL("service:jmx:rmi://127.0.0.1"),
                null, ManagementFactory.getPlatformMBeanServer());
        connector.start();
    }

    @AfterAll
    static void stopJmxConnector() throws Exception {
        connector.stop();
    }

    @Test
    void jmxToolReadsTheMessagesAndBytesOfATopicProducedAndConsumed() throws Exception {
        BROKER.createTopic("jmx-tool", 1);
        KafkaProducer<String, String> producer = Clients.producer(BROKER, Map.of());
        for (int i = 0; i < 25; i++) {
            producer.send(new ProducerRecord<>("jmx-tool", 0, "k" + i, "v" + i));
        }
        producer.flush();
        KafkaConsumer<String, String> consumer = Clients.consumer(BROKER, Map.of());
        List<ConsumerRecord<String, String>> read = Clients.readAll(consumer, Clients.partitions("jmx-tool", 1),
                Duration.ofSeconds(30));
        assertThat(read).hasSize(25);

        String messagesIn = jmxTool("kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec,topic=jmx-tool");
        assertThat(attribute(messagesIn, "kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec,topic=jmx-tool",
                "Count")).isEqualTo("25");

        long logBytes = BROKER.broker().topics().partitionLog("jmx-tool", 0).orElseThrow().sizeInBytes();
        String bytesOut = jmxTool("kafka.server:type=BrokerTopicMetrics,name=BytesOutPerSec,topic=jmx-tool");
        assertThat(attribute(bytesOut, "kafka.server:type=BrokerTopicMetrics,name=BytesOutPerSec,topic=jmx-tool",
                "Count")).isEqualTo(Long.toString(logBytes));
        assertThat(attribute(bytesOut, "kafka.server:type=BrokerTopicMetrics,name=BytesOutPerSec,topic=jmx-tool",
                "EventType")).isEqualTo("bytes");
        assertThat(attribute(bytesOut, "kafka.server:type=BrokerTopicMetrics,name=BytesOutPerSec,topic=jmx-tool",
                "RateUnit")).isEqualTo("SECONDS");
    }

    @Test
    void jmxToolReadsARequestHistogramsPercentiles() throws Exception {
        BROKER.createTopic("jmx-tool-times", 1);
        KafkaProducer<String, String> producer = Clients.producer(BROKER, Map.of());
        producer.send(new ProducerRecord<>("jmx-tool-times", 0, "k", "v")).get(30, TimeUnit.SECONDS);

        String name = "kafka.network:type=RequestMetrics,name=TotalTimeMs,request=Produce";
        String out = jmxTool(name);
        assertThat(Long.parseLong(attribute(out, name, "Count"))).isPositive();
        for (String percentile : List.of("50thPercentile", "75thPercentile", "95thPercentile", "98thPercentile",
                "99thPercentile", "999thPercentile", "Min", "Max", "Mean", "StdDev")) {
            assertThat(Double.parseDouble(attribute(out, name, percentile))).as(percentile).isGreaterThanOrEqualTo(0.0);
        }
    }

    /**
     * JmxTool's one-time report of one MBean. It ends by calling exit(0) inside its own catch-all, which turns the
     * exception our exit procedure unwinds with into exit(1): the first exit status is the tool's.
     */
    private static String jmxTool(String objectName) throws Exception {
        AtomicInteger firstStatus = new AtomicInteger(Integer.MIN_VALUE);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream originalOut = System.out;
        Exit.setExitProcedure((status, message) -> {
            firstStatus.compareAndSet(Integer.MIN_VALUE, status);
            throw new ToolExited();
        });
        try (PrintStream captured = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            System.setOut(captured);
            JmxTool.main(new String[] {"--jmx-url", connector.getAddress().toString(), "--object-name", objectName,
                    "--one-time", "true", "--report-format", "properties"});
        } catch (ToolExited e) {
            // the tool's exit
        } finally {
            System.setOut(originalOut);
            Exit.resetExitProcedure();
        }
        String report = out.toString(StandardCharsets.UTF_8);
        assertThat(firstStatus.get()).as(report).isZero();
        return report;
    }

    /** Unwinds the tool's main method at its exit (an Error, past its catch of Exception). */
    private static final class ToolExited extends Error {
        private static final long serialVersionUID = 1L;

        ToolExited() {
            super(null, null, false, false);
        }
    }

    /** An attribute's value in JmxTool's "properties" report ({@code <object name>:<attribute>=<value>}). */
    private static String attribute(String report, String objectName, String attribute) {
        Matcher m = Pattern.compile(Pattern.quote(objectName + ":" + attribute) + "=([^,\\n}]*)").matcher(report);
        assertThat(m.find()).as("%s:%s in %s", objectName, attribute, report).isTrue();
        return m.group(1).trim();
    }
}
