package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.replication.config.DynamicConfigStore;
import io.odradek.replication.config.QuotaEntity;
import io.odradek.security.acl.AclOperation;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DescribeClientQuotasApi;
import io.odradek.wire.api.DescribeClientQuotasApi.Request.ComponentData;
import io.odradek.wire.api.DescribeClientQuotasApi.Response;
import io.odradek.wire.api.DescribeClientQuotasApi.Response.EntryData;
import io.odradek.wire.schema.Struct;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * DescribeClientQuotas (key 48), versions 0-1 (v1 flexible), what {@code kafka-configs --describe
 * --entity-type users/clients/ips} sends; answered from the {@link DynamicConfigStore}'s quotas as a Kafka 4.4
 * broker answers from its metadata image (ClientQuotasImage.describe).
 *
 * <p>Filter components: match type 0 = the entity named by match, 1 = that type's default entity (match
 * null), 2 = any entity having that type (match null). An entity matches when it has every exact and
 * default component and every "any" type; with strict, only entities having no other types. No components:
 * every entity (none when strict). Errors, in the top-level error with entries null: an empty entity type,
 * a type given twice, a match string where none belongs (or none where one does), an unknown match type, an
 * ip component combined with user or client-id ones: INVALID_REQUEST with Kafka's messages; an entity type
 * other than user, client-id, ip: UNSUPPORTED_VERSION ("Unsupported entity type"). Entities that have no
 * quota left are not listed.
 *
 * <p>Authorization (issue 10), as Kafka 4.4: DESCRIBE_CONFIGS on the cluster, checked first, else the top-level
 * error CLUSTER_AUTHORIZATION_FAILED ("Cluster authorization failed.") with entries null.
 */
public final class DescribeClientQuotasHandler implements ApiHandler {
    private static final byte EXACT = 0;
    private static final byte DEFAULT = 1;
    private static final byte SPECIFIED = 2;

    private final DynamicConfigStore store;

    public DescribeClientQuotasHandler(DynamicConfigStore store) {
        this.store = store;
    }

    @Override
    public ApiSpec api() {
        return DescribeClientQuotasApi.SPEC;
    }

    /** A filter Kafka refuses, with its error. */
    private static final class BadFilter extends Exception {
        private static final long serialVersionUID = 1L;
        final ErrorCode error;

        BadFilter(ErrorCode error, String message) {
            super(message, null, false, false);
            this.error = error;
        }
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        if (!context.session().authorizedOnCluster(AclOperation.DESCRIBE_CONFIGS)) {
            return CompletableFuture.completedFuture(Response.SCHEMA.newStruct()
                    .set(Response.ERROR_CODE, ErrorCode.CLUSTER_AUTHORIZATION_FAILED.code())
                    .set(Response.ERROR_MESSAGE, "Cluster authorization failed.")
                    .set(Response.ENTRIES, null));
        }
        Map<String, String> exact = new HashMap<>(); // type -> name, null for the default entity
        Set<String> anyOf = new HashSet<>();
        try {
            for (Struct c : request.get(DescribeClientQuotasApi.Request.COMPONENTS)) {
                component(c, exact, anyOf);
            }
            boolean ip = exact.containsKey(QuotaEntity.IP) || anyOf.contains(QuotaEntity.IP);
            boolean userOrClient = exact.containsKey(QuotaEntity.USER) || anyOf.contains(QuotaEntity.USER)
                    || exact.containsKey(QuotaEntity.CLIENT_ID) || anyOf.contains(QuotaEntity.CLIENT_ID);
            if (ip && userOrClient) {
                throw new BadFilter(ErrorCode.INVALID_REQUEST, "Invalid entity filter component combination. IP "
                        + "filter component should not be used with user or clientId filter component.");
            }
        } catch (BadFilter e) {
            return CompletableFuture.completedFuture(Response.SCHEMA.newStruct()
                    .set(Response.ERROR_CODE, e.error.code())
                    .set(Response.ERROR_MESSAGE, e.getMessage())
                    .set(Response.ENTRIES, null));
        }
        boolean strict = request.get(DescribeClientQuotasApi.Request.STRICT);
        Struct response = Response.SCHEMA.newStruct()
                .set(Response.ERROR_CODE, ErrorCode.NONE.code())
                .set(Response.ERROR_MESSAGE, null);
        boolean filtered = !exact.isEmpty() || !anyOf.isEmpty();
        if (!filtered && strict) {
            return CompletableFuture.completedFuture(response);
        }
        for (Map.Entry<QuotaEntity, Map<String, Double>> e : store.quotas().entrySet()) {
            Map<String, String> parts = e.getKey().parts();
            if (matches(parts, exact, anyOf, strict) && !e.getValue().isEmpty()) {
                entry(response, parts, e.getValue());
            }
        }
        return CompletableFuture.completedFuture(response);
    }

