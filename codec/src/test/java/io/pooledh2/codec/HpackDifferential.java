/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import io.netty.util.AsciiString;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * The randomized differential test of the HPACK decoder: {@link PooledHttp2HeadersDecoder} against Netty's
 * {@link DefaultHttp2HeadersDecoder} (and so its {@code HpackDecoder}), on sequences of header blocks that each
 * stand for one connection, so that dynamic-table inserts, evictions and size updates carry over from block to
 * block. Blocks come from Netty's encoder ({@link DefaultHttp2HeadersEncoder}) with random fields (repeated from a
 * pool and new, every byte value, names valid and not, values short and longer than the table), Huffman
 * thresholds, table sizes and size updates, never-indexed fields (a sensitivity detector); then some are
 * corrupted (bits flipped, bytes changed, inserted, deleted, truncated) or replaced by hand-written and random
 * bytes. Decoder settings vary too: constructors, limits, table sizes, in range and not, set between blocks.
 *
 * <p>Each block is decoded by both from the same kind of buffer (heap at an offset, direct, composite), and must
 * give the same headers in the same order, or the same exception (class, Http2Error, stream or connection, stream
 * id, message, shutdown hint, cause), and leave the buffer's reader index at the same place; the decoders'
 * settings must read the same after each step. A connection error does not end the sequence every time: both
 * decoders must also agree on what the error left in their tables.
 *
 * <p>Used by {@link HpackDifferentialTest} (a short run in the build) and {@link HpackDifferentialFuzz} (long runs,
 * {@code src/fuzz/run.sh --hpack}). A sequence is a function of its seed.
 */
final class HpackDifferential {

    private static final String[] NAMES = {"accept", "accept-encoding", "accept-language", "cache-control",
        "content-length", "content-type", "cookie", "date", "etag", "host", "if-none-match", "location", "referer",
        "server", "set-cookie", "user-agent", "authorization", "vary", "via", "x-request-id", "x-trace-id",
        "grpc-timeout", "grpc-encoding", "x-b3-traceid"};
    private static final String[] SENSITIVE_NAMES = {"authorization", "cookie", "set-cookie", "x-secret"};
    private static final String TOKEN_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-_.";
    private static final String VALUE_CHARS =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~!#$%&'*+^`|/:;=?@[]{}() ,\"<>\\";

    /** What the runs so far covered. */
    long sequences;
    long blocks;
    long errors;
    long corrupted;
    long settingsChanges;
    /** Outcomes by kind (the error's message up to its first quote or digit), to see what the runs reached. */
    final Map<String, Long> outcomes = new TreeMap<>();

    /** Runs the sequence of {@code seed}; throws an {@link AssertionError} naming the seed on a divergence. */
    void run(long seed) {
        Random random = new Random(seed);
        try {
            runSequence(random, seed);
        } catch (Http2Exception e) {
            throw new AssertionError("seed " + seed + ": unexpected " + e, e);
        }
        sequences++;
    }

