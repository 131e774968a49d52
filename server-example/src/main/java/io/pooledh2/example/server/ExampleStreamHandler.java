/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Answers the requests of one stream (one child channel per stream):
 * <ul>
 *   <li>{@code GET /hello}: 1 KiB of {@link ExampleContent#helloBody()};</li>
 *   <li>{@code POST /echo}: the request body back as it arrives, then the request's trailers as the response's
 *       trailers (or end of stream on the last DATA frame when the request had no trailers);</li>
 *   <li>{@code GET /download?size=N}: N bytes of {@link ExampleContent#downloadByte(long)} in DATA frames of
 *       the configured size, as fast as the stream's flow-control window lets them go.</li>
 * </ul>
 * Every route copies the request headers named {@code x-echo-*} into its response headers. Every inbound frame
 * is released in {@code channelRead}, the moment it has been handled: that is what lets the pooled codec reuse
 * it. Nothing of a frame is kept past its release: the echoed bytes are a retained duplicate of the payload
 * (a reference of their own), and echoed headers are copied.
 */
final class ExampleStreamHandler extends ChannelInboundHandlerAdapter {

    private static final AsciiString TEXT_PLAIN = AsciiString.cached("text/plain; charset=us-ascii");
    private static final AsciiString OCTET_STREAM = AsciiString.cached("application/octet-stream");
    private static final AsciiString GET = AsciiString.cached("GET");
    private static final AsciiString POST = AsciiString.cached("POST");

    private final Http2FrameCodec codec;
    private final int dataFrameSize;

    /** Set by the request's HEADERS frame; a second HEADERS frame on the stream is the trailers. */
    private boolean requestHeadersSeen;
    private Route route;
    private Http2Headers echoedHeaders;
    private DownloadWriter download;

    private enum Route { HELLO, ECHO, DOWNLOAD, ERROR }

    ExampleStreamHandler(Http2FrameCodec codec, int dataFrameSize) {
        this.codec = codec;
        this.dataFrameSize = dataFrameSize;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof Http2HeadersFrame) {
                onHeaders(ctx, (Http2HeadersFrame) msg);
            } else if (msg instanceof Http2DataFrame) {
                onData(ctx, (Http2DataFrame) msg);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
        flushIfShuttingDown(ctx);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
    }

    private void onHeaders(ChannelHandlerContext ctx, Http2HeadersFrame frame) {
        if (requestHeadersSeen) {
            onTrailers(ctx, frame.headers());
            return;
        }
        requestHeadersSeen = true;
        Http2Headers request = frame.headers();
        echoedHeaders = echoHeaders(request);
        CharSequence method = request.method();
        QueryStringDecoder uri = new QueryStringDecoder(String.valueOf(request.path()));
        String path = uri.path();
        if (ExampleContent.ECHO_PATH.contentEquals(path)) {
            if (!POST.contentEquals(method)) {
                error(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, "use POST for " + path);
                return;
            }
            route = Route.ECHO;
            // The body goes back as it arrives; an empty request (HEADERS with END_STREAM) gets an empty answer.
            ctx.write(new DefaultHttp2HeadersFrame(responseHeaders(OCTET_STREAM), frame.isEndStream()));
            return;
        }
        if (!GET.contentEquals(method)) {
            error(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, "use GET for " + path);
            return;
        }
        if (ExampleContent.HELLO_PATH.contentEquals(path)) {
            route = Route.HELLO;
        } else if (ExampleContent.DOWNLOAD_PATH.contentEquals(path)) {
            long size = downloadSize(uri.parameters());
            if (size < 0) {
                error(ctx, HttpResponseStatus.BAD_REQUEST, "/download needs size=N, N >= 0");
                return;
            }
            route = Route.DOWNLOAD;
            int frameSize = Math.min(dataFrameSize, codec.encoder().configuration().frameSizePolicy().maxFrameSize());
            download = new DownloadWriter(size, frameSize);
        } else {
            error(ctx, HttpResponseStatus.NOT_FOUND, "no route for " + path);
            return;
        }
        if (frame.isEndStream()) {
            respond(ctx);
        }
    }

    private void onData(ChannelHandlerContext ctx, Http2DataFrame frame) {
        if (route == Route.ECHO) {
            // A reference of our own to the bytes: the frame, and the payload it holds, are released below.
            ctx.write(new DefaultHttp2DataFrame(frame.content().retainedDuplicate(), frame.isEndStream()));
            return;
        }
        // Other routes ignore a request body; they answer when the request has ended.
        if (frame.isEndStream()) {
            respond(ctx);
        }
    }

    private void onTrailers(ChannelHandlerContext ctx, Http2Headers trailers) {
        if (route == Route.ECHO) {
            ctx.write(new DefaultHttp2HeadersFrame(copyOf(trailers), true));
        } else {
            respond(ctx);
        }
    }

    /** The answer of a GET route, once the request has ended. */
    private void respond(ChannelHandlerContext ctx) {
        if (route == Route.HELLO) {
            Http2Headers headers = responseHeaders(TEXT_PLAIN).setInt("content-length", ExampleContent.HELLO_LENGTH);
            ctx.write(new DefaultHttp2HeadersFrame(headers));
            ByteBuf body = ctx.alloc().buffer(ExampleContent.HELLO_LENGTH).writeBytes(ExampleContent.helloBody());
            ctx.writeAndFlush(new DefaultHttp2DataFrame(body, true));
        } else if (route == Route.DOWNLOAD) {
            Http2Headers headers = responseHeaders(OCTET_STREAM).setLong("content-length", download.size());
            ctx.write(new DefaultHttp2HeadersFrame(headers, download.size() == 0));
            download.writeMore(ctx);
        }
    }

    /**
     * Once the server has sent GOAWAY, flushes what this read wrote at once, on the connection. Netty's
     * {@code Http2ConnectionHandler} (4.2.20) closes a shutting-down connection the moment its last stream closes.
     * When this handler ends its response while handling the request's last frame, the decoder closes the stream
     * right after this {@code channelRead} returns, before the flush a stream channel defers to the end of the
     * connection's read loop: without this, the close comes first and the response's last frames are lost.
     */
    private void flushIfShuttingDown(ChannelHandlerContext ctx) {
        if (codec.connection().goAwaySent()) {
            ctx.flush();
            ctx.channel().parent().flush();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (download != null) {
            download.writeMore(ctx);
        } else if (route == Route.ECHO) {
            // Back-pressure: while the client does not take the echo, stop reading its body. Unread DATA is not
            // given back to the flow-control window, so the client has to wait too.
            ctx.channel().config().setAutoRead(ctx.channel().isWritable());
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof Http2ResetFrame && download != null) {
            download.cancel();
        }
        // The pipeline's tail releases the event (a reset frame is a pooled frame on the pooled codec).
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A stream error (Http2StreamResetHandler has already reset the stream with its RFC 9113 code), or an
        // I/O error: either way this stream is done.
        ctx.close();
    }

    private void error(ChannelHandlerContext ctx, HttpResponseStatus status, String message) {
        route = Route.ERROR;
        byte[] text = (status + ": " + message + "\n").getBytes(StandardCharsets.US_ASCII);
        Http2Headers headers = new DefaultHttp2Headers().status(status.codeAsText())
                .set("content-type", TEXT_PLAIN).setInt("content-length", text.length);
        ctx.write(new DefaultHttp2HeadersFrame(headers));
        ctx.writeAndFlush(new DefaultHttp2DataFrame(ctx.alloc().buffer(text.length).writeBytes(text), true));
    }

    private Http2Headers responseHeaders(AsciiString contentType) {
        Http2Headers headers = new DefaultHttp2Headers().status(HttpResponseStatus.OK.codeAsText())
                .set("content-type", contentType);
        if (echoedHeaders != null) {
            headers.add(echoedHeaders);
        }
        return headers;
    }

    /** Copies of the request's {@code x-echo-*} headers: the frame's headers go with the frame. */
    private static Http2Headers echoHeaders(Http2Headers request) {
        Http2Headers echoed = null;
        for (Map.Entry<CharSequence, CharSequence> header : request) {
            CharSequence name = header.getKey();
            if (AsciiString.regionMatches(name, true, 0, ExampleContent.ECHO_HEADER_PREFIX, 0,
                    ExampleContent.ECHO_HEADER_PREFIX.length())) {
                if (echoed == null) {
                    echoed = new DefaultHttp2Headers();
                }
                echoed.add(name.toString(), header.getValue().toString());
            }
        }
        return echoed;
    }

    /** A copy of the request's trailers, without pseudo-headers (a trailer block has none). */
    private static Http2Headers copyOf(Http2Headers trailers) {
        Http2Headers copy = new DefaultHttp2Headers();
        for (Map.Entry<CharSequence, CharSequence> header : trailers) {
            CharSequence name = header.getKey();
            if (name.length() > 0 && name.charAt(0) != ':') {
                copy.add(name.toString(), header.getValue().toString());
            }
        }
        return copy;
    }

    /** The {@code size} query parameter, or -1 if absent or not a non-negative number. */
    private static long downloadSize(Map<String, List<String>> parameters) {
        List<String> sizes = parameters.get("size");
        if (sizes == null || sizes.size() != 1) {
            return -1;
        }
        try {
            return Math.max(-1, Long.parseLong(sizes.get(0)));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
