package io.odradek.broker.network;

import io.odradek.broker.Broker;
import io.odradek.broker.BrokerConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A broker on a loopback port for the network tests, with the raw clients they open; closed after each test. */
final class LoopbackBroker implements AutoCloseable {
    private final List<RawClient> clients = new ArrayList<>();
    private Broker broker;

    /** Starts node 1 on an ephemeral loopback port over {@code logDir}, with these settings on top. */
    Broker start(Path logDir, Map<String, String> settings) throws InterruptedException {
        Map<String, String> config = new HashMap<>(settings);
        config.put("node.id", "1");
        config.put("listeners", "PLAINTEXT://127.0.0.1:0");
        config.put("log.dirs", logDir.toString());
        broker = Broker.start(BrokerConfig.of(config));
        return broker;
    }

    /** A raw client of the broker; {@code receiveBufferBytes} 0 keeps the OS default. */
    RawClient connect(int receiveBufferBytes) throws IOException {
        RawClient client = new RawClient(broker.port(), receiveBufferBytes);
        clients.add(client);
        return client;
    }

    @Override
    public void close() throws IOException {
        for (RawClient c : clients) {
            c.close();
        }
        if (broker != null) {
            broker.close();
        }
    }
}