    private void runSequence(Random random, long seed) throws Http2Exception {
        boolean validate = random.nextInt(5) != 0;
        boolean validateValues = random.nextBoolean();
        long listSize = random.nextInt(6) == 0 ? 64 + random.nextInt(4096)
                : random.nextInt(10) == 0 ? 1 << 20 : 8192;
        int constructor = random.nextInt(5);
        DefaultHttp2HeadersDecoder stock = stockDecoder(constructor, validate, validateValues, listSize);
        PooledHttp2HeadersDecoder pooled = pooledDecoder(constructor, validate, validateValues, listSize);
        String context = "seed " + seed + " constructor " + constructor + " validate=" + validate + "/"
                + validateValues + " listSize=" + listSize;
        long decoderTableSize = 4096;
        if (random.nextInt(3) == 0) {
            decoderTableSize = tableSize(random);
            decoderTableSize = setTableSize(stock, pooled, decoderTableSize, context) ? decoderTableSize : 4096;
        }
        if (random.nextInt(4) == 0) {
            setListSize(random, stock, pooled, context);
        }
        DefaultHttp2HeadersEncoder encoder = encoder(random);
        boolean tellEncoder = random.nextInt(4) != 0;
        if (tellEncoder && decoderTableSize != 4096) {
            encoder.configuration().maxHeaderTableSize(Math.min(decoderTableSize, 1L << 20));
        }
        List<AsciiString> valuePool = new ArrayList<>();
        int poolSize = 1 + random.nextInt(random.nextBoolean() ? 20 : 300);
        for (int i = 0; i < poolSize; i++) {
            valuePool.add(value(random));
        }
        List<AsciiString> namePool = new ArrayList<>();
        int namePoolSize = 1 + random.nextInt(random.nextBoolean() ? 10 : 150);
        for (int i = 0; i < namePoolSize; i++) {
            namePool.add(name(random));
        }
        PooledHttp2Headers reused = pooled.newFrameHeaders();
        int blockCount = 1 + random.nextInt(random.nextInt(4) == 0 ? 200 : 30);
        for (int b = 0; b < blockCount; b++) {
            int streamId = random.nextInt(20) == 0 ? 0 : 1 + 2 * b;
            int change = random.nextInt(40);
            if (change == 0) {
                // The peer's encoder changes its table size: a size update starts the next block.
                long size = random.nextInt(5) == 0 ? decoderTableSize + 1 + random.nextInt(100)
                        : random.nextInt((int) Math.min(decoderTableSize, 1 << 16) + 1);
                encoder.configuration().maxHeaderTableSize(Math.min(size, 1L << 20));
            } else if (change == 1) {
                // This side's SETTINGS_HEADER_TABLE_SIZE changes; the encoder hears of it, or not.
                long size = tableSize(random);
                if (setTableSize(stock, pooled, size, context)) {
                    decoderTableSize = size;
                    if (random.nextInt(3) != 0) {
                        encoder.configuration().maxHeaderTableSize(Math.min(size, 1L << 20));
                    }
                }
            } else if (change == 2) {
                setListSize(random, stock, pooled, context);
            }
            byte[] block = block(random, encoder, namePool, valuePool, streamId);
            int bufferKind = random.nextInt(4);
            int offset = random.nextInt(4) == 0 ? random.nextInt(16) : 0;
            boolean intoFrameHeaders = random.nextBoolean();
            // One buffer for both, read again from the same index: its toString() is in some messages.
            ByteBuf in = buffer(block, bufferKind, offset);
            int readerIndex = in.readerIndex();
            try {
                String expected = decode(stock, null, streamId, in);
                in.readerIndex(readerIndex);
                String actual = decode(pooled, intoFrameHeaders ? reused : null, streamId, in);
                if (!expected.equals(actual)) {
                    throw new AssertionError(context + " block " + b + " buffer " + bufferKind + "/" + offset
                            + " bytes " + ByteBufUtil.hexDump(block) + "\n expected: " + expected
                            + "\n   actual: " + actual);
                }
                compareSettings(stock, pooled, context + " block " + b);
                blocks++;
                count(expected);
                if (expected.startsWith("ERROR")) {
                    errors++;
                    if (expected.contains(" connection ") && random.nextInt(3) != 0) {
                        return;
                    }
                }
            } finally {
                in.release();
                reused.recycle(); // As the frame's release does.
            }
        }
    }

    private static DefaultHttp2HeadersDecoder stockDecoder(int constructor, boolean validate, boolean values,
                                                           long listSize) {
        switch (constructor) {
            case 0:
                return new DefaultHttp2HeadersDecoder();
            case 1:
                return new DefaultHttp2HeadersDecoder(validate);
            case 2:
                return new DefaultHttp2HeadersDecoder(validate, values);
            case 3:
                return new DefaultHttp2HeadersDecoder(validate, listSize);
            default:
                return new DefaultHttp2HeadersDecoder(validate, values, listSize);
        }
    }

