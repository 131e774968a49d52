/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.pooledh2.codec.WriterCase.Alloc;
import io.pooledh2.codec.WriterCase.Construction;
import io.pooledh2.codec.WriterCase.PayloadKind;
import io.pooledh2.codec.WriterCase.PromiseKind;
import io.pooledh2.codec.WriterCase.Step;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random call sequences for the writer differential: every frame type with valid and invalid arguments, every
 * option (padding, priority, CONTINUATION-sized header blocks, payloads around the copy threshold and the max
 * frame size), configuration changes between writes, promises of every kind, refused writes, failed flushes and
 * a closed channel. Everything comes from one {@link Random}, so a seed reproduces a case exactly.
 */
final class RandomWriterCases {

    private static final String[] NAMES = {
        "content-type", "content-length", "accept", "user-agent", "cache-control", "cookie", "authorization",
        "x-request-id", "x-trace", "grpc-status", "s-secret", "s-token", "date", "server", "etag", "vary"
    };
    private static final String[] VALUES = {
        "", "0", "1024", "text/plain", "application/grpc", "gzip, deflate", "no-cache", "Mon, 01 Jan 2026 00:00:00 GMT",
        "pooledh2", "W/\"abc\"", "a=b; c=d"
    };
    private static final int THRESHOLD = PooledHttp2FrameWriter.DATA_COPY_THRESHOLD;
    private static final boolean NETTY_ASSERTS = DefaultHttp2FrameWriter.class.desiredAssertionStatus();

    private final Random random;
    private int maxFrameSize = Http2CodecUtil.DEFAULT_MAX_FRAME_SIZE;

    private RandomWriterCases(Random random) {
        this.random = random;
    }

    static WriterCase generate(String name, Random random) {
        return new RandomWriterCases(random).generate(name);
    }

