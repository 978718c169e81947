package io.odradek.broker.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.Apis;
import io.odradek.wire.api.InitProducerIdApi;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;

/** The release table behind odradek.emulate.version, against known anchors, our own ranges and Kafka 4.4's schemas. */
class KafkaReleasesTest {

    @Test
    void everyReleaseAClientMayWantIsInTheTableOldestFirst() {
        assertThat(KafkaReleases.all()).extracting(KafkaRelease::version).containsExactly(
                "0.10.0", "0.10.1", "0.10.2", "0.11.0", "1.0", "1.1",
                "2.0", "2.1", "2.2", "2.3", "2.4", "2.5", "2.6", "2.7", "2.8",
                "3.0", "3.1", "3.2", "3.3", "3.4", "3.5", "3.6", "3.7", "3.8", "3.9",
                "4.0", "4.1", "4.2", "4.3", "4.4");
    }

    @Test
    void kafka28AdvertisedTheVersionsItIsKnownFor() {
        KafkaRelease r = KafkaReleases.named("2.8");
        assertThat(maxima(r, "Produce", "Fetch", "ListOffsets", "Metadata", "OffsetCommit", "OffsetFetch",
                "FindCoordinator", "JoinGroup", "ApiVersions", "InitProducerId", "DescribeProducers"))
                .isEqualTo("Produce 9, Fetch 12, ListOffsets 6, Metadata 11, OffsetCommit 8, OffsetFetch 7, "
                        + "FindCoordinator 3, JoinGroup 7, ApiVersions 3, InitProducerId 4, DescribeProducers 0");
        assertThat(r.maxVersion(ApiKeys.CONSUMER_GROUP_HEARTBEAT.id)).isEqualTo((short) -1);
        assertThat(r.maxVersion(ApiKeys.DESCRIBE_TRANSACTIONS.id)).isEqualTo((short) -1);
        assertThat(r.features()).isEmpty();
    }

    @Test
    void olderReleasesAdvertisedWhatTheirKipsBrought() {
        assertThat(maxima(KafkaReleases.named("0.10.0"), "Produce", "Fetch", "Metadata", "ApiVersions"))
                .isEqualTo("Produce 2, Fetch 2, Metadata 1, ApiVersions 0");
        assertThat(KafkaReleases.named("0.10.0").maxVersion(ApiKeys.INIT_PRODUCER_ID.id)).isEqualTo((short) -1);
        assertThat(maxima(KafkaReleases.named("0.11.0"), "Produce", "Fetch", "Metadata", "InitProducerId", "ApiVersions"))
                .isEqualTo("Produce 3, Fetch 5, Metadata 4, InitProducerId 0, ApiVersions 1");
        assertThat(maxima(KafkaReleases.named("2.1"), "Produce", "Fetch", "OffsetCommit"))
                .isEqualTo("Produce 7, Fetch 10, OffsetCommit 6");
        assertThat(maxima(KafkaReleases.named("3.0"), "ListOffsets", "OffsetFetch", "FindCoordinator", "ListTransactions"))
                .isEqualTo("ListOffsets 7, OffsetFetch 8, FindCoordinator 4, ListTransactions 0");
        assertThat(maxima(KafkaReleases.named("3.9"), "Produce", "Fetch", "ListOffsets", "Metadata", "ApiVersions",
                "ConsumerGroupHeartbeat", "DescribeTopicPartitions"))
                .isEqualTo("Produce 11, Fetch 17, ListOffsets 9, Metadata 12, ApiVersions 4, "
                        + "ConsumerGroupHeartbeat 0, DescribeTopicPartitions 0");
    }

    @Test
    void theKraftReleasesFinalizeMetadataVersionAndFourZeroBringsTheTransactionAndGroupProtocols() {
        assertThat(KafkaReleases.named("3.2").features()).isEmpty();
        assertThat(KafkaReleases.named("3.3").features()).isEqualTo(Map.of("metadata.version", (short) 7));
        assertThat(KafkaReleases.named("3.9").features()).isEqualTo(Map.of("metadata.version", (short) 21));
        assertThat(KafkaReleases.named("4.0").features()).isEqualTo(
                Map.of("metadata.version", (short) 25, "transaction.version", (short) 2, "group.version", (short) 1));
        assertThat(KafkaReleases.named("4.2").features()).isEqualTo(Map.of("metadata.version", (short) 29,
                "transaction.version", (short) 2, "group.version", (short) 1, "share.version", (short) 1,
                "streams.version", (short) 1));
        assertThat(KafkaReleases.named("4.4").features()).isEqualTo(Map.of("metadata.version", (short) 33,
                "transaction.version", (short) 2, "group.version", (short) 1, "share.version", (short) 2,
                "streams.version", (short) 1));
    }

