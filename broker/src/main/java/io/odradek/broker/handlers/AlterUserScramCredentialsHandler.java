package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.replication.security.SecurityMetadataStore;
import io.odradek.replication.security.SecurityMetadataStore.ScramChange;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.scram.ScramCredential;
import io.odradek.security.scram.ScramFormatter;
import io.odradek.security.scram.ScramMechanism;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.AlterUserScramCredentialsApi;
import io.odradek.wire.api.AlterUserScramCredentialsApi.Request;
import io.odradek.wire.api.AlterUserScramCredentialsApi.Request.ScramCredentialDeletion;
import io.odradek.wire.api.AlterUserScramCredentialsApi.Request.ScramCredentialUpsertion;
import io.odradek.wire.api.AlterUserScramCredentialsApi.Response;
import io.odradek.wire.api.AlterUserScramCredentialsApi.Response.AlterUserScramCredentialsResult;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * AlterUserScramCredentials (key 51), version 0 (flexible): what {@code kafka-configs --alter
 * --add-config 'SCRAM-SHA-256=[password=...]' / --delete-config SCRAM-SHA-256 --entity-type users} and
 * {@code Admin.alterUserScramCredentials} send. The client salts the password itself (salt, iterations,
 * SaltedPassword); the broker keeps only the salt, StoredKey, ServerKey and iterations
 * ({@link ScramFormatter#credentialFromSaltedPassword}). Checked as Kafka 4.4's controller checks it
 * (ScramControlManager.alterCredentials), user by user, with its errors and messages:
 * <ul>
 * <li>A user may appear once per request, over deletions and upsertions together: a second appearance
 *     (even for another mechanism) makes that user's answer DUPLICATE_RESOURCE "A user credential cannot be
 *     altered twice in the same request" and nothing changes for them. So, exactly as against Kafka 4.4,
 *     {@code kafka-configs --add-config 'SCRAM-SHA-256=[...],SCRAM-SHA-512=[...]'} for one user fails; one
 *     mechanism per command works.</li>
 * <li>An empty user name: UNACCEPTABLE_CREDENTIAL "Username must not be empty"; a mechanism other than 1
 *     (SCRAM-SHA-256) or 2 (SCRAM-SHA-512): UNSUPPORTED_SASL_MECHANISM "Unknown SCRAM mechanism".</li>
 * <li>Upsertion iterations below 4096: UNACCEPTABLE_CREDENTIAL "Too few iterations"; above 16384: "Too many
 *     iterations". An empty salted password cannot key the HMAC: UNKNOWN_SERVER_ERROR, no message (as Kafka).</li>
 * <li>Deleting a credential the user does not have (as stored before this request): RESOURCE_NOT_FOUND
 *     "Attempt to delete a user credential that does not exist".</li>
 * <li>Answers in Kafka's order: accepted deletions, accepted upsertions, then the refused users, each group in
 *     the order of a HashMap of the names (as Kafka's controller builds them).</li>
 * </ul>
 * ScramAlterKafkaOracleTest holds all of this to Kafka's ScramControlManager itself (random requests, answers
 * byte for byte, stored credentials equal to Kafka's records).
 * The accepted changes are written to the store in one change (all or nothing) and the answer follows its
 * future, so the event loop never waits for a disk or the quorum. A failed write answers, as Kafka's error
 * response does, every named user (sorted, once each) with the failure's error (no message for
 * UNKNOWN_SERVER_ERROR).
 * <p>Needs ALTER on the cluster (Kafka's ControllerApis): otherwise every named user, sorted, is answered
 * CLUSTER_AUTHORIZATION_FAILED "Request AlterUserScramCredentials needs ALTER permission." (Kafka names its
 * internal request object there, with connection details, where Odradek names the API).
 */
public final class AlterUserScramCredentialsHandler implements ApiHandler {
    static final String TWICE = "A user credential cannot be altered twice in the same request";
    static final String EMPTY_NAME = "Username must not be empty";
    static final String UNKNOWN_MECHANISM = "Unknown SCRAM mechanism";
    static final String TOO_FEW = "Too few iterations";
    static final String TOO_MANY = "Too many iterations";
    static final String NO_SUCH_CREDENTIAL = "Attempt to delete a user credential that does not exist";
    static final String NOT_AUTHORIZED = "Request AlterUserScramCredentials needs ALTER permission.";

    private final SecurityMetadataStore store;

    public AlterUserScramCredentialsHandler(SecurityMetadataStore store) {
        this.store = store;
    }

    @Override
    public ApiSpec api() {
        return AlterUserScramCredentialsApi.SPEC;
    }

    /** An error for one user. */
    private record Refusal(ErrorCode error, String message) {
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        if (!context.session().authorizedOnCluster(AclOperation.ALTER)) {
            return CompletableFuture.completedFuture(
                    everyUser(request, ErrorCode.CLUSTER_AUTHORIZATION_FAILED, NOT_AUTHORIZED));
        }
        Map<String, Map<ScramMechanism, ScramCredential>> stored = store.scramCredentials();
        // HashMaps as Kafka's controller keeps them, so the answer lists users in the same order.
        Map<String, Struct> deletions = new HashMap<>();
        Map<String, Struct> upsertions = new HashMap<>();
        Map<String, Refusal> refused = new HashMap<>();
        for (Struct deletion : request.get(Request.DELETIONS)) {
            String name = deletion.get(ScramCredentialDeletion.NAME);
            if (refused.containsKey(name)) {
                continue;
            }
            if (deletions.remove(name) != null) {
                refused.put(name, new Refusal(ErrorCode.DUPLICATE_RESOURCE, TWICE));
                continue;
            }
            ScramMechanism mechanism = ScramMechanism.fromType(deletion.get(ScramCredentialDeletion.MECHANISM));
            Refusal bad = checkNameAndMechanism(name, mechanism);
            if (bad == null && !stored.getOrDefault(name, Map.of()).containsKey(mechanism)) {
                bad = new Refusal(ErrorCode.RESOURCE_NOT_FOUND, NO_SUCH_CREDENTIAL);
            }
            if (bad != null) {
                refused.put(name, bad);
            } else {
                deletions.put(name, deletion);
            }
        }
        for (Struct upsertion : request.get(Request.UPSERTIONS)) {
            String name = upsertion.get(ScramCredentialUpsertion.NAME);
            if (refused.containsKey(name)) {
                continue;
            }
            // As Kafka: the user's earlier deletion or upsertion is dropped, and the user refused.
            if (deletions.remove(name) != null || upsertions.remove(name) != null) {
                refused.put(name, new Refusal(ErrorCode.DUPLICATE_RESOURCE, TWICE));
                continue;
            }
            Refusal bad = checkUpsertion(upsertion);
            if (bad != null) {
                refused.put(name, bad);
            } else {
                upsertions.put(name, upsertion);
            }
        }

        Struct response = Response.SCHEMA.newStruct().set(Response.THROTTLE_TIME_MS, 0);
        List<ScramChange> changes = new ArrayList<>();
        for (Struct deletion : deletions.values()) {
            String name = deletion.get(ScramCredentialDeletion.NAME);
            success(response, name);
            changes.add(new ScramChange(name, ScramMechanism.fromType(deletion.get(ScramCredentialDeletion.MECHANISM)), null));
        }
        for (Struct upsertion : upsertions.values()) {
            String name = upsertion.get(ScramCredentialUpsertion.NAME);
            ScramMechanism mechanism = ScramMechanism.fromType(upsertion.get(ScramCredentialUpsertion.MECHANISM));
            ScramCredential credential;
            try {
                credential = new ScramFormatter(mechanism).credentialFromSaltedPassword(
                        upsertion.get(ScramCredentialUpsertion.SALT), upsertion.get(ScramCredentialUpsertion.SALTED_PASSWORD),
                        upsertion.get(ScramCredentialUpsertion.ITERATIONS));
            } catch (RuntimeException e) { // an empty salted password is no HMAC key
                refused.put(name, new Refusal(ErrorCode.UNKNOWN_SERVER_ERROR, null));
                continue;
            }
            success(response, name);
            changes.add(new ScramChange(name, mechanism, credential));
        }
        for (Map.Entry<String, Refusal> r : refused.entrySet()) {
            response.add(Response.RESULTS)
                    .set(AlterUserScramCredentialsResult.USER, r.getKey())
                    .set(AlterUserScramCredentialsResult.ERROR_CODE, r.getValue().error().code())
                    .set(AlterUserScramCredentialsResult.ERROR_MESSAGE, r.getValue().message());
        }
        if (changes.isEmpty()) {
            return CompletableFuture.completedFuture(response);
        }
        return store.alterScramCredentials(changes).handle((ok, failure) -> {
            if (failure == null) {
                return response;
            }
            ErrorCode error = ControllerFailures.error(failure);
            return everyUser(request, error, error == ErrorCode.UNKNOWN_SERVER_ERROR ? null : ControllerFailures.message(failure));
        });
    }

    private static Refusal checkNameAndMechanism(String name, ScramMechanism mechanism) {
        if (name.isEmpty()) {
            return new Refusal(ErrorCode.UNACCEPTABLE_CREDENTIAL, EMPTY_NAME);
        }
        if (mechanism == null) {
            return new Refusal(ErrorCode.UNSUPPORTED_SASL_MECHANISM, UNKNOWN_MECHANISM);
        }
        return null;
    }

    private static Refusal checkUpsertion(Struct upsertion) {
        ScramMechanism mechanism = ScramMechanism.fromType(upsertion.get(ScramCredentialUpsertion.MECHANISM));
        Refusal bad = checkNameAndMechanism(upsertion.get(ScramCredentialUpsertion.NAME), mechanism);
        if (bad != null) {
            return bad;
        }
        int iterations = upsertion.get(ScramCredentialUpsertion.ITERATIONS);
        if (iterations < ScramMechanism.MIN_ITERATIONS) {
            return new Refusal(ErrorCode.UNACCEPTABLE_CREDENTIAL, TOO_FEW);
        }
        if (iterations > ScramMechanism.MAX_ITERATIONS) {
            return new Refusal(ErrorCode.UNACCEPTABLE_CREDENTIAL, TOO_MANY);
        }
        return null;
    }

    private static void success(Struct response, String name) {
        response.add(Response.RESULTS)
                .set(AlterUserScramCredentialsResult.USER, name)
                .set(AlterUserScramCredentialsResult.ERROR_CODE, ErrorCode.NONE.code())
                .set(AlterUserScramCredentialsResult.ERROR_MESSAGE, null);
    }

    /** Kafka's error response: every user the request names, sorted, once each, with the same error. */
    private static Struct everyUser(Struct request, ErrorCode error, String message) {
        TreeSet<String> users = new TreeSet<>();
        request.get(Request.DELETIONS).forEach(d -> users.add(d.get(ScramCredentialDeletion.NAME)));
        request.get(Request.UPSERTIONS).forEach(u -> users.add(u.get(ScramCredentialUpsertion.NAME)));
        Struct response = Response.SCHEMA.newStruct().set(Response.THROTTLE_TIME_MS, 0);
        for (String user : users) {
            response.add(Response.RESULTS)
                    .set(AlterUserScramCredentialsResult.USER, user)
                    .set(AlterUserScramCredentialsResult.ERROR_CODE, error.code())
                    .set(AlterUserScramCredentialsResult.ERROR_MESSAGE, message);
        }
        return response;
    }
}
