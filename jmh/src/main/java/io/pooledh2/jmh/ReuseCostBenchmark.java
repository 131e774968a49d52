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

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Why the reader reuses by ownership and not through the {@code Recycler} alone: the cost of getting a small
 * frame-sized object, three ways, on an event-loop thread.
 * <ul>
 *   <li>{@code allocate}: {@code new}, as {@code DefaultHttp2FrameReader} and {@code Http2FrameCodec} do;</li>
 *   <li>{@code recycler}: Netty's shared {@code Recycler}, get and recycle;</li>
 *   <li>{@code ownedSlot}: the object stays with its owner, as a frame stays in the reader's {@code FrameSlot}: the
 *       count and the owner's bit are one word ({@code PooledFrame}), set with an ordered store when the object is
 *       handed out; the consumer's release is a CAS (it may run on any thread); after the callback the owner reads
 *       the word once, and finding only its own bit takes the object back with no atomic operation;</li>
 *   <li>{@code ownedSlotUntouched}: the same when the consumer never sees the object (a listener given only its
 *       fields): ordered store out, a volatile read and an ordered store back.</li>
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
        small.afterCallback(true);
    }

    @Benchmark
    public void ownedSlotUntouched(Blackhole bh) {
        Small small = owned;
        small.handOut();
        small.set(++value);
        bh.consume(small.data);
        small.afterCallback(false);
    }

    /** A frame-sized object: a handle, a count word (as {@code PooledFrame}'s) and two fields of data. */
    static final class Small {
        private static final VarHandle REF_CNT;
        /** The owner's bit in the count word; the count is kept in the bits above it. */
        private static final int HELD = 1;
        private static final int ONE = 2;

        static {
            try {
                REF_CNT = MethodHandles.lookup().findVarHandle(Small.class, "refCnt", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final Recycler.Handle<Small> handle;
        private volatile int refCnt;
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
            REF_CNT.setRelease(this, ONE | HELD);
        }

        /** The consumer's release: a CAS, as on any thread. */
        void release() {
            for (;;) {
                int raw = refCnt;
                if ((int) REF_CNT.compareAndExchange(this, raw, raw - ONE) == raw) {
                    return;
                }
            }
        }

        void afterCallback(boolean released) {
            int expected = released ? HELD : ONE | HELD;
            if (refCnt != expected) {
                throw new IllegalStateException("the benchmark's consumer keeps nothing");
            }
            data = 0;
            flag = false;
            if (!released) {
                REF_CNT.setRelease(this, HELD);
            }
        }
    }
}
