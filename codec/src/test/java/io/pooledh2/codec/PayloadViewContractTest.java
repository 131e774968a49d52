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
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.util.AsciiString;
import io.netty.util.ByteProcessor;
import io.netty.util.CharsetUtil;
import io.netty.util.internal.PlatformDependent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ScatteringByteChannel;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link PayloadView} against what a Netty user holds as a DATA frame's content: the slice of the input that
 * {@code DefaultHttp2FrameReader} hands its listener, retained as {@code Http2FrameCodec} retains it for its
 * {@code DefaultHttp2DataFrame}. Code written against Netty uses {@code frame.content()} as that slice, so every
 * {@code ByteBuf} method of the view must answer as the slice does: same return value or exception class, same
 * indexes afterwards, same bytes in the window and in the input behind it.
 *
 * <p>Each case reads the same bytes (junk already consumed, the DATA frame, a second frame behind it) from two
 * identical inputs of one kind, with the stock reader and with the pooled one, and drives the two contents with
 * one seeded random sequence of operations, out-of-range arguments included. After every step it compares the
 * outcomes, the indexes and window of both buffers, and the whole of both inputs. Input kinds: every buffer a
 * {@code ByteToMessageDecoder} can hand a reader, and the leak-detection wrappers that Netty's allocators put
 * around them under paranoid leak detection (the view reads through those). The pooled frame is obtained with
 * reuse off, with reuse on and kept past its callback (the view then retains the input), and with reuse on inside
 * the callback of a frame that had an earlier life (a view pointed at a new payload).
 *
 * <p>Intended differences, not compared as equal:
 * <ul>
 *   <li>{@code refCnt}, {@code retain}, {@code release}, {@code touch}: the view has no count, they are its
 *       frame's ({@link PooledFrame}); Netty's slice has the input's. {@link #countsAreTheFramesAndUnwrapIsTheInput}
 *       checks what each gives instead.</li>
 *   <li>{@code unwrap()}: the view gives the input as the reader was given it; Netty's slice of a
 *       leak-detection wrapper is itself a wrapper, whose {@code unwrap()} is the plain slice. Equal for the
 *       other kinds, and checked by role in the same test.</li>
 *   <li>{@code toString()}: it names the class, and the unwrapped buffer; only the indexes and capacities in it
 *       are compared.</li>
 *   <li>Identity and class of returned objects (derived buffers, arrays, NIO buffers, memory addresses): they
 *       belong to different buffers. Derived buffers are compared by indexes, capacities, marks, content and
 *       whether writes reach the input; arrays and memory addresses by the bytes they address.</li>
 *   <li>Exception messages, which name the buffer's class: exceptions are compared by class.</li>
 * </ul>
 * Half the rounds read a padded frame, whose content in Netty is the frame's whole payload read past the pad
 * length, with the padding past the writer index: the view must have that shape too. Not covered: use after the
 * last release, when a reused frame's view already shows its next payload.
 *
 * <p>A divergence in an outcome is recorded and the run goes on (one example per operation); a divergence in
 * state stops the run. Reproducible: {@code -Dpooledh2.seed=N} replaces the default seed, printed on failure.
 * Each divergence the random run found has a focused test below, stating what Netty's content does.
 */
class PayloadViewContractTest {

    private static final long DEFAULT_SEED = 0x7669657773L;
    private static final int ROUNDS = 5;
    private static final int STEPS_PER_ROUND = 300;
    /** Operations on a reused frame's view in its earlier life, to leave indexes and marks behind. */
    private static final int EARLIER_LIFE_STEPS = 40;
    /** A round's pad length when its DATA frame is not padded. */
    private static final int NOT_PADDED = -1;

    enum Kind {
        POOLED_DIRECT(InputKind.POOLED_DIRECT, false),
        POOLED_HEAP(InputKind.POOLED_HEAP, false),
        UNPOOLED_HEAP(InputKind.UNPOOLED_HEAP, false),
        UNPOOLED_DIRECT(InputKind.UNPOOLED_DIRECT, false),
        COMPOSITE(InputKind.COMPOSITE, false),
        /** A pooled direct buffer as the allocator hands it out under paranoid leak detection. */
        LEAK_AWARE_POOLED_DIRECT(InputKind.POOLED_DIRECT, true),
        /** A composite as the allocator hands it out under paranoid leak detection. */
        LEAK_AWARE_COMPOSITE(InputKind.COMPOSITE, true);

        private final InputKind inputKind;
        private final boolean leakAware;

        Kind(InputKind inputKind, boolean leakAware) {
            this.inputKind = inputKind;
            this.leakAware = leakAware;
        }

        Input input(byte[] bytes, int skipped) {
            // Under paranoid leak detection the allocators wrap every buffer but an unpooled heap one: the bare
            // kinds are given to the readers unwrapped, and released through the wrapper.
            ByteBuf allocated = inputKind.wrap(bytes, skipped);
            if (leakAware) {
                assertTrue(isLeakAware(allocated), "the allocator wraps buffers only under paranoid leak detection "
                        + "(-Dio.netty.leakDetection.level=paranoid, the build's default): " + allocated.getClass());
                return new Input(allocated, allocated);
            }
            return new Input(allocated, withoutLeakDetection(allocated));
        }
    }

    /** How the pooled reader's frame is obtained. */
    enum Life {
        REUSE_OFF,
        REUSE_ON_KEPT,
        /** Driven inside the callback, on a reused frame whose view had an earlier life. */
        REUSE_ON_IN_CALLBACK
    }

    /** An input: what to release (the allocator's buffer), what the reader is given, and its bare bytes. */
    private static final class Input {
        final ByteBuf allocated;
        final ByteBuf given;
        final ByteBuf raw;

        Input(ByteBuf allocated, ByteBuf given) {
            this.allocated = allocated;
            this.given = given;
            this.raw = withoutLeakDetection(given);
        }

        /**
         * Released through the allocator's buffer, and last: a release that frees the buffer behind a leak
         * detector's back would be reported as a leak.
         */
        void release() {
            allocated.release();
        }
    }

    /** One side of the differential: the buffer driven, the input behind it and a scratch file. */
    private static final class Side {
        final ByteBuf buf;
        final Input input;
        final FileChannel file;

        Side(ByteBuf buf, Input input, FileChannel file) {
            this.buf = buf;
            this.input = input;
            this.file = file;
        }
    }

    private interface Op {
        Object apply(Side side) throws Exception;
    }

    /** An operation with its arguments drawn: run once on each side. */
    private static final class Step {
        final String name;
        final String args;
        final Op op;

        Step(String name, String args, Op op) {
            this.name = name;
            this.args = args;
            this.op = op;
        }

        @Override
        public String toString() {
            return name + args;
        }
    }

    @TempDir
    Path dir;
    private EmbeddedChannel channel;
    private ChannelHandlerContext ctx;
    private FileChannel nettyFile;
    private FileChannel viewFile;

