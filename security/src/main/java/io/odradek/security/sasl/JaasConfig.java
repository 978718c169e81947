package io.odradek.security.sasl;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kafka's JAAS configuration syntax, without loading any login module: the value of {@code sasl.jaas.config}
 * ({@code <LoginModuleClass> <flag> key="value" key2=value2;}) and the sections of a
 * {@code java.security.auth.login.config} file ({@code KafkaServer { ... };}). Comments ({@code //}, {@code /* *}{@code /})
 * are skipped; values are bare words or double-quoted strings with backslash escapes. Errors name what is wrong,
 * never a value (values are passwords).
 */
public final class JaasConfig {
    /** One login module entry: class name, control flag and options in their order. */
    public record Entry(String loginModule, String controlFlag, Map<String, String> options) {
        public String option(String key) {
            return options.get(key);
        }

        @Override
        public String toString() { // no option values: they are secrets
            return loginModule + " " + controlFlag + " " + options.keySet();
        }
    }

    private static final List<String> FLAGS = List.of("required", "requisite", "sufficient", "optional");

    private final String text;
    private int pos;

    private JaasConfig(String text) {
        this.text = text;
    }

    /** The entries of a {@code sasl.jaas.config} value; IllegalArgumentException when it does not parse. */
    public static List<Entry> parse(String value) {
        JaasConfig p = new JaasConfig(value);
        List<Entry> entries = new ArrayList<>();
        while (p.peekToken() != null) {
            entries.add(p.entry());
        }
        return entries;
    }

    /**
     * The single entry of a {@code sasl.jaas.config} value, as Kafka requires for a mechanism's config
     * ("JAAS config property contains 2 login modules, should be 1 module").
     */
    public static Entry parseSingle(String value) {
        List<Entry> entries = parse(value);
        if (entries.size() != 1) {
            throw new IllegalArgumentException("JAAS config property contains " + entries.size()
                    + " login modules, should be 1 module");
        }
        return entries.get(0);
    }

    /** The sections of a JAAS login config file: name -> entries. */
    public static Map<String, List<Entry>> parseFile(String fileText) {
        JaasConfig p = new JaasConfig(fileText);
        Map<String, List<Entry>> sections = new LinkedHashMap<>();
        String name;
        while ((name = p.peekToken()) != null) {
            name = p.word("JAAS section name");
            p.expect("{");
            List<Entry> entries = new ArrayList<>();
            while (!"}".equals(p.peekToken())) {
                if (p.peekToken() == null) {
                    throw new IllegalArgumentException("JAAS section " + name + " is not closed by '}'");
                }
                entries.add(p.entry());
            }
            p.expect("}");
            p.expect(";");
            sections.put(name, Collections.unmodifiableList(entries));
        }
        return sections;
    }

    private Entry entry() {
        String module = word("Login module not specified in JAAS config");
        String flag = peekToken();
        if (flag == null || !FLAGS.contains(flag.toLowerCase(java.util.Locale.ROOT))) {
            throw new IllegalArgumentException("Invalid login module control flag '" + (flag == null ? "" : flag)
                    + "' in JAAS config");
        }
        token();
        Map<String, String> options = new LinkedHashMap<>();
        while (true) {
            String t = peekToken();
            if (t == null) {
                throw new IllegalArgumentException("JAAS config entry not terminated by semi-colon");
            }
            if (t.equals(";")) {
                token();
                break;
            }
            String key = word("Invalid JAAS config: option name expected");
            if (!"=".equals(peekToken())) {
                throw new IllegalArgumentException("Value not specified for key '" + key + "' in JAAS config");
            }
            token();
            String v = valueToken();
            if (v == null) {
                throw new IllegalArgumentException("Value not specified for key '" + key + "' in JAAS config");
            }
            options.put(key, v);
        }
        return new Entry(module, flag.toLowerCase(java.util.Locale.ROOT), Collections.unmodifiableMap(options));
    }

    private String word(String error) {
        String t = peekToken();
        if (t == null || t.equals("=") || t.equals(";") || t.equals("{") || t.equals("}")) {
            throw new IllegalArgumentException(error);
        }
        return token();
    }

    private void expect(String symbol) {
        String t = peekToken();
        if (!symbol.equals(t)) {
            throw new IllegalArgumentException("Expected '" + symbol + "' in JAAS config");
        }
        token();
    }

    private String peekToken() {
        int save = pos;
        String t = token();
        pos = save;
        return t;
    }

    /** A value: a quoted string (unescaped) or a bare word; null at a symbol or the end. */
    private String valueToken() {
        skipSpaceAndComments();
        if (pos < text.length() && text.charAt(pos) == '"') {
            return quoted();
        }
        String t = token();
        return t == null || t.equals(";") || t.equals("=") ? null : t;
    }

    private String token() {
        skipSpaceAndComments();
        if (pos >= text.length()) {
            return null;
        }
        char c = text.charAt(pos);
        if (c == '=' || c == ';' || c == '{' || c == '}') {
            pos++;
            return String.valueOf(c);
        }
        if (c == '"') {
            return quoted();
        }
        int start = pos;
        while (pos < text.length()) {
            char d = text.charAt(pos);
            if (Character.isWhitespace(d) || d == '=' || d == ';' || d == '"' || d == '{' || d == '}') {
                break;
            }
            pos++;
        }
        return text.substring(start, pos);
    }

    private String quoted() {
        StringBuilder sb = new StringBuilder();
        pos++; // opening quote
        while (pos < text.length()) {
            char c = text.charAt(pos++);
            if (c == '"') {
                return sb.toString();
            }
            if (c == '\\' && pos < text.length()) {
                char e = text.charAt(pos++);
                sb.append(switch (e) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    case 'r' -> '\r';
                    default -> e;
                });
            } else {
                sb.append(c);
            }
        }
        throw new IllegalArgumentException("Unterminated quoted string in JAAS config");
    }

    private void skipSpaceAndComments() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (Character.isWhitespace(c)) {
                pos++;
            } else if (text.startsWith("//", pos)) {
                int nl = text.indexOf('\n', pos);
                pos = nl < 0 ? text.length() : nl + 1;
            } else if (text.startsWith("/*", pos)) {
                int end = text.indexOf("*/", pos + 2);
                pos = end < 0 ? text.length() : end + 2;
            } else {
                return;
            }
        }
    }
}
