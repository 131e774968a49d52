/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.util.IllegalReferenceCountException;
import io.netty.util.Recycler;
import io.netty.util.internal.ObjectUtil;
import io.netty.util.internal.StringUtil;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The base of every pooled frame: it owns the reference count, shared with the frame's payload, the reset and
 * the way back to reuse.
 *
 * <h3>One count, and a bit for the reader</h3>
 * {@link #refCnt} holds twice the reference count, plus {@link #HELD} while the reader holds the frame for
 * reuse (Go's {@code frameCache}). A frame parsed for reuse is handed out held, with a count of 1. If every
 * reference is released during the callback, the count ends at 0 with the bit still set: the reader sees that
 * with a plain volatile read once the callback returns, and parses the next frame of the type into the same
 * object. Nothing on that path is atomic: a release on the reader's thread during the callback is a plain store,
 * and only a release on another thread pays a CAS, which is what lets it race the reader. If a reference is
 * still out when the callback returns, the reader retains the input the payload views, then clears the bit and
 * drops its own reference in one atomic step; whichever release then brings the whole word to 0 resets the
 * frame and gives it back to its slot, on the slot's thread, or else to its {@link Recycler}. Because the bit and the count are one word, the reader's step and a racing
 * last release cannot both, or neither, see 0.
 *
 * <p>A frame made without reuse (reuse off, paranoid mode, copies) is never held: its payload retains the
 * input from the start, and its last release frees it.
 */
abstract class PooledFrame implements PooledHttp2Frame {

    /** The reader's bit in {@link #refCnt}. */
    static final int HELD = 1;
    /** One reference in {@link #refCnt}. */
    static final int ONE = 2;

    /** A VarHandle rather than an {@code AtomicIntegerFieldUpdater}: no receiver type check on every access. */
    private static final VarHandle REF_CNT;

    static {
        try {
            REF_CNT = MethodHandles.lookup().findVarHandle(PooledFrame.class, "refCnt", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Null for a frame that is never pooled (reuse off, paranoid mode, copies). */
    private final Recycler.Handle<PooledFrame> handle;
    /** The payload of DATA, GOAWAY and unknown frames, which shares this frame's count; null for the others. */
    final PayloadView payload;
    private volatile int refCnt;
    private boolean paranoid;
    /**
     * The slot that took the frame from its pool, set once then ({@link #adoptedBy}), not per parse: a reference
     * store into a long-lived object costs a G1 write barrier with a StoreLoad fence. The last release of a frame
     * kept past its callback, on the slot's thread, puts it back there, a few plain operations, instead of paying
     * the {@code Recycler} twice (its recycle now and a get for the slot's next parse). Null while in the pool.
     */
    private FrameSlot<?> home;

    @SuppressWarnings("unchecked")
    PooledFrame(Recycler.Handle<? extends PooledFrame> handle, boolean hasPayload) {
        this.handle = (Recycler.Handle<PooledFrame>) handle;
        payload = hasPayload ? new PayloadView(this) : null;
    }

    /** Whether the frame goes back to a pool when released, so that its contents are reused. */
    final boolean pooled() {
        return handle != null;
    }

    /**
     * Makes the frame ready for its callback with the given raw count ({@link #ONE}, plus {@link #HELD} when the
     * reader keeps it for reuse).
     */
    final void handOut(int rawCount, boolean paranoid) {
        this.paranoid = paranoid;
        // A plain ordered store: nobody else holds a reference to a frame being handed out, and a consumer on
        // another thread gets it through a hand-off that publishes it.
        REF_CNT.setRelease(this, rawCount);
    }

    /** The raw count, for the reader's check after the callback. */
    final int rawRefCnt() {
        return refCnt;
    }

    /**
     * The reader got the frame back untouched after the callback (raw count {@code ONE | HELD}, its own
     * reference and nobody else's): it drops its reference with a plain store, as nobody else can see the frame.
     */
    final void takeBackUnused() {
        REF_CNT.setRelease(this, HELD);
    }

    /**
     * Called by the reader when a reference is still out after the callback: the payload keeps the input alive
     * from now on, and the reader lets go of the frame ({@code readerPart}: {@link #HELD}, plus {@link #ONE}
     * if the reader's own reference was never handed on).
     *
     * @return {@code true} if the consumers released the frame meanwhile, so that it is the reader's again
     */
    final boolean leaveToConsumers(int readerPart) {
        if (payload != null) {
            payload.retainInput();
        }
        // Atomic: a consumer may be releasing the last reference on another thread right now.
        if ((int) REF_CNT.getAndAdd(this, -readerPart) != readerPart) {
            return false;
        }
        if (payload != null) {
            payload.releaseInput();
        }
        return true;
    }

    /** A slot took the frame from its pool: a kept frame released on the slot's thread goes back there. */
    final void adoptedBy(FrameSlot<?> slot) {
        home = slot;
    }

    /** A frame taken for a parse that never reached a consumer (an error, a closed reader): back to its pool. */
    final void recycleUnused() {
        if (handle != null) {
            clear();
            home = null;
            handle.recycle(this);
        }
    }

    @Override
    public final int refCnt() {
        return refCnt >>> 1;
    }

    @Override
    public PooledFrame retain() {
        return retain0(1);
    }

    @Override
    public PooledFrame retain(int increment) {
        return retain0(ObjectUtil.checkPositive(increment, "increment"));
    }

    private PooledFrame retain0(int increment) {
        if (increment > Integer.MAX_VALUE >>> 1) {
            throw new IllegalReferenceCountException(refCnt(), increment);
        }
        int adjustment = increment << 1;
        // A CAS loop rather than getAndAdd: a retain of a released frame must fail without a transient count
        // that the reader's check after the callback could see.
        for (;;) {
            int raw = refCnt;
            if (raw >>> 1 == 0 || raw + adjustment < 0) {
                throw new IllegalReferenceCountException(raw >>> 1, increment);
            }
            if (REF_CNT.compareAndSet(this, raw, raw + adjustment)) {
                return this;
            }
        }
    }

    @Override
    public boolean release() {
        return release0(1);
    }

    @Override
    public boolean release(int decrement) {
        return release0(ObjectUtil.checkPositive(decrement, "decrement"));
    }

    private boolean release0(int decrement) {
        int raw = refCnt;
        if (raw == (ONE | HELD) && decrement == 1 && home.ownedByCurrentThread()) {
            // The common case, a frame released in its callback: no atomic operation. The count can only be
            // ONE | HELD between handOut and the reader's step after the callback, both on the slot's thread, so
            // a release on that thread is inside the callback and the reader cannot race it. The caller holds
            // the only reference, so no other thread may touch the count: a retain() on another thread that
            // races this store is a use of a reference it does not hold, and may be lost (a CAS here cost
            // about 8 ns per frame on JDK 25, f454533; docs/benchmarks.md, "What was learnt"). Paranoid mode never
            // holds a frame, so it keeps the CAS below and its checks. HELD implies a home: only a slot hands it out.
            REF_CNT.setRelease(this, HELD);
            return true;
        }
        // Any other release may race another thread: the reader's step after the callback (leaveToConsumers),
        // or a release of another reference.
        for (;; raw = refCnt) {
            int count = raw >>> 1;
            if (count < decrement) {
                throw new IllegalReferenceCountException(count, -decrement);
            }
            int next = raw - (decrement << 1);
            if (REF_CNT.compareAndSet(this, raw, next)) {
                if (next == 0) {
                    deallocate();
                }
                return count == decrement;
            }
        }
    }

    /** The last release of a frame the reader does not hold. */
    private void deallocate() {
        if (payload != null) {
            payload.releaseInput();
        }
        if (paranoid) {
            // Never reused, so nothing is reset: an accessor racing this release then answers with the
            // frame's own value or throws, never with a reset one.
            releaseBuffers();
            return;
        }
        // Reset before it goes back to its slot too: a free frame holding its last stream and input would keep
        // them from the garbage collector until its next parse (in an h2load echo A/B, not resetting here served
        // 0.97 of the requests per second; src/bench/h2load.sh at 96675e2, 2026-11-26, in git history).
        clear();
        FrameSlot<?> home = this.home;
        if (home != null && home.takeHome(this)) {
            return;
        }
        if (handle != null) {
            this.home = null;
            handle.recycle(this);
        }
    }

    /** Resets every field, so nothing of the frame can reach a later one. */
    abstract void clear();

    /** Paranoid mode's release: frees the buffers the frame holds beside its payload, other fields kept. */
    void releaseBuffers() {
        // Most frame types hold no other buffer.
    }

    /** Every accessor calls this: in paranoid mode a released frame throws instead of answering. */
    final void ensureAccessible() {
        if (paranoid && refCnt >>> 1 == 0) {
            throw new IllegalReferenceCountException(0);
        }
    }

    /** Connection frames (SETTINGS, PING, GOAWAY) are on stream 0; {@link StreamFrame} overrides this. */
    @Override
    public int streamId() {
        ensureAccessible();
        return 0;
    }

    /**
     * Netty's format for the frame type: its class name, then {@link #fields()}. A released frame prints as such and
     * never throws, even in paranoid mode: a logger may print a frame at any time.
     */
    @Override
    public final String toString() {
        String name = StringUtil.simpleClassName(this);
        return refCnt() == 0 ? name + "(released)" : name + fields();
    }

    /** What Netty's {@code toString} of the frame type prints after the class name. */
    abstract String fields();

    @Override
    public PooledFrame touch() {
        return this;
    }

    @Override
    public PooledFrame touch(Object hint) {
        return this;
    }
}
