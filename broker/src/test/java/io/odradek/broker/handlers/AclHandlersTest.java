package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.CloseConnectionException;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.security.Session;
import io.odradek.replication.security.InMemorySecurityMetadataStore;
import io.odradek.security.KafkaPrincipal;
import io.odradek.security.SecurityProtocol;
import io.odradek.security.acl.AccessControlEntry;
import io.odradek.security.acl.AclAuthorizer;
import io.odradek.security.acl.AclBinding;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.AclPermissionType;
import io.odradek.security.acl.Authorizer;
import io.odradek.security.acl.PatternType;
import io.odradek.security.acl.ResourcePattern;
import io.odradek.security.acl.ResourceType;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.CreateAclsApi;
import io.odradek.wire.api.CreateAclsApi.Request.AclCreation;
import io.odradek.wire.api.DeleteAclsApi;
import io.odradek.wire.api.DeleteAclsApi.Request.DeleteAclsFilter;
import io.odradek.wire.api.DeleteAclsApi.Response.DeleteAclsFilterResult;
import io.odradek.wire.api.DeleteAclsApi.Response.DeleteAclsFilterResult.DeleteAclsMatchingAcl;
import io.odradek.wire.api.DescribeAclsApi;
import io.odradek.wire.api.DescribeAclsApi.Response.DescribeAclsResource;
import io.odradek.wire.api.DescribeAclsApi.Response.DescribeAclsResource.AclDescription;
import io.odradek.wire.header.RequestHeader;
import io.odradek.wire.schema.Struct;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** CreateAcls, DescribeAcls and DeleteAcls as Kafka 4.4 answers them, over an ACL store in memory. */
class AclHandlersTest {
    private static final byte TOPIC = ResourceType.TOPIC.code;
    private static final byte GROUP = ResourceType.GROUP.code;
    private static final byte CLUSTER = ResourceType.CLUSTER.code;
    private static final byte LITERAL = PatternType.LITERAL.code;
    private static final byte PREFIXED = PatternType.PREFIXED.code;

    private final InMemorySecurityMetadataStore store = new InMemorySecurityMetadataStore();
    private final AclAuthorizer authorizer = new AclAuthorizer(Set.of(KafkaPrincipal.user("admin")), false);
    private final CreateAclsHandler create = new CreateAclsHandler(store);
    private final DescribeAclsHandler describe = new DescribeAclsHandler(store);
    private final DeleteAclsHandler delete = new DeleteAclsHandler(store);

    AclHandlersTest() {
        store.addListener(() -> authorizer.refresh(store::acls));
    }

    private static Session session(String user, Authorizer authorizer) {
        return new Session(KafkaPrincipal.user(user), "PLAINTEXT", SecurityProtocol.PLAINTEXT,
                InetAddress.getLoopbackAddress(), authorizer);
    }

