package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.quota.TestQuotaStore;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.AlterClientQuotasApi.Request;
import io.odradek.wire.api.AlterClientQuotasApi.Response;
import io.odradek.wire.header.RequestHeader;
import io.odradek.wire.schema.Struct;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Odradek's bound on the entities of one AlterClientQuotas request. */
class AlterClientQuotasLimitTest {
    private final TestQuotaStore store = new TestQuotaStore();
    private final AlterClientQuotasHandler handler = new AlterClientQuotasHandler(store);

    private static Struct request(int entities) {
        Struct request = Request.SCHEMA.newStruct().set(Request.VALIDATE_ONLY, false);
        for (int i = 0; i < entities; i++) {
            Struct entry = request.add(Request.ENTRIES);
            entry.add(Request.EntryData.ENTITY).set(Request.EntryData.EntityData.ENTITY_TYPE, "client-id")
                    .set(Request.EntryData.EntityData.ENTITY_NAME, "app-" + i);
            entry.add(Request.EntryData.OPS).set(Request.EntryData.OpData.KEY, "producer_byte_rate")
                    .set(Request.EntryData.OpData.VALUE, 1024.0).set(Request.EntryData.OpData.REMOVE, false);
        }
        return request;
    }

    private List<Struct> call(Struct request) throws Exception {
        RequestContext context = new RequestContext(new RequestHeader((short) 49, (short) 1, 1, "test"),
                new InetSocketAddress("127.0.0.1", 50000), UnpooledByteBufAllocator.DEFAULT,
                ImmediateEventExecutor.INSTANCE);
        return handler.handle(context, request).get(30, TimeUnit.SECONDS).get(Response.ENTRIES);
    }

    @Test
    void moreEntitiesThanTheLimitAreAllRefusedAndNothingIsStored() throws Exception {
        List<Struct> entries = call(request(AlterClientQuotasHandler.MAX_ENTRIES + 1));

        assertThat(entries).hasSize(AlterClientQuotasHandler.MAX_ENTRIES + 1);
        assertThat(entries).allSatisfy(e -> {
            assertThat(e.get(Response.EntryData.ERROR_CODE)).isEqualTo(ErrorCode.INVALID_REQUEST.code());
            assertThat(e.get(Response.EntryData.ERROR_MESSAGE)).isEqualTo(
                    "The request has 10001 entries; at most 10000 are accepted per AlterClientQuotas request.");
        });
        assertThat(entries.get(7).get(Response.EntryData.ENTITY).get(0).get(Response.EntryData.EntityData.ENTITY_NAME))
                .isEqualTo("app-7");
        assertThat(store.quotas()).isEmpty();
        assertThat(store.alterCalls).isZero();
    }

    @Test
    void exactlyTheLimitIsAccepted() throws Exception {
        List<Struct> entries = call(request(AlterClientQuotasHandler.MAX_ENTRIES));

        assertThat(entries).extracting(e -> e.get(Response.EntryData.ERROR_CODE)).containsOnly(ErrorCode.NONE.code());
        assertThat(store.quotas()).hasSize(AlterClientQuotasHandler.MAX_ENTRIES);
    }
}
