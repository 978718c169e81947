package io.odradek.broker.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.broker.BrokerConfig;
import io.odradek.broker.config.ConfigException;
import io.odradek.replication.security.InMemorySecurityMetadataStore;
import io.odradek.security.KafkaPrincipal;
import io.odradek.security.SecurityProtocol;
import io.odradek.security.acl.AccessControlEntry;
import io.odradek.security.acl.AclBinding;
import io.odradek.security.acl.AclBindingFilter;
import io.odradek.security.acl.AclOperation;
import io.odradek.security.acl.AclPermissionType;
import io.odradek.security.acl.Authorizer;
import io.odradek.security.acl.PatternType;
import io.odradek.security.acl.ResourcePattern;
import io.odradek.security.acl.ResourceType;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** authorizer.class.name, super.users and allow.everyone.if.no.acl.found as a Kafka server.properties sets them. */
class AuthorizersTest {
    private static final String STANDARD = "org.apache.kafka.metadata.authorizer.StandardAuthorizer";
    private final InMemorySecurityMetadataStore store = new InMemorySecurityMetadataStore();

    private static AclBinding allow(String principal, AclOperation op, ResourceType type, String name) {
        return new AclBinding(new ResourcePattern(type, name, PatternType.LITERAL),
                new AccessControlEntry(principal, "*", op, AclPermissionType.ALLOW));
    }

    private static Session session(String user, Authorizer authorizer) {
        return new Session(KafkaPrincipal.user(user), "PLAINTEXT", SecurityProtocol.PLAINTEXT,
                InetAddress.getLoopbackAddress(), authorizer);
    }

    @Test
    void withoutAuthorizerClassEverythingIsAllowedAndTheAclApisAreDisabled() {
        Authorizer authorizer = Authorizers.create(BrokerConfig.of(Map.of()), store);
        assertThat(authorizer).isSameAs(Authorizer.ALLOW_ALL);
        assertThat(authorizer.enabled()).isFalse();
    }

    @Test
    void kafkasStandardAuthorizerClassTurnsOursOnFollowingTheStore() {
        Authorizer authorizer = Authorizers.create(BrokerConfig.of(Map.of("authorizer.class.name", STANDARD,
                "super.users", "User:admin;User:ops")), store);
        assertThat(authorizer.enabled()).isTrue();
        Session alice = session("alice", authorizer);
        assertThat(alice.authorized(AclOperation.READ, ResourceType.TOPIC, "orders")).isFalse();
        store.createAcls(List.of(allow("User:alice", AclOperation.READ, ResourceType.TOPIC, "orders"))).join();
        assertThat(alice.authorized(AclOperation.READ, ResourceType.TOPIC, "orders")).isTrue();
        assertThat(alice.authorized(AclOperation.WRITE, ResourceType.TOPIC, "orders")).isFalse();
        store.deleteAcls(List.of(AclBindingFilter.ANY)).join();
        assertThat(alice.authorized(AclOperation.READ, ResourceType.TOPIC, "orders")).isFalse();
        assertThat(session("ops", authorizer).authorizedOnCluster(AclOperation.ALTER)).isTrue();
    }

    @Test
    void aclsAlreadyStoredApplyFromTheStart() {
        store.createAcls(List.of(allow("User:*", AclOperation.ALL, ResourceType.GROUP, "g"))).join();
        Authorizer authorizer = Authorizers.create(BrokerConfig.of(Map.of("authorizer.class.name", STANDARD)), store);
        assertThat(session("bob", authorizer).authorized(AclOperation.READ, ResourceType.GROUP, "g")).isTrue();
    }

    @Test
    void allowEveryoneIfNoAclFoundOpensResourcesWithoutAcls() {
        Authorizer authorizer = Authorizers.create(BrokerConfig.of(Map.of("authorizer.class.name", STANDARD,
                "allow.everyone.if.no.acl.found", "true")), store);
        store.createAcls(List.of(allow("User:alice", AclOperation.READ, ResourceType.TOPIC, "orders"))).join();
        Session bob = session("bob", authorizer);
        assertThat(bob.authorized(AclOperation.WRITE, ResourceType.TOPIC, "payments")).isTrue();
        assertThat(bob.authorized(AclOperation.READ, ResourceType.TOPIC, "orders")).isFalse();
    }

    @Test
    void anotherAuthorizerClassIsRefusedWithAClearMessage() {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("authorizer.class.name", "com.example.MyAuthorizer")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value com.example.MyAuthorizer for configuration authorizer.class.name: Odradek"
                        + " has one authorizer, with the semantics of Kafka's StandardAuthorizer: set " + STANDARD
                        + " to use it, or leave authorizer.class.name empty for none (no other authorizer class can"
                        + " be loaded)");
    }

    @Test
    void superUsersMustBePrincipals() {
        assertThatThrownBy(() -> BrokerConfig.of(Map.of("authorizer.class.name", STANDARD, "super.users",
                "User:admin;ops"))).isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value User:admin;ops for configuration super.users: expected a string in format"
                        + " principalType:principalName but got ops");
    }

    @Test
    void aSuperUserWithAnEmptyPrincipalTypeIsAcceptedAsKafkaDoes() {
        Authorizer authorizer = Authorizers.create(BrokerConfig.of(Map.of("authorizer.class.name", STANDARD,
                "super.users", ":admin")), store);
        assertThat(authorizer.authorize(new KafkaPrincipal("", "admin"), "127.0.0.1", AclOperation.ALTER,
                ResourceType.CLUSTER, "kafka-cluster")).isTrue();
        assertThat(session("admin", authorizer).authorizedOnCluster(AclOperation.ALTER)).as("User:admin is not :admin").isFalse();
    }

    @Test
    void authorizedOperationsAreTheAllowedOnesOfTheResourceTypeAsBits() {
        Authorizer authorizer = Authorizers.create(BrokerConfig.of(Map.of("authorizer.class.name", STANDARD)), store);
        store.createAcls(List.of(allow("User:alice", AclOperation.WRITE, ResourceType.TOPIC, "orders"),
                allow("User:alice", AclOperation.ALTER_CONFIGS, ResourceType.TOPIC, "orders"))).join();
        // WRITE (4), DESCRIBE (8) implied by WRITE, ALTER_CONFIGS (11), DESCRIBE_CONFIGS (10) implied by it
        assertThat(session("alice", authorizer).authorizedOperations(ResourceType.TOPIC, "orders"))
                .isEqualTo((1 << 4) | (1 << 8) | (1 << 10) | (1 << 11));
        assertThat(session("bob", authorizer).authorizedOperations(ResourceType.TOPIC, "orders")).isZero();
        // No authorizer: every operation Kafka defines for the type (group: READ, DESCRIBE, DELETE,
        // DESCRIBE_CONFIGS, ALTER_CONFIGS).
        assertThat(Session.PLAINTEXT_ANONYMOUS.authorizedOperations(ResourceType.GROUP, "g"))
                .isEqualTo((1 << 3) | (1 << 8) | (1 << 6) | (1 << 10) | (1 << 11));
        assertThat(Session.PLAINTEXT_ANONYMOUS.authorizedOperations(ResourceType.CLUSTER, "kafka-cluster"))
                .isEqualTo((1 << 5) | (1 << 9) | (1 << 10) | (1 << 11) | (1 << 12) | (1 << 7) | (1 << 8));
    }
}
