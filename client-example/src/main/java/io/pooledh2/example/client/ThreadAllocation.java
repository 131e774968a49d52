/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import java.lang.management.ManagementFactory;
import java.util.List;

/** Bytes allocated so far by a set of threads, from HotSpot's per-thread counters. */
final class ThreadAllocation {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private final long[] threadIds;

    ThreadAllocation(List<Thread> threads) {
        if (!THREADS.isThreadAllocatedMemorySupported()) {
            throw new UnsupportedOperationException("this JVM does not count allocated bytes per thread");
        }
        THREADS.setThreadAllocatedMemoryEnabled(true);
        threadIds = threads.stream().mapToLong(Thread::getId).toArray();
    }

    /** The sum over the threads of the bytes each has allocated since it started. */
    long allocatedBytes() {
        long total = 0;
        for (long bytes : THREADS.getThreadAllocatedBytes(threadIds)) {
            if (bytes > 0) {
                total += bytes;
            }
        }
        return total;
    }
}
