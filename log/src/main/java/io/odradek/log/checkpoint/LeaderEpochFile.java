package io.odradek.log.checkpoint;

import io.odradek.log.EpochEndOffset;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The partition's {@code leader-epoch-checkpoint} in Kafka's format ({@code 0\n<count>\n<epoch> <startOffset>\n...}):
 * the first offset written under each leader epoch. Rewritten (fsync'd) whenever it changes, which is rare.
 */
public final class LeaderEpochFile {
    public static final String FILE_NAME = "leader-epoch-checkpoint";

    /** An epoch and the first offset appended under it. */
    public record EpochEntry(int epoch, long startOffset) {
    }

    private final Path file;
    private final List<EpochEntry> entries = new ArrayList<>();

    public LeaderEpochFile(Path partitionDir) {
        this.file = partitionDir.resolve(FILE_NAME);
        load();
    }

    private void load() {
        if (!Files.exists(file)) {
            return;
        }
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            int count = Integer.parseInt(lines.get(1).trim());
            for (int i = 0; i < count; i++) {
                String[] parts = lines.get(i + 2).trim().split(" ");
                entries.add(new EpochEntry(Integer.parseInt(parts[0]), Long.parseLong(parts[1])));
            }
        } catch (IOException | RuntimeException e) {
            // Kafka treats a bad checkpoint as empty; epochs are re-learnt from new appends.
            entries.clear();
        }
    }

    public synchronized List<EpochEntry> entries() {
        return List.copyOf(entries);
    }

    public synchronized int latestEpoch() {
        return entries.isEmpty() ? -1 : entries.get(entries.size() - 1).epoch();
    }

    /**
     * Records {@code epoch} starting at {@code startOffset}, as Kafka's LeaderEpochFileCache.assign: nothing to
     * do when it is the latest epoch already and starts no lower; otherwise the newest entries with an epoch
     * at or above it, or a start at or after its start, are dropped (maybeTruncateNonMonotonicEntries) and it
     * is added. A negative epoch or offset (a batch without a leader epoch) is ignored. When the file cannot
     * be written the entries stay as they were and {@link UncheckedIOException} is thrown.
     */
    public synchronized void assign(int epoch, long startOffset) {
        if (epoch < 0 || startOffset < 0 || !isUpdateNeeded(epoch, startOffset)) {
            return;
        }
        List<EpochEntry> before = List.copyOf(entries);
        for (int i = entries.size() - 1; i >= 0; i--) {
            EpochEntry e = entries.get(i);
            if (e.epoch() < epoch && e.startOffset() < startOffset) {
                break;
            }
            entries.remove(i);
        }
        entries.add(new EpochEntry(epoch, startOffset));
        saveOrRestore(before);
    }

    private boolean isUpdateNeeded(int epoch, long startOffset) {
        if (entries.isEmpty()) {
            return true;
        }
        EpochEntry latest = entries.get(entries.size() - 1);
        return latest.epoch() != epoch || startOffset < latest.startOffset();
    }

    /** Writes the entries; on failure puts {@code before} back, so memory never runs ahead of the file. */
    private void saveOrRestore(List<EpochEntry> before) {
        try {
            save();
        } catch (UncheckedIOException e) {
            entries.clear();
            entries.addAll(before);
            throw e;
        }
    }

    /**
     * Kafka's LeaderEpochFileCache.endOffsetFor: the epoch asked for (or, when the log skipped it, the
     * largest known epoch below it) and the first offset after it, i.e. the start of the next higher epoch;
     * the latest epoch ends at {@code logEndOffset}. An epoch below every known epoch answers with itself and
     * the first epoch's start (the data before it is gone, so a follower replicates from there). An undefined
     * epoch (-1), one above the latest, or an empty cache: {@link EpochEndOffset#UNDEFINED}.
     *
     */
    public synchronized EpochEndOffset endOffsetFor(int epoch, long logEndOffset) {
        if (epoch < 0 || entries.isEmpty()) {
            return EpochEndOffset.UNDEFINED;
        }
        if (epoch == latestEpoch()) {
            return new EpochEndOffset(epoch, logEndOffset);
        }
        EpochEntry floor = null;
        for (EpochEntry e : entries) {
            if (e.epoch() > epoch) {
                return new EpochEndOffset(floor == null ? epoch : floor.epoch(), e.startOffset());
            }
            floor = e;
        }
        return EpochEndOffset.UNDEFINED; // above the latest epoch
    }

    /** Forgets every epoch (the log was emptied, Kafka's clearAndFlush). */
    public synchronized void clear() {
        entries.clear();
        save();
    }

    /** Drops epochs that start at or after {@code endOffset} (the log was truncated there). */
    public synchronized void truncateFromEnd(long endOffset) {
        if (entries.removeIf(e -> e.startOffset() >= endOffset)) {
            save();
        }
    }

    /** Drops epochs wholly below {@code startOffset}; the one spanning it now starts there, as in Kafka. */
    public synchronized void truncateFromStart(long startOffset) {
        int keepFrom = -1;
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i).startOffset() <= startOffset) {
                keepFrom = i;
            }
        }
        if (keepFrom < 0 || (keepFrom == 0 && entries.get(0).startOffset() == startOffset)) {
            return;
        }
        EpochEntry spanning = entries.get(keepFrom);
        List<EpochEntry> kept = new ArrayList<>(entries.subList(keepFrom + 1, entries.size()));
        kept.add(0, new EpochEntry(spanning.epoch(), startOffset));
        entries.clear();
        entries.addAll(kept);
        save();
    }

    private void save() {
        StringBuilder sb = new StringBuilder("0\n").append(entries.size()).append('\n');
        for (EpochEntry e : entries) {
            sb.append(e.epoch()).append(' ').append(e.startOffset()).append('\n');
        }
        try {
            AtomicFile.write(file, sb.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** Writes the file even when nothing changed (so a new partition has one, as Kafka's has). */
    public synchronized void saveNow() {
        save();
    }
}
