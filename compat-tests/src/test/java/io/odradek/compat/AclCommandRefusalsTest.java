package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.tools.AclCommand;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** kafka-acls refused as by Kafka: no authorizer configured, and a tool user without ALTER / DESCRIBE on the cluster. */
class AclCommandRefusalsTest {
    private static KafkaTool.Exited acls(OdradekBroker broker, String... args) throws Exception {
        String[] all = new String[args.length + 2];
        all[0] = "--bootstrap-server";
        all[1] = broker.bootstrap();
        System.arraycopy(args, 0, all, 2, args.length);
        return KafkaTool.runToExit(AclCommand::main, all);
    }

    @Nested
    class WithoutAuthorizer {
        @RegisterExtension
        final OdradekBroker broker = OdradekBroker.withDefaults();

        @Test
        void listingAndAddingAnswerSecurityDisabled() throws Exception {
            KafkaTool.Exited list = acls(broker, "--list");
            KafkaTool.Exited add = acls(broker, "--add", "--allow-principal", "User:alice", "--operation", "Read",
                    "--topic", "orders");

            assertThat(list.status()).isEqualTo(1);
            assertThat(list.stdout()).startsWith("Error while executing ACL command: org.apache.kafka.common.errors."
                    + "SecurityDisabledException: No Authorizer is configured on the broker\n");
            assertThat(add.status()).isEqualTo(1);
            assertThat(add.stdout()).startsWith("Error while executing ACL command: org.apache.kafka.common.errors."
                    + "SecurityDisabledException: No Authorizer is configured on the broker\n"); // it describes first
        }
    }

    @Nested
    class AsAUserWithoutClusterRights {
        @RegisterExtension
        final OdradekBroker broker = OdradekBroker.withConfig(Map.of(
                "authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                "super.users", "User:admin"));

        @Test
        void listingAndRemovingAnswerClusterAuthorizationFailed() throws Exception {
            KafkaTool.Exited list = acls(broker, "--list");
            KafkaTool.Exited remove = acls(broker, "--remove", "--force", "--topic", "orders");

            assertThat(list.status()).isEqualTo(1);
            assertThat(list.stdout()).startsWith("Error while executing ACL command: org.apache.kafka.common.errors."
                    + "ClusterAuthorizationException: Cluster authorization failed.\n");
            assertThat(remove.status()).isEqualTo(1);
            assertThat(remove.stdout()).startsWith("Error while executing ACL command: org.apache.kafka.common.errors."
                    + "ClusterAuthorizationException: Cluster authorization failed.\n");
        }
    }
}
