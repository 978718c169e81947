package io.odradek.broker.security;

import io.odradek.broker.BrokerConfig;
import io.odradek.broker.config.AuthorizerKeys;
import io.odradek.broker.config.ConfigException;
import io.odradek.replication.security.SecurityMetadataStore;
import io.odradek.security.acl.AclAuthorizer;
import io.odradek.security.acl.Authorizer;

/**
 * The broker's authorizer from its config (issue 10, authorizer part): {@code authorizer.class.name} set to
 * Kafka's StandardAuthorizer class turns on {@link AclAuthorizer} (the same decisions; no Kafka class is loaded)
 * over the ACLs of the cluster metadata, with {@code super.users} and {@code allow.everyone.if.no.acl.found};
 * unset or empty, {@link Authorizer#ALLOW_ALL} (and the ACL APIs answer SECURITY_DISABLED, as Kafka).
 */
public final class Authorizers {
    private static final System.Logger LOG = System.getLogger(Authorizers.class.getName());

    private Authorizers() {
    }

    /**
     * The authorizer for {@code config}; its decisions follow {@code store} (rebuilt after every change of the
     * ACLs, before the change's future completes). Call once per broker: every listener shares it.
     * ConfigException for any other authorizer class.
     */
    public static Authorizer create(BrokerConfig config, SecurityMetadataStore store) {
        String name = config.get("authorizer.class.name");
        if (name == null || name.isBlank()) {
            return Authorizer.ALLOW_ALL;
        }
        if (!name.trim().equals(AuthorizerKeys.STANDARD_AUTHORIZER)) {
            throw ConfigException.invalid("authorizer.class.name", name.trim(), "Odradek has one authorizer, with"
                    + " the semantics of Kafka's StandardAuthorizer: set " + AuthorizerKeys.STANDARD_AUTHORIZER
                    + " to use it, or leave authorizer.class.name empty for none");
        }
        AclAuthorizer authorizer;
        try {
            authorizer = new AclAuthorizer(AclAuthorizer.parseSuperUsers(config.get("super.users")),
                    Boolean.parseBoolean(config.get("allow.everyone.if.no.acl.found")));
        } catch (IllegalArgumentException e) {
            throw ConfigException.invalid("super.users", config.get("super.users"), e.getMessage());
        }
        store.addListener(() -> authorizer.refresh(store::acls));
        authorizer.refresh(store::acls);
        LOG.log(System.Logger.Level.INFO, "authorizer on (StandardAuthorizer semantics): " + authorizer.aclCount()
                + " ACL(s), super.users=" + authorizer.superUsers() + ", allow.everyone.if.no.acl.found="
                + authorizer.allowEveryoneIfNoAclFound());
        return authorizer;
    }
}
