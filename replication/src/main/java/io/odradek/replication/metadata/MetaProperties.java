package io.odradek.replication.metadata;

import io.odradek.log.checkpoint.AtomicFile;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * {@code meta.properties} in each log dir, in Kafka's KRaft format ({@code version=1}, {@code cluster.id},
 * {@code node.id}). It ties a directory to one cluster and one node: a dir from another cluster or node
 * is refused at start, as Kafka does, rather than silently mixing data.
 */
public record MetaProperties(String clusterId, int nodeId) {
    public static final String FILE_NAME = "meta.properties";

    /**
     * Reads the meta.properties of every dir, checks they agree with each other and with {@code nodeId},
     * writes it where missing (generating a cluster id if no dir has one) and returns the result.
     */
    public static MetaProperties ensure(List<Path> logDirs, int nodeId) {
        String clusterId = null;
        Path clusterIdFrom = null;
        for (Path dir : logDirs) {
            MetaProperties found = read(dir);
            if (found == null) {
                continue;
            }
            if (found.nodeId != nodeId) {
                throw new IllegalStateException("Stored node id " + found.nodeId + " in " + dir.resolve(FILE_NAME)
                        + " doesn't match the configured node.id " + nodeId);
            }
            if (clusterId != null && !clusterId.equals(found.clusterId)) {
                throw new IllegalStateException("Log dirs " + clusterIdFrom + " and " + dir
                        + " belong to different clusters: " + clusterId + " and " + found.clusterId);
            }
            clusterId = found.clusterId;
            clusterIdFrom = dir;
        }
        MetaProperties meta = new MetaProperties(clusterId != null ? clusterId : Ids.newClusterId(), nodeId);
        for (Path dir : logDirs) {
            if (!Files.exists(dir.resolve(FILE_NAME))) {
                meta.write(dir);
            }
        }
        return meta;
    }

    /** The meta.properties of a dir, or null when it has none. */
    public static MetaProperties read(Path dir) {
        Path file = dir.resolve(FILE_NAME);
        if (!Files.exists(file)) {
            return null;
        }
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
        String version = p.getProperty("version", "0").trim();
        String clusterId = p.getProperty("cluster.id");
        // version 0 is the ZooKeeper-era format, which names the node broker.id
        String node = p.getProperty(version.equals("0") ? "broker.id" : "node.id");
        if (clusterId == null || clusterId.isBlank() || node == null) {
            throw new IllegalStateException(file + " lacks cluster.id or node.id");
        }
        try {
            return new MetaProperties(clusterId.trim(), Integer.parseInt(node.trim()));
        } catch (NumberFormatException e) {
            throw new IllegalStateException(file + " has a non-numeric node id: " + node, e);
        }
    }

    public void write(Path dir) {
        try {
            Files.createDirectories(dir);
            AtomicFile.write(dir.resolve(FILE_NAME),
                    "#\n#Written by Odradek\nversion=1\ncluster.id=" + clusterId + "\nnode.id=" + nodeId + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + dir.resolve(FILE_NAME), e);
        }
    }
}
