package io.odradek.security.sasl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JaasConfigTest {
    @Test
    void parsesModuleFlagAndQuotedAndBareOptions() {
        JaasConfig.Entry e = JaasConfig.parseSingle("org.apache.kafka.common.security.scram.ScramLoginModule "
                + "required username=\"ad\\\"min\" password=pw-1 /* comment */ user_x=\"a b;c\";");
        assertThat(e.loginModule()).isEqualTo("org.apache.kafka.common.security.scram.ScramLoginModule");
        assertThat(e.controlFlag()).isEqualTo("required");
        assertThat(e.options()).containsExactly(Map.entry("username", "ad\"min"), Map.entry("password", "pw-1"),
                Map.entry("user_x", "a b;c"));
    }

    @Test
    void refusesWhatKafkaRefuses() {
        assertThatThrownBy(() -> JaasConfig.parseSingle("Module required a=\"b\""))
                .hasMessage("JAAS config entry not terminated by semi-colon");
        assertThatThrownBy(() -> JaasConfig.parseSingle("Module mandatory a=\"b\";"))
                .hasMessage("Invalid login module control flag 'mandatory' in JAAS config");
        assertThatThrownBy(() -> JaasConfig.parseSingle("Module required a;"))
                .hasMessage("Value not specified for key 'a' in JAAS config");
        assertThatThrownBy(() -> JaasConfig.parseSingle("A required; B optional;"))
                .hasMessage("JAAS config property contains 2 login modules, should be 1 module");
    }

    @Test
    void readsTheSectionsOfALoginConfigFile() {
        Map<String, List<JaasConfig.Entry>> sections = JaasConfig.parseFile("""
                // broker
                KafkaServer {
                   org.apache.kafka.common.security.plain.PlainLoginModule required
                   user_admin="admin-secret";
                };
                sasl_plaintext.KafkaServer {
                   org.apache.kafka.common.security.scram.ScramLoginModule required;
                };
                """);
        assertThat(sections).containsOnlyKeys("KafkaServer", "sasl_plaintext.KafkaServer");
        assertThat(sections.get("KafkaServer").get(0).option("user_admin")).isEqualTo("admin-secret");
        assertThat(sections.get("sasl_plaintext.KafkaServer").get(0).options()).isEmpty();
    }
}
