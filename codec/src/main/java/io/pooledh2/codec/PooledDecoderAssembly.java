/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.DefaultHttp2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2FrameLogger;
import io.netty.handler.codec.http2.Http2FrameReader;
import io.netty.handler.codec.http2.Http2InboundFrameLogger;
import io.netty.handler.codec.http2.Http2PromisedRequestVerifier;
import io.netty.handler.codec.http2.Http2Settings;

/**
 * How the builders put the pooled reader into a connection: Netty's builder makes the connection and the
 * protected encoder (control-frame and RST limits) and calls the builder's {@code build(decoder, encoder,
 * settings)} with a decoder around {@code DefaultHttp2FrameReader}. That decoder is closed unused; a decoder
 * around the pooled reader takes its place, with Netty's decoder protections (empty-DATA and RST-flood limits)
 * as {@link DecoderFloodLimits}: the same limits in one object instead of Netty's four. Public API only, so it
 * works on the module path too. Unless turned off, the decoder reads
 * through {@link StreamStateChecks}, the RFC 9113 stream-state rules Netty's decoder leaves out.
 */
final class PooledDecoderAssembly {

    /** Makes the handler once the decoder is protected. */
    interface HandlerFactory {
        Http2ConnectionHandler create(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder,
                                      Http2Settings initialSettings, PooledHttp2FrameReader reader);
    }

    /** Netty's default for the RST flood limit on a server: 200 RST_STREAM frames per 30 seconds. */
    private static final int DEFAULT_SERVER_MAX_RST_FRAMES = 200;
    private static final int DEFAULT_RST_SECONDS_PER_WINDOW = 30;

    private Boolean paranoid;
    private Boolean reuseFrames;
    private boolean strictStreamStates = true;
    // Netty keeps the decoder's RST limit private; the builders record it here as it is set.
    private Integer maxRstFramesPerWindow;
    private int rstSecondsPerWindow = DEFAULT_RST_SECONDS_PER_WINDOW;

    void paranoid(boolean paranoid) {
        this.paranoid = paranoid;
    }

    void reuseFrames(boolean reuseFrames) {
        this.reuseFrames = reuseFrames;
    }

    void strictStreamStates(boolean strictStreamStates) {
        this.strictStreamStates = strictStreamStates;
    }

    void decoderRstLimit(int maxRstFramesPerWindow, int secondsPerWindow) {
        this.maxRstFramesPerWindow = maxRstFramesPerWindow;
        rstSecondsPerWindow = secondsPerWindow;
    }

    /** The values of the calling builder that Netty's builder gives its own decoder. */
    static final class NettyOptions {
        final boolean server;
        final boolean validateHeaders;
        final boolean validateRequiredPseudoHeaders;
        final boolean autoAckSettings;
        final boolean autoAckPing;
        final int maxSmallContinuationFrames;
        final int maxConsecutiveEmptyDataFrames;
        final Http2FrameLogger frameLogger;
        final Http2PromisedRequestVerifier promisedRequestVerifier;

        NettyOptions(boolean server, boolean validateHeaders, boolean validateRequiredPseudoHeaders,
                     boolean autoAckSettings, boolean autoAckPing, int maxSmallContinuationFrames,
                     int maxConsecutiveEmptyDataFrames, Http2FrameLogger frameLogger,
                     Http2PromisedRequestVerifier promisedRequestVerifier) {
            this.server = server;
            this.validateHeaders = validateHeaders;
            this.validateRequiredPseudoHeaders = validateRequiredPseudoHeaders;
            this.autoAckSettings = autoAckSettings;
            this.autoAckPing = autoAckPing;
            this.maxSmallContinuationFrames = maxSmallContinuationFrames;
            this.maxConsecutiveEmptyDataFrames = maxConsecutiveEmptyDataFrames;
            this.frameLogger = frameLogger;
            this.promisedRequestVerifier = promisedRequestVerifier;
        }
    }

    Http2ConnectionHandler build(Http2ConnectionDecoder stockDecoder, Http2ConnectionEncoder encoder,
                                 Http2Settings initialSettings, NettyOptions netty, HandlerFactory factory) {
        stockDecoder.close();
        PooledHttp2FrameReader reader = newReader(initialSettings, netty);
        Http2FrameReader frameReader =
                netty.frameLogger == null ? reader : new Http2InboundFrameLogger(reader, netty.frameLogger);
        if (strictStreamStates) {
            // Outside the logger, so that a frame the checks refuse is still logged as it arrived.
            frameReader = new StreamStateChecks(frameReader, encoder.connection());
        }
        Http2ConnectionDecoder decoder = new DefaultHttp2ConnectionDecoder(encoder.connection(), encoder, frameReader,
                netty.promisedRequestVerifier, netty.autoAckSettings, netty.autoAckPing, netty.validateHeaders,
                netty.validateRequiredPseudoHeaders);
        int maxRstFrames = maxRstFramesPerWindow != null ? maxRstFramesPerWindow
                : netty.server ? DEFAULT_SERVER_MAX_RST_FRAMES : 0;
        Http2ConnectionDecoder limited = DecoderFloodLimits.wrap(decoder, netty.maxConsecutiveEmptyDataFrames,
                maxRstFrames, rstSecondsPerWindow);
        try {
            return factory.create(limited, encoder, initialSettings, reader);
        } catch (Throwable t) {
            // Netty's builder closes the decoder it made; this one is not it.
            limited.close();
            throw t;
        }
    }

    /** The reader Netty's builder would make, with the same header decoder settings. */
    private PooledHttp2FrameReader newReader(Http2Settings initialSettings, NettyOptions netty) {
        Long maxHeaderListSize = initialSettings.maxHeaderListSize();
        // The constructors Netty's builder uses, so that value validation and limits are the same.
        PooledHttp2HeadersDecoder headersDecoder = maxHeaderListSize == null
                ? new PooledHttp2HeadersDecoder(netty.validateHeaders)
                : new PooledHttp2HeadersDecoder(netty.validateHeaders, maxHeaderListSize);
        PooledHttp2FrameReader reader = new PooledHttp2FrameReader(headersDecoder, netty.maxSmallContinuationFrames);
        if (paranoid != null) {
            reader.paranoid(paranoid);
        }
        if (reuseFrames != null) {
            reader.reuseFrames(reuseFrames);
        }
        return reader;
    }
}
