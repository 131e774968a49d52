/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.DefaultHttp2ConnectionDecoder;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2FrameLogger;
import io.netty.handler.codec.http2.Http2FrameReader;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import io.netty.handler.codec.http2.Http2InboundFrameLogger;
import io.netty.handler.codec.http2.Http2Settings;

/**
 * Builds an {@link Http2FrameCodec} that reads with {@link PooledHttp2FrameReader}: its inbound frames are the
 * reader's pooled frames, each carrying the codec's own {@code Http2FrameStream}, so {@code Http2MultiplexHandler},
 * {@code Http2StreamChannelBootstrap} and existing handlers work unchanged. Use it where
 * {@link Http2FrameCodecBuilder} stood; it has the same options, and the same protections: Netty's own builder
 * makes the encoder (control-frame and RST limits), and Netty's decoder decorators (empty-DATA and RST-flood
 * limits) wrap the decoder.
 *
 * <p>Every inbound frame is a {@link PooledHttp2Frame} that the receiving handler releases, as with Netty's
 * frames; releasing it promptly, during {@code channelRead}, is what lets the reader reuse it. PUSH_PROMISE
 * frames are Netty's own, because their promised stream can only be made by Netty's codec. Flow control is
 * Netty's: DATA bytes return to the window when the consumer says they are consumed.
 */
public class PooledHttp2FrameCodecBuilder extends Http2FrameCodecBuilder {

    /** Netty's default for the RST flood limit on a server: 200 RST_STREAM frames per 30 seconds. */
    private static final int DEFAULT_SERVER_MAX_RST_FRAMES = 200;
    private static final int DEFAULT_RST_SECONDS_PER_WINDOW = 30;

    private Integer decoderMaxRstFramesPerWindow;
    private int decoderRstSecondsPerWindow = DEFAULT_RST_SECONDS_PER_WINDOW;
    private Boolean paranoid;
    private Boolean reuseFrames;

    PooledHttp2FrameCodecBuilder(boolean server) {
        server(server);
        // Netty's frame codec builder starts from no graceful-shutdown wait; so does this one.
        gracefulShutdownTimeoutMillis(0);
    }

    /** A builder for the client side. */
    public static PooledHttp2FrameCodecBuilder forClient() {
        return new PooledHttp2FrameCodecBuilder(false);
    }

    /** A builder for the server side. */
    public static PooledHttp2FrameCodecBuilder forServer() {
        return new PooledHttp2FrameCodecBuilder(true);
    }

    /** Paranoid mode for the reader (see {@link PooledHttp2FrameReader#paranoid(boolean)}); default: the system property. */
    public PooledHttp2FrameCodecBuilder paranoid(boolean paranoid) {
        this.paranoid = paranoid;
        return this;
    }

    /** Frame reuse for the reader (see {@link PooledHttp2FrameReader#reuseFrames(boolean)}); default: the system property. */
    public PooledHttp2FrameCodecBuilder reuseFrames(boolean reuseFrames) {
        this.reuseFrames = reuseFrames;
        return this;
    }

    @Override
    public PooledHttp2FrameCodecBuilder initialSettings(Http2Settings settings) {
        super.initialSettings(settings);
        return this;
    }

    @Override
    public PooledHttp2FrameCodecBuilder gracefulShutdownTimeoutMillis(long gracefulShutdownTimeoutMillis) {
        super.gracefulShutdownTimeoutMillis(gracefulShutdownTimeoutMillis);
        return this;
    }

    @Override
    public PooledHttp2FrameCodecBuilder maxReservedStreams(int maxReservedStreams) {
        super.maxReservedStreams(maxReservedStreams);
        return this;
    }

    @Override
    public PooledHttp2FrameCodecBuilder validateHeaders(boolean validateHeaders) {
        super.validateHeaders(validateHeaders);
        return this;
    }

