/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.util.ReferenceCountUtil;

/**
 * The {@link Pipeline#MULTIPLEX} pipeline's handler: one per connection, shared by the child channels of all its
 * streams ({@link Http2MultiplexHandler} adds it to each). Sharing it, rather than a handler per stream put in by a
 * {@code ChannelInitializer}, saves per stream the handler object and the initializer's own pipeline entry. What a
 * stream's {@link ExampleExchange} (which writes frames to the stream's channel) must remember between frames is
 * kept as a property of Netty's {@link Http2Stream}, so it goes away with the stream: the exchange itself, or for
 * an echo only {@link ExampleExchange#ECHO_UNDER_WAY}. A request that {@link ExampleExchange#keepsNoExchange keeps
 * no exchange} (a GET of {@code /hello}, an echo) is answered by the connection's one reusable exchange. Every
 * inbound frame is released in {@code channelRead}, the moment it has been handled: that is what lets the pooled
 * codec reuse it. All of it runs on the connection's event loop, which its child channels share.
 */
@ChannelHandler.Sharable
final class ExampleStreamHandler extends ChannelInboundHandlerAdapter {

    private final Http2FrameCodec codec;
    private final int dataFrameSize;
    private final ByteBufAllocator allocator;
    private final Http2Connection.PropertyKey exchangeKey;
    private final StreamChannelExchange reusable;

    ExampleStreamHandler(Http2FrameCodec codec, int dataFrameSize, ByteBufAllocator allocator) {
        this.codec = codec;
        this.dataFrameSize = dataFrameSize;
        this.allocator = allocator;
        // Made before the connection has streams, so that each stream's property array has room for it from the
        // start instead of growing for it.
        exchangeKey = codec.connection().newKey();
        reusable = new StreamChannelExchange(codec, dataFrameSize);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        // The server bootstrap's allocator option does not reach child channels: responses come from the pooled
        // allocator, like the connection's buffers.
        ctx.channel().config().setAllocator(allocator);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof Http2HeadersFrame) {
                onHeaders(ctx, (Http2HeadersFrame) msg);
            } else if (msg instanceof Http2DataFrame) {
                Http2DataFrame frame = (Http2DataFrame) msg;
                StreamChannelExchange exchange = continuing(ctx);
                if (exchange != null) {
                    try {
                        exchange.onData(frame.content(), frame.isEndStream());
                    } finally {
                        done(exchange);
                    }
                }
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
        flushIfShuttingDown(ctx);
    }

