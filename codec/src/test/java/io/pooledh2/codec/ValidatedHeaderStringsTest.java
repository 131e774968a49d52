/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2EventAdapter;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.util.AsciiString;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The thread's table of validated header strings: a header whose name and value instances passed Netty's
 * validators before is not validated again; anything else is, exactly as {@code DefaultHttp2Headers} does it;
 * each connection keeps its own instances; and a decoder stops looking when looking does not pay.
 */
class ValidatedHeaderStringsTest {

    // New instances for each test (JUnit makes a new test instance per test): the thread's table outlives a test.
    private final AsciiString accept = new AsciiString("accept");
    private final AsciiString text = new AsciiString("text/html");
    private final AsciiString agent = new AsciiString("user-agent");
    private final AsciiString curl = new AsciiString("curl/8.0");

    @Test
    void theSameInstancesAgainAreFoundAndTheHeadersAreTheSame() {
        int salt = saltWithoutCollisions(List.of(accept, agent), List.of(text, curl));
        PooledHttp2Headers headers = new PooledHttp2Headers(true, true, 4);
        headers.lookUpValidated(true, salt);
        headers.add(accept, text).add(agent, curl);
        assertEquals(4, headers.validatedLookups);
        assertEquals(0, headers.validatedHits, "new to the thread: validated and remembered");

        headers.empty();
        headers.lookUpValidated(true, salt);
        headers.add(accept, text).add(agent, curl);
        assertEquals(4, headers.validatedLookups);
        assertEquals(4, headers.validatedHits, "the same instances: found, not validated again");
        assertEquals(new DefaultHttp2Headers().add("accept", "text/html").add("user-agent", "curl/8.0"), headers);
    }

    @Test
    void equalContentInAnotherInstanceIsValidatedAgain() {
        int salt = saltWithoutCollisions(List.of(accept), List.of(text));
        PooledHttp2Headers headers = new PooledHttp2Headers(true, true, 4);
        headers.lookUpValidated(true, salt);
        headers.add(accept, text);
        headers.empty();
        headers.lookUpValidated(true, salt);
        headers.add(new AsciiString("accept"), new AsciiString("text/html"));
        assertEquals(0, headers.validatedHits, "found by identity only");
    }

    /** A string the validator rejected is never remembered: each add of it fails as DefaultHttp2Headers' does. */
    @Test
    void rejectedStringsAreRejectedEveryTime() {
        AsciiString upperCase = new AsciiString("Accept");
        AsciiString controlCharacter = new AsciiString("text/\u0001html");
        PooledHttp2Headers headers = new PooledHttp2Headers(true, true, 4);
        for (int i = 0; i < 3; i++) {
            headers.lookUpValidated(true, 0);
            Throwable stock = assertThrows(Throwable.class, () -> new DefaultHttp2Headers().add(upperCase, text));
            Throwable pooled = assertThrows(Throwable.class, () -> headers.add(upperCase, text));
            assertSame(stock.getClass(), pooled.getClass());
            assertEquals(stock.getMessage(), pooled.getMessage());

            Throwable stockValue = assertThrows(IllegalArgumentException.class,
                    () -> new DefaultHttp2Headers(true, true, 16).add(accept, controlCharacter));
            Throwable pooledValue = assertThrows(IllegalArgumentException.class,
                    () -> headers.add(accept, controlCharacter));
            assertEquals(stockValue.getMessage(), pooledValue.getMessage());
            assertEquals(0, headers.size());
        }
    }

    /** Only AsciiStrings are remembered: another CharSequence could change after it was validated. */
    @Test
    void mutableCharSequencesAreValidatedEveryTime() {
        PooledHttp2Headers headers = new PooledHttp2Headers(true, true, 4);
        StringBuilder value = new StringBuilder("fine");
        headers.lookUpValidated(true, 0);
        headers.add(accept, value);
        headers.empty();
        value.setLength(0);
        value.append("not\u0000fine");
        headers.lookUpValidated(true, 0);
        assertThrows(IllegalArgumentException.class, () -> headers.add(accept, value));
    }

    /** The checks that depend on the other headers run for a found string too. */
    @Test
    void foundPseudoHeadersAreStillCheckedAgainstTheBlock() {
        AsciiString path = new AsciiString(":path");
        AsciiString root = new AsciiString("/");
        int salt = saltWithoutCollisions(List.of(path), List.of(root));
        PooledHttp2Headers headers = new PooledHttp2Headers(true, true, 4);
        headers.lookUpValidated(true, salt);
        headers.add(path, root);
        assertThrows(Http2Exception.class, () -> headers.add(path, root), "duplicate pseudo-header");
        assertEquals(1, headers.validatedHits, "the name was found, and the duplicate still failed");
    }

