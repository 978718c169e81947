package io.odradek.broker.metrics;

import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.Apis;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Kafka's {@code kafka.network:type=RequestMetrics} meters, fed by the dispatcher as each response is written:
 * {@code name=RequestsPerSec,request=<Api>,version=<v>} (a meter per API and version), and the histograms
 * {@code name=TotalTimeMs|LocalTimeMs|RequestBytes,request=<Api>} (milliseconds rounded, as Kafka records them;
 * bytes). An API's meters are made on its first request; after that a report is array reads and a few atomic adds.
 * LocalTimeMs is the handler's call on the event loop (Kafka's request-thread time); TotalTimeMs runs from the frame's
 * decoding to its response being handed to the socket, so includes a long poll's wait, as Kafka's does.
 */
public final class RequestMeters implements RequestMetrics {
    static final String GROUP = "kafka.network";
    static final String TYPE = "RequestMetrics";
    private static final double NANOS_PER_MS = 1_000_000.0;

    private final Meters meters;
    private final AtomicReferenceArray<ApiMeters> byKey = new AtomicReferenceArray<>(128);

    RequestMeters(Meters meters) {
        this.meters = meters;
    }

    /** One API's meters; its per-version request meters made on first use. */
    private static final class ApiMeters {
        final String api;
        final AtomicReferenceArray<RateMeter> requests;
        final RecentHistogram totalTime;
        final RecentHistogram localTime;
        final RecentHistogram requestBytes;

        ApiMeters(Meters meters, ApiSpec spec) {
            this.api = spec.name();
            this.requests = new AtomicReferenceArray<>(spec.maxVersion() + 1);
            this.totalTime = meters.histogram(name("TotalTimeMs", api));
            this.localTime = meters.histogram(name("LocalTimeMs", api));
            this.requestBytes = meters.histogram(name("RequestBytes", api));
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

    @Override
    public void completed(short apiKey, short version, long totalNanos, long handlerNanos, int requestBytes) {
        ApiMeters api = api(apiKey);
        if (api == null) {
            return;
        }
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
            byKey.compareAndSet(apiKey, null, new ApiMeters(meters, spec)); // the loser's meters are the winner's
            api = byKey.get(apiKey);
        }
        return api;
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
