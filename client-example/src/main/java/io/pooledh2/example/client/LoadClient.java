/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;

import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The load client: opens the connections, then runs the workload on {@code connections x streams} workers, each
 * one request at a time, every response checked. {@link #run(PrintStream)} may be called more than once on the
 * same connections (the demo warms up first).
 */
public final class LoadClient implements AutoCloseable {

    private final ClientOptions options;
    private final EventLoopGroup group;
    private final List<ClientConnection> connections = new ArrayList<>();
    private final Workload workload;
    private int runs;

    private LoadClient(ClientOptions options) {
        this.options = options;
        this.workload = new Workload(options);
        int threads = Math.min(options.connections, Runtime.getRuntime().availableProcessors());
        group = new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory("pooledh2-client"),
                NioIoHandler.newFactory());
    }

    /** Opens the connections (h2c, prior knowledge). */
    public static LoadClient connect(ClientOptions options) throws InterruptedException {
        LoadClient client = new LoadClient(options);
        ByteBufAllocator allocator = PooledByteBufAllocator.DEFAULT;
        try {
            for (int i = 0; i < options.connections; i++) {
                client.connections.add(ClientConnection.connect(client.group, allocator, options));
            }
        } catch (Throwable e) {
            // Also a refused connection (a checked exception that Netty's sync() rethrows): without this the
            // client's event loop threads would keep the JVM alive.
            client.close();
            throw e;
        }
        return client;
    }

    /**
     * Runs the workload once: the options' request count, spread evenly over the workers, or until the options'
     * duration has passed. Prints a progress line per second to {@code progress}, unless it is null.
     */
    public LoadResult run(PrintStream progress) {
        return run(options.requestLimit(), options.duration, progress);
    }

    /** Runs the workload for {@code duration} (null: no limit) or {@code requests} requests, whichever ends first. */
    public LoadResult run(long requests, Duration duration, PrintStream progress) {
        int run = runs++;
        int workers = options.workers();
        long deadline = System.nanoTime() + (duration == null ? TimeUnit.DAYS.toNanos(365) : duration.toNanos());
        long[] reuseBefore = reuseCounts();
        LoadStats stats = new LoadStats();
        List<Histogram> latencies = new ArrayList<>();
        List<Worker> started = new ArrayList<>();
        long startNanos = System.nanoTime();
        ProgressPrinter printer = progress == null ? null : new ProgressPrinter(stats, progress);
        try {
            for (int i = 0; i < workers; i++) {
                // One per worker: a worker records on its connection's event loop only, so no locking.
                Histogram recorder = LoadResult.newLatencyHistogram();
                latencies.add(recorder);
                long quota = requests == Long.MAX_VALUE ? Long.MAX_VALUE
                        : requests / workers + (i < requests % workers ? 1 : 0);
                Worker worker = new Worker(run, i, connections.get(i % connections.size()), workload, options,
                        stats, recorder, quota, deadline);
                started.add(worker);
                worker.start();
            }
            CompletableFuture.allOf(started.stream().map(w -> w.done).toArray(CompletableFuture[]::new)).join();
        } finally {
            if (printer != null) {
                printer.close();
            }
        }
        long elapsed = System.nanoTime() - startNanos;
        long[] reuseAfter = reuseCounts();
        Histogram all = LoadResult.newLatencyHistogram();
        for (Histogram one : latencies) {
            all.add(one);
        }
        return new LoadResult(stats, elapsed, all,
                reuseAfter[0] - reuseBefore[0], reuseAfter[1] - reuseBefore[1]);
    }

    /** Frames received and frames reused, over all connections, read on each connection's event loop. */
    private long[] reuseCounts() {
        long[] counts = new long[2];
        for (ClientConnection connection : connections) {
            long[] one = connection.channel.eventLoop().submit(() -> new long[] {
                    connection.reuseCounter.frames(), connection.reuseCounter.reused()}).syncUninterruptibly().getNow();
            counts[0] += one[0];
            counts[1] += one[1];
        }
        return counts;
    }

    @Override
    public void close() {
        for (ClientConnection connection : connections) {
            connection.channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
