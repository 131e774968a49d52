/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2HeadersFrame;

/**
 * Counts the inbound HEADERS and DATA frames of one connection, and how many of them were the very object the
 * previous frame of that type had been: the pooled codec's reuse, seen from outside. Netty's codec makes a new
 * frame each time (count 0), and so does the pooled codec with reuse off or in paranoid mode. Only the
 * connection's event loop thread calls {@link #observe(Object)}; it holds the last frame of each type only to
 * compare identities, never to touch it.
 */
final class FrameReuseCounter {

    private Object lastHeaders;
    private Object lastData;
    private long frames;
    private long reused;

    void observe(Object frame) {
        if (frame instanceof Http2HeadersFrame) {
            if (frame == lastHeaders) {
                reused++;
            }
            lastHeaders = frame;
            frames++;
        } else if (frame instanceof Http2DataFrame) {
            if (frame == lastData) {
                reused++;
            }
            lastData = frame;
            frames++;
        }
    }

    long frames() {
        return frames;
    }

    long reused() {
        return reused;
    }
}