    private static PooledHttp2HeadersDecoder pooledDecoder(int constructor, boolean validate, boolean values,
                                                           long listSize) {
        switch (constructor) {
            case 0:
                return new PooledHttp2HeadersDecoder();
            case 1:
                return new PooledHttp2HeadersDecoder(validate);
            case 2:
                return new PooledHttp2HeadersDecoder(validate, values);
            case 3:
                return new PooledHttp2HeadersDecoder(validate, listSize);
            default:
                return new PooledHttp2HeadersDecoder(validate, values, listSize);
        }
    }

    /** Mostly in range, sometimes out of it (the setters must then throw alike). */
    private static long tableSize(Random random) {
        switch (random.nextInt(8)) {
            case 0:
                return 0;
            case 1:
                return -1 - random.nextInt(10);
            case 2:
                return 0xFFFFFFFFL + random.nextInt(2);
            case 3:
                return 1 + random.nextInt(64);
            default:
                return random.nextInt(8192);
        }
    }

    private static boolean setTableSize(DefaultHttp2HeadersDecoder stock, PooledHttp2HeadersDecoder pooled,
                                        long size, String context) {
        String expected = setting(() -> stock.configuration().maxHeaderTableSize(size));
        String actual = setting(() -> pooled.configuration().maxHeaderTableSize(size));
        if (!expected.equals(actual)) {
            throw new AssertionError(context + " maxHeaderTableSize(" + size + ")\n expected: " + expected
                    + "\n   actual: " + actual);
        }
        return expected.equals("ok");
    }

    private void setListSize(Random random, DefaultHttp2HeadersDecoder stock, PooledHttp2HeadersDecoder pooled,
                             String context) {
        settingsChanges++;
        long max;
        switch (random.nextInt(6)) {
            case 0:
                max = random.nextInt(64); // below the table-size minimum, above the list-size one
                break;
            case 1:
                max = 0xFFFFFFFFL + random.nextInt(3) - 1; // around both maxima
                break;
            case 2:
                max = -1;
                break;
            default:
                max = 32 + random.nextInt(16384);
                break;
        }
        long goAway = random.nextInt(5) == 0 ? max - 1 : max + random.nextInt(4096);
        String expected = setting(() -> stock.configuration().maxHeaderListSize(max, goAway));
        String actual = setting(() -> pooled.configuration().maxHeaderListSize(max, goAway));
        if (!expected.equals(actual)) {
            throw new AssertionError(context + " maxHeaderListSize(" + max + ", " + goAway + ")\n expected: "
                    + expected + "\n   actual: " + actual);
        }
    }

    private interface Setting {
        void apply() throws Http2Exception;
    }

    private static String setting(Setting setting) {
        try {
            setting.apply();
            return "ok";
        } catch (Http2Exception e) {
            return describe(e);
        } catch (RuntimeException e) {
            return e.getClass().getName() + ": " + e.getMessage();
        }
    }

    private static void compareSettings(DefaultHttp2HeadersDecoder stock, PooledHttp2HeadersDecoder pooled,
                                        String context) {
        String expected = stock.maxHeaderTableSize() + "/" + stock.maxHeaderListSize() + "/"
                + stock.maxHeaderListSizeGoAway();
        String actual = pooled.maxHeaderTableSize() + "/" + pooled.maxHeaderListSize() + "/"
                + pooled.maxHeaderListSizeGoAway();
        if (!expected.equals(actual)) {
            throw new AssertionError(context + " settings\n expected: " + expected + "\n   actual: " + actual);
        }
    }

