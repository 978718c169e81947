package io.odradek.security.sasl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.security.scram.ScramCredential;
import io.odradek.security.scram.ScramFormatter;
import io.odradek.security.scram.ScramMechanism;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScramTest {
    // RFC 7677 section 3: SCRAM-SHA-256, user "user", password "pencil".
    private static final String CLIENT_NONCE = "rOprNGfwEbeRWgbNEkqO";
    private static final String SERVER_NONCE = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
    private static final String CLIENT_FIRST = "n,,n=user,r=rOprNGfwEbeRWgbNEkqO";
    private static final String SERVER_FIRST =
            "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
    private static final String CLIENT_FINAL = "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
            + "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";
    private static final String SERVER_FINAL = "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=";

    private static ScramCredential rfcCredential() {
        ScramFormatter f = new ScramFormatter(ScramMechanism.SCRAM_SHA_256);
        byte[] salt = Base64.getDecoder().decode("W22ZaJ0SNY7soEsUEjb6gQ==");
        return f.credentialFromSaltedPassword(salt, f.saltedPassword("pencil", salt, 4096), 4096);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    @Test
    void clientProducesTheRfc7677Messages() throws Exception {
        ScramClient client = new ScramClient(ScramMechanism.SCRAM_SHA_256, "user", "pencil", CLIENT_NONCE);
        assertThat(text(client.initialResponse())).isEqualTo(CLIENT_FIRST);
        assertThat(text(client.evaluateChallenge(bytes(SERVER_FIRST)))).isEqualTo(CLIENT_FINAL);
        assertThat(client.isComplete()).isFalse();
        assertThat(client.evaluateChallenge(bytes(SERVER_FINAL))).isEmpty();
        assertThat(client.isComplete()).isTrue();
    }

    @Test
    void serverAnswersTheRfc7677Messages() throws Exception {
        ScramServer server = new ScramServer(ScramMechanism.SCRAM_SHA_256,
                Map.of("user", rfcCredential())::get, () -> SERVER_NONCE);
        assertThat(text(server.evaluateResponse(bytes(CLIENT_FIRST)))).isEqualTo(SERVER_FIRST);
        assertThat(text(server.evaluateResponse(bytes(CLIENT_FINAL)))).isEqualTo(SERVER_FINAL);
        assertThat(server.isComplete()).isTrue();
        assertThat(server.authorizationId()).isEqualTo("user");
    }

    @Test
    void clientRefusesAServerSignatureThatDoesNotMatch() throws Exception {
        ScramClient client = new ScramClient(ScramMechanism.SCRAM_SHA_256, "user", "pencil", CLIENT_NONCE);
        client.initialResponse();
        client.evaluateChallenge(bytes(SERVER_FIRST));
        assertThatThrownBy(() -> client.evaluateChallenge(bytes("v=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")))
                .isInstanceOf(SaslAuthenticationException.class)
                .hasMessage("Invalid server signature in server final message");
    }

    @Test
    void clientReportsTheServerError() throws Exception {
        ScramClient client = new ScramClient(ScramMechanism.SCRAM_SHA_256, "user", "pencil", CLIENT_NONCE);
        client.initialResponse();
        client.evaluateChallenge(bytes(SERVER_FIRST));
        assertThatThrownBy(() -> client.evaluateChallenge(bytes("e=invalid-proof")))
                .hasMessage("Sasl authentication using SCRAM-SHA-256 failed with error: invalid-proof");
    }

    @Test
    void clientRefusesTooFewIterationsAndAForeignNonce() throws Exception {
        ScramClient client = new ScramClient(ScramMechanism.SCRAM_SHA_256, "user", "pencil", CLIENT_NONCE);
        client.initialResponse();
        assertThatThrownBy(() -> client.evaluateChallenge(bytes(SERVER_FIRST.replace("i=4096", "i=100"))))
                .hasMessage("Requested iterations 100 is less than the minimum 4096 for SCRAM-SHA-256");
        ScramClient other = new ScramClient(ScramMechanism.SCRAM_SHA_256, "user", "pencil", "abc");
        other.initialResponse();
        assertThatThrownBy(() -> other.evaluateChallenge(bytes(SERVER_FIRST)))
                .hasMessage("Invalid server nonce: does not start with client nonce");
    }

    @Test
    void clientAndServerAgreeForBothMechanismsAndOddUserNames() throws Exception {
        for (ScramMechanism mechanism : ScramMechanism.values()) {
            ScramCredential credential = new ScramFormatter(mechanism).credential("s3cret", 4096);
            ScramServer server = new ScramServer(mechanism, Map.of("al=i,ce", credential)::get);
            ScramClient client = new ScramClient(mechanism, "al=i,ce", "s3cret");
            byte[] challenge = server.evaluateResponse(client.initialResponse());
            byte[] last = server.evaluateResponse(client.evaluateChallenge(challenge));
            client.evaluateChallenge(last);
            assertThat(client.isComplete()).isTrue();
            assertThat(server.authorizationId()).isEqualTo("al=i,ce");
        }
    }

    @Test
    void wrongPasswordFailsWithHiddenDetails() throws Exception {
        ScramServer server = new ScramServer(ScramMechanism.SCRAM_SHA_512,
                Map.of("alice", new ScramFormatter(ScramMechanism.SCRAM_SHA_512).credential("right", 4096))::get);
        ScramClient client = new ScramClient(ScramMechanism.SCRAM_SHA_512, "alice", "wrong");
        byte[] challenge = server.evaluateResponse(client.initialResponse());
        byte[] clientFinal = client.evaluateChallenge(challenge);
        assertThatThrownBy(() -> server.evaluateResponse(clientFinal))
                .isInstanceOf(SaslInvalidCredentialsException.class).hasMessage("Invalid client credentials");
        assertThat(server.isComplete()).isFalse();
    }

    @Test
    void unknownUserAndDelegationTokensAreRefused() {
        ScramServer server = new ScramServer(ScramMechanism.SCRAM_SHA_256, user -> null);
        assertThatThrownBy(() -> server.evaluateResponse(bytes("n,,n=bob,r=abc")))
                .isInstanceOf(SaslInvalidCredentialsException.class)
                .hasMessage("Authentication failed: Invalid user credentials");
        ScramServer tokens = new ScramServer(ScramMechanism.SCRAM_SHA_256, Map.of("tok", rfcCredential())::get);
        assertThatThrownBy(() -> tokens.evaluateResponse(bytes("n,,n=tok,r=abc,tokenauth=true")))
                .isInstanceOf(SaslInvalidCredentialsException.class)
                .hasMessage("Token Authentication failed: Invalid tokenId : tok");
    }

    @Test
    void channelBindingAndForeignAuthorizationIdAreRefused() {
        ScramServer server = new ScramServer(ScramMechanism.SCRAM_SHA_256, Map.of("user", rfcCredential())::get);
        assertThatThrownBy(() -> server.evaluateResponse(bytes("p=tls-unique,,n=user,r=abc")))
                .isInstanceOf(SaslInvalidCredentialsException.class)
                .hasMessage("Invalid SCRAM client first message format");
        ScramServer other = new ScramServer(ScramMechanism.SCRAM_SHA_256, Map.of("user", rfcCredential())::get);
        assertThatThrownBy(() -> other.evaluateResponse(bytes("n,a=admin,n=user,r=abc")))
                .isNotInstanceOf(SaslInvalidCredentialsException.class)
                .hasMessage("Authentication failed: Client requested an authorization id that is different from username");
    }

    @Test
    void hugeUserNamesAndExtensionsAreParsedWithoutExhaustingTheStack() {
        ScramServer server = new ScramServer(ScramMechanism.SCRAM_SHA_256, user -> null);
        assertThatThrownBy(() -> server.evaluateResponse(bytes("n,,n=" + "x".repeat(500_000) + ",r=abc")))
                .isInstanceOf(SaslInvalidCredentialsException.class)
                .hasMessage("Authentication failed: Invalid user credentials");
        ScramServer escaped = new ScramServer(ScramMechanism.SCRAM_SHA_256, user -> null);
        assertThatThrownBy(() -> escaped.evaluateResponse(bytes("n,a=" + "=2C".repeat(100_000) + ",n=u,r=abc"
                + ",k=v".repeat(100_000))))
                .isInstanceOf(SaslAuthenticationException.class);
    }

    @Test
    void clientFinalWithAnExtensionBeforeTheProofStillParses() throws Exception {
        ScramMessages.ClientFinal parsed = ScramMessages.ClientFinal.parse(bytes("c=biws,r=abc,ext=1,p=AAAA"));
        assertThat(parsed.nonce()).isEqualTo("abc");
        assertThat(parsed.proof()).containsExactly(0, 0, 0);
    }
}
