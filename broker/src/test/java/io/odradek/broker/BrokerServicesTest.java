package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class BrokerServicesTest {
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    @Test
    void partitionWritersFollowNumIoThreadsUpToTheCores() {
        assertThat(BrokerServices.writerThreads(BrokerConfig.of(Map.of("num.io.threads", "1")))).isEqualTo(1);
        assertThat(BrokerServices.writerThreads(BrokerConfig.of(Map.of("num.io.threads", "64")))).isEqualTo(Math.min(64, CORES));
        assertThat(BrokerServices.writerThreads(BrokerConfig.of(Map.of()))).isEqualTo(Math.min(8, CORES));
    }
}
