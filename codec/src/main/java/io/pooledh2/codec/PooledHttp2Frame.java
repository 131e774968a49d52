/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2Frame;
import io.netty.util.ReferenceCounted;

/**
 * An inbound HTTP/2 frame handed out by {@link PooledHttp2FrameReader}. Every instance also implements Netty's
 * interface for its type ({@code Http2DataFrame}, {@code Http2HeadersFrame}, {@code Http2SettingsFrame}, ...).
 *
 * <h2>Retention contract</h2>
 * <ul>
 *   <li>A frame is handed to its consumer with a reference count of 1. The consumer releases it when done.</li>
 *   <li>Everything reachable from the frame (DATA payload, headers, settings, GOAWAY debug data, unknown
 *       payload) lives exactly as long as the frame. To keep any of it after releasing the frame, either
 *       {@link #retain()} the frame or copy the part.</li>
 *   <li>When the count reaches zero the frame is reset and reused for a later frame of the same type, so a
 *       released frame must never be touched again. With {@code -Dio.pooledh2.paranoid=true} (or
 *       {@link PooledHttp2FrameReader#paranoid(boolean)}) frames are never reused and every access after
 *       release throws {@link io.netty.util.IllegalReferenceCountException}.</li>
 *   <li>{@code retain()} and {@code release()} may be called on any thread, by a holder of a reference. A
 *       {@code retain()} through a reference already released is a use after release: it throws when the count
 *       is already 0, but one that races a last release made on the reader's thread may instead be lost,
 *       leaving the retainer with a frame that is reused under it, as a stale reference to a recycled Netty
 *       buffer would. In paranoid mode such a retain either wins or throws.</li>
 *   <li>A frame that is never released is simply garbage collected; only the buffer it holds (DATA, GOAWAY,
 *       unknown frames) must be released, exactly as with Netty's own frames.</li>
 * </ul>
 */
public interface PooledHttp2Frame extends Http2Frame, ReferenceCounted {

    /** {@return the frame type from the frame header, one of {@link io.netty.handler.codec.http2.Http2FrameTypes}} */
    byte frameType();

    /** {@return the stream identifier from the frame header; 0 for connection frames} */
    int streamId();

    @Override
    PooledHttp2Frame retain();

    @Override
    PooledHttp2Frame retain(int increment);

    @Override
    PooledHttp2Frame touch();

    @Override
    PooledHttp2Frame touch(Object hint);
}
