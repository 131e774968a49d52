/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The example client against a server that is not Netty: {@code src/interop/h2c-server.mjs}, Node's own
 * {@code node:http2} (nghttp2) with the example server's routes and content. Every route, bodies with and without
 * trailers, the client on the pooled codec (paranoid, and with reuse) and on Netty's. Skipped, with a message,
 * where {@code node} is not on the PATH.
 */
class NodeInteropTest {

    private static Process node;
    private static int port;

    @BeforeAll
    static void startNodeServer() throws Exception {
        assumeTrue(nodeIsPresent(), "node not found on PATH: skipping the interop test against node:http2");
        Path script = Path.of(System.getProperty("pooledh2.interopDir", "../src/interop"), "h2c-server.mjs");
        assertTrue(Files.isRegularFile(script), "missing " + script.toAbsolutePath());
        // Port 0: the script picks a free port and prints it; it exits by itself after 120 s at most, or when its
        // standard input (this JVM) goes away.
        node = new ProcessBuilder("node", script.toString(), "0", "120").redirectErrorStream(true).start();
        BufferedReader output = new BufferedReader(new InputStreamReader(node.getInputStream(),
                StandardCharsets.UTF_8));
        String line = CompletableFuture.supplyAsync(() -> {
            try {
                return output.readLine();
            } catch (IOException e) {
                return "error: " + e;
            }
        }).get(20, TimeUnit.SECONDS);
        assertTrue(line != null && line.startsWith("listening "), "node server did not start: " + line);
        port = Integer.parseInt(line.substring("listening ".length()).trim());
    }

    @AfterAll
    static void stopNodeServer() throws InterruptedException {
        if (node != null) {
            node.destroy();
            if (!node.waitFor(10, TimeUnit.SECONDS)) {
                node.destroyForcibly();
            }
        }
    }

    @ParameterizedTest(name = "client codec: {0}")
    @ValueSource(strings = {"pooled", "pooled-paranoid", "stock"})
    void everyRouteChecksOut(String codec) throws Exception {
        ClientOptions options = new ClientOptions().port(port).connections(2).streams(4).requests(600)
                .route(null).bodySize(0, 40_000).frameSize(7000).downloadSize(100_000).progress(false);
        if (codec.equals("stock")) {
            options.stockCodec(true);
        } else {
            options.paranoid(codec.equals("pooled-paranoid"));
        }
        LoadResult withTrailers;
        LoadResult withoutTrailers;
        try (LoadClient client = LoadClient.connect(options)) {
            withTrailers = client.run(null);
        }
        try (LoadClient client = LoadClient.connect(options.trailers(false).route(Route.ECHO))) {
            withoutTrailers = client.run(null);
        }
        assertEquals(0, withTrailers.errors(), withTrailers.summary());
        assertEquals(600, withTrailers.ok(), withTrailers.summary());
        assertEquals(0, withoutTrailers.errors(), withoutTrailers.summary());
        assertEquals(600, withoutTrailers.ok(), withoutTrailers.summary());
        if (codec.equals("pooled")) {
            assertTrue(withTrailers.framesReused > 0, withTrailers.summary());
        } else {
            assertEquals(0, withTrailers.framesReused, withTrailers.summary());
        }
    }

    private static boolean nodeIsPresent() {
        try {
            Process version = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            version.getInputStream().readAllBytes();
            return version.waitFor(10, TimeUnit.SECONDS) && version.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
