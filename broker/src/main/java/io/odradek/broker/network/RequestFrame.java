package io.odradek.broker.network;

import io.netty.buffer.ByteBuf;

/** One request's bytes (without the length prefix) and the pool bytes reserved for it. */
record RequestFrame(ByteBuf payload, int reservedBytes) {
}
