/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;

/** The counters of a run, updated by every worker and read by the progress line. */
final class LoadStats {

    /** How many error messages a run keeps for its summary. */
    static final int MAX_ERROR_SAMPLES = 10;

    final LongAdder ok = new LongAdder();
    final LongAdder errors = new LongAdder();
    final LongAdder bodyBytesSent = new LongAdder();
    final LongAdder bodyBytesReceived = new LongAdder();
    final List<String> errorSamples = new CopyOnWriteArrayList<>();

    void error(String message) {
        errors(1, message);
    }

    /** {@code count} requests failed for the same reason. */
    void errors(long count, String message) {
        errors.add(count);
        if (errorSamples.size() < MAX_ERROR_SAMPLES) {
            errorSamples.add(message);
        }
    }

    long completed() {
        return ok.sum() + errors.sum();
    }
}
