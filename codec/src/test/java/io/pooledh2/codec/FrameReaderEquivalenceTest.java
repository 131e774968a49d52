/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameReader;
import io.netty.handler.codec.http2.Http2HeadersDecoder;
import io.pooledh2.codec.Differential.Mode;
import io.pooledh2.codec.ListenerTranscript.ListenerFailure;
import io.pooledh2.codec.ListenerTranscript.Style;
import io.pooledh2.codec.ReaderSpec.Variant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import static io.netty.handler.codec.http2.Http2Error.COMPRESSION_ERROR;
import static io.netty.handler.codec.http2.Http2Error.ENHANCE_YOUR_CALM;
import static io.netty.handler.codec.http2.Http2Error.FLOW_CONTROL_ERROR;
import static io.netty.handler.codec.http2.Http2Error.FRAME_SIZE_ERROR;
import static io.netty.handler.codec.http2.Http2Error.INTERNAL_ERROR;
import static io.netty.handler.codec.http2.Http2Error.PROTOCOL_ERROR;
import static io.netty.handler.codec.http2.Http2Error.STREAM_CLOSED;
import static io.pooledh2.codec.Frames.ACK;
import static io.pooledh2.codec.Frames.CONTINUATION;
import static io.pooledh2.codec.Frames.DATA;
import static io.pooledh2.codec.Frames.END_HEADERS;
import static io.pooledh2.codec.Frames.END_STREAM;
import static io.pooledh2.codec.Frames.GOAWAY;
import static io.pooledh2.codec.Frames.HEADERS;
import static io.pooledh2.codec.Frames.PADDED;
import static io.pooledh2.codec.Frames.PING;
import static io.pooledh2.codec.Frames.PRIORITY;
import static io.pooledh2.codec.Frames.PRIORITY_FLAG;
import static io.pooledh2.codec.Frames.PUSH_PROMISE;
import static io.pooledh2.codec.Frames.RST_STREAM;
import static io.pooledh2.codec.Frames.SETTINGS;
import static io.pooledh2.codec.Frames.WINDOW_UPDATE;
import static io.pooledh2.codec.Frames.bytes;
import static io.pooledh2.codec.Frames.concat;
import static io.pooledh2.codec.Frames.continuation;
import static io.pooledh2.codec.Frames.data;
import static io.pooledh2.codec.Frames.frame;
import static io.pooledh2.codec.Frames.goAway;
import static io.pooledh2.codec.Frames.headers;
import static io.pooledh2.codec.Frames.int32;
import static io.pooledh2.codec.Frames.padded;
import static io.pooledh2.codec.Frames.pattern;
import static io.pooledh2.codec.Frames.ping;
import static io.pooledh2.codec.Frames.priority;
import static io.pooledh2.codec.Frames.priorityFields;
import static io.pooledh2.codec.Frames.pushPromise;
import static io.pooledh2.codec.Frames.rstStream;
import static io.pooledh2.codec.Frames.settings;
import static io.pooledh2.codec.Frames.settingsAck;
import static io.pooledh2.codec.Frames.windowUpdate;
import static io.pooledh2.codec.HeaderBlocks.request;
import static io.pooledh2.codec.HeaderBlocks.response;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Feeds the stock {@code DefaultHttp2FrameReader} and {@link PooledHttp2FrameReader} the same bytes, valid and
 * invalid, for every frame type, and requires identical listener calls, exceptions and consumption, in every
 * delivery mode: whole, frame by frame, byte by byte, split at each offset, batched with other frames; on
 * heap, direct, pooled, unpooled and composite buffers; with listeners that only read, consume or retain.
 */
class FrameReaderEquivalenceTest {

    // Run-time limits: byte-by-byte on every buffer kind, on one kind, split at every offset.
    private static final int BYTE_BY_BYTE_LIMIT = 1_000;
    private static final int LONG_BYTE_BY_BYTE_LIMIT = 4_096;
    private static final int ALL_SPLITS_LIMIT = 200;
    private static final int MAX_REPORTED_FAILURES = 3;

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("cases")
    void pooledReaderMatchesStockReader(ReaderCase readerCase) {
        List<String> failures = new ArrayList<>();
        int runs = 0;
        for (Mode mode : modes(readerCase)) {
            String stock = Differential.run(readerCase, Variant.STOCK, mode);
            checkStockTranscript(readerCase, mode, stock);
            for (Variant variant : pooledVariants(mode)) {
                runs++;
                String pooled = Differential.run(readerCase, variant, mode);
                String difference = Differential.firstDifference(stock, pooled);
                // The stock transcript has no UNEXPECTED line (checked above), so an equal one has none either.
                if (difference != null) {
                    failures.add(variant + ", mode " + mode + ": " + difference);
                }
            }
        }
        if (!failures.isEmpty()) {
            StringBuilder message = new StringBuilder()
                    .append(readerCase.name).append(": pooled reader differs from stock in ")
                    .append(failures.size()).append(" of ").append(runs).append(" runs\ninput: ")
                    .append(readerCase.describeInput()).append('\n');
            for (String failure : failures.subList(0, Math.min(MAX_REPORTED_FAILURES, failures.size()))) {
                message.append("--- ").append(failure);
            }
            fail(message.toString());
        }
    }

    /** Pins the case to what it claims to test, on the stock reader. */
    private static void checkStockTranscript(ReaderCase readerCase, Mode mode, String stock) {
        assertFalse(stock.contains("UNEXPECTED"), () -> "stock reader, " + mode + ":\n" + stock);
        if (mode.batched) {
            return;
        }
        for (String expected : readerCase.expectedStockLines()) {
            assertTrue(stock.lines().anyMatch(line -> line.startsWith(expected)),
                    () -> "case " + readerCase.name + " does not do what it says: stock transcript (" + mode
                            + ") has no line starting with '" + expected + "':\n" + stock);
        }
        if (readerCase.expectsNoError()) {
            assertFalse(stock.contains("ERR "), () -> "case " + readerCase.name + " expects no error, stock ("
                    + mode + "):\n" + stock);
        }
    }

    /**
     * The pooled reader as constructed runs in every mode; its switches (paranoid, no reuse, listener keeps
     * nothing) in the modes that read frame by frame, where frame reuse happens the most.
     */
    private static List<Variant> pooledVariants(Mode mode) {
        if (mode.delivery != Differential.FRAME_BY_FRAME) {
            return List.of(Variant.POOLED);
        }
        if (mode.style == Style.RETAIN) {
            return List.of(Variant.POOLED, Variant.POOLED_PARANOID, Variant.POOLED_NO_REUSE);
        }
        return List.of(Variant.POOLED, Variant.POOLED_PARANOID, Variant.POOLED_NO_REUSE, Variant.POOLED_KEEPS_NOTHING);
    }

    private static List<Mode> modes(ReaderCase readerCase) {
        int length = readerCase.allBytes().length;
        List<Mode> modes = new ArrayList<>();
        for (InputKind kind : InputKind.values()) {
            modes.add(new Mode(Differential.WHOLE, kind, Style.READ_ONLY, false));
            modes.add(new Mode(Differential.FRAME_BY_FRAME, kind, kind == InputKind.POOLED_DIRECT ? Style.RETAIN
                    : Style.READ_ONLY, false));
            modes.add(new Mode(Differential.WHOLE, kind, Style.CONSUME, true));
            // Paranoid leak detection makes every buffer access slow, so the number of reads is bounded:
            // byte by byte for short inputs (on one buffer kind for medium ones), reads of a few bytes otherwise.
            boolean byteByByte = length <= BYTE_BY_BYTE_LIMIT
                    || length <= LONG_BYTE_BY_BYTE_LIMIT && kind == InputKind.POOLED_DIRECT;
            int smallReads = length <= LONG_BYTE_BY_BYTE_LIMIT ? 97 : length / 64;
            modes.add(new Mode(byteByByte ? Differential.BYTE_BY_BYTE
                    : Differential.randomReads(kind.ordinal(), smallReads), kind, Style.READ_ONLY, false));
            modes.add(new Mode(Differential.randomReads(length + kind.ordinal(), Math.max(7, length / 64)),
                    kind, Style.RETAIN, false));
        }
        for (int offset : splitOffsets(length, readerCase)) {
            modes.add(new Mode(Differential.splitAt(offset), InputKind.POOLED_DIRECT, Style.READ_ONLY, false));
            modes.add(new Mode(Differential.splitAt(offset), InputKind.UNPOOLED_HEAP, Style.RETAIN, false));
        }
        return modes;
    }

    /**
     * Every offset for short inputs; for long ones the bytes around each frame boundary and an even spread,
     * which is where a reader's state machine can go wrong.
     */
    private static TreeSet<Integer> splitOffsets(int length, ReaderCase readerCase) {
        TreeSet<Integer> offsets = new TreeSet<>();
        if (length <= ALL_SPLITS_LIMIT) {
            for (int i = 1; i < length; i++) {
                offsets.add(i);
            }
            return offsets;
        }
        int boundary = 0;
        for (ReaderCase.Step step : readerCase.steps()) {
            if (step.isFrame()) {
                for (int delta : new int[] {-1, 0, 1, 9, 10}) {
                    offsets.add(boundary + delta);
                }
                boundary += step.frame.length;
            }
        }
        for (int i = 1; i < 16; i++) {
            offsets.add((int) ((long) length * i / 16));
        }
        offsets.removeIf(offset -> offset <= 0 || offset >= length);
        return offsets;
    }

