package io.odradek.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The image as {@code docker load} would see it: its config (how it starts) and its filesystem. */
class ImageTarballIT {
    /** The bound the image stays under (82 MiB when written: application layers 52 MiB, JRE + libraries + shells 28 MiB, gzipped). */
    static final long MAX_IMAGE_BYTES = 100L * 1024 * 1024;

    static ImageArchive image;
    static Map<String, ImageArchive.Entry> files;

    @BeforeAll
    static void readImage() throws Exception {
        image = ImageArchive.read(ImageArchive.built());
        files = image.files();
    }

    @Test
    void theImageIsNamedOdradekSoDockerLoadTagsItOdradekLatest() {
        assertThat(image.manifest.get("RepoTags")).isEqualTo(List.of("odradek:latest"));
    }

    @Test
    void itStartsLikeApacheKafkasImageWithTheStartScriptAsCommandAndNoEntrypoint() {
        Map<String, Object> config = image.containerConfig();
        // No entrypoint: Testcontainers' KafkaContainer replaces the command with its own sh -c.
        assertThat(config.get("Entrypoint")).isNull();
        assertThat(config.get("Cmd")).isEqualTo(List.of("/etc/kafka/docker/run"));
        assertThat(config.get("User")).isEqualTo("1000:1000");
        assertThat(Json.object(config.get("ExposedPorts"))).containsOnlyKeys("9092/tcp");
        assertThat(Json.object(config.get("Volumes"))).containsOnlyKeys("/var/lib/kafka/data");
        assertThat(Json.array(config.get("Env"))).contains("PATH=/opt/java/bin:/usr/bin:/bin", "JAVA_HOME=/opt/java");
        assertThat(image.config.get("os")).isEqualTo("linux");
        assertThat(image.config.get("architecture")).isEqualTo("amd64");
    }

    @Test
    void theStartScriptExecsTheJvmWithTheContainerMain() throws Exception {
        assertThat(files.get("etc/kafka/docker/run").mode()).isEqualTo(0755);
        String run = image.fileText("etc/kafka/docker/run");
        assertThat(run).startsWith("#!/bin/sh\n")
                .contains("exec /opt/java/bin/java ${KAFKA_HEAP_OPTS:--Xmx1G}")
                .contains("-cp @/app/jib-classpath-file io.odradek.broker.container.ContainerMain \"$@\"");
        assertThat(image.fileText("app/jib-classpath-file")).contains("/app/libs/odradek-broker-");
    }

    @Test
    void theShellsAndSleepTestcontainersCommandUsesAreThereWithTheirLoader() {
        for (String binary : List.of("bin/sh", "bin/bash", "bin/sleep", "opt/java/bin/java")) {
            assertThat(files.get(binary)).as(binary).isNotNull();
            assertThat(files.get(binary).mode()).as(binary).isEqualTo(0755);
        }
        assertThat(files).containsKeys("lib64/ld-linux-x86-64.so.2", "lib/x86_64-linux-gnu/libc.so.6",
                "lib/x86_64-linux-gnu/libz.so.1", "lib/x86_64-linux-gnu/libstdc++.so.6",
                "lib/x86_64-linux-gnu/libdl.so.2", "opt/java/lib/server/libjvm.so", "opt/java/lib/modules",
                "opt/java/lib/server/classes.jsa");
    }

    @Test
    void theJreHasTheModulesTheBrokerUsesAndNoMore() throws Exception {
        String release = image.fileText("opt/java/release");
        assertThat(release).contains("JAVA_VERSION=\"17");
        assertThat(release).contains("java.base", "java.management", "jdk.management", "jdk.unsupported",
                "jdk.httpserver", "java.naming", "jdk.crypto.ec").doesNotContain("java.desktop", "jdk.compiler");
    }

    @Test
    void itRunsAsAppuser1000WithAWritableDataVolumeAndTmp() throws Exception {
        assertThat(image.fileText("etc/passwd")).contains("appuser:x:1000:1000:");
        assertThat(image.fileText("etc/group")).contains("appuser:x:1000:");
        assertThat(files.get("var/lib/kafka/data").directory()).isTrue();
        assertThat(files.get("var/lib/kafka/data").mode()).isEqualTo(0777);
        assertThat(files.get("tmp").mode()).isEqualTo(0777);
    }

    @Test
    void theApplicationLayersHoldTheBrokerButNotTestcontainers() {
        assertThat(files.keySet()).anyMatch(p -> p.matches("app/libs/odradek-broker-.*\\.jar"))
                .anyMatch(p -> p.matches("app/libs/slf4j-api-2\\..*\\.jar"))
                .noneMatch(p -> p.contains("testcontainers") || p.contains("docker-java") || p.contains("junit"));
    }

    @Test
    void theImageStaysSmall() throws Exception {
        long size = Files.size(ImageArchive.built());
        System.out.printf("odradek-image.tar: %.1f MiB%n", size / 1024.0 / 1024.0);
        assertThat(size).isLessThan(MAX_IMAGE_BYTES);
    }
}