    private static DefaultHttp2HeadersEncoder encoder(Random random) {
        Http2HeadersEncoder.SensitivityDetector sensitivity;
        switch (random.nextInt(4)) {
            case 0:
                sensitivity = Http2HeadersEncoder.NEVER_SENSITIVE;
                break;
            case 1:
                sensitivity = Http2HeadersEncoder.ALWAYS_SENSITIVE;
                break;
            case 2:
                sensitivity = (name, value) -> isSensitiveName(name);
                break;
            default:
                // Some fields of any name, the same ones every time they come.
                sensitivity = (name, value) -> ((AsciiString.hashCode(name) * 31 + AsciiString.hashCode(value))
                        & 7) == 0;
                break;
        }
        int[] thresholds = {0, 1, 3, 8, 512};
        return new DefaultHttp2HeadersEncoder(sensitivity, true, random.nextInt(64),
                thresholds[random.nextInt(thresholds.length)]);
    }

    private static boolean isSensitiveName(CharSequence name) {
        for (String s : SENSITIVE_NAMES) {
            if (AsciiString.contentEquals(s, name)) {
                return true;
            }
        }
        return false;
    }

    private byte[] block(Random random, DefaultHttp2HeadersEncoder encoder, List<AsciiString> namePool,
                         List<AsciiString> valuePool, int streamId) throws Http2Exception {
        int kind = random.nextInt(40);
        if (kind == 0) {
            byte[] bytes = new byte[random.nextInt(40)];
            random.nextBytes(bytes);
            corrupted++;
            return bytes;
        }
        if (kind == 1) {
            corrupted++;
            return handWritten(random);
        }
        Http2Headers headers = new DefaultHttp2Headers(false);
        switch (random.nextInt(4)) {
            case 0:
                headers.add(":method", random.nextBoolean() ? "GET" : "POST").add(":scheme", "https")
                        .add(":path", "/" + token(random, 0, 30)).add(":authority", "example.com");
                break;
            case 1:
                headers.add(":status", random.nextBoolean() ? "200" : String.valueOf(100 + random.nextInt(500)));
                break;
            case 2:
                headers.add(":method", "GET").add(":path", "/");
                break;
            default:
                break; // trailers
        }
        int count = random.nextInt(random.nextInt(6) == 0 ? 120 : 14);
        for (int i = 0; i < count; i++) {
            AsciiString name;
            int pick = random.nextInt(10);
            if (pick < 4) {
                name = AsciiString.of(NAMES[random.nextInt(NAMES.length)]);
            } else if (pick < 9) {
                name = namePool.get(random.nextInt(namePool.size()));
            } else {
                name = name(random);
            }
            AsciiString value = random.nextInt(4) != 0 ? valuePool.get(random.nextInt(valuePool.size()))
                    : value(random);
            headers.add(name, value);
        }
        if (random.nextInt(8) == 0) {
            invalidate(random, headers);
        }
        ByteBuf out = Unpooled.buffer();
        byte[] block;
        try {
            encoder.encodeHeaders(streamId, headers, out);
            block = ByteBufUtil.getBytes(out);
        } finally {
            out.release();
        }
        if (block.length > 0 && random.nextInt(8) == 0) {
            corrupted++;
            block = corrupt(random, block);
        }
        return block;
    }

    /** One thing the decoder or the headers must reject (or, without validation, let through). */
    private static void invalidate(Random random, Http2Headers headers) {
        switch (random.nextInt(11)) {
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
            case 8:
                headers.add("", "empty name");
                break;
            case 9:
                headers.add("x-separator(", "v");
                break;
            default:
                headers.add("bad name", "v");
                break;
        }
    }

