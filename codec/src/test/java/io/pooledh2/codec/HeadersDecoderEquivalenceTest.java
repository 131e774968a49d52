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
import io.netty.handler.codec.http2.Http2HeadersDecoder;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import io.netty.util.AsciiString;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pooled headers decoder against Netty's {@link DefaultHttp2HeadersDecoder} on random header blocks: each
 * side has its own decoder for a whole sequence of blocks (so dynamic-table inserts, evictions and size updates
 * carry over), and every block must give the same headers in the same order, or the same error (Http2Error,
 * stream or connection, stream id, message). The pooled side decodes every block into one reused container, as
 * a recycled frame does. Seeded; the seed is in every failure message.
 */
class HeadersDecoderEquivalenceTest {

    private static final long TIME_BUDGET_NANOS = 3_000_000_000L;

    private static final String[] STATIC_NAMES = {"accept", "accept-encoding", "accept-language", "cache-control",
        "content-length", "content-type", "cookie", "date", "etag", "host", "if-none-match", "location", "referer",
        "server", "set-cookie", "user-agent", "authorization", "vary", "via"};
    private static final String[] SENSITIVE_NAMES = {"authorization", "cookie", "set-cookie", "x-secret"};
    private static final String VALUE_CHARS =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~!#$%&'*+^`|/:;=?@[]{}() ,\"<>\\";

    @Test
    void randomBlockSequencesDecodeAsWithTheStockDecoder() {
        long seed = System.nanoTime();
        long deadline = System.nanoTime() + TIME_BUDGET_NANOS;
        int sequences = 0;
        int blocks = 0;
        int errors = 0;
        try {
            while (sequences < 2000 && (sequences < 50 || System.nanoTime() < deadline)) {
                int[] counts = runSequence(new Random(seed + sequences), seed + sequences);
                blocks += counts[0];
                errors += counts[1];
                sequences++;
            }
        } catch (Exception e) {
            throw new AssertionError("seed " + (seed + sequences) + ": " + e, e);
        }
        // The generator must reach both outcomes often enough for the comparison to mean something.
        assertTrue(blocks > 500, "blocks decoded: " + blocks);
        assertTrue(errors > 50 && errors < blocks / 2, "errors: " + errors + " of " + blocks);
    }

    /** One connection's worth of blocks. Returns {blocks, errors}. */
    private int[] runSequence(Random random, long seed) throws Exception {
        boolean validate = random.nextInt(5) != 0;
        boolean validateValues = validate && random.nextBoolean();
        long maxHeaderListSize = random.nextInt(3) == 0 ? 256 + random.nextInt(2048) : 8192;
        DefaultHttp2HeadersDecoder stock = new DefaultHttp2HeadersDecoder(validate, validateValues, maxHeaderListSize);
        PooledHttp2HeadersDecoder pooled = new PooledHttp2HeadersDecoder(validate, validateValues, maxHeaderListSize);
        long decoderTableSize = random.nextBoolean() ? 4096 : 256 + random.nextInt(4096);
        stock.configuration().maxHeaderTableSize(decoderTableSize);
        pooled.configuration().maxHeaderTableSize(decoderTableSize);
        Http2HeadersEncoder.SensitivityDetector sensitivity;
        switch (random.nextInt(3)) {
            case 0:
                sensitivity = Http2HeadersEncoder.NEVER_SENSITIVE;
                break;
            case 1:
                sensitivity = Http2HeadersEncoder.ALWAYS_SENSITIVE;
                break;
            default:
                sensitivity = (name, value) -> isSensitiveName(name);
                break;
        }
        DefaultHttp2HeadersEncoder encoder = new DefaultHttp2HeadersEncoder(sensitivity, true);
        PooledHttp2Headers reused = pooled.newFrameHeaders();
        int blockCount = 1 + random.nextInt(30);
        int errors = 0;
        for (int b = 0; b < blockCount; b++) {
            int streamId = 1 + 2 * b;
            if (random.nextInt(8) == 0) {
                // A dynamic table size update before the next block, now and then above the decoder's maximum.
                long size = random.nextInt(6) == 0 ? decoderTableSize + 1 + random.nextInt(100)
                        : random.nextInt((int) decoderTableSize + 1);
                encoder.configuration().maxHeaderTableSize(size);
            }
            byte[] block = nextBlock(random, encoder, streamId);
            String expected = decode(stock, null, streamId, block);
            String actual = decode(pooled, reused, streamId, block);
            assertEquals(expected, actual, "seed " + seed + " block " + b + " bytes " + ByteBufUtil.hexDump(block)
                    + " validate=" + validate + "/" + validateValues + " maxHeaderListSize=" + maxHeaderListSize);
            if (expected.startsWith("ERROR")) {
                errors++;
                if (expected.contains(" connection ")) {
                    return new int[] {b + 1, errors}; // A connection error ends the connection.
                }
            }
            reused.recycle(); // As the frame's release does.
        }
        return new int[] {blockCount, errors};
    }

    private static boolean isSensitiveName(CharSequence name) {
        for (String s : SENSITIVE_NAMES) {
            if (AsciiString.contentEquals(s, name)) {
                return true;
            }
        }
        return false;
    }

