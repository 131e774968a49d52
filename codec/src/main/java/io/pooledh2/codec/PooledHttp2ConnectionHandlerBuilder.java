/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.AbstractHttp2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2FrameLogger;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

/**
 * Builds an {@link Http2ConnectionHandler} for an {@link Http2FrameListener} (the grpc-java and Vert.x style)
 * whose decoder reads with {@link PooledHttp2FrameReader}. Use it where Netty's
 * {@code Http2ConnectionHandlerBuilder} stood: the same options, the same protections (Netty's control-frame, RST,
 * empty-DATA and RST-flood limits, with Netty's defaults, counting and errors), and the listener
 * gets exactly the calls it got before. Whatever the reader reuses and a listener could keep (the settings map,
 * an unknown frame's flags, GOAWAY debug data) is copied for it.
 */
public final class PooledHttp2ConnectionHandlerBuilder
        extends AbstractHttp2ConnectionHandlerBuilder<Http2ConnectionHandler, PooledHttp2ConnectionHandlerBuilder> {

    /** Netty's {@code validateRequiredPseudoHeaders(boolean)}, from 4.2.16 on; {@code null} before. */
    private static final MethodHandle SUPER_VALIDATE_REQUIRED_PSEUDO_HEADERS =
            NettyApi.superMethod(MethodHandles.lookup(), AbstractHttp2ConnectionHandlerBuilder.class,
                    "validateRequiredPseudoHeaders", AbstractHttp2ConnectionHandlerBuilder.class, boolean.class);

    private final PooledConnectionAssembly assembly = new PooledConnectionAssembly();

    /**
     * Paranoid mode for the reader (see {@link PooledHttp2FrameReader#paranoid(boolean)}); default: the system
     * property.
     *
     * @param paranoid {@code true}: inbound frames are never reused and any access to a released one throws
     * @return this builder
     */
    public PooledHttp2ConnectionHandlerBuilder paranoid(boolean paranoid) {
        assembly.paranoid(paranoid);
        return this;
    }

    /**
     * Whether the decoder enforces the RFC 9113 stream-state rules that Netty's decoder does not (default
     * {@code true}): HEADERS opening a stream with an id lower than one the peer already used is a connection
     * error PROTOCOL_ERROR (section 5.1.1); HEADERS or DATA on a stream the peer ended with END_STREAM is a
     * connection error STREAM_CLOSED once the stream is closed, and HEADERS a stream error STREAM_CLOSED while it
     * is half-closed (remote) (section 5.1). Frames on a stream this endpoint reset are ignored, as in Netty, and
     * trailers are unaffected. The peer's last 64 stream ids are remembered; older ids get Netty's answer
     * (RST_STREAM with STREAM_CLOSED). {@code false} gives exactly the behaviour of Netty's builder.
     *
     * @param strictStreamStates {@code true} to apply the RFC 9113 rules above, {@code false} for Netty's answers
     * @return this builder
     */
    public PooledHttp2ConnectionHandlerBuilder strictStreamStates(boolean strictStreamStates) {
        assembly.strictStreamStates(strictStreamStates);
        return this;
    }

    /**
     * How the DATA of concurrent streams shares the connection. {@code true}, the default: as in Netty, by the RFC 7540
     * priority tree that the peer builds with PRIORITY frames and the priority fields of HEADERS frames (Netty's
     * {@code WeightedFairQueueByteDistributor}, which keeps scheduling state for every stream). {@code false}: as
     * RFC 9113 allows (section 5.3.2 deprecates those signals), without a priority tree: the streams that have DATA to
     * send take turns, each getting an equal share of what the connection window allows per turn (at least 1 KiB),
     * and no scheduling state is allocated per stream. A peer that sends priorities is still served as before: its
     * PRIORITY frames and priority fields are read and validated with the same errors and still reach the listener
     * or the handlers, but they no longer change the order or the share in which streams' DATA is sent. With a
     * connection given to the builder that already has a remote flow controller, {@code false} fails the build.
     *
     * @param streamPriorities {@code true} for the RFC 7540 priority tree, {@code false} for RFC 9113 turns
     * @return this builder
     */
    public PooledHttp2ConnectionHandlerBuilder streamPriorities(boolean streamPriorities) {
        assembly.streamPriorities(streamPriorities);
        return this;
    }

    /**
     * Frame reuse for the reader (see {@link PooledHttp2FrameReader#reuseFrames(boolean)}); default: the system
     * property.
     *
     * @param reuseFrames {@code false}: every inbound frame is a new object, with the same behaviour otherwise
     * @return this builder
     */
    public PooledHttp2ConnectionHandlerBuilder reuseFrames(boolean reuseFrames) {
        assembly.reuseFrames(reuseFrames);
        return this;
    }

    @Override
    public Http2Settings initialSettings() {
        return super.initialSettings();
    }

    @Override
    public PooledHttp2ConnectionHandlerBuilder initialSettings(Http2Settings settings) {
        return super.initialSettings(settings);
    }

    @Override
    public PooledHttp2ConnectionHandlerBuilder frameListener(Http2FrameListener frameListener) {
        return super.frameListener(frameListener);
    }

    @Override
    public PooledHttp2ConnectionHandlerBuilder gracefulShutdownTimeoutMillis(long gracefulShutdownTimeoutMillis) {
        return super.gracefulShutdownTimeoutMillis(gracefulShutdownTimeoutMillis);
    }

    @Override
    public PooledHttp2ConnectionHandlerBuilder server(boolean isServer) {
        return super.server(isServer);
    }

    @Override
    public PooledHttp2ConnectionHandlerBuilder connection(Http2Connection connection) {
        return super.connection(connection);
    }

    @Override
    public PooledHttp2ConnectionHandlerBuilder maxReservedStreams(int maxReservedStreams) {
        return super.maxReservedStreams(maxReservedStreams);
    }

    @Override
    public PooledHttp2ConnectionHandlerBuilder validateHeaders(boolean validateHeaders) {
        return super.validateHeaders(validateHeaders);
    }

    /**
     * As on Netty's builder, which has this option from Netty 4.2.16 on. On an older Netty, {@code true} throws
     * {@link UnsupportedOperationException} at once and {@code false}, that Netty's only behaviour, is accepted.
     *
     * @see #isValidateRequiredPseudoHeadersSupported()
     */
    public PooledHttp2ConnectionHandlerBuilder validateRequiredPseudoHeaders(boolean validateRequiredPseudoHeaders) {
        if (SUPER_VALIDATE_REQUIRED_PSEUDO_HEADERS != null) {
            NettyApi.invokeSetter(SUPER_VALIDATE_REQUIRED_PSEUDO_HEADERS, this, validateRequiredPseudoHeaders);
        } else if (validateRequiredPseudoHeaders) {
            throw NettyApi.unsupported("validateRequiredPseudoHeaders(true)", "4.2.16.Final");
        }
        assembly.validateRequiredPseudoHeaders(validateRequiredPseudoHeaders);
        return this;
    }

    /**
     * {@return whether the Netty on the class path can validate required pseudo-headers (Netty 4.2.16 or newer), so
     * that {@link #validateRequiredPseudoHeaders(boolean) validateRequiredPseudoHeaders(true)} can be set}
     */
    public static boolean isValidateRequiredPseudoHeadersSupported() {
        return SUPER_VALIDATE_REQUIRED_PSEUDO_HEADERS != null;
    }

    @Override
    public PooledHttp2ConnectionHandlerBuilder frameLogger(Http2FrameLogger frameLogger) {
        return super.frameLogger(frameLogger);
    }

    @Override
    public PooledHttp2ConnectionHandlerBuilder encoderEnforceMaxConcurrentStreams(
            boolean encoderEnforceMaxConcurrentStreams) {
        return super.encoderEnforceMaxConcurrentStreams(encoderEnforceMaxConcurrentStreams);
    }

    @Override
    public PooledHttp2ConnectionHandlerBuilder encoderEnforceMaxQueuedControlFrames(int maxQueuedControlFrames) {
        return super.encoderEnforceMaxQueuedControlFrames(maxQueuedControlFrames);
    }

    @Override
    public PooledHttp2ConnectionHandlerBuilder headerSensitivityDetector(
            Http2HeadersEncoder.SensitivityDetector headerSensitivityDetector) {
        return super.headerSensitivityDetector(headerSensitivityDetector);
    }

    /**
     * Does nothing, as in Netty 4.2; here so that code written against Netty's builder compiles unchanged.
     *
     * @deprecated as in Netty: its HPACK decoder no longer takes an initial Huffman capacity
     */
    @Deprecated
    @Override
    public PooledHttp2ConnectionHandlerBuilder initialHuffmanDecodeCapacity(int initialHuffmanDecodeCapacity) {
        return super.initialHuffmanDecodeCapacity(initialHuffmanDecodeCapacity);
    }

    @Override
    public PooledHttp2ConnectionHandlerBuilder encoderIgnoreMaxHeaderListSize(boolean ignoreMaxHeaderListSize) {
        super.encoderIgnoreMaxHeaderListSize(ignoreMaxHeaderListSize);
        // Netty keeps this private; the frame writer this builder makes needs it too.
        assembly.encoderIgnoreMaxHeaderListSize(ignoreMaxHeaderListSize);
        return this;
    }

    @Override
    public PooledHttp2ConnectionHandlerBuilder autoAckSettingsFrame(boolean autoAckSettings) {
        return super.autoAckSettingsFrame(autoAckSettings);
    }

    @Override
    public PooledHttp2ConnectionHandlerBuilder autoAckPingFrame(boolean autoAckPingFrame) {
        return super.autoAckPingFrame(autoAckPingFrame);
    }

    @Override
    public PooledHttp2ConnectionHandlerBuilder decoupleCloseAndGoAway(boolean decoupleCloseAndGoAway) {
        return super.decoupleCloseAndGoAway(decoupleCloseAndGoAway);
    }

    @Override
    public PooledHttp2ConnectionHandlerBuilder flushPreface(boolean flushPreface) {
        return super.flushPreface(flushPreface);
    }

    @Override
    public PooledHttp2ConnectionHandlerBuilder decoderEnforceMaxConsecutiveEmptyDataFrames(
            int maxConsecutiveEmptyFrames) {
        return super.decoderEnforceMaxConsecutiveEmptyDataFrames(maxConsecutiveEmptyFrames);
    }

    /** The limit set by {@link #decoderEnforceMaxConsecutiveEmptyDataFrames(int)}; public as on Netty's builder. */
    @Override
    public int decoderEnforceMaxConsecutiveEmptyDataFrames() {
        return super.decoderEnforceMaxConsecutiveEmptyDataFrames();
    }

    @Override
    public PooledHttp2ConnectionHandlerBuilder encoderEnforceMaxRstFramesPerWindow(int maxRstFramesPerWindow,
                                                                                  int secondsPerWindow) {
        super.encoderEnforceMaxRstFramesPerWindow(maxRstFramesPerWindow, secondsPerWindow);
        // Netty keeps these private; the encoder this builder makes needs them too.
        assembly.encoderRstLimit(maxRstFramesPerWindow, secondsPerWindow);
        return this;
    }

    @Override
    public PooledHttp2ConnectionHandlerBuilder decoderEnforceMaxSmallContinuationFrames(
            int maxSmallContinuationFrames) {
        return super.decoderEnforceMaxSmallContinuationFrames(maxSmallContinuationFrames);
    }

    @Override
    public PooledHttp2ConnectionHandlerBuilder decoderEnforceMaxRstFramesPerWindow(int maxRstFramesPerWindow,
                                                                                  int secondsPerWindow) {
        super.decoderEnforceMaxRstFramesPerWindow(maxRstFramesPerWindow, secondsPerWindow);
        // Netty keeps these private; the decoder this builder makes needs them too.
        assembly.decoderRstLimit(maxRstFramesPerWindow, secondsPerWindow);
        return this;
    }

    /**
     * As with Netty's builder: the handler is built around the given decoder and encoder, and the options that
     * make them cannot be set too. This builder makes no reader then: for pooled frames, give the decoder a
     * {@link PooledHttp2FrameReader} ({@code new DefaultHttp2ConnectionDecoder(connection, encoder, new
     * PooledHttp2FrameReader())}); {@link #paranoid}, {@link #reuseFrames}, {@link #strictStreamStates} and
     * {@link #streamPriorities} do not apply.
     */
    @Override
    public PooledHttp2ConnectionHandlerBuilder codec(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder) {
        return super.codec(decoder, encoder);
    }

    /**
     * Makes the handler as Netty's builder would from the same settings, with the pooled reader; or around the
     * decoder and encoder given to {@link #codec}, as Netty's builder does.
     */
    @Override
    public Http2ConnectionHandler build() {
        if (decoder() != null) {
            return super.build();
        }
        PooledConnectionAssembly.NettyOptions netty = new PooledConnectionAssembly.NettyOptions();
        netty.server = isServer();
        netty.maxReservedStreams = maxReservedStreams();
        netty.connection = connection();
        netty.initialSettings = initialSettings();
        netty.validateHeaders = isValidateHeaders();
        netty.autoAckSettings = isAutoAckSettingsFrame();
        netty.autoAckPing = isAutoAckPingFrame();
        netty.maxSmallContinuationFrames = decoderEnforceMaxSmallContinuationFrames();
        netty.maxConsecutiveEmptyDataFrames = decoderEnforceMaxConsecutiveEmptyDataFrames();
        netty.maxQueuedControlFrames = encoderEnforceMaxQueuedControlFrames();
        netty.encoderEnforceMaxConcurrentStreams = encoderEnforceMaxConcurrentStreams();
        netty.frameLogger = frameLogger();
        netty.promisedRequestVerifier = promisedRequestVerifier();
        netty.headerSensitivityDetector = headerSensitivityDetector();
        netty.gracefulShutdownTimeoutMillis = gracefulShutdownTimeoutMillis();
        netty.frameListener = frameListener();
        return assembly.build(netty, (decoder, encoder, settings, reader) ->
                new Handler(decoder, encoder, settings, decoupleCloseAndGoAway(), flushPreface(), reader));
    }

    /** Netty's handler around the given decoder and encoder, as Netty's {@code Http2ConnectionHandlerBuilder} makes. */
    @Override
    protected Http2ConnectionHandler build(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder,
                                           Http2Settings initialSettings) {
        return new Handler(decoder, encoder, initialSettings, decoupleCloseAndGoAway(), flushPreface(), null);
    }

    /**
     * Netty's handler (its constructor is protected), which when removed from a live pipeline has the pooled reader
     * let go of what it holds (see the reader's {@code handlerRemoved}).
     */
    private static final class Handler extends Http2ConnectionHandler implements StreamCloseListener.Closer {
        /** Null for a handler around a decoder the builder did not make. */
        private final PooledHttp2FrameReader reader;

        Handler(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings initialSettings,
                boolean decoupleCloseAndGoAway, boolean flushPreface, PooledHttp2FrameReader reader) {
            super(decoder, encoder, initialSettings, decoupleCloseAndGoAway, flushPreface);
            this.reader = reader;
        }

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
                if (reader != null) {
                    reader.handlerRemoved(ctx);
                }
            }
        }
    }
}
