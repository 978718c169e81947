package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.replication.metadata.TopicInfo;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.DeleteTopicsApi.Request;
import io.odradek.wire.api.DeleteTopicsApi.Request.DeleteTopicState;
import io.odradek.wire.api.DeleteTopicsApi.Response;
import io.odradek.wire.api.DeleteTopicsApi.Response.DeletableTopicResult;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeleteTopicsHandlerTest {
    private static final UUID ZERO = new UUID(0, 0);

    @TempDir
    Path dir;
    AdminFixture fx;

    @AfterEach
    void close() {
        fx.close();
    }

    @Test
    void deletesByNameRemovingCatalogEntryAndDirectories() {
        fx = new AdminFixture(dir);
        TopicInfo orders = fx.topics.createTopic("orders", 2, Map.of(), false);
        Struct req = Request.SCHEMA.newStruct().set(Request.TOPIC_NAMES, List.of("orders", "missing"));

        List<Struct> results = fx.call(fx.deleteTopics(), 5, req).get(Response.RESPONSES);

        assertResult(results.get(0), "orders", ZERO, ErrorCode.NONE, null);
        assertResult(results.get(1), "missing", ZERO, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                "This server does not host this topic-partition.");
        assertThat(fx.topics.topic("orders")).isEmpty();
        assertThat(fx.topics.topic(orders.id())).isEmpty();
        assertThat(fx.topics.partitionLog("orders", 0)).isEmpty();
        assertThat(dir.resolve("orders-0")).doesNotExist();
        assertThat(dir.resolve("orders-1")).doesNotExist();
    }

    @Test
    void v6DeletesByTopicIdAndReportsUnknownIds() {
        fx = new AdminFixture(dir);
        TopicInfo orders = fx.topics.createTopic("orders", 1, Map.of(), false);
        UUID unknown = UUID.randomUUID();
        Struct req = Request.SCHEMA.newStruct();
        req.add(Request.TOPICS).set(DeleteTopicState.NAME, null).set(DeleteTopicState.TOPIC_ID, orders.id());
        req.add(Request.TOPICS).set(DeleteTopicState.NAME, null).set(DeleteTopicState.TOPIC_ID, unknown);

        List<Struct> results = fx.call(fx.deleteTopics(), 6, req).get(Response.RESPONSES);

        assertResult(results.get(0), "orders", orders.id(), ErrorCode.NONE, null);
        assertResult(results.get(1), null, unknown, ErrorCode.UNKNOWN_TOPIC_ID, "This server does not host this topic ID.");
        assertThat(fx.topics.topics()).isEmpty();
        assertThat(dir.resolve("orders-0")).doesNotExist();
    }

    @Test
    void v6RefusesBothNameAndIdNeitherAndDuplicates() {
        fx = new AdminFixture(dir);
        TopicInfo t = fx.topics.createTopic("kept", 1, Map.of(), false);
        Struct req = Request.SCHEMA.newStruct();
        req.add(Request.TOPICS).set(DeleteTopicState.NAME, "kept").set(DeleteTopicState.TOPIC_ID, t.id());
        req.add(Request.TOPICS).set(DeleteTopicState.NAME, null).set(DeleteTopicState.TOPIC_ID, ZERO);
        req.add(Request.TOPICS).set(DeleteTopicState.NAME, "kept").set(DeleteTopicState.TOPIC_ID, ZERO);
        req.add(Request.TOPICS).set(DeleteTopicState.NAME, "kept").set(DeleteTopicState.TOPIC_ID, ZERO);

        List<Struct> results = fx.call(fx.deleteTopics(), 6, req).get(Response.RESPONSES);

        assertThat(results).hasSize(3);
        assertResult(results.get(0), "kept", t.id(), ErrorCode.INVALID_REQUEST,
                "You may not specify both topic name and topic id.");
        assertResult(results.get(1), null, ZERO, ErrorCode.INVALID_REQUEST, "Neither topic name nor id were specified.");
        assertResult(results.get(2), "kept", ZERO, ErrorCode.INVALID_REQUEST, "Duplicate topic name.");
        assertThat(fx.topics.topic("kept")).isPresent();
    }

    @Test
    void disabledDeletionFailsEveryTopic() {
        fx = new AdminFixture(dir, Map.of("delete.topic.enable", "false"));
        fx.topics.createTopic("orders", 1, Map.of(), false);
        Struct req = Request.SCHEMA.newStruct().set(Request.TOPIC_NAMES, List.of("orders"));

        assertThat(fx.call(fx.deleteTopics(), 4, req).get(Response.RESPONSES).get(0).get(DeletableTopicResult.ERROR_CODE))
                .isEqualTo(ErrorCode.TOPIC_DELETION_DISABLED.code());
        assertThat(fx.call(fx.deleteTopics(), 1, req).get(Response.RESPONSES).get(0).get(DeletableTopicResult.ERROR_CODE))
                .isEqualTo(ErrorCode.INVALID_REQUEST.code());
        assertThat(fx.topics.topic("orders")).isPresent();
    }

    private static void assertResult(Struct r, String name, UUID id, ErrorCode error, String message) {
        assertThat(r.get(DeletableTopicResult.NAME)).isEqualTo(name);
        assertThat(r.get(DeletableTopicResult.TOPIC_ID)).isEqualTo(id);
        assertThat(r.get(DeletableTopicResult.ERROR_CODE)).isEqualTo(error.code());
        assertThat(r.get(DeletableTopicResult.ERROR_MESSAGE)).isEqualTo(message);
    }
}
