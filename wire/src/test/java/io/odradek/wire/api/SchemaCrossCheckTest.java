package io.odradek.wire.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.wire.oracle.KafkaDefaults;
import io.odradek.wire.oracle.KafkaField;
import io.odradek.wire.oracle.KafkaMessageSpec;
import io.odradek.wire.oracle.KafkaRelease;
import io.odradek.wire.oracle.VersionRange;
import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every {@code *Api} table against the JSON schema Kafka ships in kafka-clients: version range, flexible
 * versions and, recursively, each field's name, order, type, versions, nullable versions, tag and
 * default. A new Kafka release that changes a message shows up here as a list of differences. Versions Kafka 4
 * dropped (KIP-896) are compared with Kafka 3.9.1's schema, the rest with Kafka 4.4's.
 */
class SchemaCrossCheckTest {

    static Stream<Named<ApiSpec>> apis() {
        return Apis.ALL.stream().map(api -> Named.of(api.name(), api));
    }

    @ParameterizedTest
    @MethodSource("apis")
    void requestMatchesKafkaSchema(ApiSpec api) {
        assertThat(differences(api, api.request(), api.name() + "Request")).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("apis")
    void responseMatchesKafkaSchema(ApiSpec api) {
        assertThat(differences(api, api.response(), api.name() + "Response")).isEmpty();
    }

    /**
     * Our range ends where Kafka 4.4's does; where it starts lower, those versions are Kafka 3.9.1's (a
     * table may start no lower than 3.9.1 did, and there the fields must be 3.9.1's).
     */
    private static List<String> differences(ApiSpec api, Schema ours, String message) {
        List<String> problems = new ArrayList<>();
        KafkaMessageSpec kafka = KafkaRelease.CURRENT.spec(message);
        VersionRange ourRange = VersionRange.of(api.minVersion(), api.maxVersion());
        VersionRange current = kafka.validVersions();
        if (ourRange.max() != current.max() || ourRange.min() > current.min()) {
            problems.add(message + ": versions " + ourRange + ", Kafka 4.4 " + current);
        }
        compare(api, ours, kafka, "Kafka 4.4 ", ourRange.intersect(current), problems);
        if (ourRange.min() < current.min()) {
            KafkaMessageSpec old = KafkaRelease.KAFKA_3_9.spec(message);
            VersionRange dropped = VersionRange.of(ourRange.min(), current.min() - 1);
            if (!dropped.intersect(old.validVersions()).equals(dropped)) {
                problems.add(message + ": versions " + dropped + " below Kafka 4.4's, Kafka 3.9.1 " + old.validVersions());
            }
            compare(api, ours, old, "Kafka 3.9.1 ", dropped, problems);
        }
        return problems;
    }

    private static void compare(ApiSpec api, Schema ours, KafkaMessageSpec kafka, String release, VersionRange scope,
            List<String> problems) {
        short kafkaFlexible = kafka.flexibleVersions().isEmpty() ? -1 : kafka.flexibleVersions().min();
        if (api.flexibleFrom() != kafkaFlexible) {
            problems.add(kafka.name() + ": flexible from " + api.flexibleFrom() + ", " + release + kafka.flexibleVersions());
        }
        compareStruct(release + kafka.name(), ours, kafka.fields(), scope, problems);
    }

    private static void compareStruct(String path, Schema ours, List<KafkaField> theirs, VersionRange scope,
            List<String> problems) {
        List<Field<?>> ourFields = ours.fields().stream().filter(f -> !versions(f).intersect(scope).isEmpty()).toList();
        List<KafkaField> kafkaFields = theirs.stream().filter(f -> !f.versions().intersect(scope).isEmpty()).toList();
        List<String> ourNames = ourFields.stream().map(Field::name).toList();
        List<String> kafkaNames = kafkaFields.stream().map(KafkaField::name).toList();
        if (!ourNames.equals(kafkaNames)) {
            problems.add(path + ": fields " + ourNames + ", Kafka " + kafkaNames);
        }
        for (KafkaField kf : kafkaFields) {
            ourFields.stream().filter(f -> f.name().equals(kf.name())).findFirst()
                    .ifPresent(of -> compareField(path + "." + kf.name(), of, kf, scope, problems));
        }
    }

    private static void compareField(String path, Field<?> ours, KafkaField kafka, VersionRange scope,
            List<String> problems) {
        VersionRange ourVersions = versions(ours).intersect(scope);
        VersionRange kafkaVersions = kafka.versions().intersect(scope);
        if (!ourVersions.equals(kafkaVersions)) {
            problems.add(path + ": versions " + ourVersions + ", Kafka " + kafkaVersions);
        }
        String expectedType = kafka.hasStructs() ? (kafka.isArray() ? "[]struct" : "struct") : kafka.type();
        if (!ours.type().name().equals(expectedType)) {
            problems.add(path + ": type " + ours.type().name() + ", Kafka " + kafka.type());
        }
        VersionRange ourNullable = nullableVersions(ours, kafkaVersions);
        VersionRange kafkaNullable = kafka.nullableVersions().intersect(kafkaVersions);
        if (!ourNullable.equals(kafkaNullable)) {
            problems.add(path + ": nullable in " + ourNullable + ", Kafka " + kafkaNullable);
        }
        if (ours.isTagged() != kafka.isTagged() || ours.tag() != kafka.tag()) {
            problems.add(path + ": tag " + ours.tag() + ", Kafka " + kafka.tag() + " (-1: not tagged)");
        }
        if (kafka.isTagged() && !kafka.taggedVersions().intersect(scope).equals(kafkaVersions)) {
            problems.add(path + ": Kafka tags it in " + kafka.taggedVersions() + " only, of " + kafka.versions());
        }
        Object kafkaDefault = KafkaDefaults.of(kafka);
        Object ourDefault = ours.defaultValue();
        boolean sameDefault = kafkaDefault == KafkaDefaults.DEFAULT_STRUCT
                ? ourDefault == null && !ours.isNullable()
                : Objects.deepEquals(ourDefault, kafkaDefault);
        if (!sameDefault) {
            problems.add(path + ": default " + show(ourDefault) + ", Kafka " + show(kafkaDefault));
        }
        if (kafka.hasStructs()) {
            if (ours.nestedSchema() == null) {
                problems.add(path + ": no nested schema");
            } else {
                compareStruct(path, ours.nestedSchema(), kafka.fields(), kafkaVersions, problems);
            }
        }
    }

    private static VersionRange versions(Field<?> field) {
        return VersionRange.of(field.minVersion(), field.maxVersion());
    }

    /** The versions of {@code scope} in which the field may be null, as one range (as Kafka writes it). */
    private static VersionRange nullableVersions(Field<?> field, VersionRange scope) {
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        for (int v = scope.min(); v <= scope.max(); v++) {
            if (field.isNullableIn((short) v)) {
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        return VersionRange.of(min, max);
    }

    private static String show(Object value) {
        if (value instanceof byte[] b) {
            return Arrays.toString(b);
        }
        return value instanceof String s ? '"' + s + '"' : String.valueOf(value);
    }
}
