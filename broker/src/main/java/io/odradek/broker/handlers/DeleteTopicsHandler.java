package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.topics.TopicService;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.replication.metadata.TopicInfo;
import io.odradek.security.acl.AclOperation;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DeleteTopicsApi;
import io.odradek.wire.api.DeleteTopicsApi.Request.DeleteTopicState;
import io.odradek.wire.api.DeleteTopicsApi.Response;
import io.odradek.wire.api.DeleteTopicsApi.Response.DeletableTopicResult;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * DeleteTopics (key 20), versions 0-6 (v0 is v1 without the throttle time, which Kafka 4 dropped and 3.9
 * served alike). Topics by name (v0-5: TopicNames; v6: Topics with a name) or by
 * topic id (v6: Topics with a null name). As in Kafka's controller: an entry with both or neither is
 * INVALID_REQUEST, a name or id given twice is INVALID_REQUEST ("Duplicate topic name/id."), an unknown
 * name is UNKNOWN_TOPIC_OR_PARTITION and an unknown id UNKNOWN_TOPIC_ID. A deleted topic's partition
 * dirs are renamed {@code -delete} and emptied first, then it leaves the catalog, so deletion works on a
 * full disk (it frees space before it writes); a failure there is KAFKA_STORAGE_ERROR. With {@code delete.topic.enable=false}
 * every topic fails with TOPIC_DELETION_DISABLED (INVALID_REQUEST before v3). Error messages from v5.
 * Results keep request order (Kafka shuffles its results because it answers each kind of refusal at a
 * different step; request order tells nothing either). Runs on the metadata thread.
 *
 * <p>Authorization (issue 10), as Kafka 4.4's ControllerApis.deleteTopics: DELETE on the cluster allows every
 * topic; otherwise a topic named but not DESCRIBE-able is TOPIC_AUTHORIZATION_FAILED before whether it exists is
 * looked at, and one that exists but is not DELETE-able too. A topic given by id that is not DELETE-able is
 * TOPIC_AUTHORIZATION_FAILED with its name only if it is DESCRIBE-able (null otherwise); unknown ids stay
 * UNKNOWN_TOPIC_ID (ids are not secret). Message "Topic authorization failed." (v5+).
 */
public final class DeleteTopicsHandler implements ApiHandler {
    private static final UUID ZERO_ID = new UUID(0, 0);
    private static final String UNAUTHORIZED = "Topic authorization failed.";

    private final TopicService topics;

    public DeleteTopicsHandler(TopicService topics) {
        this.topics = topics;
    }

    @Override
    public ApiSpec api() {
        return DeleteTopicsApi.SPEC;
    }

    /** One entry of the request: a name, an id, or (invalid) both or neither. */
    private record Target(String name, UUID id) {
        boolean byId() {
            return name == null;
        }
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        short version = context.version();
        List<Target> targets = new ArrayList<>();
        if (version >= 6) {
            for (Struct t : request.get(DeleteTopicsApi.Request.TOPICS)) {
                UUID id = t.get(DeleteTopicState.TOPIC_ID);
                targets.add(new Target(t.get(DeleteTopicState.NAME), id == null ? ZERO_ID : id));
            }
        } else {
            request.get(DeleteTopicsApi.Request.TOPIC_NAMES).forEach(n -> targets.add(new Target(n, ZERO_ID)));
        }
        if (!topics.settings().deleteTopicEnable()) {
            Struct response = Response.SCHEMA.newStruct();
            ErrorCode error = version < 3 ? ErrorCode.INVALID_REQUEST : ErrorCode.TOPIC_DELETION_DISABLED;
            targets.forEach(t -> result(response, t.name, t.id, error, "Topic deletion is disabled."));
            return CompletableFuture.completedFuture(response);
        }
        TopicAccess describable = TopicAccess.of(context, AclOperation.DESCRIBE);
        TopicAccess deletable = TopicAccess.of(context, AclOperation.DELETE);
        boolean clusterDelete = deletable.allowsEverything()
                || context.session().authorizedOnCluster(AclOperation.DELETE);
        return topics.async(() -> delete(targets, clusterDelete ? null : describable, clusterDelete ? null : deletable));
    }

    /** {@code describable} / {@code deletable}: the client's rights on each topic (issue 10); null: every topic. */
    private Struct delete(List<Target> targets, TopicAccess describable, TopicAccess deletable) {
        Map<Object, Integer> counts = new HashMap<>();
        targets.forEach(t -> counts.merge(t.byId() ? t.id : t.name, 1, Integer::sum));
        List<Object> reportedDuplicates = new ArrayList<>();
        Struct response = Response.SCHEMA.newStruct();
        for (Target t : targets) {
            if (t.name == null && t.id.equals(ZERO_ID)) {
                result(response, null, ZERO_ID, ErrorCode.INVALID_REQUEST, "Neither topic name nor id were specified.");
                continue;
            }
            if (t.name != null && !t.id.equals(ZERO_ID)) {
                result(response, t.name, t.id, ErrorCode.INVALID_REQUEST,
                        "You may not specify both topic name and topic id.");
                continue;
            }
            Object key = t.byId() ? t.id : t.name;
            if (counts.get(key) > 1) {
                if (!reportedDuplicates.contains(key)) {
                    reportedDuplicates.add(key);
                    result(response, t.name, t.id, ErrorCode.INVALID_REQUEST,
                            t.byId() ? "Duplicate topic id." : "Duplicate topic name.");
                }
                continue;
            }
            if (!t.byId() && describable != null && !describable.allowed(t.name)) {
                result(response, t.name, ZERO_ID, ErrorCode.TOPIC_AUTHORIZATION_FAILED, UNAUTHORIZED);
                continue;
            }
            TopicInfo topic = t.byId() ? topics.topic(t.id).orElse(null) : topics.topic(t.name).orElse(null);
            if (topic != null && deletable != null && !deletable.allowed(topic.name())) {
                if (t.byId()) {
                    result(response, describable.allowed(topic.name()) ? topic.name() : null, t.id,
                            ErrorCode.TOPIC_AUTHORIZATION_FAILED, UNAUTHORIZED);
                } else {
                    result(response, t.name, ZERO_ID, ErrorCode.TOPIC_AUTHORIZATION_FAILED, UNAUTHORIZED);
                }
                continue;
            }
            if (topic == null) {
                if (t.byId()) {
                    result(response, null, t.id, ErrorCode.UNKNOWN_TOPIC_ID, "This server does not host this topic ID.");
                } else {
                    result(response, t.name, ZERO_ID, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                            "This server does not host this topic-partition.");
                }
                continue;
            }
            try {
                topics.deleteTopic(topic.name());
                result(response, topic.name(), topic.id(), ErrorCode.NONE, null);
            } catch (MetadataException e) {
                result(response, t.name, t.id, e.error(), e.getMessage());
            }
        }
        return response;
    }

    private static void result(Struct response, String name, UUID id, ErrorCode error, String message) {
        response.add(Response.RESPONSES)
                .set(DeletableTopicResult.NAME, name)
                .set(DeletableTopicResult.TOPIC_ID, id)
                .set(DeletableTopicResult.ERROR_CODE, error.code())
                .set(DeletableTopicResult.ERROR_MESSAGE, message);
    }
}
