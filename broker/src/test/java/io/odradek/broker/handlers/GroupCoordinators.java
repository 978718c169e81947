package io.odradek.broker.handlers;

import io.odradek.coordinator.group.GroupCoordinator;
import io.odradek.coordinator.group.GroupCoordinatorConfig;
import io.odradek.coordinator.offsets.OffsetsTopic;
import io.odradek.coordinator.runtime.PartitionLogCoordinatorLog;
import java.util.concurrent.TimeUnit;

/** The group coordinator the group handler tests run against, on an {@link AdminFixture}'s own topics. */
final class GroupCoordinators {
    private GroupCoordinators() {
    }

    /**
     * Creates the fixture's offsets topic as its config says, starts a group coordinator over it and waits (up to
     * 10 s) until it has loaded every partition; the caller closes it.
     */
    static GroupCoordinator startLoaded(AdminFixture f) throws Exception {
        GroupCoordinatorConfig config = GroupCoordinatorConfig.from(f.config.effectiveConfigs());
        f.topics.createTopic(OffsetsTopic.NAME, config.offsetsTopicPartitions(), config.offsetsTopicConfigs(), false);
        GroupCoordinator groups = GroupCoordinator.create(config,
                p -> new PartitionLogCoordinatorLog(f.topics.partitionLog(OffsetsTopic.NAME, p).orElseThrow()));
        groups.startup();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!groups.isLoaded() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        return groups;
    }
}
