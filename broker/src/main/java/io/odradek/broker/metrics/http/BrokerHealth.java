package io.odradek.broker.metrics.http;

import io.netty.util.concurrent.EventExecutor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What a container orchestrator probes. Live: no network event loop or partition writer thread is stuck: a background heartbeat hands each a no-op task every so often and the probe answers at once
 * from what it saw, 503 only when a task has waited longer than {@code timeoutMs} (a busy thread that falls a
 * few seconds behind is not broken, and an orchestrator restarting it under load would only make things worse).
 * Live stays 200 through a graceful shutdown (threads stopping then are expected), so the orchestrator does not
 * kill a broker during its controlled shutdown; only ready says 503, as Spring Boot's availability states do.
 * Ready: not shutting down, the listeners accept connections (a cluster broker only once it has caught up
 * with the metadata) and no log dir is offline. Kafka has no such probes; these follow what its BrokerState
 * and LogManager's OfflineLogDirectoryCount say.
 */
public final class BrokerHealth implements AutoCloseable {
    /** A probe's answer: {@code reason} says what is wrong, null when all is well. */
    public record Status(String reason) {
        static final Status OK = new Status(null);

        public boolean ok() {
            return reason == null;
        }
    }

    /** What the heartbeat last saw of one thread. */
    private static final class Beat {
        final String name;
        /** When the ping now waiting was handed over (System.nanoTime), or -1 when none waits. */
        volatile long waitingSince = -1;
        volatile boolean refused;

        Beat(String name) {
            this.name = name;
        }
    }

    private final ObservedBroker broker;
    private final long timeoutMs;
    private final Map<String, Beat> beats = new ConcurrentHashMap<>();
    /** The threads in the order the last round found them (the probe reports the first stuck one). */
    private volatile List<Beat> watched = List.of();
    private final ScheduledExecutorService heartbeat;
    private volatile boolean shuttingDown;

    /** Starts the heartbeat (a daemon thread, a round every tenth of the timeout, at most every second). */
    public BrokerHealth(ObservedBroker broker, long timeoutMs) {
        this.broker = broker;
        this.timeoutMs = timeoutMs;
        this.heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "odradek-liveness-heartbeat");
            t.setDaemon(true);
            return t;
        });
        long periodMs = Math.max(10, Math.min(1000, timeoutMs / 10));
        heartbeat.scheduleWithFixedDelay(this::round, 0, periodMs, TimeUnit.MILLISECONDS);
    }

    /** From now on not ready (Broker.close has begun); live still answers from the heartbeat. */
    public void shuttingDown() {
        shuttingDown = true;
    }

    public boolean isShuttingDown() {
        return shuttingDown;
    }

    public Status live() {
        long now = System.nanoTime();
        for (Beat beat : watched) {
            if (beat.refused && !shuttingDown) {
                return new Status(beat.name + " refuses tasks (stopped)");
            }
            long since = beat.waitingSince;
            if (since >= 0 && now - since > TimeUnit.MILLISECONDS.toNanos(timeoutMs)) {
                return new Status(beat.name + " did not run a task within " + timeoutMs + " ms");
            }
        }
        return Status.OK;
    }

    public Status ready() {
        if (shuttingDown) {
            return new Status("shutting down");
        }
        if (!broker.network().accepting()) {
            return new Status("listeners not accepting connections yet (catching up with the cluster metadata)");
        }
        Set<Path> offline = broker.topics().offlineDirs();
        if (!offline.isEmpty()) {
            return new Status("log dirs offline: " + offline);
        }
        return Status.OK;
    }

    /** Stops the heartbeat. */
    @Override
    public void close() {
        heartbeat.shutdownNow();
    }

    /** One heartbeat: a no-op to every thread that has none waiting (a busy one keeps its first ping's time). */
    private void round() {
        try {
            List<Beat> round = new ArrayList<>();
            int loop = 0;
            for (EventExecutor executor : broker.network().eventLoops()) {
                round.add(ping("network event loop " + loop++, executor));
            }
            int writer = 0;
            for (ExecutorService executor : broker.partitions().writers().threads()) {
                round.add(ping("partition writer " + writer++, executor));
            }
            watched = List.copyOf(round);
        } catch (RuntimeException e) {
            // the next round tries again; a thread that never answers shows as stuck
        }
    }

    private Beat ping(String name, Executor executor) {
        Beat beat = beats.computeIfAbsent(name, Beat::new);
        if (beat.waitingSince >= 0 || beat.refused) {
            return beat;
        }
        beat.waitingSince = System.nanoTime();
        try {
            executor.execute(() -> beat.waitingSince = -1);
        } catch (RejectedExecutionException e) {
            beat.refused = true;
            beat.waitingSince = -1;
        }
        return beat;
    }
}
