package io.odradek.broker.network;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.concurrent.ScheduledFuture;
import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.ApiRegistry;
import io.odradek.broker.api.BrokerRequests;
import io.odradek.broker.api.CloseConnectionException;
import io.odradek.broker.api.RequestContext;
import io.odradek.broker.faults.ErrorResponses;
import io.odradek.broker.faults.Fault;
import io.odradek.broker.handlers.ApiVersionsHandler;
import io.odradek.broker.logging.LogSafe;
import io.odradek.broker.quota.FetchQuotaNote;
import io.odradek.broker.quota.RequestThrottler;
import io.odradek.broker.security.ListenerSecurity;
import io.odradek.broker.security.Session;
import io.odradek.security.KafkaPrincipal;
import io.odradek.security.acl.Authorizer;
import io.odradek.wire.ErrorCode;
import io.odradek.wire.api.ApiVersionsApi;
import io.odradek.wire.codec.Request;
import io.odradek.wire.codec.RequestDecoder;
import io.odradek.wire.codec.ResponseEncoder;
import io.odradek.wire.codec.UnsupportedRequestException;
import io.odradek.wire.schema.MalformedMessageException;
import io.odradek.wire.schema.Struct;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One connection's requests: decode each frame, hand it to its API's handler, and write the responses
 * in request order (clients pipeline requests and match responses by order as well as correlation id).
 * A request that cannot be decoded, or names an API or version we do not handle, closes this connection
 * only, as Kafka does.
 *
 * <p>Backpressure: the connection is muted (see {@link ReadGate}) while it has
 * {@code maxInFlightPerConnection} requests whose responses are not yet written, and while its outbound
 * buffer is over the high water mark (the client is not reading). A connection with no request for
 * {@code connections.max.idle.ms} is closed, even if it is half-way through sending one; a parked request
 * (a long-poll fetch) keeps it open.
 *
 * <p>Client quotas: each response passes the {@link RequestThrottler} before it is written; a client over its
 * quota gets the throttle time in the response and its connection muted for that long (KIP-219), also when
 * the response's version has no ThrottleTimeMs (Kafka mutes regardless); a consumer fetch's throttle comes
 * from its handler's own check, through the request's {@link FetchQuotaNote}. The SASL exchange itself
 * (SaslHandshake/SaslAuthenticate answered by the authenticator) is not measured, as in Kafka.
 *
 * <p>SASL listeners (issue 10): a {@link SaslAuthenticator} gates every frame by its API key before it is decoded;
 * until the client is authenticated only ApiVersions and the SASL exchange get through (frames bounded by
 * {@code sasl.server.max.receive.size}, refused by the frame decoder at the length prefix); after SaslHandshake v0
 * frames are raw tokens answered by raw frames (in the response queue, in order); a
 * failed exchange is answered, then the connection closes. Once the exchange completes the session's principal is
 * the SASL user (quotas, authorization); a request on an expired KIP-368 session closes the connection.
 */
public final class RequestChannelHandler extends ChannelInboundHandlerAdapter {
    private static final System.Logger LOG = System.getLogger(RequestChannelHandler.class.getName());

    private final ApiRegistry registry;
    private final RateLimitedLog rejections;
    private final RequestMemoryPool pool;
    private final ReadGate gate;
    private final int maxInFlight;
    private final long idleNanos;
    private final RequestThrottler throttler;
    /** issue 10: this listener's security and the broker's authorizer; the connection's session (principal). */
    private final ListenerSecurity security;
    private final Authorizer authorizer;
    private Session session;
    /** issue 11: request metrics (reported as each response is written) and fault injection (asked before handling). */
    private final RequestHooks hooks;
    /** issue 11 (faults): this connection's requests held back by an injected delay. */
    private final DelayedRequests faultDelays = new DelayedRequests();
    /** issue 10 (sasl): the authentication gate on SASL listeners; null on others. */
    private final SaslAuthenticator sasl;
    private ScheduledFuture<?> throttleEnd;
    private long throttledUntilNanos;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private long lastActivity = System.nanoTime();
    private ScheduledFuture<?> idleCheck;
    private String clientId;
    private boolean closed;

