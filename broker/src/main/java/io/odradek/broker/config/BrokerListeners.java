package io.odradek.broker.config;

import io.odradek.security.SecurityProtocol;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The broker's listeners as Kafka 4.4 resolves and checks them (AbstractKafkaConfig, SocketServerConfigs,
 * KafkaConfig.validateValues), with Kafka's messages: {@code listeners} with each listener's protocol from
 * {@code listener.security.protocol.map} (Kafka's default map, plus CONTROLLER:PLAINTEXT style entries for the
 * controller listeners when the map is not set and nothing uses SSL or SASL), the advertised endpoints
 * ({@code advertised.listeners}, else {@code listeners}; only the ones named there are advertised), and the
 * inter-broker listener ({@code inter.broker.listener.name}, else the listener named after
 * {@code security.inter.broker.protocol}), which must be advertised.
 *
 * <p>A wildcard or empty host is advertised as 127.0.0.1 (Kafka advertises the canonical host name); an
 * advertised port 0 means the port the listener of that name bound.
 */
public final class BrokerListeners {
    // Kafka's URI_PARSE_REGEXP: a name, "://", an optionally bracketed host, ":", a port.
    private static final Pattern ENDPOINT = Pattern.compile("^(.*)://\\[?([0-9a-zA-Z\\-%._:]*)\\]?:(-?[0-9]+)$");
    private static final String MAP_KEY = "listener.security.protocol.map";

    /** What the resolution reads, as given (null: not set). */
    public record Settings(List<String> listeners, List<String> advertisedListeners, String protocolMap,
            boolean protocolMapSet, List<String> controllerListenerNames, String interBrokerListenerName,
            String interBrokerProtocol, boolean interBrokerProtocolSet, boolean brokerRoleNamed,
            String saslMechanismInterBroker, Map<String, String> originals) {
    }

    private final List<ListenerConfig> all;
    private final List<ListenerConfig> brokers;
    private final List<Listener> advertised;
    private final String interBrokerName;
    private final SecurityProtocol interBrokerProtocol;

    private BrokerListeners(List<ListenerConfig> all, List<ListenerConfig> brokers, List<Listener> advertised,
            String interBrokerName, SecurityProtocol interBrokerProtocol) {
        this.all = all;
        this.brokers = brokers;
        this.advertised = advertised;
        this.interBrokerName = interBrokerName;
        this.interBrokerProtocol = interBrokerProtocol;
    }

    public static BrokerListeners resolve(Settings s) {
        List<String> controllerNames = s.controllerListenerNames().stream()
                .map(n -> n.toUpperCase(Locale.ROOT)).toList();
        Map<String, SecurityProtocol> protocols = effectiveProtocolMap(s, controllerNames);
        refuseSecuredControllerListeners(controllerNames, protocols);
        List<ListenerConfig> all = endpoints(s.listeners(), protocols, true, s.originals());
        List<ListenerConfig> brokers = all.stream().filter(l -> !controllerNames.contains(l.name())).toList();
        List<ListenerConfig> advertisedAll = s.advertisedListeners() == null ? all
                : endpoints(s.advertisedListeners(), protocols, false, s.originals());
        List<Listener> advertised = advertisedAll.stream().map(ListenerConfig::listener)
                .filter(l -> !controllerNames.contains(l.name())).toList();

        // The inter-broker listener (AbstractKafkaConfig.interBrokerListenerNameAndSecurityProtocol).
        String interBrokerName;
        SecurityProtocol interBrokerProtocol;
        if (s.interBrokerListenerName() != null && !s.interBrokerListenerName().isBlank()) {
            if (s.interBrokerProtocolSet()) {
                throw new ConfigException("Only one of inter.broker.listener.name and security.inter.broker.protocol"
                        + " should be set.");
            }
            interBrokerName = s.interBrokerListenerName().trim().toUpperCase(Locale.ROOT);
            interBrokerProtocol = protocols.get(interBrokerName);
            if (interBrokerProtocol == null) {
                throw new ConfigException("Listener with name " + interBrokerName + " defined in "
                        + "inter.broker.listener.name not found in " + MAP_KEY + ".");
            }
        } else {
            interBrokerProtocol = protocol(s.interBrokerProtocol(), "security.inter.broker.protocol");
            interBrokerName = interBrokerProtocol.name();
        }
        // A single node (no process.roles) never dials another broker: when neither inter-broker key is set and the
        // default (a listener named PLAINTEXT) is not there, its first listener stands in, so a lone SSL or SASL
        // listener needs no inter-broker keys (Kafka, always a cluster member, insists on them).
        boolean standIn = !s.brokerRoleNamed() && !s.interBrokerProtocolSet()
                && (s.interBrokerListenerName() == null || s.interBrokerListenerName().isBlank())
                && advertised.stream().noneMatch(l -> l.name().equals(interBrokerName));
        if (standIn && !advertised.isEmpty()) {
            String first = advertised.get(0).name();
            return resolved(s, all, brokers, advertised, first, protocols.get(first), false);
        }
        return resolved(s, all, brokers, advertised, interBrokerName, interBrokerProtocol, true);
    }

