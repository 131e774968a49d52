/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import io.pooledh2.example.server.ExampleServer;
import io.pooledh2.example.server.Pipeline;
import io.pooledh2.example.server.ServerOptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Every {@link Pipeline} of the example server, on the pooled codec and on Netty's, against the load client (h2c
 * with prior knowledge): all routes in turn, echo bodies of 0 to 20 000 bytes in 7000-byte DATA frames with
 * trailers, downloads of 50 000 bytes in 3000-byte frames, 4 concurrent streams on each of 2 connections; every
 * response checked (status, echoed id, every body byte, trailers), then the same echoes without trailers. Under
 * paranoid leak detection, like every test of this module.
 */
class PipelineLoadTest {

    private static final int REQUESTS = 240;

    static List<Arguments> pipelines() {
        List<Arguments> all = new ArrayList<>();
        for (Pipeline pipeline : Pipeline.values()) {
            all.add(Arguments.of(pipeline, false));
            all.add(Arguments.of(pipeline, true));
        }
        return all;
    }

    @ParameterizedTest(name = "{0}, stock codec: {1}")
    @MethodSource("pipelines")
    void everyRouteChecksOut(Pipeline pipeline, boolean stock) throws Exception {
        ExampleServer server = new ExampleServer(new ServerOptions().port(0).pipeline(pipeline).stockCodec(stock)
                .dataFrameSize(3000)).start();
        LoadResult mixed;
        LoadResult withoutTrailers;
        try {
            ClientOptions options = new ClientOptions().port(server.port()).connections(2).streams(4)
                    .requests(REQUESTS).route(null).bodySize(0, 20_000).frameSize(7000).downloadSize(50_000)
                    .progress(false);
            try (LoadClient client = LoadClient.connect(options)) {
                mixed = assertTimeoutPreemptively(Duration.ofSeconds(120), () -> client.run(null));
            }
            try (LoadClient client = LoadClient.connect(options.trailers(false).route(Route.ECHO))) {
                withoutTrailers = assertTimeoutPreemptively(Duration.ofSeconds(120), () -> client.run(null));
            }
        } finally {
            server.stop();
        }
        assertEquals(0, mixed.errors(), mixed.summary());
        assertEquals(REQUESTS, mixed.ok(), mixed.summary());
        assertEquals(0, withoutTrailers.errors(), withoutTrailers.summary());
        assertEquals(REQUESTS, withoutTrailers.ok(), withoutTrailers.summary());
    }
}
