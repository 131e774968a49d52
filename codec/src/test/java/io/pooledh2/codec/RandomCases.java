/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.pooledh2.codec.Differential.Delivery;
import io.pooledh2.codec.Differential.Mode;
import io.pooledh2.codec.ListenerTranscript.ListenerFailure;
import io.pooledh2.codec.ListenerTranscript.Style;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

import static io.netty.handler.codec.http2.Http2Error.STREAM_CLOSED;
import static io.pooledh2.codec.Frames.END_HEADERS;
import static io.pooledh2.codec.Frames.END_STREAM;
import static io.pooledh2.codec.Frames.HEADERS;
import static io.pooledh2.codec.Frames.PADDED;
import static io.pooledh2.codec.Frames.PRIORITY_FLAG;
import static io.pooledh2.codec.Frames.PUSH_PROMISE;

/**
 * Random frame sequences for the differential test: valid frames of every type, then mutations that make
 * them invalid in the ways a peer (or an attacker) can. Everything comes from one {@link Random}, so a seed
 * reproduces a case exactly.
 */
final class RandomCases {

    /** A frame or a reader action, in input order. */
    private static final class Item {
        byte[] frame;
        final String actionName;
        final ReaderCase.ReaderAction action;

        Item(byte[] frame) {
            this.frame = frame;
            this.actionName = null;
            this.action = null;
        }

        Item(String actionName, ReaderCase.ReaderAction action) {
            this.frame = null;
            this.actionName = actionName;
            this.action = action;
        }
    }

    private final Random random;
    private final HeaderBlocks hpack = new HeaderBlocks();
    private final List<Item> items = new ArrayList<>();

    private RandomCases(Random random) {
        this.random = random;
    }

    /** A random case: up to a dozen frames, then zero to three mutations. */
    static ReaderCase generate(String name, Random random) {
        RandomCases cases = new RandomCases(random);
        ReaderSpec spec = cases.randomSpec();
        int frames = 1 + random.nextInt(12);
        for (int i = 0; i < frames; i++) {
            cases.addValidFrames();
        }
        int mutations = random.nextInt(4);
        for (int i = 0; i < mutations; i++) {
            cases.mutate();
        }
        ReaderCase readerCase = ReaderCase.named(name).spec(spec);
        for (Item item : cases.items) {
            if (item.frame != null) {
                readerCase.frames(item.frame);
            } else {
                readerCase.action(item.actionName, item.action);
            }
        }
        if (random.nextInt(16) == 0) {
            readerCase.listener(cases.randomFault());
        }
        return readerCase;
    }

    /** A random way of delivering {@code length} bytes. */
    static Mode randomMode(Random random, int length) {
        InputKind kind = InputKind.values()[random.nextInt(InputKind.values().length)];
        Style style = Style.values()[random.nextInt(Style.values().length)];
        Delivery delivery;
        switch (random.nextInt(5)) {
            case 0:
                delivery = Differential.WHOLE;
                break;
            case 1:
                delivery = Differential.FRAME_BY_FRAME;
                break;
            case 2:
                delivery = length <= 2_000 ? Differential.BYTE_BY_BYTE
                        : Differential.randomReads(random.nextLong(), 64);
                break;
            case 3:
                delivery = Differential.randomReads(random.nextLong(), 1 + random.nextInt(64));
                break;
            default:
                delivery = Differential.splitAt(random.nextInt(length + 1));
                break;
        }
        return new Mode(delivery, kind, style, random.nextInt(6) == 0);
    }

    private ReaderSpec randomSpec() {
        switch (random.nextInt(8)) {
            case 0:
                return ReaderSpec.maxHeaderListSize(64 + random.nextInt(400));
            case 1:
                return ReaderSpec.maxSmallContinuationFrames(random.nextInt(4));
            case 2:
                return ReaderSpec.validateHeaders(false);
            default:
                return ReaderSpec.defaults();
        }
    }

    private void addValidFrames() {
        switch (random.nextInt(11)) {
            case 0:
                items.add(new Item(randomData()));
                break;
            case 1:
                addHeaderBlock(false);
                break;
            case 2:
                items.add(new Item(Frames.priority(stream(), random.nextBoolean(), random.nextInt(12),
                        random.nextInt(256))));
                break;
            case 3:
                items.add(new Item(Frames.rstStream(stream(), random.nextInt(4) == 0 ? random.nextInt() : 8)));
                break;
            case 4:
                items.add(new Item(randomSettings()));
                break;
            case 5:
                items.add(new Item(Frames.settingsAck()));
                break;
            case 6:
                addHeaderBlock(true);
                break;
            case 7:
                items.add(new Item(Frames.ping(random.nextBoolean(), random.nextLong())));
                break;
            case 8:
                items.add(new Item(Frames.goAway(random.nextInt(100), random.nextInt(4) == 0 ? random.nextInt() : 0,
                        bytes(random.nextInt(24)))));
                break;
            case 9:
                items.add(new Item(Frames.windowUpdate(random.nextBoolean() ? 0 : stream(),
                        random.nextInt(20) == 0 ? 0 : 1 + random.nextInt(Integer.MAX_VALUE))));
                break;
            default:
                items.add(new Item(Frames.frame(10 + random.nextInt(246), random.nextInt(256),
                        random.nextInt(4) == 0 ? 0 : stream(), bytes(random.nextInt(32)))));
                break;
        }
    }