    @Override
    public PooledHttp2FrameCodecBuilder validateRequiredPseudoHeaders(boolean validateRequiredPseudoHeaders) {
        super.validateRequiredPseudoHeaders(validateRequiredPseudoHeaders);
        return this;
    }

    @Override
    public PooledHttp2FrameCodecBuilder frameLogger(Http2FrameLogger frameLogger) {
        super.frameLogger(frameLogger);
        return this;
    }

    @Override
    public PooledHttp2FrameCodecBuilder encoderEnforceMaxConcurrentStreams(boolean encoderEnforceMaxConcurrentStreams) {
        super.encoderEnforceMaxConcurrentStreams(encoderEnforceMaxConcurrentStreams);
        return this;
    }

    @Override
    public PooledHttp2FrameCodecBuilder encoderEnforceMaxQueuedControlFrames(int maxQueuedControlFrames) {
        super.encoderEnforceMaxQueuedControlFrames(maxQueuedControlFrames);
        return this;
    }

    @Override
    public PooledHttp2FrameCodecBuilder headerSensitivityDetector(Http2HeadersEncoder.SensitivityDetector headerSensitivityDetector) {
        super.headerSensitivityDetector(headerSensitivityDetector);
        return this;
    }

    @Override
    public PooledHttp2FrameCodecBuilder encoderIgnoreMaxHeaderListSize(boolean ignoreMaxHeaderListSize) {
        super.encoderIgnoreMaxHeaderListSize(ignoreMaxHeaderListSize);
        return this;
    }

    @Override
    public PooledHttp2FrameCodecBuilder autoAckSettingsFrame(boolean autoAckSettings) {
        super.autoAckSettingsFrame(autoAckSettings);
        return this;
    }

    @Override
    public PooledHttp2FrameCodecBuilder autoAckPingFrame(boolean autoAckPingFrame) {
        super.autoAckPingFrame(autoAckPingFrame);
        return this;
    }

    @Override
    public PooledHttp2FrameCodecBuilder decoupleCloseAndGoAway(boolean decoupleCloseAndGoAway) {
        super.decoupleCloseAndGoAway(decoupleCloseAndGoAway);
        return this;
    }

    @Override
    public PooledHttp2FrameCodecBuilder flushPreface(boolean flushPreface) {
        super.flushPreface(flushPreface);
        return this;
    }

    @Override
    public PooledHttp2FrameCodecBuilder decoderEnforceMaxConsecutiveEmptyDataFrames(int maxConsecutiveEmptyFrames) {
        super.decoderEnforceMaxConsecutiveEmptyDataFrames(maxConsecutiveEmptyFrames);
        return this;
    }

    @Override
    public PooledHttp2FrameCodecBuilder encoderEnforceMaxRstFramesPerWindow(int maxRstFramesPerWindow, int secondsPerWindow) {
        super.encoderEnforceMaxRstFramesPerWindow(maxRstFramesPerWindow, secondsPerWindow);
        return this;
    }

    @Override
    public PooledHttp2FrameCodecBuilder decoderEnforceMaxSmallContinuationFrames(int maxSmallContinuationFrames) {
        super.decoderEnforceMaxSmallContinuationFrames(maxSmallContinuationFrames);
        return this;
    }

    @Override
    public PooledHttp2FrameCodecBuilder decoderEnforceMaxRstFramesPerWindow(int maxRstFramesPerWindow,
                                                                           int secondsPerWindow) {
        super.decoderEnforceMaxRstFramesPerWindow(maxRstFramesPerWindow, secondsPerWindow);
        // Netty keeps these private; the decoder this builder makes needs them too.
        decoderMaxRstFramesPerWindow = maxRstFramesPerWindow;
        decoderRstSecondsPerWindow = secondsPerWindow;
        return this;
    }

    @Override
    public Http2FrameCodec build() {
        return super.build();
    }