    static List<ReaderCase> cases() {
        List<ReaderCase> cases = new ArrayList<>();
        dataCases(cases);
        headersCases(cases);
        continuationCases(cases);
        headerBlockLimitCases(cases);
        priorityCases(cases);
        rstStreamCases(cases);
        settingsCases(cases);
        pushPromiseCases(cases);
        pingCases(cases);
        goAwayCases(cases);
        windowUpdateCases(cases);
        unknownFrameCases(cases);
        frameSizeCases(cases);
        listenerFailureCases(cases);
        sequenceCases(cases);
        return cases;
    }

    private static String conn(Http2Error error) {
        return "ERR connection " + error + " stream=0";
    }

    private static String stream(Http2Error error, int streamId) {
        return "ERR stream " + error + " stream=" + streamId;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static void dataCases(List<ReaderCase> cases) {
        cases.add(ReaderCase.named("DATA")
                .frames(data(1, 0, ascii("hello")))
                .expect("DATA s=1 pad=0 eos=false data=<68656c6c6f>").expectNoError());
        cases.add(ReaderCase.named("DATA END_STREAM")
                .frames(data(3, END_STREAM, pattern(10, 1)))
                .expect("DATA s=3 pad=0 eos=true").expectNoError());
        cases.add(ReaderCase.named("DATA empty")
                .frames(data(5, 0, new byte[0]))
                .expect("DATA s=5 pad=0 eos=false data=<>").expectNoError());
        cases.add(ReaderCase.named("DATA empty END_STREAM")
                .frames(data(5, END_STREAM, new byte[0]))
                .expect("DATA s=5 pad=0 eos=true data=<>").expectNoError());
        cases.add(ReaderCase.named("DATA padded, pad length 0")
                .frames(data(1, PADDED, padded(0, ascii("abc"))))
                .expect("DATA s=1 pad=1 eos=false data=<616263>").expectNoError());
        cases.add(ReaderCase.named("DATA padded, 7 bytes of padding, END_STREAM")
                .frames(data(1, PADDED | END_STREAM, padded(7, ascii("abc"))))
                .expect("DATA s=1 pad=8 eos=true data=<616263>").expectNoError());
        cases.add(ReaderCase.named("DATA padded, only padding")
                .frames(data(1, PADDED, padded(20, new byte[0])))
                .expect("DATA s=1 pad=21 eos=false data=<>").expectNoError());
        cases.add(ReaderCase.named("DATA padded, pad length field only")
                .frames(data(1, PADDED, bytes(0)))
                .expect("DATA s=1 pad=1 eos=false data=<>").expectNoError());
        cases.add(ReaderCase.named("DATA padded, padding fills the payload exactly")
                .frames(frame(DATA, PADDED, 1, bytes(2, 'a', 'b')))
                .expect("DATA s=1 pad=3 eos=false data=<>").expectNoError());
        cases.add(ReaderCase.named("DATA padding longer than payload")
                .frames(frame(DATA, PADDED, 1, bytes(3, 'a', 'b')))
                .expect(conn(PROTOCOL_ERROR)));
        cases.add(ReaderCase.named("DATA padding length 255 in a 1 byte payload")
                .frames(frame(DATA, PADDED, 1, bytes(255)))
                .expect(conn(PROTOCOL_ERROR)));
        cases.add(ReaderCase.named("DATA PADDED with empty payload is a stream error")
                .frames(frame(DATA, PADDED, 1, new byte[0]), data(3, 0, ascii("next")))
                .expect(stream(FRAME_SIZE_ERROR, 1)).expect("DATA s=3"));
        cases.add(ReaderCase.named("DATA on stream 0")
                .frames(data(0, 0, ascii("x")), data(1, 0, ascii("skipped")))
                .expect(conn(PROTOCOL_ERROR)).expect("END remaining=0"));
        cases.add(ReaderCase.named("DATA of max frame size")
                .frames(data(1, END_STREAM, pattern(Frames.DEFAULT_MAX_FRAME_SIZE, 3)))
                .expect("DATA s=1 pad=0 eos=true data=<len=16384").expectNoError());
        cases.add(ReaderCase.named("DATA padded to max frame size")
                .frames(data(1, PADDED, padded(255, pattern(Frames.DEFAULT_MAX_FRAME_SIZE - 256, 5))))
                .expect("DATA s=1 pad=256 eos=false").expectNoError());
        cases.add(ReaderCase.named("DATA over max frame size")
                .frames(data(1, 0, pattern(Frames.DEFAULT_MAX_FRAME_SIZE + 1, 3)))
                .expect(conn(FRAME_SIZE_ERROR)));
        cases.add(ReaderCase.named("DATA header over max frame size, payload never sent")
                .frames(frame(Frames.DEFAULT_MAX_FRAME_SIZE + 1, DATA, 0, 1, new byte[0]))
                .expect(conn(FRAME_SIZE_ERROR)));
        cases.add(ReaderCase.named("DATA header with length 0xffffff on stream 0")
                .frames(frame(0xffffff, DATA, 0, 0, new byte[0]))
                .expect(conn(FRAME_SIZE_ERROR)));
        cases.add(ReaderCase.named("DATA with flags it does not define")
                .frames(data(1, 0xf6, ascii("flags")))
                .expect("DATA s=1 pad=0 eos=false data=<666c616773>").expectNoError());
        cases.add(ReaderCase.named("DATA with the reserved stream id bit set")
                .frames(data(0x80000001, 0, ascii("r")))
                .expect("DATA s=1 ").expectNoError());
        cases.add(ReaderCase.named("DATA with truncated payload")
                .frames(frame(10, DATA, 0, 1, pattern(4, 9)))
                .expect("END remaining=4").expectNoError());
        cases.add(ReaderCase.named("DATA on stream 0 with truncated payload is not judged yet")
                .frames(frame(10, DATA, 0, 0, pattern(4, 9)))
                .expect("END remaining=4").expectNoError());
        cases.add(ReaderCase.named("frame header only, 8 bytes")
                .frames(Frames.slice(data(1, 0, ascii("abc")), 0, 8))
                .expect("END remaining=8").expectNoError());
        cases.add(ReaderCase.named("DATA on several streams")
                .frames(data(1, 0, ascii("a")), data(3, 0, ascii("bb")), data(1, END_STREAM, ascii("ccc")),
                        data(5, PADDED | END_STREAM, padded(2, ascii("dddd"))))
                .expect("DATA s=5 pad=3 eos=true data=<64646464>").expectNoError());
    }

    private static void headersCases(List<ReaderCase> cases) {
        HeaderBlocks hpack = new HeaderBlocks();
        byte[] block = hpack.encode(request("/"));
        cases.add(ReaderCase.named("HEADERS END_HEADERS")
                .frames(headers(1, END_HEADERS, block))
                .expect("HEADERS s=1 pad=0 eos=false [:").expectNoError());

        cases.add(ReaderCase.named("HEADERS END_STREAM END_HEADERS")
                .frames(headers(3, END_STREAM | END_HEADERS, new HeaderBlocks().encode(response(200))))
                .expect("HEADERS s=3 pad=0 eos=true [:status=200").expectNoError());

        cases.add(ReaderCase.named("HEADERS padded, pad length 0")
                .frames(headers(1, END_HEADERS | PADDED, padded(0, new HeaderBlocks().encode(request("/p")))))
                .expect("HEADERS s=1 pad=1 eos=false").expectNoError());

        cases.add(ReaderCase.named("HEADERS padded, 9 bytes of padding")
                .frames(headers(1, END_HEADERS | PADDED, padded(9, new HeaderBlocks().encode(request("/p")))))
                .expect("HEADERS s=1 pad=10 eos=false").expectNoError());

        cases.add(ReaderCase.named("HEADERS with priority")
                .frames(headers(3, END_HEADERS | PRIORITY_FLAG,
                        concat(priorityFields(false, 1, 15), new HeaderBlocks().encode(request("/prio")))))
                .expect("HEADERS s=3 dep=1 w=16 excl=false pad=0 eos=false").expectNoError());

        cases.add(ReaderCase.named("HEADERS with exclusive priority, weight 256, on stream 0")
                .frames(headers(5, END_HEADERS | PRIORITY_FLAG,
                        concat(priorityFields(true, 0, 255), new HeaderBlocks().encode(request("/")))))
                .expect("HEADERS s=5 dep=0 w=256 excl=true pad=0 eos=false").expectNoError());

        cases.add(ReaderCase.named("HEADERS padded with priority and END_STREAM")
                .frames(headers(5, END_HEADERS | PRIORITY_FLAG | PADDED | END_STREAM,
                        padded(3, concat(priorityFields(false, 3, 7), new HeaderBlocks().encode(request("/"))))))
                .expect("HEADERS s=5 dep=3 w=8 excl=false pad=4 eos=true").expectNoError());

        cases.add(ReaderCase.named("HEADERS with only priority fields and an empty block")
                .frames(headers(7, END_HEADERS | PRIORITY_FLAG, priorityFields(false, 1, 0)))
                .expect("HEADERS s=7 dep=1 w=1 excl=false pad=0 eos=false []").expectNoError());

        cases.add(ReaderCase.named("HEADERS with an empty block")
                .frames(headers(7, END_HEADERS, new byte[0]))
                .expect("HEADERS s=7 pad=0 eos=false []").expectNoError());

        cases.add(ReaderCase.named("HEADERS on stream 0")
                .frames(headers(0, END_HEADERS, new HeaderBlocks().encode(request("/"))))
                .expect(conn(PROTOCOL_ERROR)));

        cases.add(ReaderCase.named("HEADERS PADDED with empty payload")
                .frames(headers(1, END_HEADERS | PADDED, new byte[0]))
                .expect(conn(FRAME_SIZE_ERROR)));

        cases.add(ReaderCase.named("HEADERS PRIORITY with 4 bytes")
                .frames(headers(1, END_HEADERS | PRIORITY_FLAG, bytes(0, 0, 0, 3)))
                .expect(conn(FRAME_SIZE_ERROR)));

        cases.add(ReaderCase.named("HEADERS PADDED and PRIORITY with 5 bytes")
                .frames(headers(1, END_HEADERS | PRIORITY_FLAG | PADDED, bytes(0, 0, 0, 0, 3)))
                .expect(conn(FRAME_SIZE_ERROR)));

        cases.add(ReaderCase.named("HEADERS depending on itself")
                .frames(headers(3, END_HEADERS | PRIORITY_FLAG,
                        concat(priorityFields(false, 3, 15), new HeaderBlocks().encode(request("/")))))
                .expect(conn(PROTOCOL_ERROR)));

        cases.add(ReaderCase.named("HEADERS exclusively depending on itself, without END_HEADERS")
                .frames(headers(3, PRIORITY_FLAG, concat(priorityFields(true, 3, 15), bytes(0x82))))
                .expect(conn(PROTOCOL_ERROR)));

        cases.add(ReaderCase.named("HEADERS padding longer than payload")
                .frames(headers(1, END_HEADERS | PADDED, concat(bytes(40), new HeaderBlocks().encode(request("/")))))
                .expect(conn(PROTOCOL_ERROR)));

        byte[] shortBlock = bytes(0x82, 0x86);
        cases.add(ReaderCase.named("HEADERS padding longer than what follows the priority fields")
                .frames(headers(1, END_HEADERS | PADDED | PRIORITY_FLAG,
                        concat(bytes(3), priorityFields(false, 0, 15), shortBlock)))
                .expect(conn(PROTOCOL_ERROR)));

        cases.add(ReaderCase.named("HEADERS padding exactly what follows the priority fields")
                .frames(headers(1, END_HEADERS | PADDED | PRIORITY_FLAG,
                        concat(bytes(2), priorityFields(false, 0, 15), shortBlock)))
                .expect("HEADERS s=1 dep=0 w=16 excl=false pad=3 eos=false []").expectNoError());

        cases.add(ReaderCase.named("HEADERS over max frame size")
                .frames(headers(1, END_HEADERS, pattern(Frames.DEFAULT_MAX_FRAME_SIZE + 1, 0)))
                .expect(conn(FRAME_SIZE_ERROR)));

        cases.add(ReaderCase.named("HEADERS with truncated payload")
                .frames(Frames.slice(headers(1, END_HEADERS, block), 0, 9 + block.length - 1))
                .expect("END remaining=" + (block.length - 1)).expectNoError());

        cases.add(ReaderCase.named("HEADERS on stream 0 with truncated payload is not judged yet")
                .frames(Frames.slice(headers(0, END_HEADERS, block), 0, 9 + block.length - 1))
                .expect("END remaining=" + (block.length - 1)).expectNoError());

        HeaderBlocks dynamic = new HeaderBlocks();
        cases.add(ReaderCase.named("HEADERS blocks sharing the HPACK dynamic table")
                .frames(headers(1, END_HEADERS, dynamic.encode(request("/a").add("x-custom", "value-1"))),
                        headers(3, END_HEADERS, dynamic.encode(request("/a").add("x-custom", "value-1"))),
                        headers(5, END_HEADERS | END_STREAM, dynamic.encode(request("/b").add("x-custom", "value-1"))))
                .expect("HEADERS s=5 pad=0 eos=true").expectNoError());

        cases.add(ReaderCase.named("HEADERS with an illegal HPACK index")
                .frames(headers(1, END_HEADERS, HeaderBlocks.ILLEGAL_INDEX))
                .expect(conn(COMPRESSION_ERROR)));

        cases.add(ReaderCase.named("HEADERS with a too large HPACK table size update")
                .frames(headers(1, END_HEADERS, HeaderBlocks.TABLE_SIZE_UPDATE_TOO_LARGE))
                .expect(conn(COMPRESSION_ERROR)));

        cases.add(ReaderCase.named("HEADERS with a truncated HPACK integer")
                .frames(headers(1, END_HEADERS, HeaderBlocks.TRUNCATED_INTEGER))
                .expect(conn(COMPRESSION_ERROR)));

        cases.add(ReaderCase.named("HEADERS with an upper case header name")
                .frames(headers(1, END_HEADERS, new HeaderBlocks().encode(HeaderBlocks.invalidUpperCaseName())),
                        data(1, 0, ascii("after")))
                .expect(stream(PROTOCOL_ERROR, 1)).expect("DATA s=1"));

        cases.add(ReaderCase.named("HEADERS with an upper case header name, validation off")
                .spec(ReaderSpec.validateHeaders(false))
                .frames(headers(1, END_HEADERS, new HeaderBlocks().encode(HeaderBlocks.invalidUpperCaseName())))
                .expect("HEADERS s=1").expectNoError());

        cases.add(ReaderCase.named("HEADERS with a connection-specific header")
                .frames(headers(1, END_HEADERS, new HeaderBlocks().encode(HeaderBlocks.connectionSpecific())))
                .expect("ERR stream PROTOCOL_ERROR stream=1"));

        cases.add(ReaderCase.named("HEADERS with a pseudo header after a regular one")
                .frames(headers(1, END_HEADERS, HeaderBlocks.pseudoAfterRegular()))
                .expect("ERR stream PROTOCOL_ERROR stream=1"));

        cases.add(ReaderCase.named("HEADERS on stream 0 with a bad HPACK block: stream id is checked first")
                .frames(headers(0, END_HEADERS, HeaderBlocks.ILLEGAL_INDEX))
                .expect(conn(PROTOCOL_ERROR)));

        cases.add(ReaderCase.named("HEADERS with the reserved stream id bit set")
                .frames(headers(0x80000003, END_HEADERS, new HeaderBlocks().encode(request("/"))))
                .expect("HEADERS s=3 ").expectNoError());
    }

    private static void continuationCases(List<ReaderCase> cases) {
        HeaderBlocks hpack = new HeaderBlocks();
        byte[] block = hpack.encode(request("/continued").add("x-filler", "0123456789abcdef0123456789"));
        int third = (block.length + 2) / 3;
        List<byte[]> parts = HeaderBlocks.split(block, third);
        cases.add(ReaderCase.named("HEADERS + 2 CONTINUATION")
                .frames(headers(1, 0, parts.get(0)), continuation(1, 0, parts.get(1)),
                        continuation(1, END_HEADERS, parts.get(2)))
                .expect("HEADERS s=1 pad=0 eos=false [:").expectNoError());

        cases.add(ReaderCase.named("HEADERS with priority + CONTINUATION")
                .frames(headers(3, PRIORITY_FLAG | END_STREAM, concat(priorityFields(true, 1, 99), parts.get(0))),
                        continuation(3, END_HEADERS, concat(parts.get(1), parts.get(2))))
                .expect("HEADERS s=3 dep=1 w=100 excl=true pad=0 eos=true").expectNoError());

        cases.add(ReaderCase.named("HEADERS padded + CONTINUATION")
                .frames(headers(5, PADDED, padded(6, parts.get(0))),
                        continuation(5, END_HEADERS, concat(parts.get(1), parts.get(2))))
                .expect("HEADERS s=5 pad=7 eos=false").expectNoError());

        cases.add(ReaderCase.named("HEADERS with empty fragment + CONTINUATION with the whole block")
                .frames(headers(7, END_STREAM, new byte[0]), continuation(7, END_HEADERS, block))
                .expect("HEADERS s=7 pad=0 eos=true [:").expectNoError());

        cases.add(ReaderCase.named("HEADERS + empty CONTINUATIONs")
                .frames(headers(9, 0, block), continuation(9, 0, new byte[0]),
                        continuation(9, END_HEADERS, new byte[0]))
                .expect("HEADERS s=9 pad=0 eos=false [:").expectNoError());

        cases.add(ReaderCase.named("CONTINUATION flags other than END_HEADERS are ignored")
                .frames(headers(1, 0, parts.get(0)), continuation(1, PADDED | PRIORITY_FLAG | END_STREAM, parts.get(1)),
                        continuation(1, END_HEADERS | PADDED, parts.get(2)))
                .expect("HEADERS s=1 pad=0 eos=false [:").expectNoError());

        cases.add(ReaderCase.named("CONTINUATION on another stream")
                .frames(headers(1, 0, parts.get(0)), continuation(3, END_HEADERS, parts.get(1)))
                .expect(conn(PROTOCOL_ERROR)));

        cases.add(ReaderCase.named("CONTINUATION on stream 0 during a block")
                .frames(headers(1, 0, parts.get(0)), continuation(0, END_HEADERS, parts.get(1)))
                .expect(conn(PROTOCOL_ERROR)));

        cases.add(ReaderCase.named("CONTINUATION without a block in progress")
                .frames(continuation(1, END_HEADERS, block))
                .expect(conn(PROTOCOL_ERROR)));

        cases.add(ReaderCase.named("CONTINUATION on stream 0 without a block in progress")
                .frames(continuation(0, END_HEADERS, block))
                .expect(conn(PROTOCOL_ERROR)));

        cases.add(ReaderCase.named("CONTINUATION after a complete block")
                .frames(headers(1, END_HEADERS, block), continuation(1, END_HEADERS, new byte[0]))
                .expect("HEADERS s=1").expect(conn(PROTOCOL_ERROR)));

        cases.add(ReaderCase.named("CONTINUATION over max frame size")
                .frames(headers(1, 0, parts.get(0)), continuation(1, END_HEADERS, pattern(16385, 1)))
                .expect(conn(FRAME_SIZE_ERROR)));

        cases.add(ReaderCase.named("header block never finished")
                .frames(headers(1, 0, parts.get(0)), continuation(1, 0, parts.get(1)))
                .expect("END remaining=0").expectNoError());

        cases.add(ReaderCase.named("header block never finished, CONTINUATION payload truncated")
                .frames(headers(1, 0, parts.get(0)),
                        Frames.slice(continuation(1, END_HEADERS, parts.get(1)), 0, 9 + parts.get(1).length - 1))
                .expect("END remaining=" + (parts.get(1).length - 1)).expectNoError());

        int[] frameTypes = {DATA, HEADERS, PRIORITY, RST_STREAM, SETTINGS, PUSH_PROMISE, PING, GOAWAY, WINDOW_UPDATE,
            0x0b};
        byte[][] intruders = {
            data(1, 0, ascii("x")),
            headers(1, END_HEADERS, block),
            priority(1, false, 0, 15),
            rstStream(1, 8),
            settings(3, 100),
            pushPromise(1, END_HEADERS, 2, block),
            ping(false, 1),
            goAway(1, 0, new byte[0]),
            windowUpdate(1, 100),
            frame(0x0b, 0, 1, ascii("ext")),
        };
        for (int i = 0; i < frameTypes.length; i++) {
            cases.add(ReaderCase.named("frame of type " + frameTypes[i] + " inside a header block")
                    .frames(headers(1, 0, parts.get(0)), intruders[i], continuation(1, END_HEADERS, parts.get(1)))
                    .expect(conn(PROTOCOL_ERROR)));
        }
        cases.add(ReaderCase.named("PRIORITY with bad length inside a header block: the block check comes first")
                .frames(headers(1, 0, parts.get(0)), frame(PRIORITY, 0, 3, bytes(0, 0, 0, 1)))
                .expect(conn(PROTOCOL_ERROR)));
        cases.add(ReaderCase.named("DATA padded-empty inside a header block")
                .frames(headers(1, 0, parts.get(0)), frame(DATA, PADDED, 1, new byte[0]))
                .expect(conn(PROTOCOL_ERROR)));
        cases.add(ReaderCase.named("SETTINGS ACK inside a header block")
                .frames(headers(1, 0, parts.get(0)), settingsAck())
                .expect(conn(PROTOCOL_ERROR)));
        cases.add(ReaderCase.named("frame inside a header block, its payload truncated")
                .frames(headers(1, 0, parts.get(0)), Frames.slice(ping(false, 5), 0, 12))
                .expect("END remaining=3").expectNoError());

        // CONTINUATION flood protection: DefaultHttp2FrameReader counts fragments under 8192 bytes without
        // END_HEADERS (the initial HEADERS fragment included) and rejects a CONTINUATION once the count
        // reaches the limit.
        cases.add(continuationRun("HEADERS + 14 small CONTINUATION + final CONTINUATION, default limit",
                ReaderSpec.defaults(), 14).expect("HEADERS s=1").expectNoError());
        cases.add(continuationRun("HEADERS + 15 small CONTINUATION + final CONTINUATION, default limit",
                ReaderSpec.defaults(), 15).expect(conn(ENHANCE_YOUR_CALM)));
        cases.add(continuationRun("HEADERS + 40 small CONTINUATION, default limit",
                ReaderSpec.defaults(), 40).expect(conn(ENHANCE_YOUR_CALM)));
        cases.add(continuationRun("HEADERS + 1 final CONTINUATION, limit 0",
                ReaderSpec.maxSmallContinuationFrames(0), 0).expect(conn(ENHANCE_YOUR_CALM)));
        cases.add(ReaderCase.named("HEADERS with END_HEADERS, limit 0")
                .spec(ReaderSpec.maxSmallContinuationFrames(0))
                .frames(headers(1, END_HEADERS, block))
                .expect("HEADERS s=1").expectNoError());
        cases.add(continuationRun("HEADERS + 1 small CONTINUATION + final, limit 2",
                ReaderSpec.maxSmallContinuationFrames(2), 1).expect(conn(ENHANCE_YOUR_CALM)));
        cases.add(continuationRun("HEADERS + final CONTINUATION, limit 2",
                ReaderSpec.maxSmallContinuationFrames(2), 0).expect("HEADERS s=1").expectNoError());
        cases.add(continuationRun("HEADERS + 30 small CONTINUATION + final, limit 100",
                ReaderSpec.maxSmallContinuationFrames(100), 30).expect("HEADERS s=1").expectNoError());

        // Fragments of 8192 bytes or more do not count; one byte less does.
        cases.add(largeFragments("HEADERS + 20 CONTINUATION of 8192 bytes", 8192, 20)
                .expect("HEADERS s=1").expectNoError());
        cases.add(largeFragments("HEADERS + 20 CONTINUATION of 8191 bytes", 8191, 20)
                .expect(conn(ENHANCE_YOUR_CALM)));

        cases.add(ReaderCase.named("small CONTINUATION count is per block")
                .frames(continuationFrames(1, 14))
                .frames(continuationFrames(3, 14))
                .expect("HEADERS s=3").expectNoError());
    }

    /** HEADERS with a 1 byte fragment, {@code smallOnes} 1 byte CONTINUATIONs, then a final CONTINUATION. */
    private static ReaderCase continuationRun(String name, ReaderSpec spec, int smallOnes) {
        return ReaderCase.named(name).spec(spec).frames(continuationFrames(1, smallOnes));
    }

    private static List<byte[]> continuationFrames(int streamId, int smallOnes) {
        byte[] block = new HeaderBlocks().encode(request("/flood/" + streamId));
        // One byte per fragment while the block lasts (empty fragments after that), the rest in the last one.
        List<byte[]> frames = new ArrayList<>();
        frames.add(headers(streamId, 0, Frames.slice(block, 0, 1)));
        int position = 1;
        for (int i = 0; i < smallOnes; i++) {
            int end = Math.min(block.length - 1, position + 1);
            frames.add(continuation(streamId, 0, Frames.slice(block, position, Math.max(position, end))));
            position = Math.max(position, end);
        }
        frames.add(continuation(streamId, END_HEADERS, Frames.slice(block, position, block.length)));
        return frames;
    }

    /** A header block cut into fragments of {@code fragmentSize}: HEADERS, CONTINUATIONs, a final one. */
    private static ReaderCase largeFragments(String name, int fragmentSize, int continuations) {
        byte[] block = new HeaderBlocks().encode(HeaderBlocks.largeRequest(fragmentSize * (continuations + 1)));
        List<byte[]> fragments = HeaderBlocks.split(block, fragmentSize);
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < fragments.size(); i++) {
            int flags = i == fragments.size() - 1 ? END_HEADERS : 0;
            frames.add(i == 0 ? headers(1, flags, fragments.get(i)) : continuation(1, flags, fragments.get(i)));
        }
        return ReaderCase.named(name).spec(ReaderSpec.maxHeaderListSize(1_000_000)).frames(frames);
    }

