package io.odradek.broker.config;

import static io.odradek.broker.config.ConfigType.BOOLEAN;
import static io.odradek.broker.config.ConfigType.INT;
import static io.odradek.broker.config.ConfigType.LIST;
import static io.odradek.broker.config.ConfigType.LONG;
import static io.odradek.broker.config.ConfigType.SHORT;
import static io.odradek.broker.config.ConfigType.STRING;
import static io.odradek.broker.config.Validator.ANY;
import static io.odradek.broker.config.Validator.atLeast;
import static io.odradek.broker.config.Validator.eachOneOf;
import static io.odradek.broker.config.Validator.oneOf;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every broker setting Odradek acts on, under Kafka's key with Kafka 4.x's default, in one table.
 * Where our default differs from Kafka's the doc line says so. Other Kafka broker keys
 * ({@code kafka-broker-keys.txt}) are accepted silently and ignored; anything else draws a warning.
 */
public final class BrokerConfigDef {
    private static final Map<String, ConfigKey> KEYS = new LinkedHashMap<>();

    static {
        // Listeners and identity
        define("listeners", LIST, "PLAINTEXT://127.0.0.1:9092", ANY,
                "Where to accept clients, NAME://host:port; empty host = every interface (Kafka: PLAINTEXT://:9092).");
        define("advertised.listeners", LIST, null, ANY,
                "Addresses given to clients in metadata; default: the listener, with a wildcard host as 127.0.0.1.");
        define("listener.security.protocol.map", STRING,
                "SASL_SSL:SASL_SSL,PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT", ANY,
                "Listener name -> security protocol (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL) of every listener.");
        define("controller.listener.names", LIST, null, ANY,
                "Listeners reserved for the KRaft controller; never used for clients.");
        define("node.id", INT, "1", atLeast(0), "This broker's id (Kafka: required, no default).");
        define("broker.id", INT, "-1", atLeast(-1), "Legacy id; used as node.id when node.id is not set.");

        // Storage
        define("log.dirs", LIST, null, ANY, "Directories holding partition logs; default: log.dir.");
        define("log.dir", LIST, "./data", ANY, "Log directory used when log.dirs is unset (Kafka: /tmp/kafka-logs).");
        define("num.partitions", INT, "1", atLeast(1), "Partitions of an auto-created or partition-less topic.");
        define("default.replication.factor", SHORT, "1", atLeast(1), "Replication factor of an auto-created topic.");
        define("auto.create.topics.enable", BOOLEAN, "true", ANY, "Create a topic on first metadata request or produce.");
        define("delete.topic.enable", BOOLEAN, "true", ANY, "Allow DeleteTopics.");
        define("min.insync.replicas", INT, "1", atLeast(1), "Replicas that must have a write for acks=all.");
        define("compression.type", STRING, "producer",
                oneOf("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"), "Topic default compression.");
        define("log.cleanup.policy", LIST, "delete", eachOneOf("compact", "delete"), "Topic default cleanup policy.");
        define("log.segment.bytes", INT, "1073741824", atLeast(61),
                "Roll a segment at this size (Kafka's minimum is 1 MiB; smaller is accepted so tests can roll).");
        define("log.roll.ms", LONG, null, atLeast(1), "Roll a segment this old; wins over log.roll.hours.");
        define("log.roll.hours", INT, "168", atLeast(1), "Roll a segment this old, in hours.");
        define("log.retention.ms", LONG, null, ANY, "Delete segments older than this; -1 = forever. Wins over minutes/hours.");
        define("log.retention.minutes", INT, null, ANY, "Retention in minutes; wins over log.retention.hours.");
        define("log.retention.hours", INT, "168", ANY, "Retention in hours.");
        define("log.retention.bytes", LONG, "-1", ANY, "Delete old segments beyond this partition size; -1 = no limit.");
        define("log.retention.check.interval.ms", LONG, "300000", atLeast(1), "How often retention runs.");
        define("log.index.interval.bytes", INT, "4096", atLeast(0), "Bytes of log between offset-index entries.");
        define("log.index.size.max.bytes", INT, "10485760", atLeast(4), "Maximum size of an index file.");
        define("log.flush.interval.messages", LONG, Long.toString(Long.MAX_VALUE), atLeast(1),
                "fsync after this many messages (default: leave it to the OS).");
        define("log.flush.interval.ms", LONG, null, atLeast(0), "fsync this often; default: log.flush.scheduler.interval.ms.");
        define("log.flush.scheduler.interval.ms", LONG, Long.toString(Long.MAX_VALUE), ANY,
                "Fallback for log.flush.interval.ms.");
        define("log.segment.delete.delay.ms", LONG, "60000", atLeast(0), "Delay before a deleted segment's files go.");
        define("log.message.timestamp.type", STRING, "CreateTime", oneOf("CreateTime", "LogAppendTime"),
                "Topic default timestamp type.");
        define("message.max.bytes", INT, "1048588", atLeast(0), "Largest record batch a topic accepts by default.");

        // Network
        define("socket.request.max.bytes", INT, "104857600", atLeast(1), "Largest request frame accepted.");
        define("num.network.threads", INT, "3", atLeast(1), "Accepted for compatibility; Netty sizes its event loops.");
        define("num.io.threads", INT, "8", atLeast(1), "Writer threads, at most one per core: each partition's appends run on one of them.");

        // Network: backpressure and connection limits (issue 6)
        define("queued.max.requests", INT, "500", atLeast(1),
                "Requests read but not yet taken by their handlers, broker-wide; beyond it connections are muted.");
        define("queued.max.request.bytes", LONG, "-1", ANY,
                "Bytes of requests being read or handled, broker-wide; beyond it connections are muted. -1 (Kafka:"
                        + " unbounded) = half the JVM's direct memory limit, so clients cannot exhaust direct memory.");
        define("connections.max.idle.ms", LONG, "600000", ANY,
                "Close a connection with no request for this long (a half-sent one too); negative = never.");
        define("max.connections", INT, Integer.toString(Integer.MAX_VALUE), atLeast(0),
                "Open client connections at which the listener stops accepting until one closes.");
        define("max.connections.per.ip", INT, Integer.toString(Integer.MAX_VALUE), atLeast(0),
                "Connections one address may hold; more are closed on arrival.");
        define("max.connections.per.ip.overrides", STRING, "", ANY,
                "Per-address caps, host:count,host2:count (names resolved at startup).");
        define("odradek.connection.max.in.flight.requests", INT, "8", atLeast(1),
                "Odradek: unanswered requests a connection may have before it is no longer read (Kafka reads one"
                        + " at a time); pipelining clients keep this many in flight, a client that never reads cannot"
                        + " pile up responses.");

        // Group coordinator and offsets
        define("offsets.topic.num.partitions", INT, "50", atLeast(1), "Partitions of __consumer_offsets.");
        define("offsets.topic.replication.factor", SHORT, "1", atLeast(1),
                "Replication factor of __consumer_offsets (Kafka: 3; 1 so a single broker works).");
        define("offsets.topic.segment.bytes", INT, "104857600", atLeast(1), "Segment size of __consumer_offsets.");
        define("offsets.retention.minutes", INT, "10080", atLeast(1), "Keep an empty group's offsets this long.");
        define("offsets.retention.check.interval.ms", LONG, "600000", atLeast(1), "How often expired offsets go.");
        define("offsets.commit.timeout.ms", INT, "5000", atLeast(1),
                "How long any group coordinator write may wait for its commit (then COORDINATOR_NOT_AVAILABLE).");
        define("group.initial.rebalance.delay.ms", INT, "3000", ANY, "Wait for more members before a new group's first rebalance.");
        define("group.min.session.timeout.ms", INT, "6000", ANY, "Smallest session timeout a member may ask for.");
        define("group.max.session.timeout.ms", INT, "1800000", ANY, "Largest session timeout a member may ask for.");
        define("group.max.size", INT, Integer.toString(Integer.MAX_VALUE), atLeast(1), "Most members in a classic group.");
        define("group.consumer.session.timeout.ms", INT, "45000", atLeast(1), "Session timeout of consumer-protocol groups.");
        define("group.consumer.heartbeat.interval.ms", INT, "5000", atLeast(1), "Heartbeat interval of consumer-protocol groups.");

        // Producers
        define("producer.id.expiration.ms", INT, "86400000", atLeast(1), "Forget an idle idempotent producer after this.");

        // Transactions (issue 7: the transaction coordinator and __transaction_state)
        define("transaction.state.log.num.partitions", INT, "50", atLeast(1),
                "Partitions of __transaction_state, fixed once it exists (an existing topic's count wins).");
        define("transaction.state.log.segment.bytes", INT, "104857600", atLeast(1), "Segment size of __transaction_state.");
        define("transaction.state.log.replication.factor", SHORT, "1", atLeast(1),
                "Replication factor of __transaction_state (Kafka: 3; 1 so a single broker works, as for "
                        + "__consumer_offsets); one node holds every partition.");
        define("transaction.state.log.min.isr", INT, "1", atLeast(1),
                "Kafka sets it as the topic's min.insync.replicas (Kafka: 2; 1 so a single broker works); one node is the whole ISR.");
        define("transaction.state.log.load.buffer.size", INT, "5242880", atLeast(1),
                "Kafka's read size when loading __transaction_state; accepted, not acted on (loading reads whole batches).");
        define("transaction.max.timeout.ms", INT, "900000", atLeast(1),
                "Largest transaction.timeout.ms a producer may ask for (larger: INVALID_TRANSACTION_TIMEOUT).");
        define("transactional.id.expiration.ms", INT, "604800000", atLeast(1),
                "Forget a transactional id after this long without a transaction.");
        define("transaction.abort.timed.out.transaction.cleanup.interval.ms", INT, "10000", atLeast(1),
                "How often transactions open longer than their timeout are aborted.");
        define("transaction.remove.expired.transaction.cleanup.interval.ms", INT, "3600000", atLeast(1),
                "How often transactional ids idle for transactional.id.expiration.ms are removed.");
        define("transaction.partition.verification.enable", BOOLEAN, "true", ANY,
                "Check with the coordinator that a partition is in the transaction before a transactional append.");
        define("transaction.two.phase.commit.enable", BOOLEAN, "false", ANY,
                "Allow InitProducerId's enable_2pc (KIP-939); off: such requests are refused as Kafka does.");

        // Partition layer: fetch limits, producer-state expiry, background pools (issue 6, partition seams)
        define("fetch.max.bytes", INT, "57671680", atLeast(1024),
                "Most record bytes in one fetch response (the first batch of the first partition excepted).");
        define("producer.id.expiration.check.interval.ms", INT, "600000", atLeast(1),
                "How often producers idle for producer.id.expiration.ms are removed.");
        define("background.threads", INT, "10", atLeast(1), "Threads for background log work: retention, flushes, checkpoints.");
        define("log.cleaner.threads", INT, "1", atLeast(0), "Threads compacting logs; 0 = no compaction.");
        define("num.recovery.threads.per.data.dir", INT, "2", atLeast(1), "Threads loading and recovering each log dir at start.");

        // Storage limits and lazily mapped indexes (issue 6, storage)
        define("odradek.max.partitions", INT, "10000", atLeast(1),
                "Most partitions this broker holds; a creation beyond it is refused with POLICY_VIOLATION. Each "
                + "partition keeps >= 1 open file and, while in use, 2 index mappings: keep it well below "
                + "ulimit -n and vm.max_map_count / 2 (Kafka: no limit).");
        define("odradek.index.idle.unmap.ms", LONG, "60000", atLeast(1),
                "Unmap a segment's .index/.timeindex after this long unused; they are mapped again on next use.");

        // Record validation (issue 6)
        define("log.message.timestamp.before.max.ms", LONG, Long.toString(Long.MAX_VALUE), atLeast(0),
                "CreateTime topics: refuse a record older than now minus this (INVALID_TIMESTAMP).");
        define("log.message.timestamp.after.max.ms", LONG, "3600000", atLeast(0),
                "CreateTime topics: refuse a record newer than now plus this (INVALID_TIMESTAMP).");
        define("max.decompressed.message.bytes", INT, "2147483639", atLeast(0),
                "Largest decompressed record accepted from a compressed batch (INVALID_RECORD).");
        define("odradek.produce.validation", STRING, "full", oneOf("full", "header"),
                "Odradek only. full (default): every produced record is walked and checked as Kafka's LogValidator"
                        + " does (framing, counts, offset deltas, timestamps, keys on compacted topics, compressed"
                        + " batches decompressed as a stream). header: only batch headers are checked (magic, sizes,"
                        + " CRC, count, attributes), which saves the walk's CPU but is only safe for trusted clients:"
                        + " one malformed batch with a valid CRC is then stored and breaks the partition for every"
                        + " reader (Kafka's consumers, kafka-dump-log, compaction).");

        // Coordinator write timeouts (issue 7, txn-polish). offsets.commit.timeout.ms (above) bounds the
        // group coordinator's writes; this one the transaction coordinator's, as Kafka's TransactionStateManager.
        define("request.timeout.ms", INT, "30000", atLeast(0),
                "How long a __transaction_state write may wait for its commit (then COORDINATOR_NOT_AVAILABLE).");

        // Cluster mode (issue 8, cluster-node): KRaft's keys; without process.roles the broker is a single node.
        define("process.roles", LIST, null, eachOneOf("broker", "controller"),
                "broker, controller or both: run as a member of a replicated cluster (the controller role holds"
                        + " the Ratis metadata quorum). Unset (Kafka: required): a single node with a local catalog.");
        define("controller.quorum.voters", LIST, null, ANY,
                "The controller quorum, id@host:port,... (the CONTROLLER listener of each controller).");
        define("controller.quorum.bootstrap.servers", LIST, null, ANY,
                "Dynamic quorums are not supported: controller.quorum.voters is required, except that one"
                        + " server on a controller (Kafka's shipped server.properties) is a one-voter quorum of this node.");
        define("controller.quorum.election.timeout.ms", INT, "1000", atLeast(1),
                "Raft election timeout: the minimum of Ratis's randomized leader election timeout.");
        define("broker.rack", STRING, null, ANY, "This broker's rack, for rack-aware replica placement.");
        define("broker.session.timeout.ms", INT, "9000", atLeast(1),
                "A broker silent for this long is fenced: its leaderships move to in-sync followers.");
        define("broker.heartbeat.interval.ms", INT, "2000", atLeast(1), "How often a broker heartbeats to the controller.");
        define("replica.lag.time.max.ms", LONG, "30000", atLeast(1),
                "A follower not caught up with the leader for this long leaves the ISR.");
        define("replica.fetch.max.bytes", INT, "1048576", atLeast(0), "Bytes a follower fetches per partition per request.");
        define("replica.fetch.wait.max.ms", INT, "500", atLeast(0), "How long a follower's fetch waits for data.");
        define("replica.fetch.min.bytes", INT, "1", atLeast(1), "Bytes a follower's fetch waits for.");
        define("num.replica.fetchers", INT, "1", atLeast(1), "Fetcher threads per source broker.");
        define("replica.fetch.response.max.bytes", INT, "10485760", atLeast(0), "Bytes a follower fetches per request.");
        define("replica.fetch.backoff.ms", INT, "1000", atLeast(0), "How long a follower waits after a failed fetch.");
        define("replica.socket.timeout.ms", INT, "30000", ANY, "How long a follower waits for a fetch answer.");
        define("unclean.leader.election.enable", BOOLEAN, "false", ANY,
                "Elect a replica outside the ISR when no in-sync one is alive (may lose acknowledged records).");
        define("controlled.shutdown.enable", BOOLEAN, "true", ANY,
                "On SIGTERM, move this broker's leaderships away before it stops.");
        define("metadata.log.dir", STRING, null, ANY,
                "Where the Ratis metadata log lives (in __cluster_metadata-ratis); default: the first log dir.");
        define("inter.broker.listener.name", STRING, null, ANY,
                "The listener brokers fetch from and send to; default: the one named by security.inter.broker.protocol.");

        // Client quotas (issue 9, quotas): the sample windows rates are measured over.
        define("quota.window.num", INT, "11", atLeast(1), "Samples a client quota rate is measured over.");
        define("quota.window.size.seconds", INT, "1", atLeast(1), "Time span of each client quota sample.");

        // Incremental fetch sessions (issue 9, sessions): KIP-227's cache, as Kafka's FetchSessionCache.
        define("max.incremental.fetch.session.cache.slots", INT, "1000", atLeast(0),
                "Most incremental fetch sessions kept (split over 8 shards as Kafka: fewer than 8 means none);"
                        + " a full fetch finding no room gets session id 0 and its fetcher keeps sending full fetches.");
        define("odradek.fetch.session.cache.max.partitions", INT, "200000", atLeast(0),
                "Most partitions all incremental fetch sessions hold together (about 120 bytes each; split over the"
                        + " 8 shards like the slots; Kafka: no bound): a full fetch that does not fit gets session id 0.");

        // Dynamic configs (issue 9, configs): the compaction defaults of topics, so they are typed, validated
        // and reported with Kafka's defaults (both may be changed dynamically, as in Kafka).
        define("log.cleaner.delete.retention.ms", LONG, "86400000", atLeast(0),
                "Topic default delete.retention.ms: how long tombstones stay after their batch is cleaned.");
        define("log.cleaner.min.cleanable.ratio", STRING, "0.5", BrokerConfigDef::ratio,
                "Topic default min.cleanable.dirty.ratio: the dirty share of a log below which it is not cleaned"
                        + " (a DOUBLE in Kafka).");

        // Listeners (issue 10, listeners): how brokers reach each other's inter-broker listener.
        define("security.inter.broker.protocol", STRING, "PLAINTEXT", ANY,
                "The inter-broker listener's name when inter.broker.listener.name is unset (only one may be set).");
        define("sasl.mechanism.inter.broker.protocol", STRING, "GSSAPI", ANY,
                "The SASL mechanism brokers log in with on a SASL inter-broker listener.");

        // TLS listeners (issue 10, tls): Kafka's ssl.* keys are read per listener by TlsListeners; these are ours.
        define("odradek.ssl.engine", STRING, "auto", oneOf("auto", "openssl", "jdk"),
                "What serves TLS listeners: auto (OpenSSL through netty-tcnative when it loads, the JDK otherwise),"
                        + " openssl (fail if it does not load), jdk. A set ssl.provider also means the JDK.");
        define("odradek.ssl.store.reload.interval.ms", LONG, "10000", atLeast(0),
                "How often TLS listeners check their keystore and truststore files for changes; a changed store is"
                        + " reloaded for new connections (Kafka reloads only on a dynamic config update). 0: never.");

        // SASL (issue 10, sasl): Kafka's keys and defaults; each may be set per listener (listener.name.<l>.<key>),
        // the JAAS config per listener and mechanism (listener.name.<l>.<mechanism>.sasl.jaas.config).
        define("sasl.enabled.mechanisms", LIST, "GSSAPI", ANY,
                "Mechanisms a SASL listener offers: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER (unsecured JWS);"
                        + " Kafka's default GSSAPI (Kerberos) is not supported and refused at start.");
        define("connections.max.reauth.ms", LONG, "0", atLeast(0),
                "KIP-368: a SASL session lasts at most this long (0: no limit; an OAUTHBEARER token's expiry also"
                        + " bounds it); clients re-authenticate in time, a request on an expired session closes it.");
        define("sasl.server.max.receive.size", INT, "524288", atLeast(1),
                "Largest frame accepted before a client is authenticated; a larger one closes the connection.");

        // Authorization (issue 10, authorizer): Kafka's StandardAuthorizer keys. Kafka's class name turns on
        // Odradek's own authorizer with the same semantics; no Kafka class is ever loaded.
        define("authorizer.class.name", STRING, "", AuthorizerKeys::classProblem,
                "org.apache.kafka.metadata.authorizer.StandardAuthorizer: authorize every request by the ACLs"
                        + " (CreateAcls/DescribeAcls/DeleteAcls); empty: no authorizer, everything allowed.");
        define("super.users", STRING, null, AuthorizerKeys::superUsersProblem,
                "Principals allowed everything whatever the ACLs, separated by ';' (User:admin;User:ops).");
        define("allow.everyone.if.no.acl.found", BOOLEAN, "false", ANY,
                "Allow everyone on a resource that no ACL at all applies to (else only super users).");

        // Metrics and health (issue 11, metrics): the Prometheus/health HTTP endpoint and JMX.
        define("odradek.metrics.jmx.enable", BOOLEAN, "true", ANY,
                "Export the broker's meters as MBeans under Kafka's names (kafka.server:type=BrokerTopicMetrics,...)"
                        + " in the platform MBean server; a name another broker in the JVM already holds is left to it.");
        define("odradek.metrics.port", INT, null, atLeast(0),
                "Odradek: port of the HTTP server with /metrics (Prometheus) and /health/live, /health/ready;"
                        + " none when unset, 0 = any free port.");
        define("odradek.metrics.host", STRING, "0.0.0.0", ANY, "Odradek: address the metrics/health HTTP server binds.");
        define("odradek.metrics.liveness.timeout.ms", LONG, "5000", atLeast(1),
                "Odradek: /health/live fails when a task handed to an event loop or partition writer has waited this long"
                        + " (stuck, not merely busy).");
        define("odradek.metrics.consumer.lag.max.groups", INT, "1000", atLeast(0),
                "Odradek: at most this many groups (by id) get kafka_consumergroup_lag series per scrape.");
        define("odradek.metrics.consumer.lag.timeout.ms", LONG, "2000", atLeast(1),
                "Odradek: a scrape waits at most this long for the group coordinator's committed offsets.");

        // Fault injection (issue 11, faults): the admin HTTP endpoint, off by default.
        define("odradek.admin.port", INT, null, atLeast(0),
                "Port of the admin HTTP endpoint (fault injection: POST/GET/DELETE /faults); unset: no endpoint;"
                        + " 0: any free port. Whoever reaches it can break clients: keep it on a test machine.");
        define("odradek.admin.host", STRING, "127.0.0.1", ANY, "Address the admin HTTP endpoint binds to.");

        // Share coordinator (issue 12, sharestate): __share_group_state, Kafka 4.4's ShareCoordinatorConfig keys.
        define("share.coordinator.state.topic.num.partitions", INT, "50", atLeast(1),
                "Partitions of __share_group_state, fixed once it exists (an existing topic's count wins).");
        define("share.coordinator.state.topic.replication.factor", SHORT, "3", atLeast(1),
                "Replication factor of __share_group_state, capped at the brokers registered (one node: 1).");
        define("share.coordinator.state.topic.min.isr", SHORT, "2", atLeast(1),
                "min.insync.replicas of __share_group_state, capped at its replication factor.");
        define("share.coordinator.state.topic.segment.bytes", INT, "104857600", atLeast(1),
                "Segment size of __share_group_state.");
        define("share.coordinator.snapshot.update.records.per.snapshot", INT, "500",
                value -> ((Number) value).intValue() < 0 ? "Value must be at least 0"
                        : ((Number) value).intValue() > 500 ? "Value must be no more than 500" : null,
                "ShareUpdate records written for a share partition between two ShareSnapshot records.");
        define("share.coordinator.write.timeout.ms", INT, "5000", atLeast(1),
                "How long a share coordinator write may wait for its commit (then COORDINATOR_NOT_AVAILABLE).");
        define("share.coordinator.state.topic.prune.interval.ms", INT, "300000", atLeast(1),
                "How often each loaded __share_group_state partition deletes the records no share partition needs.");
        define("share.coordinator.threads", INT, "1", atLeast(1),
                "Kafka's share coordinator threads; accepted, not acted on (the coordinators share up to 4 threads, one per core).");
        define("share.coordinator.load.buffer.size", INT, "5242880", atLeast(1),
                "Kafka's read size when loading __share_group_state; accepted, not acted on (loading reads whole batches).");
        // Group configs (issue 12, groupconfigs): Kafka 4.4's group.consumer.* / group.share.* / group.streams.*
        // keys with its defaults and ranges (GroupCoordinatorConfig, ShareGroupConfig). They are the defaults of a
        // group's dynamic configs (share.record.lock.duration.ms -> group.share.record.lock.duration.ms, ...) and
        // the min/max bound what IncrementalAlterConfigs may set on a GROUP resource (see broker/group/GroupConfigDef).
        define("group.consumer.min.session.timeout.ms", INT, "45000", atLeast(1),
                "Smallest consumer.session.timeout.ms a consumer-protocol group may be given.");
        define("group.consumer.max.session.timeout.ms", INT, "60000", atLeast(1),
                "Largest consumer.session.timeout.ms a consumer-protocol group may be given.");
        define("group.consumer.min.heartbeat.interval.ms", INT, "5000", atLeast(1),
                "Smallest consumer.heartbeat.interval.ms a consumer-protocol group may be given.");
        define("group.consumer.max.heartbeat.interval.ms", INT, "15000", atLeast(1),
                "Largest consumer.heartbeat.interval.ms a consumer-protocol group may be given.");
        define("group.consumer.assignment.interval.ms", INT, "1000", atLeast(0),
                "Interval between assignment updates of a consumer-protocol group (accepted; Odradek assigns at once).");
        define("group.consumer.min.assignment.interval.ms", INT, "0", atLeast(0),
                "Smallest consumer.assignment.interval.ms a group may be given.");
        define("group.consumer.max.assignment.interval.ms", INT, "15000", atLeast(0),
                "Largest consumer.assignment.interval.ms a group may be given.");
        define("group.share.session.timeout.ms", INT, "45000", atLeast(1), "Session timeout of share groups.");
        define("group.share.min.session.timeout.ms", INT, "45000", atLeast(1),
                "Smallest share.session.timeout.ms a share group may be given.");
        define("group.share.max.session.timeout.ms", INT, "60000", atLeast(1),
                "Largest share.session.timeout.ms a share group may be given.");
        define("group.share.heartbeat.interval.ms", INT, "5000", atLeast(1), "Heartbeat interval of share groups.");
        define("group.share.min.heartbeat.interval.ms", INT, "5000", atLeast(1),
                "Smallest share.heartbeat.interval.ms a share group may be given.");
        define("group.share.max.heartbeat.interval.ms", INT, "15000", atLeast(1),
                "Largest share.heartbeat.interval.ms a share group may be given.");
        define("group.share.max.size", INT, "200", range(1, 1000), "Most members in a share group.");
        define("group.share.record.lock.duration.ms", INT, "30000", range(1000, 3600000),
                "How long a share consumer holds a record it acquired before it becomes available again.");
        define("group.share.min.record.lock.duration.ms", INT, "15000", range(1000, 30000),
                "Smallest share.record.lock.duration.ms a share group may be given.");
        define("group.share.max.record.lock.duration.ms", INT, "60000", range(30000, 3600000),
                "Largest share.record.lock.duration.ms a share group may be given.");
        define("group.share.delivery.count.limit", INT, "5", range(2, 10),
                "Delivery attempts of a record to a share group before it is archived.");
        define("group.share.min.delivery.count.limit", INT, "2", range(2, 5),
                "Smallest share.delivery.count.limit a share group may be given.");
        define("group.share.max.delivery.count.limit", INT, "10", range(5, 25),
                "Largest share.delivery.count.limit a share group may be given.");
        define("group.share.partition.max.record.locks", INT, "2000", range(100, 10000),
                "Most records of one share partition acquired (in flight) at once.");
        define("group.share.min.partition.max.record.locks", INT, "100", range(100, 2000),
                "Smallest share.partition.max.record.locks a share group may be given.");
        define("group.share.max.partition.max.record.locks", INT, "4000", range(2000, 10000),
                "Largest share.partition.max.record.locks a share group may be given.");
        define("group.share.max.share.sessions", INT, "2000", atLeast(1), "Most share sessions on this broker.");
        define("group.share.assignment.interval.ms", INT, "1000", atLeast(0),
                "Interval between assignment updates of a share group (accepted; Odradek assigns at once).");
        define("group.share.min.assignment.interval.ms", INT, "0", atLeast(0),
                "Smallest share.assignment.interval.ms a group may be given.");
        define("group.share.max.assignment.interval.ms", INT, "15000", atLeast(0),
                "Largest share.assignment.interval.ms a group may be given.");
        define("group.streams.session.timeout.ms", INT, "45000", atLeast(1), "Session timeout of streams groups.");
        define("group.streams.min.session.timeout.ms", INT, "45000", atLeast(1),
                "Smallest streams.session.timeout.ms a streams group may be given.");
        define("group.streams.max.session.timeout.ms", INT, "60000", atLeast(1),
                "Largest streams.session.timeout.ms a streams group may be given.");
        define("group.streams.heartbeat.interval.ms", INT, "5000", atLeast(1), "Heartbeat interval of streams groups.");
        define("group.streams.min.heartbeat.interval.ms", INT, "5000", atLeast(1),
                "Smallest streams.heartbeat.interval.ms a streams group may be given.");
        define("group.streams.max.heartbeat.interval.ms", INT, "15000", atLeast(1),
                "Largest streams.heartbeat.interval.ms a streams group may be given.");
        define("group.streams.max.size", INT, Integer.toString(Integer.MAX_VALUE), atLeast(1),
                "Most members in a streams group.");
        define("group.streams.num.standby.replicas", INT, "0", atLeast(0), "Standby replicas of each streams task.");
        define("group.streams.max.standby.replicas", INT, "2", atLeast(0),
                "Largest streams.num.standby.replicas a streams group may be given.");
        define("group.streams.initial.rebalance.delay.ms", INT, "3000", atLeast(0),
                "How long a new streams group waits for more members before its first assignment.");
        define("group.streams.assignment.interval.ms", INT, "1000", atLeast(0),
                "Interval between assignment updates of a streams group (accepted; Odradek assigns at once).");
        define("group.streams.min.assignment.interval.ms", INT, "0", atLeast(0),
                "Smallest streams.assignment.interval.ms a group may be given.");
        define("group.streams.max.assignment.interval.ms", INT, "15000", atLeast(0),
                "Largest streams.assignment.interval.ms a group may be given.");
        define("group.streams.assignors", LIST, "sticky", oneEach("sticky"),
                "Task assignors of streams groups; the first is the default (only Kafka's built-in sticky one).");
        define("group.streams.rack.aware.assignment.tags", LIST, "", ANY,
                "Client tag keys standby replicas are spread over (accepted; the sticky assignor ignores them).");
        define("group.streams.task.offset.interval.ms", INT, "60000", atLeast(1),
                "Kafka-internal: how often members report warmup task offsets.");
        define("group.streams.min.task.offset.interval.ms", INT, "15000", atLeast(1),
                "Kafka-internal: smallest streams.task.offset.interval.ms a group may be given.");
        define("group.streams.num.warmup.replicas", INT, "2", atLeast(0), "Kafka-internal: most warmup task replicas.");
        define("group.streams.max.warmup.replicas", INT, "20", atLeast(0),
                "Kafka-internal: largest streams.num.warmup.replicas a group may be given.");
        define("group.streams.acceptable.recovery.lag", LONG, "10000", atLeast(0),
                "Kafka-internal: the lag under which a member counts as caught up for an active task.");

        // Version emulation (issue 11, emulation): ApiVersions capped at an older Kafka release.
        define("odradek.emulate.version", STRING, "",
                value -> ((String) value).isEmpty() ? null : io.odradek.broker.api.KafkaReleases.problem((String) value),
                "Odradek only. Behave at the protocol level as this Kafka release's broker (0.10.0 to 4.4, e.g. 2.8 or"
                        + " 3.9.1): ApiVersions lists only the APIs it advertised, each capped at its highest version,"
                        + " with its feature flags; ApiVersions above the cap gets the UNSUPPORTED_VERSION answer (the"
                        + " client retries lower), any other request above it closes the connection, as that release"
                        + " would (requests only brokers send are exempt). Empty (default): no emulation. An unknown"
                        + " version is refused at start.");
    }

