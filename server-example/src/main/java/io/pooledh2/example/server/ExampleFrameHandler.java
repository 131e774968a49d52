/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2ChannelDuplexHandler;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2FrameStreamEvent;
import io.netty.handler.codec.http2.Http2FrameStreamException;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.ReferenceCountUtil;

/**
 * The {@link Pipeline#FRAMES} pipeline's handler: one per connection, right after the frame codec (and
 * {@code Http2StreamResetHandler}), every stream's frames in one {@code channelRead}, no child channels. What a
 * stream's {@link ExampleExchange} must remember between frames is kept as a property of Netty's
 * {@link Http2Stream}, so it goes away with the stream: the exchange itself, or for an echo only
 * {@link ExampleExchange#ECHO_UNDER_WAY}. A request that {@link ExampleExchange#keepsNoExchange keeps no exchange}
 * (a GET of {@code /hello}, an echo) is answered by the connection's one reusable exchange.
 *
 * <p>Without child channels nobody gives the flow-control window back for this handler: it writes a
 * WINDOW_UPDATE frame for each DATA frame it has handled. It does so at once, so an echo's client is not slowed
 * down when it does not read the echo (the multiplex pipeline pauses reading then): fine for an example.
 */
final class ExampleFrameHandler extends Http2ChannelDuplexHandler {

    private final Http2FrameCodec codec;
    private final int dataFrameSize;
    private Http2Connection.PropertyKey exchangeKey;
    private FrameStreamExchange reusable;

    ExampleFrameHandler(Http2FrameCodec codec, int dataFrameSize) {
        this.codec = codec;
        this.dataFrameSize = dataFrameSize;
    }

