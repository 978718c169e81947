package io.odradek.broker.handlers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.quota.IpEntityLookups;
import io.odradek.broker.quota.TestQuotaStore;
import io.odradek.replication.config.QuotaEntity;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.AlterClientQuotasApi;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.api.DescribeClientQuotasApi;
import io.odradek.wire.api.DescribeClientQuotasApi.Request.ComponentData;
import io.odradek.wire.api.DescribeClientQuotasApi.Response.EntryData;
import io.odradek.wire.header.RequestHeader;
import io.odradek.wire.schema.Struct;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** AlterClientQuotas and DescribeClientQuotas over a store in memory, with Kafka 4.4's answers and messages. */
class ClientQuotasHandlersTest {
    private final TestQuotaStore store = new TestQuotaStore();
    private final AlterClientQuotasHandler alter = new AlterClientQuotasHandler(store);
    private final DescribeClientQuotasHandler describe = new DescribeClientQuotasHandler(store);

    // ---- building requests

    /** An entity: type, name pairs (null name: the default entity). */
    private static List<String[]> entity(String... typeAndName) {
        List<String[]> parts = new ArrayList<>();
        for (int i = 0; i < typeAndName.length; i += 2) {
            parts.add(new String[] {typeAndName[i], typeAndName[i + 1]});
        }
        return parts;
    }

    private static Struct alterRequest(boolean validateOnly) {
        return AlterClientQuotasApi.Request.SCHEMA.newStruct().set(AlterClientQuotasApi.Request.VALIDATE_ONLY, validateOnly);
    }

    /** Adds an entry; ops are key, value pairs, a null value removes the key. */
    private static Struct entry(Struct request, List<String[]> entity, Object... ops) {
        Struct entry = request.add(AlterClientQuotasApi.Request.ENTRIES);
        for (String[] p : entity) {
            entry.add(AlterClientQuotasApi.Request.EntryData.ENTITY)
                    .set(AlterClientQuotasApi.Request.EntryData.EntityData.ENTITY_TYPE, p[0])
                    .set(AlterClientQuotasApi.Request.EntryData.EntityData.ENTITY_NAME, p[1]);
        }
        for (int i = 0; i < ops.length; i += 2) {
            Double value = (Double) ops[i + 1];
            entry.add(AlterClientQuotasApi.Request.EntryData.OPS)
                    .set(AlterClientQuotasApi.Request.EntryData.OpData.KEY, (String) ops[i])
                    .set(AlterClientQuotasApi.Request.EntryData.OpData.VALUE, value == null ? 0.0 : value)
                    .set(AlterClientQuotasApi.Request.EntryData.OpData.REMOVE, value == null);
        }
        return request;
    }

