/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelProgressivePromise;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelPromise;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameSizePolicy;
import io.netty.handler.codec.http2.Http2FrameWriter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import io.netty.handler.codec.http2.Http2HeadersEncoder.SensitivityDetector;
import io.netty.handler.codec.http2.Http2Settings;

import static io.netty.handler.codec.http2.Http2CodecUtil.DEFAULT_MAX_FRAME_SIZE;
import static io.netty.handler.codec.http2.Http2CodecUtil.FRAME_HEADER_LENGTH;
import static io.netty.handler.codec.http2.Http2CodecUtil.INT_FIELD_LENGTH;
import static io.netty.handler.codec.http2.Http2CodecUtil.isMaxFrameSizeValid;
import static io.netty.handler.codec.http2.Http2CodecUtil.MAX_PADDING;
import static io.netty.handler.codec.http2.Http2CodecUtil.MAX_UNSIGNED_INT;
import static io.netty.handler.codec.http2.Http2CodecUtil.MAX_WEIGHT;
import static io.netty.handler.codec.http2.Http2CodecUtil.MIN_WEIGHT;
import static io.netty.handler.codec.http2.Http2CodecUtil.PING_FRAME_PAYLOAD_LENGTH;
import static io.netty.handler.codec.http2.Http2CodecUtil.PRIORITY_ENTRY_LENGTH;
import static io.netty.handler.codec.http2.Http2CodecUtil.SETTINGS_MAX_HEADER_LIST_SIZE;
import static io.netty.handler.codec.http2.Http2CodecUtil.SETTING_ENTRY_LENGTH;
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
 * A drop-in for Netty's {@link DefaultHttp2FrameWriter}, with the same constructors and methods, that writes
 * each frame in one buffer from the channel's allocator and with no object of its own: the frame header and
 * the HPACK-encoded header block of HEADERS (and PUSH_PROMISE) in one buffer, split into CONTINUATION frames
 * where Netty splits them; a control frame in one buffer; a DATA frame's payload, up to
 * {@value #DATA_COPY_THRESHOLD} bytes, copied next to its header and released at once. A larger payload is
 * written as it is, after a header buffer of its own, under one promise that completes the caller's once both
 * writes are done: the one object it makes (Netty's writer makes that, flags and a slice), as Netty's outcome
 * needs it: the caller's promise fails when the header's write fails, even if the payload's succeeds, and
 * succeeds only once the payload is written.
 *
 * <p>The bytes on the wire and the outcome of every promise are those of {@code DefaultHttp2FrameWriter} on the
 * Netty on the class path: the same frames for every option, the same exceptions for invalid arguments and
 * encoding errors, each payload released once. The writes it does not make in one buffer, because their
 * behaviour is Netty's to define or differs between Netty versions, go to a {@code DefaultHttp2FrameWriter}
 * made for the write, on the same HPACK encoder and max frame size: invalid arguments; a promise that
 * {@code ctx.write} would refuse or treat unlike Netty's own aggregate promise (one already done, of another
 * channel, the close future, a void or a progressive promise); padded DATA larger than the copy threshold;
 * GOAWAY debug data larger than a frame; SETTINGS with entries other than the six of RFC 9113 or in an order
 * other than theirs; unknown frame types ({@link #writeFrame}). A header block that needs CONTINUATION frames
 * is copied once into a buffer of the whole frame sequence.
 *
 * <p>A copied payload is released during the call, where Netty's writer leaves it to the channel to release
 * once written: the caller must not use a buffer after handing over its last reference, with either writer.
 * A frame written in one buffer under the caller's promise makes that promise uncancellable, so that cancelling it
 * after the call cannot drop the frame: Netty's writer writes such a frame under an aggregate of the promise, whose
 * cancel then succeeds while the frame is written all the same.
 *
 * <p>Like Netty's writer, an instance belongs to one connection and is not thread-safe.
 */
public class PooledHttp2FrameWriter
        implements Http2FrameWriter, Http2FrameSizePolicy, Http2FrameWriter.Configuration {

    /**
     * The largest DATA payload copied next to its frame header. Copying costs a memory copy that grows with the
     * payload; writing it as it is costs about the same at any size: a second write, the aggregate promise and, at
     * the socket, an NIO view when the payload is a derived buffer. Measured with {@code FrameWriteBenchmark}
     * (the benchmarks doc): copying took no longer up to 6 KiB, for a buffer of its own and for a slice; at 8 KiB
     * the payload as it is was faster for a buffer, and from 10 KiB for both.
     */
    static final int DATA_COPY_THRESHOLD = 6144;
    /** What Netty's writer allocates for a header block before it knows the block's size. */
    private static final int HEADER_BLOCK_INITIAL_CAPACITY = 256;
    /** The six settings of RFC 9113, the keys of a SETTINGS frame written here. */
    private static final char LAST_STANDARD_SETTING = SETTINGS_MAX_HEADER_LIST_SIZE;

    private final Http2HeadersEncoder headersEncoder;
    private int maxFrameSize = DEFAULT_MAX_FRAME_SIZE;

    /** Like {@code new DefaultHttp2FrameWriter()}: Netty's HPACK encoder, no header marked sensitive. */
    public PooledHttp2FrameWriter() {
        this(new DefaultHttp2HeadersEncoder());
    }

    /**
     * Like {@code new DefaultHttp2FrameWriter(headersSensitivityDetector)}.
     *
     * @param headersSensitivityDetector says which headers HPACK must encode as never indexed
     */
    public PooledHttp2FrameWriter(SensitivityDetector headersSensitivityDetector) {
        this(new DefaultHttp2HeadersEncoder(headersSensitivityDetector));
    }

    /**
     * Like {@code new DefaultHttp2FrameWriter(headersSensitivityDetector, ignoreMaxHeaderListSize)}.
     *
     * @param headersSensitivityDetector says which headers HPACK must encode as never indexed
     * @param ignoreMaxHeaderListSize {@code true} to write header lists larger than the peer's
     *        SETTINGS_MAX_HEADER_LIST_SIZE instead of failing them
     */
    public PooledHttp2FrameWriter(SensitivityDetector headersSensitivityDetector, boolean ignoreMaxHeaderListSize) {
        this(new DefaultHttp2HeadersEncoder(headersSensitivityDetector, ignoreMaxHeaderListSize));
    }

    /**
     * Like {@code new DefaultHttp2FrameWriter(headersEncoder)}.
     *
     * @param headersEncoder encodes the header blocks; closed with the writer if it implements
     *        {@link java.io.Closeable}
     */
    public PooledHttp2FrameWriter(Http2HeadersEncoder headersEncoder) {
        this.headersEncoder = headersEncoder;
    }

    @Override
    public Configuration configuration() {
        return this;
    }

    @Override
    public Http2HeadersEncoder.Configuration headersConfiguration() {
        return headersEncoder.configuration();
    }

    @Override
    public Http2FrameSizePolicy frameSizePolicy() {
        return this;
    }

    @Override
    public void maxFrameSize(int max) throws Http2Exception {
        if (!isMaxFrameSizeValid(max)) {
            netty().maxFrameSize(max); // throws Netty's error
        }
        maxFrameSize = max;
    }

    @Override
    public int maxFrameSize() {
        return maxFrameSize;
    }

    @Override
    public void close() {
        // Netty's writer closes the HPACK encoder if it is Closeable.
        netty().close();
    }

    /**
     * Netty's writer on the same encoder and max frame size, for the writes listed in the class comment. Made for
     * each such write (it has no other state) rather than kept: most connections never need one, and an idle
     * connection would keep its 24 bytes.
     */
    private DefaultHttp2FrameWriter netty() {
        DefaultHttp2FrameWriter writer = new DefaultHttp2FrameWriter(headersEncoder);
        if (maxFrameSize != DEFAULT_MAX_FRAME_SIZE) {
            try {
                writer.maxFrameSize(maxFrameSize);
            } catch (Http2Exception e) {
                throw new IllegalStateException(e); // cannot happen: validated when it was set
            }
        }
        return writer;
    }

    @Override
    public ChannelFuture writeData(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding,
                                   boolean endStream, ChannelPromise promise) {
        int refCnt;
        if (streamId <= 0 || !validPadding(padding) || data == null || !takesPromise(ctx, promise)
                || (refCnt = data.refCnt()) == 0) {
            return netty().writeData(ctx, streamId, data, padding, endStream, promise);
        }
        int length = data.readableBytes();
        if (length <= DATA_COPY_THRESHOLD && length + padding < maxFrameSize) {
            return writeCopiedData(ctx, streamId, data, length, padding, endStream, promise);
        }
        if (padding != 0) {
            return netty().writeData(ctx, streamId, data, padding, endStream, promise);
        }
        return writeDataAsIs(ctx, streamId, data, length, refCnt == 1, endStream, promise);
    }

    /** One frame: Netty puts a payload and its padding in one frame when they leave a byte of the frame free. */
    private ChannelFuture writeCopiedData(ChannelHandlerContext ctx, int streamId, ByteBuf data, int length,
                                          int padding, boolean endStream, ChannelPromise promise) {
        ByteBuf buf = null;
        try {
            int payloadLength = length + padding;
            buf = ctx.alloc().buffer(FRAME_HEADER_LENGTH + payloadLength);
            writeFrameHeader(buf, payloadLength, DATA, dataFlags(endStream, padding), streamId);
            if (padding > 0) {
                buf.writeByte(padding - 1);
                buf.writeBytes(data);
                buf.writeZero(padding - 1);
            } else {
                buf.writeBytes(data);
            }
        } catch (Throwable t) {
            if (buf != null) {
                buf.release();
            }
            data.release();
            return promise.setFailure(t);
        }
        data.release();
        return writeWhole(ctx, buf, promise);
    }

    /**
     * The payload as it is, in frames of at most the max frame size as Netty splits it, each after a header
     * buffer of its own, under one {@link FramePartsPromise}. The last frame's payload is the buffer itself when
     * the writer holds its only reference ({@code soleReference}): no one can see its reader index then. Another
     * holder sees Netty's writer read the buffer to its end (a second write of it is empty), so then it is read
     * into a slice, as Netty does.
     */
    private ChannelFuture writeDataAsIs(ChannelHandlerContext ctx, int streamId, ByteBuf data, int length,
                                        boolean soleReference, boolean endStream, ChannelPromise promise) {
        FramePartsPromise parts = new FramePartsPromise(promise, ctx.channel(), ctx.executor());
        try {
            int remaining = length;
            while (remaining > maxFrameSize) {
                ByteBuf header = ctx.alloc().buffer(FRAME_HEADER_LENGTH);
                writeFrameHeader(header, maxFrameSize, DATA, 0, streamId);
                ctx.write(header, parts.newPart());
                ctx.write(data.readRetainedSlice(maxFrameSize), parts.newPart());
                remaining -= maxFrameSize;
            }
            ByteBuf header = ctx.alloc().buffer(FRAME_HEADER_LENGTH);
            writeFrameHeader(header, remaining, DATA, dataFlags(endStream, 0), streamId);
            ctx.write(header, parts.newPart());
            ByteBuf last = soleReference ? data : data.readSlice(remaining);
            data = null;
            ctx.write(last, parts.newPart());
        } catch (Throwable t) {
            try {
                if (data != null) {
                    data.release();
                }
            } finally {
                parts.setFailure(t);
                parts.allPartsWritten();
            }
            return parts;
        }
        return parts.allPartsWritten();
    }

    @Override
    public ChannelFuture writeHeaders(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                      boolean endStream, ChannelPromise promise) {
        // Netty checks the padding of HEADERS only with a priority; a padding it does not check goes to it.
        if (streamId <= 0 || !validPadding(padding) || !takesPromise(ctx, promise)) {
            return netty().writeHeaders(ctx, streamId, headers, padding, endStream, promise);
        }
        return writeHeaderBlock(ctx, HEADERS, streamId, headers, padding, endStream ? Http2Flags.END_STREAM : 0,
                0, 0, 0, promise);
    }

    @Override
    public ChannelFuture writeHeaders(ChannelHandlerContext ctx, int streamId, Http2Headers headers,
                                      int streamDependency, short weight, boolean exclusive, int padding,
                                      boolean endStream, ChannelPromise promise) {
        if (streamId <= 0 || streamDependency < 0 || !validPadding(padding) || !validWeight(weight)
                || !takesPromise(ctx, promise)) {
            return netty().writeHeaders(ctx, streamId, headers, streamDependency, weight, exclusive, padding,
                    endStream, promise);
        }
        int flags = Http2Flags.PRIORITY | (endStream ? Http2Flags.END_STREAM : 0);
        return writeHeaderBlock(ctx, HEADERS, streamId, headers, padding, flags, PRIORITY_ENTRY_LENGTH,
                dependencyField(streamDependency, exclusive), weight - 1, promise);
    }

    @Override
    public ChannelFuture writePushPromise(ChannelHandlerContext ctx, int streamId, int promisedStreamId,
                                          Http2Headers headers, int padding, ChannelPromise promise) {
        if (streamId <= 0 || promisedStreamId <= 0 || !validPadding(padding) || !takesPromise(ctx, promise)) {
            return netty().writePushPromise(ctx, streamId, promisedStreamId, headers, padding, promise);
        }
        return writeHeaderBlock(ctx, PUSH_PROMISE, streamId, headers, padding, 0, INT_FIELD_LENGTH,
                promisedStreamId, 0, promise);
    }

    /**
     * A HEADERS or PUSH_PROMISE frame: the block is encoded into the frame's buffer after room for the frame
     * header, the pad length and the frame's fields ({@code fieldsLength} bytes: none, the promised stream, or the
     * dependency and the weight), which are filled in once the block's length is known.
     */
    private ChannelFuture writeHeaderBlock(ChannelHandlerContext ctx, byte type, int streamId, Http2Headers headers,
                                           int padding, int flags, int fieldsLength, int streamField,
                                           int weightField, ChannelPromise promise) {
        ByteBuf buf = null;
        try {
            int prefix = FRAME_HEADER_LENGTH + (padding > 0 ? 1 : 0) + fieldsLength;
            buf = ctx.alloc().buffer(HEADER_BLOCK_INITIAL_CAPACITY);
            // The encoder sees an empty buffer, as it does under Netty's writer.
            buf.setIndex(prefix, prefix);
            headersEncoder.encodeHeaders(streamId, headers, buf);
            int blockLength = buf.readableBytes();
            buf.readerIndex(0);

            int nonFragmentLength = padding + fieldsLength;
            int maxFragmentLength = maxFrameSize - nonFragmentLength;
            boolean continued = blockLength > maxFragmentLength;
            int fragmentLength = continued ? maxFragmentLength : blockLength;
            flags |= (continued ? 0 : Http2Flags.END_HEADERS) | (padding > 0 ? Http2Flags.PADDED : 0);
            setFrameHeader(buf, fragmentLength + nonFragmentLength, type, flags, streamId);
            int index = FRAME_HEADER_LENGTH;
            if (padding > 0) {
                buf.setByte(index++, padding - 1);
            }
            if (fieldsLength > 0) {
                buf.setInt(index, streamField);
                if (fieldsLength == PRIORITY_ENTRY_LENGTH) {
                    buf.setByte(index + INT_FIELD_LENGTH, weightField);
                }
            }
            ByteBuf frames = buf;
            if (continued) {
                frames = withContinuations(ctx, buf, prefix + fragmentLength, padding > 0 ? padding - 1 : 0,
                        streamId);
            } else if (padding > 1) {
                buf.writeZero(padding - 1);
            }
            buf = null;
            return writeWhole(ctx, frames, promise);
        } catch (Http2Exception e) {
            return promise.setFailure(e);
        } catch (Throwable t) {
            // As Netty's writer: the promise fails, and the caller gets the throwable too.
            promise.setFailure(t);
            throw t;
        } finally {
            if (buf != null) {
                buf.release();
            }
        }
    }

    /**
     * The first frame, its padding, and the rest of the block in CONTINUATION frames of at most the max frame
     * size, the last with END_HEADERS: a new buffer, as the frames' headers go between the block's bytes.
     * Releases {@code first}.
     */
    private ByteBuf withContinuations(ChannelHandlerContext ctx, ByteBuf first, int firstLength,
                                      int trailingPadding, int streamId) {
        int rest = first.writerIndex() - firstLength;
        int frames = (rest + maxFrameSize - 1) / maxFrameSize;
        ByteBuf out = ctx.alloc().buffer(firstLength + trailingPadding + rest + frames * FRAME_HEADER_LENGTH);
        try {
            out.writeBytes(first, 0, firstLength);
            out.writeZero(trailingPadding);
            for (int index = firstLength; rest > 0; ) {
                int length = Math.min(rest, maxFrameSize);
                rest -= length;
                writeFrameHeader(out, length, CONTINUATION, rest == 0 ? Http2Flags.END_HEADERS : 0, streamId);
                out.writeBytes(first, index, length);
                index += length;
            }
        } catch (Throwable t) {
            out.release();
            throw t;
        }
        first.release();
        return out;
    }

    @Override
    public ChannelFuture writePriority(ChannelHandlerContext ctx, int streamId, int streamDependency, short weight,
                                       boolean exclusive, ChannelPromise promise) {
        if (streamId <= 0 || streamDependency < 0 || !validWeight(weight)) {
            return netty().writePriority(ctx, streamId, streamDependency, weight, exclusive, promise);
        }
        try {
            ByteBuf buf = ctx.alloc().buffer(FRAME_HEADER_LENGTH + PRIORITY_ENTRY_LENGTH);
            writeFrameHeader(buf, PRIORITY_ENTRY_LENGTH, PRIORITY, 0, streamId);
            buf.writeInt(dependencyField(streamDependency, exclusive));
            buf.writeByte(weight - 1);
            return ctx.write(buf, promise);
        } catch (Throwable t) {
            return promise.setFailure(t);
        }
    }

    @Override
    public ChannelFuture writeRstStream(ChannelHandlerContext ctx, int streamId, long errorCode,
                                        ChannelPromise promise) {
        if (streamId <= 0 || !validErrorCode(errorCode)) {
            return netty().writeRstStream(ctx, streamId, errorCode, promise);
        }
        try {
            ByteBuf buf = ctx.alloc().buffer(FRAME_HEADER_LENGTH + INT_FIELD_LENGTH);
            writeFrameHeader(buf, INT_FIELD_LENGTH, RST_STREAM, 0, streamId);
            buf.writeInt((int) errorCode);
            return ctx.write(buf, promise);
        } catch (Throwable t) {
            return promise.setFailure(t);
        }
    }

    @Override
    public ChannelFuture writeSettings(ChannelHandlerContext ctx, Http2Settings settings, ChannelPromise promise) {
        int count = standardSettings(settings);
        if (count < 0) {
            return netty().writeSettings(ctx, settings, promise);
        }
        try {
            int payloadLength = SETTING_ENTRY_LENGTH * count;
            ByteBuf buf = ctx.alloc().buffer(FRAME_HEADER_LENGTH + payloadLength);
            writeFrameHeader(buf, payloadLength, SETTINGS, 0, 0);
            for (char key = 1; key <= LAST_STANDARD_SETTING; key++) {
                Long value = settings.get(key);
                if (value != null) {
                    buf.writeChar(key);
                    buf.writeInt(value.intValue());
                }
            }
            return ctx.write(buf, promise);
        } catch (Throwable t) {
            return promise.setFailure(t);
        }
    }

    /**
     * The number of entries when Netty's writer would write them in key order, else -1. Netty writes them in the
     * order its {@code CharObjectHashMap} iterates: slot by slot from the one after the first empty slot, where a
     * key's slot is the key modulo the table's power-of-two capacity (the next free one on a collision, moved
     * back on a removal). The capacity is above the size, so a map of four or more entries has one of at least 8,
     * where the keys 1 to 6 each sit in their own slot and slot 0 is empty; a map of two or three keys up to 3 has
     * one of at least 4, the same. Other maps, of keys that may wrap around a smaller table, go to Netty's writer.
     */
    private static int standardSettings(Http2Settings settings) {
        if (settings == null) {
            return -1;
        }
        int size = settings.size();
        int count = 0;
        char lastKey = 0;
        for (char key = 1; key <= LAST_STANDARD_SETTING; key++) {
            if (settings.get(key) != null) {
                count++;
                lastKey = key;
            }
        }
        if (count != size || size > 1 && size < 4 && lastKey > 3) {
            return -1;
        }
        return count;
    }

    @Override
    public ChannelFuture writeSettingsAck(ChannelHandlerContext ctx, ChannelPromise promise) {
        try {
            ByteBuf buf = ctx.alloc().buffer(FRAME_HEADER_LENGTH);
            writeFrameHeader(buf, 0, SETTINGS, Http2Flags.ACK, 0);
            return ctx.write(buf, promise);
        } catch (Throwable t) {
            return promise.setFailure(t);
        }
    }

    @Override
    public ChannelFuture writePing(ChannelHandlerContext ctx, boolean ack, long data, ChannelPromise promise) {
        // No try, as in Netty's writer: nothing before the write throws.
        ByteBuf buf = ctx.alloc().buffer(FRAME_HEADER_LENGTH + PING_FRAME_PAYLOAD_LENGTH);
        writeFrameHeader(buf, PING_FRAME_PAYLOAD_LENGTH, PING, ack ? Http2Flags.ACK : 0, 0);
        buf.writeLong(data);
        return ctx.write(buf, promise);
    }

    @Override
    public ChannelFuture writeGoAway(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData,
                                     ChannelPromise promise) {
        int debugLength;
        if (lastStreamId < 0 || !validErrorCode(errorCode) || debugData == null || !takesPromise(ctx, promise)
                || debugData.refCnt() == 0
                || (debugLength = debugData.readableBytes()) > maxFrameSize - 2 * INT_FIELD_LENGTH) {
            return netty().writeGoAway(ctx, lastStreamId, errorCode, debugData, promise);
        }
        ByteBuf buf;
        try {
            int payloadLength = 2 * INT_FIELD_LENGTH + debugLength;
            buf = ctx.alloc().buffer(FRAME_HEADER_LENGTH + payloadLength);
            writeFrameHeader(buf, payloadLength, GO_AWAY, 0, 0);
            buf.writeInt(lastStreamId);
            buf.writeInt((int) errorCode);
            buf.writeBytes(debugData, debugData.readerIndex(), debugLength);
        } catch (Throwable t) {
            debugData.release();
            return promise.setFailure(t);
        }
        debugData.release();
        return writeWhole(ctx, buf, promise);
    }

    @Override
    public ChannelFuture writeWindowUpdate(ChannelHandlerContext ctx, int streamId, int windowSizeIncrement,
                                           ChannelPromise promise) {
        if (streamId < 0 || windowSizeIncrement < 0) {
            return netty().writeWindowUpdate(ctx, streamId, windowSizeIncrement, promise);
        }
        try {
            ByteBuf buf = ctx.alloc().buffer(FRAME_HEADER_LENGTH + INT_FIELD_LENGTH);
            writeFrameHeader(buf, INT_FIELD_LENGTH, WINDOW_UPDATE, 0, streamId);
            buf.writeInt(windowSizeIncrement);
            return ctx.write(buf, promise);
        } catch (Throwable t) {
            return promise.setFailure(t);
        }
    }

    /** Netty's writer writes it: an extension frame, whose checks differ between Netty versions. */
    @Override
    public ChannelFuture writeFrame(ChannelHandlerContext ctx, byte frameType, int streamId, Http2Flags flags,
                                    ByteBuf payload, ChannelPromise promise) {
        return netty().writeFrame(ctx, frameType, streamId, flags, payload, promise);
    }

    /**
     * Writes a whole frame that Netty's writer writes under an aggregate of the caller's promise. The channel drops
     * a message whose promise is cancelled before the flush, where the aggregate's writes go ahead: a HEADERS frame
     * dropped after HPACK encoded it would break the peer's header table. So the promise is made uncancellable
     * first, as the channel makes it at the flush; its CAS is for a cancel from another thread. If such a cancel
     * came first, the frame is written under a promise of its own, as under Netty's aggregate.
     */
    private static ChannelFuture writeWhole(ChannelHandlerContext ctx, ByteBuf frame, ChannelPromise promise) {
        return ctx.write(frame, promise.setUncancellable() ? promise : ctx.newPromise());
    }

    /**
     * Whether one write under the caller's promise ends as Netty's writes under its own aggregate promise do:
     * {@code ctx.write} refuses a promise already done (or cancelled), one of another channel and the close
     * future, where Netty's writes go ahead; a void promise would make the returned future a void one, where
     * Netty returns its aggregate; a progressive promise would hear of progress, which the aggregate hides.
     */
    private static boolean takesPromise(ChannelHandlerContext ctx, ChannelPromise promise) {
        if (promise == null) {
            return false;
        }
        Channel channel = ctx.channel();
        if (promise.getClass() == DefaultChannelPromise.class) {
            return promise.channel() == channel && !promise.isDone();
        }
        return !promise.isVoid() && !(promise instanceof ChannelProgressivePromise) && promise.channel() == channel
                && !promise.isDone() && promise != channel.closeFuture();
    }

    private static boolean validPadding(int padding) {
        return padding >= 0 && padding <= MAX_PADDING;
    }

    private static boolean validWeight(short weight) {
        return weight >= MIN_WEIGHT && weight <= MAX_WEIGHT;
    }

    private static boolean validErrorCode(long errorCode) {
        return errorCode >= 0 && errorCode <= MAX_UNSIGNED_INT;
    }

    private static int dependencyField(int streamDependency, boolean exclusive) {
        return exclusive ? streamDependency | 0x80000000 : streamDependency;
    }

    private static int dataFlags(boolean endStream, int padding) {
        return (endStream ? Http2Flags.END_STREAM : 0) | (padding > 0 ? Http2Flags.PADDED : 0);
    }

    private static void writeFrameHeader(ByteBuf out, int payloadLength, byte type, int flags, int streamId) {
        out.writeInt(payloadLength << 8 | type & 0xFF);
        out.writeByte(flags);
        out.writeInt(streamId);
    }

    private static void setFrameHeader(ByteBuf out, int payloadLength, byte type, int flags, int streamId) {
        out.setInt(0, payloadLength << 8 | type & 0xFF);
        out.setByte(4, flags);
        out.setInt(5, streamId);
    }
}
