/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jcstress;

import io.netty.util.concurrent.FastThreadLocalThread;
import io.netty.util.internal.PlatformDependent;

/**
 * Runs an actor's reader work as on a Netty event loop. Netty 4.2's shared {@code Recycler} pools objects
 * only for threads that clean up their fast thread-locals; jcstress actors run on plain threads, where every
 * {@code Recycler.get()} is a new, never-pooled object. {@link FastThreadLocalThread#runWithFastThreadLocal}
 * makes the current thread such a thread for the duration of the call, so the frames' own static pools hand
 * out, take back and hand out again real pooled instances, with the owner's local batch and the cross-thread
 * queue of a real event loop.
 *
 * <p>The thread's pool lives for one call: {@code FastThreadLocal.removeAll()} drops it at the end, and a
 * frame released after that is dropped by the Recycler (Netty's behaviour for a pool whose owner is gone).
 */
public final class EventLoopScope {

    /** Reader work; its checked exceptions (an {@code Http2Exception}) fail the actor. */
    public interface Work {
        void run() throws Exception;
    }

    private EventLoopScope() {
    }

    public static void run(Work work) {
        FastThreadLocalThread.runWithFastThreadLocal(() -> {
            try {
                work.run();
            } catch (Exception e) {
                PlatformDependent.throwException(e);
            }
        });
    }
}