    private WriterCase generate(String name) {
        Construction construction = pick(Construction.values());
        Alloc alloc = pick(Alloc.values());
        int count = 1 + random.nextInt(random.nextInt(8) == 0 ? 30 : 8);
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            steps.add(step());
        }
        return new WriterCase(name, construction, alloc, steps);
    }

    private Step step() {
        int which = random.nextInt(100);
        if (which < 30) {
            return data();
        }
        if (which < 55) {
            return headers();
        }
        if (which < 59) {
            return pushPromise();
        }
        if (which < 63) {
            return settings();
        }
        if (which < 67) {
            return goAway();
        }
        if (which < 70) {
            return unknown();
        }
        if (which < 88) {
            return control();
        }
        if (which < 99) {
            return configure();
        }
        return new WriterCase.Close();
    }

    // The conditions of a write: mostly a new promise on an open channel.

    /**
     * A write's promise. {@code aggregated}: Netty's writer writes under an aggregate of it, which it completes
     * from inside the channel's outbound buffer; there a null promise (taken when assertions are off) or the
     * close future throws and the outbound buffer leaks what it holds: a caller's bug with no outcome to compare.
     */
    private PromiseKind promise(boolean aggregated) {
        int r = random.nextInt(100);
        if (r < 75) {
            return PromiseKind.NEW;
        }
        if (r < 85) {
            return random.nextBoolean() ? PromiseKind.VOID : PromiseKind.UNSAFE_VOID;
        }
        if (r < 88) {
            return PromiseKind.CANCEL_AFTER;
        }
        PromiseKind kind = pick(PromiseKind.values());
        if (aggregated && (kind == PromiseKind.CLOSE_FUTURE || kind == PromiseKind.NULL && !NETTY_ASSERTS)) {
            return PromiseKind.NEW;
        }
        return kind;
    }

    /** Whether the caller keeps a reference to the buffer it writes (to write it again, to read it later). */
    private boolean keep() {
        return random.nextInt(5) == 0;
    }

    private boolean refuse() {
        return random.nextInt(15) == 0;
    }

    private boolean failFlush() {
        return random.nextInt(40) == 0;
    }

    private int streamId() {
        int r = random.nextInt(40);
        if (r == 0) {
            return 0;
        }
        if (r == 1) {
            return -1 - random.nextInt(10);
        }
        if (r == 2) {
            return Integer.MAX_VALUE;
        }
        return 1 + 2 * random.nextInt(1000);
    }

    /** Mostly none, sometimes some, now and then out of range. */
    private int padding() {
        int r = random.nextInt(20);
        if (r < 13) {
            return 0;
        }
        if (r < 18) {
            return 1 + random.nextInt(256);
        }
        if (r == 18) {
            return random.nextBoolean() ? 1 : 256;
        }
        return random.nextBoolean() ? -1 - random.nextInt(3) : 257 + random.nextInt(10);
    }

    private byte[] bytes(int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    /** A payload's buffer; an unpooled one for a promise Netty's writer may throw on before it takes the payload. */
    private PayloadKind payloadKind(int length, PromiseKind promise) {
        PayloadKind kind = pick(PayloadKind.values());
        if (kind == PayloadKind.EMPTY_BUFFER && length != 0) {
            kind = PayloadKind.UNPOOLED_HEAP;
        }
        if (kind == PayloadKind.RELEASED && random.nextInt(4) != 0) {
            kind = PayloadKind.POOLED_DIRECT;
        }
        if (promise.ordinal() >= PromiseKind.CANCELLED.ordinal()
                && (kind == PayloadKind.POOLED_DIRECT || kind == PayloadKind.POOLED_HEAP)) {
            kind = PayloadKind.UNPOOLED_DIRECT;
        }
        return kind;
    }

    /** Lengths around every boundary the writers treat differently. */
    private int dataLength() {
        switch (random.nextInt(10)) {
            case 0:
                return 0;
            case 1:
                return 1 + random.nextInt(64);
            case 2:
            case 3:
                return random.nextInt(THRESHOLD + 1);
            case 4:
                return THRESHOLD - 2 + random.nextInt(5);
            case 5:
                return THRESHOLD + random.nextInt(maxFrameSize - THRESHOLD + 1);
            case 6:
                return maxFrameSize - 2 + random.nextInt(5);
            case 7:
                return maxFrameSize * (1 + random.nextInt(3)) + random.nextInt(3) - 1;
            case 8:
                return maxFrameSize - 300 + random.nextInt(300);
            default:
                return random.nextInt(3 * maxFrameSize + 100);
        }
    }

    private Step data() {
        int length = dataLength();
        boolean failFlush = failFlush();
        PromiseKind promise = promise(true);
        return new WriterCase.Data(promise, refuse(), failFlush, failFlush && random.nextBoolean(), streamId(),
                bytes(length), payloadKind(length, promise), padding(), random.nextBoolean(), keep());
    }

    private Http2Headers randomHeaders() {
        if (random.nextInt(60) == 0) {
            return null;
        }
        DefaultHttp2Headers headers = new DefaultHttp2Headers(false);
        if (random.nextInt(4) != 0) {
            if (random.nextBoolean()) {
                headers.method(pick(new String[] {"GET", "POST", "PUT"})).scheme("https")
                        .path("/" + Integer.toString(random.nextInt(100000), 36)).authority("example.com");
            } else {
                headers.status(pick(new String[] {"200", "204", "404", "500"}));
            }
        }
        int count = random.nextInt(random.nextInt(6) == 0 ? 40 : 8);
        for (int i = 0; i < count; i++) {
            String name = random.nextInt(4) == 0 ? "x-h-" + random.nextInt(50) : pick(NAMES);
            headers.add(name, value());
        }
        if (random.nextInt(12) == 0) {
            // A block that needs CONTINUATION frames.
            // Raw: Huffman-coded, each byte would be a write the leak detector records, in paranoid mode slowly.
            headers.add("x-large", rawLetters(maxFrameSize / 2 + random.nextInt(2 * maxFrameSize)));
        }
        if (random.nextInt(40) == 0) {
            headers.add("x-throw", "1");
        }
        return headers;
    }

    private String value() {
        int r = random.nextInt(10);
        if (r < 6) {
            return pick(VALUES);
        }
        if (r < 9) {
            return letters(random.nextInt(40));
        }
        return random.nextBoolean() ? letters(random.nextInt(400)) : rawLetters(random.nextInt(4000));
    }

    private String letters(int length) {
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = (char) (random.nextBoolean() ? 'a' + random.nextInt(26) : 0x21 + random.nextInt(94));
        }
        return new String(chars);
    }

    /** Characters with Huffman codes longer than a byte: HPACK writes them as they are. */
    private String rawLetters(int length) {
        String raw = "{}[]<>\\^~|`#$%&";
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = raw.charAt(random.nextInt(raw.length()));
        }
        return new String(chars);
    }

    private Step headers() {
        int[] priority = null;
        if (random.nextInt(5) == 0) {
            int dependency = random.nextInt(15) == 0 ? -1 : random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(99);
            int weight = random.nextInt(15) == 0 ? (random.nextBoolean() ? 0 : 257) : 1 + random.nextInt(256);
            priority = new int[] {dependency, weight};
        }
        boolean failFlush = failFlush();
        return new WriterCase.Headers(promise(true), refuse(), failFlush, failFlush && random.nextBoolean(), streamId(),
                randomHeaders(), padding(), random.nextBoolean(), priority, random.nextBoolean());
    }

    private Step pushPromise() {
        boolean failFlush = failFlush();
        return new WriterCase.PushPromise(promise(true), refuse(), failFlush, failFlush && random.nextBoolean(),
                streamId(), streamId(), randomHeaders(), padding());
    }

    private Step settings() {
        // Insertions and removals in a random order, on maps of every capacity, now and then a key outside the six.
        int capacity = random.nextInt(3) == 0 ? 1 + random.nextInt(8) : -1;
        int operations = random.nextInt(9);
        char[] keys = new char[operations];
        long[] values = new long[operations];
        StringBuilder what = new StringBuilder(capacity < 0 ? "new" : "capacity " + capacity);
        for (int i = 0; i < operations; i++) {
            int r = random.nextInt(12);
            keys[i] = r < 10 ? (char) (1 + random.nextInt(6)) : r == 10 ? (char) (7 + random.nextInt(10))
                    : (char) random.nextInt(0x10000);
            values[i] = random.nextInt(5) == 0 ? -1 : settingValue(keys[i]);
            what.append(values[i] < 0 ? " -" + (int) keys[i] : " " + (int) keys[i] + "=" + values[i]);
        }
        boolean nullSettings = random.nextInt(50) == 0;
        if (nullSettings) {
            what.append(" (null)");
        }
        WriterCase.Settings.Maker maker = () -> {
            if (nullSettings) {
                return null;
            }
            Http2Settings settings = capacity < 0 ? new Http2Settings() : new Http2Settings(capacity, 1f);
            for (int i = 0; i < keys.length; i++) {
                if (values[i] < 0) {
                    settings.remove(keys[i]);
                } else {
                    settings.put(keys[i], Long.valueOf(values[i]));
                }
            }
            return settings;
        };
        boolean failFlush = failFlush();
        return new WriterCase.Settings(promise(false), refuse(), failFlush, failFlush && random.nextBoolean(),
                what.toString(), maker);
    }

    private long settingValue(char key) {
        switch (key) {
            case Http2CodecUtil.SETTINGS_ENABLE_PUSH:
                return random.nextInt(2);
            case Http2CodecUtil.SETTINGS_MAX_FRAME_SIZE:
                return Http2CodecUtil.MAX_FRAME_SIZE_LOWER_BOUND + random.nextInt(100000);
            case Http2CodecUtil.SETTINGS_INITIAL_WINDOW_SIZE:
                return random.nextInt(Integer.MAX_VALUE);
            default:
                return random.nextBoolean() ? random.nextInt(100000) : (random.nextLong() & 0xFFFFFFFFL);
        }
    }

    private Step goAway() {
        int r = random.nextInt(8);
        int length = r == 0 ? maxFrameSize - 9 + random.nextInt(3) : r == 1 ? maxFrameSize + random.nextInt(100)
                : random.nextInt(r == 2 ? 2000 : 40);
        boolean failFlush = failFlush();
        PromiseKind promise = promise(true);
        return new WriterCase.GoAway(promise, refuse(), failFlush, failFlush && random.nextBoolean(),
                random.nextInt(20) == 0 ? -1 : random.nextInt(1000), errorCode(), bytes(length),
                payloadKind(length, promise), keep());
    }

    private long errorCode() {
        int r = random.nextInt(20);
        if (r == 0) {
            return -1;
        }
        if (r == 1) {
            return 0x1_0000_0000L;
        }
        if (r == 2) {
            return 0xFFFF_FFFFL;
        }
        return random.nextInt(14);
    }

    private Step unknown() {
        int r = random.nextInt(6);
        int length = r == 0 ? maxFrameSize + random.nextInt(3) - 1 : random.nextInt(r == 1 ? 3000 : 50);
        boolean failFlush = failFlush();
        PromiseKind promise = promise(true);
        return new WriterCase.Unknown(promise, refuse(), failFlush, failFlush && random.nextBoolean(),
                (byte) random.nextInt(256), random.nextInt(20) == 0 ? -1 : random.nextInt(100),
                (short) random.nextInt(256), bytes(length), payloadKind(length, promise));
    }

    private Step control() {
        PromiseKind promise = promise(false);
        boolean refuse = refuse();
        boolean failFlush = failFlush();
        boolean io = failFlush && random.nextBoolean();
        switch (random.nextInt(6)) {
            case 0: {
                boolean ack = random.nextBoolean();
                long data = random.nextLong();
                return new WriterCase.Control(promise, refuse, failFlush, io, "PING " + ack + " " + data,
                        (w, c, p) -> w.writePing(c, ack, data, p));
            }
            case 1:
                return new WriterCase.Control(promise, refuse, failFlush, io, "SETTINGS ack",
                        (w, c, p) -> w.writeSettingsAck(c, p));
            case 2: {
                int streamId = random.nextInt(10) == 0 ? -1 : random.nextInt(100);
                int increment = random.nextInt(15) == 0 ? -1 - random.nextInt(100) : random.nextInt(Integer.MAX_VALUE);
                return new WriterCase.Control(promise, refuse, failFlush, io,
                        "WINDOW_UPDATE " + streamId + " " + increment,
                        (w, c, p) -> w.writeWindowUpdate(c, streamId, increment, p));
            }
            case 3: {
                int streamId = streamId();
                long errorCode = errorCode();
                return new WriterCase.Control(promise, refuse, failFlush, io, "RST_STREAM " + streamId + " "
                        + errorCode, (w, c, p) -> w.writeRstStream(c, streamId, errorCode, p));
            }
            default: {
                int streamId = streamId();
                int dependency = random.nextInt(15) == 0 ? -1 : random.nextInt(100);
                short weight = (short) (random.nextInt(15) == 0 ? random.nextInt(400) - 100 : 1 + random.nextInt(256));
                boolean exclusive = random.nextBoolean();
                return new WriterCase.Control(promise, refuse, failFlush, io, "PRIORITY " + streamId + " on "
                        + dependency + " weight " + weight + (exclusive ? " exclusive" : ""),
                        (w, c, p) -> w.writePriority(c, streamId, dependency, weight, exclusive, p));
            }
        }
    }

    private Step configure() {
        switch (random.nextInt(3)) {
            case 0: {
                int r = random.nextInt(10);
                int size = r == 0 ? Http2CodecUtil.MAX_FRAME_SIZE_LOWER_BOUND - 1 - random.nextInt(100)
                        : r == 1 ? Http2CodecUtil.MAX_FRAME_SIZE_UPPER_BOUND + 1 + random.nextInt(100)
                        : r < 6 ? Http2CodecUtil.MAX_FRAME_SIZE_LOWER_BOUND
                        : Http2CodecUtil.MAX_FRAME_SIZE_LOWER_BOUND + random.nextInt(40000);
                if (size >= Http2CodecUtil.MAX_FRAME_SIZE_LOWER_BOUND && size <= Http2CodecUtil.MAX_FRAME_SIZE_UPPER_BOUND) {
                    // Later lengths follow the size both writers then use.
                    maxFrameSize = size;
                }
                return new WriterCase.Configure("max frame size " + size, w -> w.configuration().frameSizePolicy()
                        .maxFrameSize(size));
            }
            case 1: {
                long size = random.nextInt(10) == 0 ? -1 : random.nextInt(10) == 0 ? 0x1_0000_0000L
                        : random.nextInt(8192);
                return new WriterCase.Configure("header table size " + size,
                        w -> w.configuration().headersConfiguration().maxHeaderTableSize(size));
            }
            default: {
                long size = random.nextInt(10) == 0 ? -1 : random.nextInt(3) == 0 ? 50 + random.nextInt(500)
                        : 8192 + random.nextInt(100000);
                return new WriterCase.Configure("header list size " + size,
                        w -> w.configuration().headersConfiguration().maxHeaderListSize(size));
            }
        }
    }

    private <T> T pick(T[] values) {
        return values[random.nextInt(values.length)];
    }
}
