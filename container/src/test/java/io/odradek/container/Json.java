package io.odradek.container;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Just enough JSON to read an image's manifest.json and config (objects, arrays, strings, numbers, literals). */
final class Json {
    private final String text;
    private int pos;

    private Json(String text) {
        this.text = text;
    }

    /** Map, List, String, Double, Boolean or null. */
    static Object parse(String text) {
        Json json = new Json(text);
        Object value = json.value();
        json.skipSpace();
        if (json.pos != text.length()) {
            throw json.error("trailing characters");
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    static List<Object> array(Object value) {
        return (List<Object>) value;
    }

    private Object value() {
        skipSpace();
        char c = text.charAt(pos);
        switch (c) {
            case '{' -> {
                Map<String, Object> map = new LinkedHashMap<>();
                pos++;
                skipSpace();
                if (text.charAt(pos) == '}') {
                    pos++;
                    return map;
                }
                while (true) {
                    skipSpace();
                    String key = string();
                    skipSpace();
                    expect(':');
                    map.put(key, value());
                    skipSpace();
                    if (text.charAt(pos++) == '}') {
                        return map;
                    }
                }
            }
            case '[' -> {
                List<Object> list = new ArrayList<>();
                pos++;
                skipSpace();
                if (text.charAt(pos) == ']') {
                    pos++;
                    return list;
                }
                while (true) {
                    list.add(value());
                    skipSpace();
                    if (text.charAt(pos++) == ']') {
                        return list;
                    }
                }
            }
            case '"' -> {
                return string();
            }
            default -> {
                int start = pos;
                while (pos < text.length() && ",}] \n\r\t".indexOf(text.charAt(pos)) < 0) {
                    pos++;
                }
                String literal = text.substring(start, pos);
                return switch (literal) {
                    case "true" -> Boolean.TRUE;
                    case "false" -> Boolean.FALSE;
                    case "null" -> null;
                    default -> Double.parseDouble(literal);
                };
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder s = new StringBuilder();
        while (true) {
            char c = text.charAt(pos++);
            if (c == '"') {
                return s.toString();
            }
            if (c == '\\') {
                char e = text.charAt(pos++);
                switch (e) {
                    case 'n' -> s.append('\n');
                    case 't' -> s.append('\t');
                    case 'r' -> s.append('\r');
                    case 'b' -> s.append('\b');
                    case 'f' -> s.append('\f');
                    case 'u' -> {
                        s.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                        pos += 4;
                    }
                    default -> s.append(e);
                }
            } else {
                s.append(c);
            }
        }
    }

    private void expect(char c) {
        if (text.charAt(pos) != c) {
            throw error("expected " + c);
        }
        pos++;
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException(what + " at " + pos);
    }
}
