/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledHeapByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A frame that the input ends in: the reader takes its start out of the input, so that the input is always read
 * to its end and {@code ByteToMessageDecoder} never copies a next read behind left-over bytes; it keeps those bytes
 * in a buffer of its own until the rest arrives, and lets go of that buffer once the frame is parsed, on close and
 * on a connection error.
 */
class PartialFrameTest {

    private static final byte[] PAYLOAD = Frames.pattern(20, 7);
    private static final byte[] DATA_FRAME = Frames.data(3, Frames.END_STREAM, PAYLOAD);

    private EmbeddedChannel channel;
    private ChannelHandlerContext ctx;
    private RecordingAllocator alloc;

    @BeforeEach
    void setUp() {
        channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        channel.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        ctx = channel.pipeline().firstContext();
        alloc = new RecordingAllocator();
    }

    @AfterEach
    void tearDown() {
        channel.finishAndReleaseAll();
    }

    /**
     * Makes heap buffers and remembers them: for a reader alone, the first is the test's input and the others are
     * the reader's; for a pipeline ({@code forPipeline}), every buffer any handler took, direct ones made on heap.
     */
    private static final class RecordingAllocator extends AbstractByteBufAllocator {
        final List<ByteBuf> made = new ArrayList<>();
        private final boolean forPipeline;

        RecordingAllocator() {
            this(false);
        }

        RecordingAllocator(boolean forPipeline) {
            super(false);
            this.forPipeline = forPipeline;
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            ByteBuf buffer = new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity);
            made.add(buffer);
            return buffer;
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            if (forPipeline) {
                return newHeapBuffer(initialCapacity, maxCapacity);
            }
            throw new AssertionError("the input is a heap buffer: the reader's buffers are too");
        }

        /** How many of the buffers made are still held. */
        int held() {
            int held = 0;
            for (ByteBuf buffer : made) {
                held += buffer.refCnt() > 0 ? 1 : 0;
            }
            return held;
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }

        /** The buffers the reader made (all but the input), with whether each is still held. */
        List<ByteBuf> readers() {
            return made.subList(1, made.size());
        }

