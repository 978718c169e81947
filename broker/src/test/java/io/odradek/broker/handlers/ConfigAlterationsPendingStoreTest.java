package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.config.DynamicBrokerConfig;
import io.odradek.replication.config.DynamicConfigStore;
import io.odradek.replication.config.InMemoryDynamicConfigStore;
import io.odradek.replication.config.QuotaEntity;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.IncrementalAlterConfigsApi;
import io.odradek.wire.api.IncrementalAlterConfigsApi.Request.AlterConfigsResource;
import io.odradek.wire.api.IncrementalAlterConfigsApi.Request.AlterConfigsResource.AlterableConfig;
import io.odradek.wire.api.IncrementalAlterConfigsApi.Response.AlterConfigsResourceResponse;
import io.odradek.wire.header.RequestHeader;
import io.odradek.wire.schema.Struct;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A broker config write that the store (the controller, in cluster mode) has not yet acknowledged. */
class ConfigAlterationsPendingStoreTest {
    /** Holds broker config writes until the test completes them, as a controller that is away would. */
    private static final class PendingStore implements DynamicConfigStore {
        final InMemoryDynamicConfigStore stored = new InMemoryDynamicConfigStore();
        final CompletableFuture<Void> acknowledged = new CompletableFuture<>();

        @Override
        public Map<String, String> brokerConfigs(String broker) {
            return stored.brokerConfigs(broker);
        }

        @Override
        public CompletableFuture<Void> alterBrokerConfigs(String broker, Map<String, String> changes) {
            return acknowledged.thenCompose(ok -> stored.alterBrokerConfigs(broker, changes));
        }

        @Override
        public Map<QuotaEntity, Map<String, Double>> quotas() {
            return stored.quotas();
        }

        @Override
        public CompletableFuture<Void> alterQuotas(Map<QuotaEntity, Map<String, Double>> changes) {
            return stored.alterQuotas(changes);
        }

        @Override
        public void addListener(Runnable onChange) {
            stored.addListener(onChange);
        }
    }

    @TempDir
    Path dir;
    AdminFixture fx;
    final PendingStore store = new PendingStore();

    @AfterEach
    void close() {
        fx.close();
    }

    private CompletableFuture<Struct> setRetention() {
        fx = new AdminFixture(dir);
        DynamicBrokerConfig dynamic = new DynamicBrokerConfig(fx.config, store);
        Struct req = IncrementalAlterConfigsApi.Request.SCHEMA.newStruct()
                .set(IncrementalAlterConfigsApi.Request.VALIDATE_ONLY, false);
        req.add(IncrementalAlterConfigsApi.Request.RESOURCES).set(AlterConfigsResource.RESOURCE_TYPE, (byte) 4)
                .set(AlterConfigsResource.RESOURCE_NAME, "")
                .add(AlterConfigsResource.CONFIGS).set(AlterableConfig.NAME, "log.retention.ms")
                .set(AlterableConfig.CONFIG_OPERATION, (byte) 0).set(AlterableConfig.VALUE, "60000");
        RequestContext context = new RequestContext(new RequestHeader((short) 44, (short) 1, 1, "test"),
                new InetSocketAddress("127.0.0.1", 50000), UnpooledByteBufAllocator.DEFAULT,
                ImmediateEventExecutor.INSTANCE);
        return new IncrementalAlterConfigsHandler(fx.topics, dynamic).handle(context, req);
    }

    private static List<String> outcomes(Struct response) {
        return response.get(IncrementalAlterConfigsApi.Response.RESPONSES).stream()
                .map(r -> r.get(AlterConfigsResourceResponse.RESOURCE_NAME) + ":"
                        + r.get(AlterConfigsResourceResponse.ERROR_CODE) + ":"
                        + r.get(AlterConfigsResourceResponse.ERROR_MESSAGE)).toList();
    }

    @Test
    void topicMetadataThreadStaysFreeWhileABrokerConfigWriteWaitsAndTheAnswerFollowsTheWrite() throws Exception {
        CompletableFuture<Struct> answer = setRetention();

        assertThat(fx.topics.async(() -> "free").get(5, TimeUnit.SECONDS)).isEqualTo("free");
        assertThat(answer).isNotDone();

        store.acknowledged.complete(null);

        assertThat(outcomes(answer.get(10, TimeUnit.SECONDS))).containsExactly(":0:null");
        assertThat(store.brokerConfigs("")).containsExactly(Map.entry("log.retention.ms", "60000"));
    }

    @Test
    void aRefusedWriteIsTheResourcesError() throws Exception {
        CompletableFuture<Struct> answer = setRetention();

        store.acknowledged.completeExceptionally(new MetadataException(ErrorCode.NOT_CONTROLLER, "no controller"));

        assertThat(outcomes(answer.get(10, TimeUnit.SECONDS)))
                .containsExactly(":" + ErrorCode.NOT_CONTROLLER.code() + ":no controller");
        assertThat(store.brokerConfigs("")).isEmpty();
    }
}