    private static void headerBlockLimitCases(List<ReaderCase> cases) {
        // maxHeaderListSize 100: the reader gives up on blocks over 125 bytes (100 + 100 / 4) before decoding.
        byte[] big = new HeaderBlocks().encode(HeaderBlocks.largeRequest(200));
        cases.add(ReaderCase.named("header block over maxHeaderListSizeGoAway in one frame")
                .spec(ReaderSpec.maxHeaderListSize(100))
                .frames(headers(1, END_HEADERS, big))
                .expect(conn(PROTOCOL_ERROR)));
        cases.add(ReaderCase.named("header block over maxHeaderListSizeGoAway on the second fragment")
                .spec(ReaderSpec.maxHeaderListSize(100))
                .frames(headers(1, 0, Frames.slice(big, 0, 100)), continuation(1, END_HEADERS, Frames.slice(big, 100,
                        big.length)))
                .expect(conn(PROTOCOL_ERROR)));
        cases.add(ReaderCase.named("header block over maxHeaderListSizeGoAway, unfinished")
                .spec(ReaderSpec.maxHeaderListSize(100))
                .frames(headers(1, 0, Frames.slice(big, 0, 100)), continuation(1, 0, Frames.slice(big, 100, 130)))
                .expect(conn(PROTOCOL_ERROR)));
        cases.add(ReaderCase.named("header block of exactly maxHeaderListSizeGoAway bytes")
                .spec(ReaderSpec.maxHeaderListSize(100))
                .frames(headers(1, 0, Frames.slice(big, 0, 125)))
                .expect("END remaining=0").expectNoError());
        cases.add(ReaderCase.named("header block one byte over maxHeaderListSizeGoAway")
                .spec(ReaderSpec.maxHeaderListSize(100))
                .frames(headers(1, 0, Frames.slice(big, 0, 100)), continuation(1, 0, Frames.slice(big, 100, 126)))
                .expect(conn(PROTOCOL_ERROR)));
        // A small block that decodes to more than 100 bytes (each header counts 32 extra): the HPACK decoder
        // reports it as a stream error, during decoding.
        cases.add(ReaderCase.named("decoded header list over maxHeaderListSize")
                .spec(ReaderSpec.maxHeaderListSize(100))
                .frames(headers(1, END_HEADERS, new HeaderBlocks().encode(request("/"))), data(1, 0, ascii("then")))
                .expect("ERR stream PROTOCOL_ERROR stream=1 headerListSize").expect("DATA s=1"));
        cases.add(ReaderCase.named("default limits: 12000 byte header block")
                .frames(headers(1, END_HEADERS, new HeaderBlocks().encode(HeaderBlocks.largeRequest(12_000))))
                .expect(conn(PROTOCOL_ERROR)));
        cases.add(ReaderCase.named("default limits: 9000 byte header value")
                .frames(headers(1, END_HEADERS, new HeaderBlocks().encode(HeaderBlocks.largeRequest(9_000))))
                .expect("ERR stream PROTOCOL_ERROR stream=1 headerListSize"));
        cases.add(ReaderCase.named("maxHeaderListSize changed through the reader's configuration")
                .action("maxHeaderListSize(50, 60)", reader -> {
                    reader.configuration().headersConfiguration().maxHeaderListSize(50, 60);
                    return null;
                })
                .frames(headers(1, END_HEADERS, new HeaderBlocks().encode(HeaderBlocks.largeRequest(70))))
                .expect(conn(PROTOCOL_ERROR)));
        cases.add(ReaderCase.named("maxHeaderTableSize lowered, then a block that needs the old size")
                .action("maxHeaderTableSize(0)", reader -> {
                    reader.configuration().headersConfiguration().maxHeaderTableSize(0);
                    return null;
                })
                .frames(headers(1, END_HEADERS, new HeaderBlocks().encode(request("/").add("x-indexed", "v"))))
                .expect(conn(COMPRESSION_ERROR)));
        cases.add(ReaderCase.named("PUSH_PROMISE header block over maxHeaderListSizeGoAway")
                .spec(ReaderSpec.maxHeaderListSize(100))
                .frames(pushPromise(1, END_HEADERS, 2, big))
                .expect(conn(PROTOCOL_ERROR)));
    }

