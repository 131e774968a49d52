/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.ConnectException;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ExampleServer#stop()}, which the JVM shutdown hook runs on SIGTERM, as RFC 9113 section 6.8 describes
 * it: the server sends GOAWAY with the last stream it accepted; that stream, in flight, goes on to its end; a
 * stream the client opens after the GOAWAY has a higher id, is not processed, and is reset with REFUSED_STREAM
 * (section 8.7: "the stream was not processed"), which tells the client it may retry it elsewhere; the
 * connection closes when its last stream ends. New connections are refused from the start of the shutdown. On
 * every pipeline, with the pooled codec and with Netty's.
 */
class GracefulShutdownTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    /** Every pipeline, on the pooled codec and on Netty's. */
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
    void streamInFlightFinishesAndANewStreamIsRefused(Pipeline pipeline, boolean stockCodec) throws Exception {
        ExampleServer server = new ExampleServer(new ServerOptions().port(0).stockCodec(stockCodec)
                .pipeline(pipeline).shutdownTimeoutMillis(10_000)).start();
        int port = server.port();
        CompletableFuture<Void> stopped;
        try (RawHttp2Client client = RawHttp2Client.connect(port)) {
            // Stream 1: an echo whose request is still being sent when the shutdown starts.
            client.headers(1, request("POST", "/echo", "in-flight"), false);
            RawHttp2Client.Event response = client.await("HEADERS", 1, WAIT);
            assertEquals("200", String.valueOf(response.headers().status()));
            assertEquals("in-flight", String.valueOf(response.headers().get("x-echo-id")));
            client.data(1, "first part;", false);
            assertEquals("first part;", client.await("DATA", 1, WAIT).text());

            stopped = CompletableFuture.runAsync(server::stop);

            RawHttp2Client.Event goAway = client.await("GOAWAY", 1, WAIT);
            assertEquals(Http2Error.NO_ERROR.code(), goAway.value(), goAway.toString());
            assertTrue(refusesConnections(port), "the server still accepts connections after GOAWAY");

            // Stream 3 is above the last-stream-id: refused, not processed.
            client.headers(3, request("GET", "/hello", "too-late"), true);
            RawHttp2Client.Event reset = client.await("RST_STREAM", 3, WAIT);
            assertEquals(Http2Error.REFUSED_STREAM.code(), reset.value(), reset.toString());

            // Stream 1 goes on: more body, then trailers, all echoed.
            client.data(1, "second part", false);
            assertEquals("second part", client.await("DATA", 1, WAIT).text());
            client.headers(1, new DefaultHttp2Headers().add("x-checksum", "42"), true);
            RawHttp2Client.Event trailers = client.await("HEADERS", 1, WAIT);
            assertTrue(trailers.endStream(), trailers.toString());
            assertEquals("42", String.valueOf(trailers.headers().get("x-checksum")));

            // Its last stream done, the connection closes.
            client.await("CLOSED", 0, WAIT);
            assertTrue(client.seen().stream().noneMatch(e -> e.streamId() == 3 && !e.type().equals("RST_STREAM")),
                    "stream 3 was processed: " + client.seen());
        }
        stopped.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    @ParameterizedTest(name = "{0}, stock codec: {1}")
    @MethodSource("pipelines")
    void aStreamThatNeverEndsIsCutAtTheShutdownTimeout(Pipeline pipeline, boolean stockCodec) throws Exception {
        ExampleServer server = new ExampleServer(new ServerOptions().port(0).stockCodec(stockCodec)
                .pipeline(pipeline).shutdownTimeoutMillis(500)).start();
        CompletableFuture<Void> stopped;
        try (RawHttp2Client client = RawHttp2Client.connect(server.port())) {
            client.headers(1, request("POST", "/echo", "never-ends"), false);
            client.await("HEADERS", 1, WAIT);
            long start = System.nanoTime();
            stopped = CompletableFuture.runAsync(server::stop);
            client.await("GOAWAY", 1, WAIT);
            client.await("CLOSED", 0, WAIT);
            long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(waitedMillis >= 400, "closed after " + waitedMillis + " ms, before the timeout");
            stopped.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
    }

    /**
     * Whether connecting to the port is refused, within a second: the JDK closes a listening socket registered with
     * a selector only at the selector's next cycle, so for a moment after its close the kernel may still complete
     * a handshake (the connection is then reset, never served).
     */
    private static boolean refusesConnections(int port) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        do {
            try {
                new Socket("127.0.0.1", port).close();
            } catch (ConnectException refused) {
                return true;
            }
            Thread.sleep(10);
        } while (System.nanoTime() < deadline);
        return false;
    }

    private static Http2Headers request(String method, String path, String id) {
        return new DefaultHttp2Headers().method(method).scheme("http").authority("127.0.0.1").path(path)
                .add("x-echo-id", id);
    }
}
