package io.odradek.replication.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.odradek.replication.cluster.ControllerCommand.AllocateProducerIds;
import io.odradek.replication.cluster.ControllerCommand.AlterPartition;
import io.odradek.replication.cluster.ControllerCommand.AlterReassignments;
import io.odradek.replication.cluster.ControllerCommand.AlterTopicConfigs;
import io.odradek.replication.cluster.ControllerCommand.ControlledShutdown;
import io.odradek.replication.cluster.ControllerCommand.CreatePartitions;
import io.odradek.replication.cluster.ControllerCommand.CreateTopics;
import io.odradek.replication.cluster.ControllerCommand.DeleteTopics;
import io.odradek.replication.cluster.ControllerCommand.ElectLeaders;
import io.odradek.replication.cluster.ControllerCommand.FenceBrokers;
import io.odradek.replication.cluster.ControllerCommand.NewTopic;
import io.odradek.replication.cluster.ControllerCommand.PartitionRef;
import io.odradek.replication.cluster.ControllerCommand.RegisterBroker;
import io.odradek.replication.cluster.ControllerCommand.UnfenceBroker;
import io.odradek.wire.ErrorCode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CodecTest {
    private static final UUID ID = new UUID(0x0123456789abcdefL, 0xfedcba9876543210L);

    private static List<ControllerCommand> everyCommand() {
        Map<PartitionRef, List<Integer>> targets = new LinkedHashMap<>();
        targets.put(new PartitionRef("orders", 3), List.of(4, 5, 6));
        targets.put(new PartitionRef("orders", 1), null);
        return List.of(
                new RegisterBroker(3, ID, List.of(new Endpoint("PLAINTEXT", "10.0.0.3", 9092),
                        new Endpoint("REPLICATION", "h\u00f6st", 9094)), "rack-a", "MkU3OEVBNTcwNTJENDM2Qg"),
                new RegisterBroker(4, ID, List.of(), null, null),
                new RegisterBroker(5, ID, List.of(), null, "c", new ControllerSettings(true, 250)),
                new ControllerCommand.AlterClusterSettings(new ControllerSettings(false, 5000)),
                new UnfenceBroker(3, 1234567890123L),
                new FenceBrokers(List.of(1, 2, 3)),
                new FenceBrokers(new TreeMap<>(Map.of(4, 1234567890123L, 2, 17L))),
                new ControlledShutdown(2, 77),
                new CreateTopics(List.of(
                        new NewTopic("orders", ID, 12, (short) 3, null, Map.of("min.insync.replicas", "2")),
                        new NewTopic("manual", new UUID(1, 1), -1, (short) -1,
                                new TreeMap<>(Map.of(0, List.of(1, 2), 1, List.of(2, 3))), Map.of())), true),
                new CreateTopics(List.of(), false),
                new DeleteTopics(List.of(ID, new UUID(0, 7))),
                new CreatePartitions("orders", 20, null, false),
                new CreatePartitions("orders", 14, List.of(List.of(1, 2), List.of(3, 1)), true),
                new AlterTopicConfigs("orders", Map.of("retention.ms", "60000", "cleanup.policy", "compact")),
                new AlterPartition(1, 99, ID, 7, 4, 11, List.of(1, 3)),
                new ElectLeaders(false, List.of(new PartitionRef("orders", 0), new PartitionRef("x.y", 2))),
                new ElectLeaders(true, null),
                new AlterReassignments(targets),
                new AllocateProducerIds(5, 42),
                new ControllerCommand.AlterGroupConfigs("orders-queue", Map.of("share.auto.offset.reset", "earliest")));
    }

    @Test
    void everyCommandSurvivesEncodeAndDecode() {
        for (ControllerCommand command : everyCommand()) {
            byte[] bytes = CommandCodec.encode(command);
            assertThat(bytes[0]).isEqualTo(CommandCodec.FORMAT);
            assertThat(CommandCodec.decode(bytes)).as(command.toString()).isEqualTo(command);
        }
    }

    @Test
    void encodingIsCompact() {
        assertThat(CommandCodec.encode(new UnfenceBroker(3, 100))).hasSize(1 + 1 + 4 + 8);
        assertThat(CommandCodec.encode(new FenceBrokers(List.of(1, 2)))).hasSize(1 + 1 + 4 + 2 * (4 + 8));
    }

    @Test
    void resultsSurviveEncodeAndDecode() {
        List<CommandResult> results = List.of(
                CommandResult.ok(17, List.of(), 1000),
                CommandResult.failed(18, ErrorCode.STALE_BROKER_EPOCH, "Expected broker epoch 3, but got broker epoch 2"),
                CommandResult.ok(19, List.of(ItemResult.ok("a"), new ItemResult("b", ErrorCode.TOPIC_ALREADY_EXISTS,
                        "Topic 'b' already exists."), new ItemResult("c-0", ErrorCode.ELECTION_NOT_NEEDED, null)), -1));
        for (CommandResult r : results) {
            assertThat(CommandCodec.decodeResult(CommandCodec.encodeResult(r))).isEqualTo(r);
        }
    }

    @Test
    void garbageIsRefusedNotMisread() {
        byte[] good = CommandCodec.encode(new UnfenceBroker(3, 100));
        byte[] wrongFormat = good.clone();
        wrongFormat[0] = 9;
        byte[] unknownType = good.clone();
        unknownType[1] = 99;

        assertThatThrownBy(() -> CommandCodec.decode(wrongFormat)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown format 9");
        assertThatThrownBy(() -> CommandCodec.decode(unknownType)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown command type 99");
        assertThatThrownBy(() -> CommandCodec.decode(Arrays.copyOf(good, good.length - 1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CommandCodec.decode(Arrays.copyOf(good, good.length + 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("trailing");
        assertThatThrownBy(() -> ImageCodec.decode(new byte[] {1, 2})).isInstanceOf(IllegalArgumentException.class);
    }

    /** An image with brokers in every state, topics with configs, a reassignment, an offline partition. */
    private static ClusterImage richImage() {
        Cluster c = new Cluster().withBrokers(4);
        c.addBroker(5, "rack-b");
        c.createPlaced("orders", 6, 3, Map.of("min.insync.replicas", "2", "retention.ms", "86400000"));
        c.createAssigned("solo", List.of(List.of(1, 2)));
        c.createAssigned("empty", List.of(List.of(5)));
        c.alterIsr(1, "solo", 0, List.of(1));
        c.fence(1);
        c.run(new ControlledShutdown(2, c.epoch(2)));
        c.run(new AlterReassignments(Map.of(new PartitionRef("orders", 0), List.of(3, 4, 5))));
        c.run(new AllocateProducerIds(3, c.epoch(3)));
        return c.image;
    }

    @Test
    void aRichImageSurvivesEncodeAndDecodeAndStreams() throws Exception {
        ClusterImage image = richImage();
        assertThat(image.partition("solo", 0).orElseThrow().leader()).isEqualTo(-1);
        assertThat(image.topics().values().stream().flatMap(t -> t.partitions().stream())
                .anyMatch(PartitionRegistration::isReassigning)).isTrue();

        byte[] bytes = ImageCodec.encode(image);
        assertThat(bytes[0]).isEqualTo(ImageCodec.FORMAT);
        assertThat(ImageCodec.decode(bytes)).isEqualTo(image);
        assertThat(ImageCodec.encode(ImageCodec.decode(bytes))).isEqualTo(bytes);

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageCodec.write(image, out);
        ImageCodec.write(ClusterImage.EMPTY, out);
        ByteArrayInputStream in = new ByteArrayInputStream(out.toByteArray());
        assertThat(ImageCodec.read(in)).isEqualTo(image);
        assertThat(ImageCodec.read(in)).isEqualTo(ClusterImage.EMPTY);
        assertThat(in.available()).isZero();
    }

    @Test
    void replayingTheEncodedCommandsGivesTheSameImageOnAnotherController() {
        List<ControllerCommand> log = List.of(Cluster.register(1, "a"), Cluster.register(2, "b"),
                Cluster.register(3, "c"), new UnfenceBroker(1, 0), new UnfenceBroker(2, 1), new UnfenceBroker(3, 2),
                new CreateTopics(List.of(new NewTopic("t", ID, 8, (short) 3, null, Map.of())), false),
                new FenceBrokers(List.of(2)), new ElectLeaders(false, null), new AllocateProducerIds(1, 0));
        ControllerLogic leader = new ControllerLogic(ControllerSettings.DEFAULTS);
        ControllerLogic follower = new ControllerLogic(ControllerSettings.DEFAULTS);
        ClusterImage a = ClusterImage.EMPTY;
        ClusterImage b = ClusterImage.EMPTY;
        for (int i = 0; i < log.size(); i++) {
            a = leader.apply(a, log.get(i), i).image();
            b = follower.apply(b, CommandCodec.decode(CommandCodec.encode(log.get(i))), i).image();
        }
        assertThat(b).isEqualTo(a);
        assertThat(a.topics().get("t").partitions()).hasSize(8);
        assertThat(a.nextProducerId()).isEqualTo(1000);
    }

    @Test
    void stringsLongerThan64KbAndOutsideTheBasicPlaneSurviveCommandsAndImages() {
        String huge = "x".repeat(70_000) + "\uD83D\uDE00";   // past writeUTF's limit, with a surrogate pair
        ControllerCommand alter = new AlterTopicConfigs("orders", Map.of("message.format.note", huge));
        assertThat(CommandCodec.decode(CommandCodec.encode(alter))).isEqualTo(alter);

        Cluster c = new Cluster().withBrokers(1);
        c.createPlaced("t", 1, 1, Map.of("note", huge));
        ClusterImage decoded = ImageCodec.decode(ImageCodec.encode(c.image));
        assertThat(decoded).isEqualTo(c.image);
        assertThat(decoded.topics().get("t").configs().get("note")).isEqualTo(huge);
    }

    @Test
    void aStringLengthPastTheEndIsRefused() {
        byte[] good = CommandCodec.encode(new AlterTopicConfigs("orders", Map.of()));
        byte[] lying = good.clone();
        lying[2] = 0x7f;   // the topic name's length (an int after the format and type bytes) is now huge

        assertThatThrownBy(() -> CommandCodec.decode(lying)).isInstanceOf(IllegalArgumentException.class);
    }
}
