package io.odradek.security.sasl;

import io.odradek.security.scram.ScramFormatter;
import io.odradek.security.scram.ScramMechanism;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/** SCRAM client (inter-broker) as Kafka's ScramSaslClient: no authorization id, no extensions, binding "n,,". */
public final class ScramClient implements SaslClientMechanism {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String GS2_HEADER = "n,,";

    private enum State { SEND_CLIENT_FIRST, RECEIVE_SERVER_FIRST, RECEIVE_SERVER_FINAL, COMPLETE, FAILED }

    private final ScramMechanism mechanism;
    private final ScramFormatter formatter;
    private final String username;
    private final String password;
    private final String clientNonce;
    private State state = State.SEND_CLIENT_FIRST;
    private String clientFirstBare;
    private byte[] expectedServerSignature;

    public ScramClient(ScramMechanism mechanism, String username, String password) {
        this(mechanism, username, password, new BigInteger(130, RANDOM).toString(Character.MAX_RADIX));
    }

    /** With a fixed nonce: for RFC test vectors. */
    ScramClient(ScramMechanism mechanism, String username, String password, String clientNonce) {
        this.mechanism = mechanism;
        this.formatter = new ScramFormatter(mechanism);
        this.username = username;
        this.password = password;
        this.clientNonce = clientNonce;
    }

    @Override
    public String mechanismName() {
        return mechanism.mechanismName;
    }

    @Override
    public byte[] initialResponse() throws SaslAuthenticationException {
        if (state != State.SEND_CLIENT_FIRST) {
            throw new IllegalStateException("SCRAM client first message already sent");
        }
        clientFirstBare = "n=" + ScramMessages.saslName(username) + ",r=" + clientNonce;
        state = State.RECEIVE_SERVER_FIRST;
        return (GS2_HEADER + clientFirstBare).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public byte[] evaluateChallenge(byte[] challenge) throws SaslAuthenticationException {
        try {
            switch (state) {
                case RECEIVE_SERVER_FIRST:
                    return clientFinal(ScramMessages.ServerFirst.parse(challenge));
                case RECEIVE_SERVER_FINAL:
                    verifyServerFinal(ScramMessages.ServerFinal.parse(challenge));
                    state = State.COMPLETE;
                    return new byte[0];
                default:
                    throw new IllegalStateException("Unexpected SCRAM challenge in state " + state);
            }
        } catch (SaslAuthenticationException e) {
            state = State.FAILED;
            throw e;
        }
    }

    private byte[] clientFinal(ScramMessages.ServerFirst serverFirst) throws SaslAuthenticationException {
        if (!serverFirst.nonce().startsWith(clientNonce)) {
            throw new SaslAuthenticationException("Invalid server nonce: does not start with client nonce");
        }
        if (serverFirst.iterations() < ScramMechanism.MIN_ITERATIONS) {
            throw new SaslAuthenticationException("Requested iterations " + serverFirst.iterations()
                    + " is less than the minimum " + ScramMechanism.MIN_ITERATIONS + " for " + mechanism.mechanismName);
        }
        byte[] salted = formatter.saltedPassword(password, serverFirst.salt(), serverFirst.iterations());
        String withoutProof = "c=" + Base64.getEncoder().encodeToString(GS2_HEADER.getBytes(StandardCharsets.UTF_8))
                + ",r=" + serverFirst.nonce();
        byte[] authMessage = ScramMessages.authMessage(clientFirstBare, serverFirst.text(), withoutProof);
        byte[] clientKey = formatter.clientKey(salted);
        byte[] clientSignature = formatter.hmac(formatter.storedKey(clientKey), authMessage);
        byte[] proof = ScramMessages.xor(clientKey, clientSignature);
        expectedServerSignature = formatter.hmac(formatter.serverKey(salted), authMessage);
        state = State.RECEIVE_SERVER_FINAL;
        return (withoutProof + ",p=" + Base64.getEncoder().encodeToString(proof)).getBytes(StandardCharsets.UTF_8);
    }

    private void verifyServerFinal(ScramMessages.ServerFinal serverFinal) throws SaslAuthenticationException {
        if (serverFinal.error() != null) {
            throw new SaslAuthenticationException("Sasl authentication using " + mechanism.mechanismName
                    + " failed with error: " + serverFinal.error());
        }
        if (serverFinal.signature() == null
                || !MessageDigest.isEqual(serverFinal.signature(), expectedServerSignature)) {
            throw new SaslAuthenticationException("Invalid server signature in server final message");
        }
    }

    @Override
    public boolean isComplete() {
        return state == State.COMPLETE;
    }
}