    private static byte[] corrupt(Random random, byte[] block) {
        byte[] out = block.clone();
        switch (random.nextInt(6)) {
            case 0: {
                int i = random.nextInt(out.length);
                out[i] ^= (byte) (1 << random.nextInt(8));
                return out;
            }
            case 1:
                out[random.nextInt(out.length)] = (byte) random.nextInt(256);
                return out;
            case 2:
                return java.util.Arrays.copyOf(out, random.nextInt(out.length));
            case 3: {
                int i = random.nextInt(out.length);
                byte[] shorter = new byte[out.length - 1];
                System.arraycopy(out, 0, shorter, 0, i);
                System.arraycopy(out, i + 1, shorter, i, out.length - i - 1);
                return shorter;
            }
            case 4: {
                int i = random.nextInt(out.length + 1);
                byte[] extra = new byte[1 + random.nextInt(4)];
                random.nextBytes(extra);
                if (random.nextBoolean()) {
                    extra[0] = (byte) (0x20 | random.nextInt(32)); // a size update, out of place
                }
                byte[] longer = new byte[out.length + extra.length];
                System.arraycopy(out, 0, longer, 0, i);
                System.arraycopy(extra, 0, longer, i, extra.length);
                System.arraycopy(out, i, longer, i + extra.length, out.length - i);
                return longer;
            }
            default: {
                // A random stretch of ones and zeros: Huffman padding and EOS in strings.
                int i = random.nextInt(out.length);
                int n = Math.min(out.length - i, 1 + random.nextInt(5));
                byte fill = random.nextBoolean() ? (byte) 0xFF : 0;
                java.util.Arrays.fill(out, i, i + n, fill);
                return out;
            }
        }
    }

    /** Literal fields Netty's encoder never writes: odd orders, raw bytes, Huffman strings by hand. */
    private static byte[] handWritten(Random random) {
        switch (random.nextInt(7)) {
            case 0:
                return RawFrames.literalBlock("accept", "*/*", ":path", "/");
            case 1:
                return RawFrames.literalBlock(":method", "GET", ":path", "/", ":path", "/again");
            case 2:
                return RawFrames.literalBlock(":status", "204", ":path", "/");
            case 3:
                return RawFrames.literalBlock(":method", "GET", "Content-Type", "x", ":scheme", "http");
            case 4:
                // Two size updates, then a field: allowed; the second above the maximum or not.
                return Frames.bytes(0x20, 0x3F, 0xE1, random.nextBoolean() ? 0x1F : 0x20, 0x82);
            case 5: {
                // A Huffman literal of random bytes: mostly bad padding or an EOS somewhere.
                byte[] s = new byte[1 + random.nextInt(8)];
                random.nextBytes(s);
                byte[] out = new byte[3 + s.length + 1];
                out[0] = 0x00;
                out[1] = 0x01;
                out[2] = 'x';
                out[3] = (byte) (0x80 | s.length);
                System.arraycopy(s, 0, out, 4, s.length);
                return java.util.Arrays.copyOf(out, 4 + s.length);
            }
            default:
                // An integer near the limits: index or length.
                return Frames.bytes(random.nextBoolean() ? 0xFF : 0x0F, 0xFF, 0xFF, 0xFF, 0xFF,
                        random.nextInt(16), 0x01);
        }
    }

    private static ByteBuf buffer(byte[] block, int kind, int offset) {
        switch (kind) {
            case 0:
                return Unpooled.wrappedBuffer(block);
            case 1: {
                // A heap buffer whose array starts before the block, read from an index past 0.
                byte[] array = new byte[offset + block.length + 3];
                System.arraycopy(block, 0, array, offset, block.length);
                ByteBuf buf = Unpooled.wrappedBuffer(array);
                buf.setIndex(offset, offset + block.length);
                return buf;
            }
            case 2: {
                ByteBuf buf = Unpooled.directBuffer(offset + block.length);
                buf.writeZero(offset).writeBytes(block);
                buf.readerIndex(offset);
                return buf;
            }
            default: {
                CompositeByteBuf buf = Unpooled.compositeBuffer();
                int half = block.length / 2;
                buf.addComponent(true, Unpooled.wrappedBuffer(block, 0, half));
                buf.addComponent(true, Unpooled.wrappedBuffer(block, half, block.length - half));
                return buf;
            }
        }
    }

