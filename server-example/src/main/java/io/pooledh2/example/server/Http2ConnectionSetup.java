/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2ServerUpgradeCodec;
import io.pooledh2.codec.Http2StreamResetHandler;
import io.pooledh2.codec.PooledHttp2FrameCodecBuilder;

/**
 * The HTTP/2 handlers of one connection, however it became HTTP/2 (prior knowledge, Upgrade: h2c, ALPN h2):
 * the frame codec (pooled, or Netty's own with {@code --stock}), {@link Http2StreamResetHandler}, and
 * {@link Http2MultiplexHandler} with a child channel per stream.
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
        Http2FrameCodec codec = newFrameCodec();
        pipeline.addLast(codec, RESET_HANDLER, newMultiplexHandler(codec));
    }

    /** The same handlers, installed by Netty's upgrade handler once it has answered 101 Switching Protocols. */
    Http2ServerUpgradeCodec newUpgradeCodec() {
        Http2FrameCodec codec = newFrameCodec();
        return new Http2ServerUpgradeCodec(codec, RESET_HANDLER, newMultiplexHandler(codec));
    }

    private ChannelHandler newMultiplexHandler(Http2FrameCodec codec) {
        return new Http2MultiplexHandler(new StreamChannelInitializer(codec, options, allocator));
    }

    private Http2FrameCodec newFrameCodec() {
        if (options.stockCodec) {
            return Http2FrameCodecBuilder.forServer()
                    .validateRequiredPseudoHeaders(true)
                    .gracefulShutdownTimeoutMillis(options.shutdownTimeoutMillis)
                    .build();
        }
        PooledHttp2FrameCodecBuilder builder = PooledHttp2FrameCodecBuilder.forServer()
                .validateRequiredPseudoHeaders(true)
                .gracefulShutdownTimeoutMillis(options.shutdownTimeoutMillis);
        if (options.paranoid != null) {
            builder.paranoid(options.paranoid);
        }
        if (options.reuseFrames != null) {
            builder.reuseFrames(options.reuseFrames);
        }
        return builder.build();
    }
}
