package io.odradek.broker.handlers;

import io.odradek.broker.config.BrokerConfigDef;
import io.odradek.broker.config.ConfigKey;
import io.odradek.broker.config.ConfigType;
import io.odradek.broker.config.DynamicBrokerConfig;
import io.odradek.broker.group.GroupConfigDef;
import io.odradek.broker.topics.TopicConfigDef;
import io.odradek.broker.topics.TopicService;
import io.odradek.log.LogConfig;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.broker.security.Session;
import io.odradek.security.acl.AclOperation;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What AlterConfigs and IncrementalAlterConfigs do to TOPIC and BROKER resources, in Kafka 4.4's order and with
 * its errors (ConfigAdminManager's checks on the broker, then ConfigurationControlManager's on the controller):
 * <ol>
 * <li>A resource named twice: INVALID_REQUEST "Each resource must appear at most once." for each.</li>
 * <li>A key named twice: INVALID_REQUEST "Error due to duplicate config keys"; a null value (other than for
 *     DELETE): INVALID_REQUEST "Null value not supported for : k1, k2".</li>
 * <li>BROKER: the name is "" (cluster default) or this node's id ("Node id must be an integer, but it is: x",
 *     "Unexpected broker id, expected 1, but received 2"); the entity's new set is checked by
 *     {@link DynamicBrokerConfig#validate} and stored in the dynamic config store.</li>
 * <li>TOPIC: the overrides' new set goes to {@link TopicService#alterConfigs} (name, values, existence).</li>
 * <li>GROUP (issue 12): the group's new set is checked by {@link GroupConfigDef#validate} (Kafka's GroupConfig
 *     against the broker's group.* bounds) and stored in the dynamic config store; legacy AlterConfigs replaces
 *     the whole set, as Kafka's controller does for GROUP.</li>
 * <li>Any other type: INVALID_REQUEST "Unknown resource type N" (BROKER_LOGGER and CLIENT_METRICS are not
 *     supported here; legacy AlterConfigs refuses BROKER_LOGGER the same way in Kafka).</li>
 * </ol>
 * AlterConfigs replaces the whole set (keys not given are removed); IncrementalAlterConfigs applies SET (0),
 * DELETE (1), APPEND (2) and SUBTRACT (3) to the current set, the last two only on LIST keys, ours or Kafka's
 * (starting from the key's default when it has no value; for a Kafka key Odradek only stores, from empty, since
 * kafka-broker-keys.txt carries types, not defaults). validate_only checks everything and changes nothing. Each resource
 * succeeds or fails on its own.
 *
 * <p>Cluster mode: incremental ops are resolved here, against this broker's image, and the resource's whole new
 * set is sent to the controller (Kafka sends the ops and resolves them on the controller). So that a change
 * committed through another broker just before (a client's previous alter, answered once committed) is not lost,
 * this broker first catches up with the metadata log ({@link TopicService#catchUpWithController}, a read barrier).
 * Known limitation: two brokers altering the same resource at the same moment can still lose one of the changes.
 */
final class ConfigAlterations {
    static final byte TOPIC = 2;
    static final byte BROKER = 4;
    static final byte GROUP = 32;
    static final byte SET = 0;
    static final byte DELETE = 1;
    static final byte APPEND = 2;
    static final byte SUBTRACT = 3;
    private static final long STORE_TIMEOUT_MS = 30_000;

    /** One key change; {@code operation} is ignored by the legacy API (every entry is a SET of the whole). */
    record Op(String name, byte operation, String value) {
    }

    record Resource(byte type, String name, List<Op> ops) {
    }

    record Outcome(ErrorCode error, String message) {
        static final Outcome OK = new Outcome(ErrorCode.NONE, null);
    }

    private final TopicService topics;
    private final DynamicBrokerConfig broker;

    ConfigAlterations(TopicService topics, DynamicBrokerConfig broker) {
        this.topics = topics;
        this.broker = broker;
    }

    /**
     * The outcome of each resource, in request order. Runs the checks (and topic changes, which wait for the
     * controller in cluster mode) on the calling thread, so not on an event loop; broker config writes are not
     * awaited here: the result completes when they have (or {@value #STORE_TIMEOUT_MS} ms passed), so a
     * controller that is away does not hold TopicService's metadata thread.
     */
    CompletableFuture<List<Outcome>> alter(List<Resource> resources, boolean incremental, boolean validateOnly) {
        return alter(resources, incremental, validateOnly, Session.PLAINTEXT_ANONYMOUS);
    }

    /**
     * As {@link #alter(List, boolean, boolean)} for {@code session}'s client (issue 10): after the duplicate
     * check, a resource it may not ALTER_CONFIGS is refused as Kafka's ControllerApis.authorizeAlterResource
     * does (see {@link ConfigResourceAccess}) and nothing else is checked for it.
     */
    CompletableFuture<List<Outcome>> alter(List<Resource> resources, boolean incremental, boolean validateOnly,
            Session session) {
        Map<String, Integer> seen = new HashMap<>();
        Set<Integer> duplicated = new HashSet<>();
        for (int i = 0; i < resources.size(); i++) {
            Integer previous = seen.put(resources.get(i).type() + "/" + resources.get(i).name(), i);
            if (previous != null) {
                duplicated.add(previous);
                duplicated.add(i);
            }
        }
        List<CompletableFuture<Outcome>> outcomes = new ArrayList<>();
        for (int i = 0; i < resources.size(); i++) {
            if (duplicated.contains(i)) {
                outcomes.add(CompletableFuture.completedFuture(
                        new Outcome(ErrorCode.INVALID_REQUEST, "Each resource must appear at most once.")));
                continue;
            }
            // Legacy AlterConfigs refuses BROKER_LOGGER as an unknown type whoever asks, as Kafka.
            boolean checked = incremental || resources.get(i).type() != ConfigResourceAccess.BROKER_LOGGER;
            ConfigResourceAccess.Refusal refused = !checked ? null : ConfigResourceAccess.refusal(session,
                    AclOperation.ALTER_CONFIGS, resources.get(i).type(), resources.get(i).name());
            if (refused != null) {
                outcomes.add(CompletableFuture.completedFuture(new Outcome(refused.error(), refused.message())));
                continue;
            }
            try {
                outcomes.add(alterOne(resources.get(i), incremental, validateOnly)
                        .handle((ok, failure) -> failure == null ? Outcome.OK : storeFailure(failure)));
            } catch (MetadataException e) {
                outcomes.add(CompletableFuture.completedFuture(new Outcome(e.error(), e.getMessage())));
            }
        }
        return CompletableFuture.allOf(outcomes.toArray(new CompletableFuture<?>[0]))
                .thenApply(done -> outcomes.stream().map(CompletableFuture::join).toList());
    }

    private CompletableFuture<Void> alterOne(Resource r, boolean incremental, boolean validateOnly) {
        Set<String> names = new HashSet<>();
        List<String> nulls = new ArrayList<>();
        for (Op op : r.ops()) {
            if (!names.add(op.name())) {
                throw new MetadataException(ErrorCode.INVALID_REQUEST, "Error due to duplicate config keys");
            }
            if (op.value() == null && !(incremental && op.operation() == DELETE)) {
                nulls.add(op.name());
            }
        }
        if (!nulls.isEmpty()) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "Null value not supported for : "
                    + String.join(", ", nulls));
        }
        if (incremental && (r.type() == BROKER || r.type() == TOPIC || r.type() == GROUP)) {
            topics.catchUpWithController();
        }
        if (r.type() == GROUP) {
            return alterGroup(r, incremental, validateOnly);
        }
        if (r.type() == BROKER) {
            return alterBroker(r, incremental, validateOnly);
        } else if (r.type() == TOPIC) {
            alterTopic(r, incremental, validateOnly);
            return CompletableFuture.completedFuture(null);
        } else {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "Unknown resource type " + r.type());
        }
    }

    private CompletableFuture<Void> alterBroker(Resource r, boolean incremental, boolean validateOnly) {
        String entity = r.name() == null ? "" : r.name();
        if (!entity.isEmpty()) {
            checkIsThisNode(entity);
        }
        Map<String, String> current = broker.store().brokerConfigs(entity);
        Map<String, String> next;
        if (incremental) {
            next = new LinkedHashMap<>(current);
            for (Op op : r.ops()) {
                applyBrokerOp(next, op);
            }
        } else {
            next = new LinkedHashMap<>();
            r.ops().forEach(op -> next.put(op.name(), op.value()));
        }
        broker.validate(entity, next);
        if (validateOnly) {
            return CompletableFuture.completedFuture(null);
        }
        Map<String, String> changes = new HashMap<>();
        next.forEach((k, v) -> {
            if (!v.equals(current.get(k))) {
                changes.put(k, v);
            }
        });
        current.keySet().forEach(k -> {
            if (!next.containsKey(k)) {
                changes.put(k, null);
            }
        });
        if (changes.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return broker.store().alterBrokerConfigs(entity, changes).orTimeout(STORE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    }

    /** ConfigAdminManager.validateResourceNameIsCurrentNodeId. */
    private void checkIsThisNode(String name) {
        int id;
        try {
            id = Integer.parseInt(name);
        } catch (NumberFormatException e) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "Node id must be an integer, but it is: " + name);
        }
        if (id != topics.nodeId()) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "Unexpected broker id, expected "
                    + topics.nodeId() + ", but received " + name);
        }
    }

    /** ConfigAdminManager.prepareIncrementalConfigs, on one broker entity's stored set. */
    private static void applyBrokerOp(Map<String, String> configs, Op op) {
        switch (op.operation()) {
            case SET -> configs.put(op.name(), op.value());
            case DELETE -> configs.remove(op.name());
            case APPEND, SUBTRACT -> {
                ConfigKey def = BrokerConfigDef.key(op.name());
                String verb = op.operation() == APPEND ? "append" : "subtract";
                if (def == null && BrokerConfigDef.kafkaType(op.name()) == null) {
                    throw new MetadataException(ErrorCode.INVALID_CONFIG, "Unknown config name: " + op.name());
                }
                if (!BrokerConfigDef.isList(op.name())) {
                    throw new MetadataException(ErrorCode.INVALID_CONFIG, "Config value " + verb
                            + " is not allowed for config key: " + op.name());
                }
                // A Kafka LIST key we only store starts from its stored value (we do not carry Kafka's default).
                String old = configs.getOrDefault(op.name(), def == null ? null : def.defaultValue());
                configs.put(op.name(), listOp(old, op));
            }
            default -> throw new MetadataException(ErrorCode.INVALID_REQUEST,
                    "Unknown operations type " + op.operation());
        }
    }

    /**
     * Issue 12: a GROUP resource's configs, as Kafka's controller changes them (ConfigurationControlManager with
     * ControllerConfigurationValidator): the ops on the stored set (APPEND/SUBTRACT only on LIST keys, else
     * INVALID_CONFIG "Can't APPEND to key k because its type is not LIST."), then an empty name is INVALID_REQUEST
     * "Default group resources are not allowed.", then the whole new set is checked by {@link GroupConfigDef#validate}
     * against this broker's group.* bounds. Any group id may have configs, existing or not, as in Kafka.
     */
    private CompletableFuture<Void> alterGroup(Resource r, boolean incremental, boolean validateOnly) {
        String group = r.name() == null ? "" : r.name();
        Map<String, String> current = broker.store().groupConfigs(group);
        Map<String, String> next;
        if (incremental) {
            next = new LinkedHashMap<>(current);
            for (Op op : r.ops()) {
                switch (op.operation()) {
                    case SET -> next.put(op.name(), op.value());
                    case DELETE -> next.remove(op.name());
                    case APPEND, SUBTRACT -> {
                        GroupConfigDef.Key def = GroupConfigDef.key(op.name());
                        if (def == null || def.key().type() != ConfigType.LIST) {
                            throw new MetadataException(ErrorCode.INVALID_CONFIG, "Can't "
                                    + (op.operation() == APPEND ? "APPEND" : "SUBTRACT") + " to key " + op.name()
                                    + " because its type is not LIST.");
                        }
                        next.put(op.name(), listOp(next.getOrDefault(op.name(), def.key().defaultValue()), op));
                    }
                    default -> throw new MetadataException(ErrorCode.INVALID_REQUEST,
                            "Unknown operations type " + op.operation());
                }
            }
        } else {
            next = new LinkedHashMap<>();
            r.ops().forEach(op -> next.put(op.name(), op.value()));
        }
        if (group.isEmpty()) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "Default group resources are not allowed.");
        }
        GroupConfigDef.validate(next, broker.current());
        if (validateOnly) {
            return CompletableFuture.completedFuture(null);
        }
        Map<String, String> changes = new HashMap<>();
        next.forEach((k, v) -> {
            if (!v.equals(current.get(k))) {
                changes.put(k, v);
            }
        });
        current.keySet().forEach(k -> {
            if (!next.containsKey(k)) {
                changes.put(k, null);
            }
        });
        if (changes.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return broker.store().alterGroupConfigs(group, changes).orTimeout(STORE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    }

    private void alterTopic(Resource r, boolean incremental, boolean validateOnly) {
        Map<String, String> next;
        if (incremental) {
            Map<String, String> current = r.name() == null ? Map.of()
                    : topics.topic(r.name()).map(t -> t.configs()).orElse(Map.of());
            next = new LinkedHashMap<>(current);
            for (Op op : r.ops()) {
                switch (op.operation()) {
                    case SET -> next.put(op.name(), op.value());
                    case DELETE -> next.remove(op.name());
                    case APPEND, SUBTRACT -> {
                        if (!TopicConfigDef.isList(op.name())) {
                            throw new MetadataException(ErrorCode.INVALID_CONFIG, "Can't "
                                    + (op.operation() == APPEND ? "APPEND" : "SUBTRACT") + " to key " + op.name()
                                    + " because its type is not LIST.");
                        }
                        String old = next.getOrDefault(op.name(), LogConfig.defaults().get(op.name()));
                        next.put(op.name(), listOp(old, op));
                    }
                    default -> throw new MetadataException(ErrorCode.INVALID_REQUEST,
                            "Unknown operations type " + op.operation());
                }
            }
        } else {
            next = new LinkedHashMap<>();
            r.ops().forEach(op -> next.put(op.name(), op.value()));
        }
        topics.alterConfigs(r.name(), next, validateOnly);
    }

    /** APPEND adds the values not yet in the list; SUBTRACT removes them (Kafka drops empty entries first). */
    private static String listOp(String old, Op op) {
        List<String> values = new ArrayList<>();
        if (old != null) {
            Arrays.stream(old.split(",")).filter(s -> !s.isEmpty()).forEach(values::add);
        }
        for (String v : op.value().split(",")) {
            if (op.operation() == APPEND) {
                if (!values.contains(v)) {
                    values.add(v);
                }
            } else {
                values.remove(v);
            }
        }
        return String.join(",", values);
    }

    /** A failed or timed-out store write as the resource's outcome. */
    private static Outcome storeFailure(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        if (cause instanceof TimeoutException) {
            return new Outcome(ErrorCode.REQUEST_TIMED_OUT, "Timed out after " + STORE_TIMEOUT_MS
                    + " ms waiting for the dynamic configs to be stored.");
        }
        if (cause instanceof MetadataException m) {
            return new Outcome(m.error(), m.getMessage());
        }
        return new Outcome(ErrorCode.UNKNOWN_SERVER_ERROR, "Cannot store the dynamic configs: "
                + Objects.toString(cause.getMessage(), cause.toString()));
    }
}
