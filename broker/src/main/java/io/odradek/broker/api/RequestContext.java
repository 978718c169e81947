package io.odradek.broker.api;

import io.netty.buffer.ByteBufAllocator;
import io.netty.util.concurrent.EventExecutor;
import io.odradek.wire.header.RequestHeader;
import java.net.SocketAddress;

/** What a handler knows about a request besides its body: header, version and the connection it came on. */
public record RequestContext(RequestHeader header, SocketAddress clientAddress, ByteBufAllocator alloc,
        EventExecutor executor) {
    public short version() {
        return header.apiVersion();
    }

    public String clientId() {
        return header.clientId();
    }
}
