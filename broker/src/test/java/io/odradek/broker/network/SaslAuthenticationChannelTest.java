package io.odradek.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.ApiRegistry;
import io.odradek.broker.api.BrokerFeatures;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.handlers.ApiVersionsHandler;
import io.odradek.broker.handlers.SaslAuthenticateHandler;
import io.odradek.broker.handlers.SaslHandshakeHandler;
import io.odradek.broker.quota.ClientQuotas;
import io.odradek.broker.quota.QuotaWindows;
import io.odradek.broker.quota.RequestThrottler;
import io.odradek.broker.security.ListenerSecurity;
import io.odradek.broker.security.SaslServerSettings;
import io.odradek.security.KafkaPrincipal;
import io.odradek.security.SecurityProtocol;
import io.odradek.security.acl.Authorizer;
import io.odradek.security.sasl.OAuthBearerServer;
import io.odradek.security.sasl.PlainServer;
import io.odradek.security.sasl.SaslServerMechanism;
import io.odradek.security.sasl.ScramClient;
import io.odradek.security.sasl.ScramServer;
import io.odradek.security.scram.ScramFormatter;
import io.odradek.security.scram.ScramMechanism;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.ListGroupsApi;
import io.odradek.wire.schema.Struct;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.ListGroupsRequest;
import org.apache.kafka.common.requests.ListGroupsResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.apache.kafka.common.requests.SaslHandshakeResponse;
import org.junit.jupiter.api.Test;

/** The SASL gate and exchange on one connection, driven with Kafka's own request classes through an EmbeddedChannel. */
class SaslAuthenticationChannelTest {
    private static final ScramFormatter SHA256 = new ScramFormatter(ScramMechanism.SCRAM_SHA_256);
    private final Map<String, String> plainUsers = Map.of("alice", "alice-secret", "bob", "bob-secret");
    private final Map<String, io.odradek.security.scram.ScramCredential> scramUsers =
            Map.of("carol", SHA256.credential("carol-secret", 4096));
    private final AtomicReference<KafkaPrincipal> servedAs = new AtomicReference<>();
    private long maxReauthMs;
    private List<String> mechanisms = List.of("PLAIN", "SCRAM-SHA-256");
    private int maxReceive = 524288;
    private EmbeddedChannel channel;
    private final OutboundFrames received = new OutboundFrames();
    private int correlation;
    private RequestMemoryPool pool;
    private int maxQueuedRequests = 1000;
    private boolean listGroupsFails;
    private io.odradek.broker.quota.TestQuotaStore quotaStore;
    /** When set, ListGroups answers only when the test completes this (a parked request, like a long-poll fetch). */
    private CompletableFuture<Struct> parked;

    private final SaslServerSettings settings = new SaslServerSettings() {
        @Override
        public List<String> enabledMechanisms() {
            return mechanisms;
        }

        @Override
        public SaslServerMechanism newServer(String mechanism) {
            return switch (mechanism) {
                case "PLAIN" -> new PlainServer(plainUsers::get);
                case "OAUTHBEARER" -> new OAuthBearerServer(new OAuthBearerServer.Options("sub", "scope", List.of(), 0),
                        System::currentTimeMillis);
                default -> new ScramServer(ScramMechanism.SCRAM_SHA_256, scramUsers::get);
            };
        }

        @Override
        public long maxReauthMs() {
            return maxReauthMs;
        }

        @Override
        public int maxReceiveSize() {
            return maxReceive;
        }
    };

