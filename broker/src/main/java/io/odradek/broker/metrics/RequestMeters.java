package io.odradek.broker.metrics;

import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.Apis;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.codec.Request;
import io.odradek.wire.schema.Struct;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Kafka's {@code kafka.network:type=RequestMetrics} meters, fed by the dispatcher as each response is written:
 * <ul>
 * <li>{@code name=RequestsPerSec,request=<Api>,version=<v>}: a meter per API and version;</li>
 * <li>{@code name=TotalTimeMs|LocalTimeMs|RequestBytes,request=<Api>}: histograms (milliseconds rounded, as Kafka
 *     records them; bytes). LocalTimeMs is the handler's call on the event loop (Kafka's request-thread time);
 *     TotalTimeMs runs from the frame's arrival to its response being handed to the socket, so includes a long
 *     poll's wait, as Kafka's does;</li>
 * <li>{@code name=ErrorsPerSec,request=<Api>,error=<ERROR_NAME>}: every error code of the response (NONE
 *     included), as Kafka counts {@code errorCounts()}: one read per struct on the paths that hold error codes;</li>
 * <li>a Fetch is counted under {@code request=Fetch} and again under {@code FetchConsumer} or {@code FetchFollower},
 *     as Kafka does (ErrorsPerSec under Fetch only).</li>
 * </ul>
 * An API's meters are made on its first request; after that a report is array reads and atomic adds, no lock.
 */
public final class RequestMeters implements RequestMetrics {
    static final String GROUP = "kafka.network";
    static final String TYPE = "RequestMetrics";
    static final String FETCH_CONSUMER = "FetchConsumer";
    static final String FETCH_FOLLOWER = "FetchFollower";
    private static final double NANOS_PER_MS = 1_000_000.0;
    /** Error codes -1 (UNKNOWN_SERVER_ERROR) to 254 index an API's error meters at code + 1. */
    private static final int ERROR_SLOTS = 256;

    private final Meters meters;
    private final AtomicReferenceArray<ApiMeters> byKey = new AtomicReferenceArray<>(128);
    private volatile ApiMeters fetchConsumer;
    private volatile ApiMeters fetchFollower;

    RequestMeters(Meters meters) {
        this.meters = meters;
    }

    /** One API's meters (or FetchConsumer's / FetchFollower's); its per-version and per-error meters made on first use. */
    private static final class ApiMeters implements ErrorCodeFields.Visitor {
        final Meters meters;
        final String api;
        final AtomicReferenceArray<RateMeter> requests;
        final RecentHistogram totalTime;
        final RecentHistogram localTime;
        final RecentHistogram requestBytes;
        final ErrorCodeFields errorCodes; // null: no errors counted (the fetch sub-names, schemas without codes)
        final AtomicReferenceArray<RateMeter> errors = new AtomicReferenceArray<>(ERROR_SLOTS);

        ApiMeters(Meters meters, String api, int maxVersion, ErrorCodeFields errorCodes) {
            this.meters = meters;
            this.api = api;
            this.requests = new AtomicReferenceArray<>(maxVersion + 1);
            this.totalTime = meters.histogram(name("TotalTimeMs", api));
            this.localTime = meters.histogram(name("LocalTimeMs", api));
            this.requestBytes = meters.histogram(name("RequestBytes", api));
            this.errorCodes = errorCodes;
        }

        /** One error code of the response: its ErrorsPerSec meter (made on its first use) marked. */
        @Override
        public void code(short code) {
            ErrorCode error = ErrorCode.forCode(code); // an unknown code counts as UNKNOWN_SERVER_ERROR
            int slot = error.code() + 1;
            if (slot < 0 || slot >= ERROR_SLOTS) {
                meters.meter(errorsName(api, error), "requests").mark();
                return;
            }
            RateMeter meter = errors.get(slot);
            if (meter == null) {
                meter = meters.meter(errorsName(api, error), "requests");
                errors.set(slot, meter);
            }
            meter.mark();
        }
    }

    /** Kafka's name of a request histogram, e.g. {@code kafka.network:type=RequestMetrics,name=TotalTimeMs,request=Produce}. */
    public static MetricName name(String metric, String api) {
        return new MetricName(GROUP, TYPE, metric, Map.of("request", api));
    }

