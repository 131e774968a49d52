/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import java.util.List;
import java.util.Locale;

/** What a run did: counts, throughput, latency percentiles, bytes, frame reuse, and the first errors. */
public final class LoadResult {

    final long ok;
    final long errors;
    final long elapsedNanos;
    final long p50Nanos;
    final long p90Nanos;
    final long p99Nanos;
    final long maxNanos;
    final long bodyBytesSent;
    final long bodyBytesReceived;
    final long framesReceived;
    final long framesReused;
    final List<String> errorSamples;

    LoadResult(LoadStats stats, long elapsedNanos, long[] sortedLatencies, long framesReceived, long framesReused) {
        this.ok = stats.ok.sum();
        this.errors = stats.errors.sum();
        this.elapsedNanos = elapsedNanos;
        this.p50Nanos = LatencyRecorder.percentile(sortedLatencies, 50);
        this.p90Nanos = LatencyRecorder.percentile(sortedLatencies, 90);
        this.p99Nanos = LatencyRecorder.percentile(sortedLatencies, 99);
        this.maxNanos = sortedLatencies.length == 0 ? 0 : sortedLatencies[sortedLatencies.length - 1];
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

    /** Correct responses per second. */
    public double requestsPerSecond() {
        return elapsedNanos == 0 ? 0 : ok * 1e9 / elapsedNanos;
    }

    /** The summary printed at the end of a run. */
    public String summary() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "requests  %,d ok, %,d errors in %.2f s: %,.0f req/s%n",
                ok, errors, elapsedNanos / 1e9, requestsPerSecond()));
        out.append(String.format(Locale.ROOT, "latency   p50 %s, p90 %s, p99 %s, max %s%n",
                millis(p50Nanos), millis(p90Nanos), millis(p99Nanos), millis(maxNanos)));
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