    private static BrokerListeners resolved(Settings s, List<ListenerConfig> all, List<ListenerConfig> brokers,
            List<Listener> advertised, String interBrokerName, SecurityProtocol interBrokerProtocol,
            boolean checkInterBrokerSasl) {

        // KafkaConfig.validateValues, the checks of every broker.
        List<String> advertisedNames = advertised.stream().map(Listener::name).toList();
        List<String> listenerNames = all.stream().map(ListenerConfig::name).toList();
        if (advertisedNames.isEmpty()) {
            throw new ConfigException("There must be at least one broker advertised listener."
                    + (s.brokerRoleNamed() ? " Perhaps all listeners appear in controller.listener.names?" : ""));
        }
        if (!advertisedNames.contains(interBrokerName)) {
            throw new ConfigException("inter.broker.listener.name must be a listener name defined in advertised.listeners."
                    + " The valid options based on currently configured listeners are " + String.join(",", advertisedNames));
        }
        if (!listenerNames.containsAll(advertisedNames)) {
            throw new ConfigException("advertised.listeners listener names must be equal to or a subset of the ones"
                    + " defined in listeners. Found " + String.join(",", advertisedNames) + ". The valid options based on"
                    + " the current configuration are " + String.join(",", listenerNames));
        }
        if (s.advertisedListeners() != null && advertised.stream().anyMatch(l -> l.isWildcard() && !l.host().isEmpty())) {
            throw new ConfigException("advertised.listeners cannot use the nonroutable meta-address 0.0.0.0."
                    + " Use a routable IP address.");
        }
        if (checkInterBrokerSasl && interBrokerProtocol.usesSasl()) {
            ListenerConfig ib = all.stream().filter(l -> l.name().equals(interBrokerName)).findFirst().orElseThrow();
            List<String> enabled = List.of(ib.get("sasl.enabled.mechanisms", "GSSAPI").trim().split("\\s*,\\s*"));
            if (!enabled.contains(s.saslMechanismInterBroker())) {
                throw new ConfigException("sasl.mechanism.inter.broker.protocol must be included in"
                        + " sasl.enabled.mechanisms when SASL is used for inter-broker communication");
            }
        }
        // Wildcard or empty hosts cannot be dialled: advertise the loopback address instead.
        List<Listener> dialable = advertised.stream()
                .map(l -> l.isWildcard() ? new Listener(l.name(), "127.0.0.1", l.port()) : l).toList();
        return new BrokerListeners(all, brokers, dialable, interBrokerName, interBrokerProtocol);
    }

    /** Every listener of {@code listeners}, controller ones included, in the order given. */
    public List<ListenerConfig> all() {
        return all;
    }

    /** The listeners brokers and clients connect to (not the controller listeners), in the order given. */
    public List<ListenerConfig> brokerListeners() {
        return brokers;
    }

    /** The endpoints this broker registers and gives clients (port 0: the bound port of that listener). */
    public List<Listener> advertised() {
        return advertised;
    }

    public String interBrokerListenerName() {
        return interBrokerName;
    }

    public SecurityProtocol interBrokerProtocol() {
        return interBrokerProtocol;
    }

    /**
     * Odradek's controller quorum (Ratis, bound on the controller.quorum.voters addresses) has no TLS and no SASL:
     * a controller listener mapped to SSL or SASL_* would be served in plaintext all the same, so it is refused
     * rather than silently downgraded (Kafka would secure it).
     */
    private static void refuseSecuredControllerListeners(List<String> controllerNames,
            Map<String, SecurityProtocol> protocols) {
        for (String name : controllerNames) {
            SecurityProtocol p = protocols.get(name);
            if (p != null && p != SecurityProtocol.PLAINTEXT) {
                throw new ConfigException("Controller listener " + name + " maps to " + p + " in " + MAP_KEY
                        + ", but the controller quorum only runs PLAINTEXT in Odradek (it is neither encrypted nor"
                        + " authenticated): map " + name + " to PLAINTEXT and keep the controller.quorum.voters"
                        + " addresses on a trusted network.");
            }
        }
    }

