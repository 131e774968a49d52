/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.util.concurrent.Future;
import io.pooledh2.codec.Http2StreamResetHandler;
import io.pooledh2.codec.PooledHttp2FrameCodecBuilder;

/**
 * One h2c connection (prior knowledge): the frame codec (pooled, or Netty's with {@code --stock}),
 * {@link Http2StreamResetHandler}, and {@link Http2MultiplexHandler}; requests go on stream channels opened with
 * {@link Http2StreamChannelBootstrap}, which gives them the pooled allocator too.
 */
final class ClientConnection {

    private static final Http2StreamResetHandler RESET_HANDLER = new Http2StreamResetHandler();

    final Channel channel;
    final FrameReuseCounter reuseCounter = new FrameReuseCounter();
    private final Http2StreamChannelBootstrap streams;

    private ClientConnection(Channel channel, ByteBufAllocator allocator) {
        this.channel = channel;
        this.streams = new Http2StreamChannelBootstrap(channel).option(ChannelOption.ALLOCATOR, allocator);
    }

    static ClientConnection connect(EventLoopGroup group, ByteBufAllocator allocator, ClientOptions options)
            throws InterruptedException {
        Channel channel = new Bootstrap()
                .group(group)
                .channel(NioSocketChannel.class)
                .option(ChannelOption.ALLOCATOR, allocator)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(newFrameCodec(options), RESET_HANDLER,
                                new Http2MultiplexHandler(new RefusePushedStreams()));
                    }
                })
                .connect(options.host, options.port).sync().channel();
        return new ClientConnection(channel, allocator);
    }

    /**
     * Opens a stream channel for one exchange; the handler starts the request when the channel is active. Called
     * on the connection's event loop only: the bootstrap is shared, and open() reads its handler at once there.
     */
    Future<Http2StreamChannel> open(ChannelHandler handler) {
        if (!channel.eventLoop().inEventLoop()) {
            throw new IllegalStateException("open() outside the connection's event loop");
        }
        return streams.handler(handler).open();
    }

    private static Http2FrameCodec newFrameCodec(ClientOptions options) {
        Http2Settings settings = Http2Settings.defaultSettings().pushEnabled(false);
        if (options.stockCodec) {
            return Http2FrameCodecBuilder.forClient().initialSettings(settings).build();
        }
        PooledHttp2FrameCodecBuilder builder = PooledHttp2FrameCodecBuilder.forClient().initialSettings(settings);
        if (options.paranoid != null) {
            builder.paranoid(options.paranoid);
        }
        if (options.reuseFrames != null) {
            builder.reuseFrames(options.reuseFrames);
        }
        return builder.build();
    }

    /** Push is off (SETTINGS_ENABLE_PUSH 0), so a stream the server opens is a protocol violation: closed. */
    @ChannelHandler.Sharable
    private static final class RefusePushedStreams extends ChannelInitializer<Channel> {
        @Override
        protected void initChannel(Channel ch) {
            ch.close();
        }
    }
}
