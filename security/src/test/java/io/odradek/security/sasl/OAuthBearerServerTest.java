package io.odradek.security.sasl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class OAuthBearerServerTest {
    private static final long NOW = 1_700_000_000_000L;

    private static String jws(String claims) {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        return b64.encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + b64.encodeToString(claims.getBytes(StandardCharsets.UTF_8)) + ".";
    }

    private static byte[] clientFirst(String authzid, String token) {
        return ("n," + (authzid.isEmpty() ? "" : "a=" + authzid) + ",\u0001auth=Bearer " + token
                + "\u0001traceId=42\u0001\u0001").getBytes(StandardCharsets.UTF_8);
    }

    private static OAuthBearerServer server(String jaasOptions) {
        return new OAuthBearerServer(OAuthBearerServer.Options.fromJaas(JaasConfig.parseSingle(
                "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required " + jaasOptions + ";")),
                () -> NOW);
    }

    @Test
    void validTokenLogsInItsSubjectWithItsLifetime() throws Exception {
        OAuthBearerServer server = server("");
        String token = jws("{\"sub\":\"alice\",\"iat\":" + (NOW / 1000 - 10) + ",\"exp\":" + (NOW / 1000 + 60) + "}");
        assertThat(server.evaluateResponse(clientFirst("", token))).isEmpty();
        assertThat(server.authorizationId()).isEqualTo("alice");
        assertThat(server.credentialLifetimeMs()).isEqualTo(60_000);
    }

    @Test
    void expiredTokenGetsTheJsonErrorThenFailsWithIt() throws Exception {
        OAuthBearerServer server = server("");
        String token = jws("{\"sub\":\"alice\",\"exp\":" + (NOW / 1000 - 1) + "}");
        byte[] challenge = server.evaluateResponse(clientFirst("", token));
        assertThat(new String(challenge, StandardCharsets.UTF_8)).isEqualTo("{\"status\":\"invalid_token\"}");
        assertThatThrownBy(() -> server.evaluateResponse(new byte[] {1}))
                .isInstanceOf(SaslAuthenticationException.class).hasMessage("{\"status\":\"invalid_token\"}");
        assertThat(server.isComplete()).isFalse();
    }

    @Test
    void clockSkewAcceptsAJustExpiredToken() throws Exception {
        OAuthBearerServer server = server("unsecuredValidatorAllowableClockSkewMs=\"5000\"");
        server.evaluateResponse(clientFirst("", jws("{\"sub\":\"alice\",\"exp\":" + (NOW / 1000 - 1) + "}")));
        assertThat(server.isComplete()).isTrue();
    }

    @Test
    void missingRequiredScopeIsInsufficientScope() throws Exception {
        OAuthBearerServer server = server("unsecuredValidatorRequiredScope=\"read write\"");
        byte[] challenge = server.evaluateResponse(clientFirst("",
                jws("{\"sub\":\"alice\",\"scope\":\"read\",\"exp\":" + (NOW / 1000 + 60) + "}")));
        assertThat(new String(challenge, StandardCharsets.UTF_8))
                .isEqualTo("{\"status\":\"insufficient_scope\", \"scope\":\"[read, write]\"}");
    }

    @Test
    void principalClaimNameAndScopeListAreHonoured() throws Exception {
        OAuthBearerServer server = server("unsecuredValidatorPrincipalClaimName=\"user\" "
                + "unsecuredValidatorScopeClaimName=\"roles\" unsecuredValidatorRequiredScope=\"admin\"");
        server.evaluateResponse(clientFirst("bob",
                jws("{\"user\":\"bob\",\"roles\":[\"admin\"],\"exp\":" + (NOW / 1000 + 60) + "}")));
        assertThat(server.authorizationId()).isEqualTo("bob");
    }

    @Test
    void signedOrMalformedTokensAndForeignAuthorizationIdsAreRefused() throws Exception {
        String signed = jws("{\"sub\":\"alice\",\"exp\":" + (NOW / 1000 + 60) + "}") + "c2ln";
        assertThat(new String(server("").evaluateResponse(clientFirst("", signed)), StandardCharsets.UTF_8))
                .isEqualTo("{\"status\":\"invalid_token\"}");
        assertThatThrownBy(() -> server("").evaluateResponse("n,,auth=Bearer x".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SaslInvalidCredentialsException.class)
                .hasMessage("Invalid OAUTHBEARER client first message");
        String token = jws("{\"sub\":\"alice\",\"exp\":" + (NOW / 1000 + 60) + "}");
        assertThatThrownBy(() -> server("").evaluateResponse(clientFirst("bob", token)))
                .hasMessage("Authentication failed: Client requested an authorization id (bob) that is different "
                        + "from the token's principal name (alice)");
    }

    @Test
    void deeplyNestedClaimsAreAnInvalidTokenNotAStackOverflow() throws Exception {
        String nested = jws("{\"sub\":" + "[".repeat(20_000) + "}");
        assertThat(new String(server("").evaluateResponse(clientFirst("", nested)), StandardCharsets.UTF_8))
                .isEqualTo("{\"status\":\"invalid_token\"}");
        String deepButFine = jws("{\"sub\":\"alice\",\"exp\":" + (NOW / 1000 + 60) + ",\"x\":"
                + "[".repeat(60) + "]".repeat(60) + "}");
        OAuthBearerServer ok = server("");
        ok.evaluateResponse(clientFirst("", deepButFine));
        assertThat(ok.authorizationId()).isEqualTo("alice");
    }

    @Test
    void hugeClientFirstMessagesAreParsedWithoutExhaustingTheStack() throws Exception {
        String token = jws("{\"sub\":\"alice\",\"exp\":" + (NOW / 1000 + 60) + "}");
        byte[] manyPairs = ("n,a=" + "=2C".repeat(50_000) + ",\u0001" + "k=v\u0001".repeat(100_000) + "auth=Bearer "
                + token + "\u0001\u0001").getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> server("").evaluateResponse(manyPairs))
                .hasMessageStartingWith("Authentication failed: Client requested an authorization id");
    }
}
