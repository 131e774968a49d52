/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.pipeline;

/**
 * A gRPC-style unary call with 1 KiB each way: request HEADERS + DATA, response HEADERS + DATA + trailers.
 */
public class UnaryBenchmark extends PipelineBenchmark {

    @Override
    protected Scenario scenario() {
        return Scenario.unary(1024);
    }
}
