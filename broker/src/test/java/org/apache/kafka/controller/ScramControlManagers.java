package org.apache.kafka.controller;

import java.util.List;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData;
import org.apache.kafka.common.message.AlterUserScramCredentialsResponseData;
import org.apache.kafka.server.common.ApiMessageAndVersion;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * Test-only bridge into Kafka 4.4's controller package, whose ScramControlManager builder and ControllerResult
 * are package-private: Odradek's AlterUserScramCredentials handler is checked against that class itself
 * (ScramAlterKafkaOracleTest).
 */
public final class ScramControlManagers {
    private ScramControlManagers() {
    }

    /** What the controller answers and the metadata records it would commit. */
    public record Outcome(AlterUserScramCredentialsResponseData response, List<ApiMessageAndVersion> records) {
    }

    /** A fresh ScramControlManager with no credentials, as a new Kafka controller has. */
    public static ScramControlManager create() {
        return new ScramControlManager.Builder().build();
    }

    public static Outcome alter(ScramControlManager manager, AlterUserScramCredentialsRequestData request) {
        ControllerResult<AlterUserScramCredentialsResponseData> result =
                manager.alterCredentials(request, MetadataVersion.LATEST_PRODUCTION);
        return new Outcome(result.response(), result.records());
    }
}
