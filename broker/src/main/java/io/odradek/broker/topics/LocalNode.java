package io.odradek.broker.topics;

import java.util.function.IntSupplier;

/**
 * This broker as clients should reach it: node id and advertised endpoint. The port is a supplier
 * because a listener on port 0 learns its real port only after binding, while handlers are built before.
 */
public final class LocalNode {
    private final int nodeId;
    private final String host;
    private final IntSupplier port;
    private final String rack;

    public LocalNode(int nodeId, String host, IntSupplier port, String rack) {
        this.nodeId = nodeId;
        this.host = host;
        this.port = port;
        this.rack = rack;
    }

    public int nodeId() {
        return nodeId;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port.getAsInt();
    }

    /** broker.rack, or null when unset. */
    public String rack() {
        return rack;
    }
}