    /**
     * Two connections on one thread send the same content as their own instances (each has its own HPACK
     * dynamic table); with a salt each, they do not evict each other's.
     */
    @Test
    void connectionsWithTheSameContentKeepTheirOwnInstances() {
        AsciiString otherAccept = new AsciiString("accept");
        AsciiString otherText = new AsciiString("text/html");
        int[] salts = twoSaltsWithoutCollisions(accept, text);
        PooledHttp2Headers first = new PooledHttp2Headers(true, true, 4);
        PooledHttp2Headers second = new PooledHttp2Headers(true, true, 4);
        for (int round = 0; round < 3; round++) {
            first.empty();
            first.lookUpValidated(true, salts[0]);
            first.add(accept, text);
            second.empty();
            second.lookUpValidated(true, salts[1]);
            second.add(otherAccept, otherText);
            int expected = round == 0 ? 0 : 2;
            assertEquals(expected, first.validatedHits, "round " + round);
            assertEquals(expected, second.validatedHits, "round " + round);
        }
    }

    /** Blocks whose strings HPACK indexed: the second one on finds every string, and lookups go on. */
    @Test
    void decoderLooksUpWhileItPays() throws Exception {
        PooledHttp2HeadersDecoder decoder = new PooledHttp2HeadersDecoder(true, true);
        DefaultHttp2HeadersEncoder encoder = new DefaultHttp2HeadersEncoder();
        // One header: its name and its value go to two tables, so they cannot evict each other.
        Http2Headers sent = new DefaultHttp2Headers().add("x-trace-flags", "sampled");
        for (int block = 0; block < 100; block++) {
            PooledHttp2Headers decoded = decode(decoder, encoder, sent);
            assertEquals(2, decoded.validatedLookups, "block " + block);
            assertEquals(block == 0 ? 0 : 2, decoded.validatedHits, "block " + block);
            assertEquals(sent, decoded);
        }
    }

    /**
     * Literals without indexing are new instances every block: from the third such block only a probe every
     * PROBE_EVERY blocks looks, and the block after it; once a block finds enough, every block looks again.
     */
    @Test
    void decoderStopsLookingWhenItDoesNotPay() throws Exception {
        int cycle = PooledHttp2HeadersDecoder.PROBE_EVERY + 1;
        PooledHttp2HeadersDecoder decoder = new PooledHttp2HeadersDecoder(true, true);
        byte[] literals = RawFrames.literalBlock("x-a", "1", "x-b", "2");
        List<Integer> looked = new ArrayList<>();
        for (int block = 0; block < 3 * cycle + 2; block++) {
            PooledHttp2Headers decoded = decode(decoder, literals);
            assertEquals(2, decoded.size());
            if (decoded.validatedLookups != 0) {
                looked.add(block);
            }
        }
        assertEquals(List.of(0, 1, cycle, cycle + 1, 2 * cycle, 2 * cycle + 1, 3 * cycle, 3 * cycle + 1), looked);

        // Blocks that find their strings again: lookups resume after the next probe and stay on.
        DefaultHttp2HeadersEncoder encoder = new DefaultHttp2HeadersEncoder();
        Http2Headers sent = new DefaultHttp2Headers().add("x-trace-flags", "sampled");
        int blocks = 3 * cycle;
        int lookedAfter = 0;
        for (int block = 0; block < blocks; block++) {
            if (decode(decoder, encoder, sent).validatedLookups != 0) {
                lookedAfter++;
            }
        }
        assertTrue(lookedAfter >= blocks - cycle, "looked in " + lookedAfter + " of " + blocks + " blocks");
    }

