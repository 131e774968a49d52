/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Settings;
import io.pooledh2.codec.ServerUnderTest.Kind;
import io.pooledh2.codec.ServerUnderTest.Options;
import io.pooledh2.codec.ServerUnderTest.Outcome;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.function.Consumer;

import static io.pooledh2.codec.ServerUnderTest.goAway;
import static io.pooledh2.codec.ServerUnderTest.headers;
import static io.pooledh2.codec.ServerUnderTest.rst;
import static io.pooledh2.codec.ServerUnderTest.serve;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RFC 9113 section 5.1 on both pooled builders (h2spec 5.1/6, 5.1/12, 5.1.1/2): what the strict checks answer,
 * that {@code strictStreamStates(false)} answers exactly as Netty's builder, and that what the RFC allows
 * (trailers, frames on a stream this end reset) still answers as Netty does.
 */
class StreamStateChecksTest {

    private static final Options STRICT = new Options();
    private static final Options LENIENT = new Options().strictStreamStates(false);

    /** HEADERS ending stream 1 (answered: the stream closes), then HEADERS on stream 1 again. */
    @SafeVarargs
    private static Consumer<ByteBuf>[] steps(Consumer<ByteBuf>... steps) {
        return steps;
    }

    private static final Consumer<ByteBuf>[] HEADERS_ON_CLOSED_STREAM = steps(
            in -> headers(in, 1, "/respond", true),
            in -> headers(in, 1, "/respond", true));

    private static final Consumer<ByteBuf>[] HEADERS_ON_HALF_CLOSED_REMOTE = steps(
            in -> headers(in, 1, "/hold", true),
            in -> headers(in, 1, "/hold", false));

    private static final Consumer<ByteBuf>[] LOWER_STREAM_ID = steps(
            in -> headers(in, 5, "/respond", true),
            in -> headers(in, 3, "/respond", true));

    private static void assertSameAsNetty(Kind kind, Options options, Consumer<ByteBuf>[] steps) {
        Outcome netty = serve(kind.netty(), new Options(), steps);
        Outcome pooled = serve(kind, options, steps);
        assertEquals(netty.written, pooled.written, "frames written");
        assertEquals(netty.open, pooled.open, "connection open");
        assertEquals(netty.exceptions, pooled.exceptions, "errors fired to the application");
    }

    /** The strict server answers as Netty's, keeps the connection open and answers the request on stream 3. */
    private static void assertSameAsNettyAndStream3Answered(Kind kind, Consumer<ByteBuf>[] steps) {
        assertSameAsNetty(kind, STRICT, steps);
        Outcome outcome = serve(kind, STRICT, steps);
        assertTrue(outcome.open, outcome.toString());
        assertTrue(outcome.written.contains("HEADERS 3 eos"), outcome.written.toString());
    }

    @ParameterizedTest
    @EnumSource(names = {"POOLED_CODEC", "POOLED_LISTENER"})
    void headersOnAStreamClosedAfterEndStreamIsAConnectionErrorStreamClosed(Kind kind) {
        Outcome outcome = serve(kind, STRICT, HEADERS_ON_CLOSED_STREAM);
        assertEquals(List.of(goAway(Integer.MAX_VALUE, Http2Error.STREAM_CLOSED)), outcome.errors(),
                outcome.written.toString());
        assertFalse(outcome.open, "connection closed");
        assertTrue(outcome.written.contains("HEADERS 1 eos"), "the first request was answered: " + outcome.written);
    }

    @ParameterizedTest
    @EnumSource(names = {"POOLED_CODEC", "POOLED_LISTENER"})
    void headersOnAHalfClosedRemoteStreamIsAStreamErrorStreamClosed(Kind kind) {
        Outcome outcome = serve(kind, STRICT, HEADERS_ON_HALF_CLOSED_REMOTE);
        assertEquals(List.of(rst(1, Http2Error.STREAM_CLOSED)), outcome.errors(), outcome.written.toString());
        assertTrue(outcome.open, "a stream error leaves the connection open");
    }

    @ParameterizedTest
    @EnumSource(names = {"POOLED_CODEC", "POOLED_LISTENER"})
    void aNewStreamIdLowerThanOneUsedIsAConnectionErrorProtocolError(Kind kind) {
        Outcome outcome = serve(kind, STRICT, LOWER_STREAM_ID);
        assertEquals(List.of(goAway(Integer.MAX_VALUE, Http2Error.PROTOCOL_ERROR)), outcome.errors(),
                outcome.written.toString());
        assertFalse(outcome.open, "connection closed");
    }

