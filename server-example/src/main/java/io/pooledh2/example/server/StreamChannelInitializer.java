/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2StreamChannel;

/**
 * Sets up the child channel of each stream a client opens. The server bootstrap's allocator option does not
 * reach these channels, so the allocator is set here too: the response buffers come from the pooled allocator,
 * like the connection's.
 */
final class StreamChannelInitializer extends ChannelInitializer<Http2StreamChannel> {

    private final Http2FrameCodec codec;
    private final ServerOptions options;
    private final ByteBufAllocator allocator;

    StreamChannelInitializer(Http2FrameCodec codec, ServerOptions options, ByteBufAllocator allocator) {
        this.codec = codec;
        this.options = options;
        this.allocator = allocator;
    }

    @Override
    protected void initChannel(Http2StreamChannel ch) {
        ch.config().setAllocator(allocator);
        ch.pipeline().addLast(new ExampleStreamHandler(codec, options.dataFrameSize));
    }
}
