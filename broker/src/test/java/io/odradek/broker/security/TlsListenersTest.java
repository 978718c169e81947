package io.odradek.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBufAllocator;
import io.odradek.broker.config.ConfigException;
import io.odradek.broker.config.Listener;
import io.odradek.broker.config.ListenerConfig;
import io.odradek.security.SecurityProtocol;
import io.odradek.security.TestCertificates;
import java.util.HashMap;
import java.util.Map;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.Test;

class TlsListenersTest {
    private static final TestCertificates CERTS = TestCertificates.shared();

    private static ListenerConfig listener(String name, SecurityProtocol protocol, Map<String, String> extra) {
        Map<String, String> originals = new HashMap<>(CERTS.server().keystoreConfig("JKS"));
        originals.putAll(CERTS.truststoreConfig("JKS"));
        originals.put("odradek.ssl.store.reload.interval.ms", "0");
        originals.putAll(extra);
        return new ListenerConfig(new Listener(name, "127.0.0.1", 0), protocol, originals);
    }

    private static SSLEngine engine(ServerTls tls) {
        return tls.newHandler(ByteBufAllocator.DEFAULT).engine();
    }

    @Test
    void sslClientAuthAppliesToSslListenersAndToSaslSslOnlyWhenListenerPrefixed() {
        Map<String, String> required = Map.of("ssl.client.auth", "required");
        assertThat(engine(TlsListeners.serverTls(listener("SSL", SecurityProtocol.SSL, required))).getNeedClientAuth())
                .isTrue();
        assertThat(engine(TlsListeners.serverTls(listener("SECURE", SecurityProtocol.SASL_SSL, required)))
                .getNeedClientAuth()).as("SASL_SSL ignores the plain key, as Kafka").isFalse();
        SSLEngine prefixed = engine(TlsListeners.serverTls(listener("SECURE", SecurityProtocol.SASL_SSL,
                Map.of("listener.name.secure.ssl.client.auth", "requested"))));
        assertThat(prefixed.getWantClientAuth()).isTrue();
        assertThat(prefixed.getNeedClientAuth()).isFalse();
    }

    @Test
    void listenerPrefixedKeysOverrideThePlainOnes() {
        SSLEngine engine = engine(TlsListeners.serverTls(listener("INTERNAL", SecurityProtocol.SSL, Map.of(
                "ssl.enabled.protocols", "TLSv1.2,TLSv1.3",
                "listener.name.internal.ssl.enabled.protocols", "TLSv1.3"))));
        // (Netty's OpenSSL engine also lists the SSLv2Hello pseudo-protocol.)
        assertThat(engine.getEnabledProtocols()).contains("TLSv1.3").doesNotContain("TLSv1.2");
    }

    @Test
    void badKeysFailTheListenerNamingIt() {
        assertThatThrownBy(() -> TlsListeners.serverTls(listener("SSL", SecurityProtocol.SSL,
                Map.of("ssl.keystore.password", "wrong"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("Listener SSL: Failed to load SSL keystore " + CERTS.server().keystore("JKS")
                        + " of type JKS");
        assertThatThrownBy(() -> TlsListeners.serverTls(listener("SSL", SecurityProtocol.SSL,
                Map.of("ssl.principal.mapping.rules", "RULE:x"))))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Listener SSL: Invalid value RULE:x for configuration ssl.principal.mapping.rules: "
                        + "Invalid rule: `RULE:x`, unmatched substring: `RULE:x`");
    }
}
