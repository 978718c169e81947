package io.odradek.broker.metrics.http;

import static io.odradek.broker.metrics.http.TestMetrics.name;
import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.metrics.Metric;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Kafka's MBeans as the JMX exporter's Kafka rules (kafka-2_0_0.yml, lowercaseOutputName) name them. */
class KafkaMetricsCollectorTest {

    private static List<String> scrape(Metric... metrics) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, new KafkaMetricsCollector(() -> List.of(metrics)).collect());
        return Arrays.asList(out.toString(StandardCharsets.UTF_8).split("\n"));
    }

    @Test
    void aPerSecMeterIsACounterWithoutPerSecAndWithItsTagsAsLabels() throws IOException {
        List<String> lines = scrape(
                new TestMetrics.Meter(name("kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec,topic=orders"), 10),
                new TestMetrics.Meter(name("kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec,topic=audit"), 3),
                new TestMetrics.Meter(name("kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec"), 1234));

        assertThat(lines).contains(
                "# TYPE kafka_server_brokertopicmetrics_messagesin_total counter",
                "kafka_server_brokertopicmetrics_messagesin_total{topic=\"audit\"} 3.0",
                "kafka_server_brokertopicmetrics_messagesin_total{topic=\"orders\"} 10.0",
                "# TYPE kafka_server_brokertopicmetrics_bytesin_total counter",
                "kafka_server_brokertopicmetrics_bytesin_total 1234.0");
        assertThat(String.join("\n", lines)).doesNotContain("rate").doesNotContain("persec");
    }

    @Test
    void aMeterWithTwoTagsHasBothAsLabels() throws IOException {
        assertThat(scrape(new TestMetrics.Meter(
                name("kafka.network:type=RequestMetrics,name=ErrorsPerSec,request=Produce,error=NONE"), 7)))
                .contains("kafka_network_requestmetrics_errors_total{error=\"NONE\",request=\"Produce\"} 7.0");
    }

    @Test
    void aGaugeIsItsValueUnderDomainTypeAndName() throws IOException {
        assertThat(scrape(
                new TestMetrics.Gauge(name("kafka.server:type=ReplicaManager,name=UnderReplicatedPartitions"), 2),
                new TestMetrics.Gauge(name("kafka.controller:type=KafkaController,name=ActiveControllerCount"), 1),
                new TestMetrics.Gauge(name("kafka.log:type=Log,name=Size,topic=t,partition=0"), 4096L),
                new TestMetrics.Gauge(name("kafka.coordinator.group:type=GroupMetadataManager,name=NumGroups"), 5),
                new TestMetrics.Gauge(name("kafka.server:type=socket-server-metrics,name=connection-count"), 4),
                new TestMetrics.Gauge(name("kafka.server:type=KafkaServer,name=ClusterId"), "not-a-number")))
                .contains(
                        "# TYPE kafka_server_replicamanager_underreplicatedpartitions gauge",
                        "kafka_server_replicamanager_underreplicatedpartitions 2.0",
                        "kafka_controller_kafkacontroller_activecontrollercount 1.0",
                        "kafka_log_log_size{partition=\"0\",topic=\"t\"} 4096.0",
                        "kafka_coordinator_group_groupmetadatamanager_numgroups 5.0",
                        "kafka_server_socket_server_metrics_connection_count 4.0")
                .noneMatch(line -> line.contains("clusterid"));
    }

    @Test
    void aHistogramIsQuantileGaugesAsTheRulesLabelThemAndACount() throws IOException {
        List<String> lines = scrape(new TestMetrics.Histogram(
                name("kafka.network:type=RequestMetrics,name=TotalTimeMs,request=Produce"), 42));

        assertThat(lines).containsSubsequence(
                "# TYPE kafka_network_requestmetrics_totaltimems gauge",
                "kafka_network_requestmetrics_totaltimems{quantile=\"0.50\",request=\"Produce\"} 50.0",
                "kafka_network_requestmetrics_totaltimems{quantile=\"0.75\",request=\"Produce\"} 75.0",
                "kafka_network_requestmetrics_totaltimems{quantile=\"0.95\",request=\"Produce\"} 95.0",
                "kafka_network_requestmetrics_totaltimems{quantile=\"0.98\",request=\"Produce\"} 98.0",
                "kafka_network_requestmetrics_totaltimems{quantile=\"0.99\",request=\"Produce\"} 99.0",
                "kafka_network_requestmetrics_totaltimems{quantile=\"0.999\",request=\"Produce\"} 99.9");
        assertThat(lines).contains("kafka_network_requestmetrics_totaltimems_count{request=\"Produce\"} 42.0");
        assertThat(String.join("\n", lines)).doesNotContain("_sum").doesNotContain("_count_total");
    }

    @Test
    void aMeterNotNamedPerSecFallsToTheGenericCountRule() throws IOException {
        assertThat(scrape(new TestMetrics.Meter(name("kafka.controller:type=ControllerStats,name=LeaderElections"), 6)))
                .contains("kafka_controller_controllerstats_leaderelections_count 6.0");
    }

    @Test
    void brokerHostAndPortTagsBecomeOneBrokerLabel() throws IOException {
        assertThat(scrape(new TestMetrics.Gauge(name(
                "kafka.server:type=FetcherLagMetrics,name=ConsumerLag,clientId=ReplicaFetcherThread-0-2,brokerHost=b2,brokerPort=9092"), 3)))
                .contains("kafka_server_fetcherlagmetrics_consumerlag{broker=\"b2:9092\",clientId=\"ReplicaFetcherThread-0-2\"} 3.0");
    }

    @Test
    void aGaugeThatFailsIsLeftOutAndTheRestScraped() throws IOException {
        Metric broken = new Metric.Gauge() {
            @Override
            public io.odradek.broker.metrics.MetricName name() {
                return TestMetrics.name("kafka.server:type=ReplicaManager,name=LeaderCount");
            }

            @Override
            public Object value() {
                throw new IllegalStateException("closed");
            }
        };
        assertThat(scrape(broken, new TestMetrics.Gauge(name("kafka.server:type=ReplicaManager,name=PartitionCount"), 9)))
                .contains("kafka_server_replicamanager_partitioncount 9.0")
                .noneMatch(line -> line.contains("leadercount"));
    }
}
