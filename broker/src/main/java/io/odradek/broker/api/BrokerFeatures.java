package io.odradek.broker.api;

import java.util.List;

/**
 * The feature flags this broker reports in ApiVersions (KIP-584): for each feature the version range it
 * supports and the level finalized cluster-wide. A single node is its own cluster, so the finalized
 * levels are fixed here, at what a freshly formatted Kafka 4.4 cluster finalizes, for the features we
 * implement: {@code metadata.version} 4.4-IV2 (level 33; supported from 3.3-IV3, level 7, Kafka 4's
 * minimum), {@code transaction.version} 2 (KIP-890: Kafka 4.x Java producers then use EndTxn v5 and let
 * partition leaders add partitions), {@code group.version} 1 (KIP-848 consumer groups), (issue 12)
 * {@code share.version} 2 (KIP-932 share groups, production-ready at level 1 since Kafka 4.2; Kafka 4.4's
 * level 2 adds the share group dead-letter queue, KIP-1191, which no client reads and we do not implement) and
 * {@code streams.version} 1 (KIP-1071 streams groups; Kafka Streams 4.4 needs it). Kafka's other production
 * features (kraft.version, eligible.leader.replicas.version) are left out: we implement neither, and a client
 * seeing them finalized would rely on them.
 * Kafka has no broker config key for these levels (they are set by {@code kafka-storage format} or
 * {@code kafka-features}), so neither do we.
 */
public final class BrokerFeatures {
    public static final String METADATA_VERSION = "metadata.version";
    public static final String TRANSACTION_VERSION = "transaction.version";
    public static final String GROUP_VERSION = "group.version";
    /** Share groups (issue 12, sharegroup). */
    public static final String SHARE_VERSION = "share.version";
    /** issue 12, streams. */
    public static final String STREAMS_VERSION = "streams.version";

    /** One feature: the range this broker supports and the cluster-wide finalized level (0 = not finalized). */
    public record Feature(String name, short minSupported, short maxSupported, short finalizedLevel) {
    }

    private final List<Feature> features;
    private final long finalizedEpoch;

    public BrokerFeatures(List<Feature> features, long finalizedEpoch) {
        this.features = List.copyOf(features);
        this.finalizedEpoch = finalizedEpoch;
    }

    /**
     * Kafka 4.4's levels for the features we implement. {@code finalizedEpoch} orders the finalized
     * information: a client keeps the highest epoch it has seen and ignores older answers (Kafka uses
     * the metadata log offset; the broker passes its start time, so a restart with other levels wins).
     */
    public static BrokerFeatures kafka44(long finalizedEpoch) {
        return new BrokerFeatures(List.of(
                new Feature(METADATA_VERSION, (short) 7, (short) 33, (short) 33),
                new Feature(TRANSACTION_VERSION, (short) 0, (short) 2, (short) 2),
                new Feature(GROUP_VERSION, (short) 0, (short) 1, (short) 1),
                new Feature(SHARE_VERSION, (short) 0, (short) 2, (short) 2),
                // issue 12, streams: KIP-1071 streams groups (Kafka 4.4's StreamsVersion SV_1, production since 4.2)
                new Feature(STREAMS_VERSION, (short) 0, (short) 1, (short) 1)), finalizedEpoch);
    }

    /**
     * The features an emulated release's broker reported ({@code odradek.emulate.version}; null: none, Kafka 4.4's):
     * its finalized levels from {@link KafkaReleases}' table, each supported up to that level. Releases before 3.3
     * report none (2.7-3.2 sent the KIP-584 fields empty; older releases had no such fields), and then the finalized
     * epoch is -1 ("unknown"), as those brokers sent it. Only the features we implement are ever listed, and
     * metadata.version keeps our minimum (3.3-IV3, level 7, which every emulated KRaft release reaches).
     */
    public static BrokerFeatures of(KafkaRelease emulated, long finalizedEpoch) {
        if (emulated == null) {
            return kafka44(finalizedEpoch);
        }
        List<Feature> features = new java.util.ArrayList<>();
        for (Feature ours : kafka44(finalizedEpoch).features()) {
            short level = emulated.featureLevel(ours.name());
            if (level > 0) {
                features.add(new Feature(ours.name(), (short) Math.min(ours.minSupported(), level), level, level));
            }
        }
        return new BrokerFeatures(features, features.isEmpty() ? -1 : finalizedEpoch);
    }

    public List<Feature> features() {
        return features;
    }

    public long finalizedEpoch() {
        return finalizedEpoch;
    }

    /** The finalized level of a feature; 0 when it is not finalized (or unknown), as Kafka reads it. */
    public short finalizedLevel(String name) {
        for (Feature f : features) {
            if (f.name().equals(name)) {
                return f.finalizedLevel();
            }
        }
        return 0;
    }

    /** The finalized {@code transaction.version}: 2 means the KIP-890 protocol is on. */
    public short transactionVersion() {
        return finalizedLevel(TRANSACTION_VERSION);
    }
}
