/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2GoAwayFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2PingFrame;
import io.netty.handler.codec.http2.DefaultHttp2PriorityFrame;
import io.netty.handler.codec.http2.DefaultHttp2PushPromiseFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2SettingsAckFrame;
import io.netty.handler.codec.http2.DefaultHttp2SettingsFrame;
import io.netty.handler.codec.http2.DefaultHttp2UnknownFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2Frame;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.Http2StreamFrame;
import io.netty.handler.codec.http2.Http2UnknownFrame;
import io.netty.util.IllegalReferenceCountException;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.ReferenceCounted;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pooled frames compare and print as Netty's {@code DefaultHttp2*Frame} of their type: equal values give equal
 * frames and hash codes, every field Netty compares matters, comparisons with Netty's frames come out the same
 * from both sides, {@code toString} has Netty's format, and in paranoid mode a released frame refuses to compare.
 */
class FrameValueSemanticsTest {

    /** A stream as a frame codec attaches it; compared by identity, as Netty's. */
    private static final class Stream implements Http2FrameStream {
        private final int id;

        Stream(int id) {
            this.id = id;
        }

        @Override
        public int id() {
            return id;
        }

        @Override
        public Http2Stream.State state() {
            return Http2Stream.State.OPEN;
        }

        @Override
        public String toString() {
            return String.valueOf(id); // as Netty's DefaultHttp2FrameStream
        }
    }

    private static final Stream S1 = new Stream(1);
    private static final Stream S3 = new Stream(3);

    private final EmbeddedChannel channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
    private final List<ReferenceCounted> toRelease = new ArrayList<>();

    @AfterEach
    void releaseAll() {
        for (ReferenceCounted counted : toRelease) {
            if (counted.refCnt() > 0) {
                ReferenceCountUtil.release(counted, counted.refCnt());
            }
        }
        channel.finishAndReleaseAll();
    }

    private <T extends ReferenceCounted> T track(T counted) {
        toRelease.add(counted);
        return counted;
    }

    /** Parses one frame with a reader of its own and keeps it (no reuse: each call gives a distinct object). */
    private PooledHttp2Frame parse(byte[] bytes, boolean paranoid) throws Exception {
        PooledHttp2FrameReader reader = new PooledHttp2FrameReader().reuseFrames(false).paranoid(paranoid);
        ByteBuf input = Unpooled.wrappedBuffer(bytes);
        List<PooledHttp2Frame> frames = new ArrayList<>();
        try {
            reader.readFrame(channel.pipeline().firstContext(), input, (ctx, frame) -> frames.add(frame));
        } finally {
            input.release();
            reader.close();
        }
        assertEquals(1, frames.size());
        return track(frames.get(0));
    }

    private PooledHttp2Frame parse(byte[] bytes) throws Exception {
        return parse(bytes, false);
    }

    private PooledHttp2Frame parse(byte[] bytes, Http2FrameStream stream) throws Exception {
        PooledHttp2Frame frame = parse(bytes);
        ((Http2StreamFrame) frame).stream(stream);
        return frame;
    }

    private static void assertSameBothWays(Object pooled, Object netty, boolean expected) {
        assertEquals(expected, pooled.equals(netty), "pooled.equals(netty)");
        assertEquals(expected, netty.equals(pooled), "netty.equals(pooled)");
    }

    private static void assertValueEqual(Object a, Object b) {
        assertEquals(a, b);
        assertEquals(b, a);
        assertEquals(a.hashCode(), b.hashCode(), "equal frames, equal hash codes");
    }

    /** Netty's format: the pooled frame prints as Netty's with its own class name and parts. */
    private static void assertNettyFormat(Object pooled, Object netty, String... partsNettyThenPooled) {
        String expected = netty.toString().replace(netty.getClass().getSimpleName(), pooled.getClass().getSimpleName());
        for (int i = 0; i < partsNettyThenPooled.length; i += 2) {
            expected = expected.replace(partsNettyThenPooled[i], partsNettyThenPooled[i + 1]);
        }
        assertEquals(expected, pooled.toString());
    }

