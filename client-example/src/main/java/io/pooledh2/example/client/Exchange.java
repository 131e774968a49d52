/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.pooledh2.example.server.ExampleContent;

/**
 * One request and what its response must be. The client checks every response against this: the status, the
 * echoed {@code x-echo-id} header (which proves the response belongs to this request's stream), every body byte,
 * and the trailers ({@code /echo}: exactly the request's; other routes: none).
 */
final class Exchange {

    static final String ECHO_ID_HEADER = ExampleContent.ECHO_HEADER_PREFIX + "id";
    private static final byte[] HELLO = ExampleContent.helloBody();
    /**
     * The most extra request headers: 100 of them are about 7.3 KB of header list, under the 8 KiB that servers
     * (Netty's default) accept, and more than the 4 KiB HPACK table holds, so they come as literals every time.
     */
    static final int MAX_EXTRA_HEADERS = 100;
    private static final AsciiString[] EXTRA_NAMES = new AsciiString[MAX_EXTRA_HEADERS];
    private static final AsciiString[] EXTRA_VALUES = new AsciiString[MAX_EXTRA_HEADERS];

    static {
        for (int i = 0; i < MAX_EXTRA_HEADERS; i++) {
            EXTRA_NAMES[i] = AsciiString.of(String.format("x-app-setting-%02d", i));
            EXTRA_VALUES[i] = AsciiString.of(String.format("value-%02d-abcdefghijklmn", i));
        }
    }

    final Route route;
    /** Unique per request: sent as {@code x-echo-id}, and the seed of an {@code /echo} body. */
    final String id;
    private final long seed;
    /** The {@code /echo} request body length. */
    final int bodySize;
    final boolean trailers;
    private final long downloadSize;
    /** How many of the extra headers the request carries, the same names and values on every request. */
    final int extraHeaders;

    Exchange(Route route, String id, long seed, int bodySize, boolean trailers, long downloadSize,
             int extraHeaders) {
        this.route = route;
        this.id = id;
        this.seed = seed;
        this.bodySize = route == Route.ECHO ? bodySize : 0;
        this.trailers = route == Route.ECHO && trailers;
        this.downloadSize = downloadSize;
        this.extraHeaders = extraHeaders;
    }

    Http2Headers requestHeaders(CharSequence authority) {
        Http2Headers headers = new DefaultHttp2Headers()
                .method(route == Route.ECHO ? "POST" : "GET")
                .scheme("http")
                .authority(authority)
                .path(path())
                .add(ECHO_ID_HEADER, id);
        if (route == Route.ECHO) {
            headers.add("content-type", "application/octet-stream");
        }
        for (int i = 0; i < extraHeaders; i++) {
            headers.add(EXTRA_NAMES[i], EXTRA_VALUES[i]);
        }
        return headers;
    }

    String path() {
        switch (route) {
            case HELLO:
                return "/hello";
            case ECHO:
                return "/echo";
            default:
                return "/download?size=" + downloadSize;
        }
    }

    /** Bytes {@code offset .. offset + length - 1} of the request body. */
    void writeBody(ByteBuf out, long offset, int length) {
        BodyPattern.write(out, seed, offset, length);
    }

    /** The request's trailers, or {@code null}: different for every request, so an echo is checked exactly. */
    Http2Headers requestTrailers() {
        if (!trailers) {
            return null;
        }
        return new DefaultHttp2Headers()
                .add("x-request-id", id)
                .addInt("x-body-length", bodySize);
    }

    /** The trailers the response must end with, or {@code null} for none. */
    Http2Headers expectedTrailers() {
        return requestTrailers();
    }

    long expectedBodyLength() {
        switch (route) {
            case HELLO:
                return ExampleContent.HELLO_LENGTH;
            case ECHO:
                return bodySize;
            default:
                return downloadSize;
        }
    }

    byte expectedBodyByte(long offset) {
        switch (route) {
            case HELLO:
                return HELLO[(int) offset];
            case ECHO:
                return BodyPattern.byteAt(seed, offset);
            default:
                return ExampleContent.downloadByte(offset);
        }
    }

    @Override
    public String toString() {
        return (route == Route.ECHO ? "POST " : "GET ") + path() + " (" + ECHO_ID_HEADER + ": " + id + ")";
    }
}
