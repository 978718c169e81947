package io.odradek.broker;

import io.odradek.broker.config.ConfigException;
import io.odradek.broker.logging.LogSetup;
import io.odradek.broker.network.ListenerBindException;
import java.io.PrintStream;
import java.net.BindException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The entry point: {@code odradek [--config server.properties] [--override key=value]...}, or Kafka's own
 * form {@code odradek server.properties [--override key=value]...}. A bad argument or setting is one line
 * on stderr and exit code 1. Once the broker listens, main returns and Netty's threads keep the JVM up;
 * SIGTERM or Ctrl-C runs a shutdown hook that closes the broker (flushing and closing its logs).
 */
public final class Main {
    static final String USAGE = "usage: odradek [--config server.properties] [--override key=value]...";

    private Main() {
    }

    /** Parsed command line. */
    record Options(Path configFile, Map<String, String> overrides, boolean help) {
    }

    /** A command line we cannot make sense of. */
    static final class UsageException extends RuntimeException {
        UsageException(String message) {
            super(message);
        }
    }

    public static void main(String[] args) {
        main(args, broker -> { });
    }

    /**
     * main for other entry points (issue 11: the container image's ContainerMain): the same command line, and
     * {@code started} is called with the broker once it listens.
     */
    public static void main(String[] args, Consumer<Broker> started) {
        LogSetup.installLogManager(); // first: JUL picks its manager once, on first use
        LogSetup.configure();
        int code = run(args, System.out, System.err, started);
        if (code != 0) {
            System.exit(code);
        }
    }

