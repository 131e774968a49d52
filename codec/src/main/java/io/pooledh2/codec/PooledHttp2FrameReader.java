/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2FrameReader;
import io.netty.handler.codec.http2.Http2FrameSizePolicy;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersDecoder;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.util.internal.ObjectUtil;
import io.netty.util.internal.PlatformDependent;
import io.netty.util.internal.SystemPropertyUtil;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import static io.netty.handler.codec.http2.Http2CodecUtil.DEFAULT_MAX_FRAME_SIZE;
import static io.netty.handler.codec.http2.Http2CodecUtil.FRAME_HEADER_LENGTH;
import static io.netty.handler.codec.http2.Http2CodecUtil.INT_FIELD_LENGTH;
import static io.netty.handler.codec.http2.Http2CodecUtil.PING_FRAME_PAYLOAD_LENGTH;
import static io.netty.handler.codec.http2.Http2CodecUtil.PRIORITY_ENTRY_LENGTH;
import static io.netty.handler.codec.http2.Http2CodecUtil.SETTINGS_INITIAL_WINDOW_SIZE;
import static io.netty.handler.codec.http2.Http2CodecUtil.SETTING_ENTRY_LENGTH;
import static io.netty.handler.codec.http2.Http2CodecUtil.readUnsignedInt;
import static io.netty.handler.codec.http2.Http2Error.ENHANCE_YOUR_CALM;
import static io.netty.handler.codec.http2.Http2Error.FLOW_CONTROL_ERROR;
import static io.netty.handler.codec.http2.Http2Error.FRAME_SIZE_ERROR;
import static io.netty.handler.codec.http2.Http2Error.PROTOCOL_ERROR;
import static io.netty.handler.codec.http2.Http2Exception.connectionError;
import static io.netty.handler.codec.http2.Http2Exception.streamError;
import static io.netty.handler.codec.http2.Http2FrameTypes.CONTINUATION;
import static io.netty.handler.codec.http2.Http2FrameTypes.DATA;
import static io.netty.handler.codec.http2.Http2FrameTypes.GO_AWAY;
import static io.netty.handler.codec.http2.Http2FrameTypes.HEADERS;
import static io.netty.handler.codec.http2.Http2FrameTypes.PING;
import static io.netty.handler.codec.http2.Http2FrameTypes.PRIORITY;
import static io.netty.handler.codec.http2.Http2FrameTypes.PUSH_PROMISE;
import static io.netty.handler.codec.http2.Http2FrameTypes.RST_STREAM;
import static io.netty.handler.codec.http2.Http2FrameTypes.SETTINGS;
import static io.netty.handler.codec.http2.Http2FrameTypes.WINDOW_UPDATE;

/**
 * An {@link Http2FrameReader} that hands out recycled frame objects instead of allocating per frame, with the
 * validation, the errors and the listener calls of Netty's {@code DefaultHttp2FrameReader}.
 *
 * <h3>Two ways to use it</h3>
 * <ul>
 *   <li>As a drop-in reader: {@code new DefaultHttp2ConnectionDecoder(connection, encoder, new
 *       PooledHttp2FrameReader())}. {@link #readFrame(ChannelHandlerContext, ByteBuf, Http2FrameListener)}
 *       makes exactly the calls the stock reader makes. Anything the pooled frame would reuse and a listener
 *       could keep (the decoded headers, the settings map, an unknown frame's flags, GOAWAY debug data) is
 *       copied for the listener, unless {@link #listenerKeepsNothing(boolean)} says it keeps nothing.</li>
 *   <li>With frame objects: {@link #readFrame(ChannelHandlerContext, ByteBuf, PooledHttp2FrameListener)} hands
 *       each frame to the listener as a {@link PooledHttp2Frame}, which the listener must release.</li>
 * </ul>
 *
 * <h3>Reuse</h3>
 * The reader owns one frame of each type. When the listener releases it during the callback, the next frame of
 * that type is parsed into the same object; a frame the listener keeps is left to it, and the reader takes
 * another from a {@link io.netty.util.Recycler} (which recycles on Netty's event-loop threads). DATA payloads,
 * GOAWAY debug data and unknown payloads are retained slices of the input, with no copy. Header blocks decode
 * into the HEADERS or PUSH_PROMISE frame's own array-backed headers, reused with the frame (see
 * {@link PooledHttp2HeadersDecoder}; a caller-supplied decoder of another kind makes its own). Two system
 * properties, read when a reader is made:
 * <ul>
 *   <li>{@code io.pooledh2.reuseFrames} (default {@code true}): {@code false} makes every frame a new object,
 *       with behaviour otherwise identical.</li>
 *   <li>{@code io.pooledh2.paranoid} (default {@code false}): frames are never reused and any access to a
 *       released frame throws {@link io.netty.util.IllegalReferenceCountException}. Also settable per reader
 *       with {@link #paranoid(boolean)}.</li>
 * </ul>
 *
 * <p>Like the stock reader, an instance belongs to one connection and is not thread-safe; frames may be
 * released on any thread.
 */
