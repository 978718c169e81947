package io.odradek.broker.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.odradek.broker.BrokerConfig;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** issue 11 (faults): the admin endpoint's HTTP surface over a Faults of its own. */
class AdminEndpointTest {
    private final Faults faults = new Faults();
    private final HttpClient http = HttpClient.newHttpClient();
    private AdminEndpoint endpoint;
    private String base;

    @BeforeEach
    void start() {
        endpoint = AdminEndpoint.start(new InetSocketAddress("127.0.0.1", 0), faults);
        base = "http://127.0.0.1:" + endpoint.address().getPort();
    }

    @AfterEach
    void stop() {
        endpoint.close();
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/x-www-form-urlencoded").build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void postedRulesAreListedInOrderAsJson() throws Exception {
        send("POST", "/faults?api=Produce&error=not_leader_or_follower&times=3&clientId=a%22b", null);
        send("POST", "/faults?api=1&delayMs=250&times=2", null);
        HttpResponse<String> last = send("POST", "/faults", "api=Metadata&drop=true");
        assertThat(last.statusCode()).isEqualTo(200);
        assertThat(last.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(last.body()).isEqualTo("{\"rules\":["
                + "{\"api\":\"Produce\",\"apiKey\":0,\"clientId\":\"a\\\"b\",\"fault\":\"error\","
                + "\"error\":\"NOT_LEADER_OR_FOLLOWER\",\"remaining\":3},"
                + "{\"api\":\"Fetch\",\"apiKey\":1,\"clientId\":null,\"fault\":\"delay\",\"delayMs\":250,\"remaining\":2},"
                + "{\"api\":\"Metadata\",\"apiKey\":3,\"clientId\":null,\"fault\":\"drop\",\"remaining\":1}]}\n");
        assertThat(send("GET", "/faults", null).body()).isEqualTo(last.body());
        assertThat(faults.next((short) 3, (short) 12, "x")).isEqualTo(new Fault.Drop());
    }

    @Test
    void deleteClearsEveryRule() throws Exception {
        faults.dropNext("Produce", null, 4);
        HttpResponse<String> cleared = send("DELETE", "/faults", null);
        assertThat(cleared.statusCode()).isEqualTo(200);
        assertThat(cleared.body()).isEqualTo("{\"rules\":[]}\n");
        assertThat(faults.rules()).isEmpty();
    }

    @Test
    void badInputIsRefusedWithOneLineSayingWhy() throws Exception {
        assertThat(refusal("/faults?error=NOT_LEADER_OR_FOLLOWER")).isEqualTo("api is required (e.g. api=Produce)");
        assertThat(refusal("/faults?api=Produce")).isEqualTo("give exactly one of error=NAME, delayMs=N, drop=true");
        assertThat(refusal("/faults?api=Produce&error=X&drop=true"))
                .isEqualTo("give exactly one of error=NAME, delayMs=N, drop=true");
        assertThat(refusal("/faults?api=Produce&error=NOT_A_REAL_ERROR")).startsWith("unknown error NOT_A_REAL_ERROR");
        assertThat(refusal("/faults?api=Nope&drop=true")).startsWith("unknown API Nope");
        assertThat(refusal("/faults?api=CreateAcls&error=NOT_CONTROLLER"))
                .startsWith("cannot inject errors into CreateAcls (key 30)");
        assertThat(refusal("/faults?api=Fetch&delayMs=soon")).isEqualTo("delayMs must be a number, not soon");
        assertThat(refusal("/faults?api=Fetch&drop=yes")).isEqualTo("drop must be true, not yes");
        assertThat(refusal("/faults?api=Fetch&drop=true&times=0")).isEqualTo("times must be at least 1, not 0");
        assertThat(refusal("/faults?api=Fetch&drop=true&client=x")).startsWith("unknown parameter client");
        assertThat(faults.rules()).isEmpty();
    }

    private String refusal(String path) throws Exception {
        HttpResponse<String> response = send("POST", path, null);
        assertThat(response.statusCode()).as(path).isEqualTo(400);
        assertThat(response.body()).endsWith("\n").hasLineCount(1);
        return response.body().trim();
    }

    @Test
    void otherPathsAndMethodsAreRefused() throws Exception {
        assertThat(send("GET", "/metrics", null).statusCode()).isEqualTo(404);
        HttpResponse<String> put = send("PUT", "/faults", "api=Produce");
        assertThat(put.statusCode()).isEqualTo(405);
        assertThat(put.headers().firstValue("Allow")).hasValue("GET, POST, DELETE");
    }

    @Test
    void noEndpointUnlessThePortIsConfigured() {
        assertThat(AdminEndpoint.start(BrokerConfig.of(Map.of("node.id", "1")), faults)).isNull();
        try (AdminEndpoint configured = AdminEndpoint.start(
                BrokerConfig.of(Map.of("node.id", "1", "odradek.admin.port", "0")), faults)) {
            assertThat(configured.address().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
            assertThat(configured.address().getPort()).isPositive();
        }
    }

    @Test
    void aRequestFromAWebPageIsRefused() throws Exception {
        HttpResponse<String> fromPage = http.send(HttpRequest.newBuilder(URI.create(base + "/faults"))
                .POST(HttpRequest.BodyPublishers.ofString("api=Produce&drop=true"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Origin", "https://evil.example").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(fromPage.statusCode()).isEqualTo(403);
        assertThat(fromPage.body()).isEqualTo("requests from web pages (Origin header) are refused\n");
        assertThat(faults.rules()).isEmpty();
    }

    @Test
    void aHostHeaderNamingAnotherHostIsRefused() throws Exception {
        // DNS rebinding: a page on rebound.example reaches 127.0.0.1 with its own name in Host.
        assertThat(rawPost("rebound.example:" + endpoint.address().getPort()))
                .startsWith("HTTP/1.1 403").endsWith("\r\n\r\nHost rebound.example is not this endpoint's address\n");
        assertThat(faults.rules()).isEmpty();
        assertThat(rawPost("localhost:" + endpoint.address().getPort())).startsWith("HTTP/1.1 200");
        assertThat(rawPost("127.0.0.1")).startsWith("HTTP/1.1 200");
        assertThat(faults.rules()).hasSize(2);
    }

    /** A POST adding a drop rule for Produce, with the Host header given; the whole answer. */
    private String rawPost(String host) throws Exception {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", endpoint.address().getPort())) {
            socket.getOutputStream().write(("POST /faults?api=Produce&drop=true HTTP/1.1\r\nHost: " + host
                    + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    @Test
    void rulesAndDelaysAreBounded() throws Exception {
        assertThat(refusal("/faults?api=Fetch&delayMs=300001"))
                .isEqualTo("delay must be at most 5 minutes (300000 ms), not 300001 ms");
        assertThat(refusal("/faults?api=Fetch&drop=true&times=1000001"))
                .isEqualTo("times must be at most 1000000, not 1000001");
        for (int i = 0; i < 1000; i++) {
            faults.dropNext("Fetch", "c" + i, 1);
        }
        assertThat(refusal("/faults?api=Fetch&drop=true"))
                .isEqualTo("at most 1000 rules at a time: clear them (DELETE /faults) or let some run out");
        assertThat(faults.rules()).hasSize(1000);
    }
}
