/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import org.HdrHistogram.Histogram;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/** What a run did: counts, throughput, latency percentiles, bytes, frame reuse, and the first errors. */
public final class LoadResult {

    final long ok;
    final long errors;
    final long elapsedNanos;
    /** Every correct response's latency in nanoseconds, 3 significant digits (HdrHistogram). */
    final Histogram latencies;
    final long bodyBytesSent;
    final long bodyBytesReceived;
    final long framesReceived;
    final long framesReused;
    final List<String> errorSamples;

    /** Latencies above this (a minute) are recorded as this. */
    static final long MAX_LATENCY_NANOS = TimeUnit.MINUTES.toNanos(1);

    LoadResult(LoadStats stats, long elapsedNanos, Histogram latencies, long framesReceived, long framesReused) {
        this.ok = stats.ok.sum();
        this.errors = stats.errors.sum();
        this.elapsedNanos = elapsedNanos;
        this.latencies = latencies;
        this.bodyBytesSent = stats.bodyBytesSent.sum();
        this.bodyBytesReceived = stats.bodyBytesReceived.sum();
        this.framesReceived = framesReceived;
        this.framesReused = framesReused;
        this.errorSamples = List.copyOf(stats.errorSamples);
    }

    public long ok() {
        return ok;
    }

    public long errors() {
        return errors;
    }

    public List<String> errorSamples() {
        return errorSamples;
    }

    /** A histogram for latencies from 1 us to {@link #MAX_LATENCY_NANOS}, in nanoseconds, 3 significant digits. */
    static Histogram newLatencyHistogram() {
        return new Histogram(1_000, MAX_LATENCY_NANOS, 3);
    }

    /** The latency at {@code percentile} (0-100) in nanoseconds; 0 when nothing was recorded. */
    public long latencyNanos(double percentile) {
        return latencies.getTotalCount() == 0 ? 0 : latencies.getValueAtPercentile(percentile);
    }

    /** Correct responses per second. */
    public double requestsPerSecond() {
        return elapsedNanos == 0 ? 0 : ok * 1e9 / elapsedNanos;
    }

    /** The summary printed at the end of a run. */
    public String summary() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "requests  %,d ok, %,d errors in %.2f s: %,.0f req/s%n",
                ok, errors, elapsedNanos / 1e9, requestsPerSecond()));
        out.append(String.format(Locale.ROOT, "latency   p50 %s, p90 %s, p99 %s, p99.9 %s, max %s%n",
                millis(latencyNanos(50)), millis(latencyNanos(90)), millis(latencyNanos(99)),
                millis(latencyNanos(99.9)), millis(latencies.getTotalCount() == 0 ? 0 : latencies.getMaxValue())));
        out.append(String.format(Locale.ROOT, "bytes     request bodies %s sent, response bodies %s received "
                + "(every byte checked)%n", size(bodyBytesSent), size(bodyBytesReceived)));
        out.append(String.format(Locale.ROOT, "frames    %,d HEADERS/DATA frames received, %,d of them the same "
                + "object as the previous frame of their type (codec reuse)%n", framesReceived, framesReused));
        for (String error : errorSamples) {
            out.append("error     ").append(error).append(System.lineSeparator());
        }
        if (errors > errorSamples.size()) {
            out.append("error     ... and ").append(errors - errorSamples.size()).append(" more")
                    .append(System.lineSeparator());
        }
        return out.toString();
    }

    static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
    }

    static String size(long bytes) {
        if (bytes < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
        }
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024));
    }
}