    /** Our own ranges are Kafka 4.4's maxima (InitProducerId v6 aside, unstable in 4.4): the table's 4.4 must agree. */
    @Test
    void kafka44IsWhatOurOwnRegistryHandles() {
        KafkaRelease r = KafkaReleases.named("4.4");
        for (ApiSpec spec : Apis.ALL) {
            short expected = spec == InitProducerIdApi.SPEC ? 5 : spec.maxVersion();
            assertThat(r.maxVersion(spec.key())).as(spec.name()).isEqualTo(expected);
        }
    }

    /** Every API a Kafka 4.4 broker advertises, from the schemas in kafka-clients 4.4.0 (listener "broker", stable). */
    @Test
    void kafka44IsWhatKafka44sSchemasGiveABroker() throws IOException {
        Map<Short, Short> expected = new TreeMap<>();
        Pattern key = Pattern.compile("\"apiKey\":\\s*(\\d+)");
        Pattern valid = Pattern.compile("\"validVersions\":\\s*\"(?:\\d+-)?(\\d+)\"");
        try (InputStream jar = ApiKeys.class.getProtectionDomain().getCodeSource().getLocation().openStream();
                ZipInputStream zip = new ZipInputStream(jar)) {
            for (ZipEntry e; (e = zip.getNextEntry()) != null;) {
                if (!e.getName().matches("common/message/\\w+Request\\.json")) {
                    continue;
                }
                String json = new String(zip.readAllBytes(), StandardCharsets.UTF_8).replaceAll("(?m)^\\s*//.*$", "");
                Matcher k = key.matcher(json);
                Matcher v = valid.matcher(json);
                if (k.find() && v.find() && json.matches("(?s).*\"listeners\":\\s*\\[[^]]*\"broker\".*")) {
                    int max = Integer.parseInt(v.group(1)) - (json.contains("\"latestVersionUnstable\": true") ? 1 : 0);
                    expected.put(Short.parseShort(k.group(1)), (short) max);
                }
            }
        }
        assertThat(expected).hasSizeGreaterThan(60);
        assertThat(KafkaReleases.named("4.4").maxVersions()).isEqualTo(expected);
    }

    /** Each release is the one before plus its changes: no maximum ever goes down (KRaft at 3.3 only drops APIs). */
    @Test
    void noReleaseLowersAMaximumOfTheOneBefore() {
        KafkaRelease before = null;
        for (KafkaRelease r : KafkaReleases.all()) {
            if (before != null) {
                for (Map.Entry<Short, Short> api : before.maxVersions().entrySet()) {
                    short now = r.maxVersion(api.getKey());
                    if (now >= 0) {
                        assertThat(now).as("%s key %d", r, api.getKey()).isGreaterThanOrEqualTo(api.getValue());
                    }
                }
            }
            before = r;
        }
    }

    @Test
    void aVersionMayCarryItsPatchLevel() {
        assertThat(KafkaReleases.named("2.8.1").version()).isEqualTo("2.8");
        assertThat(KafkaReleases.named("0.10.2.1").version()).isEqualTo("0.10.2");
        assertThat(KafkaReleases.named(" 3.9.0 ").version()).isEqualTo("3.9");
    }

    @Test
    void anUnknownVersionIsRefusedNamingTheKnownOnes() {
        assertThatThrownBy(() -> KafkaReleases.named("2.9"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Unknown Kafka version '2.9'; known versions: 0.10.0, 0.10.1, 0.10.2, 0.11.0, 1.0,")
                .hasMessageEndingWith("4.3, 4.4");
        assertThat(KafkaReleases.problem("0.9.0")).startsWith("Unknown Kafka version '0.9.0'");
        assertThat(KafkaReleases.problem("latest")).startsWith("Unknown Kafka version 'latest'");
        assertThat(KafkaReleases.problem("4.4")).isNull();
    }

    private static String maxima(KafkaRelease r, String... apis) {
        StringBuilder out = new StringBuilder();
        for (String name : apis) {
            ApiSpec spec = Apis.ALL.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
            out.append(out.length() == 0 ? "" : ", ").append(name).append(' ').append(r.maxVersion(spec.key()));
        }
        return out.toString();
    }
}
