/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;

import java.nio.ByteBuffer;
import java.util.Map;

/**
 * One request and its response, on one stream: the example server's routes, the same code on every
 * {@link Pipeline}. Subclasses say how a response frame is written and how the stream's flow-control window is
 * read; this class decides what to write:
 * <ul>
 *   <li>{@code GET /hello}: the 1 KiB of {@link ExampleContent#helloBody()};</li>
 *   <li>{@code POST /echo}: the request body back as it arrives, then the request's trailers as the response's
 *       trailers (or end of stream on the last DATA frame when the request had no trailers);</li>
 *   <li>{@code GET /download?size=N}: N bytes of {@link ExampleContent#downloadByte(long)} in DATA frames of
 *       the configured size, while the stream's flow-control window has room.</li>
 * </ul>
 * Every route copies the request headers named {@code x-echo-*} into its response headers.
 *
 * <p>A model of a low-garbage handler: what is the same for every response is made once (the body of
 * {@code /hello}, the response headers of a request without {@code x-echo-*} headers); the route is found by
 * comparing the {@code :path} value in place, without making a {@code String} or a {@code QueryStringDecoder};
 * echoed headers keep the decoder's name and value objects instead of copying them into strings. What is still
 * made per request: the exchange itself (on the frames and listener pipelines only when the request spans more
 * than one frame), the response headers when there are headers to echo, the frames and promises written, and
 * the echo's retained duplicate of each DATA payload.
 *
 * <p>Nothing of a request frame is kept past the frame's release: the echoed bytes are a retained duplicate of
 * the payload (a reference of their own), echoed trailers are copied into a headers object of their own.
 */
abstract class ExampleExchange {

    private static final AsciiString TEXT_PLAIN = AsciiString.cached("text/plain; charset=us-ascii");
    private static final AsciiString OCTET_STREAM = AsciiString.cached("application/octet-stream");
    private static final AsciiString GET = AsciiString.cached("GET");
    private static final AsciiString POST = AsciiString.cached("POST");
    private static final AsciiString SIZE_PARAMETER = AsciiString.cached("size=");

