/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2FrameReader;

import java.util.Arrays;

/**
 * Feeds a reader the way {@code Http2ConnectionHandler} does through {@code ByteToMessageDecoder}: reads are
 * appended to one cumulation buffer, the reader is called until it stops consuming (an exception, as the
 * connection handler catches it, does not stop the loop), the cumulation is released once fully read and
 * otherwise compacted with {@code discardSomeReadBytes()} when nobody else holds it.
 *
 * <p>One addition: before compacting, the bytes the reader consumed during the call are overwritten. A
 * compaction (or a later write after a release) would eventually do the same in production; doing it at once
 * makes a reader that keeps an unretained view of consumed input fail right away.
 */
final class Cumulation {

    private static final int SKIPPED_PREFIX = 3;
    private static final byte[] POISON = new byte[4096];

    static {
        Arrays.fill(POISON, (byte) 0xEE);
    }

    private final InputKind kind;
    private ByteBuf cumulation;

    Cumulation(InputKind kind) {
        this.kind = kind;
    }

    /** Appends {@code bytes} as one channel read and lets the reader consume what it can. */
    void read(byte[] bytes, ChannelHandlerContext ctx, Http2FrameReader reader, ListenerTranscript transcript) {
        append(bytes);
        int startIndex = cumulation.readerIndex();
        while (cumulation.isReadable()) {
            int before = cumulation.readableBytes();
            try {
                reader.readFrame(ctx, cumulation, transcript);
            } catch (Throwable cause) {
                transcript.exception(cause);
            }
            if (before == cumulation.readableBytes()) {
                break;
            }
        }
        if (cumulation.refCnt() == 0) {
            // Not the reader's to release: production code would fail on the next read or on removal.
            transcript.note("UNEXPECTED the reader released its input buffer");
            cumulation = null;
            return;
        }
        if (!cumulation.isReadable()) {
            cumulation.release();
            cumulation = null;
        } else if (cumulation.refCnt() == 1) {
            poison(startIndex, cumulation.readerIndex());
            cumulation.discardSomeReadBytes();
        }
    }

    /**
     * Overwrites {@code [from, to)} in bulk: with paranoid leak detection every single-byte access records a
     * stack trace.
     */
    private void poison(int from, int to) {
        for (int index = from; index < to; index += POISON.length) {
            cumulation.setBytes(index, POISON, 0, Math.min(POISON.length, to - index));
        }
    }

    /** Bytes the reader has not consumed. */
    int remaining() {
        return cumulation == null ? 0 : cumulation.readableBytes();
    }

    /** Releases what is left, as ByteToMessageDecoder does when it is removed. */
    void close(ListenerTranscript transcript) {
        if (cumulation != null) {
            if (cumulation.refCnt() == 0) {
                transcript.note("UNEXPECTED the reader released its input buffer");
            } else {
                cumulation.release();
            }
            cumulation = null;
        }
    }

    private void append(byte[] bytes) {
        if (cumulation == null) {
            cumulation = kind.wrap(bytes, SKIPPED_PREFIX);
            return;
        }
        ByteBuf in = kind.wrap(bytes, 0);
        if (cumulation.refCnt() == 1) {
            if (cumulation instanceof CompositeByteBuf) {
                ((CompositeByteBuf) cumulation).addComponent(true, in);
                return;
            }
            if (cumulation.maxWritableBytes() >= in.readableBytes()) {
                cumulation.writeBytes(in);
                in.release();
                return;
            }
        }
        // Someone else holds the cumulation (a retained slice): copy without touching the old buffer's indexes,
        // as ByteToMessageDecoder.expandCumulation does.
        ByteBuf expanded;
        if (kind == InputKind.COMPOSITE) {
            ByteBuf copy = InputKind.POOLED_DIRECT.buffer(cumulation.readableBytes());
            copy.writeBytes(cumulation, cumulation.readerIndex(), cumulation.readableBytes());
            CompositeByteBuf composite = PooledByteBufAllocator.DEFAULT.compositeBuffer(64);
            composite.addComponent(true, copy);
            composite.addComponent(true, in);
            expanded = composite;
        } else {
            expanded = kind.buffer(cumulation.readableBytes() + in.readableBytes());
            expanded.writeBytes(cumulation, cumulation.readerIndex(), cumulation.readableBytes());
            expanded.writeBytes(in);
            in.release();
        }
        cumulation.release();
        cumulation = expanded;
    }
}
