/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.util.IllegalReferenceCountException;
import io.netty.util.Recycler;
import io.netty.util.internal.StringUtil;
import java.util.Objects;

/** DATA: the payload is a retained slice of the input, released with the frame. */
final class PooledDataFrame extends StreamFrame implements Http2DataFrame {

    static final FramePool<PooledDataFrame> POOL = new FramePool<>(PooledDataFrame::new);

    ByteBuf content;
    int padding;
    boolean endStream;
    /** Fixed at parse, as in Netty's frame: reading the payload must not change what flow control is owed. */
    int initialFlowControlledBytes;

    private PooledDataFrame(Recycler.Handle<PooledDataFrame> handle) {
        super(handle);
    }

    void init(int streamId, ByteBuf content, int padding, boolean endStream) {
        initStream(streamId);
        this.content = content;
        this.padding = padding;
        this.endStream = endStream;
        this.initialFlowControlledBytes = content.readableBytes() + padding;
    }

    @Override
    void releaseBuffers() {
        if (content != null) {
            content.release();
        }
    }

    @Override
    void clear() {
        ByteBuf content = this.content;
        this.content = null;
        padding = 0;
        endStream = false;
        initialFlowControlledBytes = 0;
        clearStream();
        if (content != null) {
            content.release();
        }
    }

    @Override
    public byte frameType() {
        return Http2FrameTypes.DATA;
    }

    @Override
    public String name() {
        return "DATA";
    }

    @Override
    public ByteBuf content() {
        ensureAccessible();
        ByteBuf content = this.content;
        if (content == null) {
            throw new IllegalReferenceCountException(0);
        }
        return content;
    }

    @Override
    public int padding() {
        ensureAccessible();
        return padding;
    }

    @Override
    public int initialFlowControlledBytes() {
        ensureAccessible();
        return initialFlowControlledBytes;
    }

    @Override
    public boolean isEndStream() {
        ensureAccessible();
        return endStream;
    }

    @Override
    public PooledDataFrame stream(Http2FrameStream stream) {
        super.stream(stream);
        return this;
    }

    @Override
    public Http2DataFrame copy() {
        return replace(content().copy());
    }

    @Override
    public Http2DataFrame duplicate() {
        return replace(content().duplicate());
    }

    @Override
    public Http2DataFrame retainedDuplicate() {
        return replace(content().retainedDuplicate());
    }

    /** A frame of its own, never pooled, with the same fields and the given payload. */
    @Override
    public Http2DataFrame replace(ByteBuf content) {
        PooledDataFrame copy = POOL.newUnpooled();
        copy.init(streamId(), content, padding, endStream);
        copy.stream(stream());
        return copy;
    }

    @Override
    public PooledDataFrame retain() {
        super.retain();
        return this;
    }

    @Override
    public PooledDataFrame retain(int increment) {
        super.retain(increment);
        return this;
    }

    @Override
    public PooledDataFrame touch() {
        return this;
    }

    @Override
    public PooledDataFrame touch(Object hint) {
        ByteBuf content = this.content;
        if (content != null) {
            content.touch(hint);
        }
        return this;
    }

    /** Netty's format for this frame type; the stream id stands for the stream when no codec attached one. */
    /**
     * Equal to another pooled frame of this type with the same values: the fields {@code DefaultHttp2DataFrame}
     * compares (stream, content, endStream, padding), and the stream id. Netty's frame equals only frames of its own
     * class, so neither equals the other. In paranoid mode a released frame throws {@code
     * IllegalReferenceCountException}.
     */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof PooledDataFrame)) {
            return false;
        }
        PooledDataFrame other = (PooledDataFrame) o;
        return Objects.equals(stream(), other.stream()) && streamId() == other.streamId()
                && content().equals(other.content()) && isEndStream() == other.isEndStream()
                && padding() == other.padding();
    }

    @Override
    public int hashCode() {
        Http2FrameStream stream = stream();
        int hash = stream == null ? streamId() : stream.hashCode();
        hash = hash * 31 + content().hashCode();
        hash = hash * 31 + (isEndStream() ? 0 : 1);
        hash = hash * 31 + padding();
        return hash;
    }

    @Override
    public String toString() {
        if (refCnt() == 0) {
            return StringUtil.simpleClassName(this) + "(released)"; // toString must not throw, even in paranoid mode
        }
        return StringUtil.simpleClassName(this) + "(stream=" + (stream() != null ? stream() : streamId()) + ", content=" + content()
                + ", endStream=" + isEndStream() + ", padding=" + padding() + ')';
    }
}
