/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.util.AbstractReferenceCounted;
import io.netty.util.IllegalReferenceCountException;
import io.netty.util.Recycler;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The base of every pooled frame: it owns the reference count, the reset and the way back to reuse.
 *
 * <p>Reuse works by ownership, as Go's {@code frameCache} does. While a frame is being delivered the reader
 * holds it ({@link #HELD}). If the consumer releases it during the callback, the last release marks it
 * {@link #RETURNED} and the reader parses the next frame of its type into it. If the consumer still holds it
 * when the callback returns, the reader marks it {@link #DETACHED} and forgets it; the consumer's last release
 * then gives it to its {@link Recycler}. Both transitions are one CAS on {@link #owner}, so exactly one side
 * decides, whichever thread the consumer releases on.
 */
abstract class PooledFrame extends AbstractReferenceCounted implements PooledHttp2Frame {

    static final int HELD = 0;
    static final int RETURNED = 1;
    static final int DETACHED = 2;

    private static final AtomicIntegerFieldUpdater<PooledFrame> OWNER =
            AtomicIntegerFieldUpdater.newUpdater(PooledFrame.class, "owner");

    /** Null for a frame that is never pooled (reuse off, paranoid mode, copies). */
    private final Recycler.Handle<PooledFrame> handle;
    private volatile int owner = DETACHED;
    private boolean paranoid;

    @SuppressWarnings("unchecked")
    PooledFrame(Recycler.Handle<? extends PooledFrame> handle) {
        this.handle = (Recycler.Handle<PooledFrame>) handle;
    }

    /** Whether the frame goes back to a pool when released, so that its contents are reused. */
    final boolean pooled() {
        return handle != null;
    }

    /** Makes the frame ready for a consumer: a count of 1, held by the reader when it may be reused. */
    final void handOut(boolean heldByReader, boolean paranoid) {
        this.paranoid = paranoid;
        // An ordered store is enough: a consumer on another thread gets the frame through a hand-off
        // that publishes it, and on this thread program order applies.
        OWNER.lazySet(this, heldByReader ? HELD : DETACHED);
        setRefCnt(1);
    }

    /**
     * Called by the reader when the consumer's callback has returned. Returns {@code true} if the consumer
     * still holds the frame, which is then the consumer's alone; {@code false} if it came back to the reader.
     */
    final boolean leaveToConsumer() {
        // Usually the consumer has already released it: then a read decides, and the CAS is saved.
        return owner == HELD && OWNER.compareAndSet(this, HELD, DETACHED);
    }

    /** Called by a closing reader: an idle frame goes to its pool, one still in use is left to its consumer. */
    final void abandonByReader() {
        if (OWNER.getAndSet(this, DETACHED) == RETURNED && handle != null) {
            handle.recycle(this);
        }
    }

    @Override
    protected final void deallocate() {
        if (paranoid) {
            // Never reused, so nothing is reset: an accessor racing this release then answers with the
            // frame's own value or throws, never with a reset one.
            releaseBuffers();
            return;
        }
        clear();
        if (OWNER.compareAndSet(this, HELD, RETURNED)) {
            return;
        }
        if (handle != null) {
            handle.recycle(this);
        }
    }

    /** Releases what the frame holds and resets every field, so nothing of it can reach a later frame. */
    abstract void clear();

    /** Paranoid mode's release: frees the buffers the frame holds and leaves every other field as parsed. */
    void releaseBuffers() {
        // Most frame types hold no buffer.
    }

    /** Every accessor calls this: in paranoid mode a released frame throws instead of answering. */
    final void ensureAccessible() {
        if (paranoid && refCnt() == 0) {
            throw new IllegalReferenceCountException(0);
        }
    }

    /** Connection frames (SETTINGS, PING, GOAWAY) are on stream 0; {@link StreamFrame} overrides this. */
    @Override
    public int streamId() {
        ensureAccessible();
        return 0;
    }

    @Override
    public PooledFrame retain() {
        super.retain();
        return this;
    }

    @Override
    public PooledFrame retain(int increment) {
        super.retain(increment);
        return this;
    }

    @Override
    public PooledFrame touch() {
        return this;
    }

    @Override
    public PooledFrame touch(Object hint) {
        return this;
    }
}
