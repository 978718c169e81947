package io.odradek.broker.config;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One entry of {@code listeners} or {@code advertised.listeners}: {@code NAME://host:port}, where an empty
 * host means every interface and an IPv6 host is written in brackets ({@code PLAINTEXT://[::1]:9092}).
 */
public record Listener(String name, String host, int port) {
    // Kafka's own listener pattern: the name, "://", an optionally bracketed host, ":", the port. Names may have
    // '-' (issue 11: Testcontainers' KafkaContainer.withListener adds listeners named TC-0, TC-1...).
    private static final Pattern SPEC = Pattern.compile("^([A-Za-z0-9_\\-]+)://\\[?([0-9a-zA-Z\\-%._:]*)\\]?:(-?[0-9]+)$");

    public static Listener parse(String key, String spec) {
        Matcher m = SPEC.matcher(spec.trim());
        if (!m.matches()) {
            throw ConfigException.invalid(key, spec, "expected NAME://host:port, e.g. PLAINTEXT://127.0.0.1:9092");
        }
        int port;
        try {
            port = Integer.parseInt(m.group(3));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 0 || port > 65535) {
            throw ConfigException.invalid(key, spec, "port must be between 0 and 65535");
        }
        return new Listener(m.group(1).toUpperCase(java.util.Locale.ROOT), m.group(2), port);
    }

    /** Every entry of a listener list, rejecting a name used twice. */
    public static List<Listener> parseAll(String key, List<String> specs) {
        List<Listener> listeners = new ArrayList<>();
        for (String spec : specs) {
            Listener l = parse(key, spec);
            if (listeners.stream().anyMatch(other -> other.name.equals(l.name))) {
                throw ConfigException.invalid(key, String.join(",", specs), "listener name " + l.name + " is used twice");
            }
            listeners.add(l);
        }
        return List.copyOf(listeners);
    }

    /** Empty, 0.0.0.0 or :: — the host of a listener that accepts on every interface. */
    public boolean isWildcard() {
        return host.isEmpty() || host.equals("0.0.0.0") || host.equals("::") || host.matches("[0:]+");
    }

    /** The address to bind: the wildcard address (IPv4 and IPv6) when the host is empty or a wildcard. */
    public java.net.InetSocketAddress bindAddress() {
        return isWildcard() ? new java.net.InetSocketAddress(port) : new java.net.InetSocketAddress(host, port);
    }

    @Override
    public String toString() {
        return name + "://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
