/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import io.netty.util.AsciiString;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the HPACK decoder does beyond decoding as Netty's does ({@link HpackDifferentialTest}): the strings it hands
 * out again, the ones it must not, what it holds, and what a block allocates in steady state.
 */
class HpackDecoderTest {

    /** An encoder as a peer's: Netty's, with a table of {@code tableSize}, Huffman when shorter or never. */
    private static DefaultHttp2HeadersEncoder encoder(Http2HeadersEncoder.SensitivityDetector sensitivity,
                                                      long tableSize, boolean huffman) throws Http2Exception {
        DefaultHttp2HeadersEncoder encoder =
                new DefaultHttp2HeadersEncoder(sensitivity, true, 16, huffman ? 0 : Integer.MAX_VALUE);
        encoder.configuration().maxHeaderTableSize(tableSize);
        return encoder;
    }

    private static ByteBuf encode(DefaultHttp2HeadersEncoder encoder, Http2Headers headers) throws Http2Exception {
        ByteBuf out = Unpooled.buffer();
        encoder.encodeHeaders(1, headers, out);
        return out;
    }

    private static Http2Headers decode(PooledHttp2HeadersDecoder decoder, ByteBuf block) throws Http2Exception {
        try {
            return decoder.decodeHeaders(1, block);
        } finally {
            block.release();
        }
    }

    private static Http2Headers request(String requestId) {
        return new DefaultHttp2Headers().method("GET").scheme("https").authority("example.com").path("/a")
                .add("user-agent", "pooledh2-test/1.0").add("x-request-id", requestId);
    }

    @Test
    void aLiteralWithoutIndexingSeenTwiceIsTheSameInstanceFromThenOn() throws Exception {
        PooledHttp2HeadersDecoder decoder = new PooledHttp2HeadersDecoder();
        // Table size 0: every field a literal without indexing (after the first block's size update).
        DefaultHttp2HeadersEncoder encoder = encoder(Http2HeadersEncoder.NEVER_SENSITIVE, 0, false);
        Http2Headers first = decode(decoder, encode(encoder, request("id-1")));
        assertEquals(0, decoder.hpack().seen().size(), "a first sighting keeps nothing");
        Http2Headers second = decode(decoder, encode(encoder, request("id-1")));
        Http2Headers third = decode(decoder, encode(encoder, request("id-1")));
        assertEquals(first, third);
        assertNotSame(second, third);
        assertNotSame(first.get("user-agent"), second.get("user-agent"));
        assertSame(second.authority(), third.authority());
        assertSame(second.get("user-agent"), third.get("user-agent"));
        assertSame(second.get("x-request-id"), third.get("x-request-id"));
        // The same content Huffman-coded is the same string.
        DefaultHttp2HeadersEncoder huffman = encoder(Http2HeadersEncoder.NEVER_SENSITIVE, 0, true);
        Http2Headers fourth = decode(decoder, encode(huffman, request("id-1")));
        assertSame(second.get("user-agent"), fourth.get("user-agent"));
        assertSame(second.get("x-request-id"), fourth.get("x-request-id"));
        // A new value is a new string.
        Http2Headers fifth = decode(decoder, encode(encoder, request("id-2")));
        assertEquals("id-2", fifth.get("x-request-id").toString());
        assertSame(second.get("user-agent"), fifth.get("user-agent"));
    }

    @Test
    void aFieldThatLeftTheTableIsTheSameInstanceWhenItComesBackAsALiteral() throws Exception {
        PooledHttp2HeadersDecoder decoder = new PooledHttp2HeadersDecoder();
        DefaultHttp2HeadersEncoder encoder = encoder(Http2HeadersEncoder.NEVER_SENSITIVE, 4096, true);
        // 100 fields of about 70 bytes each in HPACK's count: more than the 4 KiB table, which thrashes.
        Http2Headers headers = new DefaultHttp2Headers().method("GET").scheme("https").authority("a").path("/");
        for (int i = 0; i < 100; i++) {
            headers.add("x-header-" + i, "a value that repeats, number " + i);
        }
        // Each field leaves the table before it comes again: its first departure is noted, the second keeps it
        // (a few may take another round or two, their hashes sharing the doorkeeper's slot with another's).
        Http2Headers previous = null;
        int same = 0;
        for (int block = 0; block < 8; block++) {
            Http2Headers decoded = decode(decoder, encode(encoder, headers));
            assertEquals(headers, decoded);
            same = 0;
            for (int i = 0; previous != null && i < 100; i++) {
                same += previous.get("x-header-" + i) == decoded.get("x-header-" + i) ? 1 : 0;
            }
            previous = decoded;
        }
        assertEquals(100, same, "the last two blocks share every value");
        assertTrue(decoder.hpack().table().size() <= 4096);
    }

