package io.odradek.broker.api;

import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.InitProducerIdApi;
import io.odradek.wire.api.ProduceApi;
import java.util.Map;

/**
 * Which versions of a handled API this broker offers: our own range, unless an emulated Kafka release
 * ({@code odradek.emulate.version}) caps it. The cap lowers maxima; before 4.0 our minimum versions stay (they
 * already reach down to what old clients speak); an API the release did not advertise is hidden, and so is one whose
 * release maximum is below our minimum (none today: every range we handle starts at v0). Emulating 4.0 or later,
 * the minimums Kafka 4.0 raised (KIP-896, {@link #KIP_896_MINIMUMS}) are advertised and enforced, except that
 * Produce is still advertised from v0 while v0-2 are refused, as Kafka 4 does (KAFKA-18659: librdkafka before 2.10
 * only compresses with gzip, snappy or lz4 when Produce's range starts at v0; ApiKeys'
 * PRODUCE_API_VERSIONS_RESPONSE_MIN_VERSION).
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

    /**
     * KIP-896: the oldest versions a Kafka 4.0+ broker takes, where they are above v0 (from kafka-clients 4.4.0's
     * request schemas' validVersions; KIP-896 removed them all in 4.0 and none was raised since). Share-group APIs
     * (which start at v1 in their release tables' own right) are left to the table.
     */
    public static final Map<Short, Short> KIP_896_MINIMUMS = Map.ofEntries(
            Map.entry((short) 0, (short) 3), Map.entry((short) 1, (short) 4), Map.entry((short) 2, (short) 1),
            Map.entry((short) 8, (short) 2), Map.entry((short) 9, (short) 1), Map.entry((short) 19, (short) 2),
            Map.entry((short) 20, (short) 1), Map.entry((short) 23, (short) 2), Map.entry((short) 27, (short) 1),
            Map.entry((short) 29, (short) 1), Map.entry((short) 30, (short) 1), Map.entry((short) 31, (short) 1),
            Map.entry((short) 32, (short) 1), Map.entry((short) 34, (short) 1), Map.entry((short) 35, (short) 1),
            Map.entry((short) 38, (short) 1), Map.entry((short) 39, (short) 1), Map.entry((short) 40, (short) 1),
            Map.entry((short) 41, (short) 1));

    /** One API as advertised: key and version range. */
    public record Range(short apiKey, short minVersion, short maxVersion) {
    }

    private final KafkaRelease release;
    /** Whether the release is 4.0 or later, with KIP-896's minimums. */
    private final boolean raisedMinimums;

    private ApiVersionCap(KafkaRelease release) {
        this.release = release;
        this.raisedMinimums = release != null && Integer.parseInt(release.version().split("\\.")[0]) >= 4;
    }

    /** The oldest version taken: ours, or KIP-896's when emulating 4.0+. */
    private short acceptedMin(ApiSpec spec) {
        short min = spec.minVersion();
        return raisedMinimums ? (short) Math.max(min, KIP_896_MINIMUMS.getOrDefault(spec.key(), min)) : min;
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
        short min = spec.key() == ProduceApi.SPEC.key() ? spec.minVersion() : acceptedMin(spec); // KAFKA-18659
        return max < acceptedMin(spec) ? null : new Range(spec.key(), min, max);
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
        return range != null && version >= acceptedMin(spec) && version <= range.maxVersion();
    }

    /** Why {@link #allows} refuses a request, for the log line: the emulated release and what it offers of the API. */
    public String refusal(ApiSpec spec, short version) {
        Range range = advertised(spec);
        return "version " + version + " of " + spec.name() + " refused: emulating " + release
                + (range == null ? ", which lacks it" : ", which offers v" + acceptedMin(spec) + "-" + range.maxVersion());
    }

    @Override
    public String toString() {
        return release == null ? "no emulation" : "emulating " + release;
    }
}