    private void connect(boolean saslListener) {
        ApiRegistry registry = new ApiRegistry();
        registry.register(new ApiVersionsHandler(registry, BrokerFeatures.kafka44(0)))
                .register(new SaslHandshakeHandler())
                .register(new SaslAuthenticateHandler())
                .register(new ApiHandler() {
                    @Override
                    public ApiSpec api() {
                        return ListGroupsApi.SPEC;
                    }

                    @Override
                    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
                        if (listGroupsFails) {
                            throw new StackOverflowError("handler bug");
                        }
                        servedAs.set(context.session().principal());
                        if (parked != null) {
                            return parked;
                        }
                        return CompletableFuture.completedFuture(ListGroupsApi.Response.SCHEMA.newStruct());
                    }
                });
        pool = new RequestMemoryPool(100 << 20, maxQueuedRequests);
        RequestFrameDecoder frames = new RequestFrameDecoder(100 << 20, pool, new AtomicInteger());
        channel = new EmbeddedChannel();
        channel.pipeline().addLast(frames);
        ListenerSecurity security = saslListener
                ? new ListenerSecurity("SASL_PLAINTEXT", SecurityProtocol.SASL_PLAINTEXT, null, settings)
                : ListenerSecurity.plaintext("PLAINTEXT");
        channel.pipeline().addLast(new RequestChannelHandler(registry, pool, frames.gate(), 100, -1,
                new RateLimitedLog(System.getLogger("test"), 1000),
                new RequestThrottler(quotaStore == null ? new ClientQuotas(QuotaWindows.KAFKA_DEFAULTS)
                        : ClientQuotas.following(quotaStore, QuotaWindows.KAFKA_DEFAULTS), System::currentTimeMillis),
                security, Authorizer.ALLOW_ALL, RequestHooks.NONE));
    }

    private void sendFrame(byte[] payload) {
        ByteBuf frame = Unpooled.buffer(4 + payload.length).writeInt(payload.length).writeBytes(payload);
        channel.writeInbound(frame);
        channel.runPendingTasks();
    }

    private RequestHeader send(AbstractRequest request) {
        RequestHeader header = new RequestHeader(request.apiKey(), request.version(), "sasl-test", ++correlation);
        ByteBuffer body = request.serializeWithHeader(header);
        byte[] bytes = new byte[body.remaining()];
        body.get(bytes);
        sendFrame(bytes);
        return header;
    }

    /** The next whole frame the broker wrote, without its length prefix; null when there is none. */
    private ByteBuffer nextFrame() {
        return received.next(channel);
    }

    @SuppressWarnings("unchecked")
    private <T extends AbstractResponse> T exchange(AbstractRequest request) {
        RequestHeader header = send(request);
        ByteBuffer frame = nextFrame();
        assertThat(frame).as("a response to " + request.apiKey()).isNotNull();
        return (T) AbstractResponse.parseResponse(frame, header);
    }

    private static SaslHandshakeRequest handshake(String mechanism, short version) {
        return new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData().setMechanism(mechanism)).build(version);
    }

    private static SaslAuthenticateRequest authenticate(byte[] token, short version) {
        return new SaslAuthenticateRequest.Builder(new SaslAuthenticateRequestData().setAuthBytes(token)).build(version);
    }

    private static byte[] plain(String user, String password) {
        return ("\u0000" + user + "\u0000" + password).getBytes(StandardCharsets.UTF_8);
    }

    private static ListGroupsRequest listGroups() {
        return new ListGroupsRequest.Builder(new ListGroupsRequestData()).build((short) 4);
    }

    private void loginPlain(String user, String password) {
        SaslHandshakeResponse hs = exchange(handshake("PLAIN", (short) 1));
        assertThat(hs.error()).isEqualTo(Errors.NONE);
        SaslAuthenticateResponse auth = exchange(authenticate(plain(user, password), (short) 2));
        assertThat(auth.error()).isEqualTo(Errors.NONE);
    }

    /** The connection is closed and holds neither a queue slot nor pool memory any more. */
    private void assertClosedWithMemoryGivenBack() {
        assertThat(channel.isOpen()).isFalse();
        assertThat(pool.queuedRequests()).isZero();
        assertThat(pool.usedBytes()).isZero();
    }

    @Test
    void plainLoginThenRequestsAreServedAsTheUser() {
        connect(true);
        ApiVersionsResponse versions = exchange(new ApiVersionsRequest.Builder().build((short) 3));
        assertThat(versions.apiVersion(ApiKeys.SASL_HANDSHAKE.id).maxVersion()).isEqualTo((short) 1);
        assertThat(versions.apiVersion(ApiKeys.SASL_AUTHENTICATE.id).maxVersion()).isEqualTo((short) 2);
        SaslHandshakeResponse hs = exchange(handshake("PLAIN", (short) 1));
        assertThat(hs.error()).isEqualTo(Errors.NONE);
        assertThat(hs.data().mechanisms()).containsExactly("PLAIN", "SCRAM-SHA-256");
        SaslAuthenticateResponse auth = exchange(authenticate(plain("alice", "alice-secret"), (short) 2));
        assertThat(auth.error()).isEqualTo(Errors.NONE);
        assertThat(auth.data().authBytes()).isEmpty();
        assertThat(auth.data().sessionLifetimeMs()).isZero();
        ListGroupsResponse groups = exchange(listGroups());
        assertThat(groups.data().errorCode()).isZero();
        assertThat(servedAs.get()).isEqualTo(KafkaPrincipal.user("alice"));
    }

    @Test
    void requestBeforeAuthenticationClosesTheConnectionWithoutAnAnswer() {
        connect(true);
        send(listGroups());
        assertThat(nextFrame()).isNull();
        assertThat(channel.isOpen()).isFalse();
        assertThat(servedAs.get()).isNull();
    }

    @Test
    void requestBetweenHandshakeAndAuthenticateClosesTheConnection() {
        connect(true);
        exchange(handshake("PLAIN", (short) 1));
        send(listGroups());
        assertThat(nextFrame()).isNull();
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void unknownMechanismIsRefusedWithTheEnabledOnesThenClosed() {
        connect(true);
        SaslHandshakeResponse hs = exchange(handshake("GSSAPI", (short) 1));
        assertThat(hs.error()).isEqualTo(Errors.UNSUPPORTED_SASL_MECHANISM);
        assertThat(hs.data().mechanisms()).containsExactly("PLAIN", "SCRAM-SHA-256");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void wrongPlainPasswordFailsWithKafkasMessageThenCloses() {
        connect(true);
        exchange(handshake("PLAIN", (short) 1));
        SaslAuthenticateResponse auth = exchange(authenticate(plain("alice", "nope"), (short) 1));
        assertThat(auth.error()).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED);
        assertThat(auth.errorMessage()).isEqualTo("Authentication failed: Invalid username or password");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void scramLoginAndAWrongScramPasswordWithTheGenericMessage() throws Exception {
        connect(true);
        exchange(handshake("SCRAM-SHA-256", (short) 1));
        ScramClient client = new ScramClient(ScramMechanism.SCRAM_SHA_256, "carol", "carol-secret");
        SaslAuthenticateResponse first = exchange(authenticate(client.initialResponse(), (short) 2));
        SaslAuthenticateResponse last = exchange(authenticate(client.evaluateChallenge(first.data().authBytes()),
                (short) 2));
        assertThat(last.error()).isEqualTo(Errors.NONE);
        client.evaluateChallenge(last.data().authBytes());
        assertThat(client.isComplete()).isTrue();
        exchange(listGroups());
        assertThat(servedAs.get()).isEqualTo(KafkaPrincipal.user("carol"));

        connect(true);
        exchange(handshake("SCRAM-SHA-256", (short) 1));
        ScramClient wrong = new ScramClient(ScramMechanism.SCRAM_SHA_256, "carol", "wrong");
        SaslAuthenticateResponse challenge = exchange(authenticate(wrong.initialResponse(), (short) 2));
        SaslAuthenticateResponse refused = exchange(authenticate(wrong.evaluateChallenge(challenge.data().authBytes()),
                (short) 2));
        assertThat(refused.error()).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED);
        assertThat(refused.errorMessage()).isEqualTo(
                "Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-256");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void handshakeV0IsFollowedByRawTokenFrames() {
        connect(true);
        SaslHandshakeResponse hs = exchange(handshake("PLAIN", (short) 0));
        assertThat(hs.error()).isEqualTo(Errors.NONE);
        sendFrame(plain("bob", "bob-secret"));
        ByteBuffer raw = nextFrame();
        assertThat(raw).isNotNull();
        assertThat(raw.remaining()).isZero(); // PLAIN's (empty) final message, as a raw frame
        exchange(listGroups());
        assertThat(servedAs.get()).isEqualTo(KafkaPrincipal.user("bob"));
    }

    @Test
    void failedRawTokenClosesWithoutAnAnswer() {
        connect(true);
        exchange(handshake("PLAIN", (short) 0));
        sendFrame(plain("bob", "wrong"));
        assertThat(nextFrame()).isNull();
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void oversizedFrameBeforeAuthenticationCloses() {
        maxReceive = 100;
        connect(true);
        sendFrame(new byte[101]);
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void sessionLifetimeIsToldAndReauthenticationKeepsTheConnection() {
        maxReauthMs = 60_000;
        connect(true);
        exchange(handshake("PLAIN", (short) 1));
        SaslAuthenticateResponse auth = exchange(authenticate(plain("alice", "alice-secret"), (short) 1));
        assertThat(auth.data().sessionLifetimeMs()).isEqualTo(60_000);
        // KIP-368: a new handshake on the authenticated connection re-authenticates it.
        SaslHandshakeResponse again = exchange(handshake("PLAIN", (short) 1));
        assertThat(again.error()).isEqualTo(Errors.NONE);
        SaslAuthenticateResponse reauth = exchange(authenticate(plain("alice", "alice-secret"), (short) 2));
        assertThat(reauth.error()).isEqualTo(Errors.NONE);
        assertThat(reauth.data().sessionLifetimeMs()).isEqualTo(60_000);
        exchange(listGroups());
        assertThat(servedAs.get()).isEqualTo(KafkaPrincipal.user("alice"));
    }

    @Test
    void reauthenticationAsAnotherUserIsRefusedAndCloses() {
        maxReauthMs = 60_000;
        connect(true);
        loginPlain("alice", "alice-secret");
        exchange(handshake("PLAIN", (short) 1));
        SaslAuthenticateResponse reauth = exchange(authenticate(plain("bob", "bob-secret"), (short) 2));
        assertThat(reauth.error()).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED);
        assertThat(reauth.errorMessage()).isEqualTo("Cannot change principals during re-authentication from User.alice: User.bob");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void reauthenticationJustAfterExpiryIsStillAccepted() throws Exception {
        maxReauthMs = 1;
        connect(true);
        loginPlain("alice", "alice-secret");
        Thread.sleep(20); // past the 1 ms session: a client starts re-authenticating only when it has a request
        loginPlain("alice", "alice-secret");
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void requestAfterTheSessionExpiredClosesTheConnection() throws Exception {
        maxReauthMs = 1;
        connect(true);
        loginPlain("alice", "alice-secret");
        Thread.sleep(20); // past the 1 ms session
        send(listGroups());
        assertThat(nextFrame()).isNull();
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void oauthTokenExpiryBoundsTheSessionBelowConnectionsMaxReauthMs() {
        mechanisms = List.of("OAUTHBEARER");
        maxReauthMs = 3_600_000;
        connect(true);
        exchange(handshake("OAUTHBEARER", (short) 1));
        java.util.Base64.Encoder b64 = java.util.Base64.getUrlEncoder().withoutPadding();
        long exp = System.currentTimeMillis() / 1000 + 120;
        String token = b64.encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + b64.encodeToString(("{\"sub\":\"dave\",\"exp\":" + exp + "}").getBytes(StandardCharsets.UTF_8))
                + ".";
        SaslAuthenticateResponse auth = exchange(authenticate(("n,,\u0001auth=Bearer " + token + "\u0001\u0001")
                .getBytes(StandardCharsets.UTF_8), (short) 2));
        assertThat(auth.error()).isEqualTo(Errors.NONE);
        assertThat(auth.data().sessionLifetimeMs()).isBetween(110_000L, 120_000L);
        exchange(listGroups());
        assertThat(servedAs.get()).isEqualTo(KafkaPrincipal.user("dave"));
    }

    @Test
    void saslRequestsOnAPlaintextListenerAnswerIllegalSaslState() {
        connect(false);
        SaslHandshakeResponse hs = exchange(handshake("PLAIN", (short) 1));
        assertThat(hs.error()).isEqualTo(Errors.ILLEGAL_SASL_STATE);
        assertThat(hs.data().mechanisms()).isEmpty();
        SaslAuthenticateResponse auth = exchange(authenticate(plain("alice", "alice-secret"), (short) 2));
        assertThat(auth.error()).isEqualTo(Errors.ILLEGAL_SASL_STATE);
        assertThat(auth.errorMessage()).isEqualTo("SaslAuthenticate request received after successful authentication");
        exchange(listGroups());
        assertThat(servedAs.get()).isEqualTo(KafkaPrincipal.ANONYMOUS);
    }

    @Test
    void sessionWithoutLifetimeCannotReauthenticate() {
        connect(true);
        loginPlain("alice", "alice-secret");
        SaslHandshakeResponse again = exchange(handshake("PLAIN", (short) 1));
        assertThat(again.error()).isEqualTo(Errors.ILLEGAL_SASL_STATE);
        assertThat(new ArrayList<>(again.data().mechanisms())).isEmpty();
    }

    @Test
    void oversizedPrefixBeforeAuthenticationClosesBeforeAnyMemoryIsTaken() {
        connect(true);
        // A 10 MB length prefix (under socket.request.max.bytes, over sasl.server.max.receive.size) and one byte.
        channel.writeInbound(Unpooled.buffer(5).writeInt(10_000_000).writeByte(0));
        channel.runPendingTasks();
        assertClosedWithMemoryGivenBack();
    }

    @Test
    void oversizedPrefixWhileReauthenticatingClosesBeforeAnyMemoryIsTaken() {
        maxReauthMs = 60_000;
        connect(true);
        loginPlain("alice", "alice-secret");
        exchange(handshake("PLAIN", (short) 1));
        channel.writeInbound(Unpooled.buffer(5).writeInt(10_000_000).writeByte(0));
        channel.runPendingTasks();
        assertThat(channel.isOpen()).isFalse();
        assertThat(pool.usedBytes()).isZero();
    }

    @Test
    void largeFrameAfterAuthenticationIsStillAccepted() {
        maxReceive = 100;
        connect(true);
        loginPlain("alice", "alice-secret");
        ListGroupsRequest big = new ListGroupsRequest.Builder(new ListGroupsRequestData()).build((short) 4);
        RequestHeader header = new RequestHeader(big.apiKey(), big.version(), "x".repeat(500), ++correlation);
        ByteBuffer body = big.serializeWithHeader(header);
        byte[] bytes = new byte[body.remaining()];
        body.get(bytes);
        sendFrame(bytes);
        assertThat(nextFrame()).isNotNull();
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void deeplyNestedScramClientFirstIsRefusedAndFreesItsQueueSlot() {
        maxQueuedRequests = 2;
        for (int i = 0; i < 2; i++) {
            connect(true);
            exchange(handshake("SCRAM-SHA-256", (short) 1));
            SaslAuthenticateResponse auth = exchange(authenticate(("n,,n=" + "x".repeat(6000) + ",r=abc")
                    .getBytes(StandardCharsets.UTF_8), (short) 2));
            assertThat(auth.error()).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED);
            assertClosedWithMemoryGivenBack();
        }
    }

    @Test
    void deeplyNestedOauthTokenIsRefusedAndFreesItsQueueSlot() {
        mechanisms = List.of("OAUTHBEARER");
        maxQueuedRequests = 2;
        java.util.Base64.Encoder b64 = java.util.Base64.getUrlEncoder().withoutPadding();
        String token = b64.encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + b64.encodeToString(("{\"sub\":" + "[".repeat(20_000) + "}").getBytes(StandardCharsets.UTF_8))
                + ".";
        for (int i = 0; i < 2; i++) {
            connect(true);
            exchange(handshake("OAUTHBEARER", (short) 1));
            SaslAuthenticateResponse auth = exchange(authenticate(("n,,\u0001auth=Bearer " + token + "\u0001\u0001")
                    .getBytes(StandardCharsets.UTF_8), (short) 2));
            if (auth.error() == Errors.NONE) { // the validator's JSON error challenge; the client's 0x01 ends it
                auth = exchange(authenticate(new byte[] {1}, (short) 2));
            }
            assertThat(auth.error()).isEqualTo(Errors.SASL_AUTHENTICATION_FAILED);
            assertClosedWithMemoryGivenBack();
        }
    }

    @Test
    void anErrorThrownByAHandlerClosesTheConnectionAndGivesBackItsMemory() {
        listGroupsFails = true;
        maxQueuedRequests = 2;
        connect(false);
        send(listGroups());
        assertThat(nextFrame()).isNull();
        assertClosedWithMemoryGivenBack();
    }

    @Test
    void rawTokenAnswerDuringReauthenticationWaitsForTheParkedRequestBeforeIt() {
        maxReauthMs = 60_000;
        connect(true);
        loginPlain("alice", "alice-secret");
        parked = new CompletableFuture<>();
        RequestHeader groupsHeader = send(listGroups());
        RequestHeader hsHeader = send(handshake("PLAIN", (short) 0));
        sendFrame(plain("alice", "alice-secret"));
        assertThat(nextFrame()).as("nothing may overtake the parked request").isNull();
        parked.complete(ListGroupsApi.Response.SCHEMA.newStruct());
        channel.runPendingTasks();
        ListGroupsResponse groups = (ListGroupsResponse) AbstractResponse.parseResponse(nextFrame(), groupsHeader);
        assertThat(groups.data().errorCode()).isZero();
        SaslHandshakeResponse hs = (SaslHandshakeResponse) AbstractResponse.parseResponse(nextFrame(), hsHeader);
        assertThat(hs.error()).isEqualTo(Errors.NONE);
        ByteBuffer raw = nextFrame();
        assertThat(raw).isNotNull();
        assertThat(raw.remaining()).isZero(); // PLAIN's empty final message, last
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void theSaslExchangeIsNotChargedToTheClientsRequestQuota() throws Exception {
        quotaStore = new io.odradek.broker.quota.TestQuotaStore();
        java.util.TreeMap<String, String> entity = new java.util.TreeMap<>();
        entity.put(io.odradek.replication.config.QuotaEntity.CLIENT_ID, "sasl-test");
        // A millionth of a thread: any measured handling would throttle (mute) the connection for a long time.
        quotaStore.alterQuotas(Map.of(new io.odradek.replication.config.QuotaEntity(entity),
                Map.of("request_percentage", 0.0001))).join();
        connect(true);
        exchange(handshake("SCRAM-SHA-256", (short) 1));
        ScramClient client = new ScramClient(ScramMechanism.SCRAM_SHA_256, "carol", "carol-secret");
        SaslAuthenticateResponse first = exchange(authenticate(client.initialResponse(), (short) 2));
        SaslAuthenticateResponse last = exchange(authenticate(client.evaluateChallenge(first.data().authBytes()),
                (short) 2));
        assertThat(last.error()).isEqualTo(Errors.NONE);
        ListGroupsResponse groups = exchange(listGroups()); // answered at once: the exchange did not mute us
        assertThat(groups.data().errorCode()).isZero();
        assertThat(servedAs.get()).isEqualTo(KafkaPrincipal.user("carol"));
    }
}
