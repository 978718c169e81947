package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.DescribeClusterApi.Request;
import io.odradek.wire.api.DescribeClusterApi.Response;
import io.odradek.wire.api.DescribeClusterApi.Response.DescribeClusterBroker;
import io.odradek.wire.schema.Struct;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DescribeClusterHandlerTest {
    @TempDir
    Path dir;
    AdminFixture fx;

    @BeforeEach
    void open() {
        fx = new AdminFixture(dir);
    }

    @AfterEach
    void close() {
        fx.close();
    }

    @Test
    void describesThisBrokerAsTheWholeClusterAndItsController() {
        Struct r = fx.call(fx.describeCluster(), 2, Request.SCHEMA.newStruct().set(Request.INCLUDE_FENCED_BROKERS, true));

        assertThat(r.get(Response.ERROR_CODE)).isZero();
        assertThat(r.get(Response.ERROR_MESSAGE)).isNull();
        assertThat(r.get(Response.CLUSTER_ID)).isEqualTo(fx.topics.clusterId());
        assertThat(r.get(Response.CONTROLLER_ID)).isEqualTo(1);
        assertThat(r.get(Response.ENDPOINT_TYPE)).isEqualTo((byte) 1);
        assertThat(r.get(Response.CLUSTER_AUTHORIZED_OPERATIONS)).isEqualTo(Integer.MIN_VALUE);
        assertThat(r.get(Response.BROKERS)).singleElement().satisfies(b -> {
            assertThat(b.get(DescribeClusterBroker.BROKER_ID)).isEqualTo(1);
            assertThat(b.get(DescribeClusterBroker.HOST)).isEqualTo("127.0.0.1");
            assertThat(b.get(DescribeClusterBroker.PORT)).isEqualTo(AdminFixture.PORT);
            assertThat(b.get(DescribeClusterBroker.IS_FENCED)).isFalse();
        });
    }

    @Test
    void v0AnswersToo() {
        Struct r = fx.call(fx.describeCluster(), 0, Request.SCHEMA.newStruct()
                .set(Request.INCLUDE_CLUSTER_AUTHORIZED_OPERATIONS, true));

        assertThat(r.get(Response.BROKERS)).hasSize(1);
        assertThat(r.get(Response.CLUSTER_AUTHORIZED_OPERATIONS)).isEqualTo(8096);
    }

    @Test
    void askingABrokerForControllersIsAMismatchedEndpointType() {
        Struct r = fx.call(fx.describeCluster(), 1, Request.SCHEMA.newStruct().set(Request.ENDPOINT_TYPE, (byte) 2));

        assertThat(r.get(Response.ERROR_CODE)).isEqualTo(ErrorCode.MISMATCHED_ENDPOINT_TYPE.code());
        assertThat(r.get(Response.BROKERS)).isEmpty();
        assertThat(fx.call(fx.describeCluster(), 1, Request.SCHEMA.newStruct().set(Request.ENDPOINT_TYPE, (byte) 9))
                .get(Response.ERROR_CODE)).isEqualTo(ErrorCode.UNSUPPORTED_ENDPOINT_TYPE.code());
    }
}
