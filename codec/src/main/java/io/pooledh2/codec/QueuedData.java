/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DelegatingChannelPromiseNotifier;
import io.netty.channel.VoidChannelPromise;
import io.netty.handler.codec.http2.Http2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.Recycler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.internal.PlatformDependent;
import io.netty.util.internal.PromiseNotificationUtil;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.util.Arrays;

import static io.netty.handler.codec.http2.Http2Error.INTERNAL_ERROR;
import static io.netty.handler.codec.http2.Http2Exception.streamError;
import static io.netty.util.internal.ObjectUtil.checkNotNull;
import static io.netty.util.internal.ObjectUtil.checkPositiveOrZero;

/**
 * DATA waiting in the flow controller, as Netty's {@code DefaultHttp2ConnectionEncoder.FlowControlledData} with its
 * {@code CoalescingBufferQueue}: the written buffers with their promises, cut into frames as the flow controller
 * allows, merged with the stream's next DATA while both wait, each promise completed when the write that took the
 * last of its buffer completes. The queue is two arrays kept with the frame, and a promise rides on the frame's own
 * listener on that write instead of a notifier of its own, completed as Netty's
 * {@code DelegatingChannelPromiseNotifier} completes it, right after the frame's own handling of the write, as
 * the notifier was the listener after it. The queue's logic, its errors, the composite buffers it builds and their
 * component limits, and its logging are those of Netty's queue in the netty-transport on the class path.
 */
final class QueuedData extends QueuedWrite {

    private static final InternalLogger queueLogger =
            InternalLoggerFactory.getInstance("io.netty.channel.AbstractCoalescingBufferQueue");
    private static final InternalLogger notifierLogger =
            InternalLoggerFactory.getInstance(DelegatingChannelPromiseNotifier.class);
    private static final int INITIAL_ENTRIES = 2;
    /** Arrays larger than this are not kept for the next use. */
    private static final int MAX_KEPT_ENTRIES = 16;

    private static final Recycler<QueuedData> RECYCLER = FramePool.newRecycler(QueuedData::new);

    /** The queue's channel: the first promise's, whose allocator composes and which makes the failed future. */
    private Channel channel;
    /**
     * Entries {@link #head} to {@link #tail}: a buffer and the promise to complete when it has been written (null
     * for a void promise). A null buffer before {@link #tail} is one taken whose promise is still to be attached.
     */
    private ByteBuf[] buffers = new ByteBuf[INITIAL_ENTRIES];
    private ChannelPromise[] promises = new ChannelPromise[INITIAL_ENTRIES];
    private int head;
    private int tail;
    /** The queue's count of its bytes, which a buffer consumed elsewhere leaves behind its buffers. */
    private int readableBytes;
    private int dataSize;
    /** Promises to complete when the write promise beside them does: {@link #attached} pairs. */
    private ChannelFuture[] attachedTo = new ChannelFuture[INITIAL_ENTRIES];
    private ChannelPromise[] attachedPromises = new ChannelPromise[INITIAL_ENTRIES];
    private int attached;
    /** It was merged into the frame before it by the flow controller, during the write that made it. */
    private boolean merged;

    private QueuedData(Recycler.Handle<QueuedData> handle) {
        super(handle);
    }

    static QueuedData newInstance(PooledHttp2ConnectionEncoder encoder, Http2Stream stream, ByteBuf data, int padding,
                                  boolean endOfStream, ChannelPromise promise) {
        // What Netty's constructors check, in their order, before anything is kept.
        checkPadding(padding);
        Channel channel = checkNotNull(promise.channel(), "channel");
        QueuedData frame = RECYCLER.get();
        frame.init(encoder, stream, padding, endOfStream, promise);
        frame.channel = channel;
        frame.add(data, promise);
        frame.dataSize = frame.readableBytes;
        return frame;
    }

    @Override
    public int size() {
        return dataSize + padding;
    }

    @Override
    public void error(ChannelHandlerContext ctx, Throwable cause) {
        releaseAndCompleteAll(channel.newFailedFuture(cause));
        // dataSize stays: the flow controller returns the frame's size to the window after this. write() sets it
        // to 0 when it finds the queue emptied by an error.
        encoder.lifecycleManager().onError(ctx, true, cause);
    }

