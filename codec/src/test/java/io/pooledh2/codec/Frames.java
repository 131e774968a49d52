/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * Writes raw HTTP/2 frames byte by byte, so that tests can produce frames no well-behaved
 * {@code Http2FrameWriter} would: wrong lengths, forbidden stream ids, reserved bits, lying padding.
 * Everything is a {@code byte[]}; the harness decides which kind of {@code ByteBuf} carries it.
 */
final class Frames {

    static final int DATA = 0x0;
    static final int HEADERS = 0x1;
    static final int PRIORITY = 0x2;
    static final int RST_STREAM = 0x3;
    static final int SETTINGS = 0x4;
    static final int PUSH_PROMISE = 0x5;
    static final int PING = 0x6;
    static final int GOAWAY = 0x7;
    static final int WINDOW_UPDATE = 0x8;
    static final int CONTINUATION = 0x9;

    static final int END_STREAM = 0x1;
    static final int ACK = 0x1;
    static final int END_HEADERS = 0x4;
    static final int PADDED = 0x8;
    static final int PRIORITY_FLAG = 0x20;

    static final int DEFAULT_MAX_FRAME_SIZE = 16384;

    private Frames() {
    }

    /**
     * A frame whose header says {@code length}, whatever the payload really holds: the header and the
     * payload are written independently so that the length can lie.
     */
    static byte[] frame(int length, int type, int flags, int streamId, byte[] payload) {
        byte[] out = new byte[9 + payload.length];
        out[0] = (byte) (length >>> 16);
        out[1] = (byte) (length >>> 8);
        out[2] = (byte) length;
        out[3] = (byte) type;
        out[4] = (byte) flags;
        writeInt(out, 5, streamId);
        System.arraycopy(payload, 0, out, 9, payload.length);
        return out;
    }

    /** A frame whose header length matches its payload. */
    static byte[] frame(int type, int flags, int streamId, byte[] payload) {
        return frame(payload.length, type, flags, streamId, payload);
    }

    static byte[] data(int streamId, int flags, byte[] data) {
        return frame(DATA, flags, streamId, data);
    }

    static byte[] headers(int streamId, int flags, byte[] fragment) {
        return frame(HEADERS, flags, streamId, fragment);
    }

    static byte[] continuation(int streamId, int flags, byte[] fragment) {
        return frame(CONTINUATION, flags, streamId, fragment);
    }

    static byte[] priority(int streamId, boolean exclusive, int dependency, int weightMinusOne) {
        return frame(PRIORITY, 0, streamId, priorityFields(exclusive, dependency, weightMinusOne));
    }

    static byte[] rstStream(int streamId, long errorCode) {
        return frame(RST_STREAM, 0, streamId, int32((int) errorCode));
    }

    /** SETTINGS from (id, value) pairs; ids and values are written as given, valid or not. */
    static byte[] settings(long... idValuePairs) {
        byte[] payload = new byte[idValuePairs.length / 2 * 6];
        for (int i = 0; i < idValuePairs.length / 2; i++) {
            int id = (int) idValuePairs[2 * i];
            payload[6 * i] = (byte) (id >>> 8);
            payload[6 * i + 1] = (byte) id;
            writeInt(payload, 6 * i + 2, (int) idValuePairs[2 * i + 1]);
        }
        return frame(SETTINGS, 0, 0, payload);
    }

    static byte[] settingsAck() {
        return frame(SETTINGS, ACK, 0, new byte[0]);
    }

    static byte[] pushPromise(int streamId, int flags, int promisedStreamId, byte[] fragment) {
        return frame(PUSH_PROMISE, flags, streamId, concat(int32(promisedStreamId), fragment));
    }

    static byte[] ping(boolean ack, long data) {
        return frame(PING, ack ? ACK : 0, 0, int64(data));
    }

    static byte[] goAway(int lastStreamId, long errorCode, byte[] debugData) {
        return frame(GOAWAY, 0, 0, concat(int32(lastStreamId), int32((int) errorCode), debugData));
    }

    static byte[] windowUpdate(int streamId, int increment) {
        return frame(WINDOW_UPDATE, 0, streamId, int32(increment));
    }

    /**
     * The payload of a PADDED frame: the pad length byte, the content, then {@code padLength} zero bytes.
     */
    static byte[] padded(int padLength, byte[] content) {
        byte[] out = new byte[1 + content.length + padLength];
        out[0] = (byte) padLength;
        System.arraycopy(content, 0, out, 1, content.length);
        return out;
    }

    /** Priority fields: E bit + 31 bit dependency, then weight - 1. */
    static byte[] priorityFields(boolean exclusive, int dependency, int weightMinusOne) {
        byte[] out = new byte[5];
        writeInt(out, 0, exclusive ? dependency | 0x80000000 : dependency);
        out[4] = (byte) weightMinusOne;
        return out;
    }

    static byte[] int32(int value) {
        byte[] out = new byte[4];
        writeInt(out, 0, value);
        return out;
    }

    static byte[] int64(long value) {
        return concat(int32((int) (value >>> 32)), int32((int) value));
    }

    static byte[] bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }

    /** {@code length} bytes of a recognisable pattern, so that a shifted or stale slice shows in a transcript. */
    static byte[] pattern(int length, int seed) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = (byte) (seed + i * 7);
        }
        return out;
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    static byte[] slice(byte[] bytes, int from, int to) {
        return Arrays.copyOfRange(bytes, from, to);
    }

    private static void writeInt(byte[] out, int offset, int value) {
        out[offset] = (byte) (value >>> 24);
        out[offset + 1] = (byte) (value >>> 16);
        out[offset + 2] = (byte) (value >>> 8);
        out[offset + 3] = (byte) value;
    }
}