    private static byte[] headerBlock() throws Exception {
        return RawFrames.headerBlock(":method", "GET", ":path", "/a", "x-custom", "value");
    }

    private static Http2Headers nettyHeaders() {
        return new DefaultHttp2Headers().method("GET").path("/a").add("x-custom", "value");
    }

    @Test
    void data() throws Exception {
        byte[] bytes = Frames.data(1, Frames.END_STREAM | Frames.PADDED, Frames.padded(2, RawFrames.bytes("abc")));
        PooledHttp2Frame a = parse(bytes, S1);
        assertValueEqual(a, parse(bytes, S1));
        assertNotEquals(a, parse(bytes, S3), "stream");
        assertNotEquals(a, parse(Frames.data(1, Frames.END_STREAM, RawFrames.bytes("abc")), S1), "padding");
        assertNotEquals(a, parse(Frames.data(1, Frames.PADDED, Frames.padded(2, RawFrames.bytes("abc"))), S1),
                "endStream");
        assertNotEquals(a, parse(Frames.data(1, Frames.END_STREAM | Frames.PADDED,
                Frames.padded(2, RawFrames.bytes("abd"))), S1), "content");
        assertNotEquals(parse(bytes), parse(Frames.data(3, Frames.END_STREAM | Frames.PADDED,
                Frames.padded(2, RawFrames.bytes("abc")))), "stream id, without a stream");

        DefaultHttp2DataFrame netty = track(new DefaultHttp2DataFrame(Unpooled.copiedBuffer(RawFrames.bytes("abc")),
                true, ((io.netty.handler.codec.http2.Http2DataFrame) a).padding())).stream(S1);
        assertSameBothWays(a, netty, false);
        ByteBuf pooledContent = ((ByteBuf) ((io.netty.buffer.ByteBufHolder) a).content());
        assertNettyFormat(a, netty, netty.content().toString(), pooledContent.toString());
    }

    @Test
    void headers() throws Exception {
        byte[] bytes = Frames.headers(1, Frames.END_HEADERS | Frames.END_STREAM, headerBlock());
        PooledHttp2Frame a = parse(bytes, S1);
        assertValueEqual(a, parse(bytes, S1));
        assertNotEquals(a, parse(bytes, S3), "stream");
        assertNotEquals(a, parse(Frames.headers(1, Frames.END_HEADERS, headerBlock()), S1), "endStream");
        assertNotEquals(a, parse(Frames.headers(1, Frames.END_HEADERS | Frames.END_STREAM | Frames.PADDED,
                Frames.padded(1, headerBlock())), S1), "padding");
        assertNotEquals(a, parse(Frames.headers(1, Frames.END_HEADERS | Frames.END_STREAM,
                RawFrames.headerBlock(":method", "GET", ":path", "/b")), S1), "headers");

        DefaultHttp2HeadersFrame netty = new DefaultHttp2HeadersFrame(nettyHeaders(), true, 0).stream(S1);
        assertSameBothWays(a, netty, false);
        Http2Headers pooledHeaders = ((PooledHttp2HeadersFrame) a).headers();
        assertNettyFormat(a, netty, netty.headers().toString(), pooledHeaders.toString());
    }

    @Test
    void priority() throws Exception {
        byte[] bytes = Frames.priority(1, true, 3, 15);
        PooledHttp2Frame a = parse(bytes, S1);
        assertValueEqual(a, parse(bytes, S1));
        assertNotEquals(a, parse(bytes, S3), "stream");
        assertNotEquals(a, parse(Frames.priority(1, false, 3, 15), S1), "exclusive");
        assertNotEquals(a, parse(Frames.priority(1, true, 5, 15), S1), "dependency");
        assertNotEquals(a, parse(Frames.priority(1, true, 3, 16), S1), "weight");

        DefaultHttp2PriorityFrame netty = new DefaultHttp2PriorityFrame(3, (short) 16, true);
        netty.stream(S1);
        assertSameBothWays(a, netty, false);
        assertNettyFormat(a, netty);
    }