    /**
     * Netty's builder calls this with the connection and the protected encoder it made, and a decoder around
     * {@code DefaultHttp2FrameReader}. That decoder is closed unused; a decoder around the pooled reader takes
     * its place, wrapped in Netty's decoder protections by {@link DecoderProtections}.
     */
    @Override
    protected Http2FrameCodec build(Http2ConnectionDecoder stockDecoder, Http2ConnectionEncoder encoder,
                                    Http2Settings initialSettings) {
        stockDecoder.close();
        PooledHttp2FrameReader reader = newReader(initialSettings);
        Http2FrameReader frameReader = frameLogger() == null ? reader : new Http2InboundFrameLogger(reader, frameLogger());
        Http2ConnectionDecoder decoder = new DefaultHttp2ConnectionDecoder(encoder.connection(), encoder, frameReader,
                promisedRequestVerifier(), isAutoAckSettingsFrame(), isAutoAckPingFrame(), isValidateHeaders(),
                isValidateRequiredPseudoHeaders());
        int maxRstFrames = decoderMaxRstFramesPerWindow != null ? decoderMaxRstFramesPerWindow
                : isServer() ? DEFAULT_SERVER_MAX_RST_FRAMES : 0;
        PooledHttp2FrameCodec codec = new DecoderProtections(reader, decoupleCloseAndGoAway(), flushPreface())
                .wrap(decoder, encoder, initialSettings, decoderEnforceMaxConsecutiveEmptyDataFrames(), maxRstFrames,
                        decoderRstSecondsPerWindow);
        codec.gracefulShutdownTimeoutMillis(gracefulShutdownTimeoutMillis());
        return codec;
    }

    /** The reader Netty's builder would make, with the same header decoder settings. */
    private PooledHttp2FrameReader newReader(Http2Settings initialSettings) {
        Long maxHeaderListSize = initialSettings.maxHeaderListSize();
        DefaultHttp2HeadersDecoder headersDecoder = maxHeaderListSize == null
                ? new DefaultHttp2HeadersDecoder(isValidateHeaders())
                : new DefaultHttp2HeadersDecoder(isValidateHeaders(), maxHeaderListSize);
        PooledHttp2FrameReader reader =
                new PooledHttp2FrameReader(headersDecoder, decoderEnforceMaxSmallContinuationFrames());
        if (paranoid != null) {
            reader.paranoid(paranoid);
        }
        if (reuseFrames != null) {
            reader.reuseFrames(reuseFrames);
        }
        return reader;
    }

    /**
     * Netty adds its decoder protections only to a decoder given to a builder's {@code codec(...)}, which a
     * builder configured as server or client refuses; this builder is given nothing else.
     */
    private static final class DecoderProtections extends Http2FrameCodecBuilder {
        private final PooledHttp2FrameReader reader;
        private final boolean decoupleCloseAndGoAway;
        private final boolean flushPreface;

        DecoderProtections(PooledHttp2FrameReader reader, boolean decoupleCloseAndGoAway, boolean flushPreface) {
            this.reader = reader;
            this.decoupleCloseAndGoAway = decoupleCloseAndGoAway;
            this.flushPreface = flushPreface;
        }

        PooledHttp2FrameCodec wrap(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder,
                                   Http2Settings initialSettings, int maxConsecutiveEmptyDataFrames,
                                   int maxRstFramesPerWindow, int rstSecondsPerWindow) {
            // Limits first: Netty refuses them once a codec is set.
            decoderEnforceMaxConsecutiveEmptyDataFrames(maxConsecutiveEmptyDataFrames);
            decoderEnforceMaxRstFramesPerWindow(maxRstFramesPerWindow, rstSecondsPerWindow);
            initialSettings(initialSettings);
            codec(decoder, encoder);
            return (PooledHttp2FrameCodec) build();
        }

        @Override
        protected Http2FrameCodec build(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder,
                                        Http2Settings initialSettings) {
            return new PooledHttp2FrameCodec(encoder, decoder, initialSettings, decoupleCloseAndGoAway, flushPreface,
                    reader);
        }
    }
}
