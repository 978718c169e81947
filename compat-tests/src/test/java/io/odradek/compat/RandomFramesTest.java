package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.Apis;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Frames with a valid header and random bodies, for every API and version we serve: each is answered or
 * its connection closed, the broker never logs an unexpected error, and real clients carry on afterwards.
 */
class RandomFramesTest {
    private static final Logger NETWORK = Logger.getLogger("io.odradek.broker.network.RequestChannelHandler");

    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withDefaults();

    private final List<LogRecord> errors = new ArrayList<>();
    private final Handler errorCollector = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.SEVERE.intValue()) {
                synchronized (errors) {
                    errors.add(record);
                }
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void collectErrors() {
        NETWORK.addHandler(errorCollector);
    }

    @AfterEach
    void stopCollecting() {
        NETWORK.removeHandler(errorCollector);
    }

    @Test
    void randomBodiesForEveryApiNeverCrashTheBrokerOrLogAnUnexpectedError() throws Exception {
        broker.createTopic("survivor", 1);
        Random random = new Random(20261130);
        List<ApiSpec> apis = Apis.ALL;
        for (int i = 0; i < 600; i++) {
            ApiSpec api = apis.get(random.nextInt(apis.size()));
            short version = (short) (api.minVersion() + random.nextInt(api.maxVersion() - api.minVersion() + 1));
            sendOneFrame(api, version, i, randomBody(random));
        }

        var producer = Clients.producer(broker, Map.of());
        producer.send(new ProducerRecord<>("survivor", "key", "still here")).get();
        var consumer = Clients.consumer(broker, Map.of());
        List<ConsumerRecord<String, String>> read = Clients.readAll(consumer, Clients.partitions("survivor", 1),
                Duration.ofSeconds(30));
        assertThat(read).extracting(ConsumerRecord::key, ConsumerRecord::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("key", "still here"));
        synchronized (errors) {
            assertThat(errors).extracting(LogRecord::getMessage).isEmpty();
        }
    }

    /** Mostly small bytes, which parse further into a message than uniformly random ones. */
    private static byte[] randomBody(Random random) {
        byte[] body = new byte[random.nextInt(160)];
        boolean sparse = random.nextBoolean();
        for (int j = 0; j < body.length; j++) {
            body[j] = sparse ? new byte[] {0, 0, 0, 1, 2, -1}[random.nextInt(6)] : (byte) random.nextInt(256);
        }
        return body;
    }

    private void sendOneFrame(ApiSpec api, short version, int correlationId, byte[] body) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", broker.port())) {
            socket.setSoTimeout(500);
            byte[] clientId = "fuzz".getBytes(StandardCharsets.UTF_8);
            boolean flexible = api.isFlexible(version);
            int length = 2 + 2 + 4 + 2 + clientId.length + (flexible ? 1 : 0) + body.length;
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(length);
            out.writeShort(api.key());
            out.writeShort(version);
            out.writeInt(correlationId);
            out.writeShort(clientId.length);
            out.write(clientId);
            if (flexible) {
                out.writeByte(0); // no tagged fields in the header
            }
            out.write(body);
            out.flush();
            InputStream in = socket.getInputStream();
            try {
                in.read(new byte[4096]); // an answer, or -1 when the broker closes the connection
            } catch (SocketTimeoutException e) {
                // a request that waits (a fetch with max wait) is fine too
            }
        }
    }
}
