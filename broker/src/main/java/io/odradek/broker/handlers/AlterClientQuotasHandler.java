package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.quota.IpEntityLookups;
import io.odradek.broker.quota.QuotaConfigRules;
import io.odradek.broker.quota.QuotaConfigRules.Rejection;
import io.odradek.replication.config.DynamicConfigStore;
import io.odradek.replication.config.QuotaEntity;
import io.odradek.security.acl.AclOperation;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.AlterClientQuotasApi;
import io.odradek.wire.api.AlterClientQuotasApi.Request.EntryData;
import io.odradek.wire.api.AlterClientQuotasApi.Response;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.schema.Struct;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;

/**
 * AlterClientQuotas (key 49), versions 0-1 (v1 flexible), what {@code kafka-configs --alter
 * --entity-type users/clients/ips} sends. Checked as Kafka 4.4's controller checks it
 * (ClientQuotaControlManager), entity by entity, each answered with its own error:
 * <ul>
 * <li>the entity: not empty; types user, client-id, ip only; no empty name (null is the default entity); ip
 *     never with user or client-id, and an address or a name that resolves;</li>
 * <li>each op: a key the entity type allows ({@code producer_byte_rate}, {@code consumer_byte_rate} as whole
 *     numbers; {@code request_percentage}, {@code controller_mutation_rate}; for ip
 *     {@code connection_creation_rate} as a whole number), finite, above zero; remove ignores the value;</li>
 * <li>a key twice for one entity, or the same entity twice: INVALID_REQUEST "Ignoring duplicate entity
 *     ClientQuotaEntity(entries={...})". Kafka 4.4 reports the duplicate key that way too: its controller
 *     first records "Duplicate quota key K not updating quota for this entity E", then overwrites it with
 *     that message (ClientQuotaControlManager.alterClientQuotas). As in Kafka, the first entry's accepted
 *     changes still apply though its answer is that error.</li>
 * <li>an entity type named twice within one entity: its last name is kept, no error, and the answer names
 *     the entity so (Kafka builds the entity as a map before checking it, so its controller's "duplicate
 *     entity entry" check never fires).</li>
 * </ul>
 * The accepted entities' changes are written to the {@link DynamicConfigStore} in one change (values equal to
 * the stored ones are left alone), so an entity's quotas change all together or not at all; validate_only
 * checks without writing. A failed write is every accepted entity's error. Changed quotas apply to the
 * next request (the quota managers follow the store). A request naming an ip entity by anything but a
 * dotted-quad IPv4 address is checked on {@link IpEntityLookups}' few threads, since that may resolve the name
 * (Kafka accepts host names that resolve); if too many such checks already wait, every entry is answered
 * UNKNOWN_SERVER_ERROR and nothing changes (Odradek only). The store writes (and syncs) on its own thread and
 * the answer follows its future, so the event loop never waits for a disk.
 * <p>Bound (Odradek only; Kafka has none): a request with more than {@value #MAX_ENTRIES} entries is refused
 * whole, every entry answered INVALID_REQUEST and nothing changed, so one request cannot make the broker
 * resolve, check and rewrite an unbounded number of entities.
 * <p>Authorization (issue 10), as Kafka 4.4's controller: ALTER_CONFIGS on the cluster, checked first, else every
 * entry CLUSTER_AUTHORIZATION_FAILED ("Cluster authorization failed.") with its entity echoed; nothing changes.
 */
public final class AlterClientQuotasHandler implements ApiHandler {
    /** The most entries one request may carry (generous: kafka-configs sends one entity per request). */
    static final int MAX_ENTRIES = 10_000;

    private final DynamicConfigStore store;

    public AlterClientQuotasHandler(DynamicConfigStore store) {
        this.store = store;
    }

    @Override
    public ApiSpec api() {
        return AlterClientQuotasApi.SPEC;
    }

    /** One distinct entity of the request, as the client named it, and its outcome. */
    private static final class Outcome {
        final List<Struct> entityData;
        ErrorCode error = ErrorCode.NONE;
        String message;

        Outcome(List<Struct> entityData) {
            this.entityData = entityData;
        }

