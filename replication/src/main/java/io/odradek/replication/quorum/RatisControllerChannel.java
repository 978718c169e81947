package io.odradek.replication.quorum;

import io.odradek.replication.cluster.BrokerHeartbeat;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.HeartbeatReply;
import io.odradek.replication.cluster.QuorumInfo;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.client.retry.RequestTypeDependentRetryPolicy;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.proto.RaftProtos.RaftClientRequestProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.exceptions.AlreadyClosedException;
import org.apache.ratis.protocol.exceptions.RaftRetryFailureException;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.retry.RetryPolicy;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.TimeDuration;

/**
 * A node's {@link ControllerChannel} over Ratis: a Ratis client of the voters. Submits are Raft writes (the client
 * finds the leader and retries NotLeader / leader-not-ready itself, every 100 ms) bounded by
 * {@code requestTimeoutMs}: past it the future fails with a {@link java.util.concurrent.TimeoutException} (a
 * quorum without a majority never answers) and Ratis stops retrying it (its retry policy has the same deadline); an
 * attempt already with a leader may still commit (like any timed-out request). {@link #submit} never blocks the
 * calling thread: up to {@value #SENDERS} submits are sent at once by this channel's sender threads, each on its
 * own (one stuck request delays no other; submits in progress together may commit in any order). Heartbeats, DescribeQuorum and image fetches are read-only queries to
 * the leader's state machine. Images: on a voter from its own state machine; on a broker-only node by polling the
 * leader every 200 ms for an image newer than the one it has.
 *
 * <p>From broker code: {@code ControllerChannel channel = RatisControllerChannel.open(quorumConfig);} starts this
 * node's voter when {@code quorumConfig.controller()} and closes it with the channel.
 */
public final class RatisControllerChannel implements ControllerChannel {
    private static final Logger LOG = Logger.getLogger(RatisControllerChannel.class.getName());
    static final long RETRY_SLEEP_MS = 100;
    static final long IMAGE_POLL_MS = 200;
    /** Ratis's async window for the read-only queries (its default is 100). */
    static final int OUTSTANDING_REQUESTS_MAX = 1000;
    /** Submits in progress at once; more wait in the senders' queue (their callers never do). */
    static final int SENDERS = 8;

    private final QuorumConfig config;
    private final RatisQuorum localVoter;
    private final boolean ownsVoter;
    private final MetadataModel model;
    private final RaftClient client;
    private final ImagePublisher publisher;
    private final ScheduledExecutorService poller;
    private final ExecutorService sender;
    private final AtomicBoolean polling = new AtomicBoolean();
    private final AtomicBoolean voterDownLogged = new AtomicBoolean();

    /**
     * A channel for this node; {@code localVoter} is this node's running voter (images come from its state
     * machine) or null on a broker-only node (images are polled from the leader). Does not close {@code localVoter}.
     */
    public RatisControllerChannel(QuorumConfig config, RatisQuorum localVoter) {
        this(config, localVoter, false, localVoter != null ? localVoter.model() : MetadataModel.of(config.settings()));
    }

