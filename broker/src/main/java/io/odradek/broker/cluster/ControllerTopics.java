package io.odradek.broker.cluster;

import io.odradek.broker.topics.TopicService;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.ControllerCommand.NewTopic;
import io.odradek.replication.cluster.ItemResult;
import io.odradek.replication.metadata.Ids;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.replication.metadata.TopicInfo;
import io.odradek.replication.metadata.TopicNames;
import io.odradek.wire.ErrorCode;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Topic creation and deletion in cluster mode: a CreateTopics / DeleteTopics command to the controller
 * quorum (a fresh random topic id drawn here, counts resolved from this broker's defaults), then a wait
 * until this broker has applied the command's offset, so the caller reads its change back at once. The
 * controller's refusals come back as the {@link MetadataException} a single node would throw.
 */
final class ControllerTopics implements TopicService.TopicController {
    private final ControllerChannel channel;
    private final ClusterView view;
    private final TopicService topics;
    private final long timeoutMs;

    ControllerTopics(ControllerChannel channel, ClusterView view, TopicService topics, long timeoutMs) {
        this.channel = channel;
        this.view = view;
        this.topics = topics;
        this.timeoutMs = timeoutMs;
    }

    @Override
    public TopicInfo createTopic(String name, int partitions, short replicationFactor,
            Map<Integer, List<Integer>> assignments, Map<String, String> configs, boolean validateOnly) {
        int count = !assignments.isEmpty() ? assignments.size()
                : partitions == -1 ? topics.settings().numPartitions() : partitions;
        short factor = replicationFactor == -1 ? topics.settings().defaultReplicationFactor() : replicationFactor;
        NewTopic topic = new NewTopic(name, Ids.randomId(), count, factor, assignments, configs);
        CommandResult result = await(channel.submit(new ControllerCommand.CreateTopics(List.of(topic), validateOnly)),
                "create topic '" + name + "'");
        check(result);
        TopicInfo created = new TopicInfo(name, topic.id(), count, configs, TopicNames.isInternal(name));
        if (validateOnly) {
            return created;
        }
        await(view.awaitApplied(result.offset()), "apply the creation of topic '" + name + "'");
        return topics.topic(name).filter(t -> t.id().equals(topic.id())).orElse(created);
    }

    @Override
    public TopicInfo deleteTopic(TopicInfo topic) {
        CommandResult result = await(channel.submit(new ControllerCommand.DeleteTopics(List.of(topic.id()))),
                "delete topic '" + topic.name() + "'");
        check(result);
        await(view.awaitApplied(result.offset()), "apply the deletion of topic '" + topic.name() + "'");
        return topic;
    }

    /** AlterTopicConfigs (issue 9, configs): the topic's overrides replaced, returning once applied here. */
    @Override
    public TopicInfo alterConfigs(TopicInfo topic, Map<String, String> configs) {
        CommandResult result = await(channel.submit(new ControllerCommand.AlterTopicConfigs(topic.name(), configs)),
                "alter the configs of topic '" + topic.name() + "'");
        check(result);
        await(view.awaitApplied(result.offset()), "apply the configs of topic '" + topic.name() + "'");
        return topics.topic(topic.name()).orElse(topic.withConfigs(configs));
    }

    /**
     * A read barrier: an empty CreateAcls (it changes nothing, but takes its place in the metadata log), then a
     * wait until this broker has applied it, so every change committed before it is in this broker's image.
     */
    @Override
    public void catchUp() {
        CommandResult result = await(channel.submit(new ControllerCommand.CreateAcls(List.of())),
                "order a read barrier");
        check(result);
        await(view.awaitApplied(result.offset()), "apply the metadata log up to the read barrier");
    }

    /** The command's error, else its one item's, as a MetadataException. */
    private static void check(CommandResult result) {
        if (result.error() != ErrorCode.NONE) {
            throw new MetadataException(result.error(), result.message());
        }
        for (ItemResult item : result.items()) {
            if (item.error() != ErrorCode.NONE) {
                throw new MetadataException(item.error(), item.message());
            }
        }
    }

    private <T> T await(CompletableFuture<T> future, String what) {
        try {
            return future.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            future.cancel(false);
            throw new MetadataException(ErrorCode.REQUEST_TIMED_OUT, "Timed out after " + timeoutMs
                    + " ms waiting for the controller to " + what + ".");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MetadataException(ErrorCode.REQUEST_TIMED_OUT, "Interrupted while waiting to " + what + ".");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof MetadataException m) {
                throw m;
            }
            throw new MetadataException(ErrorCode.UNKNOWN_SERVER_ERROR, "Cannot " + what + ": " + e.getCause());
        }
    }
}
