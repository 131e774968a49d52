/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.pipeline;

import org.openjdk.jmh.annotations.Param;

/** A GET and its bodiless 200, with 0, 10 or 100 regular headers each way besides the pseudo-headers. */
public class RequestResponseBenchmark extends PipelineBenchmark {

    @Param({"0", "10", "100"})
    public int headers;

    @Override
    protected Scenario scenario() {
        return Scenario.requestResponse(headers);
    }
}