        boolean readerHoldsNone() {
            for (ByteBuf buffer : readers()) {
                if (buffer.refCnt() != 0) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Collects each DATA payload as a copy made during the call. */
    private static final class DataCopies extends Http2FrameAdapter {
        final List<byte[]> payloads = new ArrayList<>();

        @Override
        public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding,
                              boolean endOfStream) {
            payloads.add(ByteBufUtil.getBytes(data));
            return data.readableBytes() + padding;
        }
    }

    /** A frame cut anywhere, header or payload, reads the same; the input is empty after every call. */
    @Test
    void aFrameCutAnywhereLeavesTheInputReadAndReadsWhole() throws Exception {
        EventLoopThread.run(() -> {
            for (int cut = 1; cut < DATA_FRAME.length; cut++) {
                alloc = new RecordingAllocator();
                PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
                DataCopies listener = new DataCopies();
                // One buffer, appended to and read from, as ByteToMessageDecoder's cumulation is.
                ByteBuf input = alloc.heapBuffer();
                try {
                    input.writeBytes(DATA_FRAME, 0, cut);
                    reader.readFrame(ctx, input, listener);
                    assertFalse(input.isReadable(), "cut at " + cut + ": the input is read to its end");
                    assertEquals(cut < 9 ? cut : cut - 9, reader.partialFrameBytes(),
                            "cut at " + cut + ": the header's bytes until it is whole, then the payload's");
                    assertEquals(0, listener.payloads.size());

                    input.writeBytes(DATA_FRAME, cut, DATA_FRAME.length - cut);
                    reader.readFrame(ctx, input, listener);
                    assertFalse(input.isReadable());
                    assertEquals(1, listener.payloads.size(), "cut at " + cut);
                    assertArrayEquals(PAYLOAD, listener.payloads.get(0), "cut at " + cut);
                    assertEquals(0, reader.partialFrameBytes());
                    assertFalse(reader.holdsAnything(), "cut at " + cut + ": nothing held once the frame is read");
                    assertTrue(alloc.readerHoldsNone(), "cut at " + cut + ": every buffer of the reader released");
                } finally {
                    input.release();
                    reader.close();
                }
            }
        });
    }

    /** The rest of a cut frame is taken from the next read only as far as the frame goes; what follows is parsed. */
    @Test
    void framesAfterACutFrameAreReadFromTheInput() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
            DataCopies listener = new DataCopies();
            byte[] second = Frames.data(5, 0, Frames.pattern(5, 1));
            ByteBuf input = alloc.heapBuffer();
            try {
                input.writeBytes(DATA_FRAME, 0, 12);
                reader.readFrame(ctx, input, listener);
                input.writeBytes(DATA_FRAME, 12, DATA_FRAME.length - 12).writeBytes(second).writeBytes(second, 0, 4);
                reader.readFrame(ctx, input, listener);
                assertEquals(2, listener.payloads.size());
                assertArrayEquals(PAYLOAD, listener.payloads.get(0));
                assertArrayEquals(Frames.pattern(5, 1), listener.payloads.get(1));
                assertFalse(input.isReadable());
                assertEquals(4, reader.partialFrameBytes(), "the next frame's first 4 bytes");
                assertEquals(9, alloc.made.get(alloc.made.size() - 1).capacity(), "a partial header's buffer");
            } finally {
                input.release();
                reader.close();
            }
            assertTrue(alloc.readerHoldsNone());
        });
    }

    /** A payload's buffer is sized to the frame at once: the rest is copied in without growing it. */
    @Test
    void aPartialPayloadGetsABufferOfTheFramesLength() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
            ByteBuf input = alloc.heapBuffer();
            try {
                input.writeBytes(DATA_FRAME, 0, 10);
                reader.readFrame(ctx, input, new DataCopies());
                ByteBuf partial = alloc.made.get(1);
                assertEquals(PAYLOAD.length, partial.capacity());
                assertEquals(PAYLOAD.length, partial.maxCapacity());
            } finally {
                input.release();
                reader.close();
            }
        });
    }

    /**
     * A frame longer than the presize, allowed by a raised max frame size: its header does not make the reader
     * allocate the whole frame; the buffer grows as the payload comes, and the frame reads whole.
     */
    @Test
    void aLongFramesBufferIsPresizedByAtMostTheCapAndGrows() throws Exception {
        int length = 2 * PooledHttp2FrameReader.PARTIAL_FRAME_MAX_PRESIZE + 100;
        byte[] payload = Frames.pattern(length, 3);
        byte[] frame = Frames.data(5, 0, payload);
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
            reader.maxFrameSize(length);
            DataCopies listener = new DataCopies();
            ByteBuf input = alloc.heapBuffer();
            try {
                input.writeBytes(frame, 0, 9 + 10);
                reader.readFrame(ctx, input, listener);
                ByteBuf partial = alloc.made.get(1);
                assertEquals(10 + PooledHttp2FrameReader.PARTIAL_FRAME_MAX_PRESIZE, partial.capacity());
                assertEquals(length, partial.maxCapacity());
                for (int from = 9 + 10; from < frame.length; from += 300_000) {
                    input.clear().writeBytes(frame, from, Math.min(300_000, frame.length - from));
                    reader.readFrame(ctx, input, listener);
                    assertFalse(input.isReadable());
                }
                assertEquals(1, listener.payloads.size());
                assertArrayEquals(payload, listener.payloads.get(0));
                assertEquals(2, alloc.made.size(), "one buffer for the partial payload, grown in place");
                assertTrue(alloc.readerHoldsNone());
            } finally {
                input.release();
                reader.close();
            }
        });
    }

    @Test
    void closeReleasesAPartialHeaderAndAPartialPayload() throws Exception {
        EventLoopThread.run(() -> {
            for (int cut : new int[] {5, 14}) {
                alloc = new RecordingAllocator();
                PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
                ByteBuf input = alloc.heapBuffer();
                try {
                    input.writeBytes(DATA_FRAME, 0, cut);
                    reader.readFrame(ctx, input, new DataCopies());
                    assertTrue(reader.holdsAnything(), "a frame in progress is held");
                    assertFalse(alloc.readerHoldsNone());
                } finally {
                    input.release();
                }
                reader.close();
                assertTrue(alloc.readerHoldsNone(), "cut at " + cut + ": released on close");
                assertFalse(reader.holdsAnything());
            }
        });
    }

    /** What a handler taken out of a live pipeline left: the bytes it fired on, and the buffers still held. */
    private static final class Removal {
        final List<String> firedOn = new ArrayList<>();
        int heldBefore;
        int heldAfter;
    }

    private static Removal remove(ChannelHandler handler, byte[] frames) {
        Removal removal = new Removal();
        RecordingAllocator tracking = new RecordingAllocator(true);
        EmbeddedChannel live = new EmbeddedChannel();
        live.config().setAllocator(tracking);
        boolean[] removed = {false};
        live.pipeline().addLast(handler, new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext c, Object msg) {
                if (removed[0]) {
                    removal.firedOn.add(ByteBufUtil.hexDump((ByteBuf) msg));
                }
                ReferenceCountUtil.release(msg);
            }
        });
        try {
            ByteBuf in = tracking.heapBuffer();
            in.writeBytes(Http2CodecUtil.connectionPrefaceBuf());
            in.writeBytes(Frames.settings());
            in.writeBytes(frames);
            live.writeInbound(in);
            live.releaseOutbound();
            assertTrue(live.isOpen());
            removal.heldBefore = tracking.held();
            removed[0] = true;
            live.pipeline().remove(handler);
            live.releaseOutbound();
            removal.heldAfter = tracking.held();
        } finally {
            live.finishAndReleaseAll();
        }
        return removal;
    }

    /**
     * A handler taken out of a live channel's pipeline (a protocol switch, a handler swap) fires the bytes of a
     * frame in progress on to the next handler, the same bytes Netty's handler fires from
     * {@code ByteToMessageDecoder}'s cumulation, and lets go of a header block waiting for its CONTINUATION, which
     * Netty's reader keeps until garbage collection: on both ways into a pipeline, so nothing is left held.
     */
    @Test
    void removingTheHandlerFiresAFrameInProgressOnAndReleasesAHeaderBlock() throws Exception {
        byte[] request = RawFrames.requestHeaders("/a");
        byte[] partialData = Arrays.copyOf(Frames.data(1, 0, PAYLOAD), 9 + PAYLOAD.length / 2);
        byte[] partialHeader = Arrays.copyOf(Frames.data(1, 0, PAYLOAD), 5);
        byte[] complete = Frames.headers(1, Frames.END_HEADERS, request);
        byte[] block = Frames.concat(Frames.headers(1, 0, Arrays.copyOf(request, 4)),
                Arrays.copyOf(Frames.continuation(1, Frames.END_HEADERS, Arrays.copyOfRange(request, 4,
                        request.length)), 12));
        Map<String, byte[]> cases = new LinkedHashMap<>();
        cases.put("a DATA payload in progress", Frames.concat(complete, partialData));
        cases.put("a frame header in progress", Frames.concat(complete, partialHeader));
        cases.put("a header block and a CONTINUATION header in progress", block);
        for (Map.Entry<String, byte[]> c : cases.entrySet()) {
            for (boolean frameCodec : new boolean[] {true, false}) {
                String what = (frameCodec ? "frame codec, " : "connection handler, ") + c.getKey();
                Removal stock = remove(frameCodec ? Http2FrameCodecBuilder.forServer().build()
                        : new Http2ConnectionHandlerBuilder().server(true).frameListener(new Http2FrameAdapter())
                                .build(), c.getValue());
                Removal pooled = remove(frameCodec ? PooledHttp2FrameCodecBuilder.forServer().build()
                        : new PooledHttp2ConnectionHandlerBuilder().server(true).frameListener(new Http2FrameAdapter())
                                .build(), c.getValue());
                assertEquals(stock.firedOn, pooled.firedOn, what + ": the bytes fired on");
                assertTrue(pooled.heldBefore > 0, what + ": held while the handler is in the pipeline");
                assertEquals(0, pooled.heldAfter, what + ": nothing held once the handler is removed");
            }
        }
        assertEquals(List.of(ByteBufUtil.hexDump(Arrays.copyOfRange(partialData, 9, partialData.length))),
                remove(PooledHttp2FrameCodecBuilder.forServer().build(), Frames.concat(complete, partialData)).firedOn,
                "the payload's bytes that had arrived");
    }

    /** A header completed in the reader's buffer that fails the connection: buffer released, later input skipped. */
    @Test
    void aConnectionErrorInACutHeaderReleasesItsBuffer() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
            byte[] tooLong = Frames.frame(Frames.DEFAULT_MAX_FRAME_SIZE + 1, Frames.DATA, 0, 1, new byte[0]);
            ByteBuf input = alloc.heapBuffer();
            try {
                input.writeBytes(tooLong, 0, 4);
                reader.readFrame(ctx, input, new DataCopies());
                input.writeBytes(tooLong, 4, 5).writeBytes(DATA_FRAME);
                Http2Exception e = assertThrows(Http2Exception.class,
                        () -> reader.readFrame(ctx, input, new DataCopies()));
                assertEquals(Http2Error.FRAME_SIZE_ERROR, e.error());
                assertFalse(Http2Exception.isStreamError(e));
                assertTrue(alloc.readerHoldsNone(), "the header's buffer is released");
                DataCopies after = new DataCopies();
                reader.readFrame(ctx, input, after);
                assertFalse(input.isReadable());
                assertEquals(0, after.payloads.size(), "input after a connection error is skipped");
                assertEquals(0, reader.partialFrameBytes());
            } finally {
                input.release();
                reader.close();
            }
        });
    }

    /** A payload completed in the reader's buffer that fails the connection: its buffer is released too. */
    @Test
    void aConnectionErrorInACutPayloadReleasesItsBuffer() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
            byte[] onStreamZero = Frames.data(0, 0, PAYLOAD);
            ByteBuf input = alloc.heapBuffer();
            try {
                input.writeBytes(onStreamZero, 0, 15);
                reader.readFrame(ctx, input, new DataCopies());
                input.writeBytes(onStreamZero, 15, onStreamZero.length - 15);
                Http2Exception e = assertThrows(Http2Exception.class,
                        () -> reader.readFrame(ctx, input, new DataCopies()));
                assertEquals(Http2Error.PROTOCOL_ERROR, e.error());
                assertTrue(alloc.readerHoldsNone(), "the payload's buffer is released");
            } finally {
                input.release();
                reader.close();
            }
        });
    }

    /**
     * A frame parsed from the reader's buffer and kept past its callback holds that buffer, as a frame parsed from
     * the input holds the input; its payload stays readable after later reads, until the frame is released.
     */
    @Test
    void aKeptFrameFromACutFrameHoldsItsBuffer() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
            List<Http2DataFrame> kept = new ArrayList<>();
            ByteBuf input = alloc.heapBuffer();
            try {
                input.writeBytes(DATA_FRAME, 0, 20);
                reader.readFrame(ctx, input, (c, frame) -> kept.add((Http2DataFrame) frame));
                input.writeBytes(DATA_FRAME, 20, DATA_FRAME.length - 20);
                reader.readFrame(ctx, input, (c, frame) -> kept.add((Http2DataFrame) frame));
                // The same payload again, whole: the reader parses into its next frame, from the input.
                input.writeBytes(DATA_FRAME);
                reader.readFrame(ctx, input, (c, frame) -> kept.add((Http2DataFrame) frame));
                assertEquals(2, kept.size());
                ByteBuf partial = alloc.made.get(1);
                assertEquals(1, partial.refCnt(), "the kept frame holds the reader's buffer");
                assertArrayEquals(PAYLOAD, ByteBufUtil.getBytes(kept.get(0).content()));
                assertTrue(kept.get(0).release());
                assertEquals(0, partial.refCnt(), "released with the frame");
            } finally {
                for (Http2DataFrame frame : kept) {
                    if (frame.refCnt() > 0) {
                        frame.release();
                    }
                }
                input.release();
                reader.close();
            }
        });
    }
}
