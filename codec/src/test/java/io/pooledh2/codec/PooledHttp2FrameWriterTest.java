/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameWriter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Settings;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How {@link PooledHttp2FrameWriter} writes: one buffer under the caller's own promise for every frame it makes
 * whole, the payload as it is above the copy threshold, Netty's bytes throughout (the randomized differential
 * test compares everything else with Netty's writer).
 */
class PooledHttp2FrameWriterTest {

    private static final int THRESHOLD = PooledHttp2FrameWriter.DATA_COPY_THRESHOLD;

    /** The writes that reach the channel: each message and its promise. */
    private static final class Recorded extends ChannelOutboundHandlerAdapter {
        final List<ByteBuf> messages = new ArrayList<>();
        final List<ChannelPromise> promises = new ArrayList<>();

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            messages.add((ByteBuf) msg);
            promises.add(promise);
            ctx.write(msg, promise);
        }
    }

    /** A writer's channel: the writer writes through the context of the handler after {@link Recorded}. */
    private static final class End implements AutoCloseable {
        final EmbeddedChannel channel = new EmbeddedChannel();
        final Recorded recorded = new Recorded();
        final ChannelHandlerContext ctx;
        final Http2FrameWriter writer;

        End(Http2FrameWriter writer) {
            this.writer = writer;
            channel.config().setAllocator(PooledByteBufAllocator.DEFAULT);
            ChannelOutboundHandlerAdapter last = new ChannelOutboundHandlerAdapter();
            channel.pipeline().addLast(recorded, last);
            ctx = channel.pipeline().context(last);
        }

        byte[] flushed() {
            channel.flush();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (ByteBuf buf; (buf = channel.readOutbound()) != null; ) {
                byte[] bytes = new byte[buf.readableBytes()];
                buf.readBytes(bytes);
                out.write(bytes, 0, bytes.length);
                buf.release();
            }
            return out.toByteArray();
        }

        @Override
        public void close() {
            channel.finishAndReleaseAll();
            writer.close();
        }
    }

    /** Writes with both writers; checks the pooled one made one write under the caller's promise, same bytes. */
    private static void assertOneWrite(BiConsumer<End, ChannelPromise> write) {
        try (End stock = new End(new DefaultHttp2FrameWriter()); End pooled = new End(new PooledHttp2FrameWriter())) {
            write.accept(stock, stock.ctx.newPromise());
            ChannelPromise promise = pooled.ctx.newPromise();
            write.accept(pooled, promise);
            assertEquals(1, pooled.recorded.messages.size(), "writes");
            assertSame(promise, pooled.recorded.promises.get(0), "the caller's promise, no aggregate");
            assertArrayEquals(stock.flushed(), pooled.flushed());
            assertTrue(promise.isSuccess());
        }
    }

    private static ByteBuf payload(int length) {
        return Unpooled.buffer(length).writeBytes(Frames.pattern(length, length));
    }

    private static Http2Headers headers(int extraBytes) {
        Http2Headers headers = new DefaultHttp2Headers().method("GET").scheme("https").path("/p").authority("a.b")
                .add("x-a", "1").add("user-agent", "test");
        if (extraBytes > 0) {
            char[] value = new char[extraBytes];
            java.util.Arrays.fill(value, '~'); // a long Huffman code: written raw, one byte per character
            headers.add("x-large", new String(value));
        }
        return headers;
    }

    @Test
    void controlFramesAreOneWrite() {
        assertOneWrite((e, p) -> e.writer.writePing(e.ctx, true, 42, p));
        assertOneWrite((e, p) -> e.writer.writeSettingsAck(e.ctx, p));
        assertOneWrite((e, p) -> e.writer.writeSettings(e.ctx, new Http2Settings().initialWindowSize(1 << 20)
                .maxConcurrentStreams(100).pushEnabled(false).maxHeaderListSize(8192), p));
        assertOneWrite((e, p) -> e.writer.writeWindowUpdate(e.ctx, 0, 65535, p));
        assertOneWrite((e, p) -> e.writer.writeRstStream(e.ctx, 5, Http2Error.CANCEL.code(), p));
        assertOneWrite((e, p) -> e.writer.writePriority(e.ctx, 5, 3, (short) 256, true, p));
        assertOneWrite((e, p) -> e.writer.writeGoAway(e.ctx, 7, Http2Error.NO_ERROR.code(), payload(8), p));
    }

    @Test
    void headerBlocksAreOneWriteWithContinuationsAndPadding() {
        assertOneWrite((e, p) -> e.writer.writeHeaders(e.ctx, 1, headers(0), 0, true, p));
        assertOneWrite((e, p) -> e.writer.writeHeaders(e.ctx, 1, headers(0), 3, (short) 17, true, 256, false, p));
        assertOneWrite((e, p) -> e.writer.writePushPromise(e.ctx, 1, 2, headers(0), 10, p));
        // Three frames' worth: HEADERS and two CONTINUATION, with and without padding and priority.
        assertOneWrite((e, p) -> e.writer.writeHeaders(e.ctx, 3, headers(40000), 0, true, p));
        assertOneWrite((e, p) -> e.writer.writeHeaders(e.ctx, 3, headers(40000), 1, (short) 1, false, 200, true, p));
        assertOneWrite((e, p) -> e.writer.writePushPromise(e.ctx, 3, 4, headers(40000), 1, p));
    }

    @Test
    void blocksAroundTheFrameSizeSplitWhereNettysDo() throws Http2Exception {
        for (int padding : new int[] {0, 1, 100}) {
            int room = Http2CodecUtil.DEFAULT_MAX_FRAME_SIZE - padding;
            for (int blockLength = room - 1; blockLength <= room + 1; blockLength++) {
                Http2Headers headers = headersEncodingTo(blockLength);
                assertOneWrite((e, p) -> e.writer.writeHeaders(e.ctx, 5, headers, padding, false, p));
                Http2Headers pushed = headersEncodingTo(blockLength - 4);
                assertOneWrite((e, p) -> e.writer.writePushPromise(e.ctx, 5, 6, pushed, padding, p));
            }
        }
    }

    /** Headers that a new encoder encodes into a block of exactly {@code blockLength} bytes. */
    private static Http2Headers headersEncodingTo(int blockLength) throws Http2Exception {
        for (int extra = blockLength; extra > 0; extra--) {
            Http2Headers headers = headers(extra);
            ByteBuf block = Unpooled.buffer();
            try {
                new DefaultHttp2HeadersEncoder().encodeHeaders(1, headers, block);
                if (block.readableBytes() == blockLength) {
                    return headers;
                }
            } finally {
                block.release();
            }
        }
        throw new AssertionError("no headers encode to " + blockLength + " bytes");
    }

    @Test
    void smallDataIsCopiedNextToItsHeader() {
        for (int length : new int[] {0, 1, 1000, THRESHOLD}) {
            for (int padding : new int[] {0, 1, 256}) {
                ByteBuf[] payloads = new ByteBuf[2];
                assertOneWrite((e, p) -> {
                    ByteBuf payload = payload(length);
                    payloads[e.writer instanceof PooledHttp2FrameWriter ? 1 : 0] = payload;
                    e.writer.writeData(e.ctx, 1, payload, padding, true, p);
                });
                assertEquals(0, payloads[0].refCnt());
                assertEquals(0, payloads[1].refCnt(), "the copied payload is released");
            }
        }
    }

    @Test
    void largerDataIsWrittenAsItIsAfterAHeader() throws Http2Exception {
        for (int length : new int[] {THRESHOLD + 1, 16384, 16385, 40000}) {
            try (End stock = new End(new DefaultHttp2FrameWriter());
                 End pooled = new End(new PooledHttp2FrameWriter())) {
                ChannelPromise promise = pooled.ctx.newPromise();
                ByteBuf payload = payload(length);
                stock.writer.writeData(stock.ctx, 1, payload(length), 0, true, stock.ctx.newPromise());
                pooled.writer.writeData(pooled.ctx, 1, payload, 0, true, promise);
                int frames = (length + 16383) / 16384;
                List<ByteBuf> messages = pooled.recorded.messages;
                assertEquals(2 * frames, messages.size(), "a header and a payload per frame");
                assertSame(payload, messages.get(messages.size() - 1), "the last frame's payload is the buffer");
                for (int i = 0; i < messages.size(); i += 2) {
                    assertEquals(Http2CodecUtil.FRAME_HEADER_LENGTH, messages.get(i).readableBytes());
                }
                ChannelPromise aggregate = pooled.recorded.promises.get(0);
                for (ChannelPromise part : pooled.recorded.promises) {
                    assertSame(aggregate, part, "one promise for every part");
                }
                assertFalse(promise.isDone());
                assertArrayEquals(stock.flushed(), pooled.flushed());
                assertTrue(promise.isSuccess());
                assertEquals(0, payload.refCnt());
            }
        }
    }

    @Test
    void aFailedHeaderWriteFailsThePromiseOfAPayloadWrittenAsItIs() {
        for (End e : new End[] {new End(new DefaultHttp2FrameWriter()), new End(new PooledHttp2FrameWriter())}) {
            try (e) {
                // A handler that fails the first message it is given (the frame header) and passes the rest.
                e.channel.pipeline().addFirst(new ChannelOutboundHandlerAdapter() {
                    private boolean failed;

                    @Override
                    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                        if (failed) {
                            ctx.write(msg, promise);
                        } else {
                            failed = true;
                            ((ByteBuf) msg).release();
                            promise.setFailure(new IllegalStateException("header refused"));
                        }
                    }
                });
                ChannelPromise promise = e.ctx.newPromise();
                e.writer.writeData(e.ctx, 1, payload(20000), 0, true, promise);
                assertEquals(9 + 20000, e.flushed().length, "the second frame's header and the payload went out");
                assertEquals("header refused", promise.cause().getMessage(), e.writer.getClass().getName());
            }
        }
    }

    @Test
    void aPayloadTheCallerStillHoldsIsReadToItsEndAsNettyReadsIt() {
        for (int length : new int[] {1000, THRESHOLD + 1, 16384, 40000}) {
            try (End stock = new End(new DefaultHttp2FrameWriter());
                 End pooled = new End(new PooledHttp2FrameWriter())) {
                for (End e : new End[] {stock, pooled}) {
                    ByteBuf payload = payload(length);
                    // Written twice: Netty's writer leaves the buffer read, so the second frame is empty.
                    e.writer.writeData(e.ctx, 1, payload.retain(), 0, false, e.ctx.newPromise());
                    assertEquals(0, payload.readableBytes(), length + " bytes, the caller's reader index");
                    e.writer.writeData(e.ctx, 3, payload, 0, true, e.ctx.newPromise());
                }
                byte[] bytes = pooled.flushed();
                assertArrayEquals(stock.flushed(), bytes);
                assertEquals(2 * Http2CodecUtil.FRAME_HEADER_LENGTH + length + (length - 1) / 16384 * 9,
                        bytes.length);
            }
        }
    }

    @Test
    void aPromiseCancelledAfterTheCallStillHasItsFrameWritten() {
        List<BiConsumer<End, ChannelPromise>> writes = List.of(
            (e, p) -> e.writer.writeHeaders(e.ctx, 1, headers(0), 0, false, p),
            (e, p) -> e.writer.writeHeaders(e.ctx, 1, headers(40000), 3, (short) 17, true, 10, false, p),
            (e, p) -> e.writer.writePushPromise(e.ctx, 1, 2, headers(0), 0, p),
            (e, p) -> e.writer.writeData(e.ctx, 1, payload(100), 0, false, p),
            (e, p) -> e.writer.writeData(e.ctx, 1, payload(20000), 0, false, p),
            (e, p) -> e.writer.writeGoAway(e.ctx, 1, 0, payload(8), p));
        for (BiConsumer<End, ChannelPromise> write : writes) {
            try (End stock = new End(new DefaultHttp2FrameWriter());
                 End pooled = new End(new PooledHttp2FrameWriter())) {
                ChannelPromise stockPromise = stock.ctx.newPromise();
                write.accept(stock, stockPromise);
                // Netty's writer writes under an aggregate of the promise: the cancel succeeds, the frame goes out.
                assertTrue(stockPromise.cancel(false));
                ChannelPromise promise = pooled.ctx.newPromise();
                write.accept(pooled, promise);
                boolean cancelled = promise.cancel(false);
                byte[] bytes = pooled.flushed();
                assertArrayEquals(stock.flushed(), bytes);
                assertTrue(bytes.length > 0);
                // One buffer under the promise itself: uncancellable, so it ends as the write did.
                assertEquals(!cancelled, promise.isSuccess());
                assertEquals(cancelled, pooled.recorded.messages.size() > 1, "cancelled only under an aggregate");
            }
        }
    }

    @Test
    void framesFollowTheMaxFrameSizeAndItsErrors() throws Http2Exception {
        PooledHttp2FrameWriter writer = new PooledHttp2FrameWriter();
        assertEquals(Http2CodecUtil.DEFAULT_MAX_FRAME_SIZE, writer.maxFrameSize());
        Http2Exception invalid = assertThrows(Http2Exception.class, () -> writer.maxFrameSize(16383));
        assertEquals(Http2Error.FRAME_SIZE_ERROR, invalid.error());
        assertEquals(Http2CodecUtil.DEFAULT_MAX_FRAME_SIZE, writer.maxFrameSize());
        writer.maxFrameSize(20000);
        assertEquals(20000, writer.configuration().frameSizePolicy().maxFrameSize());
        assertSame(writer, writer.configuration());
        try (End stock = new End(new DefaultHttp2FrameWriter()); End pooled = new End(writer)) {
            stock.writer.configuration().frameSizePolicy().maxFrameSize(20000);
            for (End e : new End[] {stock, pooled}) {
                e.writer.writeHeaders(e.ctx, 1, headers(50000), 0, true, e.ctx.newPromise());
                e.writer.writeData(e.ctx, 1, payload(50000), 0, true, e.ctx.newPromise());
                e.writer.writeGoAway(e.ctx, 1, 0, payload(19992), e.ctx.newPromise());
            }
            assertArrayEquals(stock.flushed(), pooled.flushed());
        }
    }

    @Test
    void closeClosesACloseableEncoder() {
        boolean[] closed = new boolean[1];
        class ClosingEncoder extends DefaultHttp2HeadersEncoder implements Closeable {
            @Override
            public void close() {
                closed[0] = true;
            }
        }
        Http2HeadersEncoder encoder = new ClosingEncoder();
        PooledHttp2FrameWriter writer = new PooledHttp2FrameWriter(encoder);
        assertSame(encoder.configuration(), writer.headersConfiguration());
        writer.close();
        assertTrue(closed[0]);
    }
}
