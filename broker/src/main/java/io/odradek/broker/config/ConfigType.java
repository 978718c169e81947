package io.odradek.broker.config;

import java.util.Arrays;
import java.util.List;

/** How a config value is written in a properties file and what it parses to, as in Kafka's {@code ConfigDef.Type}. */
public enum ConfigType {
    BOOLEAN, SHORT, INT, LONG, STRING,
    /** Comma-separated; blanks around entries and empty entries are dropped. */
    LIST;

    /** The typed value of {@code raw}: Boolean, Short, Integer, Long, String or {@code List<String>}. */
    public Object parse(String key, String raw) {
        String v = raw.trim();
        try {
            return switch (this) {
                case BOOLEAN -> {
                    if (v.equalsIgnoreCase("true")) {
                        yield Boolean.TRUE;
                    }
                    if (v.equalsIgnoreCase("false")) {
                        yield Boolean.FALSE;
                    }
                    throw ConfigException.invalid(key, raw, "Expected value to be either true or false");
                }
                case SHORT -> Short.parseShort(v);
                case INT -> Integer.parseInt(v);
                case LONG -> Long.parseLong(v);
                case STRING -> v;
                case LIST -> v.isEmpty() ? List.of()
                        : Arrays.stream(v.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
            };
        } catch (NumberFormatException e) {
            throw ConfigException.invalid(key, raw, "Not a number of type " + name());
        }
    }

    /** The properties-file form of a typed value (lists comma-joined). */
    public static String format(Object value) {
        if (value instanceof List<?> list) {
            return String.join(",", list.stream().map(String::valueOf).toList());
        }
        return String.valueOf(value);
    }
}