    private static void component(Struct c, Map<String, String> exact, Set<String> anyOf) throws BadFilter {
        String type = c.get(ComponentData.ENTITY_TYPE);
        String match = c.get(ComponentData.MATCH);
        byte matchType = c.get(ComponentData.MATCH_TYPE);
        if (type.isEmpty()) {
            throw new BadFilter(ErrorCode.INVALID_REQUEST, "Invalid empty entity type.");
        }
        if (exact.containsKey(type) || anyOf.contains(type)) {
            throw new BadFilter(ErrorCode.INVALID_REQUEST, "Entity type " + type + " cannot appear more than once in the filter.");
        }
        if (!type.equals(QuotaEntity.IP) && !type.equals(QuotaEntity.USER) && !type.equals(QuotaEntity.CLIENT_ID)) {
            throw new BadFilter(ErrorCode.UNSUPPORTED_VERSION, "Unsupported entity type " + type);
        }
        switch (matchType) {
            case EXACT -> {
                if (match == null) {
                    throw new BadFilter(ErrorCode.INVALID_REQUEST, "Request specified MATCH_TYPE_EXACT, but set match string to null.");
                }
                exact.put(type, match);
            }
            case DEFAULT -> {
                if (match != null) {
                    throw new BadFilter(ErrorCode.INVALID_REQUEST, "Request specified MATCH_TYPE_DEFAULT, but also specified a match string.");
                }
                exact.put(type, null);
            }
            case SPECIFIED -> {
                if (match != null) {
                    throw new BadFilter(ErrorCode.INVALID_REQUEST, "Request specified MATCH_TYPE_SPECIFIED, but also specified a match string.");
                }
                anyOf.add(type);
            }
            default -> throw new BadFilter(ErrorCode.INVALID_REQUEST, "Unknown match type " + matchType);
        }
    }

    private static boolean matches(Map<String, String> parts, Map<String, String> exact, Set<String> anyOf, boolean strict) {
        for (Map.Entry<String, String> e : exact.entrySet()) {
            if (!parts.containsKey(e.getKey()) || !java.util.Objects.equals(parts.get(e.getKey()), e.getValue())) {
                return false;
            }
        }
        if (!parts.keySet().containsAll(anyOf)) {
            return false;
        }
        return !strict || parts.size() == exact.size() + anyOf.size();
    }

    private static void entry(Struct response, Map<String, String> parts, Map<String, Double> values) {
        Struct entry = response.add(Response.ENTRIES);
        for (Map.Entry<String, String> p : parts.entrySet()) {
            entry.add(EntryData.ENTITY)
                    .set(EntryData.EntityData.ENTITY_TYPE, p.getKey())
                    .set(EntryData.EntityData.ENTITY_NAME, p.getValue());
        }
        for (Map.Entry<String, Double> v : new LinkedHashMap<>(values).entrySet()) {
            entry.add(EntryData.VALUES)
                    .set(EntryData.ValueData.KEY, v.getKey())
                    .set(EntryData.ValueData.VALUE, v.getValue());
        }
    }
}
