package io.odradek.broker.quota;

import io.odradek.broker.api.RequestContext;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.api.ProduceApi;
import io.odradek.wire.api.WriteTxnMarkersApi;
import io.odradek.wire.codec.Request;
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
 *     Kafka's throttled fetch. The fetch handler makes both checks itself ({@link #consumerFetchQuota}),
 *     before its fetch session records anything as sent, answers with the session's throttled response (its
 *     session kept), and tells the dispatcher the throttle in the request's {@link FetchQuotaNote}, never
 *     through the response (Fetch v0 has no ThrottleTimeMs): its answer is then sent as it is. Only a fetch
 *     from a handler without that check is measured and, if throttled, replaced here by an empty response
 *     with session id 0.</li>
 * <li>Fetch from a follower and WriteTxnMarkers (a cluster action) are exempt; every other API counts its
 *     handling time against {@code request_percentage}.</li>
 * </ul>
 * "Handling time" is the time the handler's call took on the connection's event loop (our equivalent of
 * Kafka's request handler thread time); work a handler hands to other threads (appends on the partition
 * writers) is not counted. Nothing is measured for a kind of quota that nobody configured, and while none
 * is configured at all (the default) a request costs one volatile read here.
 */
public final class RequestThrottler {
    private static final String THROTTLE_FIELD = "ThrottleTimeMs";

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
     * The consumer fetch's quota check for the fetch handler to make itself, before its fetch session records
     * what it sends (quotafix: request time included, so a fetch throttled for it alone keeps its session too).
     * Asking for it hands the counting of fetch bytes to that handler: from then on {@link #afterHandle} takes
     * a checked fetch's throttle from its {@link FetchQuotaNote} and sends the handler's answer as it is.
     */
    public ConsumerFetchQuota consumerFetchQuota() {
        handlerCountsFetchBytes = true;
        return new ConsumerFetchQuota() {
            @Override
            public boolean applies(RequestContext context, Struct request) {
                return quotas.any() && checksFetches() && replicaId(context.version(), request) < 0;
            }

            @Override
            public int throttleMs(RequestContext context, Struct request, Struct wouldSend) {
                return checkConsumerFetch(context, wouldSend);
            }
        };
    }

    /** Whether a quota a consumer fetch counts against is configured (producer quotas alone: no). */
    private boolean checksFetches() {
        return quotas.enabled(QuotaKind.FETCH) || quotas.enabled(QuotaKind.REQUEST);
    }

    private int checkConsumerFetch(RequestContext context, Struct wouldSend) {
        String user = ClientQuotas.ANONYMOUS; // until issue 10 gives the handler the connection's principal
        String clientId = context.clientId();
        long now = clockMs.getAsLong();
        FetchQuotaNote note = context.fetchQuota(); // null: called outside the dispatcher, or quotas just set
        int time = note == null ? 0 : requestTime(user, clientId, note.handlingNanos(System.nanoTime()), now);
        long bytes = 0;
        int bandwidth = 0;
        if (quotas.enabled(QuotaKind.FETCH)) {
            bytes = FetchResponseSize.of(context.version(), context.header().correlationId(), wouldSend);
            bandwidth = quotas.recordAndGetThrottleMs(QuotaKind.FETCH, user, clientId, bytes, now);
        }
        int throttle = Math.max(time, bandwidth);
        if (throttle > 0 && bytes > 0) {
            // Kafka takes the bytes back whichever quota throttles: the answer is empty.
            quotas.unrecord(QuotaKind.FETCH, user, clientId, bytes, now);
        }
        if (note != null) {
            note.checked(throttle);
        }
        return throttle;
    }

    /**
     * Bounds a consumer fetch to what its quota lets through in one window (Kafka's handleFetchRequest).
     * Returns the note the fetch handler's quota check leaves for {@link #afterHandle} (for the request's
     * {@link RequestContext}); null for every other request, and always while no quota is configured.
     */
    public FetchQuotaNote beforeHandle(Request request, String user) {
        if (!quotas.any() || request.api() != FetchApi.SPEC || !checksFetches() || isFromFollower(request)) {
            return null;
        }
        FetchQuotaNote note = new FetchQuotaNote(System.nanoTime());
        if (!quotas.enabled(QuotaKind.FETCH)) {
            return note;
        }
        Struct body = request.body();
        double window = quotas.maxValueInQuotaWindow(QuotaKind.FETCH, user, request.header().clientId());
        int maxBytes = (int) Math.min(body.get(FetchApi.Request.MAX_BYTES), Math.min(window, Integer.MAX_VALUE));
        body.set(FetchApi.Request.MAX_BYTES, maxBytes);
        body.set(FetchApi.Request.MIN_BYTES, Math.min(body.get(FetchApi.Request.MIN_BYTES), maxBytes));
        return note;
    }

    /**
     * Whether {@link #afterHandle} has anything to do for a request with this note: false while no quota is
     * configured (one volatile read), so the dispatcher skips it and allocates nothing per request.
     */
    public boolean measures(FetchQuotaNote fetchNote) {
        return fetchNote != null || quotas.any();
    }

    /**
     * Records a handled request against its client's quotas.
     *
     * @param requestBytes the request frame's size, header included (Produce counts it; Kafka counts the body
     *     alone, a few dozen bytes less)
     * @param handlerNanos how long the handler's call took
     * @param response what the handler answered (null for produce acks=0)
     * @param fetchNote what {@link #beforeHandle} returned
     */
    public Outcome afterHandle(Request request, String user, int requestBytes, long handlerNanos, Struct response,
            FetchQuotaNote fetchNote) {
        if (!measures(fetchNote)) {
            return new Outcome(response, 0); // no quota configured, nothing to measure
        }
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
            if (fetchNote != null && fetchNote.isChecked()) {
                // quotafix: the handler checked both quotas and answered throttled itself if need be (its
                // session's answer); the throttle comes from the note, as v0 responses cannot carry it.
                return withThrottle(request, response, fetchNote.throttleMs());
            }
            int time = requestTime(user, clientId, handlerNanos, now);
            if (handlerCountsFetchBytes) {
                // Answered before the handler's check (a session error), or quotas came on meanwhile: the
                // session already recorded this answer, so it is sent as it is, throttled for request time.
                return withThrottle(request, response, time);
            }
            int bandwidth = 0;
            long bytes = 0;
            if (quotas.enabled(QuotaKind.FETCH) && response != null) {
                bytes = FetchResponseSize.of(request.version(), request.header().correlationId(), response);
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

    /** Kafka's throttled fetch answer: no partitions, the handler's top-level error kept. */
    private static Struct throttledFetch(Struct response) {
        Short error = response.get(FetchApi.Response.ERROR_CODE);
        return FetchApi.Response.SCHEMA.newStruct()
                .set(FetchApi.Response.ERROR_CODE, error == null ? ErrorCode.NONE.code() : error)
                .set(FetchApi.Response.SESSION_ID, 0)
                .set(FetchApi.Response.RESPONSES, List.of());
    }
}