    @BeforeEach
    void setUp() throws IOException {
        channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        ctx = channel.pipeline().firstContext();
        nettyFile = FileChannel.open(dir.resolve("netty"), StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        viewFile = FileChannel.open(dir.resolve("view"), StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
    }

    @AfterEach
    void tearDown() throws IOException {
        nettyFile.close();
        viewFile.close();
        channel.finishAndReleaseAll();
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            for (Life life : Life.values()) {
                cases.add(Arguments.of(kind, life));
            }
        }
        return cases.stream();
    }

    private static long baseSeed() {
        return Long.getLong("pooledh2.seed", DEFAULT_SEED);
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void viewAnswersAsNettysContent(Kind kind, Life life) throws Exception {
        long seed = baseSeed();
        // One generator per case, so that a case does not depend on which others ran.
        Random random = new Random(seed * 31 + kind.ordinal() * 8 + life.ordinal());
        Divergences divergences = new Divergences(seed, kind, life);
        try {
            EventLoopThread.run(() -> {
                for (int round = 0; round < ROUNDS && !divergences.stopped; round++) {
                    round(kind, life, random, round, divergences);
                }
            });
        } catch (Exception | AssertionError e) {
            throw new AssertionError(kind + ", " + life + ", seed " + seed + " (rerun with -Dpooledh2.seed=" + seed
                    + "): " + e, e);
        }
        divergences.assertNone();
    }

    /**
     * One frame of random length, padded or not, read both ways, then {@link #STEPS_PER_ROUND} operations on both
     * contents.
     */
    private void round(Kind kind, Life life, Random random, int round, Divergences divergences) throws Exception {
        byte[] payload = bytes(random, payloadLength(random));
        int padLength = random.nextBoolean() ? NOT_PADDED : random.nextInt(8);
        int skipped = 1 + random.nextInt(16);
        byte[] data = padLength == NOT_PADDED ? Frames.data(1, 0, payload)
                : Frames.data(1, Frames.PADDED, Frames.padded(padLength, payload));
        byte[] frames = concat(data, Frames.data(3, Frames.END_STREAM, bytes(random, 5)));
        Input twin = kind.input(frames, skipped);
        Input mine = kind.input(frames, skipped);
        ByteBuf nettyContent = null;
        try {
            nettyContent = stockContent(twin.given);
            assertShape(nettyContent, payload, padLength, "Netty's content");
            Side netty = new Side(nettyContent, twin, nettyFile);
            divergences.round(round, payload.length, skipped + 9);
            if (life == Life.REUSE_ON_IN_CALLBACK) {
                driveInCallback(kind, random, netty, mine, payload, padLength, divergences);
            } else {
                PooledHttp2FrameReader reader = new PooledHttp2FrameReader().reuseFrames(life == Life.REUSE_ON_KEPT);
                Http2DataFrame frame = parseAndKeep(reader, mine.given);
                try {
                    assertShape(frame.content(), payload, padLength, "the view");
                    assertTrue(frame.content() instanceof PayloadView, frame.content().getClass().toString());
                    drive(random, netty, new Side(frame.content(), mine, viewFile), STEPS_PER_ROUND, divergences);
                } finally {
                    assertTrue(frame.release(), "the test's own reference was the frame's last");
                    reader.close();
                }
            }
        } finally {
            if (nettyContent != null) {
                nettyContent.release();
            }
            twin.release();
            mine.release();
        }
    }

    /**
     * Reuse on: a first frame's view is driven alone and released in its callback, then the frame of the same
     * type parsed next (the same object, back in its slot) is driven inside its own callback, the reader holding
     * it and the input not retained.
     */
    private void driveInCallback(Kind kind, Random random, Side netty, Input mine, byte[] payload, int padLength,
                                 Divergences divergences) throws Exception {
        PooledHttp2FrameReader reader = new PooledHttp2FrameReader().reuseFrames(true);
        try {
            byte[] earlierPayload = bytes(random, payloadLength(random));
            Input earlierInput = kind.input(Frames.data(1, 0, earlierPayload), 1 + random.nextInt(4));
            Object[] earlier = new Object[1];
            try {
                reader.readFrame(ctx, earlierInput.given, (c, frame) -> {
                    earlier[0] = frame;
                    try {
                        Side alone = new Side(((Http2DataFrame) frame).content(), earlierInput, viewFile);
                        for (int i = 0; i < EARLIER_LIFE_STEPS; i++) {
                            outcome(nextStep(random, alone.buf.capacity()), alone);
                        }
                    } finally {
                        frame.release();
                    }
                });
            } finally {
                earlierInput.release();
            }
            Throwable[] failure = new Throwable[1];
            boolean[] driven = new boolean[1];
            reader.readFrame(ctx, mine.given, (c, frame) -> {
                try {
                    if (frame.streamId() == 1) {
                        driven[0] = true;
                        assertSame(earlier[0], frame, "reuse hands out the frame of the earlier life");
                        ByteBuf content = ((Http2DataFrame) frame).content();
                        assertShape(content, payload, padLength, "the reused view");
                        assertTrue(content instanceof PayloadView, content.getClass().toString());
                        drive(random, netty, new Side(content, mine, viewFile), STEPS_PER_ROUND, divergences);
                    }
                } catch (Throwable t) {
                    failure[0] = t;
                } finally {
                    frame.release();
                }
            });
            if (failure[0] != null) {
                throw new AssertionError(failure[0]);
            }
            assertTrue(driven[0], "the DATA frame of stream 1 was read");
        } finally {
            reader.close();
        }
    }

    /** What {@code Http2FrameCodec} puts in its {@code DefaultHttp2DataFrame}: the stock reader's slice, retained. */
    private ByteBuf stockContent(ByteBuf input) throws Exception {
        DefaultHttp2FrameReader reader = new DefaultHttp2FrameReader();
        ByteBuf[] content = new ByteBuf[1];
        try {
            reader.readFrame(ctx, input, new Http2FrameAdapter() {
                @Override
                public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding,
                                      boolean endOfStream) {
                    if (streamId == 1) {
                        content[0] = data.retain();
                    }
                    return data.readableBytes() + padding;
                }
            });
        } finally {
            reader.close();
        }
        assertTrue(content[0] != null, "the stock reader read the DATA frame");
        return content[0];
    }

    /** Reads every frame of {@code input}; keeps the first (stream 1) and releases the others. */
    private Http2DataFrame parseAndKeep(PooledHttp2FrameReader reader, ByteBuf input) throws Exception {
        List<PooledHttp2Frame> frames = new ArrayList<>();
        reader.readFrame(ctx, input, (c, frame) -> frames.add(frame));
        for (int i = 1; i < frames.size(); i++) {
            frames.get(i).release();
        }
        assertEquals(2, frames.size());
        return (Http2DataFrame) frames.get(0);
    }

    /**
     * The shape of Netty's content: the frame's whole payload, read past the pad length of a padded frame, the
     * data readable, the padding past the writer index.
     */
    private static void assertShape(ByteBuf content, byte[] data, int padLength, String what) {
        int start = padLength == NOT_PADDED ? 0 : 1;
        assertEquals(start, content.readerIndex(), what);
        assertEquals(start + data.length, content.writerIndex(), what);
        assertEquals(start + data.length + Math.max(padLength, 0), content.capacity(), what);
        byte[] readable = new byte[data.length];
        content.getBytes(start, readable);
        assertArrayEquals(data, readable, what);
    }

    /** Runs {@code steps} random operations on both sides, comparing after each. */
    private static void drive(Random random, Side netty, Side view, int steps, Divergences divergences) {
        if (!compareState(null, -1, netty, view, divergences)) {
            return;
        }
        for (int i = 0; i < steps; i++) {
            Step step = nextStep(random, view.buf.capacity());
            String expected = outcome(step, netty);
            String actual = outcome(step, view);
            divergences.history(step);
            if (!expected.equals(actual)) {
                divergences.outcome(step, i, expected, actual);
            }
            if (!compareState(step, i, netty, view, divergences)) {
                return;
            }
        }
    }

    /** Compares indexes, windows and inputs, and the two buffers with each other; false if they diverged. */
    private static boolean compareState(Step step, int index, Side netty, Side view, Divergences divergences) {
        String expected = state(netty);
        String actual = state(view);
        if (!expected.equals(actual)) {
            divergences.state(step, index, "state", expected, actual);
            return false;
        }
        expected = inputBytes(netty);
        actual = inputBytes(view);
        if (!expected.equals(actual)) {
            divergences.state(step, index, "input bytes", expected, actual);
            return false;
        }
        // Equal content: equal to each other, from both sides, with equal hash codes.
        String cross = view.buf.equals(netty.buf) + " " + netty.buf.equals(view.buf) + " "
                + view.buf.compareTo(netty.buf) + " " + netty.buf.compareTo(view.buf) + " "
                + (view.buf.hashCode() == netty.buf.hashCode());
        if (!cross.equals("true true 0 0 true")) {
            divergences.state(step, index, "equals/compareTo/hashCode against each other", "true true 0 0 true",
                    cross);
            return false;
        }
        return true;
    }

    private static String state(Side side) {
        ByteBuf b = side.buf;
        return "ridx=" + b.readerIndex() + " widx=" + b.writerIndex() + " cap=" + b.capacity() + "/"
                + b.maxCapacity() + " readable=" + b.readableBytes() + " " + b.isReadable() + " writable="
                + b.writableBytes() + " " + b.isWritable() + " maxWritable=" + b.maxWritableBytes() + " fast="
                + b.maxFastWritableBytes() + " window=" + ByteBufUtil.hexDump(b, 0, b.capacity());
    }

    /** The whole input, read from its bare buffer: writes through the content must land there alike. */
    private static String inputBytes(Side side) {
        ByteBuf raw = side.input.raw;
        return ByteBufUtil.hexDump(raw, 0, raw.writerIndex());
    }

    /** The result (normalized) or the class of the exception. */
    private static String outcome(Step step, Side side) {
        try {
            return String.valueOf(step.op.apply(side));
        } catch (RuntimeException | IOException e) {
            return "threw " + e.getClass().getName();
        } catch (Exception e) {
            throw new AssertionError(step + " threw a checked exception", e);
        }
    }

    private interface ContentsBody {
        void run(ByteBuf netty, ByteBuf view, Input twin, Input mine, Http2DataFrame frame) throws Exception;
    }

    /** Netty's content and the view of one 16-byte DATA payload of {@code kind}, with reuse off; then releases all. */
    private void withContents(Kind kind, ContentsBody body) throws Exception {
        EventLoopThread.run(() -> {
            byte[] payload = RawFrames.bytes("payload 16 bytes");
            byte[] frames = concat(Frames.data(1, 0, payload), Frames.data(3, Frames.END_STREAM, payload));
            Input twin = kind.input(frames, 3);
            Input mine = kind.input(frames, 3);
            PooledHttp2FrameReader reader = new PooledHttp2FrameReader().reuseFrames(false);
            ByteBuf netty = null;
            Http2DataFrame frame = null;
            try {
                netty = stockContent(twin.given);
                frame = parseAndKeep(reader, mine.given);
                body.run(netty, frame.content(), twin, mine, frame);
            } finally {
                if (frame != null) {
                    frame.release();
                }
                if (netty != null) {
                    netty.release();
                }
                reader.close();
                twin.release();
                mine.release();
            }
        });
    }

    /** The intended differences: what each side gives instead of the same. */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void countsAreTheFramesAndUnwrapIsTheInput(Kind kind) throws Exception {
        withContents(kind, (netty, view, twin, mine, frame) -> {
            assertEquals(frame.refCnt(), view.refCnt(), "the view's count is the frame's");
            assertSame(view, view.retain());
            assertEquals(2, frame.refCnt());
            assertTrue(!view.release());
            assertEquals(1, frame.refCnt());
            assertEquals(twin.given.refCnt(), netty.refCnt(), "Netty's content has the input's count");
            assertSame(mine.given, view.unwrap(), "the view unwraps to the input as given");
            if (kind.leakAware) {
                // Netty's content is a leak detector's wrapper around a slice of the bare input.
                assertTrue(isLeakAware(netty), netty.getClass().toString());
                assertSame(twin.raw, netty.unwrap().unwrap());
            } else {
                assertSame(twin.given, netty.unwrap());
            }
            assertEquals(indexesIn(netty.toString()), indexesIn(view.toString()));
        });
    }

    /**
     * Netty's content is a slice, whose {@code duplicate()} and {@code retainedDuplicate()} are slices of the
     * whole window ({@code AbstractUnpooledSlicedByteBuf}: {@code slice(0, capacity()).setIndex(...)}), so they
     * start with the marks of a new slice, at 0; a consumer's {@code resetReaderIndex()} on them goes to 0. Found
     * by the random run.
     */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void aDuplicateStartsWithItsMarksAtZero(Kind kind) throws Exception {
        withContents(kind, (netty, view, twin, mine, frame) -> {
            for (ByteBuf content : List.of(netty, view)) {
                String side = content == netty ? "Netty's content" : "the view";
                content.setIndex(2, 5);
                ByteBuf duplicate = content.duplicate();
                assertEquals(0, duplicate.resetReaderIndex().readerIndex(), side + ".duplicate()");
                assertEquals(0, duplicate.resetWriterIndex().writerIndex(), side + ".duplicate()");
                ByteBuf retained = content.retainedDuplicate();
                try {
                    assertEquals(0, retained.resetReaderIndex().readerIndex(), side + ".retainedDuplicate()");
                    assertEquals(0, retained.resetWriterIndex().writerIndex(), side + ".retainedDuplicate()");
                } finally {
                    retained.release();
                }
            }
        });
    }

    /**
     * Netty's content checks a derived slice's index and length against its own capacity first
     * ({@code checkIndex0}), so a negative length is an {@code IndexOutOfBoundsException}, as every other
     * out-of-range slice. Found by the random run.
     */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void aSliceWithANegativeLengthIsOutOfBounds(Kind kind) throws Exception {
        withContents(kind, (netty, view, twin, mine, frame) -> {
            for (ByteBuf content : List.of(netty, view)) {
                String side = content == netty ? "Netty's content" : "the view";
                assertThrows(IndexOutOfBoundsException.class, () -> content.slice(1, -1), side + ".slice(1, -1)");
                assertThrows(IndexOutOfBoundsException.class, () -> content.retainedSlice(1, -1),
                        side + ".retainedSlice(1, -1)");
                assertThrows(IndexOutOfBoundsException.class, () -> content.duplicate().slice(1, -1),
                        side + ".duplicate().slice(1, -1)");
            }
        });
    }

    // The operations.

    private static Step step(String name, String args, Op op) {
        return new Step(name, args, op);
    }

    private static Step nextStep(Random r, int cap) {
        switch (r.nextInt(60)) {
            case 0: case 1: case 2: case 3: case 4: case 5:
                return absoluteGet(r, cap);
            case 6: case 7: case 8: case 9: case 10:
                return absoluteSet(r, cap);
            case 11: case 12: case 13: case 14:
                return relativeRead(r);
            case 15: case 16: case 17:
                return relativeWrite(r);
            case 18: {
                int i = index(r, cap);
                int n = length(r, cap);
                return step("setZero", "(" + i + ", " + n + ")", s -> self(s, s.buf.setZero(i, n)));
            }
            case 19: {
                int n = length(r, cap);
                return step("writeZero", "(" + n + ")", s -> self(s, s.buf.writeZero(n)));
            }
            case 20:
                return getBytesToArray(r, cap);
            case 21:
                return getBytesToBuf(r, cap);
            case 22:
                return getBytesToNio(r, cap);
            case 23:
                return getBytesToStream(r, cap);
            case 24:
                return setBytesFromArray(r, cap);
            case 25:
                return setBytesFromBuf(r, cap);
            case 26:
                return setBytesFromNio(r, cap);
            case 27:
                return setBytesFromStream(r, cap);
            case 28:
                return readBytesToArrayOrBuf(r, cap);
            case 29:
                return readBytesToNioOrStream(r, cap);
            case 30:
                return writeBytesFromArrayOrBuf(r, cap);
            case 31:
                return writeBytesFromNioOrStream(r, cap);
            case 32:
                return fileChannel(r, cap);
            case 33: case 34:
                return indexes(r, cap);
            case 35:
                return marks(r);
            case 36:
                return discardOrClear(r, cap);
            case 37: case 38: case 39: case 40:
                return derived(r, cap);
            case 41: case 42:
                return nio(r, cap);
            case 43:
                return arrayOrAddress(r, cap);
            case 44:
                return properties(r);
            case 45:
                return capacity(r, cap);
            case 46:
                return search(r, cap);
            case 47:
                return forEach(r, cap);
            case 48: case 49:
                return strings(r, cap);
            case 50: case 51:
                return writeStrings(r, cap);
            case 52:
                return comparisons(r, cap);
            default:
                return r.nextBoolean() ? absoluteGet(r, cap) : relativeRead(r);
        }
    }

    private interface Get {
        Object get(ByteBuf b, int index);
    }

    private static final String[] GET_NAMES = {"getBoolean", "getByte", "getUnsignedByte", "getShort",
        "getShortLE", "getUnsignedShort", "getUnsignedShortLE", "getMedium", "getMediumLE", "getUnsignedMedium",
        "getUnsignedMediumLE", "getInt", "getIntLE", "getUnsignedInt", "getUnsignedIntLE", "getLong", "getLongLE",
        "getChar", "getFloat", "getFloatLE", "getDouble", "getDoubleLE"};
    private static final Get[] GETS = {ByteBuf::getBoolean, ByteBuf::getByte, ByteBuf::getUnsignedByte,
        ByteBuf::getShort, ByteBuf::getShortLE, ByteBuf::getUnsignedShort, ByteBuf::getUnsignedShortLE,
        ByteBuf::getMedium, ByteBuf::getMediumLE, ByteBuf::getUnsignedMedium, ByteBuf::getUnsignedMediumLE,
        ByteBuf::getInt, ByteBuf::getIntLE, ByteBuf::getUnsignedInt, ByteBuf::getUnsignedIntLE, ByteBuf::getLong,
        ByteBuf::getLongLE, (b, i) -> (int) b.getChar(i), (b, i) -> Float.floatToRawIntBits(b.getFloat(i)),
        (b, i) -> Float.floatToRawIntBits(b.getFloatLE(i)), (b, i) -> Double.doubleToRawLongBits(b.getDouble(i)),
        (b, i) -> Double.doubleToRawLongBits(b.getDoubleLE(i))};

    private static Step absoluteGet(Random r, int cap) {
        int which = r.nextInt(GETS.length);
        int i = index(r, cap);
        return step(GET_NAMES[which], "(" + i + ")", s -> GETS[which].get(s.buf, i));
    }

    private interface SetOp {
        ByteBuf set(ByteBuf b, int index, long value);
    }

    private static final String[] SET_NAMES = {"setBoolean", "setByte", "setShort", "setShortLE", "setMedium",
        "setMediumLE", "setInt", "setIntLE", "setLong", "setLongLE", "setChar", "setFloat", "setFloatLE",
        "setDouble", "setDoubleLE"};
    private static final SetOp[] SETS = {(b, i, v) -> b.setBoolean(i, (v & 1) != 0), (b, i, v) -> b.setByte(i, (int) v),
        (b, i, v) -> b.setShort(i, (int) v), (b, i, v) -> b.setShortLE(i, (int) v),
        (b, i, v) -> b.setMedium(i, (int) v), (b, i, v) -> b.setMediumLE(i, (int) v),
        (b, i, v) -> b.setInt(i, (int) v), (b, i, v) -> b.setIntLE(i, (int) v), ByteBuf::setLong,
        ByteBuf::setLongLE, (b, i, v) -> b.setChar(i, (int) v),
        (b, i, v) -> b.setFloat(i, Float.intBitsToFloat((int) v)),
        (b, i, v) -> b.setFloatLE(i, Float.intBitsToFloat((int) v)),
        (b, i, v) -> b.setDouble(i, Double.longBitsToDouble(v)),
        (b, i, v) -> b.setDoubleLE(i, Double.longBitsToDouble(v))};

    private static Step absoluteSet(Random r, int cap) {
        int which = r.nextInt(SETS.length);
        int i = index(r, cap);
        long v = r.nextLong();
        return step(SET_NAMES[which], "(" + i + ", " + v + ")", s -> self(s, SETS[which].set(s.buf, i, v)));
    }

    private interface Read {
        Object read(ByteBuf b);
    }

    private static final String[] READ_NAMES = {"readBoolean", "readByte", "readUnsignedByte", "readShort",
        "readShortLE", "readUnsignedShort", "readUnsignedShortLE", "readMedium", "readMediumLE",
        "readUnsignedMedium", "readUnsignedMediumLE", "readInt", "readIntLE", "readUnsignedInt",
        "readUnsignedIntLE", "readLong", "readLongLE", "readChar", "readFloat", "readFloatLE", "readDouble",
        "readDoubleLE"};
    private static final Read[] READS = {ByteBuf::readBoolean, ByteBuf::readByte, ByteBuf::readUnsignedByte,
        ByteBuf::readShort, ByteBuf::readShortLE, ByteBuf::readUnsignedShort, ByteBuf::readUnsignedShortLE,
        ByteBuf::readMedium, ByteBuf::readMediumLE, ByteBuf::readUnsignedMedium, ByteBuf::readUnsignedMediumLE,
        ByteBuf::readInt, ByteBuf::readIntLE, ByteBuf::readUnsignedInt, ByteBuf::readUnsignedIntLE,
        ByteBuf::readLong, ByteBuf::readLongLE, b -> (int) b.readChar(),
        b -> Float.floatToRawIntBits(b.readFloat()), b -> Float.floatToRawIntBits(b.readFloatLE()),
        b -> Double.doubleToRawLongBits(b.readDouble()), b -> Double.doubleToRawLongBits(b.readDoubleLE())};

    private static Step relativeRead(Random r) {
        int which = r.nextInt(READS.length);
        return step(READ_NAMES[which], "()", s -> READS[which].read(s.buf));
    }

    private interface Write {
        ByteBuf write(ByteBuf b, long value);
    }

    private static final String[] WRITE_NAMES = {"writeBoolean", "writeByte", "writeShort", "writeShortLE",
        "writeMedium", "writeMediumLE", "writeInt", "writeIntLE", "writeLong", "writeLongLE", "writeChar",
        "writeFloat", "writeFloatLE", "writeDouble", "writeDoubleLE"};
    private static final Write[] WRITES = {(b, v) -> b.writeBoolean((v & 1) != 0), (b, v) -> b.writeByte((int) v),
        (b, v) -> b.writeShort((int) v), (b, v) -> b.writeShortLE((int) v), (b, v) -> b.writeMedium((int) v),
        (b, v) -> b.writeMediumLE((int) v), (b, v) -> b.writeInt((int) v), (b, v) -> b.writeIntLE((int) v),
        ByteBuf::writeLong, ByteBuf::writeLongLE, (b, v) -> b.writeChar((int) v),
        (b, v) -> b.writeFloat(Float.intBitsToFloat((int) v)), (b, v) -> b.writeFloatLE(Float.intBitsToFloat((int) v)),
        (b, v) -> b.writeDouble(Double.longBitsToDouble(v)), (b, v) -> b.writeDoubleLE(Double.longBitsToDouble(v))};

    private static Step relativeWrite(Random r) {
        int which = r.nextInt(WRITES.length);
        long v = r.nextLong();
        return step(WRITE_NAMES[which], "(" + v + ")", s -> self(s, WRITES[which].write(s.buf, v)));
    }

    private static Step getBytesToArray(Random r, int cap) {
        int i = index(r, cap);
        int size = r.nextInt(cap + 4);
        switch (r.nextInt(2)) {
            case 0:
                return step("getBytes(int, byte[])", "(" + i + ", [" + size + "])", s -> {
                    byte[] dst = filler(size);
                    return self(s, s.buf.getBytes(i, dst)) + " " + hex(dst);
                });
            default: {
                int dstIndex = index(r, size);
                int n = length(r, cap);
                return step("getBytes(int, byte[], int, int)", "(" + i + ", [" + size + "], " + dstIndex + ", " + n
                        + ")", s -> {
                    byte[] dst = filler(size);
                    return self(s, s.buf.getBytes(i, dst, dstIndex, n)) + " " + hex(dst);
                });
            }
        }
    }

    /** A destination buffer: heap or direct, of some capacity and writerIndex; or the buffer itself. */
    private static final class BufSpec {
        final boolean self;
        final boolean direct;
        final int capacity;
        final int writerIndex;
        final byte[] content;

        BufSpec(Random r, int cap) {
            self = r.nextInt(6) == 0;
            direct = r.nextBoolean();
            capacity = r.nextInt(cap + 8);
            writerIndex = r.nextInt(capacity + 1);
            content = bytes(r, capacity);
        }

        ByteBuf make(Side side) {
            if (self) {
                return side.buf;
            }
            ByteBuf b = direct ? Unpooled.directBuffer(capacity, capacity) : Unpooled.buffer(capacity, capacity);
            b.writeBytes(content);
            b.readerIndex(writerIndex / 2);
            b.writerIndex(writerIndex);
            return b;
        }

        String describe(ByteBuf b) {
            if (self) {
                return "self";
            }
            try {
                return "r=" + b.readerIndex() + " w=" + b.writerIndex() + " " + ByteBufUtil.hexDump(b, 0, b.capacity());
            } finally {
                b.release();
            }
        }

        @Override
        public String toString() {
            return self ? "self" : (direct ? "direct" : "heap") + "[" + capacity + ", w=" + writerIndex + "]";
        }
    }

    private static Step getBytesToBuf(Random r, int cap) {
        int i = index(r, cap);
        BufSpec spec = new BufSpec(r, cap);
        int dstIndex = index(r, spec.capacity);
        int n = length(r, cap);
        switch (r.nextInt(3)) {
            case 0:
                return step("getBytes(int, ByteBuf)", "(" + i + ", " + spec + ")", s -> {
                    ByteBuf dst = spec.make(s);
                    return attempt(() -> self(s, s.buf.getBytes(i, dst))) + " " + spec.describe(dst);
                });
            case 1:
                return step("getBytes(int, ByteBuf, int)", "(" + i + ", " + spec + ", " + n + ")", s -> {
                    ByteBuf dst = spec.make(s);
                    return attempt(() -> self(s, s.buf.getBytes(i, dst, n))) + " " + spec.describe(dst);
                });
            default:
                return step("getBytes(int, ByteBuf, int, int)", "(" + i + ", " + spec + ", " + dstIndex + ", " + n
                        + ")", s -> {
                    ByteBuf dst = spec.make(s);
                    return attempt(() -> self(s, s.buf.getBytes(i, dst, dstIndex, n))) + " " + spec.describe(dst);
                });
        }
    }

    /** A java.nio buffer: heap, direct or read-only, of some capacity and position. */
    private static final class NioSpec {
        final int kind;
        final int capacity;
        final int position;
        final byte[] content;

        NioSpec(Random r, int cap) {
            kind = r.nextInt(5);
            capacity = r.nextInt(cap + 8);
            position = r.nextInt(capacity + 1);
            content = bytes(r, capacity);
        }

        ByteBuffer make() {
            ByteBuffer b = kind == 1 ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
            b.put(content).clear().position(position);
            return kind == 2 ? b.asReadOnlyBuffer() : b;
        }

        @Override
        public String toString() {
            return (kind == 1 ? "direct" : kind == 2 ? "read-only" : "heap") + "[" + capacity + ", pos=" + position
                    + "]";
        }
    }

    private static Step getBytesToNio(Random r, int cap) {
        int i = index(r, cap);
        NioSpec spec = new NioSpec(r, cap);
        return step("getBytes(int, ByteBuffer)", "(" + i + ", " + spec + ")", s -> {
            ByteBuffer dst = spec.make();
            return attempt(() -> self(s, s.buf.getBytes(i, dst))) + " " + describe(dst);
        });
    }

    private static Step getBytesToStream(Random r, int cap) {
        int i = index(r, cap);
        int n = length(r, cap);
        if (r.nextBoolean()) {
            return step("getBytes(int, OutputStream, int)", "(" + i + ", " + n + ")", s -> {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                return attempt(() -> self(s, s.buf.getBytes(i, out, n))) + " " + hex(out.toByteArray());
            });
        }
        return step("getBytes(int, GatheringByteChannel, int)", "(" + i + ", " + n + ")", s -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            return attempt(() -> s.buf.getBytes(i, new Sink(out), n)) + " " + hex(out.toByteArray());
        });
    }