    RatisControllerChannel(QuorumConfig config, RatisQuorum localVoter, boolean ownsVoter, MetadataModel model) {
        this.config = config;
        this.localVoter = localVoter;
        this.ownsVoter = ownsVoter;
        this.model = model;
        // Retried until the caller's deadline, not for a count of attempts: a request nobody waits for any more
        // must not be retried into the log much later.
        RetryPolicy untilDeadline = RetryPolicies.retryForeverWithSleep(
                TimeDuration.valueOf(RETRY_SLEEP_MS, TimeUnit.MILLISECONDS));
        TimeDuration deadline = TimeDuration.valueOf(config.requestTimeoutMs(), TimeUnit.MILLISECONDS);
        RaftProperties properties = RatisQuorum.properties(config);
        RaftClientConfigKeys.Async.setOutstandingRequestsMax(properties, OUTSTANDING_REQUESTS_MAX);
        this.client = RaftClient.newBuilder()
                .setRaftGroup(RatisQuorum.group(config))
                .setProperties(properties)
                .setRetryPolicy(RequestTypeDependentRetryPolicy.newBuilder()
                        .setRetryPolicy(RaftClientRequestProto.TypeCase.WRITE, untilDeadline)
                        .setTimeout(RaftClientRequestProto.TypeCase.WRITE, deadline)
                        .setRetryPolicy(RaftClientRequestProto.TypeCase.READ, untilDeadline)
                        .setTimeout(RaftClientRequestProto.TypeCase.READ, deadline)
                        .build())
                .build();
        this.sender = Executors.newFixedThreadPool(SENDERS, r -> {
            Thread t = new Thread(r, "metadata-submit-sender-" + config.nodeId());
            t.setDaemon(true);
            return t;
        });
        if (localVoter != null) {
            this.publisher = localVoter.publisher();
            this.poller = null;
        } else {
            this.publisher = new ImagePublisher("metadata-images-" + config.nodeId());
            this.poller = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "metadata-image-poller-" + config.nodeId());
                t.setDaemon(true);
                return t;
            });
            poller.scheduleWithFixedDelay(this::pollImage, 0, IMAGE_POLL_MS, TimeUnit.MILLISECONDS);
        }
    }

    /** Starts this node's voter when it has the controller role, and a channel that closes it on close(). */
    public static RatisControllerChannel open(QuorumConfig config) throws IOException {
        return open(config, MetadataModel.of(config.settings()));
    }

    static RatisControllerChannel open(QuorumConfig config, MetadataModel model) throws IOException {
        RatisQuorum voter = config.controller() ? RatisQuorum.start(config, model, p -> { }) : null;
        try {
            return new RatisControllerChannel(config, voter, true, model);
        } catch (RuntimeException e) {
            if (voter != null) {
                voter.close();
            }
            throw e;
        }
    }

    /** This node's voter, or null on a broker-only node. */
    public RatisQuorum localVoter() {
        return localVoter;
    }

    @Override
    public CompletableFuture<CommandResult> submit(ControllerCommand command) {
        byte[] encoded;
        try {
            encoded = model.encodeCommand(command);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        // Blocking sends on the sender threads, never the caller's: Ratis's ordered async client has one window per
        // client, and once a request in it fails (its deadline passed) the ones behind it never complete. A request
        // whose caller gave up while it queued is not sent at all.
        CompletableFuture<RaftClientReply> sent = new CompletableFuture<>();
        CompletableFuture<CommandResult> result = call(sent, model::decodeResult);
        try {
            sender.execute(() -> {
                if (result.isDone()) {
                    return;
                }
                try {
                    sent.complete(sendUntilAnswered(encoded, result));
                } catch (IOException | RuntimeException e) {
                    sent.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(new IllegalStateException("the controller channel is closed", e));
        }
        return result;
    }

    /**
     * One blocking send, again when Ratis refuses it with AlreadyClosedException while this channel is open: during
     * a failover Ratis closes its proxy to the stopped peer, and a send that picks that proxy fails before anything
     * is sent (so sending again cannot apply a command twice). Ends with the caller's deadline ({@code result} done).
     */
    private RaftClientReply sendUntilAnswered(byte[] encoded, CompletableFuture<?> result) throws IOException {
        while (true) {
            try {
                return client.io().send(message(encoded));
            } catch (AlreadyClosedException e) {
                if (result.isDone() || sender.isShutdown()) {
                    throw e;
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    @Override
    public CompletableFuture<HeartbeatReply> heartbeat(BrokerHeartbeat heartbeat) {
        // A dead local voter leaves this node with a frozen image while the other voters would still take its
        // heartbeats: failing them gets the broker fenced instead of serving stale metadata.
        String down = localVoter != null ? localVoter.downReason() : null;
        if (down != null) {
            if (voterDownLogged.compareAndSet(false, true)) {
                LOG.severe("this node's metadata voter is down (" + down + "): its metadata image is frozen at offset "
                        + localVoter.image().offset() + ", so its broker heartbeats fail and the broker gets fenced");
            }
            return CompletableFuture.failedFuture(new IllegalStateException(
                    "this node's metadata voter is down (" + down + ")"));
        }
        // Unordered: a heartbeat never waits behind this node's submits; and bounded by the session timeout, past
        // which its answer would come too late to matter.
        return call(client.async().sendReadOnlyUnordered(message(QuorumQueries.heartbeat(heartbeat))),
                QuorumQueries::readHeartbeatReply, Math.min(config.requestTimeoutMs(), config.sessionTimeoutMs()));
    }

    @Override
    public CompletableFuture<QuorumInfo> describeQuorum() {
        return call(client.async().sendReadOnlyUnordered(message(QuorumQueries.describeQuorum())),
                QuorumQueries::readQuorumInfo);
    }

    @Override
    public ClusterImage image() {
        return localVoter != null ? localVoter.image() : publisher.current();
    }

    @Override
    public void addListener(Consumer<ClusterImage> listener) {
        publisher.addListener(listener);
    }

    private void pollImage() {
        if (!polling.compareAndSet(false, true)) {
            return;
        }
        long known = publisher.current().offset();
        call(client.async().sendReadOnlyUnordered(message(QuorumQueries.imageRequest(known))), bytes -> bytes)
                .whenComplete((answer, error) -> {
                    polling.set(false);
                    if (error != null) {
                        LOG.log(Level.FINE, "metadata image poll failed", error);
                    } else if (answer.length > 1 && answer[0] == 1) {
                        publisher.publish(model.decodeImage(Arrays.copyOfRange(answer, 1, answer.length)));
                    }
                });
    }

    /** The reply's content decoded, or the Ratis failure; failed with a TimeoutException past the request timeout. */
    private <T> CompletableFuture<T> call(CompletableFuture<RaftClientReply> sent, Function<byte[], T> decode) {
        return call(sent, decode, config.requestTimeoutMs());
    }

    private <T> CompletableFuture<T> call(CompletableFuture<RaftClientReply> sent, Function<byte[], T> decode,
            long timeoutMs) {
        return sent.thenApply(reply -> {
            if (!reply.isSuccess()) {
                throw new CompletionException(reply.getException());
            }
            return decode.apply(reply.getMessage().getContent().toByteArray());
        }).orTimeout(timeoutMs, TimeUnit.MILLISECONDS).exceptionally(e -> {
            // Ratis gives up at the same deadline: the caller sees one kind of timeout either way.
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            if (cause instanceof RaftRetryFailureException) {
                TimeoutException timeout = new TimeoutException("no answer from the metadata quorum within "
                        + timeoutMs + " ms");
                timeout.initCause(cause);
                throw new CompletionException(timeout);
            }
            throw e instanceof CompletionException c ? c : new CompletionException(e);
        });
    }

    private static Message message(byte[] bytes) {
        return Message.valueOf(ByteString.copyFrom(bytes));
    }

    @Override
    public void close() {
        sender.shutdownNow();
        if (poller != null) {
            poller.shutdownNow();
            publisher.close();
        }
        try {
            client.close();
        } catch (IOException e) {
            LOG.log(Level.WARNING, "closing the metadata quorum client", e);
        }
        if (ownsVoter && localVoter != null) {
            localVoter.close();
        }
    }
}
