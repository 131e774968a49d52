/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.Recycler;

/** HEADERS or PUSH_PROMISE: a frame that ends a header block and carries its decoded headers. */
abstract class HeaderBlockFrame extends StreamFrame {

    Http2Headers headers;
    int padding;

    HeaderBlockFrame(Recycler.Handle<? extends PooledFrame> handle) {
        super(handle);
    }

    /** Subclasses call this from {@link #clear()}. */
    final void clearHeaderBlock() {
        headers = null;
        padding = 0;
        clearStream();
    }
}