    /**
     * Everything main does but exit: 0 with the broker running and its shutdown hook installed (or after
     * {@code --help}), 1 after printing why it could not start.
     */
    static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, broker -> { });
    }

    static int run(String[] args, PrintStream out, PrintStream err, Consumer<Broker> started) {
        BrokerConfig config;
        try {
            Options options = parseArgs(args);
            if (options.help()) {
                out.println(USAGE);
                out.println("  Settings use Kafka's broker keys and defaults; --override wins over the file.");
                return 0;
            }
            config = BrokerConfig.load(options.configFile(), options.overrides());
        } catch (UsageException e) {
            err.println("odradek: " + e.getMessage() + " (" + USAGE + ")");
            return 1;
        } catch (ConfigException e) {
            err.println("odradek: " + e.getMessage());
            return 1;
        }
        // The hook goes in first: a SIGTERM during startup then waits for the broker to be up and closes it.
        RunningBroker running = new RunningBroker();
        installShutdownHook(running);
        try {
            started.accept(running.start(config));
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("odradek: interrupted while starting");
        } catch (Exception e) {
            if (e instanceof ListenerBindException bind) {
                err.println("odradek: cannot listen on " + config.listenerConfig(bind.listenerName()).listener() + ": "
                        + bind.getMessage());
            } else if (e instanceof BindException || String.valueOf(e.getMessage()).startsWith("bind(")) {
                // Netty reports a taken port as java.net.BindException (NIO) or a native "bind(..) failed" (epoll).
                err.println("odradek: cannot listen on " + config.listener() + ": "
                        + e.getMessage().replaceFirst("^bind\\(\\.\\.\\) failed[^:]*: ", ""));
            } else if (e instanceof ConfigException) {
                err.println("odradek: " + e.getMessage());
            } else {
                err.println("odradek: failed to start: " + e);
                System.getLogger(Main.class.getName()).log(System.Logger.Level.ERROR, "failed to start", e);
            }
        }
        return 1;
    }

    /** Parses the command line, loads the config and starts the broker (no shutdown hook: the caller closes it). */
    static Broker startFromArgs(String[] args) throws Exception {
        Options options = parseArgs(args);
        return start(BrokerConfig.load(options.configFile(), options.overrides()));
    }

    static Options parseArgs(String[] args) {
        Path config = null;
        Map<String, String> overrides = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("-h") || arg.equals("--help")) {
                return new Options(null, Map.of(), true);
            }
            String option = arg;
            String value;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                option = arg.substring(0, eq); // --config=FILE, --override=key=value
                value = arg.substring(eq + 1);
            } else if (arg.startsWith("-")) {
                if (!arg.equals("--config") && !arg.equals("--override")) {
                    throw new UsageException("unknown option " + arg);
                }
                if (i + 1 >= args.length) {
                    throw new UsageException(arg + " needs a value");
                }
                value = args[++i];
            } else {
                option = "--config"; // Kafka's positional server.properties
                value = arg;
            }
            switch (option) {
                case "--config" -> {
                    if (config != null) {
                        throw new UsageException("more than one config file: " + config + " and " + value);
                    }
                    config = Path.of(value);
                }
                case "--override" -> {
                    int sep = value.indexOf('=');
                    if (sep <= 0) {
                        throw new UsageException("--override expects key=value, got '" + value + "'");
                    }
                    overrides.put(value.substring(0, sep).trim(), value.substring(sep + 1));
                }
                default -> throw new UsageException("unknown option " + option);
            }
        }
        return new Options(config, overrides, false);
    }

    /** Logs what is starting and starts it; the broker logs "listening on ..." once it accepts clients. */
    static Broker start(BrokerConfig config) throws Exception {
        System.Logger log = System.getLogger(Main.class.getName());
        String version = Main.class.getPackage().getImplementationVersion();
        log.log(System.Logger.Level.INFO, "Odradek " + (version == null ? "(dev)" : version) + " starting: node "
                + config.nodeId() + ", log dirs " + config.logDirs() + ", Java " + Runtime.version());
        if (!config.originals().isEmpty()) {
            Map<String, String> shown = new LinkedHashMap<>(config.originals());
            shown.replaceAll((key, value) -> key.contains("password") || key.contains("jaas") ? "[hidden]" : value);
            log.log(System.Logger.Level.INFO, "settings: " + shown);
        }
        return Broker.start(config);
    }

    /**
     * The broker main started, if any; starting and stopping exclude each other, so a SIGTERM during startup
     * waits for the broker to be up and then closes it. One exception: the starting thread may itself be the
     * one exiting the JVM (Ratis calls System.exit from its server's start when the controller port is taken),
     * and it never returns from there; waiting for it would hang the process forever instead of exiting.
     */
    private static final class RunningBroker {
        private final ReentrantLock lock = new ReentrantLock();
        private volatile Thread starting;
        private Broker broker;

        Broker start(BrokerConfig config) throws Exception {
            lock.lock();
            try {
                starting = Thread.currentThread();
                broker = Main.start(config);
                return broker;
            } finally {
                starting = null;
                lock.unlock();
            }
        }

        /** Closes the broker if one started; false if there was none (or its start is exiting the JVM). */
        boolean stop(System.Logger log) throws InterruptedException {
            while (!lock.tryLock(100, TimeUnit.MILLISECONDS)) {
                Thread t = starting;
                if (t != null && exitingTheJvm(t)) {
                    return false;
                }
            }
            try {
                if (broker == null) {
                    return false;
                }
                log.log(System.Logger.Level.INFO, "shutting down");
                broker.close();
                broker = null;
                return true;
            } finally {
                lock.unlock();
            }
        }

        /** Whether {@code t} is inside System.exit (waiting there for the shutdown hooks, this one among them). */
        private static boolean exitingTheJvm(Thread t) {
            for (StackTraceElement frame : t.getStackTrace()) {
                if (frame.getClassName().equals("java.lang.Shutdown")) {
                    return true;
                }
            }
            return false;
        }
    }

    private static void installShutdownHook(RunningBroker running) {
        LogSetup.keepLoggingThroughShutdown();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.Logger log = System.getLogger(Main.class.getName());
            long start = System.nanoTime();
            try {
                if (running.stop(log)) {
                    log.log(System.Logger.Level.INFO, "stopped cleanly in "
                            + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms");
                }
            } catch (RuntimeException e) {
                log.log(System.Logger.Level.ERROR, "shutdown failed", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                LogSetup.shutdown();
            }
        }, "shutdown"));
    }
}
