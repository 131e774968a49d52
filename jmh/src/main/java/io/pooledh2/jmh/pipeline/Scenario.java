/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.pipeline;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;

/**
 * What one exchange is: the request the client sends (headers, optional body) and the response the server
 * answers every request with (headers, optional body, optional trailers), plus the SETTINGS both ends send.
 * Header containers are built once and written again for every exchange; the encoders do not change them.
 */
public final class Scenario {

    /** Both ends advertise a 16 MiB stream window and open the connection window as far, so no exchange waits. */
    static final int WINDOW = 16 << 20;
    /** Large enough for 100 headers in either direction (Netty's default is 8 KiB). */
    static final long MAX_HEADER_LIST_SIZE = 64 << 10;

    final String name;
    final Http2Headers requestHeaders;
    final int requestBodyBytes;
    final Http2Headers responseHeaders;
    final int responseBodyBytes;
    /** Null for no trailers. */
    final Http2Headers responseTrailers;
    final int maxFrameSize;
    /**
     * The server answers the request's HEADERS with {@link #responseHeaders} at once and writes each request DATA
     * payload back as it arrives, with a reference of its own (the example server's {@code POST /echo}): the
     * request's DATA outlives its callback, until the write has gone out.
     */
    final boolean echo;

    private Scenario(String name, Http2Headers requestHeaders, int requestBodyBytes, Http2Headers responseHeaders,
                     int responseBodyBytes, Http2Headers responseTrailers, int maxFrameSize, boolean echo) {
        this.name = name;
        this.requestHeaders = requestHeaders;
        this.requestBodyBytes = requestBodyBytes;
        this.responseHeaders = responseHeaders;
        this.responseBodyBytes = responseBodyBytes;
        this.responseTrailers = responseTrailers;
        this.maxFrameSize = maxFrameSize;
        this.echo = echo;
    }

    /** A GET and its bodiless 200, each with the pseudo-headers plus {@code headers} regular headers. */
    public static Scenario requestResponse(int headers) {
        Http2Headers request = new DefaultHttp2Headers()
                .method("GET").scheme("https").path("/api/v1/items/42").authority("bench.pooledh2.io");
        Http2Headers response = new DefaultHttp2Headers().status("200");
        addHeaders(request, REQUEST_HEADERS, headers);
        addHeaders(response, RESPONSE_HEADERS, headers);
        return new Scenario("request/response, " + headers + " headers", request, 0, response, 0, null,
                16384, false);
    }

    /** A gRPC-style unary call: request headers and a body, response headers, a body and trailers. */
    public static Scenario unary(int bodyBytes) {
        Http2Headers request = new DefaultHttp2Headers()
                .method("POST").scheme("http").path("/pooledh2.bench.Echo/Unary").authority("bench.pooledh2.io")
                .add("content-type", "application/grpc")
                .add("te", "trailers")
                .add("grpc-accept-encoding", "identity")
                .add("user-agent", "grpc-java-netty/1.70.0");
        Http2Headers response = new DefaultHttp2Headers().status("200")
                .add("content-type", "application/grpc")
                .add("grpc-encoding", "identity");
        Http2Headers trailers = new DefaultHttp2Headers().add("grpc-status", "0");
        return new Scenario("unary " + bodyBytes + " B", request, bodyBytes, response, bodyBytes, trailers, 16384,
                false);
    }

    /** A GET answered with {@code totalBytes} of DATA in frames of {@code frameSize} (the max frame size). */
    public static Scenario download(int frameSize, int totalBytes) {
        Http2Headers request = new DefaultHttp2Headers()
                .method("GET").scheme("https").path("/download/blob.bin").authority("bench.pooledh2.io")
                .add("accept", "*/*");
        Http2Headers response = new DefaultHttp2Headers().status("200")
                .add("content-type", "application/octet-stream")
                .add("content-length", Integer.toString(totalBytes));
        return new Scenario("download " + totalBytes + " B in " + frameSize + " B frames", request, 0, response,
                totalBytes, null, frameSize, false);
    }

    /**
     * The example server's {@code POST /echo}: a request of headers and a body of {@code bodyBytes} in one DATA
     * frame, answered with headers and the request's own DATA payload written back (see {@link #echo}).
     */
    public static Scenario echo(int bodyBytes) {
        Http2Headers request = new DefaultHttp2Headers()
                .method("POST").scheme("http").path("/echo").authority("127.0.0.1:8443");
        Http2Headers response = new DefaultHttp2Headers().status("200")
                .add("content-type", "application/octet-stream");
        return new Scenario("echo " + bodyBytes + " B", request, bodyBytes, response, 0, null, 16384, true);
    }

    /** The bytes of DATA a response carries: the request's body for an echo. */
    int responseBytes() {
        return echo ? requestBodyBytes : responseBodyBytes;
    }

    /**
     * Fails unless a response that ended carried {@code bytes} of DATA, {@link #responseBytes()}: a benchmark whose
     * server answered wrongly must not be measured as if it had answered.
     */
    void checkResponse(long bytes) {
        if (bytes != responseBytes()) {
            throw new IllegalStateException(name + ": a response carried " + bytes + " bytes of DATA, expected "
                    + responseBytes());
        }
    }

    /** The SETTINGS both ends start with. */
    Http2Settings settings() {
        return new Http2Settings()
                .initialWindowSize(WINDOW)
                .maxFrameSize(maxFrameSize)
                .maxHeaderListSize(MAX_HEADER_LIST_SIZE);
    }

    @Override
    public String toString() {
        return name;
    }

    private static final String[][] REQUEST_HEADERS = {
            {"accept", "application/json"},
            {"accept-encoding", "gzip, deflate, br"},
            {"accept-language", "en-US,en;q=0.8"},
            {"user-agent", "pooledh2-bench/0.1 (netty 4.2)"},
            {"cache-control", "no-cache"},
            {"cookie", "session=7f3a9c2e41b0; theme=dark"},
            {"authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.e30.ZRrHA1JJJW8opsbCGfG_HACGpVUMN_a9IV7pAx_Zmeo"},
            {"x-request-id", "5b1e7c64-2f0a-4d8e-9b3a-81c2d6e0f4a7"},
            {"x-forwarded-for", "203.0.113.7"},
            {"referer", "https://bench.pooledh2.io/items"},
    };

    private static final String[][] RESPONSE_HEADERS = {
            {"content-type", "application/json; charset=utf-8"},
            {"cache-control", "private, max-age=0"},
            {"date", "Sun, 22 Nov 2026 22:00:00 GMT"},
            {"server", "pooledh2"},
            {"vary", "accept-encoding"},
            {"etag", "\"33a64df551425fcc55e4d42a148795d9f25f89d4\""},
            {"x-request-id", "5b1e7c64-2f0a-4d8e-9b3a-81c2d6e0f4a7"},
            {"strict-transport-security", "max-age=31536000"},
            {"x-content-type-options", "nosniff"},
            {"access-control-allow-origin", "*"},
    };

    /** The first ten from the realistic list, the rest {@code x-bench-NNN} custom headers. */
    private static void addHeaders(Http2Headers headers, String[][] realistic, int count) {
        for (int i = 0; i < count; i++) {
            if (i < realistic.length) {
                headers.add(realistic[i][0], realistic[i][1]);
            } else {
                headers.add(String.format("x-bench-%03d", i), String.format("value-%03d-0123456789abcdef", i));
            }
        }
    }
}
