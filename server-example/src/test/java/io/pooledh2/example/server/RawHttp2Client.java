/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2FrameReader;
import io.netty.handler.codec.http2.Http2FrameWriter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An HTTP/2 client for tests that writes exactly the frames it is told to, whatever the connection's state (a
 * real client would refuse to open a stream after GOAWAY), and records every frame the server sends, in order.
 * Netty's {@link DefaultHttp2FrameWriter} and {@link DefaultHttp2FrameReader} do the framing and HPACK.
 */
final class RawHttp2Client implements AutoCloseable {

    /** A frame from the server (or CLOSED when the connection closed). */
    record Event(String type, int streamId, boolean endStream, long value, String text, Http2Headers headers) {
        @Override
        public String toString() {
            return type + "(stream " + streamId + (endStream ? ", END_STREAM" : "") + ", " + value
                    + (text == null ? "" : ", \"" + text + '"') + (headers == null ? "" : ", " + headers) + ')';
        }
    }

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    /** Every event taken so far, matched or not. */
    private final List<Event> seen = new CopyOnWriteArrayList<>();
    private final Http2FrameWriter writer = new DefaultHttp2FrameWriter();
    private final Channel channel;
    private volatile ChannelHandlerContext ctx;

    private RawHttp2Client(int port) throws InterruptedException {
        channel = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .handler(new FrameDecoder()).connect("127.0.0.1", port).sync().channel();
        onEventLoop(() -> {
            ctx.write(Http2CodecUtil.connectionPrefaceBuf());
            writer.writeSettings(ctx, new Http2Settings(), ctx.newPromise());
        });
    }

    static RawHttp2Client connect(int port) throws InterruptedException {
        return new RawHttp2Client(port);
    }

    void headers(int streamId, Http2Headers headers, boolean endStream) {
        onEventLoop(() -> writer.writeHeaders(ctx, streamId, headers, 0, endStream, ctx.newPromise()));
    }

    void data(int streamId, String text, boolean endStream) {
        onEventLoop(() -> writer.writeData(ctx, streamId,
                Unpooled.copiedBuffer(text, StandardCharsets.UTF_8), 0, endStream, ctx.newPromise()));
    }

    /** The next event of {@code type} on {@code streamId}, skipping (but keeping in {@link #seen()}) others. */
    Event await(String type, int streamId, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (;;) {
            Event event = events.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (event == null) {
                throw new AssertionError("no " + type + " on stream " + streamId + " within " + timeout
                        + "; seen: " + seen);
            }
            seen.add(event);
            if (event.type.equals(type) && event.streamId == streamId) {
                return event;
            }
        }
    }

    List<Event> seen() {
        return seen;
    }

    private void onEventLoop(Runnable writes) {
        channel.eventLoop().submit(() -> {
            writes.run();
            ctx.flush();
        }).syncUninterruptibly();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** Reads the server's frames and records them; acknowledges its SETTINGS. */
    private final class FrameDecoder extends ByteToMessageDecoder {
        private final Http2FrameReader reader = new DefaultHttp2FrameReader();
        private final Recorder recorder = new Recorder();

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            RawHttp2Client.this.ctx = ctx;
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
            reader.readFrame(ctx, in, recorder);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            super.channelInactive(ctx); // decodes what is left first
            events.add(new Event("CLOSED", 0, false, 0, null, null));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            events.add(new Event("ERROR", 0, false, 0, String.valueOf(cause), null));
        }

        @Override
        protected void handlerRemoved0(ChannelHandlerContext ctx) {
            reader.close();
        }
    }

    private final class Recorder extends Http2FrameAdapter {
        @Override
        public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding,
                              boolean endOfStream) {
            events.add(new Event("DATA", streamId, endOfStream, data.readableBytes(),
                    data.toString(StandardCharsets.UTF_8), null));
            return data.readableBytes() + padding;
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                  boolean endOfStream) {
            events.add(new Event("HEADERS", streamId, endOfStream, 0, null, headers));
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers,
                                  int streamDependency, short weight, boolean exclusive, int padding,
                                  boolean endOfStream) {
            onHeadersRead(ctx, streamId, headers, padding, endOfStream);
        }

        @Override
        public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
            events.add(new Event("RST_STREAM", streamId, false, errorCode, null, null));
        }

        @Override
        public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData) {
            // For GOAWAY the stream is the last-stream-id.
            events.add(new Event("GOAWAY", lastStreamId, false, errorCode, debugData.toString(StandardCharsets.UTF_8),
                    null));
        }

        @Override
        public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) {
            events.add(new Event("SETTINGS", 0, false, settings.size(), null, null));
            writer.writeSettingsAck(ctx, ctx.newPromise());
            ctx.flush();
        }

        @Override
        public void onWindowUpdateRead(ChannelHandlerContext ctx, int streamId, int windowSizeIncrement) {
            events.add(new Event("WINDOW_UPDATE", streamId, false, windowSizeIncrement, null, null));
        }
    }
}
