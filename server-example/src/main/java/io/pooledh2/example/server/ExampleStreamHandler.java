/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.util.ReferenceCountUtil;

/**
 * The {@link Pipeline#MULTIPLEX} pipeline's handler: the one stream of its child channel, answered by an
 * {@link ExampleExchange} that writes frames to the channel. Every inbound frame is released in
 * {@code channelRead}, the moment it has been handled: that is what lets the pooled codec reuse it.
 */
final class ExampleStreamHandler extends ChannelInboundHandlerAdapter {

    private final Http2FrameCodec codec;
    private final int dataFrameSize;
    private StreamChannelExchange exchange;

    ExampleStreamHandler(Http2FrameCodec codec, int dataFrameSize) {
        this.codec = codec;
        this.dataFrameSize = dataFrameSize;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        exchange = new StreamChannelExchange(ctx, codec, dataFrameSize);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof Http2HeadersFrame) {
                Http2HeadersFrame frame = (Http2HeadersFrame) msg;
                exchange.onHeaders(frame.headers(), frame.isEndStream());
            } else if (msg instanceof Http2DataFrame) {
                Http2DataFrame frame = (Http2DataFrame) msg;
                exchange.onData(frame.content(), frame.isEndStream());
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
        if (exchange.isEcho()) {
            // Back-pressure: while the client does not take the echo, stop reading its body. Unread DATA is not
            // given back to the flow-control window, so the client has to wait too.
            ctx.channel().config().setAutoRead(ctx.channel().isWritable());
        } else {
            exchange.onWritable();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof Http2ResetFrame) {
            exchange.onReset();
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

    /** Writes to the stream's child channel: frames without a stream, the channel is the stream. */
    private static final class StreamChannelExchange extends ExampleExchange {
        private final ChannelHandlerContext ctx;
        private final Http2FrameCodec codec;

        StreamChannelExchange(ChannelHandlerContext ctx, Http2FrameCodec codec, int dataFrameSize) {
            super(dataFrameSize);
            this.ctx = ctx;
            this.codec = codec;
        }

        @Override
        protected void writeHeaders(Http2Headers headers, boolean endStream) {
            ctx.write(new DefaultHttp2HeadersFrame(headers, endStream));
        }

        @Override
        protected void writeData(ByteBuf data, boolean endStream) {
            ctx.write(new DefaultHttp2DataFrame(data, endStream));
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