    private static Step setBytesFromArray(Random r, int cap) {
        int i = index(r, cap);
        byte[] src = bytes(r, r.nextInt(cap + 4));
        if (r.nextBoolean()) {
            return step("setBytes(int, byte[])", "(" + i + ", [" + src.length + "])",
                    s -> self(s, s.buf.setBytes(i, src.clone())));
        }
        int srcIndex = index(r, src.length);
        int n = length(r, cap);
        return step("setBytes(int, byte[], int, int)", "(" + i + ", [" + src.length + "], " + srcIndex + ", " + n
                + ")", s -> self(s, s.buf.setBytes(i, src.clone(), srcIndex, n)));
    }

    private static Step setBytesFromBuf(Random r, int cap) {
        int i = index(r, cap);
        BufSpec spec = new BufSpec(r, cap);
        int srcIndex = index(r, spec.capacity);
        int n = length(r, cap);
        switch (r.nextInt(3)) {
            case 0:
                return step("setBytes(int, ByteBuf)", "(" + i + ", " + spec + ")", s -> {
                    ByteBuf src = spec.make(s);
                    return attempt(() -> self(s, s.buf.setBytes(i, src))) + " " + spec.describe(src);
                });
            case 1:
                return step("setBytes(int, ByteBuf, int)", "(" + i + ", " + spec + ", " + n + ")", s -> {
                    ByteBuf src = spec.make(s);
                    return attempt(() -> self(s, s.buf.setBytes(i, src, n))) + " " + spec.describe(src);
                });
            default:
                return step("setBytes(int, ByteBuf, int, int)", "(" + i + ", " + spec + ", " + srcIndex + ", " + n
                        + ")", s -> {
                    ByteBuf src = spec.make(s);
                    return attempt(() -> self(s, s.buf.setBytes(i, src, srcIndex, n))) + " " + spec.describe(src);
                });
        }
    }