    private byte[] randomData() {
        int flags = (random.nextBoolean() ? END_STREAM : 0) | (random.nextInt(4) == 0 ? PADDED : 0);
        // Now and then a frame close to the default maximum.
        byte[] content = bytes(random.nextInt(12) == 0 ? random.nextInt(16_000) : random.nextInt(64));
        byte[] payload = (flags & PADDED) != 0 ? Frames.padded(random.nextInt(32), content) : content;
        return Frames.data(stream(), flags, payload);
    }

    /** HEADERS or PUSH_PROMISE with its block, sometimes cut into CONTINUATIONs, sometimes into very many. */
    private void addHeaderBlock(boolean pushPromise) {
        int streamId = stream();
        byte[] block = hpack.encode(randomHeaders());
        List<byte[]> fragments = new ArrayList<>();
        int cuts = random.nextInt(3) == 0 ? 1 + random.nextInt(4) : 0;
        if (random.nextInt(15) == 0) {
            cuts = 10 + random.nextInt(16);
        }
        int from = 0;
        for (int i = 0; i < cuts; i++) {
            int to = Math.min(block.length, from + random.nextInt(1 + block.length / (cuts + 1)));
            fragments.add(Frames.slice(block, from, to));
            from = to;
        }
        fragments.add(Frames.slice(block, from, block.length));

        boolean padded = random.nextInt(4) == 0;
        int flags = (fragments.size() == 1 ? END_HEADERS : 0) | (padded ? PADDED : 0);
        byte[] first;
        if (pushPromise) {
            first = Frames.concat(Frames.int32(2 * (1 + random.nextInt(20))), fragments.get(0));
        } else {
            flags |= random.nextBoolean() ? END_STREAM : 0;
            if (random.nextInt(3) == 0) {
                flags |= PRIORITY_FLAG;
                int dependency = random.nextInt(10) == 0 ? streamId : random.nextInt(12);
                first = Frames.concat(Frames.priorityFields(random.nextBoolean(), dependency, random.nextInt(256)),
                        fragments.get(0));
            } else {
                first = fragments.get(0);
            }
        }
        if (padded) {
            first = Frames.padded(random.nextInt(16), first);
        }
        items.add(new Item(Frames.frame(pushPromise ? PUSH_PROMISE : HEADERS, flags, streamId, first)));
        for (int i = 1; i < fragments.size(); i++) {
            int continuationFlags = i == fragments.size() - 1 ? END_HEADERS : 0;
            items.add(new Item(Frames.continuation(streamId, continuationFlags, fragments.get(i))));
        }
    }

    private Http2Headers randomHeaders() {
        Http2Headers headers = random.nextBoolean()
                ? HeaderBlocks.request("/" + random.nextInt(1000))
                : HeaderBlocks.response(100 + random.nextInt(500));
        int extra = random.nextInt(4);
        for (int i = 0; i < extra; i++) {
            headers.add("x-h" + random.nextInt(8), asciiValue(random.nextInt(40)));
        }
        if (random.nextInt(20) == 0) {
            // Fails validation: an upper case name.
            Http2Headers invalid = new DefaultHttp2Headers(false);
            invalid.set(headers);
            invalid.add("X-Bad", "1");
            return invalid;
        }
        return headers;
    }

    private byte[] randomSettings() {
        int count = random.nextInt(4);
        long[] pairs = new long[count * 2];
        for (int i = 0; i < count; i++) {
            int id = random.nextInt(10) == 0 ? random.nextInt(0x10000) : 1 + random.nextInt(8);
            long value;
            switch (id) {
                case 2:
                case 8:
                    value = random.nextInt(10) == 0 ? 2 : random.nextInt(2);
                    break;
                case 4:
                    value = random.nextInt(10) == 0 ? 0x80000000L : random.nextInt(1 << 20);
                    break;
                case 5:
                    value = random.nextInt(10) == 0 ? 16383 : 16384 + random.nextInt(0xffffff - 16384);
                    break;
                default:
                    value = random.nextInt() & 0xffffffffL;
                    break;
            }
            pairs[2 * i] = id;
            pairs[2 * i + 1] = value;
        }
        return Frames.settings(pairs);
    }

