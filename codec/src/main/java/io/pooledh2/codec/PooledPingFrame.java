/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2PingFrame;
import io.netty.util.Recycler;
import io.netty.util.internal.StringUtil;

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

    @Override
    public String toString() {
        return StringUtil.simpleClassName(this) + "(content=" + content + ", ack=" + ack + ')';
    }
}
