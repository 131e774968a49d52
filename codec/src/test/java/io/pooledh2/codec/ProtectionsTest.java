/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.pooledh2.codec.ServerUnderTest.Kind;
import io.pooledh2.codec.ServerUnderTest.Options;
import io.pooledh2.codec.ServerUnderTest.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;

import static io.pooledh2.codec.ServerUnderTest.goAway;
import static io.pooledh2.codec.ServerUnderTest.headers;
import static io.pooledh2.codec.ServerUnderTest.rst;
import static io.pooledh2.codec.ServerUnderTest.serve;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every decoder and encoder protection, on both pooled builders side by side with Netty's builder of the same
 * path, on the same bytes: the same frames written (GOAWAY or RST_STREAM with the same code), the connection
 * closed or not alike, and nothing leaked (LeakDetectionExtension, paranoid leak detection).
 */
class ProtectionsTest {

    private static final int FLOOD = 10_100; // above Netty's default of 10,000 queued control frames

    /** One abuse: the client's bytes, the builder options, and the error frame Netty answers with. */
    private static final class Abuse {
        final String name;
        final Supplier<Options> options;
        final List<Consumer<ByteBuf>> steps;
        /** {@code null}: Netty lets it through. */
        final String expectedError;
        final boolean closes;

        Abuse(String name, Supplier<Options> options, String expectedError, boolean closes,
              List<Consumer<ByteBuf>> steps) {
            this.name = name;
            this.options = options;
            this.steps = steps;
            this.expectedError = expectedError;
            this.closes = closes;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private static List<Consumer<ByteBuf>> steps(Consumer<ByteBuf>... steps) {
        return Arrays.asList(steps);
    }

    private static byte[] block(CharSequence... extra) {
        List<CharSequence> all = new ArrayList<>(List.of(":method", "GET", ":scheme", "http", ":authority",
                "localhost", ":path", "/hold"));
        all.addAll(Arrays.asList(extra));
        try {
            return RawFrames.headerBlock(all.toArray(new CharSequence[0]));
        } catch (Http2Exception e) {
            throw new AssertionError(e);
        }
    }

    /** A header block split into HEADERS and CONTINUATION frames of at most {@code max} bytes. */
    private static void headerBlock(ByteBuf in, int streamId, byte[] block, int max) {
        int offset = 0;
        boolean first = true;
        while (offset < block.length || first) {
            int length = Math.min(max, block.length - offset);
            boolean last = offset + length == block.length;
            RawFrames.header(in, length, first ? 0x1 : 0x9, last ? Http2Flags.END_HEADERS : 0, streamId);
            in.writeBytes(block, offset, length);
            offset += length;
            first = false;
        }
    }

    /** {@code streams} streams opened by HEADERS and each reset by the client at once. */
    private static Consumer<ByteBuf> openAndReset(int streams) {
        return openAndReset(1, streams);
    }

    /** The same from stream {@code first} on. */
    private static Consumer<ByteBuf> openAndReset(int first, int streams) {
        return in -> {
            byte[] block = block();
            for (int stream = first; stream < first + 2 * streams; stream += 2) {
                RawFrames.frame(in, 0x1, Http2Flags.END_HEADERS, stream, block);
                RawFrames.header(in, 4, 0x3, 0, stream);
                in.writeInt((int) Http2Error.CANCEL.code());
            }
        };
    }

    /** {@code streams} streams opened by HEADERS, each given a stream error (WINDOW_UPDATE of 0) at once. */
    private static Consumer<ByteBuf> streamErrors(int streams) {
        return in -> {
            byte[] block = block();
            for (int stream = 1; stream < 2 * streams; stream += 2) {
                RawFrames.frame(in, 0x1, Http2Flags.END_HEADERS, stream, block);
                RawFrames.header(in, 4, 0x8, 0, stream);
                in.writeInt(0);
            }
        };
    }

    /** {@code streams} requests the server answers with RST_STREAM(CANCEL). */
    private static Consumer<ByteBuf> resetByServer(int streams) {
        return in -> {
            for (int stream = 1; stream < 2 * streams; stream += 2) {
                headers(in, stream, "/reset", false);
            }
        };
    }

    private static Consumer<ByteBuf> pings(int pings) {
        return in -> {
            for (int i = 0; i < pings; i++) {
                RawFrames.header(in, 8, 0x6, 0, 0);
                in.writeLong(i);
            }
        };
    }

    /** {@code frames} empty DATA frames without END_STREAM on {@code streamId}. */
    private static Consumer<ByteBuf> emptyData(int streamId, int frames) {
        return in -> {
            for (int i = 0; i < frames; i++) {
                RawFrames.header(in, 0, 0x0, 0, streamId);
            }
        };
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static String repeat(int n) {
        return "x".repeat(n);
    }

    private static void settings(ByteBuf in, int id, long value) {
        RawFrames.header(in, 6, 0x4, 0, 0);
        in.writeShort(id).writeInt((int) value);
    }

    static Stream<Arguments> cases() {
        List<Abuse> abuses = List.of(
                new Abuse("CONTINUATION flood", Options::new, goAway(Integer.MAX_VALUE, Http2Error.ENHANCE_YOUR_CALM),
                        true, steps(in -> {
                            byte[] block = block();
                            RawFrames.header(in, block.length, 0x1, 0, 1);
                            in.writeBytes(block);
                            for (int i = 0; i < 100; i++) {
                                RawFrames.header(in, 0, 0x9, 0, 1);
                            }
                        })),
                new Abuse("RST_STREAM flood", Options::new, goAway(Integer.MAX_VALUE, Http2Error.ENHANCE_YOUR_CALM),
                        true, steps(openAndReset(250))),
                new Abuse("RST_STREAM, limit 10 per minute: 10", () -> new Options().rstLimit(10, 60), null, false,
                        steps(openAndReset(10))),
                new Abuse("RST_STREAM, limit 10 per minute: 11", () -> new Options().rstLimit(10, 60),
                        goAway(Integer.MAX_VALUE, Http2Error.ENHANCE_YOUR_CALM), true, steps(openAndReset(11))),
                // The window starts at the first RST_STREAM after the last one ended.
                new Abuse("RST_STREAM, limit 3 per second: 3, a second's wait, 3", () -> new Options().rstLimit(3, 1),
                        null, false, steps(openAndReset(1, 3), in -> sleep(1100), openAndReset(7, 3))),
                new Abuse("RST_STREAM, limit 3 per second: 3, 3", () -> new Options().rstLimit(3, 1),
                        goAway(Integer.MAX_VALUE, Http2Error.ENHANCE_YOUR_CALM), true,
                        steps(openAndReset(1, 3), openAndReset(7, 3))),
                new Abuse("RST_STREAM flood, limit off", () -> new Options().rstLimit(0, 0), null, false,
                        steps(openAndReset(250))),
                new Abuse("consecutive empty DATA", Options::new,
                        goAway(Integer.MAX_VALUE, Http2Error.ENHANCE_YOUR_CALM), true, steps(
                                in -> headers(in, 1, "/hold", false), emptyData(1, 10))),
                new Abuse("consecutive empty DATA, limit 5: 5", () -> new Options().maxConsecutiveEmptyDataFrames(5),
                        null, false, steps(in -> headers(in, 1, "/hold", false), emptyData(1, 5))),
                new Abuse("consecutive empty DATA, limit 5: 6", () -> new Options().maxConsecutiveEmptyDataFrames(5),
                        goAway(Integer.MAX_VALUE, Http2Error.ENHANCE_YOUR_CALM), true, steps(
                                in -> headers(in, 1, "/hold", false), emptyData(1, 6))),
                // A HEADERS frame, on any stream, starts the count again.
                new Abuse("empty DATA, 2 before and 2 after a HEADERS", Options::new, null, false, steps(
                        in -> headers(in, 1, "/hold", false), emptyData(1, 2), in -> headers(in, 3, "/hold", false),
                        emptyData(1, 2))),
                new Abuse("empty DATA, limit off", () -> new Options().maxConsecutiveEmptyDataFrames(0), null, false,
                        steps(in -> headers(in, 1, "/hold", false), emptyData(1, 100))),
                new Abuse("empty DATA and RST_STREAM, both limits off",
                        () -> new Options().maxConsecutiveEmptyDataFrames(0).rstLimit(0, 0), null, false,
                        steps(openAndReset(250), in -> headers(in, 501, "/hold", false), emptyData(501, 100))),
                new Abuse("PING flood, peer not reading", () -> new Options().peerDoesNotRead(),
                        goAway(Integer.MAX_VALUE, Http2Error.ENHANCE_YOUR_CALM), true, steps(pings(FLOOD))),
                new Abuse("PING flood, peer not reading, limit 100",
                        () -> new Options().peerDoesNotRead().maxQueuedControlFrames(100),
                        goAway(Integer.MAX_VALUE, Http2Error.ENHANCE_YOUR_CALM), true, steps(pings(150))),
                new Abuse("PING flood, peer not reading, limit off",
                        () -> new Options().peerDoesNotRead().maxQueuedControlFrames(0), null, false,
                        steps(pings(FLOOD))),
                // The server's own RST_STREAM frames: at most 200 per 30 s on a server, CANCEL and NO_ERROR aside.
                new Abuse("stream errors on 200 streams", Options::new, rst(1, Http2Error.PROTOCOL_ERROR), false,
                        steps(streamErrors(200))),
                new Abuse("stream errors on 201 streams", Options::new,
                        goAway(Integer.MAX_VALUE, Http2Error.ENHANCE_YOUR_CALM), true, steps(streamErrors(201))),
                new Abuse("stream errors on 11 streams, encoder RST limit 10 per minute",
                        () -> new Options().encoderRstLimit(10, 60),
                        goAway(Integer.MAX_VALUE, Http2Error.ENHANCE_YOUR_CALM), true, steps(streamErrors(11))),
                new Abuse("stream errors on 250 streams, encoder RST limit off",
                        () -> new Options().encoderRstLimit(0, 0), rst(1, Http2Error.PROTOCOL_ERROR), false,
                        steps(streamErrors(250))),
                new Abuse("250 streams the server resets with CANCEL", Options::new, rst(1, Http2Error.CANCEL), false,
                        steps(resetByServer(250))),
                new Abuse("SETTINGS flood, peer not reading", () -> new Options().peerDoesNotRead(),
                        goAway(Integer.MAX_VALUE, Http2Error.ENHANCE_YOUR_CALM), true, steps(in -> {
                            for (int i = 0; i < FLOOD; i++) {
                                RawFrames.header(in, 0, 0x4, 0, 0);
                            }
                        })),
                // Over MAX_HEADER_LIST_SIZE (8192): a stream error; far over (Netty's GOAWAY limit): the connection's.
                new Abuse("header list over the limit", Options::new,
                        rst(1, Http2Error.PROTOCOL_ERROR), false, steps(
                        in -> headerBlock(in, 1, block("big", repeat(8300)), 16384),
                        in -> headers(in, 3, "/respond", true))),
                new Abuse("header list far over the limit", Options::new,
                        goAway(Integer.MAX_VALUE, Http2Error.PROTOCOL_ERROR), true, steps(
                        in -> headerBlock(in, 1, block("big", repeat(20000), "bigger", repeat(20000)), 16384))),
                new Abuse("MAX_CONCURRENT_STREAMS exceeded",
                        () -> new Options().initialSettings(new Http2Settings().maxConcurrentStreams(2)),
                        rst(5, Http2Error.REFUSED_STREAM), false, steps(in -> {
                            headers(in, 1, "/hold", false);
                            headers(in, 3, "/hold", false);
                            headers(in, 5, "/hold", false);
                        })),
                new Abuse("DATA over MAX_FRAME_SIZE", Options::new,
                        goAway(Integer.MAX_VALUE, Http2Error.FRAME_SIZE_ERROR), true, steps(
                        in -> headers(in, 1, "/hold", false),
                        in -> {
                            RawFrames.header(in, 16385, 0x0, 0, 1);
                            in.writeZero(16385);
                        })),
                // What Netty answers here is PROTOCOL_ERROR, not FRAME_SIZE_ERROR as for DATA: the pooled builders
                // must too.
                new Abuse("HEADERS over MAX_FRAME_SIZE", Options::new,
                        goAway(Integer.MAX_VALUE, Http2Error.PROTOCOL_ERROR), true, steps(
                        in -> {
                            byte[] block = block("big", repeat(17000));
                            RawFrames.header(in, block.length, 0x1, Http2Flags.END_HEADERS, 1);
                            in.writeBytes(block);
                        })),
                new Abuse("SETTINGS INITIAL_WINDOW_SIZE over 2^31-1", Options::new,
                        goAway(Integer.MAX_VALUE, Http2Error.FLOW_CONTROL_ERROR), true, steps(
                        in -> settings(in, 0x4, 0x80000000L))),
                new Abuse("SETTINGS ENABLE_PUSH 2", Options::new,
                        goAway(Integer.MAX_VALUE, Http2Error.PROTOCOL_ERROR), true, steps(
                        in -> settings(in, 0x2, 2))),
                new Abuse("SETTINGS MAX_FRAME_SIZE below 16384", Options::new,
                        goAway(Integer.MAX_VALUE, Http2Error.PROTOCOL_ERROR), true, steps(
                        in -> settings(in, 0x5, 16383))),
                new Abuse("SETTINGS of a length not a multiple of 6", Options::new,
                        goAway(Integer.MAX_VALUE, Http2Error.FRAME_SIZE_ERROR), true, steps(
                        in -> {
                            RawFrames.header(in, 5, 0x4, 0, 0);
                            in.writeZero(5);
                        })));
        List<Arguments> cases = new ArrayList<>();
        for (Abuse abuse : abuses) {
            cases.add(Arguments.of(abuse, Kind.POOLED_CODEC));
            // Netty's listener-path builder cannot set the control-frame limit, so there is nothing to compare.
            if (abuse.options.get().maxQueuedControlFrames == null) {
                cases.add(Arguments.of(abuse, Kind.POOLED_LISTENER));
            }
        }
        return cases.stream();
    }

    @SuppressWarnings("unchecked")
    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("cases")
    void sameOutcomeAsNettysBuilder(Abuse abuse, Kind kind) {
        Consumer<ByteBuf>[] steps = abuse.steps.toArray(new Consumer[0]);
        Outcome netty = serve(kind.netty(), abuse.options.get(), steps);
        Outcome pooled = serve(kind, abuse.options.get(), steps);

        // The case is what it claims: Netty stops it with this frame, or lets it through.
        if (abuse.expectedError == null) {
            assertEquals(List.of(), netty.errors(), "Netty's answer: " + netty);
        } else {
            assertTrue(netty.errors().contains(abuse.expectedError), "Netty's answer: " + netty);
        }
        assertEquals(abuse.closes, !netty.open, "Netty closes the connection: " + netty);

        assertEquals(netty.errors(), pooled.errors(), "GOAWAY and RST_STREAM frames");
        assertEquals(netty.written, pooled.written, "every frame written");
        assertEquals(netty.open, pooled.open, "connection open");
        assertEquals(netty.exceptions, pooled.exceptions, "errors fired to the application");
    }

    /** What a limit logs goes to the logger of Netty's class of that limit, so that its configuration applies. */
    @SuppressWarnings("unchecked")
    @Test
    void limitsLogUnderNettysLoggerNames() {
        // Netty's loggers are java.util.logging ones in these tests: the records can be seen here.
        assertInstanceOf(JdkLoggerFactory.class, InternalLoggerFactory.getDefaultFactory());
        assertLogs("io.netty.handler.codec.http2.Http2ControlFrameLimitEncoder", "outstanding control frames",
                new Options().peerDoesNotRead().maxQueuedControlFrames(100), pings(150));
        assertLogs("io.netty.handler.codec.http2.Http2MaxRstFrameLimitEncoder", "RST frames reached",
                new Options().encoderRstLimit(10, 60), streamErrors(11));
        assertLogs("io.netty.handler.codec.http2.Http2MaxRstFrameListener", "RST frames reached",
                new Options().rstLimit(10, 60), openAndReset(11));
    }

    @SafeVarargs
    private static void assertLogs(String loggerName, String text, Options options, Consumer<ByteBuf>... steps) {
        Logger logger = Logger.getLogger(loggerName);
        List<String> messages = new ArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                messages.add(record.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Level level = logger.getLevel();
        logger.setLevel(Level.ALL); // the RST limits log at debug level
        logger.addHandler(handler);
        try {
            serve(Kind.POOLED_CODEC, options, steps);
        } finally {
            logger.removeHandler(handler);
            logger.setLevel(level);
        }
        assertTrue(messages.stream().anyMatch(message -> message.contains(text)), loggerName + ": " + messages);
    }
}
