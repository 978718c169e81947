package io.odradek.replication.cluster;

import io.odradek.replication.cluster.ControllerCommand.AlterPartition;
import io.odradek.replication.cluster.ControllerCommand.AlterReassignments;
import io.odradek.replication.cluster.ControllerCommand.ElectLeaders;
import io.odradek.replication.cluster.ControllerCommand.PartitionRef;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/**
 * Partition-level commands as Kafka's ReplicationControlManager answers them: ISR changes from partition
 * leaders (AlterPartition, which also completes reassignments), leader elections asked by admins, and
 * reassignments started or cancelled.
 */
final class ReplicationControl {

    /**
     * Kafka's AlterPartition checks in Kafka's order; on success the ISR is replaced (and a reassignment
     * whose targets are all in sync completes). Returns the new partition epoch.
     */
    long alterPartition(ImageBuilder image, AlterPartition c) {
        BrokerControl.checkEpoch(image, c.brokerId(), c.brokerEpoch());
        TopicImage topic = image.topicById(c.topicId()).orElseThrow(() -> new MetadataException(
                ErrorCode.UNKNOWN_TOPIC_ID, null));
        PartitionRegistration p = topic.partition(c.partition());
        if (p == null) {
            throw new MetadataException(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, null);
        }
        String where = "AlterPartition request from node " + c.brokerId() + " for " + topic.name() + "-"
                + c.partition();
        if (c.leaderEpoch() > p.leaderEpoch()) {
            throw new MetadataException(ErrorCode.NOT_CONTROLLER, "Rejecting " + where + " because the current "
                    + "leader epoch is " + p.leaderEpoch() + ", which is lower than the request value "
                    + c.leaderEpoch() + ".");
        }
        if (c.partitionEpoch() > p.partitionEpoch()) {
            throw new MetadataException(ErrorCode.NOT_CONTROLLER, "Rejecting " + where + " because the current "
                    + "partition epoch is " + p.partitionEpoch() + ", which is lower than the request value "
                    + c.partitionEpoch() + ".");
        }
        if (c.leaderEpoch() != p.leaderEpoch()) {
            throw new MetadataException(ErrorCode.FENCED_LEADER_EPOCH, "Rejecting " + where + " because the current "
                    + "leader epoch is " + p.leaderEpoch() + ", not " + c.leaderEpoch() + ".");
        }
        if (p.leader() != c.brokerId()) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "Rejecting " + where + " because the current "
                    + "leader is " + p.leader() + ".");
        }
        if (c.partitionEpoch() != p.partitionEpoch()) {
            throw new MetadataException(ErrorCode.INVALID_UPDATE_VERSION, "Rejecting " + where + " because the "
                    + "current partition epoch is " + p.partitionEpoch() + ", not " + c.partitionEpoch() + ".");
        }
        List<Integer> newIsr = c.newIsr();
        if (newIsr == null || new HashSet<>(newIsr).size() != newIsr.size() || !p.replicas().containsAll(newIsr)) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "Rejecting " + where + " because it specified "
                    + "an invalid ISR " + newIsr + " (replicas " + p.replicas() + ").");
        }
        if (!newIsr.contains(p.leader())) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "Rejecting " + where + " because it specified "
                    + "an invalid ISR that doesn't include itself.");
        }
        List<String> ineligible = new ArrayList<>();
        for (int b : newIsr) {
            BrokerRegistration r = image.brokers.get(b);
            String reason = r == null ? "not registered" : r.fenced() ? "fenced"
                    : r.inControlledShutdown() ? "shutting down" : null;
            if (reason != null) {
                ineligible.add(b + " (" + reason + ")");
            }
        }
        if (!ineligible.isEmpty()) {
            throw new MetadataException(ErrorCode.INELIGIBLE_REPLICA, "Rejecting " + where + " because it specified "
                    + "ineligible replicas " + ineligible + " in the new ISR.");
        }
        PartitionRegistration changed = Elections.change(p, p.replicas(), newIsr, p.adding(), p.removing(),
                p.leader(), false);
        changed = Elections.oneChange(p, completeReassignment(image, changed));
        image.putPartition(topic, c.partition(), changed);
        return changed.partitionEpoch();
    }

    /**
     * A reassignment is done once every target replica is in the ISR: the removed replicas go, the ISR keeps
     * only targets, and a leader that was removed hands over to the first in-sync eligible target. The
     * leader epoch is bumped (Kafka does when replicas leave) so removed replicas stop fetching.
     */
    static PartitionRegistration completeReassignment(ImageBuilder image, PartitionRegistration p) {
        if (!p.isReassigning()) {
            return p;
        }
        List<Integer> target = Elections.filter(p.replicas(), p.removing(), false);
        if (!p.isr().containsAll(target)) {
            return p;
        }
        List<Integer> isr = Elections.filter(p.isr(), target, true);
        int leader = p.leader();
        if (!target.contains(leader)) {
            leader = Elections.cleanLeader(target, isr, image::isEligible);
        }
        return Elections.change(p, target, isr, List.of(), List.of(), leader, !p.removing().isEmpty());
    }

    /** Per-partition results; with no partitions named, every partition, reporting only those that changed or failed. */
    List<ItemResult> electLeaders(ImageBuilder image, ElectLeaders c) {
        List<ItemResult> results = new ArrayList<>();
        if (c.partitions() == null) {
            for (TopicImage topic : List.copyOf(image.topics.values())) {
                for (int p = 0; p < topic.partitions().size(); p++) {
                    ItemResult r = electLeader(image, new PartitionRef(topic.name(), p), c.unclean());
                    if (r.error() != ErrorCode.ELECTION_NOT_NEEDED) {
                        results.add(r);
                    }
                }
            }
        } else {
            for (PartitionRef ref : c.partitions()) {
                results.add(electLeader(image, ref, c.unclean()));
            }
        }
        return results;
    }

    private static ItemResult electLeader(ImageBuilder image, PartitionRef ref, boolean unclean) {
        String key = ref.toString();
        TopicImage topic = image.topics.get(ref.topic());
        if (topic == null) {
            return new ItemResult(key, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "No such topic as " + ref.topic());
        }
        PartitionRegistration p = topic.partition(ref.partition());
        if (p == null) {
            return new ItemResult(key, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                    "No such partition as " + ref.topic() + "-" + ref.partition());
        }
        if (unclean) {
            if (p.hasLeader()) {
                return new ItemResult(key, ErrorCode.ELECTION_NOT_NEEDED, null);
            }
            PartitionRegistration elected = Elections.electIfLeaderless(p, image::isEligible, true);
            if (!elected.hasLeader()) {
                return new ItemResult(key, ErrorCode.ELIGIBLE_LEADERS_NOT_AVAILABLE, null);
            }
            image.putPartition(topic, ref.partition(), elected);
            return ItemResult.ok(key);
        }
        int preferred = p.replicas().get(0);
        if (p.leader() == preferred) {
            return new ItemResult(key, ErrorCode.ELECTION_NOT_NEEDED, null);
        }
        if (!p.isr().contains(preferred) || !image.isEligible(preferred)) {
            return new ItemResult(key, ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE, null);
        }
        image.putPartition(topic, ref.partition(), Elections.change(p, p.replicas(), p.isr(), p.adding(),
                p.removing(), preferred, false));
        return ItemResult.ok(key);
    }

    /** Starts, replaces (target given) or cancels (null) reassignments; one result per partition. */
    List<ItemResult> alterReassignments(ImageBuilder image, AlterReassignments c) {
        List<ItemResult> results = new ArrayList<>();
        for (Map.Entry<PartitionRef, List<Integer>> e : c.targets().entrySet()) {
            PartitionRef ref = e.getKey();
            try {
                TopicImage topic = image.topics.get(ref.topic());
                if (topic == null) {
                    throw new MetadataException(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                            "Unable to find a topic named " + ref.topic() + ".");
                }
                PartitionRegistration p = topic.partition(ref.partition());
                if (p == null) {
                    throw new MetadataException(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                            "Unable to find partition " + ref.topic() + ":" + ref.partition() + ".");
                }
                PartitionRegistration changed = e.getValue() == null ? cancel(image, ref, p)
                        : reassign(image, p, e.getValue());
                image.putPartition(topic, ref.partition(), changed);
                results.add(ItemResult.ok(ref.toString()));
            } catch (MetadataException ex) {
                results.add(new ItemResult(ref.toString(), ex.error(), ex.getMessage()));
            }
        }
        return results;
    }

    /**
     * Kafka's PartitionReassignmentReplicas: replicas = target followed by the original replicas leaving,
     * adding = target minus original, removing = original minus target; the ISR is unchanged (new replicas
     * join it by catching up), and it completes at once when every target is already in sync. A new target
     * for a partition already moving replaces the old one, computed from the original replicas.
     */
    private static PartitionRegistration reassign(ImageBuilder image, PartitionRegistration p, List<Integer> target) {
        TopicControl.validateManual(image, target, null);
        List<Integer> original = Elections.filter(p.replicas(), p.adding(), false);
        List<Integer> removing = Elections.filter(original, target, false);
        List<Integer> adding = Elections.filter(target, original, false);
        List<Integer> replicas = new ArrayList<>(target);
        replicas.addAll(removing);
        List<Integer> isr = Elections.filter(p.isr(), replicas, true);
        if (isr.isEmpty()) {
            throw new MetadataException(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "Unable to reassign partition: "
                    + "no replica of the new assignment " + replicas + " is in sync.");
        }
        int leader = replicas.contains(p.leader()) ? p.leader() : Elections.cleanLeader(replicas, isr,
                image::isEligible);
        PartitionRegistration moving = Elections.change(p, replicas, isr, adding, removing, leader, false);
        if (adding.isEmpty() && removing.isEmpty()) {
            return moving;
        }
        return Elections.oneChange(p, completeReassignment(image, moving));
    }

    /** Kafka's revert: the original replicas back, the added ones out of the ISR (refused if it would empty it). */
    private static PartitionRegistration cancel(ImageBuilder image, PartitionRef ref, PartitionRegistration p) {
        if (!p.isReassigning()) {
            throw new MetadataException(ErrorCode.NO_REASSIGNMENT_IN_PROGRESS, null);
        }
        List<Integer> original = Elections.filter(p.replicas(), p.adding(), false);
        List<Integer> isr = Elections.filter(p.isr(), p.adding(), false);
        if (isr.isEmpty()) {
            throw new MetadataException(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "Unable to revert partition assignment for "
                    + ref.topic() + ":" + ref.partition() + " because it would require an unclean leader election.");
        }
        int leader = original.contains(p.leader()) ? p.leader() : Elections.cleanLeader(original, isr,
                image::isEligible);
        return Elections.change(p, original, isr, List.of(), List.of(), leader, !p.adding().isEmpty());
    }
}
