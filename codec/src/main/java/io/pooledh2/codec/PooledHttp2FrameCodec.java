/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;

/**
 * An {@link Http2FrameCodec} whose inbound frames are the pooled reader's own frames: where Netty's codec
 * allocates a {@code DefaultHttp2*Frame} for each frame the connection decoder passes on, this one takes the
 * frame the reader is delivering, with the reader's reference, attaches the codec's {@link Http2FrameStream} to
 * it and fires it. Everything
 * else (streams, flow control, {@code Http2MultiplexHandler}) is Netty's codec, unchanged.
 */
final class PooledHttp2FrameCodec extends Http2FrameCodec implements Http2FrameListener, StreamCloseListener.Closer {

    private final PooledHttp2FrameReader reader;
    /** Netty's own listener, for what is not forwarded (PUSH_PROMISE) or not the reader's frame. */
    private final Http2FrameListener nettyListener;

    PooledHttp2FrameCodec(Http2ConnectionEncoder encoder, Http2ConnectionDecoder decoder, Http2Settings initialSettings,
                          boolean decoupleCloseAndGoAway, boolean flushPreface, PooledHttp2FrameReader reader) {
        super(encoder, decoder, initialSettings, decoupleCloseAndGoAway, flushPreface);
        this.reader = reader;
        // The forwarding below needs the reader's frame objects, and recognises a HEADERS frame by its own
        // headers object: no copy on the way.
        reader.forwardFrames();
        nettyListener = decoder.frameListener();
        // The codec is the decoder's listener itself: one object less per connection.
        decoder.frameListener(this);
    }

    /** Removed from a live pipeline: the reader lets go of what it holds (see the reader's handlerRemoved). */
    /** As Netty's, with a recycled listener instead of a new lambda per stream (see {@link StreamCloseListener}). */
    @Override
    public void closeStream(Http2Stream stream, ChannelFuture future) {
        StreamCloseListener.closeStream(this, stream, future);
    }

    @Override
    public void closeStreamNow(Http2Stream stream, ChannelFuture future) {
        super.closeStream(stream, future);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) throws Exception {
        try {
            super.handlerRemoved0(ctx);
        } finally {
            reader.handlerRemoved(ctx);
        }
    }

    /** Netty's codec looks the stream up the same way and fails the same way when it is missing. */
    private Http2FrameStream requireStream(int streamId) {
        Http2FrameStream stream = connection().stream(streamId).getProperty(streamKey);
        if (stream == null) {
            throw new IllegalStateException("Stream object required for identifier: " + streamId);
        }
        return stream;
    }

    /** Fires the reader's frame with the reader's own reference: the receiver owns it, with no retain. */
    private void fire(ChannelHandlerContext ctx) {
        ctx.fireChannelRead(reader.handOnInFlightFrame());
    }

    // Each callback checks that the reader's frame in flight is the one the decoder passes on (same type and
    // values; the very same buffer or headers where there is one) and forwards it; otherwise it does what
    // Netty's codec does.