    private static Step setBytesFromNio(Random r, int cap) {
        int i = index(r, cap);
        NioSpec spec = new NioSpec(r, cap);
        return step("setBytes(int, ByteBuffer)", "(" + i + ", " + spec + ")", s -> {
            ByteBuffer src = spec.make();
            return attempt(() -> self(s, s.buf.setBytes(i, src))) + " " + describe(src);
        });
    }

    private static Step setBytesFromStream(Random r, int cap) {
        int i = index(r, cap);
        int n = length(r, cap);
        byte[] src = bytes(r, r.nextInt(cap + 4));
        if (r.nextBoolean()) {
            return step("setBytes(int, InputStream, int)", "(" + i + ", [" + src.length + "], " + n + ")", s -> {
                ByteArrayInputStream in = new ByteArrayInputStream(src);
                return attempt(() -> s.buf.setBytes(i, in, n)) + " left=" + in.available();
            });
        }
        return step("setBytes(int, ScatteringByteChannel, int)", "(" + i + ", [" + src.length + "], " + n + ")",
            s -> {
                Source in = new Source(src);
                return attempt(() -> s.buf.setBytes(i, in, n)) + " left=" + in.left();
            });
    }

    private static Step readBytesToArrayOrBuf(Random r, int cap) {
        int size = r.nextInt(cap + 4);
        int dstIndex = index(r, size);
        int n = length(r, cap);
        BufSpec spec = new BufSpec(r, cap);
        int bufDstIndex = index(r, spec.capacity);
        switch (r.nextInt(5)) {
            case 0:
                return step("readBytes(byte[])", "([" + size + "])", s -> {
                    byte[] dst = filler(size);
                    return self(s, s.buf.readBytes(dst)) + " " + hex(dst);
                });
            case 1:
                return step("readBytes(byte[], int, int)", "([" + size + "], " + dstIndex + ", " + n + ")", s -> {
                    byte[] dst = filler(size);
                    return self(s, s.buf.readBytes(dst, dstIndex, n)) + " " + hex(dst);
                });
            case 2:
                return step("readBytes(ByteBuf)", "(" + spec + ")", s -> {
                    ByteBuf dst = spec.make(s);
                    return attempt(() -> self(s, s.buf.readBytes(dst))) + " " + spec.describe(dst);
                });
            case 3:
                return step("readBytes(ByteBuf, int)", "(" + spec + ", " + n + ")", s -> {
                    ByteBuf dst = spec.make(s);
                    return attempt(() -> self(s, s.buf.readBytes(dst, n))) + " " + spec.describe(dst);
                });
            default:
                return step("readBytes(ByteBuf, int, int)", "(" + spec + ", " + bufDstIndex + ", " + n + ")", s -> {
                    ByteBuf dst = spec.make(s);
                    return attempt(() -> self(s, s.buf.readBytes(dst, bufDstIndex, n))) + " " + spec.describe(dst);
                });
        }
    }

