/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2WindowUpdateFrame;
import io.netty.util.Recycler;
import java.util.Objects;
import io.netty.handler.codec.http2.Http2FrameStream;

/** WINDOW_UPDATE, for a stream or (stream 0) the connection. */
final class PooledWindowUpdateFrame extends StreamFrame implements Http2WindowUpdateFrame {

    static final FramePool<PooledWindowUpdateFrame> POOL =
            new FramePool<>(Http2FrameTypes.WINDOW_UPDATE, PooledWindowUpdateFrame::new);

    int windowSizeIncrement;

    private PooledWindowUpdateFrame(Recycler.Handle<PooledWindowUpdateFrame> handle) {
        super(handle, false);
    }

    void init(int streamId, int windowSizeIncrement) {
        initStream(streamId);
        this.windowSizeIncrement = windowSizeIncrement;
    }

    @Override
    void clear() {
        clearStream();
        windowSizeIncrement = 0;
    }

    @Override
    public byte frameType() {
        return Http2FrameTypes.WINDOW_UPDATE;
    }

    @Override
    public String name() {
        return "WINDOW_UPDATE";
    }

    @Override
    public int windowSizeIncrement() {
        ensureAccessible();
        return windowSizeIncrement;
    }

    /**
     * As {@code DefaultHttp2WindowUpdateFrame}, which inherits the comparison of {@code AbstractHttp2StreamFrame}:
     * equal to a WINDOW_UPDATE frame, Netty's included, of the same {@link Http2FrameStream}; the increment is
     * not compared, by Netty either. So the answer is the same from both sides. (Netty's frame also equals other
     * stream frames of that stream; this one stays within WINDOW_UPDATE.) Frames without a stream (the reader's
     * own API) are then all equal, as Netty's are. In paranoid mode a released frame throws
     * {@code IllegalReferenceCountException}.
     */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Http2WindowUpdateFrame)) {
            return false;
        }
        return Objects.equals(stream(), ((Http2WindowUpdateFrame) o).stream());
    }

    @Override
    public int hashCode() {
        Http2FrameStream stream = stream();
        return stream == null ? 0 : stream.hashCode();
    }

    @Override
    String fields() {
        return "(stream=" + streamOrId() + ", windowUpdateIncrement=" + windowSizeIncrement() + ')';
    }
}
