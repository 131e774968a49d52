/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.pipeline;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2ChannelDuplexHandler;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.util.ReferenceCountUtil;
import io.pooledh2.jmh.EventLoopBenchmark;
import org.openjdk.jmh.infra.Blackhole;

import java.util.function.Supplier;

/**
 * The frame-codec path: on each end an {@link Http2FrameCodec} from {@code Http2FrameCodecBuilder.forServer()} /
 * {@code forClient()} (or pooledh2's builder, same options), with {@code Scenario.settings()} as its initial
 * settings, and right after it on the connection pipeline the application: an {@link Http2ChannelDuplexHandler}
 * that reads and writes {@code Http2Frame}s as a Netty user does. There is no {@code Http2MultiplexHandler}: the
 * benchmark isolates the codec, not the child channels.
 *
 * <p>The connection window needs no help here: the codec itself opens it when its initial settings carry a
 * larger stream window ({@code Http2FrameCodec.tryExpandConnectionFlowControlWindow}).
 */
final class FrameCodecStack implements Http2Stack {

    private final Supplier<? extends Http2FrameCodecBuilder> servers;
    private final Supplier<? extends Http2FrameCodecBuilder> clients;

    FrameCodecStack(Supplier<? extends Http2FrameCodecBuilder> servers,
                    Supplier<? extends Http2FrameCodecBuilder> clients) {
        this.servers = servers;
        this.clients = clients;
    }

    @Override
    public Endpoint initServer(Channel channel, Scenario scenario, Blackhole bh) {
        Server server = new Server(scenario, bh);
        server.install(channel, servers.get().initialSettings(scenario.settings()).build());
        return server;
    }

    @Override
    public Client initClient(Channel channel, Scenario scenario, Blackhole bh, Runnable onResponseComplete) {
        ClientEnd client = new ClientEnd(scenario, bh, onResponseComplete);
        client.install(channel, clients.get().initialSettings(scenario.settings()).build());
        return client;
    }

    /**
     * What both ends share: the codec, a body to send, and reading frames. Every inbound frame is released in
     * {@code channelRead}, which is what lets the pooled codec reuse it; flushing is left to the codec, which
     * flushes on {@code channelReadComplete} as {@code Http2ConnectionHandler} does.
     */
    private abstract static class End extends Http2ChannelDuplexHandler implements Endpoint {
        final Scenario scenario;
        final Blackhole bh;
        final ByteBuf body;
        Http2FrameCodec codec;
        ChannelHandlerContext ctx;

        End(Scenario scenario, Blackhole bh, int bodyBytes) {
            this.scenario = scenario;
            this.bh = bh;
            body = bodyBytes == 0 ? null : Bodies.filled(EventLoopBenchmark.ALLOC, bodyBytes);
        }

        /** The codec first: {@code Http2ChannelDuplexHandler} finds it in the pipeline when it is added. */
        final void install(Channel channel, Http2FrameCodec codec) {
            this.codec = codec;
            channel.pipeline().addLast(codec, this);
            ctx = channel.pipeline().context(this);
        }

        @Override
        public int activeStreams() {
            return codec.connection().numActiveStreams();
        }

        @Override
        public void close() {
            if (body != null) {
                body.release();
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof Http2DataFrame) {
                    Http2DataFrame data = (Http2DataFrame) msg;
                    bh.consume(data.content());
                    // The codec returns DATA bytes to the flow-control windows only when the application says it
                    // has consumed them, with this frame (a body larger than the windows stalls without it).
                    // Here every body fits the windows, and Netty returns what is left when a stream closes,
                    // but a correct application does this for every DATA frame, so it is part of this path.
                    ctx.write(new DefaultHttp2WindowUpdateFrame(data.initialFlowControlledBytes())
                            .stream(data.stream()));
                    onData(ctx, data);
                } else if (msg instanceof Http2HeadersFrame) {
                    Http2HeadersFrame headers = (Http2HeadersFrame) msg;
                    bh.consume(headers.headers());
                    onHeaders(ctx, headers);
                } else {
                    // SETTINGS, SETTINGS ACK, stream WINDOW_UPDATEs: the codec has acted on them already.
                    bh.consume(msg);
                }
            } finally {
                // Netty's frames need it where they hold a buffer; every pooled frame goes back to the reader.
                ReferenceCountUtil.release(msg);
            }
        }

