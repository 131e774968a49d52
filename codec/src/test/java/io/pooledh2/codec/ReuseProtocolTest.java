/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2EventAdapter;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.util.IllegalReferenceCountException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reuse protocol of one shared count per frame and payload: what the reader holds between reads, when the
 * input is retained, and how a reference moves from the reader to a consumer without a retain.
 */
class ReuseProtocolTest {

    private EmbeddedChannel channel;
    private ChannelHandlerContext ctx;

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

    private static ByteBuf input(FrameKind kind, int variant) throws Http2Exception {
        ByteBuf in = PooledByteBufAllocator.DEFAULT.directBuffer();
        kind.write(in, variant);
        return in;
    }

    /** Between reads a reader holds no frame, no header arrays and no buffer, whatever it read. */
    @ParameterizedTest
    @EnumSource(FrameKind.class)
    void readerHoldsNothingBetweenReads(FrameKind kind) throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
            List<PooledHttp2Frame> seen = new ArrayList<>();
            for (int variant = 1; variant <= 2; variant++) {
                ByteBuf in = input(kind, variant);
                try {
                    reader.readFrame(ctx, in, (c, frame) -> {
                        assertTrue(reader.holdsAnything(), "during the read, the reader has its frames");
                        seen.add(frame);
                        frame.release();
                    });
                } finally {
                    in.release();
                }
                assertFalse(reader.holdsAnything(), kind + ": nothing held after read " + variant);
            }
            assertSame(seen.get(0), seen.get(1), "the thread's frame was reused");
            PooledFrame frame = (PooledFrame) seen.get(1);
            if (frame.payload != null) {
                // The thread's free frame may still point at the last input, but nothing can be read through it.
                assertEquals(0, frame.payload.refCnt(), "a free frame's payload has no count");
                assertThrows(IllegalReferenceCountException.class, () -> frame.payload.getByte(0));
            }
            if (frame instanceof HeaderBlockFrame) {
                io.netty.handler.codec.http2.Http2Headers headers = ((HeaderBlockFrame) frame).headers;
                assertTrue(headers == null || headers.isEmpty(), "headers emptied when the frame came back");
            }
            // The same holds on the listener path, where most frames are never made.
            ByteBuf in = input(kind, 3);
            try {
                reader.readFrame(ctx, in, new Http2EventAdapter());
            } finally {
                in.release();
            }
            assertFalse(reader.holdsAnything());
        });
    }

    /** Reused frames never retain the input; one that outlives its callback retains it once, until its release. */
    @Test
    void inputRetainedOnlyForAFrameThatOutlivesItsCallback() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
            ByteBuf in = input(FrameKind.DATA, 1);
            int[] refCntDuringCallback = new int[1];
            reader.readFrame(ctx, in, (c, frame) -> {
                refCntDuringCallback[0] = in.refCnt();
                frame.release();
            });
            assertEquals(1, refCntDuringCallback[0], "no retain of the input for a frame released in its callback");
            assertEquals(1, in.refCnt());

            in.readerIndex(0);
            List<Http2DataFrame> kept = new ArrayList<>();
            reader.readFrame(ctx, in, (c, frame) -> kept.add((Http2DataFrame) frame));
            assertEquals(2, in.refCnt(), "the kept frame holds the input");
            assertEquals(1, kept.get(0).refCnt());
            assertEquals(1, kept.get(0).content().refCnt(), "frame and payload share one count");
            kept.get(0).content().retain();
            assertEquals(2, kept.get(0).refCnt());
            kept.get(0).release();
            assertEquals(2, in.refCnt());
            assertTrue(kept.get(0).content().release(), "the payload's release is the frame's last");
            assertEquals(1, in.refCnt(), "the last release gives the input back");
            in.release();
        });
    }

    /** In paranoid mode the derivatives Netty's writer takes of a released payload are refused, as any access is. */
    @Test
    void retainedDerivativeOfAReleasedPayloadFails() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader().paranoid(true);
            ByteBuf in = input(FrameKind.DATA, 1);
            ByteBuf[] content = new ByteBuf[1];
            reader.readFrame(ctx, in, (c, frame) -> {
                content[0] = ((Http2DataFrame) frame).content();
                frame.release();
            });
            assertThrows(IllegalReferenceCountException.class, content[0]::retainedSlice);
            assertThrows(IllegalReferenceCountException.class, () -> content[0].retainedSlice(0, 1));
            assertThrows(IllegalReferenceCountException.class, content[0]::retainedDuplicate);
            assertThrows(IllegalReferenceCountException.class, () -> content[0].internalNioBuffer(0, 1));
            assertEquals(1, in.refCnt());
            in.release();
        });
    }

    /**
     * Frames kept past their callback and released on the reader's thread go back to the thread's slot, however many
     * were out at once, so the next parses of their type reuse them without the {@code Recycler}; one released on
     * another thread is left to the {@code Recycler}, and the reader goes on with a frame that is free.
     */
    @Test
    void keptFramesReleasedOnTheReadersThreadReturnToTheirSlot() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
            ByteBuf in = input(FrameKind.DATA, 1);
            String data1 = ByteBufUtil.hexDump(RawFrames.bytes("data-1"));
            List<PooledHttp2Frame> kept = new ArrayList<>();
            // Three frames kept at once, as an echo keeps a read's DATA frames until the read's flush.
            for (int i = 0; i < 3; i++) {
                in.readerIndex(0);
                reader.readFrame(ctx, in, (c, frame) -> kept.add(frame));
            }
            assertEquals(3, distinct(kept), "three frames out at once, each its own");
            assertEquals(4, in.refCnt(), "each kept frame holds the input");
            // Released out of order: each goes back to the slot.
            assertTrue(kept.get(1).release());
            assertTrue(kept.get(2).release());
            assertTrue(kept.get(0).release());
            assertEquals(1, in.refCnt());

            List<PooledHttp2Frame> again = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                in.readerIndex(0);
                reader.readFrame(ctx, in, (c, frame) -> {
                    assertEquals(1, frame.refCnt());
                    assertEquals(data1, ByteBufUtil.hexDump(((Http2DataFrame) frame).content()));
                    again.add(frame);
                });
            }
            assertEquals(distinct(kept), distinct(kept, again), "the slot's three frames, none from the pool");
            again.forEach(PooledHttp2Frame::release);
            assertEquals(1, in.refCnt());

            List<PooledHttp2Frame> seen = new ArrayList<>();
            in.readerIndex(0);
            reader.readFrame(ctx, in, (c, frame) -> seen.add(frame));
            assertTrue(kept.contains(seen.get(0)));
            Thread other = new Thread(() -> seen.get(0).release());
            other.start();
            other.join();
            assertEquals(0, seen.get(0).refCnt());
            assertEquals(1, in.refCnt(), "the release on the other thread gave the input back");
            in.readerIndex(0);
            reader.readFrame(ctx, in, (c, frame) -> {
                seen.add(frame);
                assertEquals(1, frame.refCnt());
                assertEquals(data1, ByteBufUtil.hexDump(((Http2DataFrame) frame).content()));
                frame.release();
            });
            assertTrue(kept.contains(seen.get(1)), "one of the slot's free frames");
            assertNotSame(seen.get(0), seen.get(1), "not the one released elsewhere: that one is the pool's");
            assertEquals(1, in.refCnt());
            in.release();
        });
    }

    @SafeVarargs
    private static int distinct(List<PooledHttp2Frame>... frames) {
        Set<PooledHttp2Frame> set = Collections.newSetFromMap(new IdentityHashMap<>());
        for (List<PooledHttp2Frame> list : frames) {
            set.addAll(list);
        }
        return set.size();
    }

    /**
     * A listener that keeps nothing gets the DATA frame's own view: one it retains all the same stays valid, with
     * its own bytes, after the read and after the reader parsed more DATA frames, while a view it does not retain
     * is reused. (A listener that may keep what it gets has slices, as from the stock reader: see
     * {@code FrameListenerAdapterTest}.)
     */
    @Test
    void listenerRetainingDataKeepsItsBytes() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader().listenerKeepsNothing(true);
            ByteBuf in = PooledByteBufAllocator.DEFAULT.directBuffer();
            FrameKind.DATA.write(in, 1);
            FrameKind.DATA.write(in, 2);
            FrameKind.DATA.write(in, 3);
            List<ByteBuf> buffers = new ArrayList<>();
            List<String> contents = new ArrayList<>();
            reader.readFrame(ctx, in, new Http2EventAdapter() {
                @Override
                public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding,
                                      boolean endOfStream) {
                    buffers.add(data);
                    contents.add(ByteBufUtil.hexDump(data));
                    if (buffers.size() == 1) {
                        data.retain();  // kept past the call, as Http2FrameCodec or grpc-java do
                    }
                    return data.readableBytes() + padding;
                }
            });
            assertEquals(3, buffers.size());
            assertNotSame(buffers.get(0), buffers.get(1), "the retained buffer is left to the listener");
            assertSame(buffers.get(1), buffers.get(2), "an unretained one is reused");
            assertEquals(2, in.refCnt(), "the retained buffer holds the input");
            in.clear();
            in.writeZero(in.capacity());
            in.release();
            assertEquals(1, buffers.get(0).refCnt());
            assertTrue(buffers.get(0).release());
            assertThrows(IllegalReferenceCountException.class, () -> buffers.get(0).getByte(0));
            assertEquals(ByteBufUtil.hexDump(RawFrames.bytes("data-1")), contents.get(0));
        });
    }

    /** A read nested in another read's callback on the same thread gets its own frames. */
    @Test
    void nestedReadsOnOneThreadUseDistinctFrames() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader outer = new PooledHttp2FrameReader();
            PooledHttp2FrameReader inner = new PooledHttp2FrameReader();
            ByteBuf outerIn = input(FrameKind.DATA, 1);
            ByteBuf innerIn = input(FrameKind.DATA, 2);
            List<String> seen = new ArrayList<>();
            outer.readFrame(ctx, outerIn, (c, outerFrame) -> {
                inner.readFrame(ctx, innerIn, (c2, innerFrame) -> {
                    assertNotSame(outerFrame, innerFrame);
                    seen.add(ByteBufUtil.hexDump(((Http2DataFrame) innerFrame).content()));
                    innerFrame.release();
                });
                seen.add(ByteBufUtil.hexDump(((Http2DataFrame) outerFrame).content()));
                outerFrame.release();
            });
            assertEquals(List.of(ByteBufUtil.hexDump(RawFrames.bytes("data-2")),
                    ByteBufUtil.hexDump(RawFrames.bytes("data-1"))), seen);
            outerIn.release();
            innerIn.release();
        });
    }

    /** GOAWAY debug data reaches a listener as the frame's payload, uncopied, and lives as long as it is retained. */
    @Test
    void goAwayDebugDataIsAViewTheListenerCanRetain() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
            ByteBuf in = input(FrameKind.GOAWAY, 1);
            ByteBuf[] kept = new ByteBuf[1];
            reader.readFrame(ctx, in, new Http2EventAdapter() {
                @Override
                public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode,
                                         ByteBuf debugData) {
                    kept[0] = debugData.retain();
                }
            });
            String expected = ByteBufUtil.hexDump(kept[0]);
            assertEquals(2, in.refCnt(), "the retained debug data holds the input, so no decoder reuses it");
            ByteBuf next = input(FrameKind.GOAWAY, 2);
            reader.readFrame(ctx, next, new Http2EventAdapter());
            next.release();
            assertEquals(expected, ByteBufUtil.hexDump(kept[0]), "a later GOAWAY does not re-target a kept one");
            in.release();
            kept[0].release();
            assertEquals(0, kept[0].refCnt());
        });
    }

    /** The frame API's retain of a released frame fails and leaves no count behind. */
    @Test
    void retainOfAReleasedFrameFails() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
            ByteBuf in = input(FrameKind.PING, 1);
            PooledHttp2Frame[] released = new PooledHttp2Frame[1];
            reader.readFrame(ctx, in, (c, frame) -> {
                frame.release();
                released[0] = frame;
                assertThrows(IllegalReferenceCountException.class, frame::retain);
                assertThrows(IllegalReferenceCountException.class, frame::release);
                assertEquals(0, frame.refCnt());
            });
            in.readerIndex(0);
            PooledHttp2Frame[] next = new PooledHttp2Frame[1];
            reader.readFrame(ctx, in, (c, frame) -> {
                next[0] = frame;
                assertEquals(1, frame.refCnt());
                frame.release();
            });
            assertSame(released[0], next[0], "a failed retain does not keep the frame from reuse");
            in.release();
        });
    }

    /**
     * The last release during the callback gives the frame back to the reader for its next parse, whichever way it
     * comes: a plain {@code release()} on the reader's thread (no atomic operation), {@code release(2)} of a
     * retained frame, or a release on another thread (a CAS, which the reader's step after the callback could race).
     */
    @Test
    void lastReleaseInTheCallbackReturnsTheFrameOnAnyThread() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
            ByteBuf in = input(FrameKind.DATA, 1);
            List<PooledHttp2Frame> seen = new ArrayList<>();
            reader.readFrame(ctx, in, (c, frame) -> {
                seen.add(frame);
                assertTrue(frame.release());
                assertEquals(0, frame.refCnt());
                assertThrows(IllegalReferenceCountException.class, frame::release);
            });
            in.readerIndex(0);
            reader.readFrame(ctx, in, (c, frame) -> {
                seen.add(frame);
                assertFalse(frame.retain().release());
                assertTrue(frame.retain().release(2));
                assertEquals(0, frame.refCnt());
            });
            in.readerIndex(0);
            reader.readFrame(ctx, in, (c, frame) -> {
                seen.add(frame);
                boolean[] last = new boolean[1];
                Thread other = new Thread(() -> last[0] = frame.release());
                other.start();
                try {
                    other.join();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                assertTrue(last[0]);
                assertEquals(0, frame.refCnt());
            });
            in.readerIndex(0);
            reader.readFrame(ctx, in, (c, frame) -> {
                seen.add(frame);
                assertEquals(1, frame.refCnt());
                frame.release();
            });
            assertEquals(1, distinct(seen), "each parse reused the frame the callback before gave back");
            assertEquals(1, in.refCnt(), "no frame kept the input");
            in.release();
        });
    }

    /** A GOAWAY copy owns the buffer it was given and releases it with itself. */
    @Test
    void goAwayReplaceOwnsItsBuffer() throws Exception {
        PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
        ByteBuf in = input(FrameKind.GOAWAY, 1);
        Http2GoAwayFrame[] copy = new Http2GoAwayFrame[1];
        reader.readFrame(ctx, in, (c, frame) -> {
            copy[0] = ((Http2GoAwayFrame) frame).copy();
            frame.release();
        });
        in.release();
        ByteBuf content = copy[0].content();
        assertEquals(1, content.refCnt());
        assertTrue(copy[0].release());
        assertEquals(0, content.refCnt());
    }
}
