/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.DecoratingHttp2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.util.concurrent.Ticker;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.util.concurrent.TimeUnit;

import static io.netty.handler.codec.http2.Http2Exception.connectionError;

/**
 * Netty's two decoder protections, at most {@code decoderEnforceMaxConsecutiveEmptyDataFrames} empty DATA frames
 * without END_STREAM in a row and at most {@code decoderEnforceMaxRstFramesPerWindow} RST_STREAM frames per window,
 * with Netty's counting, errors and messages, between the decoder and the application's listener. Netty's builder
 * makes a decoder decorator and a listener decorator for each (four objects, 128 B per connection, and two calls
 * more for every frame); this is one object that is both the decorator and the listener, so one call. Netty's
 * classes are package-private, hence this one. As with Netty's, the listener set (now or later, through
 * {@link #frameListener(Http2FrameListener)}) is the one wrapped, the getter returns it unwrapped, and setting one
 * starts the counts afresh. The logger has the name of Netty's, so that logging configured for it applies here.
 */
final class DecoderFloodLimits extends DecoratingHttp2ConnectionDecoder implements Http2FrameListener {

    private static final InternalLogger logger =
            InternalLoggerFactory.getInstance("io.netty.handler.codec.http2.Http2MaxRstFrameListener");

    /** Netty throws one shared, stackless exception for every RST_STREAM over the limit: so does this. */
    private static final Http2Exception RST_FRAME_RATE_EXCEEDED = new StacklessHttp2Exception();

    /** 0: empty DATA frames are not counted. */
    private final int maxConsecutiveEmptyFrames;
    /** 0: RST_STREAM frames are not counted. */
    private final int maxRstFramesPerWindow;
    private final long nanosPerWindow;

    private Http2FrameListener listener;
    private int emptyDataFrames;
    private boolean emptyDataViolationDetected;
    private long lastRstFrameNano;
    private int receivedRstInWindow;

    private DecoderFloodLimits(Http2ConnectionDecoder delegate, int maxConsecutiveEmptyFrames,
                               int maxRstFramesPerWindow, int secondsPerWindow) {
        super(delegate);
        this.maxConsecutiveEmptyFrames = maxConsecutiveEmptyFrames;
        this.maxRstFramesPerWindow = maxRstFramesPerWindow;
        nanosPerWindow = TimeUnit.SECONDS.toNanos(secondsPerWindow);
    }

    /**
     * {@code decoder} with the limits Netty's builder would add for these values (a limit of 0 is off, as in Netty's
     * builder), or {@code decoder} itself when both are off. Call before the decoder is given its listener.
     */
    static Http2ConnectionDecoder wrap(Http2ConnectionDecoder decoder, int maxConsecutiveEmptyFrames,
                                       int maxRstFramesPerWindow, int secondsPerWindow) {
        int maxEmpty = Math.max(maxConsecutiveEmptyFrames, 0);
        int maxRst = maxRstFramesPerWindow > 0 && secondsPerWindow > 0 ? maxRstFramesPerWindow : 0;
        if (maxEmpty == 0 && maxRst == 0) {
            return decoder;
        }
        return new DecoderFloodLimits(decoder, maxEmpty, maxRst, maxRst == 0 ? 0 : secondsPerWindow);
    }

    @Override
    public void frameListener(Http2FrameListener listener) {
        this.listener = listener;
        // Netty makes new listener decorators here, whose counts start at zero and whose window starts over.
        emptyDataFrames = 0;
        emptyDataViolationDetected = false;
        receivedRstInWindow = 0;
        // From Netty 4.2.16 the first window starts at the first RST_STREAM; before, when the listener was set.
        lastRstFrameNano = Ticker.systemTicker().nanoTime() - (NettyApi.NETTY_4_2_16 ? nanosPerWindow : 0);
        super.frameListener(listener == null ? null : this);
    }

    @Override
    public Http2FrameListener frameListener() {
        Http2FrameListener current = super.frameListener();
        return current == this ? listener : current;
    }

