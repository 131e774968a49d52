/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2PriorityFrame;
import io.netty.util.Recycler;
import io.netty.util.internal.StringUtil;

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

    @Override
    public String toString() {
        return StringUtil.simpleClassName(this) + "(stream=" + streamId + ", streamDependency=" + streamDependency
                + ", weight=" + weight + ", exclusive=" + exclusive + ')';
    }
}
