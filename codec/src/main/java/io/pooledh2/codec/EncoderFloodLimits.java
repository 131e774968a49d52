/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http2.DecoratingHttp2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2LifecycleManager;
import io.netty.util.concurrent.Ticker;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.util.concurrent.TimeUnit;

import static io.netty.handler.codec.http2.Http2Exception.connectionError;

/**
 * Netty's two encoder protections, at most {@code encoderEnforceMaxQueuedControlFrames} control frames (SETTINGS
 * ACK, PING ACK, RST_STREAM) written and not yet flushed out, and at most {@code encoderEnforceMaxRstFramesPerWindow}
 * RST_STREAM frames sent per window (other than CANCEL and NO_ERROR), with Netty's counting, errors and messages.
 * Netty's builder makes a decorator for each (112 B per connection with the listener it adds to every control
 * frame's promise, and two calls more for every write); this is one object that is its own promise listener. Its
 * loggers have the names of Netty's classes, so that logging configured for those applies here as well.
 */
final class EncoderFloodLimits extends DecoratingHttp2ConnectionEncoder implements ChannelFutureListener {

    private static final InternalLogger controlFramesLogger =
            InternalLoggerFactory.getInstance("io.netty.handler.codec.http2.Http2ControlFrameLimitEncoder");
    private static final InternalLogger rstLogger =
            InternalLoggerFactory.getInstance("io.netty.handler.codec.http2.Http2MaxRstFrameLimitEncoder");

    /**
     * 0: control frames are not counted, because the limit is off or, once reached, because the connection is
     * closing (Netty's flag for that is this value set to 0: a field less per connection).
     */
    private int maxOutstandingControlFrames;
    /** 0: RST_STREAM frames are not counted. */
    private final int maxRstFramesPerWindow;
    private final long nanosPerWindow;

    private Http2LifecycleManager lifecycleManager;
    private int outstandingControlFrames;
    private long lastRstFrameNano;
    private int sentRstInWindow;

    private EncoderFloodLimits(Http2ConnectionEncoder delegate, int maxOutstandingControlFrames,
                               int maxRstFramesPerWindow, int secondsPerWindow) {
        super(delegate);
        this.maxOutstandingControlFrames = maxOutstandingControlFrames;
        this.maxRstFramesPerWindow = maxRstFramesPerWindow;
        nanosPerWindow = TimeUnit.SECONDS.toNanos(secondsPerWindow);
        lastRstFrameNano = Ticker.systemTicker().nanoTime();
    }

    /**
     * {@code encoder} with the limits Netty's builder would add for these values (0 is off, as in Netty's builder),
     * or {@code encoder} itself when both are off.
     */
    static Http2ConnectionEncoder wrap(Http2ConnectionEncoder encoder, int maxOutstandingControlFrames,
                                       int maxRstFramesPerWindow, int secondsPerWindow) {
        int maxControl = Math.max(maxOutstandingControlFrames, 0);
        int maxRst = maxRstFramesPerWindow > 0 && secondsPerWindow > 0 ? maxRstFramesPerWindow : 0;
        if (maxControl == 0 && maxRst == 0) {
            return encoder;
        }
        return new EncoderFloodLimits(encoder, maxControl, maxRst, maxRst == 0 ? 0 : secondsPerWindow);
    }

    @Override
    public void lifecycleManager(Http2LifecycleManager lifecycleManager) {
        this.lifecycleManager = lifecycleManager;
        super.lifecycleManager(lifecycleManager);
    }

    @Override
    public ChannelFuture writeSettingsAck(ChannelHandlerContext ctx, ChannelPromise promise) {
        return super.writeSettingsAck(ctx, countControlFrame(ctx, promise));
    }

    @Override
    public ChannelFuture writePing(ChannelHandlerContext ctx, boolean ack, long data, ChannelPromise promise) {
        // Only the acknowledgements are answers the peer can provoke.
        return super.writePing(ctx, ack, data, ack ? countControlFrame(ctx, promise) : promise);
    }

    @Override
    public ChannelFuture writeRstStream(ChannelHandlerContext ctx, int streamId, long errorCode,
                                        ChannelPromise promise) {
        ChannelFuture future = super.writeRstStream(ctx, streamId, errorCode, countControlFrame(ctx, promise));
        if (maxRstFramesPerWindow != 0 && errorCode != Http2Error.CANCEL.code()
                && errorCode != Http2Error.NO_ERROR.code()) {
            countRstFrame(ctx);
        }
        return future;
    }

    /**
     * Counts a control frame until its write completes. At the limit it flushes once to make room, and if that
     * did not, it fails the connection; the frame is written either way, as in Netty.
     */
    private ChannelPromise countControlFrame(ChannelHandlerContext ctx, ChannelPromise promise) {
        int maxOutstandingControlFrames = this.maxOutstandingControlFrames;
        if (maxOutstandingControlFrames == 0) {
            return promise;
        }
        if (outstandingControlFrames == maxOutstandingControlFrames) {
            ctx.flush();
        }
        if (outstandingControlFrames == maxOutstandingControlFrames) {
            this.maxOutstandingControlFrames = 0;
            Http2Exception exception = connectionError(Http2Error.ENHANCE_YOUR_CALM,
                    "Maximum number %d of outstanding control frames reached", maxOutstandingControlFrames);
            controlFramesLogger.info("{} Maximum number {} of outstanding control frames reached, closing channel.",
                    ctx.channel(), maxOutstandingControlFrames, exception);
            lifecycleManager.onError(ctx, true, exception);
            ctx.close();
        }
        outstandingControlFrames++;
        return promise.unvoid().addListener(this);
    }

    /** A counted control frame's write completed, successfully or not. */
    @Override
    public void operationComplete(ChannelFuture future) {
        outstandingControlFrames--;
    }

    private void countRstFrame(ChannelHandlerContext ctx) {
        long now = Ticker.systemTicker().nanoTime();
        if (now - lastRstFrameNano >= nanosPerWindow) {
            lastRstFrameNano = now;
            sentRstInWindow = 1;
        } else if (++sentRstInWindow > maxRstFramesPerWindow) {
            long seconds = TimeUnit.NANOSECONDS.toSeconds(nanosPerWindow);
            Http2Exception exception = connectionError(Http2Error.ENHANCE_YOUR_CALM,
                    "Maximum number %d of RST frames frames reached within %d seconds", maxRstFramesPerWindow,
                    seconds);
            rstLogger.debug("{} Maximum number {} of RST frames reached within {} seconds, closing connection with {} "
                    + "error", ctx.channel(), maxRstFramesPerWindow, seconds, exception.error(), exception);
            lifecycleManager.onError(ctx, true, exception);
            ctx.close();
        }
    }
}
