/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.Recycler;

/** HEADERS, its CONTINUATION frames assembled. */
final class PooledHeadersFrame extends HeaderBlockFrame implements PooledHttp2HeadersFrame {

    static final FramePool<PooledHeadersFrame> POOL =
            new FramePool<>(Http2FrameTypes.HEADERS, PooledHeadersFrame::new);

    boolean endStream;
    boolean priorityPresent;
    int streamDependency;
    short weight;
    boolean exclusive;

    private PooledHeadersFrame(Recycler.Handle<PooledHeadersFrame> handle) {
        super(handle);
    }

    /** Sets every field but the headers, which arrive when the block ends. */
    void init(int streamId, int padding, boolean endStream, boolean priorityPresent, int streamDependency,
              short weight, boolean exclusive) {
        initStream(streamId);
        this.padding = padding;
        this.endStream = endStream;
        this.priorityPresent = priorityPresent;
        this.streamDependency = streamDependency;
        this.weight = weight;
        this.exclusive = exclusive;
    }

    @Override
    void clear() {
        clearHeaderBlock();
        endStream = false;
        priorityPresent = false;
        streamDependency = 0;
        weight = Http2CodecUtil.DEFAULT_PRIORITY_WEIGHT;
        exclusive = false;
    }

    @Override
    public byte frameType() {
        return Http2FrameTypes.HEADERS;
    }

    @Override
    public String name() {
        return "HEADERS";
    }

    @Override
    public Http2Headers headers() {
        ensureAccessible();
        return headers;
    }

    @Override
    public int padding() {
        ensureAccessible();
        return padding;
    }

    @Override
    public boolean isEndStream() {
        ensureAccessible();
        return endStream;
    }

    @Override
    public boolean priorityPresent() {
        ensureAccessible();
        return priorityPresent;
    }

    @Override
    public int streamDependency() {
        ensureAccessible();
        return streamDependency;
    }

    @Override
    public short weight() {
        ensureAccessible();
        return weight;
    }

    @Override
    public boolean exclusive() {
        ensureAccessible();
        return exclusive;
    }

    @Override
    public PooledHeadersFrame stream(Http2FrameStream stream) {
        super.stream(stream);
        return this;
    }

    /**
     * Equal to another pooled frame of this type with the same values: the fields {@code DefaultHttp2HeadersFrame}
     * compares (stream, headers, endStream, padding; not the priority fields, which Netty's frame does not have),
     * and the stream id. Netty's frame equals only frames of its own class, so neither equals the other. In paranoid
     * mode a released frame throws {@code IllegalReferenceCountException}.
     */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof PooledHeadersFrame)) {
            return false;
        }
        PooledHeadersFrame other = (PooledHeadersFrame) o;
        return sameStream(other) && headers().equals(other.headers()) && isEndStream() == other.isEndStream()
                && padding() == other.padding();
    }

    @Override
    public int hashCode() {
        int hash = streamHash();
        hash = hash * 31 + headers().hashCode();
        hash = hash * 31 + (isEndStream() ? 0 : 1);
        hash = hash * 31 + padding();
        return hash;
    }

    @Override
    String fields() {
        return "(stream=" + streamOrId() + ", headers=" + headers() + ", endStream=" + isEndStream()
                + ", padding=" + padding() + ')';
    }
}
