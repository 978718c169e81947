package io.odradek.broker.handlers;

import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.ApiRegistry;
import io.odradek.broker.api.ApiVersionCap;
import io.odradek.broker.api.BrokerFeatures;
import io.odradek.broker.api.RequestContext;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.ApiVersionsApi;
import io.odradek.wire.api.ApiVersionsApi.Response;
import io.odradek.wire.schema.Struct;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

/**
 * ApiVersions (key 18), versions 0-5. Lists {@link ApiRegistry#advertised()}: every API we handle with its spec's
 * version range, or, when {@code odradek.emulate.version} names an older Kafka release, only the APIs that release's
 * broker advertised, each capped at that release's maximum (see {@link ApiVersionCap}). A request of a version newer
 * than we offer never reaches here: the network layer answers it with a v0 body carrying UNSUPPORTED_VERSION and this
 * same list ({@link #unsupportedVersionResponse(ApiRegistry)}); Kafka lists only ApiVersions' own range there, which
 * is all a client reads from it (it retries at that maximum). Emulating, "newer than we offer" means above the
 * release's ApiVersions maximum (2.8: v3; 0.10.x: v0), so a Kafka 4.4 client retries down to it as against that
 * release. v1+ carry the throttle time. v3+ name the client software and its version (KIP-511): a name or
 * version that is not letters, digits, '-' and '.' (alphanumeric at both ends, Kafka's pattern) is answered with
 * INVALID_REQUEST and no API list, as Kafka does. No API requires ApiVersions first: clients that never
 * send it (librdkafka with {@code api.version.request=false}, Java clients before 0.10) are served alike.
 * v5 (KIP-1242)'s ClusterId and NodeId are read but not checked: no REBOOTSTRAP_REQUIRED answer yet.
 *
 * <p>Produce is advertised from v0, as its table now starts (Kafka 4 advertises v0 too though it refuses v0-2,
 * KAFKA-18659: librdkafka before 2.10 only compresses with gzip, snappy or lz4 when the range starts at v0).
 * Emulating a release before 4.0, minimum versions stay ours (v0 throughout); emulating 4.0+, they are KIP-896's
 * raised minimums (Fetch v4, ListOffsets v1, ...; see {@link ApiVersionCap}), Produce still advertised from v0.
 *
 * <p>InitProducerId is advertised up to v5: v6 (KIP-939 two-phase commit) is "latestVersionUnstable" in Kafka
 * 4.4's schema, which a Kafka broker advertises only with {@code unstable.api.versions.enable}; so Kafka 4.4
 * producers negotiate v5, as against Kafka. A v6 request is still answered (not when emulating, where the
 * release's maximum is a hard limit).
 *
 * <p>v3+ also carry the feature flags ({@link BrokerFeatures}), in tagged fields that older clients skip:
 * SupportedFeatures (each feature's supported range), FinalizedFeaturesEpoch and FinalizedFeatures (each
 * finalized level as both min and max level, features at level 0 left out), as Kafka 4.4 fills them.
 * Kafka's rule for v0-3 (KAFKA-17011: clients before v4 reject a supported range starting at 0):
 * SupportedFeatures then omits features whose minimum is 0, so a v3 client sees only metadata.version
 * there, though FinalizedFeatures still lists transaction.version and group.version. Emulating, the features are
 * the release's ({@link BrokerFeatures#of}): none before 3.3 (epoch -1, nothing listed), metadata.version alone
 * for 3.3-3.9, transaction.version 2 and group.version 1 from 4.0.
 */
public final class ApiVersionsHandler implements ApiHandler {
    private static final Pattern SOFTWARE_TOKEN = Pattern.compile("[a-zA-Z0-9](?:[a-zA-Z0-9\\-.]*[a-zA-Z0-9])?");
    private final ApiRegistry registry;
    private final BrokerFeatures features;

    public ApiVersionsHandler(ApiRegistry registry, BrokerFeatures features) {
        this.registry = registry;
        this.features = features;
    }

    @Override
    public ApiSpec api() {
        return ApiVersionsApi.SPEC;
    }

    @Override
    public CompletableFuture<Struct> handle(RequestContext context, Struct request) {
        if (context.version() >= 3 && !(validSoftwareToken(request.get(ApiVersionsApi.Request.CLIENT_SOFTWARE_NAME))
                && validSoftwareToken(request.get(ApiVersionsApi.Request.CLIENT_SOFTWARE_VERSION)))) {
            // Kafka's ApiVersionsRequest.isValid: the error alone, no API list.
            return CompletableFuture.completedFuture(Response.SCHEMA.newStruct()
                    .set(Response.ERROR_CODE, ErrorCode.INVALID_REQUEST.code()));
        }
        Struct response = response(registry, ErrorCode.NONE);
        if (context.version() >= 3) {
            addFeatures(response, context.version() < 4);
        }
        return CompletableFuture.completedFuture(response);
    }

    private void addFeatures(Struct response, boolean omitMinZero) {
        for (BrokerFeatures.Feature f : features.features()) {
            if (!(omitMinZero && f.minSupported() == 0)) {
                response.add(Response.SUPPORTED_FEATURES)
                        .set(Response.SupportedFeatureKey.NAME, f.name())
                        .set(Response.SupportedFeatureKey.MIN_VERSION, f.minSupported())
                        .set(Response.SupportedFeatureKey.MAX_VERSION, f.maxSupported());
            }
        }
        response.set(Response.FINALIZED_FEATURES_EPOCH, features.finalizedEpoch());
        for (BrokerFeatures.Feature f : features.features()) {
            if (f.finalizedLevel() != 0) {
                response.add(Response.FINALIZED_FEATURES)
                        .set(Response.FinalizedFeatureKey.NAME, f.name())
                        .set(Response.FinalizedFeatureKey.MAX_VERSION_LEVEL, f.finalizedLevel())
                        .set(Response.FinalizedFeatureKey.MIN_VERSION_LEVEL, f.finalizedLevel());
            }
        }
    }

    /** Kafka's client software name and version pattern (KIP-511): letters, digits, '-' and '.', alphanumeric at both ends. */
    static boolean validSoftwareToken(String s) {
        return s != null && SOFTWARE_TOKEN.matcher(s).matches();
    }

    /** The answer to an ApiVersions request newer than ours: the same list, to be written as a v0 body. */
    public static Struct unsupportedVersionResponse(ApiRegistry registry) {
        return response(registry, ErrorCode.UNSUPPORTED_VERSION);
    }

    private static Struct response(ApiRegistry registry, ErrorCode error) {
        Struct response = Response.SCHEMA.newStruct().set(Response.ERROR_CODE, error.code());
        for (ApiVersionCap.Range api : registry.advertised()) {
            response.add(Response.API_KEYS)
                    .set(Response.ApiVersion.API_KEY, api.apiKey())
                    .set(Response.ApiVersion.MIN_VERSION, api.minVersion())
                    .set(Response.ApiVersion.MAX_VERSION, api.maxVersion());
        }
        return response;
    }
}
