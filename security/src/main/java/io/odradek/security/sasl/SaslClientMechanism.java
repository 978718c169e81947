package io.odradek.security.sasl;

/**
 * The client side of one SASL exchange (for the broker's own connections to other brokers): the first token,
 * then a response to each server challenge, until complete.
 */
public interface SaslClientMechanism {
    String mechanismName();

    /** The first token (PLAIN: the whole credential; SCRAM: client-first-message). */
    byte[] initialResponse() throws SaslAuthenticationException;

    /** The response to the server's {@code challenge}; empty when there is nothing more to send. */
    byte[] evaluateChallenge(byte[] challenge) throws SaslAuthenticationException;

    boolean isComplete();
}
