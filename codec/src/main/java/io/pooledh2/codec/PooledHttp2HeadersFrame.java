/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2HeadersFrame;

/**
 * A pooled HEADERS frame, with the complete header block (any CONTINUATION frames already assembled) and the
 * deprecated RFC 7540 priority fields, which Netty's {@link Http2HeadersFrame} does not carry.
 *
 * <p>The headers belong to the frame (see {@link PooledHttp2Frame}): with the reader's default headers decoder
 * they are an array-backed {@code Http2Headers} that behaves like {@code DefaultHttp2Headers}, valid until the
 * frame's last release, then emptied and refilled by a later block. Retain the frame to keep them, or copy them
 * ({@code new DefaultHttp2Headers().add(frame.headers())}). In paranoid mode, or with reuse off, a released frame
 * leaves them untouched.
 */
public interface PooledHttp2HeadersFrame extends Http2HeadersFrame, PooledHttp2Frame {

    /** {@return whether the frame carried the PRIORITY flag and fields} */
    boolean priorityPresent();

    /** {@return the stream this one depends on; 0 when {@link #priorityPresent()} is false} */
    int streamDependency();

    /** {@return the weight, 1 to 256; the default 16 when {@link #priorityPresent()} is false} */
    short weight();

    /** {@return the exclusive flag of the dependency; false when {@link #priorityPresent()} is false} */
    boolean exclusive();
}
