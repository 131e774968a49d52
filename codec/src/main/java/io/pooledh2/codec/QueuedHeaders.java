/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.Recycler;

/**
 * Trailers that wait behind their stream's DATA in the flow controller, as Netty's
 * {@code DefaultHttp2ConnectionEncoder.FlowControlledHeaders}: they take no window, but keep their place after the
 * DATA before them.
 */
final class QueuedHeaders extends QueuedWrite {

    private static final Recycler<QueuedHeaders> RECYCLER = FramePool.newRecycler(QueuedHeaders::new);

    private Http2Headers headers;
    private boolean hasPriority;
    private int streamDependency;
    private short weight;
    private boolean exclusive;

    private QueuedHeaders(Recycler.Handle<QueuedHeaders> handle) {
        super(handle);
    }

    /** Trailers, with END_STREAM, which is when the encoder queues HEADERS. */
    static QueuedHeaders newInstance(PooledHttp2ConnectionEncoder encoder, Http2Stream stream, Http2Headers headers,
                                     boolean hasPriority, int streamDependency, short weight, boolean exclusive,
                                     int padding, ChannelPromise promise) {
        ChannelPromise unvoided = promise.unvoid();
        checkPadding(padding);
        QueuedHeaders frame = RECYCLER.get();
        frame.init(encoder, stream, padding, true, unvoided);
        frame.headers = headers;
        frame.hasPriority = hasPriority;
        frame.streamDependency = streamDependency;
        frame.weight = weight;
        frame.exclusive = exclusive;
        return frame;
    }

    @Override
    public int size() {
        return 0;
    }

    @Override
    public void error(ChannelHandlerContext ctx, Throwable cause) {
        if (ctx != null) {
            encoder.lifecycleManager().onError(ctx, true, cause);
        }
        promise.tryFailure(cause);
    }

    @Override
    public void write(ChannelHandlerContext ctx, int allowedBytes) {
        boolean isInformational = PooledHttp2ConnectionEncoder.validateHeadersSentState(stream, headers,
                encoder.isServer(), endOfStream);
        // Listening before the write, as Netty's encoder does, so that onError comes before closeStreamLocal.
        listenTo(promise);
        ChannelFuture future = PooledHttp2ConnectionEncoder.sendHeaders(encoder.writer(), ctx, stream.id(), headers,
                hasPriority, streamDependency, weight, exclusive, padding, endOfStream, promise);
        if (future.cause() == null) {
            stream.headersSent(isInformational);
        }
    }

    @Override
    public boolean merge(ChannelHandlerContext ctx, Http2RemoteFlowController.FlowControlled next) {
        return false;
    }

    @Override
    void recycle() {
        headers = null;
        hasPriority = false;
        streamDependency = 0;
        weight = 0;
        exclusive = false;
        super.recycle();
    }
}
