/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersDecoder;

/**
 * Assembles the header block of a HEADERS or PUSH_PROMISE frame and its CONTINUATION frames, and decodes it.
 *
 * <p>A block that fits in one frame (the usual case) is decoded straight from the input, with no copy and no
 * slice. A block split over several frames is accumulated in one buffer from the channel's allocator, given
 * back as soon as the block ends, so a reader between blocks holds no buffer. The size limits are those of
 * {@code DefaultHttp2FrameReader}: the block may not exceed {@code maxHeaderListSizeGoAway}, and small
 * fragments are counted for the CONTINUATION-flood limit.
 */
final class HeaderBlock {

    /** Fragments smaller than this, without END_HEADERS, count towards the CONTINUATION-flood limit. */
    private static final int SMALL_FRAGMENT_THRESHOLD = 8192;

    private final Http2HeadersDecoder decoder;
    private final int maxSmallFragments;
    private ByteBuf accumulated;
    private int smallFragments;

    HeaderBlock(Http2HeadersDecoder decoder, int maxSmallFragments) {
        this.decoder = decoder;
        this.maxSmallFragments = maxSmallFragments;
    }

    int smallFragments() {
        return smallFragments;
    }

    /**
     * Adds the next {@code length} bytes of {@code in} to the block and, if {@code endOfHeaders}, decodes it.
     *
     * @return the decoded headers when the block ended, else {@code null}
     */
    Http2Headers add(ByteBufAllocator alloc, ByteBuf in, int length, boolean endOfHeaders, int streamId)
            throws Http2Exception {
        if (maxSmallFragments > 0 && !endOfHeaders && length < SMALL_FRAGMENT_THRESHOLD) {
            smallFragments++;
        }
        long maxBlockSize = decoder.configuration().maxHeaderListSizeGoAway();
        if (accumulated == null) {
            if (length > maxBlockSize) {
                Http2CodecUtil.headerListSizeExceeded(maxBlockSize);
            }
            if (endOfHeaders) {
                return decodeInPlace(in, length, streamId);
            }
            accumulated = alloc.buffer(length);
            accumulated.writeBytes(in, length);
            return null;
        }
        if (maxBlockSize - length < accumulated.readableBytes()) {
            Http2CodecUtil.headerListSizeExceeded(maxBlockSize);
        }
        accumulated.writeBytes(in, length);
        return endOfHeaders ? decoder.decodeHeaders(streamId, accumulated) : null;
    }

    /** Decodes the next {@code length} bytes of {@code in} by narrowing its readable window, then restores it. */
    private Http2Headers decodeInPlace(ByteBuf in, int length, int streamId) throws Http2Exception {
        int writerIndex = in.writerIndex();
        in.writerIndex(in.readerIndex() + length);
        try {
            return decoder.decodeHeaders(streamId, in);
        } finally {
            in.writerIndex(writerIndex);
        }
    }

    /** Ends the block, finished or abandoned: the buffer goes back to the allocator. */
    void reset() {
        smallFragments = 0;
        ByteBuf accumulated = this.accumulated;
        if (accumulated != null) {
            this.accumulated = null;
            accumulated.release();
        }
    }

    /** For tests: whether the block holds a buffer. */
    boolean holdsBuffer() {
        return accumulated != null;
    }
}
