package io.odradek.broker.handlers;

import io.odradek.broker.topics.TopicService;
import io.odradek.coordinator.group.streams.ConfiguredTopology;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.wire.ErrorCode;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Creates streams groups' internal topics in the background, as Kafka 4.4's AutoTopicCreationManager does for
 * them: a topic already being created is not asked for again (every member's heartbeat names it until it
 * exists), and a failed creation's error is kept for a while ({@link #ERROR_TTL_MS}, at most
 * {@link #MAX_ERRORS} topics) so that the next heartbeats report it in their MISSING_INTERNAL_TOPICS status.
 */
final class StreamsGroupInternalTopicCreator {
    static final long ERROR_TTL_MS = 60_000;
    static final int MAX_ERRORS = 1000;

    private record Failure(String message, long expiresAtMs) {
    }

    private final TopicService topics;
    private final LongSupplier nowMs;
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    /** Oldest first; the eldest goes when full. Guarded by itself. */
    private final Map<String, Failure> errors = new LinkedHashMap<>(16, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Failure> eldest) {
            return size() > MAX_ERRORS;
        }
    };

    StreamsGroupInternalTopicCreator(TopicService topics, LongSupplier nowMs) {
        this.topics = topics;
        this.nowMs = nowMs;
    }

    /** Starts creating the topic unless that is under way already. */
    void create(ConfiguredTopology.TopicToCreate t) {
        if (!inFlight.add(t.name())) {
            return;
        }
        topics.async(() -> topics.topic(t.name()).orElseGet(() -> {
            checkReplicationFactor(t.replicationFactor());
            return topics.createTopic(t.name(), t.partitions(), t.replicationFactor(), Map.of(), t.configs(), false);
        })).whenComplete((created, error) -> {
            synchronized (errors) {
                if (error != null) {
                    errors.remove(t.name()); // re-inserted as the newest
                    errors.put(t.name(), new Failure(describe(error), nowMs.getAsLong() + ERROR_TTL_MS));
                } else {
                    errors.remove(t.name());
                }
            }
            inFlight.remove(t.name());
        });
    }

    /** The unexpired creation errors of these topics, by name. */
    Map<String, String> errors(Collection<String> names) {
        Map<String, String> out = new TreeMap<>();
        long now = nowMs.getAsLong();
        synchronized (errors) {
            errors.values().removeIf(f -> f.expiresAtMs() <= now);
            for (String name : names) {
                Failure f = errors.get(name);
                if (f != null) {
                    out.put(name, f.message());
                }
            }
        }
        return out;
    }

    /** A single broker cannot hold more than one replica (CreateTopics checks the same, with Kafka's message). */
    private void checkReplicationFactor(short requested) {
        short factor = requested == -1 ? topics.settings().defaultReplicationFactor() : requested;
        if (factor > 1 && !topics.isClusterMode()) {
            throw new MetadataException(ErrorCode.INVALID_REPLICATION_FACTOR, "Unable to replicate the partition " + factor
                    + " time(s): The target replication factor of " + factor + " cannot be reached because only 1 broker(s) are registered.");
        }
    }

    private static String describe(Throwable error) {
        Throwable e = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return e instanceof MetadataException m ? m.error().name() + " (" + m.getMessage() + ")" : e.toString();
    }
}
