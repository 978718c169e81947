package io.odradek.broker.faults;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.odradek.broker.BrokerConfig;
import io.odradek.wire.ErrorCode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * issue 11 (faults): the admin HTTP endpoint, on {@code odradek.admin.host}:{@code odradek.admin.port} and only when
 * the port is set (never by default: anyone who reaches it can break the broker's clients). JDK HttpServer, one
 * thread.
 * <pre>
 * POST   /faults?api=Produce&amp;error=NOT_LEADER_OR_FOLLOWER&amp;times=3[&amp;clientId=x]   next 3 Produce fail
 * POST   /faults?api=Fetch&amp;delayMs=500&amp;times=2                                  next 2 Fetch wait 500 ms
 * POST   /faults?api=Metadata&amp;drop=true&amp;times=1                                  next Metadata closes the connection
 * GET    /faults      the remaining rules, JSON
 * DELETE /faults      removes them all
 * </pre>
 * {@code times} defaults to 1 (at most {@link Faults#MAX_TIMES}); {@code delayMs} at most 5 minutes; at most
 * {@link Faults#MAX_RULES} rules at once. The parameters may also come as a form body. Bad input: 400 with a
 * one-line reason. A request with an Origin header (a web page's) or a Host that is not this endpoint's address
 * (DNS rebinding) is refused: 403 with a one-line reason.
 * Every answer that succeeds is the remaining rules: {@code {"rules":[{"api":"Produce","apiKey":0,"clientId":null,
 * "fault":"error","error":"NOT_LEADER_OR_FOLLOWER","remaining":3}]}}.
 */
public final class AdminEndpoint implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(AdminEndpoint.class.getName());
    public static final String PORT = "odradek.admin.port";
    public static final String HOST = "odradek.admin.host";

    private final HttpServer server;
    private final ExecutorService executor;
    private final Faults faults;

    private AdminEndpoint(HttpServer server, ExecutorService executor, Faults faults) {
        this.server = server;
        this.executor = executor;
        this.faults = faults;
    }

    /** The endpoint the config asks for, started; null when {@code odradek.admin.port} is not set. */
    public static AdminEndpoint start(BrokerConfig config, Faults faults) {
        String port = config.get(PORT);
        if (port == null) {
            return null;
        }
        String host = config.get(HOST);
        return start(new InetSocketAddress(host == null ? "127.0.0.1" : host, Integer.parseInt(port)), faults);
    }

    /** An endpoint on {@code address} (port 0: any free port) changing {@code faults}. */
    public static AdminEndpoint start(InetSocketAddress address, Faults faults) {
        HttpServer server;
        try {
            server = HttpServer.create(address, 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind the admin endpoint (" + PORT + ") to " + address, e);
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "odradek-admin-http");
            t.setDaemon(true);
            return t;
        });
        AdminEndpoint endpoint = new AdminEndpoint(server, executor, faults);
        server.createContext("/faults", endpoint::handle);
        server.setExecutor(executor);
        server.start();
        LOG.log(System.Logger.Level.INFO, "admin endpoint (fault injection) on http://"
                + server.getAddress().getHostString() + ":" + server.getAddress().getPort() + "/faults");
        return endpoint;
    }

    /** Where it listens (the actual port when 0 was asked for). */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String refused = refusedCaller(exchange);
            if (refused != null) {
                answer(exchange, 403, refused + "\n");
                return;
            }
            if (!exchange.getRequestURI().getPath().equals("/faults")) {
                answer(exchange, 404, "no such path: use /faults\n");
                return;
            }
            switch (exchange.getRequestMethod()) {
                case "GET" -> answer(exchange, 200, json(faults.rules()));
                case "DELETE" -> {
                    faults.clear();
                    answer(exchange, 200, json(faults.rules()));
                }
                case "POST" -> {
                    try {
                        add(parameters(exchange));
                    } catch (IllegalArgumentException e) {
                        answer(exchange, 400, oneLine(e.getMessage()) + "\n");
                        return;
                    }
                    answer(exchange, 200, json(faults.rules()));
                }
                default -> {
                    exchange.getResponseHeaders().set("Allow", "GET, POST, DELETE");
                    answer(exchange, 405, "method " + oneLine(exchange.getRequestMethod()) + " not allowed\n");
                }
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "admin endpoint request failed", e);
        }
    }

    /**
     * Why a request must not be served, or null. A web page in a developer's browser can send a form POST to a
     * loopback port (CSRF), or reach it under its own host name after DNS rebinding: browsers mark the first with an
     * Origin header (curl and the Java clients send none) and the second with a Host that is not this address.
     */
    private String refusedCaller(HttpExchange exchange) {
        if (exchange.getRequestHeaders().containsKey("Origin")) {
            return "requests from web pages (Origin header) are refused";
        }
        String host = exchange.getRequestHeaders().getFirst("Host");
        if (host == null) {
            return null; // HTTP/1.0 without one: not a browser
        }
        String name = hostName(host.trim());
        InetSocketAddress bound = server.getAddress();
        boolean allowed = name.equalsIgnoreCase("localhost") || name.equals("127.0.0.1") || name.equals("[::1]")
                || name.equalsIgnoreCase(bound.getHostString())
                || (bound.getAddress() != null && (name.equals(bound.getAddress().getHostAddress())
                        || name.equals("[" + bound.getAddress().getHostAddress() + "]")))
                // bound to every interface: any address literal is one of ours; a name could be rebound
                || (bound.getAddress() != null && bound.getAddress().isAnyLocalAddress() && isAddressLiteral(name));
        return allowed ? null : "Host " + oneLine(name) + " is not this endpoint's address";
    }

    /** The host part of a Host header: "name:port" or "[v6]:port" without the port. */
    private static String hostName(String host) {
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            return end < 0 ? host : host.substring(0, end + 1);
        }
        int colon = host.indexOf(':');
        return colon < 0 ? host : host.substring(0, colon);
    }

    private static boolean isAddressLiteral(String name) {
        return name.startsWith("[") || name.matches("\\d{1,3}(\\.\\d{1,3}){3}");
    }

    /** One rule from the parameters: api, times, clientId and exactly one of error, delayMs, drop=true. */
    private void add(Map<String, String> params) {
        for (String name : params.keySet()) {
            if (!List.of("api", "times", "clientId", "error", "delayMs", "drop").contains(name)) {
                throw new IllegalArgumentException("unknown parameter " + name
                        + " (api, times, clientId, and one of error, delayMs, drop=true)");
            }
        }
        String api = params.get("api");
        if (api == null) {
            throw new IllegalArgumentException("api is required (e.g. api=Produce)");
        }
        int times = integer(params, "times", 1);
        String clientId = params.get("clientId");
        String error = params.get("error");
        String delay = params.get("delayMs");
        String drop = params.get("drop");
        int kinds = (error != null ? 1 : 0) + (delay != null ? 1 : 0) + (drop != null ? 1 : 0);
        if (kinds != 1) {
            throw new IllegalArgumentException("give exactly one of error=NAME, delayMs=N, drop=true");
        }
        if (error != null) {
            faults.failNext(api, clientId, times, error);
        } else if (delay != null) {
            faults.delayNext(api, clientId, times, Duration.ofMillis(integer(params, "delayMs", 0)));
        } else {
            if (!drop.equals("true")) {
                throw new IllegalArgumentException("drop must be true, not " + drop);
            }
            faults.dropNext(api, clientId, times);
        }
    }

    private static int integer(Map<String, String> params, String name, int absent) {
        String value = params.get(name);
        if (value == null) {
            return absent;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number, not " + value);
        }
    }

    /** The query's parameters, or a form body's when the query has none. */
    private static Map<String, String> parameters(HttpExchange exchange) throws IOException {
        String query = exchange.getRequestURI().getRawQuery();
        if (query == null || query.isEmpty()) {
            try (InputStream in = exchange.getRequestBody()) {
                query = new String(in.readNBytes(8192), StandardCharsets.UTF_8).trim();
            }
        }
        Map<String, String> params = new HashMap<>();
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            if (params.put(name, value) != null) {
                throw new IllegalArgumentException("parameter " + name + " given twice");
            }
        }
        return params;
    }

    /** {@code {"rules":[...]}} in the order the rules apply. */
    static String json(List<FaultRule> rules) {
        StringBuilder out = new StringBuilder("{\"rules\":[");
        for (int i = 0; i < rules.size(); i++) {
            FaultRule r = rules.get(i);
            out.append(i == 0 ? "" : ",").append("{\"api\":").append(string(r.api()))
                    .append(",\"apiKey\":").append(r.apiKey())
                    .append(",\"clientId\":").append(r.clientId() == null ? "null" : string(r.clientId()));
            if (r.fault() instanceof Fault.Error e) {
                out.append(",\"fault\":\"error\",\"error\":").append(string(ErrorCode.forCode(e.errorCode()).name()));
            } else if (r.fault() instanceof Fault.Delay d) {
                out.append(",\"fault\":\"delay\",\"delayMs\":").append(d.millis());
            } else {
                out.append(",\"fault\":\"drop\"");
            }
            out.append(",\"remaining\":").append(r.remaining()).append('}');
        }
        return out.append("]}\n").toString();
    }

    private static String string(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("[\\r\\n]+", " ");
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type",
                body.startsWith("{") ? "application/json" : "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
