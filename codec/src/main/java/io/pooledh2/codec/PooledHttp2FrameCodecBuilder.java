/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2FrameLogger;
import io.netty.handler.codec.http2.Http2FrameWriter;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

import java.lang.reflect.Field;

/**
 * Builds an {@link Http2FrameCodec} that reads with {@link PooledHttp2FrameReader}: its inbound frames are the
 * reader's pooled frames, each carrying the codec's own {@code Http2FrameStream}, so {@code Http2MultiplexHandler},
 * {@code Http2StreamChannelBootstrap} and existing handlers work unchanged. Use it where
 * {@link Http2FrameCodecBuilder} stood; it has the same options and the same protections (Netty's control-frame,
 * RST, empty-DATA and RST-flood limits, with Netty's defaults, counting and errors).
 *
 * <p>Every inbound frame is a {@link PooledHttp2Frame} that the receiving handler releases, as with Netty's
 * frames; releasing it promptly, during {@code channelRead}, is what lets the reader reuse it. PUSH_PROMISE
 * frames are Netty's own, because their promised stream can only be made by Netty's codec. Flow control is
 * Netty's: DATA bytes return to the window when the consumer says they are consumed.
 */
public class PooledHttp2FrameCodecBuilder extends Http2FrameCodecBuilder {

    private static final InternalLogger logger = InternalLoggerFactory.getInstance(PooledHttp2FrameCodecBuilder.class);
    /**
     * Netty's builder's private frame writer, set only through its package-private {@code frameWriter(..)}: Netty's
     * own tests ({@code Http2FrameCodecTest}, {@code Http2MultiplexHandlerTest}) put a mock writer in the codec that
     * way; reading it lets those tests run unchanged against this builder. Null where Netty's module is not open to
     * reflection (the module path), where nothing outside Netty's package can set it anyway.
     */
    private static final Field NETTY_FRAME_WRITER = nettyFrameWriterField();

    /** Netty's {@code validateRequiredPseudoHeaders(boolean)}, from 4.2.16 on; {@code null} before. */
    private static final MethodHandle SUPER_VALIDATE_REQUIRED_PSEUDO_HEADERS =
            NettyApi.superMethod(MethodHandles.lookup(), Http2FrameCodecBuilder.class,
                    "validateRequiredPseudoHeaders", Http2FrameCodecBuilder.class, boolean.class);

    private final PooledConnectionAssembly assembly = new PooledConnectionAssembly();

    PooledHttp2FrameCodecBuilder(boolean server) {
        server(server);
        // Netty's frame codec builder starts from no graceful-shutdown wait; so does this one.
        gracefulShutdownTimeoutMillis(0);
    }

    /** {@return a builder for the client side} */
    public static PooledHttp2FrameCodecBuilder forClient() {
        return new PooledHttp2FrameCodecBuilder(false);
    }

    /** {@return a builder for the server side} */
    public static PooledHttp2FrameCodecBuilder forServer() {
        return new PooledHttp2FrameCodecBuilder(true);
    }

    /**
     * Paranoid mode for the reader (see {@link PooledHttp2FrameReader#paranoid(boolean)}); default: the system
     * property.
     *
     * @param paranoid {@code true}: inbound frames are never reused and any access to a released one throws
     * @return this builder
     */
    public PooledHttp2FrameCodecBuilder paranoid(boolean paranoid) {
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
    public PooledHttp2FrameCodecBuilder strictStreamStates(boolean strictStreamStates) {
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
    public PooledHttp2FrameCodecBuilder streamPriorities(boolean streamPriorities) {
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
    public PooledHttp2FrameCodecBuilder reuseFrames(boolean reuseFrames) {
        assembly.reuseFrames(reuseFrames);
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

    /**
     * As on Netty's builder, which has this option from Netty 4.2.16 on. On an older Netty, {@code true} throws
     * {@link UnsupportedOperationException} at once and {@code false}, that Netty's only behaviour, is accepted.
     *
     * @see #isValidateRequiredPseudoHeadersSupported()
     */
    public PooledHttp2FrameCodecBuilder validateRequiredPseudoHeaders(boolean validateRequiredPseudoHeaders) {
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
    public PooledHttp2FrameCodecBuilder headerSensitivityDetector(
            Http2HeadersEncoder.SensitivityDetector headerSensitivityDetector) {
        super.headerSensitivityDetector(headerSensitivityDetector);
        return this;
    }

    /**
     * Does nothing, as in Netty 4.2; here so that code written against Netty's builder compiles unchanged.
     *
     * @deprecated as in Netty: its HPACK decoder no longer takes an initial Huffman capacity
     */
    @Deprecated
    @Override
    public PooledHttp2FrameCodecBuilder initialHuffmanDecodeCapacity(int initialHuffmanDecodeCapacity) {
        super.initialHuffmanDecodeCapacity(initialHuffmanDecodeCapacity);
        return this;
    }

    @Override
    public PooledHttp2FrameCodecBuilder encoderIgnoreMaxHeaderListSize(boolean ignoreMaxHeaderListSize) {
        super.encoderIgnoreMaxHeaderListSize(ignoreMaxHeaderListSize);
        // Netty keeps this private; the frame writer this builder makes needs it too.
        assembly.encoderIgnoreMaxHeaderListSize(ignoreMaxHeaderListSize);
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
    public PooledHttp2FrameCodecBuilder encoderEnforceMaxRstFramesPerWindow(int maxRstFramesPerWindow,
                                                                           int secondsPerWindow) {
        super.encoderEnforceMaxRstFramesPerWindow(maxRstFramesPerWindow, secondsPerWindow);
        // Netty keeps these private; the encoder this builder makes needs them too.
        assembly.encoderRstLimit(maxRstFramesPerWindow, secondsPerWindow);
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
        assembly.decoderRstLimit(maxRstFramesPerWindow, secondsPerWindow);
        return this;
    }

    /**
     * Makes the codec as Netty's builder would from the same settings, with the pooled reader
     * ({@link PooledConnectionAssembly}). Netty's {@code build(decoder, encoder, initialSettings)} is not used.
     */
    @Override
    public Http2FrameCodec build() {
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
        netty.frameWriter = nettyFrameWriter();
        boolean decoupleCloseAndGoAway = decoupleCloseAndGoAway();
        boolean flushPreface = flushPreface();
        return assembly.build(netty, (decoder, encoder, settings, reader) -> new PooledHttp2FrameCodec(encoder,
                decoder, settings, decoupleCloseAndGoAway, flushPreface, reader));
    }

    private static Field nettyFrameWriterField() {
        try {
            Field field = Http2FrameCodecBuilder.class.getDeclaredField("frameWriter");
            if (field.getType() != Http2FrameWriter.class) {
                return null;
            }
            field.setAccessible(true);
            return field;
        } catch (ReflectiveOperationException | RuntimeException e) {
            logger.debug("Http2FrameCodecBuilder.frameWriter not readable: a writer set through it is not used", e);
            return null;
        }
    }

    /** The writer Netty's package-private {@code frameWriter(..)} set, or {@code null}. */
    private Http2FrameWriter nettyFrameWriter() {
        if (NETTY_FRAME_WRITER == null) {
            return null;
        }
        try {
            return (Http2FrameWriter) NETTY_FRAME_WRITER.get(this);
        } catch (IllegalAccessException e) {
            return null;
        }
    }
}
