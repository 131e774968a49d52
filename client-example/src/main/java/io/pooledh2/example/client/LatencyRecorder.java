/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import java.util.Arrays;
import java.util.List;

/** Every latency of one worker (one thread writes it), merged at the end of a run into percentiles. */
final class LatencyRecorder {

    private long[] nanos = new long[1024];
    private int count;

    void record(long latencyNanos) {
        if (count == nanos.length) {
            nanos = Arrays.copyOf(nanos, count * 2);
        }
        nanos[count++] = latencyNanos;
    }

    /** All recorded latencies of {@code recorders}, sorted. */
    static long[] merge(List<LatencyRecorder> recorders) {
        int total = 0;
        for (LatencyRecorder recorder : recorders) {
            total += recorder.count;
        }
        long[] all = new long[total];
        int at = 0;
        for (LatencyRecorder recorder : recorders) {
            System.arraycopy(recorder.nanos, 0, all, at, recorder.count);
            at += recorder.count;
        }
        Arrays.sort(all);
        return all;
    }

    /** The {@code percentile} (0-100) of sorted latencies, nearest rank; 0 when there are none. */
    static long percentile(long[] sorted, double percentile) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(percentile / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
