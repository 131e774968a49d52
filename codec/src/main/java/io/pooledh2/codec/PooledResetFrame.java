/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.util.Recycler;

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

    /**
     * Equal to another pooled frame of this type with the same values: the fields {@code DefaultHttp2ResetFrame}
     * compares (stream, errorCode), and the stream id. Netty's frame equals only frames of its own class, so neither
     * equals the other. In paranoid mode a released frame throws {@code IllegalReferenceCountException}.
     */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof PooledResetFrame)) {
            return false;
        }
        PooledResetFrame other = (PooledResetFrame) o;
        return sameStream(other) && errorCode() == other.errorCode();
    }

    @Override
    public int hashCode() {
        int hash = streamHash();
        hash = hash * 31 + Long.hashCode(errorCode());
        return hash;
    }

    @Override
    String fields() {
        return "(stream=" + streamOrId() + ", errorCode=" + errorCode() + ')';
    }
}
