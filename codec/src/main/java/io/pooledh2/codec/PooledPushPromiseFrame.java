/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2PushPromiseFrame;
import io.netty.util.Recycler;

/** PUSH_PROMISE, its CONTINUATION frames assembled. */
final class PooledPushPromiseFrame extends HeaderBlockFrame implements Http2PushPromiseFrame {

    static final FramePool<PooledPushPromiseFrame> POOL =
            new FramePool<>(Http2FrameTypes.PUSH_PROMISE, PooledPushPromiseFrame::new);

    int promisedStreamId;
    private Http2FrameStream pushStream;

    private PooledPushPromiseFrame(Recycler.Handle<PooledPushPromiseFrame> handle) {
        super(handle);
    }

    /** Sets every field but the headers, which arrive when the block ends. */
    void init(int streamId, int promisedStreamId, int padding) {
        initStream(streamId);
        this.promisedStreamId = promisedStreamId;
        this.padding = padding;
        this.pushStream = null;
    }

    @Override
    void clear() {
        clearHeaderBlock();
        promisedStreamId = 0;
        pushStream = null;
    }

    @Override
    public byte frameType() {
        return Http2FrameTypes.PUSH_PROMISE;
    }

    @Override
    public String name() {
        return "PUSH_PROMISE_FRAME";
    }

    @Override
    public Http2Headers http2Headers() {
        ensureAccessible();
        return headers;
    }

    @Override
    public int padding() {
        ensureAccessible();
        return padding;
    }

    @Override
    public int promisedStreamId() {
        ensureAccessible();
        return promisedStreamId;
    }

    @Override
    public Http2FrameStream pushStream() {
        ensureAccessible();
        return pushStream;
    }

    @Override
    public PooledPushPromiseFrame pushStream(Http2FrameStream stream) {
        ensureAccessible();
        pushStream = stream;
        return this;
    }

    @Override
    public PooledPushPromiseFrame stream(Http2FrameStream stream) {
        super.stream(stream);
        return this;
    }

    @Override
    String fields() {
        return "{pushStreamFrame=" + (pushStream() != null ? pushStream() : promisedStreamId())
                + ", http2Headers=" + http2Headers() + ", streamFrame=" + streamOrId()
                + ", padding=" + padding() + '}';
    }
}
