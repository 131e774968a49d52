/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionDecoder;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionEncoder;
import io.netty.handler.codec.http2.DefaultHttp2LocalFlowController;
import io.netty.handler.codec.http2.DefaultHttp2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2FrameLogger;
import io.netty.handler.codec.http2.Http2FrameReader;
import io.netty.handler.codec.http2.Http2FrameWriter;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import io.netty.handler.codec.http2.Http2InboundFrameLogger;
import io.netty.handler.codec.http2.Http2OutboundFrameLogger;
import io.netty.handler.codec.http2.Http2PromisedRequestVerifier;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.StreamBufferingEncoder;

/**
 * How the builders make a connection: what Netty's builder makes from the same settings (connection, frame
 * writer, encoder, decoder, frame loggers, {@code StreamBufferingEncoder}), in the same order and with the same
 * errors, with the pooled reader in the decoder and {@link PooledHttp2ConnectionEncoder} as the encoder. Netty's builder cannot be given a reader, so it is not used:
 * it would make a decoder around {@code DefaultHttp2FrameReader} first, whose property key stays with the
 * connection. With {@code streamPriorities(false)} the remote flow controller is Netty's around a
 * {@link RoundRobinStreamByteDistributor} instead of Netty's weighted fair queue. Netty's four protections are {@link EncoderFloodLimits} and {@link DecoderFloodLimits}, the same
 * limits in two objects instead of Netty's seven, because Netty's classes are package-private. Unless turned off,
 * the decoder reads through {@link StreamStateChecks}, the RFC 9113 stream-state rules Netty's decoder leaves out.
 * Public API only, so it works on the module path too.
 */
final class PooledConnectionAssembly {

    /** Makes the handler from the protected decoder and encoder. */
    interface HandlerFactory<T extends Http2ConnectionHandler> {
        T create(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings initialSettings,
                 PooledHttp2FrameReader reader);
    }

    /** Netty's defaults for the RST limits on a server: 200 RST_STREAM frames per 30 seconds each way. */
    private static final int DEFAULT_SERVER_MAX_RST_FRAMES = 200;
    private static final int DEFAULT_RST_SECONDS_PER_WINDOW = 30;

    private Boolean paranoid;
    private Boolean reuseFrames;
    private boolean strictStreamStates = true;
    private boolean streamPriorities = true;
    // Netty's builder keeps these private; the builders record them here as they are set.
    private Integer maxDecodedRstFrames;
    private int decodedRstSeconds = DEFAULT_RST_SECONDS_PER_WINDOW;
    private Integer maxEncodedRstFrames;
    private int encodedRstSeconds = DEFAULT_RST_SECONDS_PER_WINDOW;
    private Boolean encoderIgnoreMaxHeaderListSize;
    // Netty's getter for it exists from 4.2.16 on only.
    private boolean validateRequiredPseudoHeaders;

    void paranoid(boolean paranoid) {
        this.paranoid = paranoid;
    }

    void streamPriorities(boolean streamPriorities) {
        this.streamPriorities = streamPriorities;
    }

    void reuseFrames(boolean reuseFrames) {
        this.reuseFrames = reuseFrames;
    }

    void strictStreamStates(boolean strictStreamStates) {
        this.strictStreamStates = strictStreamStates;
    }

    void decoderRstLimit(int maxRstFramesPerWindow, int secondsPerWindow) {
        maxDecodedRstFrames = maxRstFramesPerWindow;
        decodedRstSeconds = secondsPerWindow;
    }

    void encoderRstLimit(int maxRstFramesPerWindow, int secondsPerWindow) {
        maxEncodedRstFrames = maxRstFramesPerWindow;
        encodedRstSeconds = secondsPerWindow;
    }

    void validateRequiredPseudoHeaders(boolean validateRequiredPseudoHeaders) {
        this.validateRequiredPseudoHeaders = validateRequiredPseudoHeaders;
    }

    void encoderIgnoreMaxHeaderListSize(boolean ignoreMaxHeaderListSize) {
        encoderIgnoreMaxHeaderListSize = ignoreMaxHeaderListSize;
    }

    /** The calling builder's values, read through Netty's protected getters, which only the builder can call. */
    static final class NettyOptions {
        boolean server;
        int maxReservedStreams;
        /** The connection the builder was given, or {@code null} for a new one. */
        Http2Connection connection;
        Http2Settings initialSettings;
        boolean validateHeaders;
        boolean autoAckSettings;
        boolean autoAckPing;
        int maxSmallContinuationFrames;
        int maxConsecutiveEmptyDataFrames;
        int maxQueuedControlFrames;
        boolean encoderEnforceMaxConcurrentStreams;
        Http2FrameLogger frameLogger;
        Http2PromisedRequestVerifier promisedRequestVerifier;
        Http2HeadersEncoder.SensitivityDetector headerSensitivityDetector;
        long gracefulShutdownTimeoutMillis;
        /** The listener path's listener; {@code null} for a frame codec, which installs its own. */
        Http2FrameListener frameListener;
        /** A frame writer to use instead of a new {@code DefaultHttp2FrameWriter}, or {@code null}. */
        Http2FrameWriter frameWriter;
    }

