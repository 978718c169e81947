package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.security.Session;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.replication.security.InMemorySecurityMetadataStore;
import io.odradek.security.KafkaPrincipal;
import io.odradek.security.SecurityProtocol;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.Authorizer;
import io.odradek.security.acl.ResourceType;
import io.odradek.security.scram.ScramCredential;
import io.odradek.security.scram.ScramFormatter;
import io.odradek.security.scram.ScramMechanism;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.AlterUserScramCredentialsApi;
import io.odradek.wire.api.AlterUserScramCredentialsApi.Request.ScramCredentialDeletion;
import io.odradek.wire.api.AlterUserScramCredentialsApi.Request.ScramCredentialUpsertion;
import io.odradek.wire.api.AlterUserScramCredentialsApi.Response.AlterUserScramCredentialsResult;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DescribeUserScramCredentialsApi;
import io.odradek.wire.api.DescribeUserScramCredentialsApi.Response.DescribeUserScramCredentialsResult;
import io.odradek.wire.api.DescribeUserScramCredentialsApi.Response.DescribeUserScramCredentialsResult.CredentialInfo;
import io.odradek.wire.header.RequestHeader;
import io.odradek.wire.schema.Struct;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** DescribeUserScramCredentials and AlterUserScramCredentials over a store in memory, with Kafka 4.4's answers. */
class ScramCredentialsHandlersTest {
    private static final byte SHA_256 = ScramMechanism.SCRAM_SHA_256.type;
    private static final byte SHA_512 = ScramMechanism.SCRAM_SHA_512.type;

    private final InMemorySecurityMetadataStore store = new InMemorySecurityMetadataStore();
    private final AlterUserScramCredentialsHandler alter = new AlterUserScramCredentialsHandler(store);
    private final DescribeUserScramCredentialsHandler describe = new DescribeUserScramCredentialsHandler(store);

    // ---- requests and calls

    private static Struct alterRequest() {
        return AlterUserScramCredentialsApi.Request.SCHEMA.newStruct();
    }

    private static final byte[] SALT = "a-salt-the-client-chose".getBytes(StandardCharsets.UTF_8);

    private static Struct upsert(Struct request, String user, byte mechanism, int iterations, String password) {
        ScramMechanism m = ScramMechanism.fromType(mechanism);
        byte[] salted = m == null ? new byte[] {1} : new ScramFormatter(m).saltedPassword(password, SALT, iterations);
        request.add(AlterUserScramCredentialsApi.Request.UPSERTIONS)
                .set(ScramCredentialUpsertion.NAME, user)
                .set(ScramCredentialUpsertion.MECHANISM, mechanism)
                .set(ScramCredentialUpsertion.ITERATIONS, iterations)
                .set(ScramCredentialUpsertion.SALT, SALT)
                .set(ScramCredentialUpsertion.SALTED_PASSWORD, salted);
        return request;
    }

    private static Struct delete(Struct request, String user, byte mechanism) {
        request.add(AlterUserScramCredentialsApi.Request.DELETIONS)
                .set(ScramCredentialDeletion.NAME, user)
                .set(ScramCredentialDeletion.MECHANISM, mechanism);
        return request;
    }

    /** A describe request; no names: Users null. */
    private static Struct describeRequest(String... users) {
        Struct request = DescribeUserScramCredentialsApi.Request.SCHEMA.newStruct()
                .set(DescribeUserScramCredentialsApi.Request.USERS, users.length == 0 ? null : new ArrayList<>());
        for (String user : users) {
            request.add(DescribeUserScramCredentialsApi.Request.USERS)
                    .set(DescribeUserScramCredentialsApi.Request.UserName.NAME, user);
        }
        return request;
    }

