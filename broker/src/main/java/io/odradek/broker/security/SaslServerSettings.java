package io.odradek.broker.security;

import io.odradek.security.sasl.SaslServerMechanism;
import java.util.List;

/** SASL for one listener (SASL_PLAINTEXT, SASL_SSL): its enabled mechanisms and a server per exchange. */
public interface SaslServerSettings {
    /** {@code sasl.enabled.mechanisms} for this listener, in the order SaslHandshake lists them. */
    List<String> enabledMechanisms();

    /** A server for one exchange on one connection; null when {@code mechanism} is not enabled here. */
    SaslServerMechanism newServer(String mechanism);

    /** {@code connections.max.reauth.ms} for this listener (KIP-368): 0 when sessions do not expire. */
    long maxReauthMs();
}
