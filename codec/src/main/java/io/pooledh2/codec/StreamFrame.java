/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2StreamFrame;
import io.netty.util.Recycler;

/** A pooled frame that belongs to a stream and can carry the {@link Http2FrameStream} a frame codec gives it. */
abstract class StreamFrame extends PooledFrame implements Http2StreamFrame {

    int streamId;
    private Http2FrameStream stream;

    StreamFrame(Recycler.Handle<? extends PooledFrame> handle) {
        super(handle);
    }

    @Override
    public int streamId() {
        ensureAccessible();
        return streamId;
    }

    @Override
    public Http2FrameStream stream() {
        ensureAccessible();
        return stream;
    }

    @Override
    public StreamFrame stream(Http2FrameStream stream) {
        ensureAccessible();
        this.stream = stream;
        return this;
    }

    /** Subclasses call this from their {@code init}: a parse sets every field, the stream included. */
    final void initStream(int streamId) {
        this.streamId = streamId;
        stream = null;
    }

    /** Subclasses call this from {@link #clear()}. */
    final void clearStream() {
        initStream(0);
    }
}