    @Test
    void neverIndexedFieldsAreNeverRememberedNorShared() throws Exception {
        PooledHttp2HeadersDecoder decoder = new PooledHttp2HeadersDecoder();
        // The same value first without indexing (remembered), then never-indexed.
        DefaultHttp2HeadersEncoder plain = encoder(Http2HeadersEncoder.NEVER_SENSITIVE, 0, false);
        DefaultHttp2HeadersEncoder sensitive = encoder(Http2HeadersEncoder.ALWAYS_SENSITIVE, 0, false);
        decode(decoder, encode(plain, new DefaultHttp2Headers().add("x-token", "secret")));
        Http2Headers remembered = decode(decoder, encode(plain, new DefaultHttp2Headers().add("x-token", "secret")));
        int held = decoder.hpack().seen().size();
        assertEquals(2, held);
        Http2Headers secret = decode(decoder, encode(sensitive, new DefaultHttp2Headers().add("x-token", "secret")));
        Http2Headers again = decode(decoder, encode(sensitive, new DefaultHttp2Headers().add("x-token", "secret")));
        assertEquals("secret", secret.get("x-token").toString());
        assertNotSame(remembered.get("x-token"), secret.get("x-token"));
        assertNotSame(secret.get("x-token"), again.get("x-token"));
        assertNotSame(remembered.names().iterator().next(), secret.names().iterator().next());
        assertEquals(held, decoder.hpack().seen().size());

        // Never-indexed with a table: nothing enters the table either, so nothing can leave it for the cache.
        PooledHttp2HeadersDecoder other = new PooledHttp2HeadersDecoder();
        DefaultHttp2HeadersEncoder tokens = encoder(Http2HeadersEncoder.ALWAYS_SENSITIVE, 4096, true);
        for (int i = 0; i < 50; i++) {
            decode(other, encode(tokens, new DefaultHttp2Headers().add("authorization", "Bearer token-" + i)));
        }
        assertEquals(0, other.hpack().table().length());
        assertEquals(0, other.hpack().seen().size());
        assertEquals(0, other.hpack().seen().slots(), "no cache made");
    }