    private static Struct call(ApiHandler handler, Struct request, Session session) {
        ApiSpec api = handler.api();
        Struct decoded = AdminFixture.roundTrip(api.request(), request, (short) 0, true);
        RequestContext context = new RequestContext(new RequestHeader(api.key(), (short) 0, 1, "test"),
                new InetSocketAddress("127.0.0.1", 50000), UnpooledByteBufAllocator.DEFAULT,
                ImmediateEventExecutor.INSTANCE, ImmediateEventExecutor.INSTANCE.newPromise(), null, session);
        try {
            Struct response = handler.handle(context, decoded).get(10, TimeUnit.SECONDS);
            return AdminFixture.roundTrip(api.response(), response, (short) 0, true);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private Struct alter(Struct request) {
        return call(alter, request, Session.PLAINTEXT_ANONYMOUS);
    }

    private Struct describe(Struct request) {
        return call(describe, request, Session.PLAINTEXT_ANONYMOUS);
    }

    /** (user, error code, message) of each alter result, in the order answered. */
    private static List<Object[]> results(Struct alterResponse) {
        return alterResponse.get(AlterUserScramCredentialsApi.Response.RESULTS).stream()
                .map(r -> new Object[] {r.get(AlterUserScramCredentialsResult.USER),
                        r.get(AlterUserScramCredentialsResult.ERROR_CODE), r.get(AlterUserScramCredentialsResult.ERROR_MESSAGE)})
                .toList();
    }

    private static org.assertj.core.groups.Tuple result(String user, ErrorCode error, String message) {
        return tuple(user, error.code(), message);
    }

    /** "user: SCRAM-SHA-256=4096,..." or "user: error message" per describe result. */
    private static List<String> described(Struct describeResponse) {
        return describeResponse.get(DescribeUserScramCredentialsApi.Response.RESULTS).stream().map(r -> {
            String user = r.get(DescribeUserScramCredentialsResult.USER);
            if (r.get(DescribeUserScramCredentialsResult.ERROR_CODE) != 0) {
                return user + ": " + ErrorCode.forCode(r.get(DescribeUserScramCredentialsResult.ERROR_CODE)) + " "
                        + r.get(DescribeUserScramCredentialsResult.ERROR_MESSAGE);
            }
            List<String> infos = r.get(DescribeUserScramCredentialsResult.CREDENTIAL_INFOS).stream()
                    .map(i -> ScramMechanism.fromType(i.get(CredentialInfo.MECHANISM)).mechanismName + "="
                            + i.get(CredentialInfo.ITERATIONS))
                    .toList();
            return user + ": " + String.join(",", infos);
        }).toList();
    }

    // ---- upsert and describe

    @Test
    void upsertedCredentialIsStoredAsSaltStoredKeyServerKeyAndIterationsNeverThePassword() {
        Struct response = alter(upsert(alterRequest(), "alice", SHA_256, 8192, "alice-secret"));

        assertThat(results(response)).extracting(r -> tuple(r)).containsExactly(result("alice", ErrorCode.NONE, null));
        ScramCredential stored = store.scramCredentials().get("alice").get(ScramMechanism.SCRAM_SHA_256);
        ScramFormatter f = new ScramFormatter(ScramMechanism.SCRAM_SHA_256);
        byte[] salted = f.saltedPassword("alice-secret", SALT, 8192);
        assertThat(stored.salt()).isEqualTo(SALT);
        assertThat(stored.iterations()).isEqualTo(8192);
        assertThat(stored.storedKey()).isEqualTo(f.hash(f.hmac(salted, "Client Key".getBytes(StandardCharsets.US_ASCII))));
        assertThat(stored.serverKey()).isEqualTo(f.hmac(salted, "Server Key".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void describeListsEachUsersMechanismsAndIterations() {
        alter(upsert(alterRequest(), "alice", SHA_256, 8192, "a"));
        alter(upsert(alterRequest(), "alice", SHA_512, 4096, "a"));
        alter(upsert(alterRequest(), "bob", SHA_512, 16384, "b"));

        Struct response = describe(describeRequest("alice", "bob"));

        assertThat(response.get(DescribeUserScramCredentialsApi.Response.ERROR_CODE)).isZero();
        assertThat(described(response)).containsExactlyInAnyOrder(
                "alice: SCRAM-SHA-256=8192,SCRAM-SHA-512=4096", "bob: SCRAM-SHA-512=16384");
    }

    @Test
    void describeWithUsersNullOrEmptyListsEveryUserWithACredential() {
        alter(upsert(alterRequest(), "alice", SHA_256, 4096, "a"));
        alter(upsert(alterRequest(), "bob", SHA_512, 4096, "b"));

        assertThat(described(describe(describeRequest()))).containsExactlyInAnyOrder(
                "alice: SCRAM-SHA-256=4096", "bob: SCRAM-SHA-512=4096");
        Struct empty = DescribeUserScramCredentialsApi.Request.SCHEMA.newStruct()
                .set(DescribeUserScramCredentialsApi.Request.USERS, List.of());
        assertThat(described(describe(empty))).containsExactlyInAnyOrder(
                "alice: SCRAM-SHA-256=4096", "bob: SCRAM-SHA-512=4096");
    }

    @Test
    void describeAnswersUnknownAndTwiceNamedUsersWithKafkasErrors() {
        alter(upsert(alterRequest(), "alice", SHA_256, 4096, "a"));

        Struct response = describe(describeRequest("alice", "nobody", "alice", ""));

        assertThat(described(response)).containsExactlyInAnyOrder(
                "alice: DUPLICATE_RESOURCE Cannot describe SCRAM credentials for the same user twice in a single request: alice",
                "nobody: RESOURCE_NOT_FOUND Attempt to describe a user credential that does not exist: nobody",
                ": RESOURCE_NOT_FOUND Attempt to describe a user credential that does not exist: ");
    }

    @Test
    void describeWithNoCredentialsAtAllAnswersNoResults() {
        assertThat(describe(describeRequest()).get(DescribeUserScramCredentialsApi.Response.RESULTS)).isEmpty();
    }

    @Test
    void describeResultsComeInTheOrderOfAHashMapOfTheNamesAsKafkas() {
        List<String> names = List.of("zed", "alice", "mallory", "bob", "carol", "trent");
        for (String name : names) {
            alter(upsert(alterRequest(), name, SHA_256, 4096, "p"));
        }
        List<String> kafkaOrder = new ArrayList<>(new java.util.HashMap<>(
                names.stream().collect(java.util.stream.Collectors.toMap(n -> n, n -> false))).keySet());

        List<String> answered = describe(describeRequest(names.toArray(String[]::new)))
                .get(DescribeUserScramCredentialsApi.Response.RESULTS).stream()
                .map(r -> r.get(DescribeUserScramCredentialsResult.USER)).toList();

        assertThat(answered).isEqualTo(kafkaOrder);
    }

    // ---- alter: Kafka's checks

    @Test
    void twoMechanismsForOneUserInOneRequestAreRefusedAsDuplicateAndNothingIsStored() {
        Struct request = upsert(alterRequest(), "alice", SHA_256, 8192, "alice-secret");
        upsert(request, "alice", SHA_512, 4096, "x");

        assertThat(results(alter(request))).extracting(r -> tuple(r)).containsExactly(
                result("alice", ErrorCode.DUPLICATE_RESOURCE, "A user credential cannot be altered twice in the same request"));
        assertThat(store.scramCredentials()).isEmpty();
    }

    @Test
    void aDeletionAndAnUpsertionForOneUserAreRefusedAsDuplicateWhileOtherUsersChange() {
        alter(upsert(alterRequest(), "alice", SHA_256, 4096, "old"));
        Struct request = delete(alterRequest(), "alice", SHA_256);
        upsert(request, "alice", SHA_512, 4096, "new");
        upsert(request, "bob", SHA_512, 4096, "b");

        assertThat(results(alter(request))).extracting(r -> tuple(r)).containsExactly(
                result("bob", ErrorCode.NONE, null),
                result("alice", ErrorCode.DUPLICATE_RESOURCE, "A user credential cannot be altered twice in the same request"));
        assertThat(store.scramCredentials().get("alice")).containsOnlyKeys(ScramMechanism.SCRAM_SHA_256);
        assertThat(store.scramCredentials().get("bob")).containsOnlyKeys(ScramMechanism.SCRAM_SHA_512);
    }

    @Test
    void iterationsOutsideKafkasBoundsAreUnacceptable() {
        Struct request = upsert(alterRequest(), "few", SHA_256, 4095, "p");
        upsert(request, "many", SHA_512, 16385, "p");
        upsert(request, "least", SHA_256, 4096, "p");
        upsert(request, "most", SHA_512, 16384, "p");

        assertThat(results(alter(request))).extracting(r -> tuple(r)).containsExactlyInAnyOrder(
                result("few", ErrorCode.UNACCEPTABLE_CREDENTIAL, "Too few iterations"),
                result("many", ErrorCode.UNACCEPTABLE_CREDENTIAL, "Too many iterations"),
                result("least", ErrorCode.NONE, null),
                result("most", ErrorCode.NONE, null));
        assertThat(store.scramCredentials()).containsOnlyKeys("least", "most");
    }

    @Test
    void anEmptyUserNameIsUnacceptableAndAnUnknownMechanismUnsupported() {
        Struct request = upsert(alterRequest(), "", SHA_256, 4096, "p");
        upsert(request, "carol", (byte) 0, 4096, "p");
        delete(request, "dave", (byte) 3);

        assertThat(results(alter(request))).extracting(r -> tuple(r)).containsExactlyInAnyOrder(
                result("", ErrorCode.UNACCEPTABLE_CREDENTIAL, "Username must not be empty"),
                result("carol", ErrorCode.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism"),
                result("dave", ErrorCode.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism"));
        assertThat(store.scramCredentials()).isEmpty();
    }

    @Test
    void deletingACredentialRemovesOnlyThatMechanism() {
        alter(upsert(alterRequest(), "alice", SHA_256, 4096, "a"));
        alter(upsert(alterRequest(), "alice", SHA_512, 4096, "a"));

        assertThat(results(alter(delete(alterRequest(), "alice", SHA_256)))).extracting(r -> tuple(r))
                .containsExactly(result("alice", ErrorCode.NONE, null));
        assertThat(described(describe(describeRequest("alice")))).containsExactly("alice: SCRAM-SHA-512=4096");

        alter(delete(alterRequest(), "alice", SHA_512));
        assertThat(described(describe(describeRequest("alice")))).containsExactly(
                "alice: RESOURCE_NOT_FOUND Attempt to describe a user credential that does not exist: alice");
    }

    @Test
    void deletingACredentialTheUserDoesNotHaveIsNotFound() {
        alter(upsert(alterRequest(), "alice", SHA_256, 4096, "a"));
        Struct request = delete(alterRequest(), "alice", SHA_512);
        delete(request, "nobody", SHA_256);

        assertThat(results(alter(request))).extracting(r -> tuple(r)).containsExactlyInAnyOrder(
                result("alice", ErrorCode.RESOURCE_NOT_FOUND, "Attempt to delete a user credential that does not exist"),
                result("nobody", ErrorCode.RESOURCE_NOT_FOUND, "Attempt to delete a user credential that does not exist"));
        assertThat(store.scramCredentials().get("alice")).containsOnlyKeys(ScramMechanism.SCRAM_SHA_256);
    }

    @Test
    void answersListDeletionsThenUpsertionsThenRefusals() {
        alter(upsert(alterRequest(), "dora", SHA_256, 4096, "d"));
        Struct request = upsert(alterRequest(), "uma", SHA_256, 4096, "u");
        upsert(request, "rick", SHA_256, 1, "r");
        delete(request, "dora", SHA_256);

        assertThat(results(alter(request))).extracting(r -> tuple(r)).containsExactly(
                result("dora", ErrorCode.NONE, null),
                result("uma", ErrorCode.NONE, null),
                result("rick", ErrorCode.UNACCEPTABLE_CREDENTIAL, "Too few iterations"));
    }

    @Test
    void anEmptySaltedPasswordIsAnUnknownServerErrorWithoutMessageAsInKafka() {
        Struct request = alterRequest();
        request.add(AlterUserScramCredentialsApi.Request.UPSERTIONS)
                .set(ScramCredentialUpsertion.NAME, "alice")
                .set(ScramCredentialUpsertion.MECHANISM, SHA_256)
                .set(ScramCredentialUpsertion.ITERATIONS, 4096)
                .set(ScramCredentialUpsertion.SALT, SALT)
                .set(ScramCredentialUpsertion.SALTED_PASSWORD, new byte[0]);

        assertThat(results(alter(request))).extracting(r -> tuple(r)).containsExactly(
                result("alice", ErrorCode.UNKNOWN_SERVER_ERROR, null));
        assertThat(store.scramCredentials()).isEmpty();
    }

    @Test
    void aFailedWriteAnswersEveryNamedUserSortedWithTheFailure() {
        InMemorySecurityMetadataStore failing = new InMemorySecurityMetadataStore() {
            @Override
            public synchronized CompletableFuture<Void> alterScramCredentials(List<ScramChange> changes) {
                return CompletableFuture.failedFuture(new MetadataException(ErrorCode.NOT_CONTROLLER, "no controller"));
            }
        };
        Struct request = upsert(alterRequest(), "zoe", SHA_256, 4096, "z");
        upsert(request, "adam", SHA_256, 4096, "a");
        upsert(request, "zoe", SHA_512, 4096, "z");

        Struct response = call(new AlterUserScramCredentialsHandler(failing), request, Session.PLAINTEXT_ANONYMOUS);

        assertThat(results(response)).extracting(r -> tuple(r)).containsExactly(
                result("adam", ErrorCode.NOT_CONTROLLER, "no controller"),
                result("zoe", ErrorCode.NOT_CONTROLLER, "no controller"));
    }

    // ---- authorization

    /** An authorizer that allows exactly the listed cluster operations and records what it was asked. */
    private static final class ClusterOnly implements Authorizer {
        final List<AclOperation> allowed;
        final List<String> asked = new ArrayList<>();

        ClusterOnly(AclOperation... allowed) {
            this.allowed = List.of(allowed);
        }

        @Override
        public boolean authorize(KafkaPrincipal principal, String host, AclOperation operation, ResourceType type, String name) {
            asked.add(principal + " " + host + " " + operation + " " + type + " " + name);
            return type == ResourceType.CLUSTER && allowed.contains(operation);
        }

        @Override
        public boolean authorizeAny(KafkaPrincipal principal, String host, AclOperation operation, ResourceType type) {
            return false;
        }

        @Override
        public boolean enabled() {
            return true;
        }
    }

    private static Session session(Authorizer authorizer) {
        return new Session(KafkaPrincipal.user("bob"), "SASL_PLAINTEXT", SecurityProtocol.SASL_PLAINTEXT,
                InetAddress.getLoopbackAddress(), authorizer);
    }

    @Test
    void describeNeedsDescribeOnTheCluster() {
        alter(upsert(alterRequest(), "alice", SHA_256, 4096, "a"));
        ClusterOnly denyAll = new ClusterOnly();

        Struct response = call(describe, describeRequest("alice", "carol"), session(denyAll));

        assertThat(denyAll.asked).containsExactly("User:bob 127.0.0.1 DESCRIBE CLUSTER kafka-cluster");
        assertThat(response.get(DescribeUserScramCredentialsApi.Response.ERROR_CODE))
                .isEqualTo(ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code());
        assertThat(response.get(DescribeUserScramCredentialsApi.Response.ERROR_MESSAGE)).isNull();
        // Kafka's error response: one result per requested name, the name itself left empty.
        assertThat(response.get(DescribeUserScramCredentialsApi.Response.RESULTS))
                .extracting(r -> r.get(DescribeUserScramCredentialsResult.USER), r -> r.get(DescribeUserScramCredentialsResult.ERROR_CODE),
                        r -> r.get(DescribeUserScramCredentialsResult.CREDENTIAL_INFOS))
                .containsExactly(tuple("", ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code(), List.of()),
                        tuple("", ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code(), List.of()));

        Struct all = call(describe, describeRequest(), session(denyAll));
        assertThat(all.get(DescribeUserScramCredentialsApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code());
        assertThat(all.get(DescribeUserScramCredentialsApi.Response.RESULTS)).isEmpty();

        assertThat(described(call(describe, describeRequest("alice"), session(new ClusterOnly(AclOperation.DESCRIBE)))))
                .containsExactly("alice: SCRAM-SHA-256=4096");
    }

    @Test
    void alterNeedsAlterOnTheClusterAndChangesNothingWithoutIt() {
        ClusterOnly describeOnly = new ClusterOnly(AclOperation.DESCRIBE);
        Struct request = upsert(alterRequest(), "zoe", SHA_256, 4096, "z");
        delete(request, "adam", SHA_256);

        Struct response = call(alter, request, session(describeOnly));

        assertThat(describeOnly.asked).containsExactly("User:bob 127.0.0.1 ALTER CLUSTER kafka-cluster");
        String message = "Request AlterUserScramCredentials needs ALTER permission.";
        assertThat(results(response)).extracting(r -> tuple(r)).containsExactly(
                result("adam", ErrorCode.CLUSTER_AUTHORIZATION_FAILED, message),
                result("zoe", ErrorCode.CLUSTER_AUTHORIZATION_FAILED, message));
        assertThat(store.scramCredentials()).isEmpty();

        assertThat(results(call(alter, upsert(alterRequest(), "zoe", SHA_256, 4096, "z"),
                session(new ClusterOnly(AclOperation.ALTER))))).extracting(r -> tuple(r))
                .containsExactly(result("zoe", ErrorCode.NONE, null));
        assertThat(store.scramCredentials()).containsOnlyKeys("zoe");
    }

    @Test
    void credentialsAreVisibleThroughTheStoreToWhateverListensForChanges() {
        List<Map<String, Map<ScramMechanism, ScramCredential>>> seen = new ArrayList<>();
        store.addListener(() -> seen.add(store.scramCredentials()));

        alter(upsert(alterRequest(), "alice", SHA_256, 4096, "a"));

        assertThat(seen).hasSize(1);
        assertThat(seen.get(0)).containsOnlyKeys("alice");
    }
}
