package io.odradek.wire.oracle;

/** An inclusive range of versions as Kafka's schemas write them: "3-13", "9+", "0", "none". */
public record VersionRange(short min, short max) {
    public static final VersionRange NONE = new VersionRange((short) 0, (short) -1);

    public static VersionRange of(int min, int max) {
        return min > max ? NONE : new VersionRange((short) min, (short) max);
    }

    public static VersionRange parse(String spec) {
        if (spec == null || spec.isEmpty() || spec.equals("none")) {
            return NONE;
        }
        if (spec.endsWith("+")) {
            return of(Integer.parseInt(spec.substring(0, spec.length() - 1)), Short.MAX_VALUE);
        }
        int dash = spec.indexOf('-');
        if (dash > 0) {
            return of(Integer.parseInt(spec.substring(0, dash)), Integer.parseInt(spec.substring(dash + 1)));
        }
        int v = Integer.parseInt(spec);
        return of(v, v);
    }

    public boolean isEmpty() {
        return min > max;
    }

    public boolean contains(int version) {
        return version >= min && version <= max;
    }

    public VersionRange intersect(VersionRange other) {
        return isEmpty() || other.isEmpty() ? NONE : of(Math.max(min, other.min), Math.min(max, other.max));
    }

    @Override
    public String toString() {
        return isEmpty() ? "none" : max == Short.MAX_VALUE ? min + "+" : min == max ? String.valueOf(min) : min + "-" + max;
    }
}
