/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.frame;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersEncoder;

/**
 * HPACK header blocks that can be decoded again and again with the same result: they use only static-table
 * references and literals without indexing, so decoding leaves the decoder's dynamic table as it was (empty).
 * Encoded by Netty's own encoder told that the peer's table size is 0, then checked representation by
 * representation.
 */
final class StaticHeaderBlocks {

    /** The static table of RFC 7541, appendix A, has 61 entries. */
    private static final int STATIC_TABLE_LENGTH = 61;

    private StaticHeaderBlocks() {
    }

    /** A GET request with pseudo-headers only: three static-table hits and one literal with an indexed name. */
    static Http2Headers requestPseudoHeaders() {
        return new DefaultHttp2Headers()
                .method("GET")
                .scheme("https")
                .path("/index.html")
                .authority("www.example.com");
    }

    /**
     * {@link #requestPseudoHeaders()} plus ten regular headers: static hits, literals with a static name, new names.
     */
    static Http2Headers requestTenHeaders() {
        return requestPseudoHeaders()
                .add("accept-encoding", "gzip, deflate")                 // static entry 16, a full hit
                .add("accept", "application/json")                      // static name 19, literal value
                .add("user-agent", "pooledh2-bench/0.1 (netty 4.2)")    // static name 58
                .add("content-type", "application/grpc+proto")          // static name 31
                .add("accept-language", "en-US,en;q=0.8")               // static name 17
                .add("cache-control", "no-cache")                       // static name 24
                .add("cookie", "session=7f3a9c2e; theme=dark")          // static name 32
                .add("te", "trailers")                                  // new name
                .add("grpc-timeout", "1500m")                           // new name
                .add("x-request-id", "5b1e7c64-2f0a-4d8e-9b3a-81c2d6e0f4a7"); // new name
    }

    /**
     * {@link #requestTenHeaders()} plus 90 headers with new names and short values: 100 regular headers, about
     * 4.7 KB of header list, under the decoder's default 8 KiB limit.
     */
    static Http2Headers requestHundredHeaders() {
        Http2Headers headers = requestTenHeaders();
        for (int i = 0; i < 90; i++) {
            headers.add("x-h-" + i, "value-" + i);
        }
        return headers;
    }

    /** The HPACK block for {@code headers}, using only the static table; see the class comment. */
    static byte[] encode(Http2Headers headers) {
        DefaultHttp2HeadersEncoder encoder =
                new DefaultHttp2HeadersEncoder(Http2HeadersEncoder.NEVER_SENSITIVE, true);
        ByteBuf out = Unpooled.buffer();
        try {
            encoder.maxHeaderTableSize(0);
            // The first block starts with the table size update to 0; the second is the one to keep.
            encoder.encodeHeaders(1, headers, out);
            out.clear();
            encoder.encodeHeaders(1, headers, out);
            byte[] block = ByteBufUtil.getBytes(out);
            requireStaticOnly(block);
            return block;
        } catch (Http2Exception e) {
            throw new IllegalStateException(e);
        } finally {
            out.release();
        }
    }

    /**
     * Walks the representations of an HPACK block and fails on anything that touches the dynamic table:
     * a literal with incremental indexing, a table size update, or an index past the static table.
     */
    static void requireStaticOnly(byte[] block) {
        int[] pos = {0};
        while (pos[0] < block.length) {
            int b = block[pos[0]] & 0xFF;
            if ((b & 0x80) != 0) {                       // indexed header field
                requireStatic(readInteger(block, pos, 7), block);
            } else if ((b & 0xC0) == 0x40) {
                throw new IllegalStateException("literal with incremental indexing in " + hex(block));
            } else if ((b & 0xE0) == 0x20) {
                throw new IllegalStateException("dynamic table size update in " + hex(block));
            } else {                                     // literal without indexing (0000) or never indexed (0001)
                int nameIndex = readInteger(block, pos, 4);
                if (nameIndex == 0) {
                    skipString(block, pos);
                } else {
                    requireStatic(nameIndex, block);
                }
                skipString(block, pos);
            }
        }
    }

    static void requireStatic(int index, byte[] block) {
        if (index < 1 || index > STATIC_TABLE_LENGTH) {
            throw new IllegalStateException("index " + index + " is not in the static table, in " + hex(block));
        }
    }

    /** RFC 7541 5.1: an integer with an N-bit prefix, starting at the current byte. */
    static int readInteger(byte[] block, int[] pos, int prefixBits) {
        int max = (1 << prefixBits) - 1;
        int value = block[pos[0]++] & max;
        if (value < max) {
            return value;
        }
        int shift = 0;
        int b;
        do {
            b = block[pos[0]++] & 0xFF;
            value += (b & 0x7F) << shift;
            shift += 7;
        } while ((b & 0x80) != 0);
        return value;
    }

    /** RFC 7541 5.2: a string literal (Huffman flag and 7-bit prefix length), skipped. */
    static void skipString(byte[] block, int[] pos) {
        int length = readInteger(block, pos, 7);
        pos[0] += length;
        if (pos[0] > block.length) {
            throw new IllegalStateException("string literal runs past the block: " + hex(block));
        }
    }

    private static String hex(byte[] block) {
        return ByteBufUtil.hexDump(block);
    }
}
