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
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.ReadOnlyHttp2Headers;
import io.netty.util.AsciiString;

import java.nio.ByteBuffer;
import java.util.Arrays;
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
 * {@code /hello}, the response headers of a request without {@code x-echo-*} headers); response headers are
 * Netty's array-based {@link ReadOnlyHttp2Headers}, not a hash table; the route is found by comparing the
 * {@code :path} value in place, without making a {@code String} or a {@code QueryStringDecoder}; echoed headers
 * keep the decoder's name and value objects instead of copying them into strings; the echo writes each request
 * DATA payload back as it is. A pipeline keeps no exchange object for a GET answered within its HEADERS frame nor
 * for an echo ({@link #keepsNoExchange}): one reusable exchange per connection answers those. What is still made
 * per request: the response headers when there are headers to echo (an array and the headers object), the
 * echo's copy of the trailers (the same), the frames written, and an exchange object for the requests that need
 * one (a download, a GET with a body, an error answered before the request ended).
 *
 * <p>Nothing of a request frame is used past the frame's release but the echoed payload, which holds a reference
 * of its own (the pooled codec keeps the frame until the payload is written, as it does for any retained frame);
 * echoed trailers are copied into a headers object of their own.
 */
abstract class ExampleExchange {

    private static final AsciiString TEXT_PLAIN = AsciiString.cached("text/plain; charset=us-ascii");
    private static final AsciiString OCTET_STREAM = AsciiString.cached("application/octet-stream");
    private static final AsciiString GET = AsciiString.cached("GET");
    private static final AsciiString POST = AsciiString.cached("POST");
    private static final AsciiString CONNECT = AsciiString.cached("CONNECT");
    private static final AsciiString SIZE_PARAMETER = AsciiString.cached("size=");

    /**
     * The {@code /hello} body, made once: direct memory (the socket writes it without a copy), read-only, and
     * unreleasable, since every response writes a duplicate of it and the writer releases what it writes.
     * Wrapped from a plain NIO buffer so that it is not leak-tracked: it lives as long as the class.
     */
    private static final ByteBuf HELLO_BODY = Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(
            (ByteBuffer) ByteBuffer.allocateDirect(ExampleContent.HELLO_LENGTH).put(ExampleContent.helloBody()).flip())
            .asReadOnly());

    private static final AsciiString OK = HttpResponseStatus.OK.codeAsText();
    /** The fields after {@code :status} of each route's response, as name, value, name, value, ... */
    private static final AsciiString[] HELLO_FIELDS = {HttpHeaderNames.CONTENT_TYPE, TEXT_PLAIN,
            HttpHeaderNames.CONTENT_LENGTH, AsciiString.of(Integer.toString(ExampleContent.HELLO_LENGTH))};
    private static final AsciiString[] ECHO_FIELDS = {HttpHeaderNames.CONTENT_TYPE, OCTET_STREAM};

    /**
     * Response headers that do not depend on the request, made once and shared by every connection. Netty's
     * {@link ReadOnlyHttp2Headers}: arrays the encoder reads in order, no hash table; immutable, so sharing them
     * across threads is safe. A response with echoed fields gets a copy of its own, made the same way.
     */
    private static final Http2Headers HELLO_HEADERS = ReadOnlyHttp2Headers.serverHeaders(false, OK, HELLO_FIELDS);
    private static final Http2Headers ECHO_HEADERS = ReadOnlyHttp2Headers.serverHeaders(false, OK, ECHO_FIELDS);

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
     * What a pipeline keeps for a stream whose echo is under way, instead of an exchange object: an echo answers
     * each of its frames as it comes, so all it has to remember between them is that it is an echo (see
     * {@link #keepsNoExchange}).
     */
    static final Object ECHO_UNDER_WAY = new Object() {
        @Override
        public String toString() {
            return "echo under way";
        }
    };

    /**
     * Forgets the last request, so that this object can answer another one: a pipeline answers every request that
     * {@link #keepsNoExchange keeps no exchange} with one exchange per connection, cleared after each call.
     */
    protected final void clear() {
        requestHeadersSeen = false;
        route = null;
        responseHeaders = null;
        downloadSize = 0;
        downloadWritten = 0;
        downloadFrameSize = 0;
    }

    /**
     * The exchange that answers the next frame of a stream for which a pipeline kept {@code kept}: the stream's own
     * exchange, or for {@link #ECHO_UNDER_WAY} the pipeline's {@code reusable} one, set to go on with the echo (the
     * pipeline clears it after the call); {@code null} if it kept nothing.
     */
    @SuppressWarnings("unchecked")
    static <E extends ExampleExchange> E continuing(Object kept, E reusable) {
        if (kept == ECHO_UNDER_WAY) {
            ExampleExchange exchange = reusable;
            exchange.requestHeadersSeen = true;
            exchange.route = Route.ECHO;
            return reusable;
        }
        return (E) kept;
    }

    /**
     * After a request's first HEADERS frame was answered with a pipeline's reusable exchange: what the pipeline
     * keeps for the stream's next frames ({@link #ECHO_UNDER_WAY} for an echo whose request goes on), or
     * {@code null} if there is nothing to keep.
     */
    final Object toKeep(boolean endStream) {
        return route == Route.ECHO && !endStream ? ECHO_UNDER_WAY : null;
    }

    /** Resets this stream with {@code error} (RST_STREAM) and flushes. */
    protected abstract void resetStream(Http2Error error);

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
     * Whether a request whose first frame is {@code headers} needs no exchange object of its own, so that a pipeline
     * can answer it with one reusable exchange: a GET (other than {@code /download}, which continues when the window
     * opens) that ends with its HEADERS frame, which {@link #onHeaders} answers at once; or a POST to
     * {@code /echo}, whose next frames need only {@link #ECHO_UNDER_WAY} to go on ({@link #toKeep}).
     */
    static boolean keepsNoExchange(Http2Headers headers, boolean endStream) {
        CharSequence method = headers.method();
        CharSequence path = headers.path();
        if (path == null) {
            return endStream;
        }
        int pathEnd = pathEnd(path);
        if (POST.contentEquals(method)) {
            return pathIs(path, pathEnd, ExampleContent.ECHO_PATH);
        }
        return endStream && GET.contentEquals(method) && !pathIs(path, pathEnd, ExampleContent.DOWNLOAD_PATH);
    }

    /** A request's HEADERS frame (the first) or its trailers (the second). Does not release anything. */
    final void onHeaders(Http2Headers headers, boolean endStream) {
        if (requestHeadersSeen) {
            onTrailers(headers);
            return;
        }
        requestHeadersSeen = true;
        if (!hasRequiredPseudoHeaders(headers)) {
            route = Route.ERROR;
            resetStream(Http2Error.PROTOCOL_ERROR);
            return;
        }
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
            writeHeaders(withEchoedHeaders(ECHO_HEADERS, ECHO_FIELDS, headers), endStream);
            return;
        }
        if (!GET.contentEquals(method)) {
            error(HttpResponseStatus.METHOD_NOT_ALLOWED, "use GET for " + path.subSequence(0, pathEnd));
            return;
        }
        if (pathIs(path, pathEnd, ExampleContent.HELLO_PATH)) {
            route = Route.HELLO;
            responseHeaders = withEchoedHeaders(HELLO_HEADERS, HELLO_FIELDS, headers);
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
            AsciiString[] fields = {HttpHeaderNames.CONTENT_TYPE, OCTET_STREAM,
                    HttpHeaderNames.CONTENT_LENGTH, AsciiString.of(Long.toString(size))};
            responseHeaders = withEchoedHeaders(null, fields, headers);
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
            // The payload itself goes back, with a reference of our own (the caller releases the frame's after
            // this): no copy and no duplicate object. The writer advances its reader index, which nothing else
            // reads once the frame is released, and releases it once written.
            writeData(content.retain(), endStream);
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
        writeHeaders(ReadOnlyHttp2Headers.serverHeaders(false, status.codeAsText(), HttpHeaderNames.CONTENT_TYPE,
                TEXT_PLAIN, HttpHeaderNames.CONTENT_LENGTH, AsciiString.of(Integer.toString(body.readableBytes()))),
                false);
        writeData(body, true);
        flush();
    }

    /**
     * Whether a request has the pseudo-headers RFC 9113 section 8.3.1 requires: {@code :method}; for CONNECT (not
     * extended CONNECT) {@code :authority}, else {@code :scheme} and a non-empty {@code :path}. A request without
     * them is malformed, a stream error PROTOCOL_ERROR. Netty's codec checks this itself from 4.2.16 on, when asked
     * ({@code validateRequiredPseudoHeaders(true)}); the example checks it here so that it answers alike on every
     * Netty it runs on, with either codec.
     */
    private static boolean hasRequiredPseudoHeaders(Http2Headers headers) {
        CharSequence method = headers.method();
        if (method == null) {
            return false;
        }
        if (CONNECT.contentEquals(method) && !headers.contains(Http2Headers.PseudoHeaderName.PROTOCOL.value())) {
            return headers.authority() != null;
        }
        CharSequence path = headers.path();
        return headers.scheme() != null && path != null && path.length() != 0;
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
     * {@code template} (the response's {@code :status} 200 and {@code fields}) when the request has no
     * {@code x-echo-*} header, the common case, which then costs nothing; else new headers with {@code fields} and
     * the request's {@code x-echo-*} fields after them. One pass counts them, so that the one array made is the
     * right size ({@link ReadOnlyHttp2Headers} reads its array to the end). Their name and value objects are kept,
     * not copied: the HPACK decoder makes a new immutable {@code AsciiString} for each literal (and its table
     * entries are immutable too); a pooled frame's release empties its header arrays, not these objects.
     */
    private static Http2Headers withEchoedHeaders(Http2Headers template, AsciiString[] fields, Http2Headers request) {
        int echoed = 0;
        for (Map.Entry<CharSequence, CharSequence> header : request) {
            if (isEchoed(header.getKey())) {
                echoed++;
            }
        }
        if (echoed == 0 && template != null) {
            return template;
        }
        AsciiString[] all = Arrays.copyOf(fields, fields.length + 2 * echoed);
        int next = fields.length;
        for (Map.Entry<CharSequence, CharSequence> header : request) {
            if (next < all.length && isEchoed(header.getKey())) {
                // The same objects, unless they came by HTTP/1.1 Upgrade as Strings.
                all[next++] = AsciiString.of(header.getKey());
                all[next++] = AsciiString.of(header.getValue());
            }
        }
        // Validation off: the names and values are constants or come from a request the decoder has validated.
        return ReadOnlyHttp2Headers.serverHeaders(false, OK, all);
    }

    private static boolean isEchoed(CharSequence name) {
        return AsciiString.regionMatches(name, true, 0, ExampleContent.ECHO_HEADER_PREFIX, 0,
                ExampleContent.ECHO_HEADER_PREFIX.length());
    }

    /**
     * The request's trailers in a headers object of their own, without pseudo-headers (a trailer block has none):
     * an array of the fields' name and value objects (see {@link #withEchoedHeaders}), in Netty's
     * {@link ReadOnlyHttp2Headers}. A copy because the trailers may wait in the flow controller behind queued DATA,
     * past the request frame's release, which empties a pooled frame's headers.
     */
    private static Http2Headers trailersCopy(Http2Headers trailers) {
        AsciiString[] fields = new AsciiString[2 * trailers.size()];
        int next = 0;
        for (Map.Entry<CharSequence, CharSequence> header : trailers) {
            CharSequence name = header.getKey();
            if (next < fields.length && name.length() > 0 && name.charAt(0) != ':') {
                fields[next++] = AsciiString.of(name);
                fields[next++] = AsciiString.of(header.getValue());
            }
        }
        return ReadOnlyHttp2Headers.trailers(false, next == fields.length ? fields : Arrays.copyOf(fields, next));
    }
}
