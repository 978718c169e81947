package io.odradek.broker.quota;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ReferenceCountUtil;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.api.ProduceApi;
import io.odradek.wire.api.WriteTxnMarkersApi;
import io.odradek.wire.codec.Request;
import io.odradek.wire.codec.ResponseEncoder;
import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.Types;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Client quotas on the request path, as Kafka's KafkaApis applies them, in one place for every API: the
 * dispatcher calls {@link #beforeHandle} with a decoded request and {@link #afterHandle} with its response,
 * and mutes the connection for the throttle time returned (KIP-219: the response goes out at once, carrying
 * the throttle in its {@code ThrottleTimeMs} when its schema has one, and the client's next request waits).
 *
 * <ul>
 * <li>Produce: the request's bytes count against {@code producer_byte_rate}; its handling time against
 *     {@code request_percentage}, unless acks=0 (which gets no response but is still muted). The throttle is
 *     the larger of the two.</li>
 * <li>Fetch from a consumer: {@code max_bytes} is first bounded by what the consumer's quota allows in one
 *     window, and {@code min_bytes} by that; the response's bytes then count against
 *     {@code consumer_byte_rate} and the handling time against {@code request_percentage}. If either is
 *     violated the bytes are taken back and the answer is an empty response with the throttle time, as
 *     Kafka's throttled fetch. The fetch handler makes the byte check itself ({@link #consumerFetchQuota}),
 *     before its fetch session records anything as sent, and answers with the session's throttled response;
 *     a fetch over its request quota alone, or from a handler without that check, is replaced here by an
 *     empty response with session id 0 (the consumer starts a new session with a full fetch).</li>
 * <li>Fetch from a follower and WriteTxnMarkers (a cluster action) are exempt; every other API counts its
 *     handling time against {@code request_percentage}.</li>
 * </ul>
 * "Handling time" is the time the handler's call took on the connection's event loop (our equivalent of
 * Kafka's request handler thread time); work a handler hands to other threads (appends on the partition
 * writers) is not counted. Nothing is measured for a kind of quota that nobody configured.
 */
public final class RequestThrottler {
    private static final String THROTTLE_FIELD = "ThrottleTimeMs";
    /** Sizing a response encodes it aside: on the heap, file slices as regions (no bytes read). */
    private static final UnpooledByteBufAllocator HEAP = new UnpooledByteBufAllocator(false);

    private final ClientQuotas quotas;
    private final LongSupplier clockMs;
    private final Map<Schema, Optional<Field<Integer>>> throttleFields = new ConcurrentHashMap<>();
    /** Set once the fetch handler counts consumer bytes itself ({@link #consumerFetchQuota}). */
    private volatile boolean handlerCountsFetchBytes;

    public RequestThrottler(ClientQuotas quotas, LongSupplier clockMs) {
        this.quotas = quotas;
        this.clockMs = clockMs;
    }

    /** The response to send (null: none, produce acks=0) and how long to mute the connection afterwards. */
    public record Outcome(Struct response, int throttleMs) {
    }

    /**
     * The consumer byte-rate check for the fetch handler to make itself, before its fetch session records
     * what it sends. Asking for it hands the counting of fetch bytes to that handler: from then on
     * {@link #afterHandle} counts only a fetch's handling time and mutes for the throttle its response carries.
     */
    public ConsumerFetchQuota consumerFetchQuota() {
        handlerCountsFetchBytes = true;
        return (header, request, wouldSend) -> {
            if (!quotas.enabled(QuotaKind.FETCH) || replicaId(header.apiVersion(), request) >= 0) {
                return 0;
            }
            String user = ClientQuotas.ANONYMOUS; // until issue 10 gives the handler the connection's principal
            long now = clockMs.getAsLong();
            long bytes = responseBytes(FetchApi.SPEC, header.apiVersion(), header.correlationId(), wouldSend);
            int throttle = quotas.recordAndGetThrottleMs(QuotaKind.FETCH, user, header.clientId(), bytes, now);
            if (throttle > 0) {
                quotas.unrecord(QuotaKind.FETCH, user, header.clientId(), bytes, now);
            }
            return throttle;
        };
    }

    /** Bounds a consumer fetch to what its quota lets through in one window (Kafka's handleFetchRequest). */
    public void beforeHandle(Request request, String user) {
        if (request.api() != FetchApi.SPEC || !quotas.enabled(QuotaKind.FETCH) || isFromFollower(request)) {
            return;
        }
        Struct body = request.body();
        double window = quotas.maxValueInQuotaWindow(QuotaKind.FETCH, user, request.header().clientId());
        int maxBytes = (int) Math.min(body.get(FetchApi.Request.MAX_BYTES), Math.min(window, Integer.MAX_VALUE));
        body.set(FetchApi.Request.MAX_BYTES, maxBytes);
        body.set(FetchApi.Request.MIN_BYTES, Math.min(body.get(FetchApi.Request.MIN_BYTES), maxBytes));
    }

    /**
     * Records a handled request against its client's quotas.
     *
     * @param requestBytes the request frame's size, header included (Produce counts it; Kafka counts the body
     *     alone, a few dozen bytes less)
     * @param handlerNanos how long the handler's call took
     * @param response what the handler answered (null for produce acks=0)
     */
    public Outcome afterHandle(Request request, String user, int requestBytes, long handlerNanos, Struct response) {
        ApiSpec api = request.api();
        String clientId = request.header().clientId();
        long now = clockMs.getAsLong();
        if (api == ProduceApi.SPEC) {
            int bandwidth = quotas.recordAndGetThrottleMs(QuotaKind.PRODUCE, user, clientId, requestBytes, now);
            boolean acksZero = request.body().get(ProduceApi.Request.ACKS) == 0;
            int time = acksZero ? 0 : requestTime(user, clientId, handlerNanos, now);
            return withThrottle(request, response, Math.max(bandwidth, time));
        }
        if (api == FetchApi.SPEC) {
            if (isFromFollower(request)) {
                return new Outcome(response, 0);
            }
            int time = requestTime(user, clientId, handlerNanos, now);
            if (handlerCountsFetchBytes) {
                // The handler already answered empty if the bytes were over the quota.
                int bandwidth = response == null ? 0 : response.get(FetchApi.Response.THROTTLE_TIME_MS);
                if (time > 0 && bandwidth == 0 && response != null) {
                    return withThrottle(request, throttledFetch(response), time);
                }
                return withThrottle(request, response, Math.max(time, bandwidth));
            }
            int bandwidth = 0;
            long bytes = 0;
            if (quotas.enabled(QuotaKind.FETCH) && response != null) {
                bytes = responseBytes(request.api(), request.version(), request.header().correlationId(), response);
                bandwidth = quotas.recordAndGetThrottleMs(QuotaKind.FETCH, user, clientId, bytes, now);
            }
            int throttle = Math.max(time, bandwidth);
            if (throttle > 0 && response != null) {
                quotas.unrecord(QuotaKind.FETCH, user, clientId, bytes, now);
                return withThrottle(request, throttledFetch(response), throttle);
            }
            return withThrottle(request, response, throttle);
        }
        if (api == WriteTxnMarkersApi.SPEC || request.body() == null) {
            return new Outcome(response, 0); // a cluster action; the ApiVersions fallback answer
        }
        return withThrottle(request, response, requestTime(user, clientId, handlerNanos, now));
    }

    private int requestTime(String user, String clientId, long handlerNanos, long now) {
        double percentSeconds = handlerNanos * 100.0 / TimeUnit.SECONDS.toNanos(1);
        return quotas.recordAndGetThrottleMs(QuotaKind.REQUEST, user, clientId, percentSeconds, now);
    }

    private Outcome withThrottle(Request request, Struct response, int throttleMs) {
        if (throttleMs > 0 && response != null) {
            Field<Integer> field = throttleField(response.schema());
            if (field != null && field.presentIn(request.version())) {
                response.set(field, Math.max(throttleMs, response.get(field)));
            }
        }
        return new Outcome(response, throttleMs);
    }

    /** The response's ThrottleTimeMs field, if its schema has one. */
    @SuppressWarnings("unchecked")
    private Field<Integer> throttleField(Schema schema) {
        return throttleFields.computeIfAbsent(schema, s -> s.fields().stream()
                .filter(f -> f.name().equals(THROTTLE_FIELD) && f.type() == Types.INT32)
                .map(f -> (Field<Integer>) f)
                .findFirst()).orElse(null);
    }

    private static boolean isFromFollower(Request request) {
        return replicaId(request.version(), request.body()) >= 0;
    }

    private static int replicaId(short version, Struct body) {
        if (version >= 15) {
            Struct state = body.get(FetchApi.Request.REPLICA_STATE);
            return state == null ? -1 : state.get(FetchApi.Request.ReplicaState.REPLICA_ID);
        }
        return body.get(FetchApi.Request.REPLICA_ID);
    }

    /**
     * The size of the response as it would be sent, header included (Kafka counts the whole response body, not
     * just its records). Only done while someone has a consumer quota; records held in memory (down-converted
     * ones) are copied aside to be counted, file slices are not read.
     */
    private static long responseBytes(ApiSpec api, short version, int correlationId, Struct response) {
        List<Object> parts = ResponseEncoder.encode(HEAP, api, version, correlationId, response);
        long size = 0;
        for (Object part : parts) {
            size += part instanceof io.netty.buffer.ByteBuf b ? b.readableBytes()
                    : ((io.netty.channel.FileRegion) part).count();
            ReferenceCountUtil.release(part);
        }
        return size - 4; // the length prefix is framing, not response
    }

    /** Kafka's throttled fetch answer: no partitions, the handler's top-level error kept. */
    private static Struct throttledFetch(Struct response) {
        Short error = response.get(FetchApi.Response.ERROR_CODE);
        return FetchApi.Response.SCHEMA.newStruct()
                .set(FetchApi.Response.ERROR_CODE, error == null ? ErrorCode.NONE.code() : error)
                .set(FetchApi.Response.SESSION_ID, 0)
                .set(FetchApi.Response.RESPONSES, List.of());
    }
}
