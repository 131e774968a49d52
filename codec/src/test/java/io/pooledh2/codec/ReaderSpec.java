/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.Http2FrameReader;
import io.netty.handler.codec.http2.Http2HeadersDecoder;

import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One of the public constructors of the readers, with its arguments. It builds the stock reader and the
 * pooled reader the same way; each reader gets its own headers decoder, because HPACK decoders are stateful.
 */
final class ReaderSpec {

    /** Which reader to build: the stock one, or the pooled one with one of its switches. */
    enum Variant {
        STOCK,
        /** The pooled reader as constructed, system properties at their defaults. */
        POOLED,
        /** {@code paranoid(true)}: frames are never reused and use after release throws. */
        POOLED_PARANOID,
        /** {@code reuseFrames(false)}: a new frame object per frame. */
        POOLED_NO_REUSE,
        /**
         * {@code listenerKeepsNothing(true)}: the listener gets the frames' own settings, unknown flags and payload
         * views, not new ones or slices of the input. Only valid with listeners that keep nothing past the call (not
         * {@code Style.RETAIN}).
         */
        POOLED_KEEPS_NOTHING
    }

    private final String name;
    private final Supplier<Http2FrameReader> stock;
    private final Supplier<PooledHttp2FrameReader> pooled;

    private ReaderSpec(String name, Supplier<Http2FrameReader> stock, Supplier<PooledHttp2FrameReader> pooled) {
        this.name = name;
        this.stock = stock;
        this.pooled = pooled;
    }

    /** {@code new XxxHttp2FrameReader()} */
    static ReaderSpec defaults() {
        return new ReaderSpec("()", DefaultHttp2FrameReader::new, PooledHttp2FrameReader::new);
    }

    /** {@code new XxxHttp2FrameReader(validateHeaders)} */
    static ReaderSpec validateHeaders(boolean validateHeaders) {
        return new ReaderSpec("(" + validateHeaders + ")",
                () -> new DefaultHttp2FrameReader(validateHeaders),
                () -> new PooledHttp2FrameReader(validateHeaders));
    }

    /** {@code new XxxHttp2FrameReader(new DefaultHttp2HeadersDecoder(true, maxHeaderListSize))} */
    static ReaderSpec maxHeaderListSize(long maxHeaderListSize) {
        return withDecoder("(decoder(maxHeaderListSize=" + maxHeaderListSize + "))",
                () -> new DefaultHttp2HeadersDecoder(true, maxHeaderListSize),
                DefaultHttp2FrameReader::new, PooledHttp2FrameReader::new);
    }

    /** {@code new XxxHttp2FrameReader(new DefaultHttp2HeadersDecoder(true), maxSmallContinuationFrames)} */
    static ReaderSpec maxSmallContinuationFrames(int maxSmallContinuationFrames) {
        return withDecoder("(decoder, maxSmallContinuationFrames=" + maxSmallContinuationFrames + ")",
                () -> new DefaultHttp2HeadersDecoder(true),
                decoder -> new DefaultHttp2FrameReader(decoder, maxSmallContinuationFrames),
                decoder -> new PooledHttp2FrameReader(decoder, maxSmallContinuationFrames));
    }

    private static ReaderSpec withDecoder(String name, Supplier<Http2HeadersDecoder> decoder,
                                          Function<Http2HeadersDecoder, Http2FrameReader> stock,
                                          Function<Http2HeadersDecoder, PooledHttp2FrameReader> pooled) {
        return new ReaderSpec(name, () -> stock.apply(decoder.get()), () -> pooled.apply(decoder.get()));
    }

    Http2FrameReader create(Variant variant) {
        switch (variant) {
            case STOCK:
                return stock.get();
            case POOLED:
                return pooled.get();
            case POOLED_PARANOID:
                return pooled.get().paranoid(true);
            case POOLED_NO_REUSE:
                return pooled.get().reuseFrames(false);
            case POOLED_KEEPS_NOTHING:
                return pooled.get().listenerKeepsNothing(true);
            default:
                throw new IllegalArgumentException(variant.name());
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