    private static void priorityCases(List<ReaderCase> cases) {
        cases.add(ReaderCase.named("PRIORITY")
                .frames(priority(3, false, 1, 15))
                .expect("PRIORITY s=3 dep=1 w=16 excl=false").expectNoError());
        cases.add(ReaderCase.named("PRIORITY exclusive, weight 256")
                .frames(priority(5, true, 3, 255))
                .expect("PRIORITY s=5 dep=3 w=256 excl=true").expectNoError());
        cases.add(ReaderCase.named("PRIORITY on stream 0 dependency, weight 1")
                .frames(priority(5, false, 0, 0))
                .expect("PRIORITY s=5 dep=0 w=1 excl=false").expectNoError());
        cases.add(ReaderCase.named("PRIORITY with 4 bytes")
                .frames(frame(PRIORITY, 0, 3, bytes(0, 0, 0, 1)), ping(false, 7))
                .expect(stream(FRAME_SIZE_ERROR, 3)).expect("PING data=7"));
        cases.add(ReaderCase.named("PRIORITY with 6 bytes")
                .frames(frame(PRIORITY, 0, 3, bytes(0, 0, 0, 1, 15, 0)), ping(false, 7))
                .expect(stream(FRAME_SIZE_ERROR, 3)).expect("PING data=7"));
        cases.add(ReaderCase.named("PRIORITY empty")
                .frames(frame(PRIORITY, 0, 3, new byte[0]))
                .expect(stream(FRAME_SIZE_ERROR, 3)));
        cases.add(ReaderCase.named("PRIORITY depending on itself")
                .frames(priority(3, false, 3, 15), priority(5, false, 3, 15))
                .expect(stream(PROTOCOL_ERROR, 3)).expect("PRIORITY s=5"));
        cases.add(ReaderCase.named("PRIORITY exclusively depending on itself")
                .frames(priority(7, true, 7, 15))
                .expect(stream(PROTOCOL_ERROR, 7)));
        cases.add(ReaderCase.named("PRIORITY on stream 0")
                .frames(priority(0, false, 1, 15))
                .expect(conn(PROTOCOL_ERROR)));
        cases.add(ReaderCase.named("PRIORITY on stream 0 with 4 bytes")
                .frames(frame(PRIORITY, 0, 0, bytes(0, 0, 0, 1)))
                .expect(conn(PROTOCOL_ERROR)));
        cases.add(ReaderCase.named("PRIORITY with a bad length, payload truncated")
                .frames(frame(6, PRIORITY, 0, 3, bytes(0, 0, 0)))
                .expect("END remaining=3").expectNoError());
    }