    private static Step readBytesToNioOrStream(Random r, int cap) {
        NioSpec spec = new NioSpec(r, cap);
        int n = length(r, cap);
        switch (r.nextInt(3)) {
            case 0:
                return step("readBytes(ByteBuffer)", "(" + spec + ")", s -> {
                    ByteBuffer dst = spec.make();
                    return attempt(() -> self(s, s.buf.readBytes(dst))) + " " + describe(dst);
                });
            case 1:
                return step("readBytes(OutputStream, int)", "(" + n + ")", s -> {
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    return attempt(() -> self(s, s.buf.readBytes(out, n))) + " " + hex(out.toByteArray());
                });
            default:
                return step("readBytes(GatheringByteChannel, int)", "(" + n + ")", s -> {
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    return attempt(() -> s.buf.readBytes(new Sink(out), n)) + " " + hex(out.toByteArray());
                });
        }
    }

    private static Step writeBytesFromArrayOrBuf(Random r, int cap) {
        byte[] src = bytes(r, r.nextInt(cap + 4));
        int srcIndex = index(r, src.length);
        int n = length(r, cap);
        BufSpec spec = new BufSpec(r, cap);
        int bufSrcIndex = index(r, spec.capacity);
        switch (r.nextInt(5)) {
            case 0:
                return step("writeBytes(byte[])", "([" + src.length + "])", s -> self(s, s.buf.writeBytes(src.clone())));
            case 1:
                return step("writeBytes(byte[], int, int)", "([" + src.length + "], " + srcIndex + ", " + n + ")",
                    s -> self(s, s.buf.writeBytes(src.clone(), srcIndex, n)));
            case 2:
                return step("writeBytes(ByteBuf)", "(" + spec + ")", s -> {
                    ByteBuf b = spec.make(s);
                    return attempt(() -> self(s, s.buf.writeBytes(b))) + " " + spec.describe(b);
                });
            case 3:
                return step("writeBytes(ByteBuf, int)", "(" + spec + ", " + n + ")", s -> {
                    ByteBuf b = spec.make(s);
                    return attempt(() -> self(s, s.buf.writeBytes(b, n))) + " " + spec.describe(b);
                });
            default:
                return step("writeBytes(ByteBuf, int, int)", "(" + spec + ", " + bufSrcIndex + ", " + n + ")", s -> {
                    ByteBuf b = spec.make(s);
                    return attempt(() -> self(s, s.buf.writeBytes(b, bufSrcIndex, n))) + " " + spec.describe(b);
                });
        }
    }

    private static Step writeBytesFromNioOrStream(Random r, int cap) {
        NioSpec spec = new NioSpec(r, cap);
        int n = length(r, cap);
        byte[] src = bytes(r, r.nextInt(cap + 4));
        switch (r.nextInt(3)) {
            case 0:
                return step("writeBytes(ByteBuffer)", "(" + spec + ")", s -> {
                    ByteBuffer b = spec.make();
                    return attempt(() -> self(s, s.buf.writeBytes(b))) + " " + describe(b);
                });
            case 1:
                return step("writeBytes(InputStream, int)", "([" + src.length + "], " + n + ")", s -> {
                    ByteArrayInputStream in = new ByteArrayInputStream(src);
                    return attempt(() -> s.buf.writeBytes(in, n)) + " left=" + in.available();
                });
            default:
                return step("writeBytes(ScatteringByteChannel, int)", "([" + src.length + "], " + n + ")", s -> {
                    Source in = new Source(src);
                    return attempt(() -> s.buf.writeBytes(in, n)) + " left=" + in.left();
                });
        }
    }

    private interface FileOp {
        Object apply(Side side, FileChannel file) throws IOException;
    }

