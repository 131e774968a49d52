/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import io.pooledh2.example.server.ExampleServer;
import io.pooledh2.example.server.ServerOptions;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The example client and server together through a graceful shutdown: downloads in flight when the server
 * sends GOAWAY complete, every byte right; afterwards the client reports the requests it can no longer make
 * as errors and returns, instead of hanging.
 */
class ServerShutdownTest {

    @Test
    void downloadsInFlightCompleteThenTheClientStops() throws Exception {
        ExampleServer server = new ExampleServer(new ServerOptions().port(0).dataFrameSize(4096)
                .shutdownTimeoutMillis(20_000)).start();
        ClientOptions options = new ClientOptions().port(server.port()).connections(1).streams(4).requests(4)
                .route(Route.DOWNLOAD).downloadSize(8 * 1024 * 1024).progress(false);
        try (LoadClient client = LoadClient.connect(options)) {
            CompletableFuture<LoadResult> downloads = CompletableFuture.supplyAsync(() -> client.run(null));
            // Stop only once the server has all four streams: a request still unsent when the GOAWAY comes is
            // (rightly) not served, which is not what this test is about.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (server.activeStreams() < 4 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertEquals(4, server.activeStreams(), "the four downloads are under way");
            CompletableFuture<Void> stopped = CompletableFuture.runAsync(server::stop);
            LoadResult inFlight = downloads.get(60, TimeUnit.SECONDS);
            assertEquals(0, inFlight.errors(), inFlight.summary());
            assertEquals(4, inFlight.ok(), inFlight.summary());
            stopped.get(30, TimeUnit.SECONDS);

            LoadResult after = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> client.run(null));
            assertEquals(0, after.ok(), after.summary());
            assertEquals(4, after.errors(), after.summary());
            assertTrue(after.errorSamples().stream().allMatch(e -> e.contains("connection closed")
                    || e.contains("not sent") || e.contains("not opened")), after.summary());
        } finally {
            server.stop();
        }
    }
}