    RequestChannelHandler(ApiRegistry registry, RequestMemoryPool pool, ReadGate gate, int maxInFlight,
            long connectionsMaxIdleMs, RateLimitedLog rejections, RequestThrottler throttler) {
        this(registry, pool, gate, maxInFlight, connectionsMaxIdleMs, rejections, throttler,
                ListenerSecurity.plaintext("PLAINTEXT"), Authorizer.ALLOW_ALL, RequestHooks.NONE);
    }

    RequestChannelHandler(ApiRegistry registry, RequestMemoryPool pool, ReadGate gate, int maxInFlight,
            long connectionsMaxIdleMs, RateLimitedLog rejections, RequestThrottler throttler,
            ListenerSecurity security, Authorizer authorizer, RequestHooks hooks) {
        this.hooks = hooks;
        this.security = security;
        this.authorizer = authorizer;
        this.sasl = security.sasl() == null ? null : new SaslAuthenticator(security.sasl(), System::nanoTime);
        this.session = new Session(KafkaPrincipal.ANONYMOUS, security.listenerName(), security.protocol(),
                InetAddress.getLoopbackAddress(), authorizer);
        this.registry = registry;
        this.throttler = throttler;
        this.rejections = rejections;
        this.pool = pool;
        this.gate = gate;
        this.maxInFlight = maxInFlight;
        this.idleNanos = connectionsMaxIdleMs < 0 ? -1 : TimeUnit.MILLISECONDS.toNanos(connectionsMaxIdleMs);
    }

    /** A request waiting for its response, in arrival order; its pool bytes go back once, when it is done. */
    private final class Pending {
        final Request request;
        final CompletableFuture<Struct> response;
        /** For the client quotas: the frame's size and how long the handler's call took. */
        final int requestBytes;
        final long handlerNanos;
        /** issue 11 (faults): a request held by an injected delay: its handler's time, measured when it is served. */
        HandlerTime deferred;
        /** quotafix: a consumer fetch's own quota check, when quotas are configured; else null. */
        final FetchQuotaNote fetchQuota;
        private final int reservedBytes;
        private final AtomicBoolean released = new AtomicBoolean();
        /** issue 10 (sasl): when set, the connection closes once this response is written (failed authentication). */
        String closeAfter;
        /** issue 10 (sasl): part of the authentication exchange, which Kafka never charges to client quotas. */
        boolean saslExchange;
        /** issue 10 (sasl): a raw token's answer (after SaslHandshake v0), written as a bare frame in its turn. */
        byte[] rawResponse;
        /** issue 11 (metrics): when its frame reached us (System.nanoTime), for the request's TotalTimeMs. */
        long receivedNanos;

        Pending(Request request, CompletableFuture<Struct> response, int reservedBytes, int requestBytes,
                long handlerNanos, FetchQuotaNote fetchQuota) {
            this.request = request;
            this.response = response;
            this.requestBytes = requestBytes;
            this.handlerNanos = handlerNanos;
            this.fetchQuota = fetchQuota;
            this.reservedBytes = reservedBytes;
        }

        void releaseBytes() {
            if (released.compareAndSet(false, true)) {
                pool.releaseBytes(reservedBytes);
            }
        }
    }

    /** issue 11 (faults): the handler time of a request served later (an injected delay), set when it is served. */
    private static final class HandlerTime {
        boolean deferred;
        long nanos;
    }

    /** How long the request's handler call took: the deferred serve's for a delayed request, not its queueing. */
    private static long handlerNanos(Pending p) {
        return p.deferred != null && p.deferred.deferred ? p.deferred.nanos : p.handlerNanos;
    }

