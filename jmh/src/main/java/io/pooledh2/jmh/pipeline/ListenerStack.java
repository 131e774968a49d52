/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.pipeline;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionDecoder;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2FrameReader;
import io.netty.handler.codec.http2.Http2FrameWriter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2LocalFlowController;
import io.netty.handler.codec.http2.Http2Stream;
import io.pooledh2.jmh.EventLoopBenchmark;
import org.openjdk.jmh.infra.Blackhole;

import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * The listener path: on each end an {@code Http2ConnectionHandler} built with
 * {@code new Http2ConnectionHandlerBuilder().frameListener(listener).codec(decoder, encoder)}, where the decoder
 * is {@code new DefaultHttp2ConnectionDecoder(connection, encoder, reader)}, the encoder made from the connection
 * and a writer, and only the reader, the writer and the encoder differ between variants: Netty's, or pooledh2's
 * drop-ins for them. The application is an {@code Http2FrameListener} on each end.
 */
final class ListenerStack implements Http2Stack {

    private final Supplier<Http2FrameReader> readers;
    private final Supplier<Http2FrameWriter> writers;
    private final BiFunction<Http2Connection, Http2FrameWriter, Http2ConnectionEncoder> encoders;

    ListenerStack(Supplier<Http2FrameReader> readers, Supplier<Http2FrameWriter> writers,
                  BiFunction<Http2Connection, Http2FrameWriter, Http2ConnectionEncoder> encoders) {
        this.readers = readers;
        this.writers = writers;
        this.encoders = encoders;
    }

    private Http2ConnectionHandler newHandler(boolean server, Http2FrameAdapter listener, Scenario scenario) {
        Http2Connection connection = new DefaultHttp2Connection(server);
        Http2ConnectionEncoder encoder = encoders.apply(connection, writers.get());
        Http2ConnectionDecoder decoder = new DefaultHttp2ConnectionDecoder(connection, encoder, readers.get());
        return new Http2ConnectionHandlerBuilder()
                .frameListener(listener)
                .codec(decoder, encoder)
                .initialSettings(scenario.settings())
                .build();
    }

    @Override
    public Endpoint initServer(Channel channel, Scenario scenario, Blackhole bh) {
        Server server = new Server(scenario, bh);
        server.handler = newHandler(true, server, scenario);
        channel.pipeline().addLast(server.handler);
        server.ctx = channel.pipeline().context(server.handler);
        return server;
    }

    @Override
    public Client initClient(Channel channel, Scenario scenario, Blackhole bh, Runnable onResponseComplete) {
        ClientEnd client = new ClientEnd(scenario, bh, onResponseComplete);
        client.handler = newHandler(false, client, scenario);
        channel.pipeline().addLast(client.handler);
        client.ctx = channel.pipeline().context(client.handler);
        return client;
    }

    /** What both ends share: the handler, a body to send, and opening the connection window. */
    private abstract static class End extends Http2FrameAdapter implements Endpoint {
        final Scenario scenario;
        final Blackhole bh;
        final ByteBuf body;
        Http2ConnectionHandler handler;
        ChannelHandlerContext ctx;

        End(Scenario scenario, Blackhole bh, int bodyBytes) {
            this.scenario = scenario;
            this.bh = bh;
            body = bodyBytes == 0 ? null : Bodies.filled(EventLoopBenchmark.ALLOC, bodyBytes);
        }

        @Override
        public void connected() {
            Http2Connection connection = handler.connection();
            Http2LocalFlowController flowController = connection.local().flowController();
            Http2Stream connectionStream = connection.connectionStream();
            try {
                flowController.incrementWindowSize(connectionStream,
                        Scenario.WINDOW - flowController.windowSize(connectionStream));
            } catch (Http2Exception e) {
                throw new IllegalStateException(e);
            }
            handler.flush(ctx);
        }

        @Override
        public int activeStreams() {
            return handler.connection().numActiveStreams();
        }

        @Override
        public void close() {
            if (body != null) {
                body.release();
            }
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers,
                                  int streamDependency, short weight, boolean exclusive, int padding,
                                  boolean endOfStream) {
            onHeadersRead(ctx, streamId, headers, padding, endOfStream);
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                  boolean endOfStream) {
            bh.consume(headers);
            if (endOfStream) {
                onEndOfStream(ctx, streamId);
            }
        }

        @Override
        public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding,
                              boolean endOfStream) {
            bh.consume(data);
            if (endOfStream) {
                onEndOfStream(ctx, streamId);
            }
            return data.readableBytes() + padding;
        }

        abstract void onEndOfStream(ChannelHandlerContext ctx, int streamId);
    }

    /**
     * Answers each request once it has ended; or for an echo, answers the HEADERS at once and writes each DATA
     * payload back, retained, as the example server does. The handler flushes on read complete.
     */
    private static final class Server extends End {

        Server(Scenario scenario, Blackhole bh) {
            super(scenario, bh, scenario.responseBodyBytes);
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                  boolean endOfStream) {
            if (scenario.echo) {
                bh.consume(headers);
                handler.encoder().writeHeaders(ctx, streamId, scenario.responseHeaders, 0, endOfStream,
                        ctx.newPromise());
            } else {
                super.onHeadersRead(ctx, streamId, headers, padding, endOfStream);
            }
        }

        @Override
        public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding,
                              boolean endOfStream) {
            if (!scenario.echo) {
                return super.onDataRead(ctx, streamId, data, padding, endOfStream);
            }
            int processed = data.readableBytes() + padding;
            // The payload itself, with a reference of its own: the flow controller writes it after this returns.
            handler.encoder().writeData(ctx, streamId, data.retain(), 0, endOfStream, ctx.newPromise());
            return processed;
        }

        @Override
        void onEndOfStream(ChannelHandlerContext ctx, int streamId) {
            Http2ConnectionEncoder encoder = handler.encoder();
            boolean trailers = scenario.responseTrailers != null;
            encoder.writeHeaders(ctx, streamId, scenario.responseHeaders, 0, body == null && !trailers,
                    ctx.newPromise());
            if (body != null) {
                encoder.writeData(ctx, streamId, body.retainedDuplicate(), 0, !trailers, ctx.newPromise());
            }
            if (trailers) {
                encoder.writeHeaders(ctx, streamId, scenario.responseTrailers, 0, true, ctx.newPromise());
            }
        }
    }

    /** Sends requests on new streams and counts responses read to their end. */
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
            int streamId = handler.connection().local().incrementAndGetNextStreamId();
            Http2ConnectionEncoder encoder = handler.encoder();
            encoder.writeHeaders(ctx, streamId, scenario.requestHeaders, 0, body == null, ctx.newPromise());
            if (body != null) {
                encoder.writeData(ctx, streamId, body.retainedDuplicate(), 0, true, ctx.newPromise());
            }
            handler.flush(ctx);
        }

        @Override
        public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding,
                              boolean endOfStream) {
            responseBytes += data.readableBytes();
            return super.onDataRead(ctx, streamId, data, padding, endOfStream);
        }

        @Override
        void onEndOfStream(ChannelHandlerContext ctx, int streamId) {
            scenario.checkResponse(responseBytes);
            responseBytes = 0;
            onResponseComplete.run();
        }
    }
}
