package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;

/**
 * ApiVersions (key 18): versions 0-5, flexible from v3. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class ApiVersionsApi {
    public static final ApiSpec SPEC = new ApiSpec(18, "ApiVersions", 0, 5, 3,
            Request.SCHEMA, Response.SCHEMA);

    private ApiVersionsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** The name of the client. */
        public static final Field<String> CLIENT_SOFTWARE_NAME = Field.string("ClientSoftwareName").versions(3);
        /** The version of the client. */
        public static final Field<String> CLIENT_SOFTWARE_VERSION = Field.string("ClientSoftwareVersion").versions(3);
        /** The cluster ID the client intends to connect to. Provide both ClusterId and NodeId, if known. */
        public static final Field<String> CLUSTER_ID = Field.string("ClusterId").versions(5).nullable();
        /** The node ID the client intends to connect to. Provide both ClusterId and NodeId, if known. */
        public static final Field<Integer> NODE_ID = Field.int32("NodeId").versions(5).withDefault(-1);
        public static final Schema SCHEMA = Schema.of(CLIENT_SOFTWARE_NAME, CLIENT_SOFTWARE_VERSION, CLUSTER_ID, NODE_ID);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code ApiKeys}. */
        public static final class ApiVersion {
            private ApiVersion() {
            }

            /** The API index. */
            public static final Field<Short> API_KEY = Field.int16("ApiKey");
            /** The minimum supported version, inclusive. */
            public static final Field<Short> MIN_VERSION = Field.int16("MinVersion");
            /** The maximum supported version, inclusive. */
            public static final Field<Short> MAX_VERSION = Field.int16("MaxVersion");
            public static final Schema SCHEMA = Schema.of(API_KEY, MIN_VERSION, MAX_VERSION);
        }

        /** An element of {@code SupportedFeatures}. */
        public static final class SupportedFeatureKey {
            private SupportedFeatureKey() {
            }

            /** The name of the feature. */
            public static final Field<String> NAME = Field.string("Name").versions(3);
            /** The minimum supported version for the feature. */
            public static final Field<Short> MIN_VERSION = Field.int16("MinVersion").versions(3);
            /** The maximum supported version for the feature. */
            public static final Field<Short> MAX_VERSION = Field.int16("MaxVersion").versions(3);
            public static final Schema SCHEMA = Schema.of(NAME, MIN_VERSION, MAX_VERSION);
        }

        /** An element of {@code FinalizedFeatures}. */
        public static final class FinalizedFeatureKey {
            private FinalizedFeatureKey() {
            }

            /** The name of the feature. */
            public static final Field<String> NAME = Field.string("Name").versions(3);
            /** The cluster-wide finalized max version level for the feature. */
            public static final Field<Short> MAX_VERSION_LEVEL = Field.int16("MaxVersionLevel").versions(3);
            /** The cluster-wide finalized min version level for the feature. */
            public static final Field<Short> MIN_VERSION_LEVEL = Field.int16("MinVersionLevel").versions(3);
            public static final Schema SCHEMA = Schema.of(NAME, MAX_VERSION_LEVEL, MIN_VERSION_LEVEL);
        }

        /** The top-level error code. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** The APIs supported by the broker. */
        public static final Field<List<Struct>> API_KEYS = Field.array("ApiKeys", ApiVersion.SCHEMA);
        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs").versions(1);
        /** Features supported by the broker. Note: in v0-v3, features with MinSupportedVersion = 0 are omitted. */
        public static final Field<List<Struct>> SUPPORTED_FEATURES = Field.array("SupportedFeatures", SupportedFeatureKey.SCHEMA).versions(3).tagged(0);
        /** The monotonically increasing epoch for the finalized features information. Valid values are >= 0. A value of -1 is special and represents unknown epoch. */
        public static final Field<Long> FINALIZED_FEATURES_EPOCH = Field.int64("FinalizedFeaturesEpoch").versions(3).tagged(1).withDefault(-1L);
        /** List of cluster-wide finalized features. The information is valid only if FinalizedFeaturesEpoch >= 0. */
        public static final Field<List<Struct>> FINALIZED_FEATURES = Field.array("FinalizedFeatures", FinalizedFeatureKey.SCHEMA).versions(3).tagged(2);
        /** Set by a KRaft controller if the required configurations for ZK migration are present. */
        public static final Field<Boolean> ZK_MIGRATION_READY = Field.bool("ZkMigrationReady").versions(3).tagged(3);
        public static final Schema SCHEMA = Schema.of(ERROR_CODE, API_KEYS, THROTTLE_TIME_MS, SUPPORTED_FEATURES, FINALIZED_FEATURES_EPOCH, FINALIZED_FEATURES, ZK_MIGRATION_READY);
    }
}
