package io.odradek.broker.config;

/**
 * One broker setting: its Kafka key, type, default in properties-file form (null = no value unless set),
 * the rule its value must meet and a one-line description.
 */
public record ConfigKey(String name, ConfigType type, String defaultValue, Validator validator, String doc) {

    /** The typed, validated value of {@code raw}; null stays null. */
    public Object parse(String raw) {
        if (raw == null) {
            return null;
        }
        Object value = type.parse(name, raw);
        String problem = validator.problem(value);
        if (problem != null) {
            throw ConfigException.invalid(name, raw.trim(), problem);
        }
        return value;
    }
}
