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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.TimeDuration;

/**
 * A node's {@link ControllerChannel} over Ratis: a Ratis client of the voters. Submits are Raft writes (the client
 * finds the leader and retries NotLeader / leader-not-ready itself, every 100 ms) bounded by
 * {@code requestTimeoutMs}: past it the future fails with a {@link java.util.concurrent.TimeoutException} (a
 * quorum without a majority never answers; like any timed-out request, the command may still be committed later,
 * as the client keeps retrying it for a while). Heartbeats, DescribeQuorum and image fetches are read-only queries to
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

    private final QuorumConfig config;
    private final RatisQuorum localVoter;
    private final boolean ownsVoter;
    private final MetadataModel model;
    private final RaftClient client;
    private final ImagePublisher publisher;
    private final ScheduledExecutorService poller;
    private final AtomicBoolean polling = new AtomicBoolean();

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
        // Attempts for about twice the request timeout (failed attempts take time too): the timeout, not the count,
        // is what callers see, and a request nobody waits for any more stops being retried soon after.
        int attempts = (int) Math.max(10, 2 * config.requestTimeoutMs() / RETRY_SLEEP_MS);
        this.client = RaftClient.newBuilder()
                .setRaftGroup(RatisQuorum.group(config))
                .setProperties(RatisQuorum.properties(config))
                .setRetryPolicy(RetryPolicies.retryUpToMaximumCountWithFixedSleep(attempts,
                        TimeDuration.valueOf(RETRY_SLEEP_MS, TimeUnit.MILLISECONDS)))
                .build();
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
        return call(client.async().send(message(encoded)), model::decodeResult);
    }

    @Override
    public CompletableFuture<HeartbeatReply> heartbeat(BrokerHeartbeat heartbeat) {
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
        }).orTimeout(timeoutMs, TimeUnit.MILLISECONDS);
    }

    private static Message message(byte[] bytes) {
        return Message.valueOf(ByteString.copyFrom(bytes));
    }

    @Override
    public void close() {
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
