package io.odradek.security.sasl;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SASL/OAUTHBEARER server (RFC 7628) with Kafka's unsecured-JWS validator (OAuthBearerSaslServer +
 * OAuthBearerUnsecuredValidatorCallbackHandler), for development set-ups. The client's first message carries
 * {@code auth=Bearer <token>}; a token that fails validation is answered with Kafka's JSON error challenge
 * ({@code {"status":"invalid_token"}}, or {@code insufficient_scope} with the required scope), the client replies
 * with a single 0x01 and the exchange fails with that JSON as the message. Extensions are accepted as the
 * unsecured validator does. The token's expiry caps the KIP-368 session lifetime.
 */
public final class OAuthBearerServer implements SaslServerMechanism {
    public static final String MECHANISM = "OAUTHBEARER";
    private static final String SEPARATOR = "\u0001";
    // Possessive repetitions (++, *+): Java matches a greedy repeated group by recursion, which a few KB of input
    // would overflow; none of these needs to give characters back.
    private static final String SASLNAME = "(?:[\\x01-\\x7F&&[^=,]]|=2C|=3D)++";
    private static final String KVPAIRS = "(?:[A-Za-z]++=[\\x21-\\x7E \t\r\n]++" + SEPARATOR + ")*+";
    private static final Pattern CLIENT_FIRST = Pattern.compile("n,(a=(?<authzid>" + SASLNAME + "))?," + SEPARATOR
            + "(?<kvpairs>" + KVPAIRS + ")" + SEPARATOR);
    private static final Pattern AUTH = Pattern.compile("(?<scheme>[\\w]++)[ ]++(?<token>[-_\\.a-zA-Z0-9]++)");

    /**
     * The unsecured validator's JAAS options: unsecuredValidatorPrincipalClaimName (default sub),
     * unsecuredValidatorScopeClaimName (default scope), unsecuredValidatorRequiredScope (space-delimited),
     * unsecuredValidatorAllowableClockSkewMs (default 0, not negative).
     */
    public record Options(String principalClaimName, String scopeClaimName, List<String> requiredScope,
            int allowableClockSkewMs) {

        public static Options fromJaas(JaasConfig.Entry entry) {
            String principal = entry.option("unsecuredValidatorPrincipalClaimName");
            String scope = entry.option("unsecuredValidatorScopeClaimName");
            String required = entry.option("unsecuredValidatorRequiredScope");
            String skew = entry.option("unsecuredValidatorAllowableClockSkewMs");
            int skewMs;
            try {
                skewMs = skew == null || skew.isBlank() ? 0 : Integer.parseInt(skew.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("unsecuredValidatorAllowableClockSkewMs: not a number: " + skew);
            }
            if (skewMs < 0) {
                throw new IllegalArgumentException("Allowable clock skew millis must not be negative: " + skew);
            }
            List<String> requiredScope = new ArrayList<>();
            if (required != null) {
                for (String s : required.split(" ")) {
                    if (!s.isEmpty()) {
                        requiredScope.add(s);
                    }
                }
            }
            return new Options(principal == null || principal.isBlank() ? "sub" : principal.trim(),
                    scope == null || scope.isBlank() ? "scope" : scope.trim(), List.copyOf(requiredScope), skewMs);
        }
    }

    private final Options options;
    private final LongSupplier clock;
    private String errorMessage;
    private boolean complete;
    private String authorizationId;
    private long expiryMs;

    public OAuthBearerServer(Options options, LongSupplier clockMs) {
        this.options = options;
        this.clock = clockMs;
    }

    @Override
    public String mechanismName() {
        return MECHANISM;
    }

    @Override
    public byte[] evaluateResponse(byte[] response) throws SaslAuthenticationException {
        if (response.length == 1 && response[0] == 1 && errorMessage != null) {
            throw new SaslAuthenticationException(errorMessage);
        }
        if (complete) {
            throw new IllegalStateException("Authentication exchange already completed");
        }
        errorMessage = null;
        Matcher m = CLIENT_FIRST.matcher(new String(response, StandardCharsets.UTF_8));
        if (!m.matches()) {
            throw new SaslInvalidCredentialsException("Invalid OAUTHBEARER client first message");
        }
        String authzid = m.group("authzid") == null ? "" : m.group("authzid");
        String auth = null;
        for (String kv : m.group("kvpairs").split(SEPARATOR)) {
            if (kv.startsWith("auth=")) {
                auth = kv.substring(5);
            }
        }
        if (auth == null) {
            throw new SaslInvalidCredentialsException("Invalid OAUTHBEARER client first message: 'auth' not specified");
        }
        Matcher a = AUTH.matcher(auth);
        if (!a.matches()) {
            throw new SaslInvalidCredentialsException("Invalid OAUTHBEARER client first message: invalid 'auth' format");
        }
        if (!"bearer".equalsIgnoreCase(a.group("scheme"))) {
            throw new SaslInvalidCredentialsException("Invalid scheme in OAUTHBEARER client first message");
        }
        UnsecuredJws token;
        try {
            token = validate(a.group("token"));
        } catch (UnsecuredJws.IllegalTokenException e) {
            String scope = e.failureScope();
            errorMessage = "{\"status\":\"" + (scope != null ? "insufficient_scope" : "invalid_token") + "\""
                    + (scope != null ? ", \"scope\":\"" + scope + "\"" : "") + "}";
            return errorMessage.getBytes(StandardCharsets.UTF_8);
        }
        if (!authzid.isEmpty() && !authzid.equals(token.principalName())) {
            throw new SaslAuthenticationException("Authentication failed: Client requested an authorization id ("
                    + authzid + ") that is different from the token's principal name (" + token.principalName() + ")");
        }
        authorizationId = token.principalName();
        expiryMs = token.lifetimeMs();
        complete = true;
        return new byte[0];
    }

    /** Kafka's unsecured validation: principal claim, iat not in the future, not expired, iat before exp, scope. */
    private UnsecuredJws validate(String compact) throws UnsecuredJws.IllegalTokenException {
        UnsecuredJws jws = new UnsecuredJws(compact, options.principalClaimName(), options.scopeClaimName());
        long now = clock.getAsLong();
        int skew = options.allowableClockSkewMs();
        Long iat = jws.issuedAtMs();
        if (iat != null && iat > now + skew) {
            throw new UnsecuredJws.IllegalTokenException("The Issued At value (" + iat + " ms) was after the indicated time ("
                    + now + " ms) plus allowable clock skew (" + skew + " ms)");
        }
        if (now - skew >= jws.lifetimeMs()) {
            throw new UnsecuredJws.IllegalTokenException("The indicated time (" + now + " ms) minus allowable clock skew ("
                    + skew + " ms) was on or after the Expiration Time value (" + jws.lifetimeMs() + " ms)");
        }
        if (iat != null && iat > jws.lifetimeMs()) {
            throw new UnsecuredJws.IllegalTokenException("The Issued At value (" + iat
                    + " ms) was after the Expiration Time value (" + jws.lifetimeMs() + " ms)");
        }
        for (String required : options.requiredScope()) {
            if (!jws.scope().contains(required)) {
                throw new UnsecuredJws.IllegalTokenException("The provided scope (" + jws.scope()
                        + ") was missing a required scope (" + required + ").  All required scope elements: "
                        + options.requiredScope(), options.requiredScope().toString());
            }
        }
        return jws;
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

    @Override
    public long credentialLifetimeMs() {
        return complete ? Math.max(0, expiryMs - clock.getAsLong()) : -1;
    }
}
