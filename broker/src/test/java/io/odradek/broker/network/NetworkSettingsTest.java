package io.odradek.broker.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.broker.BrokerConfig;
import io.odradek.broker.config.ConfigException;
import io.netty.util.internal.PlatformDependent;
import java.net.InetAddress;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NetworkSettingsTest {
    @Test
    void defaultsAreKafkasWithRequestMemoryBoundedByHalfTheDirectMemory() {
        NetworkSettings settings = BrokerConfig.defaults().networkSettings();
        assertThat(settings).isEqualTo(new NetworkSettings(104_857_600, 8, 500,
                PlatformDependent.maxDirectMemory() / 2, 600_000L, Integer.MAX_VALUE, Integer.MAX_VALUE, Map.of()));
    }

    @Test
    void kafkaKeysSetTheLimits() throws Exception {
        NetworkSettings settings = BrokerConfig.of(Map.of(
                "socket.request.max.bytes", "2048",
                "odradek.connection.max.in.flight.requests", "3",
                "queued.max.requests", "20",
                "queued.max.request.bytes", "1000000",
                "connections.max.idle.ms", "-1",
                "max.connections", "100",
                "max.connections.per.ip", "4",
                "max.connections.per.ip.overrides", "127.0.0.2:10, 127.0.0.3 : 0")).networkSettings();
        assertThat(settings).isEqualTo(new NetworkSettings(2048, 3, 20, 1_000_000L, -1L, 100, 4, Map.of(
                InetAddress.getByName("127.0.0.2"), 10, InetAddress.getByName("127.0.0.3"), 0)));
        assertThat(settings.maxConnectionsFor(InetAddress.getByName("127.0.0.2"))).isEqualTo(10);
        assertThat(settings.maxConnectionsFor(InetAddress.getByName("127.0.0.9"))).isEqualTo(4);
    }

    @Test
    void malformedPerIpOverrideFailsAtStartupNamingTheEntry() {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("max.connections.per.ip.overrides", "127.0.0.1:3,oops"))
                .networkSettings())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("max.connections.per.ip.overrides")
                .hasMessageContaining("'oops' is not host:count");
    }
}
