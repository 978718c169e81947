package io.odradek.embedded.junit;

import io.odradek.embedded.Odradek;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A running Odradek kept in an extension context's store, which closes it when that context ends (the class, or
 * the test). Both interfaces: JUnit before 5.13 closes only a CloseableResource, later ones an AutoCloseable
 * (and warn about a value that is only the deprecated CloseableResource); closing twice does nothing.
 */
@SuppressWarnings("deprecation") // CloseableResource: kept for JUnit 5.9-5.12, which Spring Boot 3.x test stacks use
final class StoredOdradek implements ExtensionContext.Store.CloseableResource, AutoCloseable {
    private final Odradek odradek;

    StoredOdradek(Odradek odradek) {
        this.odradek = odradek;
    }

    Odradek odradek() {
        return odradek;
    }

    @Override
    public void close() {
        odradek.close();
    }
}
