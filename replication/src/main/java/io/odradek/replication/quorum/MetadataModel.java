package io.odradek.replication.quorum;

import io.odradek.replication.cluster.ClusterImage;
import io.odradek.replication.cluster.CommandCodec;
import io.odradek.replication.cluster.CommandResult;
import io.odradek.replication.cluster.ControllerCommand;
import io.odradek.replication.cluster.ControllerLogic;
import io.odradek.replication.cluster.ControllerSettings;
import io.odradek.replication.cluster.ImageCodec;

/**
 * What the quorum needs of the cluster model: applying a command and the byte forms of commands, results and
 * images. Production is {@link #of} (ControllerLogic and the cluster codecs); the quorum's own tests substitute a
 * small model so they exercise Raft without depending on every command's rules.
 */
interface MetadataModel {
    ControllerLogic.Applied apply(ClusterImage image, ControllerCommand command, long offset);

    byte[] encodeCommand(ControllerCommand command);

    ControllerCommand decodeCommand(byte[] bytes);

    byte[] encodeResult(CommandResult result);

    CommandResult decodeResult(byte[] bytes);

    byte[] encodeImage(ClusterImage image);

    ClusterImage decodeImage(byte[] bytes);

    static MetadataModel of(ControllerSettings settings) {
        ControllerLogic logic = new ControllerLogic(settings);
        return new MetadataModel() {
            @Override
            public ControllerLogic.Applied apply(ClusterImage image, ControllerCommand command, long offset) {
                return logic.apply(image, command, offset);
            }

            @Override
            public byte[] encodeCommand(ControllerCommand command) {
                return CommandCodec.encode(logic.withProposals(command));
            }

            @Override
            public ControllerCommand decodeCommand(byte[] bytes) {
                return CommandCodec.decode(bytes);
            }

            @Override
            public byte[] encodeResult(CommandResult result) {
                return CommandCodec.encodeResult(result);
            }

            @Override
            public CommandResult decodeResult(byte[] bytes) {
                return CommandCodec.decodeResult(bytes);
            }

            @Override
            public byte[] encodeImage(ClusterImage image) {
                return ImageCodec.encode(image);
            }

            @Override
            public ClusterImage decodeImage(byte[] bytes) {
                return ImageCodec.decode(bytes);
            }
        };
    }
}
