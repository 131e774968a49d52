/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.util.Recycler;

import java.util.function.Function;

/**
 * The {@link Recycler} of one frame class. A reader only takes a frame from it when its {@link FrameSet} has
 * none of the type, because a consumer kept the last one; a kept frame comes back to it on its last release,
 * from any thread.
 */
final class FramePool<T extends PooledFrame> extends Recycler<T> {

    /** The frame type this pool's frames carry, for {@link FrameReuseStatistics}. */
    final byte frameType;
    private final Function<Recycler.Handle<T>, T> factory;

    FramePool(byte frameType, Function<Recycler.Handle<T>, T> factory) {
        this.frameType = frameType;
        this.factory = factory;
    }

    @Override
    protected T newObject(Recycler.Handle<T> handle) {
        if (FrameReuseStatistics.ENABLED) {
            FrameReuseStatistics.countCreated(frameType);
        }
        return factory.apply(handle);
    }

    /** A frame that never returns to any pool: for reuse off, paranoid mode and copies. */
    T newUnpooled() {
        return factory.apply(null);
    }
}
