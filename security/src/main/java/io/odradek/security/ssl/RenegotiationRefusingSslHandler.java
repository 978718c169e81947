package io.odradek.security.ssl;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import javax.net.ssl.SSLEngine;

/**
 * The TLS stage of a JDK-engine listener that closes a connection whose client starts a second handshake (TLS 1.2
 * renegotiation), as Kafka's SslTransportLayer does ("Renegotiation is not supported"); the JDK engine would
 * accept it, OpenSSL refuses it by itself.
 *
 * <p>It reads the TLS record headers of the incoming bytes before the engine sees them: once the first handshake
 * is done, a record of content type handshake (22) can only start another handshake (TLS 1.3 sends its
 * post-handshake messages as application-data records).
 */
final class RenegotiationRefusingSslHandler extends SslHandler {
    private static final System.Logger LOG = System.getLogger(RenegotiationRefusingSslHandler.class.getName());
    private static final int HEADER_BYTES = 5;
    private static final byte HANDSHAKE = 22;

    private final byte[] header = new byte[HEADER_BYTES];
    private int headerFill;
    /** Body bytes of the current record still to skip. */
    private int remaining;
    private boolean firstRecord = true;

    RenegotiationRefusingSslHandler(SSLEngine engine) {
        super(engine);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof ByteBuf bytes && startsAnotherHandshake(bytes)) {
            ReferenceCountUtil.release(msg);
            LOG.log(System.Logger.Level.INFO, "Closing TLS connection from " + ctx.channel().remoteAddress()
                    + ": renegotiation is not supported");
            ctx.close();
            return;
        }
        super.channelRead(ctx, msg);
    }

    /** Walks the record headers in {@code bytes} (without consuming them): true at a handshake record after the first. */
    private boolean startsAnotherHandshake(ByteBuf bytes) {
        int i = bytes.readerIndex();
        int end = bytes.writerIndex();
        while (i < end) {
            if (remaining > 0) {
                int skip = Math.min(remaining, end - i);
                remaining -= skip;
                i += skip;
                continue;
            }
            header[headerFill++] = bytes.getByte(i++);
            if (headerFill < HEADER_BYTES) {
                continue;
            }
            headerFill = 0;
            if (firstRecord && (header[0] & 0x80) != 0) {
                // An SSLv2-format ClientHello: a 2-byte header, so 3 of the 5 bytes read were its body.
                remaining = (((header[0] & 0x7f) << 8) | (header[1] & 0xff)) - 3;
            } else {
                if (header[0] == HANDSHAKE && handshakeFuture().isSuccess()) {
                    return true;
                }
                remaining = ((header[3] & 0xff) << 8) | (header[4] & 0xff);
            }
            firstRecord = false;
        }
        return false;
    }
}