public class PooledHttp2FrameReader implements Http2FrameReader, Http2FrameSizePolicy, Http2FrameReader.Configuration {

    /** System property: {@code false} turns frame reuse off. */
    public static final String REUSE_FRAMES_PROPERTY = "io.pooledh2.reuseFrames";
    /** System property: {@code true} turns paranoid mode on for every reader. */
    public static final String PARANOID_PROPERTY = "io.pooledh2.paranoid";

    private static final InternalLogger logger = InternalLoggerFactory.getInstance(PooledHttp2FrameReader.class);
    /** Netty's default for the CONTINUATION-flood limit. */
    private static final int DEFAULT_MAX_SMALL_CONTINUATION_FRAMES = 16;

    static {
        if (logger.isDebugEnabled()) {
            logger.debug("-D{}: {}", REUSE_FRAMES_PROPERTY, SystemPropertyUtil.getBoolean(REUSE_FRAMES_PROPERTY, true));
            logger.debug("-D{}: {}", PARANOID_PROPERTY, SystemPropertyUtil.getBoolean(PARANOID_PROPERTY, false));
        }
    }

    private final Http2HeadersDecoder headersDecoder;
    /** The decoder when it can decode into a frame's own headers; {@code null} for a caller's other decoder. */
    private final PooledHttp2HeadersDecoder pooledHeadersDecoder;
    private final int maxSmallContinuationFrames;
    private final HeaderBlock headerBlock;
    private final FrameListenerAdapter listenerAdapter = new FrameListenerAdapter();

    private final FrameSlot<PooledDataFrame> dataFrames = new FrameSlot<>(PooledDataFrame.POOL);
    private final FrameSlot<PooledHeadersFrame> headersFrames = new FrameSlot<>(PooledHeadersFrame.POOL);
    private final FrameSlot<PooledPriorityFrame> priorityFrames = new FrameSlot<>(PooledPriorityFrame.POOL);
    private final FrameSlot<PooledResetFrame> resetFrames = new FrameSlot<>(PooledResetFrame.POOL);
    private final FrameSlot<PooledSettingsFrame> settingsFrames = new FrameSlot<>(PooledSettingsFrame.POOL);
    private final FrameSlot<PooledSettingsAckFrame> settingsAckFrames = new FrameSlot<>(PooledSettingsAckFrame.POOL);
    private final FrameSlot<PooledPushPromiseFrame> pushPromiseFrames = new FrameSlot<>(PooledPushPromiseFrame.POOL);
    private final FrameSlot<PooledPingFrame> pingFrames = new FrameSlot<>(PooledPingFrame.POOL);
    private final FrameSlot<PooledGoAwayFrame> goAwayFrames = new FrameSlot<>(PooledGoAwayFrame.POOL);
    private final FrameSlot<PooledWindowUpdateFrame> windowUpdateFrames =
            new FrameSlot<>(PooledWindowUpdateFrame.POOL);
    private final FrameSlot<PooledUnknownFrame> unknownFrames = new FrameSlot<>(PooledUnknownFrame.POOL);

    private boolean reuseFrames = SystemPropertyUtil.getBoolean(REUSE_FRAMES_PROPERTY, true);
    private boolean paranoid = SystemPropertyUtil.getBoolean(PARANOID_PROPERTY, false);
    private int maxFrameSize = DEFAULT_MAX_FRAME_SIZE;

