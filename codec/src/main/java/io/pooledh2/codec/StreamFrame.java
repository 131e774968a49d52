/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2StreamFrame;
import io.netty.util.Recycler;

import java.util.Objects;

/** A pooled frame that belongs to a stream and can carry the {@link Http2FrameStream} a frame codec gives it. */
abstract class StreamFrame extends PooledFrame implements Http2StreamFrame {

    int streamId;
    /** Meaningful only while {@link #hasStream}: kept across parses so that setting the same one stores nothing. */
    private Http2FrameStream stream;
    private boolean hasStream;

    StreamFrame(Recycler.Handle<? extends PooledFrame> handle, boolean hasPayload) {
        super(handle, hasPayload);
    }

    @Override
    public int streamId() {
        ensureAccessible();
        return streamId;
    }

    @Override
    public Http2FrameStream stream() {
        ensureAccessible();
        return hasStream ? stream : null;
    }

    @Override
    public StreamFrame stream(Http2FrameStream stream) {
        ensureAccessible();
        // A frame codec sets the stream on every frame; a reference store costs a GC barrier, so only a
        // different stream is stored.
        if (this.stream != stream) {
            this.stream = stream;
        }
        hasStream = stream != null;
        return this;
    }

    /** For {@code equals}: the same stream, as Netty's {@code AbstractHttp2StreamFrame} compares it, and stream id. */
    final boolean sameStream(StreamFrame other) {
        return Objects.equals(stream(), other.stream()) && streamId() == other.streamId();
    }

    /** For {@code hashCode}: the stream's, or the stream id's where there is no stream. */
    final int streamHash() {
        Http2FrameStream stream = stream();
        return stream == null ? streamId() : stream.hashCode();
    }

    /** For {@link #fields()}: what Netty's format prints as the stream; the stream id where there is none. */
    final Object streamOrId() {
        Http2FrameStream stream = stream();
        return stream != null ? stream : (Object) streamId();
    }

    /** Subclasses call this from their {@code init}: a parse sets every field, the stream included. */
    final void initStream(int streamId) {
        this.streamId = streamId;
        hasStream = false;
    }

    /**
     * A free frame drops what its last parse left in it for the next parse to compare with: its stream here, which
     * with a frame codec holds Netty's stream and its child channel, and so the whole connection; a header block's
     * names and values too ({@link HeaderBlockFrame}). See {@link FrameSet#forgetLastParses}.
     */
    void forgetLastParse() {
        forgetStream();
    }

    private void forgetStream() {
        hasStream = false;
        stream = null;
    }

    /** Subclasses call this from {@link #clear()}. */
    final void clearStream() {
        streamId = 0;
        forgetStream();
    }
}