    /**
     * The {@code /hello} body, made once: direct memory (the socket writes it without a copy), read-only, and
     * unreleasable, since every response writes a duplicate of it and the writer releases what it writes.
     * Wrapped from a plain NIO buffer so that it is not leak-tracked: it lives as long as the class.
     */
    private static final ByteBuf HELLO_BODY = Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(
            (ByteBuffer) ByteBuffer.allocateDirect(ExampleContent.HELLO_LENGTH).put(ExampleContent.helloBody()).flip())
            .asReadOnly());

    /**
     * Response headers that do not depend on the request, made once and shared by every connection: nothing
     * changes them after this (the encoder only reads headers), so sharing them across threads is safe.
     */
    private static final Http2Headers HELLO_HEADERS = new DefaultHttp2Headers()
            .status(HttpResponseStatus.OK.codeAsText())
            .set(HttpHeaderNames.CONTENT_TYPE, TEXT_PLAIN)
            .set(HttpHeaderNames.CONTENT_LENGTH, AsciiString.of(Integer.toString(ExampleContent.HELLO_LENGTH)));
    private static final Http2Headers ECHO_HEADERS = new DefaultHttp2Headers()
            .status(HttpResponseStatus.OK.codeAsText())
            .set(HttpHeaderNames.CONTENT_TYPE, OCTET_STREAM);

    private enum Route { HELLO, ECHO, DOWNLOAD, ERROR }

    private final int dataFrameSize;
    /** Set by the request's HEADERS frame; a second HEADERS frame on the stream is the trailers. */
    private boolean requestHeadersSeen;
    private Route route;
    /** The response headers, kept until the request ends (GET routes answer then). */
    private Http2Headers responseHeaders;
    private long downloadSize;
    private long downloadWritten;
    private int downloadFrameSize;

    ExampleExchange(int dataFrameSize) {
        this.dataFrameSize = dataFrameSize;
    }

    /**
     * Forgets the last request, so that this object can answer another one: a pipeline that answers a request
     * within its HEADERS frame ({@link #answeredByHeaders}) uses one exchange per connection for all of those.
     */
    protected final void clear() {
        requestHeadersSeen = false;
        route = null;
        responseHeaders = null;
        downloadSize = 0;
        downloadWritten = 0;
        downloadFrameSize = 0;
    }

    /** Writes a HEADERS frame on this stream (not flushed). */
    protected abstract void writeHeaders(Http2Headers headers, boolean endStream);

    /** Writes a DATA frame on this stream (not flushed); the write releases {@code data}. */
    protected abstract void writeData(ByteBuf data, boolean endStream);

    protected abstract void flush();

    /** Whether the stream's flow-control window (and the connection's) can take more data now. */
    protected abstract boolean isWritable();

    /** The largest DATA frame the peer takes (its SETTINGS_MAX_FRAME_SIZE). */
    protected abstract int maxFrameSize();

    protected abstract ByteBufAllocator alloc();

    /**
     * Whether a request whose first frame is {@code headers} is answered by {@link #onHeaders} alone, so that a
     * pipeline need not keep an exchange for its stream: a GET (other than {@code /download}, which continues when
     * the window opens) that ends with its HEADERS frame.
     */
    static boolean answeredByHeaders(Http2Headers headers, boolean endStream) {
        if (!endStream || !GET.contentEquals(headers.method())) {
            return false;
        }
        CharSequence path = headers.path();
        return path == null || !pathIs(path, pathEnd(path), ExampleContent.DOWNLOAD_PATH);
    }

    /** A request's HEADERS frame (the first) or its trailers (the second). Does not release anything. */
    final void onHeaders(Http2Headers headers, boolean endStream) {
        if (requestHeadersSeen) {
            onTrailers(headers);
            return;
        }
        requestHeadersSeen = true;
        CharSequence method = headers.method();
        CharSequence path = headers.path();
        if (path == null) {
            // Only a request that came by HTTP/1.1 Upgrade could lack it; the codecs reject such HTTP/2 requests.
            error(HttpResponseStatus.BAD_REQUEST, "no :path");
            return;
        }
        int pathEnd = pathEnd(path);
        if (pathIs(path, pathEnd, ExampleContent.ECHO_PATH)) {
            if (!POST.contentEquals(method)) {
                error(HttpResponseStatus.METHOD_NOT_ALLOWED, "use POST for /echo");
                return;
            }
            route = Route.ECHO;
            // The body goes back as it arrives; an empty request (HEADERS with END_STREAM) gets an empty answer.
            writeHeaders(withEchoedHeaders(ECHO_HEADERS, headers), endStream);
            return;
        }
        if (!GET.contentEquals(method)) {
            error(HttpResponseStatus.METHOD_NOT_ALLOWED, "use GET for " + path.subSequence(0, pathEnd));
            return;
        }
        if (pathIs(path, pathEnd, ExampleContent.HELLO_PATH)) {
            route = Route.HELLO;
            responseHeaders = withEchoedHeaders(HELLO_HEADERS, headers);
        } else if (pathIs(path, pathEnd, ExampleContent.DOWNLOAD_PATH)) {
            long size = downloadSize(path, pathEnd);
            if (size < 0) {
                error(HttpResponseStatus.BAD_REQUEST, "/download needs size=N, N >= 0");
                return;
            }
            route = Route.DOWNLOAD;
            downloadSize = size;
            downloadFrameSize = Math.min(dataFrameSize, maxFrameSize());
            // The length varies, so these headers are the request's own.
            Http2Headers response = new DefaultHttp2Headers(false)
                    .status(HttpResponseStatus.OK.codeAsText())
                    .set(HttpHeaderNames.CONTENT_TYPE, OCTET_STREAM)
                    .setLong(HttpHeaderNames.CONTENT_LENGTH, size);
            addEchoedHeaders(response, headers);
            responseHeaders = response;
        } else {
            error(HttpResponseStatus.NOT_FOUND, "no route for " + path.subSequence(0, pathEnd));
            return;
        }
        if (endStream) {
            respond();
        }
    }

    /** A request's DATA frame. Does not release it: the caller does, after this returns. */
    final void onData(ByteBuf content, boolean endStream) {
        if (route == Route.ECHO) {
            // A reference of our own to the bytes: the frame, and the payload it holds, are released after this.
            writeData(content.retainedDuplicate(), endStream);
            return;
        }
        // Other routes ignore a request body; they answer when the request has ended.
        if (endStream) {
            respond();
        }
    }

    private void onTrailers(Http2Headers trailers) {
        if (route == Route.ECHO) {
            // A copy: the trailers may wait in the flow controller behind queued DATA, past the frame's release.
            writeHeaders(trailersCopy(trailers), true);
        } else {
            respond();
        }
    }

    /** The stream can take more data: a download goes on. */
    final void onWritable() {
        if (route == Route.DOWNLOAD && downloadWritten < downloadSize) {
            writeDownload();
        }
    }

    /** The client reset the stream: nothing more to write. */
    final void onReset() {
        downloadWritten = downloadSize;
    }

    /** Whether this is an echo (whose reading a pipeline may pause while the stream is not writable). */
    final boolean isEcho() {
        return route == Route.ECHO;
    }

    /** The answer of a GET route, once the request has ended. */
    private void respond() {
        if (route == Route.HELLO) {
            writeHeaders(responseHeaders, false);
            // A duplicate: indexes of its own over the shared bytes, which the writer advances and "releases".
            // No flush: every pipeline flushes at the end of the read, once for all the responses it wrote.
            writeData(HELLO_BODY.duplicate(), true);
        } else if (route == Route.DOWNLOAD) {
            writeHeaders(responseHeaders, downloadSize == 0);
            writeDownload();
        }
        responseHeaders = null;
    }

    /**
     * Writes DATA frames until the body is complete or the stream is not writable, then flushes. So a large
     * download holds about one window of data in memory, not the whole body.
     */
    private void writeDownload() {
        while (downloadWritten < downloadSize && isWritable()) {
            int length = (int) Math.min(downloadFrameSize, downloadSize - downloadWritten);
            ByteBuf data = alloc().buffer(length);
            ExampleContent.writeDownload(data, downloadWritten, length);
            downloadWritten += length;
            writeData(data, downloadWritten == downloadSize);
        }
        flush();
    }

    private void error(HttpResponseStatus status, String message) {
        route = Route.ERROR;
        ByteBuf body = ByteBufUtil.writeAscii(alloc(), status + ": " + message + "\n");
        Http2Headers headers = new DefaultHttp2Headers().status(status.codeAsText())
                .set(HttpHeaderNames.CONTENT_TYPE, TEXT_PLAIN).setInt(HttpHeaderNames.CONTENT_LENGTH,
                        body.readableBytes());
        writeHeaders(headers, false);
        writeData(body, true);
        flush();
    }

    /** Where the path part of {@code :path} ends: at the query's {@code '?'}, or at its end. */
    private static int pathEnd(CharSequence path) {
        int query = AsciiString.indexOf(path, '?', 0);
        return query < 0 ? path.length() : query;
    }

    /** Whether the path part (up to {@code pathEnd}) is {@code route}, compared in place. */
    private static boolean pathIs(CharSequence path, int pathEnd, AsciiString route) {
        return pathEnd == route.length() && AsciiString.regionMatches(path, false, 0, route, 0, pathEnd);
    }

    /**
     * The one {@code size} query parameter as a non-negative number, read in place; -1 if absent, repeated or not
     * such a number.
     */
    private static long downloadSize(CharSequence path, int pathEnd) {
        long size = -1;
        int length = path.length();
        for (int start = pathEnd + 1; start < length; ) {
            int end = AsciiString.indexOf(path, '&', start);
            if (end < 0) {
                end = length;
            }
            if (AsciiString.regionMatches(path, false, start, SIZE_PARAMETER, 0, SIZE_PARAMETER.length())) {
                if (size >= 0) {
                    return -1;
                }
                size = digits(path, start + SIZE_PARAMETER.length(), end);
                if (size < 0) {
                    return -1;
                }
            }
            start = end + 1;
        }
        return size;
    }

    /** The decimal number {@code path[start, end)}, or -1 if it is empty, not all digits, or too large. */
    private static long digits(CharSequence path, int start, int end) {
        if (start == end || end - start > 18) {
            return -1;
        }
        long value = 0;
        for (int i = start; i < end; i++) {
            char c = path.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /**
     * {@code template} itself when the request has no {@code x-echo-*} header (the common case costs nothing),
     * else a copy of it with those headers added.
     */
    private static Http2Headers withEchoedHeaders(Http2Headers template, Http2Headers request) {
        Http2Headers response = null;
        for (Map.Entry<CharSequence, CharSequence> header : request) {
            if (isEchoed(header.getKey())) {
                if (response == null) {
                    // Validation off: the names and values come from the template or from a request the decoder
                    // has validated.
                    response = new DefaultHttp2Headers(false, template.size() + 2);
                    response.add(template);
                }
                response.add(header.getKey(), header.getValue());
            }
        }
        return response == null ? template : response;
    }

    /**
     * Adds the request's {@code x-echo-*} headers to {@code response}. Here and in {@link #withEchoedHeaders} the
     * name and value objects are kept, not copied into strings: the HPACK decoder makes a new immutable
     * {@code AsciiString} for each literal (and its table entries are immutable too); a pooled frame's release
     * empties its header arrays, not these objects.
     */
    private static void addEchoedHeaders(Http2Headers response, Http2Headers request) {
        for (Map.Entry<CharSequence, CharSequence> header : request) {
            if (isEchoed(header.getKey())) {
                response.add(header.getKey(), header.getValue());
            }
        }
    }

    private static boolean isEchoed(CharSequence name) {
        return AsciiString.regionMatches(name, true, 0, ExampleContent.ECHO_HEADER_PREFIX, 0,
                ExampleContent.ECHO_HEADER_PREFIX.length());
    }

    /** The request's trailers in a headers object of their own, without pseudo-headers (a trailer block has none). */
    private static Http2Headers trailersCopy(Http2Headers trailers) {
        Http2Headers copy = new DefaultHttp2Headers(false, trailers.size());
        for (Map.Entry<CharSequence, CharSequence> header : trailers) {
            CharSequence name = header.getKey();
            if (name.length() > 0 && name.charAt(0) != ':') {
                copy.add(name, header.getValue());
            }
        }
        return copy;
    }
}
