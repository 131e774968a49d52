/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** Prints one progress line per second while a run goes on: time, requests, the last second's rate, errors. */
final class ProgressPrinter implements AutoCloseable {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "pooledh2-client-progress");
        thread.setDaemon(true);
        return thread;
    });
    private final LoadStats stats;
    private final PrintStream out;
    private final long startNanos = System.nanoTime();
    private long lastCompleted;

    ProgressPrinter(LoadStats stats, PrintStream out) {
        this.stats = stats;
        this.out = out;
        timer.scheduleAtFixedRate(this::print, 1, 1, TimeUnit.SECONDS);
    }

    private void print() {
        long completed = stats.completed();
        out.println(String.format(Locale.ROOT, "[%3d s] %,10d requests  %,8d req/s  %,d errors",
                (System.nanoTime() - startNanos) / 1_000_000_000L, completed, completed - lastCompleted,
                stats.errors.sum()));
        lastCompleted = completed;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