    <T extends Http2ConnectionHandler> T build(NettyOptions netty, HandlerFactory<T> factory) {
        // A frame writer given through Netty's package-private hook is Netty's own tests' mock. Netty's builder
        // then makes a bare connection: always a new one, no peer stream limit from the initial settings, no
        // flood limits but the empty-DATA one, no refusal of a buffering server. So does this one, with the
        // pooled reader and its stream-state checks, so that those tests meet what they expect of Netty's.
        boolean nettyTest = netty.frameWriter != null;
        Http2Connection connection = netty.connection != null && !nettyTest ? netty.connection
                : new DefaultHttp2Connection(netty.server, netty.maxReservedStreams);
        Long maxConcurrentStreams = netty.initialSettings.maxConcurrentStreams();
        if (maxConcurrentStreams != null && !nettyTest) {
            connection.remote().maxActiveStreams((int) Math.min(maxConcurrentStreams, Integer.MAX_VALUE));
        }
        PooledHttp2FrameReader reader = newReader(netty);
        Http2FrameReader frameReader = reader;
        Http2FrameWriter writer = nettyTest ? netty.frameWriter
                : encoderIgnoreMaxHeaderListSize == null
                ? new PooledHttp2FrameWriter(netty.headerSensitivityDetector)
                : new PooledHttp2FrameWriter(netty.headerSensitivityDetector, encoderIgnoreMaxHeaderListSize);
        if (netty.frameLogger != null) {
            frameReader = new Http2InboundFrameLogger(reader, netty.frameLogger);
            writer = new Http2OutboundFrameLogger(writer, netty.frameLogger);
        }
        if (!streamPriorities) {
            if (connection.remote().flowController() != null) {
                frameReader.close();
                writer.close();
                throw new IllegalStateException("streamPriorities(false): the connection given to the builder has a "
                        + "remote flow controller already, with its own scheduling");
            }
            // Made first, as the encoder would make Netty's: the same property keys in the same order.
            connection.remote().flowController(new DefaultHttp2RemoteFlowController(connection,
                    new RoundRobinStreamByteDistributor(connection)));
        }
        Http2ConnectionEncoder encoder = new PooledHttp2ConnectionEncoder(connection, writer);
        if (!nettyTest) {
            encoder = EncoderFloodLimits.wrap(encoder, netty.maxQueuedControlFrames,
                    rstLimit(maxEncodedRstFrames, netty.server), encodedRstSeconds);
        }
        if (netty.encoderEnforceMaxConcurrentStreams) {
            if (connection.isServer() && !nettyTest) {
                encoder.close();
                frameReader.close();
                throw new IllegalArgumentException("encoderEnforceMaxConcurrentStreams: true not supported for server");
            }
            encoder = new StreamBufferingEncoder(encoder);
        }
        if (connection.local().flowController() == null) {
            // What the decoder's constructor does, done first so that the connection's listeners are in the order
            // they have under Netty's builder: the flow controllers', then the checks'.
            connection.local().flowController(new DefaultHttp2LocalFlowController(connection));
        }
        if (strictStreamStates) {
            // Outside the logger, so that a frame the checks refuse is still logged as it arrived.
            frameReader = new StreamStateChecks(frameReader, reader, connection);
        }
        Http2ConnectionDecoder decoder = DecoderFloodLimits.wrap(NettyApi.newDecoder(connection, encoder, frameReader,
                        netty.promisedRequestVerifier, netty.autoAckSettings, netty.autoAckPing, netty.validateHeaders,
                        validateRequiredPseudoHeaders), netty.maxConsecutiveEmptyDataFrames,
                nettyTest ? 0 : rstLimit(maxDecodedRstFrames, netty.server), decodedRstSeconds);
        T handler;
        try {
            handler = factory.create(decoder, encoder, netty.initialSettings, reader);
        } catch (Throwable t) {
            encoder.close();
            decoder.close();
            throw new IllegalStateException("failed to build an Http2ConnectionHandler", t);
        }
        handler.gracefulShutdownTimeoutMillis(netty.gracefulShutdownTimeoutMillis);
        if (handler.decoder().frameListener() == null) {
            handler.decoder().frameListener(netty.frameListener);
        }
        return handler;
    }

    private static int rstLimit(Integer set, boolean server) {
        return set != null ? set : server ? DEFAULT_SERVER_MAX_RST_FRAMES : 0;
    }

    /** The reader Netty's builder would make, with the same header decoder settings. */
    private PooledHttp2FrameReader newReader(NettyOptions netty) {
        Long maxHeaderListSize = netty.initialSettings.maxHeaderListSize();
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
