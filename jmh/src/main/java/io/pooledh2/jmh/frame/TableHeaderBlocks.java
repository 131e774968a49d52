/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.frame;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersEncoder;

import java.util.Arrays;
import java.util.Random;
import java.util.UUID;

/**
 * HPACK header blocks that use the dynamic table as a peer's encoder does (Netty's, with the default 4 KiB table),
 * and that can still be decoded again and again honestly: each is checked to leave a decoder in the state it
 * found it, or comes in a cycle that does.
 */
final class TableHeaderBlocks {

    /** Blocks in a rotation: the first starts with table size updates that empty the table. */
    static final int ROTATION = 1024;
    /** A table size update to 0, then one back to 4096 (RFC 7541, section 6.3): an empty table of 4 KiB. */
    private static final byte[] EMPTY_THE_TABLE = {0x20, 0x3F, (byte) 0xE1, 0x1F};

    private TableHeaderBlocks() {
    }

    /**
     * A request with 100 regular headers whose fields (about 7.3 KB of header list, 72 bytes each in HPACK's
     * count) do not fit the 4 KiB table: every field is inserted as a literal and evicts one inserted 50 or so
     * fields before, so by the next request each has left the table and comes as a literal again. The values
     * repeat from request to request. The block is Netty's encoder's once it repeats itself, and is checked to
     * hold only literals with incremental indexing and static-table references: decoding it again is exactly
     * the next request of the same connection.
     */
    static byte[] overflowingTable() {
        Http2Headers headers = new DefaultHttp2Headers().method("GET").scheme("https").authority("api.example.com")
                .path("/v1/items");
        for (int i = 0; i < 100; i++) {
            headers.add(String.format("x-app-setting-%02d", i), String.format("value-%02d-abcdefghijklmn", i));
        }
        DefaultHttp2HeadersEncoder encoder = new DefaultHttp2HeadersEncoder(Http2HeadersEncoder.NEVER_SENSITIVE, true);
        byte[] previous = null;
        for (int i = 0; i < 10; i++) {
            byte[] block = encode(encoder, headers);
            if (Arrays.equals(previous, block)) {
                if (requireLiteralsAndStaticOnly(block) < 100) {
                    throw new IllegalStateException("fewer than 100 fields inserted per block");
                }
                return block;
            }
            previous = block;
        }
        throw new IllegalStateException("the encoder's blocks do not repeat");
    }

    /**
     * {@link #ROTATION} requests of a connection, each the headers of {@link StaticHeaderBlocks#requestTenHeaders()}
     * with {@code x-request-id} and {@code traceparent} new in every one ({@code newIds}), or the same in every one.
     * Encoded in sequence by one encoder, so the repeating fields are dynamic-table references and the new values
     * literals that are inserted and evict older ones. The first block starts with size updates that empty the
     * table, which the encoder's first block found empty: decoded in a cycle, each block meets the table its
     * encoder left. Checked by decoding the cycle twice with Netty's decoder.
     */
    static byte[][] rotation(boolean newIds) {
        Random random = new Random(55);
        Http2Headers[] headers = new Http2Headers[ROTATION];
        for (int i = 0; i < ROTATION; i++) {
            String requestId = newIds ? new UUID(random.nextLong(), random.nextLong()).toString()
                    : "5b1e7c64-2f0a-4d8e-9b3a-81c2d6e0f4a7";
            String traceparent = newIds
                    ? String.format("00-%016x%016x-%016x-01", random.nextLong(), random.nextLong(), random.nextLong())
                    : "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
            headers[i] = StaticHeaderBlocks.requestTenHeaders().set("x-request-id", requestId)
                    .add("traceparent", traceparent);
        }
        return cycle(headers);
    }

