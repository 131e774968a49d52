/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2SettingsFrame;
import io.netty.util.IllegalReferenceCountException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Frame reuse, in the spirit of Go's {@code SetReuseFrames} tests: instances come back when released, never
 * when kept, never with reuse off; a reused frame shows nothing of its earlier life; paranoid mode and double
 * release fail loudly. Reader work runs on a {@code FastThreadLocalThread}, as on an event loop.
 */
class PooledFrameReuseTest {

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

    /** Parses one frame of {@code kind} and returns what the listener made of it. */
    private <T> T parse(PooledHttp2FrameReader reader, FrameKind kind, int variant,
                        Function<PooledHttp2Frame, T> listener) throws Http2Exception {
        ByteBuf in = PooledByteBufAllocator.DEFAULT.directBuffer();
        List<T> results = new ArrayList<>();
        try {
            kind.write(in, variant);
            reader.readFrame(ctx, in, (c, frame) -> results.add(listener.apply(frame)));
            assertFalse(in.isReadable(), "whole frame consumed");
        } finally {
            in.release();
        }
        assertEquals(1, results.size(), "one frame per parse");
        return results.get(0);
    }

    private static PooledHttp2Frame releaseInCallback(PooledHttp2Frame frame) {
        frame.release();
        return frame;
    }

    private static PooledHttp2Frame keep(PooledHttp2Frame frame) {
        return frame;
    }

