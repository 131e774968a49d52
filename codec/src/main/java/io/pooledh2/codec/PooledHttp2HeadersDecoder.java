/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.Http2Headers;

import java.util.concurrent.ThreadLocalRandom;

/**
 * A {@link DefaultHttp2HeadersDecoder} that decodes into array-backed headers, which
 * {@link PooledHttp2FrameReader} recycles with the HEADERS or PUSH_PROMISE frame that owns them. HPACK, the
 * dynamic table, the header-list-size limits and every validation are Netty's: only the container differs,
 * and it validates what is added exactly as {@code DefaultHttp2Headers} does, except that a name or value that
 * is the very {@code AsciiString} instance that already passed the same validator on this thread (HPACK's
 * tables hand out the same instances block after block) is not validated again.
 *
 * <p>Give one to a reader's constructor to choose the limits yourself; the reader's other constructors and the
 * builders make one with Netty's defaults. Decoded outside a reader (a direct {@link #decodeHeaders} call) the
 * headers are a new object each time, as with the stock decoder. Like the stock decoder, an instance belongs to
 * one connection.
 */
public final class PooledHttp2HeadersDecoder extends DefaultHttp2HeadersDecoder {

    /** The frame's headers to decode the next block into, set by the reader around one decode. */
    private PooledHttp2Headers target;
    /**
     * This connection's key into the thread's {@link ValidatedHeaderStrings}: each connection has its own HPACK
     * dynamic table, so its own instances of the same content, and without a key of its own two connections
     * sending the same header would evict each other's instance on every block.
     */
    private int validatedSalt = ThreadLocalRandom.current().nextInt();
    /**
     * Blocks in a row in which the thread's table found fewer than three in four of the strings looked up, or
     * that did not look. Looking up a string that is not there (a literal HPACK did not index, an instance another
     * connection evicted) costs its hash and a store; so from the third such block on, a block looks only every
     * {@value #PROBE_EVERY} blocks (a probe, which remembers what it validates), and so does the block after a
     * probe, which finds those strings if they came back. One block that finds enough and every block looks again.
     */
    private int unrewardedBlocks;
    /**
     * Rare, because a probe that finds nothing stores every string it validates into the long-lived table: a G1
     * barrier each, and cards the next young collection scans. Probing one block in 64 cost a block of 104 literal
     * headers 10% of its time over probing one in 1,024.
     */
    static final int PROBE_EVERY = 1024;

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
            headers = newFrameHeaders();
        } else {
            target = null;
            headers.empty();
            headers.prepare(validateHeaders(), validateHeaderValues());
        }
        headers.lookUpValidated(unrewardedBlocks < 2 || unrewardedBlocks == PROBE_EVERY + 1, validatedSalt);
        return headers;
    }

    /** For tests: a chosen key instead of a random one. */
    void validatedSalt(int salt) {
        validatedSalt = salt;
    }

    /** The reader tells what a block decoded to: whether looking up validated strings paid. */
    void blockDecoded(Http2Headers headers) {
        if (headers instanceof PooledHttp2Headers) {
            PooledHttp2Headers decoded = (PooledHttp2Headers) headers;
            int lookups = decoded.validatedLookups;
            if (lookups != 0 && decoded.validatedHits << 2 >= lookups * 3) {
                unrewardedBlocks = 0;
            } else {
                // 0 and 1 look, 2 to PROBE_EVERY do not, PROBE_EVERY + 1 (the probe) does, then 1 again.
                unrewardedBlocks = unrewardedBlocks == PROBE_EVERY + 1 ? 1 : unrewardedBlocks + 1;
            }
        }
    }
}
