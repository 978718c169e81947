package io.odradek.security.sasl;

import java.nio.charset.StandardCharsets;

/** SASL/PLAIN client (inter-broker): sends {@code NUL user NUL password} once. */
public final class PlainClient implements SaslClientMechanism {
    private final String username;
    private final String password;
    private boolean complete;

    public PlainClient(String username, String password) {
        this.username = username;
        this.password = password;
    }

    @Override
    public String mechanismName() {
        return PlainServer.MECHANISM;
    }

    @Override
    public byte[] initialResponse() {
        return ("\u0000" + username + "\u0000" + password).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public byte[] evaluateChallenge(byte[] challenge) {
        complete = true;
        return new byte[0];
    }

    @Override
    public boolean isComplete() {
        return complete;
    }
}