    private static void rstStreamCases(List<ReaderCase> cases) {
        cases.add(ReaderCase.named("RST_STREAM")
                .frames(rstStream(3, 8))
                .expect("RST_STREAM s=3 code=8").expectNoError());
        cases.add(ReaderCase.named("RST_STREAM with the largest error code")
                .frames(rstStream(3, 0xffffffffL))
                .expect("RST_STREAM s=3 code=4294967295").expectNoError());
        cases.add(ReaderCase.named("RST_STREAM with 3 bytes")
                .frames(frame(RST_STREAM, 0, 3, bytes(0, 0, 8)))
                .expect(conn(FRAME_SIZE_ERROR)));
        cases.add(ReaderCase.named("RST_STREAM with 5 bytes")
                .frames(frame(RST_STREAM, 0, 3, bytes(0, 0, 0, 8, 0)))
                .expect(conn(FRAME_SIZE_ERROR)));
        cases.add(ReaderCase.named("RST_STREAM empty")
                .frames(frame(RST_STREAM, 0, 3, new byte[0]))
                .expect(conn(FRAME_SIZE_ERROR)));
        cases.add(ReaderCase.named("RST_STREAM on stream 0")
                .frames(rstStream(0, 8))
                .expect(conn(PROTOCOL_ERROR)));
    }