        void reject(Rejection r) {
            error = r.error();
            message = r.message();
        }
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        if (!context.session().authorizedOnCluster(AclOperation.ALTER_CONFIGS)) {
            return CompletableFuture.completedFuture(refused(request));
        }
        List<Struct> entries = request.get(AlterClientQuotasApi.Request.ENTRIES);
        if (entries.size() > MAX_ENTRIES) {
            return CompletableFuture.completedFuture(tooMany(entries));
        }
        boolean mayLookUp = entries.stream()
                .flatMap(e -> e.get(EntryData.ENTITY).stream())
                .anyMatch(e -> QuotaEntity.IP.equals(e.get(EntryData.EntityData.ENTITY_TYPE))
                        && e.get(EntryData.EntityData.ENTITY_NAME) != null
                        && !IpEntityLookups.isIpv4Literal(e.get(EntryData.EntityData.ENTITY_NAME)));
        if (!mayLookUp) {
            return alter(request);
        }
        return IpEntityLookups.supply(() -> alter(request)).thenCompose(f -> f).exceptionally(failure -> {
            if (failure instanceof CompletionException && failure.getCause() != null) {
                failure = failure.getCause();
            }
            if (!(failure instanceof RejectedExecutionException)) {
                throw failure instanceof RuntimeException r ? r : new CompletionException(failure);
            }
            return lookupsBusy(request);
        });
    }

    /** Every entry refused, nothing changed: too many ip entity names already wait for their lookup. */
    private static Struct lookupsBusy(Struct request) {
        Map<Map<String, String>, Outcome> outcomes = new LinkedHashMap<>();
        Rejection busy = new Rejection(ErrorCode.UNKNOWN_SERVER_ERROR,
                "Too many ip entity names are waiting to be resolved; nothing was changed, try again later.");
        for (Struct entry : request.get(AlterClientQuotasApi.Request.ENTRIES)) {
            Outcome o = new Outcome(entry.get(EntryData.ENTITY));
            o.reject(busy);
            outcomes.put(Map.of("#", Integer.toString(outcomes.size())), o); // every entry answered
        }
        return response(outcomes);
    }

    private CompletableFuture<Struct> alter(Struct request) {
        Map<QuotaEntity, Map<String, Double>> stored = store.quotas();
        Map<Map<String, String>, Outcome> outcomes = new LinkedHashMap<>();
        Map<QuotaEntity, Map<String, Double>> changes = new HashMap<>();
        for (Struct entry : request.get(AlterClientQuotasApi.Request.ENTRIES)) {
            List<Struct> entityData = entry.get(EntryData.ENTITY);
            Map<String, String> entity = new HashMap<>(entityData.size()); // as Kafka builds it, for its toString
            for (Struct e : entityData) {
                entity.put(e.get(EntryData.EntityData.ENTITY_TYPE), e.get(EntryData.EntityData.ENTITY_NAME));
            }
            Map<String, Double> ops = new HashMap<>(); // key -> value, null to remove
            boolean duplicateKey = false;
            for (Struct op : entry.get(EntryData.OPS)) {
                String key = op.get(EntryData.OpData.KEY);
                duplicateKey |= ops.containsKey(key);
                ops.put(key, op.get(EntryData.OpData.REMOVE) ? null : op.get(EntryData.OpData.VALUE));
            }
            Outcome outcome = outcomes.get(entity);
            if (outcome != null || duplicateKey) {
                if (outcome == null) {
                    outcome = new Outcome(entityData);
                    outcomes.put(entity, outcome);
                }
                outcome.reject(new Rejection(ErrorCode.INVALID_REQUEST,
                        "Ignoring duplicate entity ClientQuotaEntity(entries=" + entity + ")"));
                continue; // as in Kafka, an earlier entry's accepted changes still apply
            }
            outcome = new Outcome(entityData);
            outcomes.put(entity, outcome);
            Map<String, Double> change = check(entity, ops, stored, outcome);
            if (change != null && !change.isEmpty()) {
                changes.put(toQuotaEntity(entity), change);
            }
        }
        if (request.get(AlterClientQuotasApi.Request.VALIDATE_ONLY) || changes.isEmpty()) {
            return CompletableFuture.completedFuture(response(outcomes));
        }
        return store.alterQuotas(changes).handle((ok, failure) -> {
            if (failure != null) {
                for (Outcome o : outcomes.values()) {
                    if (o.error == ErrorCode.NONE) {
                        o.reject(new Rejection(ControllerFailures.error(failure), ControllerFailures.message(failure)));
                    }
                }
            }
            return response(outcomes);
        });
    }

