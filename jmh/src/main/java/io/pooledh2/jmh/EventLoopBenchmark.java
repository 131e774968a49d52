/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.Recycler;
import io.netty.util.concurrent.FastThreadLocalThread;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * What every benchmark here shares: average time in ns/op, forked JVMs whose benchmark threads are
 * {@code FastThreadLocalThread}s (see {@link EventLoopThreadExecutor}), a fixed 1 GiB G1 heap with a fixed
 * 256 MiB young generation (so that G1 does not resize it between variants, and GC counts follow the bytes
 * allocated), Netty's leak detection off (it samples buffers and would add its own allocations), and
 * {@link PooledByteBufAllocator} for every buffer. Netty's {@code Recycler} runs with its default settings:
 * no {@code io.netty.recycler.*} property is set.
 *
 * <p>The {@code @Fork} arguments make a plain {@code java -jar benchmarks.jar} do the right thing. Passing
 * {@code -jvmArgsAppend} on the command line replaces them; {@link #requireEventLoopThread()} then stops the
 * run instead of measuring on the wrong threads.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {
        "-Djmh.executor=CUSTOM",
        "-Djmh.executor.class=io.pooledh2.jmh.EventLoopThreadExecutor",
        "-Dio.netty.leakDetection.level=disabled",
        "-Xms1g", "-Xmx1g", "-Xmn256m", "-XX:+UseG1GC"})
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 2)
public abstract class EventLoopBenchmark {

    /** The allocator of every buffer in these benchmarks, as {@code ChannelOption.ALLOCATOR} would set it. */
    public static final ByteBufAllocator ALLOC = PooledByteBufAllocator.DEFAULT;

    private static final Recycler<Probe> PROBES = new Recycler<Probe>() {
        @Override
        protected Probe newObject(Handle<Probe> handle) {
            return new Probe(handle);
        }
    };

    /**
     * Fails unless the calling thread is a {@code FastThreadLocalThread} on which the {@code Recycler} reuses
     * objects (unless recycling was deliberately turned off with {@code io.netty.recycler.maxCapacityPerThread=0}).
     */
    public static void requireEventLoopThread() {
        Thread thread = Thread.currentThread();
        if (!(thread instanceof FastThreadLocalThread)) {
            throw new IllegalStateException("benchmark thread " + thread.getName() + " is not a FastThreadLocalThread;"
                    + " run the forks with -Djmh.executor=CUSTOM"
                    + " -Djmh.executor.class=" + EventLoopThreadExecutor.class.getName());
        }
        Probe first = PROBES.get();
        first.recycle();
        Probe second = PROBES.get();
        second.recycle();
        if (first != second && !"0".equals(System.getProperty("io.netty.recycler.maxCapacityPerThread"))) {
            throw new IllegalStateException("Netty's Recycler does not reuse objects on " + thread.getName());
        }
    }

    private static final class Probe {
        private final Recycler.Handle<Probe> handle;

        Probe(Recycler.Handle<Probe> handle) {
            this.handle = handle;
        }

        void recycle() {
            handle.recycle(this);
        }
    }
}
