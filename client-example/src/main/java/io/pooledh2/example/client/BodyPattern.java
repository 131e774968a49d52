/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import io.netty.buffer.ByteBuf;

import java.nio.ByteBuffer;

/**
 * The bytes of an {@code /echo} request body: a function of the request's seed and the offset, so the client
 * can check the echo byte by byte without keeping the body, and two requests' bodies differ.
 */
final class BodyPattern {

    private BodyPattern() {
    }

    static byte byteAt(long seed, long offset) {
        long x = seed * 0xBF58476D1CE4E5B9L + offset * 0x9E3779B97F4A7C15L;
        x ^= x >>> 31;
        x *= 0x94D049BB133111EBL;
        return (byte) (x >>> 56);
    }

    /** Writes bytes {@code offset .. offset + length - 1} of the body to {@code out}, through one NIO view. */
    static void write(ByteBuf out, long seed, long offset, int length) {
        out.ensureWritable(length);
        int start = out.writerIndex();
        if (out.nioBufferCount() == 1) {
            ByteBuffer target = out.nioBuffer(start, length);
            for (int i = 0; i < length; i++) {
                target.put(i, byteAt(seed, offset + i));
            }
        } else {
            for (int i = 0; i < length; i++) {
                out.setByte(start + i, byteAt(seed, offset + i));
            }
        }
        out.writerIndex(start + length);
    }
}
