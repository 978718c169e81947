package io.odradek.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void badValueExitsWithOneAndOneLineNamingKeyAndValue() {
        assertThat(run("--override", "num.partitions=lots")).isEqualTo(1);
        assertThat(stderr()).isEqualTo("odradek: Invalid value lots for configuration num.partitions: "
                + "Not a number of type INT" + System.lineSeparator());
    }

    @Test
    void badValueInTheFileExitsWithOne() throws IOException {
        Path file = Files.writeString(dir.resolve("server.properties"), "message.max.bytes=-3\n");
        assertThat(run(file.toString())).isEqualTo(1);
        assertThat(stderr()).isEqualTo("odradek: Invalid value -3 for configuration message.max.bytes: "
                + "Value must be at least 0" + System.lineSeparator());
    }

    @Test
    void missingConfigFileExitsWithOne() {
        assertThat(run("--config", dir.resolve("missing.properties").toString())).isEqualTo(1);
        assertThat(stderr()).startsWith("odradek: Config file ").endsWith("missing.properties does not exist"
                + System.lineSeparator());
    }

    @Test
    void unknownOptionOrMalformedOverrideExitsWithOne() {
        assertThat(run("--port", "9092")).isEqualTo(1);
        assertThat(stderr()).startsWith("odradek: unknown option --port (usage: odradek");
        assertThat(stderr().lines()).hasSize(1);

        err.reset();
        assertThat(run("--override", "num.partitions")).isEqualTo(1);
        assertThat(stderr()).startsWith("odradek: --override expects key=value, got 'num.partitions'");

        err.reset();
        assertThat(run("--override")).isEqualTo(1);
        assertThat(stderr()).startsWith("odradek: --override needs a value");
    }

    @Test
    void helpPrintsUsageAndExitsWithZero() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith(Main.USAGE);
    }

    @Test
    void kafkasPositionalFileAndOverridesAreBothAccepted() {
        Main.Options options = Main.parseArgs(new String[] {
            "config/server.properties", "--override", "num.partitions=3", "--override=log.dirs=/tmp/x=y"});
        assertThat(options.configFile()).isEqualTo(Path.of("config/server.properties"));
        assertThat(options.overrides()).containsExactly(entry("num.partitions", "3"), entry("log.dirs", "/tmp/x=y"));

        assertThatThrownBy(() -> Main.parseArgs(new String[] {"a.properties", "--config", "b.properties"}))
                .hasMessage("more than one config file: a.properties and b.properties");
    }

    @Test
    void takenPortExitsWithOneNamingTheListener() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String listener = "PLAINTEXT://127.0.0.1:" + taken.getLocalPort();
            assertThat(run("--override", "listeners=" + listener, "--override", "log.dirs=" + dir)).isEqualTo(1);
            assertThat(stderr()).isEqualTo("odradek: cannot listen on " + listener + ": Address already in use"
                    + System.lineSeparator());
        }
    }

    @Test
    void brokerStartsFromCommandLineArgumentsOnAFreePortAndStops() throws Exception {
        Path file = Files.writeString(dir.resolve("server.properties"), """
                node.id=3
                listeners=PLAINTEXT://127.0.0.1:9092
                log.dirs=%s
                """.formatted(dir.resolve("logs")));

        Broker broker = Main.startFromArgs(new String[] {
            "--config", file.toString(), "--override", "listeners=PLAINTEXT://127.0.0.1:0"});
        int port;
        try {
            port = broker.port();
            assertThat(port).isPositive();
            assertThat(broker.config().nodeId()).isEqualTo(3);
            assertThat(broker.config().logDirs()).containsExactly(dir.resolve("logs"));
            try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port)) {
                assertThat(client.isConnected()).isTrue();
            }
        } finally {
            broker.close();
        }
        assertThatThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), port).close())
                .isInstanceOf(java.net.ConnectException.class);
    }
}
