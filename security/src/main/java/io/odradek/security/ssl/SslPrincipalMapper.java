package io.odradek.security.ssl;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Kafka's {@code ssl.principal.mapping.rules}: the user name of a TLS client from its certificate's distinguished
 * name (RFC 2253 form, e.g. {@code CN=alice,OU=Test,O=Odradek}). Rules are tried in order, the first that applies
 * wins:
 * <ul>
 *   <li>{@code DEFAULT}: the distinguished name as it is;</li>
 *   <li>{@code RULE:pattern/replacement/} with an optional {@code L} or {@code U} after the last slash (lower or
 *   upper case the result): applies when the Java regex {@code pattern} matches the whole name, which is then
 *   rewritten as {@code name.replaceAll(pattern, replacement)}; {@code $n} refers to a group, and a reference to a
 *   group the pattern does not have refuses the client (Kafka's replaceAll throws). A backslash escapes the next
 *   character (so {@code \/} is a slash inside a pattern).</li>
 * </ul>
 * Rules are separated by commas (commas inside a pattern or replacement belong to it); spaces around rules are
 * ignored; empty rules are skipped, and no rules at all (the key set to "") refuse every certificate. A name no
 * rule applies to is refused ({@link NoMatchingRuleException}), which fails the client's authentication, as in Kafka.
 */
public final class SslPrincipalMapper {
    /** Kafka's default: the whole distinguished name is the user name. */
    public static final String DEFAULT_RULES = "DEFAULT";

    private final List<Rule> rules;
    private final String text;

    private SslPrincipalMapper(List<Rule> rules, String text) {
        this.rules = rules;
        this.text = text;
    }

    /**
     * Parses {@code rules} (null means {@link #DEFAULT_RULES}); IllegalArgumentException with Kafka's message
     * ("Invalid rule: `x`, unmatched substring: `y`") for text that is not a rule.
     */
    public static SslPrincipalMapper fromRules(String rules) {
        String text = rules == null ? DEFAULT_RULES : rules.trim();
        return new SslPrincipalMapper(new RuleParser(text).parse(), text);
    }

    /** The user name for {@code distinguishedName}, from the first rule that applies. */
    public String name(String distinguishedName) {
        for (Rule rule : rules) {
            String name = rule.apply(distinguishedName);
            if (name != null) {
                return name;
            }
        }
        throw new NoMatchingRuleException("No rules apply to " + distinguishedName + ", rules " + rules);
    }

    @Override
    public String toString() {
        return "SslPrincipalMapper(rules = " + text + ")";
    }

    /** No rule applies to a client's distinguished name, or the one that does cannot map it: the client is refused. */
    public static final class NoMatchingRuleException extends RuntimeException {
        NoMatchingRuleException(String message) {
            super(message);
        }
    }

    /** DEFAULT (pattern null) or RULE:pattern/replacement/[LU]. */
    private record Rule(Pattern pattern, String replacement, char caseFlag) {
        String apply(String distinguishedName) {
            if (pattern == null) {
                return distinguishedName;
            }
            Matcher m = pattern.matcher(distinguishedName);
            if (!m.matches()) {
                return null;
            }
            String result;
            try {
                result = m.replaceAll(replacement);
            } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
                // A reference to a group the pattern lacks: Kafka's replaceAll throws and the client is refused.
                throw new NoMatchingRuleException("Rule " + this + " cannot map " + distinguishedName + ": "
                        + e.getMessage());
            }
            return switch (caseFlag) {
                case 'L' -> result.toLowerCase(Locale.ENGLISH);
                case 'U' -> result.toUpperCase(Locale.ENGLISH);
                default -> result;
            };
        }

        @Override
        public String toString() {
            if (pattern == null) {
                return "DEFAULT";
            }
            return "RULE:" + pattern + "/" + replacement + (caseFlag == 0 ? "" : "/" + caseFlag);
        }
    }

    /** Reads the rules left to right; a part that is not a rule is reported up to the next comma. */
    private static final class RuleParser {
        private final String text;
        private int pos;

        RuleParser(String text) {
            this.text = text;
        }

        List<Rule> parse() {
            List<Rule> rules = new ArrayList<>();
            while (true) {
                skipSpaces();
                int start = pos;
                Rule rule = null;
                if (text.startsWith("DEFAULT", pos)) {
                    pos += "DEFAULT".length();
                    rule = new Rule(null, null, (char) 0);
                } else if (text.startsWith("RULE:", pos)) {
                    rule = ruleBody();
                    if (rule == null) {
                        pos = start; // not a complete rule: report it whole
                    }
                }
                int validEnd = pos;
                int end = endOfPart();
                if (end > validEnd) {
                    String part = text.substring(start, end);
                    throw new IllegalArgumentException("Invalid rule: `" + part + "`, unmatched substring: `"
                            + text.substring(validEnd, end) + "`");
                }
                if (rule != null) {
                    rules.add(rule);
                }
                pos = end;
                skipSpaces();
                if (pos >= text.length()) {
                    return rules;
                }
                pos++; // the comma
            }
        }

        /** After "RULE:": pattern/replacement/ and an optional L or U; null when a slash is missing. */
        private Rule ruleBody() {
            pos += "RULE:".length();
            String pattern = untilSlash();
            if (pattern == null) {
                return null;
            }
            String replacement = untilSlash();
            if (replacement == null) {
                return null;
            }
            char flag = 0;
            if (pos < text.length() && (text.charAt(pos) == 'L' || text.charAt(pos) == 'U')) {
                flag = text.charAt(pos++);
            }
            try {
                return new Rule(Pattern.compile(pattern), replacement, flag);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("Invalid rule: `RULE:" + pattern + "/" + replacement + "/`: "
                        + e.getDescription(), e);
            }
        }

        /** Text up to the next unescaped slash (escapes kept as written), the slash consumed; null if none. */
        private String untilSlash() {
            int start = pos;
            while (pos < text.length()) {
                char c = text.charAt(pos);
                if (c == '\\') {
                    if (pos + 1 >= text.length()) {
                        return null;
                    }
                    pos += 2;
                } else if (c == '/') {
                    return text.substring(start, pos++);
                } else {
                    pos++;
                }
            }
            return null;
        }

        /** Where the current part ends: before the spaces that precede the next comma, or at the end. */
        private int endOfPart() {
            int comma = text.indexOf(',', pos);
            int end = comma < 0 ? text.length() : comma;
            while (end > pos && Character.isWhitespace(text.charAt(end - 1))) {
                end--;
            }
            return end;
        }

        private void skipSpaces() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }
    }
}
