/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.DefaultHttp2UnknownFrame;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2UnknownFrame;
import io.netty.util.Recycler;

/**
 * A frame of a type this reader does not know (an extension): type, flags and payload as received. The
 * payload is a view of the input, as for DATA; the {@link Http2Flags} object is reused with the frame.
 */
final class PooledUnknownFrame extends StreamFrame implements Http2UnknownFrame {

    static final FramePool<PooledUnknownFrame> POOL =
            new FramePool<>((byte) 0xFF, PooledUnknownFrame::new);

    private static final short ALL_FLAGS = 0xFF;

    byte frameType;
    final Http2Flags flags = new Http2Flags();

    private PooledUnknownFrame(Recycler.Handle<PooledUnknownFrame> handle) {
        super(handle, true);
    }

    /** Sets every field; the payload is pointed at the input by the reader, as DATA's. */
    void init(byte frameType, int streamId, short flags) {
        this.frameType = frameType;
        initStream(streamId);
        this.flags.setFlag(false, ALL_FLAGS).setFlag(true, flags);
    }

    @Override
    void clear() {
        payload.untarget();
        frameType = 0;
        flags.setFlag(false, ALL_FLAGS);
        clearStream();
    }

    @Override
    public byte frameType() {
        ensureAccessible();
        return frameType;
    }

    @Override
    public String name() {
        return "UNKNOWN";
    }

    @Override
    public Http2Flags flags() {
        ensureAccessible();
        return flags;
    }

    @Override
    public ByteBuf content() {
        ensureAccessible();
        return payload;
    }

    @Override
    public PooledUnknownFrame stream(Http2FrameStream stream) {
        super.stream(stream);
        return this;
    }

    @Override
    public Http2UnknownFrame copy() {
        return replace(content().copy());
    }

    @Override
    public Http2UnknownFrame duplicate() {
        return replace(content().duplicate());
    }

    @Override
    public Http2UnknownFrame retainedDuplicate() {
        return replace(content().retainedDuplicate());
    }

    /** Netty's frame, with the same fields and the given payload: a copy is never pooled. */
    @Override
    public Http2UnknownFrame replace(ByteBuf content) {
        return new DefaultHttp2UnknownFrame(frameType(), new Http2Flags(flags.value()), content).stream(stream());
    }

    @Override
    public PooledUnknownFrame retain() {
        super.retain();
        return this;
    }

    @Override
    public PooledUnknownFrame retain(int increment) {
        super.retain(increment);
        return this;
    }

    @Override
    public PooledUnknownFrame touch() {
        return this;
    }

    @Override
    public PooledUnknownFrame touch(Object hint) {
        return this;
    }

    /**
     * Equal to another pooled frame of this type with the same values: the fields {@code DefaultHttp2UnknownFrame}
     * compares (stream, flags, frameType, content), and the stream id. Netty's frame equals only frames of its own
     * class, so neither equals the other. In paranoid mode a released frame throws {@code
     * IllegalReferenceCountException}.
     */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof PooledUnknownFrame)) {
            return false;
        }
        PooledUnknownFrame other = (PooledUnknownFrame) o;
        return sameStream(other) && frameType() == other.frameType() && flags().equals(other.flags())
                && content().equals(other.content());
    }

    @Override
    public int hashCode() {
        int hash = streamHash();
        hash = hash * 31 + frameType();
        hash = hash * 31 + flags().hashCode();
        hash = hash * 31 + content().hashCode();
        return hash;
    }

    @Override
    String fields() {
        return "(frameType=" + frameType() + ", stream=" + streamOrId() + ", flags=" + flags() + ", content="
                + content() + ')';
    }
}
