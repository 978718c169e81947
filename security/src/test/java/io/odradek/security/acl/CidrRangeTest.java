package io.odradek.security.acl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CidrRangeTest {
    @Test
    void ipv4BlockHoldsItsNetworkAndBroadcastAddresses() {
        CidrRange r = CidrRange.parse("192.168.4.17/22");
        assertThat(r).hasToString("192.168.4.0/22");
        assertThat(r.contains("192.168.4.0")).isTrue();
        assertThat(r.contains("192.168.7.255")).isTrue();
        assertThat(r.contains("192.168.8.0")).isFalse();
        assertThat(r.contains("::1")).isFalse();
        assertThat(CidrRange.parse("10.0.0.7/32").contains("10.0.0.7")).isTrue();
        assertThat(CidrRange.parse("0.0.0.0/0").contains("203.0.113.9")).isTrue();
    }

    @Test
    void ipv6BlockHoldsAddressesWithTheSamePrefix() {
        CidrRange r = CidrRange.parse("2001:db8::/32");
        assertThat(r.contains("2001:db8:ffff::1")).isTrue();
        assertThat(r.contains("2001:db9::1")).isFalse();
        assertThat(r.contains("10.0.0.1")).isFalse();
    }

    @Test
    void malformedBlocksAreRefusedWithCommonsNetWording() {
        assertThatThrownBy(() -> CidrRange.parse("10.0.0/8")).hasMessage("Could not parse [10.0.0/8]");
        assertThatThrownBy(() -> CidrRange.parse("10.0.0.300/8")).hasMessage("Value [300] not in range [0,255]");
        assertThatThrownBy(() -> CidrRange.parse("10.0.0.1/33")).hasMessage("Value [33] not in range [0,32]");
        assertThatThrownBy(() -> CidrRange.parse("example.com/8")).hasMessage("Could not parse [example.com/8]");
        assertThatThrownBy(() -> CidrRange.parse("fe80::zz/64")).hasMessage("Could not parse [fe80::zz/64]");
    }
}
