/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;

import java.util.concurrent.ThreadLocalRandom;

import static io.netty.handler.codec.http2.Http2Error.COMPRESSION_ERROR;
import static io.netty.handler.codec.http2.Http2Exception.connectionError;

/**
 * A {@link DefaultHttp2HeadersDecoder} with an HPACK decoder of the library's own, which decodes into array-backed
 * headers that {@link PooledHttp2FrameReader} recycles with the HEADERS or PUSH_PROMISE frame that owns them.
 * Headers, dynamic table, header-list-size limits, validation and errors are Netty's, exception for exception; the
 * settings and the validation switches go through Netty's own decoder, so they are those of the Netty on the
 * class path. What differs is the garbage: a name or value this connection has decoded before is handed out again
 * as the same {@code AsciiString} instance instead of a new copy, by index while HPACK's dynamic table holds it
 * and, sent as a literal, after it left the table or when it came as a literal before (never-indexed fields are
 * never remembered); the table keeps no object per entry; and a string known to have passed Netty's validators is
 * not validated again.
 *
 * <p>Every name and value is an immutable {@code AsciiString}: it stays valid and unchanged after the frame that
 * carried it is released, and may be kept. What a connection remembers is bounded: at most 512 strings and, with
 * 16 bytes counted per string, no more than its header list size limit (capped at 64 KiB); see the project's {@code docs/reuse.md}.
 *
 * <p>Give one to a reader's constructor to choose the limits yourself; the reader's other constructors and the
 * builders make one with Netty's defaults. Decoded outside a reader (a direct {@link #decodeHeaders} call) the
 * headers are a new object each time, as with the stock decoder. Like the stock decoder, an instance belongs to
 * one connection.
 */
public final class PooledHttp2HeadersDecoder extends DefaultHttp2HeadersDecoder {

    private static final float HEADERS_COUNT_WEIGHT_NEW = 1 / 5f;
    private static final float HEADERS_COUNT_WEIGHT_HISTORICAL = 1 - HEADERS_COUNT_WEIGHT_NEW;

    /** The frame's headers to decode the next block into, set by the reader around one decode. */
    private PooledHttp2Headers target;
    private final HpackBlockDecoder hpack =
            new HpackBlockDecoder(super.maxHeaderListSize(), ThreadLocalRandom.current().nextInt());
    /** As Netty's decoder, a moving average of the headers per block: the size of a new container. */
    private float headerCountAverage = 8;

    /** Like {@code new DefaultHttp2HeadersDecoder()}: validates names (and values, from Netty 4.2.18). */
    public PooledHttp2HeadersDecoder() {
        super();
        dropNettysTable();
    }

    /**
     * Like {@code new DefaultHttp2HeadersDecoder(validateHeaders)}.
     *
     * @param validateHeaders whether header names are validated (and values, from Netty 4.2.18)
     */
    public PooledHttp2HeadersDecoder(boolean validateHeaders) {
        super(validateHeaders);
        dropNettysTable();
    }

    /**
     * Like {@code new DefaultHttp2HeadersDecoder(validateHeaders, validateHeaderValues)}.
     *
     * @param validateHeaders whether header names are validated
     * @param validateHeaderValues whether header values are validated
     */
    public PooledHttp2HeadersDecoder(boolean validateHeaders, boolean validateHeaderValues) {
        super(validateHeaders, validateHeaderValues);
        dropNettysTable();
    }

    /**
     * Like {@code new DefaultHttp2HeadersDecoder(validateHeaders, maxHeaderListSize)}.
     *
     * @param validateHeaders whether header names are validated (and values, from Netty 4.2.18)
     * @param maxHeaderListSize the header list size limit this end advertises (SETTINGS_MAX_HEADER_LIST_SIZE):
     *        a larger header list fails with the error Netty's decoder gives it
     */
    public PooledHttp2HeadersDecoder(boolean validateHeaders, long maxHeaderListSize) {
        super(validateHeaders, maxHeaderListSize);
        dropNettysTable();
    }

    /**
     * Like {@code new DefaultHttp2HeadersDecoder(validateHeaders, validateHeaderValues, maxHeaderListSize)}.
     *
     * @param validateHeaders whether header names are validated
     * @param validateHeaderValues whether header values are validated
     * @param maxHeaderListSize the header list size limit this end advertises (SETTINGS_MAX_HEADER_LIST_SIZE):
     *        a larger header list fails with the error Netty's decoder gives it
     */
    public PooledHttp2HeadersDecoder(boolean validateHeaders, boolean validateHeaderValues, long maxHeaderListSize) {
        super(validateHeaders, validateHeaderValues, maxHeaderListSize);
        dropNettysTable();
    }

    /** The reader calls this just before decoding a block that will belong to the frame owning {@code headers}. */
    void decodeInto(PooledHttp2Headers headers) {
        target = headers;
    }

    /** A new container, with the validation settings of this decoder, for a frame that has none yet. */
    PooledHttp2Headers newFrameHeaders() {
        return new PooledHttp2Headers(validateHeaders(), validateHeaderValues(), (int) headerCountAverage << 1);
    }

    @Override
    protected Http2Headers newHeaders() {
        PooledHttp2Headers headers = target;
        if (headers == null) {
            headers = newFrameHeaders();
        } else {
            target = null;
            headers.empty();
            headers.prepare(validateHeaders(), validateHeaderValues());
        }
        return headers;
    }

    @Override
    public Http2Headers decodeHeaders(int streamId, ByteBuf headerBlock) throws Http2Exception {
        try {
            PooledHttp2Headers headers = (PooledHttp2Headers) newHeaders();
            hpack.decode(streamId, headerBlock, headers, validateHeaders());
            headerCountAverage = HEADERS_COUNT_WEIGHT_NEW * headers.size()
                    + HEADERS_COUNT_WEIGHT_HISTORICAL * headerCountAverage;
            return headers;
        } catch (Http2Exception e) {
            throw e;
        } catch (Throwable e) {
            // As Netty's decoder: anything else (a validator's IllegalArgumentException) is a connection error.
            throw connectionError(COMPRESSION_ERROR, e, "Error decoding headers: %s", e.getMessage());
        }
    }

    /** Netty's decoder checks the size (its bounds are those of the Netty on the class path), then this one. */
    @Override
    public void maxHeaderTableSize(long max) throws Http2Exception {
        super.maxHeaderTableSize(max);
        dropNettysTable();
        hpack.maxHeaderTableSize(max);
    }

    /**
     * Netty's decoder, under this one, checks the settings but decodes nothing: its dynamic table is set to size 0,
     * so that it keeps an empty array rather than one of 128 slots (536 bytes) per connection.
     */
    private void dropNettysTable() {
        try {
            super.maxHeaderTableSize(0);
        } catch (Http2Exception e) {
            throw new IllegalStateException("a table size of 0 is always valid", e);
        }
    }

    @Override
    public long maxHeaderTableSize() {
        return hpack.maxHeaderTableSize();
    }

    /** Netty's decoder checks the sizes (its bounds are those of the Netty on the class path), then this one. */
    @Override
    public void maxHeaderListSize(long max, long goAwayMax) throws Http2Exception {
        super.maxHeaderListSize(max, goAwayMax);
        hpack.maxHeaderListSize(super.maxHeaderListSize());
    }

    /** For tests. */
    HpackBlockDecoder hpack() {
        return hpack;
    }
}
