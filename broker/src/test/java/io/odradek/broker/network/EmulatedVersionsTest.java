package io.odradek.broker.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.broker.BrokerConfig;
import io.odradek.broker.config.ConfigException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.DescribeTransactionsRequestData;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.DescribeTransactionsRequest;
import org.apache.kafka.common.requests.ListOffsetsRequest;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.ResponseHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A broker started with odradek.emulate.version, on the wire: what it advertises and what it refuses. */
class EmulatedVersionsTest {
    @TempDir
    Path logDir;
    final LoopbackBroker loopback = new LoopbackBroker();

    @AfterEach
    void stop() throws Exception {
        loopback.close();
    }

    private RawClient emulating(String version) throws Exception {
        loopback.start(logDir, Map.of("odradek.emulate.version", version));
        return loopback.connect(0);
    }

    @Test
    void apiVersionsAboveTheReleasesCapGetsTheV0UnsupportedVersionAnswerWithTheReleasesList() throws Exception {
        RawClient client = emulating("2.8");
        client.send(RawClient.frame(new ApiVersionsRequest.Builder().build((short) 4), "kafka-4.4", 7));
        ApiVersionsResponseData answer = apiVersionsResponse(client.readFrame(), 7, (short) 0);
        assertThat(Errors.forCode(answer.errorCode())).isEqualTo(Errors.UNSUPPORTED_VERSION);
        assertThat(answer.apiKeys().find((short) 18).maxVersion()).isEqualTo((short) 3);
        assertThat(answer.apiKeys().find((short) 0).maxVersion()).isEqualTo((short) 9);
        assertThat(client.closedByBroker(200)).isFalse();
    }

    @Test
    void apiVersionsAtTheCapListsExactlyTheReleasesApisAndNoFeatures() throws Exception {
        RawClient client = emulating("2.8");
        client.send(RawClient.frame(new ApiVersionsRequest.Builder().build((short) 3), "kafka-4.4", 8));
        ApiVersionsResponseData answer = apiVersionsResponse(client.readFrame(), 8, (short) 3);
        assertThat(answer.errorCode()).isZero();
        assertThat(answer.apiKeys()).extracting(k -> k.apiKey() + ":" + k.minVersion() + "-" + k.maxVersion())
                .containsExactly("0:0-9", "1:0-12", "2:0-6", "3:0-11", "8:0-8", "9:0-7", "10:0-3", "11:0-7", "12:0-4",
                        "13:0-4", "14:0-5", "15:0-5", "16:0-4", "17:0-1", "18:0-3", "19:0-7", "20:0-6", "21:0-2",
                        "22:0-4", "23:0-4", "24:0-3", "25:0-3", "26:0-3", "27:0-1", "28:0-3", "29:0-2", "30:0-2",
                        "31:0-2", "32:0-4", "33:0-2", "34:0-2", "35:0-2", "36:0-2", "37:0-3", "42:0-2", "43:0-2",
                        "44:0-1", "45:0-0", "46:0-0", "47:0-0", "48:0-1", "49:0-1", "50:0-0", "51:0-0", "60:0-0",
                        "61:0-0");
        assertThat(answer.supportedFeatures()).isEmpty();
        assertThat(answer.finalizedFeatures()).isEmpty();
        assertThat(answer.finalizedFeaturesEpoch()).isEqualTo(-1L);
    }

    @Test
    void aVersionAboveTheReleasesMaximumClosesTheConnectionAndTheMaximumItselfIsServed() throws Exception {
        RawClient client = emulating("2.8");
        client.send(RawClient.frame(new MetadataRequest.Builder(new MetadataRequestData().setTopics(List.of()))
                .build((short) 11), "kafka-4.4", 9));
        ByteBuffer frame = client.readFrame();
        assertThat(ResponseHeader.parse(frame, (short) 1).correlationId()).isEqualTo(9);
        assertThat(new MetadataResponseData(new ByteBufferAccessor(frame), (short) 11).brokers()).hasSize(1);

        client.send(RawClient.frame(new MetadataRequest.Builder(new MetadataRequestData().setTopics(List.of()))
                .build((short) 12), "kafka-4.4", 10));
        assertThat(client.closedByBroker(5_000)).isTrue();
    }

