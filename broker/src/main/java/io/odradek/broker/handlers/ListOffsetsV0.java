package io.odradek.broker.handlers;

import io.odradek.broker.cluster.ClusterView;
import io.odradek.log.LogException;
import io.odradek.log.PartitionLog;
import io.odradek.log.segment.Segment;
import io.odradek.replication.partition.Partition;
import io.odradek.replication.partition.Partitions;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ListOffsetsApi.Request;
import io.odradek.wire.api.ListOffsetsApi.Request.ListOffsetsTopic;
import io.odradek.wire.api.ListOffsetsApi.Request.ListOffsetsTopic.ListOffsetsPartition;
import io.odradek.wire.api.ListOffsetsApi.Response;
import io.odradek.wire.api.ListOffsetsApi.Response.ListOffsetsTopicResponse;
import io.odradek.wire.api.ListOffsetsApi.Response.ListOffsetsTopicResponse.ListOffsetsPartitionResponse;
import io.odradek.wire.schema.Struct;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * ListOffsets v0 (pre-0.10.1 clients: kafka-python's and Sarama's oldest versions, {@code GetOffsetShell} of
 * old): up to MaxNumOffsets offsets "before" a timestamp, as Kafka 3.9's KafkaApis.handleListOffsetRequestV0,
 * Partition.legacyFetchOffsetsForTimestamp and UnifiedLog.legacyFetchOffsetsBefore answered it.
 *
 * <p>The candidates are the base offset of every segment (raised to the log start offset), each stamped with
 * the segment file's last-modified time, plus the log end offset stamped "now" when the active segment holds
 * data. -1 (latest) starts from the last candidate, -2 (earliest) from the first, any other timestamp from the
 * last candidate stamped at or before it; from there up to MaxNumOffsets candidates going back, newest
 * first. So latest with MaxNumOffsets 1 is the log end and earliest the log start offset, exactly; a
 * timestamp is only as precise as segment boundaries and file times are, which is what Kafka 3.9 gave too.
 * A consumer (replica id -1) never sees past the high watermark: offsets above it are replaced by the high
 * watermark itself, listed first. No leader epoch check (v0 carries none); only the leader answers, except to
 * the debugging replica id -2. A timestamp below -2: UNSUPPORTED_VERSION; a negative MaxNumOffsets:
 * UNKNOWN_SERVER_ERROR (Kafka failed building a negative-sized array). Partitions listed twice are answered
 * twice, as in Kafka's v0 path. The file times cost one stat per segment, on the request's thread: v0 is rare.
 */
final class ListOffsetsV0 {
    private static final int CONSUMER_REPLICA_ID = -1;
    private static final int DEBUGGING_REPLICA_ID = -2;

    private ListOffsetsV0() {
    }

    /** A segment's base offset and its file's last-modified time. */
    record SegmentTime(long baseOffset, long lastModifiedMs) {
    }

    static Struct answer(Partitions partitions, ClusterView cluster, Struct request, long nowMs) {
        return answer(partitions, cluster, request, nowMs, null);
    }

