package io.odradek.security.sasl;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The four SCRAM messages of RFC 5802 with the grammar Kafka's ScramMessages accepts (channel binding "n" only,
 * Kafka's extensions {@code ,key=value} after the nonce, e.g. {@code tokenauth=true}), parsed and written.
 */
final class ScramMessages {
    // Every repetition is possessive (*+, ++): Java matches a greedy repeated group by recursion, so a few KB of
    // saslname or extensions would overflow the stack; none of these needs to give characters back (each is
    // followed by a character it cannot contain, or by the end).
    private static final String SASLNAME = "(?:[\\x01-\\x7F&&[^=,]]|=2C|=3D)++";
    private static final String VALUE_SAFE = "[\\x01-\\x7F&&[^=,]]++";
    private static final String PRINTABLE = "[\\x21-\\x7E&&[^,]]++";
    private static final String BASE64_CHAR = "[a-zA-Z0-9/+]";
    private static final String BASE64 = "(?:" + BASE64_CHAR + "{4})*+(?:" + BASE64_CHAR + "{3}=|" + BASE64_CHAR
            + "{2}==)?";
    private static final String RESERVED = "(m=" + VALUE_SAFE + ",)?";
    /** In the client-final message the proof follows the extensions: "p=" is never taken as one. */
    private static final String EXTENSIONS = "(?:,(?!p=)[A-Za-z]++=" + VALUE_SAFE + ")*+";

    private static final Pattern CLIENT_FIRST = Pattern.compile("(?<gs2>n,(a=(?<authzid>" + SASLNAME + "))?,)"
            + "(?<bare>" + RESERVED + "n=(?<saslname>" + SASLNAME + "),r=(?<nonce>" + PRINTABLE + ")(?<extensions>"
            + EXTENSIONS + "))");
    private static final Pattern SERVER_FIRST = Pattern.compile(RESERVED + "r=(?<nonce>" + PRINTABLE + "),s=(?<salt>"
            + BASE64 + "),i=(?<iterations>[0-9]+)" + EXTENSIONS);
    private static final Pattern CLIENT_FINAL = Pattern.compile("(?<withoutProof>c=(?<channel>" + BASE64
            + "),r=(?<nonce>" + PRINTABLE + ")" + EXTENSIONS + "),p=(?<proof>" + BASE64 + ")");
    private static final Pattern SERVER_FINAL = Pattern.compile("(?:e=(?<error>" + VALUE_SAFE + "))?(?:v=(?<signature>"
            + BASE64 + "))?");

    private ScramMessages() {
    }

    record ClientFirst(String gs2Header, String authorizationId, String username, String nonce,
            Map<String, String> extensions, String bare) {
        static ClientFirst parse(byte[] bytes) throws SaslInvalidCredentialsException {
            String message = new String(bytes, StandardCharsets.UTF_8);
            Matcher m = CLIENT_FIRST.matcher(message);
            if (!m.matches()) {
                throw new SaslInvalidCredentialsException("Invalid SCRAM client first message format");
            }
            String authzid = m.group("authzid");
            Map<String, String> extensions = new LinkedHashMap<>();
            String ext = m.group("extensions");
            for (String kv : ext.isEmpty() ? new String[0] : ext.substring(1).split(",")) {
                int eq = kv.indexOf('=');
                extensions.put(kv.substring(0, eq), kv.substring(eq + 1));
            }
            return new ClientFirst(m.group("gs2"), authzid == null ? "" : ScramMessages.username(authzid),
                    ScramMessages.username(m.group("saslname")), m.group("nonce"), extensions, m.group("bare"));
        }
    }

    record ServerFirst(String nonce, byte[] salt, int iterations, String text) {
        static ServerFirst of(String nonce, byte[] salt, int iterations) {
            return new ServerFirst(nonce, salt, iterations,
                    "r=" + nonce + ",s=" + Base64.getEncoder().encodeToString(salt) + ",i=" + iterations);
        }

        static ServerFirst parse(byte[] bytes) throws SaslAuthenticationException {
            String message = new String(bytes, StandardCharsets.UTF_8);
            Matcher m = SERVER_FIRST.matcher(message);
            if (!m.matches()) {
                throw new SaslAuthenticationException("Invalid SCRAM server first message format");
            }
            int iterations;
            try {
                iterations = Integer.parseInt(m.group("iterations"));
            } catch (NumberFormatException e) {
                throw new SaslAuthenticationException("Invalid SCRAM server first message format");
            }
            return new ServerFirst(m.group("nonce"), Base64.getDecoder().decode(m.group("salt")), iterations, message);
        }
    }

    record ClientFinal(String channelBinding, String nonce, byte[] proof, String withoutProof) {
        static ClientFinal parse(byte[] bytes) throws SaslInvalidCredentialsException {
            String message = new String(bytes, StandardCharsets.UTF_8);
            Matcher m = CLIENT_FINAL.matcher(message);
            if (!m.matches()) {
                throw new SaslInvalidCredentialsException("Invalid SCRAM client final message format");
            }
            return new ClientFinal(m.group("channel"), m.group("nonce"), Base64.getDecoder().decode(m.group("proof")),
                    m.group("withoutProof"));
        }
    }

    record ServerFinal(String error, byte[] signature) {
        static ServerFinal parse(byte[] bytes) throws SaslAuthenticationException {
            Matcher m = SERVER_FINAL.matcher(new String(bytes, StandardCharsets.UTF_8));
            if (!m.matches()) {
                throw new SaslAuthenticationException("Invalid SCRAM server final message format");
            }
            String sig = m.group("signature");
            return new ServerFinal(m.group("error"), sig == null ? null : Base64.getDecoder().decode(sig));
        }
    }

    /** RFC 5802's saslname decoding: {@code =2C} is ',' and {@code =3D} is '='. */
    static String username(String saslName) {
        return saslName.replace("=2C", ",").replace("=3D", "=");
    }

    static String saslName(String username) {
        return username.replace("=", "=3D").replace(",", "=2C");
    }

    /** AuthMessage = client-first-message-bare "," server-first-message "," client-final-message-without-proof. */
    static byte[] authMessage(String clientFirstBare, String serverFirst, String clientFinalWithoutProof) {
        return (clientFirstBare + "," + serverFirst + "," + clientFinalWithoutProof).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] xor(byte[] a, byte[] b) {
        if (a.length != b.length) {
            return null;
        }
        byte[] out = new byte[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = (byte) (a[i] ^ b[i]);
        }
        return out;
    }
}
