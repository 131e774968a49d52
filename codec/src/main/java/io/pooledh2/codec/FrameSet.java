/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.util.concurrent.FastThreadLocal;

/**
 * The frames a thread's reads parse into, a {@link FrameSlot} of each type, shared by every reader on the thread:
 * a reader takes the set when a read needs its first frame and gives it back when the read ends. So a connection
 * between reads holds no frame, and the {@link io.netty.util.Recycler}, which costs more than an allocation, is
 * only paid when consumers keep more frames of a type at once than the thread has had out before, or release
 * them on another thread. A read nested in another read's callback on the same thread (an in-memory
 * peer, a handler that feeds another channel) takes the next set down the chain.
 *
 * <p>A reader keeps a pointer to the set its last read used and takes it again when it is free and the thread's,
 * which saves the thread-local lookup; the frames in it stay the thread's, free for any reader.
 */
final class FrameSet {

    private static final FastThreadLocal<FrameSet> SETS = new FastThreadLocal<FrameSet>() {
        @Override
        protected FrameSet initialValue() {
            return new FrameSet();
        }
    };

    final FrameSlot<PooledDataFrame> data = new FrameSlot<>(PooledDataFrame.POOL);
    final FrameSlot<PooledHeadersFrame> headers = new FrameSlot<>(PooledHeadersFrame.POOL);
    final FrameSlot<PooledPriorityFrame> priority = new FrameSlot<>(PooledPriorityFrame.POOL);
    final FrameSlot<PooledResetFrame> reset = new FrameSlot<>(PooledResetFrame.POOL);
    final FrameSlot<PooledSettingsFrame> settings = new FrameSlot<>(PooledSettingsFrame.POOL);
    final FrameSlot<PooledSettingsAckFrame> settingsAck = new FrameSlot<>(PooledSettingsAckFrame.POOL);
    final FrameSlot<PooledPushPromiseFrame> pushPromise = new FrameSlot<>(PooledPushPromiseFrame.POOL);
    final FrameSlot<PooledPingFrame> ping = new FrameSlot<>(PooledPingFrame.POOL);
    final FrameSlot<PooledGoAwayFrame> goAway = new FrameSlot<>(PooledGoAwayFrame.POOL);
    final FrameSlot<PooledWindowUpdateFrame> windowUpdate = new FrameSlot<>(PooledWindowUpdateFrame.POOL);
    final FrameSlot<PooledUnknownFrame> unknown = new FrameSlot<>(PooledUnknownFrame.POOL);

    private final Thread owner = Thread.currentThread();
    private boolean inUse;
    /** The set for a read nested in a callback of the read using this one. */
    private FrameSet nested;

    private FrameSet() {
    }

    /**
     * {@code last} if it is the calling thread's and free, else the thread's first set not in use by a read;
     * marked in use.
     */
    static FrameSet take(FrameSet last) {
        if (last != null && !last.inUse && last.owner == Thread.currentThread()) {
            last.inUse = true;
            return last;
        }
        return take();
    }

    /** The calling thread's first set not in use by a read. */
    static FrameSet take() {
        FrameSet set = SETS.get();
        while (set.inUse) {
            FrameSet next = set.nested;
            if (next == null) {
                set.nested = next = new FrameSet();
            }
            set = next;
        }
        set.inUse = true;
        return set;
    }

    /**
     * A reader that last read with {@code last} is closing: if that was on this thread, the free frames of the
     * thread's sets drop what their last parse left in them. A frame released in its callback keeps its stream,
     * and a HEADERS or PUSH_PROMISE frame its block's names and values, for its next parse to compare with
     * (storing the same reference again costs nothing), so an event loop whose connections have all closed would
     * otherwise keep the last ones reachable: their streams, child channels included, and their last request
     * headers. Once per connection, never per frame.
     */
    static void forgetLastParses(FrameSet last) {
        if (last == null || last.owner != Thread.currentThread()) {
            return;
        }
        for (FrameSet set = SETS.get(); set != null; set = set.nested) {
            // The slots of the frame types that carry a stream.
            set.data.forgetLastParses();
            set.headers.forgetLastParses();
            set.priority.forgetLastParses();
            set.reset.forgetLastParses();
            set.pushPromise.forgetLastParses();
            set.windowUpdate.forgetLastParses();
            set.unknown.forgetLastParses();
        }
    }

    /** For tests: whether a read is using the set. */
    boolean inUse() {
        return inUse;
    }

    /**
     * The read is over: the set keeps its frames for the thread's next read. A free frame's payload view still
     * points at the input it last read, with a count of 0, so any access fails as on a released buffer. Forgetting
     * the input would cost reference stores on every read; keeping it lets the next read skip its store when the
     * input is the same buffer object, as it often is (Netty recycles its pooled buffers). The connection holds
     * none of it: the set is the thread's.
     */
    void giveBack() {
        inUse = false;
    }
}
