package io.odradek.security.sasl;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * An unsecured JWS (RFC 7515 with {@code "alg":"none"} and no signature) as Kafka's OAuthBearerUnsecuredJws:
 * {@code base64url(header).base64url(claims).} with a string principal claim (default {@code sub}), a numeric
 * {@code exp} (seconds), optional {@code iat}, and a scope claim (space-delimited string or list of strings).
 * Construction fails with {@link IllegalTokenException} on anything Kafka refuses.
 */
public final class UnsecuredJws {
    /** A token Kafka would refuse; the message is for the broker's debug log (the client sees invalid_token). */
    public static final class IllegalTokenException extends Exception {
        private static final long serialVersionUID = 1L;
        private final String failureScope;

        IllegalTokenException(String message) {
            this(message, null);
        }

        IllegalTokenException(String message, String failureScope) {
            super(message);
            this.failureScope = failureScope;
        }

        /** The required scope when that is what failed (status insufficient_scope); else null. */
        public String failureScope() {
            return failureScope;
        }
    }

    private final Map<String, Object> claims;
    private final String principalName;
    private final List<String> scope;
    private final long lifetimeMs;

    public UnsecuredJws(String compact, String principalClaimName, String scopeClaimName) throws IllegalTokenException {
        if (compact.contains("..")) {
            throw new IllegalTokenException("Malformed compact serialization contains '..'");
        }
        List<String> splits = splits(compact);
        Map<String, Object> header = decode(splits.get(0));
        claims = decode(splits.get(1));
        Object alg = header.get("alg");
        if (alg == null) {
            throw new IllegalTokenException("JWS header must have an Algorithm value");
        }
        if (!"none".equals(alg)) {
            throw new IllegalTokenException("Unsecured JWS must have 'none' for an algorithm");
        }
        if (!splits.get(2).isEmpty()) {
            throw new IllegalTokenException("Unsecured JWS must not contain a digital signature");
        }
        this.scope = scope(claims.get(scopeClaimName));
        Number exp = claim("exp", Number.class);
        if (exp == null) {
            throw new IllegalTokenException("No expiration time in JWT");
        }
        lifetimeMs = Math.round(exp.doubleValue() * 1000);
        String principal = claim(principalClaimName, String.class);
        if (principal == null || principal.isBlank()) {
            throw new IllegalTokenException("No principal name in JWT claim: " + principalClaimName);
        }
        principalName = principal;
    }

    private static List<String> splits(String compact) throws IllegalTokenException {
        List<String> out = new ArrayList<>();
        int start = 0;
        int dot;
        while ((dot = compact.indexOf('.', start)) >= 0) {
            out.add(compact.substring(start, dot));
            start = dot + 1;
        }
        out.add(compact.substring(start));
        if (out.size() != 3) {
            throw new IllegalTokenException(
                    "Unsecured JWS compact serializations must have 3 dot-separated Base64URL-encoded values");
        }
        return out;
    }

    private static Map<String, Object> decode(String split) throws IllegalTokenException {
        try {
            return Json.parseObject(new String(Base64.getUrlDecoder().decode(split), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new IllegalTokenException("Invalid JWS part: " + e.getMessage());
        }
    }

    private static List<String> scope(Object value) {
        List<String> out = new ArrayList<>();
        if (value instanceof String s) {
            for (String part : s.split(" ")) {
                if (!part.isEmpty()) {
                    out.add(part);
                }
            }
        } else if (value instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof String s && !s.isBlank()) {
                    out.add(s.trim());
                }
            }
        }
        return List.copyOf(out);
    }

    /** The claim {@code name} if present and of {@code type}; null if absent. */
    public <T> T claim(String name, Class<T> type) throws IllegalTokenException {
        Object value = claims.get(name);
        if (value == null) {
            return null;
        }
        if (!type.isInstance(value)) {
            throw new IllegalTokenException("The '" + name + "' claim value was not of type " + type.getSimpleName());
        }
        return type.cast(value);
    }

    public String principalName() {
        return principalName;
    }

    public List<String> scope() {
        return scope;
    }

    /** The expiry ({@code exp}) in epoch milliseconds. */
    public long lifetimeMs() {
        return lifetimeMs;
    }

    /** {@code iat} in epoch milliseconds, or null. */
    public Long issuedAtMs() throws IllegalTokenException {
        Number iat = claim("iat", Number.class);
        return iat == null ? null : Math.round(iat.doubleValue() * 1000);
    }
}
