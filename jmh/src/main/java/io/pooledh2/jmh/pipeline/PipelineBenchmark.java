/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.pipeline;

import io.pooledh2.jmh.EventLoopBenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One op: one whole exchange of the subclass's {@link Scenario} over an {@link InMemoryConnection}, client and
 * server both built by {@link #stack}. The connection lives for the whole trial, as a real one would; streams
 * are opened and closed per exchange. B/op counts both ends.
 */
@State(Scope.Thread)
public abstract class PipelineBenchmark extends EventLoopBenchmark {

    /** Every {@link PipelineStack} by default. */
    @Param
    public PipelineStack stack;

    private InMemoryConnection connection;

    protected abstract Scenario scenario();

    @Setup
    public void setUp(Blackhole bh) {
        requireEventLoopThread();
        connection = new InMemoryConnection(stack.newStack(), scenario(), bh);
    }

    @Benchmark
    public void exchange() {
        connection.exchange();
    }

    @TearDown
    public void tearDown() {
        try {
            connection.requireIdle();
        } finally {
            connection.close();
        }
    }
}
