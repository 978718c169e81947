package io.odradek.broker.api;

import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.InitProducerIdApi;
import java.util.Map;

/**
 * Which versions of a handled API this broker offers: our own range, unless an emulated Kafka release
 * ({@code odradek.emulate.version}) caps it. The cap only lowers maxima: our minimum versions stay (they already
 * reach down to what old clients speak), an API the release did not advertise is hidden, and so is one whose
 * release maximum is below our minimum (none today: every range we handle starts at v0).
 *
 * <p>Not emulating, InitProducerId is still offered up to v5 only: v6 (KIP-939) is "latestVersionUnstable" in
 * Kafka 4.4, which Kafka advertises only with {@code unstable.api.versions.enable}; a v6 request is answered all
 * the same. Emulating, the release's maximum is a hard limit, as a real broker of that release knows nothing above it,
 * for clients: the requests only brokers send ({@link BrokerRequests}) are not capped, so a cluster still replicates.
 */
public final class ApiVersionCap {
    /** No emulation: every API we handle, at its full range. */
    public static final ApiVersionCap NONE = new ApiVersionCap(null);

    /** Versions handled but not advertised by default: Kafka 4.4 marks them unstable. */
    private static final Map<Short, Short> STABLE_MAX = Map.of(InitProducerIdApi.SPEC.key(), (short) 5);

    /** One API as advertised: key and version range. */
    public record Range(short apiKey, short minVersion, short maxVersion) {
    }

    private final KafkaRelease release;

    private ApiVersionCap(KafkaRelease release) {
        this.release = release;
    }

    /** Capped at what {@code release}'s broker advertised; null means no emulation. */
    public static ApiVersionCap of(KafkaRelease release) {
        return release == null ? NONE : new ApiVersionCap(release);
    }

    /** The emulated release, or null. */
    public KafkaRelease release() {
        return release;
    }

    /** The range ApiVersions advertises for a handled API, or null when the emulated release hides it. */
    public Range advertised(ApiSpec spec) {
        short max = STABLE_MAX.getOrDefault(spec.key(), spec.maxVersion());
        if (release != null) {
            max = (short) Math.min(max, release.maxVersion(spec.key()));
        }
        return max < spec.minVersion() ? null : new Range(spec.key(), spec.minVersion(), max);
    }

    /**
     * Whether a request of this API and version (one we decoded, so within our range) is taken. Not emulating:
     * always. Emulating: only an API the release advertised, at a version up to the release's maximum.
     */
    public boolean allows(ApiSpec spec, short version) {
        if (release == null) {
            return true;
        }
        Range range = advertised(spec);
        return range != null && version <= range.maxVersion();
    }

    /** Why {@link #allows} refuses a request, for the log line: the emulated release and what it offers of the API. */
    public String refusal(ApiSpec spec, short version) {
        Range range = advertised(spec);
        return "version " + version + " of " + spec.name() + " refused: emulating " + release
                + (range == null ? ", which lacks it" : ", which offers v" + range.minVersion() + "-" + range.maxVersion());
    }

    @Override
    public String toString() {
        return release == null ? "no emulation" : "emulating " + release;
    }
}
