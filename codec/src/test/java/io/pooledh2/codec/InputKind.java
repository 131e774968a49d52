/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;

/**
 * The kind of buffer the reader is given. Readers that take shortcuts (array(), memoryAddress(), nioBuffer(),
 * assuming readerIndex 0 or one component) behave differently on some of them.
 */
enum InputKind {
    UNPOOLED_HEAP(UnpooledByteBufAllocator.DEFAULT, false),
    UNPOOLED_DIRECT(UnpooledByteBufAllocator.DEFAULT, true),
    POOLED_HEAP(PooledByteBufAllocator.DEFAULT, false),
    POOLED_DIRECT(PooledByteBufAllocator.DEFAULT, true),
    /** Composite of small heap and direct components, as ByteToMessageDecoder.COMPOSITE_CUMULATOR builds. */
    COMPOSITE(PooledByteBufAllocator.DEFAULT, true);

    // Bytes in front of the first read, already consumed: a cumulation rarely starts at index 0.
    private static final byte JUNK = (byte) 0xA5;

    private final ByteBufAllocator alloc;
    private final boolean direct;

    InputKind(ByteBufAllocator alloc, boolean direct) {
        this.alloc = alloc;
        this.direct = direct;
    }

    ByteBuf buffer(int capacity) {
        return direct ? alloc.directBuffer(capacity) : alloc.heapBuffer(capacity);
    }

    /** A new buffer holding {@code bytes}, preceded by {@code skipped} already-read junk bytes. */
    ByteBuf wrap(byte[] bytes, int skipped) {
        if (this == COMPOSITE) {
            return composite(bytes, skipped);
        }
        ByteBuf buf = buffer(skipped + bytes.length);
        for (int i = 0; i < skipped; i++) {
            buf.writeByte(JUNK);
        }
        buf.writeBytes(bytes);
        buf.skipBytes(skipped);
        return buf;
    }

    private static CompositeByteBuf composite(byte[] bytes, int skipped) {
        // 64 components at most, then Netty consolidates: both shapes get exercised.
        CompositeByteBuf composite = PooledByteBufAllocator.DEFAULT.compositeBuffer(64);
        if (skipped > 0) {
            ByteBuf junk = UnpooledByteBufAllocator.DEFAULT.heapBuffer(skipped);
            for (int i = 0; i < skipped; i++) {
                junk.writeByte(JUNK);
            }
            composite.addComponent(true, junk);
        }
        int piece = Math.max(7, bytes.length / 40);
        boolean heap = true;
        for (int from = 0; from < bytes.length; from += piece) {
            int length = Math.min(piece, bytes.length - from);
            ByteBuf component = heap ? UnpooledByteBufAllocator.DEFAULT.heapBuffer(length)
                    : PooledByteBufAllocator.DEFAULT.directBuffer(length);
            component.writeBytes(bytes, from, length);
            composite.addComponent(true, component);
            heap = !heap;
        }
        composite.skipBytes(skipped);
        return composite;
    }
}
