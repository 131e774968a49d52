/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersEncoder;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Produces HPACK header blocks with Netty's own encoder. One instance stands for the sending side of one
 * connection: its dynamic table advances with every block, so the blocks of one test must be read in the
 * order they were encoded, by one reader.
 */
final class HeaderBlocks {

    /** An index of 0 is never valid in HPACK: the decoder must fail with COMPRESSION_ERROR. */
    static final byte[] ILLEGAL_INDEX = Frames.bytes(0x80);

    /** A dynamic table size update to 65536, above the decoder's 4096 default: COMPRESSION_ERROR. */
    static final byte[] TABLE_SIZE_UPDATE_TOO_LARGE = Frames.bytes(0x3f, 0xe1, 0xff, 0x03);

    /** An integer that never ends: the decoder runs out of input in the middle of a representation. */
    static final byte[] TRUNCATED_INTEGER = Frames.bytes(0xff, 0xff, 0xff);

    // ignoreMaxHeaderListSize = true: tests need blocks larger than any limit the reader is given.
    private final DefaultHttp2HeadersEncoder encoder =
            new DefaultHttp2HeadersEncoder(Http2HeadersEncoder.NEVER_SENSITIVE, true);

    byte[] encode(Http2Headers headers) {
        ByteBuf out = Unpooled.buffer();
        try {
            encoder.encodeHeaders(3, headers, out);
            return ByteBufUtil.getBytes(out);
        } catch (Http2Exception e) {
            throw new AssertionError("test headers must encode", e);
        } finally {
            out.release();
        }
    }

    static Http2Headers request(String path) {
        return new DefaultHttp2Headers()
                .method("GET").scheme("https").authority("example.com").path(path)
                .add("user-agent", "pooledh2-test")
                .add("accept", "*/*");
    }

    static Http2Headers response(int status) {
        return new DefaultHttp2Headers().status(Integer.toString(status))
                .add("content-type", "text/plain")
                .add("x-trace", "abc");
    }

    /**
     * A request with a header value of {@code valueLength} characters. The characters have Huffman codes longer
     * than 8 bits, so the encoder writes them raw and the block is {@code valueLength} plus a few dozen bytes.
     */
    static Http2Headers largeRequest(int valueLength) {
        String alphabet = "~^`{|}";
        StringBuilder value = new StringBuilder(valueLength);
        for (int i = 0; i < valueLength; i++) {
            value.append(alphabet.charAt(i % alphabet.length()));
        }
        return request("/large").add("x-large", value.toString());
    }

    /**
     * Headers the decoder rejects when it validates (upper case name), built without validation so the
     * encoder lets them through.
     */
    static Http2Headers invalidUpperCaseName() {
        return new DefaultHttp2Headers(false).method("GET").scheme("https").authority("example.com").path("/")
                .add("X-Upper", "1");
    }

    /** A connection-specific header, forbidden in HTTP/2. */
    static Http2Headers connectionSpecific() {
        return new DefaultHttp2Headers(false).method("GET").scheme("https").authority("example.com").path("/")
                .add("connection", "close");
    }

    /**
     * A pseudo header after a regular one. Written by hand: Netty's encoder always puts pseudo headers first.
     */
    static byte[] pseudoAfterRegular() {
        return Frames.concat(literal("accept", "*/*"), literal(":path", "/"));
    }

    /** "Literal Header Field without Indexing, New Name" with raw (not Huffman) strings under 127 bytes. */
    static byte[] literal(String name, String value) {
        byte[] n = name.getBytes(StandardCharsets.US_ASCII);
        byte[] v = value.getBytes(StandardCharsets.US_ASCII);
        return Frames.concat(Frames.bytes(0, n.length), n, Frames.bytes(v.length), v);
    }

    /** Cuts a block into fragments of at most {@code size} bytes (at least one fragment, possibly empty). */
    static List<byte[]> split(byte[] block, int size) {
        List<byte[]> fragments = new ArrayList<>();
        for (int from = 0; from < block.length; from += size) {
            fragments.add(Frames.slice(block, from, Math.min(block.length, from + size)));
        }
        if (fragments.isEmpty()) {
            fragments.add(new byte[0]);
        }
        return fragments;
    }
}
