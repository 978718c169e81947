package io.odradek.replication.cluster;

/**
 * A broker's periodic heartbeat to the active controller (Kafka's BrokerHeartbeat): {@code appliedOffset}
 * is the newest metadata offset it has applied (caught up once past its registration), {@code wantShutDown}
 * asks to be drained for a controlled shutdown.
 */
public record BrokerHeartbeat(int brokerId, long brokerEpoch, long appliedOffset, boolean wantShutDown) {
}
