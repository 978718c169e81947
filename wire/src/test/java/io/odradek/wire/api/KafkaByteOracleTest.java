package io.odradek.wire.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.odradek.wire.oracle.KafkaMessageSpec;
import io.odradek.wire.oracle.KafkaRelease;
import io.odradek.wire.oracle.RandomKafkaMessages;
import io.odradek.wire.oracle.RandomStructs;
import io.odradek.wire.oracle.SchemaFromJson;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.WireWriter;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kafka's generated message classes as the oracle for our bytes, for every API, version and direction:
 * a random struct we encode must parse with Kafka's class and re-serialize to the same bytes; a random
 * Kafka message (built from Kafka's JSON schema, not our tables) must parse with our schema and
 * re-encode to the same bytes. Versions Kafka 4 dropped (KIP-896) are checked against Kafka 3.9.1's classes
 * and schemas, the rest against Kafka 4.4's.
 */
class KafkaByteOracleTest {
    private static final int ROUNDS = 20;

    /** One message of one API at one version. */
    record Case(ApiSpec api, boolean request, short version) {
        String kafkaName() {
            return api.name() + (request ? "Request" : "Response");
        }

        KafkaRelease release() {
            return version < KafkaRelease.CURRENT.spec(kafkaName()).validVersions().min()
                    ? KafkaRelease.KAFKA_3_9 : KafkaRelease.CURRENT;
        }

        Schema schema() {
            return request ? api.request() : api.response();
        }

        boolean flexible() {
            return api.isFlexible(version);
        }

        long seed(int round) {
            return ((long) api.key() << 32) ^ ((long) version << 16) ^ (request ? 1 << 15 : 0) ^ round;
        }
    }

    /**
     * Messages we have no table for, with schemas built from Kafka's JSON: uint16 (also in DescribeQuorum's
     * table) in more shapes, checked against Kafka too.
     */
    private static final List<String> TYPE_COVERAGE = List.of("BrokerRegistration");

    private static ApiSpec fromJson(String name) {
        KafkaMessageSpec request = KafkaRelease.CURRENT.spec(name + "Request");
        KafkaMessageSpec response = KafkaRelease.CURRENT.spec(name + "Response");
        return new ApiSpec(request.apiKey(), name, request.validVersions().min(), request.validVersions().max(),
                request.flexibleVersions().isEmpty() ? -1 : request.flexibleVersions().min(),
                SchemaFromJson.build(request.fields()), SchemaFromJson.build(response.fields()));
    }

    static Stream<Named<Case>> cases() {
        return Stream.concat(Apis.ALL.stream(), TYPE_COVERAGE.stream().map(KafkaByteOracleTest::fromJson)).flatMap(api -> IntStream.rangeClosed(api.minVersion(), api.maxVersion())
                .boxed()
                .flatMap(v -> Stream.of(true, false).map(request -> new Case(api, request, v.shortValue()))))
                .map(c -> Named.of(c.kafkaName() + " v" + c.version() + " (Kafka " + c.release().name() + ")", c));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void ourBytesReadAndRewrittenByKafkaAreIdentical(Case c) {
        KafkaRelease release = c.release();
        for (int round = 0; round < ROUNDS; round++) {
            Struct struct = new RandomStructs(c.seed(round)).fill(c.schema(), c.version(), c.flexible());
            byte[] ours = encode(c, struct);

            Object kafka = release.read(c.kafkaName(), ours, c.version());
            assertThat(release.write(kafka, c.version()))
                    .as("Kafka's re-serialization of %s", struct)
                    .isEqualTo(ours);
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void kafkaBytesReadAndRewrittenByUsAreIdentical(Case c) {
        KafkaRelease release = c.release();
        KafkaMessageSpec spec = release.spec(c.kafkaName());
        for (int round = 0; round < ROUNDS; round++) {
            Object message = new RandomKafkaMessages(release, c.seed(round)).build(spec, c.version());
            byte[] kafka = release.write(message, c.version());

            ByteBuf in = Unpooled.wrappedBuffer(kafka);
            Struct struct = c.schema().read(in, c.version(), c.flexible());
            assertThat(in.readableBytes()).as("bytes we left unread of %s", message).isZero();
            assertThat(encode(c, struct)).as("our re-encoding of %s", message).isEqualTo(kafka);
        }
    }

    private static byte[] encode(Case c, Struct struct) {
        WireWriter out = new WireWriter(UnpooledByteBufAllocator.DEFAULT);
        c.schema().write(out, struct, c.version(), c.flexible());
        List<Object> parts = out.finish();
        assertThat(parts).hasSize(1);
        ByteBuf buf = (ByteBuf) parts.get(0);
        byte[] bytes = ByteBufUtil.getBytes(buf);
        buf.release();
        return bytes;
    }
}
