/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

/**
 * How the example server's HTTP/2 handlers are arranged on a connection. All three serve the same routes with the
 * same bytes (see {@link ExampleExchange}); they differ in how frames reach the route code.
 */
public enum Pipeline {
    /**
     * The frame codec, {@code Http2StreamResetHandler} and {@code Http2MultiplexHandler}: a child channel per
     * stream, with an {@link ExampleStreamHandler} in it.
     */
    MULTIPLEX,
    /** The frame codec, {@code Http2StreamResetHandler} and one {@link ExampleFrameHandler}: no child channels. */
    FRAMES,
    /**
     * An {@code Http2ConnectionHandler} (from {@code PooledHttp2ConnectionHandlerBuilder}, or Netty's
     * {@code Http2ConnectionHandlerBuilder} with {@code --stock}) calling an {@link ExampleFrameListener}.
     */
    LISTENER
}