    private Struct call(ApiHandler handler, int version, Struct request) {
        ApiSpec api = handler.api();
        short v = (short) version;
        Struct decoded = AdminFixture.roundTrip(api.request(), request, v, api.isFlexible(v));
        RequestContext context = new RequestContext(new RequestHeader(api.key(), v, 1, "test"),
                new InetSocketAddress("127.0.0.1", 50000), UnpooledByteBufAllocator.DEFAULT, ImmediateEventExecutor.INSTANCE);
        try {
            Struct response = handler.handle(context, decoded).get(10, TimeUnit.SECONDS);
            return AdminFixture.roundTrip(api.response(), response, v, api.isFlexible(v));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** The only entry's (error code, message). */
    private Struct alterOne(List<String[]> entity, Object... ops) {
        Struct r = call(alter, 1, entry(alterRequest(false), entity, ops));
        assertThat(r.get(AlterClientQuotasApi.Response.ENTRIES)).hasSize(1);
        return r.get(AlterClientQuotasApi.Response.ENTRIES).get(0);
    }

    private static void assertRejected(Struct entry, String message) {
        assertThat(entry.get(AlterClientQuotasApi.Response.EntryData.ERROR_CODE)).isEqualTo(ErrorCode.INVALID_REQUEST.code());
        assertThat(entry.get(AlterClientQuotasApi.Response.EntryData.ERROR_MESSAGE)).isEqualTo(message);
    }

    private static QuotaEntity quotaEntity(String... typeAndName) {
        TreeMap<String, String> parts = new TreeMap<>();
        for (int i = 0; i < typeAndName.length; i += 2) {
            parts.put(typeAndName[i], typeAndName[i + 1]);
        }
        return new QuotaEntity(parts);
    }

    private static Struct describeRequest(boolean strict, Object... typeMatchAndName) {
        Struct r = DescribeClientQuotasApi.Request.SCHEMA.newStruct().set(DescribeClientQuotasApi.Request.STRICT, strict);
        for (int i = 0; i < typeMatchAndName.length; i += 3) {
            r.add(DescribeClientQuotasApi.Request.COMPONENTS)
                    .set(ComponentData.ENTITY_TYPE, (String) typeMatchAndName[i])
                    .set(ComponentData.MATCH_TYPE, ((Integer) typeMatchAndName[i + 1]).byteValue())
                    .set(ComponentData.MATCH, (String) typeMatchAndName[i + 2]);
        }
        return r;
    }

    /** The described entities as "type=name,type=name" strings, each with its values. */
    private List<String> described(Struct response) {
        assertThat(response.get(DescribeClientQuotasApi.Response.ERROR_CODE)).isZero();
        List<String> out = new ArrayList<>();
        for (Struct e : response.get(DescribeClientQuotasApi.Response.ENTRIES)) {
            StringBuilder sb = new StringBuilder();
            for (Struct part : e.get(EntryData.ENTITY)) {
                sb.append(sb.length() == 0 ? "" : ",").append(part.get(EntryData.EntityData.ENTITY_TYPE)).append('=')
                        .append(part.get(EntryData.EntityData.ENTITY_NAME));
            }
            TreeMap<String, Double> values = new TreeMap<>();
            for (Struct v : e.get(EntryData.VALUES)) {
                values.put(v.get(EntryData.ValueData.KEY), v.get(EntryData.ValueData.VALUE));
            }
            out.add(sb + " " + values);
        }
        out.sort(null);
        return out;
    }

    // ---- AlterClientQuotas

    @Test
    void alteredQuotaIsStoredAndDescribedAtBothVersions() {
        Struct e = alterOne(entity("client-id", "app"), "producer_byte_rate", 1048576.0, "request_percentage", 12.5);
        assertThat(e.get(AlterClientQuotasApi.Response.EntryData.ERROR_CODE)).isZero();
        assertThat(e.get(AlterClientQuotasApi.Response.EntryData.ERROR_MESSAGE)).isNull();
        assertThat(e.get(AlterClientQuotasApi.Response.EntryData.ENTITY)).extracting(
                p -> p.get(AlterClientQuotasApi.Response.EntryData.EntityData.ENTITY_TYPE),
                p -> p.get(AlterClientQuotasApi.Response.EntryData.EntityData.ENTITY_NAME))
                .containsExactly(tuple("client-id", "app"));
        assertThat(store.quotas()).containsExactly(
                Map.entry(quotaEntity("client-id", "app"), Map.of("producer_byte_rate", 1048576.0, "request_percentage", 12.5)));
        for (int v = 0; v <= 1; v++) {
            assertThat(described(call(describe, v, describeRequest(true, "client-id", 0, "app"))))
                    .containsExactly("client-id=app {producer_byte_rate=1048576.0, request_percentage=12.5}");
        }
    }

    @Test
    void removingTheLastKeyLeavesNothingToDescribe() {
        alterOne(entity("user", "alice"), "consumer_byte_rate", 2000.0);
        Struct e = alterOne(entity("user", "alice"), "consumer_byte_rate", null);
        assertThat(e.get(AlterClientQuotasApi.Response.EntryData.ERROR_CODE)).isZero();
        assertThat(store.quotas()).isEmpty();
        assertThat(described(call(describe, 1, describeRequest(false)))).isEmpty();
    }

    @Test
    void validateOnlyChecksWithoutStoring() {
        Struct r = call(alter, 0, entry(alterRequest(true), entity("client-id", "app"), "producer_byte_rate", 100.0));
        assertThat(r.get(AlterClientQuotasApi.Response.ENTRIES).get(0).get(AlterClientQuotasApi.Response.EntryData.ERROR_CODE)).isZero();
        assertThat(store.quotas()).isEmpty();
        assertThat(store.alterCalls).isZero();
    }

    @Test
    void badKeysAndValuesAreRefusedWithKafkasMessages() {
        assertRejected(alterOne(entity("client-id", "app"), "producer_byte_rate", 10.5),
                "producer_byte_rate cannot be a fractional value.");
        assertRejected(alterOne(entity("client-id", "app"), "producer_byte_rate", -1.0),
                "Quota producer_byte_rate must be greater than 0");
        assertRejected(alterOne(entity("client-id", "app"), "consumer_byte_rate", 0.0),
                "Quota consumer_byte_rate must be greater than 0");
        assertRejected(alterOne(entity("client-id", "app"), "request_percentage", Double.POSITIVE_INFINITY),
                "Quota request_percentage must be a finite number");
        assertRejected(alterOne(entity("client-id", "app"), "producer_byte_rate", 1e20),
                "Proposed value for producer_byte_rate is too large for a LONG.");
        assertRejected(alterOne(entity("client-id", "app"), "connection_creation_rate", 5.0),
                "Invalid configuration key connection_creation_rate");
        assertRejected(alterOne(entity("ip", "127.0.0.1"), "producer_byte_rate", 5.0),
                "Invalid configuration key producer_byte_rate");
        assertRejected(alterOne(entity("ip", "127.0.0.1"), "connection_creation_rate", 3e9),
                "Proposed value for connection_creation_rate is too large for an INT.");
        assertThat(store.quotas()).isEmpty();
    }

    @Test
    void badEntitiesAreRefusedWithKafkasMessages() {
        assertRejected(alterOne(entity(), "producer_byte_rate", 1.0), "Invalid empty client quota entity");
        assertRejected(alterOne(entity("group", "g"), "producer_byte_rate", 1.0), "Unhandled client quota entity type: group");
        assertRejected(alterOne(entity("user", ""), "producer_byte_rate", 1.0), "Empty user not supported");
        assertRejected(alterOne(entity("ip", "10.0.0.1", "user", "alice"), "connection_creation_rate", 1.0),
                "Invalid quota entity combination, IP entity shouldnot be combined with User or ClientId");
        assertRejected(alterOne(entity("ip", "no-such-host.invalid"), "connection_creation_rate", 1.0),
                "no-such-host.invalid is not a valid IP or resolvable host.");
        assertThat(store.quotas()).isEmpty();
    }

    @Test
    void ipAndDefaultEntitiesAreStored() {
        alterOne(entity("ip", "10.0.0.1"), "connection_creation_rate", 10.0);
        alterOne(entity("ip", null), "connection_creation_rate", 20.0);
        alterOne(entity("user", null, "client-id", null), "controller_mutation_rate", 0.5);
        assertThat(described(call(describe, 1, describeRequest(false)))).containsExactly(
                "client-id=null,user=null {controller_mutation_rate=0.5}",
                "ip=10.0.0.1 {connection_creation_rate=10.0}",
                "ip=null {connection_creation_rate=20.0}");
    }

    @Test
    void aDuplicateKeyOrEntityIsIgnoredWhileOtherEntriesApply() {
        Struct request = alterRequest(false);
        entry(request, entity("client-id", "dup-key"), "producer_byte_rate", 1.0, "producer_byte_rate", 2.0);
        entry(request, entity("client-id", "ok"), "producer_byte_rate", 3.0);
        entry(request, entity("client-id", "bad"), "producer_byte_rate", 0.5);
        Struct r = call(alter, 1, request);
        List<Struct> entries = r.get(AlterClientQuotasApi.Response.ENTRIES);
        assertThat(entries).extracting(e -> e.get(AlterClientQuotasApi.Response.EntryData.ERROR_CODE),
                e -> e.get(AlterClientQuotasApi.Response.EntryData.ERROR_MESSAGE)).containsExactly(
                tuple(ErrorCode.INVALID_REQUEST.code(), "Ignoring duplicate entity ClientQuotaEntity(entries={client-id=dup-key})"),
                tuple((short) 0, null),
                tuple(ErrorCode.INVALID_REQUEST.code(), "producer_byte_rate cannot be a fractional value."));
        assertThat(store.quotas()).containsOnlyKeys(quotaEntity("client-id", "ok"));
    }

    @Test
    void anIpEntityNamedByAHostNameIsResolvedOnTheLookupThreadsNotTheSharedPool() {
        Struct e = alterOne(entity("ip", "localhost"), "connection_creation_rate", 5.0);
        assertThat(e.get(AlterClientQuotasApi.Response.EntryData.ERROR_CODE)).isZero();
        assertThat(store.quotas()).containsEntry(quotaEntity("ip", "localhost"), Map.of("connection_creation_rate", 5.0));
        assertThat(store.lastAlterThread).startsWith("odradek-ip-entity-lookup-");
    }

    @Test
    void whileTooManyIpLookupsWaitARequestNeedingOneIsRefusedAtOnceAndChangesNothing() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        List<CompletableFuture<Boolean>> stuck = new ArrayList<>();
        try {
            // First every lookup thread runs one of ours (a lookup an earlier test left behind finishing later would
            // free a queue slot and let the request below wait instead of being refused), then the queue fills.
            CountDownLatch running = new CountDownLatch(2);
            for (int i = 0; i < 2; i++) {
                stuck.add(IpEntityLookups.supply(() -> {
                    running.countDown();
                    return awaitQuietly(release);
                }));
            }
            assertThat(running.await(10, TimeUnit.SECONDS)).as("both lookup threads busy").isTrue();
            CompletableFuture<Boolean> last;
            do { // slow lookups: every lookup thread busy and the queue full
                last = IpEntityLookups.supply(() -> awaitQuietly(release));
                stuck.add(last);
            } while (!last.isCompletedExceptionally());
            Struct request = alterRequest(false);
            entry(request, entity("ip", "localhost"), "connection_creation_rate", 5.0);
            entry(request, entity("client-id", "app"), "producer_byte_rate", 100.0);
            Struct r = call(alter, 1, request);
            String message = "Too many ip entity names are waiting to be resolved; nothing was changed, try again later.";
            assertThat(r.get(AlterClientQuotasApi.Response.ENTRIES)).extracting(
                    e -> e.get(AlterClientQuotasApi.Response.EntryData.ERROR_CODE),
                    e -> e.get(AlterClientQuotasApi.Response.EntryData.ERROR_MESSAGE)).containsExactly(
                    tuple(ErrorCode.UNKNOWN_SERVER_ERROR.code(), message),
                    tuple(ErrorCode.UNKNOWN_SERVER_ERROR.code(), message));
            assertThat(store.quotas()).isEmpty();
        } finally {
            release.countDown();
        }
        for (CompletableFuture<Boolean> f : stuck.subList(0, stuck.size() - 1)) {
            assertThat(f.get(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    private static boolean awaitQuietly(CountDownLatch latch) {
        try {
            return latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Test
    void anIpEntityNamedByAnIpv4AddressIsCheckedWithoutALookup() {
        Struct e = alterOne(entity("ip", "10.0.0.1"), "connection_creation_rate", 5.0);
        assertThat(e.get(AlterClientQuotasApi.Response.EntryData.ERROR_CODE)).isZero();
        assertThat(store.lastAlterThread).isEqualTo(Thread.currentThread().getName());
        assertThat(IpEntityLookups.isIpv4Literal("192.168.0.255")).isTrue();
        assertThat(IpEntityLookups.isIpv4Literal("256.1.1.1")).isFalse(); // getByName would look that up
        assertThat(IpEntityLookups.isIpv4Literal("10.1")).isFalse();
        assertThat(IpEntityLookups.isIpv4Literal("::1")).isFalse();
        assertThat(IpEntityLookups.isIpv4Literal("1.2.3.4.example")).isFalse();
    }

    @Test
    void anEntityTypeNamedTwiceKeepsItsLastNameAndIsAnsweredAsApplied() {
        // Kafka 4.4 builds each entity as a map before checking it (AlterClientQuotasRequest.entries), so the
        // last name wins without an error; its controller's "duplicate entity entry" check never sees this.
        Struct e = alterOne(entity("client-id", "first", "user", "alice", "client-id", "second"),
                "producer_byte_rate", 5.0);
        assertThat(e.get(AlterClientQuotasApi.Response.EntryData.ERROR_CODE)).isZero();
        assertThat(e.get(AlterClientQuotasApi.Response.EntryData.ENTITY)).extracting(
                p -> p.get(AlterClientQuotasApi.Response.EntryData.EntityData.ENTITY_TYPE),
                p -> p.get(AlterClientQuotasApi.Response.EntryData.EntityData.ENTITY_NAME)).containsExactlyInAnyOrder(
                tuple("client-id", "second"), tuple("user", "alice"));
        assertThat(store.quotas()).containsOnlyKeys(quotaEntity("client-id", "second", "user", "alice"));
    }

    @Test
    void aFailedWriteIsTheErrorOfEveryAcceptedEntity() {
        store.failNext = new MetadataException(ErrorCode.NOT_CONTROLLER, "no quorum");
        Struct e = alterOne(entity("client-id", "app"), "producer_byte_rate", 100.0);
        assertThat(e.get(AlterClientQuotasApi.Response.EntryData.ERROR_CODE)).isEqualTo(ErrorCode.NOT_CONTROLLER.code());
        assertThat(e.get(AlterClientQuotasApi.Response.EntryData.ERROR_MESSAGE)).isEqualTo("no quorum");
        assertThat(store.quotas()).isEmpty();
    }

    // ---- DescribeClientQuotas

    private void someQuotas() {
        alterOne(entity("user", "alice"), "producer_byte_rate", 1.0);
        alterOne(entity("user", "alice", "client-id", "app"), "producer_byte_rate", 2.0);
        alterOne(entity("user", null), "producer_byte_rate", 3.0);
        alterOne(entity("client-id", "app"), "producer_byte_rate", 4.0);
        alterOne(entity("client-id", null), "producer_byte_rate", 5.0);
        alterOne(entity("ip", "10.0.0.1"), "connection_creation_rate", 6.0);
    }

    @Test
    void describeMatchesExactDefaultAndAnyEntitiesStrictlyOrNot() {
        someQuotas();
        assertThat(described(call(describe, 1, describeRequest(false, "user", 0, "alice")))).containsExactly(
                "client-id=app,user=alice {producer_byte_rate=2.0}", "user=alice {producer_byte_rate=1.0}");
        assertThat(described(call(describe, 1, describeRequest(true, "user", 0, "alice"))))
                .containsExactly("user=alice {producer_byte_rate=1.0}");
        assertThat(described(call(describe, 1, describeRequest(true, "user", 1, null))))
                .containsExactly("user=null {producer_byte_rate=3.0}");
        assertThat(described(call(describe, 1, describeRequest(true, "client-id", 2, null))))
                .containsExactly("client-id=app {producer_byte_rate=4.0}", "client-id=null {producer_byte_rate=5.0}");
        assertThat(described(call(describe, 1, describeRequest(false, "client-id", 2, null, "user", 0, "alice"))))
                .containsExactly("client-id=app,user=alice {producer_byte_rate=2.0}");
        assertThat(described(call(describe, 1, describeRequest(false)))).hasSize(6);
        assertThat(described(call(describe, 1, describeRequest(true)))).isEmpty();
    }

    private static void assertDescribeError(Struct r, ErrorCode error, String message) {
        assertThat(r.get(DescribeClientQuotasApi.Response.ERROR_CODE)).isEqualTo(error.code());
        assertThat(r.get(DescribeClientQuotasApi.Response.ERROR_MESSAGE)).isEqualTo(message);
        assertThat(r.get(DescribeClientQuotasApi.Response.ENTRIES)).isNull();
    }

    @Test
    void badFiltersAreRefusedWithKafkasErrors() {
        assertDescribeError(call(describe, 1, describeRequest(false, "ip", 2, null, "user", 0, "alice")),
                ErrorCode.INVALID_REQUEST, "Invalid entity filter component combination. IP filter component should not"
                        + " be used with user or clientId filter component.");
        assertDescribeError(call(describe, 1, describeRequest(false, "group", 2, null)),
                ErrorCode.UNSUPPORTED_VERSION, "Unsupported entity type group");
        assertDescribeError(call(describe, 1, describeRequest(false, "user", 0, null)),
                ErrorCode.INVALID_REQUEST, "Request specified MATCH_TYPE_EXACT, but set match string to null.");
        assertDescribeError(call(describe, 1, describeRequest(false, "user", 1, "x")),
                ErrorCode.INVALID_REQUEST, "Request specified MATCH_TYPE_DEFAULT, but also specified a match string.");
        assertDescribeError(call(describe, 1, describeRequest(false, "user", 2, null, "user", 2, null)),
                ErrorCode.INVALID_REQUEST, "Entity type user cannot appear more than once in the filter.");
        assertDescribeError(call(describe, 1, describeRequest(false, "user", 7, null)),
                ErrorCode.INVALID_REQUEST, "Unknown match type 7");
        assertDescribeError(call(describe, 1, describeRequest(false, "", 2, null)),
                ErrorCode.INVALID_REQUEST, "Invalid empty entity type.");
    }
}