    /**
     * issue 10 (sasl): the frame decoder before us must refuse an oversized frame at its length prefix, before the
     * pool reserves it, so it asks this connection's authenticator for the bound (wired here, where the authenticator
     * is made, so that no pipeline can forget it).
     */
    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        RequestFrameDecoder frames = ctx.pipeline().get(RequestFrameDecoder.class);
        if (sasl != null && frames != null) {
            frames.limitFramesBeforeAuthentication(
                    () -> sasl.authenticated() ? Integer.MAX_VALUE : sasl.maxReceiveSize());
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (ctx.channel().remoteAddress() instanceof InetSocketAddress remote && remote.getAddress() != null) {
            session = new Session(session.principal(), security.listenerName(), security.protocol(),
                    remote.getAddress(), authorizer);
        }
        lastActivity = System.nanoTime();
        scheduleIdleCheck(ctx, idleNanos);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        RequestFrame frame = (RequestFrame) msg;
        if (closed) { // frames the decoder had already read when we closed
            frame.payload().release();
            pool.requestTaken();
            pool.releaseBytes(frame.reservedBytes());
            return;
        }
        lastActivity = System.nanoTime();
        // issue 10 (sasl): before authentication only the SASL exchange (and ApiVersions) gets through.
        SaslAuthenticator.Gate saslGate = SaslAuthenticator.Gate.SERVE;
        if (sasl != null) {
            if (!sasl.authenticated() && frame.payload().readableBytes() > sasl.maxReceiveSize()) {
                drop(frame);
                reject(ctx, "sasl", "Failing SASL authentication due to invalid receive size ("
                        + frame.reservedBytes() + " bytes, sasl.server.max.receive.size=" + sasl.maxReceiveSize() + ")");
                return;
            }
            if (sasl.rawTokens()) {
                rawToken(ctx, frame);
                return;
            }
            if (frame.payload().readableBytes() >= 2) {
                saslGate = sasl.gate(frame.payload().getShort(frame.payload().readerIndex()));
                if (saslGate == SaslAuthenticator.Gate.CLOSE) {
                    drop(frame);
                    reject(ctx, "sasl", sasl.closeReason());
                    return;
                }
            }
        }
        SaslAuthenticator.Outcome saslOutcome = null;
        Request request;
        CompletableFuture<Struct> response;
        int requestBytes = frame.payload().readableBytes();
        long handlerNanos;
        FetchQuotaNote fetchQuota = null;
        HandlerTime deferred = new HandlerTime();
        boolean handedOn = false;
        try {
            request = RequestDecoder.decode(frame.payload());
            clientId = request.header().clientId();
            request = withinOfferedVersions(request); // issue 11 (emulation)
            long start = System.nanoTime();
            if (request.body() != null && saslGate != SaslAuthenticator.Gate.AUTHENTICATOR) {
                fetchQuota = throttler.beforeHandle(request, principal());
            }
            if (saslGate == SaslAuthenticator.Gate.AUTHENTICATOR && request.body() != null) {
                saslOutcome = sasl.handle(request.api(), request.version(), request.body());
                if (saslOutcome.authenticated() != null) {
                    authenticated(saslOutcome.authenticated());
                }
                response = CompletableFuture.completedFuture(saslOutcome.response());
            } else {
                if (sasl != null && request.api() == ApiVersionsApi.SPEC && request.body() != null) {
                    sasl.versionsAnswered();
                }
                response = handle(ctx, request, fetchQuota, frame.payload(), deferred);
            }
            handlerNanos = System.nanoTime() - start;
            if (fetchQuota != null && !deferred.deferred) { // a delayed request's is noted when it is served
                fetchQuota.handlerReturned(handlerNanos); // a parked fetch is checked later, counting this
            }
            handedOn = true;
        } catch (UnsupportedRequestException | MalformedMessageException e) {
            reject(ctx, "malformed-request", e.getMessage());
            return;
        } finally {
            // Whatever was thrown (an Error too), the frame's queue slot and, unless a Pending now owns them, its
            // bytes go back: a leak here would mute the whole broker connection by connection.
            frame.payload().release();
            pool.requestTaken();
            if (!handedOn) {
                pool.releaseBytes(frame.reservedBytes());
            }
        }
        Pending p = new Pending(request, response, frame.reservedBytes(), requestBytes, handlerNanos, fetchQuota);
        p.receivedNanos = lastActivity; // issue 11 (metrics): set as the frame came in
        p.deferred = deferred;
        p.saslExchange = saslGate == SaslAuthenticator.Gate.AUTHENTICATOR;
        if (saslOutcome != null && saslOutcome.close()) {
            p.closeAfter = saslOutcome.why();
        }
        if (closed) {
            p.releaseBytes();
            return;
        }
        pending.add(p);
        if (response.isDone()) {
            p.releaseBytes();
            writeReady(ctx);
        } else {
            gate.set(ReadGate.Reason.IN_FLIGHT, pending.size() >= maxInFlight);
            response.whenComplete((r, e) -> {
                p.releaseBytes();
                ctx.executor().execute(() -> writeReady(ctx));
            });
        }
    }

