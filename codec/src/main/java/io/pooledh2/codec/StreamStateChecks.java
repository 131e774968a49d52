/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionAdapter;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2FrameReader;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;

import static io.netty.handler.codec.http2.Http2Error.PROTOCOL_ERROR;
import static io.netty.handler.codec.http2.Http2Error.STREAM_CLOSED;
import static io.netty.handler.codec.http2.Http2Exception.connectionError;
import static io.netty.handler.codec.http2.Http2Exception.streamError;

/**
 * The stream-state rules of RFC 9113 section 5.1 that Netty's {@code DefaultHttp2ConnectionDecoder} leaves out,
 * checked between the frame reader and the decoder. Netty forgets a stream once it is closed, so for a HEADERS
 * frame on a stream id it no longer knows it cannot tell a closed stream from one that never opened and answers
 * both with the milder RST_STREAM(STREAM_CLOSED). This decorator remembers the last {@value #WINDOW} stream ids
 * of streams the peer opens (odd ids on a server; on a client the even ids the server promises, each counted from
 * its PUSH_PROMISE), and for those it applies the RFC:
 * <ul>
 *   <li>HEADERS opening a stream whose id is lower than one the peer already used (the id was skipped):
 *       connection error PROTOCOL_ERROR (section 5.1.1);</li>
 *   <li>HEADERS or DATA on a stream after the peer ended it (END_STREAM) and it closed: connection error
 *       STREAM_CLOSED (section 5.1, "closed");</li>
 *   <li>HEADERS on a stream the peer ended that is still half-closed (remote): stream error STREAM_CLOSED
 *       (section 5.1, "half-closed (remote)"; Netty says PROTOCOL_ERROR when END_STREAM is not set).</li>
 * </ul>
 * Everything else goes to the decoder unchanged. In particular frames on a stream this endpoint reset are left
 * to Netty, which ignores them as the RFC requires; trailers (HEADERS before the peer ended the stream) pass;
 * ids older than the window, and streams above the last one announced in a GOAWAY this endpoint sent, are
 * Netty's as before, and so are streams this end opened. The checks allocate nothing per frame, and are one
 * object per connection: the reader the decoder reads through, the listener it hands the decoder, and the
 * connection listener that learns of streams opened or reset in other ways. The window is two bits per id in two
 * {@code long}s, small because every connection pays for it: older ids get Netty's answer.
 */
final class StreamStateChecks extends Http2ConnectionAdapter implements Http2FrameReader, Http2FrameListener {

    /**
     * How many of the peer's most recent stream ids are remembered: one bit each in {@link #opened}, {@link #ended}.
     */
    static final int WINDOW = Long.SIZE;

    private final Http2FrameReader reader;
    /** {@link #reader}, or the reader it logs for: it says which frame a stream error was raised for. */
    private final PooledHttp2FrameReader frames;
    private final Http2Connection connection;
    /** The decoder's listener for the read in progress; null between reads, so that none is kept. */
    private Http2FrameListener decoder;
    /** id / 2 of the highest stream id the peer used, -1 before the first. */
    private int highestIndex = -1;
    /** Per remembered id (bit id / 2 modulo {@link #WINDOW}): the peer opened or tried to open it. */
    private long opened;
    /** Per remembered id: the peer ended it with END_STREAM and this endpoint did not reset it. */
    private long ended;
    /** The stream of the last header block the reader refused with a stream error ({@link #refused}), or 0. */
    private int refusedHeaderBlock;

    StreamStateChecks(Http2FrameReader reader, PooledHttp2FrameReader frames, Http2Connection connection) {
        this.reader = reader;
        this.frames = frames;
        this.connection = connection;
        // Streams opened other than by a HEADERS frame (the h2c upgrade's stream 1, a promised stream) and
        // streams that end in a way the frames alone do not show (created half-closed, reset) are learnt here.
        connection.addListener(this);
    }

    @Override
    public void onStreamAdded(Http2Stream stream) {
        if (isRemote(stream.id())) {
            markOpened(stream.id());
        }
    }

    @Override
    public void onStreamActive(Http2Stream stream) {
        // Netty also creates a stream half-closed (remote) to answer a refused header list with 431, then resets
        // it: the peer did not necessarily end that one, and its frames are Netty's, as on any stream this end
        // reset. Not marked here, because on a connection already closing the 431 fails at once and Netty
        // closes the stream before it resets it, so onStreamClosed would not clear the mark.
        if (isRemote(stream.id()) && stream.state() == Http2Stream.State.HALF_CLOSED_REMOTE
                && stream.id() != refusedHeaderBlock) {
            markEnded(stream.id(), true);
        }
    }

