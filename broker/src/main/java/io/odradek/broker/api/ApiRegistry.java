package io.odradek.broker.api;

import io.odradek.wire.api.ApiSpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one table of what this broker handles and offers: API key to handler, and the {@link ApiVersionCap} that
 * decides which of the handled versions are advertised and taken (all of them, unless {@code odradek.emulate.version}
 * names an older Kafka release). ApiVersions lists exactly {@link #advertised()}, and the dispatcher refuses any
 * request {@link #accepts} does not, so what is advertised and what is served cannot drift apart.
 */
public final class ApiRegistry {
    private final Map<Short, ApiHandler> handlers = new TreeMap<>();
    private final ApiVersionCap cap;

    public ApiRegistry() {
        this(ApiVersionCap.NONE);
    }

    public ApiRegistry(ApiVersionCap cap) {
        this.cap = cap;
    }

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

    /** The emulation in force (or {@link ApiVersionCap#NONE}). */
    public ApiVersionCap cap() {
        return cap;
    }

    /** What ApiVersions lists, by key: each handled API's range as capped; APIs an emulated release lacks left out. */
    public List<ApiVersionCap.Range> advertised() {
        List<ApiVersionCap.Range> ranges = new ArrayList<>(handlers.size());
        for (ApiHandler handler : handlers.values()) {
            ApiVersionCap.Range range = cap.advertised(handler.api());
            if (range != null) {
                ranges.add(range);
            }
        }
        return ranges;
    }

    /** Whether a decoded request of this API and version is served (see {@link ApiVersionCap#allows}). */
    public boolean accepts(ApiSpec api, short version) {
        return cap.allows(api, version);
    }
}
