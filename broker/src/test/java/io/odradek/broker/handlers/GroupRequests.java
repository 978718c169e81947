package io.odradek.broker.handlers;

import io.odradek.wire.api.JoinGroupApi;
import io.odradek.wire.schema.Struct;
import java.nio.charset.StandardCharsets;

/** Group requests the group handler tests send. */
final class GroupRequests {
    private GroupRequests() {
    }

    /** A consumer JoinGroup with one "range" protocol and 10 s session and rebalance timeouts. */
    static Struct joinRequest(String group, String memberId) {
        Struct join = JoinGroupApi.Request.SCHEMA.newStruct()
                .set(JoinGroupApi.Request.GROUP_ID, group)
                .set(JoinGroupApi.Request.SESSION_TIMEOUT_MS, 10_000)
                .set(JoinGroupApi.Request.REBALANCE_TIMEOUT_MS, 10_000)
                .set(JoinGroupApi.Request.MEMBER_ID, memberId)
                .set(JoinGroupApi.Request.PROTOCOL_TYPE, "consumer");
        join.add(JoinGroupApi.Request.PROTOCOLS).set(JoinGroupApi.Request.JoinGroupRequestProtocol.NAME, "range")
                .set(JoinGroupApi.Request.JoinGroupRequestProtocol.METADATA, "sub".getBytes(StandardCharsets.UTF_8));
        return join;
    }
}