    private Struct call(ApiHandler handler, int version, Struct request, Session session) {
        ApiSpec api = handler.api();
        short v = (short) version;
        Struct decoded = AdminFixture.roundTrip(api.request(), request, v, api.isFlexible(v));
        RequestContext context = new RequestContext(new RequestHeader(api.key(), v, 1, "test"),
                new InetSocketAddress("127.0.0.1", 50000), UnpooledByteBufAllocator.DEFAULT,
                ImmediateEventExecutor.INSTANCE, ImmediateEventExecutor.INSTANCE.newPromise(), null, session);
        CompletableFuture<Struct> future = handler.handle(context, decoded);
        try {
            return AdminFixture.roundTrip(api.response(), future.get(10, TimeUnit.SECONDS), v, api.isFlexible(v));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private Struct asAdmin(ApiHandler handler, int version, Struct request) {
        return call(handler, version, request, session("admin", authorizer));
    }

    // ---- requests

    private static Struct creations(Object[]... acls) {
        Struct request = CreateAclsApi.Request.SCHEMA.newStruct();
        for (Object[] a : acls) {
            request.add(CreateAclsApi.Request.CREATIONS)
                    .set(AclCreation.RESOURCE_TYPE, (Byte) a[0])
                    .set(AclCreation.RESOURCE_NAME, (String) a[1])
                    .set(AclCreation.RESOURCE_PATTERN_TYPE, (Byte) a[2])
                    .set(AclCreation.PRINCIPAL, (String) a[3])
                    .set(AclCreation.HOST, (String) a[4])
                    .set(AclCreation.OPERATION, ((AclOperation) a[5]).code)
                    .set(AclCreation.PERMISSION_TYPE, ((AclPermissionType) a[6]).code);
        }
        return request;
    }

    private static Object[] acl(byte type, String name, byte pattern, String principal, AclOperation op,
            AclPermissionType permission) {
        return new Object[] {type, name, pattern, principal, "*", op, permission};
    }

    private static Struct describeRequest(ResourceType type, String name, PatternType pattern, String principal) {
        return DescribeAclsApi.Request.SCHEMA.newStruct()
                .set(DescribeAclsApi.Request.RESOURCE_TYPE_FILTER, type.code)
                .set(DescribeAclsApi.Request.RESOURCE_NAME_FILTER, name)
                .set(DescribeAclsApi.Request.PATTERN_TYPE_FILTER, pattern.code)
                .set(DescribeAclsApi.Request.PRINCIPAL_FILTER, principal)
                .set(DescribeAclsApi.Request.HOST_FILTER, null)
                .set(DescribeAclsApi.Request.OPERATION, AclOperation.ANY.code)
                .set(DescribeAclsApi.Request.PERMISSION_TYPE, AclPermissionType.ANY.code);
    }

    private static Struct describeAll() {
        return describeRequest(ResourceType.ANY, null, PatternType.ANY, null);
    }

    private static Struct deleteRequest(Object[]... filters) {
        Struct request = DeleteAclsApi.Request.SCHEMA.newStruct();
        for (Object[] f : filters) {
            request.add(DeleteAclsApi.Request.FILTERS)
                    .set(DeleteAclsFilter.RESOURCE_TYPE_FILTER, ((ResourceType) f[0]).code)
                    .set(DeleteAclsFilter.RESOURCE_NAME_FILTER, (String) f[1])
                    .set(DeleteAclsFilter.PATTERN_TYPE_FILTER, ((PatternType) f[2]).code)
                    .set(DeleteAclsFilter.PRINCIPAL_FILTER, (String) f[3])
                    .set(DeleteAclsFilter.HOST_FILTER, null)
                    .set(DeleteAclsFilter.OPERATION, AclOperation.ANY.code)
                    .set(DeleteAclsFilter.PERMISSION_TYPE, AclPermissionType.ANY.code);
        }
        return request;
    }

    private static List<org.assertj.core.groups.Tuple> results(Struct createResponse) {
        return createResponse.get(CreateAclsApi.Response.RESULTS).stream()
                .map(r -> tuple(r.get(CreateAclsApi.Response.AclCreationResult.ERROR_CODE),
                        r.get(CreateAclsApi.Response.AclCreationResult.ERROR_MESSAGE)))
                .toList();
    }

    /** (resource type, name, pattern type, principal, operation) of every ACL a DescribeAcls answer lists. */
    private static List<org.assertj.core.groups.Tuple> listed(Struct describeResponse) {
        assertThat(describeResponse.get(DescribeAclsApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.NONE.code());
        return describeResponse.get(DescribeAclsApi.Response.RESOURCES).stream()
                .flatMap(r -> r.get(DescribeAclsResource.ACLS).stream()
                        .map(a -> tuple(r.get(DescribeAclsResource.RESOURCE_TYPE), r.get(DescribeAclsResource.RESOURCE_NAME),
                                r.get(DescribeAclsResource.PATTERN_TYPE), a.get(AclDescription.PRINCIPAL),
                                a.get(AclDescription.OPERATION))))
                .toList();
    }

    private static AclBinding binding(ResourceType type, String name, PatternType pattern, String principal,
            AclOperation op) {
        return new AclBinding(new ResourcePattern(type, name, pattern),
                new AccessControlEntry(principal, "*", op, AclPermissionType.ALLOW));
    }

    // ---- tests

    @Test
    void withoutAuthorizerEveryAclApiAnswersSecurityDisabled() {
        Session anonymous = Session.PLAINTEXT_ANONYMOUS;
        Struct created = call(create, 3, creations(acl(TOPIC, "t", LITERAL, "User:a", AclOperation.READ,
                AclPermissionType.ALLOW), acl(TOPIC, "u", LITERAL, "User:a", AclOperation.READ, AclPermissionType.ALLOW)),
                anonymous);
        assertThat(results(created)).containsExactly(
                tuple(ErrorCode.SECURITY_DISABLED.code(), "No Authorizer is configured."),
                tuple(ErrorCode.SECURITY_DISABLED.code(), "No Authorizer is configured."));
        Struct described = call(describe, 3, describeAll(), anonymous);
        assertThat(described.get(DescribeAclsApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.SECURITY_DISABLED.code());
        assertThat(described.get(DescribeAclsApi.Response.ERROR_MESSAGE)).isEqualTo("No Authorizer is configured on the broker");
        Struct deleted = call(delete, 3, deleteRequest(new Object[] {ResourceType.ANY, null, PatternType.ANY, null}),
                anonymous);
        assertThat(deleted.get(DeleteAclsApi.Response.FILTER_RESULTS)).extracting(
                r -> r.get(DeleteAclsFilterResult.ERROR_CODE), r -> r.get(DeleteAclsFilterResult.ERROR_MESSAGE))
                .containsExactly(tuple(ErrorCode.SECURITY_DISABLED.code(), "No Authorizer is configured."));
        assertThat(store.acls()).isEmpty();
    }

    @Test
    void withoutClusterAlterCreateAndDeleteAreRefusedAndWithoutDescribeSoIsDescribe() {
        store.createAcls(List.of(binding(ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL, "User:viewer",
                AclOperation.DESCRIBE))).join();
        Session viewer = session("viewer", authorizer);
        Session nobody = session("nobody", authorizer);
        Struct created = call(create, 2, creations(acl(TOPIC, "t", LITERAL, "User:viewer", AclOperation.READ,
                AclPermissionType.ALLOW)), viewer);
        assertThat(results(created)).containsExactly(
                tuple(ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code(), "Cluster authorization failed."));
        Struct deleted = call(delete, 2, deleteRequest(new Object[] {ResourceType.ANY, null, PatternType.ANY, null}), viewer);
        assertThat(deleted.get(DeleteAclsApi.Response.FILTER_RESULTS)).extracting(r -> r.get(DeleteAclsFilterResult.ERROR_CODE))
                .containsExactly(ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code());
        assertThat(deleted.get(DeleteAclsApi.Response.FILTER_RESULTS).get(0).get(DeleteAclsFilterResult.MATCHING_ACLS)).isEmpty();
        assertThat(listed(call(describe, 2, describeAll(), viewer))).containsExactly(
                tuple(CLUSTER, "kafka-cluster", LITERAL, "User:viewer", AclOperation.DESCRIBE.code));
        Struct refused = call(describe, 2, describeAll(), nobody);
        assertThat(refused.get(DescribeAclsApi.Response.ERROR_CODE)).isEqualTo(ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code());
        assertThat(refused.get(DescribeAclsApi.Response.RESOURCES)).isEmpty();
        assertThat(store.acls()).hasSize(1);
    }

    @Test
    void createdAclsAreStoredAndAuthorizeAtOnceAndBadOnesAnsweredAlone() {
        Struct created = asAdmin(create, 3, creations(
                acl(TOPIC, "orders", LITERAL, "User:alice", AclOperation.WRITE, AclPermissionType.ALLOW),
                acl(CLUSTER, "my-cluster", LITERAL, "User:alice", AclOperation.ALTER, AclPermissionType.ALLOW),
                acl(GROUP, "app-", PREFIXED, "User:alice", AclOperation.READ, AclPermissionType.ALLOW),
                acl(TOPIC, "x", LITERAL, "alice", AclOperation.READ, AclPermissionType.ALLOW),
                acl(TOPIC, "x", PatternType.MATCH.code, "User:alice", AclOperation.READ, AclPermissionType.ALLOW),
                acl(TOPIC, "x", LITERAL, "User:alice", AclOperation.ANY, AclPermissionType.ALLOW),
                acl(ResourceType.ANY.code, "x", LITERAL, "User:alice", AclOperation.READ, AclPermissionType.ALLOW),
                acl(TOPIC, "x", LITERAL, "User:alice", AclOperation.READ, AclPermissionType.ANY)));
        assertThat(results(created)).containsExactly(
                tuple(ErrorCode.NONE.code(), null),
                tuple(ErrorCode.INVALID_REQUEST.code(), "The only valid name for the CLUSTER resource is kafka-cluster"),
                tuple(ErrorCode.NONE.code(), null),
                tuple(ErrorCode.INVALID_REQUEST.code(), "Could not parse principal from `alice` (no colon is present"
                        + " separating the principal type from the principal name)"),
                tuple(ErrorCode.INVALID_REQUEST.code(), "Invalid patternType MATCH"),
                tuple(ErrorCode.INVALID_REQUEST.code(), "Invalid operation ANY"),
                tuple(ErrorCode.INVALID_REQUEST.code(), "Invalid resourceType ANY"),
                tuple(ErrorCode.INVALID_REQUEST.code(), "Invalid permissionType ANY"));
        assertThat(store.acls()).containsExactly(
                binding(ResourceType.TOPIC, "orders", PatternType.LITERAL, "User:alice", AclOperation.WRITE),
                binding(ResourceType.GROUP, "app-", PatternType.PREFIXED, "User:alice", AclOperation.READ));
        Session alice = session("alice", authorizer);
        assertThat(alice.authorized(AclOperation.WRITE, ResourceType.TOPIC, "orders")).isTrue();
        assertThat(alice.authorized(AclOperation.READ, ResourceType.GROUP, "app-billing")).isTrue();
        assertThat(alice.authorized(AclOperation.READ, ResourceType.TOPIC, "orders")).isFalse();
        // the same ACL again: success, stored once
        assertThat(results(asAdmin(create, 3, creations(acl(TOPIC, "orders", LITERAL, "User:alice",
                AclOperation.WRITE, AclPermissionType.ALLOW))))).containsExactly(tuple(ErrorCode.NONE.code(), null));
        assertThat(store.acls()).hasSize(2);
    }

    @Test
    void describeGroupsByPatternAndSelectsWithMatchAndPrincipal() {
        asAdmin(create, 3, creations(
                acl(TOPIC, "orders", LITERAL, "User:alice", AclOperation.WRITE, AclPermissionType.ALLOW),
                acl(TOPIC, "ord", PREFIXED, "User:bob", AclOperation.READ, AclPermissionType.ALLOW),
                acl(TOPIC, "*", LITERAL, "User:carol", AclOperation.DESCRIBE, AclPermissionType.ALLOW),
                acl(TOPIC, "orders", LITERAL, "User:bob", AclOperation.READ, AclPermissionType.DENY),
                acl(TOPIC, "payments", LITERAL, "User:alice", AclOperation.READ, AclPermissionType.ALLOW),
                acl(GROUP, "orders", LITERAL, "User:alice", AclOperation.READ, AclPermissionType.ALLOW)));
        Struct all = asAdmin(describe, 3, describeAll());
        assertThat(all.get(DescribeAclsApi.Response.RESOURCES)).extracting(r -> r.get(DescribeAclsResource.RESOURCE_NAME),
                r -> r.get(DescribeAclsResource.ACLS).size())
                .containsExactly(tuple("orders", 2), tuple("ord", 1), tuple("*", 1), tuple("payments", 1), tuple("orders", 1));
        assertThat(listed(asAdmin(describe, 3, describeRequest(ResourceType.TOPIC, "orders", PatternType.MATCH, null))))
                .containsExactly(
                        tuple(TOPIC, "orders", LITERAL, "User:alice", AclOperation.WRITE.code),
                        tuple(TOPIC, "orders", LITERAL, "User:bob", AclOperation.READ.code),
                        tuple(TOPIC, "ord", PREFIXED, "User:bob", AclOperation.READ.code),
                        tuple(TOPIC, "*", LITERAL, "User:carol", AclOperation.DESCRIBE.code));
        assertThat(listed(asAdmin(describe, 3, describeRequest(ResourceType.ANY, null, PatternType.ANY, "User:alice"))))
                .containsExactly(
                        tuple(TOPIC, "orders", LITERAL, "User:alice", AclOperation.WRITE.code),
                        tuple(TOPIC, "payments", LITERAL, "User:alice", AclOperation.READ.code),
                        tuple(GROUP, "orders", LITERAL, "User:alice", AclOperation.READ.code));
        Struct permission = all.get(DescribeAclsApi.Response.RESOURCES).get(0);
        assertThat(permission.get(DescribeAclsResource.ACLS)).extracting(a -> a.get(AclDescription.HOST),
                a -> a.get(AclDescription.PERMISSION_TYPE)).containsExactly(
                tuple("*", AclPermissionType.ALLOW.code), tuple("*", AclPermissionType.DENY.code));
    }

    @Test
    void deleteRemovesWhatEachFilterMatchesListingSharedAclsUnderEveryFilter() {
        asAdmin(create, 3, creations(
                acl(TOPIC, "orders", LITERAL, "User:alice", AclOperation.WRITE, AclPermissionType.ALLOW),
                acl(TOPIC, "ord", PREFIXED, "User:bob", AclOperation.READ, AclPermissionType.ALLOW),
                acl(GROUP, "g", LITERAL, "User:bob", AclOperation.READ, AclPermissionType.ALLOW)));
        Struct deleted = asAdmin(delete, 3, deleteRequest(
                new Object[] {ResourceType.TOPIC, "orders", PatternType.MATCH, null},
                new Object[] {ResourceType.ANY, null, PatternType.ANY, "User:alice"},
                new Object[] {ResourceType.TRANSACTIONAL_ID, null, PatternType.ANY, null}));
        List<Struct> results = deleted.get(DeleteAclsApi.Response.FILTER_RESULTS);
        assertThat(results).extracting(r -> r.get(DeleteAclsFilterResult.ERROR_CODE)).containsOnly(ErrorCode.NONE.code());
        assertThat(results.get(0).get(DeleteAclsFilterResult.MATCHING_ACLS)).extracting(
                m -> m.get(DeleteAclsMatchingAcl.RESOURCE_NAME), m -> m.get(DeleteAclsMatchingAcl.PATTERN_TYPE),
                m -> m.get(DeleteAclsMatchingAcl.PRINCIPAL), m -> m.get(DeleteAclsMatchingAcl.OPERATION),
                m -> m.get(DeleteAclsMatchingAcl.ERROR_CODE))
                .containsExactly(tuple("orders", LITERAL, "User:alice", AclOperation.WRITE.code, ErrorCode.NONE.code()),
                        tuple("ord", PREFIXED, "User:bob", AclOperation.READ.code, ErrorCode.NONE.code()));
        assertThat(results.get(1).get(DeleteAclsFilterResult.MATCHING_ACLS)).extracting(
                m -> m.get(DeleteAclsMatchingAcl.RESOURCE_NAME)).containsExactly("orders");
        assertThat(results.get(2).get(DeleteAclsFilterResult.MATCHING_ACLS)).isEmpty();
        assertThat(store.acls()).containsExactly(
                binding(ResourceType.GROUP, "g", PatternType.LITERAL, "User:bob", AclOperation.READ));
        assertThat(session("alice", authorizer).authorized(AclOperation.WRITE, ResourceType.TOPIC, "orders")).isFalse();
    }

    @Test
    void version0HasNoPatternTypeSoItCreatesAndSelectsLiteralAclsOnly() {
        asAdmin(create, 3, creations(acl(TOPIC, "ord", PREFIXED, "User:bob", AclOperation.READ, AclPermissionType.ALLOW)));
        Struct created = asAdmin(create, 0, creations(acl(TOPIC, "orders", PREFIXED, "User:alice",
                AclOperation.WRITE, AclPermissionType.ALLOW))); // the pattern type is not sent at v0
        assertThat(results(created)).containsExactly(tuple(ErrorCode.NONE.code(), null));
        assertThat(store.acls()).contains(binding(ResourceType.TOPIC, "orders", PatternType.LITERAL, "User:alice",
                AclOperation.WRITE));
        assertThat(listed(asAdmin(describe, 0, describeRequest(ResourceType.ANY, null, PatternType.ANY, null))))
                .containsExactly(tuple(TOPIC, "orders", LITERAL, "User:alice", AclOperation.WRITE.code));
        Struct deleted = asAdmin(delete, 0, deleteRequest(new Object[] {ResourceType.ANY, null, PatternType.ANY, null}));
        assertThat(deleted.get(DeleteAclsApi.Response.FILTER_RESULTS).get(0).get(DeleteAclsFilterResult.MATCHING_ACLS))
                .extracting(m -> m.get(DeleteAclsMatchingAcl.RESOURCE_NAME)).containsExactly("orders");
        assertThat(store.acls()).containsExactly(binding(ResourceType.TOPIC, "ord", PatternType.PREFIXED, "User:bob",
                AclOperation.READ));
    }

    @Test
    void unknownCodesCloseTheConnectionAsKafkasParserDoes() {
        Struct badType = creations(new Object[] {(byte) 42, "t", LITERAL, "User:a", "*", AclOperation.READ,
                AclPermissionType.ALLOW});
        assertThatThrownBy(() -> asAdmin(create, 3, badType)).isInstanceOf(CloseConnectionException.class);
        Struct badOp = describeAll().set(DescribeAclsApi.Request.OPERATION, AclOperation.UNKNOWN.code);
        assertThatThrownBy(() -> asAdmin(describe, 3, badOp)).isInstanceOf(CloseConnectionException.class);
        Struct badPattern = deleteRequest(new Object[] {ResourceType.ANY, null, PatternType.UNKNOWN, null});
        assertThatThrownBy(() -> asAdmin(delete, 3, badPattern)).isInstanceOf(CloseConnectionException.class);
    }

    @Test
    void aFailedStoreWriteIsEveryAcceptedCreationsError() {
        InMemorySecurityMetadataStore failing = new InMemorySecurityMetadataStore() {
            @Override
            public synchronized CompletableFuture<Void> createAcls(List<AclBinding> added) {
                return CompletableFuture.failedFuture(new TimeoutException("no quorum"));
            }
        };
        Struct created = call(new CreateAclsHandler(failing), 3, creations(
                acl(TOPIC, "t", LITERAL, "User:a", AclOperation.READ, AclPermissionType.ALLOW),
                acl(TOPIC, "", LITERAL, "User:a", AclOperation.READ, AclPermissionType.ALLOW)),
                session("admin", authorizer));
        assertThat(results(created)).containsExactly(tuple(ErrorCode.REQUEST_TIMED_OUT.code(), "no quorum"),
                tuple(ErrorCode.INVALID_REQUEST.code(), "Invalid empty resource name"));
    }
}