    private void onHeaders(ChannelHandlerContext ctx, Http2HeadersFrame frame) {
        Http2Stream stream = stream(ctx);
        if (stream == null) {
            return; // already closed (reset): nothing to answer
        }
        Http2Headers headers = frame.headers();
        StreamChannelExchange exchange = continuing(ctx, stream);
        if (exchange == null) {
            if (!ExampleExchange.keepsNoExchange(headers, frame.isEndStream())) {
                exchange = new StreamChannelExchange(codec, dataFrameSize);
                exchange.ctx = ctx;
                stream.setProperty(exchangeKey, exchange);
                exchange.onHeaders(headers, frame.isEndStream());
                return;
            }
            exchange = idle();
            exchange.ctx = ctx;
            try {
                exchange.onHeaders(headers, frame.isEndStream());
                Object keep = exchange.toKeep(frame.isEndStream());
                if (keep != null) {
                    stream.setProperty(exchangeKey, keep);
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

    private Http2Stream stream(ChannelHandlerContext ctx) {
        return codec.connection().stream(((Http2StreamChannel) ctx.channel()).stream().id());
    }

    /** The exchange that goes on with the stream of {@code ctx} (see {@link ExampleExchange#continuing}), or null. */
    private StreamChannelExchange continuing(ChannelHandlerContext ctx) {
        Http2Stream stream = stream(ctx);
        return stream == null ? null : continuing(ctx, stream);
    }

    private StreamChannelExchange continuing(ChannelHandlerContext ctx, Http2Stream stream) {
        Object kept = stream.getProperty(exchangeKey);
        if (kept == null || kept instanceof StreamChannelExchange) {
            return (StreamChannelExchange) kept;
        }
        StreamChannelExchange exchange = ExampleExchange.continuing(kept, idle());
        exchange.ctx = ctx;
        return exchange;
    }

    /**
     * The reusable exchange, or a new one if it is in use: Netty may fire an event for a stream from inside a write
     * on another (a writability change), and that call must not take over the exchange the outer call still uses.
     */
    private StreamChannelExchange idle() {
        return reusable.ctx == null ? reusable : new StreamChannelExchange(codec, dataFrameSize);
    }

    /** After a call: the reusable exchange forgets the stream and the request. */
    private void done(StreamChannelExchange exchange) {
        if (exchange == reusable) {
            reusable.ctx = null;
            reusable.clear();
        }
    }

    /** The stream's own exchange (a download, a request answered at its end), if it has one. */
    private StreamChannelExchange own(ChannelHandlerContext ctx) {
        Http2Stream stream = stream(ctx);
        Object kept = stream == null ? null : stream.getProperty(exchangeKey);
        return kept instanceof StreamChannelExchange ? (StreamChannelExchange) kept : null;
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
    }

    /**
     * Once the server has sent GOAWAY, flushes what this read wrote at once, on the connection. Netty's
     * {@code Http2ConnectionHandler} (4.2.20) closes a shutting-down connection the moment its last stream closes.
     * When the response ends while the request's last frame is handled, the decoder closes the stream right after
     * this {@code channelRead} returns, before the flush a stream channel defers to the end of the connection's
     * read loop: without this, the close comes first and the response's last frames are lost.
     */
    private void flushIfShuttingDown(ChannelHandlerContext ctx) {
        if (codec.connection().goAwaySent()) {
            ctx.flush();
            ctx.channel().parent().flush();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        Http2Stream stream = stream(ctx);
        Object kept = stream == null ? null : stream.getProperty(exchangeKey);
        if (kept == ExampleExchange.ECHO_UNDER_WAY) {
            // Back-pressure: while the client does not take the echo, stop reading its body. Unread DATA is not
            // given back to the flow-control window, so the client has to wait too.
            ctx.channel().config().setAutoRead(ctx.channel().isWritable());
        } else if (kept instanceof StreamChannelExchange) {
            // A download goes on (only a download has anything to write when the stream is writable again).
            ((StreamChannelExchange) kept).onWritable();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof Http2ResetFrame) {
            // Only a download has more to write, and a download has an exchange of its own.
            StreamChannelExchange exchange = own(ctx);
            if (exchange != null) {
                exchange.onReset();
            }
        }
        // The pipeline's tail releases the event (a reset frame is a pooled frame on the pooled codec).
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A stream error (Http2StreamResetHandler has already reset the stream with its RFC 9113 code), a write
        // that failed (the writes below report here), or an I/O error: either way this stream is done.
        ctx.close();
    }

    /** Writes to a stream's child channel: frames without a stream, the channel is the stream. */
    private static final class StreamChannelExchange extends ExampleExchange {
        private final Http2FrameCodec codec;
        ChannelHandlerContext ctx;

        StreamChannelExchange(Http2FrameCodec codec, int dataFrameSize) {
            super(dataFrameSize);
            this.codec = codec;
        }

        /*
         * The child channel's void promise: no promise object per write. A write that fails still reaches the
         * handler, as exceptionCaught (this promise fires it), which closes the stream.
         */

        @Override
        protected void resetStream(Http2Error error) {
            ctx.writeAndFlush(new DefaultHttp2ResetFrame(error), ctx.voidPromise());
        }

        @Override
        protected void writeHeaders(Http2Headers headers, boolean endStream) {
            ctx.write(new DefaultHttp2HeadersFrame(headers, endStream), ctx.voidPromise());
        }

        @Override
        protected void writeData(ByteBuf data, boolean endStream) {
            ctx.write(new DefaultHttp2DataFrame(data, endStream), ctx.voidPromise());
        }

        @Override
        protected void flush() {
            ctx.flush();
        }

        @Override
        protected boolean isWritable() {
            return ctx.channel().isWritable();
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
