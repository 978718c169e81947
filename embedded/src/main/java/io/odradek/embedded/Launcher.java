package io.odradek.embedded;

import io.odradek.broker.Broker;
import io.odradek.broker.BrokerConfig;
import io.odradek.replication.cluster.BrokerRegistration;
import io.odradek.replication.cluster.ClusterImage;
import java.net.BindException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.IntFunction;

/**
 * Starts the brokers of an embedded {@link Odradek}: one broker on its own (no quorum), or a cluster of combined
 * broker+controller nodes on the Ratis quorum, all in this JVM. A cluster's controller ports are chosen before any
 * node binds; when one was taken meanwhile, everything started is stopped and the cluster starts again on new ports.
 */
final class Launcher {
    private static final System.Logger LOG = System.getLogger(Launcher.class.getName());
    /** Starts on new controller ports after a port was taken; more than a few in a row means something else is wrong. */
    static final int CONTROLLER_PORT_ATTEMPTS = 5;
    /** How long a cluster may take to elect a controller and register every broker (seconds when healthy). */
    static final Duration REGISTRATION_TIMEOUT = Duration.ofSeconds(60);

    /** What was started: the brokers in node-id order, and the controller ports they hold (null for one broker). */
    record Started(List<Broker> brokers, ControllerPorts ports) {
    }

    private Launcher() {
    }

    static Started start(int count, Path dataDir, Map<String, String> user) throws InterruptedException {
        return start(count, dataDir, user, ControllerPorts::reserve);
    }

    /** As above, a cluster's controller ports for each attempt from {@code reserve} (given the node count). */
    static Started start(int count, Path dataDir, Map<String, String> user, IntFunction<ControllerPorts> reserve)
            throws InterruptedException {
        if (count == 1) {
            BrokerConfig config = BrokerConfig.of(NodeConfigs.node(1, 1, dataDir, List.of(), user));
            return new Started(List.of(Broker.start(config)), null);
        }
        EmbeddedRatis.apply();
        // Only node dirs this start created may be wiped before a retry: a kept data dir's earlier data stays.
        boolean fresh = true;
        for (int id = 1; id <= count; id++) {
            fresh &= DataDirs.isEmpty(NodeConfigs.logDir(dataDir, id));
        }
        // A cluster started before on this data: its quorum knows its voters by address, so the same ports again.
        List<Integer> saved = fresh ? null : ControllerPorts.saved(dataDir, count);
        for (int attempt = 1; ; attempt++) {
            ControllerPorts ports = saved != null ? ControllerPorts.of(saved) : reserve.apply(count);
            List<Broker> brokers = new ArrayList<>();
            try {
                startAll(count, dataDir, ports, user, brokers);
                awaitRegistered(brokers);
                ControllerPorts.save(dataDir, ports.ports());
                return new Started(List.copyOf(brokers), ports);
            } catch (Throwable e) {
                // Any Throwable: an Error (a NoClassDefFoundError from a mismatched Netty) must not leave brokers
                // and their non-daemon threads running, or the user's JVM never exits.
                try {
                    closeAll(brokers);
                } catch (Throwable closing) {
                    e.addSuppressed(closing);
                }
                ports.close();
                if (saved != null && isBindFailure(e)) {
                    IllegalStateException failure = new IllegalStateException("cannot start the embedded cluster"
                            + " on its data in " + dataDir + ": its quorum needs the controller ports it ran on, "
                            + saved + " (" + ControllerPorts.FILE + "), and one is taken: " + rootMessage(e), e);
                    throw failure;
                }
                // Only a controller port we picked is worth new ports: a taken client, admin or metrics port the
                // user fixed would be taken again.
                if (!isBindFailure(e) || !ports.anyTaken() || attempt == CONTROLLER_PORT_ATTEMPTS) {
                    throw rethrow(e);
                }
                LOG.log(System.Logger.Level.INFO, "a controller port of the embedded cluster was taken before it"
                        + " bound (" + rootMessage(e) + "); starting again on new ports");
                if (fresh) {
                    for (int id = 1; id <= count; id++) {
                        DataDirs.delete(NodeConfigs.logDir(dataDir, id));
                    }
                }
            }
        }
    }

    /** {@code e} as thrown by start: unchecked as it is, checked (InterruptedException) as it is, else wrapped. */
    private static InterruptedException rethrow(Throwable e) {
        if (e instanceof RuntimeException r) {
            throw r;
        }
        if (e instanceof Error r) {
            throw r;
        }
        if (e instanceof InterruptedException i) {
            return i;
        }
        throw new IllegalStateException(e);
    }