    /** {@code describable}: the topics the client may DESCRIBE (issue 10); null: all. */
    static Struct answer(Partitions partitions, ClusterView cluster, Struct request, long nowMs,
            TopicAccess describable) {
        int replicaId = request.get(Request.REPLICA_ID);
        boolean consumer = replicaId == CONSUMER_REPLICA_ID;
        boolean leaderOnly = replicaId != DEBUGGING_REPLICA_ID;
        Struct response = Response.SCHEMA.newStruct();
        for (Struct topic : request.get(Request.TOPICS)) {
            String name = topic.get(ListOffsetsTopic.NAME);
            Struct topicResponse = response.add(Response.TOPICS).set(ListOffsetsTopicResponse.NAME, name);
            for (Struct partition : topic.get(ListOffsetsTopic.PARTITIONS)) {
                int index = partition.get(ListOffsetsPartition.PARTITION_INDEX);
                Struct out = topicResponse.add(ListOffsetsTopicResponse.PARTITIONS)
                        .set(ListOffsetsPartitionResponse.PARTITION_INDEX, index);
                long timestamp = partition.get(ListOffsetsPartition.TIMESTAMP);
                int maxNumOffsets = partition.get(ListOffsetsPartition.MAX_NUM_OFFSETS);
                if (describable != null && !describable.allowed(name)) {
                    error(out, ErrorCode.TOPIC_AUTHORIZATION_FAILED);
                    continue;
                }
                if (timestamp < ListOffsetsHandler.EARLIEST) {
                    error(out, ErrorCode.UNSUPPORTED_VERSION);
                    continue;
                }
                Optional<Partition> found = partitions.partition(name, index);
                if (found.isEmpty()) {
                    error(out, cluster.image().partition(name, index).isPresent()
                            ? ErrorCode.NOT_LEADER_OR_FOLLOWER : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
                    continue;
                }
                ErrorCode leadership = found.get().checkLeader(-1);
                if (leadership != ErrorCode.NONE && leaderOnly) {
                    error(out, leadership);
                    continue;
                }
                try {
                    List<Long> offsets = offsets(found.get(), timestamp, maxNumOffsets, consumer, nowMs);
                    if (offsets == null) {
                        error(out, ErrorCode.UNKNOWN_SERVER_ERROR);
                    } else {
                        out.set(ListOffsetsPartitionResponse.ERROR_CODE, ErrorCode.NONE.code())
                                .set(ListOffsetsPartitionResponse.OLD_STYLE_OFFSETS, offsets);
                    }
                } catch (LogException e) {
                    error(out, e.errorCode());
                }
            }
        }
        return response;
    }

    /** The partition's answer, or null for a negative count (Kafka's error). */
    private static List<Long> offsets(Partition partition, long timestamp, int maxNumOffsets, boolean consumer,
            long nowMs) {
        PartitionLog log = partition.log();
        long logStart = partition.logStartOffset();
        long logEnd = partition.logEndOffset();
        List<SegmentTime> segments = segmentTimes(log);
        boolean activeHasData = !segments.isEmpty() && logEnd > segments.get(segments.size() - 1).baseOffset();
        List<Long> offsets = offsetsBefore(segments, activeHasData, logStart, logEnd, nowMs, timestamp, maxNumOffsets);
        return offsets == null || !consumer ? offsets : capAtHighWatermark(offsets, partition.highWatermark());
    }

    /**
     * Kafka 3.9's UnifiedLog.legacyFetchOffsetsBefore over the segments' base offsets and times, newest
     * offset first; null when {@code maxNumOffsets} makes the count negative.
     */
    static List<Long> offsetsBefore(List<SegmentTime> segments, boolean activeHasData, long logStart, long logEnd,
            long nowMs, long timestamp, int maxNumOffsets) {
        List<SegmentTime> candidates = new ArrayList<>(segments.size() + 1);
        for (SegmentTime s : segments) {
            candidates.add(new SegmentTime(Math.max(s.baseOffset(), logStart), s.lastModifiedMs()));
        }
        if (activeHasData) {
            candidates.add(new SegmentTime(logEnd, nowMs));
        }
        int start;
        if (timestamp == ListOffsetsHandler.LATEST) {
            start = candidates.size() - 1;
        } else if (timestamp == ListOffsetsHandler.EARLIEST) {
            start = candidates.isEmpty() ? -1 : 0;
        } else {
            start = candidates.size() - 1;
            while (start >= 0 && candidates.get(start).lastModifiedMs() > timestamp) {
                start--;
            }
        }
        int count = Math.min(maxNumOffsets, start + 1);
        if (count < 0) {
            return null;
        }
        List<Long> offsets = new ArrayList<>(count);
        for (int i = start; i > start - count; i--) {
            offsets.add(candidates.get(i).baseOffset());
        }
        offsets.sort(Comparator.reverseOrder());
        return offsets;
    }

    /** Kafka's consumer view: offsets above the high watermark give way to it, listed first. */
    static List<Long> capAtHighWatermark(List<Long> newestFirst, long highWatermark) {
        if (newestFirst.stream().noneMatch(o -> o > highWatermark)) {
            return newestFirst;
        }
        List<Long> capped = new ArrayList<>();
        capped.add(highWatermark);
        newestFirst.stream().dropWhile(o -> o > highWatermark).forEach(capped::add);
        return capped;
    }

    /**
     * Each live segment with its log file's last-modified time (Kafka's LogSegment.lastModified); a segment
     * whose file went meanwhile (retention, compaction swapping it) is skipped.
     */
    private static List<SegmentTime> segmentTimes(PartitionLog log) {
        List<SegmentTime> times = new ArrayList<>();
        for (long base : log.segmentBaseOffsets()) {
            Path file = log.dir().resolve(Segment.fileName(base) + Segment.LOG_SUFFIX);
            try {
                times.add(new SegmentTime(base, Files.getLastModifiedTime(file).toMillis()));
            } catch (NoSuchFileException gone) {
                // deleted or replaced since the listing: not a candidate any more
            } catch (IOException e) {
                throw new LogException(ErrorCode.KAFKA_STORAGE_ERROR, "cannot read the time of " + file, e);
            }
        }
        return times;
    }

    private static void error(Struct out, ErrorCode error) {
        out.set(ListOffsetsPartitionResponse.ERROR_CODE, error.code());
    }
}