    @Override
    public void write(ChannelHandlerContext ctx, int allowedBytes) {
        int queuedData = readableBytes;
        if (!endOfStream) {
            if (queuedData == 0) {
                if (head == tail) {
                    // Emptied by an error: the whole frame counts as consumed.
                    padding = dataSize = 0;
                } else {
                    // Only empty buffers before the end of the stream: no frame, but their promises complete in
                    // order, through an empty write.
                    ChannelPromise writePromise = listenTo(ctx.newPromise());
                    ctx.write(remove(channel.alloc(), 0, writePromise), writePromise);
                }
                return;
            }
            if (allowedBytes == 0) {
                return;
            }
        }
        int writableData = Math.min(queuedData, allowedBytes);
        ChannelPromise writePromise = listenTo(ctx.newPromise());
        ByteBuf toWrite = remove(channel.alloc(), writableData, writePromise);
        dataSize = readableBytes;
        if (NettyApi.NETTY_4_2_16) {
            // The queue counted bytes its buffers no longer hold: a queued buffer was consumed elsewhere.
            int producedBytes = toWrite.readableBytes();
            if (producedBytes < writableData) {
                ReferenceCountUtil.safeRelease(toWrite);
                padding = dataSize = 0;
                writePromise.tryFailure(streamError(stream.id(), INTERNAL_ERROR,
                        "Stream %d flow-controlled queue produced %d bytes but reported %d",
                        stream.id(), producedBytes, writableData));
                return;
            }
        }
        int writablePadding = Math.min(allowedBytes - writableData, padding);
        padding -= writablePadding;
        encoder.frameWriter().writeData(ctx, stream.id(), toWrite, writablePadding, endOfStream && size() == 0,
                writePromise);
    }

    @Override
    public boolean merge(ChannelHandlerContext ctx, Http2RemoteFlowController.FlowControlled next) {
        if (next.getClass() != QueuedData.class) {
            return false;
        }
        QueuedData nextData = (QueuedData) next;
        if (Integer.MAX_VALUE - nextData.size() < size()) {
            return false;
        }
        nextData.moveTo(this);
        dataSize = readableBytes;
        // Padding does not add up across merged writes.
        padding = Math.max(padding, nextData.padding);
        endOfStream = nextData.endOfStream;
        if (NettyApi.MERGED_DATA_TAKES_LATER_PROMISE) {
            promise = nextData.promise;
        }
        nextData.merged = true;
        return true;
    }

    /** Returns the frame to the recycler if the flow controller merged it into the one before. */
    void recycleIfMerged() {
        if (merged) {
            recycle();
        }
    }

    @Override
    void writeCompleted(ChannelFuture future) {
        // The promises attached to this write, in the order their buffers were taken.
        int kept = 0;
        for (int i = 0; i < attached; i++) {
            if (attachedTo[i] == future) {
                notifyPromise(attachedPromises[i], future);
            } else {
                attachedTo[kept] = attachedTo[i];
                attachedPromises[kept++] = attachedPromises[i];
            }
        }
        for (int i = kept; i < attached; i++) {
            attachedTo[i] = null;
            attachedPromises[i] = null;
        }
        attached = kept;
    }

    @Override
    boolean isEmpty() {
        return head == tail && attached == 0;
    }

    @Override
    void recycle() {
        channel = null;
        for (int i = head; i < tail; i++) {
            buffers[i] = null;
            promises[i] = null;
        }
        head = tail = 0;
        readableBytes = 0;
        dataSize = 0;
        for (int i = 0; i < attached; i++) {
            attachedTo[i] = null;
            attachedPromises[i] = null;
        }
        attached = 0;
        merged = false;
        if (buffers.length > MAX_KEPT_ENTRIES) {
            buffers = new ByteBuf[INITIAL_ENTRIES];
            promises = new ChannelPromise[INITIAL_ENTRIES];
        }
        if (attachedTo.length > MAX_KEPT_ENTRIES) {
            attachedTo = new ChannelFuture[INITIAL_ENTRIES];
            attachedPromises = new ChannelPromise[INITIAL_ENTRIES];
        }
        super.recycle();
    }

