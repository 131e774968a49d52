/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.util.Recycler;

/** GOAWAY: the debug data is a view of the input, as DATA's payload, that lives exactly as long as the frame. */
final class PooledGoAwayFrame extends PooledFrame implements Http2GoAwayFrame {

    static final FramePool<PooledGoAwayFrame> POOL =
            new FramePool<>(Http2FrameTypes.GO_AWAY, PooledGoAwayFrame::new);

    int lastStreamId;
    long errorCode;
    /** The debug data: {@link #payload}, or for a copy the buffer it was given, released with it. */
    ByteBuf content;
    private int extraStreamIds;

    private PooledGoAwayFrame(Recycler.Handle<PooledGoAwayFrame> handle) {
        super(handle, true);
        content = payload;
    }

    /** Sets every field; the debug data is the payload, pointed at the input by the reader as DATA's. */
    void init(int lastStreamId, long errorCode) {
        this.lastStreamId = lastStreamId;
        this.errorCode = errorCode;
        if (content != payload) {
            content = payload;  // only after a copy's buffer: a reference store costs a GC barrier
        }
        extraStreamIds = 0;
    }

    @Override
    void releaseBuffers() {
        if (content != payload) {
            content.release();
        }
    }

    @Override
    void clear() {
        if (content != payload) {
            content.release();
        }
        payload.untarget();
        content = payload;
        lastStreamId = 0;
        errorCode = 0;
        extraStreamIds = 0;
    }

    @Override
    public byte frameType() {
        return Http2FrameTypes.GO_AWAY;
    }

    @Override
    public String name() {
        return "GOAWAY";
    }

    @Override
    public long errorCode() {
        ensureAccessible();
        return errorCode;
    }

    @Override
    public int lastStreamId() {
        ensureAccessible();
        return lastStreamId;
    }

    /** Only meaningful for outbound frames; kept so the frame behaves like Netty's. */
    @Override
    public int extraStreamIds() {
        ensureAccessible();
        return extraStreamIds;
    }

    @Override
    public PooledGoAwayFrame setExtraStreamIds(int extraStreamIds) {
        ensureAccessible();
        if (extraStreamIds < 0) {
            throw new IllegalArgumentException("extraStreamIds must be non-negative");
        }
        this.extraStreamIds = extraStreamIds;
        return this;
    }

    @Override
    public ByteBuf content() {
        ensureAccessible();
        return content;
    }

    /** As {@code DefaultHttp2GoAwayFrame.copy}: the last stream id and the error code, no extra stream ids. */
    @Override
    public Http2GoAwayFrame copy() {
        return unpooled(lastStreamId(), content().copy(), 0);
    }

    @Override
    public Http2GoAwayFrame duplicate() {
        return replace(content().duplicate());
    }

    @Override
    public Http2GoAwayFrame retainedDuplicate() {
        return replace(content().retainedDuplicate());
    }

    /**
     * As {@code DefaultHttp2GoAwayFrame.replace} (and so its {@code duplicate} and {@code retainedDuplicate}): the
     * error code and the extra stream ids, and the last stream id of a frame to send, -1, which the codec fills in.
     */
    @Override
    public Http2GoAwayFrame replace(ByteBuf content) {
        return unpooled(-1, content, extraStreamIds());
    }

    /** A frame of its own, never pooled, with this one's error code. */
    private PooledGoAwayFrame unpooled(int lastStreamId, ByteBuf content, int extraStreamIds) {
        PooledGoAwayFrame copy = POOL.newUnpooled();
        copy.lastStreamId = lastStreamId;
        copy.errorCode = errorCode();
        copy.content = content;
        copy.extraStreamIds = extraStreamIds;
        copy.handOut(ONE, false);
        return copy;
    }

    @Override
    public PooledGoAwayFrame retain() {
        super.retain();
        return this;
    }

    @Override
    public PooledGoAwayFrame retain(int increment) {
        super.retain(increment);
        return this;
    }

    @Override
    public PooledGoAwayFrame touch() {
        return this;
    }

    @Override
    public PooledGoAwayFrame touch(Object hint) {
        if (content != payload) {
            content.touch(hint);
        }
        return this;
    }

    /**
     * Equal to another pooled GOAWAY frame with the same values of the fields {@code DefaultHttp2GoAwayFrame}
     * compares: errorCode, extraStreamIds and the debug data (as Netty's frame, not lastStreamId). Netty's frame
     * equals only frames of its own class, so neither equals the other. In paranoid mode a released frame
     * throws {@code IllegalReferenceCountException}.
     */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof PooledGoAwayFrame)) {
            return false;
        }
        PooledGoAwayFrame other = (PooledGoAwayFrame) o;
        return errorCode() == other.errorCode() && extraStreamIds() == other.extraStreamIds()
                && content().equals(other.content());
    }

    @Override
    public int hashCode() {
        int hash = content().hashCode();
        hash = hash * 31 + Long.hashCode(errorCode());
        hash = hash * 31 + extraStreamIds();
        return hash;
    }

    @Override
    String fields() {
        return "(errorCode=" + errorCode() + ", content=" + content()
                + ", extraStreamIds=" + extraStreamIds() + ", lastStreamId=" + lastStreamId() + ')';
    }
}
