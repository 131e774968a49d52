/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.Recycler;

/**
 * Closes a stream once the write that ended it has completed: what Netty's {@code Http2ConnectionHandler.closeStream}
 * makes a new lambda for on every stream. The pooled handlers add this instead; it calls their Netty
 * {@code closeStream} with the completed future, which closes the stream at once, as that lambda does. Recycled
 * once called: a promise calls a listener once and then lets go of it.
 */
final class StreamCloseListener implements ChannelFutureListener {

    /** A handler whose Netty {@code closeStream} this listener calls. */
    interface Closer {
        /** Netty's {@code Http2ConnectionHandler.closeStream}, with a completed future. */
        void closeStreamNow(Http2Stream stream, ChannelFuture future);
    }

    private static final Recycler<StreamCloseListener> RECYCLER = FramePool.newRecycler(StreamCloseListener::new);

    private final Recycler.Handle<StreamCloseListener> handle;
    private Closer closer;
    private Http2Stream stream;

    private StreamCloseListener(Recycler.Handle<StreamCloseListener> handle) {
        this.handle = handle;
    }

    /**
     * A pooled handler's {@code closeStream}: as Netty's, with this listener instead of Netty's lambda when the
     * future is still to complete.
     */
    static void closeStream(Closer closer, Http2Stream stream, ChannelFuture future) {
        if (future.isDone()) {
            closer.closeStreamNow(stream, future);
        } else {
            StreamCloseListener listener = RECYCLER.get();
            listener.closer = closer;
            listener.stream = stream;
            future.addListener(listener);
        }
    }

    @Override
    public void operationComplete(ChannelFuture future) {
        Closer closer = this.closer;
        Http2Stream stream = this.stream;
        this.closer = null;
        this.stream = null;
        // Recycled first: closing the stream may close others, which takes listeners again.
        handle.recycle(this);
        closer.closeStreamNow(stream, future);
    }
}
