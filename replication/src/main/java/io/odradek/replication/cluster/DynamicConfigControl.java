package io.odradek.replication.cluster;

import io.odradek.replication.cluster.ControllerCommand.AlterDynamicConfigs;
import io.odradek.replication.cluster.ControllerCommand.AlterGroupConfigs;
import io.odradek.replication.config.DynamicConfigs;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.wire.ErrorCode;
import java.util.Map;

/**
 * AlterDynamicConfigs as Kafka's controller checks broker config entities (ControllerConfigurationValidator):
 * the name is "" (the cluster default) or a non-negative base-10 broker id of a registered broker, with Kafka's
 * messages (INVALID_REQUEST, BROKER_ID_NOT_REGISTERED). The values
 * were validated by the submitting broker against its config definitions (Kafka validates broker configs on the
 * forwarding broker too) and are stored as given. Group configs (issue 12): the name must not be empty
 * (INVALID_REQUEST "Default group resources are not allowed.", Kafka's ControllerConfigurationValidator); the
 * values were validated by the submitting broker against Kafka's GroupConfig and its group.* bounds.
 */
final class DynamicConfigControl {
    private DynamicConfigControl() {
    }

    static void apply(ImageBuilder image, AlterDynamicConfigs c) {
        DynamicConfigs next = image.dynamicConfigs;
        for (Map.Entry<String, Map<String, String>> e : c.brokers().entrySet()) {
            validateBrokerName(e.getKey());
            if (!e.getKey().isEmpty() && !image.brokers.containsKey(Integer.parseInt(e.getKey()))) {
                throw new MetadataException(ErrorCode.BROKER_ID_NOT_REGISTERED, "No node with id " + e.getKey()
                        + " found.");
            }
            next = next.withBrokerChanges(e.getKey(), e.getValue());
        }
        image.dynamicConfigs = next.withQuotaChanges(c.quotas());
        // A cluster default enabling unclean election brings offline partitions back at once, as a topic
        // override does (Kafka does it on its next sweep).
        image.electUncleanWhereAllowed();
    }

    static void apply(ImageBuilder image, AlterGroupConfigs c) {
        if (c.groupId() == null || c.groupId().isEmpty()) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "Default group resources are not allowed.");
        }
        image.dynamicConfigs = image.dynamicConfigs.withGroupChanges(c.groupId(), c.changes());
    }

    static void validateBrokerName(String name) {
        if (name == null) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "Unable to parse broker name as a base 10 number.");
        }
        if (name.isEmpty()) {
            return;
        }
        int id;
        try {
            id = Integer.parseInt(name);
        } catch (NumberFormatException e) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "Unable to parse broker name as a base 10 number.");
        }
        if (id < 0) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "Invalid negative broker ID.");
        }
    }
}