    private static final Map<String, String> KAFKA_KEYS = loadKafkaKeys();

    /** A DOUBLE between 0 and 1, with Kafka's messages (our ConfigType has no DOUBLE). */
    private static String ratio(Object value) {
        double d;
        try {
            d = Double.parseDouble((String) value);
        } catch (NumberFormatException e) {
            return "Not a number of type DOUBLE";
        }
        return d < 0 ? "Value must be at least 0" : d > 1 ? "Value must be no more than 1" : null;
    }

    /** Kafka's Range.between: an INT or LONG within [min, max], with Kafka's messages. */
    private static Validator range(long min, long max) {
        return value -> {
            long v = ((Number) value).longValue();
            return v < min ? "Value must be at least " + min : v > max ? "Value must be no more than " + max : null;
        };
    }

    /** Kafka's ValidList.anyNonDuplicateValues over a fixed set of names: each entry one of them, none twice. */
    private static Validator oneEach(String... allowed) {
        Validator each = eachOneOf(allowed);
        return value -> {
            List<?> list = (List<?>) value;
            if (list.size() != new java.util.HashSet<>(list).size()) {
                return "Values must not be duplicated.";
            }
            return each.problem(value);
        };
    }

    private BrokerConfigDef() {
    }

    private static void define(String name, ConfigType type, String def, Validator validator, String doc) {
        ConfigKey key = new ConfigKey(name, type, def, validator, doc);
        key.parse(def); // a bad default is a bug in this table: fail at class load
        KEYS.put(name, key);
    }