    // The frame header being read: true until its 9 bytes have arrived.
    private boolean readingFrameHeader = true;
    /** Set on a connection error, which leaves the connection unusable: all later input is skipped. */
    private boolean readError;
    private int payloadLength;
    private byte frameType;
    private short flags;
    private int streamId;

    /** The frame being delivered, for a frame codec that forwards it instead of making its own. */
    private PooledFrame inFlight;

    // The HEADERS or PUSH_PROMISE frame whose header block is in progress, and the slot it came from.
    private HeaderBlockFrame headerBlockFrame;
    private FrameSlot<?> headerBlockSlot;

    /** Validates header names, like {@code new DefaultHttp2FrameReader()}. */
    public PooledHttp2FrameReader() {
        this(true);
    }

    /**
     * Like {@code new DefaultHttp2FrameReader(validateHeaders)}: the headers decoder is a
     * {@link PooledHttp2HeadersDecoder} with the settings of {@code new DefaultHttp2HeadersDecoder(validateHeaders)}.
     */
    public PooledHttp2FrameReader(boolean validateHeaders) {
        this(new PooledHttp2HeadersDecoder(validateHeaders));
    }

    /**
     * Like {@code new DefaultHttp2FrameReader(headersDecoder)}. With a {@link PooledHttp2HeadersDecoder} the
     * decoded headers are array-backed and recycled with their frame; any other decoder makes the headers
     * container itself, and the frames carry whatever it returns (the reader cannot reuse it).
     */
    public PooledHttp2FrameReader(Http2HeadersDecoder headersDecoder) {
        this(headersDecoder, DEFAULT_MAX_SMALL_CONTINUATION_FRAMES);
    }

    /**
     * Like {@code new DefaultHttp2FrameReader(headersDecoder, maxSmallContinuationFrames)}.
     *
     * @param maxSmallContinuationFrames how many CONTINUATION frames under 8 KiB a header block may have before
     *        the connection fails with {@code ENHANCE_YOUR_CALM}; 0 rejects every CONTINUATION frame
     */
    public PooledHttp2FrameReader(Http2HeadersDecoder headersDecoder, int maxSmallContinuationFrames) {
        this.headersDecoder = ObjectUtil.checkNotNull(headersDecoder, "headersDecoder");
        pooledHeadersDecoder = headersDecoder instanceof PooledHttp2HeadersDecoder
                ? (PooledHttp2HeadersDecoder) headersDecoder : null;
        this.maxSmallContinuationFrames =
                ObjectUtil.checkPositiveOrZero(maxSmallContinuationFrames, "maxSmallContinuationFrames");
        headerBlock = new HeaderBlock(headersDecoder, maxSmallContinuationFrames);
    }

    /**
     * Paranoid mode for this reader: frames are never reused and every access to a released frame throws
     * {@link io.netty.util.IllegalReferenceCountException}, so that a retention bug fails deterministically.
     * Defaults to the {@code io.pooledh2.paranoid} system property.
     */
    public PooledHttp2FrameReader paranoid(boolean paranoid) {
        this.paranoid = paranoid;
        return this;
    }

    /** Whether this reader is in paranoid mode. */
    public boolean isParanoid() {
        return paranoid;
    }

    /**
     * Whether to parse frames into reused objects. Defaults to the {@code io.pooledh2.reuseFrames} system
     * property; {@code false} makes every frame a new object.
     */
    public PooledHttp2FrameReader reuseFrames(boolean reuseFrames) {
        this.reuseFrames = reuseFrames;
        return this;
    }

    /** Whether frames are reused: the reuse setting on and paranoid mode off. */
    public boolean isReusingFrames() {
        return reuseFrames && !paranoid;
    }

    /**
     * Declares that the {@link Http2FrameListener} given to {@link #readFrame(ChannelHandlerContext, ByteBuf,
     * Http2FrameListener)} keeps no reference to the headers, settings, flags or GOAWAY debug data it is given
     * past the call, so that they need not be copied. Default {@code false}: they are copied.
     */
    public PooledHttp2FrameReader listenerKeepsNothing(boolean keepsNothing) {
        listenerAdapter.listenerKeepsNothing = keepsNothing;
        return this;
    }

    /**
     * For {@link PooledHttp2FrameCodec}: HEADERS reach the listener with the frame's own headers, uncopied, because
     * the codec recognises the frame by them and forwards the frame itself, which keeps them.
     */
    void headersForwardedWithFrame() {
        listenerAdapter.headersForwardedWithFrame = true;
    }