    /**
     * Through the reader, on both paths: the frame's own container (a frame codec) and a new container for a
     * standard listener that may keep it. From the second block of one encoder on, every string is found.
     */
    @Test
    void readerLooksUpOnBothPaths() throws Exception {
        EventLoopThread.run(() -> {
            EmbeddedChannel channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
            ChannelHandlerContext ctx = channel.pipeline().firstContext();
            DefaultHttp2HeadersEncoder encoder = new DefaultHttp2HeadersEncoder();
            Http2Headers sent = new DefaultHttp2Headers().method("GET").scheme("https").path("/items/42")
                    .authority("example.com").add("accept", "application/json").add("user-agent", "curl/8.0");
            PooledHttp2HeadersDecoder decoder = new PooledHttp2HeadersDecoder(true, true);
            List<AsciiString> names = new ArrayList<>();
            List<AsciiString> values = new ArrayList<>();
            sent.forEach(header -> {
                names.add(new AsciiString(header.getKey()));
                values.add(new AsciiString(header.getValue()));
            });
            decoder.validatedSalt(saltWithoutCollisions(names, values));
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader(decoder);
            List<Integer> hits = new ArrayList<>();
            PooledHttp2FrameListener frames = (c, frame) -> {
                hits.add(((PooledHttp2Headers) ((Http2HeadersFrame) frame).headers()).validatedHits);
                frame.release();
            };
            Http2FrameListener listener = new Http2EventAdapter() {
                @Override
                public void onHeadersRead(ChannelHandlerContext c, int streamId, Http2Headers headers, int padding,
                                          boolean endOfStream) {
                    assertEquals(sent, headers);
                    hits.add(((PooledHttp2Headers) headers).validatedHits);
                }
            };
            try {
                for (int block = 0; block < 6; block++) {
                    ByteBuf in = Unpooled.buffer();
                    ByteBuf fragment = Unpooled.buffer();
                    try {
                        encoder.encodeHeaders(2 * block + 1, sent, fragment);
                        in.writeBytes(Frames.headers(2 * block + 1, Http2Flags.END_HEADERS | Http2Flags.END_STREAM,
                                ByteBufUtil.getBytes(fragment)));
                        if (block % 2 == 0) {
                            reader.readFrame(ctx, in, frames);
                        } else {
                            reader.readFrame(ctx, in, listener);
                        }
                    } finally {
                        in.release();
                        fragment.release();
                    }
                }
            } finally {
                reader.close();
                channel.finishAndReleaseAll();
            }
            // Of the 12 strings of a block, the first block finds none (the static table's instances only if an
            // earlier test on this thread remembered them, under this salt); from the second block on, every one.
            assertEquals(List.of(12, 12, 12, 12, 12), hits.subList(1, 6));
        });
    }

    private static PooledHttp2Headers decode(PooledHttp2HeadersDecoder decoder, DefaultHttp2HeadersEncoder encoder,
                                             Http2Headers headers) throws Http2Exception {
        ByteBuf block = Unpooled.buffer();
        try {
            encoder.encodeHeaders(1, headers, block);
            PooledHttp2Headers decoded = (PooledHttp2Headers) decoder.decodeHeaders(1, block);
            decoder.blockDecoded(decoded);
            return decoded;
        } finally {
            block.release();
        }
    }

    private static PooledHttp2Headers decode(PooledHttp2HeadersDecoder decoder, byte[] bytes) throws Http2Exception {
        ByteBuf block = Unpooled.wrappedBuffer(bytes);
        try {
            PooledHttp2Headers decoded = (PooledHttp2Headers) decoder.decodeHeaders(1, block);
            decoder.blockDecoded(decoded);
            return decoded;
        } finally {
            block.release();
        }
    }

    /** A salt under which the names take distinct slots, and so do the values, so that none evicts another. */
    private static int saltWithoutCollisions(List<AsciiString> names, List<AsciiString> values) {
        for (int salt = 0; salt < ValidatedHeaderStrings.SLOTS; salt++) {
            if (distinctSlots(names, salt) && distinctSlots(values, salt)) {
                return salt;
            }
        }
        throw new AssertionError("no salt puts " + names + " and " + values + " in distinct slots");
    }

    private static int[] twoSaltsWithoutCollisions(AsciiString name, AsciiString value) {
        int first = 0;
        int second = 1;
        while (ValidatedHeaderStrings.slot(name, first) == ValidatedHeaderStrings.slot(name, second)
                || ValidatedHeaderStrings.slot(value, first) == ValidatedHeaderStrings.slot(value, second)) {
            second++;
            assertTrue(second < ValidatedHeaderStrings.SLOTS);
        }
        return new int[] {first, second};
    }

    private static boolean distinctSlots(List<AsciiString> strings, int salt) {
        Set<Integer> slots = new HashSet<>();
        for (AsciiString s : strings) {
            if (!slots.add(ValidatedHeaderStrings.slot(s, salt))) {
                return false;
            }
        }
        return true;
    }
}