    /** The FileChannel transfers, on a scratch file of each side that starts with the same bytes. */
    private static Step fileChannel(Random r, int cap) {
        byte[] content = bytes(r, r.nextInt(cap + 8));
        int i = index(r, cap);
        int n = length(r, cap);
        long position = r.nextInt(8) == 0 ? -1 : r.nextInt(content.length + 4);
        String args;
        FileOp op;
        switch (r.nextInt(4)) {
            case 0:
                args = "getBytes(int, FileChannel, long, int)(" + i + ", " + position + ", " + n + ")";
                op = (s, f) -> s.buf.getBytes(i, f, position, n);
                break;
            case 1:
                args = "setBytes(int, FileChannel, long, int)(" + i + ", " + position + ", " + n + ")";
                op = (s, f) -> s.buf.setBytes(i, f, position, n);
                break;
            case 2:
                args = "readBytes(FileChannel, long, int)(" + position + ", " + n + ")";
                op = (s, f) -> s.buf.readBytes(f, position, n);
                break;
            default:
                args = "writeBytes(FileChannel, long, int)(" + position + ", " + n + ")";
                op = (s, f) -> s.buf.writeBytes(f, position, n);
                break;
        }
        String name = args.substring(0, args.indexOf(")(") + 1);
        return step(name, args.substring(name.length()) + " [" + content.length + "]", s -> {
            FileChannel f = s.file;
            f.truncate(0);
            f.write(ByteBuffer.wrap(content), 0);
            f.position(0);
            String result = attempt(() -> op.apply(s, f));
            ByteBuffer after = ByteBuffer.allocate((int) f.size());
            f.read(after, 0);
            return result + " file=" + hex(after.array());
        });
    }

    private static Step indexes(Random r, int cap) {
        int a = index(r, cap);
        int b = index(r, cap);
        switch (r.nextInt(7)) {
            case 0:
                return step("readerIndex(int)", "(" + a + ")", s -> self(s, s.buf.readerIndex(a)));
            case 1:
                return step("writerIndex(int)", "(" + a + ")", s -> self(s, s.buf.writerIndex(a)));
            case 2:
                return step("setIndex", "(" + a + ", " + b + ")", s -> self(s, s.buf.setIndex(a, b)));
            case 3: {
                int n = length(r, cap);
                return step("skipBytes", "(" + n + ")", s -> self(s, s.buf.skipBytes(n)));
            }
            case 4:
                return step("isReadable(int)", "(" + (a - b) + ")", s -> s.buf.isReadable(a - b));
            case 5:
                return step("isWritable(int)", "(" + (a - b) + ")", s -> s.buf.isWritable(a - b));
            default:
                return step("readerIndex()/writerIndex()", "", s -> s.buf.readerIndex() + "/" + s.buf.writerIndex());
        }
    }

    private static Step marks(Random r) {
        switch (r.nextInt(4)) {
            case 0:
                return step("markReaderIndex", "()", s -> self(s, s.buf.markReaderIndex()));
            case 1:
                return step("resetReaderIndex", "()", s -> self(s, s.buf.resetReaderIndex()));
            case 2:
                return step("markWriterIndex", "()", s -> self(s, s.buf.markWriterIndex()));
            default:
                return step("resetWriterIndex", "()", s -> self(s, s.buf.resetWriterIndex()));
        }
    }

    private static Step discardOrClear(Random r, int cap) {
        switch (r.nextInt(3)) {
            case 0:
                return step("discardReadBytes", "()", s -> self(s, s.buf.discardReadBytes()));
            case 1:
                return step("discardSomeReadBytes", "()", s -> self(s, s.buf.discardSomeReadBytes()));
            default:
                return step("clear", "()", s -> self(s, s.buf.clear()));
        }
    }

    private interface Derive {
        ByteBuf derive(ByteBuf b);
    }

    /**
     * Derived buffers: their indexes, capacities, marks (reset right away) and window, then a write through them,
     * whose effect on the input {@link #compareState} compares; released if they hold a reference.
     */
    private static Step derived(Random r, int cap) {
        int i = index(r, cap);
        int n = length(r, cap);
        int where = r.nextInt(1 << 16);
        int value = r.nextInt(256);
        String name;
        Derive derive;
        boolean owned = false;
        switch (r.nextInt(16)) {
            case 0: name = "slice()"; derive = ByteBuf::slice; break;
            case 1: name = "slice(int, int)"; derive = b -> b.slice(i, n); break;
            case 2: name = "duplicate()"; derive = ByteBuf::duplicate; break;
            case 3: name = "retainedSlice()"; derive = ByteBuf::retainedSlice; owned = true; break;
            case 4: name = "retainedSlice(int, int)"; derive = b -> b.retainedSlice(i, n); owned = true; break;
            case 5: name = "retainedDuplicate()"; derive = ByteBuf::retainedDuplicate; owned = true; break;
            case 6: name = "copy()"; derive = ByteBuf::copy; owned = true; break;
            case 7: name = "copy(int, int)"; derive = b -> b.copy(i, n); owned = true; break;
            case 8: name = "readSlice(int)"; derive = b -> b.readSlice(n); break;
            case 9: name = "readRetainedSlice(int)"; derive = b -> b.readRetainedSlice(n); owned = true; break;
            case 10: name = "readBytes(int)"; derive = b -> b.readBytes(n); owned = true; break;
            case 11: name = "asReadOnly()"; derive = ByteBuf::asReadOnly; break;
            case 12: name = "order(LITTLE_ENDIAN)"; derive = b -> b.order(ByteOrder.LITTLE_ENDIAN); break;
            case 13: name = "order(BIG_ENDIAN)"; derive = b -> b.order(ByteOrder.BIG_ENDIAN); break;
            case 14: name = "slice().slice(int, int)"; derive = b -> b.slice().slice(i, n); break;
            default: name = "duplicate().retainedSlice(int, int)"; derive = b -> b.duplicate().retainedSlice(i, n);
                owned = true; break;
        }
        boolean release = owned;
        return step(name, "(" + i + ", " + n + ") write@" + where + "=" + value, s -> {
            ByteBuf d = derive.derive(s.buf);
            if (d == s.buf) {
                return "this";
            }
            return describeDerived(d, release, where, value);
        });
    }

    private static String describeDerived(ByteBuf d, boolean release, int where, int value) {
        StringBuilder out = new StringBuilder();
        try {
            out.append("ridx=").append(d.readerIndex()).append(" widx=").append(d.writerIndex()).append(" cap=")
                    .append(d.capacity()).append('/').append(d.maxCapacity()).append(" readOnly=")
                    .append(d.isReadOnly()).append(" direct=").append(d.isDirect()).append(" window=")
                    .append(ByteBufUtil.hexDump(d, 0, d.capacity()));
            if (d.capacity() >= 8) {
                out.append(" getLong(0)=").append(d.getLong(0));
            }
            // A new buffer's marks are part of what it is: a consumer may reset to them.
            out.append(" resetReaderIndex=").append(attempt(() -> d.resetReaderIndex().readerIndex()));
            out.append(" resetWriterIndex=").append(attempt(() -> d.resetWriterIndex().writerIndex()));
            if (d.capacity() > 0) {
                out.append(" setByte=").append(attempt(() -> d.setByte(where % d.capacity(), value) == d));
            }
        } finally {
            if (release) {
                out.append(" release=").append(d.release());
            }
        }
        return out.toString();
    }

    private static Step nio(Random r, int cap) {
        int i = index(r, cap);
        int n = length(r, cap);
        int where = r.nextInt(1 << 16);
        int value = r.nextInt(256);
        String args = "(" + i + ", " + n + ") write@" + where + "=" + value;
        switch (r.nextInt(6)) {
            case 0:
                return step("nioBufferCount", "()", s -> s.buf.nioBufferCount());
            case 1:
                return step("nioBuffer()", args, s -> describeAndWrite(s.buf.nioBuffer(), where, value));
            case 2:
                return step("nioBuffer(int, int)", args, s -> describeAndWrite(s.buf.nioBuffer(i, n), where, value));
            case 3:
                return step("internalNioBuffer(int, int)", args,
                    s -> describeAndWrite(s.buf.internalNioBuffer(i, n), where, value));
            case 4:
                return step("nioBuffers()", args, s -> describeAndWrite(s.buf.nioBuffers(), where, value));
            default:
                return step("nioBuffers(int, int)", args, s -> describeAndWrite(s.buf.nioBuffers(i, n), where, value));
        }
    }

    private static String describeAndWrite(ByteBuffer[] buffers, int where, int value) {
        StringBuilder out = new StringBuilder().append(buffers.length).append(':');
        for (ByteBuffer b : buffers) {
            out.append(' ').append(describe(b));
        }
        for (ByteBuffer b : buffers) {
            if (b.hasRemaining() && !b.isReadOnly()) {
                b.put(b.position() + where % b.remaining(), (byte) value);
                break;
            }
        }
        return out.toString();
    }

    /** Describes, then writes a byte through it: where it lands (the input or a copy) must agree. */
    private static String describeAndWrite(ByteBuffer b, int where, int value) {
        String described = describe(b);
        if (b.hasRemaining() && !b.isReadOnly()) {
            b.put(b.position() + where % b.remaining(), (byte) value);
        }
        return described;
    }