    @Override
    public Http2HeadersDecoder.Configuration headersConfiguration() {
        return headersDecoder.configuration();
    }

    @Override
    public Configuration configuration() {
        return this;
    }

    @Override
    public Http2FrameSizePolicy frameSizePolicy() {
        return this;
    }

    @Override
    public void maxFrameSize(int max) throws Http2Exception {
        if (!Http2CodecUtil.isMaxFrameSizeValid(max)) {
            throw connectionError(FRAME_SIZE_ERROR, "Invalid MAX_FRAME_SIZE specified in sent settings: %d", max);
        }
        maxFrameSize = max;
    }

    @Override
    public int maxFrameSize() {
        return maxFrameSize;
    }

    /** Releases the header block in progress, if any, and gives the reader's idle frames back to their pools. */
    @Override
    public void close() {
        abandonHeaderBlock();
        dataFrames.close();
        headersFrames.close();
        priorityFrames.close();
        resetFrames.close();
        settingsFrames.close();
        settingsAckFrames.close();
        pushPromiseFrames.close();
        pingFrames.close();
        goAwayFrames.close();
        windowUpdateFrames.close();
        unknownFrames.close();
    }

    /**
     * Reads frames and makes the {@link Http2FrameListener} calls {@code DefaultHttp2FrameReader} would make,
     * with the same arguments. The buffers the listener gets are valid during the call, as with the stock
     * reader; a listener that keeps one retains it.
     */
    @Override
    public void readFrame(ChannelHandlerContext ctx, ByteBuf input, Http2FrameListener listener)
            throws Http2Exception {
        listenerAdapter.listener = listener;
        readFrame(ctx, input, listenerAdapter);
    }

    /**
     * Reads as many whole frames as {@code input} holds and hands each to {@code listener} as a
     * {@link PooledHttp2Frame} that the listener must release. A partial frame stays in {@code input} for the
     * next call, as with {@code DefaultHttp2FrameReader}.
     *
     * @throws Http2Exception for a protocol error, with the {@code Http2Error} and the stream or connection
     *         scope that {@code DefaultHttp2FrameReader} gives it; after a connection error all later input is
     *         skipped
     */
    public void readFrame(ChannelHandlerContext ctx, ByteBuf input, PooledHttp2FrameListener listener)
            throws Http2Exception {
        if (readError) {
            input.skipBytes(input.readableBytes());
            return;
        }
        try {
            do {
                if (readingFrameHeader && !readFrameHeader(input)) {
                    return;
                }
                if (input.readableBytes() < payloadLength) {
                    return;
                }
                readingFrameHeader = true;
                int payloadEnd = input.readerIndex() + payloadLength;
                try {
                    verifyFrame();
                    readPayload(ctx, input, payloadEnd, listener);
                } finally {
                    input.readerIndex(payloadEnd);
                }
            } while (input.isReadable());
        } catch (Http2Exception e) {
            if (!Http2Exception.isStreamError(e)) {
                onConnectionError();
            }
            throw e;
        } catch (Throwable cause) {
            onConnectionError();
            PlatformDependent.throwException(cause);
        }
    }

    private void onConnectionError() {
        readError = true;
        abandonHeaderBlock();
    }

    private boolean readFrameHeader(ByteBuf in) throws Http2Exception {
        if (in.readableBytes() < FRAME_HEADER_LENGTH) {
            return false;
        }
        payloadLength = in.readUnsignedMedium();
        if (payloadLength > maxFrameSize) {
            throw connectionError(FRAME_SIZE_ERROR, "Frame length: %d exceeds maximum: %d", payloadLength,
                    maxFrameSize);
        }
        frameType = in.readByte();
        flags = in.readUnsignedByte();
        streamId = readUnsignedInt(in);
        readingFrameHeader = false;
        return true;
    }

    // Validation, in DefaultHttp2FrameReader's order and with its errors, once the whole payload is in.