    private static void settingsCases(List<ReaderCase> cases) {
        cases.add(ReaderCase.named("SETTINGS empty")
                .frames(settings())
                .expect("SETTINGS {}").expectNoError());
        cases.add(ReaderCase.named("SETTINGS ACK")
                .frames(settingsAck())
                .expect("SETTINGS_ACK").expectNoError());
        cases.add(ReaderCase.named("SETTINGS ACK with flags it does not define")
                .frames(frame(SETTINGS, 0xff, 0, new byte[0]))
                .expect("SETTINGS_ACK").expectNoError());
        cases.add(ReaderCase.named("SETTINGS ACK with payload")
                .frames(frame(SETTINGS, ACK, 0, Frames.slice(settings(3, 100), 9, 15)))
                .expect(conn(FRAME_SIZE_ERROR)));
        cases.add(ReaderCase.named("SETTINGS ACK on stream 1")
                .frames(frame(SETTINGS, ACK, 1, new byte[0]))
                .expect(conn(PROTOCOL_ERROR)));
        long[][] valid = {
            {1, 0}, {1, 4096}, {1, 0xffffffffL}, {2, 0}, {2, 1}, {3, 0}, {3, 100}, {3, 0xffffffffL},
            {4, 0}, {4, 65535}, {4, 0x7fffffff}, {5, 16384}, {5, 0xffffff}, {6, 0}, {6, 8192}, {6, 0xffffffffL},
            {8, 0}, {8, 1}, {0, 5}, {7, 7}, {9, 1}, {0x99, 7}, {0xffff, 0xffffffffL},
        };
        for (long[] setting : valid) {
            cases.add(ReaderCase.named("SETTINGS " + setting[0] + "=" + setting[1])
                    .frames(settings(setting[0], setting[1]))
                    .expect("SETTINGS {" + setting[0] + "=" + setting[1] + "}").expectNoError());
        }
        cases.add(ReaderCase.named("SETTINGS with every standard setting")
                .frames(settings(1, 4096, 2, 0, 3, 100, 4, 65535, 5, 16384, 6, 8192, 8, 1))
                .expect("SETTINGS {1=4096, 2=0, 3=100, 4=65535, 5=16384, 6=8192, 8=1}").expectNoError());
        cases.add(ReaderCase.named("SETTINGS with the same id twice")
                .frames(settings(4, 100, 4, 200))
                .expect("SETTINGS {4=200}").expectNoError());
        long[][] invalid = {{2, 2}, {4, 0x80000000L}, {4, 0xffffffffL}, {5, 16383}, {5, 0}, {5, 0x1000000}, {8, 2}};
        for (long[] setting : invalid) {
            Http2Error error = setting[0] == 4 ? FLOW_CONTROL_ERROR : PROTOCOL_ERROR;
            cases.add(ReaderCase.named("SETTINGS invalid " + setting[0] + "=" + setting[1])
                    .frames(settings(3, 100, setting[0], setting[1], 6, 1000))
                    .expect(conn(error)));
        }
        cases.add(ReaderCase.named("SETTINGS with 5 bytes")
                .frames(frame(SETTINGS, 0, 0, bytes(0, 3, 0, 0, 100)))
                .expect(conn(FRAME_SIZE_ERROR)));
        cases.add(ReaderCase.named("SETTINGS with 7 bytes")
                .frames(frame(SETTINGS, 0, 0, bytes(0, 3, 0, 0, 0, 100, 0)))
                .expect(conn(FRAME_SIZE_ERROR)));
        cases.add(ReaderCase.named("SETTINGS on stream 1")
                .frames(frame(SETTINGS, 0, 1, Frames.slice(settings(3, 100), 9, 15)))
                .expect(conn(PROTOCOL_ERROR)));
        cases.add(ReaderCase.named("SETTINGS on stream 1 with 5 bytes")
                .frames(frame(SETTINGS, 0, 1, bytes(0, 3, 0, 0, 100)))
                .expect("ERR connection "));
        cases.add(ReaderCase.named("SETTINGS ACK with 5 bytes")
                .frames(frame(SETTINGS, ACK, 0, bytes(0, 3, 0, 0, 100)))
                .expect(conn(FRAME_SIZE_ERROR)));
        cases.add(ReaderCase.named("SETTINGS MAX_FRAME_SIZE does not change the reader's limit")
                .frames(settings(5, 0xffffff), data(1, 0, pattern(Frames.DEFAULT_MAX_FRAME_SIZE + 1, 0)))
                .expect("SETTINGS {5=16777215}").expect(conn(FRAME_SIZE_ERROR)));
    }

    private static void pushPromiseCases(List<ReaderCase> cases) {
        byte[] block = new HeaderBlocks().encode(request("/pushed"));
        cases.add(ReaderCase.named("PUSH_PROMISE")
                .frames(pushPromise(1, END_HEADERS, 2, block))
                .expect("PUSH_PROMISE s=1 promised=2 pad=0 [:").expectNoError());
        cases.add(ReaderCase.named("PUSH_PROMISE padded")
                .frames(frame(PUSH_PROMISE, END_HEADERS | PADDED, 1, padded(5, concat(int32(4), block))))
                .expect("PUSH_PROMISE s=1 promised=4 pad=6 [:").expectNoError());
        cases.add(ReaderCase.named("PUSH_PROMISE padded, pad length 0, empty block")
                .frames(frame(PUSH_PROMISE, END_HEADERS | PADDED, 1, padded(0, int32(4))))
                .expect("PUSH_PROMISE s=1 promised=4 pad=1 []").expectNoError());
        List<byte[]> parts = HeaderBlocks.split(block, (block.length + 2) / 3);
        cases.add(ReaderCase.named("PUSH_PROMISE + 2 CONTINUATION")
                .frames(pushPromise(3, 0, 6, parts.get(0)), continuation(3, 0, parts.get(1)),
                        continuation(3, END_HEADERS, parts.get(2)))
                .expect("PUSH_PROMISE s=3 promised=6 pad=0 [:").expectNoError());
        cases.add(ReaderCase.named("PUSH_PROMISE padded + CONTINUATION")
                .frames(frame(PUSH_PROMISE, PADDED, 3, padded(2, concat(int32(6), parts.get(0)))),
                        continuation(3, END_HEADERS, concat(parts.get(1), parts.get(2))))
                .expect("PUSH_PROMISE s=3 promised=6 pad=3 [:").expectNoError());
        cases.add(ReaderCase.named("PUSH_PROMISE CONTINUATION on another stream")
                .frames(pushPromise(3, 0, 6, parts.get(0)), continuation(1, END_HEADERS, parts.get(1)))
                .expect(conn(PROTOCOL_ERROR)));
        cases.add(ReaderCase.named("PUSH_PROMISE then HEADERS before END_HEADERS")
                .frames(pushPromise(3, 0, 6, parts.get(0)), headers(3, END_HEADERS, block))
                .expect(conn(PROTOCOL_ERROR)));
        // Netty's reader refuses it from 4.2.16 on; before, it passes it on to its decoder.
        cases.add(NettyRelease.atLeast(16)
                ? ReaderCase.named("PUSH_PROMISE on stream 0")
                        .frames(pushPromise(0, END_HEADERS, 2, block))
                        .expect(conn(PROTOCOL_ERROR))
                : ReaderCase.named("PUSH_PROMISE on stream 0")
                        .frames(pushPromise(0, END_HEADERS, 2, block))
                        .expect("PUSH_PROMISE s=0 promised=2 pad=0 [:").expectNoError());
        cases.add(ReaderCase.named("PUSH_PROMISE with 3 bytes")
                .frames(frame(PUSH_PROMISE, END_HEADERS, 1, bytes(0, 0, 2)))
                .expect(conn(FRAME_SIZE_ERROR)));
        cases.add(ReaderCase.named("PUSH_PROMISE empty")
                .frames(frame(PUSH_PROMISE, END_HEADERS, 1, new byte[0]))
                .expect(conn(FRAME_SIZE_ERROR)));
        cases.add(ReaderCase.named("PUSH_PROMISE padded with 4 bytes")
                .frames(frame(PUSH_PROMISE, END_HEADERS | PADDED, 1, bytes(0, 0, 0, 2)))
                .expect(conn(FRAME_SIZE_ERROR)));
        cases.add(ReaderCase.named("PUSH_PROMISE padding longer than payload")
                .frames(frame(PUSH_PROMISE, END_HEADERS | PADDED, 1, concat(bytes(9), int32(2), bytes(0x82))))
                .expect(conn(PROTOCOL_ERROR)));
        cases.add(ReaderCase.named("PUSH_PROMISE with the reserved bit in the promised stream id")
                .frames(pushPromise(1, END_HEADERS, 0x80000002, block))
                .expect("PUSH_PROMISE s=1 promised=2 ").expectNoError());
        cases.add(ReaderCase.named("PUSH_PROMISE promising stream 0")
                .frames(pushPromise(1, END_HEADERS, 0, block))
                .expect("PUSH_PROMISE s=1 promised=0 ").expectNoError());
        cases.add(ReaderCase.named("PUSH_PROMISE with a bad HPACK block")
                .frames(pushPromise(1, END_HEADERS, 2, HeaderBlocks.ILLEGAL_INDEX))
                .expect(conn(COMPRESSION_ERROR)));
    }

    private static void pingCases(List<ReaderCase> cases) {
        cases.add(ReaderCase.named("PING")
                .frames(ping(false, 0x0102030405060708L))
                .expect("PING data=102030405060708").expectNoError());
        cases.add(ReaderCase.named("PING ACK")
                .frames(ping(true, 0x1122334455667788L))
                .expect("PING_ACK data=1122334455667788").expectNoError());
        cases.add(ReaderCase.named("PING with all bits set")
                .frames(ping(false, -1L))
                .expect("PING data=ffffffffffffffff").expectNoError());
        cases.add(ReaderCase.named("PING with flags it does not define")
                .frames(frame(PING, 0xfe, 0, Frames.int64(9)))
                .expect("PING data=9").expectNoError());
        cases.add(ReaderCase.named("PING on stream 1")
                .frames(frame(PING, 0, 1, Frames.int64(9)))
                .expect(conn(PROTOCOL_ERROR)));
        cases.add(ReaderCase.named("PING ACK on stream 3")
                .frames(frame(PING, ACK, 3, Frames.int64(9)))
                .expect(conn(PROTOCOL_ERROR)));
        cases.add(ReaderCase.named("PING with 7 bytes")
                .frames(frame(PING, 0, 0, pattern(7, 0)))
                .expect(conn(FRAME_SIZE_ERROR)));
        cases.add(ReaderCase.named("PING with 9 bytes")
                .frames(frame(PING, 0, 0, pattern(9, 0)))
                .expect(conn(FRAME_SIZE_ERROR)));
        cases.add(ReaderCase.named("PING empty")
                .frames(frame(PING, ACK, 0, new byte[0]))
                .expect(conn(FRAME_SIZE_ERROR)));
    }

