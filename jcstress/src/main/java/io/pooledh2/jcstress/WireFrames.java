/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jcstress;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import io.pooledh2.codec.PooledHttp2FrameListener;
import io.pooledh2.codec.PooledHttp2FrameReader;

/**
 * HTTP/2 frames as bytes, built once per test class, and the reads that feed them to a reader. Each read wraps
 * the bytes in a buffer of its own: {@link Unpooled#wrappedBuffer(byte[])} copies nothing and is not
 * leak-tracked, so the many short-lived jcstress states cost little.
 */
public final class WireFrames {

    private static final int FLAG_END_STREAM = 0x1;
    private static final int FLAG_END_HEADERS = 0x4;
    private static final int FLAG_PADDED = 0x8;

    /**
     * The context handed to the reader. It only uses it for {@code ctx.alloc()} (a header block spread over
     * several frames) and passes it to the listener, so one context serves every state on every thread.
     */
    public static final ChannelHandlerContext CTX =
            new EmbeddedChannel(new ChannelInboundHandlerAdapter()).pipeline().firstContext();

    private WireFrames() {
    }

    /** Parses {@code frames} as one channel read would, then releases the input (frames keep their slices). */
    public static void read(PooledHttp2FrameReader reader, byte[] frames, PooledHttp2FrameListener listener)
            throws Http2Exception {
        ByteBuf input = Unpooled.wrappedBuffer(frames);   // the bytes are only read, never written
        try {
            reader.readFrame(CTX, input, listener);
        } finally {
            input.release();
        }
    }

    /** The same through the drop-in {@link Http2FrameListener} API, whose adapter releases every frame. */
    public static void read(PooledHttp2FrameReader reader, byte[] frames, Http2FrameListener listener)
            throws Http2Exception {
        ByteBuf input = Unpooled.wrappedBuffer(frames);
        try {
            reader.readFrame(CTX, input, listener);
        } finally {
            input.release();
        }
    }

    public static byte[] windowUpdate(int streamId, int increment) {
        ByteBuf out = Unpooled.buffer();
        header(out, 4, Http2FrameTypes.WINDOW_UPDATE, 0, streamId);
        out.writeInt(increment);
        return toArray(out);
    }

    /** A DATA frame; {@code padding} counts the pad-length byte, as Netty reports it (0 = not padded). */
    public static byte[] data(int streamId, byte[] payload, int padding, boolean endStream) {
        ByteBuf out = Unpooled.buffer();
        int flags = (endStream ? FLAG_END_STREAM : 0) | (padding > 0 ? FLAG_PADDED : 0);
        header(out, payload.length + padding, Http2FrameTypes.DATA, flags, streamId);
        if (padding > 0) {
            out.writeByte(padding - 1);
        }
        out.writeBytes(payload);
        out.writeZero(Math.max(0, padding - 1));
        return toArray(out);
    }

    /** A SETTINGS frame (not ACK) from id/value pairs. */
    public static byte[] settings(long... idValuePairs) {
        ByteBuf out = Unpooled.buffer();
        header(out, idValuePairs.length / 2 * 6, Http2FrameTypes.SETTINGS, 0, 0);
        for (int i = 0; i < idValuePairs.length; i += 2) {
            out.writeShort((int) idValuePairs[i]);
            out.writeInt((int) idValuePairs[i + 1]);
        }
        return toArray(out);
    }

    /**
     * A HEADERS frame with END_HEADERS. The block never uses HPACK's dynamic table, so each block decodes
     * on its own, whatever the reader decoded before.
     */
    public static byte[] headers(int streamId, boolean endStream, CharSequence... namesAndValues) {
        Http2Headers headers = new DefaultHttp2Headers(false);
        for (int i = 0; i < namesAndValues.length; i += 2) {
            headers.add(namesAndValues[i], namesAndValues[i + 1]);
        }
        ByteBuf block = Unpooled.buffer();
        Http2HeadersEncoder encoder = new DefaultHttp2HeadersEncoder(Http2HeadersEncoder.ALWAYS_SENSITIVE);
        try {
            encoder.encodeHeaders(streamId, headers, block);
        } catch (Http2Exception e) {
            throw new IllegalStateException(e);
        }
        ByteBuf out = Unpooled.buffer();
        header(out, block.readableBytes(), Http2FrameTypes.HEADERS,
                FLAG_END_HEADERS | (endStream ? FLAG_END_STREAM : 0), streamId);
        out.writeBytes(block);
        block.release();
        return toArray(out);
    }

    /** Several frames back to back, for one read that parses them all. */
    public static byte[] concat(byte[]... frames) {
        ByteBuf out = Unpooled.buffer();
        for (byte[] frame : frames) {
            out.writeBytes(frame);
        }
        return toArray(out);
    }

    private static void header(ByteBuf out, int length, byte type, int flags, int streamId) {
        out.writeMedium(length);
        out.writeByte(type);
        out.writeByte(flags);
        out.writeInt(streamId);
    }

    private static byte[] toArray(ByteBuf buf) {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        buf.release();
        return bytes;
    }
}
