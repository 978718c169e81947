package io.odradek.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.groups.Tuple.tuple;

import io.odradek.broker.Broker;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** Failover tests on an embedded cluster: stop a partition's leader, write on, start it again. */
class BrokerFailoverTest {
    @Test
    void withTheLeaderOfAnRf3PartitionStoppedAcksAllWritesGoOnAndItsRestartServesThemToo() throws Exception {
        try (Odradek cluster = Odradek.builder().brokers(3).start()) {
            cluster.createTopic("orders", 1, 3);
            String bootstrap = cluster.bootstrapServers();
            int leader;
            try (Admin admin = Clients.admin(bootstrap)) {
                leader = admin.describeTopics(List.of("orders")).allTopicNames().get(30, TimeUnit.SECONDS)
                        .get("orders").partitions().get(0).leader().id();
            }

            cluster.stopBroker(leader);
            assertThat(cluster.brokers()).extracting(b -> b.config().nodeId()).hasSize(2).doesNotContain(leader);

            try (KafkaProducer<String, String> producer = Clients.producer(cluster.bootstrapServers(), "all")) {
                for (int i = 0; i < 3; i++) {
                    assertThat(producer.send(new ProducerRecord<>("orders", 0, "k" + i, "order " + i))
                            .get(30, TimeUnit.SECONDS).offset()).isEqualTo(i);
                }
            }

            cluster.restartBroker(leader);
            assertThat(cluster.brokers()).extracting(b -> b.config().nodeId()).containsExactly(1, 2, 3);
            assertThat(cluster.bootstrapServers()).as("the restarted broker is back on its port").isEqualTo(bootstrap);
            List<ConsumerRecord<String, String>> read = Clients.readPartition(bootstrap, "orders", 0, 3);
            assertThat(read).extracting(ConsumerRecord::offset, ConsumerRecord::key, ConsumerRecord::value)
                    .containsExactly(tuple(0L, "k0", "order 0"), tuple(1L, "k1", "order 1"), tuple(2L, "k2", "order 2"));
        }
    }

    @Test
    void aBrokerClosedDirectlyIsLeftOutOfTopicCreationAndTheClusterStillCloses() throws Exception {
        Odradek cluster = Odradek.builder().brokers(3).start();
        Broker third = cluster.brokers().get(2);
        third.close();

        assertThat(cluster.brokers()).extracting(b -> b.config().nodeId()).containsExactly(1, 2);
        cluster.createTopic("after-close", 2, 2);
        for (Broker broker : cluster.brokers()) {
            assertThat(broker.cluster().image().topics().get("after-close").partitions()).hasSize(2);
        }
        assertThatNoException().isThrownBy(cluster::close);
    }
}
