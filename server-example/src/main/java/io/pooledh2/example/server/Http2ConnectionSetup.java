/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2ServerUpgradeCodec;
import io.pooledh2.codec.Http2StreamResetHandler;
import io.pooledh2.codec.PooledHttp2ConnectionHandlerBuilder;
import io.pooledh2.codec.PooledHttp2FrameCodecBuilder;

/**
 * The HTTP/2 handlers of one connection, however it became HTTP/2 (prior knowledge, Upgrade: h2c, ALPN h2), for
 * the configured {@link Pipeline}: the frame codec, {@link Http2StreamResetHandler} and
 * {@link Http2MultiplexHandler} (a child channel per stream); the frame codec, the reset handler and one
 * {@link ExampleFrameHandler}; or an {@link Http2ConnectionHandler} with an {@link ExampleFrameListener}. The
 * codec is the pooled one, or Netty's own with {@code --stock}; everything else is the same on both. The pooled
 * codec schedules its streams as RFC 9113 allows, without the RFC 7540 priority tree
 * ({@code streamPriorities(false)}); Netty's keeps its default, the priority tree, as Netty's builders make it.
 */
final class Http2ConnectionSetup {

    private static final Http2StreamResetHandler RESET_HANDLER = new Http2StreamResetHandler();

    private final ServerOptions options;
    private final ByteBufAllocator allocator;

    Http2ConnectionSetup(ServerOptions options, ByteBufAllocator allocator) {
        this.options = options;
        this.allocator = allocator;
    }

    /** Adds the handlers to a connection's pipeline (prior knowledge, ALPN h2). */
    void addTo(ChannelPipeline pipeline) {
        if (options.pipeline == Pipeline.LISTENER) {
            ExampleFrameListener listener = new ExampleFrameListener(options.dataFrameSize);
            pipeline.addLast(newConnectionHandler(listener), listener);
            return;
        }
        Http2FrameCodec codec = newFrameCodec();
        pipeline.addLast(codec, RESET_HANDLER, newFrameConsumer(codec));
    }

    /** The same handlers, installed by Netty's upgrade handler once it has answered 101 Switching Protocols. */
    Http2ServerUpgradeCodec newUpgradeCodec() {
        if (options.pipeline == Pipeline.LISTENER) {
            ExampleFrameListener listener = new ExampleFrameListener(options.dataFrameSize);
            return new Http2ServerUpgradeCodec((String) null, newConnectionHandler(listener), listener);
        }
        Http2FrameCodec codec = newFrameCodec();
        return new Http2ServerUpgradeCodec(codec, RESET_HANDLER, newFrameConsumer(codec));
    }

    private ChannelHandler newFrameConsumer(Http2FrameCodec codec) {
        if (options.pipeline == Pipeline.FRAMES) {
            return new ExampleFrameHandler(codec, options.dataFrameSize);
        }
        return new Http2MultiplexHandler(new ExampleStreamHandler(codec, options.dataFrameSize, allocator));
    }

    private Http2FrameCodec newFrameCodec() {
        if (options.stockCodec) {
            return Http2FrameCodecBuilder.forServer()
                    .gracefulShutdownTimeoutMillis(options.shutdownTimeoutMillis)
                    .build();
        }
        PooledHttp2FrameCodecBuilder builder = PooledHttp2FrameCodecBuilder.forServer()
                .gracefulShutdownTimeoutMillis(options.shutdownTimeoutMillis)
                .streamPriorities(false);
        if (options.paranoid != null) {
            builder.paranoid(options.paranoid);
        }
        if (options.reuseFrames != null) {
            builder.reuseFrames(options.reuseFrames);
        }
        return builder.build();
    }

    private Http2ConnectionHandler newConnectionHandler(ExampleFrameListener listener) {
        Http2ConnectionHandler handler;
        if (options.stockCodec) {
            handler = new Http2ConnectionHandlerBuilder()
                    .server(true)
                    .gracefulShutdownTimeoutMillis(options.shutdownTimeoutMillis)
                    .frameListener(listener)
                    .build();
        } else {
            PooledHttp2ConnectionHandlerBuilder builder = new PooledHttp2ConnectionHandlerBuilder()
                    .server(true)
                    .gracefulShutdownTimeoutMillis(options.shutdownTimeoutMillis)
                    .streamPriorities(false)
                    .frameListener(listener);
            if (options.paranoid != null) {
                builder.paranoid(options.paranoid);
            }
            if (options.reuseFrames != null) {
                builder.reuseFrames(options.reuseFrames);
            }
            handler = builder.build();
        }
        listener.handler(handler);
        return handler;
    }
}