    /** AbstractKafkaConfig.effectiveListenerSecurityProtocolMap. */
    private static Map<String, SecurityProtocol> effectiveProtocolMap(Settings s, List<String> controllerNames) {
        Map<String, SecurityProtocol> map = new LinkedHashMap<>();
        String spec = s.protocolMap() == null ? "" : s.protocolMap().trim();
        if (!spec.isEmpty()) {
            for (String entry : spec.split("\\s*,\\s*")) {
                int colon = entry.lastIndexOf(':');
                if (colon < 0) {
                    throw new ConfigException("Error parsing configuration property '" + MAP_KEY + "': entry '" + entry
                            + "' is not NAME:PROTOCOL");
                }
                map.put(entry.substring(0, colon).trim().toUpperCase(Locale.ROOT),
                        protocol(entry.substring(colon + 1).trim(), MAP_KEY));
            }
        }
        if (!s.protocolMapSet()) {
            boolean securityInUse = controllerNames.stream().anyMatch(BrokerListeners::isSslOrSasl)
                    || s.listeners().stream().anyMatch(l -> isSslOrSasl(nameOf(l)));
            if (!securityInUse) {
                controllerNames.stream().filter(n -> !n.equals("PLAINTEXT"))
                        .forEach(n -> map.put(n, SecurityProtocol.PLAINTEXT));
            }
        }
        return map;
    }

    private static SecurityProtocol protocol(String name, String key) {
        SecurityProtocol p = name == null ? null : SecurityProtocol.forName(name);
        if (p == null) {
            throw new ConfigException("Invalid security protocol `" + name + "` defined in " + key);
        }
        return p;
    }

    private static boolean isSslOrSasl(String name) {
        return name.equals("SSL") || name.equals("SASL_SSL") || name.equals("SASL_PLAINTEXT");
    }

    private static String nameOf(String spec) {
        int colon = spec.indexOf(':');
        return (colon < 0 ? spec : spec.substring(0, colon)).trim().toUpperCase(Locale.ROOT);
    }

    /** SocketServerConfigs.listenerListToEndPoints and AbstractKafkaConfig.validate. */
    private static List<ListenerConfig> endpoints(List<String> specs, Map<String, SecurityProtocol> protocols,
            boolean distinctPorts, Map<String, String> originals) {
        List<ListenerConfig> out = new ArrayList<>();
        for (String spec : specs) {
            Matcher m = ENDPOINT.matcher(spec.trim());
            if (!m.matches()) {
                throw creating(specs, "Unable to parse " + spec + " to a broker endpoint");
            }
            String name = m.group(1).trim().toUpperCase(Locale.ROOT);
            SecurityProtocol protocol = protocols.get(name);
            if (protocol == null) {
                throw creating(specs, "No security protocol defined for listener " + name);
            }
            int port;
            try {
                port = Integer.parseInt(m.group(3));
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (port < 0 || port > 65535) {
                throw creating(specs, "port " + m.group(3) + " of " + spec + " is not between 0 and 65535");
            }
            out.add(new ListenerConfig(new Listener(name, m.group(2), port), protocol, originals));
        }
        if (out.stream().map(ListenerConfig::name).distinct().count() != out.size()) {
            throw creating(specs, "Each listener must have a different name, listeners: " + specs);
        }
        if (distinctPorts) {
            Map<Integer, List<Listener>> byPort = out.stream().map(ListenerConfig::listener).filter(l -> l.port() != 0)
                    .collect(Collectors.groupingBy(Listener::port));
            for (List<Listener> same : byPort.values()) {
                if (same.size() > 1 && !(same.size() == 2 && oneIpv4OneIpv6(same.get(0).host(), same.get(1).host()))) {
                    throw creating(specs, "Each listener must have a different port unless exactly one listener has"
                            + " an IPv4 address and the other IPv6 address, listeners: " + specs + ", port: "
                            + same.get(0).port());
                }
            }
        }
        return List.copyOf(out);
    }

    private static ConfigException creating(List<String> specs, String why) {
        return new ConfigException("Error creating broker listeners from '" + specs + "': " + why);
    }

    private static boolean oneIpv4OneIpv6(String a, String b) {
        Class<?> first = literalKind(a);
        Class<?> second = literalKind(b);
        return first != second && first != Void.class && second != Void.class;
    }

    /** The kind of an IP literal (never a name lookup); Void for a host name or an empty host. */
    private static Class<?> literalKind(String host) {
        if (host.isEmpty() || !host.matches("[0-9a-fA-F:.%]+")) {
            return Void.class;
        }
        try {
            InetAddress address = InetAddress.getByName(host);
            return address instanceof Inet4Address ? Inet4Address.class : Inet6Address.class;
        } catch (UnknownHostException e) {
            return Void.class;
        }
    }
}