    @Test
    void rstStream() throws Exception {
        byte[] bytes = Frames.rstStream(1, 8);
        PooledHttp2Frame a = parse(bytes, S1);
        assertValueEqual(a, parse(bytes, S1));
        assertNotEquals(a, parse(bytes, S3), "stream");
        assertNotEquals(a, parse(Frames.rstStream(1, 7), S1), "error code");

        DefaultHttp2ResetFrame netty = new DefaultHttp2ResetFrame(8).stream(S1);
        assertSameBothWays(a, netty, false);
        assertNettyFormat(a, netty);
    }

    @Test
    void settings() throws Exception {
        byte[] bytes = Frames.settings(0x3, 50, 0x4, 70000);
        PooledHttp2Frame a = parse(bytes);
        assertValueEqual(a, parse(bytes));
        assertNotEquals(a, parse(Frames.settings(0x3, 50)), "settings");

        // Netty's settings frame equals any settings frame: so do the pooled ones, from both sides.
        DefaultHttp2SettingsFrame netty =
                new DefaultHttp2SettingsFrame(new Http2Settings().maxConcurrentStreams(50).initialWindowSize(70000));
        assertSameBothWays(a, netty, true);
        assertEquals(netty.hashCode(), a.hashCode());
        assertSameBothWays(a, new DefaultHttp2SettingsFrame(new Http2Settings().maxConcurrentStreams(50)), false);
        assertNettyFormat(a, netty);
    }

    @Test
    void settingsAck() throws Exception {
        PooledHttp2Frame a = parse(Frames.settingsAck());
        // Netty's SETTINGS ACK frames compare by identity: so do the pooled ones.
        assertEquals(a, a);
        assertNotEquals(a, parse(Frames.settingsAck()));
        assertSameBothWays(a, Http2SettingsAckFrame.INSTANCE, false);
        assertNettyFormat(a, Http2SettingsAckFrame.INSTANCE);
    }

    @Test
    void ping() throws Exception {
        byte[] bytes = Frames.ping(true, 42);
        PooledHttp2Frame a = parse(bytes);
        assertValueEqual(a, parse(bytes));
        assertNotEquals(a, parse(Frames.ping(false, 42)), "ack");
        assertNotEquals(a, parse(Frames.ping(true, 43)), "content");

        // Netty's PING frame equals any PING frame with the same values: so do the pooled ones, from both sides.
        assertSameBothWays(a, new DefaultHttp2PingFrame(42, true), true);
        assertSameBothWays(a, new DefaultHttp2PingFrame(42, false), false);
        assertNettyFormat(a, new DefaultHttp2PingFrame(42, true));
    }

    @Test
    void goAway() throws Exception {
        byte[] bytes = Frames.goAway(7, 2, RawFrames.bytes("debug"));
        PooledHttp2Frame a = parse(bytes);
        assertValueEqual(a, parse(bytes));
        assertNotEquals(a, parse(Frames.goAway(7, 1, RawFrames.bytes("debug"))), "error code");
        assertNotEquals(a, parse(Frames.goAway(7, 2, RawFrames.bytes("other"))), "debug data");
        // As Netty's: the last stream id is not compared.
        assertValueEqual(a, parse(Frames.goAway(9, 2, RawFrames.bytes("debug"))));

        DefaultHttp2GoAwayFrame netty = track(new DefaultHttp2GoAwayFrame(2,
                Unpooled.copiedBuffer(RawFrames.bytes("debug"))));
        assertSameBothWays(a, netty, false);
        ByteBuf pooledContent = ((io.netty.buffer.ByteBufHolder) a).content();
        assertNettyFormat(a, netty, netty.content().toString(), pooledContent.toString(),
                "lastStreamId=-1", "lastStreamId=7");
    }