    @Override
    public void onStreamClosed(Http2Stream stream) {
        if (isRemote(stream.id()) && stream.isResetSent()) {
            // RFC 9113 5.1: frames on a stream this endpoint reset are ignored, as Netty does.
            markEnded(stream.id(), false);
        }
    }

    @Override
    public void readFrame(ChannelHandlerContext ctx, ByteBuf input, Http2FrameListener listener)
            throws Http2Exception {
        // The decoder passes one listener before the preface and another after; this object stands in for either.
        // Restored after the read, not kept: a read nested in a callback finds the outer one's listener again.
        Http2FrameListener outer = decoder;
        decoder = listener;
        try {
            reader.readFrame(ctx, input, this);
        } catch (Http2Exception e) {
            int streamId = e instanceof Http2Exception.StreamException ? ((Http2Exception.StreamException) e).streamId()
                    : 0;
            refused(frames.takeRefusedHeaderBlock(streamId, !connection.isServer()));
            throw e;
        } finally {
            decoder = outer;
        }
    }

    /**
     * A stream error came out of the read, and {@code usedStreamId} is the stream a header block the reader could
     * not decode or validate used (0 if the error was not that: a listener threw, or it was another frame's). Such
     * a block still used its id (RFC 9113 5.1.1): a HEADERS block its own, a PUSH_PROMISE the promised one (5.1: a
     * promise reserves its stream even when Netty drops it). Netty resets the stream and never creates it, so it
     * is remembered as opened here, not taken later for an id the peer skipped; its later frames are then Netty's,
     * as on any stream this end reset. Only ids above every one the checks have seen. Should Netty then create the
     * stream to answer it (431), {@link #onStreamActive} knows it by {@link #refusedHeaderBlock}.
     */
    private void refused(int usedStreamId) {
        if (usedStreamId != 0 && isRemote(usedStreamId) && (usedStreamId >>> 1) > highestIndex) {
            markOpened(usedStreamId);
            refusedHeaderBlock = usedStreamId;
        }
    }

    @Override
    public Configuration configuration() {
        return reader.configuration();
    }

    @Override
    public void close() {
        reader.close();
    }

    private boolean isRemote(int streamId) {
        return streamId > 0 && connection.remote().isValidStreamId(streamId);
    }

    /** Whether the id is one whose state this class knows: the peer's, inside the window, under any GOAWAY. */
    private boolean remembered(int streamId) {
        if (!isRemote(streamId)) {
            return false;
        }
        int index = streamId >>> 1;
        if (index > highestIndex || index <= highestIndex - WINDOW) {
            return false;
        }
        // Netty ignores frames of streams created after the GOAWAY it sent; so does this class.
        return !connection.goAwaySent() || streamId <= connection.remote().lastStreamKnownByPeer();
    }

    private void markOpened(int streamId) {
        int index = streamId >>> 1;
        if (index > highestIndex) {
            // Bits between the old highest and this id are reused: they now stand for ids never opened.
            long from = Math.max((long) highestIndex + 1, (long) index - WINDOW + 1);
            for (long i = from; i <= index; i++) {
                opened &= ~bit((int) i);
                ended &= ~bit((int) i);
            }
            highestIndex = index;
        } else if (index <= highestIndex - WINDOW) {
            return;
        }
        opened |= bit(index);
    }

    private void markEnded(int streamId, boolean value) {
        int index = streamId >>> 1;
        if (highestIndex < 0 || index > highestIndex || index <= highestIndex - WINDOW) {
            return;
        }
        if (value) {
            ended |= bit(index);
        } else {
            ended &= ~bit(index);
        }
    }

    /** The bit of a remembered id: a shift of a {@code long} uses the low six bits, id / 2 modulo 64. */
    private static long bit(int index) {
        return 1L << index;
    }

    private void checkHeaders(int streamId) throws Http2Exception {
        if (!remembered(streamId)) {
            if (isRemote(streamId) && connection.stream(streamId) == null
                    && !connection.streamMayHaveExisted(streamId)) {
                // A new stream: remembered from now on, also if the decoder refuses it.
                markOpened(streamId);
            }
            return;
        }
        long bit = bit(streamId >>> 1);
        Http2Stream stream = connection.stream(streamId);
        if ((opened & bit) == 0) {
            throw connectionError(PROTOCOL_ERROR,
                    "Stream %d opened after a higher stream id was already used", streamId);
        }
        if ((ended & bit) == 0) {
            return; // Trailers, a reset stream, or one Netty decides about.
        }
        if (stream != null && stream.state() == Http2Stream.State.HALF_CLOSED_REMOTE && !stream.isResetSent()) {
            throw streamError(streamId, STREAM_CLOSED, "HEADERS on half-closed (remote) stream %d", streamId);
        }
        if (stream == null || stream.state() == Http2Stream.State.CLOSED) {
            throw connectionError(STREAM_CLOSED, "HEADERS on stream %d after its END_STREAM", streamId);
        }
    }

