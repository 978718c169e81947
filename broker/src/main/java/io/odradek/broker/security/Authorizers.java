package io.odradek.broker.security;

import io.odradek.broker.BrokerConfig;
import io.odradek.replication.security.SecurityMetadataStore;
import io.odradek.security.acl.Authorizer;

/** The broker's authorizer from its config (issue 10, authorizer part). */
public final class Authorizers {
    private Authorizers() {
    }

    /**
     * Kafka's StandardAuthorizer semantics over the ACLs in {@code store} when {@code authorizer.class.name} names it,
     * with {@code super.users} and {@code allow.everyone.if.no.acl.found}; {@link Authorizer#ALLOW_ALL} when unset.
     */
    public static Authorizer create(BrokerConfig config, SecurityMetadataStore store) {
        String name = config.get("authorizer.class.name");
        if (name == null || name.isBlank()) {
            return Authorizer.ALLOW_ALL;
        }
        throw new UnsupportedOperationException("authorizer part of issue 10: not written yet");
    }
}
