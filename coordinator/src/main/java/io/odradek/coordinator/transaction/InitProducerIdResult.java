package io.odradek.coordinator.transaction;

import io.odradek.wire.ErrorCode;

/** InitProducerId's answer: the producer id and epoch to use, or an error with -1 / -1 as Kafka answers. */
public record InitProducerIdResult(ErrorCode error, long producerId, short producerEpoch) {
    public static InitProducerIdResult error(ErrorCode error) {
        return new InitProducerIdResult(error, -1L, (short) -1);
    }
}
