/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2FrameStreamException;
import io.netty.handler.codec.http2.Http2Stream;

/**
 * Resets a stream with the error code RFC 9113 names for the protocol violation that broke it.
 *
 * <p>Netty's {@code Http2FrameCodec} does not reset a stream on an inbound stream error (STREAM_CLOSED for DATA
 * after the request ended, PROTOCOL_ERROR for a content-length that does not match, ...): it hands the error to
 * the stream as an {@link Http2FrameStreamException}. A stream handler that closes its channel on the error then
 * resets the stream with CANCEL, or sends nothing if it had seen the end of the request, and the peer never
 * learns what it did wrong. This handler, put between the frame codec and {@code Http2MultiplexHandler}, sends
 * RST_STREAM with the exception's error code first, then passes the exception on:
 *
 * <pre>{@code
 * pipeline.addLast(codec, new Http2StreamResetHandler(), new Http2MultiplexHandler(streamHandler));
 * }</pre>
 */
@ChannelHandler.Sharable
public final class Http2StreamResetHandler extends ChannelInboundHandlerAdapter {

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof Http2FrameStreamException) {
            Http2FrameStreamException streamException = (Http2FrameStreamException) cause;
            Http2FrameStream stream = streamException.stream();
            if (stream.state() != Http2Stream.State.CLOSED) {
                // Closing the stream tells its channel the stream ended, so the channel's own close sends nothing.
                ctx.writeAndFlush(new DefaultHttp2ResetFrame(streamException.error()).stream(stream));
            }
        }
        ctx.fireExceptionCaught(cause);
    }
}
