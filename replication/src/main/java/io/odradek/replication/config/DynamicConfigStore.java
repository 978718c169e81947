package io.odradek.replication.config;

import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The cluster's dynamic configuration besides topic configs: broker configs, per broker and the cluster-wide
 * default (what {@code kafka-configs --entity-type brokers [--entity-name N | --entity-default]} sets), and
 * client quotas (what {@code kafka-configs --entity-type users/clients/ips} and AlterClientQuotas set), and
 * (issue 12) group configs (what {@code kafka-configs --entity-type groups} sets: GROUP resources).
 * Single node: kept in a file beside the topic catalog; cluster mode: changed by commands through the
 * controller quorum and read from the applied metadata image. Reads are lock-free snapshots.
 */
public interface DynamicConfigStore {
    /** Kafka's name for the cluster-wide default broker entity. */
    String DEFAULT_BROKER = "";

    /** The dynamic configs of one broker entity (a node id as text, or {@link #DEFAULT_BROKER}); empty if none. */
    Map<String, String> brokerConfigs(String broker);

    /**
     * Sets (non-null value) or removes (null value) keys of one broker entity, all or nothing. Completes once the
     * change is durable (single node: the file synced; cluster: committed) and visible to readers here.
     */
    CompletableFuture<Void> alterBrokerConfigs(String broker, Map<String, String> changes);

    /** Every quota entity that has quotas, with them (e.g. producer_byte_rate -> 1048576.0). */
    Map<QuotaEntity, Map<String, Double>> quotas();

    /** Sets (non-null) or removes (null) quota values, per entity, all or nothing; completes as above. */
    CompletableFuture<Void> alterQuotas(Map<QuotaEntity, Map<String, Double>> changes);

    /** Runs (on any thread, after the change is visible) whenever broker configs, quotas or group configs change. */
    void addListener(Runnable onChange);

    // Group configs (issue 12, groupconfigs). Defaults so stores written for tests before them still compile.

    /** The dynamic configs set for one group (Kafka's group config keys); empty if none. */
    default Map<String, String> groupConfigs(String groupId) {
        return Map.of();
    }

    /** Every group that has dynamic configs, with them, in group id order. */
    default Map<String, Map<String, String>> groupConfigs() {
        return Map.of();
    }

    /**
     * Sets (non-null value) or removes (null value) keys of one group's configs, all or nothing; completes once
     * the change is durable and visible here, as {@link #alterBrokerConfigs}. The values are validated by the caller.
     */
    default CompletableFuture<Void> alterGroupConfigs(String groupId, Map<String, String> changes) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("this store keeps no group configs"));
    }
}