    // The queue, as Netty's CoalescingBufferQueue.

    private void add(ByteBuf buf, ChannelPromise promise) {
        buf.touch();
        ensureEntries(1);
        buffers[tail] = buf;
        promises[tail++] = promise.isVoid() ? null : promise;
        incrementReadableBytes(buf.readableBytes());
    }

    /**
     * Appends this queue's entries to {@code dest}'s and empties this one. Netty's queue copies them and is then
     * dropped with its copies; here they move, so that this frame can be recycled.
     */
    private void moveTo(QueuedData dest) {
        int count = tail - head;
        dest.ensureEntries(count);
        System.arraycopy(buffers, head, dest.buffers, dest.tail, count);
        System.arraycopy(promises, head, dest.promises, dest.tail, count);
        dest.tail += count;
        for (int i = head; i < tail; i++) {
            buffers[i] = null;
            promises[i] = null;
        }
        head = tail = 0;
        int bytes = readableBytes;
        readableBytes = 0;
        dest.incrementReadableBytes(bytes);
    }

    /**
     * Takes up to {@code bytes} from the front: whole buffers, composed if more than one, and a retained slice of
     * the buffer that is only partly taken. The promise of every buffer taken whole completes with
     * {@code aggregatePromise}.
     */
    private ByteBuf remove(ByteBufAllocator alloc, int bytes, ChannelPromise aggregatePromise) {
        checkPositiveOrZero(bytes, "bytes");
        checkNotNull(aggregatePromise, "aggregatePromise");
        if (head == tail) {
            if (NettyApi.COALESCING_QUEUE_RECONCILES) {
                reconcileReadableBytes();
            } else {
                assert readableBytes == 0;
            }
            return Unpooled.EMPTY_BUFFER;
        }
        bytes = Math.min(bytes, readableBytes);
        ByteBuf toReturn = null;
        ByteBuf entryBuffer = null;
        int originalBytes = bytes;
        try {
            while (head < tail) {
                entryBuffer = buffers[head];
                int bufferBytes = entryBuffer.readableBytes();
                if (bufferBytes > bytes) {
                    // It stays first, with what is left of it.
                    if (bytes > 0) {
                        entryBuffer = entryBuffer.readRetainedSlice(bytes);
                        toReturn = toReturn == null ? entryBuffer : compose(alloc, toReturn, entryBuffer);
                        bytes = 0;
                    }
                    break;
                }
                buffers[head] = null;
                bytes -= bufferBytes;
                toReturn = toReturn == null ? entryBuffer : compose(alloc, toReturn, entryBuffer);
                entryBuffer = null;
                attachFirst(aggregatePromise);
            }
        } catch (Throwable cause) {
            decrementReadableBytes(originalBytes - bytes);
            if (head < tail && buffers[head] == null) {
                attachFirst(aggregatePromise);
            }
            ReferenceCountUtil.safeRelease(entryBuffer);
            ReferenceCountUtil.safeRelease(toReturn);
            aggregatePromise.setFailure(cause);
            PlatformDependent.throwException(cause);
        }
        decrementReadableBytes(originalBytes - bytes);
        reconcileReadableBytes();
        return toReturn;
    }

    /** Attaches the promise of the first entry, whose buffer has been taken, to the write, and drops the entry. */
    private void attachFirst(ChannelPromise aggregatePromise) {
        ChannelPromise promise = promises[head];
        promises[head++] = null;
        if (promise != null) {
            if (attached == attachedTo.length) {
                attachedTo = Arrays.copyOf(attachedTo, attached << 1);
                attachedPromises = Arrays.copyOf(attachedPromises, attached << 1);
            }
            attachedTo[attached] = aggregatePromise;
            attachedPromises[attached++] = promise;
        }
    }

