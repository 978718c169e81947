package io.odradek.compat.external;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the external client wrappers share: options go to a script as one JSON argument, and come back as JSON
 * events printed on stdout, one a line; the client's debug log on stderr names the requests it sent.
 */
final class ClientOutput {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ClientOutput() {
    }

    /** The options as the one JSON argument the scripts take. */
    static String json(Object options) throws JsonProcessingException {
        return JSON.writeValueAsString(options);
    }

    /** The JSON objects the client printed on stdout, one a line; other lines are skipped. */
    static List<JsonNode> events(Subprocess.Result r) throws JsonProcessingException {
        List<JsonNode> events = new ArrayList<>();
        for (String line : r.stdoutLines()) {
            if (line.startsWith("{")) {
                events.add(JSON.readTree(line));
            }
        }
        return events;
    }

    /** The events whose {@code event} field is {@code type}. */
    static List<JsonNode> ofType(List<JsonNode> events, String type) {
        return events.stream().filter(e -> type.equals(e.path("event").asText())).toList();
    }

    /** "Fetch v3" for each request the log names; {@code request}'s groups are the API name and the version. */
    static TreeSet<String> requestsSent(Pattern request, String log) {
        TreeSet<String> sent = new TreeSet<>();
        Matcher m = request.matcher(log);
        while (m.find()) {
            sent.add(m.group(1) + " v" + m.group(2));
        }
        return sent;
    }
}
