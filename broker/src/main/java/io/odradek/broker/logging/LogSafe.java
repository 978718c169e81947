package io.odradek.broker.logging;

/**
 * Makes client-supplied text (client ids, group ids, topic names, error messages built from them) safe to put
 * in a log line: control characters and Unicode line breaks become escapes, so a client cannot forge log lines,
 * break a line in two or send terminal escape sequences to whoever reads the log; very long text is cut.
 */
public final class LogSafe {
    /** Longest text kept; the rest is replaced by a count. */
    static final int MAX_CHARS = 256;

    private LogSafe() {
    }

    /**
     * The text with {@code \n}, {@code \r}, {@code \t} and {@code \\} escaped, other control characters
     * (C0, DEL, C1), line/paragraph separators and bidirectional overrides as {@code \\uXXXX}, and anything
     * past {@value #MAX_CHARS} characters cut with a note of how many; {@code null} as {@code null}.
     */
    public static String escape(String text) {
        if (text == null) {
            return "null";
        }
        return scan(text, MAX_CHARS, true);
    }

    /**
     * A whole log message made one line: control characters, line breaks and bidirectional overrides escaped
     * as in {@link #escape}, nothing cut and backslashes kept. The log formatter applies it to every message,
     * so text that reached a message unescaped (a group id in a coordinator's line) still cannot forge lines.
     */
    public static String oneLine(String message) {
        return scan(message, Integer.MAX_VALUE, false);
    }

    /** The text escaped up to {@code maxChars}; the same string when nothing needs escaping or cutting. */
    private static String scan(String text, int maxChars, boolean escapeBackslash) {
        int end = Math.min(text.length(), maxChars);
        StringBuilder out = null;
        for (int i = 0; i < end; i++) {
            char c = text.charAt(i);
            String escaped = c == '\\' && !escapeBackslash ? null : escapeOf(c);
            if (escaped != null && out == null) {
                out = new StringBuilder(end + 16).append(text, 0, i);
            }
            if (out != null) {
                if (escaped != null) {
                    out.append(escaped);
                } else {
                    out.append(c);
                }
            }
        }
        if (end == text.length()) {
            return out == null ? text : out.toString();
        }
        if (out == null) {
            out = new StringBuilder(end + 24).append(text, 0, end);
        }
        return out.append("...(").append(text.length() - end).append(" more chars)").toString();
    }

    private static String escapeOf(char c) {
        switch (c) {
            case '\n':
                return "\\n";
            case '\r':
                return "\\r";
            case '\t':
                return "\\t";
            case '\\':
                return "\\\\";
            default:
                break;
        }
        boolean control = c < 0x20 || (c >= 0x7f && c <= 0x9f);
        boolean lineBreak = c == '\u2028' || c == '\u2029';
        boolean bidi = (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069');
        return control || lineBreak || bidi ? unicodeEscape(c) : null;
    }

    private static String unicodeEscape(char c) {
        String hex = Integer.toHexString(c);
        return "\\u" + "0000".substring(hex.length()) + hex;
    }
}
