package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.replication.security.SecurityMetadataStore;
import io.odradek.security.acl.AclBinding;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.AclRules;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.CreateAclsApi;
import io.odradek.wire.api.CreateAclsApi.Request.AclCreation;
import io.odradek.wire.api.CreateAclsApi.Response;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * CreateAcls (key 30), versions 0-3 (v2+ flexible; v0, which Kafka 4.0 dropped, has no pattern type: LITERAL),
 * what {@code kafka-acls --add} and Admin.createAcls send. As Kafka 4.4 (AclApis on the controller, then
 * AclControlManager):
 * <ul>
 * <li>without ALTER on the cluster every creation is answered CLUSTER_AUTHORIZATION_FAILED; without an
 *     authorizer ({@code authorizer.class.name} unset) SECURITY_DISABLED "No Authorizer is configured.";</li>
 * <li>an unknown resource type, pattern type, operation or permission code closes the connection (Kafka's
 *     request fails to parse);</li>
 * <li>each creation is checked alone ({@link AclRules#creationProblem}: the CLUSTER resource's only name
 *     {@code kafka-cluster}, no empty name, no ANY/MATCH, a {@code Type:name} principal, a host that is
 *     {@code *}, an address or a CIDR block) and a bad one answered INVALID_REQUEST with Kafka's message;</li>
 * <li>the accepted ones are added to the cluster metadata in one change (an ACL that exists already is not
 *     added twice and still answers success); the answer follows the store's future, so the event loop never
 *     waits for a disk or the quorum; a failed write is every accepted creation's error.</li>
 * </ul>
 */
public final class CreateAclsHandler implements ApiHandler {
    private final SecurityMetadataStore store;

    public CreateAclsHandler(SecurityMetadataStore store) {
        this.store = store;
    }

    @Override
    public ApiSpec api() {
        return CreateAclsApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        List<Struct> creations = request.get(CreateAclsApi.Request.CREATIONS);
        List<AclBinding> bindings = new ArrayList<>(creations.size());
        for (Struct c : creations) {
            bindings.add(AclRequests.binding("CreateAcls", c.get(AclCreation.RESOURCE_TYPE),
                    c.get(AclCreation.RESOURCE_NAME), c.get(AclCreation.RESOURCE_PATTERN_TYPE),
                    c.get(AclCreation.PRINCIPAL), c.get(AclCreation.HOST), c.get(AclCreation.OPERATION),
                    c.get(AclCreation.PERMISSION_TYPE)));
        }
        AclRequests.Refusal refusal = AclRequests.refusal(context, AclOperation.ALTER, "No Authorizer is configured.");
        ErrorCode[] errors = new ErrorCode[bindings.size()];
        String[] messages = new String[bindings.size()];
        if (refusal != null) {
            Arrays.fill(errors, refusal.error());
            Arrays.fill(messages, refusal.message());
            return CompletableFuture.completedFuture(response(errors, messages));
        }
        List<AclBinding> valid = new ArrayList<>();
        List<Integer> validAt = new ArrayList<>();
        for (int i = 0; i < bindings.size(); i++) {
            String problem = AclRules.creationProblem(bindings.get(i));
            if (problem != null) {
                errors[i] = ErrorCode.INVALID_REQUEST;
                messages[i] = problem;
            } else {
                errors[i] = ErrorCode.NONE;
                valid.add(bindings.get(i));
                validAt.add(i);
            }
        }
        if (valid.isEmpty()) {
            return CompletableFuture.completedFuture(response(errors, messages));
        }
        return store.createAcls(valid).handle((ok, failure) -> {
            if (failure != null) {
                for (int i : validAt) {
                    errors[i] = ControllerFailures.error(failure);
                    messages[i] = ControllerFailures.message(failure);
                }
            }
            return response(errors, messages);
        });
    }

    private static Struct response(ErrorCode[] errors, String[] messages) {
        Struct response = Response.SCHEMA.newStruct();
        for (int i = 0; i < errors.length; i++) {
            response.add(Response.RESULTS)
                    .set(Response.AclCreationResult.ERROR_CODE, errors[i].code())
                    .set(Response.AclCreationResult.ERROR_MESSAGE, messages[i]);
        }
        return response;
    }
}
