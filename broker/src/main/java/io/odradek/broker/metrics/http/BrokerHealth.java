package io.odradek.broker.metrics.http;

import io.netty.util.concurrent.EventExecutor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What a container orchestrator probes. Live: not shutting down, and every network event loop and every
 * partition writer thread runs a no-op task within {@code timeoutMs} (a stuck thread means a restart helps).
 * Ready: live's shutdown check, the listeners accept connections (a cluster broker only once it has caught up
 * with the metadata) and no log dir is offline. Kafka has no such probes; these follow what its BrokerState
 * and LogManager's OfflineLogDirectoryCount say.
 */
public final class BrokerHealth {
    /** A probe's answer: {@code reason} says what is wrong, null when all is well. */
    public record Status(String reason) {
        static final Status OK = new Status(null);

        public boolean ok() {
            return reason == null;
        }
    }

    private final ObservedBroker broker;
    private final long timeoutMs;
    private volatile boolean shuttingDown;

    public BrokerHealth(ObservedBroker broker, long timeoutMs) {
        this.broker = broker;
        this.timeoutMs = timeoutMs;
    }

    /** From now on neither live nor ready (Broker.close has begun). */
    public void shuttingDown() {
        shuttingDown = true;
    }

    public boolean isShuttingDown() {
        return shuttingDown;
    }

    public Status live() {
        if (shuttingDown) {
            return new Status("shutting down");
        }
        List<String> names = new ArrayList<>();
        List<CompletableFuture<Void>> pings = new ArrayList<>();
        int loop = 0;
        for (EventExecutor executor : broker.network().eventLoops()) {
            names.add("network event loop " + loop++);
            pings.add(ping(executor));
        }
        int writer = 0;
        for (ExecutorService executor : broker.partitions().writers().threads()) {
            names.add("partition writer " + writer++);
            pings.add(ping(executor));
        }
        try {
            CompletableFuture.allOf(pings.toArray(CompletableFuture[]::new)).get(timeoutMs, TimeUnit.MILLISECONDS);
            return Status.OK;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Status("interrupted");
        } catch (ExecutionException | TimeoutException e) {
            for (int i = 0; i < pings.size(); i++) {
                CompletableFuture<Void> ping = pings.get(i);
                if (!ping.isDone()) {
                    return new Status(names.get(i) + " did not run a task within " + timeoutMs + " ms");
                }
                if (ping.isCompletedExceptionally()) {
                    return new Status(names.get(i) + " refuses tasks (stopped)");
                }
            }
            return new Status("a thread did not respond: " + e);
        }
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

    private static CompletableFuture<Void> ping(Executor executor) {
        try {
            return CompletableFuture.runAsync(() -> { }, executor);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
