/**
 * The metadata quorum on Apache Ratis 3.3 (see the design page of issue 8): the Raft log holds encoded
 * {@link io.odradek.replication.cluster.ControllerCommand}s, every voter applies them with
 * {@link io.odradek.replication.cluster.ControllerLogic} ({@link io.odradek.replication.quorum.MetadataStateMachine}),
 * snapshots are the encoded image. {@link io.odradek.replication.quorum.RatisQuorum} is a voter's Ratis server and,
 * while it leads, the active controller (fencing and unfencing from heartbeats, which only the leader hears);
 * {@link io.odradek.replication.quorum.RatisControllerChannel} is every node's
 * {@link io.odradek.replication.cluster.ControllerChannel}.
 *
 * <p>From broker code:
 * <pre>{@code
 * QuorumConfig quorum = QuorumConfig.of(nodeId, roles.contains("controller"),
 *         QuorumConfig.parseVoters(controllerQuorumVoters),          // controller.quorum.voters
 *         metadataLogDir.resolve("__cluster_metadata-ratis"),
 *         new ControllerSettings(uncleanLeaderElectionEnable, 1000), brokerSessionTimeoutMs);
 * ControllerChannel channel = RatisControllerChannel.open(quorum);  // starts this node's voter if a controller
 * ...
 * channel.close();                                                  // stops the voter too
 * }</pre>
 * A voter's Ratis server binds the address its own {@code controller.quorum.voters} entry names. The
 * {@code ControllerSettings} are this node's proposal: its channel adds them to the broker registrations it
 * submits, and the first registration's become the cluster's ({@code ClusterImage.settings()}), so every
 * voter applies commands alike.
 */
package io.odradek.replication.quorum;
