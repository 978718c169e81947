package io.odradek.replication.quorum;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerSettings;
import io.odradek.wire.ErrorCode;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A log entry that is not a command (a newer version's, a corrupt one) still moves the image to its offset. */
class UndecodableEntryTest {
    @TempDir
    Path dir;

    @Test
    void anEntryThatCannotBeDecodedIsAnsweredWithAnErrorAndTheImageReachesItsOffset() throws Exception {
        Map<Integer, InetSocketAddress> voters = QuorumConfig.parseVoters("1@127.0.0.1:" + ThreeVoters.freePort());
        QuorumConfig config = new QuorumConfig(1, true, voters, dir.resolve("meta"), ControllerSettings.DEFAULTS,
                9000, 1000, 2000, 20_000, 1000);
        try (RatisControllerChannel channel = RatisControllerChannel.open(config);
                RaftClient raw = RaftClient.newBuilder().setRaftGroup(RatisQuorum.group(config))
                        .setProperties(RatisQuorum.properties(config)).build()) {
            RaftClientReply reply = raw.io().send(Message.valueOf(ByteString.copyFrom(new byte[] {(byte) 0x7f, 1, 2})));
            assertThat(reply.isSuccess()).isTrue();
            CommandResult result = channel.localVoter().model().decodeResult(reply.getMessage().getContent().toByteArray());
            assertThat(result.error()).isEqualTo(ErrorCode.UNKNOWN_SERVER_ERROR);
            assertThat(result.offset()).isEqualTo(reply.getLogIndex());
            // Applied (on this, the leader) before the reply was sent.
            assertThat(channel.image().offset()).as("image at the entry's offset").isEqualTo(reply.getLogIndex());
        }
    }
}
