/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2FrameTypes;

/**
 * A {@link FrameSet}'s frame of one type: taken for a parse, put back when it returns from its callback
 * released, replaced from the type's {@link FramePool} when a consumer keeps it. A kept frame whose last release
 * happens on the slot's thread comes back here ({@link #takeHome}) rather than going to the pool.
 *
 * <p>Whether the frame is free is a flag, not a null reference: in steady state taking and putting back the same
 * frame then stores no reference, and a reference store into a long-lived object costs a GC write barrier.
 */
final class FrameSlot<T extends PooledFrame> {

    private final FramePool<T> pool;
    /** HEADERS and PUSH_PROMISE: a frame that comes back empties its headers. */
    private final boolean headerBlocks;
    /** The slot's frame; while {@link #free} is false, in a parse or kept by a consumer (then not ours). */
    private T frame;
    private boolean free;
    /** The thread of the slot's {@link FrameSet}, the only one that touches the slot. */
    private final Thread owner = Thread.currentThread();

    FrameSlot(FramePool<T> pool) {
        this.pool = pool;
        headerBlocks = pool.frameType == Http2FrameTypes.HEADERS || pool.frameType == Http2FrameTypes.PUSH_PROMISE;
    }

    /** The slot's frame, or one from the pool if a consumer kept the last one. */
    T take() {
        if (FrameReuseStatistics.ENABLED) {
            FrameReuseStatistics.countParsed(pool.frameType);
        }
        if (free) {
            free = false;
            return frame;
        }
        return pool.get();
    }

    /**
     * A frame a consumer kept, released for the last time and reset: back into the slot if this is the slot's
     * thread and the slot has no free frame, as when the same thread's next read took it from the pool.
     *
     * @return {@code false} if the frame is not the slot's to take: the caller recycles it
     */
    boolean takeHome(PooledFrame returned) {
        if (owner != Thread.currentThread() || free) {
            return false;
        }
        putBack(returned);
        return true;
    }

    /** A frame that came back: kept for the next parse, or given to the pool if the slot has one already. */
    void putBack(PooledFrame returned) {
        if (headerBlocks) {
            ((HeaderBlockFrame) returned).emptyHeaders();
        }
        if (returned == frame) {
            free = true;
        } else if (!free) {
            @SuppressWarnings("unchecked")
            T typed = (T) returned;
            frame = typed;
            free = true;
        } else {
            returned.recycleUnused();
        }
    }
}
