package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.replication.security.InMemorySecurityMetadataStore;
import io.odradek.wire.api.AlterUserScramCredentialsApi;
import io.odradek.wire.api.AlterUserScramCredentialsApi.Request.ScramCredentialDeletion;
import io.odradek.wire.api.AlterUserScramCredentialsApi.Request.ScramCredentialUpsertion;
import io.odradek.wire.schema.Struct;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData;
import org.apache.kafka.common.message.AlterUserScramCredentialsResponseData;
import org.apache.kafka.common.metadata.RemoveUserScramCredentialRecord;
import org.apache.kafka.common.metadata.UserScramCredentialRecord;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.controller.ScramControlManager;
import org.apache.kafka.controller.ScramControlManagers;
import org.apache.kafka.server.common.ApiMessageAndVersion;
import org.junit.jupiter.api.Test;

/**
 * Kafka 4.4's own controller logic (ScramControlManager.alterCredentials, its records replayed) as the oracle
 * for AlterUserScramCredentials: random requests (repeated, empty and unknown users, unknown mechanisms,
 * iterations at and past the bounds, deletions of missing credentials, empty salted passwords) sent to both,
 * one after another. Each answer must be byte for byte Kafka's (same results, order, errors and messages), and
 * afterwards the stored credentials (salt, StoredKey, ServerKey, iterations) the same as Kafka's records.
 */
class ScramAlterKafkaOracleTest {
    private static final String[] NAMES = {"alice", "bob", "carol", "dave", "", "user-1", "Aa", "BB"};
    private static final byte[] MECHANISMS = {1, 1, 2, 2, 1, 2, 0, 3};
    private static final int[] ITERATIONS = {4096, 8192, 16384, 4095, 16385, 5000, 4096, 12000};

    private final InMemorySecurityMetadataStore store = new InMemorySecurityMetadataStore();
    private final AlterUserScramCredentialsHandler handler = new AlterUserScramCredentialsHandler(store);
    private final ScramControlManager kafka = ScramControlManagers.create();
    /** "user mechanism" -> the credential Kafka's records leave, as text. */
    private final Map<String, String> kafkaCredentials = new TreeMap<>();
    /** Every error Kafka answered with, so the test shows its random requests reached each check. */
    private final Set<Errors> kafkaErrors = EnumSet.noneOf(Errors.class);

    private static String text(byte[] salt, byte[] storedKey, byte[] serverKey, int iterations) {
        HexFormat hex = HexFormat.of();
        return hex.formatHex(salt) + "/" + hex.formatHex(storedKey) + "/" + hex.formatHex(serverKey) + "/" + iterations;
    }

    private Map<String, String> ourCredentials() {
        Map<String, String> ours = new TreeMap<>();
        store.scramCredentials().forEach((user, creds) -> creds.forEach((mechanism, c) ->
                ours.put(user + " " + mechanism.type, text(c.salt(), c.storedKey(), c.serverKey(), c.iterations()))));
        return ours;
    }

    private byte[] ours(Struct request) {
        return HandlerAnswerBytes.atVersion0(handler, request);
    }

    private byte[] kafkas(AlterUserScramCredentialsRequestData request) {
        ScramControlManagers.Outcome result = ScramControlManagers.alter(kafka, request);
        for (ApiMessageAndVersion record : result.records()) {
            ApiMessage message = record.message();
            if (message instanceof UserScramCredentialRecord r) {
                kafka.replay(r);
                kafkaCredentials.put(r.name() + " " + r.mechanism(),
                        text(r.salt(), r.storedKey(), r.serverKey(), r.iterations()));
            } else {
                RemoveUserScramCredentialRecord r = (RemoveUserScramCredentialRecord) message;
                kafka.replay(r);
                kafkaCredentials.remove(r.name() + " " + r.mechanism());
            }
        }
        ObjectSerializationCache cache = new ObjectSerializationCache();
        AlterUserScramCredentialsResponseData response = result.response();
        response.results().forEach(r -> kafkaErrors.add(Errors.forCode(r.errorCode())));
        ByteBuffer buffer = ByteBuffer.allocate(response.size(cache, (short) 0));
        response.write(new ByteBufferAccessor(buffer), cache, (short) 0);
        return buffer.array();
    }

    @Test
    void randomRequestsAreAnsweredAndAppliedExactlyAsByKafkasController() {
        Random random = new Random(20261202);
        int changedSomething = 0;
        for (int round = 0; round < 300; round++) {
            Struct ours = AlterUserScramCredentialsApi.Request.SCHEMA.newStruct();
            AlterUserScramCredentialsRequestData theirs = new AlterUserScramCredentialsRequestData();
            int deletions = random.nextInt(3);
            for (int i = 0; i < deletions; i++) {
                String name = NAMES[random.nextInt(NAMES.length)];
                byte mechanism = MECHANISMS[random.nextInt(MECHANISMS.length)];
                ours.add(AlterUserScramCredentialsApi.Request.DELETIONS)
                        .set(ScramCredentialDeletion.NAME, name).set(ScramCredentialDeletion.MECHANISM, mechanism);
                theirs.deletions().add(new AlterUserScramCredentialsRequestData.ScramCredentialDeletion()
                        .setName(name).setMechanism(mechanism));
            }
            int upsertions = random.nextInt(4);
            for (int i = 0; i < upsertions; i++) {
                String name = NAMES[random.nextInt(NAMES.length)];
                byte mechanism = MECHANISMS[random.nextInt(MECHANISMS.length)];
                int iterations = ITERATIONS[random.nextInt(ITERATIONS.length)];
                byte[] salt = new byte[random.nextInt(3) * 16];
                random.nextBytes(salt);
                byte[] salted = new byte[random.nextInt(10) == 0 ? 0 : (mechanism == 2 ? 64 : 32)];
                random.nextBytes(salted);
                ours.add(AlterUserScramCredentialsApi.Request.UPSERTIONS)
                        .set(ScramCredentialUpsertion.NAME, name).set(ScramCredentialUpsertion.MECHANISM, mechanism)
                        .set(ScramCredentialUpsertion.ITERATIONS, iterations)
                        .set(ScramCredentialUpsertion.SALT, salt).set(ScramCredentialUpsertion.SALTED_PASSWORD, salted);
                theirs.upsertions().add(new AlterUserScramCredentialsRequestData.ScramCredentialUpsertion()
                        .setName(name).setMechanism(mechanism).setIterations(iterations)
                        .setSalt(salt).setSaltedPassword(salted));
            }
            Map<String, String> before = new TreeMap<>(kafkaCredentials);

            byte[] kafkaAnswer = kafkas(theirs);
            assertThat(ours(ours)).as("round %d: %s", round, theirs).isEqualTo(kafkaAnswer);
            assertThat(ourCredentials()).as("round %d: %s", round, theirs).isEqualTo(kafkaCredentials);
            changedSomething += before.equals(kafkaCredentials) ? 0 : 1;
        }
        // the random requests did change credentials often enough to mean something
        assertThat(changedSomething).isGreaterThan(50);
        assertThat(kafkaCredentials).isNotEmpty();
        assertThat(kafkaErrors).containsExactlyInAnyOrder(Errors.NONE, Errors.DUPLICATE_RESOURCE, Errors.RESOURCE_NOT_FOUND,
                Errors.UNACCEPTABLE_CREDENTIAL, Errors.UNSUPPORTED_SASL_MECHANISM, Errors.UNKNOWN_SERVER_ERROR);
    }
}
