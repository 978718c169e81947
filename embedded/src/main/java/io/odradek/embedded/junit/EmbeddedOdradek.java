package io.odradek.embedded.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Starts an embedded Odradek broker (or cluster) for a JUnit 5 test class: once for the class (the default) or once
 * per test, with the listed topics created, and closes it (deleting its data) afterwards.
 *
 * <pre>{@code
 * @EmbeddedOdradek(topics = {"orders:3", "audit"}, bootstrapServersProperty = "spring.kafka.bootstrap-servers")
 * class OrderServiceTest {
 *     @BootstrapServers
 *     static String bootstrap;             // static or instance fields, or parameters
 *
 *     @Test
 *     void sendsAnOrder(Odradek kafka, @BootstrapServers String servers) {
 *         try (var producer = new KafkaProducer<String, String>(Map.of("bootstrap.servers", servers), ...)) { ... }
 *     }
 * }
 * }</pre>
 *
 * <p>Injected: parameters and fields (static or not; with {@link Lifecycle#PER_TEST} instance fields only, a static
 * one is refused) of type {@link io.odradek.embedded.Odradek}, and {@code String} ones annotated
 * {@link BootstrapServers}. Each broker has its own port and data directory, so test classes may run in parallel;
 * system properties, though, are one per JVM: with {@link #bootstrapServersProperty} set by classes running at the
 * same time, the property holds the latest running one's value, and the one it had before once all have ended.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(OdradekExtension.class)
public @interface EmbeddedOdradek {
    /** More than one: an in-process cluster (each broker also a controller of the Ratis quorum). */
    int brokers() default 1;

    /**
     * Topics created before the first test: "name" ({@code num.partitions} partitions, 1 unless configured),
     * "name:partitions" or "name:partitions:replicationFactor".
     */
    String[] topics() default {};

    /** Broker settings, "key=value" with Kafka's broker keys (e.g. "auto.create.topics.enable=false"). */
    String[] config() default {};

    Lifecycle lifecycle() default Lifecycle.PER_CLASS;

    /**
     * System properties set to the bootstrap servers while the broker runs (e.g.
     * "spring.kafka.bootstrap-servers"), and restored to their earlier value (or cleared) after.
     */
    String[] bootstrapServersProperty() default {};

    /** A Kafka release whose ApiVersions answer the broker gives (e.g. "2.8"); empty: the newest. */
    String emulateVersion() default "";
}
