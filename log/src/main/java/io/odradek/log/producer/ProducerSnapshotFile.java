package io.odradek.log.producer;

import io.odradek.log.segment.Segment;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * {@code <20-digit offset>.snapshot}: the producer state as of that offset, in the layout of Kafka's
 * snapshot version 1 so {@code kafka-dump-log} can print it:
 * <pre>
 * version int16 (=1) | crc uint32 (CRC32C of everything after it) | count int32 |
 * count x { producerId int64, epoch int16, lastSequence int32, lastOffset int64, offsetDelta int32,
 *           timestamp int64, coordinatorEpoch int32, currentTxnFirstOffset int64 }
 * </pre>
 * Like Kafka it keeps only each producer's latest batch; batches after the snapshot are replayed from the log.
 * The coordinator epoch of the last marker (-1 none) and the first offset of the open transaction (-1 none)
 * carry open transactions across a restart.
 */
public final class ProducerSnapshotFile {
    public static final String SUFFIX = ".snapshot";
    private static final short VERSION = 1;
    private static final int HEADER = 2 + 4 + 4;
    private static final int ENTRY = 8 + 2 + 4 + 8 + 4 + 8 + 4 + 8;

    private ProducerSnapshotFile() {
    }

    public static Path path(Path dir, long offset) {
        return dir.resolve(Segment.fileName(offset) + SUFFIX);
    }

    /** Writes atomically (temp file + rename); {@code fsync} when the caller needs it durable now. */
    public static void write(Path dir, long offset, ProducerStateManager state, boolean fsync) throws IOException {
        List<ProducerEntry> entries = new ArrayList<>(state.producers().values());
        ByteBuffer buf = ByteBuffer.allocate(HEADER + ENTRY * entries.size());
        buf.putShort(VERSION).putInt(0).putInt(entries.size());
        for (ProducerEntry e : entries) {
            BatchMetadata last = e.lastBatch();
            buf.putLong(e.producerId()).putShort(e.epoch());
            if (last == null) {
                buf.putInt(-1).putLong(-1L).putInt(0).putLong(e.lastTimestamp());
            } else {
                buf.putInt(last.lastSeq()).putLong(last.lastOffset()).putInt((int) (last.lastOffset() - last.firstOffset()))
                        .putLong(e.lastTimestamp());
            }
            buf.putInt(e.coordinatorEpoch()).putLong(e.currentTxnFirstOffset());
        }
        buf.flip();
        buf.putInt(2, (int) crc(buf));
        Path target = path(dir, offset);
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                if (fsync) {
                    ch.force(true);
                }
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            Files.deleteIfExists(tmp); // a failed write (a full disk) leaves no .tmp behind
            throw e;
        }
    }

    private static long crc(ByteBuffer whole) {
        CRC32C crc = new CRC32C();
        ByteBuffer body = whole.duplicate();
        body.position(HEADER - 4);
        crc.update(body);
        return crc.getValue();
    }

    /** Loads a snapshot into {@code state}; false (state untouched) if it is unreadable or fails its CRC. */
    public static boolean load(Path file, ProducerStateManager state) {
        ByteBuffer buf;
        try {
            buf = ByteBuffer.wrap(Files.readAllBytes(file));
        } catch (IOException e) {
            return false;
        }
        if (buf.remaining() < HEADER || buf.getShort(0) != VERSION
                || (buf.getInt(2) & 0xFFFFFFFFL) != crc(buf)) {
            return false;
        }
        int count = buf.getInt(6);
        if (count < 0 || buf.remaining() != HEADER + (long) ENTRY * count) {
            return false;
        }
        buf.position(HEADER);
        state.clear();
        for (int i = 0; i < count; i++) {
            long pid = buf.getLong();
            short epoch = buf.getShort();
            int lastSeq = buf.getInt();
            long lastOffset = buf.getLong();
            int delta = buf.getInt();
            long timestamp = buf.getLong();
            int coordinatorEpoch = buf.getInt();
            long txnFirstOffset = buf.getLong();
            ProducerEntry e = new ProducerEntry(pid, epoch);
            e.restoreTransaction(txnFirstOffset, coordinatorEpoch);
            if (lastSeq >= 0) {
                int firstSeq = lastSeq - delta;
                if (firstSeq < 0) {
                    firstSeq += Integer.MAX_VALUE + 1;
                }
                e.addBatch(new BatchMetadata(firstSeq, lastSeq, lastOffset - delta, lastOffset, timestamp));
            }
            e.touch(timestamp);
            state.put(e);
        }
        return true;
    }

    /** Snapshot offsets present in {@code dir}, ascending. */
    public static List<Long> list(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(SUFFIX) && n.length() == 20 + SUFFIX.length())
                    .map(n -> n.substring(0, 20))
                    .filter(n -> n.chars().allMatch(Character::isDigit))
                    .map(Long::parseLong)
                    .sorted(Comparator.naturalOrder())
                    .toList();
        }
    }
}