    /**
     * {@link #ROTATION} requests of a peer that sends new strings every time: the four pseudo-headers and ten
     * headers whose names ({@code x-} and 8 random letters) and values (24 random characters) are all new in every
     * request. Netty's encoder inserts each into the table, which evicts older ones: the case where a cache of
     * seen strings only costs. Decoded in a cycle as {@link #rotation}.
     */
    static byte[][] randomStrings() {
        Random random = new Random(56);
        String letters = "abcdefghijklmnopqrstuvwxyz";
        String chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~";
        Http2Headers[] headers = new Http2Headers[ROTATION];
        for (int i = 0; i < ROTATION; i++) {
            headers[i] = StaticHeaderBlocks.requestPseudoHeaders();
            for (int h = 0; h < 10; h++) {
                StringBuilder name = new StringBuilder("x-");
                for (int c = 0; c < 8; c++) {
                    name.append(letters.charAt(random.nextInt(letters.length())));
                }
                StringBuilder value = new StringBuilder();
                for (int c = 0; c < 24; c++) {
                    value.append(chars.charAt(random.nextInt(chars.length())));
                }
                headers[i].add(name.toString(), value.toString());
            }
        }
        return cycle(headers);
    }

    /**
     * The blocks of {@code headers} encoded in sequence by one encoder, the first behind size updates that empty
     * the table, checked by decoding the cycle twice with Netty's decoder.
     */
    private static byte[][] cycle(Http2Headers[] headers) {
        DefaultHttp2HeadersEncoder encoder = new DefaultHttp2HeadersEncoder(Http2HeadersEncoder.NEVER_SENSITIVE, true);
        byte[][] blocks = new byte[headers.length][];
        for (int i = 0; i < headers.length; i++) {
            blocks[i] = encode(encoder, headers[i]);
        }
        byte[] first = new byte[EMPTY_THE_TABLE.length + blocks[0].length];
        System.arraycopy(EMPTY_THE_TABLE, 0, first, 0, EMPTY_THE_TABLE.length);
        System.arraycopy(blocks[0], 0, first, EMPTY_THE_TABLE.length, blocks[0].length);
        blocks[0] = first;
        DefaultHttp2HeadersDecoder decoder = new DefaultHttp2HeadersDecoder();
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < blocks.length; i++) {
                Http2Headers decoded = decode(decoder, blocks[i]);
                if (!decoded.equals(headers[i])) {
                    throw new IllegalStateException("block " + i + " of the rotation decodes to " + decoded);
                }
            }
        }
        return blocks;
    }

    private static Http2Headers decode(DefaultHttp2HeadersDecoder decoder, byte[] block) {
        ByteBuf in = Unpooled.wrappedBuffer(block);
        try {
            return decoder.decodeHeaders(3, in);
        } catch (Http2Exception e) {
            throw new IllegalStateException(e);
        } finally {
            in.release();
        }
    }

    private static byte[] encode(DefaultHttp2HeadersEncoder encoder, Http2Headers headers) {
        ByteBuf out = Unpooled.buffer();
        try {
            encoder.encodeHeaders(3, headers, out);
            return ByteBufUtil.getBytes(out);
        } catch (Http2Exception e) {
            throw new IllegalStateException(e);
        } finally {
            out.release();
        }
    }

    /**
     * Walks the representations of an HPACK block and fails on a dynamic-table reference, a size update or a
     * literal without incremental indexing; returns the number of literals with incremental indexing.
     */
    private static int requireLiteralsAndStaticOnly(byte[] block) {
        int[] pos = {0};
        int inserted = 0;
        while (pos[0] < block.length) {
            int b = block[pos[0]] & 0xFF;
            if ((b & 0x80) != 0) {
                StaticHeaderBlocks.requireStatic(StaticHeaderBlocks.readInteger(block, pos, 7), block);
            } else if ((b & 0xC0) == 0x40) {
                int nameIndex = StaticHeaderBlocks.readInteger(block, pos, 6);
                if (nameIndex == 0) {
                    StaticHeaderBlocks.skipString(block, pos);
                } else {
                    StaticHeaderBlocks.requireStatic(nameIndex, block);
                }
                StaticHeaderBlocks.skipString(block, pos);
                inserted++;
            } else {
                throw new IllegalStateException("not a literal with incremental indexing at " + pos[0] + " in "
                        + ByteBufUtil.hexDump(block));
            }
        }
        return inserted;
    }
}