        void onHeaders(ChannelHandlerContext ctx, Http2HeadersFrame headers) {
            if (headers.isEndStream()) {
                onEndOfStream(ctx, headers.stream());
            }
        }

        void onData(ChannelHandlerContext ctx, Http2DataFrame data) {
            if (data.isEndStream()) {
                onEndOfStream(ctx, data.stream());
            }
        }

        abstract void onEndOfStream(ChannelHandlerContext ctx, Http2FrameStream stream);
    }

    /**
     * Answers each request once it has ended, on the request's stream, during the read that ended it; or for an
     * echo, answers the HEADERS at once and writes each DATA payload back, retained, as the example server does.
     */
    private static final class Server extends End {

        Server(Scenario scenario, Blackhole bh) {
            super(scenario, bh, scenario.responseBodyBytes);
        }

        @Override
        void onHeaders(ChannelHandlerContext ctx, Http2HeadersFrame headers) {
            if (scenario.echo) {
                ctx.write(new DefaultHttp2HeadersFrame(scenario.responseHeaders, headers.isEndStream())
                        .stream(headers.stream()));
            } else {
                super.onHeaders(ctx, headers);
            }
        }

        @Override
        void onData(ChannelHandlerContext ctx, Http2DataFrame data) {
            if (scenario.echo) {
                // The payload itself, with a reference of its own: it outlives the frame's release below.
                ctx.write(new DefaultHttp2DataFrame(data.content().retain(), data.isEndStream())
                        .stream(data.stream()));
            } else {
                super.onData(ctx, data);
            }
        }

        @Override
        void onEndOfStream(ChannelHandlerContext ctx, Http2FrameStream stream) {
            boolean trailers = scenario.responseTrailers != null;
            ctx.write(new DefaultHttp2HeadersFrame(scenario.responseHeaders, body == null && !trailers)
                    .stream(stream));
            if (body != null) {
                ctx.write(new DefaultHttp2DataFrame(body.retainedDuplicate(), !trailers).stream(stream));
            }
            if (trailers) {
                ctx.write(new DefaultHttp2HeadersFrame(scenario.responseTrailers, true).stream(stream));
            }
        }
    }

    /** Opens a stream per request with {@code newStream()} and counts responses read to their end. */
    private static final class ClientEnd extends End implements Client {
        private final Runnable onResponseComplete;
        /** DATA bytes of the response being read (one exchange at a time), checked when it ends. */
        private long responseBytes;

        ClientEnd(Scenario scenario, Blackhole bh, Runnable onResponseComplete) {
            super(scenario, bh, scenario.requestBodyBytes);
            this.onResponseComplete = onResponseComplete;
        }

        @Override
        public void sendRequest() {
            // The codec gives the stream its id when it writes the HEADERS frame.
            Http2FrameStream stream = newStream();
            ctx.write(new DefaultHttp2HeadersFrame(scenario.requestHeaders, body == null).stream(stream));
            if (body != null) {
                ctx.write(new DefaultHttp2DataFrame(body.retainedDuplicate(), true).stream(stream));
            }
            ctx.flush();
        }

        @Override
        void onData(ChannelHandlerContext ctx, Http2DataFrame data) {
            responseBytes += data.content().readableBytes();
            super.onData(ctx, data);
        }

        @Override
        void onEndOfStream(ChannelHandlerContext ctx, Http2FrameStream stream) {
            scenario.checkResponse(responseBytes);
            responseBytes = 0;
            onResponseComplete.run();
        }
    }
}
