package io.odradek.embedded.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Two test classes in parallel setting the same property to their brokers' addresses, their lives overlapping. */
class SystemPropertiesTest {
    @Test
    void theFirstOfTwoOverlappingUsesEndingLeavesTheSecondsAddressAndTheLastRestoresTheOriginal() {
        String name = "odradek.test.overlap.first-ends-first";
        System.setProperty(name, "original:9092");
        try {
            SystemProperties a = SystemProperties.set(List.of(name), "127.0.0.1:1111");
            SystemProperties b = SystemProperties.set(List.of(name), "127.0.0.1:2222");
            assertThat(System.getProperty(name)).isEqualTo("127.0.0.1:2222");
            a.restore();
            assertThat(System.getProperty(name)).isEqualTo("127.0.0.1:2222");
            b.restore();
            assertThat(System.getProperty(name)).isEqualTo("original:9092");
        } finally {
            System.clearProperty(name);
        }
    }

    @Test
    void theLatestUseEndingFirstGivesThePropertyBackToTheOneStillRunningNotToADeadBroker() {
        String name = "odradek.test.overlap.latest-ends-first";
        SystemProperties a = SystemProperties.set(List.of(name), "127.0.0.1:1111");
        SystemProperties b = SystemProperties.set(List.of(name), "127.0.0.1:2222");
        b.restore();
        assertThat(System.getProperty(name)).isEqualTo("127.0.0.1:1111");
        a.restore();
        assertThat(System.getProperty(name)).as("unset before the first use: unset again").isNull();
        a.restore();
        assertThat(System.getProperty(name)).isNull();
    }
}
