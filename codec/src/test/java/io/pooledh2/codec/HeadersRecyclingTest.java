/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2EventAdapter;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2PushPromiseFrame;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.util.AsciiString;
import io.netty.util.IllegalReferenceCountException;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Headers recycled with their frame: the same container comes back with the reused HEADERS or PUSH_PROMISE
 * frame and shows nothing of the block before; a kept frame keeps its headers; the listener adapter's copy
 * outlives the frame; paranoid mode and reuse off leave released headers alone. Reader work runs on a
 * {@code FastThreadLocalThread}, as on an event loop.
 */
class HeadersRecyclingTest {

    private static final String[] REQUEST = {":method", "GET", ":scheme", "https", ":authority", "example.com",
        ":path", "/first", "x-first", "1", "x-first", "2", "accept", "text/html", "cookie", "a=b"};
    private static final String[] RESPONSE = {":status", "404", "content-type", "text/plain"};

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

    private static List<String> pairs(String... namesAndValues) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            out.add(namesAndValues[i] + "=" + namesAndValues[i + 1]);
        }
        return out;
    }

    /** A HEADERS (type 1) or PUSH_PROMISE (type 5) frame with the whole block. */
    private static byte[] frame(int type, int streamId, String... namesAndValues) throws Http2Exception {
        byte[] block = RawFrames.headerBlock(namesAndValues);
        return type == 1 ? Frames.headers(streamId, Http2Flags.END_HEADERS, block)
                : Frames.pushPromise(streamId, Http2Flags.END_HEADERS, streamId + 1, block);
    }

    private void read(PooledHttp2FrameReader reader, byte[] bytes, PooledHttp2FrameListener listener)
            throws Http2Exception {
        ByteBuf in = PooledByteBufAllocator.DEFAULT.directBuffer();
        try {
            in.writeBytes(bytes);
            reader.readFrame(ctx, in, listener);
            assertFalse(in.isReadable());
        } finally {
            in.release();
        }
    }

    private static Http2Headers headersOf(PooledHttp2Frame frame) {
        return frame instanceof Http2HeadersFrame ? ((Http2HeadersFrame) frame).headers()
                : ((Http2PushPromiseFrame) frame).http2Headers();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 5})
    void sameHeadersComeBackWithTheReusedFrameShowingOnlyTheNewBlock(int type) throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
            List<PooledHttp2Frame> frames = new ArrayList<>();
            List<Http2Headers> headers = new ArrayList<>();
            List<List<String>> seen = new ArrayList<>();
            PooledHttp2FrameListener listener = (c, frame) -> {
                frames.add(frame);
                headers.add(headersOf(frame));
                seen.add(HeadersContractTest.entries(headersOf(frame)));
                frame.release();
            };
            try {
                read(reader, frame(type, 1, REQUEST), listener);
                read(reader, frame(type, 3, RESPONSE), listener);
                assertSame(frames.get(0), frames.get(1), "the frame is reused");
                assertSame(headers.get(0), headers.get(1), "and its headers with it");
                assertInstanceOf(PooledHttp2Headers.class, headers.get(0));
                assertEquals(pairs(REQUEST), seen.get(0));
                assertEquals(pairs(RESPONSE), seen.get(1), "nothing of the first block");
                // After the release the container is empty: nothing of the response either.
                assertTrue(headers.get(1).isEmpty());
            } finally {
                reader.close();
            }
        });
    }

    private static List<Map.Entry<CharSequence, CharSequence>> iterate(Http2Headers headers) {
        List<Map.Entry<CharSequence, CharSequence>> entries = new ArrayList<>();
        for (Map.Entry<CharSequence, CharSequence> entry : headers) {
            entries.add(entry);
        }
        return entries;
    }

    /** Netty's decoder iterates every block; a reused frame's headers hand out the same entries each time. */
    @Test
    void reusedFramesHeadersIterateWithTheSameEntries() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
            List<List<Map.Entry<CharSequence, CharSequence>>> iterations = new ArrayList<>();
            List<List<String>> seen = new ArrayList<>();
            PooledHttp2FrameListener listener = (c, frame) -> {
                List<Map.Entry<CharSequence, CharSequence>> entries = iterate(headersOf(frame));
                iterations.add(entries);
                seen.add(HeadersContractTest.entries(headersOf(frame)));
                assertEquals(seen.get(seen.size() - 1), render(entries), "the entries show this block");
                frame.release();
            };
            try {
                for (int i = 0; i < 3; i++) {
                    read(reader, frame(1, 1 + 2 * i, REQUEST), listener);
                }
                read(reader, frame(1, 7, RESPONSE), listener);
                // The first block's container had not been recycled yet; from then on its entries are kept.
                for (int i = 0; i < 2; i++) {
                    assertSame(iterations.get(1).get(i), iterations.get(2).get(i), "entry " + i);
                    assertSame(iterations.get(2).get(i), iterations.get(3).get(i), "entry " + i);
                }
                assertEquals(pairs(RESPONSE), seen.get(3));
            } finally {
                reader.close();
            }
        });
    }

    private static List<String> render(List<Map.Entry<CharSequence, CharSequence>> entries) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<CharSequence, CharSequence> entry : entries) {
            out.add(entry.getKey() + "=" + entry.getValue());
        }
        return out;
    }

    /** Entries held across a change of layout keep their header, as DefaultHttp2Headers' entries do. */
    @Test
    void heldEntriesKeepTheirHeaderWhenTheLayoutChanges() {
        PooledHttp2Headers headers = new PooledHttp2Headers(true, false, 4);
        headers.recycle();
        headers.add("a", "1").add("b", "2").add("c", "3");
        List<Map.Entry<CharSequence, CharSequence>> before = iterate(headers);
        assertSame(before.get(1), iterate(headers).get(1), "no change: the same entries");
        headers.remove("a");
        List<Map.Entry<CharSequence, CharSequence>> after = iterate(headers);
        assertEquals(List.of("b=2", "c=3"), render(after));
        assertEquals(List.of("a=1", "b=2", "c=3"), render(before), "held entries keep their header");
        assertNotSame(before.get(0), after.get(0));
        // A pseudo-header added before the regular ones moves them too.
        headers.add(":path", "/");
        List<Map.Entry<CharSequence, CharSequence>> moved = iterate(headers);
        assertEquals(List.of(":path=/", "b=2", "c=3"), render(moved));
        assertEquals(List.of("b=2", "c=3"), render(after));
        headers.clear();
        headers.add("d", "4");
        assertEquals(List.of("d=4"), render(iterate(headers)));
        assertEquals(List.of(":path=/", "b=2", "c=3"), render(moved), "clear() leaves held entries alone");
        // setValue still writes through, and only to the header the entry stands for.
        Map.Entry<CharSequence, CharSequence> d = iterate(headers).get(0);
        d.setValue("5");
        assertEquals("5", headers.get("d"));
    }

    /**
     * A set of a header there is one of (Netty's decoder sets content-length on every request with a body) moves it
     * to the end, as in DefaultHttp2Headers: held entries from its index on keep their header, and the entries
     * before it are the same objects on the next walk.
     */
    @Test
    void setOfASoleHeaderKeepsTheEntriesBeforeIt() {
        PooledHttp2Headers headers = new PooledHttp2Headers(true, true, 4);
        headers.recycle();
        headers.add(":method", "POST").add("a", "1").add("content-length", "5").add("b", "2");
        List<Map.Entry<CharSequence, CharSequence>> before = iterate(headers);
        headers.setLong("content-length", 5);
        List<Map.Entry<CharSequence, CharSequence>> after = iterate(headers);
        assertEquals(List.of(":method=POST", "a=1", "b=2", "content-length=5"), render(after));
        assertEquals(List.of(":method=POST", "a=1", "content-length=5", "b=2"), render(before),
                "held entries keep their header");
        assertSame(before.get(1), after.get(1), "an entry before the set header is kept");
        assertNotSame(before.get(2), after.get(2));
        // Set again, now the last: only the last entry changes.
        headers.set("content-length", "6");
        List<Map.Entry<CharSequence, CharSequence>> again = iterate(headers);
        assertEquals(List.of(":method=POST", "a=1", "b=2", "content-length=6"), render(again));
        assertEquals("content-length=5", render(after).get(3));
        assertSame(after.get(2), again.get(2));
        // A name there are several of, or none of, goes the long way, with the same result as DefaultHttp2Headers.
        headers.add("a", "3");
        headers.set("a", "4");
        headers.set("c", "7");
        assertEquals(List.of(":method=POST", "b=2", "content-length=6", "a=4", "c=7"), render(iterate(headers)));
    }

    /** Recycling lets go of every name and value, the cached entries' included. */
    @Test
    void recycleLeavesNoNameOrValueInTheEntries() {
        PooledHttp2Headers headers = new PooledHttp2Headers(true, false, 4);
        headers.recycle();
        headers.add("a", "1").add("b", "2");
        List<Map.Entry<CharSequence, CharSequence>> entries = iterate(headers);
        headers.recycle();
        for (Map.Entry<CharSequence, CharSequence> entry : entries) {
            assertNull(entry.getKey());
            assertNull(entry.getValue());
        }
        headers.add("c", "3");
        assertSame(entries.get(0), iterate(headers).get(0), "and the entries serve the next block");
        assertEquals("c", entries.get(0).getKey().toString());
    }

    /**
     * Reused for the frame's next block, the container keeps the last block's references out of reach: the next
     * block shows only its own headers, whatever the slots held, and a recycle lets go of all of them.
     */
    @Test
    void reusedContainerShowsOnlyTheNewBlockAndRecycleLetsGoOfEverything() {
        PooledHttp2Headers headers = new PooledHttp2Headers(true, false, 4);
        AsciiString a = AsciiString.of("a");
        AsciiString one = AsciiString.of("1");
        headers.add(a, one).add("b", "2").add("c", "3");
        headers.reuse();
        assertEquals(0, headers.size());
        assertEquals(6, headers.referencesHeld(), "the last block's references stay, out of reach");
        headers.add(a, one);
        assertEquals(1, headers.size());
        assertNull(headers.get("b"));
        assertFalse(headers.contains("c"));
        assertEquals(List.of("a=1"), render(iterate(headers)));
        assertEquals(new DefaultHttp2Headers().add("a", "1"), headers);
        // A pseudo-header after a regular one moves it, over a slot the last block left.
        headers.reuse();
        headers.add("x", "9").add(":path", "/");
        assertEquals(List.of(":path=/", "x=9"), render(iterate(headers)));
        assertEquals("/", headers.path().toString());
        headers.recycle();
        assertEquals(0, headers.referencesHeld(), "recycle clears the slots past the last block's size too");
        assertEquals(0, headers.size());
    }

    /** The adapter's copy for a listener answers look-ups as the container it copies, and stays when that empties. */
    @Test
    void copyAnswersLookUpsAsTheOriginal() {
        PooledHttp2Headers headers = new PooledHttp2Headers(true, false, 4);
        headers.add(":path", "/").add("cookie", "a=b").add("x-first", "1").add("x-first", "2");
        PooledHttp2Headers copy = headers.copy();
        headers.reuse();
        assertEquals("/", copy.path().toString());
        assertEquals("a=b", copy.get("cookie").toString());
        assertEquals(List.of("1", "2"), HeadersContractTest.strings(copy.getAll(AsciiString.of("x-first"))));
        assertTrue(copy.contains("x-first", "2"));
        assertNull(copy.get("x-other"));
        assertNull(headers.get("cookie"));
    }

    /** A container used once (a listener keeps it) makes its entries as it goes, as before. */
    @Test
    void containerUsedOnceMakesNewEntries() {
        PooledHttp2Headers headers = new PooledHttp2Headers(true, false, 4);
        headers.add("a", "1");
        assertNotSame(iterate(headers).get(0), iterate(headers).get(0));
    }

    @Test
    void keptFrameKeepsItsHeadersWhileLaterBlocksAreParsed() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
            List<PooledHttp2Frame> kept = new ArrayList<>();
            List<Http2Headers> later = new ArrayList<>();
            try {
                read(reader, frame(1, 1, REQUEST), (c, frame) -> kept.add(frame));
                for (int i = 0; i < 5; i++) {
                    read(reader, frame(1, 3 + 2 * i, ":status", "20" + i, "x-later", "v" + i), (c, frame) -> {
                        later.add(headersOf(frame));
                        assertEquals(pairs(REQUEST), HeadersContractTest.entries(headersOf(kept.get(0))),
                                "the kept frame's headers while a later block is delivered");
                        frame.release();
                    });
                }
                Http2Headers keptHeaders = headersOf(kept.get(0));
                assertEquals(pairs(REQUEST), HeadersContractTest.entries(keptHeaders));
                assertEquals("/first", keptHeaders.path().toString());
                for (Http2Headers h : later) {
                    assertNotSame(keptHeaders, h);
                }
                kept.get(0).release();
                assertTrue(keptHeaders.isEmpty(), "a pooled frame empties its headers on its last release");
            } finally {
                reader.close();
            }
        });
    }

    /** What a standard listener keeps. */
    private static final class KeepingListener extends Http2EventAdapter {
        final List<Http2Headers> headers = new ArrayList<>();

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                  boolean endOfStream) {
            this.headers.add(headers);
        }

        @Override
        public void onPushPromiseRead(ChannelHandlerContext ctx, int streamId, int promisedStreamId,
                                      Http2Headers headers, int padding) {
            this.headers.add(headers);
        }
    }

    private void read(PooledHttp2FrameReader reader, byte[] bytes, KeepingListener listener) throws Http2Exception {
        ByteBuf in = PooledByteBufAllocator.DEFAULT.directBuffer();
        try {
            in.writeBytes(bytes);
            reader.readFrame(ctx, in, listener);
        } finally {
            in.release();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 5})
    void adapterCopyStaysIntactAfterTheFrameIsReused(int type) throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
            KeepingListener listener = new KeepingListener();
            try {
                read(reader, frame(type, 1, REQUEST), listener);
                read(reader, frame(type, 3, RESPONSE), listener);
                assertEquals(pairs(REQUEST), HeadersContractTest.entries(listener.headers.get(0)));
                assertEquals(pairs(RESPONSE), HeadersContractTest.entries(listener.headers.get(1)));
                assertNotSame(listener.headers.get(0), listener.headers.get(1));
                // Look-ups on the copy find what the block had, and nothing the next block added.
                assertEquals(List.of("1", "2"),
                        HeadersContractTest.strings(listener.headers.get(0).getAll("x-first")));
                assertEquals("a=b", listener.headers.get(0).get("cookie").toString());
                assertNull(listener.headers.get(0).get("content-type"));
                assertEquals("text/plain", listener.headers.get(1).get("content-type").toString());
                // The copy is a container of its own: changing it changes nothing the reader uses.
                listener.headers.get(0).add("x-mine", "1");
                read(reader, frame(type, 5, RESPONSE), listener);
                assertEquals(pairs(RESPONSE), HeadersContractTest.entries(listener.headers.get(2)));
            } finally {
                reader.close();
            }
        });
    }

    @Test
    void listenerKeepsNothingGetsTheFramesOwnHeaders() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader().listenerKeepsNothing(true);
            KeepingListener listener = new KeepingListener();
            try {
                read(reader, frame(1, 1, REQUEST), listener);
                read(reader, frame(1, 3, RESPONSE), listener);
                // Uncopied: the one recycled container, emptied after each call. Why the copy is the default.
                assertSame(listener.headers.get(0), listener.headers.get(1));
                assertTrue(listener.headers.get(0).isEmpty());
            } finally {
                reader.close();
            }
        });
    }

    @Test
    void frameCodecPathGetsTheFramesOwnHeaders() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
            reader.forwardFrames();
            List<Boolean> sameAsFrame = new ArrayList<>();
            Http2EventAdapter listener = new Http2EventAdapter() {
                @Override
                public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers,
                                          int padding, boolean endOfStream) {
                    sameAsFrame.add(((PooledHeadersFrame) reader.inFlightFrame()).headers == headers);
                }
            };
            ByteBuf in = PooledByteBufAllocator.DEFAULT.directBuffer();
            try {
                in.writeBytes(frame(1, 1, REQUEST));
                reader.readFrame(ctx, in, listener);
                assertEquals(List.of(true), sameAsFrame);
            } finally {
                in.release();
                reader.close();
            }
        });
    }

    @Test
    void paranoidReleaseLeavesTheHeadersAsDecoded() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader().paranoid(true);
            List<PooledHttp2Frame> kept = new ArrayList<>();
            try {
                read(reader, frame(1, 1, REQUEST), (c, frame) -> kept.add(frame));
                read(reader, frame(1, 3, RESPONSE), (c, frame) -> kept.add(frame));
                Http2Headers first = headersOf(kept.get(0));
                assertNotSame(first, headersOf(kept.get(1)), "never reused in paranoid mode");
                kept.get(0).release();
                kept.get(1).release();
                assertThrows(IllegalReferenceCountException.class, () -> headersOf(kept.get(0)));
                assertEquals(pairs(REQUEST), HeadersContractTest.entries(first),
                        "released, but never reset: a racing reader sees the frame's own values");
            } finally {
                reader.close();
            }
        });
    }

    @Test
    void withReuseOffReleasedHeadersStayAsWithPerFrameAllocation() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader().reuseFrames(false);
            List<Http2Headers> seen = new ArrayList<>();
            PooledHttp2FrameListener listener = (c, frame) -> {
                seen.add(headersOf(frame));
                frame.release();
            };
            try {
                read(reader, frame(1, 1, REQUEST), listener);
                read(reader, frame(1, 3, RESPONSE), listener);
                assertNotSame(seen.get(0), seen.get(1));
                assertEquals(pairs(REQUEST), HeadersContractTest.entries(seen.get(0)));
                assertEquals(pairs(RESPONSE), HeadersContractTest.entries(seen.get(1)));
            } finally {
                reader.close();
            }
        });
    }

    @Test
    void oneHugeBlockDoesNotPinLargeArrays() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader(new PooledHttp2HeadersDecoder(true, 1 << 20));
            String[] huge = new String[2 * 400];
            for (int i = 0; i < huge.length; i += 2) {
                huge[i] = "x-h" + i;
                huge[i + 1] = "v";
            }
            List<PooledHttp2Headers> seen = new ArrayList<>();
            List<Integer> sizes = new ArrayList<>();
            PooledHttp2FrameListener listener = (c, frame) -> {
                seen.add((PooledHttp2Headers) headersOf(frame));
                sizes.add(headersOf(frame).size());
                frame.release();
            };
            try {
                read(reader, frame(1, 1, huge), listener);
                assertEquals(400, sizes.get(0));
                assertTrue(seen.get(0).capacity() <= PooledHttp2Headers.MAX_KEPT_CAPACITY,
                        "capacity kept after release: " + seen.get(0).capacity());
                read(reader, frame(1, 3, RESPONSE), listener);
                assertSame(seen.get(0), seen.get(1));
                assertEquals(2, sizes.get(1));
            } finally {
                reader.close();
            }
        });
    }

    @Test
    void callerSuppliedDecoderHeadersAreWhatTheDecoderMade() throws Exception {
        EventLoopThread.run(() -> {
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader(new DefaultHttp2HeadersDecoder());
            KeepingListener listener = new KeepingListener();
            try {
                read(reader, frame(1, 1, REQUEST), listener);
                read(reader, frame(1, 3, RESPONSE), listener);
                assertInstanceOf(DefaultHttp2Headers.class, listener.headers.get(0));
                assertNotSame(listener.headers.get(0), listener.headers.get(1));
                assertEquals(pairs(REQUEST), HeadersContractTest.entries(listener.headers.get(0)));
            } finally {
                reader.close();
            }
        });
    }

    @Test
    void defaultReadersAndBuildersDecodeIntoPooledHeaders() throws Exception {
        // A DefaultHttp2HeadersDecoder is its own configuration object.
        assertInstanceOf(PooledHttp2HeadersDecoder.class, new PooledHttp2FrameReader().headersConfiguration());
        assertInstanceOf(PooledHttp2HeadersDecoder.class, new PooledHttp2FrameReader(false).headersConfiguration());
        assertFalse(new PooledHttp2FrameReader(new DefaultHttp2HeadersDecoder()).headersConfiguration()
                instanceof PooledHttp2HeadersDecoder);

        List<Object> seen = new ArrayList<>();
        Http2ConnectionHandler listenerPath = new PooledHttp2ConnectionHandlerBuilder().server(true)
                .frameListener(new Http2EventAdapter() {
                    @Override
                    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers,
                                              int streamDependency, short weight, boolean exclusive, int padding,
                                              boolean endOfStream) {
                        // The connection decoder always calls this variant.
                        seen.add("listener " + headers.getClass().getSimpleName());
                    }
                })
                .initialSettings(new Http2Settings().maxHeaderListSize(1234))
                .build();
        Http2ConnectionHandler codecPath = PooledHttp2FrameCodecBuilder.forServer()
                .initialSettings(new Http2Settings().maxHeaderListSize(1234))
                .build();
        for (Http2ConnectionHandler handler : Arrays.asList(listenerPath, codecPath)) {
            assertEquals(1234L, handler.decoder().localSettings().maxHeaderListSize(),
                    "the builder's limit, as Netty's builder sets it");
            EmbeddedChannel server = new EmbeddedChannel(handler, frameRecorder(seen));
            try {
                ByteBuf in = server.alloc().buffer();
                in.writeBytes(Http2CodecUtil.connectionPrefaceBuf());
                in.writeBytes(Frames.settings());
                in.writeBytes(frame(1, 1, REQUEST));
                server.writeInbound(in);
                server.checkException();
            } finally {
                server.finishAndReleaseAll();
            }
        }
        // The listener gets the adapter's copy, the frame codec the frame's own: both array-backed.
        assertEquals(Arrays.asList("listener PooledHttp2Headers", "frame PooledHttp2Headers"), seen);
    }

    /** Records the class of the headers of each HEADERS frame a frame codec fires. */
    private static ChannelInboundHandlerAdapter frameRecorder(List<Object> seen) {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof Http2HeadersFrame) {
                    seen.add("frame " + ((Http2HeadersFrame) msg).headers().getClass().getSimpleName());
                }
                ReferenceCountUtil.release(msg);
            }
        };
    }

    @Test
    void decodingOutsideAReaderMakesNewHeadersEachTime() throws Exception {
        PooledHttp2HeadersDecoder decoder = new PooledHttp2HeadersDecoder();
        ByteBuf a = PooledByteBufAllocator.DEFAULT.heapBuffer().writeBytes(RawFrames.headerBlock(RESPONSE));
        ByteBuf b = PooledByteBufAllocator.DEFAULT.heapBuffer().writeBytes(RawFrames.headerBlock(RESPONSE));
        try {
            Http2Headers first = decoder.decodeHeaders(1, a);
            Http2Headers second = decoder.decodeHeaders(3, b);
            assertNotSame(first, second);
            assertEquals(pairs(RESPONSE), HeadersContractTest.entries(first));
            assertNull(first.get("x-first"));
        } finally {
            a.release();
            b.release();
        }
    }
}
