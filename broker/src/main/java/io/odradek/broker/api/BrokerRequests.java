package io.odradek.broker.api;

import io.odradek.wire.api.AddPartitionsToTxnApi;
import io.odradek.wire.api.FetchApi;
import io.odradek.wire.api.ListOffsetsApi;
import io.odradek.wire.api.WriteTxnMarkersApi;
import io.odradek.wire.codec.Request;
import io.odradek.wire.schema.Struct;

/**
 * The requests only a broker sends, which version emulation ({@code odradek.emulate.version}) must not cap: our own
 * inter-broker clients send fixed versions without negotiating (replica Fetch v16 and ListOffsets v7, AddPartitionsToTxn
 * v4/v5 verification, WriteTxnMarkers v1), and a cluster emulating an older release must still replicate. They are
 * recognised by what they carry rather than by listener, since clients and brokers often share one listener (the
 * embedded cluster does): a Fetch or ListOffsets naming a replica id (clients send -1; consumers send -1 or the
 * debugging -2 for ListOffsets, never a broker id), AddPartitionsToTxn v4+ (Kafka's schema: "versions 4 and above
 * will be used by brokers"), and WriteTxnMarkers, an API only transaction coordinators call. Authorization of these
 * (CLUSTER_ACTION) is unaffected: this only exempts them from the emulated version cap.
 */
public final class BrokerRequests {
    private BrokerRequests() {
    }

    /** Whether a decoded request is one only a broker sends. */
    public static boolean fromBroker(Request request) {
        Struct body = request.body();
        if (body == null) {
            return false;
        }
        short key = request.api().key();
        if (key == FetchApi.SPEC.key()) {
            if (request.version() >= 15) {
                Struct state = body.get(FetchApi.Request.REPLICA_STATE);
                return state != null && state.get(FetchApi.Request.ReplicaState.REPLICA_ID) >= 0;
            }
            return body.get(FetchApi.Request.REPLICA_ID) >= 0;
        }
        if (key == ListOffsetsApi.SPEC.key()) {
            return body.get(ListOffsetsApi.Request.REPLICA_ID) >= 0;
        }
        if (key == AddPartitionsToTxnApi.SPEC.key()) {
            return request.version() >= 4;
        }
        return key == WriteTxnMarkersApi.SPEC.key();
    }
}
