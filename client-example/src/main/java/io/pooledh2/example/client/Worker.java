/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import org.HdrHistogram.Histogram;

import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;

/**
 * One of the run's concurrent request loops: on one connection, one exchange at a time, the next as soon as
 * the previous has been checked, until its share of the requests is done or the deadline has passed. Runs on
 * the connection's event loop.
 */
final class Worker {

    private final int run;
    private final int id;
    private final ClientConnection connection;
    private final Workload workload;
    private final ClientOptions options;
    private final LoadStats stats;
    private final Histogram latencies;
    private final long quota;
    private final long deadlineNanos;
    private final SplittableRandom random;
    final CompletableFuture<Void> done = new CompletableFuture<>();
    private long started;
    private Exchange current;
    private long startNanos;

    Worker(int run, int id, ClientConnection connection, Workload workload, ClientOptions options, LoadStats stats,
           Histogram latencies, long quota, long deadlineNanos) {
        this.run = run;
        this.id = id;
        this.connection = connection;
        this.workload = workload;
        this.options = options;
        this.stats = stats;
        this.latencies = latencies;
        this.quota = quota;
        this.deadlineNanos = deadlineNanos;
        this.random = workload.random(id);
    }

    void start() {
        connection.channel.eventLoop().execute(this::next);
    }

    private void next() {
        if (started >= quota || System.nanoTime() - deadlineNanos >= 0) {
            done.complete(null);
            return;
        }
        if (!connection.channel.isActive()) {
            // The connection is gone: every request this worker still had to make fails.
            if (quota == Long.MAX_VALUE) {
                stats.error("connection closed: worker " + id + " stopped");
            } else {
                stats.errors(quota - started, "connection closed: " + (quota - started) + " requests of worker "
                        + id + " not sent");
            }
            done.complete(null);
            return;
        }
        Exchange exchange = workload.exchange(run, id, started++, random);
        current = exchange;
        startNanos = System.nanoTime();
        connection.open(new ExchangeHandler(exchange, options.host + ':' + options.port, options.frameSize,
                connection.reuseCounter, stats, this::onDone)).addListener(opened -> {
                    if (!opened.isSuccess()) {
                        onDone(exchange, "stream not opened: " + opened.cause());
                    }
                });
    }

    private void onDone(Exchange exchange, String error) {
        if (exchange != current) {
            return; // already reported (a stream that failed to open and whose handler saw it too)
        }
        current = null;
        if (error == null) {
            latencies.recordValue(Math.min(LoadResult.MAX_LATENCY_NANOS, System.nanoTime() - startNanos));
            stats.ok.increment();
        } else {
            stats.error(exchange + ": " + error);
        }
        // Not from inside the finished stream's handler: the next exchange starts in a task of its own.
        connection.channel.eventLoop().execute(this::next);
    }
}
