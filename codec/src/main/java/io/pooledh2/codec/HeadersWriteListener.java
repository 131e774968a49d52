/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.Recycler;

/**
 * Tells the lifecycle manager of a HEADERS write that fails after it was handed to the channel, with the context it
 * was written on: what Netty's encoder makes a new lambda for on every such write. Recycled once called: a promise
 * calls a listener once and then lets go of it. Kept in no field, so an idle connection holds none.
 */
final class HeadersWriteListener implements ChannelFutureListener {

    private static final Recycler<HeadersWriteListener> RECYCLER = FramePool.newRecycler(HeadersWriteListener::new);

    private final Recycler.Handle<HeadersWriteListener> handle;
    private PooledHttp2ConnectionEncoder encoder;
    private ChannelHandlerContext ctx;

    private HeadersWriteListener(Recycler.Handle<HeadersWriteListener> handle) {
        this.handle = handle;
    }

    static HeadersWriteListener newInstance(PooledHttp2ConnectionEncoder encoder, ChannelHandlerContext ctx) {
        HeadersWriteListener listener = RECYCLER.get();
        listener.encoder = encoder;
        listener.ctx = ctx;
        return listener;
    }

    @Override
    public void operationComplete(ChannelFuture future) {
        PooledHttp2ConnectionEncoder encoder = this.encoder;
        ChannelHandlerContext ctx = this.ctx;
        this.encoder = null;
        this.ctx = null;
        // Recycled first: what the lifecycle manager does with the error may write HEADERS again.
        handle.recycle(this);
        Throwable cause = future.cause();
        if (cause != null) {
            encoder.lifecycleManager().onError(ctx, true, cause);
        }
    }
}
