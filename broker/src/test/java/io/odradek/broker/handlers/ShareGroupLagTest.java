package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.coordinator.group.ShareGroupOffsets.PartitionOffset;
import io.odradek.wire.ErrorCode;
import org.junit.jupiter.api.Test;

/** DescribeShareGroupOffsets v1's Lag, computed as Kafka 4.4's GroupCoordinatorService computes it. */
class ShareGroupLagTest {
    @Test
    void lagIsTheHighWatermarkLessTheStartOffsetAndTheRecordsAlreadyCompletedAfterIt() {
        assertThat(DescribeShareGroupOffsetsHandler.lagOf(100, new PartitionOffset(0, ErrorCode.NONE, null, 40, 0, 10))).isEqualTo(50);
    }

    @Test
    void anUnknownDeliveryCompleteCountGivesLagMinusOne() {
        assertThat(DescribeShareGroupOffsetsHandler.lagOf(100, new PartitionOffset(0, ErrorCode.NONE, null, 40, 0, -1))).isEqualTo(-1);
    }

    @Test
    void aStartOffsetPastTheHighWatermarkGivesANegativeLagAsKafkaDoes() {
        assertThat(DescribeShareGroupOffsetsHandler.lagOf(5, new PartitionOffset(0, ErrorCode.NONE, null, 10, 0, 0))).isEqualTo(-5);
    }

    @Test
    void aPartitionWithoutStateOrWithAnErrorHasLagMinusOne() {
        assertThat(DescribeShareGroupOffsetsHandler.lagOf(100, PartitionOffset.none(0))).isEqualTo(-1);
        assertThat(DescribeShareGroupOffsetsHandler.lagOf(100,
                new PartitionOffset(0, ErrorCode.COORDINATOR_NOT_AVAILABLE, null, 40, 0, 0))).isEqualTo(-1);
    }
}
