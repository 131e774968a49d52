/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.pipeline;

import org.openjdk.jmh.annotations.Param;

/**
 * The example server's {@code POST /echo} (h2load.sh's echo scenario) without sockets: request HEADERS and one
 * DATA frame of {@link #bodyKiB}, answered with HEADERS and the request's DATA payload written back, retained past
 * the frame's release: the one pipeline benchmark where every DATA frame outlives its callback. On the frame codec
 * that is the pooled reader's path for frames kept past their callback; on the listener path the pooled reader
 * gives a listener that may keep its payloads slices of the input, as Netty's reader does.
 */
public class EchoBenchmark extends PipelineBenchmark {

    @Param({"1", "16"})
    public int bodyKiB;

    @Override
    protected Scenario scenario() {
        return Scenario.echo(bodyKiB * 1024);
    }
}