    @Override
    protected void handlerAdded0(ChannelHandlerContext ctx) {
        exchangeKey = codec.connection().newKey();
        reusable = new FrameStreamExchange(ctx, codec, dataFrameSize);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof Http2HeadersFrame) {
                onHeaders(ctx, (Http2HeadersFrame) msg);
            } else if (msg instanceof Http2DataFrame) {
                onData(ctx, (Http2DataFrame) msg);
            } else if (msg instanceof Http2ResetFrame) {
                // Only a download has more to write, and a download has an exchange of its own.
                Http2FrameStream stream = ((Http2ResetFrame) msg).stream();
                Http2Stream http2Stream = stream == null ? null : codec.connection().stream(stream.id());
                Object kept = http2Stream == null ? null : http2Stream.getProperty(exchangeKey);
                if (kept instanceof FrameStreamExchange) {
                    ((FrameStreamExchange) kept).onReset();
                }
            }
        } finally {
            // Released the moment it has been handled: that is what lets the pooled codec reuse it.
            ReferenceCountUtil.release(msg);
        }
        flushIfShuttingDown(ctx);
    }

    /**
     * Once the server has sent GOAWAY, flushes what this read wrote at once. Netty's {@code Http2ConnectionHandler}
     * (4.2.20) closes a shutting-down connection the moment its last stream closes; when the response ends while
     * the request's last frame is handled, the decoder closes the stream right after this returns, before the
     * flush at the end of the read: without this, the close comes first and the response's last frames are lost.
     */
    private void flushIfShuttingDown(ChannelHandlerContext ctx) {
        if (codec.connection().goAwaySent()) {
            ctx.flush();
        }
    }

    private void onHeaders(ChannelHandlerContext ctx, Http2HeadersFrame frame) {
        Http2FrameStream stream = frame.stream();
        Http2Stream http2Stream = stream == null ? null : codec.connection().stream(stream.id());
        if (http2Stream == null) {
            return; // already closed (reset): nothing to answer
        }
        Http2Headers headers = frame.headers();
        FrameStreamExchange exchange = continuing(ctx, stream, http2Stream);
        if (exchange == null) {
            if (!ExampleExchange.keepsNoExchange(headers, frame.isEndStream())) {
                exchange = new FrameStreamExchange(ctx, codec, dataFrameSize);
                exchange.stream = stream;
                http2Stream.setProperty(exchangeKey, exchange);
                exchange.onHeaders(headers, frame.isEndStream());
                return;
            }
            exchange = idle(ctx);
            exchange.stream = stream;
            try {
                exchange.onHeaders(headers, frame.isEndStream());
                Object keep = exchange.toKeep(frame.isEndStream());
                if (keep != null) {
                    http2Stream.setProperty(exchangeKey, keep);
                }
            } finally {
                done(exchange);
            }
            return;
        }
        try {
            exchange.onHeaders(headers, frame.isEndStream());
        } finally {
            done(exchange);
        }
    }

    private void onData(ChannelHandlerContext ctx, Http2DataFrame frame) {
        FrameStreamExchange exchange = continuing(ctx, frame.stream());
        if (exchange != null) {
            try {
                exchange.onData(frame.content(), frame.isEndStream());
            } finally {
                done(exchange);
            }
        }
        int bytes = frame.initialFlowControlledBytes();
        if (bytes > 0) {
            ctx.write(new DefaultHttp2WindowUpdateFrame(bytes).stream(frame.stream()));
        }
    }

    /** The exchange that goes on with {@code stream} (see {@link ExampleExchange#continuing}), or null. */
    private FrameStreamExchange continuing(ChannelHandlerContext ctx, Http2FrameStream stream) {
        Http2Stream http2Stream = stream == null ? null : codec.connection().stream(stream.id());
        return http2Stream == null ? null : continuing(ctx, stream, http2Stream);
    }

    private FrameStreamExchange continuing(ChannelHandlerContext ctx, Http2FrameStream stream,
                                           Http2Stream http2Stream) {
        Object kept = http2Stream.getProperty(exchangeKey);
        if (kept == null || kept instanceof FrameStreamExchange) {
            return (FrameStreamExchange) kept;
        }
        FrameStreamExchange exchange = ExampleExchange.continuing(kept, idle(ctx));
        exchange.stream = stream;
        return exchange;
    }

    /** The reusable exchange, or a new one should a call come while it is in use (see ExampleStreamHandler). */
    private FrameStreamExchange idle(ChannelHandlerContext ctx) {
        return reusable.stream == null ? reusable : new FrameStreamExchange(ctx, codec, dataFrameSize);
    }

    /** After a call: the reusable exchange forgets the stream and the request. */
    private void done(FrameStreamExchange exchange) {
        if (exchange == reusable) {
            reusable.stream = null;
            reusable.clear();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof Http2FrameStreamEvent) {
            Http2FrameStreamEvent event = (Http2FrameStreamEvent) evt;
            if (event.type() == Http2FrameStreamEvent.Type.Writability) {
                Http2Stream http2Stream = codec.connection().stream(event.stream().id());
                Object kept = http2Stream == null ? null : http2Stream.getProperty(exchangeKey);
                // Only a download goes on when the stream is writable again, and a download has an exchange of
                // its own (an echo under way has nothing to write but the frames it answers).
                if (kept instanceof FrameStreamExchange) {
                    FrameStreamExchange exchange = (FrameStreamExchange) kept;
                    // Not now: this event comes from inside the decoder's handling of a WINDOW_UPDATE, and a
                    // download that ends here would close the stream under it (Netty's Http2FrameCodec then
                    // fails to find the stream it is about to report the frame for). Next, on this event loop.
                    ctx.executor().execute(exchange);
                }
            }
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof Http2FrameStreamException) {
            return; // Http2StreamResetHandler has reset the stream with its RFC 9113 code; the others go on
        }
        ctx.close();
    }

    /**
     * Writes frames for one stream through the connection's frame codec; as a task, goes on with a download once
     * the stream is writable again.
     */
    private static final class FrameStreamExchange extends ExampleExchange implements Runnable {
        private final ChannelHandlerContext ctx;
        private final Http2FrameCodec codec;
        Http2FrameStream stream;

        FrameStreamExchange(ChannelHandlerContext ctx, Http2FrameCodec codec, int dataFrameSize) {
            super(dataFrameSize);
            this.ctx = ctx;
            this.codec = codec;
        }

        @Override
        public void run() {
            onWritable();
        }

        @Override
        protected void resetStream(Http2Error error) {
            ctx.writeAndFlush(new DefaultHttp2ResetFrame(error).stream(stream));
        }

        @Override
        protected void writeHeaders(Http2Headers headers, boolean endStream) {
            ctx.write(new DefaultHttp2HeadersFrame(headers, endStream).stream(stream));
        }

        @Override
        protected void writeData(ByteBuf data, boolean endStream) {
            ctx.write(new DefaultHttp2DataFrame(data, endStream).stream(stream));
        }

        @Override
        protected void flush() {
            ctx.flush();
        }

        @Override
        protected boolean isWritable() {
            Http2Stream http2Stream = codec.connection().stream(stream.id());
            return http2Stream != null && codec.encoder().flowController().isWritable(http2Stream);
        }

        @Override
        protected int maxFrameSize() {
            return codec.encoder().configuration().frameSizePolicy().maxFrameSize();
        }

        @Override
        protected ByteBufAllocator alloc() {
            return ctx.alloc();
        }
    }
}
