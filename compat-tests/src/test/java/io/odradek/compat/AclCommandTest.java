package io.odradek.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.tools.AclCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kafka 4.4's kafka-acls (AclCommand) against a single-node Odradek with Kafka's StandardAuthorizer class named in
 * its config; over PLAINTEXT the tool is User:ANONYMOUS, made a super user.
 */
class AclCommandTest {
    @RegisterExtension
    final OdradekBroker broker = OdradekBroker.withConfig(Map.of(
            "authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
            "super.users", "User:ANONYMOUS"));

    private KafkaTool.Output acls(String... args) throws Exception {
        String[] all = new String[args.length + 2];
        all[0] = "--bootstrap-server";
        all[1] = broker.bootstrap();
        System.arraycopy(args, 0, all, 2, args.length);
        return KafkaTool.run(AclCommand::main, all);
    }

    private static String topic(String name, String pattern) {
        return "ResourcePattern(resourceType=TOPIC, name=" + name + ", patternType=" + pattern + ")";
    }

    private static String entry(String principal, String host, String operation, String permission) {
        return "(principal=" + principal + ", host=" + host + ", operation=" + operation + ", permissionType="
                + permission + ")";
    }

    /** AclCommand's listing of one resource: "Current ACLs for resource `R`:", then a tab and an entry per line. */
    private static String current(String resource, String... entries) {
        return "Current ACLs for resource `" + resource + "`:\n\t" + String.join("\n\t", entries) + "\n\n";
    }

    @Test
    void addedAclsAreListedAndRemoved() throws Exception {
        KafkaTool.Output add = acls("--add", "--allow-principal", "User:alice", "--operation", "Read", "--topic",
                "orders");
        KafkaTool.Output again = acls("--add", "--allow-principal", "User:alice", "--operation", "Read", "--topic",
                "orders");
        KafkaTool.Output list = acls("--list", "--topic", "orders");
        KafkaTool.Output remove = acls("--remove", "--force", "--allow-principal", "User:alice", "--operation",
                "Read", "--topic", "orders");
        KafkaTool.Output after = acls("--list", "--topic", "orders");

        String read = entry("User:alice", "*", "READ", "ALLOW");
        assertThat(add.stdout()).isEqualTo("Adding ACLs for resource `" + topic("orders", "LITERAL") + "`: \n"
                + " \t" + read + "\n\n");
        // The tool describes the resource's ACLs first and adds only new ones.
        assertThat(again.stdout()).isEqualTo("Acl (pattern=" + topic("orders", "LITERAL") + ", entry=" + read
                + ") already exists.\n");
        assertThat(list.stdout()).isEqualTo(current(topic("orders", "LITERAL"), read));
        assertThat(remove.stdout()).isEmpty();
        assertThat(after.stdout()).isEmpty();
    }

    @Test
    void prefixedDenyFromAHostIsAddedAndListed() throws Exception {
        acls("--add", "--deny-principal", "User:mallory", "--deny-host", "10.0.0.1", "--operation", "Write",
                "--topic", "orders-", "--resource-pattern-type", "prefixed");
        KafkaTool.Output list = acls("--list", "--topic", "orders-", "--resource-pattern-type", "prefixed");
        KafkaTool.Output match = acls("--list", "--topic", "orders-eu", "--resource-pattern-type", "match");
        KafkaTool.Output literal = acls("--list", "--topic", "orders-");

        String expected = current(topic("orders-", "PREFIXED"), entry("User:mallory", "10.0.0.1", "WRITE", "DENY"));
        assertThat(list.stdout()).isEqualTo(expected);
        assertThat(match.stdout()).isEqualTo(expected);
        assertThat(literal.stdout()).isEmpty();
    }

    @Test
    void producerAndConsumerConveniencesAddKafkasSets() throws Exception {
        acls("--add", "--allow-principal", "User:producer", "--producer", "--topic", "events");
        acls("--add", "--allow-principal", "User:consumer", "--consumer", "--topic", "events", "--group", "readers");
        KafkaTool.Output topic = acls("--list", "--topic", "events");
        KafkaTool.Output group = acls("--list", "--group", "readers");
        KafkaTool.Output byPrincipal = acls("--list", "--principal", "User:consumer");

        // Resources and their entries come in the order of the tool's hash sets (enum hash codes, so it varies
        // from run to run): each listing is compared line by line, as a set.
        String events = topic("events", "LITERAL");
        String readers = "ResourcePattern(resourceType=GROUP, name=readers, patternType=LITERAL)";
        assertThat(listings(topic.stdout())).isEqualTo(Map.of(events, Set.of(
                entry("User:consumer", "*", "READ", "ALLOW"), entry("User:consumer", "*", "DESCRIBE", "ALLOW"),
                entry("User:producer", "*", "CREATE", "ALLOW"), entry("User:producer", "*", "DESCRIBE", "ALLOW"),
                entry("User:producer", "*", "WRITE", "ALLOW"))));
        assertThat(group.stdout()).isEqualTo(current(readers, entry("User:consumer", "*", "READ", "ALLOW")));
        assertThat(byPrincipal.stdout()).startsWith("ACLs for principal `User:consumer`\n");
        assertThat(listings(byPrincipal.stdout().substring(byPrincipal.stdout().indexOf('\n') + 1))).isEqualTo(Map.of(
                events, Set.of(entry("User:consumer", "*", "READ", "ALLOW"), entry("User:consumer", "*", "DESCRIBE", "ALLOW")),
                readers, Set.of(entry("User:consumer", "*", "READ", "ALLOW"))));
    }

    /** AclCommand's listings read back: resource -> its entries, each block checked to be exactly in its format. */
    private static Map<String, Set<String>> listings(String stdout) {
        Map<String, Set<String>> out = new HashMap<>();
        assertThat(stdout).endsWith("\n\n");
        for (String block : stdout.substring(0, stdout.length() - 2).split("\n\n")) {
            String[] lines = block.split("\n");
            assertThat(lines[0]).startsWith("Current ACLs for resource `").endsWith("`:");
            Set<String> entries = new HashSet<>();
            for (int i = 1; i < lines.length; i++) {
                assertThat(lines[i]).startsWith("\t");
                entries.add(lines[i].substring(1));
            }
            assertThat(entries).hasSize(lines.length - 1);
            out.put(lines[0].substring("Current ACLs for resource `".length(), lines[0].length() - 2), entries);
        }
        return out;
    }

    @Test
    void removingEveryAclOfAResourceLeavesOthers() throws Exception {
        acls("--add", "--allow-principal", "User:alice", "--allow-principal", "User:bob", "--operation", "Read",
                "--operation", "Describe", "--topic", "orders");
        acls("--add", "--allow-principal", "User:alice", "--operation", "Read", "--topic", "payments");
        acls("--remove", "--force", "--topic", "orders");
        KafkaTool.Output all = acls("--list");

        assertThat(all.stdout()).isEqualTo(current(topic("payments", "LITERAL"), entry("User:alice", "*", "READ", "ALLOW")));
    }
}
