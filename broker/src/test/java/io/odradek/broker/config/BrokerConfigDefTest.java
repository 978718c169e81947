package io.odradek.broker.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class BrokerConfigDefTest {
    @Test
    void kafkaPasswordKeysAreSensitiveAlsoBehindAListenerPrefix() {
        assertThat(BrokerConfigDef.isSensitive("ssl.key.password")).isTrue();
        assertThat(BrokerConfigDef.isSensitive("sasl.oauthbearer.assertion.private.key.passphrase")).isTrue();
        assertThat(BrokerConfigDef.isSensitive("ssl.keystore.certificate.chain")).isTrue();
        assertThat(BrokerConfigDef.isSensitive("delegation.token.secret.key")).isTrue();
        assertThat(BrokerConfigDef.isSensitive("listener.name.external.ssl.truststore.password")).isTrue();
        assertThat(BrokerConfigDef.isSensitive("listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config")).isTrue();
    }

    @Test
    void keysNobodyDefinesAreSensitiveButKnownOnesAreNot() {
        assertThat(BrokerConfigDef.isSensitive("my.plugin.api.key")).isTrue();
        assertThat(BrokerConfigDef.isSensitive("listener.name.external.my.plugin.key")).isTrue();
        assertThat(BrokerConfigDef.isSensitive("log.retention.ms")).isFalse();
        assertThat(BrokerConfigDef.isSensitive("ssl.keystore.location")).isFalse();
        assertThat(BrokerConfigDef.isSensitive("listener.name.external.ssl.keystore.type")).isFalse();
        assertThat(BrokerConfigDef.isSensitive("num.io.threads")).isFalse();
    }

    @Test
    void logLinesShowSensitiveValuesAsHidden() {
        assertThat(BrokerConfigDef.redacted(Map.of("log.retention.ms", "1000",
                "listener.name.a.ssl.key.password", "hunter2", "my.secret.thing", "x")))
                .containsExactly(Map.entry("listener.name.a.ssl.key.password", "[hidden]"),
                        Map.entry("log.retention.ms", "1000"), Map.entry("my.secret.thing", "[hidden]"));
    }

    @Test
    void kafkaKeyTypesComeFromTheGeneratedList() {
        assertThat(BrokerConfigDef.kafkaType("num.io.threads")).isEqualTo("INT");
        assertThat(BrokerConfigDef.kafkaType("log.cleaner.min.cleanable.ratio")).isEqualTo("DOUBLE");
        assertThat(BrokerConfigDef.kafkaType("sasl.enabled.mechanisms")).isEqualTo("LIST");
        assertThat(BrokerConfigDef.kafkaType("no.such.key")).isNull();
    }
}