    /**
     * Copies as Netty's frames make them (checked with {@code javap} on 4.2.20, and on Netty's own frames here): a
     * DATA copy, duplicate or replacement has no stream; a GOAWAY copy keeps the last stream id but not the extra
     * stream ids, and a GOAWAY duplicate or replacement the reverse (its last stream id is -1, a frame to send);
     * an unknown frame's keep the stream.
     */
    @Test
    void copiesCarryWhatNettysCopiesCarry() throws Exception {
        Http2DataFrame nettyData = track(new DefaultHttp2DataFrame(Unpooled.copiedBuffer(RawFrames.bytes("d")),
                true, 3).stream(S1));
        Http2DataFrame pooledData = (Http2DataFrame) parse(Frames.data(1, Http2Flags.END_STREAM | Http2Flags.PADDED,
                Frames.padded(2, RawFrames.bytes("d"))), S1);
        for (Http2DataFrame data : List.of(nettyData, pooledData)) {
            // Each holds a reference of its own (a new buffer, or the shared one retained): released once.
            for (Http2DataFrame copy : List.of(data.copy(), data.duplicate().retain(), data.retainedDuplicate(),
                    data.replace(Unpooled.buffer(1)))) {
                assertEquals(null, copy.stream(), data.getClass().getSimpleName());
                assertTrue(copy.isEndStream());
                assertEquals(3, copy.padding());
                copy.release();
            }
        }

        Http2GoAwayFrame nettyGoAway = track(new DefaultHttp2GoAwayFrame(2,
                Unpooled.copiedBuffer(RawFrames.bytes("debug"))).setExtraStreamIds(5));
        PooledHttp2Frame pooledGoAway = parse(Frames.goAway(7, 2, RawFrames.bytes("debug")));
        ((Http2GoAwayFrame) pooledGoAway).setExtraStreamIds(5);
        for (Http2GoAwayFrame goAway : List.of(nettyGoAway, (Http2GoAwayFrame) pooledGoAway)) {
            String name = goAway.getClass().getSimpleName();
            Http2GoAwayFrame copy = goAway.copy();
            assertEquals(goAway.lastStreamId(), copy.lastStreamId(), name);
            assertEquals(0, copy.extraStreamIds(), name);
            assertEquals(2, copy.errorCode(), name);
            copy.release();
            for (Http2GoAwayFrame other : List.of(goAway.duplicate().retain(), goAway.retainedDuplicate(),
                    goAway.replace(Unpooled.buffer(1)))) {
                assertEquals(-1, other.lastStreamId(), name);
                assertEquals(5, other.extraStreamIds(), name);
                assertEquals(2, other.errorCode(), name);
                other.release();
            }
        }
        assertEquals(7, ((Http2GoAwayFrame) pooledGoAway).lastStreamId(), "the copy above kept this");

        Http2UnknownFrame unknown = (Http2UnknownFrame) parse(Frames.frame(0x21, 0x5, 1, RawFrames.bytes("x")), S1);
        for (Http2UnknownFrame copy : List.of(unknown.copy(), unknown.retainedDuplicate())) {
            assertEquals(S1, copy.stream());
            copy.release();
        }
    }

    @Test
    void windowUpdate() throws Exception {
        byte[] bytes = Frames.windowUpdate(1, 1000);
        PooledHttp2Frame a = parse(bytes, S1);
        assertValueEqual(a, parse(bytes, S1));
        assertNotEquals(a, parse(bytes, S3), "stream");
        // Netty's WINDOW_UPDATE frame compares the stream only: so do the pooled ones, from both sides.
        assertValueEqual(a, parse(Frames.windowUpdate(1, 2000), S1));
        assertSameBothWays(a, new DefaultHttp2WindowUpdateFrame(1000).stream(S1), true);
        assertSameBothWays(a, new DefaultHttp2WindowUpdateFrame(1000).stream(S3), false);
        assertNettyFormat(a, new DefaultHttp2WindowUpdateFrame(1000).stream(S1));
    }

