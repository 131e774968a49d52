/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

/**
 * A reader's frame of one type: parsed into again and again while its consumers release it during the
 * callback, replaced from the {@link FramePool} when a consumer keeps it.
 */
final class FrameSlot<T extends PooledFrame> {

    private final FramePool<T> pool;
    private T current;

    FrameSlot(FramePool<T> pool) {
        this.pool = pool;
    }

    T acquire(boolean reuse, boolean paranoid) {
        if (!reuse || paranoid) {
            T frame = pool.newUnpooled();
            frame.handOut(false, paranoid);
            return frame;
        }
        T frame = current;
        if (frame == null) {
            current = frame = pool.get();
        }
        frame.handOut(true, false);
        return frame;
    }

    /** After the consumer's callback: keep the frame if it came back, else it is the consumer's now. */
    void afterCallback() {
        T frame = current;
        if (frame != null && frame.leaveToConsumer()) {
            current = null;
        }
    }

    void close() {
        T frame = current;
        if (frame != null) {
            current = null;
            frame.abandonByReader();
        }
    }
}
