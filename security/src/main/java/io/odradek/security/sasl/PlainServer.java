package io.odradek.security.sasl;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * SASL/PLAIN server (RFC 4616) as Kafka's PlainSaslServer: one message {@code authzid NUL authcid NUL passwd},
 * checked against the listener's JAAS {@code user_<name>="<password>"} options. An authorization id, when given,
 * must equal the user name. Messages are Kafka's.
 */
public final class PlainServer implements SaslServerMechanism {
    public static final String MECHANISM = "PLAIN";

    /** user name -> expected password, or null for an unknown user. */
    private final Function<String, String> passwords;
    private String authorizationId;
    private boolean complete;

    public PlainServer(Function<String, String> passwords) {
        this.passwords = passwords;
    }

    /** A server checking the {@code user_<name>} options of the listener's PlainLoginModule JAAS entry. */
    public static PlainServer fromJaas(JaasConfig.Entry entry) {
        return new PlainServer(user -> entry.option("user_" + user));
    }

    @Override
    public String mechanismName() {
        return MECHANISM;
    }

    @Override
    public byte[] evaluateResponse(byte[] response) throws SaslAuthenticationException {
        if (complete) {
            throw new IllegalStateException("Authentication exchange has completed");
        }
        List<String> tokens = tokens(new String(response, StandardCharsets.UTF_8));
        if (tokens.size() != 3) {
            throw new SaslAuthenticationException("Invalid SASL/PLAIN response: expected 3 tokens, got "
                    + tokens.size());
        }
        String authzid = tokens.get(0);
        String username = tokens.get(1);
        String password = tokens.get(2);
        if (username.isEmpty()) {
            throw new SaslAuthenticationException("Authentication failed: username not specified");
        }
        if (password.isEmpty()) {
            throw new SaslAuthenticationException("Authentication failed: password not specified");
        }
        String expected = passwords.apply(username);
        if (expected == null || !MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
                password.getBytes(StandardCharsets.UTF_8))) {
            throw new SaslAuthenticationException("Authentication failed: Invalid username or password");
        }
        if (!authzid.isEmpty() && !authzid.equals(username)) {
            throw new SaslAuthenticationException("Authentication failed: Client requested an authorization id that is different from username");
        }
        authorizationId = username;
        complete = true;
        return new byte[0];
    }

    /** Splits on NUL as Kafka does: a trailing NUL gives an empty last token, so "a\0b\0" has three. */
    private static List<String> tokens(String s) {
        List<String> out = new ArrayList<>();
        int start = 0;
        while (true) {
            int nul = s.indexOf('\u0000', start);
            if (nul < 0) {
                out.add(s.substring(start));
                return out;
            }
            out.add(s.substring(start, nul));
            start = nul + 1;
        }
    }

    @Override
    public boolean isComplete() {
        return complete;
    }

    @Override
    public String authorizationId() {
        if (!complete) {
            throw new IllegalStateException("Authentication exchange has not completed");
        }
        return authorizationId;
    }
}
