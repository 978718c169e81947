package io.odradek.broker.security;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslHandler;
import io.odradek.security.KafkaPrincipal;
import javax.net.ssl.SSLSession;

/** TLS for one listener (SSL, SASL_SSL), from its {@code ssl.*} keys: handlers for new connections, principals. */
public interface ServerTls {
    /** The TLS stage of a newly accepted connection. */
    SslHandler newHandler(ByteBufAllocator alloc);

    /**
     * The principal of a connection whose handshake completed: its client certificate's distinguished name
     * mapped by {@code ssl.principal.mapping.rules}, or ANONYMOUS without a client certificate.
     */
    KafkaPrincipal principal(SSLSession session);
}
