package io.odradek.broker.quota;

import io.odradek.broker.api.RequestContext;
import io.odradek.wire.schema.Struct;

/**
 * The client quota check of a consumer fetch, made by the fetch handler itself at the moment Kafka makes it
 * (KafkaApis.handleFetchRequest): with the response that would be sent in hand, before the fetch session
 * records anything as sent, so a throttled consumer gets the session's own throttled answer (Kafka's
 * getThrottledResponse) and its session stays as it was. It covers both quotas Kafka checks there:
 * {@code consumer_byte_rate} and {@code request_percentage}.
 */
public interface ConsumerFetchQuota {
    /** No client quotas: never applies. */
    ConsumerFetchQuota NONE = new ConsumerFetchQuota() {
        @Override
        public boolean applies(RequestContext context, Struct request) {
            return false;
        }

        @Override
        public int throttleMs(RequestContext context, Struct request, Struct wouldSend) {
            return 0;
        }
    };

    /**
     * Whether this fetch is checked at all: false for a follower and whenever no client quota is configured
     * (the default; one volatile read), and then the handler builds nothing for {@link #throttleMs}.
     */
    boolean applies(RequestContext context, Struct request);

    /**
     * Counts the fetch's handling time and the response it would get against its client's quotas. Returns 0
     * when it may be sent; else the throttle time in ms, the bytes are not counted, and the fetch is to be
     * answered with the session's throttled answer instead. The dispatcher learns the throttle from the
     * context's {@link FetchQuotaNote}, whatever the response version carries.
     */
    int throttleMs(RequestContext context, Struct request, Struct wouldSend);
}
