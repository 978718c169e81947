package io.odradek.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Start to first served request of one embedded broker: in a fresh JVM (class loading included), and started again
 * and again in this one. The figures go to the test's output; there is no timed assertion.
 */
class StartTimeTest {
    @Test
    void aStartedBrokerAnswersItsFirstRequestAndTheStartTimesAreReported() throws Exception {
        List<Long> millis = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            long begin = System.nanoTime();
            try (Odradek odradek = Odradek.start()) {
                RawApiVersions.Answer answer = RawApiVersions.ask(odradek.bootstrapServers(), 1000 + i);
                millis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin));
                assertThat(answer.correlationId()).isEqualTo(1000 + i);
                assertThat(answer.errorCode()).isZero();
                assertThat(answer.apiCount()).isGreaterThan(40);
            }
        }
        List<Long> later = new ArrayList<>(millis.subList(1, millis.size()));
        Collections.sort(later);
        System.out.println("embedded Odradek, start to first served request in one JVM: median of "
                + later.size() + " starts after the first " + later.get(later.size() / 2) + " ms (all: " + millis
                + "; the first is this JVM's first only when the test runs alone)");
    }

    @Test
    void aBrokerStartedInAFreshJvmAnswersItsFirstRequestAndTheTimeIsReported() throws Exception {
        List<Long> millis = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            millis.add(firstRequestInAFreshJvm());
        }
        System.out.println("embedded Odradek, start to first served request in a fresh JVM (" + Runtime.version()
                + ", " + Runtime.getRuntime().availableProcessors() + " cores): " + millis + " ms");
    }

    /** Runs {@link FirstStartInAFreshJvm} on this test's class path and returns the time it printed. */
    private static long firstRequestInAFreshJvm() throws IOException, InterruptedException {
        Process java = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), FirstStartInAFreshJvm.class.getName())
                .redirectErrorStream(true).start();
        String output = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(java.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(java.exitValue()).as(output).isZero();
        Matcher m = Pattern.compile("first-request-ms=(\\d+)").matcher(output);
        assertThat(m.find()).as(output).isTrue();
        return Long.parseLong(m.group(1));
    }
}
