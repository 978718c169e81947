package io.odradek.security.sasl;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Just enough JSON for a JWT's header and claims: objects, arrays, strings, numbers (as BigDecimal), booleans
 * and null. Anything else is an IllegalArgumentException, as is nesting deeper than {@link #MAX_DEPTH} (the
 * parser recurses per level, and a token is attacker-controlled input read before authentication).
 */
final class Json {
    static final int MAX_DEPTH = 64;
    private final String s;
    private int pos;
    private int depth;

    private Json(String s) {
        this.s = s;
    }

    /** A JSON object; IllegalArgumentException when {@code text} is not one. */
    static Map<String, Object> parseObject(String text) {
        Json p = new Json(text);
        p.space();
        if (p.peek() != '{') {
            throw new IllegalArgumentException("not a JSON object");
        }
        Object value = p.value();
        p.space();
        if (p.pos != text.length()) {
            throw new IllegalArgumentException("trailing characters after JSON object");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) value;
        return map;
    }

    private char peek() {
        if (pos >= s.length()) {
            throw new IllegalArgumentException("unexpected end of JSON");
        }
        return s.charAt(pos);
    }

    private void space() {
        while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
            pos++;
        }
    }

    private void expect(char c) {
        space();
        if (peek() != c) {
            throw new IllegalArgumentException("expected '" + c + "' at " + pos);
        }
        pos++;
    }

    private Object value() {
        space();
        char c = peek();
        if ((c == '{' || c == '[') && depth == MAX_DEPTH) {
            throw new IllegalArgumentException("JSON nested deeper than " + MAX_DEPTH + " levels");
        }
        depth++;
        try {
            return valueAt(c);
        } finally {
            depth--;
        }
    }

    private Object valueAt(char c) {
        switch (c) {
            case '{': {
                pos++;
                Map<String, Object> map = new LinkedHashMap<>();
                space();
                if (peek() == '}') {
                    pos++;
                    return map;
                }
                while (true) {
                    space();
                    String key = string();
                    expect(':');
                    map.put(key, value());
                    space();
                    if (peek() == ',') {
                        pos++;
                    } else {
                        expect('}');
                        return map;
                    }
                }
            }
            case '[': {
                pos++;
                List<Object> list = new ArrayList<>();
                space();
                if (peek() == ']') {
                    pos++;
                    return list;
                }
                while (true) {
                    list.add(value());
                    space();
                    if (peek() == ',') {
                        pos++;
                    } else {
                        expect(']');
                        return list;
                    }
                }
            }
            case '"':
                return string();
            default:
                if (s.startsWith("true", pos)) {
                    pos += 4;
                    return Boolean.TRUE;
                }
                if (s.startsWith("false", pos)) {
                    pos += 5;
                    return Boolean.FALSE;
                }
                if (s.startsWith("null", pos)) {
                    pos += 4;
                    return null;
                }
                return number();
        }
    }

    private BigDecimal number() {
        int start = pos;
        while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
            pos++;
        }
        if (start == pos) {
            throw new IllegalArgumentException("unexpected character at " + pos);
        }
        try {
            return new BigDecimal(s.substring(start, pos));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid number at " + start);
        }
    }

    private String string() {
        if (peek() != '"') {
            throw new IllegalArgumentException("expected a string at " + pos);
        }
        pos++;
        StringBuilder sb = new StringBuilder();
        while (true) {
            char c = peek();
            pos++;
            if (c == '"') {
                return sb.toString();
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char e = peek();
            pos++;
            switch (e) {
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    if (pos + 4 > s.length()) {
                        throw new IllegalArgumentException("bad unicode escape");
                    }
                    sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                    pos += 4;
                }
                default -> sb.append(e);
            }
        }
    }
}
