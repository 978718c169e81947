package io.odradek.security;

import java.util.Objects;

/**
 * Who a connection is, as Kafka's KafkaPrincipal: a type and a name, written {@code User:alice}. PLAINTEXT
 * connections (and TLS ones without a client certificate) are {@link #ANONYMOUS}; a SASL login is
 * {@code User:<authorization id>}; a TLS client certificate gives {@code User:<mapped distinguished name>}.
 */
public record KafkaPrincipal(String type, String name) {
    public static final String USER_TYPE = "User";
    public static final KafkaPrincipal ANONYMOUS = new KafkaPrincipal(USER_TYPE, "ANONYMOUS");

    public KafkaPrincipal {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
    }

    public static KafkaPrincipal user(String name) {
        return new KafkaPrincipal(USER_TYPE, name);
    }

    /**
     * Parses {@code Type:name} at the first ':' (the name may contain more), as Kafka's
     * SecurityUtils.parseKafkaPrincipal: either part may be empty ({@code ":alice"} is type "", name "alice").
     */
    public static KafkaPrincipal parse(String text) {
        int colon = text == null ? -1 : text.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("expected a string in format principalType:principalName but got " + text);
        }
        return new KafkaPrincipal(text.substring(0, colon), text.substring(colon + 1));
    }

    @Override
    public String toString() {
        return type + ":" + name;
    }
}