    /**
     * Starts nodes 1..count at once, each on its own thread: a node's start waits on nothing from the others, and
     * the quorum can elect its leader only once a majority runs. Every broker that started is added to
     * {@code started} (in node-id order), also when another failed, so the caller can close them; the first
     * failure is thrown.
     */
    private static void startAll(int count, Path dataDir, ControllerPorts ports, Map<String, String> user,
            List<Broker> started) throws InterruptedException {
        List<CompletableFuture<Broker>> starts = new ArrayList<>();
        for (int id = 1; id <= count; id++) {
            BrokerConfig config = BrokerConfig.of(NodeConfigs.node(id, count, dataDir, ports.ports(), user));
            CompletableFuture<Broker> start = new CompletableFuture<>();
            Thread thread = new Thread(() -> {
                try {
                    start.complete(Broker.start(config));
                } catch (Throwable e) {
                    start.completeExceptionally(e);
                }
            }, "odradek-embedded-start-" + id);
            thread.setDaemon(true);
            thread.start();
            starts.add(start);
        }
        Throwable failure = null;
        boolean interrupted = false;
        for (CompletableFuture<Broker> start : starts) {
            // Every start is waited for, even once interrupted: a broker left starting could not be closed.
            while (true) {
                try {
                    started.add(start.get());
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    if (failure == null) {
                        failure = e.getCause();
                    } else {
                        failure.addSuppressed(e.getCause());
                    }
                    break;
                }
            }
        }
        if (interrupted) {
            if (failure == null) {
                throw new InterruptedException("interrupted while the embedded cluster's brokers started");
            }
            Thread.currentThread().interrupt(); // the start failure is thrown; the interrupt stays visible
        }
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof InterruptedException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        if (failure != null) {
            throw new IllegalStateException(failure);
        }
    }

    /** Waits until every broker's image has every broker registered and unfenced, so clients see all of them. */
    private static void awaitRegistered(List<Broker> brokers) throws InterruptedException {
        int count = brokers.size();
        for (Broker broker : brokers) {
            Waits.until("broker " + broker.config().nodeId() + " to see " + count + " unfenced brokers",
                    REGISTRATION_TIMEOUT, () -> allUnfenced(broker.cluster().image(), count),
                    () -> broker.cluster().image().brokers().toString());
        }
    }

    private static boolean allUnfenced(ClusterImage image, int count) {
        return image.brokers().size() == count
                && image.brokers().values().stream().noneMatch(BrokerRegistration::fenced);
    }

    /**
     * Closes every broker at once, each on its own thread: a cluster's brokers each begin a controlled shutdown,
     * and with all of them going there is no broker to move leaderships to, so none waits for the others (one
     * after another, each would wait for its leaderships to move to brokers about to stop too). One that fails
     * to close does not keep the others running; the first failure is thrown once all are done.
     */
    static void closeAll(List<Broker> brokers) {
        if (brokers.isEmpty()) {
            return;
        }
        if (brokers.size() == 1) {
            close(brokers.get(0));
            return;
        }
        List<CompletableFuture<Void>> closes = new ArrayList<>();
        for (Broker broker : brokers) {
            CompletableFuture<Void> close = new CompletableFuture<>();
            Thread thread = new Thread(() -> {
                try {
                    close(broker);
                    close.complete(null);
                } catch (Throwable e) {
                    close.completeExceptionally(e);
                }
            }, "odradek-embedded-close-" + broker.config().nodeId());
            thread.setDaemon(true);
            thread.start();
            closes.add(close);
        }
        RuntimeException first = null;
        boolean interrupted = false;
        for (CompletableFuture<Void> close : closes) {
            while (true) {
                try {
                    close.get();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // the brokers must still stop: wait for them, then keep the interrupt
                } catch (ExecutionException e) {
                    RuntimeException failure = e.getCause() instanceof RuntimeException r ? r
                            : new IllegalStateException("a broker failed to close", e.getCause());
                    if (first == null) {
                        first = failure;
                    } else {
                        first.addSuppressed(failure);
                    }
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (first != null) {
            throw first;
        }
    }

    /** Closes {@code broker}; one the user had closed already (through {@code brokers()}) stays closed. */
    private static void close(Broker broker) {
        broker.close(); // idempotent
    }

    /**
     * Whether starting failed because a port was taken: a BindException anywhere in the causes, or the native
     * transports' "Address already in use" (epoll reports it as a plain IOException).
     */
    static boolean isBindFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
            if (t instanceof BindException || message.contains("address already in use")) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.toString();
    }
}
