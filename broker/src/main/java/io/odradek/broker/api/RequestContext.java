package io.odradek.broker.api;

import io.netty.buffer.ByteBufAllocator;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.odradek.broker.quota.FetchQuotaNote;
import io.odradek.broker.security.Session;
import io.odradek.wire.header.RequestHeader;
import java.net.SocketAddress;

/**
 * What a handler knows about a request besides its body: header, version and the connection it came on.
 * {@code connectionClosed} completes when that connection closes, so work parked for the request (a delayed
 * fetch or produce) can be cancelled rather than held until its timeout. {@code fetchQuota} (client quotas,
 * issue 9 quotafix) is where a consumer fetch's own quota check tells the dispatcher its throttle; null when
 * no quota is configured or the request is not a consumer fetch. {@code session} is who sent it, through
 * which listener, and what they may do (issue 10).
 */
public record RequestContext(RequestHeader header, SocketAddress clientAddress, ByteBufAllocator alloc,
        EventExecutor executor, Future<?> connectionClosed, FetchQuotaNote fetchQuota, Session session) {

    public RequestContext(RequestHeader header, SocketAddress clientAddress, ByteBufAllocator alloc,
            EventExecutor executor, Future<?> connectionClosed, FetchQuotaNote fetchQuota) {
        this(header, clientAddress, alloc, executor, connectionClosed, fetchQuota, Session.PLAINTEXT_ANONYMOUS);
    }

    public RequestContext(RequestHeader header, SocketAddress clientAddress, ByteBufAllocator alloc,
            EventExecutor executor, Future<?> connectionClosed) {
        this(header, clientAddress, alloc, executor, connectionClosed, null);
    }

    /** A context whose connection never closes (tests that call handlers directly). */
    public RequestContext(RequestHeader header, SocketAddress clientAddress, ByteBufAllocator alloc, EventExecutor executor) {
        this(header, clientAddress, alloc, executor, executor.newPromise());
    }

    public short version() {
        return header.apiVersion();
    }

    public String clientId() {
        return header.clientId();
    }
}
