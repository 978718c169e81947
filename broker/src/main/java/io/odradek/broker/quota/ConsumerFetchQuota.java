package io.odradek.broker.quota;

import io.odradek.wire.header.RequestHeader;
import io.odradek.wire.schema.Struct;

/**
 * The consumer byte-rate check, made by the fetch handler itself at the moment Kafka makes it: with the
 * response that would be sent in hand, before the fetch session records anything as sent, so a throttled
 * consumer gets the session's own throttled answer (Kafka's getThrottledResponse) and its session stays
 * as it was.
 */
@FunctionalInterface
public interface ConsumerFetchQuota {
    /** No consumer quotas: never throttles. */
    ConsumerFetchQuota NONE = (header, request, wouldSend) -> 0;

    /**
     * Counts the response a fetch would get against its client's {@code consumer_byte_rate}. Returns 0 when
     * it may be sent; else the throttle time in ms, the bytes are not counted, and the fetch is to be answered
     * empty with that throttle time instead. Follower fetches always get 0.
     */
    int throttleMs(RequestHeader header, Struct request, Struct wouldSend);
}
