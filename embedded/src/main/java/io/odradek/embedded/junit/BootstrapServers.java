package io.odradek.embedded.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a {@code String} parameter or field of a test class annotated {@link EmbeddedOdradek}: the broker's
 * {@code bootstrap.servers} ("127.0.0.1:port[,...]") is injected there.
 */
@Target({ElementType.PARAMETER, ElementType.FIELD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface BootstrapServers {
}
