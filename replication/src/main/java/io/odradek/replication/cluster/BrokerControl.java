package io.odradek.replication.cluster;

import io.odradek.replication.cluster.ControllerCommand.AllocateProducerIds;
import io.odradek.replication.cluster.ControllerCommand.ControlledShutdown;
import io.odradek.replication.cluster.ControllerCommand.FenceBrokers;
import io.odradek.replication.cluster.ControllerCommand.RegisterBroker;
import io.odradek.replication.cluster.ControllerCommand.UnfenceBroker;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.wire.ErrorCode;

/**
 * Broker lifecycle commands (Kafka's ClusterControlManager plus the partition changes it triggers in
 * ReplicationControlManager) and producer-id blocks. A broker's epoch is the offset of its registration.
 */
final class BrokerControl {
    /**
     * A new broker starts fenced. A new incarnation of a known broker (it restarted) is fenced too and taken
     * out of its ISRs and leaderships, since whatever its old process held is gone; the same incarnation
     * registering again (a retried request) keeps its state. Either way the epoch becomes this offset.
     * The cluster id and the cluster-wide settings are the first registration's proposals; later ones are
     * ignored (AlterClusterSettings changes the settings).
     */
    long register(ImageBuilder image, RegisterBroker c, long offset) {
        if (c.incarnationId() == null) {
            throw new MetadataException(ErrorCode.INVALID_REQUEST, "A broker registration needs an incarnation id");
        }
        if (image.clusterId == null) {
            image.clusterId = c.proposedClusterId();
            if (c.proposedSettings() != null) {
                image.settings = c.proposedSettings();
            }
        }
        BrokerRegistration old = image.brokers.get(c.brokerId());
        boolean sameIncarnation = old != null && old.incarnationId().equals(c.incarnationId());
        boolean fenced = !sameIncarnation || old.fenced();
        boolean shuttingDown = sameIncarnation && old.inControlledShutdown();
        image.brokers.put(c.brokerId(), new BrokerRegistration(c.brokerId(), offset, c.incarnationId(),
                c.endpoints(), c.rack(), fenced, shuttingDown));
        if (old != null && !sameIncarnation) {
            removeFromPartitions(image, c.brokerId());
        }
        return offset;
    }

    /**
     * Lets a caught-up broker in: it may lead again, starting with leaderless partitions it can take. A
     * requested controlled shutdown stands (Kafka never unfences a broker that asked to shut down back into
     * leaderships): such a broker stays ineligible until a new incarnation registers.
     */
    void unfence(ImageBuilder image, UnfenceBroker c) {
        BrokerRegistration b = checkEpoch(image, c.brokerId(), c.brokerEpoch());
        image.brokers.put(b.id(), b.withFenced(false));
        image.changePartitionsOf(b.id(), (topic, p) -> Elections.electIfLeaderless(p, image::isEligible,
                image.uncleanAllowed(topic)));
    }

    /**
     * Fences each broker in turn, moving its leaderships and shrinking ISRs. Unknown ids are skipped, and so
     * are brokers registered at another epoch than the command names (they registered again after the
     * session the active controller saw expire).
     */
    void fence(ImageBuilder image, FenceBrokers c) {
        for (var e : c.brokerEpochs().entrySet()) {
            int id = e.getKey();
            long epoch = e.getValue();
            BrokerRegistration b = image.brokers.get(id);
            if (b != null && (epoch == FenceBrokers.ANY_EPOCH || b.epoch() == epoch)) {
                image.brokers.put(id, b.withFenced(true));
                removeFromPartitions(image, id);
            }
        }
    }

    /** The broker is being drained: it leads nothing and leaves every ISR where others remain. */
    void controlledShutdown(ImageBuilder image, ControlledShutdown c) {
        BrokerRegistration b = checkEpoch(image, c.brokerId(), c.brokerEpoch());
        image.brokers.put(b.id(), b.withControlledShutdown(true));
        removeFromPartitions(image, b.id());
    }

    /** The first id of the next block; the image's counter moves past the block. */
    long allocateProducerIds(ImageBuilder image, AllocateProducerIds c) {
        checkEpoch(image, c.brokerId(), c.brokerEpoch());
        long first = image.nextProducerId;
        int blockSize = image.settings.producerIdBlockSize();
        if (first > Long.MAX_VALUE - blockSize) {
            throw new MetadataException(ErrorCode.UNKNOWN_SERVER_ERROR, "Exhausted all producerIds as the next "
                    + "block's end producerId has exceeded the int64 type limit");
        }
        image.nextProducerId = first + blockSize;
        return first;
    }

    private static void removeFromPartitions(ImageBuilder image, int brokerId) {
        image.changePartitionsOf(brokerId, (topic, p) -> Elections.removeBroker(p, brokerId, image::isEligible,
                image.uncleanAllowed(topic)));
    }

    /** Kafka's ClusterControlManager.checkBrokerEpoch: the broker must be registered at exactly this epoch. */
    static BrokerRegistration checkEpoch(ImageBuilder image, int brokerId, long brokerEpoch) {
        BrokerRegistration b = image.brokers.get(brokerId);
        if (b == null) {
            throw new MetadataException(ErrorCode.STALE_BROKER_EPOCH,
                    "No broker registration found for broker id " + brokerId);
        }
        if (b.epoch() != brokerEpoch) {
            throw new MetadataException(ErrorCode.STALE_BROKER_EPOCH,
                    "Expected broker epoch " + b.epoch() + ", but got broker epoch " + brokerEpoch);
        }
        return b;
    }
}
