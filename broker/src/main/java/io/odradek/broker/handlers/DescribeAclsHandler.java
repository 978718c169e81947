package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.replication.security.SecurityMetadataStore;
import io.odradek.security.acl.AccessControlEntry;
import io.odradek.security.acl.AclBinding;
import io.odradek.security.acl.AclBindingFilter;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourcePattern;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DescribeAclsApi;
import io.odradek.wire.api.DescribeAclsApi.Request;
import io.odradek.wire.api.DescribeAclsApi.Response;
import io.odradek.wire.api.DescribeAclsApi.Response.DescribeAclsResource;
import io.odradek.wire.schema.Struct;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * DescribeAcls (key 29), versions 0-3 (v2+ flexible; v0, which Kafka 4.0 dropped, has no pattern type: its
 * filter is LITERAL), what {@code kafka-acls --list} and Admin.describeAcls send. As Kafka 4.4 (AclApis):
 * <ul>
 * <li>without DESCRIBE on the cluster: CLUSTER_AUTHORIZATION_FAILED; without an authorizer: SECURITY_DISABLED
 *     "No Authorizer is configured on the broker";</li>
 * <li>an unknown resource type, pattern type, operation or permission code closes the connection (Kafka's
 *     request fails to parse);</li>
 * <li>otherwise every ACL the filter matches ({@link AclBindingFilter#matches}: MATCH selects the literal,
 *     wildcard and prefixed patterns that apply to the named resource), grouped by resource pattern. Kafka
 *     groups them in a hash map; here patterns come in the order their first ACL was created, and each
 *     pattern's entries in creation order.</li>
 * </ul>
 * The ACLs are read from the cluster metadata as this broker has applied it.
 */
public final class DescribeAclsHandler implements ApiHandler {
    private final SecurityMetadataStore store;

    public DescribeAclsHandler(SecurityMetadataStore store) {
        this.store = store;
    }

    @Override
    public ApiSpec api() {
        return DescribeAclsApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        AclBindingFilter filter = AclRequests.filter("DescribeAcls", request.get(Request.RESOURCE_TYPE_FILTER),
                request.get(Request.RESOURCE_NAME_FILTER), request.get(Request.PATTERN_TYPE_FILTER),
                request.get(Request.PRINCIPAL_FILTER), request.get(Request.HOST_FILTER), request.get(Request.OPERATION),
                request.get(Request.PERMISSION_TYPE));
        Struct response = Response.SCHEMA.newStruct();
        AclRequests.Refusal refusal = AclRequests.refusal(context, AclOperation.DESCRIBE,
                "No Authorizer is configured on the broker");
        if (refusal != null) {
            return CompletableFuture.completedFuture(response.set(Response.ERROR_CODE, refusal.error().code())
                    .set(Response.ERROR_MESSAGE, refusal.message()));
        }
        Map<ResourcePattern, Set<AccessControlEntry>> byPattern = new LinkedHashMap<>();
        for (AclBinding acl : store.acls()) {
            if (filter.matches(acl)) {
                byPattern.computeIfAbsent(acl.pattern(), p -> new LinkedHashSet<>()).add(acl.entry());
            }
        }
        response.set(Response.ERROR_CODE, ErrorCode.NONE.code()).set(Response.ERROR_MESSAGE, null);
        for (Map.Entry<ResourcePattern, Set<AccessControlEntry>> e : byPattern.entrySet()) {
            ResourcePattern pattern = e.getKey();
            Struct resource = response.add(Response.RESOURCES)
                    .set(DescribeAclsResource.RESOURCE_TYPE, pattern.type().code)
                    .set(DescribeAclsResource.RESOURCE_NAME, pattern.name())
                    .set(DescribeAclsResource.PATTERN_TYPE, pattern.patternType().code);
            for (AccessControlEntry entry : e.getValue()) {
                resource.add(DescribeAclsResource.ACLS)
                        .set(DescribeAclsResource.AclDescription.PRINCIPAL, entry.principal())
                        .set(DescribeAclsResource.AclDescription.HOST, entry.host())
                        .set(DescribeAclsResource.AclDescription.OPERATION, entry.operation().code)
                        .set(DescribeAclsResource.AclDescription.PERMISSION_TYPE, entry.permission().code);
            }
        }
        return CompletableFuture.completedFuture(response);
    }
}