    @ParameterizedTest
    @EnumSource(names = {"POOLED_CODEC", "POOLED_LISTENER"})
    void dataOnAStreamClosedAfterEndStreamIsAConnectionErrorStreamClosed(Kind kind) {
        Outcome outcome = serve(kind, STRICT,
                in -> headers(in, 1, "/respond", true),
                in -> RawFrames.frame(in, 0x0, 0, 1, RawFrames.bytes("late")));
        assertEquals(List.of(goAway(Integer.MAX_VALUE, Http2Error.STREAM_CLOSED)), outcome.errors(),
                outcome.written.toString());
        assertFalse(outcome.open, "connection closed");
    }

    /** Netty's answers, for the record: what the strict checks change. */
    @ParameterizedTest
    @EnumSource(names = {"NETTY_CODEC", "NETTY_LISTENER"})
    void nettyAnswersTheseCasesWithStreamErrors(Kind kind) {
        assertEquals(List.of(rst(1, Http2Error.STREAM_CLOSED)),
                serve(kind, new Options(), HEADERS_ON_CLOSED_STREAM).errors());
        assertEquals(List.of(rst(3, Http2Error.STREAM_CLOSED)), serve(kind, new Options(), LOWER_STREAM_ID).errors());
        assertEquals(List.of(rst(1, Http2Error.PROTOCOL_ERROR)),
                serve(kind, new Options(), HEADERS_ON_HALF_CLOSED_REMOTE).errors());
    }

    @ParameterizedTest
    @EnumSource(names = {"POOLED_CODEC", "POOLED_LISTENER"})
    void turnedOffTheBuilderAnswersAsNettys(Kind kind) {
        assertSameAsNetty(kind, LENIENT, HEADERS_ON_CLOSED_STREAM);
        assertSameAsNetty(kind, LENIENT, HEADERS_ON_HALF_CLOSED_REMOTE);
        assertSameAsNetty(kind, LENIENT, LOWER_STREAM_ID);
    }

