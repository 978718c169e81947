package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;

/**
 * DescribeCluster (key 60): versions 0-2, flexible from v0. Fields and version ranges as in Kafka 4.4's message schemas.
 */
public final class DescribeClusterApi {
    public static final ApiSpec SPEC = new ApiSpec(60, "DescribeCluster", 0, 2, 0,
            Request.SCHEMA, Response.SCHEMA);

    private DescribeClusterApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** Whether to include cluster authorized operations. */
        public static final Field<Boolean> INCLUDE_CLUSTER_AUTHORIZED_OPERATIONS = Field.bool("IncludeClusterAuthorizedOperations");
        /** The endpoint type to describe. 1=brokers, 2=controllers. */
        public static final Field<Byte> ENDPOINT_TYPE = Field.int8("EndpointType").versions(1).withDefault((byte) 1);
        /** Whether to include fenced brokers when listing brokers. */
        public static final Field<Boolean> INCLUDE_FENCED_BROKERS = Field.bool("IncludeFencedBrokers").versions(2);
        public static final Schema SCHEMA = Schema.of(INCLUDE_CLUSTER_AUTHORIZED_OPERATIONS, ENDPOINT_TYPE, INCLUDE_FENCED_BROKERS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Brokers}. */
        public static final class DescribeClusterBroker {
            private DescribeClusterBroker() {
            }

            /** The broker ID. */
            public static final Field<Integer> BROKER_ID = Field.int32("BrokerId");
            /** The broker hostname. */
            public static final Field<String> HOST = Field.string("Host");
            /** The broker port. */
            public static final Field<Integer> PORT = Field.int32("Port");
            /** The rack of the broker, or null if it has not been assigned to a rack. */
            public static final Field<String> RACK = Field.string("Rack").nullable();
            /** Whether the broker is fenced */
            public static final Field<Boolean> IS_FENCED = Field.bool("IsFenced").versions(2);
            public static final Schema SCHEMA = Schema.of(BROKER_ID, HOST, PORT, RACK, IS_FENCED);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The top-level error code, or 0 if there was no error. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** The top-level error message, or null if there was no error. */
        public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable();
        /** The endpoint type that was described. 1=brokers, 2=controllers. */
        public static final Field<Byte> ENDPOINT_TYPE = Field.int8("EndpointType").versions(1).withDefault((byte) 1);
        /** The cluster ID that responding broker belongs to. */
        public static final Field<String> CLUSTER_ID = Field.string("ClusterId");
        /** The ID of the controller. When handled by a controller, returns the current voter leader ID. When handled by a broker, returns a random alive broker ID as a fallback. */
        public static final Field<Integer> CONTROLLER_ID = Field.int32("ControllerId").withDefault(-1);
        /** Each broker in the response. */
        public static final Field<List<Struct>> BROKERS = Field.array("Brokers", DescribeClusterBroker.SCHEMA);
        /** 32-bit bitfield to represent authorized operations for this cluster. */
        public static final Field<Integer> CLUSTER_AUTHORIZED_OPERATIONS = Field.int32("ClusterAuthorizedOperations").withDefault(-2147483648);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE, ERROR_MESSAGE, ENDPOINT_TYPE, CLUSTER_ID, CONTROLLER_ID, BROKERS, CLUSTER_AUTHORIZED_OPERATIONS);
    }
}
