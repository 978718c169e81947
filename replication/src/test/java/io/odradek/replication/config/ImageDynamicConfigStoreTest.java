package io.odradek.replication.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.replication.cluster.BrokerHeartbeat;
import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerChannel;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.ControllerLogic;
import io.odradek.replication.cluster.ControllerSettings;
import io.odradek.replication.cluster.HeartbeatReply;
import io.odradek.replication.cluster.QuorumInfo;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The cluster-mode store against a one-node "quorum" that applies commands with the real ControllerLogic. */
class ImageDynamicConfigStoreTest {
    /** Applies each command at the next offset and hands the image to the store, as the broker's image thread. */
    private static final class LocalQuorum implements ControllerChannel {
        final ControllerLogic logic = new ControllerLogic(ControllerSettings.DEFAULTS);
        final List<ControllerCommand> submitted = new ArrayList<>();
        ClusterImage image = ClusterImage.EMPTY;
        ImageDynamicConfigStore store;

        @Override
        public synchronized CompletableFuture<CommandResult> submit(ControllerCommand command) {
            submitted.add(command);
            ControllerLogic.Applied applied = logic.apply(image, command, image.offset() + 1);
            image = applied.image();
            store.apply(image);
            return CompletableFuture.completedFuture(applied.result());
        }

        @Override
        public CompletableFuture<HeartbeatReply> heartbeat(BrokerHeartbeat heartbeat) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<QuorumInfo> describeQuorum() {
            throw new UnsupportedOperationException();
        }

        @Override
        public ClusterImage image() {
            return image;
        }

        @Override
        public void addListener(Consumer<ClusterImage> listener) {
        }

        @Override
        public void close() {
        }
    }

    @Test
    void changesGoThroughTheQuorumAndAreReadFromTheAppliedImage() throws Exception {
        LocalQuorum quorum = new LocalQuorum();
        List<Long> awaited = new ArrayList<>();
        ImageDynamicConfigStore store = new ImageDynamicConfigStore(quorum, offset -> {
            awaited.add(offset);
            return CompletableFuture.completedFuture(null);
        });
        quorum.store = store;
        AtomicInteger changes = new AtomicInteger();
        store.addListener(changes::incrementAndGet);
        QuotaEntity app = QuotaEntity.of(Map.of(QuotaEntity.CLIENT_ID, "app"));

        store.alterBrokerConfigs("", Map.of("log.retention.ms", "60000")).get();
        store.alterQuotas(Map.of(app, Map.of("producer_byte_rate", 2048.0))).get();

        assertThat(quorum.submitted).hasSize(2).allMatch(c -> c instanceof ControllerCommand.AlterDynamicConfigs);
        assertThat(awaited).containsExactly(0L, 1L);
        assertThat(store.brokerConfigs("")).containsExactly(Map.entry("log.retention.ms", "60000"));
        assertThat(store.quotas()).containsExactly(Map.entry(app, Map.of("producer_byte_rate", 2048.0)));
        assertThat(changes).hasValue(2);
    }

    @Test
    void aRefusalFailsTheChangeWithTheControllersError() {
        LocalQuorum quorum = new LocalQuorum();
        ImageDynamicConfigStore store = new ImageDynamicConfigStore(quorum, offset -> CompletableFuture.completedFuture(null));
        quorum.store = store;

        assertThatThrownBy(() -> store.alterBrokerConfigs("7", Map.of("message.max.bytes", "1")).get())
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(MetadataException.class)
                .hasMessage("No node with id 7 found.")
                .satisfies(e -> assertThat(((MetadataException) e).error()).isEqualTo(ErrorCode.BROKER_ID_NOT_REGISTERED));
        assertThat(store.brokerConfigs("7")).isEmpty();
    }
}
