/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.Http2Headers;

/**
 * A {@link DefaultHttp2HeadersDecoder} that decodes into array-backed headers, which
 * {@link PooledHttp2FrameReader} recycles with the HEADERS or PUSH_PROMISE frame that owns them. HPACK, the
 * dynamic table, the header-list-size limits and every validation are Netty's: only the container differs,
 * and it validates what is added exactly as {@code DefaultHttp2Headers} does.
 *
 * <p>Give one to a reader's constructor to choose the limits yourself; the reader's other constructors and the
 * builders make one with Netty's defaults. Decoded outside a reader (a direct {@link #decodeHeaders} call) the
 * headers are a new object each time, as with the stock decoder. Like the stock decoder, an instance belongs to
 * one connection.
 */
public final class PooledHttp2HeadersDecoder extends DefaultHttp2HeadersDecoder {

    /** The frame's headers to decode the next block into, set by the reader around one decode. */
    private PooledHttp2Headers target;

    /** Like {@code new DefaultHttp2HeadersDecoder()}: validates names and values. */
    public PooledHttp2HeadersDecoder() {
        super();
    }

    /** Like {@code new DefaultHttp2HeadersDecoder(validateHeaders)}: values validated as names are. */
    public PooledHttp2HeadersDecoder(boolean validateHeaders) {
        super(validateHeaders);
    }

    /** Like {@code new DefaultHttp2HeadersDecoder(validateHeaders, validateHeaderValues)}. */
    public PooledHttp2HeadersDecoder(boolean validateHeaders, boolean validateHeaderValues) {
        super(validateHeaders, validateHeaderValues);
    }

    /** Like {@code new DefaultHttp2HeadersDecoder(validateHeaders, maxHeaderListSize)}: values not validated. */
    public PooledHttp2HeadersDecoder(boolean validateHeaders, long maxHeaderListSize) {
        super(validateHeaders, maxHeaderListSize);
    }

    /** Like {@code new DefaultHttp2HeadersDecoder(validateHeaders, validateHeaderValues, maxHeaderListSize)}. */
    public PooledHttp2HeadersDecoder(boolean validateHeaders, boolean validateHeaderValues, long maxHeaderListSize) {
        super(validateHeaders, validateHeaderValues, maxHeaderListSize);
    }

    /** The reader calls this just before decoding a block that will belong to the frame owning {@code headers}. */
    void decodeInto(PooledHttp2Headers headers) {
        target = headers;
    }

    /** A new container, with the validation settings of this decoder, for a frame that has none yet. */
    PooledHttp2Headers newFrameHeaders() {
        return new PooledHttp2Headers(validateHeaders(), validateHeaderValues(), numberOfHeadersGuess() << 1);
    }

    @Override
    protected Http2Headers newHeaders() {
        PooledHttp2Headers headers = target;
        if (headers == null) {
            return newFrameHeaders();
        }
        target = null;
        headers.empty();
        headers.prepare(validateHeaders(), validateHeaderValues());
        return headers;
    }
}
