/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.netty.handler.codec.http2;

/**
 * Netty's package-private test hook on its frame codec builder, which Netty's own codec tests use to put a mock
 * frame writer in the codec; in Netty's package so that the pooled builder's tests can use it the same way.
 */
public final class NettyBuilderHooks {

    private NettyBuilderHooks() {
    }

    /** {@code builder.frameWriter(writer)}. */
    public static Http2FrameCodecBuilder frameWriter(Http2FrameCodecBuilder builder, Http2FrameWriter writer) {
        return builder.frameWriter(writer);
    }
}
