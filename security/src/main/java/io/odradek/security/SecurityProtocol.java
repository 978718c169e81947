package io.odradek.security;

import java.util.Locale;

/** A listener's security protocol, with Kafka's ids. */
public enum SecurityProtocol {
    PLAINTEXT(0, false, false),
    SSL(1, true, false),
    SASL_PLAINTEXT(2, false, true),
    SASL_SSL(3, true, true);

    public final short id;
    private final boolean tls;
    private final boolean sasl;

    SecurityProtocol(int id, boolean tls, boolean sasl) {
        this.id = (short) id;
        this.tls = tls;
        this.sasl = sasl;
    }

    /** Whether connections are encrypted with TLS (SSL, SASL_SSL). */
    public boolean usesTls() {
        return tls;
    }

    /** Whether clients must authenticate with SASL before anything but ApiVersions and SASL is served. */
    public boolean usesSasl() {
        return sasl;
    }

    /** The protocol of that name (any case), or null. */
    public static SecurityProtocol forName(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
