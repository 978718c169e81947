package io.odradek.security.sasl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PlainTest {
    private static final JaasConfig.Entry JAAS = JaasConfig.parseSingle(
            "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"admin\" "
                    + "password=\"admin-secret\" user_admin=\"admin-secret\" user_alice=\"alice-secret\";");

    private static byte[] msg(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void userFromTheJaasEntriesLogsIn() throws Exception {
        PlainServer server = PlainServer.fromJaas(JAAS);
        assertThat(server.evaluateResponse(new PlainClient("alice", "alice-secret").initialResponse())).isEmpty();
        assertThat(server.isComplete()).isTrue();
        assertThat(server.authorizationId()).isEqualTo("alice");
    }

    @Test
    void authorizationIdEqualToTheUserIsAccepted() throws Exception {
        PlainServer server = PlainServer.fromJaas(JAAS);
        server.evaluateResponse(msg("alice\u0000alice\u0000alice-secret"));
        assertThat(server.authorizationId()).isEqualTo("alice");
    }

    @Test
    void failuresCarryKafkasMessages() {
        assertThatThrownBy(() -> PlainServer.fromJaas(JAAS).evaluateResponse(msg("\u0000alice\u0000wrong")))
                .hasMessage("Authentication failed: Invalid username or password");
        assertThatThrownBy(() -> PlainServer.fromJaas(JAAS).evaluateResponse(msg("\u0000bob\u0000x")))
                .hasMessage("Authentication failed: Invalid username or password");
        assertThatThrownBy(() -> PlainServer.fromJaas(JAAS).evaluateResponse(msg("alice")))
                .hasMessage("Invalid SASL/PLAIN response: expected 3 tokens, got 1");
        assertThatThrownBy(() -> PlainServer.fromJaas(JAAS).evaluateResponse(msg("\u0000\u0000x")))
                .hasMessage("Authentication failed: username not specified");
        assertThatThrownBy(() -> PlainServer.fromJaas(JAAS).evaluateResponse(msg("\u0000alice\u0000")))
                .hasMessage("Authentication failed: password not specified");
        assertThatThrownBy(() -> PlainServer.fromJaas(JAAS).evaluateResponse(msg("admin\u0000alice\u0000alice-secret")))
                .hasMessage("Authentication failed: Client requested an authorization id that is different from username");
    }
}
