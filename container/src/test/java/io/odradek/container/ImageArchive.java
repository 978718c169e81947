package io.odradek.container;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * The image tarball jib's buildTar writes (docker-archive: manifest.json, the config JSON, one .tar.gz per layer),
 * read as {@code docker load} reads it. Layer entries are merged in order, a later layer's file winning.
 */
final class ImageArchive {
    /** The tarball this module's build made (failsafe passes its path). */
    static Path built() {
        return Path.of(System.getProperty("odradek.image.tar", "target/odradek-image.tar"));
    }

    /** One file or directory of the image's filesystem. */
    record Entry(String path, int mode, boolean directory, long size, int uid, int gid) {
    }

    final Map<String, Object> manifest;
    final Map<String, Object> config;
    final List<String> layers;
    private final Map<String, byte[]> members;

    private ImageArchive(Map<String, byte[]> members) {
        this.members = members;
        this.manifest = Json.object(Json.array(Json.parse(text("manifest.json"))).get(0));
        this.config = Json.object(Json.parse(text((String) manifest.get("Config"))));
        this.layers = Json.array(manifest.get("Layers")).stream().map(String.class::cast).toList();
    }

    static ImageArchive read(Path tar) throws IOException {
        Map<String, byte[]> members = new HashMap<>();
        try (TarArchiveInputStream in = new TarArchiveInputStream(new BufferedInputStream(Files.newInputStream(tar)))) {
            for (TarArchiveEntry e = in.getNextTarEntry(); e != null; e = in.getNextTarEntry()) {
                if (e.isFile()) {
                    members.put(e.getName(), in.readAllBytes());
                }
            }
        }
        return new ImageArchive(members);
    }

    String text(String member) {
        byte[] bytes = members.get(member);
        if (bytes == null) {
            throw new IllegalArgumentException(member + " is not in the image tarball");
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** The image's "config" object (Cmd, Entrypoint, User, Env, ExposedPorts, Volumes...). */
    Map<String, Object> containerConfig() {
        return Json.object(config.get("config"));
    }

    /** Every path of the image's filesystem (no leading '/'; directories without the trailing '/'). */
    Map<String, Entry> files() throws IOException {
        readLayers();
        return files;
    }

    /** The content of {@code path} in the image (the last layer having it; files up to 64 KiB). */
    String fileText(String path) throws IOException {
        readLayers();
        byte[] content = smallFiles.get(path);
        if (content == null) {
            throw new IllegalArgumentException(path + " is not a file of at most 64 KiB in the image");
        }
        return new String(content, StandardCharsets.UTF_8);
    }

    private Map<String, Entry> files;
    private final Map<String, byte[]> smallFiles = new HashMap<>();

    /** Reads every layer once: a file's entry and, when small, its content. */
    private void readLayers() throws IOException {
        if (files != null) {
            return;
        }
        files = new LinkedHashMap<>();
        for (String layer : layers) {
            forEachInLayer(layer, (entry, in) -> {
                files.put(entry.path(), entry);
                if (!entry.directory() && entry.size() <= 64 * 1024) {
                    smallFiles.put(entry.path(), in.readAllBytes());
                }
            });
        }
    }

    interface EntryConsumer {
        void accept(Entry entry, InputStream content) throws IOException;
    }

    private void forEachInLayer(String layer, EntryConsumer consumer) throws IOException {
        byte[] bytes = members.get(layer);
        try (TarArchiveInputStream in = new TarArchiveInputStream(new GZIPInputStream(
                new java.io.ByteArrayInputStream(bytes)))) {
            for (TarArchiveEntry e = in.getNextTarEntry(); e != null; e = in.getNextTarEntry()) {
                String name = e.getName().replaceFirst("^\\./", "").replaceFirst("/$", "");
                consumer.accept(new Entry(name, e.getMode() & 07777, e.isDirectory(), e.getSize(),
                        (int) e.getLongUserId(), (int) e.getLongGroupId()), in);
            }
        }
    }
}