    /**
     * issue 11 (emulation): a request the registry does not offer (an emulated Kafka release lacks the API, or the
     * version is above that release's maximum) is treated as Kafka treats a version it does not know: ApiVersions
     * gets the v0 UNSUPPORTED_VERSION answer with the offered list (the client retries lower), anything else closes
     * the connection, as the decoder does for versions outside our own range. The cap is for clients: requests only
     * a broker sends (our own inter-broker clients do not negotiate) pass at any version we handle.
     */
    private Request withinOfferedVersions(Request request) {
        if (request.body() == null || registry.accepts(request.api(), request.version())
                || BrokerRequests.fromBroker(request)) {
            return request;
        }
        if (request.api() == ApiVersionsApi.SPEC) {
            return new Request(request.header(), request.api(), null);
        }
        throw new UnsupportedRequestException(registry.cap().refusal(request.api(), request.version()));
    }

    private CompletableFuture<Struct> handle(ChannelHandlerContext ctx, Request request, FetchQuotaNote fetchQuota,
            io.netty.buffer.ByteBuf frame, HandlerTime deferred) {
        // issue 11 (faults): an injected fault (or an earlier delayed request still waiting) comes first.
        Fault fault = request.body() == null ? null
                : hooks.faults().next(request.api().key(), request.version(), request.header().clientId());
        if (fault != null || faultDelays.waiting()) {
            return faulted(ctx, request, fetchQuota, frame, fault, deferred);
        }
        return serve(ctx, request, fetchQuota);
    }

    /**
     * issue 11 (faults): an error is answered at once without the handler (a request that expects no answer, Produce
     * with acks=0, has its connection closed instead, after the answers before it, as Kafka does); a drop closes the connection unanswered;
     * a delay hands the request to its handler later, and the requests read after it on this connection follow it
     * (in order, as Kafka serves a connection), their responses queued behind as always.
     */
    private CompletableFuture<Struct> faulted(ChannelHandlerContext ctx, Request request, FetchQuotaNote fetchQuota,
            io.netty.buffer.ByteBuf frame, Fault fault, HandlerTime deferred) {
        if (fault instanceof Fault.Error error) {
            Struct answer = ErrorResponses.build(request.api(), request.version(), request.body(), error.errorCode(),
                    registry.cap());
            if (answer == null) { // acks=0 Produce: closing is the only signal (RequestHandlerHelper.sendErrorOrCloseConnection)
                return CompletableFuture.failedFuture(new CloseConnectionException("injected fault "
                        + ErrorCode.forCode(error.errorCode()) + " on " + describe(request)
                        + ", which expects no response"));
            }
            return CompletableFuture.completedFuture(answer);
        }
        if (fault instanceof Fault.Drop) {
            rejections.info("fault-drop", "closing connection from " + describeClient(ctx) + " at "
                    + describe(request) + ": injected fault");
            close(ctx);
            return CompletableFuture.completedFuture(null);
        }
        long delayMs = fault instanceof Fault.Delay delay ? delay.millis() : 0;
        deferred.deferred = true; // its handler time is the deferred serve's (quotas, metrics), not this queueing
        return faultDelays.later(ctx, delayMs, frame, () -> {
            long start = System.nanoTime();
            try {
                return serve(ctx, request, fetchQuota);
            } finally {
                deferred.nanos = System.nanoTime() - start;
                if (fetchQuota != null) {
                    fetchQuota.handlerReturned(deferred.nanos);
                }
            }
        });
    }