    @ParameterizedTest
    @EnumSource(names = {"POOLED_CODEC", "POOLED_LISTENER"})
    void trailersPassAsWithNetty(Kind kind) {
        Consumer<ByteBuf>[] steps = steps(
                in -> headers(in, 1, "/upload", false),
                in -> RawFrames.frame(in, 0x0, 0, 1, RawFrames.bytes("body")),
                in -> {
                    try {
                        RawFrames.frame(in, 0x1, 0x4 | 0x1, 1, RawFrames.headerBlock("grpc-status", "0"));
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                },
                // A new, higher stream after the trailers: still fine.
                in -> headers(in, 3, "/respond", true));
        assertSameAsNetty(kind, STRICT, steps);
        assertEquals(List.of(), serve(kind, STRICT, steps).errors());
    }

    /** RFC 9113 5.1: frames the peer sent before it saw this end's RST_STREAM are Netty's to ignore. */
    @ParameterizedTest
    @EnumSource(names = {"POOLED_CODEC", "POOLED_LISTENER"})
    void framesOnAStreamThisEndResetAreAnsweredAsByNetty(Kind kind) {
        Consumer<ByteBuf>[] steps = steps(
                in -> headers(in, 1, "/reset", false),
                in -> RawFrames.frame(in, 0x0, 0, 1, RawFrames.bytes("in flight")),
                in -> RawFrames.frame(in, 0x0, 0x1, 1, RawFrames.bytes("end")),
                in -> headers(in, 3, "/respond", true));
        assertSameAsNettyAndStream3Answered(kind, steps);
    }

    /**
     * A HEADERS frame the reader refuses with a stream error (here an upper-case header name) still used its id:
     * Netty resets the stream without creating it, and a later HEADERS frame on it, after a higher stream, gets
     * Netty's RST_STREAM, not a connection error for a skipped id (found by RandomizedCodecDifferentialTest).
     */
    @ParameterizedTest
    @EnumSource(names = {"POOLED_CODEC", "POOLED_LISTENER"})
    void aStreamWhoseHeadersWereRefusedIsNotASkippedId(Kind kind) {
        Consumer<ByteBuf>[] steps = steps(
                in -> block(in, 0x4, 1, ":method", "GET", ":scheme", "http", ":authority", "h", ":path", "/",
                        "X-Upper", "1"),
                in -> headers(in, 3, "/respond", true),
                in -> block(in, 0x4 | 0x1, 1, "x-trailer", "1"));
        assertSameAsNettyAndStream3Answered(kind, steps);
    }

    /**
     * A header list over the limit (but under Netty's GOAWAY margin) is answered with 431: Netty creates the stream
     * half-closed (remote), ends it with the 431 response and resets it. The peer did not end the stream, so its
     * DATA after that is a frame on a stream this end reset, Netty's to answer.
     */
    @ParameterizedTest
    @EnumSource(names = {"POOLED_CODEC", "POOLED_LISTENER"})
    void dataAfterAHeaderListAnsweredWith431IsNettys(Kind kind) {
        Options options = new Options().initialSettings(new Http2Settings().maxHeaderListSize(200));
        Consumer<ByteBuf>[] steps = steps(
                in -> oversizedHeaderList(in, 1),
                in -> RawFrames.frame(in, 0x0, 0, 1, RawFrames.bytes("in flight")),
                in -> headers(in, 3, "/respond", true));
        Outcome netty = serve(kind.netty(), options, steps);
        assertTrue(netty.written.contains("HEADERS 1 eos"), "Netty answered 431: " + netty.written);
        Outcome pooled = serve(kind, options, steps);
        assertEquals(netty.written, pooled.written, "frames written");
        assertEquals(netty.open, pooled.open, "connection open");
        assertTrue(pooled.written.contains("HEADERS 3 eos"), pooled.written.toString());
        assertEquals(netty.exceptions, pooled.exceptions, "errors fired to the application");
    }

    /**
     * The same, when the encoder's RST_STREAM limit has already closed the connection in the same read: the 431
     * response fails at once, so Netty closes the stream before it resets it and the stream never counts as reset.
     * The DATA that follows in the read is still Netty's to answer: no connection error of the checks' own, which
     * on the frame codec reaches the application as one more exception (found by RandomizedCodecDifferentialTest).
     */
    @ParameterizedTest
    @EnumSource(names = {"POOLED_CODEC", "POOLED_LISTENER"})
    void dataAfterA431WhoseResetTheRstLimitStoppedIsNettys(Kind kind) {
        Options options = new Options().initialSettings(new Http2Settings().maxHeaderListSize(200))
                .encoderRstLimit(1, 60);
        Consumer<ByteBuf>[] steps = steps(in -> {
            // Each refused header list costs a RST_STREAM: the second is over the limit of one.
            for (int streamId = 1; streamId <= 5; streamId += 2) {
                oversizedHeaderList(in, streamId);
            }
            RawFrames.frame(in, 0x0, 0, 5, RawFrames.bytes("in flight"));
        });
        Outcome netty = serve(kind.netty(), options, steps);
        assertTrue(netty.written.contains("HEADERS 1 eos"), "Netty answered 431: " + netty.written);
        assertFalse(netty.open, "the RST_STREAM limit closed the connection: " + netty.written);
        Outcome pooled = serve(kind, options, steps);
        assertEquals(netty.written, pooled.written, "frames written");
        assertEquals(netty.open, pooled.open, "connection open");
        assertEquals(netty.exceptions, pooled.exceptions, "errors fired to the application");
    }

    /** A request whose header list is over 200 octets, and under Netty's GOAWAY margin of a quarter more. */
    private static void oversizedHeaderList(ByteBuf in, int streamId) {
        block(in, 0x4, streamId, ":method", "POST", ":scheme", "http", ":authority", "h", ":path", "/",
                "x-big", "0123456789012345678901234567890123456789");
    }

    private static void block(ByteBuf in, int flags, int streamId, CharSequence... namesAndValues) {
        try {
            RawFrames.frame(in, 0x1, flags, streamId, RawFrames.headerBlock(namesAndValues));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Ids more than the remembered window below the highest are Netty's: RST_STREAM, no connection error. */
    @ParameterizedTest
    @EnumSource(names = {"POOLED_CODEC", "POOLED_LISTENER"})
    void idsOlderThanTheWindowAreAnsweredAsByNetty(Kind kind) {
        int high = 2 * StreamStateChecks.WINDOW + 11;
        Consumer<ByteBuf>[] steps = steps(
                in -> headers(in, 1, "/respond", true),
                in -> headers(in, high, "/respond", true),
                in -> headers(in, 1, "/respond", true));
        assertSameAsNetty(kind, STRICT, steps);
        assertEquals(List.of(rst(1, Http2Error.STREAM_CLOSED)), serve(kind, STRICT, steps).errors());
    }
}