    /** The array and memory address: compared by the bytes they address, and written through. */
    private static Step arrayOrAddress(Random r, int cap) {
        int where = r.nextInt(1 << 16);
        int value = r.nextInt(256);
        if (r.nextBoolean()) {
            return step("hasArray/array/arrayOffset", "() write@" + where + "=" + value, s -> {
                ByteBuf b = s.buf;
                if (!b.hasArray()) {
                    return "no array: " + attempt(b::array) + ", " + attempt(b::arrayOffset);
                }
                byte[] array = b.array();
                int offset = b.arrayOffset();
                String addressed = hex(array, offset, b.capacity());
                if (b.capacity() > 0) {
                    array[offset + where % b.capacity()] = (byte) value;
                }
                return addressed;
            });
        }
        return step("hasMemoryAddress/memoryAddress", "() write@" + where + "=" + value, s -> {
            ByteBuf b = s.buf;
            if (!b.hasMemoryAddress()) {
                return "no address: " + attempt(b::memoryAddress);
            }
            long address = b.memoryAddress();
            byte[] addressed = new byte[b.capacity()];
            for (int k = 0; k < addressed.length; k++) {
                addressed[k] = PlatformDependent.getByte(address + k);
            }
            if (b.capacity() > 0) {
                PlatformDependent.putByte(address + where % b.capacity(), (byte) value);
            }
            return hex(addressed);
        });
    }

    private static Step properties(Random r) {
        switch (r.nextInt(8)) {
            case 0:
                return step("isDirect", "()", s -> s.buf.isDirect());
            case 1:
                return step("isReadOnly", "()", s -> s.buf.isReadOnly());
            case 2:
                return step("isContiguous", "()", s -> s.buf.isContiguous());
            case 3:
                return step("alloc", "()", s -> identity(s.buf.alloc()));
            case 4:
                return step("order()", "()", s -> s.buf.order());
            case 5:
                return step("asByteBuf", "()", s -> self(s, s.buf.asByteBuf()));
            case 6:
                return step("toString()", "()", s -> indexesIn(s.buf.toString()));
            default:
                return step("hasArray/hasMemoryAddress", "()", s -> s.buf.hasArray() + " " + s.buf.hasMemoryAddress());
        }
    }

    private static Step capacity(Random r, int cap) {
        int n;
        switch (r.nextInt(6)) {
            case 0: n = cap; break;
            case 1: n = cap - 1; break;
            case 2: n = cap + 1; break;
            case 3: n = 0; break;
            case 4: n = -1 - r.nextInt(3); break;
            default: n = r.nextInt(cap + 16); break;
        }
        boolean force = r.nextBoolean();
        switch (r.nextInt(4)) {
            case 0:
                return step("capacity()/maxCapacity()", "()", s -> s.buf.capacity() + "/" + s.buf.maxCapacity());
            case 1:
                return step("capacity(int)", "(" + n + ")", s -> self(s, s.buf.capacity(n)));
            case 2:
                return step("ensureWritable(int)", "(" + n + ")", s -> self(s, s.buf.ensureWritable(n)));
            default:
                return step("ensureWritable(int, boolean)", "(" + n + ", " + force + ")",
                    s -> s.buf.ensureWritable(n, force));
        }
    }

    private static Step search(Random r, int cap) {
        int from = index(r, cap);
        int to = index(r, cap);
        int i = index(r, cap);
        int n = length(r, cap);
        // Half the time a byte that is likely there: the random payloads use few distinct values.
        byte value = (byte) (r.nextBoolean() ? r.nextInt(8) : r.nextInt(256));
        switch (r.nextInt(4)) {
            case 0:
                return step("indexOf", "(" + from + ", " + to + ", " + value + ")", s -> s.buf.indexOf(from, to, value));
            case 1:
                return step("bytesBefore(byte)", "(" + value + ")", s -> s.buf.bytesBefore(value));
            case 2:
                return step("bytesBefore(int, byte)", "(" + n + ", " + value + ")", s -> s.buf.bytesBefore(n, value));
            default:
                return step("bytesBefore(int, int, byte)", "(" + i + ", " + n + ", " + value + ")",
                    s -> s.buf.bytesBefore(i, n, value));
        }
    }

    /** A processor that records what it is shown, and stops at a value, or after a count, or throws. */
    private static final class Recorder implements ByteProcessor {
        private final int stopAt;
        private final int throwAfter;
        final StringBuilder seen = new StringBuilder();
        private int count;

        Recorder(int stopAt, int throwAfter) {
            this.stopAt = stopAt;
            this.throwAfter = throwAfter;
        }

        @Override
        public boolean process(byte value) {
            if (count++ == throwAfter) {
                throw new IllegalStateException("processor fails");
            }
            seen.append(ByteBufUtil.hexDump(new byte[] {value}));
            return value != stopAt;
        }
    }

    private static Step forEach(Random r, int cap) {
        int i = index(r, cap);
        int n = length(r, cap);
        int stopAt = r.nextBoolean() ? r.nextInt(8) : 1000;
        int throwAfter = r.nextInt(6) == 0 ? r.nextInt(cap + 1) : -1;
        String args = "(" + i + ", " + n + ") stopAt=" + stopAt + " throwAfter=" + throwAfter;
        Recorder[] recorder = new Recorder[1];
        Op result;
        String name;
        switch (r.nextInt(4)) {
            case 0:
                name = "forEachByte(ByteProcessor)";
                result = s -> s.buf.forEachByte(recorder[0]);
                break;
            case 1:
                name = "forEachByte(int, int, ByteProcessor)";
                result = s -> s.buf.forEachByte(i, n, recorder[0]);
                break;
            case 2:
                name = "forEachByteDesc(ByteProcessor)";
                result = s -> s.buf.forEachByteDesc(recorder[0]);
                break;
            default:
                name = "forEachByteDesc(int, int, ByteProcessor)";
                result = s -> s.buf.forEachByteDesc(i, n, recorder[0]);
                break;
        }
        return step(name, args, s -> {
            recorder[0] = new Recorder(stopAt, throwAfter);
            return attempt(() -> result.apply(s)) + " seen=" + recorder[0].seen;
        });
    }

    private static final Charset[] CHARSETS = {CharsetUtil.UTF_8, CharsetUtil.US_ASCII, CharsetUtil.ISO_8859_1,
        CharsetUtil.UTF_16, CharsetUtil.UTF_16LE};

    /**
     * Before 4.2.20 Netty does not check the bounds of its charset reads: out of range they read past the writer
     * index, or beyond the buffer into whatever memory follows, or ask for an array no JVM makes. Those calls are
     * compared from 4.2.20 on only; before, they are this.
     */
    private static final String UNCHECKED = "out of range, unchecked before Netty 4.2.20";

    private static boolean inCapacity(ByteBuf buf, int index, int length) {
        return NettyRelease.atLeast(20) || index >= 0 && length >= 0 && index <= buf.capacity() - length;
    }

    private static boolean readable(ByteBuf buf, int length) {
        return NettyRelease.atLeast(20) || length >= 0 && length <= buf.readableBytes();
    }

    private static Step strings(Random r, int cap) {
        Charset charset = CHARSETS[r.nextInt(CHARSETS.length)];
        int i = index(r, cap);
        int n = length(r, cap);
        switch (r.nextInt(5)) {
            case 0:
                return step("toString(Charset)", "(" + charset + ")", s -> s.buf.toString(charset));
            case 1:
                return step("toString(int, int, Charset)", "(" + i + ", " + n + ", " + charset + ")",
                    s -> inCapacity(s.buf, i, n) ? s.buf.toString(i, n, charset) : UNCHECKED);
            case 2:
                return step("getCharSequence", "(" + i + ", " + n + ", " + charset + ")",
                    s -> inCapacity(s.buf, i, n) ? typed(s.buf.getCharSequence(i, n, charset)) : UNCHECKED);
            case 3:
                return step("readCharSequence", "(" + n + ", " + charset + ")",
                    s -> readable(s.buf, n) ? typed(s.buf.readCharSequence(n, charset)) : UNCHECKED);
            default:
                return step("readString", "(" + n + ", " + charset + ")",
                    s -> readable(s.buf, n) ? s.buf.readString(n, charset) : UNCHECKED);
        }
    }

    private static Step writeStrings(Random r, int cap) {
        Charset charset = CHARSETS[r.nextInt(CHARSETS.length)];
        int i = index(r, cap);
        String text;
        switch (r.nextInt(6)) {
            case 0: text = ""; break;
            case 1: text = "h\u00e9llo \u20ac"; break;
            case 2: text = "\uD83D\uDE00x"; break;
            case 3: text = "\uD800 lone"; break;
            default: text = new String(asciiChars(r, r.nextInt(cap + 4))); break;
        }
        int form = r.nextInt(3);
        String args = "(\"" + text + "\" as " + (form == 0 ? "String" : form == 1 ? "AsciiString" : "StringBuilder")
                + ", " + charset + ")";
        if (r.nextBoolean()) {
            return step("setCharSequence", "(" + i + ", " + args.substring(1),
                s -> s.buf.setCharSequence(i, sequence(text, form), charset));
        }
        return step("writeCharSequence", args, s -> s.buf.writeCharSequence(sequence(text, form), charset));
    }

    private static CharSequence sequence(String text, int form) {
        return form == 0 ? text : form == 1 ? new AsciiString(text) : new StringBuilder(text);
    }

