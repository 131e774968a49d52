/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.pipeline;

import org.openjdk.jmh.annotations.Param;

/**
 * A GET answered with 1 MiB of DATA in frames of {@link #frameKiB} KiB: both ends advertise that
 * SETTINGS_MAX_FRAME_SIZE, so the server's frame writer cuts the body into frames of exactly that size.
 */
public class DownloadBenchmark extends PipelineBenchmark {

    /** Bytes per download: one op. */
    public static final int DOWNLOAD_BYTES = 1 << 20;

    @Param({"16", "64", "128", "256", "512"})
    public int frameKiB;

    @Override
    protected Scenario scenario() {
        return Scenario.download(frameKiB * 1024, DOWNLOAD_BYTES);
    }
}