    private void checkData(int streamId) throws Http2Exception {
        if (!remembered(streamId) || (ended & bit(streamId >>> 1)) == 0) {
            return;
        }
        Http2Stream stream = connection.stream(streamId);
        // Half-closed (remote) DATA is Netty's stream error STREAM_CLOSED already.
        if (stream == null || stream.state() == Http2Stream.State.CLOSED) {
            throw connectionError(STREAM_CLOSED, "DATA on stream %d after its END_STREAM", streamId);
        }
    }

    private void endOfStream(int streamId, boolean endOfStream) {
        if (endOfStream && isRemote(streamId)) {
            Http2Stream stream = connection.stream(streamId);
            if (stream == null || !stream.isResetSent()) {
                markEnded(streamId, true);
            }
        }
    }

    // The frames the reader reads: each is checked against its stream's state, then handed to the decoder.

    @Override
    public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream)
            throws Http2Exception {
        checkData(streamId);
        int processed = decoder.onDataRead(ctx, streamId, data, padding, endOfStream);
        endOfStream(streamId, endOfStream);
        return processed;
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                              boolean endOfStream) throws Http2Exception {
        checkHeaders(streamId);
        decoder.onHeadersRead(ctx, streamId, headers, padding, endOfStream);
        endOfStream(streamId, endOfStream);
    }

    @Override
    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int streamDependency,
                              short weight, boolean exclusive, int padding, boolean endOfStream)
            throws Http2Exception {
        checkHeaders(streamId);
        decoder.onHeadersRead(ctx, streamId, headers, streamDependency, weight, exclusive, padding, endOfStream);
        endOfStream(streamId, endOfStream);
    }

    @Override
    public void onPriorityRead(ChannelHandlerContext ctx, int streamId, int streamDependency, short weight,
                               boolean exclusive) throws Http2Exception {
        decoder.onPriorityRead(ctx, streamId, streamDependency, weight, exclusive);
    }

    @Override
    public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) throws Http2Exception {
        decoder.onRstStreamRead(ctx, streamId, errorCode);
    }

    @Override
    public void onSettingsAckRead(ChannelHandlerContext ctx) throws Http2Exception {
        decoder.onSettingsAckRead(ctx);
    }

    @Override
    public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) throws Http2Exception {
        decoder.onSettingsRead(ctx, settings);
    }

    @Override
    public void onPingRead(ChannelHandlerContext ctx, long data) throws Http2Exception {
        decoder.onPingRead(ctx, data);
    }

    @Override
    public void onPingAckRead(ChannelHandlerContext ctx, long data) throws Http2Exception {
        decoder.onPingAckRead(ctx, data);
    }

    @Override
    public void onPushPromiseRead(ChannelHandlerContext ctx, int streamId, int promisedStreamId,
                                  Http2Headers headers, int padding) throws Http2Exception {
        // RFC 9113 5.1: a PUSH_PROMISE reserves its stream even when the associated stream was reset. Netty
        // ignores one on a stream this end reset or that closed and reserves nothing, so the id is learnt here,
        // not only from the reserved stream: it is not one the server skipped. (A client's PUSH_PROMISE is
        // Netty's connection error, and promises nothing.)
        if (!connection.isServer() && isRemote(promisedStreamId)) {
            markOpened(promisedStreamId);
        }
        decoder.onPushPromiseRead(ctx, streamId, promisedStreamId, headers, padding);
    }

    @Override
    public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData)
            throws Http2Exception {
        decoder.onGoAwayRead(ctx, lastStreamId, errorCode, debugData);
    }

    @Override
    public void onWindowUpdateRead(ChannelHandlerContext ctx, int streamId, int windowSizeIncrement)
            throws Http2Exception {
        decoder.onWindowUpdateRead(ctx, streamId, windowSizeIncrement);
    }

    @Override
    public void onUnknownFrame(ChannelHandlerContext ctx, byte frameType, int streamId, Http2Flags flags,
                               ByteBuf payload) throws Http2Exception {
        decoder.onUnknownFrame(ctx, frameType, streamId, flags, payload);
    }
}