    private CompletableFuture<Struct> serve(ChannelHandlerContext ctx, Request request, FetchQuotaNote fetchQuota) {
        if (request.body() == null) {
            return CompletableFuture.completedFuture(ApiVersionsHandler.unsupportedVersionResponse(registry));
        }
        ApiHandler handler = registry.handler(request.api().key());
        if (handler == null) {
            throw new UnsupportedRequestException("API " + request.api().name() + " is not handled");
        }
        RequestContext context = new RequestContext(request.header(), ctx.channel().remoteAddress(),
                ctx.alloc(), ctx.executor(), ctx.channel().closeFuture(), fetchQuota, session);
        try {
            return handler.handle(context, request.body());
        } catch (CloseConnectionException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Writes the responses at the head of the queue that are complete, stopping at the first that is not. */
    private void writeReady(ChannelHandlerContext ctx) {
        boolean wrote = false;
        while (!closed && !pending.isEmpty() && pending.peek().response.isDone()) {
            Pending head = pending.poll();
            if (head.rawResponse != null) {
                io.netty.buffer.ByteBuf out = ctx.alloc().buffer(4 + head.rawResponse.length);
                out.writeInt(head.rawResponse.length).writeBytes(head.rawResponse);
                ctx.write(out, ctx.voidPromise());
                wrote = true;
                continue;
            }
            Struct body;
            try {
                body = head.response.join();
            } catch (CompletionException | java.util.concurrent.CancellationException e) {
                failed(ctx, head.request, e instanceof CompletionException && e.getCause() != null ? e.getCause() : e);
                return;
            }
            lastActivity = System.nanoTime();
            int throttleMs = 0;
            if (head.request.body() != null && !head.saslExchange && throttler.measures(head.fetchQuota)) {
                RequestThrottler.Outcome outcome = throttler.afterHandle(head.request, principal(), head.requestBytes,
                        handlerNanos(head), body, head.fetchQuota);
                body = outcome.response();
                throttleMs = outcome.throttleMs();
            }
            if (body != null) { // null: produce with acks=0, the client expects no answer
                write(ctx, head.request, body);
                wrote = true;
            }
            if (head.request.body() != null && !head.saslExchange) { // issue 11 (metrics): answered (or acks=0 done)
                hooks.metrics().completed(head.request, body, lastActivity - head.receivedNanos, handlerNanos(head),
                        head.requestBytes);
            }
            if (head.closeAfter != null) { // issue 10 (sasl): a failed authentication, answered
                ctx.flush();
                reject(ctx, "sasl", head.closeAfter);
                return;
            }
            if (throttleMs > 0) {
                throttle(ctx, throttleMs);
            }
        }
        if (wrote) {
            ctx.flush();
        }
        if (!closed) {
            gate.set(ReadGate.Reason.IN_FLIGHT, pending.size() >= maxInFlight);
        }
    }

    /** issue 10 (sasl): a frame the gate refused or consumed whole: its memory goes back. */
    private void drop(RequestFrame frame) {
        frame.payload().release();
        pool.requestTaken();
        pool.releaseBytes(frame.reservedBytes());
    }

    /** issue 10 (sasl): a raw SASL token (after SaslHandshake v0), answered by a raw length-prefixed frame. */
    private void rawToken(ChannelHandlerContext ctx, RequestFrame frame) {
        byte[] token = new byte[frame.payload().readableBytes()];
        frame.payload().readBytes(token);
        drop(frame);
        SaslAuthenticator.Outcome outcome = sasl.rawToken(token);
        if (outcome.close()) {
            reject(ctx, "sasl", outcome.why());
            return;
        }
        if (outcome.authenticated() != null) {
            authenticated(outcome.authenticated());
        }
        // In the response queue like any answer: a re-authentication must not overtake a parked fetch's response.
        Pending p = new Pending(null, CompletableFuture.completedFuture(null), 0, 0, 0, null);
        p.rawResponse = outcome.rawResponse();
        pending.add(p);
        writeReady(ctx);
    }

    /** The client's user principal name, the {@code user} of client quotas: ANONYMOUS until authenticated. */
    private String principal() {
        return session.principal().name();
    }

    /** The connection's session: who it is (after TLS or SASL authentication), through which listener. */
    Session session() {
        return session;
    }

    /** Called on the event loop once the TLS handshake or a SASL exchange establishes who the client is. */
    void authenticated(KafkaPrincipal principal) {
        session = session.withPrincipal(principal);
    }

    // ---- issue 10 (tls): the end of the TLS handshake

    /** Set once a TLS failure was logged, so the exception that follows it closes quietly. */
    private boolean tlsFailureLogged;

    /**
     * TLS handshake done: on an SSL listener the client certificate's mapped name (ANONYMOUS without one) becomes
     * the principal; on SASL_SSL the SASL login decides it. A failed handshake (untrusted certificate, no certificate
     * where one is required, no common protocol) or a name no {@code ssl.principal.mapping.rules} rule applies to
     * closes the connection with one rate-limited line, as Kafka's "Failed authentication" line.
     */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof SslHandshakeCompletionEvent done) {
            if (!done.isSuccess()) {
                tlsFailed(ctx, "TLS handshake failed", done.cause());
                return;
            }
            if (security.protocol() == io.odradek.security.SecurityProtocol.SSL && security.tls() != null) {
                SslHandler tls = ctx.pipeline().get(SslHandler.class);
                try {
                    authenticated(security.tls().principal(tls.engine().getSession()));
                } catch (RuntimeException e) {
                    tlsFailed(ctx, "Failed authentication (ssl.principal.mapping.rules)", e);
                    return;
                }
            }
        }
        ctx.fireUserEventTriggered(evt);
    }