    @Override
    public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream)
            throws Http2Exception {
        if (endOfStream || data.isReadable()) {
            emptyDataFrames = 0;
        } else if (emptyDataFrames++ == maxConsecutiveEmptyFrames && maxConsecutiveEmptyFrames != 0
                && !emptyDataViolationDetected) {
            emptyDataViolationDetected = true;
            throw connectionError(Http2Error.ENHANCE_YOUR_CALM,
                    "Maximum number %d of empty data frames without end_of_stream flag received",
                    maxConsecutiveEmptyFrames);
        }
        return listener.onDataRead(ctx, streamId, data, padding, endOfStream);
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                              boolean endOfStream) throws Http2Exception {
        emptyDataFrames = 0;
        listener.onHeadersRead(ctx, streamId, headers, padding, endOfStream);
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int streamDependency,
                              short weight, boolean exclusive, int padding, boolean endOfStream)
            throws Http2Exception {
        emptyDataFrames = 0;
        listener.onHeadersRead(ctx, streamId, headers, streamDependency, weight, exclusive, padding, endOfStream);
    }

    @Override
    public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) throws Http2Exception {
        if (maxRstFramesPerWindow != 0) {
            countRstFrame(ctx);
        }
        listener.onRstStreamRead(ctx, streamId, errorCode);
    }

    private void countRstFrame(ChannelHandlerContext ctx) throws Http2Exception {
        long now = Ticker.systemTicker().nanoTime();
        if (now - lastRstFrameNano >= nanosPerWindow) {
            lastRstFrameNano = now;
            receivedRstInWindow = 1;
        } else if (++receivedRstInWindow > maxRstFramesPerWindow) {
            logger.debug("{} Maximum number {} of RST frames reached within {} seconds, closing connection with {} "
                    + "error", ctx.channel(), maxRstFramesPerWindow, TimeUnit.NANOSECONDS.toSeconds(nanosPerWindow),
                    RST_FRAME_RATE_EXCEEDED.error(), RST_FRAME_RATE_EXCEEDED);
            throw RST_FRAME_RATE_EXCEEDED;
        }
    }

    @Override
    public void onPriorityRead(ChannelHandlerContext ctx, int streamId, int streamDependency, short weight,
                               boolean exclusive) throws Http2Exception {
        listener.onPriorityRead(ctx, streamId, streamDependency, weight, exclusive);
    }

    @Override
    public void onSettingsAckRead(ChannelHandlerContext ctx) throws Http2Exception {
        listener.onSettingsAckRead(ctx);
    }

    @Override
    public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) throws Http2Exception {
        listener.onSettingsRead(ctx, settings);
    }

    @Override
    public void onPingRead(ChannelHandlerContext ctx, long data) throws Http2Exception {
        listener.onPingRead(ctx, data);
    }

    @Override
    public void onPingAckRead(ChannelHandlerContext ctx, long data) throws Http2Exception {
        listener.onPingAckRead(ctx, data);
    }

    @Override
    public void onPushPromiseRead(ChannelHandlerContext ctx, int streamId, int promisedStreamId, Http2Headers headers,
                                  int padding) throws Http2Exception {
        listener.onPushPromiseRead(ctx, streamId, promisedStreamId, headers, padding);
    }

    @Override
    public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData)
            throws Http2Exception {
        listener.onGoAwayRead(ctx, lastStreamId, errorCode, debugData);
    }

    @Override
    public void onWindowUpdateRead(ChannelHandlerContext ctx, int streamId, int windowSizeIncrement)
            throws Http2Exception {
        listener.onWindowUpdateRead(ctx, streamId, windowSizeIncrement);
    }

    @Override
    public void onUnknownFrame(ChannelHandlerContext ctx, byte frameType, int streamId, Http2Flags flags,
                               ByteBuf payload) throws Http2Exception {
        listener.onUnknownFrame(ctx, frameType, streamId, flags, payload);
    }

    /**
     * Netty's error for the RST_STREAM limit: ENHANCE_YOUR_CALM, closing at once, with no stack to walk. Named as
     * Netty's class is, so that what a handler logs of it reads the same.
     */
    private static final class StacklessHttp2Exception extends Http2Exception {
        private static final long serialVersionUID = 1L;

        StacklessHttp2Exception() {
            super(Http2Error.ENHANCE_YOUR_CALM, "Maximum number of RST frames reached", ShutdownHint.HARD_SHUTDOWN);
            setStackTrace(new StackTraceElement[] {
                    new StackTraceElement(DecoderFloodLimits.class.getName(), "onRstStreamRead(..)", null, -1)});
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }
}
