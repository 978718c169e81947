package io.odradek.security.sasl;

import io.odradek.security.scram.ScramCredential;
import io.odradek.security.scram.ScramFormatter;
import io.odradek.security.scram.ScramMechanism;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.function.Function;

/**
 * SCRAM-SHA-256 / SCRAM-SHA-512 server (RFC 5802) as Kafka's ScramSaslServer: client-first -> server-first
 * (combined nonce, salt, iterations), client-final (proof) -> server-final (server signature). Credentials come
 * from the cluster metadata (user -> credential for this mechanism). Kafka's delegation tokens
 * ({@code tokenauth=true}) are not supported: such a login is refused as an unknown token. Failures that would
 * reveal whether a user exists are {@link SaslInvalidCredentialsException}s (the client sees Kafka's generic text).
 */
public final class ScramServer implements SaslServerMechanism {
    private static final SecureRandom RANDOM = new SecureRandom();

    private enum State { CLIENT_FIRST, CLIENT_FINAL, COMPLETE, FAILED }

    private final ScramMechanism mechanism;
    private final ScramFormatter formatter;
    private final Function<String, ScramCredential> credentials;
    private final java.util.function.Supplier<String> serverNonces;
    private State state = State.CLIENT_FIRST;
    private ScramMessages.ClientFirst clientFirst;
    private ScramMessages.ServerFirst serverFirst;
    private ScramCredential credential;
    private String authorizationId;

    public ScramServer(ScramMechanism mechanism, Function<String, ScramCredential> credentials) {
        this(mechanism, credentials, () -> new BigInteger(130, RANDOM).toString(Character.MAX_RADIX));
    }

    /** With chosen server nonces: for RFC test vectors. */
    ScramServer(ScramMechanism mechanism, Function<String, ScramCredential> credentials,
            java.util.function.Supplier<String> serverNonces) {
        this.serverNonces = serverNonces;
        this.mechanism = mechanism;
        this.formatter = new ScramFormatter(mechanism);
        this.credentials = credentials;
    }

    @Override
    public String mechanismName() {
        return mechanism.mechanismName;
    }

    @Override
    public byte[] evaluateResponse(byte[] response) throws SaslAuthenticationException {
        try {
            switch (state) {
                case CLIENT_FIRST:
                    return clientFirst(response);
                case CLIENT_FINAL:
                    return clientFinal(response);
                default:
                    throw new SaslInvalidCredentialsException("Unexpected SCRAM message in state " + state);
            }
        } catch (SaslAuthenticationException e) {
            state = State.FAILED;
            throw e;
        }
    }

    private byte[] clientFirst(byte[] response) throws SaslAuthenticationException {
        clientFirst = ScramMessages.ClientFirst.parse(response);
        String username = clientFirst.username();
        if ("true".equalsIgnoreCase(clientFirst.extensions().get("tokenauth"))) {
            throw new SaslInvalidCredentialsException("Token Authentication failed: Invalid tokenId : " + username);
        }
        credential = credentials.apply(username);
        if (credential == null) {
            throw new SaslInvalidCredentialsException("Authentication failed: Invalid user credentials");
        }
        if (!clientFirst.authorizationId().isEmpty() && !clientFirst.authorizationId().equals(username)) {
            throw new SaslAuthenticationException("Authentication failed: Client requested an authorization id that is different from username");
        }
        if (credential.iterations() < ScramMechanism.MIN_ITERATIONS) {
            throw new SaslInvalidCredentialsException("Iterations " + credential.iterations()
                    + " is less than the minimum " + ScramMechanism.MIN_ITERATIONS + " for " + mechanism.mechanismName);
        }
        String serverNonce = serverNonces.get();
        serverFirst = ScramMessages.ServerFirst.of(clientFirst.nonce() + serverNonce, credential.salt(),
                credential.iterations());
        authorizationId = username;
        state = State.CLIENT_FINAL;
        return serverFirst.text().getBytes(StandardCharsets.UTF_8);
    }

    private byte[] clientFinal(byte[] response) throws SaslAuthenticationException {
        ScramMessages.ClientFinal clientFinal = ScramMessages.ClientFinal.parse(response);
        if (!clientFinal.nonce().equals(serverFirst.nonce())) {
            throw new SaslInvalidCredentialsException("Invalid client nonce in the final client message.");
        }
        String binding = new String(Base64.getDecoder().decode(clientFinal.channelBinding()), StandardCharsets.UTF_8);
        if (!binding.equals(clientFirst.gs2Header())) {
            throw new SaslInvalidCredentialsException("Invalid channel binding in the final client message.");
        }
        byte[] authMessage = ScramMessages.authMessage(clientFirst.bare(), serverFirst.text(),
                clientFinal.withoutProof());
        byte[] clientSignature = formatter.hmac(credential.storedKey(), authMessage);
        byte[] clientKey = ScramMessages.xor(clientFinal.proof(), clientSignature);
        if (clientKey == null || !MessageDigest.isEqual(formatter.storedKey(clientKey), credential.storedKey())) {
            throw new SaslInvalidCredentialsException("Invalid client credentials");
        }
        byte[] serverSignature = formatter.hmac(credential.serverKey(), authMessage);
        credential = null;
        state = State.COMPLETE;
        return ("v=" + Base64.getEncoder().encodeToString(serverSignature)).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public boolean isComplete() {
        return state == State.COMPLETE;
    }

    @Override
    public String authorizationId() {
        if (state != State.COMPLETE) {
            throw new IllegalStateException("Authentication exchange has not completed");
        }
        return authorizationId;
    }
}