    @ParameterizedTest
    @EnumSource(FrameKind.class)
    void sameInstanceComesBackWhenReleasedDuringCallback(FrameKind kind) throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader().reuseFrames(true);
            PooledHttp2Frame first = parse(reader, kind, 1, PooledFrameReuseTest::releaseInCallback);
            PooledHttp2Frame second = parse(reader, kind, 2, PooledFrameReuseTest::releaseInCallback);
            PooledHttp2Frame third = parse(reader, kind, 3, PooledFrameReuseTest::releaseInCallback);
            assertSame(first, second);
            assertSame(second, third);
            reader.close();
        });
    }

    @ParameterizedTest
    @EnumSource(FrameKind.class)
    void keptFrameIsLeftToItsOwnerAndNotReused(FrameKind kind) throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader().reuseFrames(true);
            PooledHttp2Frame kept = parse(reader, kind, 1, PooledFrameReuseTest::keep);
            String before = FrameAccess.render(kept);
            PooledHttp2Frame next = parse(reader, kind, 2, PooledFrameReuseTest::keep);
            assertNotSame(kept, next);
            assertEquals(before, FrameAccess.render(kept), "a kept frame is not touched by later parses");
            assertEquals(1, kept.refCnt());
            kept.release();
            next.release();
            reader.close();
        });
    }

    /** Frames kept past the callback go back to the Recycler on release and are handed out again from it. */
    @Test
    void keptFramesReturnThroughTheRecycler() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader().reuseFrames(true);
            // Netty's Recycler pools one in every io.netty.recycler.ratio (8) new objects: keep enough of them.
            Set<PooledHttp2Frame> released = Collections.newSetFromMap(new IdentityHashMap<>());
            for (int i = 0; i < 64; i++) {
                released.add(parse(reader, FrameKind.WINDOW_UPDATE, i + 1, PooledFrameReuseTest::keep));
            }
            assertEquals(64, released.size(), "every kept frame is a distinct instance");
            for (PooledHttp2Frame frame : released) {
                assertTrue(frame.release());
            }
            int reused = 0;
            List<PooledHttp2Frame> kept = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                PooledHttp2Frame frame = parse(reader, FrameKind.WINDOW_UPDATE, i + 1, PooledFrameReuseTest::keep);
                kept.add(frame);
                if (released.contains(frame)) {
                    reused++;
                    assertEquals(1, frame.refCnt(), "a recycled frame is handed out with a count of 1");
                    assertEquals(1000 + i + 1, ((PooledWindowUpdateFrame) frame).windowSizeIncrement());
                }
            }
            assertTrue(reused >= 64 / 8, "frames released by their owners were handed out again: " + reused);
            kept.forEach(PooledHttp2Frame::release);
            reader.close();
        });
    }

    @ParameterizedTest
    @EnumSource(FrameKind.class)
    void distinctInstancesWithReuseOff(FrameKind kind) throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader().reuseFrames(false);
            assertFalse(reader.isReusingFrames());
            PooledHttp2Frame first = parse(reader, kind, 1, PooledFrameReuseTest::releaseInCallback);
            PooledHttp2Frame second = parse(reader, kind, 2, PooledFrameReuseTest::releaseInCallback);
            assertNotSame(first, second);
            reader.close();
        });
    }

    @Test
    void systemPropertyTurnsReuseOff() throws Exception {
        String old = System.setProperty(PooledHttp2FrameReader.REUSE_FRAMES_PROPERTY, "false");
        try {
            EventLoopThread.run(() -> {
                PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
                assertFalse(reader.isReusingFrames());
                for (FrameKind kind : FrameKind.values()) {
                    PooledHttp2Frame first = parse(reader, kind, 1, PooledFrameReuseTest::releaseInCallback);
                    PooledHttp2Frame second = parse(reader, kind, 2, PooledFrameReuseTest::releaseInCallback);
                    assertNotSame(first, second, kind.name());
                }
                reader.close();
            });
        } finally {
            restore(PooledHttp2FrameReader.REUSE_FRAMES_PROPERTY, old);
        }
        assertTrue(new PooledHttp2FrameReader().isReusingFrames(), "reuse is the default");
    }

    /** Reuse on or off, the consumer sees the same fields: nothing of a poisoned earlier frame survives a parse. */
    @ParameterizedTest
    @EnumSource(FrameKind.class)
    void poisonedFrameIsFullyOverwrittenByTheNextParse(FrameKind kind) throws Exception {
        assertNextParseOverwrites(kind, PooledFrameReuseTest::releaseInCallback,
                "the poisoned instance was the one reused");
    }

    /**
     * A frame kept past its callback and released on the reader's thread goes back to its slot: the next parse of
     * its type takes the same instance, and a poisoned field of it shows nowhere.
     */
    @ParameterizedTest
    @EnumSource(FrameKind.class)
    void keptFrameBackInItsSlotIsFullyOverwrittenByTheNextParse(FrameKind kind) throws Exception {
        assertNextParseOverwrites(kind, PooledFrameReuseTest::keep,
                "the kept frame went back to its slot and was the one reused");
    }

    /**
     * Parses a frame of {@code kind} with reuse on, lets {@code listener} release it in its callback or keep it (a
     * kept one gets a stream and is released after the read), poisons it, and checks that the next parse reuses the
     * instance and shows what a frame that is never reused shows.
     */
    private void assertNextParseOverwrites(FrameKind kind, Function<PooledHttp2Frame, PooledHttp2Frame> listener,
                                           String reusedMessage) throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader fresh = new PooledHttp2FrameReader().reuseFrames(false);
            String expected = parse(fresh, kind, 2, frame -> renderAndRelease(frame));

            PooledHttp2FrameReader reader = new PooledHttp2FrameReader().reuseFrames(true);
            PooledHttp2Frame first = parse(reader, kind, 1, listener);
            if (first.refCnt() > 0) {
                if (first instanceof StreamFrame) {
                    ((StreamFrame) first).stream(FrameAccess.POISON_STREAM);
                }
                assertTrue(first.release());
            }
            FrameAccess.poison(first);
            PooledHttp2Frame[] second = new PooledHttp2Frame[1];
            String actual = parse(reader, kind, 2, frame -> {
                second[0] = frame;
                return renderAndRelease(frame);
            });
            assertSame(first, second[0], reusedMessage);
            assertEquals(expected, actual);
            fresh.close();
            reader.close();
        });
    }

    /**
     * A kept DATA frame back in its slot holds neither the stream a frame codec gave it nor the input it viewed: a
     * free frame must not keep a closed stream (and its child channel) or a buffer from the garbage collector.
     */
    @Test
    void keptFrameBackInItsSlotHoldsNoStreamAndNoInput() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader().reuseFrames(true);
            PooledHttp2Frame kept = parse(reader, FrameKind.DATA, 1, PooledFrameReuseTest::keep);
            ((StreamFrame) kept).stream(FrameAccess.POISON_STREAM);
            assertSame(FrameAccess.POISON_STREAM, field(StreamFrame.class, "stream", kept));
            assertNotNull(field(PayloadView.class, "input", ((PooledFrame) kept).payload));
            assertTrue(kept.release());
            assertNull(field(StreamFrame.class, "stream", kept));
            assertNull(field(PayloadView.class, "input", ((PooledFrame) kept).payload));
            assertSame(kept, parse(reader, FrameKind.DATA, 2, PooledFrameReuseTest::releaseInCallback),
                    "the frame was back in its slot");
            reader.close();
        });
    }

    /**
     * A frame released in its callback keeps its last stream, and a header block's names and values, for its next
     * parse; once a reader on the thread closes (its connection is gone), the thread's free frames drop them, so
     * that an idle event loop keeps no closed connection reachable through them: the slot's first frame, and one in
     * the set of a read nested in another's callback. A frame kept past its callback comes back reset, and waits
     * beside the first with nothing of its parse.
     */
    @ParameterizedTest
    @EnumSource(value = FrameKind.class, names = {"DATA", "HEADERS", "PRIORITY", "RST_STREAM", "PUSH_PROMISE",
            "WINDOW_UPDATE", "UNKNOWN"})
    void aClosingReaderLeavesNothingOfItsLastParseInTheThreadsFreeFrames(FrameKind kind) throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader().reuseFrames(true);
            PooledHttp2FrameReader other = new PooledHttp2FrameReader().reuseFrames(true);
            Function<PooledHttp2Frame, PooledHttp2Frame> poisonAndRelease = frame -> {
                ((StreamFrame) frame).stream(FrameAccess.POISON_STREAM);
                return releaseInCallback(frame);
            };
            // Two frames kept at once, then released: one takes the slot's first place, the other waits beside it.
            PooledHttp2Frame kept = parse(reader, kind, 1, PooledFrameReuseTest::keep);
            PooledHttp2Frame spare = parse(other, kind, 2, PooledFrameReuseTest::keep);
            assertNotSame(kept, spare);
            kept.release();
            spare.release();
            List<PooledHttp2Frame> nested = new ArrayList<>();
            PooledHttp2Frame first = parse(reader, kind, 3, frame -> {
                try {
                    nested.add(parse(other, kind, 4, poisonAndRelease));
                } catch (Http2Exception e) {
                    throw new AssertionError(e);
                }
                return poisonAndRelease.apply(frame);
            });
            assertSame(kept, first, "the slot's first frame");
            List<PooledHttp2Frame> free = List.of(first, nested.get(0));
            assertNotSame(first, nested.get(0));
            assertFalse(free.contains(spare));
            for (PooledHttp2Frame frame : free) {
                assertSame(FrameAccess.POISON_STREAM, field(StreamFrame.class, "stream", frame),
                        "released in its callback, a frame keeps its stream until its next parse");
                if (frame instanceof HeaderBlockFrame) {
                    assertTrue(ownHeaders(frame).referencesHeld() > 0, "and its block's names and values");
                }
            }
            assertNull(field(StreamFrame.class, "stream", spare), "a kept frame comes back reset");
            other.close();
            for (PooledHttp2Frame frame : free) {
                assertNull(field(StreamFrame.class, "stream", frame));
                if (frame instanceof HeaderBlockFrame) {
                    assertEquals(0, ownHeaders(frame).referencesHeld());
                }
            }
            reader.close();
        });
    }

    private static PooledHttp2Headers ownHeaders(PooledHttp2Frame frame) throws ReflectiveOperationException {
        return (PooledHttp2Headers) field(HeaderBlockFrame.class, "ownHeaders", frame);
    }

    private static Object field(Class<?> owner, String name, Object target) throws ReflectiveOperationException {
        Field field = owner.getDeclaredField(name);
        field.setAccessible(true);
        return field.get(target);
    }

    private static String renderAndRelease(PooledHttp2Frame frame) {
        try {
            return FrameAccess.render(frame);
        } finally {
            frame.release();
        }
    }

    @ParameterizedTest
    @EnumSource(FrameKind.class)
    void paranoidModeThrowsOnEveryAccessAfterRelease(FrameKind kind) throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader().paranoid(true);
            assertTrue(reader.isParanoid());
            assertFalse(reader.isReusingFrames());
            PooledHttp2Frame first = parse(reader, kind, 1, frame -> {
                FrameAccess.render(frame); // every accessor works while the frame is live
                frame.release();
                return frame;
            });
            for (org.junit.jupiter.api.function.Executable access : FrameAccess.accessors(first)) {
                assertThrows(IllegalReferenceCountException.class, access);
            }
            PooledHttp2Frame second = parse(reader, kind, 2, PooledFrameReuseTest::releaseInCallback);
            assertNotSame(first, second, "paranoid mode never reuses");
            reader.close();
        });
    }

    /**
     * A payload used after its frame's last release, a consumer's bug, fails as Netty's released buffers do on
     * access, with {@code IllegalReferenceCountException}, also from the methods that check no index (they threw
     * {@code NullPointerException} before: the released view forgets its input). While the frame is live they
     * answer as the input does.
     */
    @ParameterizedTest
    @EnumSource(value = FrameKind.class, names = {"DATA", "GOAWAY", "UNKNOWN"})
    void payloadOfAReleasedFrameThrowsIllegalReferenceCount(FrameKind kind) throws Exception {
        EventLoopThread.run(() -> {
            for (boolean reuse : new boolean[] {true, false}) {
                PooledHttp2FrameReader reader = new PooledHttp2FrameReader().reuseFrames(reuse);
                List<Object> live = new ArrayList<>();
                PooledHttp2Frame kept = parse(reader, kind, 1, frame -> {
                    ByteBuf in = ((ByteBufHolder) frame).content().unwrap();
                    live.addAll(List.of(in.alloc(), in.isDirect(), in.isReadOnly(), in.isContiguous(),
                            in.hasArray(), in.hasMemoryAddress(), in.nioBufferCount()));
                    return frame;
                });
                ByteBuf payload = ((ByteBufHolder) kept).content();
                assertEquals(live, List.of(payload.alloc(), payload.isDirect(), payload.isReadOnly(),
                        payload.isContiguous(), payload.hasArray(), payload.hasMemoryAddress(),
                        payload.nioBufferCount()), kind + ", reuse " + reuse);
                assertTrue(kept.release());
                List<org.junit.jupiter.api.function.Executable> accesses = List.of(payload::alloc,
                        payload::order, payload::isDirect, payload::isReadOnly, payload::isContiguous,
                        payload::hasArray, payload::array, payload::arrayOffset, payload::hasMemoryAddress,
                        payload::memoryAddress, payload::nioBufferCount, payload::nioBuffer,
                        () -> payload.getByte(0), payload::duplicate);
                for (int i = 0; i < accesses.size(); i++) {
                    assertThrows(IllegalReferenceCountException.class, accesses.get(i),
                            kind + ", reuse " + reuse + ", access " + i);
                }
                reader.close();
            }
        });
    }

    @Test
    void paranoidSystemProperty() {
        String old = System.setProperty(PooledHttp2FrameReader.PARANOID_PROPERTY, "true");
        try {
            assertTrue(new PooledHttp2FrameReader().isParanoid());
        } finally {
            restore(PooledHttp2FrameReader.PARANOID_PROPERTY, old);
        }
        assertFalse(new PooledHttp2FrameReader().isParanoid());
    }

    @ParameterizedTest
    @EnumSource(FrameKind.class)
    void releasingTwiceThrows(FrameKind kind) throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
            PooledHttp2Frame frame = parse(reader, kind, 1, PooledFrameReuseTest::keep);
            assertTrue(frame.release());
            assertThrows(IllegalReferenceCountException.class, frame::release);
            assertThrows(IllegalReferenceCountException.class, frame::retain);
            reader.close();
        });
    }

    @Test
    void retainKeepsTheFrameUntilTheLastRelease() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
            PooledHttp2Frame kept = parse(reader, FrameKind.DATA, 1, frame -> {
                frame.retain();
                frame.release();
                return frame;
            });
            assertEquals(1, kept.refCnt());
            PooledHttp2Frame next = parse(reader, FrameKind.DATA, 2, PooledFrameReuseTest::releaseInCallback);
            assertNotSame(kept, next, "a frame retained in the callback is not reused");
            assertTrue(FrameAccess.render(kept)
                    .contains(io.netty.buffer.ByteBufUtil.hexDump(RawFrames.bytes("data-1"))));
            assertTrue(kept.release());
            reader.close();
        });
    }

    /** A consumer that never releases loses only the reuse: the reader moves on to a new frame. */
    @Test
    void frameNeverReleasedIsOnlyNotReused() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
            PooledHttp2Frame dropped = parse(reader, FrameKind.PING, 1, PooledFrameReuseTest::keep);
            PooledHttp2Frame next = parse(reader, FrameKind.PING, 2, PooledFrameReuseTest::releaseInCallback);
            PooledHttp2Frame again = parse(reader, FrameKind.PING, 3, PooledFrameReuseTest::releaseInCallback);
            assertNotSame(dropped, next);
            assertSame(next, again);
            assertEquals(1000L, ((PooledPingFrame) dropped).content());
            reader.close();
        });
    }

    /** DATA payloads are slices of the input, not copies. */
    @Test
    void dataPayloadIsASliceOfTheInput() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
            ByteBuf in = PooledByteBufAllocator.DEFAULT.directBuffer();
            FrameKind.DATA.write(in, 1);
            List<PooledHttp2Frame> frames = new ArrayList<>();
            reader.readFrame(ctx, in, (c, frame) -> frames.add(frame));
            io.netty.handler.codec.http2.Http2DataFrame data =
                    (io.netty.handler.codec.http2.Http2DataFrame) frames.get(0);
            int dataIndex = 9 + 1; // frame header, pad length
            // As from Netty's reader: the frame's whole payload, read past the pad length.
            assertEquals(1, data.content().readerIndex());
            assertEquals('d', data.content().getByte(1));
            in.setByte(dataIndex, 'X');
            assertEquals('X', data.content().getByte(1), "the payload shares the input's memory");
            assertEquals(2, in.refCnt(), "the payload holds one reference on the input");
            data.release();
            assertEquals(1, in.refCnt());
            in.release();
            reader.close();
        });
    }

    /**
     * A reused payload starts as Netty's new payload slice would, whatever the last consumer did with its indexes and
     * marks: read past the pad length, marks at 0.
     */
    @Test
    void reusedPayloadStartsWithItsIndexesAndMarksAtZero() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader().reuseFrames(true);
            PooledHttp2Frame first = parse(reader, FrameKind.DATA, 3, frame -> {
                ByteBuf content = ((io.netty.handler.codec.http2.Http2DataFrame) frame).content();
                content.readerIndex(2).markReaderIndex();
                content.writerIndex(4).markWriterIndex();
                content.readerIndex(3);
                return releaseInCallback(frame);
            });
            int[] seen = parse(reader, FrameKind.DATA, 3, frame -> {
                assertSame(first, frame, "the same frame, reused");
                ByteBuf content = ((io.netty.handler.codec.http2.Http2DataFrame) frame).content();
                int[] indexes = {content.readerIndex(), content.writerIndex(), 0, 0};
                content.readerIndex(1).writerIndex(1);
                content.resetReaderIndex();
                content.resetWriterIndex();
                indexes[2] = content.readerIndex();
                indexes[3] = content.writerIndex();
                frame.release();
                return indexes;
            });
            int length = RawFrames.bytes("data-3").length;
            assertEquals(1, seen[0], "readerIndex");
            assertEquals(1 + length, seen[1], "writerIndex");
            assertEquals(0, seen[2], "marked reader index");
            assertEquals(0, seen[3], "marked writer index");
            reader.close();
        });
    }

    @Test
    void flowControlledBytesDoNotChangeWhenThePayloadIsRead() throws Exception {
        PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
        parse(reader, FrameKind.DATA, 3, frame -> {
            io.netty.handler.codec.http2.Http2DataFrame data = (io.netty.handler.codec.http2.Http2DataFrame) frame;
            int owed = data.initialFlowControlledBytes();
            assertEquals(RawFrames.bytes("data-3").length + 1 + 3, owed, "payload + pad length byte + padding");
            data.content().skipBytes(data.content().readableBytes());
            assertEquals(owed, data.initialFlowControlledBytes());
            return frame.release();
        });
        reader.close();
    }

    /**
     * The reused SETTINGS map, refilled or left as it is when it already holds the frame's entries, always ends
     * as Netty's reader's new map: same entries, same iteration order (its toString), whatever the last frame or
     * consumer left in it.
     */
    @Test
    void reusedSettingsMapHoldsExactlyEachFramesEntries() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader().reuseFrames(true);
            DefaultHttp2FrameReader stock = new DefaultHttp2FrameReader();
            int[][] frames = {
                {1, 4096, 3, 100, 4, 65535},
                {1, 4096, 3, 100, 4, 65535},        // the same again
                {4, 65535, 3, 100, 1, 4096},        // the same entries in another order
                {1, 4096, 1, 4096, 3, 100},         // a repeat: 2 entries, though the map had 3 and count is 3
                {1, 4096, 3, 100},
                {1, 4096, 3, 100},                  // after a consumer changed the map (below)
                {1, 4096, 3, 100, 2, 0},            // one more entry
                {17, 5, 1, 4096},                   // 17 shares 1's home slot
                {1, 4096, 17, 5},                   // so the order the entries came in shows
                {},
                {},
                {6, 8192, 9, 1, 8, 1, 5, 16384},
                {6, 8192, 9, 1, 8, 1, 5, 16385},    // one value changed
            };
            PooledHttp2Frame first = null;
            for (int i = 0; i < frames.length; i++) {
                Http2Settings expected = parseSettings(stock, frames[i]);
                String[] actual = new String[2];
                boolean changeIt = i == 4;
                PooledHttp2Frame frame = readSettings(reader, frames[i], settings -> {
                    actual[0] = settings.toString();
                    actual[1] = String.valueOf(settings.equals(expected));
                    if (changeIt) {
                        settings.put(Http2CodecUtil.SETTINGS_MAX_CONCURRENT_STREAMS, Long.valueOf(200));
                    }
                });
                if (first == null) {
                    first = frame;
                }
                assertSame(first, frame, "frame " + i + " parsed into the reused frame");
                assertEquals(expected.toString(), actual[0], "frame " + i);
                assertEquals("true", actual[1], "frame " + i);
            }
            reader.close();
            stock.close();
        });
    }

    /** Netty's reader's map for one SETTINGS frame of the given id, value pairs. */
    private Http2Settings parseSettings(DefaultHttp2FrameReader stock, int[] entries) throws Http2Exception {
        ByteBuf in = settingsFrame(entries);
        Http2Settings[] seen = new Http2Settings[1];
        try {
            stock.readFrame(ctx, in, new Http2FrameAdapter() {
                @Override
                public void onSettingsRead(ChannelHandlerContext c, Http2Settings settings) {
                    seen[0] = settings;
                }
            });
        } finally {
            in.release();
        }
        return seen[0];
    }

    /** The pooled frame for one SETTINGS frame, after {@code check} saw its map during the callback. */
    private PooledHttp2Frame readSettings(PooledHttp2FrameReader reader, int[] entries,
                                         java.util.function.Consumer<Http2Settings> check) throws Http2Exception {
        ByteBuf in = settingsFrame(entries);
        PooledHttp2Frame[] seen = new PooledHttp2Frame[1];
        try {
            reader.readFrame(ctx, in, (c, frame) -> {
                seen[0] = frame;
                check.accept(((Http2SettingsFrame) frame).settings());
                frame.release();
            });
        } finally {
            in.release();
        }
        return seen[0];
    }

    private static ByteBuf settingsFrame(int[] entries) {
        ByteBuf in = PooledByteBufAllocator.DEFAULT.directBuffer();
        in.writeMedium(entries.length / 2 * Http2CodecUtil.SETTING_ENTRY_LENGTH);
        in.writeByte(Http2FrameTypes.SETTINGS).writeByte(0).writeInt(0);
        for (int i = 0; i < entries.length; i += 2) {
            in.writeShort(entries[i]).writeInt(entries[i + 1]);
        }
        return in;
    }

    private static void restore(String key, String old) {
        if (old == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, old);
        }
    }

    /**
     * A frame its consumer keeps and then drops without releasing it is the consumer's leak, and Netty's leak
     * detector must be able to report it, as it reports Netty's own frame dropped the same way: the frame, and the
     * input its payload views, must not stay reachable from the reader's thread. The inputs here are not
     * leak-tracked (a leak report would fail the build); the test checks that they can be collected, with the
     * reader and its thread's frames still alive.
     */
    @Test
    void aKeptFrameItsConsumerDropsIsNotKeptReachableByTheReader() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
            // Kept together: the slot's first frame and two beside it; then kept alone, after those.
            List<WeakReference<Object>> dropped = readAndDropKeptFrames(reader, 3);
            dropped.addAll(readAndDropKeptFrames(reader, 1));
            // The reader goes on, taking and giving back frames: it still holds its thread's frames.
            parse(reader, FrameKind.DATA, 0, frame -> frame.release());
            for (int attempt = 0; attempt < 50 && dropped.stream().anyMatch(ref -> ref.get() != null); attempt++) {
                System.gc();
                Thread.sleep(10);
            }
            for (WeakReference<Object> ref : dropped) {
                assertNull(ref.get(), "still reachable: " + ref.get());
            }
            reader.close();
        });
    }

    /** Reads {@code count} DATA frames, one per input, keeps them all, then drops them unreleased. */
    private List<WeakReference<Object>> readAndDropKeptFrames(PooledHttp2FrameReader reader, int count)
            throws Http2Exception {
        List<WeakReference<Object>> dropped = new ArrayList<>();
        List<PooledHttp2Frame> kept = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ByteBuf in = Unpooled.buffer(); // heap, unpooled: not leak-tracked
            FrameKind.DATA.write(in, 0);
            reader.readFrame(ctx, in, (c, frame) -> kept.add(frame));
            dropped.add(new WeakReference<>(kept.get(i)));
            dropped.add(new WeakReference<>(in));
            in.release(); // what ByteToMessageDecoder does; the frame's own reference on the input is dropped with it
        }
        return dropped;
    }
}
