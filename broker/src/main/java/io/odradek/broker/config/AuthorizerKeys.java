package io.odradek.broker.config;

import io.odradek.security.acl.AclAuthorizer;

/**
 * The checks of the authorizer's keys (issue 10, authorizer), kept out of {@link BrokerConfigDef}'s table so the
 * table only lists them: {@code authorizer.class.name} may name Kafka's StandardAuthorizer only (Odradek has that
 * one authorizer; no class is loaded), {@code super.users} must be {@code Type:name} principals.
 */
public final class AuthorizerKeys {
    /** Kafka's StandardAuthorizer class name, the only authorizer Odradek has. */
    public static final String STANDARD_AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer";

    private AuthorizerKeys() {
    }

    static String classProblem(Object value) {
        String name = ((String) value).trim();
        return name.isEmpty() || name.equals(STANDARD_AUTHORIZER) ? null
                : "Odradek has one authorizer, with the semantics of Kafka's StandardAuthorizer: set "
                        + STANDARD_AUTHORIZER + " to use it, or leave authorizer.class.name empty for none"
                        + " (no other authorizer class can be loaded)";
    }

    /** Each ';'-separated entry a principal Type:name, as Kafka's StandardAuthorizer.getConfiguredSuperUsers. */
    static String superUsersProblem(Object value) {
        try {
            AclAuthorizer.parseSuperUsers((String) value);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }
}