    private void verifyFrame() throws Http2Exception {
        switch (frameType) {
            case DATA:
                verifyAssociatedWithAStream();
                verifyNotProcessingHeaders();
                if (payloadLength < paddingFieldLength()) {
                    throw streamError(streamId, FRAME_SIZE_ERROR, "Frame length %d too small.", payloadLength);
                }
                break;
            case HEADERS:
                verifyAssociatedWithAStream();
                verifyNotProcessingHeaders();
                if (payloadLength < paddingFieldLength() + priorityFieldsLength()) {
                    throw connectionError(FRAME_SIZE_ERROR,
                            "Frame length %d too small for HEADERS frame with stream %d.", payloadLength, streamId);
                }
                break;
            case PRIORITY:
                verifyAssociatedWithAStream();
                verifyNotProcessingHeaders();
                if (payloadLength != PRIORITY_ENTRY_LENGTH) {
                    throw streamError(streamId, FRAME_SIZE_ERROR, "Invalid frame length %d.", payloadLength);
                }
                break;
            case RST_STREAM:
                verifyAssociatedWithAStream();
                verifyNotProcessingHeaders();
                if (payloadLength != INT_FIELD_LENGTH) {
                    throw connectionError(FRAME_SIZE_ERROR, "Invalid frame length %d.", payloadLength);
                }
                break;
            case SETTINGS:
                verifyNotProcessingHeaders();
                verifyConnectionStream();
                if (hasFlag(Http2Flags.ACK) && payloadLength > 0) {
                    throw connectionError(FRAME_SIZE_ERROR, "Ack settings frame must have an empty payload.");
                }
                if (payloadLength % SETTING_ENTRY_LENGTH > 0) {
                    throw connectionError(FRAME_SIZE_ERROR, "Frame length %d invalid.", payloadLength);
                }
                break;
            case PUSH_PROMISE:
                verifyAssociatedWithAStream();
                verifyNotProcessingHeaders();
                if (payloadLength < paddingFieldLength() + INT_FIELD_LENGTH) {
                    throw connectionError(FRAME_SIZE_ERROR,
                            "Frame length %d too small for PUSH_PROMISE frame with stream id %d.", payloadLength,
                            streamId);
                }
                break;
            case PING:
                verifyNotProcessingHeaders();
                verifyConnectionStream();
                if (payloadLength != PING_FRAME_PAYLOAD_LENGTH) {
                    throw connectionError(FRAME_SIZE_ERROR, "Frame length %d incorrect size for ping.",
                            payloadLength);
                }
                break;
            case GO_AWAY:
                verifyNotProcessingHeaders();
                verifyConnectionStream();
                if (payloadLength < 8) {
                    throw connectionError(FRAME_SIZE_ERROR, "Frame length %d too small.", payloadLength);
                }
                break;
            case WINDOW_UPDATE:
                verifyNotProcessingHeaders();
                if (streamId < 0) {
                    throw connectionError(PROTOCOL_ERROR, "%s must be >= 0", "Stream ID");
                }
                if (payloadLength != INT_FIELD_LENGTH) {
                    throw connectionError(FRAME_SIZE_ERROR, "Invalid frame length %d.", payloadLength);
                }
                break;
            case CONTINUATION:
                verifyContinuationFrame();
                break;
            default:
                verifyNotProcessingHeaders();
                break;
        }
    }

    private void verifyContinuationFrame() throws Http2Exception {
        verifyAssociatedWithAStream();
        if (headerBlockFrame == null) {
            throw connectionError(PROTOCOL_ERROR, "Received %s frame but not currently processing headers.",
                    frameType);
        }
        if (streamId != headerBlockFrame.streamId) {
            throw connectionError(PROTOCOL_ERROR, "Continuation stream ID does not match pending headers. "
                    + "Expected %d, but received %d.", headerBlockFrame.streamId, streamId);
        }
        if (headerBlock.smallFragments() >= maxSmallContinuationFrames) {
            throw connectionError(ENHANCE_YOUR_CALM,
                    "Number of small consecutive continuations frames %d exceeds maximum: %d",
                    headerBlock.smallFragments(), maxSmallContinuationFrames);
        }
    }

    private void verifyNotProcessingHeaders() throws Http2Exception {
        if (headerBlockFrame != null) {
            throw connectionError(PROTOCOL_ERROR, "Received frame of type %s while processing headers on stream %d.",
                    frameType, headerBlockFrame.streamId);
        }
    }

