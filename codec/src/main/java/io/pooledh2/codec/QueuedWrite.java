/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http2.Http2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.Recycler;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import static io.netty.util.internal.ObjectUtil.checkPositiveOrZero;

/**
 * A frame of {@link PooledHttp2ConnectionEncoder} waiting in the remote flow controller: what Netty's
 * {@code DefaultHttp2ConnectionEncoder.FlowControlledBase} is, recycled. It listens to the promises of its own
 * writes, so it goes back to its {@code Recycler} only when the flow controller is done with it
 * ({@link #writeComplete()}) and every write it listens to has completed, in the last of those listener calls: the
 * flow controller still asks a frame its size right after {@code writeComplete()}, and a listener call runs from a
 * promise, never from inside the flow controller's loop over this frame. A frame that does not get there (failed
 * by the flow controller, or its last write completed before {@code writeComplete()}) is left to the garbage
 * collector.
 */
abstract class QueuedWrite implements Http2RemoteFlowController.FlowControlled, ChannelFutureListener {

    private static final InternalLogger promiseLogger =
            InternalLoggerFactory.getInstance("io.netty.util.concurrent.DefaultPromise");

    private final Recycler.Handle<QueuedWrite> handle;
    PooledHttp2ConnectionEncoder encoder;
    Http2Stream stream;
    ChannelPromise promise;
    boolean endOfStream;
    int padding;
    /** The thread that took it from the recycler: the channel's event loop, the only one that recycles it. */
    private Thread owner;
    /** Write promises this frame listens to that have not completed. */
    private int pendingWrites;
    /** {@link #writeComplete()} was called: the flow controller has let go. */
    private boolean written;

    QueuedWrite(Recycler.Handle<? extends QueuedWrite> handle) {
        @SuppressWarnings("unchecked")
        Recycler.Handle<QueuedWrite> own = (Recycler.Handle<QueuedWrite>) handle;
        this.handle = own;
    }

    /** As {@code FlowControlledBase}'s constructor: a negative padding fails before anything is kept. */
    static int checkPadding(int padding) {
        return checkPositiveOrZero(padding, "padding");
    }

    final void init(PooledHttp2ConnectionEncoder encoder, Http2Stream stream, int padding, boolean endOfStream,
                    ChannelPromise promise) {
        this.encoder = encoder;
        this.stream = stream;
        this.padding = padding;
        this.endOfStream = endOfStream;
        this.promise = promise;
        owner = Thread.currentThread();
    }

    /** Listens to the promise of a write this frame makes; the frame stays out of the recycler until it completes. */
    final ChannelPromise listenTo(ChannelPromise writePromise) {
        pendingWrites++;
        return writePromise.addListener(this);
    }

    @Override
    public void writeComplete() {
        if (endOfStream) {
            encoder.lifecycleManager().closeStreamLocal(stream, promise);
        }
        // Only now: a write that completes inside closeStreamLocal must not recycle the frame before this returns.
        written = true;
    }

    @Override
    public final void operationComplete(ChannelFuture future) {
        try {
            if (!future.isSuccess()) {
                error(encoder.flowController().channelHandlerContext(), future.cause());
            }
        } catch (Throwable t) {
            // Netty's encoder is a listener of its own beside the promises it completes; a promise logs what its
            // listener throws and goes on to the next.
            promiseLogger.warn("An exception was thrown by " + getClass().getName() + ".operationComplete()", t);
        }
        writeCompleted(future);
        // Last, after anything this call has set off: a nested completion of another write does not recycle it.
        if (--pendingWrites == 0 && written && Thread.currentThread() == owner && isEmpty()) {
            recycle();
        }
    }

    /** A write this frame listens to has completed, after the frame has handled its failure. */
    void writeCompleted(ChannelFuture future) {
    }

    /** Whether the frame holds nothing that is still to be written or completed. */
    boolean isEmpty() {
        return true;
    }

    /** Clears what the frame refers to and returns it to its recycler. */
    void recycle() {
        encoder = null;
        stream = null;
        promise = null;
        endOfStream = false;
        padding = 0;
        owner = null;
        pendingWrites = 0;
        written = false;
        handle.recycle(this);
    }
}
