/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2FrameTypes;

import java.util.Arrays;

/**
 * A {@link FrameSet}'s frames of one type: taken for a parse, put back when they return from their callback
 * released, and taken from the type's {@link FramePool} only when every frame the slot knows is out. A kept frame
 * whose last release happens on the slot's thread comes back here ({@link #takeHome}) rather than going to the
 * pool: an echo or a proxy keeps every DATA frame of a read until the read's flush, so a read of several DATA
 * frames has several out at once, and the {@code Recycler} costs more than an allocation (a get and a recycle
 * per frame, where this is a few plain operations).
 *
 * <p>The slot's first frame has a field and a flag of its own: that is the path of a frame released in its
 * callback, which every frame of most consumers takes, and it costs a flag test. The others, for frames kept
 * while more of their type are parsed, sit in an array, with the free ones' bits set in a {@code long}; each knows
 * its position ({@link PooledFrame#slotIndex}). Taking and putting back frames stores no reference in steady
 * state, only the flag or the bits: a reference stored into a long-lived object costs a GC write barrier. A frame
 * whose position has meanwhile gone to another (all {@link #MAX_EXTRA_FRAMES} were out) is not the slot's any
 * more: it goes to the pool when it comes back, unless the first frame is out then, which it replaces.
 */
final class FrameSlot<T extends PooledFrame> {

    /** The most frames a slot keeps beside its first: one bit each in {@link #extraFree}. */
    static final int MAX_EXTRA_FRAMES = Long.SIZE;

    private final FramePool<T> pool;
    /** HEADERS and PUSH_PROMISE: a frame that comes back empties its headers. */
    private final boolean headerBlocks;
    /** The slot's first frame; while {@link #free} is false, in a parse or kept by a consumer (then not ours). */
    private T frame;
    private boolean free;
    /** The other frames: positions {@code [0, extraFilled)} hold one each; it grows up to MAX_EXTRA_FRAMES. */
    private PooledFrame[] extra;
    private int extraFilled;
    /** Bit {@code i} set: {@code extra[i]} is free. */
    private long extraFree;
    /** Where a frame from the pool goes once every position is filled and every frame is out. */
    private int nextEvicted;
    /** The thread of the slot's {@link FrameSet}, the only one that touches the slot. */
    private final Thread owner = Thread.currentThread();

    FrameSlot(FramePool<T> pool) {
        this.pool = pool;
        headerBlocks = pool.frameType == Http2FrameTypes.HEADERS || pool.frameType == Http2FrameTypes.PUSH_PROMISE;
    }

    /** A free frame of the slot's, or one from the pool if consumers kept them all. */
    @SuppressWarnings("unchecked")
    T take() {
        if (FrameReuseStatistics.ENABLED) {
            FrameReuseStatistics.countParsed(pool.frameType);
        }
        if (free) {
            free = false;
            return frame;
        }
        long extraFree = this.extraFree;
        if (extraFree != 0) {
            this.extraFree = extraFree & (extraFree - 1);
            return (T) extra[Long.numberOfTrailingZeros(extraFree)];
        }
        return adopt(pool.get());
    }

    /**
     * Gives a frame from the pool a place: the first frame's if the slot has none yet, else a new position while
     * there is room, else the position given out longest ago.
     */
    private T adopt(T taken) {
        taken.adoptedBy(this);
        if (frame == null) {
            frame = taken;
            return taken;
        }
        PooledFrame[] extra = this.extra;
        int i = extraFilled;
        if (i < MAX_EXTRA_FRAMES) {
            if (extra == null) {
                this.extra = extra = new PooledFrame[4];
            } else if (i == extra.length) {
                this.extra = extra = Arrays.copyOf(extra, i * 2);
            }
            extraFilled = i + 1;
        } else {
            // Every frame is out: the one that had this position goes to the pool when it comes back.
            i = nextEvicted;
            nextEvicted = (i + 1) & (MAX_EXTRA_FRAMES - 1);
        }
        extra[i] = taken;
        taken.slotIndex = i;
        return taken;
    }

    /**
     * A frame a consumer kept, released for the last time and reset: back into the slot if this is the slot's
     * thread and the slot has a place for it.
     *
     * @return {@code false} if the frame is not the slot's to take: the caller recycles it
     */
    boolean takeHome(PooledFrame returned) {
        return owner == Thread.currentThread() && putBackIfPlaced(returned);
    }

    /** A frame taken from this slot that came back: free for the next parse, or to the pool if it has no place. */
    void putBack(PooledFrame returned) {
        if (!putBackIfPlaced(returned)) {
            returned.recycleUnused();
        }
    }

    /** Every free frame of the slot drops what its last parse left in it ({@link FrameSet#forgetLastParses}). */
    void forgetLastParses() {
        if (free && frame instanceof StreamFrame) {
            ((StreamFrame) frame).forgetLastParse();
        }
        for (long bits = extraFree; bits != 0; bits &= bits - 1) {
            PooledFrame spare = extra[Long.numberOfTrailingZeros(bits)];
            if (spare instanceof StreamFrame) {
                ((StreamFrame) spare).forgetLastParse();
            }
        }
    }

    private boolean putBackIfPlaced(PooledFrame returned) {
        if (headerBlocks) {
            ((HeaderBlockFrame) returned).emptyHeaders();
        }
        if (returned == frame) {
            free = true;
            return true;
        }
        int i = returned.slotIndex;
        if (i < extraFilled && extra[i] == returned) {
            extraFree |= 1L << i;
            return true;
        }
        if (!free) {
            // The first frame is out, and may never come back (released on another thread): this one replaces it.
            @SuppressWarnings("unchecked")
            T typed = (T) returned;
            frame = typed;
            free = true;
            return true;
        }
        return false;
    }
}
