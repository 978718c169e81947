package io.odradek.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The libraries the broker needs at the versions it was built with, checked before anything starts. A build that
 * manages Netty or the Prometheus client itself (every Spring Boot project: spring-boot-dependencies 3.5 pins Netty
 * 4.1 and prometheus-metrics 1.3) replaces odradek-embedded's transitive 4.2 / 1.10, and the broker would fail deep
 * inside its start with a NoClassDefFoundError (io/netty/channel/IoHandlerFactory); this says what was found and
 * which properties set it right.
 */
final class ClasspathCheck {
    /** Netty's 4.2 I/O model, which the broker's event loops are built on; absent from 4.1. */
    static final String NETTY_42_CLASS = "io.netty.channel.IoHandlerFactory";
    static final String NETTY_VERSION = "4.2.18.Final";
    static final String PROMETHEUS_VERSION = "1.10.0";
    private static final String PROMETHEUS_POM =
            "META-INF/maven/io.prometheus/prometheus-metrics-model/pom.properties";

    private ClasspathCheck() {
    }

    /** Throws IllegalStateException naming what was found and the fix, when Netty or prometheus-metrics is too old. */
    static void verify() {
        ClassLoader loader = ClasspathCheck.class.getClassLoader();
        String problem = problems(hasClass(loader, NETTY_42_CLASS), nettyVersion(), prometheusVersion(loader));
        if (problem != null) {
            throw new IllegalStateException(problem);
        }
    }

    /**
     * The message for what was found (null: all fine). {@code prometheus} null: not on the class path, or not from
     * its Maven jar (repackaged): not checked.
     */
    static String problems(boolean netty42, String netty, String prometheus) {
        List<String> found = new ArrayList<>();
        if (!netty42) {
            found.add("Netty " + (netty == null ? "older than 4.2" : netty) + " (the broker needs " + NETTY_VERSION
                    + ": " + NETTY_42_CLASS + " is missing)");
        }
        if (prometheus != null && older(prometheus, PROMETHEUS_VERSION)) {
            found.add("prometheus-metrics " + prometheus + " (the broker needs " + PROMETHEUS_VERSION + ")");
        }
        if (found.isEmpty()) {
            return null;
        }
        return "odradek-embedded cannot start: the class path has " + String.join(" and ", found)
                + ". Your build manages these versions (Spring Boot's dependency management does). With"
                + " spring-boot-starter-parent, set <netty.version>" + NETTY_VERSION + "</netty.version> and"
                + " <prometheus-client.version>" + PROMETHEUS_VERSION + "</prometheus-client.version> in your pom's"
                + " <properties>; importing spring-boot-dependencies instead, import io.netty:netty-bom:"
                + NETTY_VERSION + " and io.prometheus:prometheus-metrics-bom:" + PROMETHEUS_VERSION + " before it;"
                + " Gradle with the Spring dependency-management plugin: ext['netty.version'] and"
                + " ext['prometheus-client.version']";
    }

    private static boolean hasClass(ClassLoader loader, String name) {
        try {
            Class.forName(name, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** netty-transport's version as Netty records it in its jars, or null when it cannot tell. */
    private static String nettyVersion() {
        try {
            Map<String, io.netty.util.Version> versions = io.netty.util.Version.identify();
            io.netty.util.Version transport = versions.get("netty-transport");
            io.netty.util.Version any = transport != null ? transport : versions.get("netty-common");
            return any == null ? null : any.artifactVersion();
        } catch (LinkageError e) {
            return null;
        }
    }

    private static String prometheusVersion(ClassLoader loader) {
        try (InputStream in = loader.getResourceAsStream(PROMETHEUS_POM)) {
            if (in == null) {
                return null;
            }
            Properties pom = new Properties();
            pom.load(in);
            return pom.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + PROMETHEUS_POM, e);
        }
    }

    /** Whether dotted version {@code v} is below {@code min}, comparing the leading numbers (1.3.10 < 1.10.0). */
    static boolean older(String v, String min) {
        String[] a = v.split("[.-]");
        String[] b = min.split("[.-]");
        for (int i = 0; i < b.length; i++) {
            int x = i < a.length ? number(a[i]) : 0;
            int y = number(b[i]);
            if (x != y) {
                return x < y;
            }
        }
        return false;
    }

    private static int number(String part) {
        int end = 0;
        while (end < part.length() && Character.isDigit(part.charAt(end))) {
            end++;
        }
        return end == 0 ? 0 : Integer.parseInt(part.substring(0, end));
    }
}
