package io.odradek.security.ssl;

import java.nio.ByteBuffer;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;

/** Runs a TLS handshake between two engines in memory (no sockets): what a listener's engine accepts. */
final class Handshakes {
    private Handshakes() {
    }

    /** Completes the handshake or throws the first side's SSLException. */
    static void run(SSLEngine client, SSLEngine server) throws SSLException {
        ByteBuffer toServer = ByteBuffer.allocate(1 << 17);
        ByteBuffer toClient = ByteBuffer.allocate(1 << 17);
        client.beginHandshake();
        server.beginHandshake();
        for (int i = 0; i < 200; i++) {
            boolean moved = step(client, toClient, toServer) | step(server, toServer, toClient);
            if (!moved && done(client) && done(server)) {
                return;
            }
        }
        throw new SSLException("handshake did not finish: client " + client.getHandshakeStatus() + ", server "
                + server.getHandshakeStatus());
    }

    private static boolean done(SSLEngine engine) {
        HandshakeStatus s = engine.getHandshakeStatus();
        return s == HandshakeStatus.NOT_HANDSHAKING || s == HandshakeStatus.FINISHED;
    }

    /** One move of {@code engine}: write what it must send, read what it was sent, run its tasks. */
    private static boolean step(SSLEngine engine, ByteBuffer in, ByteBuffer out) throws SSLException {
        boolean moved = false;
        ByteBuffer app = ByteBuffer.allocate(1 << 17);
        while (true) {
            HandshakeStatus s = engine.getHandshakeStatus();
            if (s == HandshakeStatus.NEED_TASK) {
                Runnable task;
                while ((task = engine.getDelegatedTask()) != null) {
                    task.run();
                }
                moved = true;
            } else if (s == HandshakeStatus.NEED_WRAP) {
                int before = out.position();
                engine.wrap(ByteBuffer.allocate(0), out);
                if (out.position() == before && engine.getHandshakeStatus() == HandshakeStatus.NEED_WRAP) {
                    return moved;
                }
                moved = true;
            } else if (s == HandshakeStatus.NEED_UNWRAP || s == HandshakeStatus.NEED_UNWRAP_AGAIN) {
                in.flip();
                int before = in.remaining();
                engine.unwrap(in, app);
                boolean consumed = in.remaining() != before;
                in.compact();
                if (!consumed && engine.getHandshakeStatus() == s) {
                    return moved;
                }
                moved = true;
            } else {
                // Handshake done; read anything left (TLS 1.3 session tickets) so the peer is not left waiting.
                in.flip();
                if (in.hasRemaining()) {
                    engine.unwrap(in, app);
                    moved = true;
                }
                in.compact();
                return moved;
            }
        }
    }
}