    private void mutate() {
        List<Integer> frameIndexes = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i).frame != null) {
                frameIndexes.add(i);
            }
        }
        int at = frameIndexes.get(random.nextInt(frameIndexes.size()));
        Item target = items.get(at);
        if (target.frame.length < 9) {
            return; // already cut short by an earlier mutation
        }
        byte[] frame = target.frame.clone();
        switch (random.nextInt(15)) {
            case 0: // flipped bits anywhere, header included
                frame[random.nextInt(frame.length)] ^= (byte) (1 + random.nextInt(255));
                break;
            case 1: // a length that is a little off
                setLength(frame, Math.max(0, length(frame) + random.nextInt(17) - 8));
                break;
            case 2: // a length that is wildly off, possibly over the maximum frame size
                setLength(frame, random.nextInt(20_000));
                break;
            case 3: // oversize
                setLength(frame, 16_385 + random.nextInt(100));
                break;
            case 4: // stream 0 where it may be forbidden
                setStreamId(frame, 0);
                break;
            case 5: // a stream where stream 0 is required
                setStreamId(frame, stream());
                break;
            case 6: // padding that may not fit
                frame[4] |= PADDED;
                if (frame.length > 9) {
                    frame[9] = (byte) random.nextInt(256);
                }
                break;
            case 7: // a header block left open, so that the next frames are inside it
                frame[4] &= (byte) ~END_HEADERS;
                break;
            case 8: // a frame inside a header block
                items.add(at + 1, new Item(Frames.ping(false, random.nextLong())));
                frame[4] &= (byte) ~END_HEADERS;
                break;
            case 9: // a flood of small CONTINUATIONs after this frame
                frame[4] &= (byte) ~END_HEADERS;
                int streamId = streamId(frame);
                int continuations = 10 + random.nextInt(15);
                for (int i = 0; i < continuations; i++) {
                    items.add(at + 1, new Item(Frames.continuation(streamId, 0, bytes(random.nextInt(3)))));
                }
                break;
            case 10: // another frame type, same bytes
                frame[3] = (byte) random.nextInt(12);
                break;
            case 11: // input cut short
                frame = Frames.slice(frame, 0, random.nextInt(frame.length));
                break;
            case 12: // frames out of order, lost or repeated
                if (random.nextBoolean()) {
                    items.remove(at);
                    items.add(random.nextInt(items.size() + 1), new Item(frame));
                } else {
                    items.add(at, new Item(frame.clone()));
                }
                return;
            case 13: // a consistent but tiny payload: too short for the flags and fields the frame declares
                frame = Frames.slice(frame, 0, 9 + random.nextInt(Math.min(frame.length - 9, 8) + 1));
                setLength(frame, frame.length - 9);
                break;
            default: // the local max frame size changes between frames
                int max = new int[] {16_383, 16_384, 20_000, 0xffffff, 0x1000000}[random.nextInt(5)];
                items.add(at, new Item("maxFrameSize(" + max + ")", reader -> {
                    reader.configuration().frameSizePolicy().maxFrameSize(max);
                    return Integer.toString(reader.configuration().frameSizePolicy().maxFrameSize());
                }));
                return;
        }
        target.frame = frame;
    }

    private Consumer<ListenerTranscript> randomFault() {
        String[] prefixes = {"DATA", "HEADERS", "SETTINGS", "PING", "GOAWAY", "PUSH_PROMISE", "UNKNOWN",
            "WINDOW_UPDATE", "PRIORITY", "RST_STREAM"};
        String prefix = prefixes[random.nextInt(prefixes.length)];
        switch (random.nextInt(3)) {
            case 0:
                return t -> t.failOn(prefix, () -> Http2Exception.streamError(3, STREAM_CLOSED, "listener"));
            case 1:
                return t -> t.failOn(prefix, () -> Http2Exception.connectionError(STREAM_CLOSED, "listener"));
            default:
                return t -> t.failOn(prefix, () -> new ListenerFailure(prefix));
        }
    }

    private int stream() {
        return random.nextInt(8) == 0 ? 2 * (1 + random.nextInt(5)) : 1 + 2 * random.nextInt(5);
    }

    private byte[] bytes(int length) {
        byte[] out = new byte[length];
        random.nextBytes(out);
        return out;
    }

    private String asciiValue(int length) {
        StringBuilder value = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            value.append((char) (' ' + 1 + random.nextInt(94)));
        }
        return value.toString();
    }

    private static int length(byte[] frame) {
        return (frame[0] & 0xff) << 16 | (frame[1] & 0xff) << 8 | frame[2] & 0xff;
    }

    private static void setLength(byte[] frame, int length) {
        frame[0] = (byte) (length >>> 16);
        frame[1] = (byte) (length >>> 8);
        frame[2] = (byte) length;
    }

    private static int streamId(byte[] frame) {
        return (frame[5] & 0x7f) << 24 | (frame[6] & 0xff) << 16 | (frame[7] & 0xff) << 8 | frame[8] & 0xff;
    }

    private static void setStreamId(byte[] frame, int streamId) {
        frame[5] = (byte) (streamId >>> 24);
        frame[6] = (byte) (streamId >>> 16);
        frame[7] = (byte) (streamId >>> 8);
        frame[8] = (byte) streamId;
    }
}