    /** The entity's changes to the stored quotas (null value: remove), or null when it is rejected. */
    private static Map<String, Double> check(Map<String, String> entity, Map<String, Double> ops,
            Map<QuotaEntity, Map<String, Double>> stored, Outcome outcome) {
        Rejection bad = QuotaConfigRules.checkEntity(entity);
        if (bad != null) {
            outcome.reject(bad);
            return null;
        }
        Map<String, Double> current = stored.getOrDefault(toQuotaEntity(entity), Map.of());
        Map<String, Double> change = new HashMap<>();
        for (Map.Entry<String, Double> op : ops.entrySet()) {
            String key = op.getKey();
            Double value = op.getValue();
            if (value == null) {
                if (current.containsKey(key)) {
                    change.put(key, null);
                }
                continue;
            }
            bad = QuotaConfigRules.checkValue(entity, key, value);
            if (bad != null) {
                outcome.reject(bad);
                return null;
            }
            if (!value.equals(current.get(key))) {
                change.put(key, value);
            }
        }
        return change;
    }

    private static Struct tooMany(List<Struct> entries) {
        Map<Map<String, String>, Outcome> outcomes = new LinkedHashMap<>();
        Rejection refused = new Rejection(ErrorCode.INVALID_REQUEST, "The request has " + entries.size()
                + " entries; at most " + MAX_ENTRIES + " are accepted per AlterClientQuotas request.");
        for (Struct entry : entries) {
            Outcome o = new Outcome(entry.get(EntryData.ENTITY));
            o.reject(refused);
            outcomes.put(Map.of("#", Integer.toString(outcomes.size())), o); // every entry answered, duplicates too
        }
        return response(outcomes);
    }

    private static QuotaEntity toQuotaEntity(Map<String, String> entity) {
        return new QuotaEntity(new TreeMap<>(entity));
    }

    private static Struct response(Map<Map<String, String>, Outcome> outcomes) {
        Struct response = Response.SCHEMA.newStruct();
        for (Outcome o : outcomes.values()) {
            Struct entry = response.add(Response.ENTRIES)
                    .set(Response.EntryData.ERROR_CODE, o.error.code())
                    .set(Response.EntryData.ERROR_MESSAGE, o.message);
            // The entity as Kafka answers it: the map it was checked as (built as Kafka builds it, so in its
            // order), each type once with its last name.
            Map<String, String> entity = new HashMap<>(o.entityData.size());
            for (Struct e : o.entityData) {
                entity.put(e.get(EntryData.EntityData.ENTITY_TYPE), e.get(EntryData.EntityData.ENTITY_NAME));
            }
            for (Map.Entry<String, String> e : entity.entrySet()) {
                entry.add(Response.EntryData.ENTITY)
                        .set(Response.EntryData.EntityData.ENTITY_TYPE, e.getKey())
                        .set(Response.EntryData.EntityData.ENTITY_NAME, e.getValue());
            }
        }
        return response;
    }

    /** Kafka's AlterClientQuotasRequest.getErrorResponse for CLUSTER_AUTHORIZATION_FAILED. */
    private static Struct refused(Struct request) {
        Struct response = Response.SCHEMA.newStruct().set(Response.THROTTLE_TIME_MS, 0);
        for (Struct entry : request.get(AlterClientQuotasApi.Request.ENTRIES)) {
            Struct out = response.add(Response.ENTRIES)
                    .set(Response.EntryData.ERROR_CODE, ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code())
                    .set(Response.EntryData.ERROR_MESSAGE, "Cluster authorization failed.");
            for (Struct entity : entry.get(EntryData.ENTITY)) {
                out.add(Response.EntryData.ENTITY)
                        .set(Response.EntryData.EntityData.ENTITY_TYPE, entity.get(EntryData.EntityData.ENTITY_TYPE))
                        .set(Response.EntryData.EntityData.ENTITY_NAME, entity.get(EntryData.EntityData.ENTITY_NAME));
            }
        }
        return response;
    }
}
