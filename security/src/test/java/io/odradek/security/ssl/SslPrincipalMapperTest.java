package io.odradek.security.ssl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SslPrincipalMapperTest {

    @Test
    void defaultRuleKeepsTheWholeDistinguishedName() {
        assertThat(SslPrincipalMapper.fromRules(null).name("CN=alice,OU=Test,O=Odradek"))
                .isEqualTo("CN=alice,OU=Test,O=Odradek");
        assertThat(SslPrincipalMapper.fromRules("DEFAULT").name("CN=a")).isEqualTo("CN=a");
    }

    @Test
    void kafkaDocumentationExampleMapsEachNameByTheFirstRuleThatMatches() {
        SslPrincipalMapper mapper = SslPrincipalMapper.fromRules("RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/,"
                + "RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/L,"
                + "RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/L,"
                + "DEFAULT");
        assertThat(mapper.name("CN=Duke,OU=ServiceUsers,O=Org,C=US")).isEqualTo("Duke");
        assertThat(mapper.name("CN=Duke,OU=SME,O=mycp,L=Fulton,ST=MD,C=US")).isEqualTo("duke@sme");
        assertThat(mapper.name("cn=duke,ou=sme,dc=mycp,dc=com")).isEqualTo("duke");
        assertThat(mapper.name("cN=duke,OU=JavaSoft,O=Sun Microsystems")).isEqualTo("duke");
        assertThat(mapper.name("OU=JavaSoft,O=Sun Microsystems,C=US")).isEqualTo("OU=JavaSoft,O=Sun Microsystems,C=US");
    }

    @Test
    void upperCaseFlagSpacesAroundRulesAndEscapedSlashes() {
        SslPrincipalMapper mapper = SslPrincipalMapper.fromRules("  RULE:^CN=([^,]*),.*$/$1/U ,  RULE:^O=a\\/b$/slash/ ");
        assertThat(mapper.name("CN=alice,OU=Test")).isEqualTo("ALICE");
        assertThat(mapper.name("O=a/b")).isEqualTo("slash");
    }

    @Test
    void referenceToAGroupThePatternLacksRefusesTheClientAsKafkasReplaceThrows() {
        assertThatThrownBy(() -> SslPrincipalMapper.fromRules("RULE:^CN=(.*)$/$1-$2/").name("CN=bob"))
                .isInstanceOf(SslPrincipalMapper.NoMatchingRuleException.class)
                .hasMessageContaining("No group 2");
        assertThatThrownBy(() -> SslPrincipalMapper.fromRules("RULE:^CN=bob$/$1/").name("CN=bob"))
                .isInstanceOf(SslPrincipalMapper.NoMatchingRuleException.class)
                .hasMessageContaining("No group 1");
        // Java reads $12 as group 1 then "2" when there is one group, as Kafka's replaceAll does.
        assertThat(SslPrincipalMapper.fromRules("RULE:^CN=(.*)$/$12/").name("CN=bob")).isEqualTo("bob2");
    }

    @Test
    void emptyRulesRefuseEveryClientCertificate() {
        SslPrincipalMapper mapper = SslPrincipalMapper.fromRules("");
        assertThatThrownBy(() -> mapper.name("CN=alice,OU=Test,O=Odradek"))
                .isInstanceOf(SslPrincipalMapper.NoMatchingRuleException.class)
                .hasMessage("No rules apply to CN=alice,OU=Test,O=Odradek, rules []");
        // Set to "" is not unset: the settings keep the empty rules (unset is DEFAULT).
        assertThat(SslSettings.from(java.util.Map.of("ssl.principal.mapping.rules", "")::get).principalMappingRules())
                .isEmpty();
        assertThat(SslSettings.from(java.util.Map.<String, String>of()::get).principalMappingRules())
                .isEqualTo("DEFAULT");
    }

    @Test
    void nameNoRuleAppliesToIsRefused() {
        SslPrincipalMapper mapper = SslPrincipalMapper.fromRules("RULE:^CN=(.*),OU=Ops$/$1/");
        assertThatThrownBy(() -> mapper.name("CN=eve,OU=Test"))
                .isInstanceOf(SslPrincipalMapper.NoMatchingRuleException.class)
                .hasMessage("No rules apply to CN=eve,OU=Test, rules [RULE:^CN=(.*),OU=Ops$/$1]");
    }

    @Test
    void textThatIsNotARuleIsRefusedWithKafkasMessage() {
        assertThatThrownBy(() -> SslPrincipalMapper.fromRules("DEFAULT, foo"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid rule: `foo`, unmatched substring: `foo`");
        assertThatThrownBy(() -> SslPrincipalMapper.fromRules("RULE:^CN=(.*)$/$1/Lx"))
                .hasMessage("Invalid rule: `RULE:^CN=(.*)$/$1/Lx`, unmatched substring: `x`");
        assertThatThrownBy(() -> SslPrincipalMapper.fromRules("DEFAULTX"))
                .hasMessage("Invalid rule: `DEFAULTX`, unmatched substring: `X`");
        assertThatThrownBy(() -> SslPrincipalMapper.fromRules("RULE:^CN=(.*)$/$1"))
                .hasMessage("Invalid rule: `RULE:^CN=(.*)$/$1`, unmatched substring: `RULE:^CN=(.*)$/$1`");
    }
}
