package io.odradek.broker.handlers;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.odradek.broker.api.ApiHandler;
import io.odradek.broker.api.RequestContext;
import io.odradek.wire.api.ApiSpec;
import io.odradek.wire.header.RequestHeader;
import io.odradek.wire.schema.Struct;
import io.odradek.wire.schema.WireWriter;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/** For the tests that compare our answers with Kafka's byte for byte: a handler's response body, encoded. */
final class HandlerAnswerBytes {
    private HandlerAnswerBytes() {
    }

    /** The body of {@code handler}'s response to {@code request} at version 0, as it goes on the wire. */
    static byte[] atVersion0(ApiHandler handler, Struct request) {
        ApiSpec api = handler.api();
        RequestContext context = new RequestContext(new RequestHeader(api.key(), (short) 0, 1, "test"),
                new InetSocketAddress("127.0.0.1", 50000), UnpooledByteBufAllocator.DEFAULT, ImmediateEventExecutor.INSTANCE);
        try {
            Struct response = handler.handle(context, request).get(10, TimeUnit.SECONDS);
            WireWriter out = new WireWriter(UnpooledByteBufAllocator.DEFAULT);
            api.response().write(out, response, (short) 0, true);
            ByteBuf buf = (ByteBuf) out.finish().get(0);
            try {
                return ByteBufUtil.getBytes(buf);
            } finally {
                buf.release();
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
