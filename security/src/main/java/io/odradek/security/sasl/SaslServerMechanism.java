package io.odradek.security.sasl;

/**
 * The server side of one SASL exchange on one connection (Kafka's SaslServer): each client token in,
 * the challenge (possibly empty) out, until {@link #isComplete()}. Not thread-safe: one connection's event loop.
 */
public interface SaslServerMechanism {
    /** The mechanism name as clients send it in SaslHandshake (PLAIN, SCRAM-SHA-256, OAUTHBEARER...). */
    String mechanismName();

    /** Takes the client's next token; returns the server's challenge or final message (empty for none). */
    byte[] evaluateResponse(byte[] response) throws SaslAuthenticationException;

    boolean isComplete();

    /** Once complete: the authenticated identity, which becomes the principal {@code User:<id>}. */
    String authorizationId();

    /**
     * Once complete: for how long (ms from now) the credential stays valid, when the mechanism knows (an
     * OAUTHBEARER token's expiry); -1 when it does not. Caps the KIP-368 session lifetime.
     */
    default long credentialLifetimeMs() {
        return -1;
    }
}
