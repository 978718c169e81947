package io.odradek.replication.cluster;

import java.util.List;
import java.util.UUID;

/**
 * A broker as the cluster metadata knows it (Kafka's BrokerRegistration). {@code epoch} is the metadata
 * offset of its latest registration, so a restarted broker gets a newer epoch and requests carrying an
 * older one are stale. A fenced broker leads nothing and is in no ISR; a broker in controlled shutdown
 * is being drained of its leaderships.
 */
public record BrokerRegistration(int id, long epoch, UUID incarnationId, List<Endpoint> endpoints, String rack,
        boolean fenced, boolean inControlledShutdown) {
    public BrokerRegistration {
        endpoints = List.copyOf(endpoints);
    }

    /** The endpoint of {@code listener}, or null if the broker has none of that name. */
    public Endpoint endpoint(String listener) {
        for (Endpoint e : endpoints) {
            if (e.listener().equals(listener)) {
                return e;
            }
        }
        return null;
    }

    /** The first endpoint: the client listener (brokers register their client listener first). */
    public Endpoint clientEndpoint() {
        return endpoints.isEmpty() ? null : endpoints.get(0);
    }

    public BrokerRegistration withFenced(boolean nowFenced) {
        return new BrokerRegistration(id, epoch, incarnationId, endpoints, rack, nowFenced, inControlledShutdown);
    }

    public BrokerRegistration withControlledShutdown(boolean shuttingDown) {
        return new BrokerRegistration(id, epoch, incarnationId, endpoints, rack, fenced, shuttingDown);
    }
}
