package io.odradek.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Small helpers shared by the log tests. */
final class LogFixture {
    private LogFixture() {
    }

    static LogConfig config(Map<String, String> overrides) {
        return LogConfig.defaults().with(overrides);
    }

    static ByteBuffer readSlice(FileSlice slice) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        slice.transferTo(Channels.newChannel(out));
        return ByteBuffer.wrap(out.toByteArray());
    }

    /** File name -> bytes of every file under {@code dir}, to prove nothing changed. */
    static Map<String, byte[]> snapshotFiles(Path dir) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                files.put(dir.relativize(p).toString(), Files.readAllBytes(p));
            }
        }
        return files;
    }

    /** A clock tests move by hand. */
    static final class ManualClock extends Clock {
        private volatile long now;

        ManualClock(long now) {
            this.now = now;
        }

        void set(long ms) {
            now = ms;
        }

        @Override
        public long millis() {
            return now;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(now);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