    @Test
    void randomStringsStayWithinTheBounds() throws Exception {
        for (long listSize : new long[] {8192, 1000, 1 << 20}) {
            PooledHttp2HeadersDecoder decoder = new PooledHttp2HeadersDecoder(true, listSize);
            DefaultHttp2HeadersEncoder encoder = encoder(Http2HeadersEncoder.NEVER_SENSITIVE, 4096, true);
            Random random = new Random(listSize);
            SeenHeaderStrings seen = decoder.hpack().seen();
            for (int block = 0; block < 300; block++) {
                Http2Headers headers = new DefaultHttp2Headers();
                for (int i = 0; i < 20; i++) {
                    headers.add("x-" + Long.toString(random.nextLong() & Long.MAX_VALUE, 36),
                            Long.toString(random.nextLong(), 36) + Long.toString(random.nextLong(), 36));
                }
                try {
                    decode(decoder, encode(encoder, headers));
                } catch (Http2Exception e) {
                    // Over a small list size: the fields still went through the table.
                }
                assertTrue(seen.bytes() <= Math.min(listSize, SeenHeaderStrings.MAX_BUDGET), seen.bytes() + "");
                assertTrue(seen.size() <= SeenHeaderStrings.MAX_SLOTS / 2, seen.size() + "");
                assertTrue(seen.slots() <= SeenHeaderStrings.MAX_SLOTS, seen.slots() + "");
            }
            // Seen once each (6,000 names, 6,000 values): kept only where the doorkeeper's filter erred.
            assertTrue(seen.size() < 600, "random strings kept: " + seen.size());
        }
        // Strings seen twice are kept up to the budget, and a smaller limit later shrinks it at the next string.
        PooledHttp2HeadersDecoder decoder = new PooledHttp2HeadersDecoder(true, 8192);
        DefaultHttp2HeadersEncoder encoder = encoder(Http2HeadersEncoder.NEVER_SENSITIVE, 0, false);
        for (int i = 0; i < 1000; i++) {
            decode(decoder, encode(encoder, new DefaultHttp2Headers().add("x-n", "value-number-" + i % 300)));
            assertTrue(decoder.hpack().seen().bytes() <= 8192);
            assertTrue(decoder.hpack().seen().size() <= SeenHeaderStrings.MAX_SLOTS / 2);
        }
        assertTrue(decoder.hpack().seen().bytes() > 2000);
        decoder.configuration().maxHeaderListSize(500, 600);
        decode(decoder, encode(encoder, new DefaultHttp2Headers().add("x-n", "one more")));
        assertTrue(decoder.hpack().seen().bytes() <= 500, decoder.hpack().seen().bytes() + "");
    }

    @Test
    void aPeerWhoseLiteralsAreNeverFoundIsNotLookedUpForAWhile() throws Exception {
        PooledHttp2HeadersDecoder decoder = new PooledHttp2HeadersDecoder();
        DefaultHttp2HeadersEncoder encoder = encoder(Http2HeadersEncoder.NEVER_SENSITIVE, 0, true);
        Random random = new Random(3);
        // 16 new literals per block (8 names, 8 values): a window of 4 blocks, 64 lookups, none found.
        for (int block = 0; block < HpackBlockDecoder.WINDOW_BLOCKS; block++) {
            assertTrue(decoder.hpack().looksUp(), "block " + block);
            Http2Headers headers = new DefaultHttp2Headers();
            for (int i = 0; i < HpackBlockDecoder.WINDOW_LOOKUPS / HpackBlockDecoder.WINDOW_BLOCKS / 2; i++) {
                headers.add("x-" + random.nextInt(1 << 30), Long.toString(random.nextLong(), 36));
            }
            decode(decoder, encode(encoder, headers));
        }
        assertTrue(!decoder.hpack().looksUp(), "stops after a window without hits");
        // Then a repeating block: the same copies again once it looks again (after the skipped blocks).
        Http2Headers repeating = new DefaultHttp2Headers().add("x-repeating", "the same value");
        Http2Headers previous = null;
        Http2Headers last = null;
        for (int block = 0; block < HpackBlockDecoder.SKIPPED_BLOCKS + 4; block++) {
            previous = last;
            last = decode(decoder, encode(encoder, repeating));
            assertEquals(repeating, last);
        }
        assertTrue(decoder.hpack().looksUp());
        assertSame(previous.get("x-repeating"), last.get("x-repeating"));
    }

