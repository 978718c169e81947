package io.odradek.broker.topics;

import io.odradek.replication.cluster.Endpoint;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * This broker as clients and other brokers reach it: node id and one advertised endpoint per listener (issue 10).
 * Ports are suppliers because a listener on port 0 learns its real port only after binding, while handlers are
 * built before.
 */
public final class LocalNode {
    private final int nodeId;
    private final List<Advertised> advertised;
    private final String rack;

    /** One advertised endpoint: the listener's name, the host to dial and the port, read when asked. */
    public record Advertised(String listener, String host, IntSupplier port) {
    }

    public LocalNode(int nodeId, List<Advertised> advertised, String rack) {
        if (advertised.isEmpty()) {
            throw new IllegalArgumentException("a broker advertises at least one endpoint");
        }
        this.nodeId = nodeId;
        this.advertised = List.copyOf(advertised);
        this.rack = rack;
    }

    /** A node with one PLAINTEXT endpoint (tests). */
    public LocalNode(int nodeId, String host, IntSupplier port, String rack) {
        this(nodeId, List.of(new Advertised("PLAINTEXT", host, port)), rack);
    }

    public int nodeId() {
        return nodeId;
    }

    /** Every advertised endpoint with its current port, in the order of the listeners. */
    public List<Endpoint> endpoints() {
        List<Endpoint> out = new ArrayList<>(advertised.size());
        for (Advertised a : advertised) {
            out.add(new Endpoint(a.listener(), a.host(), a.port().getAsInt()));
        }
        return out;
    }

    /** The endpoint of the listener named {@code listener}, or null when this broker does not advertise one. */
    public Endpoint endpoint(String listener) {
        for (Advertised a : advertised) {
            if (a.listener().equals(listener)) {
                return new Endpoint(a.listener(), a.host(), a.port().getAsInt());
            }
        }
        return null;
    }

    /** The first advertised endpoint's host. */
    public String host() {
        return advertised.get(0).host();
    }

    /** The first advertised endpoint's port. */
    public int port() {
        return advertised.get(0).port().getAsInt();
    }

    /** broker.rack, or null when unset. */
    public String rack() {
        return rack;
    }
}
