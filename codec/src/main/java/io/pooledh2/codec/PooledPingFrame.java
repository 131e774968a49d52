/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2PingFrame;
import io.netty.util.Recycler;

/** PING and its ACK. */
final class PooledPingFrame extends PooledFrame implements Http2PingFrame {

    static final FramePool<PooledPingFrame> POOL =
            new FramePool<>(Http2FrameTypes.PING, PooledPingFrame::new);

    long content;
    boolean ack;

    private PooledPingFrame(Recycler.Handle<PooledPingFrame> handle) {
        super(handle, false);
    }

    void init(long content, boolean ack) {
        this.content = content;
        this.ack = ack;
    }

    @Override
    void clear() {
        content = 0;
        ack = false;
    }

    @Override
    public byte frameType() {
        return Http2FrameTypes.PING;
    }

    @Override
    public String name() {
        return "PING";
    }

    @Override
    public boolean ack() {
        ensureAccessible();
        return ack;
    }

    @Override
    public long content() {
        ensureAccessible();
        return content;
    }

    /**
     * As {@code DefaultHttp2PingFrame}: equal to any {@link Http2PingFrame}, Netty's included, with the same
     * content and ack flag, so that the answer is the same from both sides. (The hash code is made of the same
     * values; Netty's depends on the object's identity.) In paranoid mode a released frame throws
     * {@code IllegalReferenceCountException}.
     */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Http2PingFrame)) {
            return false;
        }
        Http2PingFrame other = (Http2PingFrame) o;
        return ack() == other.ack() && content() == other.content();
    }

    @Override
    public int hashCode() {
        return Long.hashCode(content()) * 31 + (ack() ? 1 : 0);
    }

    @Override
    String fields() {
        return "(content=" + content() + ", ack=" + ack() + ')';
    }
}
