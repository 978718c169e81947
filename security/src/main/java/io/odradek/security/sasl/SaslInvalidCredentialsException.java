package io.odradek.security.sasl;

/**
 * Authentication failed in a way whose details must not reach the client (Kafka's plain {@code SaslException}:
 * unknown user, wrong SCRAM proof). The broker answers Kafka's generic "Authentication failed during
 * authentication due to invalid credentials with SASL mechanism X" instead of {@link #getMessage()}, which is
 * for the broker's own debug log.
 */
public class SaslInvalidCredentialsException extends SaslAuthenticationException {
    private static final long serialVersionUID = 1L;

    public SaslInvalidCredentialsException(String message) {
        super(message);
    }

    /** What Kafka tells the client, for {@code mechanism} during authentication or re-authentication. */
    public static String clientMessage(String mechanism, boolean reauthenticating) {
        return "Authentication failed during " + (reauthenticating ? "re-authentication" : "authentication")
                + " due to invalid credentials with SASL mechanism " + mechanism;
    }
}
