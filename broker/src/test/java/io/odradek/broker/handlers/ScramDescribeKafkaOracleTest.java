package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.replication.security.InMemorySecurityMetadataStore;
import io.odradek.replication.security.SecurityMetadataStore.ScramChange;
import io.odradek.security.scram.ScramCredential;
import io.odradek.security.scram.ScramMechanism;
import io.odradek.wire.api.DescribeUserScramCredentialsApi;
import io.odradek.wire.schema.Struct;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.message.DescribeUserScramCredentialsRequestData;
import org.apache.kafka.common.message.DescribeUserScramCredentialsRequestData.UserName;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData.DescribeUserScramCredentialsResult;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.image.ScramImage;
import org.apache.kafka.metadata.ScramCredentialData;
import org.junit.jupiter.api.Test;

/**
 * Kafka 4.4's own ScramImage.describe (what a Kafka broker answers DescribeUserScramCredentials with) as the
 * oracle: the same credentials and request, and our handler's response bytes must equal Kafka's, results in
 * the same order with the same errors and messages (for all users, the same results: Kafka's order there
 * depends on how its image's maps grew).
 */
class ScramDescribeKafkaOracleTest {
    private static final List<String> USERS = List.of("alice", "bob", "carol", "dave", "erin", "frank", "grace",
            "heidi", "ivan", "judy", "mallory", "niaj", "olivia", "peggy", "rupert", "sybil", "trent", "victor", "walter",
            "zed", "a", "b", "aa", "bb", "Aa", "BB", "user-1", "user-2", "user-10", "ünïcødé");

    private final InMemorySecurityMetadataStore store = new InMemorySecurityMetadataStore();
    private final Map<org.apache.kafka.clients.admin.ScramMechanism, Map<String, ScramCredentialData>> kafka =
            new EnumMap<>(org.apache.kafka.clients.admin.ScramMechanism.class);

    ScramDescribeKafkaOracleTest() {
        List<ScramChange> changes = new ArrayList<>();
        for (int i = 0; i < USERS.size(); i++) {
            String user = USERS.get(i);
            // every user SHA-256 except each third; SHA-512 for each second (so some have both, some one)
            if (i % 3 != 0) {
                changes.add(credential(user, ScramMechanism.SCRAM_SHA_256, 4096 + i));
            }
            if (i % 2 == 0) {
                changes.add(credential(user, ScramMechanism.SCRAM_SHA_512, 8192 + i));
            }
        }
        store.alterScramCredentials(changes).join();
    }

    private ScramChange credential(String user, ScramMechanism mechanism, int iterations) {
        byte[] salt = {1, 2, 3};
        ScramCredential c = new ScramCredential(salt, new byte[] {4}, new byte[] {5}, iterations);
        kafka.computeIfAbsent(org.apache.kafka.clients.admin.ScramMechanism.fromType(mechanism.type), m -> new HashMap<>())
                .put(user, new ScramCredentialData(salt, new byte[] {4}, new byte[] {5}, iterations));
        return new ScramChange(user, mechanism, c);
    }

    private byte[] ours(List<String> users) {
        return ours(store, users);
    }

    private static byte[] ours(InMemorySecurityMetadataStore store, List<String> users) {
        Struct request = DescribeUserScramCredentialsApi.Request.SCHEMA.newStruct()
                .set(DescribeUserScramCredentialsApi.Request.USERS, users == null ? null : new ArrayList<>());
        if (users != null) {
            for (String user : users) {
                request.add(DescribeUserScramCredentialsApi.Request.USERS)
                        .set(DescribeUserScramCredentialsApi.Request.UserName.NAME, user);
            }
        }
        return HandlerAnswerBytes.atVersion0(new DescribeUserScramCredentialsHandler(store), request);
    }

    private byte[] kafkas(List<String> users) {
        return kafkas(new ScramImage(kafka), users);
    }

    private static byte[] kafkas(ScramImage image, List<String> users) {
        DescribeUserScramCredentialsRequestData request = new DescribeUserScramCredentialsRequestData()
                .setUsers(users == null ? null : users.stream().map(u -> new UserName().setName(u)).toList());
        Message response = image.describe(request);
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer buffer = ByteBuffer.allocate(response.size(cache, (short) 0));
        response.write(new ByteBufferAccessor(buffer), cache, (short) 0);
        return buffer.array();
    }

    /** Kafka's reading of a response, results sorted by user (Kafka's own order there follows its image's history). */
    private static DescribeUserScramCredentialsResponseData sortedResults(byte[] response) {
        DescribeUserScramCredentialsResponseData data = new DescribeUserScramCredentialsResponseData(
                new ByteBufferAccessor(ByteBuffer.wrap(response)), (short) 0);
        List<DescribeUserScramCredentialsResult> sorted = new ArrayList<>(data.results());
        sorted.sort(java.util.Comparator.comparing(DescribeUserScramCredentialsResult::user));
        return data.setResults(sorted);
    }

    @Test
    void everyUserDescribedAsKafkaDescribesThem() {
        assertThat(sortedResults(ours(null))).isEqualTo(sortedResults(kafkas(null)));
        assertThat(sortedResults(ours(List.of()))).isEqualTo(sortedResults(kafkas(List.of())));
        assertThat(sortedResults(ours(null)).results()).hasSize(25); // 5 of the 30 (odd multiples of 3) have none
    }

    @Test
    void namedUsersUnknownAndTwiceNamedOnesAnsweredAsKafkaAnswersThem() {
        List<String> asked = new ArrayList<>(USERS.subList(3, 17));
        asked.addAll(List.of("nobody", "alice", "", "ivan", "zz-unknown", "ivan"));
        assertThat(ours(asked)).isEqualTo(kafkas(asked));
    }

    @Test
    void withNoCredentialsAtAllTheAnswersAreKafkasToo() {
        InMemorySecurityMetadataStore empty = new InMemorySecurityMetadataStore();
        for (List<String> asked : java.util.Arrays.asList(null, List.<String>of(), List.of("alice", "alice", "bob"))) {
            assertThat(ours(empty, asked)).isEqualTo(kafkas(ScramImage.EMPTY, asked));
        }
    }
}
