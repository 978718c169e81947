package io.odradek.log;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Immutable per-log settings under Kafka's topic-level names. Start from {@link #defaults()} (Kafka's
 * broker defaults) or {@link #fromBrokerConfig} and layer topic overrides with {@link #with}; every value
 * is validated, and a bad one throws {@link IllegalArgumentException} naming the key and the rule.
 */
public final class LogConfig {
    public static final String SEGMENT_BYTES = "segment.bytes";
    public static final String SEGMENT_MS = "segment.ms";
    public static final String RETENTION_MS = "retention.ms";
    public static final String RETENTION_BYTES = "retention.bytes";
    public static final String INDEX_INTERVAL_BYTES = "index.interval.bytes";
    public static final String SEGMENT_INDEX_BYTES = "segment.index.bytes";
    public static final String FLUSH_MESSAGES = "flush.messages";
    public static final String FLUSH_MS = "flush.ms";
    public static final String MAX_MESSAGE_BYTES = "max.message.bytes";
    public static final String FILE_DELETE_DELAY_MS = "file.delete.delay.ms";
    public static final String MESSAGE_TIMESTAMP_TYPE = "message.timestamp.type";
    /** "delete" (retention), "compact" (the {@link LogCleaner}) or both. */
    public static final String CLEANUP_POLICY = "cleanup.policy";
    /** How long the cleaner keeps a tombstone after first cleaning its batch (Kafka's delete horizon). */
    public static final String DELETE_RETENTION_MS = "delete.retention.ms";
    /** The cleaner skips a log while dirty bytes / (clean + dirty bytes) of its inactive segments is below this. */
    public static final String MIN_CLEANABLE_DIRTY_RATIO = "min.cleanable.dirty.ratio";
    /** Accepted and reported; the log stores batches as the producer compressed them ("producer"). */
    public static final String COMPRESSION_TYPE = "compression.type";
    /** Accepted and reported; enforced by replication, not by the log. */
    public static final String MIN_INSYNC_REPLICAS = "min.insync.replicas";
    /** CreateTime topics: a record may be at most this much older than the broker's clock (INVALID_TIMESTAMP). */
    public static final String MESSAGE_TIMESTAMP_BEFORE_MAX_MS = "message.timestamp.before.max.ms";
    /** CreateTime topics: a record may be at most this much ahead of the broker's clock (INVALID_TIMESTAMP). */
    public static final String MESSAGE_TIMESTAMP_AFTER_MAX_MS = "message.timestamp.after.max.ms";
    /** The largest decompressed record produce validation accepts from a compressed batch (INVALID_RECORD). */
    public static final String MAX_DECOMPRESSED_MESSAGE_BYTES = "max.decompressed.message.bytes";
    /** Accepted and reported; the controller's leader election reads it (issue 9, configs). */
    public static final String UNCLEAN_LEADER_ELECTION_ENABLE = "unclean.leader.election.enable";

    public static final String CREATE_TIME = "CreateTime";
    public static final String LOG_APPEND_TIME = "LogAppendTime";

    /** Topic-level key -> the broker-level key that supplies its default, as in Kafka. */
    private static final Map<String, String> BROKER_SYNONYMS = Map.ofEntries(
            Map.entry(SEGMENT_BYTES, "log.segment.bytes"),
            Map.entry(SEGMENT_MS, "log.roll.ms"),
            Map.entry(RETENTION_MS, "log.retention.ms"),
            Map.entry(RETENTION_BYTES, "log.retention.bytes"),
            Map.entry(INDEX_INTERVAL_BYTES, "log.index.interval.bytes"),
            Map.entry(SEGMENT_INDEX_BYTES, "log.index.size.max.bytes"),
            Map.entry(FLUSH_MESSAGES, "log.flush.interval.messages"),
            Map.entry(FLUSH_MS, "log.flush.interval.ms"),
            Map.entry(MAX_MESSAGE_BYTES, "message.max.bytes"),
            Map.entry(FILE_DELETE_DELAY_MS, "log.segment.delete.delay.ms"),
            Map.entry(MESSAGE_TIMESTAMP_TYPE, "log.message.timestamp.type"),
            Map.entry(CLEANUP_POLICY, "log.cleanup.policy"),
            Map.entry(DELETE_RETENTION_MS, "log.cleaner.delete.retention.ms"),
            Map.entry(MIN_CLEANABLE_DIRTY_RATIO, "log.cleaner.min.cleanable.ratio"),
            Map.entry(COMPRESSION_TYPE, "compression.type"),
            Map.entry(MIN_INSYNC_REPLICAS, "min.insync.replicas"),
            Map.entry(MESSAGE_TIMESTAMP_BEFORE_MAX_MS, "log.message.timestamp.before.max.ms"),
            Map.entry(MESSAGE_TIMESTAMP_AFTER_MAX_MS, "log.message.timestamp.after.max.ms"),
            Map.entry(MAX_DECOMPRESSED_MESSAGE_BYTES, "max.decompressed.message.bytes"),
            Map.entry(UNCLEAN_LEADER_ELECTION_ENABLE, "unclean.leader.election.enable"));

    private static final Map<String, String> DEFAULTS;

    static {
        Map<String, String> d = new LinkedHashMap<>();
        d.put(SEGMENT_BYTES, "1073741824");
        d.put(SEGMENT_MS, "604800000");
        d.put(RETENTION_MS, "604800000");
        d.put(RETENTION_BYTES, "-1");
        d.put(INDEX_INTERVAL_BYTES, "4096");
        d.put(SEGMENT_INDEX_BYTES, "10485760");
        d.put(FLUSH_MESSAGES, Long.toString(Long.MAX_VALUE));
        d.put(FLUSH_MS, Long.toString(Long.MAX_VALUE));
        d.put(MAX_MESSAGE_BYTES, "1048588");
        d.put(FILE_DELETE_DELAY_MS, "60000");
        d.put(MESSAGE_TIMESTAMP_TYPE, CREATE_TIME);
        d.put(CLEANUP_POLICY, "delete");
        d.put(DELETE_RETENTION_MS, "86400000");
        d.put(MIN_CLEANABLE_DIRTY_RATIO, "0.5");
        d.put(COMPRESSION_TYPE, "producer");
        d.put(MIN_INSYNC_REPLICAS, "1");
        // Kafka 4.4's defaults: any age in the past, at most one hour ahead; no per-record cap below 2^31-9.
        d.put(MESSAGE_TIMESTAMP_BEFORE_MAX_MS, Long.toString(Long.MAX_VALUE));
        d.put(MESSAGE_TIMESTAMP_AFTER_MAX_MS, "3600000");
        d.put(MAX_DECOMPRESSED_MESSAGE_BYTES, "2147483639");
        d.put(UNCLEAN_LEADER_ELECTION_ENABLE, "false");
        DEFAULTS = Collections.unmodifiableMap(d);
    }

    private static final LogConfig DEFAULT_CONFIG = new LogConfig(DEFAULTS, true);

    private final Map<String, String> values;
    private final int segmentBytes;
    private final long segmentMs;
    private final long retentionMs;
    private final long retentionBytes;
    private final int indexIntervalBytes;
    private final int segmentIndexBytes;
    private final long flushMessages;
    private final long flushMs;
    private final int maxMessageBytes;
    private final long fileDeleteDelayMs;
    private final boolean logAppendTime;
    private final boolean compact;
    private final boolean delete;
    private final long deleteRetentionMs;
    private final double minCleanableDirtyRatio;
    private final long timestampBeforeMaxMs;
    private final long timestampAfterMaxMs;
    private final int maxDecompressedMessageBytes;
    /** Not a topic key: the broker's {@code odradek.produce.validation} (true = full, false = header only). */
    private final boolean fullRecordValidation;

    private LogConfig(Map<String, String> values, boolean fullRecordValidation) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        this.fullRecordValidation = fullRecordValidation;
        // Kafka 4 requires >= 1 MiB for segment.bytes; we accept down to one batch header so tests can roll.
        this.segmentBytes = intAtLeast(SEGMENT_BYTES, 61);
        this.segmentMs = longAtLeast(SEGMENT_MS, 1);
        this.retentionMs = longAtLeast(RETENTION_MS, -1);
        this.retentionBytes = longAtLeast(RETENTION_BYTES, -1);
        this.indexIntervalBytes = intAtLeast(INDEX_INTERVAL_BYTES, 0);
        this.segmentIndexBytes = intAtLeast(SEGMENT_INDEX_BYTES, 12);
        this.flushMessages = longAtLeast(FLUSH_MESSAGES, 1);
        this.flushMs = longAtLeast(FLUSH_MS, 0);
        this.maxMessageBytes = intAtLeast(MAX_MESSAGE_BYTES, 0);
        this.fileDeleteDelayMs = longAtLeast(FILE_DELETE_DELAY_MS, 0);
        this.logAppendTime = oneOf(MESSAGE_TIMESTAMP_TYPE, CREATE_TIME, LOG_APPEND_TIME).equals(LOG_APPEND_TIME);
        boolean c = false;
        boolean d = false;
        for (String policy : get(CLEANUP_POLICY).split(",")) {
            if (!policy.trim().equals("delete") && !policy.trim().equals("compact")) {
                throw bad(CLEANUP_POLICY, "must be a list of 'delete' and 'compact'");
            }
            c |= policy.trim().equals("compact");
            d |= policy.trim().equals("delete");
        }
        this.compact = c;
        this.delete = d;
        this.deleteRetentionMs = longAtLeast(DELETE_RETENTION_MS, 0);
        this.minCleanableDirtyRatio = ratio(MIN_CLEANABLE_DIRTY_RATIO);
        oneOf(COMPRESSION_TYPE, "producer", "uncompressed", "gzip", "snappy", "lz4", "zstd");
        intAtLeast(MIN_INSYNC_REPLICAS, 1);
        this.timestampBeforeMaxMs = longAtLeast(MESSAGE_TIMESTAMP_BEFORE_MAX_MS, 0);
        this.timestampAfterMaxMs = longAtLeast(MESSAGE_TIMESTAMP_AFTER_MAX_MS, 0);
        this.maxDecompressedMessageBytes = intAtLeast(MAX_DECOMPRESSED_MESSAGE_BYTES, 0);
        String unclean = get(UNCLEAN_LEADER_ELECTION_ENABLE);
        if (!unclean.equalsIgnoreCase("true") && !unclean.equalsIgnoreCase("false")) {
            throw bad(UNCLEAN_LEADER_ELECTION_ENABLE, "Expected value to be either true or false");
        }
    }

    /** Kafka's broker defaults. */
    public static LogConfig defaults() {
        return DEFAULT_CONFIG;
    }

    /**
     * Defaults taken from broker-level keys ({@code log.segment.bytes}, {@code log.retention.hours}, ...);
     * unrelated broker keys are ignored. Kafka's precedence applies: ms over minutes over hours.
     */
    public static LogConfig fromBrokerConfig(Map<String, String> broker) {
        Map<String, String> overrides = new LinkedHashMap<>();
        BROKER_SYNONYMS.forEach((topicKey, brokerKey) -> {
            String v = broker.get(brokerKey);
            if (v != null) {
                overrides.put(topicKey, v.trim());
            }
        });
        if (!broker.containsKey("log.retention.ms")) {
            timeInUnits(broker, "log.retention.minutes", 60_000L, overrides, RETENTION_MS);
            if (!broker.containsKey("log.retention.minutes")) {
                timeInUnits(broker, "log.retention.hours", 3_600_000L, overrides, RETENTION_MS);
            }
        }
        if (!broker.containsKey("log.roll.ms")) {
            timeInUnits(broker, "log.roll.hours", 3_600_000L, overrides, SEGMENT_MS);
        }
        return DEFAULT_CONFIG.with(overrides);
    }

    private static void timeInUnits(Map<String, String> broker, String key, long unitMs,
                                    Map<String, String> into, String topicKey) {
        String v = broker.get(key);
        if (v == null) {
            return;
        }
        try {
            long n = Long.parseLong(v.trim());
            into.put(topicKey, Long.toString(n < 0 ? -1 : n * unitMs));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Invalid value '" + v + "' for " + key + ": not a number", e);
        }
    }

    /** A copy with topic-level overrides applied; unknown keys are rejected. */
    public LogConfig with(Map<String, String> topicOverrides) {
        if (topicOverrides == null || topicOverrides.isEmpty()) {
            return this;
        }
        Map<String, String> merged = new LinkedHashMap<>(values);
        topicOverrides.forEach((k, v) -> {
            if (!DEFAULTS.containsKey(k)) {
                throw new IllegalArgumentException("Unknown topic config '" + k + "'; known: " + DEFAULTS.keySet());
            }
            if (v == null) {
                throw new IllegalArgumentException("Invalid value null for " + k);
            }
            merged.put(k, v.trim());
        });
        return new LogConfig(merged, fullRecordValidation);
    }

    /**
     * A copy that validates produced batches fully (every record, as Kafka) or only by their headers
     * (magic, sizes, CRC, counts). Carried through {@link #with}; set from the broker's
     * {@code odradek.produce.validation}.
     */
    public LogConfig withFullRecordValidation(boolean full) {
        return full == fullRecordValidation ? this : new LogConfig(values, full);
    }

    /** The topic-level keys this config knows, in a stable order. */
    public static Set<String> keys() {
        return DEFAULTS.keySet();
    }

    /** The broker-level key that supplies a topic key's default (for DescribeConfigs synonyms), or null. */
    public static String brokerSynonym(String topicKey) {
        return BROKER_SYNONYMS.get(topicKey);
    }

    /** The effective value of a topic-level key as a string, or null for an unknown key. */
    public String get(String key) {
        return values.get(key);
    }

    /** Every key with its effective value. */
    public Map<String, String> values() {
        return values;
    }

    public int segmentBytes() {
        return segmentBytes;
    }

    public long segmentMs() {
        return segmentMs;
    }

    public long retentionMs() {
        return retentionMs;
    }

    public long retentionBytes() {
        return retentionBytes;
    }

    public int indexIntervalBytes() {
        return indexIntervalBytes;
    }

    public int segmentIndexBytes() {
        return segmentIndexBytes;
    }

    public long flushMessages() {
        return flushMessages;
    }

    public long flushMs() {
        return flushMs;
    }

    public int maxMessageBytes() {
        return maxMessageBytes;
    }

    public long fileDeleteDelayMs() {
        return fileDeleteDelayMs;
    }

    public boolean isLogAppendTime() {
        return logAppendTime;
    }

    /** cleanup.policy contains "compact". */
    public boolean isCompact() {
        return compact;
    }

    /** cleanup.policy contains "delete": retention.ms / retention.bytes apply. */
    public boolean isDelete() {
        return delete;
    }

    public long deleteRetentionMs() {
        return deleteRetentionMs;
    }

    public double minCleanableDirtyRatio() {
        return minCleanableDirtyRatio;
    }

    public long timestampBeforeMaxMs() {
        return timestampBeforeMaxMs;
    }

    public long timestampAfterMaxMs() {
        return timestampAfterMaxMs;
    }

    public int maxDecompressedMessageBytes() {
        return maxDecompressedMessageBytes;
    }

    /** False when the broker trusts its clients and checks batch headers only. */
    public boolean fullRecordValidation() {
        return fullRecordValidation;
    }

    private double ratio(String key) {
        double r;
        try {
            r = Double.parseDouble(values.get(key));
        } catch (NumberFormatException e) {
            throw bad(key, "must be a double");
        }
        if (!(r >= 0 && r <= 1)) {
            throw bad(key, "must be between 0 and 1");
        }
        return r;
    }

    private long longAtLeast(String key, long min) {
        String v = values.get(key);
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw bad(key, "must be a long");
        }
        if (n < min) {
            throw bad(key, "must be at least " + min);
        }
        return n;
    }

    private int intAtLeast(String key, int min) {
        long n = longAtLeast(key, min);
        if (n > Integer.MAX_VALUE) {
            throw bad(key, "must be at most " + Integer.MAX_VALUE);
        }
        return (int) n;
    }

    private String oneOf(String key, String... allowed) {
        String v = values.get(key);
        for (String a : allowed) {
            if (a.equals(v)) {
                return a;
            }
        }
        throw bad(key, "must be one of " + String.join(", ", allowed));
    }

    private IllegalArgumentException bad(String key, String rule) {
        return new IllegalArgumentException("Invalid value '" + values.get(key) + "' for configuration " + key
                + ": " + rule);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LogConfig other && values.equals(other.values)
                && fullRecordValidation == other.fullRecordValidation;
    }

    @Override
    public int hashCode() {
        return values.hashCode() * 31 + Boolean.hashCode(fullRecordValidation);
    }

    @Override
    public String toString() {
        return "LogConfig" + values;
    }
}
