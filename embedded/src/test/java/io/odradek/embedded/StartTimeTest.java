package io.odradek.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Start to first served request of one embedded broker, in this JVM: the first start (classes loading) and the
 * median of later ones. The figures go to the test's output; there is no timed assertion.
 */
class StartTimeTest {
    @Test
    void aStartedBrokerAnswersItsFirstRequestAndTheStartTimesAreReported() throws Exception {
        List<Long> millis = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
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
        System.out.println("embedded Odradek, start to first served request: first start in this JVM "
                + millis.get(0) + " ms; median of the next " + later.size() + " " + later.get(later.size() / 2)
                + " ms (all: " + millis + ")");
    }
}
