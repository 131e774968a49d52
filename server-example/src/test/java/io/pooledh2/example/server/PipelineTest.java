/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every {@link Pipeline}, on the pooled codec and on Netty's, gives the same answers, every byte checked, to the
 * JDK's HTTP/2 client: its first request upgrades the connection ({@code Upgrade: h2c}, answered on stream 1),
 * the next ones are plain HTTP/2 streams. Trailers and prior knowledge are covered on every pipeline by the
 * client-example's {@code PipelineLoadTest}.
 */
class PipelineTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

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
    void everyRouteAnswersTheSame(Pipeline pipeline, boolean stock) throws Exception {
        ExampleServer server = new ExampleServer(new ServerOptions().port(0).pipeline(pipeline).stockCodec(stock)
                .dataFrameSize(5000)).start();
        try {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                    .connectTimeout(TIMEOUT).build();
            URI base = URI.create("http://127.0.0.1:" + server.port());
            for (int i = 0; i < 2; i++) {
                HttpResponse<byte[]> hello = client.send(get(base, "/hello").header("x-echo-id", "hello-" + i)
                        .build(), HttpResponse.BodyHandlers.ofByteArray());
                assertEquals(HttpClient.Version.HTTP_2, hello.version());
                assertEquals(200, hello.statusCode());
                assertEquals("hello-" + i, hello.headers().firstValue("x-echo-id").orElse(null));
                assertEquals("1024", hello.headers().firstValue("content-length").orElse(null));
                assertArrayEquals(ExampleContent.helloBody(), hello.body());
            }
            HttpResponse<byte[]> plainHello = client.send(get(base, "/hello?x=1").build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, plainHello.statusCode());
            assertTrue(plainHello.headers().firstValue("x-echo-id").isEmpty(), plainHello.headers().toString());
            assertArrayEquals(ExampleContent.helloBody(), plainHello.body());

            byte[] request = new byte[300_000];
            new Random(11).nextBytes(request);
            HttpResponse<byte[]> echo = client.send(HttpRequest.newBuilder(base.resolve("/echo")).timeout(TIMEOUT)
                    .header("x-echo-id", "echo").header("x-echo-other", "two")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(request)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(HttpClient.Version.HTTP_2, echo.version());
            assertEquals(200, echo.statusCode());
            assertEquals("echo", echo.headers().firstValue("x-echo-id").orElse(null));
            assertEquals("two", echo.headers().firstValue("x-echo-other").orElse(null));
            assertArrayEquals(request, echo.body());

            for (int size : new int[] {0, 1, 1_000_003}) {
                HttpResponse<byte[]> download = client.send(get(base, "/download?size=" + size).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                assertEquals(200, download.statusCode());
                assertEquals(String.valueOf(size), download.headers().firstValue("content-length").orElse(null));
                byte[] expected = new byte[size];
                for (int i = 0; i < size; i++) {
                    expected[i] = ExampleContent.downloadByte(i);
                }
                assertArrayEquals(expected, download.body(), "download of " + size);
            }

            assertError(client, get(base, "/missing").build(), 404, "no route for /missing");
            assertError(client, get(base, "/download?size=-1").build(), 400, "size=N");
            assertError(client, get(base, "/download?size=1&size=2").build(), 400, "size=N");
            assertError(client, get(base, "/echo").build(), 405, "use POST");
            assertError(client, HttpRequest.newBuilder(base.resolve("/hello")).timeout(TIMEOUT)
                    .POST(HttpRequest.BodyPublishers.ofString("x")).build(), 405, "use GET");
        } finally {
            server.stop();
        }
    }

    private static HttpRequest.Builder get(URI base, String path) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(TIMEOUT);
    }

    private static void assertError(HttpClient client, HttpRequest request, int status, String text)
            throws Exception {
        HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        String body = new String(response.body(), StandardCharsets.US_ASCII);
        assertEquals(status, response.statusCode(), body);
        assertTrue(body.contains(text), body);
        assertEquals(String.valueOf(response.body().length),
                response.headers().firstValue("content-length").orElse(null));
    }
}
