/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.util.Recycler;

import java.util.function.Function;

/**
 * The {@link Recycler} of one frame class, shared by all readers on a thread. A reader only takes a frame
 * from it when the frame it owns is still held by a consumer (see {@link PooledFrame}).
 */
final class FramePool<T extends PooledFrame> extends Recycler<T> {

    private final Function<Recycler.Handle<T>, T> factory;

    FramePool(Function<Recycler.Handle<T>, T> factory) {
        this.factory = factory;
    }

    @Override
    protected T newObject(Recycler.Handle<T> handle) {
        return factory.apply(handle);
    }

    /** A frame that never returns to any pool: for reuse off, paranoid mode and copies. */
    T newUnpooled() {
        return factory.apply(null);
    }
}
