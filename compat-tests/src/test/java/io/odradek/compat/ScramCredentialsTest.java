package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeUserScramCredentialsResult;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialDeletion;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.admin.UserScramCredentialsDescription;
import org.apache.kafka.common.errors.DuplicateResourceException;
import org.apache.kafka.common.errors.ResourceNotFoundException;
import org.apache.kafka.common.errors.UnacceptableCredentialException;
import org.apache.kafka.tools.ConfigCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SCRAM credentials managed with Kafka 4.4's kafka-configs and Admin client against a single-node Odradek
 * (logging in with them is the SASL tests' part). Outputs and errors are Kafka 4.4's, including its refusal
 * of two mechanisms for one user in one kafka-configs command (its controller takes each user once per request).
 */
class ScramCredentialsTest {
    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withConfig(Map.of());

    private KafkaTool.Output configs(String... args) throws Exception {
        return KafkaConfigs.run(broker, args);
    }

    private KafkaTool.Exited configsToExit(String... args) throws Exception {
        String[] all = new String[args.length + 2];
        all[0] = "--bootstrap-server";
        all[1] = broker.bootstrap();
        System.arraycopy(args, 0, all, 2, args.length);
        return KafkaTool.runToExit(ConfigCommand::main, all);
    }

    @Test
    void kafkaConfigsAddsDescribesAndDeletesScramCredentials() throws Exception {
        KafkaTool.Output first = configs("--alter", "--add-config", "SCRAM-SHA-256=[iterations=8192,password=alice-secret]",
                "--entity-type", "users", "--entity-name", "alice");
        configs("--alter", "--add-config", "SCRAM-SHA-512=[password=alice-secret]", "--entity-type", "users",
                "--entity-name", "alice");
        configs("--alter", "--add-config", "SCRAM-SHA-512=[iterations=16384,password=bob-secret]", "--entity-type", "users",
                "--entity-name", "bob");

        assertThat(first.stdout()).isEqualTo("Completed updating config for user alice.\n");
        assertThat(configs("--describe", "--entity-type", "users", "--entity-name", "alice").stdout()).isEqualTo(
                "SCRAM credential configs for user-principal 'alice' are SCRAM-SHA-256=iterations=8192, "
                        + "SCRAM-SHA-512=iterations=4096\n");
        assertThat(configs("--describe", "--entity-type", "users").stdout().lines().sorted().toList()).containsExactly(
                "SCRAM credential configs for user-principal 'alice' are SCRAM-SHA-256=iterations=8192, "
                        + "SCRAM-SHA-512=iterations=4096",
                "SCRAM credential configs for user-principal 'bob' are SCRAM-SHA-512=iterations=16384");

        KafkaTool.Output delete = configs("--alter", "--delete-config", "SCRAM-SHA-256", "--entity-type", "users",
                "--entity-name", "alice");
        assertThat(delete.stdout()).isEqualTo("Completed updating config for user alice.\n");
        assertThat(configs("--describe", "--entity-type", "users", "--entity-name", "alice").stdout()).isEqualTo(
                "SCRAM credential configs for user-principal 'alice' are SCRAM-SHA-512=iterations=4096\n");

        configs("--alter", "--delete-config", "SCRAM-SHA-512", "--entity-type", "users", "--entity-name", "alice");
        assertThat(configs("--describe", "--entity-type", "users", "--entity-name", "alice").stdout()).isEmpty();
    }

    @Test
    void aUsersQuotasAndScramCredentialsAreDescribedTogether() throws Exception {
        configs("--alter", "--add-config", "SCRAM-SHA-256=[password=carol-secret]", "--entity-type", "users",
                "--entity-name", "carol");
        configs("--alter", "--add-config", "consumer_byte_rate=20000", "--entity-type", "users", "--entity-name", "carol");

        assertThat(configs("--describe", "--entity-type", "users", "--entity-name", "carol").stdout()).isEqualTo(
                "Quota configs for user-principal 'carol' are consumer_byte_rate=20000.0\n"
                        + "SCRAM credential configs for user-principal 'carol' are SCRAM-SHA-256=iterations=4096\n");
    }

    @Test
    void twoMechanismsForOneUserInOneCommandAreRefusedAsByKafka() throws Exception {
        KafkaTool.Exited both = configsToExit("--alter", "--add-config",
                "SCRAM-SHA-256=[iterations=8192,password=alice-secret],SCRAM-SHA-512=[password=x]",
                "--entity-type", "users", "--entity-name", "alice");

        assertThat(both.status()).isEqualTo(1);
        assertThat(both.stdout()).isEmpty();
        assertThat(both.stderr()).contains("java.util.concurrent.ExecutionException: org.apache.kafka.common.errors."
                + "DuplicateResourceException: A user credential cannot be altered twice in the same request\n");
        assertThat(configs("--describe", "--entity-type", "users", "--entity-name", "alice").stdout()).isEmpty();
    }

    @Test
    void kafkaConfigsReportsKafkasErrorsForAMissingCredentialAndTooManyIterations() throws Exception {
        KafkaTool.Exited missing = configsToExit("--alter", "--delete-config", "SCRAM-SHA-512", "--entity-type", "users",
                "--entity-name", "nobody");
        KafkaTool.Exited tooMany = configsToExit("--alter", "--add-config", "SCRAM-SHA-256=[iterations=20000,password=p]",
                "--entity-type", "users", "--entity-name", "bob");

        assertThat(missing.status()).isEqualTo(1);
        assertThat(missing.stderr()).contains("org.apache.kafka.common.errors.ResourceNotFoundException: "
                + "Attempt to delete a user credential that does not exist\n");
        assertThat(tooMany.status()).isEqualTo(1);
        assertThat(tooMany.stderr()).contains("org.apache.kafka.common.errors.UnacceptableCredentialException: "
                + "Too many iterations\n");
        assertThat(configs("--describe", "--entity-type", "users").stdout()).isEmpty();
    }

    private static List<Object> infos(UserScramCredentialsDescription d) {
        return d.credentialInfos().stream()
                .map(i -> (Object) tuple(i.mechanism(), i.iterations())).toList();
    }

    @Test
    void adminAltersAndDescribesUserScramCredentials() throws Exception {
        Admin admin = broker.admin();
        byte[] password = "alice-secret".getBytes(StandardCharsets.UTF_8);
        admin.alterUserScramCredentials(List.of(
                new UserScramCredentialUpsertion("alice", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 8192), password),
                new UserScramCredentialUpsertion("bob", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), "b".getBytes(StandardCharsets.UTF_8))))
                .all().get(30, TimeUnit.SECONDS);
        admin.alterUserScramCredentials(List.of(
                new UserScramCredentialUpsertion("alice", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 12000), password)))
                .all().get(30, TimeUnit.SECONDS);

        Map<String, UserScramCredentialsDescription> all = admin.describeUserScramCredentials().all().get(30, TimeUnit.SECONDS);
        assertThat(all).containsOnlyKeys("alice", "bob");
        assertThat(infos(all.get("alice"))).containsExactly(
                tuple(ScramMechanism.SCRAM_SHA_256, 8192), tuple(ScramMechanism.SCRAM_SHA_512, 12000));
        assertThat(infos(all.get("bob"))).containsExactly(tuple(ScramMechanism.SCRAM_SHA_512, 4096));
        assertThat(admin.describeUserScramCredentials().users().get(30, TimeUnit.SECONDS))
                .containsExactlyInAnyOrder("alice", "bob");

        DescribeUserScramCredentialsResult some = admin.describeUserScramCredentials(List.of("bob", "nobody"));
        assertThat(infos(some.description("bob").get(30, TimeUnit.SECONDS)))
                .containsExactly(tuple(ScramMechanism.SCRAM_SHA_512, 4096));
        assertThatThrownBy(() -> some.description("nobody").get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause()
                .isInstanceOf(ResourceNotFoundException.class)
                .hasMessage("Attempt to describe a user credential that does not exist: nobody");

        admin.alterUserScramCredentials(List.of(new UserScramCredentialDeletion("alice", ScramMechanism.SCRAM_SHA_256)))
                .all().get(30, TimeUnit.SECONDS);
        assertThat(infos(admin.describeUserScramCredentials(List.of("alice")).description("alice").get(30, TimeUnit.SECONDS)))
                .containsExactly(tuple(ScramMechanism.SCRAM_SHA_512, 12000));
    }

    @Test
    void adminSeesEachUsersOwnOutcome() throws Exception {
        Admin admin = broker.admin();
        byte[] pw = "p".getBytes(StandardCharsets.UTF_8);
        var result = admin.alterUserScramCredentials(List.of(
                new UserScramCredentialUpsertion("dan", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096), pw),
                new UserScramCredentialUpsertion("dan", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), pw),
                new UserScramCredentialUpsertion("erin", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 16385), pw),
                new UserScramCredentialUpsertion("fay", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096), pw),
                new UserScramCredentialDeletion("gus", ScramMechanism.SCRAM_SHA_256)));

        assertThat(result.values().get("fay").get(30, TimeUnit.SECONDS)).isNull();
        assertThatThrownBy(() -> result.values().get("dan").get(30, TimeUnit.SECONDS)).cause()
                .isInstanceOf(DuplicateResourceException.class)
                .hasMessage("A user credential cannot be altered twice in the same request");
        assertThatThrownBy(() -> result.values().get("erin").get(30, TimeUnit.SECONDS)).cause()
                .isInstanceOf(UnacceptableCredentialException.class).hasMessage("Too many iterations");
        assertThatThrownBy(() -> result.values().get("gus").get(30, TimeUnit.SECONDS)).cause()
                .isInstanceOf(ResourceNotFoundException.class)
                .hasMessage("Attempt to delete a user credential that does not exist");
        assertThat(admin.describeUserScramCredentials().users().get(30, TimeUnit.SECONDS)).containsExactly("fay");
    }
}
