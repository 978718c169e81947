package io.odradek.broker.api;

import io.odradek.wire.api.ApiSpec;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one table of what this broker handles: API key to handler. ApiVersions advertises exactly these
 * APIs at their specs' version ranges, so what is advertised and what is handled cannot drift apart.
 */
public final class ApiRegistry {
    private final Map<Short, ApiHandler> handlers = new TreeMap<>();

    public ApiRegistry register(ApiHandler handler) {
        ApiSpec api = handler.api();
        if (handlers.putIfAbsent(api.key(), handler) != null) {
            throw new IllegalStateException("two handlers for " + api.name());
        }
        return this;
    }

    /** The handler for a key, or null when the API is not handled here. */
    public ApiHandler handler(short key) {
        return handlers.get(key);
    }

    public Collection<ApiHandler> handlers() {
        return Collections.unmodifiableCollection(handlers.values());
    }
}
