package io.odradek.broker.api;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One Kafka release as its broker presented itself in ApiVersions: the highest version of each API it advertised
 * (by API key) and the KIP-584 feature levels it finalized on a freshly formatted cluster. From {@link KafkaReleases}.
 */
public record KafkaRelease(String version, SortedMap<Short, Short> maxVersions, Map<String, Short> features) {
    public KafkaRelease {
        maxVersions = Collections.unmodifiableSortedMap(new TreeMap<>(maxVersions));
        features = Collections.unmodifiableMap(new TreeMap<>(features));
    }

    /** The highest version of an API this release's broker advertised; -1 when it did not advertise the API. */
    public short maxVersion(short apiKey) {
        return maxVersions.getOrDefault(apiKey, (short) -1);
    }

    /** The level this release finalized a feature at; 0 when it did not (or had no such feature). */
    public short featureLevel(String name) {
        return features.getOrDefault(name, (short) 0);
    }

    @Override
    public String toString() {
        return "Kafka " + version;
    }
}
