/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2PriorityFrame;
import io.netty.util.Recycler;

/** PRIORITY (deprecated by RFC 9113, still parsed and validated). */
final class PooledPriorityFrame extends StreamFrame implements Http2PriorityFrame {

    static final FramePool<PooledPriorityFrame> POOL =
            new FramePool<>(Http2FrameTypes.PRIORITY, PooledPriorityFrame::new);

    int streamDependency;
    short weight;
    boolean exclusive;

    private PooledPriorityFrame(Recycler.Handle<PooledPriorityFrame> handle) {
        super(handle, false);
    }

    void init(int streamId, int streamDependency, short weight, boolean exclusive) {
        initStream(streamId);
        this.streamDependency = streamDependency;
        this.weight = weight;
        this.exclusive = exclusive;
    }

    @Override
    void clear() {
        clearStream();
        streamDependency = 0;
        weight = 0;
        exclusive = false;
    }

    @Override
    public byte frameType() {
        return Http2FrameTypes.PRIORITY;
    }

    @Override
    public String name() {
        return "PRIORITY_FRAME";
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
    public PooledPriorityFrame stream(Http2FrameStream stream) {
        super.stream(stream);
        return this;
    }

    /**
     * Equal to another pooled frame of this type with the same values: the fields {@code DefaultHttp2PriorityFrame}
     * compares (stream, streamDependency, weight, exclusive), and the stream id. Netty's frame equals only frames of
     * its own class, so neither equals the other. In paranoid mode a released frame throws {@code
     * IllegalReferenceCountException}.
     */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof PooledPriorityFrame)) {
            return false;
        }
        PooledPriorityFrame other = (PooledPriorityFrame) o;
        return sameStream(other) && streamDependency() == other.streamDependency() && weight() == other.weight()
                && exclusive() == other.exclusive();
    }

    @Override
    public int hashCode() {
        int hash = streamHash();
        hash = hash * 31 + streamDependency();
        hash = hash * 31 + weight();
        hash = hash * 31 + (exclusive() ? 1 : 0);
        return hash;
    }

    @Override
    String fields() {
        return "(stream=" + streamOrId() + ", streamDependency=" + streamDependency() + ", weight=" + weight()
                + ", exclusive=" + exclusive() + ')';
    }
}
