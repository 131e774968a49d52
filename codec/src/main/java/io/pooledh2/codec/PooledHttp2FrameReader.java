/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
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
import static io.netty.handler.codec.http2.Http2CodecUtil.SETTING_ENTRY_LENGTH;
import static io.netty.handler.codec.http2.Http2CodecUtil.readUnsignedInt;
import static io.netty.handler.codec.http2.Http2Error.ENHANCE_YOUR_CALM;
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
 * <h2>Two ways to use it</h2>
 * <ul>
 *   <li>As a drop-in reader: {@code new DefaultHttp2ConnectionDecoder(connection, encoder, new
 *       PooledHttp2FrameReader())}. {@link #readFrame(ChannelHandlerContext, ByteBuf, Http2FrameListener)}
 *       makes exactly the calls the stock reader makes. Nothing the pooled frame would reuse reaches a listener
 *       that could keep it: the decoded headers, the settings map and an unknown frame's flags are new, and the
 *       payloads of DATA, GOAWAY and unknown frames are slices of the input as from the stock reader, unless
 *       {@link #listenerKeepsNothing(boolean)} says it keeps nothing.</li>
 *   <li>With frame objects: {@link #readFrame(ChannelHandlerContext, ByteBuf, PooledHttp2FrameListener)} hands
 *       each frame to the listener as a {@link PooledHttp2Frame}, which the listener must release.</li>
 * </ul>
 *
 * <h2>Input</h2>
 * The reader reads its input to the end. The start of a frame that the input ends in is moved into a buffer of the
 * reader's own, sized to the frame (beyond the bytes that have arrived, by at most 1 MiB; growing as the rest of a
 * longer frame comes), and the frame is completed from the next inputs: {@code ByteToMessageDecoder} then
 * releases its cumulation and takes the next socket read as it is, where with {@code DefaultHttp2FrameReader} it
 * copies each next read behind the bytes left over. Such a frame's payload is a view of that buffer instead of
 * the input. {@link #close()} releases it. The pooled builders' handlers, when removed from a live pipeline, fire
 * those bytes on as {@code ByteToMessageDecoder} fires what is left in its cumulation; a handler of one's own
 * around this reader (Netty's {@code Http2ConnectionHandler} closes its decoder only when the channel goes
 * inactive) should {@link #close()} the reader when it is removed from a live pipeline.
 *
 * <h2>Reuse</h2>
 * Frames are parsed into objects kept per thread, by type, shared by every reader on the thread: a read
 * takes them when it needs the first and gives them back when it ends, so a connection between reads holds none.
 * When the consumer releases a frame during its callback, the next frame of that type is parsed into the same
 * object; a frame the consumer keeps is left to it, and the next parse takes another of the thread's frames of
 * that type, or one from a {@link io.netty.util.Recycler} if consumers kept them all. A kept frame released on
 * the reader's thread goes back to the thread's frames, one released on another thread to the
 * {@code Recycler}. Until it comes back the thread holds no reference to it: one its consumer drops unreleased is
 * garbage, and Netty's leak detector reports the input its payload held, as under Netty's frames. A frame released
 * in its callback keeps the stream a frame codec gave it, and a header block's name and value objects, out of
 * reach, until its next parse (which then stores only what differs) or until a reader on the thread is
 * {@link #close() closed}.
 * A frame and its payload share one reference count (DATA payloads, GOAWAY debug data and unknown payloads are
 * views of the input, with no copy); the input is retained only for a frame that outlives its callback. On the
 * {@link Http2FrameListener} path the listener is called straight from the parsed values, and frame objects carry
 * only what the listener gets a reference to (the headers; for a listener that keeps nothing, the settings and the
 * payloads too). Header blocks decode into the HEADERS or PUSH_PROMISE frame's own array-backed headers, reused
 * with the frame (see {@link PooledHttp2HeadersDecoder}; a caller-supplied decoder of another kind makes its own).
 * Two system properties, read when a reader is made:
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
    /**
     * The most a cut frame's buffer is sized beyond the bytes that have arrived: 1 MiB, the largest frame a Go
     * server accepts by default and so sizes at once. Netty's default max frame size, 16 KiB, is far below it.
     */
    static final int PARTIAL_FRAME_MAX_PRESIZE = 1 << 20;

    static {
        if (logger.isDebugEnabled()) {
            logger.debug("-D{}: {}", REUSE_FRAMES_PROPERTY, SystemPropertyUtil.getBoolean(REUSE_FRAMES_PROPERTY, true));
            logger.debug("-D{}: {}", PARANOID_PROPERTY, SystemPropertyUtil.getBoolean(PARANOID_PROPERTY, false));
        }
    }

    private final Http2HeadersDecoder headersDecoder;
    /** The decoder when it can decode into a frame's own headers; {@code null} for a caller's other decoder. */
    private final int maxSmallContinuationFrames;
    /** A header block split over frames, while it is assembled; null otherwise (the usual case: one frame). */
    private HeaderBlock headerBlock;

    private boolean reuseFrames = SystemPropertyUtil.getBoolean(REUSE_FRAMES_PROPERTY, true);
    private boolean paranoid = SystemPropertyUtil.getBoolean(PARANOID_PROPERTY, false);
    /** Whether reads parse into reused frames: reuse on and paranoid mode off. */
    private boolean reusing = reuseFrames && !paranoid;
    /** The {@code Http2FrameListener} path's listener keeps nothing past a call: nothing is copied for it. */
    private boolean listenerKeepsNothing;
    private int maxFrameSize = DEFAULT_MAX_FRAME_SIZE;

    // The frame header being read: true until its 9 bytes have arrived.
    private boolean readingFrameHeader = true;
    /** Set on a connection error, which leaves the connection unusable: all later input is skipped. */
    private boolean readError;
    private int payloadLength;
    /**
     * The bytes so far of a frame that did not arrive whole: its header while {@link #readingFrameHeader}, then
     * its payload; null otherwise. See {@link #keepPartialFrame}.
     */
    private ByteBuf partialFrame;
    private byte frameType;
    private short flags;
    private int streamId;

    // The caller's listener: stored only when it changes, because a reference store into a long-lived object
    // costs a GC write barrier, a measurable share of a small frame's cost.
    /** The {@code Http2FrameListener} path's listener, or null on the frame API path. */
    private Http2FrameListener listener;
    /** The frame API's consumer, which owns the frames it is given; null on the {@code Http2FrameListener} path. */
    private PooledHttp2FrameListener consumer;

    /** Whether frames are made for the {@code Http2FrameListener} path too, so that a frame codec can fire them. */
    private boolean forwardsFrames;
    /** The frame being delivered, for a frame codec that forwards it; only kept when {@link #forwardsFrames}. */
    private PooledFrame inFlight;
    /** The thread-shared set the last read used: no frames of its own, but no thread-local lookup per read. */
    private FrameSet lastFrames;
    /** Whether a frame is being delivered: {@link #inFlight} is only meaningful then. */
    private boolean delivering;
    /** Whether the reference of the frame being delivered has been handed on to its consumer. */
    private boolean inFlightHandedOn;

    /** The HEADERS or PUSH_PROMISE frame whose header block is in progress. */
    private HeaderBlockFrame headerBlockFrame;
    /**
     * The stream of the last header block refused while it was decoded, and the stream it promised (PUSH_PROMISE)
     * or 0; until {@link #takeRefusedHeaderBlock} (0: none).
     */
    private int refusedBlockStream;
    private int refusedBlockPromise;

    /** Validates header names, like {@code new DefaultHttp2FrameReader()}. */
    public PooledHttp2FrameReader() {
        this(true);
    }

    /**
     * Like {@code new DefaultHttp2FrameReader(validateHeaders)}: the headers decoder is a
     * {@link PooledHttp2HeadersDecoder} with the settings of {@code new DefaultHttp2HeadersDecoder(validateHeaders)}.
     *
     * @param validateHeaders whether header names are validated, as by Netty's decoder
     */
    public PooledHttp2FrameReader(boolean validateHeaders) {
        this(new PooledHttp2HeadersDecoder(validateHeaders));
    }

    /**
     * Like {@code new DefaultHttp2FrameReader(headersDecoder)}. With a {@link PooledHttp2HeadersDecoder} the
     * decoded headers are array-backed and recycled with their frame; any other decoder makes the headers
     * container itself, and the frames carry whatever it returns (the reader cannot reuse it).
     *
     * @param headersDecoder decodes the header blocks of HEADERS and PUSH_PROMISE frames
     */
    public PooledHttp2FrameReader(Http2HeadersDecoder headersDecoder) {
        this(headersDecoder, DEFAULT_MAX_SMALL_CONTINUATION_FRAMES);
    }

    /**
     * Like {@code new DefaultHttp2FrameReader(headersDecoder, maxSmallContinuationFrames)}.
     *
     * @param headersDecoder decodes the header blocks of HEADERS and PUSH_PROMISE frames (see
     *        {@link #PooledHttp2FrameReader(Http2HeadersDecoder)})
     * @param maxSmallContinuationFrames how many CONTINUATION frames under 8 KiB a header block may have before
     *        the connection fails with {@code ENHANCE_YOUR_CALM}; 0 rejects every CONTINUATION frame
     */
    public PooledHttp2FrameReader(Http2HeadersDecoder headersDecoder, int maxSmallContinuationFrames) {
        this.headersDecoder = ObjectUtil.checkNotNull(headersDecoder, "headersDecoder");
        this.maxSmallContinuationFrames =
                ObjectUtil.checkPositiveOrZero(maxSmallContinuationFrames, "maxSmallContinuationFrames");
    }

    /**
     * Paranoid mode for this reader: frames are never reused and every access to a released frame throws
     * {@link io.netty.util.IllegalReferenceCountException}, so that a retention bug fails deterministically.
     * Defaults to the {@code io.pooledh2.paranoid} system property.
     *
     * @param paranoid {@code true} to turn paranoid mode on
     * @return this reader
     */
    public PooledHttp2FrameReader paranoid(boolean paranoid) {
        this.paranoid = paranoid;
        reusing = reuseFrames && !paranoid;
        return this;
    }

    /** {@return whether this reader is in paranoid mode} */
    public boolean isParanoid() {
        return paranoid;
    }

    /**
     * Whether to parse frames into reused objects. Defaults to the {@code io.pooledh2.reuseFrames} system
     * property; {@code false} makes every frame a new object.
     *
     * @param reuseFrames {@code false} to make every frame a new object, with behaviour otherwise identical
     * @return this reader
     */
    public PooledHttp2FrameReader reuseFrames(boolean reuseFrames) {
        this.reuseFrames = reuseFrames;
        reusing = reuseFrames && !paranoid;
        return this;
    }

    /** {@return whether frames are reused: the reuse setting on and paranoid mode off} */
    public boolean isReusingFrames() {
        return reusing;
    }

    /**
     * Declares that the {@link Http2FrameListener} given to {@link #readFrame(ChannelHandlerContext, ByteBuf,
     * Http2FrameListener)} keeps no reference to the headers, settings, flags or payloads it is given past the
     * call, so that it can be given the reader's own reused objects: payloads are then the frames' views, valid
     * during the call (retaining one keeps it, and its frame, alive). Default {@code false}: it gets objects of its
     * own (headers decoded into a new container, a new settings map, new flags, payloads as slices of the input,
     * as from the stock reader, valid as long as the input; for a frame that arrived in parts, slices of the
     * reader's own buffer, valid during the call and kept by retaining them).
     *
     * @param keepsNothing {@code true} if the listener keeps nothing it is given past the call
     * @return this reader
     */
    public PooledHttp2FrameReader listenerKeepsNothing(boolean keepsNothing) {
        listenerKeepsNothing = keepsNothing;
        return this;
    }

    /**
     * For {@link PooledHttp2FrameCodec}: every frame is parsed into a frame object on the {@code Http2FrameListener}
     * path too, so that the codec can fire the object itself ({@link #handOnInFlightFrame()}); HEADERS reach the
     * listener with the frame's own headers, uncopied, because the codec recognises the frame by them and the
     * frame keeps them.
     */
    void forwardFrames() {
        forwardsFrames = true;
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

    /**
     * Releases the header block and the partial frame in progress, if any. Between reads the reader holds nothing
     * else. On the thread the reader last read on, the thread's free frames also drop the streams and header names
     * and values their last parse left in them, which would otherwise keep a closed connection and its last
     * requests' headers reachable from an idle thread.
     */
    @Override
    public void close() {
        abandonHeaderBlock();
        releasePartialFrame();
        FrameSet.forgetLastParses(lastFrames);
    }

    /**
     * The reader's handler is being removed from a pipeline whose channel goes on (a protocol switch): Netty's
     * {@code Http2ConnectionHandler} does not close its decoder then. Fires the bytes of a frame in progress on
     * from {@code ctx}, as {@code ByteToMessageDecoder} fires what is left in its cumulation, where
     * {@code DefaultHttp2FrameReader} would have left them; drops the header block in progress, which Netty's
     * reader would keep until garbage collection.
     */
    void handlerRemoved(ChannelHandlerContext ctx) {
        abandonHeaderBlock();
        ByteBuf partial = partialFrame;
        if (partial == null) {
            return;
        }
        partialFrame = null;
        if (partial.isReadable()) {
            ctx.fireChannelRead(partial);
            ctx.fireChannelReadComplete();
        } else {
            partial.release();
        }
    }

    /**
     * Reads frames and makes the {@link Http2FrameListener} calls {@code DefaultHttp2FrameReader} would make,
     * with the same arguments. The buffers the listener gets are valid during the call, as with the stock
     * reader; a listener that keeps one retains it.
     */
    @Override
    public void readFrame(ChannelHandlerContext ctx, ByteBuf input, Http2FrameListener listener)
            throws Http2Exception {
        // Stores only when the listener changes: a connection's decoder passes the same one every time.
        if (this.listener != listener) {
            this.listener = ObjectUtil.checkNotNull(listener, "listener");
        }
        if (consumer != null) {
            consumer = null;
        }
        read(ctx, input);
    }

    /**
     * Reads as many whole frames as {@code input} holds and hands each to {@code listener} as a
     * {@link PooledHttp2Frame} that the listener must release. The start of a frame that {@code input} ends in is
     * taken out of it and kept by the reader until the rest arrives (or {@link #close()}), so that the input is
     * always read to its end.
     *
     * @param ctx the handler's context; its allocator gathers a header block split across CONTINUATION frames
     * @param input the bytes read from the channel; read to its end
     * @param listener receives each frame; it owns the frame's one reference and releases it, during the call to
     *        let the reader parse the next frame of its type into the same object, or later
     * @throws Http2Exception for a protocol error, with the {@code Http2Error} and the stream or connection
     *         scope that {@code DefaultHttp2FrameReader} gives it; after a connection error all later input is
     *         skipped
     */
    public void readFrame(ChannelHandlerContext ctx, ByteBuf input, PooledHttp2FrameListener listener)
            throws Http2Exception {
        if (consumer != listener) {
            consumer = ObjectUtil.checkNotNull(listener, "listener");
            this.listener = null;
        }
        read(ctx, input);
    }

    private void read(ChannelHandlerContext ctx, ByteBuf input) throws Http2Exception {
        if (readError) {
            input.skipBytes(input.readableBytes());
            return;
        }
        // The thread's frames this read parses into, taken when the first frame needs one and given back when
        // the read ends: a connection between reads holds none. A local, not a field: no barrier.
        FrameSet frames = null;
        try {
            if (partialFrame != null && !readPartialFrame(ctx, input)) {
                return;
            }
            // The loop of the stock reader; the partial frame's work stays out of it, in methods of their own,
            // because a bigger loop measured 3 ns more per control frame on the listener path (FrameParseBenchmark).
            do {
                if (readingFrameHeader && !readFrameHeader(input)) {
                    keepPartialFrame(input, FRAME_HEADER_LENGTH);
                    return;
                }
                if (input.readableBytes() < payloadLength) {
                    keepPartialFrame(input, payloadLength);
                    return;
                }
                readingFrameHeader = true;
                int payloadEnd = input.readerIndex() + payloadLength;
                try {
                    verifyFrame();
                    if (frames == null && reusing && needsFrame()) {
                        frames = takeFrames();
                    }
                    readPayload(ctx, input, payloadEnd, frames);
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
        } finally {
            if (frames != null) {
                frames.giveBack();
            }
            if (inFlight != null) {
                inFlight = null;
            }
        }
    }

    /** The thread's frame set, remembered so that the next read finds it without a thread-local lookup. */
    private FrameSet takeFrames() {
        FrameSet frames = FrameSet.take(lastFrames);
        if (frames != lastFrames) {
            lastFrames = frames;
        }
        return frames;
    }

    /**
     * Reads what {@code input} has of the rest of {@link #partialFrame}, and the frame once it is whole. Returns
     * whether the input is to be read on: false if it ran out first. At most one frame per read comes this way,
     * so it takes and gives back a frame set of its own rather than share the loop's.
     */
    private boolean readPartialFrame(ChannelHandlerContext ctx, ByteBuf input) throws Http2Exception {
        ByteBuf partial = partialFrame;
        int length = readingFrameHeader ? FRAME_HEADER_LENGTH : payloadLength;
        int missing = length - partial.readableBytes();
        if (input.readableBytes() < missing) {
            partial.writeBytes(input);
            return false;
        }
        partial.writeBytes(input, missing);
        partialFrame = null;
        if (readingFrameHeader) {
            // The payload is read from the input by the loop, or kept again if the input ends first.
            try {
                readFrameHeader(partial);
            } finally {
                partial.release();
            }
            return true;
        }
        readingFrameHeader = true;
        FrameSet frames = null;
        try {
            verifyFrame();
            if (reusing && needsFrame()) {
                frames = takeFrames();
            }
            readPayload(ctx, partial, partial.writerIndex(), frames);
        } finally {
            if (frames != null) {
                frames.giveBack();
            }
            partial.release();
        }
        return input.isReadable();
    }

    /**
     * Moves the start of a frame that the input ends in, header or payload, into a buffer of its own, so that the
     * input is left empty. {@code ByteToMessageDecoder} then releases its cumulation and takes the next socket
     * read as it is, instead of copying that whole read behind the few bytes left over; the reader copies only
     * the rest of this one frame ({@link #readPartialFrame}). Like Go's {@code Framer}, it sizes the buffer
     * to the frame's length at once, so that the rest is copied once, without growing it; but by no more than
     * {@link #PARTIAL_FRAME_MAX_PRESIZE} beyond the bytes that have arrived, so that a peer's 9-byte header
     * cannot make a reader that advertises frames of up to 16 MiB hold 16 MiB. Longer frames grow as they come.
     */
    private void keepPartialFrame(ByteBuf input, int length) {
        int readable = input.readableBytes();
        if (readable == 0) {
            return;
        }
        int capacity = Math.min(length, readable + PARTIAL_FRAME_MAX_PRESIZE);
        ByteBufAllocator alloc = input.alloc();
        ByteBuf partial = input.isDirect() ? alloc.directBuffer(capacity, length) : alloc.heapBuffer(capacity, length);
        partial.writeBytes(input, readable);
        partialFrame = partial;
    }

    private void releasePartialFrame() {
        ByteBuf partial = partialFrame;
        if (partial != null) {
            partialFrame = null;
            partial.release();
        }
    }

    /**
     * The listener to call straight from the parsed values, for frames no object has to outlive; null on the frame
     * API path and for a frame codec, which fires frame objects.
     */
    private Http2FrameListener direct() {
        return forwardsFrames ? null : listener;
    }

    /**
     * The {@code Http2FrameListener} that may keep what it is given past the call, or null. It gets the payloads of
     * DATA, GOAWAY and unknown frames as the stock reader gives them, slices of the input with no frame: valid as
     * long as the input, kept by retaining them. A slice costs less than the protocol of a reused frame and its
     * view (FrameParseBenchmark, DATA 1 KiB on the listener path: 0.80 of the view's time in paired rounds), and a
     * listener that holds one without retaining it, as Mockito's argument captors do, reads what it would read
     * with the stock reader, as long as the frame came whole in one input. (A frame that arrived in parts is
     * sliced from the reader's own buffer, released after the call unless retained: what a cumulation released
     * by {@code ByteToMessageDecoder} would be to the stock reader's slice.)
     */
    private Http2FrameListener keepingListener() {
        return listenerKeepsNothing ? null : direct();
    }

    /** Whether decoded headers go to an {@code Http2FrameListener} that may keep them past the call. */
    private boolean headersGoToKeepingListener() {
        return keepingListener() != null;
    }

    /** Whether the frame just verified is parsed into a frame object, rather than passed as values. */
    private boolean needsFrame() {
        if (direct() == null) {
            return true;
        }
        switch (frameType) {
            case PRIORITY:
            case RST_STREAM:
            case PING:
            case WINDOW_UPDATE:
                return false;
            case SETTINGS:
                return listenerKeepsNothing && !hasFlag(Http2Flags.ACK);
            case HEADERS:
            case PUSH_PROMISE:
            case CONTINUATION:
                return true;
            default:
                // DATA, GOAWAY and unknown types: a keeping listener gets a slice of the input, no frame.
                return listenerKeepsNothing;
        }
    }

    private void onConnectionError() {
        readError = true;
        abandonHeaderBlock();
        releasePartialFrame();
    }

    private boolean readFrameHeader(ByteBuf in) throws Http2Exception {
        if (in.readableBytes() < FRAME_HEADER_LENGTH) {
            return false;
        }
        // Two absolute reads and one index update where reading field by field would check the buffer four times.
        int index = in.readerIndex();
        long header = in.getLong(index);
        payloadLength = (int) (header >>> 40);
        if (payloadLength > maxFrameSize) {
            in.readerIndex(index + 3); // As after DefaultHttp2FrameReader's read of the length alone.
            throw connectionError(FRAME_SIZE_ERROR, "Frame length: %d exceeds maximum: %d", payloadLength,
                    maxFrameSize);
        }
        frameType = (byte) (header >>> 32);
        flags = (short) ((header >>> 24) & 0xFF);
        streamId = in.getInt(index + 5) & 0x7FFFFFFF;
        in.readerIndex(index + FRAME_HEADER_LENGTH);
        readingFrameHeader = false;
        return true;
    }

    // Validation, in DefaultHttp2FrameReader's order and with its errors, once the whole payload is in.

    private void verifyFrame() throws Http2Exception {
        // One small method per type, so that the switch stays small enough for the JIT to inline.
        switch (frameType) {
            case DATA:
                verifyDataFrame();
                break;
            case HEADERS:
                verifyHeadersFrame();
                break;
            case PRIORITY:
                verifyPriorityFrame();
                break;
            case RST_STREAM:
                verifyRstStreamFrame();
                break;
            case SETTINGS:
                verifySettingsFrame();
                break;
            case PUSH_PROMISE:
                verifyPushPromiseFrame();
                break;
            case PING:
                verifyPingFrame();
                break;
            case GO_AWAY:
                verifyGoAwayFrame();
                break;
            case WINDOW_UPDATE:
                verifyWindowUpdateFrame();
                break;
            case CONTINUATION:
                verifyContinuationFrame();
                break;
            default:
                verifyNotProcessingHeaders();
                break;
        }
    }

    private void verifyDataFrame() throws Http2Exception {
        verifyAssociatedWithAStream();
        verifyNotProcessingHeaders();
        if (payloadLength < paddingFieldLength()) {
            throw streamError(streamId, FRAME_SIZE_ERROR, "Frame length %d too small.", payloadLength);
        }
    }

    private void verifyHeadersFrame() throws Http2Exception {
        verifyAssociatedWithAStream();
        verifyNotProcessingHeaders();
        if (payloadLength < paddingFieldLength() + priorityFieldsLength()) {
            throw connectionError(FRAME_SIZE_ERROR,
                    "Frame length %d too small for HEADERS frame with stream %d.", payloadLength, streamId);
        }
    }

    private void verifyPriorityFrame() throws Http2Exception {
        verifyAssociatedWithAStream();
        verifyNotProcessingHeaders();
        if (payloadLength != PRIORITY_ENTRY_LENGTH) {
            throw streamError(streamId, FRAME_SIZE_ERROR, "Invalid frame length %d.", payloadLength);
        }
    }

    private void verifyRstStreamFrame() throws Http2Exception {
        verifyAssociatedWithAStream();
        verifyNotProcessingHeaders();
        if (payloadLength != INT_FIELD_LENGTH) {
            throw connectionError(FRAME_SIZE_ERROR, "Invalid frame length %d.", payloadLength);
        }
    }

    private void verifySettingsFrame() throws Http2Exception {
        verifyNotProcessingHeaders();
        verifyConnectionStream();
        if (hasFlag(Http2Flags.ACK) && payloadLength > 0) {
            throw connectionError(FRAME_SIZE_ERROR, "Ack settings frame must have an empty payload.");
        }
        if (payloadLength % SETTING_ENTRY_LENGTH > 0) {
            throw connectionError(FRAME_SIZE_ERROR, "Frame length %d invalid.", payloadLength);
        }
    }

    private void verifyPushPromiseFrame() throws Http2Exception {
        if (NettyApi.NETTY_4_2_16) {
            // Netty's reader refuses a PUSH_PROMISE on stream 0 from 4.2.16 on; before, it passes it on.
            verifyAssociatedWithAStream();
        }
        verifyNotProcessingHeaders();
        if (payloadLength < paddingFieldLength() + INT_FIELD_LENGTH) {
            throw connectionError(FRAME_SIZE_ERROR,
                    "Frame length %d too small for PUSH_PROMISE frame with stream id %d.", payloadLength, streamId);
        }
    }

    private void verifyPingFrame() throws Http2Exception {
        verifyNotProcessingHeaders();
        verifyConnectionStream();
        if (payloadLength != PING_FRAME_PAYLOAD_LENGTH) {
            throw connectionError(FRAME_SIZE_ERROR, "Frame length %d incorrect size for ping.", payloadLength);
        }
    }

    private void verifyGoAwayFrame() throws Http2Exception {
        verifyNotProcessingHeaders();
        verifyConnectionStream();
        if (payloadLength < 8) {
            throw connectionError(FRAME_SIZE_ERROR, "Frame length %d too small.", payloadLength);
        }
    }

    private void verifyWindowUpdateFrame() throws Http2Exception {
        verifyNotProcessingHeaders();
        if (streamId < 0) {
            throw connectionError(PROTOCOL_ERROR, "%s must be >= 0", "Stream ID");
        }
        if (payloadLength != INT_FIELD_LENGTH) {
            throw connectionError(FRAME_SIZE_ERROR, "Invalid frame length %d.", payloadLength);
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
        if (headerBlock.smallFragments() >= maxSmallContinuationFrames) {  // set: a block is in progress
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

    private void readPayload(ChannelHandlerContext ctx, ByteBuf in, int payloadEnd, FrameSet frames)
            throws Http2Exception {
        switch (frameType) {
            case DATA:
                readDataFrame(ctx, in, payloadEnd, frames);
                break;
            case HEADERS:
                readHeadersFrame(ctx, in, payloadEnd, frames);
                break;
            case PRIORITY:
                readPriorityFrame(ctx, in, frames);
                break;
            case RST_STREAM:
                readRstStreamFrame(ctx, in, frames);
                break;
            case SETTINGS:
                readSettingsFrame(ctx, in, frames);
                break;
            case PUSH_PROMISE:
                readPushPromiseFrame(ctx, in, payloadEnd, frames);
                break;
            case PING:
                readPingFrame(ctx, in, frames);
                break;
            case GO_AWAY:
                readGoAwayFrame(ctx, in, payloadEnd, frames);
                break;
            case WINDOW_UPDATE:
                readWindowUpdateFrame(ctx, in, frames);
                break;
            case CONTINUATION:
                readHeaderFragment(ctx, in, payloadLength, frames);
                break;
            default:
                readUnknownFrame(ctx, in, frames);
                break;
        }
    }

    private void readDataFrame(ChannelHandlerContext ctx, ByteBuf in, int payloadEnd, FrameSet frames)
            throws Http2Exception {
        int padding = readPadding(in);
        int dataLength = lengthWithoutTrailingPadding(payloadEnd - in.readerIndex(), padding);
        boolean endStream = hasFlag(Http2Flags.END_STREAM);
        Http2FrameListener keeping = keepingListener();
        if (keeping != null) {
            // Unpadded, Netty's slice of the payload is the data's own.
            ByteBuf data = padding == 0 ? in.readSlice(dataLength) : payloadSlice(in, payloadEnd, dataLength);
            keeping.onDataRead(ctx, streamId, data, padding, endStream);
            return;
        }
        FrameSlot<PooledDataFrame> slot = frames != null ? frames.data : null;
        PooledDataFrame frame = slot != null ? slot.take() : PooledDataFrame.POOL.newUnpooled();
        int start = payloadEnd - payloadLength;
        int dataIndex = in.readerIndex() - start;
        Http2FrameListener direct = direct();
        if (direct == null) {
            frame.init(streamId, in, start, payloadLength, dataIndex, dataLength, padding, endStream, slot == null);
            deliver(ctx, frame, slot, DATA);
            return;
        }
        // A listener that keeps nothing gets the frame's payload; the frame only carries the count it shares, and
        // its other fields, which nothing reads here, are not set.
        frame.payload.target(in, start, payloadLength, dataIndex, dataIndex + dataLength, slot == null);
        handOutToReader(frame, slot);
        try {
            direct.onDataRead(ctx, streamId, frame.payload, padding, endStream);
        } finally {
            afterCallback(frame, slot, false);
        }
    }

    private void readHeadersFrame(ChannelHandlerContext ctx, ByteBuf in, int payloadEnd, FrameSet frames)
            throws Http2Exception {
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
        PooledHeadersFrame frame = frames != null ? frames.headers.take() : PooledHeadersFrame.POOL.newUnpooled();
        frame.init(streamId, padding, hasFlag(Http2Flags.END_STREAM), priorityPresent, streamDependency, weight,
                exclusive);
        headerBlockFrame = frame;
        readHeaderFragment(ctx, in, fragmentLength, frames);
    }

    private void readPushPromiseFrame(ChannelHandlerContext ctx, ByteBuf in, int payloadEnd, FrameSet frames)
            throws Http2Exception {
        int padding = readPadding(in);
        int promisedStreamId = readUnsignedInt(in);
        int fragmentLength = lengthWithoutTrailingPadding(payloadEnd - in.readerIndex(), padding);
        PooledPushPromiseFrame frame = frames != null ? frames.pushPromise.take()
                : PooledPushPromiseFrame.POOL.newUnpooled();
        frame.init(streamId, promisedStreamId, padding);
        headerBlockFrame = frame;
        readHeaderFragment(ctx, in, fragmentLength, frames);
    }

    /**
     * A fragment of the header block in progress, from HEADERS, PUSH_PROMISE or CONTINUATION. A block that spans
     * reads keeps its frame in the reader, out of any {@link FrameSet}, until it ends.
     */
    private void readHeaderFragment(ChannelHandlerContext ctx, ByteBuf in, int length, FrameSet frames)
            throws Http2Exception {
        boolean endOfHeaders = hasFlag(Http2Flags.END_HEADERS);
        PooledHttp2HeadersDecoder pooledDecoder = headersDecoder instanceof PooledHttp2HeadersDecoder
                ? (PooledHttp2HeadersDecoder) headersDecoder : null;
        // Into the frame's own container, unless a standard listener gets the headers and may keep them: then
        // into a new one that is the listener's, rather than into the frame's and then copied.
        if (endOfHeaders && pooledDecoder != null && !headersGoToKeepingListener()) {
            pooledDecoder.decodeInto(headerBlockFrame.reusableHeaders(pooledDecoder));
        }
        Http2Headers headers;
        try {
            HeaderBlock block = headerBlock;
            if (block != null) {
                headers = block.add(in, length, endOfHeaders, streamId);
            } else if (endOfHeaders) {
                headers = HeaderBlock.decodeWhole(headersDecoder, in, length, streamId);
            } else {
                headerBlock = block = new HeaderBlock(headersDecoder, maxSmallContinuationFrames);
                block.start(ctx.alloc(), in, length);
                headers = null;
            }
        } catch (Throwable cause) {
            // Told to StreamStateChecks if this is a stream error: the block's stream and promise still count.
            HeaderBlockFrame refused = headerBlockFrame;
            refusedBlockStream = refused.streamId;
            refusedBlockPromise = refused instanceof PooledPushPromiseFrame
                    ? ((PooledPushPromiseFrame) refused).promisedStreamId : 0;
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
        headerBlockFrame = null;
        endHeaderBlock();
        if (frame.headers != headers) {
            frame.headers = headers;
        }
        byte type = frame instanceof PooledHeadersFrame ? HEADERS : PUSH_PROMISE;
        FrameSlot<?> slot = null;
        if (frame.pooled() && frames != null) {
            slot = type == HEADERS ? frames.headers : frames.pushPromise;
        }
        deliver(ctx, frame, slot, type);
    }

    /** The split block ended or was abandoned: its buffer goes back to the allocator. */
    private void endHeaderBlock() {
        HeaderBlock block = headerBlock;
        if (block != null) {
            headerBlock = null;
            block.release();
        }
    }

    /** Drops the header block in progress, if any: its buffer and its frame, never delivered. */
    private void abandonHeaderBlock() {
        endHeaderBlock();
        HeaderBlockFrame frame = headerBlockFrame;
        if (frame != null) {
            headerBlockFrame = null;
            frame.recycleUnused();
        }
    }

    private void readPriorityFrame(ChannelHandlerContext ctx, ByteBuf in, FrameSet frames) throws Http2Exception {
        long word1 = in.readUnsignedInt();
        boolean exclusive = (word1 & 0x80000000L) != 0;
        int streamDependency = (int) (word1 & 0x7FFFFFFFL);
        if (streamDependency == streamId) {
            throw streamError(streamId, PROTOCOL_ERROR, "A stream cannot depend on itself.");
        }
        short weight = (short) (in.readUnsignedByte() + 1);
        Http2FrameListener direct = direct();
        if (direct != null) {
            direct.onPriorityRead(ctx, streamId, streamDependency, weight, exclusive);
            return;
        }
        FrameSlot<PooledPriorityFrame> slot = frames != null ? frames.priority : null;
        PooledPriorityFrame frame = slot != null ? slot.take() : PooledPriorityFrame.POOL.newUnpooled();
        frame.init(streamId, streamDependency, weight, exclusive);
        deliver(ctx, frame, slot, PRIORITY);
    }

    private void readRstStreamFrame(ChannelHandlerContext ctx, ByteBuf in, FrameSet frames) throws Http2Exception {
        long errorCode = in.readUnsignedInt();
        Http2FrameListener direct = direct();
        if (direct != null) {
            direct.onRstStreamRead(ctx, streamId, errorCode);
            return;
        }
        FrameSlot<PooledResetFrame> slot = frames != null ? frames.reset : null;
        PooledResetFrame frame = slot != null ? slot.take() : PooledResetFrame.POOL.newUnpooled();
        frame.init(streamId, errorCode);
        deliver(ctx, frame, slot, RST_STREAM);
    }

    private void readSettingsFrame(ChannelHandlerContext ctx, ByteBuf in, FrameSet frames) throws Http2Exception {
        Http2FrameListener direct = direct();
        if (hasFlag(Http2Flags.ACK)) {
            if (direct != null) {
                direct.onSettingsAckRead(ctx);
                return;
            }
            FrameSlot<PooledSettingsAckFrame> slot = frames != null ? frames.settingsAck : null;
            deliver(ctx, slot != null ? slot.take() : PooledSettingsAckFrame.POOL.newUnpooled(), slot, SETTINGS);
            return;
        }
        if (direct != null && !listenerKeepsNothing) {
            // The listener may keep the map: it gets a new one, as from the stock reader, with no copy.
            Http2Settings settings = new Http2Settings();
            readSettings(in, settings);
            direct.onSettingsRead(ctx, settings);
            return;
        }
        FrameSlot<PooledSettingsFrame> slot = frames != null ? frames.settings : null;
        PooledSettingsFrame frame = slot != null ? slot.take() : PooledSettingsFrame.POOL.newUnpooled();
        try {
            frame.parse(in, payloadLength / SETTING_ENTRY_LENGTH);
        } catch (Http2Exception e) {
            if (slot != null) {
                slot.putBack(frame);
            }
            throw e;
        }
        deliver(ctx, frame, slot, SETTINGS);
    }

    /** Each value goes through {@link Http2Settings#put}, which validates it as the stock reader relies on. */
    private void readSettings(ByteBuf in, Http2Settings settings) throws Http2Exception {
        int numSettings = payloadLength / SETTING_ENTRY_LENGTH;
        for (int i = 0; i < numSettings; i++) {
            char id = (char) in.readUnsignedShort();
            long value = in.readUnsignedInt();
            PooledSettingsFrame.put(settings, id, Long.valueOf(value));
        }
    }

    private void readPingFrame(ChannelHandlerContext ctx, ByteBuf in, FrameSet frames) throws Http2Exception {
        long data = in.readLong();
        boolean ack = hasFlag(Http2Flags.ACK);
        Http2FrameListener direct = direct();
        if (direct != null) {
            if (ack) {
                direct.onPingAckRead(ctx, data);
            } else {
                direct.onPingRead(ctx, data);
            }
            return;
        }
        FrameSlot<PooledPingFrame> slot = frames != null ? frames.ping : null;
        PooledPingFrame frame = slot != null ? slot.take() : PooledPingFrame.POOL.newUnpooled();
        frame.init(data, ack);
        deliver(ctx, frame, slot, PING);
    }

    private void readGoAwayFrame(ChannelHandlerContext ctx, ByteBuf in, int payloadEnd, FrameSet frames)
            throws Http2Exception {
        int lastStreamId = readUnsignedInt(in);
        long errorCode = in.readUnsignedInt();
        int debugLength = payloadEnd - in.readerIndex();
        Http2FrameListener keeping = keepingListener();
        if (keeping != null) {
            keeping.onGoAwayRead(ctx, lastStreamId, errorCode, payloadSlice(in, payloadEnd, debugLength));
            return;
        }
        FrameSlot<PooledGoAwayFrame> slot = frames != null ? frames.goAway : null;
        PooledGoAwayFrame frame = slot != null ? slot.take() : PooledGoAwayFrame.POOL.newUnpooled();
        targetPayload(frame, in, payloadEnd, debugLength, slot);
        frame.init(lastStreamId, errorCode);
        Http2FrameListener direct = direct();
        if (direct == null) {
            deliver(ctx, frame, slot, GO_AWAY);
            return;
        }
        handOutToReader(frame, slot);
        try {
            direct.onGoAwayRead(ctx, lastStreamId, errorCode, frame.payload);
        } finally {
            afterCallback(frame, slot, false);
        }
    }

    private void readWindowUpdateFrame(ChannelHandlerContext ctx, ByteBuf in, FrameSet frames)
            throws Http2Exception {
        int windowSizeIncrement = readUnsignedInt(in);
        if (windowSizeIncrement == 0) {
            if (streamId == 0) {
                throw connectionError(PROTOCOL_ERROR, "Received WINDOW_UPDATE with delta 0 for connection stream");
            }
            throw streamError(streamId, PROTOCOL_ERROR, "Received WINDOW_UPDATE with delta 0 for stream: %d",
                    streamId);
        }
        Http2FrameListener direct = direct();
        if (direct != null) {
            direct.onWindowUpdateRead(ctx, streamId, windowSizeIncrement);
            return;
        }
        FrameSlot<PooledWindowUpdateFrame> slot = frames != null ? frames.windowUpdate : null;
        PooledWindowUpdateFrame frame = slot != null ? slot.take() : PooledWindowUpdateFrame.POOL.newUnpooled();
        frame.init(streamId, windowSizeIncrement);
        deliver(ctx, frame, slot, WINDOW_UPDATE);
    }

    private void readUnknownFrame(ChannelHandlerContext ctx, ByteBuf in, FrameSet frames) throws Http2Exception {
        Http2FrameListener keeping = keepingListener();
        if (keeping != null) {
            keeping.onUnknownFrame(ctx, frameType, streamId, new Http2Flags(flags), in.readSlice(payloadLength));
            return;
        }
        FrameSlot<PooledUnknownFrame> slot = frames != null ? frames.unknown : null;
        PooledUnknownFrame frame = slot != null ? slot.take() : PooledUnknownFrame.POOL.newUnpooled();
        targetPayload(frame, in, in.readerIndex() + payloadLength, payloadLength, slot);
        frame.init(frameType, streamId, flags);
        deliver(ctx, frame, slot, frameType);
    }

    /**
     * The buffer Netty's reader (4.2.20) hands a listener: its slice of the frame's whole payload, read up to where
     * {@code in} stands, with the {@code length} bytes from there readable.
     */
    private ByteBuf payloadSlice(ByteBuf in, int payloadEnd, int length) {
        int start = payloadEnd - payloadLength;
        int readerIndex = in.readerIndex() - start;
        return in.slice(start, payloadLength).setIndex(readerIndex, readerIndex + length);
    }

    /**
     * Points the frame's payload view at what {@link #payloadSlice} would be; the input is retained now only for a
     * frame made for this parse alone ({@code slot == null}).
     */
    private void targetPayload(PooledFrame frame, ByteBuf in, int payloadEnd, int length, FrameSlot<?> slot) {
        int start = payloadEnd - payloadLength;
        int readerIndex = in.readerIndex() - start;
        frame.payload.target(in, start, payloadLength, readerIndex, readerIndex + length, slot == null);
    }

    /**
     * Hands the frame to its consumer for one callback. {@code slot} is where a reused frame goes back if it
     * returns; {@code null} for a frame made for this parse alone. {@code type} is the frame's type, which each
     * parse knows: the listener adapter switches on it rather than asking the frame, an interface call at a site
     * that sees every frame class (an itable stub in the example server's profile).
     */
    private void deliver(ChannelHandlerContext ctx, PooledFrame frame, FrameSlot<?> slot, byte type)
            throws Http2Exception {
        frame.handOut(slot != null ? PooledFrame.ONE | PooledFrame.HELD : PooledFrame.ONE, paranoid);
        if (forwardsFrames && inFlight != frame) {
            inFlight = frame;
        }
        delivering = true;
        PooledHttp2FrameListener consumer = this.consumer;
        inFlightHandedOn = consumer != null;
        try {
            if (consumer != null) {
                consumer.onFrame(ctx, frame);
            } else {
                FrameListenerAdapter.onFrame(ctx, type, frame, listener, listenerKeepsNothing, forwardsFrames);
            }
        } finally {
            delivering = false;
            afterCallback(frame, slot, inFlightHandedOn);
        }
    }

    /** Readies a frame whose parts a listener gets, with the reader's own reference. */
    private void handOutToReader(PooledFrame frame, FrameSlot<?> slot) {
        frame.handOut(slot != null ? PooledFrame.ONE | PooledFrame.HELD : PooledFrame.ONE, paranoid);
    }

    /**
     * Takes a reused frame back when nobody else holds it (a plain read of its count: the common case costs no
     * atomic operation), or leaves it to whoever still does; drops the reader's own reference if it kept one.
     */
    private static void afterCallback(PooledFrame frame, FrameSlot<?> slot, boolean handedOn) {
        if (slot == null) {
            if (!handedOn) {
                frame.release();
            }
            return;
        }
        int readerPart = handedOn ? PooledFrame.HELD : PooledFrame.ONE | PooledFrame.HELD;
        if (frame.rawRefCnt() == readerPart) {
            if (!handedOn) {
                frame.takeBackUnused();
            }
            slot.putBack(frame);
        } else if (frame.leaveToConsumers(readerPart)) {
            slot.putBack(frame);
        } else {
            slot.letGo(frame);
        }
    }

    /**
     * After {@link #readFrame} threw a stream error on {@code streamId}: the stream that a header block of that
     * stream, refused while it was decoded, used: for HEADERS the block's own, for PUSH_PROMISE the promised one
     * (0 unless {@code promises}: a server's peer cannot promise). 0 if no such block was refused: the listener
     * threw. Forgets the refused block, so that it is told once ({@code streamId} 0 only forgets it).
     */
    int takeRefusedHeaderBlock(int streamId, boolean promises) {
        int blockStream = refusedBlockStream;
        if (blockStream == 0) {
            return 0;
        }
        refusedBlockStream = 0;
        if (blockStream != streamId) {
            return 0;
        }
        int promise = refusedBlockPromise;
        return promise == 0 ? blockStream : promises ? promise : 0;
    }

    /**
     * The frame whose callback is running, or {@code null}. {@link PooledHttp2FrameCodec} forwards it instead of
     * allocating a frame of its own; see {@link #handOnInFlightFrame()}.
     */
    PooledFrame inFlightFrame() {
        return delivering ? inFlight : null;
    }

    /**
     * The frame codec fires the frame in flight: the reader's reference goes with it, so the receiver owns a
     * count of 1 without a retain, and the reader no longer releases it after the callback.
     */
    PooledFrame handOnInFlightFrame() {
        PooledFrame frame = inFlightFrame();
        if (frame == null || inFlightHandedOn) {
            throw new IllegalStateException("no frame in flight to hand on");
        }
        inFlightHandedOn = true;
        return frame;
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

    /**
     * For tests: the bytes of a partial frame that the reader holds. With the input left unread, they are the
     * bytes the stock reader would have left in its input (it takes a frame's header out of the input once whole).
     */
    int partialFrameBytes() {
        return partialFrame != null ? partialFrame.readableBytes() : 0;
    }

    /** For tests: whether a header block buffer is held between frames. */
    boolean holdsHeaderBlockBuffer() {
        return headerBlock != null;
    }

    /**
     * For tests: whether the reader holds a frame set in use, a frame or a buffer; never between reads, a header
     * block or a partial frame in progress aside. (It keeps a pointer to the thread's shared set, whose frames are
     * free.)
     */
    boolean holdsAnything() {
        return lastFrames != null && lastFrames.inUse() || inFlight != null || headerBlockFrame != null
                || headerBlock != null || partialFrame != null;
    }
}