    @Test
    void aFollowersListOffsetsAboveTheCapIsServedButAConsumersClosesTheConnection() throws Exception {
        RawClient client = emulating("2.8"); // 2.8 offers ListOffsets v0-6; our ReplicaFetcher sends v7
        client.send(RawClient.frame(ListOffsetsRequest.Builder.forReplica((short) 7, 2)
                .setTargetTimes(List.of()).build((short) 7), "broker-2-fetcher", 12));
        ByteBuffer frame = client.readFrame();
        assertThat(ResponseHeader.parse(frame, (short) 1).correlationId()).isEqualTo(12);
        assertThat(new ListOffsetsResponseData(new ByteBufferAccessor(frame), (short) 7).topics()).isEmpty();

        client.send(RawClient.frame(ListOffsetsRequest.Builder.forConsumer(false, IsolationLevel.READ_UNCOMMITTED)
                .setTargetTimes(List.of()).build((short) 7), "kafka-4.4", 13));
        assertThat(client.closedByBroker(5_000)).isTrue();
    }

    @Test
    void anApiTheReleaseLackedClosesTheConnection() throws Exception {
        RawClient client = emulating("2.8"); // DescribeTransactions came with 3.0 (KIP-664)
        client.send(RawClient.frame(new DescribeTransactionsRequest.Builder(new DescribeTransactionsRequestData()
                .setTransactionalIds(List.of("t"))).build((short) 0), "kafka-4.4", 11));
        assertThat(client.closedByBroker(5_000)).isTrue();
    }

    @Test
    void aKraftReleaseReportsItsMetadataVersion() throws Exception {
        RawClient client = emulating("3.9");
        client.send(RawClient.frame(new ApiVersionsRequest.Builder().build((short) 4), "kafka-4.4", 12));
        ApiVersionsResponseData answer = apiVersionsResponse(client.readFrame(), 12, (short) 4);
        assertThat(answer.supportedFeatures()).extracting(f -> f.name() + " " + f.minVersion() + "-" + f.maxVersion())
                .containsExactly("metadata.version 7-21");
        assertThat(answer.finalizedFeatures()).extracting(f -> f.name() + " " + f.maxVersionLevel())
                .containsExactly("metadata.version 21");
        assertThat(answer.apiKeys().find((short) 0).maxVersion()).isEqualTo((short) 11);
        assertThat(answer.apiKeys().find((short) 75).maxVersion()).isEqualTo((short) 0);
    }

    @Test
    void anUnknownVersionIsRefusedAtStartListingTheKnownOnes() {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("odradek.emulate.version", "2.9")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("odradek.emulate.version")
                .hasMessageContaining("Unknown Kafka version '2.9'; known versions: 0.10.0, 0.10.1, 0.10.2, 0.11.0, 1.0, 1.1,"
                        + " 2.0, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6, 2.7, 2.8, 3.0, 3.1, 3.2, 3.3, 3.4, 3.5, 3.6, 3.7, 3.8, 3.9,"
                        + " 4.0, 4.1, 4.2, 4.3, 4.4");
        assertThat(BrokerConfig.defaults().emulatedRelease()).isNull();
        assertThat(BrokerConfig.of(Map.of("odradek.emulate.version", "2.8.2")).emulatedRelease().version())
                .isEqualTo("2.8");
    }

    /** An ApiVersions answer: header v0 always (Kafka's rule for this API), body at {@code version}. */
    private static ApiVersionsResponseData apiVersionsResponse(ByteBuffer frame, int correlationId, short version)
            throws IOException {
        assertThat(frame.getInt()).isEqualTo(correlationId);
        return new ApiVersionsResponseData(new ByteBufferAccessor(frame), version);
    }
}