    /** Decodes one block; the pooled decoder into {@code reused}, which must be what it returns. */
    private static String decode(Http2HeadersDecoder decoder, PooledHttp2Headers reused, int streamId, byte[] block) {
        ByteBuf in = Unpooled.wrappedBuffer(block);
        try {
            if (reused != null) {
                ((PooledHttp2HeadersDecoder) decoder).decodeInto(reused);
            }
            Http2Headers headers = decoder.decodeHeaders(streamId, in);
            if (reused != null) {
                assertSame(reused, headers, "decoded into the frame's container");
            }
            return render(headers);
        } catch (Http2Exception e) {
            return "ERROR " + e.error() + (Http2Exception.isStreamError(e)
                    ? " stream " + ((Http2Exception.StreamException) e).streamId() : " connection ")
                    + " " + e.getMessage();
        } finally {
            in.release();
        }
    }

    private static String render(Http2Headers headers) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<CharSequence, CharSequence> e : headers) {
            out.add(e.getKey() + "=" + e.getValue());
        }
        return out.size() + " " + out;
    }

    private static byte[] nextBlock(Random random, DefaultHttp2HeadersEncoder encoder, int streamId)
            throws Http2Exception {
        int kind = random.nextInt(20);
        if (kind == 0) {
            return garbage(random);
        }
        if (kind == 1) {
            return handWritten(random);
        }
        Http2Headers headers = new DefaultHttp2Headers(false);
        switch (random.nextInt(3)) {
            case 0:
                headers.add(":method", random.nextBoolean() ? "GET" : "POST").add(":scheme", "https")
                        .add(":path", "/" + randomToken(random, 0, 30)).add(":authority", "example.com");
                break;
            case 1:
                headers.add(":status", random.nextBoolean() ? "200" : String.valueOf(100 + random.nextInt(500)));
                break;
            default:
                break; // trailers
        }
        int count = random.nextInt(random.nextInt(8) == 0 ? 100 : 12);
        for (int i = 0; i < count; i++) {
            String name = random.nextBoolean() ? STATIC_NAMES[random.nextInt(STATIC_NAMES.length)]
                    : "x-" + randomToken(random, 1, 12);
            headers.add(name, randomValue(random));
        }
        if (random.nextInt(6) == 0) {
            invalidate(random, headers);
        }
        ByteBuf out = Unpooled.buffer();
        try {
            encoder.encodeHeaders(streamId, headers, out);
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
        }
    }

    /** One thing the decoder or the headers must reject (or, without validation, let through). */
    private static void invalidate(Random random, Http2Headers headers) {
        switch (random.nextInt(9)) {
            case 0:
                headers.add("X-Upper", "v");
                break;
            case 1:
                headers.add("connection", "keep-alive");
                break;
            case 2:
                headers.add("te", random.nextBoolean() ? "gzip" : "trailers");
                break;
            case 3:
                headers.add(":path", "/duplicate");
                break;
            case 4:
                headers.add(":foo", "unknown");
                break;
            case 5:
                headers.add(":status", "200").add(":method", "GET");
                break;
            case 6:
                headers.add(":authority", "");
                break;
            case 7:
                headers.add("x-bad-value", "a\r\nb");
                break;
            default:
                headers.add("bad name", "v");
                break;
        }
    }

    /** Raw literals in an order Netty's encoder never writes: pseudo-headers after regular ones, and so on. */
    private static byte[] handWritten(Random random) {
        switch (random.nextInt(4)) {
            case 0:
                return RawFrames.literalBlock("accept", "*/*", ":path", "/");
            case 1:
                return RawFrames.literalBlock(":method", "GET", ":path", "/", ":path", "/again");
            case 2:
                return RawFrames.literalBlock(":status", "204", ":path", "/");
            default:
                return RawFrames.literalBlock(":method", "GET", "Content-Type", "x", ":scheme", "http");
        }
    }

    /** Bytes that are seldom valid HPACK: bad indexes, truncated integers and strings, bad Huffman. */
    private static byte[] garbage(Random random) {
        switch (random.nextInt(4)) {
            case 0:
                return HeaderBlocks.ILLEGAL_INDEX.clone();
            case 1:
                return HeaderBlocks.TRUNCATED_INTEGER.clone();
            case 2:
                return HeaderBlocks.TABLE_SIZE_UPDATE_TOO_LARGE.clone();
            default:
                byte[] bytes = new byte[1 + random.nextInt(12)];
                random.nextBytes(bytes);
                return bytes;
        }
    }

    private static String randomToken(Random random, int min, int max) {
        int length = min + random.nextInt(max - min + 1);
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append((char) ('a' + random.nextInt(26)));
        }
        return sb.toString();
    }

    /** Short values repeat (dynamic-table hits), long ones push blocks over the header-list-size limits. */
    private static String randomValue(Random random) {
        if (random.nextInt(4) == 0) {
            return "v" + random.nextInt(4);
        }
        int length = random.nextInt(10) == 0 ? 100 + random.nextInt(400) : random.nextInt(40);
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append(VALUE_CHARS.charAt(random.nextInt(VALUE_CHARS.length())));
        }
        return sb.toString();
    }
}