    /** The table, in definition order. */
    public static Map<String, ConfigKey> keys() {
        return Collections.unmodifiableMap(KEYS);
    }

    public static ConfigKey key(String name) {
        return KEYS.get(name);
    }

    /** A key Kafka's broker defines (or a per-listener {@code listener.name.*} override) that we accept and ignore. */
    public static boolean isKafkaKey(String name) {
        return KAFKA_KEYS.containsKey(name) || name.startsWith("listener.name.");
    }

    /**
     * Kafka 4.4's ConfigDef type name of broker key {@code name} (INT, LIST, PASSWORD...), null for a key Kafka does
     * not define. A per-listener override ({@code listener.name.L.key}, or {@code listener.name.L.mechanism.key} for
     * SASL keys) has its base key's type, as in Kafka's KafkaConfig.configType.
     */
    public static String kafkaType(String name) {
        String type = KAFKA_KEYS.get(name);
        if (type != null || !name.startsWith("listener.name.")) {
            return type;
        }
        int afterListener = name.indexOf('.', "listener.name.".length());
        if (afterListener < 0) {
            return null;
        }
        String base = name.substring(afterListener + 1);
        type = KAFKA_KEYS.get(base);
        if (type == null && base.indexOf('.') > 0) {
            type = KAFKA_KEYS.get(base.substring(base.indexOf('.') + 1));
        }
        return type;
    }

