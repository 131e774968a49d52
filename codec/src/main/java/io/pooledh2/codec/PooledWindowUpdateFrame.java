/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2WindowUpdateFrame;
import io.netty.util.Recycler;
import io.netty.util.internal.StringUtil;

/** WINDOW_UPDATE, for a stream or (stream 0) the connection. */
final class PooledWindowUpdateFrame extends StreamFrame implements Http2WindowUpdateFrame {

    static final FramePool<PooledWindowUpdateFrame> POOL =
            new FramePool<>(Http2FrameTypes.WINDOW_UPDATE, PooledWindowUpdateFrame::new);

    int windowSizeIncrement;

    private PooledWindowUpdateFrame(Recycler.Handle<PooledWindowUpdateFrame> handle) {
        super(handle, false);
    }

    void init(int streamId, int windowSizeIncrement) {
        initStream(streamId);
        this.windowSizeIncrement = windowSizeIncrement;
    }

    @Override
    void clear() {
        clearStream();
        windowSizeIncrement = 0;
    }

    @Override
    public byte frameType() {
        return Http2FrameTypes.WINDOW_UPDATE;
    }

    @Override
    public String name() {
        return "WINDOW_UPDATE";
    }

    @Override
    public int windowSizeIncrement() {
        ensureAccessible();
        return windowSizeIncrement;
    }

    @Override
    public String toString() {
        return StringUtil.simpleClassName(this) + "(stream=" + streamId + ", windowSizeIncrement="
                + windowSizeIncrement + ')';
    }
}
