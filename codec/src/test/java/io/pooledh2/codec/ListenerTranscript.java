/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Exception.HeaderListSizeException;
import io.netty.handler.codec.http2.Http2Exception.StreamException;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.zip.CRC32;

/**
 * An {@link Http2FrameListener} that writes down every call as one line of text, so two readers can be
 * compared by comparing their transcripts.
 *
 * <p>Arguments are rendered inside the callback: buffers handed to a listener are only guaranteed to be
 * valid during the call, and a reader that recycles them afterwards must not be punished for it, unless
 * the listener retained them (see {@link Style#RETAIN}).
 */
final class ListenerTranscript implements Http2FrameListener {

    /** What the listener does with the buffers and headers it is given, beyond rendering them. */
    enum Style {
        /** Reads them without moving any index, like {@code DefaultHttp2ConnectionDecoder}. */
        READ_ONLY,
        /** Reads data, debug data and unknown payloads to the end, as an aggregating application would. */
        CONSUME,
        /**
         * Retains buffers and keeps headers past the call, as {@code Http2FrameCodec} does when it wraps them
         * into frames; they are rendered again, after the reader is closed, and only then released.
         */
        RETAIN
    }

    /** Thrown by the listener on request; rendered on its own so it is never mistaken for a reader bug. */
    static final class ListenerFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ListenerFailure(String message) {
            super(message);
        }
    }

    // Buffers above this size are rendered as length + checksum + head/tail: failures stay readable.
    private static final int FULL_HEX_LIMIT = 64;

    private final ChannelHandlerContext expectedCtx;
    private final Style style;
    private final List<String> lines = new ArrayList<>();
    private final List<Later> later = new ArrayList<>();
    private final List<Fault> faults = new ArrayList<>();

    ListenerTranscript(ChannelHandlerContext expectedCtx, Style style) {
        this.expectedCtx = expectedCtx;
        this.style = style;
    }

    /**
     * Makes the listener throw after rendering any call whose line starts with {@code linePrefix}, the way
     * {@code DefaultHttp2ConnectionDecoder} throws from inside callbacks.
     */
    ListenerTranscript failOn(String linePrefix, Supplier<? extends Throwable> failure) {
        faults.add(new Fault(linePrefix, failure));
        return this;
    }

    /** Adds a line that is not a listener call: an exception, a configuration value, the end of input. */
    void note(String line) {
        lines.add(line);
    }

    void exception(Throwable cause) {
        lines.add(describe(cause));
    }

    List<String> lines() {
        return lines;
    }

    /**
     * Renders what was retained (in {@link Style#RETAIN}) once more, now that the reader is done with it,
     * then releases it.
     */
    void finish() {
        for (Later entry : later) {
            lines.add("LATER " + entry.label + " " + entry.render());
            try {
                entry.release();
            } catch (RuntimeException e) {
                // The reader released a buffer it had handed over: the listener's reference was not its own.
                lines.add("UNEXPECTED " + e.getClass().getName() + " releasing retained " + entry.label);
            }
        }
        later.clear();
    }

    /** Releases what was retained without rendering it: used when a run is abandoned. */
    void releaseRetained() {
        for (Later entry : later) {
            try {
                entry.release();
            } catch (RuntimeException ignored) {
                // The run already failed; this only avoids leaking what can still be released.
            }
        }
        later.clear();
    }

    @Override
    public String toString() {
        return String.join("\n", lines);
    }

    /**
     * How an exception thrown by {@code readFrame} appears in a transcript: error code, connection or stream,
     * stream id, and the two properties {@code Http2ConnectionHandler} acts on (the shutdown hint of a
     * connection error, and whether a header list size error happened during decoding). Messages are left out
     * on purpose: they are not part of the contract.
     */
    static String describe(Throwable cause) {
        if (cause instanceof Http2Exception) {
            Http2Exception e = (Http2Exception) cause;
            boolean stream = Http2Exception.isStreamError(e);
            if (stream != (e instanceof StreamException)) {
                return "UNEXPECTED inconsistent stream error " + e.getClass().getName();
            }
            StringBuilder line = new StringBuilder("ERR ")
                    .append(stream ? "stream " : "connection ")
                    .append(e.error())
                    .append(" stream=").append(Http2Exception.streamId(e));
            if (e instanceof HeaderListSizeException) {
                line.append(" headerListSize duringDecode=").append(((HeaderListSizeException) e).duringDecode());
            }
            if (!stream) {
                line.append(" hint=").append(e.shutdownHint());
            }
            return line.toString();
        }
        if (cause instanceof ListenerFailure) {
            return "LISTENER_FAILURE " + cause.getMessage();
        }
        return "UNEXPECTED " + cause.getClass().getName();
    }

    @Override
    public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream)
            throws Http2Exception {
        // What DefaultHttp2ConnectionDecoder returns when it consumed the whole frame.
        int processed = safeReadableBytes(data) + padding;
        String label = "DATA s=" + streamId + " pad=" + padding + " eos=" + endOfStream;
        record(ctx, label + " data=" + hex(data), data, label);
        return processed;
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                              boolean endOfStream) throws Http2Exception {
        String label = "HEADERS s=" + streamId + " pad=" + padding + " eos=" + endOfStream;
        recordHeaders(ctx, label, headers);
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int streamDependency,
                              short weight, boolean exclusive, int padding, boolean endOfStream)
            throws Http2Exception {
        String label = "HEADERS s=" + streamId + " dep=" + streamDependency + " w=" + weight + " excl=" + exclusive
                + " pad=" + padding + " eos=" + endOfStream;
        recordHeaders(ctx, label, headers);
    }

    @Override
    public void onPriorityRead(ChannelHandlerContext ctx, int streamId, int streamDependency, short weight,
                               boolean exclusive) throws Http2Exception {
        record(ctx, "PRIORITY s=" + streamId + " dep=" + streamDependency + " w=" + weight + " excl=" + exclusive,
                null, null);
    }

    @Override
    public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) throws Http2Exception {
        record(ctx, "RST_STREAM s=" + streamId + " code=" + errorCode, null, null);
    }

    @Override
    public void onSettingsAckRead(ChannelHandlerContext ctx) throws Http2Exception {
        record(ctx, "SETTINGS_ACK", null, null);
    }

    @Override
    public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) throws Http2Exception {
        // Http2Settings is a hash map: sort by id so iteration order cannot differ between readers.
        Map<Integer, Long> sorted = new TreeMap<>();
        for (Map.Entry<Character, Long> e : settings.entrySet()) {
            sorted.put((int) e.getKey(), e.getValue());
        }
        record(ctx, "SETTINGS " + sorted, null, null);
    }

    @Override
    public void onPingRead(ChannelHandlerContext ctx, long data) throws Http2Exception {
        record(ctx, "PING data=" + Long.toHexString(data), null, null);
    }

    @Override
    public void onPingAckRead(ChannelHandlerContext ctx, long data) throws Http2Exception {
        record(ctx, "PING_ACK data=" + Long.toHexString(data), null, null);
    }

    @Override
    public void onPushPromiseRead(ChannelHandlerContext ctx, int streamId, int promisedStreamId,
                                  Http2Headers headers, int padding) throws Http2Exception {
        String label = "PUSH_PROMISE s=" + streamId + " promised=" + promisedStreamId + " pad=" + padding;
        recordHeaders(ctx, label, headers);
    }

    @Override
    public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData)
            throws Http2Exception {
        String label = "GOAWAY last=" + lastStreamId + " code=" + errorCode;
        record(ctx, label + " debug=" + hex(debugData), debugData, label);
    }

    @Override
    public void onWindowUpdateRead(ChannelHandlerContext ctx, int streamId, int windowSizeIncrement)
            throws Http2Exception {
        record(ctx, "WINDOW_UPDATE s=" + streamId + " inc=" + windowSizeIncrement, null, null);
    }

    @Override
    public void onUnknownFrame(ChannelHandlerContext ctx, byte frameType, int streamId, Http2Flags flags,
                               ByteBuf payload) throws Http2Exception {
        String label = "UNKNOWN type=" + (frameType & 0xff) + " s=" + streamId + " flags=" + flags.value();
        record(ctx, label + " payload=" + hex(payload), payload, label);
    }

    private void recordHeaders(ChannelHandlerContext ctx, String label, Http2Headers headers) throws Http2Exception {
        lines.add(label + " " + render(headers) + ctxMark(ctx));
        if (style == Style.RETAIN) {
            later.add(new Later(label, null, headers));
        }
        maybeFail(lines.get(lines.size() - 1));
    }

    private void record(ChannelHandlerContext ctx, String line, ByteBuf buffer, String label) throws Http2Exception {
        lines.add(line + ctxMark(ctx));
        if (buffer != null) {
            if (style == Style.RETAIN) {
                try {
                    later.add(new Later(label, buffer.retain(), null));
                } catch (RuntimeException e) {
                    lines.add("UNEXPECTED " + e.getClass().getName() + " retaining argument");
                }
            } else if (style == Style.CONSUME) {
                try {
                    buffer.skipBytes(buffer.readableBytes());
                } catch (RuntimeException e) {
                    lines.add("UNEXPECTED " + e.getClass().getName() + " consuming argument");
                }
            }
        }
        maybeFail(line);
    }

    private void maybeFail(String line) throws Http2Exception {
        for (Fault fault : faults) {
            if (line.startsWith(fault.linePrefix)) {
                Throwable failure = fault.failure.get();
                if (failure instanceof Http2Exception) {
                    throw (Http2Exception) failure;
                }
                throw (RuntimeException) failure;
            }
        }
    }

    private String ctxMark(ChannelHandlerContext ctx) {
        return ctx == expectedCtx ? "" : " ctx=OTHER";
    }

    /** The entries in iteration order, whatever the container class: what both readers must agree on. */
    static String render(Http2Headers headers) {
        try {
            // Insertion order: both readers decode the same block with the same HPACK decoder.
            List<String> entries = new ArrayList<>();
            for (Map.Entry<CharSequence, CharSequence> e : headers) {
                entries.add(e.getKey() + "=" + e.getValue());
            }
            return entries.toString();
        } catch (RuntimeException e) {
            return "UNEXPECTED " + e.getClass().getName() + " rendering headers";
        }
    }

    private static int safeReadableBytes(ByteBuf buf) {
        try {
            return buf.readableBytes();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /**
     * Hex of the readable bytes (long buffers as length, CRC32, first and last bytes), then the buffer's indexes
     * and capacity. The indexes are part of what a listener gets: Netty's reader hands out the frame's payload with
     * the reader index past the fields read before it (the pad length, GOAWAY's stream id and code), and a
     * listener may read from index 0. Never moves an index. A released or otherwise broken buffer renders as
     * UNEXPECTED instead of throwing into the reader.
     */
    static String hex(ByteBuf buf) {
        try {
            String shape = " r=" + buf.readerIndex() + " w=" + buf.writerIndex() + " c=" + buf.capacity();
            int length = buf.readableBytes();
            if (length <= FULL_HEX_LIMIT) {
                return "<" + ByteBufUtil.hexDump(buf) + ">" + shape;
            }
            CRC32 crc = new CRC32();
            crc.update(ByteBufUtil.getBytes(buf));
            return "<len=" + length + " crc32=" + Long.toHexString(crc.getValue())
                    + " head=" + ByteBufUtil.hexDump(buf, buf.readerIndex(), 16)
                    + " tail=" + ByteBufUtil.hexDump(buf, buf.writerIndex() - 16, 16) + ">" + shape;
        } catch (RuntimeException e) {
            return "UNEXPECTED " + e.getClass().getName() + " rendering buffer";
        }
    }

    private static final class Fault {
        final String linePrefix;
        final Supplier<? extends Throwable> failure;

        Fault(String linePrefix, Supplier<? extends Throwable> failure) {
            this.linePrefix = linePrefix;
            this.failure = failure;
        }
    }

    /** Something the listener kept past the call (RETAIN style). */
    private static final class Later {
        final String label;
        final ByteBuf buffer;
        final Http2Headers headers;

        Later(String label, ByteBuf buffer, Http2Headers headers) {
            this.label = label;
            this.buffer = buffer;
            this.headers = headers;
        }

        String render() {
            return buffer != null ? hex(buffer) : ListenerTranscript.render(headers);
        }

        void release() {
            if (buffer != null) {
                buffer.release();
            }
        }
    }
}
