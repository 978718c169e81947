package io.odradek.broker.handlers;

import io.odradek.broker.api.RequestContext;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.ResourcePattern;
import io.odradek.security.acl.ResourceType;

/**
 * KIP-430 authorized_operations bit fields (bit = the operation's code). Without an authorizer every operation
 * Kafka defines for the resource type; with one, what the authorizer grants ({@code Session.authorizedOperations}).
 * Asked only when a request wants them, as Kafka does.
 */
final class AuthorizedOperations {
    /** READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE, DESCRIBE_CONFIGS, ALTER_CONFIGS: a topic's operations. */
    static final int ALL_TOPIC_OPERATIONS = bits(3, 4, 5, 6, 7, 8, 10, 11);
    /** CREATE, ALTER, DESCRIBE, CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE. */
    static final int ALL_CLUSTER_OPERATIONS = bits(5, 7, 8, 9, 10, 11, 12);

    private AuthorizedOperations() {
    }

    static int topic(RequestContext context, String topic) {
        return context.session().authorizer().enabled()
                ? context.session().authorizedOperations(ResourceType.TOPIC, topic) : ALL_TOPIC_OPERATIONS;
    }

    /**
     * The cluster's operations as Metadata (v8-10) and DescribeCluster give them: 0 to a client without
     * DESCRIBE on the cluster, as Kafka's KafkaApis.
     */
    static int cluster(RequestContext context) {
        if (!context.session().authorizer().enabled()) {
            return ALL_CLUSTER_OPERATIONS;
        }
        if (!context.session().authorizedOnCluster(AclOperation.DESCRIBE)) {
            return 0;
        }
        return context.session().authorizedOperations(ResourceType.CLUSTER, ResourcePattern.CLUSTER_NAME);
    }

    private static int bits(int... operations) {
        int field = 0;
        for (int op : operations) {
            field |= 1 << op;
        }
        return field;
    }
}
