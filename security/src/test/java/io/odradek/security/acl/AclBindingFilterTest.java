package io.odradek.security.acl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which ACLs DescribeAcls and DeleteAcls select, as Kafka's AclBindingFilter / ResourcePatternFilter. */
class AclBindingFilterTest {
    private static final AclBinding LITERAL_ORDERS = binding(ResourceType.TOPIC, "orders", PatternType.LITERAL);
    private static final AclBinding LITERAL_WILDCARD = binding(ResourceType.TOPIC, "*", PatternType.LITERAL);
    private static final AclBinding PREFIXED_ORD = binding(ResourceType.TOPIC, "ord", PatternType.PREFIXED);
    private static final AclBinding PREFIXED_ORDERS = binding(ResourceType.TOPIC, "orders", PatternType.PREFIXED);
    private static final AclBinding PREFIXED_PAY = binding(ResourceType.TOPIC, "pay", PatternType.PREFIXED);
    private static final AclBinding GROUP_ORDERS = binding(ResourceType.GROUP, "orders", PatternType.LITERAL);
    private static final List<AclBinding> ALL = List.of(LITERAL_ORDERS, LITERAL_WILDCARD, PREFIXED_ORD,
            PREFIXED_ORDERS, PREFIXED_PAY, GROUP_ORDERS);

    private static AclBinding binding(ResourceType type, String name, PatternType pattern) {
        return new AclBinding(new ResourcePattern(type, name, pattern),
                new AccessControlEntry("User:alice", "*", AclOperation.READ, AclPermissionType.ALLOW));
    }

    private static AclBindingFilter filter(ResourceType type, String name, PatternType pattern) {
        return new AclBindingFilter(type, name, pattern, null, null, AclOperation.ANY, AclPermissionType.ANY);
    }

    private static List<AclBinding> selected(AclBindingFilter f) {
        return ALL.stream().filter(f::matches).toList();
    }

    @Test
    void anyFilterSelectsEverything() {
        assertThat(selected(AclBindingFilter.ANY)).containsExactlyElementsOf(ALL);
    }

    @Test
    void matchSelectsEveryPatternThatAppliesToTheNamedResource() {
        assertThat(selected(filter(ResourceType.TOPIC, "orders", PatternType.MATCH)))
                .containsExactly(LITERAL_ORDERS, LITERAL_WILDCARD, PREFIXED_ORD, PREFIXED_ORDERS);
        assertThat(selected(filter(ResourceType.TOPIC, "payments", PatternType.MATCH)))
                .containsExactly(LITERAL_WILDCARD, PREFIXED_PAY);
        assertThat(selected(filter(ResourceType.ANY, "orders", PatternType.MATCH)))
                .containsExactly(LITERAL_ORDERS, LITERAL_WILDCARD, PREFIXED_ORD, PREFIXED_ORDERS, GROUP_ORDERS);
    }

    @Test
    void anyPatternTypeSelectsTheExactNameOfEveryPatternType() {
        assertThat(selected(filter(ResourceType.TOPIC, "orders", PatternType.ANY)))
                .containsExactly(LITERAL_ORDERS, PREFIXED_ORDERS);
        assertThat(selected(filter(ResourceType.ANY, "*", PatternType.ANY))).containsExactly(LITERAL_WILDCARD);
    }

    @Test
    void concretePatternTypeSelectsThatTypeAndName() {
        assertThat(selected(filter(ResourceType.TOPIC, "orders", PatternType.PREFIXED))).containsExactly(PREFIXED_ORDERS);
        assertThat(selected(filter(ResourceType.TOPIC, "orders", PatternType.LITERAL))).containsExactly(LITERAL_ORDERS);
        assertThat(selected(filter(ResourceType.TOPIC, null, PatternType.LITERAL)))
                .containsExactly(LITERAL_ORDERS, LITERAL_WILDCARD);
        assertThat(selected(filter(ResourceType.GROUP, null, PatternType.ANY))).containsExactly(GROUP_ORDERS);
    }

    @Test
    void matchWithoutNameSelectsEveryPatternOfTheType() {
        assertThat(selected(filter(ResourceType.TOPIC, null, PatternType.MATCH)))
                .containsExactly(LITERAL_ORDERS, LITERAL_WILDCARD, PREFIXED_ORD, PREFIXED_ORDERS, PREFIXED_PAY);
    }

    @Test
    void entryPartsSelectByExactValueOrAny() {
        AclBinding bobWrite = new AclBinding(new ResourcePattern(ResourceType.TOPIC, "t", PatternType.LITERAL),
                new AccessControlEntry("User:bob", "10.0.0.1", AclOperation.WRITE, AclPermissionType.DENY));
        assertThat(new AclBindingFilter(ResourceType.ANY, null, PatternType.ANY, "User:bob", "10.0.0.1",
                AclOperation.WRITE, AclPermissionType.DENY).matches(bobWrite)).isTrue();
        assertThat(new AclBindingFilter(ResourceType.ANY, null, PatternType.ANY, "User:alice", null,
                AclOperation.ANY, AclPermissionType.ANY).matches(bobWrite)).isFalse();
        assertThat(new AclBindingFilter(ResourceType.ANY, null, PatternType.ANY, null, "*",
                AclOperation.ANY, AclPermissionType.ANY).matches(bobWrite)).isFalse(); // host "*" is a value here
        assertThat(new AclBindingFilter(ResourceType.ANY, null, PatternType.ANY, null, null,
                AclOperation.ALL, AclPermissionType.ANY).matches(bobWrite)).isFalse(); // ALL is a value too
        assertThat(new AclBindingFilter(ResourceType.ANY, null, PatternType.ANY, null, null,
                AclOperation.ANY, AclPermissionType.ALLOW).matches(bobWrite)).isFalse();
    }
}
