/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.util.concurrent.FastThreadLocalThread;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs test code on a {@link FastThreadLocalThread}, as Netty's event loops do: Netty 4.2's shared Recycler
 * reuses objects only on such threads.
 */
final class EventLoopThread {

    interface Body {
        void run() throws Exception;
    }

    private EventLoopThread() {
    }

    static void run(Body body) throws Exception {
        run(body, 60_000);
    }

    /** {@link #run(Body)} with a time limit of its own; 0 for none (a long fuzz campaign, shrinking a case). */
    static void run(Body body, long timeoutMillis) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread thread = new FastThreadLocalThread(() -> {
            try {
                body.run();
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "pooledh2-test-event-loop");
        thread.start();
        thread.join(timeoutMillis);
        if (thread.isAlive()) {
            throw new AssertionError("event-loop thread did not finish in " + timeoutMillis + " ms");
        }
        Throwable t = failure.get();
        if (t instanceof Exception) {
            throw (Exception) t;
        }
        if (t instanceof Error) {
            throw (Error) t;
        }
    }
}
