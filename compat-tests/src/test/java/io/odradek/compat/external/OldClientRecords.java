package io.odradek.compat.external;

import com.fasterxml.jackson.databind.JsonNode;
import io.odradek.compat.OdradekBroker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * What the old-client tests expect and compare: keyed messages "key-i" -> "value-i", each written as
 * "partition@offset key=value", and a group's committed offsets as the Java admin client reads them.
 */
final class OldClientRecords {
    private OldClientRecords() {
    }

    /** key-i -> value-i for i in [from, to), in order; a few keys repeat so that a partition gets several. */
    static Map<String, String> messages(String prefix, int from, int to) {
        Map<String, String> m = new LinkedHashMap<>();
        IntStream.range(from, to).forEach(i -> m.put(prefix + "key-" + i, prefix + "value-" + i));
        return m;
    }

    /**
     * "partition@offset key=value" for each message, partitioned by {@code partitionOf}, offsets counted per
     * partition in send order from {@code firstOffsets} (partition -> its end offset before these were sent).
     */
    static List<String> expected(Map<String, String> messages, ToIntFunction<String> partitionOf,
            Map<Integer, Long> firstOffsets) {
        Map<Integer, Long> next = new HashMap<>(firstOffsets);
        List<String> lines = new ArrayList<>();
        messages.forEach((k, v) -> {
            int p = partitionOf.applyAsInt(k);
            long offset = next.merge(p, 1L, Long::sum) - 1;
            lines.add(p + "@" + offset + " " + k + "=" + v);
        });
        return lines;
    }

    /** Each partition's next offset after these lines (as {@link #expected} writes them). */
    static Map<Integer, Long> ends(List<String> lines) {
        Map<Integer, Long> ends = new HashMap<>();
        for (String line : lines) {
            String[] po = line.substring(0, line.indexOf(' ')).split("@");
            ends.merge(Integer.parseInt(po[0]), Long.parseLong(po[1]) + 1, Math::max);
        }
        return ends;
    }

    /** An event with partition, offset, key and value, written as "partition@offset key=value". */
    static String line(JsonNode e) {
        return e.get("partition").asInt() + "@" + e.get("offset").asLong() + " " + e.get("key").asText() + "="
                + e.get("value").asText();
    }

    /** The lines sorted by partition, then offset: one order for lines of several partitions. */
    static List<String> sorted(List<String> lines) {
        return lines.stream().sorted(Comparator.comparingInt((String l) -> Integer.parseInt(l.split("@")[0]))
                .thenComparingLong(l -> Long.parseLong(l.split("@")[1].split(" ")[0]))).toList();
    }

    /** The group's committed offsets by partition number, through the Java admin client. */
    static Map<Integer, Long> committed(OdradekBroker broker, String group) {
        Map<TopicPartition, OffsetAndMetadata> offsets = OdradekBroker.await(
                broker.admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
        return offsets.entrySet().stream().collect(Collectors.toMap(e -> e.getKey().partition(),
                e -> e.getValue().offset()));
    }
}
