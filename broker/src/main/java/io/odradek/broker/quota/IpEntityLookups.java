package io.odradek.broker.quota;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The threads that check ip quota entity names which may need a DNS lookup. Kafka 4.4's controller accepts an
 * ip entity named by an address or by a host name that resolves ({@code InetAddress.getByName}), and a lookup
 * can wait seconds: never on an event loop, nor on the JVM's shared ForkJoinPool where it would stall
 * everything else queued there. A few daemon threads and a bounded queue: when that many checks already
 * wait, the next is refused at once rather than queued without limit.
 */
public final class IpEntityLookups {
    static final String THREAD_NAME_PREFIX = "odradek-ip-entity-lookup-";
    private static final int THREADS = 2;
    private static final int QUEUED = 64;

    private static final ThreadPoolExecutor EXECUTOR;

    static {
        AtomicInteger count = new AtomicInteger();
        EXECUTOR = new ThreadPoolExecutor(THREADS, THREADS, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUED),
                r -> {
                    Thread t = new Thread(r, THREAD_NAME_PREFIX + count.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        EXECUTOR.allowCoreThreadTimeOut(true); // no threads kept while nobody names ip entities
    }

    private IpEntityLookups() {
    }

    /**
     * Whether the name is a dotted-quad IPv4 address, which {@code InetAddress.getByName} parses without a
     * lookup (so it can be checked where it is). Anything else, IPv6 literals included, is treated as a name
     * that may need one: a few literals go the slow way, no name is ever looked up on the caller's thread.
     */
    public static boolean isIpv4Literal(String name) {
        String[] parts = name.split("\\.", -1);
        if (parts.length != 4) {
            return false;
        }
        for (String part : parts) {
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(c -> c >= '0' && c <= '9')
                    || Integer.parseInt(part) > 255) {
                return false;
            }
        }
        return true;
    }

    /**
     * Runs {@code work} (which may resolve names) on the lookup threads; the future fails with a
     * {@link RejectedExecutionException} at once when the queue is full.
     */
    public static <T> CompletableFuture<T> supply(Supplier<T> work) {
        try {
            return CompletableFuture.supplyAsync(work, EXECUTOR);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