    private static void goAwayCases(List<ReaderCase> cases) {
        cases.add(ReaderCase.named("GOAWAY without debug data")
                .frames(goAway(5, 0, new byte[0]))
                .expect("GOAWAY last=5 code=0 debug=<>").expectNoError());
        cases.add(ReaderCase.named("GOAWAY with debug data")
                .frames(goAway(7, 2, ascii("bye now")))
                .expect("GOAWAY last=7 code=2 debug=<627965206e6f77>").expectNoError());
        cases.add(ReaderCase.named("GOAWAY with long debug data")
                .frames(goAway(7, 11, pattern(3000, 4)))
                .expect("GOAWAY last=7 code=11 debug=<len=3000").expectNoError());
        cases.add(ReaderCase.named("GOAWAY with the largest error code and the reserved bit")
                .frames(goAway(0x80000009, 0xffffffffL, new byte[0]))
                .expect("GOAWAY last=9 code=4294967295").expectNoError());
        cases.add(ReaderCase.named("GOAWAY then more frames")
                .frames(goAway(1, 0, ascii("x")), ping(false, 1), data(1, 0, ascii("still read")))
                .expect("DATA s=1").expectNoError());
        cases.add(ReaderCase.named("GOAWAY on stream 1")
                .frames(frame(GOAWAY, 0, 1, concat(int32(1), int32(0))))
                .expect(conn(PROTOCOL_ERROR)));
        cases.add(ReaderCase.named("GOAWAY with 7 bytes")
                .frames(frame(GOAWAY, 0, 0, pattern(7, 0)))
                .expect(conn(FRAME_SIZE_ERROR)));
        cases.add(ReaderCase.named("GOAWAY empty")
                .frames(frame(GOAWAY, 0, 0, new byte[0]))
                .expect(conn(FRAME_SIZE_ERROR)));
        cases.add(ReaderCase.named("GOAWAY on stream 1 with 4 bytes")
                .frames(frame(GOAWAY, 0, 1, pattern(4, 0)))
                .expect("ERR connection "));
    }

    private static void windowUpdateCases(List<ReaderCase> cases) {
        cases.add(ReaderCase.named("WINDOW_UPDATE on the connection")
                .frames(windowUpdate(0, 1))
                .expect("WINDOW_UPDATE s=0 inc=1").expectNoError());
        cases.add(ReaderCase.named("WINDOW_UPDATE on a stream, largest increment")
                .frames(windowUpdate(3, 0x7fffffff))
                .expect("WINDOW_UPDATE s=3 inc=2147483647").expectNoError());
        cases.add(ReaderCase.named("WINDOW_UPDATE with the reserved bit set")
                .frames(windowUpdate(3, 0x80000001))
                .expect("WINDOW_UPDATE s=3 inc=1").expectNoError());
        cases.add(ReaderCase.named("WINDOW_UPDATE of 0 on the connection")
                .frames(windowUpdate(0, 0))
                .expect(conn(PROTOCOL_ERROR)));
        cases.add(ReaderCase.named("WINDOW_UPDATE of 0 on a stream")
                .frames(windowUpdate(3, 0), windowUpdate(5, 10))
                .expect(stream(PROTOCOL_ERROR, 3)).expect("WINDOW_UPDATE s=5 inc=10"));
        cases.add(ReaderCase.named("WINDOW_UPDATE of only the reserved bit on a stream")
                .frames(windowUpdate(3, 0x80000000))
                .expect(stream(PROTOCOL_ERROR, 3)));
        cases.add(ReaderCase.named("WINDOW_UPDATE with 3 bytes")
                .frames(frame(WINDOW_UPDATE, 0, 3, bytes(0, 0, 1)))
                .expect(conn(FRAME_SIZE_ERROR)));
        cases.add(ReaderCase.named("WINDOW_UPDATE with 5 bytes")
                .frames(frame(WINDOW_UPDATE, 0, 0, bytes(0, 0, 0, 1, 0)))
                .expect(conn(FRAME_SIZE_ERROR)));
        cases.add(ReaderCase.named("WINDOW_UPDATE empty")
                .frames(frame(WINDOW_UPDATE, 0, 0, new byte[0]))
                .expect(conn(FRAME_SIZE_ERROR)));
    }

    private static void unknownFrameCases(List<ReaderCase> cases) {
        cases.add(ReaderCase.named("unknown type 0x0a with all flags on stream 0")
                .frames(frame(0x0a, 0xff, 0, ascii("alt-svc")))
                .expect("UNKNOWN type=10 s=0 flags=255 payload=<616c742d737663>").expectNoError());
        cases.add(ReaderCase.named("unknown type 0xff empty")
                .frames(frame(0xff, 0, 7, new byte[0]))
                .expect("UNKNOWN type=255 s=7 flags=0 payload=<>").expectNoError());
        cases.add(ReaderCase.named("unknown type with the reserved stream id bit")
                .frames(frame(0x10, 0x21, 0x80000003, ascii("z")))
                .expect("UNKNOWN type=16 s=3 flags=33").expectNoError());
        cases.add(ReaderCase.named("unknown type of max frame size")
                .frames(frame(0x0c, 0, 1, pattern(Frames.DEFAULT_MAX_FRAME_SIZE, 8)))
                .expect("UNKNOWN type=12 s=1 flags=0 payload=<len=16384").expectNoError());
        cases.add(ReaderCase.named("unknown type over max frame size")
                .frames(frame(0x0c, 0, 1, pattern(Frames.DEFAULT_MAX_FRAME_SIZE + 1, 8)))
                .expect(conn(FRAME_SIZE_ERROR)));
        cases.add(ReaderCase.named("unknown types between other frames")
                .frames(ping(false, 1), frame(0x0d, 4, 1, ascii("a")), data(1, 0, ascii("b")), frame(0x0e, 8, 0,
                        ascii("c")))
                .expect("UNKNOWN type=14 s=0 flags=8").expectNoError());
    }

    private static void frameSizeCases(List<ReaderCase> cases) {
        ReaderCase.ReaderAction describeConfiguration = FrameReaderEquivalenceTest::describeConfiguration;
        cases.add(ReaderCase.named("configuration values")
                .action("configuration", describeConfiguration)
                .expect("ACTION configuration -> maxFrameSize=16384").expectNoError());
        cases.add(ReaderCase.named("configuration values, maxHeaderListSize 1000")
                .spec(ReaderSpec.maxHeaderListSize(1000))
                .action("configuration", describeConfiguration)
                .expect("ACTION configuration -> maxFrameSize=16384 maxHeaderListSize=1000 goAway=1250")
                .expectNoError());
        cases.add(ReaderCase.named("maxFrameSize raised to 32768")
                .action("maxFrameSize(32768)", maxFrameSize(32768))
                .frames(data(1, 0, pattern(20_000, 1)), data(1, 0, pattern(32768, 2)), data(1, 0, pattern(32769, 3)))
                .expect("ACTION maxFrameSize(32768) -> 32768").expect("DATA s=1 pad=0 eos=false data=<len=32768")
                .expect(conn(FRAME_SIZE_ERROR)));
        cases.add(ReaderCase.named("maxFrameSize raised to the largest value")
                .action("maxFrameSize(16777215)", maxFrameSize(0xffffff))
                .frames(frame(0xffffff, DATA, 0, 1, pattern(100, 0)))
                .expect("ACTION maxFrameSize(16777215) -> 16777215").expect("END remaining=100").expectNoError());
        cases.add(ReaderCase.named("maxFrameSize 16383 is rejected")
                .action("maxFrameSize(16383)", maxFrameSize(16383))
                .action("configuration", describeConfiguration)
                .frames(data(1, 0, pattern(16384, 0)))
                .expect("ACTION maxFrameSize(16383) ERR connection FRAME_SIZE_ERROR").expect("DATA s=1"));
        cases.add(ReaderCase.named("maxFrameSize 16777216 is rejected")
                .action("maxFrameSize(16777216)", maxFrameSize(0x1000000))
                .action("configuration", describeConfiguration)
                .expect("ACTION maxFrameSize(16777216) ERR connection FRAME_SIZE_ERROR"));
        cases.add(ReaderCase.named("maxFrameSize 0 and negative are rejected")
                .action("maxFrameSize(0)", maxFrameSize(0))
                .action("maxFrameSize(-1)", maxFrameSize(-1))
                .action("configuration", describeConfiguration)
                .expect("ACTION maxFrameSize(-1) ERR connection FRAME_SIZE_ERROR"));
        cases.add(ReaderCase.named("maxFrameSize lowered after a frame header was read")
                .action("maxFrameSize(32768)", maxFrameSize(32768))
                .frames(Frames.slice(data(1, 0, pattern(20_000, 4)), 0, 5_009))
                .action("maxFrameSize(16384)", maxFrameSize(16384))
                .frames(Frames.slice(data(1, 0, pattern(20_000, 4)), 5_009, 20_009), data(3, 0, pattern(16385, 0)))
                .expect("DATA s=1 pad=0 eos=false data=<len=20000").expect(conn(FRAME_SIZE_ERROR)));
        cases.add(ReaderCase.named("maxFrameSize raised after a FRAME_SIZE_ERROR changes nothing")
                .frames(data(1, 0, pattern(16385, 0)))
                .action("maxFrameSize(32768)", maxFrameSize(32768))
                .frames(data(1, 0, pattern(10, 0)))
                .expect(conn(FRAME_SIZE_ERROR)).expect("END remaining=0"));
    }

