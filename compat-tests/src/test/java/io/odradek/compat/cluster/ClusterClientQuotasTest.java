package io.odradek.compat.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** Client quotas in a cluster: stored through the controller quorum, seen and enforced by every broker. */
class ClusterClientQuotasTest extends WithThreeNodeCluster {
    private static Admin adminOf(int id) {
        return cluster.track(Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap(id),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000")));
    }

    @Test
    void aQuotaSetThroughOneBrokerIsDescribedEverywhereAndThrottlesAtAnotherLeader() throws Exception {
        ClientQuotaEntity slow = new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "slow-producer"));
        adminOf(1).alterClientQuotas(List.of(new ClientQuotaAlteration(slow,
                List.of(new ClientQuotaAlteration.Op("producer_byte_rate", 10240.0))))).all().get(30, TimeUnit.SECONDS);

        for (int id = 1; id <= 3; id++) {
            Admin admin = adminOf(id);
            OdradekCluster.awaitCondition("the quota described through node " + id, Duration.ofSeconds(30), () -> {
                try {
                    return Map.of(slow, Map.of("producer_byte_rate", 10240.0))
                            .equals(admin.describeClientQuotas(ClientQuotaFilter.all()).entities().get(5, TimeUnit.SECONDS));
                } catch (Exception e) {
                    return false;
                }
            });
        }

        // Led by node 3, which learnt the quota from the metadata image.
        cluster.admin().createTopics(List.of(new NewTopic("metered", Map.of(0, List.of(3, 1, 2))))).all()
                .get(60, TimeUnit.SECONDS);
        KafkaProducer<byte[], byte[]> producer = cluster.track(new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap(),
                ProducerConfig.CLIENT_ID_CONFIG, "slow-producer",
                ProducerConfig.ACKS_CONFIG, "1"), new ByteArraySerializer(), new ByteArraySerializer()));
        for (int i = 0; i < 10; i++) {
            producer.send(new ProducerRecord<>("metered", new byte[10 * 1024])).get(30, TimeUnit.SECONDS);
        }
        double throttleMax = producer.metrics().entrySet().stream()
                .filter(m -> m.getKey().name().equals("produce-throttle-time-max"))
                .mapToDouble(m -> ((Number) m.getValue().metricValue()).doubleValue())
                .filter(v -> !Double.isNaN(v)).max().orElse(0);
        // 100 KiB against 10 KiB/s: the leader held the producer back by seconds.
        assertThat(throttleMax).isGreaterThan(1000);
    }
}