    @Test
    void aRepeatedBlockAllocatesNothingInSteadyState() throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        PooledHttp2HeadersDecoder decoder = new PooledHttp2HeadersDecoder();
        PooledHttp2Headers frameHeaders = decoder.newFrameHeaders();
        // Literals without indexing, Huffman: the block can be decoded again and again with the same result.
        DefaultHttp2HeadersEncoder encoder = encoder(Http2HeadersEncoder.NEVER_SENSITIVE, 0, true);
        Http2Headers headers = request("5b1e7c64-2f0a-4d8e-9b3a-81c2d6e0f4a7").add("accept", "application/json")
                .add("cookie", "session=7f3a9c2e; theme=dark");
        encode(encoder, headers).release(); // the table size update to 0
        ByteBuf heap = encode(encoder, headers);
        // Not through a leak-aware allocator: under paranoid leak detection its buffers record every access.
        java.nio.ByteBuffer nio = java.nio.ByteBuffer.allocateDirect(heap.readableBytes());
        nio.put(ByteBufUtil.getBytes(heap)).flip();
        ByteBuf direct = Unpooled.wrappedBuffer(nio);
        try {
            for (ByteBuf block : new ByteBuf[] {heap, direct}) {
                for (int i = 0; i < 20_000; i++) {
                    decodeInto(decoder, frameHeaders, block);
                }
                long before = threads.getThreadAllocatedBytes(self);
                for (int i = 0; i < 1000; i++) {
                    decodeInto(decoder, frameHeaders, block);
                }
                long perBlock = (threads.getThreadAllocatedBytes(self) - before) / 1000;
                assertTrue(perBlock < 16, perBlock + " bytes per block from a " + (block.hasArray() ? "heap"
                        : "direct") + " buffer");
                assertEquals(headers, frameHeaders);
            }
        } finally {
            heap.release();
            direct.release();
        }
    }

    private static void decodeInto(PooledHttp2HeadersDecoder decoder, PooledHttp2Headers into, ByteBuf block)
            throws Http2Exception {
        int start = block.readerIndex();
        decoder.decodeInto(into);
        decoder.decodeHeaders(1, block);
        block.readerIndex(start);
    }

    @Test
    void validationIsRememberedOnlyForStringsThatPassed() throws Exception {
        PooledHttp2HeadersDecoder decoder = new PooledHttp2HeadersDecoder(true, true);
        DefaultHttp2HeadersEncoder encoder = encoder(Http2HeadersEncoder.NEVER_SENSITIVE, 4096, false);
        decode(decoder, encode(encoder, new DefaultHttp2Headers().add("x-good", "fine")));
        DynamicHeaderTable table = decoder.hpack().table();
        assertEquals(PooledHttp2Headers.NAME_VALID | PooledHttp2Headers.VALUE_VALID, table.valid(1));
        // An upper-case name: inserted into the table (as Netty does), never marked valid, rejected every time.
        for (int i = 0; i < 2; i++) {
            ByteBuf block = encode(encoder, new DefaultHttp2Headers(false).add("X-Bad", "v"));
            try {
                decode(decoder, block);
                throw new AssertionError("an upper-case name must fail validation");
            } catch (Http2Exception e) {
                assertTrue(e.getMessage().contains("X-Bad"), e.getMessage());
            }
            assertEquals(0, table.valid(1) & PooledHttp2Headers.NAME_VALID);
        }
    }

    @Test
    void theTableKeepsFewSlotsForFewEntries() throws Exception {
        PooledHttp2HeadersDecoder decoder = new PooledHttp2HeadersDecoder();
        DefaultHttp2HeadersEncoder encoder = encoder(Http2HeadersEncoder.NEVER_SENSITIVE, 4096, true);
        decode(decoder, encode(encoder, request("id")));
        DynamicHeaderTable table = decoder.hpack().table();
        assertEquals(4, table.length()); // :authority, :path, user-agent, x-request-id
        assertEquals(0, decoder.hpack().seen().slots(), "nothing left the table: no cache");
        // A size update to 0 empties the table; what left it is noted, and kept when it comes again.
        encoder.configuration().maxHeaderTableSize(0);
        Http2Headers literals = decode(decoder, encode(encoder, request("id")));
        assertEquals(0, table.length());
        assertTrue(decoder.hpack().seen().size() >= 5, decoder.hpack().seen().size() + "");
        assertSame(literals.get("user-agent"), decode(decoder, encode(encoder, request("id"))).get("user-agent"));
    }

    @Test
    void huffmanErrorsEndWhereNettysDo() {
        byte[] out = new byte[64];
        // 30 ones are EOS: it ends in the fourth byte.
        assertEquals(-1 - 3, HuffmanDecoder.decode(Frames.bytes(0xFF, 0xFF, 0xFF, 0xFF), 0, 4, out));
        // 'a' (00011) then 11 ones: padding longer than seven bits.
        assertEquals(-1 - 2, HuffmanDecoder.decode(Frames.bytes(0x1F, 0xFF), 0, 2, out));
        // 'a' then three zeros: padding must be ones.
        assertEquals(-1 - 1, HuffmanDecoder.decode(Frames.bytes(0x18), 0, 1, out));
        // 'a' then three ones: fine.
        assertEquals(1, HuffmanDecoder.decode(Frames.bytes(0x1F), 0, 1, out));
        assertEquals('a', out[0]);
    }

    @Test
    void huffmanDecodesEveryByteValueAsNettyEncodesIt() throws Exception {
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
        }
        Random random = new Random(7);
        for (int round = 0; round < 200; round++) {
            byte[] value = round == 0 ? all : new byte[random.nextInt(50)];
            if (round > 0) {
                random.nextBytes(value);
            }
            Http2Headers headers = new DefaultHttp2Headers(false).add("x", new AsciiString(value));
            DefaultHttp2HeadersEncoder encoder = encoder(Http2HeadersEncoder.NEVER_SENSITIVE, 0, true);
            encode(encoder, headers).release();
            ByteBuf block = encode(encoder, headers);
            String hex = ByteBufUtil.hexDump(block);
            Http2Headers decoded = decode(new PooledHttp2HeadersDecoder(false), block);
            assertEquals(new AsciiString(value), decoded.get("x"), hex);
        }
    }

    /** The cache's table against a map: after any mix of adds and finds every string held is found. */
    @Test
    void seenStringsStayFindableThroughRemovalsAndGrowth() {
        Random random = new Random(11);
        SeenHeaderStrings seen = new SeenHeaderStrings(random.nextInt(), 4000);
        Map<String, AsciiString> added = new HashMap<>();
        List<String> pool = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            pool.add(Integer.toString(random.nextInt(1 << 20), 36) + "-" + i % 7);
        }
        for (int step = 0; step < 100_000; step++) {
            String text = pool.get(random.nextInt(random.nextBoolean() ? 100 : pool.size()));
            byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            int hash = SeenHeaderStrings.hash(bytes, 0, bytes.length);
            int slot = seen.find(bytes, 0, bytes.length, hash);
            if (slot >= 0) {
                assertEquals(text, seen.string(slot).toString());
                AsciiString first = added.get(text);
                if (first != null) {
                    assertSame(first, seen.string(slot), "the instance first added");
                }
            } else {
                AsciiString s = new AsciiString(bytes);
                // Twice, and once more if the doorkeeper was cleared between the two.
                for (int k = 0; k < 3 && seen.find(bytes, 0, bytes.length, hash) < 0; k++) {
                    seen.sighted(s, hash, 0);
                }
                added.put(text, s);
                assertTrue(seen.find(bytes, 0, bytes.length, hash) >= 0, "just added: " + text);
            }
            assertTrue(seen.bytes() <= 4000);
        }
        // Every string still counted is findable, and the counts add up.
        int findable = 0;
        long bytes = 0;
        for (Map.Entry<String, AsciiString> e : added.entrySet()) {
            byte[] b = e.getKey().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            if (seen.find(b, 0, b.length, SeenHeaderStrings.hash(b, 0, b.length)) >= 0) {
                findable++;
                bytes += b.length + SeenHeaderStrings.OVERHEAD_PER_STRING;
            }
        }
        assertEquals(seen.size(), findable);
        assertEquals(seen.bytes(), bytes);
    }

    /** The same blocks through Netty's decoder and this one give equal headers: the tests above test something. */
    @Test
    void theHarnessDecodesAsNetty() throws Exception {
        DefaultHttp2HeadersDecoder stock = new DefaultHttp2HeadersDecoder();
        PooledHttp2HeadersDecoder pooled = new PooledHttp2HeadersDecoder();
        DefaultHttp2HeadersEncoder encoder = encoder(Http2HeadersEncoder.NEVER_SENSITIVE, 4096, true);
        for (int i = 0; i < 3; i++) {
            ByteBuf block = encode(encoder, request("id-" + i));
            ByteBuf copy = block.copy();
            try {
                assertEquals(stock.decodeHeaders(1, copy), decode(pooled, block));
            } finally {
                copy.release();
            }
        }
    }
}
