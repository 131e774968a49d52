/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.util.Recycler;
import io.netty.util.internal.SystemPropertyUtil;

import java.util.function.Function;

/**
 * The {@link Recycler} of one frame class. A reader only takes a frame from it when its {@link FrameSlot} has
 * no free frame, because consumers kept them all; a kept frame comes back to it on its last release on another
 * thread, or when its slot has no place for it.
 */
final class FramePool<T extends PooledFrame> extends Recycler<T> {

    /** Netty's Recycler settings, read as Netty reads them; the encoder's pools of queued writes use them too. */
    static final int MAX_CAPACITY_PER_THREAD = SystemPropertyUtil.getInt(
            "io.netty.recycler.maxCapacityPerThread", SystemPropertyUtil.getInt("io.netty.recycler.maxCapacity", 4096));
    static final int CHUNK_SIZE = SystemPropertyUtil.getInt("io.netty.recycler.chunkSize", 32);

    /** The frame type this pool's frames carry, for {@link FrameReuseStatistics}. */
    final byte frameType;
    private final Function<Recycler.Handle<T>, T> factory;

    FramePool(byte frameType, Function<Recycler.Handle<T>, T> factory) {
        // Netty's capacity and chunk size (and its switch: a capacity of 0 turns pooling off), but every frame
        // that comes back is pooled: Netty's default ratio drops 7 of 8 first returns, which costs a new frame
        // each time consumers keep many at once (about 3% of DATA frames on the multiplex pipeline).
        super(MAX_CAPACITY_PER_THREAD, 0, CHUNK_SIZE);
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

    /**
     * A Recycler of another class, with the same settings: the encoder's queued writes and the listeners that come
     * back to it once called.
     */
    static <T> Recycler<T> newRecycler(Function<Recycler.Handle<T>, T> factory) {
        return new Recycler<T>(MAX_CAPACITY_PER_THREAD, 0, CHUNK_SIZE) {
            @Override
            protected T newObject(Handle<T> handle) {
                return factory.apply(handle);
            }
        };
    }

    /** A frame that never returns to any pool: for reuse off, paranoid mode and copies. */
    T newUnpooled() {
        return factory.apply(null);
    }
}
