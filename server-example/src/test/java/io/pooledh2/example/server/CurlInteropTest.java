/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * curl, a client that is not Netty (nghttp2 inside), gets correct answers from the example server: h2c with prior
 * knowledge on the pooled and the stock codec, h2c by HTTP/1.1 Upgrade, and TLS with ALPN h2 (on every pipeline).
 * Skipped, with a message, where curl is missing or built without HTTP/2.
 */
class CurlInteropTest {

    private static ExampleServer pooled;
    private static ExampleServer stock;
    private static ExampleServer tls;
    private static ExampleServer tlsFrames;
    private static ExampleServer tlsListener;

    @TempDir
    Path dir;

    @BeforeAll
    static void startServers() throws Exception {
        assumeTrue(curlHasHttp2(), "curl with HTTP/2 support not found on PATH: skipping the curl interop tests");
        pooled = new ExampleServer(new ServerOptions().port(0)).start();
        stock = new ExampleServer(new ServerOptions().port(0).stockCodec(true)).start();
        tls = new ExampleServer(new ServerOptions().port(0).tls(true)).start();
        tlsFrames = new ExampleServer(new ServerOptions().port(0).tls(true).pipeline(Pipeline.FRAMES)).start();
        tlsListener = new ExampleServer(new ServerOptions().port(0).tls(true).pipeline(Pipeline.LISTENER)).start();
    }

    @AfterAll
    static void stopServers() {
        for (ExampleServer server : new ExampleServer[] {pooled, stock, tls, tlsFrames, tlsListener}) {
            if (server != null) {
                server.stop();
            }
        }
    }

    @Test
    void helloWithPriorKnowledge() throws Exception {
        for (ExampleServer server : List.of(pooled, stock)) {
            Path body = dir.resolve("hello");
            assertEquals("2 200", curl(body, "--http2-prior-knowledge", url(server, "/hello")));
            assertArrayEquals(ExampleContent.helloBody(), Files.readAllBytes(body));
        }
    }

    @Test
    void echoWithPriorKnowledge() throws Exception {
        byte[] request = new byte[300_000];
        new Random(7).nextBytes(request);
        Path requestFile = Files.write(dir.resolve("request"), request);
        for (ExampleServer server : List.of(pooled, stock)) {
            Path body = dir.resolve("echo");
            assertEquals("2 200", curl(body, "--http2-prior-knowledge", "--data-binary", "@" + requestFile,
                    "-H", "x-echo-id: curl", url(server, "/echo")));
            assertArrayEquals(request, Files.readAllBytes(body));
        }
    }

    @Test
    void downloadWithPriorKnowledge() throws Exception {
        int size = 1_000_003;
        byte[] expected = new byte[size];
        for (int i = 0; i < size; i++) {
            expected[i] = ExampleContent.downloadByte(i);
        }
        for (ExampleServer server : List.of(pooled, stock)) {
            Path body = dir.resolve("download");
            assertEquals("2 200", curl(body, "--http2-prior-knowledge", url(server, "/download?size=" + size)));
            assertArrayEquals(expected, Files.readAllBytes(body));
        }
    }

    @Test
    void unknownRouteIs404() throws Exception {
        Path body = dir.resolve("missing");
        assertEquals("2 404", curl(body, "--http2-prior-knowledge", url(pooled, "/missing")));
    }

    @Test
    void helloByUpgradeFromHttp11() throws Exception {
        Path body = dir.resolve("upgrade");
        // curl --http2 on http:// sends HTTP/1.1 with Upgrade: h2c; the response comes on HTTP/2 stream 1.
        assertEquals("2 200", curl(body, "--http2", url(pooled, "/hello")));
        assertArrayEquals(ExampleContent.helloBody(), Files.readAllBytes(body));
    }

    @Test
    void http11WithoutUpgradeIsToldToUseHttp2() throws Exception {
        Path body = dir.resolve("http11");
        assertEquals("1.1 505", curl(body, "--http1.1", url(pooled, "/hello")));
        assertTrue(Files.readString(body, StandardCharsets.US_ASCII).contains("HTTP/2 only"));
    }

    /** TLS with ALPN h2, on every pipeline. */
    @Test
    void tlsWithAlpn() throws Exception {
        for (ExampleServer server : List.of(tls, tlsFrames, tlsListener)) {
            Path body = dir.resolve("tls");
            String url = "https://127.0.0.1:" + server.port();
            assertEquals("2 200", curl(body, "-k", "--http2", url + "/hello"));
            assertArrayEquals(ExampleContent.helloBody(), Files.readAllBytes(body));
            Path request = Files.write(dir.resolve("tls-request"), "over TLS".getBytes(StandardCharsets.US_ASCII));
            assertEquals("2 200", curl(body, "-k", "--http2", "--data-binary", "@" + request, url + "/echo"));
            assertEquals("over TLS", Files.readString(body, StandardCharsets.US_ASCII));
        }
    }

    private static String url(ExampleServer server, String path) {
        return "http://127.0.0.1:" + server.port() + path;
    }

    /** Runs curl, writing the body to {@code body}; returns "http_version status". */
    private static String curl(Path body, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "30", "-o", body.toString(),
                "-w", "%{http_version} %{http_code}"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("curl did not finish: " + command);
        }
        assertEquals(0, process.exitValue(), "curl failed: " + command + "\n" + output);
        return output.trim();
    }

    private static boolean curlHasHttp2() {
        try {
            Process process = new ProcessBuilder("curl", "-V").redirectErrorStream(true).start();
            String version = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0 && version.contains("HTTP2");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
