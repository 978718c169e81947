package io.odradek.wire.oracle;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.ZipEntry;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

/**
 * One release of kafka-clients as an oracle: its JSON message schemas and its generated message classes
 * ({@code org.apache.kafka.common.message.*Data}), reached by name through the release's own class loader.
 *
 * <p>{@link #CURRENT} is Kafka 4.4 on the test classpath. {@link #KAFKA_3_9} is Kafka 3.9.1, the oracle for the
 * versions Kafka 4 dropped (KIP-896): its jar cannot share the classpath with 4.4's (same class names), so the
 * build copies it (with slf4j) to {@code target/kafka-3.9/} and it is loaded here by a class loader whose parent is the
 * platform loader, which does not see 4.4. Objects of either release are handled as {@code Object} and
 * reached reflectively, the same code for both.
 */
public final class KafkaRelease {
    private static final String MESSAGES = "org.apache.kafka.common.message.";
    private static final String PROTOCOL = "org.apache.kafka.common.protocol.";

    public static final KafkaRelease CURRENT = new KafkaRelease("4.4", KafkaRelease.class.getClassLoader(), null);
    public static final KafkaRelease KAFKA_3_9 = load39();

    private final String name;
    private final ClassLoader loader;
    /** The jar the schemas are read from, or null to read them from {@link #loader}. */
    private final Path jar;
    private final Map<String, KafkaMessageSpec> specs = new ConcurrentHashMap<>();

    private KafkaRelease(String name, ClassLoader loader, Path jar) {
        this.name = name;
        this.loader = loader;
        this.jar = jar;
    }

    private static KafkaRelease load39() {
        Path dir = Path.of("target/kafka-3.9");
        Path jar = dir.resolve("kafka-clients-3.9.1.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar.toAbsolutePath() + " is missing: maven-dependency-plugin copies it"
                    + " in generate-test-resources (run the tests through Maven once)");
        }
        try (Stream<Path> jars = Files.list(dir)) {
            List<URL> urls = new ArrayList<>();
            for (Path p : jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
                urls.add(p.toUri().toURL());
            }
            URLClassLoader loader = new URLClassLoader("kafka-3.9.1", urls.toArray(URL[]::new),
                    ClassLoader.getPlatformClassLoader());
            return new KafkaRelease("3.9.1", loader, jar);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String name() {
        return name;
    }

    /** The JSON schema {@code common/message/<name>.json} of this release, e.g. {@code "ProduceRequest"}. */
    public KafkaMessageSpec spec(String message) {
        return specs.computeIfAbsent(message, this::readSpec);
    }

    private KafkaMessageSpec readSpec(String message) {
        String entry = "common/message/" + message + ".json";
        if (jar == null) {
            return KafkaMessageSpec.load(message);
        }
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            ZipEntry e = zip.getEntry(entry);
            if (e == null) {
                throw new IllegalArgumentException("no " + entry + " in " + jar);
            }
            try (InputStream in = zip.getInputStream(e)) {
                return KafkaMessageSpec.parse(message, new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Class<?> messageClass(String message) {
        return type(MESSAGES + message + "Data");
    }

    public Class<?> type(String className) {
        try {
            return Class.forName(className, true, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("kafka-clients " + name + " has no " + className, e);
        }
    }

    /** Parses {@code bytes} with the release's generated class; fails if it leaves any unread. */
    public Object read(String message, byte[] bytes, short version) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        Object parsed = construct(messageClass(message), new Class<?>[] {type(PROTOCOL + "Readable"), short.class},
                accessor(in), version);
        if (in.hasRemaining()) {
            throw new AssertionError("Kafka " + name + " left " + in.remaining() + " bytes unread of " + message
                    + " v" + version + ": " + parsed);
        }
        return parsed;
    }

    /** The bytes of a generated message at a version, as the release writes them. */
    public byte[] write(Object message, short version) {
        Class<?> cacheType = type(PROTOCOL + "ObjectSerializationCache");
        Object cache = construct(cacheType, new Class<?>[0]);
        Class<?> messageType = type(PROTOCOL + "Message");
        int size = (Integer) call(messageType, "size", new Class<?>[] {cacheType, short.class}, message, cache, version);
        ByteBuffer out = ByteBuffer.allocate(size);
        call(messageType, "write", new Class<?>[] {type(PROTOCOL + "Writable"), cacheType, short.class}, message,
                accessor(out), cache, version);
        if (out.hasRemaining()) {
            throw new AssertionError("Kafka " + name + " wrote " + out.position() + " of the " + size + " bytes it sized");
        }
        return out.array();
    }

    /** An {@code org.apache.kafka.common.Uuid}. */
    public Object uuid(long high, long low) {
        return construct(type("org.apache.kafka.common.Uuid"), new Class<?>[] {long.class, long.class}, high, low);
    }

    /** A {@code MemoryRecords} over these bytes (Kafka 4.4 moved the class to {@code record.internal}). */
    public Object memoryRecords(byte[] bytes) {
        Class<?> records;
        try {
            records = Class.forName("org.apache.kafka.common.record.internal.MemoryRecords", true, loader);
        } catch (ClassNotFoundException e) {
            records = type("org.apache.kafka.common.record.MemoryRecords");
        }
        return call(records, "readableRecords", new Class<?>[] {ByteBuffer.class}, null, ByteBuffer.wrap(bytes));
    }

    private Object accessor(ByteBuffer buffer) {
        return construct(type(PROTOCOL + "ByteBufferAccessor"), new Class<?>[] {ByteBuffer.class}, buffer);
    }

    private static Object construct(Class<?> type, Class<?>[] parameters, Object... args) {
        try {
            return type.getConstructor(parameters).newInstance(args);
        } catch (InvocationTargetException e) {
            throw rethrow(e);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot construct " + type.getName(), e);
        }
    }

    private static Object call(Class<?> type, String method, Class<?>[] parameters, Object target, Object... args) {
        try {
            return type.getMethod(method, parameters).invoke(target, args);
        } catch (InvocationTargetException e) {
            throw rethrow(e);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot call " + type.getName() + "." + method, e);
        }
    }

    /** Kafka's own exception (e.g. "Can't read version 0"), unwrapped so the test shows it. */
    private static RuntimeException rethrow(InvocationTargetException e) {
        Throwable cause = e.getCause();
        if (cause instanceof RuntimeException r) {
            return r;
        }
        if (cause instanceof Error err) {
            throw err;
        }
        return new IllegalStateException(cause);
    }

    @Override
    public String toString() {
        return "Kafka " + name;
    }
}
