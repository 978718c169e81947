package io.odradek.wire.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.odradek.wire.oracle.KafkaMessageSpec;
import io.odradek.wire.oracle.RandomKafkaMessages;
import io.odradek.wire.oracle.RandomStructs;
import io.odradek.wire.oracle.SchemaFromJson;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.WireWriter;
import java.lang.reflect.Constructor;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.protocol.Readable;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kafka's generated message classes as the oracle for our bytes, for every API, version and direction:
 * a random struct we encode must parse with Kafka's class and re-serialize to the same bytes; a random
 * Kafka message (built from Kafka's JSON schema, not our tables) must parse with our schema and
 * re-encode to the same bytes.
 */
class KafkaByteOracleTest {
    private static final int ROUNDS = 20;

    /** One message of one API at one version. */
    record Case(ApiSpec api, boolean request, short version) {
        String kafkaName() {
            return api.name() + (request ? "Request" : "Response");
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

    private static final Map<String, KafkaMessageSpec> SPECS = new ConcurrentHashMap<>();

    private static KafkaMessageSpec spec(String name) {
        return SPECS.computeIfAbsent(name, KafkaMessageSpec::load);
    }

    private static ApiSpec fromJson(String name) {
        KafkaMessageSpec request = spec(name + "Request");
        KafkaMessageSpec response = spec(name + "Response");
        return new ApiSpec(request.apiKey(), name, request.validVersions().min(), request.validVersions().max(),
                request.flexibleVersions().isEmpty() ? -1 : request.flexibleVersions().min(),
                SchemaFromJson.build(request.fields()), SchemaFromJson.build(response.fields()));
    }

    static Stream<Named<Case>> cases() {
        // Versions below Kafka 4.4's minimum (KIP-896 dropped them) are not readable by its classes.
        return Stream.concat(Apis.ALL.stream(), TYPE_COVERAGE.stream().map(KafkaByteOracleTest::fromJson)).flatMap(api -> IntStream.rangeClosed(
                Math.max(api.minVersion(), spec(api.name() + "Request").validVersions().min()), api.maxVersion())
                .boxed()
                .flatMap(v -> Stream.of(true, false).map(request -> new Case(api, request, v.shortValue()))))
                .map(c -> Named.of(c.kafkaName() + " v" + c.version(), c));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void ourBytesReadAndRewrittenByKafkaAreIdentical(Case c) throws Exception {
        Constructor<?> reader = RandomKafkaMessages.messageClass(c.kafkaName()).getConstructor(Readable.class, short.class);
        for (int round = 0; round < ROUNDS; round++) {
            Struct struct = new RandomStructs(c.seed(round)).fill(c.schema(), c.version(), c.flexible());
            byte[] ours = encode(c, struct);

            ByteBuffer in = ByteBuffer.wrap(ours);
            Message kafka = (Message) reader.newInstance(new ByteBufferAccessor(in), c.version());
            assertThat(in.remaining()).as("bytes Kafka left unread of %s", struct).isZero();
            assertThat(toArray(MessageUtil.toByteBufferAccessor(kafka, c.version()).buffer()))
                    .as("Kafka's re-serialization of %s", struct)
                    .isEqualTo(ours);
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void kafkaBytesReadAndRewrittenByUsAreIdentical(Case c) {
        KafkaMessageSpec spec = spec(c.kafkaName());
        for (int round = 0; round < ROUNDS; round++) {
            Message message = new RandomKafkaMessages(c.seed(round)).build(spec, c.version());
            byte[] kafka = toArray(MessageUtil.toByteBufferAccessor(message, c.version()).buffer());

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

    private static byte[] toArray(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