    private static String decode(DefaultHttp2HeadersDecoder decoder, PooledHttp2Headers reused, int streamId,
                                 ByteBuf in) {
        String result;
        try {
            if (reused != null) {
                ((PooledHttp2HeadersDecoder) decoder).decodeInto(reused);
            }
            Http2Headers headers = decoder.decodeHeaders(streamId, in);
            if (reused != null && headers != reused) {
                throw new AssertionError("not decoded into the frame's container");
            }
            result = render(headers);
        } catch (Http2Exception e) {
            result = describe(e);
        } catch (RuntimeException e) {
            result = "RUNTIME " + e;
        }
        return result + " | readerIndex " + in.readerIndex();
    }

    private static String render(Http2Headers headers) {
        StringBuilder out = new StringBuilder().append(headers.size()).append(" [");
        for (Map.Entry<CharSequence, CharSequence> e : headers) {
            out.append(e.getKey()).append('=').append(e.getValue()).append(", ");
        }
        return out.append(']').toString();
    }

    static String describe(Http2Exception e) {
        StringBuilder out = new StringBuilder("ERROR ").append(e.getClass().getName()).append(' ').append(e.error())
                .append(Http2Exception.isStreamError(e)
                        ? " stream " + ((Http2Exception.StreamException) e).streamId() : " connection ")
                .append(' ').append(e.getMessage()).append(" hint ").append(e.shutdownHint());
        if (e instanceof Http2Exception.HeaderListSizeException) {
            out.append(" duringDecode ").append(((Http2Exception.HeaderListSizeException) e).duringDecode());
        }
        Throwable cause = e.getCause();
        if (cause != null) {
            out.append(" cause ").append(cause.getClass().getName()).append(": ").append(cause.getMessage());
        }
        return out.toString();
    }

    /** Counts an outcome by kind: headers, or the error's scope and message up to its first quote or number. */
    private void count(String outcome) {
        String kind = "headers";
        if (outcome.startsWith("ERROR")) {
            int message = outcome.indexOf(" stream ");
            String scope = "stream";
            if (message < 0) {
                message = outcome.indexOf(" connection ");
                scope = "connection";
            }
            int from = outcome.indexOf(' ', message + scope.length() + 2) + 1;
            int end = outcome.indexOf(" hint ");
            for (int i = from; i < end; i++) {
                char c = outcome.charAt(i);
                if (c == '\'' || c == '(' || c == '[' || Character.isDigit(c)) {
                    end = i;
                    break;
                }
            }
            kind = scope + ": " + outcome.substring(from, Math.max(from, end)).trim();
        }
        outcomes.merge(kind, 1L, Long::sum);
    }

    private static AsciiString name(Random random) {
        if (random.nextInt(60) == 0) {
            return new AsciiString(bytes(random, 1 + random.nextInt(12), 0, 256)); // anything, mostly invalid
        }
        return AsciiString.of("x-" + token(random, 1, random.nextInt(8) == 0 ? 60 : 14));
    }

    /** Short and long, printable or any byte at all: Huffman codes of every length. */
    private static AsciiString value(Random random) {
        int length;
        switch (random.nextInt(24)) {
            case 0:
            case 1:
                length = 0;
                break;
            case 2:
            case 3:
                length = 100 + random.nextInt(500);
                break;
            case 4:
                length = 3000 + random.nextInt(2000); // larger than the table: never indexed by the encoder
                break;
            default:
                length = 1 + random.nextInt(40);
                break;
        }
        if (random.nextInt(40) == 0) {
            return new AsciiString(bytes(random, length, 0, 256));
        }
        if (random.nextInt(10) == 0) {
            return new AsciiString(bytes(random, length, 0x80, 256)); // obs-text: long codes
        }
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append(VALUE_CHARS.charAt(random.nextInt(VALUE_CHARS.length())));
        }
        return AsciiString.of(sb);
    }

    private static byte[] bytes(Random random, int length, int from, int to) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (from + random.nextInt(to - from));
        }
        return b;
    }

    private static String token(Random random, int min, int max) {
        int length = min + random.nextInt(max - min + 1);
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append(TOKEN_CHARS.charAt(random.nextInt(TOKEN_CHARS.length())));
        }
        return sb.toString();
    }
}