    private ByteBuf compose(ByteBufAllocator alloc, ByteBuf cumulation, ByteBuf next) {
        if (cumulation instanceof CompositeByteBuf) {
            CompositeByteBuf composite = (CompositeByteBuf) cumulation;
            composite.addComponent(true, next);
            return composite;
        }
        // Netty's queue sizes the composite for what it holds, buffers and their promises, plus two.
        CompositeByteBuf composite = alloc.compositeBuffer(queueSize() + 2);
        try {
            composite.addComponent(true, cumulation);
            composite.addComponent(true, next);
        } catch (Throwable cause) {
            composite.release();
            ReferenceCountUtil.safeRelease(next);
            PlatformDependent.throwException(cause);
        }
        return composite;
    }

    /** The number of objects Netty's queue would hold: every buffer not taken, and every promise not attached. */
    private int queueSize() {
        int size = 0;
        for (int i = head; i < tail; i++) {
            if (buffers[i] != null) {
                size++;
            }
            if (promises[i] != null) {
                size++;
            }
        }
        return size;
    }

    /** Releases every buffer and completes every promise still queued with {@code future}'s outcome. */
    private void releaseAndCompleteAll(ChannelFuture future) {
        Throwable pending = null;
        while (head < tail) {
            ByteBuf buffer = buffers[head];
            ChannelPromise promise = promises[head];
            buffers[head] = null;
            promises[head++] = null;
            if (buffer != null) {
                try {
                    decrementReadableBytes(buffer.readableBytes());
                    ReferenceCountUtil.safeRelease(buffer);
                } catch (Throwable t) {
                    pending = suppress(pending, t);
                }
            }
            if (promise != null) {
                try {
                    notifyPromise(promise, future);
                } catch (Throwable t) {
                    pending = suppress(pending, t);
                }
            }
        }
        head = tail = 0;
        reconcileReadableBytes();
        if (pending != null) {
            throw new IllegalStateException(pending);
        }
    }

    private static Throwable suppress(Throwable pending, Throwable t) {
        if (pending == null) {
            return t;
        }
        queueLogger.info("Throwable being suppressed because Throwable {} is already pending", pending, t);
        return pending;
    }

    /** Completes a written buffer's promise as Netty's {@code DelegatingChannelPromiseNotifier} does. */
    private static void notifyPromise(ChannelPromise promise, ChannelFuture future) {
        InternalLogger logger = promise instanceof VoidChannelPromise ? null : notifierLogger;
        if (future.isSuccess()) {
            PromiseNotificationUtil.trySuccess(promise, null, logger);
        } else if (future.isCancelled()) {
            PromiseNotificationUtil.tryCancel(promise, logger);
        } else {
            PromiseNotificationUtil.tryFailure(promise, future.cause(), logger);
        }
    }

    private void incrementReadableBytes(int increment) {
        int nextReadableBytes = readableBytes + increment;
        if (nextReadableBytes < readableBytes) {
            throw new IllegalStateException("buffer queue length overflow: " + readableBytes + " + " + increment);
        }
        readableBytes = nextReadableBytes;
    }

    private void decrementReadableBytes(int decrement) {
        readableBytes -= decrement;
        assert readableBytes >= 0;
    }

    /** An empty queue whose count says otherwise: a queued buffer was consumed by someone else. */
    private void reconcileReadableBytes() {
        if (readableBytes != 0 && head == tail) {
            if (NettyApi.COALESCING_QUEUE_RECONCILES) {
                queueLogger.error("readableBytes is {} but the queue is empty: a queued buffer was released or "
                        + "consumed while still referenced by the queue. This indicates a bug in the code that "
                        + "produced the buffer. Resetting readableBytes to 0.", readableBytes);
                decrementReadableBytes(readableBytes);
            }
        }
    }

    private void ensureEntries(int count) {
        if (tail + count <= buffers.length) {
            return;
        }
        int live = tail - head;
        int length = buffers.length;
        while (live + count > length) {
            length <<= 1;
        }
        ByteBuf[] newBuffers = length == buffers.length ? buffers : new ByteBuf[length];
        ChannelPromise[] newPromises = length == promises.length ? promises : new ChannelPromise[length];
        System.arraycopy(buffers, head, newBuffers, 0, live);
        System.arraycopy(promises, head, newPromises, 0, live);
        for (int i = live; i < tail; i++) {
            newBuffers[i] = null;
            newPromises[i] = null;
        }
        buffers = newBuffers;
        promises = newPromises;
        head = 0;
        tail = live;
    }
}
