package io.odradek.broker.metrics;

import java.util.List;
import java.util.Map;

/**
 * Kafka's {@code kafka.server:type=BrokerTopicMetrics} meters of one topic (tag {@code topic=<t>}) or of all topics
 * (no tag). Each mark on a topic's meters also marks the all-topics ones, as Kafka's BrokerTopicStats does. Marks
 * are one {@link java.util.concurrent.atomic.LongAdder} add per meter: callers count per batch and per partition,
 * never per record.
 */
public final class TopicMeters {
    static final String GROUP = "kafka.server";
    static final String TYPE = "BrokerTopicMetrics";

    static final String MESSAGES_IN = "MessagesInPerSec";
    static final String BYTES_IN = "BytesInPerSec";
    static final String BYTES_OUT = "BytesOutPerSec";
    static final String BYTES_REJECTED = "BytesRejectedPerSec";
    static final String TOTAL_PRODUCE = "TotalProduceRequestsPerSec";
    static final String TOTAL_FETCH = "TotalFetchRequestsPerSec";
    static final String FAILED_PRODUCE = "FailedProduceRequestsPerSec";
    static final String FAILED_FETCH = "FailedFetchRequestsPerSec";
    /** Broker-wide only, as in Kafka: what followers fetch (not in BytesOutPerSec). */
    static final String REPLICATION_BYTES_OUT = "ReplicationBytesOutPerSec";

    /** The per-topic meters, in the order they are made. */
    static final List<String> PER_TOPIC = List.of(MESSAGES_IN, BYTES_IN, BYTES_OUT, BYTES_REJECTED, TOTAL_PRODUCE,
            TOTAL_FETCH, FAILED_PRODUCE, FAILED_FETCH);

    private final TopicMeters allTopics; // null for the all-topics meters themselves
    private final RateMeter messagesIn;
    private final RateMeter bytesIn;
    private final RateMeter bytesOut;
    private final RateMeter bytesRejected;
    private final RateMeter totalProduce;
    private final RateMeter totalFetch;
    private final RateMeter failedProduce;
    private final RateMeter failedFetch;
    private final RateMeter replicationBytesOut; // all topics only

    /** {@code topic} null: the broker-wide meters. */
    TopicMeters(Meters meters, String topic, TopicMeters allTopics) {
        this.allTopics = allTopics;
        this.messagesIn = meters.meter(name(MESSAGES_IN, topic), "messages");
        this.bytesIn = meters.meter(name(BYTES_IN, topic), "bytes");
        this.bytesOut = meters.meter(name(BYTES_OUT, topic), "bytes");
        this.bytesRejected = meters.meter(name(BYTES_REJECTED, topic), "bytes");
        this.totalProduce = meters.meter(name(TOTAL_PRODUCE, topic), "requests");
        this.totalFetch = meters.meter(name(TOTAL_FETCH, topic), "requests");
        this.failedProduce = meters.meter(name(FAILED_PRODUCE, topic), "requests");
        this.failedFetch = meters.meter(name(FAILED_FETCH, topic), "requests");
        this.replicationBytesOut = topic == null ? meters.meter(name(REPLICATION_BYTES_OUT, null), "bytes") : null;
    }

    /** Kafka's name of a BrokerTopicMetrics meter: no tag for all topics, {@code topic=<t>} for one. */
    public static MetricName name(String meter, String topic) {
        return new MetricName(GROUP, TYPE, meter, topic == null ? Map.of() : Map.of("topic", topic));
    }

    /** A partition's batch handed to the log (Kafka's TotalProduceRequestsPerSec counts partitions, not requests). */
    public void produceRequest() {
        totalProduce.mark();
        if (allTopics != null) {
            allTopics.produceRequest();
        }
    }

    /** A batch appended: its records (from the batch header) and its bytes. */
    public void appended(long messages, long bytes) {
        messagesIn.mark(messages);
        bytesIn.mark(bytes);
        if (allTopics != null) {
            allTopics.appended(messages, bytes);
        }
    }

    /** A batch the log refused as too large (Kafka marks BytesRejectedPerSec with its size). */
    public void rejected(long bytes) {
        bytesRejected.mark(bytes);
        if (allTopics != null) {
            allTopics.rejected(bytes);
        }
    }

    /** A partition's append failed unexpectedly (not for the routine errors Kafka does not count). */
    public void produceFailed() {
        failedProduce.mark();
        if (allTopics != null) {
            allTopics.produceFailed();
        }
    }

    /** A partition read for a fetch, a consumer's or a follower's. */
    public void fetchRequest() {
        totalFetch.mark();
        if (allTopics != null) {
            allTopics.fetchRequest();
        }
    }

    /** Record bytes sent to a consumer ({@code follower} false) or to a follower (broker-wide ReplicationBytesOut). */
    public void sent(long bytes, boolean follower) {
        if (follower) {
            if (allTopics != null) {
                allTopics.sent(bytes, true);
            } else {
                replicationBytesOut.mark(bytes);
            }
            return;
        }
        bytesOut.mark(bytes);
        if (allTopics != null) {
            allTopics.sent(bytes, false);
        }
    }

    /** A partition's read failed unexpectedly. */
    public void fetchFailed() {
        failedFetch.mark();
        if (allTopics != null) {
            allTopics.fetchFailed();
        }
    }
}
