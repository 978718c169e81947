package io.odradek.broker.metrics.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * Every path but {@code /metrics}: the probes. {@code /health/live} and {@code /health/ready} (Kubernetes-style
 * aliases {@code /livez}, {@code /readyz}) answer 200 "OK" or 503 with the reason, in plain text; {@code /} lists
 * the paths; anything else is 404.
 */
final class HealthHandler implements HttpHandler {
    static final String LIVE = "/health/live";
    static final String READY = "/health/ready";

    private final BrokerHealth health;

    HealthHandler(BrokerHealth health) {
        this.health = health;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            switch (path) {
                case LIVE, "/livez" -> answer(exchange, health::live);
                case READY, "/readyz" -> answer(exchange, health::ready);
                case "/" -> send(exchange, 200, "Odradek: /metrics " + LIVE + " " + READY + "\n");
                default -> send(exchange, 404, "not found: " + path + "\n");
            }
        }
    }

    private static void answer(HttpExchange exchange, Supplier<BrokerHealth.Status> probe) throws IOException {
        BrokerHealth.Status status = probe.get();
        if (status.ok()) {
            send(exchange, 200, "OK\n");
        } else {
            send(exchange, 503, status.reason() + "\n");
        }
    }

    private static void send(HttpExchange exchange, int code, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        boolean head = "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(code, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }
}