    /**
     * Checks {@code value} against Kafka's type for a Kafka key Odradek does not define (keys Odradek defines are
     * checked by their {@link ConfigKey}), with Kafka's messages; STRING, CLASS, PASSWORD and LIST take anything.
     */
    public static void checkKafkaValue(String name, String value) {
        String type = kafkaType(name);
        if (type == null) {
            return;
        }
        switch (type) {
            case "BOOLEAN" -> ConfigType.BOOLEAN.parse(name, value);
            case "SHORT" -> ConfigType.SHORT.parse(name, value);
            case "INT" -> ConfigType.INT.parse(name, value);
            case "LONG" -> ConfigType.LONG.parse(name, value);
            case "DOUBLE" -> {
                try {
                    Double.parseDouble(value.trim());
                } catch (NumberFormatException e) {
                    throw ConfigException.invalid(name, value, "Not a number of type DOUBLE");
                }
            }
            default -> {
                // STRING, LIST, CLASS, PASSWORD: any text parses
            }
        }
    }

    /** Whether Kafka's (or, for keys we define, our) type of {@code name} is LIST. */
    public static boolean isList(String name) {
        ConfigKey def = key(name);
        return def != null ? def.type() == LIST : "LIST".equals(kafkaType(name));
    }

    /**
     * Whether a key's value must never be shown (DescribeConfigs, logs): Kafka's maybeSensitive, a key of type
     * PASSWORD or one that neither Kafka nor Odradek defines (it may be a secret for a plugin).
     */
    public static boolean isSensitive(String name) {
        String type = kafkaType(name);
        return type == null ? key(name) == null : type.equals("PASSWORD");
    }

    /** {@code configs} for a log line: sensitive values replaced by [hidden], as Kafka logs them. */
    public static Map<String, String> redacted(Map<String, String> configs) {
        Map<String, String> shown = new TreeMap<>();
        configs.forEach((key, value) -> shown.put(key, isSensitive(key) ? "[hidden]" : value));
        return shown;
    }

    private static Map<String, String> loadKafkaKeys() {
        try (InputStream in = BrokerConfigDef.class.getResourceAsStream("kafka-broker-keys.txt")) {
            if (in == null) {
                throw new IllegalStateException("kafka-broker-keys.txt missing from the classpath");
            }
            Map<String, String> types = new HashMap<>();
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines()
                    .map(String::trim)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                    .forEach(line -> {
                        String[] parts = line.split("\\s+");
                        if (parts.length != 2) {
                            throw new IllegalStateException("kafka-broker-keys.txt: not 'key TYPE': " + line);
                        }
                        types.put(parts[0], parts[1]);
                    });
            return Map.copyOf(types);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
