/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2FrameTypes;

import java.util.Arrays;

/**
 * A {@link FrameSet}'s frames of one type: taken for a parse, put back when they return from their callback
 * released, and taken from the type's {@link FramePool} only when the slot has no free frame. A kept frame
 * whose last release happens on the slot's thread comes back here ({@link #takeHome}) rather than going to the
 * pool: an echo or a proxy keeps every DATA frame of a read until the read's flush, so a read of several DATA
 * frames has several out at once, and the {@code Recycler} costs more than an allocation (a get and a recycle
 * per frame, where this is a few plain operations).
 *
 * <p>The slot's first frame has a field and a flag of its own: that is the path of a frame released in its
 * callback, which every frame of most consumers takes, and it costs a flag test and no reference store (a
 * reference stored into a long-lived object costs a G1 write barrier). The other free frames wait on a stack.
 *
 * <p>The slot holds no frame that a consumer keeps: the reader {@link #letGo lets go} of such a frame, and a
 * frame taken from the stack leaves it. A consumer that drops a frame without releasing it then leaves it, and
 * the input its payload views, to the garbage collector, where Netty's leak detector reports the input as it
 * would report it under Netty's own frame; a slot that kept it reachable would hide that leak for as long as its
 * thread lives. The price is two reference stores per kept frame, one of them a null, which needs no barrier.
 */
final class FrameSlot<T extends PooledFrame> {

    /** The most free frames a slot keeps beside its first. */
    static final int MAX_SPARE_FRAMES = 64;

    private final FramePool<T> pool;
    /** HEADERS and PUSH_PROMISE: a frame that comes back empties its headers. */
    private final boolean headerBlocks;
    /**
     * The slot's first frame: free, or in a parse and its callback while {@link #free} is false. Null until a frame
     * comes back, and from the time the reader lets go of it to a consumer.
     */
    private T frame;
    private boolean free;
    /** The other free frames, a stack: positions {@code [0, spareCount)}; none out with a consumer. */
    private PooledFrame[] spares;
    private int spareCount;
    /** The thread of the slot's {@link FrameSet}, the only one that touches the slot. */
    private final Thread owner = Thread.currentThread();

    FrameSlot(FramePool<T> pool) {
        this.pool = pool;
        headerBlocks = pool.frameType == Http2FrameTypes.HEADERS || pool.frameType == Http2FrameTypes.PUSH_PROMISE;
    }

    /** A free frame of the slot's, or one from the pool if it has none. */
    @SuppressWarnings("unchecked")
    T take() {
        if (FrameReuseStatistics.ENABLED) {
            FrameReuseStatistics.countParsed(pool.frameType);
        }
        if (free) {
            free = false;
            return frame;
        }
        int n = spareCount;
        if (n != 0) {
            PooledFrame[] spares = this.spares;
            spareCount = --n;
            PooledFrame spare = spares[n];
            spares[n] = null;
            return (T) spare;
        }
        T taken = pool.get();
        taken.adoptedBy(this);
        return taken;
    }

    /**
     * The reader leaves a frame to a consumer that keeps it past its callback: the slot forgets it until it comes
     * back ({@link #takeHome}).
     */
    void letGo(PooledFrame kept) {
        if (kept == frame) {
            frame = null;
        }
    }

    /**
     * A frame a consumer kept, released for the last time and reset: back into the slot if this is the slot's
     * thread and the slot has room for it.
     *
     * @return {@code false} if the frame is not the slot's to take: the caller recycles it
     */
    boolean takeHome(PooledFrame returned) {
        return ownedByCurrentThread() && place(returned);
    }

    /** Whether the calling thread is the slot's, the thread that parses into the slot's frames. */
    boolean ownedByCurrentThread() {
        return owner == Thread.currentThread();
    }

    /** A frame taken from this slot that came back: free for the next parse, or to the pool if there is no room. */
    void putBack(PooledFrame returned) {
        if (!place(returned)) {
            returned.recycleUnused();
        }
    }

    /** Every free frame of the slot drops what its last parse left in it ({@link FrameSet#forgetLastParses}). */
    void forgetLastParses() {
        if (free && frame instanceof StreamFrame) {
            ((StreamFrame) frame).forgetLastParse();
        }
        for (int i = 0; i < spareCount; i++) {
            if (spares[i] instanceof StreamFrame) {
                ((StreamFrame) spares[i]).forgetLastParse();
            }
        }
    }

    @SuppressWarnings("unchecked")
    private boolean place(PooledFrame returned) {
        if (headerBlocks) {
            ((HeaderBlockFrame) returned).emptyHeaders();
        }
        if (returned == frame) {
            free = true;
            return true;
        }
        if (frame == null) {
            frame = (T) returned;
            free = true;
            return true;
        }
        int n = spareCount;
        if (n == MAX_SPARE_FRAMES) {
            return false;
        }
        PooledFrame[] spares = this.spares;
        if (spares == null) {
            this.spares = spares = new PooledFrame[4];
        } else if (n == spares.length) {
            this.spares = spares = Arrays.copyOf(spares, n * 2);
        }
        spares[n] = returned;
        spareCount = n + 1;
        return true;
    }
}