    @Test
    void unknown() throws Exception {
        byte[] bytes = Frames.frame(0x21, 0x5, 1, RawFrames.bytes("ext"));
        PooledHttp2Frame a = parse(bytes, S1);
        assertValueEqual(a, parse(bytes, S1));
        assertNotEquals(a, parse(bytes, S3), "stream");
        assertNotEquals(a, parse(Frames.frame(0x22, 0x5, 1, RawFrames.bytes("ext")), S1), "type");
        assertNotEquals(a, parse(Frames.frame(0x21, 0x4, 1, RawFrames.bytes("ext")), S1), "flags");
        assertNotEquals(a, parse(Frames.frame(0x21, 0x5, 1, RawFrames.bytes("exu")), S1), "content");

        DefaultHttp2UnknownFrame netty = track(new DefaultHttp2UnknownFrame((byte) 0x21, new Http2Flags((short) 5),
                Unpooled.copiedBuffer(RawFrames.bytes("ext")))).stream(S1);
        assertSameBothWays(a, netty, false);
        ByteBuf pooledContent = ((io.netty.buffer.ByteBufHolder) a).content();
        assertNettyFormat(a, netty, netty.content().toString(), pooledContent.toString());
    }

    @Test
    void pushPromise() throws Exception {
        PooledHttp2Frame a = parse(Frames.pushPromise(1, Frames.END_HEADERS, 2, headerBlock()), S1);
        // Netty's PUSH_PROMISE frames compare by identity: so do the pooled ones.
        assertNotEquals(a, parse(Frames.pushPromise(1, Frames.END_HEADERS, 2, headerBlock()), S1));
        DefaultHttp2PushPromiseFrame netty = new DefaultHttp2PushPromiseFrame(nettyHeaders());
        netty.stream(S1);
        netty.pushStream(new Stream(2));
        assertSameBothWays(a, netty, false);
        Http2Headers pooledHeaders = ((io.netty.handler.codec.http2.Http2PushPromiseFrame) a).http2Headers();
        assertNettyFormat(a, netty, netty.http2Headers().toString(), pooledHeaders.toString());
    }

    /** Without a stream (the reader's own API) the stream id stands in Netty's format where the stream would. */
    @Test
    void withoutAStreamTheIdIsPrinted() throws Exception {
        assertEquals("PooledResetFrame(stream=5, errorCode=8)", parse(Frames.rstStream(5, 8)).toString());
    }

    @Test
    void paranoidModeRefusesToCompareAReleasedFrame() throws Exception {
        List<byte[]> everyType = List.of(
                Frames.data(1, 0, RawFrames.bytes("abc")),
                Frames.headers(1, Frames.END_HEADERS, headerBlock()),
                Frames.priority(1, false, 3, 15),
                Frames.rstStream(1, 8),
                Frames.settings(0x3, 50),
                Frames.ping(false, 1),
                Frames.goAway(1, 0, RawFrames.bytes("x")),
                Frames.windowUpdate(1, 10),
                Frames.frame(0x21, 0, 1, RawFrames.bytes("x")));
        for (byte[] bytes : everyType) {
            PooledHttp2Frame released = parse(bytes, true);
            PooledHttp2Frame live = parse(bytes, true);
            assertTrue(released.release());
            assertThrows(IllegalReferenceCountException.class, () -> released.equals(live), released.name());
            assertThrows(IllegalReferenceCountException.class, () -> live.equals(released), released.name());
            assertThrows(IllegalReferenceCountException.class, released::hashCode, released.name());
            // Printing must not throw, also in paranoid mode (a logger may print a frame at any time).
            assertTrue(released.toString().endsWith("(released)"), released.toString());
            assertFalse(live.toString().contains("released"));
        }
        // SETTINGS ACK compares by identity, as Netty's, so only its printing is checked here.
        PooledHttp2Frame ack = parse(Frames.settingsAck(), true);
        assertEquals("PooledSettingsAckFrame", ack.toString());
        assertTrue(ack.release());
        assertEquals("PooledSettingsAckFrame(released)", ack.toString());
    }

    /** Equal frames are interchangeable as keys, pooled or Netty's where Netty's compare across classes. */
    @Test
    void hashCodesAgreeWithNettysWhereTheyCompareAcrossClasses() throws Exception {
        Http2Frame pooled = parse(Frames.windowUpdate(1, 1000), S1);
        assertEquals(new DefaultHttp2WindowUpdateFrame(1000).stream(S1).hashCode(), pooled.hashCode());
    }
}