    private static ReaderCase.ReaderAction maxFrameSize(int max) {
        return reader -> {
            reader.configuration().frameSizePolicy().maxFrameSize(max);
            return Integer.toString(reader.configuration().frameSizePolicy().maxFrameSize());
        };
    }

    private static String describeConfiguration(Http2FrameReader reader) {
        Http2HeadersDecoder.Configuration headers = reader.configuration().headersConfiguration();
        return "maxFrameSize=" + reader.configuration().frameSizePolicy().maxFrameSize()
                + " maxHeaderListSize=" + headers.maxHeaderListSize()
                + " goAway=" + headers.maxHeaderListSizeGoAway()
                + " maxHeaderTableSize=" + headers.maxHeaderTableSize();
    }

    private static void listenerFailureCases(List<ReaderCase> cases) {
        byte[] block = new HeaderBlocks().encode(request("/"));
        cases.add(ReaderCase.named("listener throws a stream error from onDataRead")
                .listener(t -> t.failOn("DATA s=3", () -> Http2Exception.streamError(3, STREAM_CLOSED, "closed")))
                .frames(data(3, 0, ascii("a")), data(5, 0, ascii("b")))
                .expect(stream(STREAM_CLOSED, 3)).expect("DATA s=5"));
        cases.add(ReaderCase.named("listener throws a connection error from onDataRead")
                .listener(t -> t.failOn("DATA s=3", () -> Http2Exception.connectionError(FLOW_CONTROL_ERROR, "x")))
                .frames(data(3, 0, ascii("a")), data(5, 0, ascii("b")))
                .expect(conn(FLOW_CONTROL_ERROR)).expect("END remaining=0"));
        cases.add(ReaderCase.named("listener throws a stream error for stream 0, which is a connection error")
                .listener(t -> t.failOn("PING", () -> Http2Exception.streamError(0, INTERNAL_ERROR, "zero")))
                .frames(ping(false, 1), ping(false, 2))
                .expect(conn(INTERNAL_ERROR)));
        cases.add(ReaderCase.named("listener throws a RuntimeException from onSettingsRead")
                .listener(t -> t.failOn("SETTINGS {", () -> new ListenerFailure("settings")))
                .frames(settings(3, 1), ping(false, 2))
                .expect("LISTENER_FAILURE settings").expect("END remaining=0"));
        cases.add(ReaderCase.named("listener throws a stream error from onHeadersRead after CONTINUATION")
                .listener(t -> t.failOn("HEADERS s=1", () -> Http2Exception.streamError(1, STREAM_CLOSED, "h")))
                .frames(headers(1, 0, Frames.slice(block, 0, 3)), continuation(1, END_HEADERS,
                        Frames.slice(block, 3, block.length)),
                        headers(3, END_HEADERS, new HeaderBlocks().encode(request("/"))), ping(false, 3))
                .expect(stream(STREAM_CLOSED, 1)).expect("HEADERS s=3").expect("PING data=3"));
        cases.add(ReaderCase.named("listener throws a connection error from onHeadersRead")
                .listener(t -> t.failOn("HEADERS s=1", () -> Http2Exception.connectionError(PROTOCOL_ERROR, "h")))
                .frames(headers(1, END_HEADERS, block), ping(false, 3))
                .expect(conn(PROTOCOL_ERROR)).expect("END remaining=0"));
        cases.add(ReaderCase.named("listener throws a RuntimeException from onPushPromiseRead")
                .listener(t -> t.failOn("PUSH_PROMISE", () -> new ListenerFailure("push")))
                .frames(pushPromise(1, END_HEADERS, 2, block), ping(false, 3))
                .expect("LISTENER_FAILURE push"));
        cases.add(ReaderCase.named("listener throws a stream error from onGoAwayRead, onUnknownFrame, onPingRead")
                .listener(t -> t
                        .failOn("GOAWAY", () -> Http2Exception.streamError(1, STREAM_CLOSED, "g"))
                        .failOn("UNKNOWN", () -> Http2Exception.streamError(3, STREAM_CLOSED, "u"))
                        .failOn("PING ", () -> Http2Exception.streamError(5, STREAM_CLOSED, "p")))
                .frames(goAway(1, 0, ascii("dbg")), frame(0x20, 1, 3, ascii("u")), ping(false, 4), settingsAck())
                .expect(stream(STREAM_CLOSED, 5)).expect("SETTINGS_ACK"));
        cases.add(ReaderCase.named("listener throws from onRstStreamRead, onPriorityRead, onWindowUpdateRead")
                .listener(t -> t
                        .failOn("RST_STREAM", () -> Http2Exception.streamError(1, STREAM_CLOSED, "r"))
                        .failOn("PRIORITY", () -> Http2Exception.streamError(3, STREAM_CLOSED, "p"))
                        .failOn("WINDOW_UPDATE", () -> new ListenerFailure("window")))
                .frames(rstStream(1, 0), priority(3, false, 0, 1), windowUpdate(0, 5), ping(true, 6))
                .expect("LISTENER_FAILURE window").expect("END remaining=0"));
    }

    private static void sequenceCases(List<ReaderCase> cases) {
        HeaderBlocks hpack = new HeaderBlocks();
        cases.add(ReaderCase.named("a client connection")
                .frames(settings(1, 4096, 3, 100, 4, 1 << 20), windowUpdate(0, 1 << 24), settingsAck(),
                        headers(1, END_HEADERS, hpack.encode(request("/one"))),
                        data(1, END_STREAM, pattern(1000, 1)),
                        headers(3, END_HEADERS | END_STREAM, hpack.encode(request("/two"))),
                        ping(false, 77), priority(3, true, 1, 200), rstStream(3, 8),
                        headers(5, PRIORITY_FLAG, concat(priorityFields(false, 1, 31),
                                Frames.slice(hpack.encode(request("/three")), 0, 4))))
                .expect("PRIORITY s=3").expect("END remaining=0").expectNoError());
        cases.add(ReaderCase.named("connection error in the middle: the rest is skipped")
                .frames(data(1, 0, ascii("a")), rstStream(1, 8), windowUpdate(0, 0), data(1, 0, ascii("skipped")),
                        settings(3, 5))
                .expect(conn(PROTOCOL_ERROR)).expect("END remaining=0"));
        cases.add(ReaderCase.named("stream errors in a row")
                .frames(frame(PRIORITY, 0, 1, bytes(1)), windowUpdate(3, 0), frame(DATA, PADDED, 5, new byte[0]),
                        priority(7, false, 7, 0), data(9, 0, ascii("ok")))
                .expect(stream(PROTOCOL_ERROR, 7)).expect("DATA s=9").expect("END remaining=0"));
        cases.add(ReaderCase.named("stream error then connection error then valid frames")
                .frames(windowUpdate(3, 0), frame(PING, 0, 0, bytes(1)), ping(false, 1))
                .expect(stream(PROTOCOL_ERROR, 3)).expect(conn(FRAME_SIZE_ERROR)).expect("END remaining=0"));
        cases.add(ReaderCase.named("partial frame header at the end")
                .frames(ping(false, 1), bytes(0, 0, 8, PING))
                .expect("PING data=1").expect("END remaining=4").expectNoError());
        cases.add(ReaderCase.named("close() in the middle of a header block, then more frames")
                .frames(headers(1, 0, Frames.slice(new HeaderBlocks().encode(request("/closed")), 0, 5)))
                .action("close()", reader -> {
                    reader.close();
                    return null;
                })
                .frames(continuation(1, END_HEADERS, new byte[0]), data(1, 0, ascii("after")))
                .expect(conn(PROTOCOL_ERROR)));
        cases.add(ReaderCase.named("close() twice between frames")
                .frames(data(1, 0, ascii("before")), settings(3, 7))
                .action("close()", reader -> {
                    reader.close();
                    return null;
                })
                .action("close() again", reader -> {
                    reader.close();
                    return null;
                })
                .frames(data(1, 0, ascii("after")), settings(3, 8), ping(false, 9))
                .expect("PING data=9").expectNoError());
        byte[] zeroLengthFrames = concat(data(1, 0, new byte[0]), settings(), settingsAck(),
                headers(3, END_HEADERS, new byte[0]), frame(0x42, 0, 0, new byte[0]));
        cases.add(ReaderCase.named("zero-length frames back to back")
                .frames(zeroLengthFrames)
                .expect("UNKNOWN type=66").expectNoError());
    }
}
