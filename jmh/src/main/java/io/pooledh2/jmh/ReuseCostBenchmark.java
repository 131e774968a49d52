/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh;

import io.netty.buffer.ByteBuf;
import io.netty.util.Recycler;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * Why the reader reuses by ownership and not through the {@code Recycler} alone: the cost of getting a small
 * frame-sized object, three ways, on an event-loop thread.
 * <ul>
 *   <li>{@code allocate}: {@code new}, as {@code DefaultHttp2FrameReader} and {@code Http2FrameCodec} do;</li>
 *   <li>{@code recycler}: Netty's shared {@code Recycler}, get and recycle;</li>
 *   <li>{@code ownedSlot}: the object stays with its owner, which checks and clears an ownership flag with a
 *       volatile read and a CAS, as {@code FrameSlot} and {@code PooledFrame} do when a frame comes back during
 *       its callback (the reference count's own CAS included).</li>
 * </ul>
 * And the same choice for a DATA payload: {@code readSlice}, the slice wrapper the stock reader allocates, against
 * {@code retainedSlice}, the recycled slice the pooled reader takes (and releases) on a pooled buffer.
 * Run: {@code java -jar jmh/target/benchmarks.jar ReuseCostBenchmark -prof gc}.
 */
@State(Scope.Thread)
public class ReuseCostBenchmark extends EventLoopBenchmark {

    private static final Recycler<Small> SMALLS = new Recycler<Small>() {
        @Override
        protected Small newObject(Handle<Small> handle) {
            return new Small(handle);
        }
    };

    private final Small owned = new Small(null);
    private long value;
    private ByteBuf input;

    @Setup
    public void setUp() {
        requireEventLoopThread();
        input = ALLOC.directBuffer(2048).writeZero(2048);
    }

    @TearDown
    public void tearDown() {
        input.release();
    }

    @Benchmark
    public void readSlice(Blackhole bh) {
        bh.consume(input.slice(9, 1024));
    }

    @Benchmark
    public void retainedSlice(Blackhole bh) {
        ByteBuf slice = input.retainedSlice(9, 1024);
        bh.consume(slice);
        slice.release();
    }

    @Benchmark
    public void allocate(Blackhole bh) {
        Small small = new Small(null);
        small.set(++value);
        bh.consume(small);
    }

    @Benchmark
    public void recycler(Blackhole bh) {
        Small small = SMALLS.get();
        small.set(++value);
        bh.consume(small);
        small.handle.recycle(small);
    }

    @Benchmark
    public void ownedSlot(Blackhole bh) {
        Small small = owned;
        small.handOut();
        small.set(++value);
        bh.consume(small);
        small.release();
        small.afterCallback();
    }

    /** A frame-sized object: a handle, a count, an owner state and two fields of data. */
    static final class Small {
        private static final AtomicIntegerFieldUpdater<Small> REF_CNT =
                AtomicIntegerFieldUpdater.newUpdater(Small.class, "refCnt");
        private static final AtomicIntegerFieldUpdater<Small> OWNER =
                AtomicIntegerFieldUpdater.newUpdater(Small.class, "owner");
        private static final int HELD = 0;
        private static final int RETURNED = 1;
        private static final int DETACHED = 2;

        final Recycler.Handle<Small> handle;
        private volatile int refCnt;
        private volatile int owner;
        private long data;
        private boolean flag;

        Small(Recycler.Handle<Small> handle) {
            this.handle = handle;
        }

        void set(long data) {
            this.data = data;
            this.flag = (data & 1) != 0;
        }

        void handOut() {
            OWNER.lazySet(this, HELD);
            REF_CNT.lazySet(this, 1);
        }

        void release() {
            if (REF_CNT.decrementAndGet(this) == 0) {
                data = 0;
                flag = false;
                OWNER.compareAndSet(this, HELD, RETURNED);
            }
        }

        void afterCallback() {
            if (owner == HELD && OWNER.compareAndSet(this, HELD, DETACHED)) {
                throw new IllegalStateException("the benchmark always releases during the callback");
            }
        }
    }
}