    private void tlsFailed(ChannelHandlerContext ctx, String what, Throwable cause) {
        if (!tlsFailureLogged) {
            tlsFailureLogged = true;
            Throwable root = cause;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            rejections.info("tls-failed", what + " with " + ctx.channel().remoteAddress() + " on listener "
                    + security.listenerName() + ": " + LogSafe.escape(String.valueOf(root.getMessage())));
        }
        close(ctx);
    }

    private static boolean isTlsError(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof javax.net.ssl.SSLException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Mutes the connection until the throttle ends (a later, longer throttle extends it), as Kafka's
     * processor keeps a throttled channel muted; requests already read are still answered.
     */
    private void throttle(ChannelHandlerContext ctx, int throttleMs) {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(throttleMs);
        if (throttleEnd != null && until - throttledUntilNanos <= 0) {
            return;
        }
        throttledUntilNanos = until;
        if (throttleEnd != null) {
            throttleEnd.cancel(false);
        }
        gate.set(ReadGate.Reason.THROTTLE, true);
        throttleEnd = ctx.executor().schedule(() -> {
            throttleEnd = null;
            if (!closed) {
                gate.set(ReadGate.Reason.THROTTLE, false);
            }
        }, throttleMs, TimeUnit.MILLISECONDS);
    }

    private void failed(ChannelHandlerContext ctx, Request request, Throwable cause) {
        if (cause instanceof CloseConnectionException) {
            rejections.warn("handler-closed", "closing connection from " + describeClient(ctx) + " after "
                    + describe(request) + ": " + LogSafe.escape(cause.getMessage()));
        } else {
            rejections.error("handler-failed", "failed " + describe(request) + " from " + describeClient(ctx)
                    + "; closing the connection", cause);
        }
        ctx.flush(); // the responses before it were written: let them go before the close
        close(ctx);
    }

    private void write(ChannelHandlerContext ctx, Request request, Struct body) {
        List<Object> parts;
        if (request.body() == null) {
            // The fallback answer: a v0 body, since the client could not know our versions yet.
            parts = ResponseEncoder.encode(ctx.alloc(), ApiVersionsApi.SPEC, (short) 0, (short) 0,
                    request.header().correlationId(), body);
        } else {
            parts = ResponseEncoder.encode(ctx.alloc(), request.api(), request.version(),
                    request.header().correlationId(), body);
        }
        for (Object part : parts) {
            ctx.write(part, ctx.voidPromise());
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (!closed) {
            gate.set(ReadGate.Reason.UNWRITABLE, !ctx.channel().isWritable());
        }
        ctx.fireChannelWritabilityChanged();
    }

    private void reject(ChannelHandlerContext ctx, String kind, String why) {
        rejections.warn(kind, "closing connection from " + describeClient(ctx) + ": " + LogSafe.escape(why));
        close(ctx);
    }

    private void close(ChannelHandlerContext ctx) {
        releasePending();
        ctx.close();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof RequestFrameDecoder.InvalidFrameSizeException) {
            reject(ctx, "frame-size", cause.getMessage());
        } else if (isTlsError(cause)) {
            tlsFailed(ctx, "TLS error", cause); // not a broker fault: no stack trace
        } else if (cause instanceof java.io.IOException) {
            close(ctx); // the peer went away
        } else {
            rejections.error("connection-failed", "unexpected error on connection from " + describeClient(ctx), cause);
            close(ctx);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        releasePending();
        ctx.fireChannelInactive();
    }

    /** Drops the unwritten responses and gives back their memory; responses still being made release theirs when done. */
    private void releasePending() {
        closed = true;
        if (idleCheck != null) {
            idleCheck.cancel(false);
        }
        if (throttleEnd != null) {
            throttleEnd.cancel(false);
        }
        for (Pending p : pending) {
            if (p.response.isDone()) {
                p.releaseBytes();
            }
        }
        pending.clear();
    }

    private void scheduleIdleCheck(ChannelHandlerContext ctx, long delayNanos) {
        if (idleNanos >= 0 && !closed) {
            idleCheck = ctx.executor().schedule(() -> checkIdle(ctx), delayNanos, TimeUnit.NANOSECONDS);
        }
    }

    /** Closes the connection if it has had no request or response for the idle time and has none parked. */
    private void checkIdle(ChannelHandlerContext ctx) {
        if (closed) {
            return;
        }
        long idleFor = System.nanoTime() - lastActivity;
        if (!pending.isEmpty()) {
            lastActivity = System.nanoTime(); // a parked request: the client is waiting on us
            scheduleIdleCheck(ctx, idleNanos);
        } else if (idleFor >= idleNanos) {
            LOG.log(System.Logger.Level.DEBUG, () -> "closing connection from " + describeClient(ctx) + ": idle for "
                    + TimeUnit.NANOSECONDS.toMillis(idleFor) + " ms (connections.max.idle.ms)");
            close(ctx);
        } else {
            scheduleIdleCheck(ctx, idleNanos - idleFor);
        }
    }

    private String describeClient(ChannelHandlerContext ctx) {
        return ctx.channel().remoteAddress() + (clientId == null ? "" : " (client id " + LogSafe.escape(clientId) + ")");
    }

    private static String describe(Request request) {
        return request.api().name() + " v" + request.version() + " (correlation id "
                + request.header().correlationId() + ")";
    }
}
