/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.pipeline;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/** Message bodies: one buffer per end, written again for every exchange as a retained duplicate (no copy). */
final class Bodies {

    private Bodies() {
    }

    static ByteBuf filled(ByteBufAllocator alloc, int bytes) {
        ByteBuf body = alloc.directBuffer(bytes, bytes);
        for (int i = 0; i < bytes; i++) {
            body.writeByte('a' + i % 26);
        }
        return body;
    }
}
