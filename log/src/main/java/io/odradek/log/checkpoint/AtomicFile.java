package io.odradek.log.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Replaces a small file so that a crash leaves either the old or the new content, never a mix: the way
 * Kafka writes its checkpoint files (temp file, fsync, atomic rename, fsync of the directory).
 */
public final class AtomicFile {
    private AtomicFile() {
    }

    /**
     * Replaces {@code target} with {@code content}. When any step fails (a full disk, typically) the temp
     * file is removed again, so a failure leaves the old file and nothing else behind.
     */
    public static void write(Path target, String content) throws IOException {
        write(target, content, false);
    }

    /**
     * As {@link #write(Path, String)}, for a file holding secrets: the temp file is created readable and writable
     * by its owner only (rw-------) where the file system has POSIX permissions, so the content is never readable
     * by others, not even before the rename; the target then has those permissions too.
     */
    public static void writeOwnerOnly(Path target, String content) throws IOException {
        write(target, content, true);
    }

    private static void write(Path target, String content, boolean ownerOnly) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        try {
            FileAttribute<?>[] attributes = {};
            if (ownerOnly) {
                // A temp file left by a crash keeps its permissions when opened again: start from a new one.
                Files.deleteIfExists(tmp);
                if (tmp.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                    attributes = new FileAttribute<?>[] {
                            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))};
                }
            }
            try (FileChannel ch = FileChannel.open(tmp, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING), attributes)) {
                ByteBuffer bytes = ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8));
                while (bytes.hasRemaining()) {
                    ch.write(bytes);
                }
                ch.force(true);
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        syncDirectory(target.toAbsolutePath().getParent());
    }

    /** Makes a rename durable; some platforms cannot open a directory, where this is best effort. */
    public static void syncDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // not supported here (e.g. Windows); the rename itself is still atomic
        }
    }
}
