package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.replication.security.SecurityMetadataStore;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.scram.ScramCredential;
import io.odradek.security.scram.ScramMechanism;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DescribeUserScramCredentialsApi;
import io.odradek.wire.api.DescribeUserScramCredentialsApi.Request;
import io.odradek.wire.api.DescribeUserScramCredentialsApi.Response;
import io.odradek.wire.api.DescribeUserScramCredentialsApi.Response.DescribeUserScramCredentialsResult;
import io.odradek.wire.api.DescribeUserScramCredentialsApi.Response.DescribeUserScramCredentialsResult.CredentialInfo;
import io.odradek.wire.schema.Struct;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * DescribeUserScramCredentials (key 50), version 0 (flexible): what {@code kafka-configs --describe
 * --entity-type users} and {@code Admin.describeUserScramCredentials} send. Answered from the
 * {@link SecurityMetadataStore}'s credentials as a Kafka 4.4 broker answers from its metadata image
 * (ScramImage.describe): only mechanisms and iteration counts, never salts or keys.
 * <ul>
 * <li>Users null or empty: every user that has a credential. Otherwise each distinct name once: a name given
 *     twice is answered DUPLICATE_RESOURCE "Cannot describe SCRAM credentials for the same user twice in a
 *     single request: NAME"; a name without credentials RESOURCE_NOT_FOUND "Attempt to describe a user
 *     credential that does not exist: NAME" (an empty name too).</li>
 * <li>Results come in the order of a HashMap of the names, as Kafka's: for named users exactly Kafka's order
 *     (checked against Kafka's ScramImage); for all users the same up to names that share a hash bucket,
 *     whose order in Kafka follows its metadata image's history. A user's credentials in mechanism order
 *     (SCRAM-SHA-256, then SCRAM-SHA-512), Kafka's order in its image too.</li>
 * <li>Needs DESCRIBE on the cluster (KafkaApis): otherwise CLUSTER_AUTHORIZATION_FAILED at the top level
 *     with no message and, as Kafka's error response builds it, one result per requested name carrying the
 *     same error and an empty user name (Kafka leaves the name unset). Kafka fails outright when Users is
 *     null there; Odradek answers the top-level error alone.</li>
 * </ul>
 */
public final class DescribeUserScramCredentialsHandler implements ApiHandler {
    static final String DUPLICATE_USER = "Cannot describe SCRAM credentials for the same user twice in a single request: ";
    static final String NO_SUCH_USER = "Attempt to describe a user credential that does not exist: ";

    private final SecurityMetadataStore store;

    public DescribeUserScramCredentialsHandler(SecurityMetadataStore store) {
        this.store = store;
    }

    @Override
    public ApiSpec api() {
        return DescribeUserScramCredentialsApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        List<Struct> users = request.get(Request.USERS);
        Struct response = Response.SCHEMA.newStruct().set(Response.THROTTLE_TIME_MS, 0);
        if (!context.session().authorizedOnCluster(AclOperation.DESCRIBE)) {
            response.set(Response.ERROR_CODE, ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code())
                    .set(Response.ERROR_MESSAGE, null);
            if (users != null) {
                for (int i = 0; i < users.size(); i++) {
                    response.add(Response.RESULTS)
                            .set(DescribeUserScramCredentialsResult.ERROR_CODE, ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code())
                            .set(DescribeUserScramCredentialsResult.ERROR_MESSAGE, null);
                }
            }
            return CompletableFuture.completedFuture(response);
        }

        Map<String, Map<ScramMechanism, ScramCredential>> credentials = store.scramCredentials();
        Map<String, Boolean> duplicated = new HashMap<>(); // name -> given twice; a HashMap for Kafka's order
        if (users == null || users.isEmpty()) {
            new TreeSet<>(credentials.keySet()).forEach(user -> duplicated.put(user, false)); // sorted: same every run
        } else {
            for (Struct user : users) {
                String name = user.get(Request.UserName.NAME);
                duplicated.put(name, duplicated.containsKey(name));
            }
        }
        for (Map.Entry<String, Boolean> user : duplicated.entrySet()) {
            String name = user.getKey();
            Struct result = response.add(Response.RESULTS).set(DescribeUserScramCredentialsResult.USER, name);
            Map<ScramMechanism, ScramCredential> mine = credentials.getOrDefault(name, Map.of());
            if (user.getValue()) {
                result.set(DescribeUserScramCredentialsResult.ERROR_CODE, ErrorCode.DUPLICATE_RESOURCE.code())
                        .set(DescribeUserScramCredentialsResult.ERROR_MESSAGE, DUPLICATE_USER + name);
            } else if (mine.isEmpty()) {
                result.set(DescribeUserScramCredentialsResult.ERROR_CODE, ErrorCode.RESOURCE_NOT_FOUND.code())
                        .set(DescribeUserScramCredentialsResult.ERROR_MESSAGE, NO_SUCH_USER + name);
            } else {
                for (ScramMechanism mechanism : ScramMechanism.values()) {
                    ScramCredential credential = mine.get(mechanism);
                    if (credential != null) {
                        result.add(DescribeUserScramCredentialsResult.CREDENTIAL_INFOS)
                                .set(CredentialInfo.MECHANISM, mechanism.type)
                                .set(CredentialInfo.ITERATIONS, credential.iterations());
                    }
                }
            }
        }
        return CompletableFuture.completedFuture(response);
    }
}
