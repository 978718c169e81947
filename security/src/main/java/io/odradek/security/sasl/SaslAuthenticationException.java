package io.odradek.security.sasl;

/**
 * Authentication failed (bad password, unknown user, invalid token, malformed message): the broker answers
 * SASL_AUTHENTICATION_FAILED with this message, then closes the connection. Messages are safe to show a client
 * (never a secret), as Kafka's.
 */
public class SaslAuthenticationException extends Exception {
    private static final long serialVersionUID = 1L;

    public SaslAuthenticationException(String message) {
        super(message);
    }
}
