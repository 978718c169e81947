package io.odradek.broker.security;

import io.odradek.security.SecurityProtocol;

/**
 * How one listener secures its connections: its name and protocol, the TLS set-up (SSL and SASL_SSL; else null)
 * and the SASL set-up (SASL_PLAINTEXT and SASL_SSL; else null).
 */
public record ListenerSecurity(String listenerName, SecurityProtocol protocol, ServerTls tls, SaslServerSettings sasl) {

    public static ListenerSecurity plaintext(String listenerName) {
        return new ListenerSecurity(listenerName, SecurityProtocol.PLAINTEXT, null, null);
    }
}
