package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.replication.security.SecurityMetadataStore;
import io.odradek.security.acl.AclBinding;
import io.odradek.security.acl.AclBindingFilter;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.AclRules;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DeleteAclsApi;
import io.odradek.wire.api.DeleteAclsApi.Request.DeleteAclsFilter;
import io.odradek.wire.api.DeleteAclsApi.Response;
import io.odradek.wire.api.DeleteAclsApi.Response.DeleteAclsFilterResult;
import io.odradek.wire.api.DeleteAclsApi.Response.DeleteAclsFilterResult.DeleteAclsMatchingAcl;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * DeleteAcls (key 31), versions 0-3 (v2+ flexible; v0, which Kafka 4.0 dropped, has no pattern type: its
 * filters are LITERAL), what {@code kafka-acls --remove} and Admin.deleteAcls send. As Kafka 4.4 (AclApis on the
 * controller, then AclControlManager):
 * <ul>
 * <li>without ALTER on the cluster every filter is answered CLUSTER_AUTHORIZATION_FAILED; without an
 *     authorizer SECURITY_DISABLED "No Authorizer is configured.";</li>
 * <li>an unknown resource type, pattern type, operation or permission code closes the connection (Kafka's
 *     request fails to parse);</li>
 * <li>every ACL any filter matches is removed from the cluster metadata in one atomic change (the filters
 *     are evaluated by the store, so concurrent deletes cannot both remove one ACL); each filter is answered
 *     with the ACLs it matched (an ACL two filters match is listed under both), each with error NONE;</li>
 * <li>the answer follows the store's future (the event loop never waits for a disk or the quorum); a failed
 *     write is every filter's error, with no ACL listed.</li>
 * </ul>
 */
public final class DeleteAclsHandler implements ApiHandler {
    private final SecurityMetadataStore store;

    public DeleteAclsHandler(SecurityMetadataStore store) {
        this.store = store;
    }

    @Override
    public ApiSpec api() {
        return DeleteAclsApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        List<AclBindingFilter> filters = new ArrayList<>();
        for (Struct f : request.get(DeleteAclsApi.Request.FILTERS)) {
            filters.add(AclRequests.filter("DeleteAcls", f.get(DeleteAclsFilter.RESOURCE_TYPE_FILTER),
                    f.get(DeleteAclsFilter.RESOURCE_NAME_FILTER), f.get(DeleteAclsFilter.PATTERN_TYPE_FILTER),
                    f.get(DeleteAclsFilter.PRINCIPAL_FILTER), f.get(DeleteAclsFilter.HOST_FILTER),
                    f.get(DeleteAclsFilter.OPERATION), f.get(DeleteAclsFilter.PERMISSION_TYPE)));
        }
        AclRequests.Refusal refusal = AclRequests.refusal(context, AclOperation.ALTER, "No Authorizer is configured.");
        if (refusal != null) {
            return CompletableFuture.completedFuture(everyFilter(filters.size(), refusal.error(), refusal.message()));
        }
        // Kafka's controller answers a filter with an unknown part alone (unreachable from the wire, where such
        // codes close the connection, but kept so the rule holds whoever builds the filters).
        List<String> problems = new ArrayList<>();
        List<AclBindingFilter> valid = new ArrayList<>();
        for (AclBindingFilter f : filters) {
            String problem = AclRules.filterProblem(f);
            problems.add(problem);
            if (problem == null) {
                valid.add(f);
            }
        }
        if (valid.isEmpty()) {
            return CompletableFuture.completedFuture(response(problems, List.of()));
        }
        return store.deleteAcls(valid).handle((removed, failure) -> failure == null ? response(problems, removed)
                : everyFilter(filters.size(), ControllerFailures.error(failure), ControllerFailures.message(failure)));
    }

    private static Struct everyFilter(int count, ErrorCode error, String message) {
        Struct response = Response.SCHEMA.newStruct();
        for (int i = 0; i < count; i++) {
            response.add(Response.FILTER_RESULTS)
                    .set(DeleteAclsFilterResult.ERROR_CODE, error.code())
                    .set(DeleteAclsFilterResult.ERROR_MESSAGE, message);
        }
        return response;
    }

    /** Per filter: its problem (INVALID_REQUEST), or the next list of {@code removed}. */
    private static Struct response(List<String> problems, List<List<AclBinding>> removed) {
        Struct response = Response.SCHEMA.newStruct();
        int next = 0;
        for (String problem : problems) {
            Struct result = response.add(Response.FILTER_RESULTS);
            if (problem != null) {
                result.set(DeleteAclsFilterResult.ERROR_CODE, ErrorCode.INVALID_REQUEST.code())
                        .set(DeleteAclsFilterResult.ERROR_MESSAGE, problem);
                continue;
            }
            result.set(DeleteAclsFilterResult.ERROR_CODE, ErrorCode.NONE.code())
                    .set(DeleteAclsFilterResult.ERROR_MESSAGE, null);
            for (AclBinding acl : removed.get(next++)) {
                result.add(DeleteAclsFilterResult.MATCHING_ACLS)
                        .set(DeleteAclsMatchingAcl.ERROR_CODE, ErrorCode.NONE.code())
                        .set(DeleteAclsMatchingAcl.ERROR_MESSAGE, null)
                        .set(DeleteAclsMatchingAcl.RESOURCE_TYPE, acl.pattern().type().code)
                        .set(DeleteAclsMatchingAcl.RESOURCE_NAME, acl.pattern().name())
                        .set(DeleteAclsMatchingAcl.PATTERN_TYPE, acl.pattern().patternType().code)
                        .set(DeleteAclsMatchingAcl.PRINCIPAL, acl.entry().principal())
                        .set(DeleteAclsMatchingAcl.HOST, acl.entry().host())
                        .set(DeleteAclsMatchingAcl.OPERATION, acl.entry().operation().code)
                        .set(DeleteAclsMatchingAcl.PERMISSION_TYPE, acl.entry().permission().code);
            }
        }
        return response;
    }
}
