/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.Recycler;

/**
 * HEADERS or PUSH_PROMISE: a frame that ends a header block and carries its decoded headers.
 *
 * <p>With {@link PooledHttp2HeadersDecoder} the headers are the frame's own array-backed container, kept with
 * the frame: a pooled frame empties it when it is released and the next block decodes into it again. A frame
 * that is never reused (reuse off, paranoid mode) leaves its headers as they are and drops them, so that a
 * consumer holding them sees what it would see with per-frame allocation.
 */
abstract class HeaderBlockFrame extends StreamFrame {

    /** The decoded headers: {@link #ownHeaders}, or the container a caller-supplied decoder made. */
    Http2Headers headers;
    int padding;
    /** The reusable container, made on the first block decoded into this frame. */
    private PooledHttp2Headers ownHeaders;

    HeaderBlockFrame(Recycler.Handle<? extends PooledFrame> handle) {
        super(handle, false);
    }

    /** Subclasses call this from {@link #clear()}. */
    final void clearHeaderBlock() {
        PooledHttp2Headers own = ownHeaders;
        if (own != null) {
            if (pooled()) {
                own.recycle();
            } else {
                ownHeaders = null;
            }
        }
        headers = null;
        padding = 0;
        clearStream();
    }

    /**
     * The headers are emptied, as on a release. The frame keeps pointing at its own container, which the next
     * block fills: no reference store, which would cost a GC barrier. The container keeps the block's references
     * out of reach, so that the next block stores only what differs ({@link PooledHttp2Headers#reuse()}).
     */
    final void emptyHeaders() {
        PooledHttp2Headers own = ownHeaders;
        if (own != null && headers == own) {
            own.reuse();
        } else {
            headers = null;
        }
    }

    @Override
    void forgetLastParse() {
        super.forgetLastParse();
        // Free, the frame's headers are its own emptied container or null (see emptyHeaders).
        if (ownHeaders != null) {
            ownHeaders.recycle();
        }
    }

    /** The container the next block of this frame decodes into. */
    final PooledHttp2Headers reusableHeaders(PooledHttp2HeadersDecoder decoder) {
        PooledHttp2Headers own = ownHeaders;
        if (own == null) {
            ownHeaders = own = decoder.newFrameHeaders();
        }
        return own;
    }

    /** Whether {@link #headers} is the frame's own container, which a reuse of the frame will empty. */
    final boolean headersReusedWithFrame() {
        return headers != null && headers == ownHeaders && pooled();
    }
}
