package io.odradek.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

import org.junit.jupiter.api.Test;

/**
 * Spring Boot's dependency management (spring-boot-dependencies 3.5) puts Netty 4.1 and prometheus-metrics 1.3 on a
 * user's class path in place of ours: the start says so, and which pom properties fix it, before anything binds.
 */
class ClasspathCheckTest {
    @Test
    void nettyAndPrometheusAsSpringBoot35ManagesThemAreNamedWithThePropertiesToSet() {
        String message = ClasspathCheck.problems(false, "4.1.128.Final", "1.3.10");
        assertThat(message)
                .contains("Netty 4.1.128.Final", "io.netty.channel.IoHandlerFactory is missing")
                .contains("prometheus-metrics 1.3.10")
                .contains("<netty.version>4.2.18.Final</netty.version>")
                .contains("<prometheus-client.version>1.10.0</prometheus-client.version>")
                .contains("io.netty:netty-bom:4.2.18.Final", "io.prometheus:prometheus-metrics-bom:1.10.0");
    }

    @Test
    void onlyTheLibraryThatIsTooOldIsNamed() {
        assertThat(ClasspathCheck.problems(true, "4.2.18.Final", "1.3.10"))
                .contains("prometheus-metrics 1.3.10").doesNotContain("Netty 4.2");
        assertThat(ClasspathCheck.problems(false, null, "1.10.0"))
                .contains("Netty older than 4.2").doesNotContain("prometheus-metrics 1.10");
        assertThat(ClasspathCheck.problems(true, "4.2.18.Final", "1.10.0")).isNull();
        assertThat(ClasspathCheck.problems(true, "4.2.18.Final", null)).isNull();
    }

    @Test
    void versionsCompareByTheirNumbersNotAsText() {
        assertThat(ClasspathCheck.older("1.3.10", "1.10.0")).isTrue();
        assertThat(ClasspathCheck.older("1.10.0", "1.10.0")).isFalse();
        assertThat(ClasspathCheck.older("1.11.1", "1.10.0")).isFalse();
        assertThat(ClasspathCheck.older("2.0.0-SNAPSHOT", "1.10.0")).isFalse();
    }

    @Test
    void thisBuildsClassPathPasses() {
        assertThatNoException().isThrownBy(ClasspathCheck::verify);
    }
}