    private void verifyAssociatedWithAStream() throws Http2Exception {
        if (streamId == 0) {
            throw connectionError(PROTOCOL_ERROR, "Frame of type %s must be associated with a stream.", frameType);
        }
    }

    private void verifyConnectionStream() throws Http2Exception {
        if (streamId != 0) {
            throw connectionError(PROTOCOL_ERROR, "A stream ID must be zero.");
        }
    }

    // Parsing: one method per frame type, each filling the reader's frame of that type.

    private void readPayload(ChannelHandlerContext ctx, ByteBuf in, int payloadEnd,
                             PooledHttp2FrameListener listener) throws Http2Exception {
        switch (frameType) {
            case DATA:
                readDataFrame(ctx, in, payloadEnd, listener);
                break;
            case HEADERS:
                readHeadersFrame(ctx, in, payloadEnd, listener);
                break;
            case PRIORITY:
                readPriorityFrame(ctx, in, listener);
                break;
            case RST_STREAM:
                readRstStreamFrame(ctx, in, listener);
                break;
            case SETTINGS:
                readSettingsFrame(ctx, in, listener);
                break;
            case PUSH_PROMISE:
                readPushPromiseFrame(ctx, in, payloadEnd, listener);
                break;
            case PING:
                readPingFrame(ctx, in, listener);
                break;
            case GO_AWAY:
                readGoAwayFrame(ctx, in, payloadEnd, listener);
                break;
            case WINDOW_UPDATE:
                readWindowUpdateFrame(ctx, in, listener);
                break;
            case CONTINUATION:
                readHeaderFragment(ctx, in, payloadLength, listener);
                break;
            default:
                readUnknownFrame(ctx, in, listener);
                break;
        }
    }

    private void readDataFrame(ChannelHandlerContext ctx, ByteBuf in, int payloadEnd,
                               PooledHttp2FrameListener listener) throws Http2Exception {
        int padding = readPadding(in);
        int dataLength = lengthWithoutTrailingPadding(payloadEnd - in.readerIndex(), padding);
        PooledDataFrame frame = dataFrames.acquire(reuseFrames, paranoid);
        frame.init(streamId, in.retainedSlice(in.readerIndex(), dataLength), padding, hasFlag(Http2Flags.END_STREAM));
        deliver(ctx, dataFrames, frame, listener);
    }

    private void readHeadersFrame(ChannelHandlerContext ctx, ByteBuf in, int payloadEnd,
                                  PooledHttp2FrameListener listener) throws Http2Exception {
        int padding = readPadding(in);
        boolean priorityPresent = hasFlag(Http2Flags.PRIORITY);
        int streamDependency = 0;
        short weight = Http2CodecUtil.DEFAULT_PRIORITY_WEIGHT;
        boolean exclusive = false;
        if (priorityPresent) {
            long word1 = in.readUnsignedInt();
            exclusive = (word1 & 0x80000000L) != 0;
            streamDependency = (int) (word1 & 0x7FFFFFFFL);
            if (streamDependency == streamId) {
                throw connectionError(PROTOCOL_ERROR, "HEADERS frame for stream %d cannot depend on itself.",
                        streamId);
            }
            weight = (short) (in.readUnsignedByte() + 1);
        }
        int fragmentLength = lengthWithoutTrailingPadding(payloadEnd - in.readerIndex(), padding);
        PooledHeadersFrame frame = headersFrames.acquire(reuseFrames, paranoid);
        frame.init(streamId, padding, hasFlag(Http2Flags.END_STREAM), priorityPresent, streamDependency, weight,
                exclusive);
        startHeaderBlock(frame, headersFrames);
        readHeaderFragment(ctx, in, fragmentLength, listener);
    }

    private void readPushPromiseFrame(ChannelHandlerContext ctx, ByteBuf in, int payloadEnd,
                                      PooledHttp2FrameListener listener) throws Http2Exception {
        int padding = readPadding(in);
        int promisedStreamId = readUnsignedInt(in);
        int fragmentLength = lengthWithoutTrailingPadding(payloadEnd - in.readerIndex(), padding);
        PooledPushPromiseFrame frame = pushPromiseFrames.acquire(reuseFrames, paranoid);
        frame.init(streamId, promisedStreamId, padding);
        startHeaderBlock(frame, pushPromiseFrames);
        readHeaderFragment(ctx, in, fragmentLength, listener);
    }

