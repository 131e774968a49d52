/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpScheme;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.HttpConversionUtil;

/**
 * The {@link Pipeline#LISTENER} pipeline's listener: the {@link Http2FrameListener} of the connection's
 * {@link Http2ConnectionHandler} (the grpc-java and Vert.x style), writing through the handler's encoder. It is
 * also a handler, right after the connection handler, for two things a listener alone does not get: the request
 * that came by HTTP/1.1 {@code Upgrade: h2c} (Netty's handler answers it on stream 1 but gives it to no one), and
 * the flush that goes through the connection handler's flow controller. What a stream's {@link ExampleExchange}
 * must remember between frames is a property of Netty's {@link Http2Stream}: the exchange itself, or for an echo
 * only {@link ExampleExchange#ECHO_UNDER_WAY}; a request that {@link ExampleExchange#keepsNoExchange keeps no
 * exchange} (a GET of {@code /hello}, an echo) is answered by the connection's one reusable exchange. The
 * listener gives the flow-control window back at once ({@code onDataRead} returns every byte), as
 * {@link ExampleFrameHandler} does.
 */
final class ExampleFrameListener extends ChannelInboundHandlerAdapter
        implements Http2FrameListener, Http2RemoteFlowController.Listener {

    private final int dataFrameSize;
    private Http2ConnectionHandler handler;
    private Http2Connection.PropertyKey exchangeKey;
    /** This handler's context: a flush from here goes through the connection handler's flow controller. */
    private ChannelHandlerContext flushContext;
    private ListenerExchange reusable;

    ExampleFrameListener(int dataFrameSize) {
        this.dataFrameSize = dataFrameSize;
    }

    /** The connection handler this listener was given to; set before both join the pipeline. */
    void handler(Http2ConnectionHandler handler) {
        this.handler = handler;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        flushContext = ctx;
        exchangeKey = handler.connection().newKey();
        handler.encoder().flowController().listener(this);
        reusable = new ListenerExchange(this);
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                              boolean endOfStream) {
        Http2Stream stream = handler.connection().stream(streamId);
        if (stream == null) {
            return; // already closed (reset): nothing to answer
        }
        ListenerExchange exchange = continuing(ctx, stream);
        if (exchange == null) {
            if (!ExampleExchange.keepsNoExchange(headers, endOfStream)) {
                exchange = new ListenerExchange(this);
                exchange.start(ctx, streamId);
                stream.setProperty(exchangeKey, exchange);
                exchange.onHeaders(headers, endOfStream);
                flushIfShuttingDown();
                return;
            }
            exchange = idle();
            exchange.start(ctx, streamId);
            try {
                exchange.onHeaders(headers, endOfStream);
                Object keep = exchange.toKeep(endOfStream);
                if (keep != null) {
                    stream.setProperty(exchangeKey, keep);
                }
            } finally {
                done(exchange);
            }
            flushIfShuttingDown();
            return;
        }
        try {
            exchange.onHeaders(headers, endOfStream);
        } finally {
            done(exchange);
        }
        flushIfShuttingDown();
    }

    /**
     * Once the server has sent GOAWAY, flushes what this frame made us write at once: as {@link ExampleFrameHandler}
     * explains, the connection closes the moment its last stream closes, before the flush at the end of the read.
     */
    private void flushIfShuttingDown() {
        if (handler.connection().goAwaySent()) {
            flushContext.flush();
        }
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int streamDependency,
                              short weight, boolean exclusive, int padding, boolean endOfStream) {
        onHeadersRead(ctx, streamId, headers, padding, endOfStream);
    }

    @Override
    public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream) {
        int processed = data.readableBytes() + padding;
        ListenerExchange exchange = continuing(ctx, streamId);
        if (exchange != null) {
            try {
                exchange.onData(data, endOfStream);
            } finally {
                done(exchange);
            }
            flushIfShuttingDown();
        }
        return processed;
    }

    @Override
    public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
        // Only a download has more to write, and a download has an exchange of its own.
        Http2Stream stream = handler.connection().stream(streamId);
        Object kept = stream == null ? null : stream.getProperty(exchangeKey);
        if (kept instanceof ListenerExchange) {
            ((ListenerExchange) kept).onReset();
        }
    }

    @Override
    public void writabilityChanged(Http2Stream stream) {
        // Only a download goes on when the stream is writable again, and a download has an exchange of its own
        // (an echo under way has nothing to write but the frames it answers).
        Object kept = stream.getProperty(exchangeKey);
        if (kept instanceof ListenerExchange) {
            // Not now: this comes from inside the flow controller (handling a WINDOW_UPDATE or a write), which
            // writing more from here would re-enter. Next, on this event loop.
            flushContext.executor().execute((ListenerExchange) kept);
        }
    }

    /** The exchange that goes on with stream {@code streamId} (see {@link ExampleExchange#continuing}), or null. */
    private ListenerExchange continuing(ChannelHandlerContext ctx, int streamId) {
        Http2Stream stream = handler.connection().stream(streamId);
        return stream == null ? null : continuing(ctx, stream);
    }

    private ListenerExchange continuing(ChannelHandlerContext ctx, Http2Stream stream) {
        Object kept = stream.getProperty(exchangeKey);
        if (kept == null || kept instanceof ListenerExchange) {
            return (ListenerExchange) kept;
        }
        ListenerExchange exchange = ExampleExchange.continuing(kept, idle());
        exchange.start(ctx, stream.id());
        return exchange;
    }

    /** The reusable exchange, or a new one should a call come while it is in use (see ExampleStreamHandler). */
    private ListenerExchange idle() {
        return reusable.ctx == null ? reusable : new ListenerExchange(this);
    }

    /** After a call: the reusable exchange forgets the stream and the request. */
    private void done(ListenerExchange exchange) {
        if (exchange == reusable) {
            reusable.start(null, 0);
            reusable.clear();
        }
    }

    /**
     * The request of an HTTP/1.1 {@code Upgrade: h2c}: Netty's handler has opened stream 1 for it (half-closed,
     * the request is complete) and answers nothing; this hands it to the listener as HTTP/2 frames.
     */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof HttpServerUpgradeHandler.UpgradeEvent) {
            FullHttpRequest request = ((HttpServerUpgradeHandler.UpgradeEvent) evt).upgradeRequest();
            ChannelHandlerContext handlerContext = ctx.pipeline().context(handler);
            // An upgrade comes only over cleartext; the conversion wants the scheme said.
            request.headers().set(HttpConversionUtil.ExtensionHeaderNames.SCHEME.text(), HttpScheme.HTTP.name());
            Http2Headers headers = HttpConversionUtil.toHttp2Headers(request, true);
            boolean hasBody = request.content().isReadable();
            onHeadersRead(handlerContext, Http2CodecUtil.HTTP_UPGRADE_STREAM_ID, headers, 0, !hasBody);
            if (hasBody) {
                onDataRead(handlerContext, Http2CodecUtil.HTTP_UPGRADE_STREAM_ID, request.content(), 0, true);
            }
            ctx.flush();
        }
        // The pipeline's tail releases the event.
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void onPriorityRead(ChannelHandlerContext ctx, int streamId, int streamDependency, short weight,
                               boolean exclusive) {
    }

    @Override
    public void onSettingsAckRead(ChannelHandlerContext ctx) {
    }

    @Override
    public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) {
    }

    @Override
    public void onPingRead(ChannelHandlerContext ctx, long data) {
    }

    @Override
    public void onPingAckRead(ChannelHandlerContext ctx, long data) {
    }

    @Override
    public void onPushPromiseRead(ChannelHandlerContext ctx, int streamId, int promisedStreamId, Http2Headers headers,
                                  int padding) throws Http2Exception {
    }

    @Override
    public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData) {
    }

    @Override
    public void onWindowUpdateRead(ChannelHandlerContext ctx, int streamId, int windowSizeIncrement) {
    }

    @Override
    public void onUnknownFrame(ChannelHandlerContext ctx, byte frameType, int streamId, Http2Flags flags,
                               ByteBuf payload) {
    }

    /**
     * Writes one stream's frames through the connection handler's encoder; as a task, goes on with a download
     * once the stream is writable again.
     */
    private static final class ListenerExchange extends ExampleExchange implements Runnable {
        private final ExampleFrameListener listener;
        private ChannelHandlerContext ctx;
        private int streamId;

        ListenerExchange(ExampleFrameListener listener) {
            super(listener.dataFrameSize);
            this.listener = listener;
        }

        @Override
        public void run() {
            onWritable();
        }

        void start(ChannelHandlerContext ctx, int streamId) {
            this.ctx = ctx;
            this.streamId = streamId;
        }

        private Http2ConnectionEncoder encoder() {
            return listener.handler.encoder();
        }

        @Override
        protected void resetStream(Http2Error error) {
            listener.handler.resetStream(ctx, streamId, error.code(), ctx.newPromise());
            flush();
        }

        @Override
        protected void writeHeaders(Http2Headers headers, boolean endStream) {
            encoder().writeHeaders(ctx, streamId, headers, 0, endStream, ctx.newPromise());
        }

        @Override
        protected void writeData(ByteBuf data, boolean endStream) {
            encoder().writeData(ctx, streamId, data, 0, endStream, ctx.newPromise());
        }

        @Override
        protected void flush() {
            listener.flushContext.flush();
        }

        @Override
        protected boolean isWritable() {
            Http2Stream stream = listener.handler.connection().stream(streamId);
            return stream != null && encoder().flowController().isWritable(stream);
        }

        @Override
        protected int maxFrameSize() {
            return encoder().configuration().frameSizePolicy().maxFrameSize();
        }

        @Override
        protected ByteBufAllocator alloc() {
            return ctx.alloc();
        }
    }
}
