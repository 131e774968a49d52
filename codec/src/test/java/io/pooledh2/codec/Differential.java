/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.Http2FrameReader;
import io.pooledh2.codec.ListenerTranscript.Style;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Runs a {@link ReaderCase} through one reader and returns its transcript, and compares transcripts. The
 * stock {@code DefaultHttp2FrameReader} defines the expected transcript; the pooled reader must match it
 * line for line.
 */
final class Differential {

    /**
     * One context for every run: readers only use it for {@code alloc()} and to hand it to the listener. Its
     * allocator is the pooled one, as in a production channel.
     */
    static final ChannelHandlerContext CTX = newContext();

    /** Frames wrapped around the case in batched mode: frames before and after must not change anything. */
    private static final byte[] PREAMBLE = Frames.concat(
            Frames.settings(3, 100, 4, 65535), Frames.ping(false, 0x0102030405060708L));
    private static final byte[] TRAILER = Frames.concat(
            Frames.ping(true, 0x1122334455667788L), Frames.windowUpdate(0, 1000), Frames.priority(9, false, 0, 15));

    private Differential() {
    }

    private static ChannelHandlerContext newContext() {
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        ChannelHandlerContext[] holder = new ChannelHandlerContext[1];
        channel.pipeline().addLast(new ChannelInboundHandlerAdapter() {
            @Override
            public void handlerAdded(ChannelHandlerContext ctx) {
                holder[0] = ctx;
            }
        });
        return holder[0];
    }

    /** How the bytes of consecutive frames are cut into channel reads. */
    interface Delivery {
        List<byte[]> reads(List<byte[]> frames);
    }

    static final Delivery WHOLE = named("whole", frames -> List.of(Frames.concat(frames.toArray(new byte[0][]))));

    static final Delivery FRAME_BY_FRAME = named("frame-by-frame", frames -> frames);

    static final Delivery BYTE_BY_BYTE = named("byte-by-byte", frames -> {
        byte[] all = Frames.concat(frames.toArray(new byte[0][]));
        List<byte[]> reads = new ArrayList<>(all.length);
        for (byte b : all) {
            reads.add(new byte[] {b});
        }
        return reads;
    });

    /** Two reads, split {@code offset} bytes in (or one read if the bytes are shorter). */
    static Delivery splitAt(int offset) {
        return named("split@" + offset, frames -> {
            byte[] all = Frames.concat(frames.toArray(new byte[0][]));
            if (offset <= 0 || offset >= all.length) {
                return List.of(all);
            }
            return List.of(Arrays.copyOfRange(all, 0, offset), Arrays.copyOfRange(all, offset, all.length));
        });
    }

    /** Reads of random sizes between 1 and {@code maxRead}, reproducible from {@code seed}. */
    static Delivery randomReads(long seed, int maxRead) {
        return named("random-reads(seed=" + seed + ",max=" + maxRead + ")", frames -> {
            Random random = new Random(seed);
            byte[] all = Frames.concat(frames.toArray(new byte[0][]));
            List<byte[]> reads = new ArrayList<>();
            for (int from = 0; from < all.length; ) {
                int to = Math.min(all.length, from + 1 + random.nextInt(maxRead));
                reads.add(Arrays.copyOfRange(all, from, to));
                from = to;
            }
            return reads;
        });
    }

    private static Delivery named(String name, Delivery delivery) {
        return new Delivery() {
            @Override
            public List<byte[]> reads(List<byte[]> frames) {
                return delivery.reads(frames);
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }

    /** Everything about one run except the case and the reader. */
    static final class Mode {
        final Delivery delivery;
        final InputKind kind;
        final Style style;
        final boolean batched;

        Mode(Delivery delivery, InputKind kind, Style style, boolean batched) {
            this.delivery = delivery;
            this.kind = kind;
            this.style = style;
            this.batched = batched;
        }

        @Override
        public String toString() {
            return delivery + (batched ? "+batched" : "") + " " + kind + " listener=" + style;
        }
    }

    /** Runs {@code readerCase} through a new reader of the given variant; returns the transcript. */
    static String run(ReaderCase readerCase, ReaderSpec.Variant variant, Mode mode) {
        Http2FrameReader reader = readerCase.spec().create(variant);
        ListenerTranscript transcript = new ListenerTranscript(CTX, mode.style);
        readerCase.setUp(transcript);
        Cumulation cumulation = new Cumulation(mode.kind);
        try {
            List<byte[]> pending = new ArrayList<>();
            if (mode.batched) {
                pending.add(PREAMBLE);
            }
            for (ReaderCase.Step step : readerCase.steps()) {
                if (step.isFrame()) {
                    pending.add(step.frame);
                    continue;
                }
                deliver(pending, mode, cumulation, reader, transcript);
                pending.clear();
                try {
                    String result = step.action.apply(reader);
                    transcript.note("ACTION " + step.actionName + (result == null ? "" : " -> " + result));
                } catch (Throwable cause) {
                    transcript.note("ACTION " + step.actionName + " " + ListenerTranscript.describe(cause));
                }
            }
            if (mode.batched) {
                pending.add(TRAILER);
            }
            deliver(pending, mode, cumulation, reader, transcript);
            // What is received but not yet parsed: the pooled reader takes a partial frame out of the input.
            int held = reader instanceof PooledHttp2FrameReader
                    ? ((PooledHttp2FrameReader) reader).partialFrameBytes() : 0;
            transcript.note("END remaining=" + (cumulation.remaining() + held));
        } finally {
            // Same order as Http2ConnectionHandler removal: the cumulation goes first, then the reader closes.
            cumulation.close(transcript);
            try {
                reader.close();
            } catch (Throwable cause) {
                transcript.note("CLOSE " + ListenerTranscript.describe(cause));
            }
            transcript.finish();
        }
        return transcript.toString();
    }

    private static void deliver(List<byte[]> frames, Mode mode, Cumulation cumulation, Http2FrameReader reader,
                                ListenerTranscript transcript) {
        if (frames.isEmpty()) {
            return;
        }
        for (byte[] read : mode.delivery.reads(frames)) {
            if (read.length > 0) {
                cumulation.read(read, CTX, reader, transcript);
            }
        }
    }

    /** Null when the transcripts are equal, otherwise where they part, with some context. */
    static String firstDifference(String stock, String pooled) {
        if (stock.equals(pooled)) {
            return null;
        }
        String[] expected = stock.split("\n", -1);
        String[] actual = pooled.split("\n", -1);
        int line = 0;
        while (line < expected.length && line < actual.length && expected[line].equals(actual[line])) {
            line++;
        }
        return "first difference at transcript line " + (line + 1) + "\n"
                + "  stock : " + lineOrMissing(expected, line) + "\n"
                + "  pooled: " + lineOrMissing(actual, line) + "\n"
                + "stock transcript:\n" + excerpt(expected, line) + "pooled transcript:\n" + excerpt(actual, line);
    }

    private static String lineOrMissing(String[] lines, int index) {
        return index < lines.length ? lines[index] : "<no more lines>";
    }

    private static String excerpt(String[] lines, int around) {
        StringBuilder out = new StringBuilder();
        int from = Math.max(0, around - 6);
        int to = Math.min(lines.length, around + 6);
        if (from > 0) {
            out.append("    ... ").append(from).append(" lines\n");
        }
        for (int i = from; i < to; i++) {
            out.append(i == around ? "  > " : "    ").append(lines[i]).append('\n');
        }
        if (to < lines.length) {
            out.append("    ... ").append(lines.length - to).append(" more lines\n");
        }
        return out.toString();
    }
}