    private void startHeaderBlock(HeaderBlockFrame frame, FrameSlot<?> slot) {
        headerBlockFrame = frame;
        headerBlockSlot = slot;
    }

    /** A fragment of the header block in progress, from HEADERS, PUSH_PROMISE or CONTINUATION. */
    private void readHeaderFragment(ChannelHandlerContext ctx, ByteBuf in, int length,
                                    PooledHttp2FrameListener listener) throws Http2Exception {
        boolean endOfHeaders = hasFlag(Http2Flags.END_HEADERS);
        PooledHttp2HeadersDecoder pooledDecoder = pooledHeadersDecoder;
        if (endOfHeaders && pooledDecoder != null) {
            pooledDecoder.decodeInto(headerBlockFrame.reusableHeaders(pooledDecoder));
        }
        Http2Headers headers;
        try {
            headers = headerBlock.add(ctx.alloc(), in, length, endOfHeaders, streamId);
        } catch (Throwable cause) {
            abandonHeaderBlock();
            throw cause;
        } finally {
            if (pooledDecoder != null) {
                pooledDecoder.decodeInto(null);
            }
        }
        if (!endOfHeaders) {
            return;
        }
        HeaderBlockFrame frame = headerBlockFrame;
        FrameSlot<?> slot = headerBlockSlot;
        headerBlockFrame = null;
        headerBlockSlot = null;
        headerBlock.reset();
        frame.headers = headers;
        deliver(ctx, slot, frame, listener);
    }

    /** Drops the header block in progress, if any: its buffer and its frame, never delivered. */
    private void abandonHeaderBlock() {
        headerBlock.reset();
        HeaderBlockFrame frame = headerBlockFrame;
        if (frame != null) {
            FrameSlot<?> slot = headerBlockSlot;
            headerBlockFrame = null;
            headerBlockSlot = null;
            frame.release();
            slot.afterCallback();
        }
    }

    private void readPriorityFrame(ChannelHandlerContext ctx, ByteBuf in, PooledHttp2FrameListener listener)
            throws Http2Exception {
        long word1 = in.readUnsignedInt();
        boolean exclusive = (word1 & 0x80000000L) != 0;
        int streamDependency = (int) (word1 & 0x7FFFFFFFL);
        if (streamDependency == streamId) {
            throw streamError(streamId, PROTOCOL_ERROR, "A stream cannot depend on itself.");
        }
        short weight = (short) (in.readUnsignedByte() + 1);
        PooledPriorityFrame frame = priorityFrames.acquire(reuseFrames, paranoid);
        frame.init(streamId, streamDependency, weight, exclusive);
        deliver(ctx, priorityFrames, frame, listener);
    }

    private void readRstStreamFrame(ChannelHandlerContext ctx, ByteBuf in, PooledHttp2FrameListener listener)
            throws Http2Exception {
        PooledResetFrame frame = resetFrames.acquire(reuseFrames, paranoid);
        frame.init(streamId, in.readUnsignedInt());
        deliver(ctx, resetFrames, frame, listener);
    }

    private void readSettingsFrame(ChannelHandlerContext ctx, ByteBuf in, PooledHttp2FrameListener listener)
            throws Http2Exception {
        if (hasFlag(Http2Flags.ACK)) {
            deliver(ctx, settingsAckFrames, settingsAckFrames.acquire(reuseFrames, paranoid), listener);
            return;
        }
        PooledSettingsFrame frame = settingsFrames.acquire(reuseFrames, paranoid);
        try {
            readSettings(in, frame.init());
        } catch (Http2Exception e) {
            frame.release();
            settingsFrames.afterCallback();
            throw e;
        }
        deliver(ctx, settingsFrames, frame, listener);
    }

    /** Each value goes through {@link Http2Settings#put}, which validates it as the stock reader relies on. */
    private void readSettings(ByteBuf in, Http2Settings settings) throws Http2Exception {
        int numSettings = payloadLength / SETTING_ENTRY_LENGTH;
        for (int i = 0; i < numSettings; i++) {
            char id = (char) in.readUnsignedShort();
            long value = in.readUnsignedInt();
            try {
                settings.put(id, Long.valueOf(value));
            } catch (IllegalArgumentException e) {
                if (id == SETTINGS_INITIAL_WINDOW_SIZE) {
                    throw connectionError(FLOW_CONTROL_ERROR, e, "Failed setting initial window size: %s",
                            e.getMessage());
                }
                throw connectionError(PROTOCOL_ERROR, e, "Protocol error: %s", e.getMessage());
            }
        }
    }

