/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.util.Recycler;
import io.netty.util.internal.StringUtil;

/** RST_STREAM. */
final class PooledResetFrame extends StreamFrame implements Http2ResetFrame {

    static final FramePool<PooledResetFrame> POOL =
            new FramePool<>(Http2FrameTypes.RST_STREAM, PooledResetFrame::new);

    long errorCode;

    private PooledResetFrame(Recycler.Handle<PooledResetFrame> handle) {
        super(handle, false);
    }

    void init(int streamId, long errorCode) {
        initStream(streamId);
        this.errorCode = errorCode;
    }

    @Override
    void clear() {
        clearStream();
        errorCode = 0;
    }

    @Override
    public byte frameType() {
        return Http2FrameTypes.RST_STREAM;
    }

    @Override
    public String name() {
        return "RST_STREAM";
    }

    @Override
    public long errorCode() {
        ensureAccessible();
        return errorCode;
    }

    @Override
    public String toString() {
        return StringUtil.simpleClassName(this) + "(stream=" + streamId + ", errorCode=" + errorCode + ')';
    }
}
