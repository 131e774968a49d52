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
 * Assembles a header block split over a HEADERS or PUSH_PROMISE frame and its CONTINUATION frames, and decodes
 * it.
 *
 * <p>A block that fits in one frame (the usual case) needs no assembly: {@link #decodeWhole} decodes it straight
 * from the input, with no copy, no slice and no object of this class, so a connection between blocks holds
 * nothing for them. A split block gets an instance, with one buffer from the channel's allocator that
 * accumulates the fragments and is given back as soon as the block ends. The size limits are those of
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

    /** Decodes a block that came whole in one frame: the next {@code length} bytes of {@code in}. */
    static Http2Headers decodeWhole(Http2HeadersDecoder decoder, ByteBuf in, int length, int streamId)
            throws Http2Exception {
        long maxBlockSize = decoder.configuration().maxHeaderListSizeGoAway();
        if (length > maxBlockSize) {
            Http2CodecUtil.headerListSizeExceeded(maxBlockSize);
        }
        // Narrows the input's readable window to the block, then restores it.
        int writerIndex = in.writerIndex();
        in.writerIndex(in.readerIndex() + length);
        try {
            return decoder.decodeHeaders(streamId, in);
        } finally {
            in.writerIndex(writerIndex);
        }
    }

    int smallFragments() {
        return smallFragments;
    }

    /** The first fragment, from a HEADERS or PUSH_PROMISE frame without END_HEADERS. */
    void start(ByteBufAllocator alloc, ByteBuf in, int length) throws Http2Exception {
        countFragment(length);
        long maxBlockSize = decoder.configuration().maxHeaderListSizeGoAway();
        if (length > maxBlockSize) {
            Http2CodecUtil.headerListSizeExceeded(maxBlockSize);
        }
        accumulated = alloc.buffer(length);
        accumulated.writeBytes(in, length);
    }

    /**
     * Adds the next {@code length} bytes of {@code in}, a CONTINUATION fragment, and, if {@code endOfHeaders},
     * decodes the block.
     *
     * @return the decoded headers when the block ended, else {@code null}
     */
    Http2Headers add(ByteBuf in, int length, boolean endOfHeaders, int streamId) throws Http2Exception {
        if (!endOfHeaders) {
            countFragment(length);
        }
        long maxBlockSize = decoder.configuration().maxHeaderListSizeGoAway();
        if (maxBlockSize - length < accumulated.readableBytes()) {
            Http2CodecUtil.headerListSizeExceeded(maxBlockSize);
        }
        accumulated.writeBytes(in, length);
        return endOfHeaders ? decoder.decodeHeaders(streamId, accumulated) : null;
    }

    private void countFragment(int length) {
        if (maxSmallFragments > 0 && length < SMALL_FRAGMENT_THRESHOLD) {
            smallFragments++;
        }
    }

    /** The block ended, finished or abandoned: the buffer goes back to the allocator. */
    void release() {
        ByteBuf accumulated = this.accumulated;
        if (accumulated != null) {
            this.accumulated = null;
            accumulated.release();
        }
    }
}