    private void readPingFrame(ChannelHandlerContext ctx, ByteBuf in, PooledHttp2FrameListener listener)
            throws Http2Exception {
        PooledPingFrame frame = pingFrames.acquire(reuseFrames, paranoid);
        frame.init(in.readLong(), hasFlag(Http2Flags.ACK));
        deliver(ctx, pingFrames, frame, listener);
    }

    private void readGoAwayFrame(ChannelHandlerContext ctx, ByteBuf in, int payloadEnd,
                                 PooledHttp2FrameListener listener) throws Http2Exception {
        int lastStreamId = readUnsignedInt(in);
        long errorCode = in.readUnsignedInt();
        PooledGoAwayFrame frame = goAwayFrames.acquire(reuseFrames, paranoid);
        frame.init(lastStreamId, errorCode, in.retainedSlice(in.readerIndex(), payloadEnd - in.readerIndex()));
        deliver(ctx, goAwayFrames, frame, listener);
    }

    private void readWindowUpdateFrame(ChannelHandlerContext ctx, ByteBuf in, PooledHttp2FrameListener listener)
            throws Http2Exception {
        int windowSizeIncrement = readUnsignedInt(in);
        if (windowSizeIncrement == 0) {
            if (streamId == 0) {
                throw connectionError(PROTOCOL_ERROR, "Received WINDOW_UPDATE with delta 0 for connection stream");
            }
            throw streamError(streamId, PROTOCOL_ERROR, "Received WINDOW_UPDATE with delta 0 for stream: %d",
                    streamId);
        }
        PooledWindowUpdateFrame frame = windowUpdateFrames.acquire(reuseFrames, paranoid);
        frame.init(streamId, windowSizeIncrement);
        deliver(ctx, windowUpdateFrames, frame, listener);
    }

    private void readUnknownFrame(ChannelHandlerContext ctx, ByteBuf in, PooledHttp2FrameListener listener)
            throws Http2Exception {
        PooledUnknownFrame frame = unknownFrames.acquire(reuseFrames, paranoid);
        frame.init(frameType, streamId, flags, in.retainedSlice(in.readerIndex(), payloadLength));
        deliver(ctx, unknownFrames, frame, listener);
    }

    /** Hands the frame over; afterwards the slot keeps it if it came back during the call. */
    private void deliver(ChannelHandlerContext ctx, FrameSlot<?> slot, PooledFrame frame,
                         PooledHttp2FrameListener listener) throws Http2Exception {
        inFlight = frame;
        try {
            listener.onFrame(ctx, frame);
        } finally {
            inFlight = null;
            slot.afterCallback();
        }
    }

    /**
     * The frame whose callback is running, or {@code null}. {@link PooledHttp2FrameCodec} forwards it (retained)
     * when the connection decoder passes its values on, instead of allocating a frame of its own.
     */
    PooledFrame inFlightFrame() {
        return inFlight;
    }

    private boolean hasFlag(short flag) {
        return (flags & flag) != 0;
    }

    private int paddingFieldLength() {
        return hasFlag(Http2Flags.PADDED) ? 1 : 0;
    }

    private int priorityFieldsLength() {
        return hasFlag(Http2Flags.PRIORITY) ? 5 : 0;
    }

    /** The padding, counting its one-byte length field, as the stock reader reports it; 0 when not padded. */
    private int readPadding(ByteBuf in) {
        return hasFlag(Http2Flags.PADDED) ? in.readUnsignedByte() + 1 : 0;
    }

    private static int lengthWithoutTrailingPadding(int readableBytes, int padding) throws Http2Exception {
        if (padding == 0) {
            return readableBytes;
        }
        int length = readableBytes - (padding - 1);
        if (length < 0) {
            throw connectionError(PROTOCOL_ERROR, "Frame payload too small for padding.");
        }
        return length;
    }

    /** For tests: whether a header block buffer is held between frames. */
    boolean holdsHeaderBlockBuffer() {
        return headerBlock.holdsBuffer();
    }
}
