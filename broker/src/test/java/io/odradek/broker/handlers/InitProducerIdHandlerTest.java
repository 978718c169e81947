package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.producer.ProducerIdManager;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.InitProducerIdApi.Request;
import io.odradek.wire.api.InitProducerIdApi.Response;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InitProducerIdHandlerTest {
    @TempDir
    Path dir;
    DataPathFixture fx;
    ProducerIdManager ids;
    InitProducerIdHandler handler;

    @BeforeEach
    void setUp() {
        fx = new DataPathFixture(dir);
        ids = ProducerIdManager.open(dir, 3);
        handler = new InitProducerIdHandler(ids, null);
    }

    @AfterEach
    void tearDown() {
        ids.close();
        fx.close();
    }

    @Test
    void idempotentProducersGetDistinctIdsWithEpochZero() {
        Struct first = init(0, null, -1L, (short) -1);
        Struct second = init(4, null, -1L, (short) -1);
        assertThat(first.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(first.get(Response.PRODUCER_EPOCH)).isZero();
        assertThat(second.get(Response.PRODUCER_ID)).isNotEqualTo(first.get(Response.PRODUCER_ID));
        assertThat(second.get(Response.ONGOING_TXN_PRODUCER_ID)).isEqualTo(-1L);
    }

    @Test
    void anEpochBumpRequestGetsANewIdAsKafkaDoesWithoutATransactionalId() {
        long id = init(5, null, -1L, (short) -1).get(Response.PRODUCER_ID);
        Struct bumped = init(5, null, id, (short) 0);
        assertThat(bumped.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        assertThat(bumped.get(Response.PRODUCER_ID)).isNotEqualTo(id);
        assertThat(bumped.get(Response.PRODUCER_EPOCH)).isZero();
    }

    @Test
    void anIdWithoutAnEpochOrTheOtherWayRoundIsInvalid() {
        assertThat(init(3, null, 12L, (short) -1).get(Response.ERROR_CODE)).isEqualTo(ErrorCode.INVALID_REQUEST.code());
        assertThat(init(3, null, -1L, (short) 2).get(Response.ERROR_CODE)).isEqualTo(ErrorCode.INVALID_REQUEST.code());
    }

    @Test
    void idsKeepComingAcrossBlocks() {
        java.util.Set<Long> seen = new java.util.HashSet<>();
        for (int i = 0; i < 20; i++) {
            seen.add(init(6, null, -1L, (short) -1).get(Response.PRODUCER_ID));
        }
        assertThat(seen).hasSize(20);
    }

    @Test
    void withoutATransactionCoordinatorATransactionalIdIsAnInvalidRequest() {
        Struct refused = init(4, "my-txn", -1L, (short) -1);
        assertThat(refused.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.INVALID_REQUEST.code());
        assertThat(refused.get(Response.PRODUCER_ID)).isEqualTo(-1L);
        assertThat(refused.get(Response.PRODUCER_EPOCH)).isEqualTo((short) -1);
        assertThat(init(4, "", -1L, (short) -1).get(Response.ERROR_CODE)).isEqualTo(ErrorCode.INVALID_REQUEST.code());
    }

    private Struct init(int version, String transactionalId, long producerId, short epoch) {
        Struct request = Request.SCHEMA.newStruct().set(Request.TRANSACTIONAL_ID, transactionalId)
                .set(Request.TRANSACTION_TIMEOUT_MS, 60_000).set(Request.PRODUCER_ID, producerId)
                .set(Request.PRODUCER_EPOCH, epoch);
        return fx.callAndWait(handler, version, request);
    }
}