    /** {@code kafka.network:type=RequestMetrics,name=RequestsPerSec,request=<api>,version=<v>}. */
    public static MetricName requestsName(String api, short version) {
        return new MetricName(GROUP, TYPE, "RequestsPerSec", Map.of("request", api, "version", Short.toString(version)));
    }

    /** {@code kafka.network:type=RequestMetrics,name=ErrorsPerSec,request=<api>,error=<ERROR_NAME>}. */
    public static MetricName errorsName(String api, ErrorCode error) {
        return new MetricName(GROUP, TYPE, "ErrorsPerSec", Map.of("request", api, "error", error.name()));
    }

    @Override
    public void completed(short apiKey, short version, long totalNanos, long handlerNanos, int requestBytes) {
        ApiMeters api = api(apiKey);
        if (api != null) {
            record(api, version, totalNanos, handlerNanos, requestBytes);
        }
    }

    @Override
    public void completed(Request request, Struct response, long totalNanos, long handlerNanos, int requestBytes) {
        ApiMeters api = api(request.api().key());
        if (api == null) {
            return;
        }
        short version = request.version();
        record(api, version, totalNanos, handlerNanos, requestBytes);
        if (request.api() == FetchApi.SPEC && request.body() != null) {
            boolean follower = fetchingReplica(version, request.body()) >= 0;
            record(follower ? fetchFollower() : fetchConsumer(), version, totalNanos, handlerNanos, requestBytes);
        }
        if (response != null && api.errorCodes != null) {
            api.errorCodes.forEach(response, version, api); // no allocation: the API's meters are the visitor
        }
    }

    /** A fetch's replica id (replica_state from v15): a follower's broker id, or -1 for a consumer. */
    private static int fetchingReplica(short version, Struct fetch) {
        if (version >= 15) {
            Struct state = fetch.get(FetchApi.Request.REPLICA_STATE);
            return state == null ? -1 : state.get(FetchApi.Request.ReplicaState.REPLICA_ID);
        }
        return fetch.get(FetchApi.Request.REPLICA_ID);
    }

    private void record(ApiMeters api, short version, long totalNanos, long handlerNanos, int requestBytes) {
        requests(api, version).mark();
        api.totalTime.update(Math.round(totalNanos / NANOS_PER_MS));
        api.localTime.update(Math.round(handlerNanos / NANOS_PER_MS));
        api.requestBytes.update(requestBytes);
    }

    private ApiMeters api(short apiKey) {
        if (apiKey < 0 || apiKey >= byKey.length()) {
            return null;
        }
        ApiMeters api = byKey.get(apiKey);
        if (api == null) {
            ApiSpec spec = Apis.forKey(apiKey);
            if (spec == null) {
                return null;
            }
            // A racing thread's meters are the same objects (the registry hands out one meter per name).
            byKey.compareAndSet(apiKey, null, new ApiMeters(meters, spec.name(), spec.maxVersion(),
                    ErrorCodeFields.of(spec.response())));
            api = byKey.get(apiKey);
        }
        return api;
    }

    private ApiMeters fetchConsumer() {
        ApiMeters m = fetchConsumer;
        if (m == null) {
            m = new ApiMeters(meters, FETCH_CONSUMER, FetchApi.SPEC.maxVersion(), null);
            fetchConsumer = m;
        }
        return m;
    }

    private ApiMeters fetchFollower() {
        ApiMeters m = fetchFollower;
        if (m == null) {
            m = new ApiMeters(meters, FETCH_FOLLOWER, FetchApi.SPEC.maxVersion(), null);
            fetchFollower = m;
        }
        return m;
    }

    private RateMeter requests(ApiMeters api, short version) {
        if (version < 0 || version >= api.requests.length()) {
            return meters.meter(requestsName(api.api, version), "requests"); // not a version we serve: not seen
        }
        RateMeter meter = api.requests.get(version);
        if (meter == null) {
            meter = meters.meter(requestsName(api.api, version), "requests");
            api.requests.set(version, meter);
        }
        return meter;
    }
}
