/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Header block assembly: what the reader holds between frames, and what it gives back on every way out. */
class HeaderBlockTest {

    private EmbeddedChannel channel;
    private ChannelHandlerContext ctx;
    private final List<String> seen = new ArrayList<>();
    private final PooledHttp2FrameListener recorder = (c, frame) -> {
        try {
            if (frame instanceof Http2HeadersFrame) {
                seen.add("HEADERS " + frame.streamId() + " " + ((Http2HeadersFrame) frame).headers().path());
            } else if (frame instanceof Http2DataFrame) {
                seen.add("DATA " + frame.streamId());
            } else {
                seen.add(frame.name());
            }
        } finally {
            frame.release();
        }
    };

    @BeforeEach
    void setUp() {
        channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        channel.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        ctx = channel.pipeline().firstContext();
    }

    @AfterEach
    void tearDown() {
        channel.finishAndReleaseAll();
    }

    /** HEADERS plus CONTINUATIONs carrying {@code block} in {@code parts} pieces. */
    private static void splitHeaders(ByteBuf out, int streamId, byte[] block, int parts) {
        int step = (block.length + parts - 1) / parts;
        for (int i = 0, offset = 0; offset < block.length; i++, offset += step) {
            int end = Math.min(block.length, offset + step);
            int flags = end == block.length ? Http2Flags.END_HEADERS : 0;
            RawFrames.frame(out, i == 0 ? 0x1 : 0x9, flags, streamId, Arrays.copyOfRange(block, offset, end));
        }
    }

    private ByteBuf buffer() {
        return PooledByteBufAllocator.DEFAULT.directBuffer();
    }

    @Test
    void splitBlockHoldsABufferOnlyWhileTheBlockIsOpen() throws Exception {
        PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
        byte[] block = RawFrames.requestHeaders("/split");
        ByteBuf all = buffer();
        splitHeaders(all, 1, block, 3);
        int firstTwoFrames = 9 + (block.length + 2) / 3 + 9 + (block.length + 2) / 3;
        ByteBuf in = buffer();
        try {
            in.writeBytes(all, firstTwoFrames);
            reader.readFrame(ctx, in, recorder);
            assertTrue(reader.holdsHeaderBlockBuffer(), "mid-block: the fragments so far are held");
            assertTrue(seen.isEmpty());
            in.writeBytes(all);
            reader.readFrame(ctx, in, recorder);
            assertFalse(reader.holdsHeaderBlockBuffer(), "the buffer is given back when the block ends");
            assertEquals(List.of("HEADERS 1 /split"), seen);
        } finally {
            all.release();
            in.release();
            reader.close();
        }
    }

    @Test
    void connectionErrorInsideABlockReleasesTheBuffer() throws Exception {
        PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
        byte[] block = RawFrames.requestHeaders("/abandoned");
        ByteBuf in = buffer();
        try {
            RawFrames.frame(in, 0x1, 0, 1, Arrays.copyOf(block, 4));
            RawFrames.frame(in, 0x0, 0, 1, RawFrames.bytes("not allowed here"));
            Http2Exception e = assertThrows(Http2Exception.class, () -> reader.readFrame(ctx, in, recorder));
            assertEquals(Http2Error.PROTOCOL_ERROR, e.error());
            assertFalse(Http2Exception.isStreamError(e));
            assertFalse(reader.holdsHeaderBlockBuffer());
            assertTrue(seen.isEmpty());
        } finally {
            in.release();
            reader.close();
        }
    }

    @Test
    void closeInsideABlockReleasesTheBuffer() throws Exception {
        PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
        ByteBuf in = buffer();
        try {
            RawFrames.frame(in, 0x1, 0, 1, Arrays.copyOf(RawFrames.requestHeaders("/closed"), 4));
            reader.readFrame(ctx, in, recorder);
            assertTrue(reader.holdsHeaderBlockBuffer());
            reader.close();
            assertFalse(reader.holdsHeaderBlockBuffer());
        } finally {
            in.release();
        }
    }

    /**
     * A single-fragment block is decoded in place by narrowing the input's readable window. A stream error from
     * the decoder must leave the window as it was, so the frames after it in the same buffer are still read.
     */
    @Test
    void inPlaceDecodeFailureLeavesTheFollowingFramesReadable() throws Exception {
        // The header list (175 bytes as HPACK counts it) exceeds maxHeaderListSize (150) but not the GOAWAY
        // limit (150 + 150 / 4): a stream error for stream 1.
        PooledHttp2FrameReader reader = new PooledHttp2FrameReader(new DefaultHttp2HeadersDecoder(true, 150));
        byte[] big = RawFrames.requestHeaders("/x");
        ByteBuf in = buffer();
        try {
            RawFrames.frame(in, 0x1, Http2Flags.END_HEADERS, 1, big);
            RawFrames.frame(in, 0x0, 0, 3, RawFrames.bytes("after"));
            int end = in.writerIndex();
            Http2Exception e = assertThrows(Http2Exception.class, () -> reader.readFrame(ctx, in, recorder));
            assertTrue(Http2Exception.isStreamError(e), "a stream error: " + e);
            assertEquals(1, ((Http2Exception.StreamException) e).streamId());
            assertEquals(end, in.writerIndex(), "the input's window is restored");
            reader.readFrame(ctx, in, recorder);
            assertEquals(List.of("DATA 3"), seen);
            assertFalse(in.isReadable());
        } finally {
            in.release();
            reader.close();
        }
    }

    @Test
    void blockFollowedByOtherFramesInOneBuffer() throws Exception {
        PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
        ByteBuf in = buffer();
        try {
            RawFrames.frame(in, 0x1, Http2Flags.END_HEADERS, 1, RawFrames.requestHeaders("/one"));
            RawFrames.frame(in, 0x0, Http2Flags.END_STREAM, 1, RawFrames.bytes("x"));
            splitHeaders(in, 3, RawFrames.requestHeaders("/two"), 4);
            RawFrames.frame(in, 0x1, Http2Flags.END_HEADERS, 5, RawFrames.requestHeaders("/three"));
            reader.readFrame(ctx, in, recorder);
            assertEquals(List.of("HEADERS 1 /one", "DATA 1", "HEADERS 3 /two", "HEADERS 5 /three"), seen);
            assertFalse(reader.holdsHeaderBlockBuffer());
        } finally {
            in.release();
            reader.close();
        }
    }
}
