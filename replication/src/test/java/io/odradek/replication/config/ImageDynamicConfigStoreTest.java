package io.odradek.replication.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.LogicQuorum;
import io.odradek.replication.metadata.MetadataException;
import io.odradek.wire.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The cluster-mode store against a one-node "quorum" that applies commands with the real ControllerLogic. */
class ImageDynamicConfigStoreTest {
    @Test
    void changesGoThroughTheQuorumAndAreReadFromTheAppliedImage() throws Exception {
        LogicQuorum quorum = new LogicQuorum();
        List<Long> awaited = new ArrayList<>();
        ImageDynamicConfigStore store = new ImageDynamicConfigStore(quorum, offset -> {
            awaited.add(offset);
            return CompletableFuture.completedFuture(null);
        });
        quorum.onApplied = store::apply;
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
        LogicQuorum quorum = new LogicQuorum();
        ImageDynamicConfigStore store = new ImageDynamicConfigStore(quorum, offset -> CompletableFuture.completedFuture(null));
        quorum.onApplied = store::apply;

        assertThatThrownBy(() -> store.alterBrokerConfigs("7", Map.of("message.max.bytes", "1")).get())
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(MetadataException.class)
                .hasMessage("No node with id 7 found.")
                .satisfies(e -> assertThat(((MetadataException) e).error()).isEqualTo(ErrorCode.BROKER_ID_NOT_REGISTERED));
        assertThat(store.brokerConfigs("7")).isEmpty();
    }
}
