/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh;

import io.netty.util.concurrent.DefaultThreadFactory;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The executor JMH runs benchmark threads on ({@code -Djmh.executor=CUSTOM
 * -Djmh.executor.class=io.pooledh2.jmh.EventLoopThreadExecutor}, set by {@link EventLoopBenchmark}'s
 * {@code @Fork}): its threads are Netty {@code FastThreadLocalThread}s, as event-loop threads are. On JMH's own
 * plain threads Netty 4.2's {@code Recycler} and the pooled allocator's thread caches do not reuse, which would
 * measure a situation no Netty server is in.
 */
public final class EventLoopThreadExecutor extends ThreadPoolExecutor {

    /** The constructor JMH's {@code CUSTOM} executor calls. */
    public EventLoopThreadExecutor(int maxThreads, String prefix) {
        super(maxThreads, maxThreads, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(),
                new DefaultThreadFactory(prefix, true));
    }
}