    @Override
    public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream)
            throws Http2Exception {
        PooledFrame frame = reader.inFlightFrame();
        if (frame instanceof PooledDataFrame && ((PooledDataFrame) frame).payload == data) {
            ((PooledDataFrame) frame).stream(requireStream(streamId));
            fire(ctx);
            // As in Netty's codec, the bytes go back to the flow-control window when the consumer says so.
            return 0;
        }
        return nettyListener.onDataRead(ctx, streamId, data, padding, endOfStream);
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                              boolean endOfStream) throws Http2Exception {
        PooledFrame frame = reader.inFlightFrame();
        if (frame instanceof PooledHeadersFrame && ((PooledHeadersFrame) frame).headers == headers) {
            ((PooledHeadersFrame) frame).stream(requireStream(streamId));
            fire(ctx);
            return;
        }
        nettyListener.onHeadersRead(ctx, streamId, headers, padding, endOfStream);
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int streamDependency,
                              short weight, boolean exclusive, int padding, boolean endOfStream)
            throws Http2Exception {
        onHeadersRead(ctx, streamId, headers, padding, endOfStream);
    }

    @Override
    public void onPriorityRead(ChannelHandlerContext ctx, int streamId, int streamDependency, short weight,
                               boolean exclusive) throws Http2Exception {
        PooledFrame frame = reader.inFlightFrame();
        if (frame instanceof PooledPriorityFrame && ((PooledPriorityFrame) frame).streamId == streamId) {
            if (connection().stream(streamId) == null) {
                return; // Netty's codec drops PRIORITY for streams it does not know.
            }
            ((PooledPriorityFrame) frame).stream(requireStream(streamId));
            fire(ctx);
            return;
        }
        nettyListener.onPriorityRead(ctx, streamId, streamDependency, weight, exclusive);
    }

    @Override
    public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) throws Http2Exception {
        PooledFrame frame = reader.inFlightFrame();
        if (frame instanceof PooledResetFrame && ((PooledResetFrame) frame).streamId == streamId) {
            ((PooledResetFrame) frame).stream(requireStream(streamId));
            fire(ctx);
            return;
        }
        nettyListener.onRstStreamRead(ctx, streamId, errorCode);
    }

    @Override
    public void onSettingsAckRead(ChannelHandlerContext ctx) throws Http2Exception {
        PooledFrame frame = reader.inFlightFrame();
        if (frame instanceof PooledSettingsAckFrame) {
            fire(ctx);
            return;
        }
        nettyListener.onSettingsAckRead(ctx);
    }

    @Override
    public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) throws Http2Exception {
        PooledFrame frame = reader.inFlightFrame();
        if (frame instanceof PooledSettingsFrame) {
            // The decoder was given its own copy of the map; the frame carries the reader's.
            fire(ctx);
            return;
        }
        nettyListener.onSettingsRead(ctx, settings);
    }

    @Override
    public void onPingRead(ChannelHandlerContext ctx, long data) throws Http2Exception {
        if (!firePing(ctx, data, false)) {
            nettyListener.onPingRead(ctx, data);
        }
    }

    @Override
    public void onPingAckRead(ChannelHandlerContext ctx, long data) throws Http2Exception {
        if (!firePing(ctx, data, true)) {
            nettyListener.onPingAckRead(ctx, data);
        }
    }

    private boolean firePing(ChannelHandlerContext ctx, long data, boolean ack) {
        PooledFrame frame = reader.inFlightFrame();
        if (frame instanceof PooledPingFrame && ((PooledPingFrame) frame).content == data
                && ((PooledPingFrame) frame).ack == ack) {
            fire(ctx);
            return true;
        }
        return false;
    }

    @Override
    public void onPushPromiseRead(ChannelHandlerContext ctx, int streamId, int promisedStreamId,
                                  Http2Headers headers, int padding) throws Http2Exception {
        // The promised stream's Http2FrameStream can only be made by Netty's codec.
        nettyListener.onPushPromiseRead(ctx, streamId, promisedStreamId, headers, padding);
    }

    @Override
    public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData)
            throws Http2Exception {
        PooledFrame frame = reader.inFlightFrame();
        if (frame instanceof PooledGoAwayFrame && ((PooledGoAwayFrame) frame).lastStreamId == lastStreamId
                && ((PooledGoAwayFrame) frame).errorCode == errorCode) {
            fire(ctx);
            return;
        }
        nettyListener.onGoAwayRead(ctx, lastStreamId, errorCode, debugData);
    }

    @Override
    public void onWindowUpdateRead(ChannelHandlerContext ctx, int streamId, int windowSizeIncrement)
            throws Http2Exception {
        PooledFrame frame = reader.inFlightFrame();
        if (frame instanceof PooledWindowUpdateFrame && ((PooledWindowUpdateFrame) frame).streamId == streamId) {
            if (streamId == 0) {
                return; // Netty's codec does not pass on the connection's window updates.
            }
            ((PooledWindowUpdateFrame) frame).stream(requireStream(streamId));
            fire(ctx);
            return;
        }
        nettyListener.onWindowUpdateRead(ctx, streamId, windowSizeIncrement);
    }

    @Override
    public void onUnknownFrame(ChannelHandlerContext ctx, byte frameType, int streamId, Http2Flags flags,
                               ByteBuf payload) throws Http2Exception {
        PooledFrame frame = reader.inFlightFrame();
        if (frame instanceof PooledUnknownFrame && ((PooledUnknownFrame) frame).payload == payload) {
            if (streamId == 0) {
                return; // Netty's codec drops unknown frames on the connection stream.
            }
            ((PooledUnknownFrame) frame).stream(requireStream(streamId));
            fire(ctx);
            return;
        }
        nettyListener.onUnknownFrame(ctx, frameType, streamId, flags, payload);
    }
}
