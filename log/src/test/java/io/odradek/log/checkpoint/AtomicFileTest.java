package io.odradek.log.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFileTest {
    @TempDir
    Path dir;

    @Test
    void aSecretsFileIsOwnerOnlyEvenWhenAWorldReadableTempFileWasLeftByACrash() throws Exception {
        Path target = dir.resolve("security");
        Path leftover = dir.resolve("security.tmp");
        Files.writeString(leftover, "old secrets");
        Files.setPosixFilePermissions(leftover, PosixFilePermissions.fromString("rw-r--r--"));

        AtomicFile.writeOwnerOnly(target, "scram\tnew\n");

        assertThat(Files.readString(target, StandardCharsets.UTF_8)).isEqualTo("scram\tnew\n");
        assertThat(Files.getPosixFilePermissions(target)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(leftover).doesNotExist();
    }

    @Test
    void anOrdinaryFileKeepsTheDefaultPermissions() throws Exception {
        Path target = dir.resolve("checkpoint");
        AtomicFile.write(target, "0\n");
        assertThat(Files.readString(target)).isEqualTo("0\n");
        assertThat(Files.getPosixFilePermissions(target)).contains(java.nio.file.attribute.PosixFilePermission.OWNER_READ);
    }
}
