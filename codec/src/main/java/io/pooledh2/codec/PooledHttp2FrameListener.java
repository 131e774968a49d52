/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2Exception;

/**
 * Receives the frames of {@link PooledHttp2FrameReader#readFrame(ChannelHandlerContext, io.netty.buffer.ByteBuf,
 * PooledHttp2FrameListener)}, one call per frame, HEADERS and PUSH_PROMISE with their CONTINUATION frames
 * already assembled.
 *
 * <p>The listener owns the frame it is given and must release it, during the call or later. Releasing it
 * during the call lets the reader parse the next frame of that type into the same object; a frame still
 * referenced when the call returns is left to the listener and the reader takes another. See
 * {@link PooledHttp2Frame} for the whole retention contract.
 */
public interface PooledHttp2FrameListener {

    /**
     * Handles one inbound frame.
     *
     * @param ctx   the context the reader was called with
     * @param frame the frame, with a reference count of 1 that the listener owns
     * @throws Http2Exception to report a protocol error, as an {@code Http2FrameListener} would
     */
    void onFrame(ChannelHandlerContext ctx, PooledHttp2Frame frame) throws Http2Exception;
}
