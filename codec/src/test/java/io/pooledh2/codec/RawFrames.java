/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2Headers;

import java.nio.charset.StandardCharsets;

/** Writes raw frames byte by byte, valid or not, so that tests control every field of the wire format. */
final class RawFrames {

    private RawFrames() {
    }

    static void header(ByteBuf out, int length, int type, int flags, int streamId) {
        out.writeMedium(length);
        out.writeByte(type);
        out.writeByte(flags);
        out.writeInt(streamId);
    }

    static void frame(ByteBuf out, int type, int flags, int streamId, byte[] payload) {
        header(out, payload.length, type, flags, streamId);
        out.writeBytes(payload);
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** An HPACK block for the given name/value pairs, from a fresh encoder (no dynamic table state). */
    static byte[] headerBlock(CharSequence... namesAndValues) throws Http2Exception {
        Http2Headers headers = new DefaultHttp2Headers(false);
        for (int i = 0; i < namesAndValues.length; i += 2) {
            headers.add(namesAndValues[i], namesAndValues[i + 1]);
        }
        ByteBuf block = Unpooled.buffer();
        try {
            new DefaultHttp2HeadersEncoder().encodeHeaders(1, headers, block);
            byte[] out = new byte[block.readableBytes()];
            block.readBytes(out);
            return out;
        } finally {
            block.release();
        }
    }

    /**
     * An HPACK block of literal fields without indexing, raw strings, in exactly the given order (an encoder
     * given {@code Http2Headers} always puts pseudo-headers first). Names and values under 127 bytes.
     */
    static byte[] literalBlock(String... namesAndValues) {
        ByteBuf block = Unpooled.buffer();
        try {
            for (int i = 0; i < namesAndValues.length; i += 2) {
                block.writeByte(0x00);
                byte[] name = bytes(namesAndValues[i]);
                byte[] value = bytes(namesAndValues[i + 1]);
                block.writeByte(name.length).writeBytes(name);
                block.writeByte(value.length).writeBytes(value);
            }
            byte[] out = new byte[block.readableBytes()];
            block.readBytes(out);
            return out;
        } finally {
            block.release();
        }
    }

    static byte[] requestHeaders(String path) throws Http2Exception {
        return headerBlock(":method", "GET", ":scheme", "http", ":authority", "localhost", ":path", path);
    }

    /** A request on stream 1 without END_STREAM, then 10 empty DATA frames on it: over Netty's default limit of 2. */
    static void emptyDataFlood(ByteBuf out) {
        try {
            frame(out, 0x1, Http2Flags.END_HEADERS, 1, requestHeaders("/flood"));
        } catch (Http2Exception e) {
            throw new AssertionError(e);
        }
        for (int i = 0; i < 10; i++) {
            header(out, 0, 0x0, 0, 1);
        }
    }
}
