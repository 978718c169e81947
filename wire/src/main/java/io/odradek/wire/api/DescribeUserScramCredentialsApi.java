package io.odradek.wire.api;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.List;

/**
 * DescribeUserScramCredentials (key 50): version 0, flexible. Fields as in Kafka 4.4's message schemas.
 */
public final class DescribeUserScramCredentialsApi {
    public static final ApiSpec SPEC = new ApiSpec(50, "DescribeUserScramCredentials", 0, 0, 0,
            Request.SCHEMA, Response.SCHEMA);

    private DescribeUserScramCredentialsApi() {
    }

    public static final class Request {
        private Request() {
        }

        /** An element of {@code Users}. */
        public static final class UserName {
            private UserName() {
            }

            /** The user name. */
            public static final Field<String> NAME = Field.string("Name");
            public static final Schema SCHEMA = Schema.of(NAME);
        }

        /** The users to describe, or null/empty to describe all users. */
        public static final Field<List<Struct>> USERS = Field.array("Users", UserName.SCHEMA).nullable().withDefault(List.of());
        public static final Schema SCHEMA = Schema.of(USERS);
    }

    public static final class Response {
        private Response() {
        }

        /** An element of {@code Results}. */
        public static final class DescribeUserScramCredentialsResult {
            private DescribeUserScramCredentialsResult() {
            }

            /** An element of {@code CredentialInfos}. */
            public static final class CredentialInfo {
                private CredentialInfo() {
                }

                /** The SCRAM mechanism. */
                public static final Field<Byte> MECHANISM = Field.int8("Mechanism");
                /** The number of iterations used in the SCRAM credential. */
                public static final Field<Integer> ITERATIONS = Field.int32("Iterations");
                public static final Schema SCHEMA = Schema.of(MECHANISM, ITERATIONS);
            }

            /** The user name. */
            public static final Field<String> USER = Field.string("User");
            /** The user-level error code. */
            public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
            /** The user-level error message, if any. */
            public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable().withDefault("");
            /** The mechanism and related information associated with the user's SCRAM credentials. */
            public static final Field<List<Struct>> CREDENTIAL_INFOS = Field.array("CredentialInfos", CredentialInfo.SCHEMA);
            public static final Schema SCHEMA = Schema.of(USER, ERROR_CODE, ERROR_MESSAGE, CREDENTIAL_INFOS);
        }

        /** The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota. */
        public static final Field<Integer> THROTTLE_TIME_MS = Field.int32("ThrottleTimeMs");
        /** The message-level error code, 0 except for user authorization or infrastructure issues. */
        public static final Field<Short> ERROR_CODE = Field.int16("ErrorCode");
        /** The message-level error message, if any. */
        public static final Field<String> ERROR_MESSAGE = Field.string("ErrorMessage").nullable().withDefault("");
        /** The results for descriptions, one per user. */
        public static final Field<List<Struct>> RESULTS = Field.array("Results", DescribeUserScramCredentialsResult.SCHEMA);
        public static final Schema SCHEMA = Schema.of(THROTTLE_TIME_MS, ERROR_CODE, ERROR_MESSAGE, RESULTS);
    }
}