    /** equals, compareTo and hashCode against a third buffer, from both sides. */
    private static Step comparisons(Random r, int cap) {
        int kind = r.nextInt(4);
        int where = r.nextInt(1 << 16);
        byte[] random = bytes(r, r.nextInt(cap + 2));
        return step("equals/compareTo/hashCode", "(other " + kind + ")", s -> {
            ByteBuf b = s.buf;
            ByteBuf other;
            switch (kind) {
                case 0:
                    other = Unpooled.wrappedBuffer(random);
                    break;
                case 1:
                    // The same readable bytes: equal.
                    other = Unpooled.wrappedBuffer(ByteBufUtil.getBytes(b));
                    break;
                case 2: {
                    // The same bytes but one.
                    byte[] bytes = ByteBufUtil.getBytes(b);
                    if (bytes.length > 0) {
                        bytes[where % bytes.length]++;
                    }
                    other = Unpooled.wrappedBuffer(bytes);
                    break;
                }
                default:
                    return b.equals(b.duplicate()) + " " + b.equals(null) + " " + b.equals("x") + " "
                            + b.hashCode();
            }
            return b.equals(other) + " " + other.equals(b) + " " + b.compareTo(other) + " " + other.compareTo(b)
                    + " " + b.hashCode();
        });
    }

    // Helpers.

    /** A channel that collects what is written to it. */
    private static final class Sink implements GatheringByteChannel {
        private final ByteArrayOutputStream out;

        Sink(ByteArrayOutputStream out) {
            this.out = out;
        }

        @Override
        public int write(ByteBuffer src) {
            byte[] bytes = new byte[src.remaining()];
            src.get(bytes);
            out.write(bytes, 0, bytes.length);
            return bytes.length;
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) {
            long written = 0;
            for (int k = offset; k < offset + length; k++) {
                written += write(srcs[k]);
            }
            return written;
        }

        @Override
        public long write(ByteBuffer[] srcs) {
            return write(srcs, 0, srcs.length);
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    /** A channel that gives the bytes it was made with, then end of stream. */
    private static final class Source implements ScatteringByteChannel {
        private final byte[] bytes;
        private int position;

        Source(byte[] bytes) {
            this.bytes = bytes;
        }

        int left() {
            return bytes.length - position;
        }

        @Override
        public int read(ByteBuffer dst) {
            if (position == bytes.length) {
                return -1;
            }
            int n = Math.min(dst.remaining(), left());
            dst.put(bytes, position, n);
            position += n;
            return n;
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) {
            long read = 0;
            for (int k = offset; k < offset + length; k++) {
                int n = read(dsts[k]);
                if (n < 0) {
                    return read == 0 ? -1 : read;
                }
                read += n;
            }
            return read;
        }

        @Override
        public long read(ByteBuffer[] dsts) {
            return read(dsts, 0, dsts.length);
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    /** {@code "this"} when a method returns its receiver, as both buffers' methods do. */
    private static String self(Side side, ByteBuf returned) {
        return returned == side.buf ? "this" : "another buffer: " + returned;
    }

    private interface Attempt {
        Object get() throws Exception;
    }

    private static String attempt(Attempt attempt) {
        try {
            return String.valueOf(attempt.get());
        } catch (RuntimeException | IOException e) {
            return "threw " + e.getClass().getName();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static String typed(CharSequence sequence) {
        return sequence.getClass().getSimpleName() + ":" + sequence;
    }

    private static String identity(Object o) {
        return o.getClass().getName() + "@" + System.identityHashCode(o);
    }

    private static final Pattern INDEXES = Pattern.compile("\\(ridx: \\d+, widx: \\d+, cap: \\d+(/\\d+)?");

    /** The indexes and capacities in a buffer's {@code toString()}, without the class names around them. */
    private static String indexesIn(String toString) {
        Matcher m = INDEXES.matcher(toString);
        return m.find() ? m.group() : toString;
    }

    private static String describe(ByteBuffer b) {
        ByteBuffer remaining = b.duplicate();
        byte[] content = new byte[remaining.remaining()];
        remaining.get(content);
        return "pos=" + b.position() + " lim=" + b.limit() + " cap=" + b.capacity() + " direct=" + b.isDirect()
                + " readOnly=" + b.isReadOnly() + " order=" + b.order() + " " + hex(content);
    }

    private static String hex(byte[] bytes) {
        return ByteBufUtil.hexDump(bytes);
    }

    private static String hex(byte[] bytes, int from, int length) {
        if (from < 0 || length < 0 || from + length > bytes.length) {
            return "out of the array: " + from + "+" + length + " of " + bytes.length;
        }
        return ByteBufUtil.hexDump(bytes, from, length);
    }

    private static byte[] filler(int size) {
        byte[] b = new byte[size];
        for (int k = 0; k < size; k++) {
            b[k] = (byte) (0xF0 | k);
        }
        return b;
    }

    /** Random bytes, from a small alphabet so that searches find something. */
    private static byte[] bytes(Random r, int n) {
        byte[] b = new byte[n];
        for (int k = 0; k < n; k++) {
            b[k] = (byte) (r.nextInt(4) == 0 ? r.nextInt(256) : r.nextInt(8));
        }
        return b;
    }

    private static char[] asciiChars(Random r, int n) {
        char[] c = new char[n];
        for (int k = 0; k < n; k++) {
            c[k] = (char) (' ' + r.nextInt(95));
        }
        return c;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static int payloadLength(Random r) {
        switch (r.nextInt(10)) {
            case 0: return 0;
            case 1: return 1;
            case 2: return 1000 + r.nextInt(1000);
            case 3: case 4: return 2 + r.nextInt(8);
            default: return 10 + r.nextInt(200);
        }
    }

    /** An index: mostly in [0, cap], sometimes just outside, sometimes at the extremes of int. */
    private static int index(Random r, int cap) {
        switch (r.nextInt(20)) {
            case 0: return -1 - r.nextInt(4);
            case 1: return cap + 1 + r.nextInt(4);
            case 2: return r.nextBoolean() ? Integer.MAX_VALUE - r.nextInt(2) : Integer.MIN_VALUE + r.nextInt(2);
            case 3: case 4: return Math.max(0, cap - r.nextInt(9));
            default: return r.nextInt(cap + 1);
        }
    }

    /** A length: mostly short, sometimes the whole capacity, sometimes negative or huge. */
    private static int length(Random r, int cap) {
        switch (r.nextInt(20)) {
            case 0: return -1 - r.nextInt(3);
            case 1: return cap + r.nextInt(3);
            case 2: return Integer.MAX_VALUE - r.nextInt(2);
            case 3: case 4: return r.nextInt(cap + 1);
            default: return r.nextInt(Math.min(cap, 16) + 1);
        }
    }

    private static boolean isLeakAware(ByteBuf buf) {
        String name = buf.getClass().getName();
        return name.startsWith("io.netty.buffer.") && name.contains("LeakAware");
    }

    private static ByteBuf withoutLeakDetection(ByteBuf buf) {
        while (isLeakAware(buf)) {
            buf = buf.unwrap();
        }
        return buf;
    }

    /**
     * The divergences of one case: the first example of each operation whose outcome differs, and the first
     * difference in state, after which the two sides are no longer comparable.
     */
    private static final class Divergences {
        private final long seed;
        private final Kind kind;
        private final Life life;
        private final Map<String, String> byOperation = new LinkedHashMap<>();
        private final Deque<String> recent = new ArrayDeque<>();
        private String round = "";
        boolean stopped;

        Divergences(long seed, Kind kind, Life life) {
            this.seed = seed;
            this.kind = kind;
            this.life = life;
        }

        void round(int index, int length, int offset) {
            round = "round " + index + " (payload of " + length + " at offset " + offset + ")";
            recent.clear();
        }

        void history(Step step) {
            recent.addLast(step.toString());
            if (recent.size() > 8) {
                recent.removeFirst();
            }
        }

        void outcome(Step step, int index, String netty, String view) {
            byOperation.putIfAbsent(step.name, round + ", step " + index + ": " + step + "\n    Netty: " + netty
                    + "\n    view:  " + view);
        }

        void state(Step step, int index, String what, String netty, String view) {
            String after = step == null ? "before the first step" : "after step " + index + ": " + step
                    + "\n    recent steps: " + recent;
            byOperation.put("STATE", round + ", " + what + " " + after + "\n    Netty: " + netty + "\n    view:  "
                    + view);
            stopped = true;
        }

        void assertNone() {
            if (!byOperation.isEmpty()) {
                StringBuilder message = new StringBuilder().append(byOperation.size())
                        .append(" divergence(s) from Netty's content, ").append(kind).append(", ").append(life)
                        .append(", seed ").append(seed).append(" (rerun with -Dpooledh2.seed=").append(seed)
                        .append("):");
                byOperation.forEach((operation, example) -> message.append("\n  ").append(operation).append(": ")
                        .append(example));
                fail(message.toString());
            }
        }
    }
}
