/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.util.Recycler;

/** DATA: the payload is a view of the input that lives exactly as long as the frame (see {@link PayloadView}). */
final class PooledDataFrame extends StreamFrame implements Http2DataFrame {

    static final FramePool<PooledDataFrame> POOL =
            new FramePool<>(Http2FrameTypes.DATA, PooledDataFrame::new);

    int padding;
    boolean endStream;
    /** Fixed at parse, as in Netty's frame: reading the payload must not change what flow control is owed. */
    int initialFlowControlledBytes;

    private PooledDataFrame(Recycler.Handle<PooledDataFrame> handle) {
        super(handle, true);
    }

    /**
     * Sets every field: the payload is the frame's payload, {@code length} bytes of {@code input} from
     * {@code index}, with the {@code dataLength} bytes of data from {@code dataIndex} readable, as Netty's reader
     * hands it out; the input is retained now only for a frame that is never reused (a reused one retains it if it
     * outlives its callback). In one method with the other fields, not pointed by the reader beforehand: that
     * measured about 3 ns more per kept frame (ForwardDataBenchmark).
     */
    void init(int streamId, ByteBuf input, int index, int length, int dataIndex, int dataLength, int padding,
              boolean endStream, boolean retainInput) {
        initStream(streamId);
        payload.target(input, index, length, dataIndex, dataIndex + dataLength, retainInput);
        this.padding = padding;
        this.endStream = endStream;
        this.initialFlowControlledBytes = dataLength + padding;
    }

    @Override
    void clear() {
        payload.untarget();
        padding = 0;
        endStream = false;
        initialFlowControlledBytes = 0;
        clearStream();
    }

    @Override
    public byte frameType() {
        return Http2FrameTypes.DATA;
    }

    @Override
    public String name() {
        return "DATA";
    }

    @Override
    public ByteBuf content() {
        ensureAccessible();
        return payload;
    }

    @Override
    public int padding() {
        ensureAccessible();
        return padding;
    }

    @Override
    public int initialFlowControlledBytes() {
        ensureAccessible();
        return initialFlowControlledBytes;
    }

    @Override
    public boolean isEndStream() {
        ensureAccessible();
        return endStream;
    }

    @Override
    public PooledDataFrame stream(Http2FrameStream stream) {
        super.stream(stream);
        return this;
    }

    @Override
    public Http2DataFrame copy() {
        return replace(content().copy());
    }

    @Override
    public Http2DataFrame duplicate() {
        return replace(content().duplicate());
    }

    @Override
    public Http2DataFrame retainedDuplicate() {
        return replace(content().retainedDuplicate());
    }

    /**
     * Netty's frame with the given payload, made as {@code DefaultHttp2DataFrame.replace} makes it: endStream and
     * padding, but no stream. A copy is never pooled.
     */
    @Override
    public Http2DataFrame replace(ByteBuf content) {
        return new DefaultHttp2DataFrame(content, isEndStream(), padding());
    }

    @Override
    public PooledDataFrame retain() {
        super.retain();
        return this;
    }

    @Override
    public PooledDataFrame retain(int increment) {
        super.retain(increment);
        return this;
    }

    @Override
    public PooledDataFrame touch() {
        return this;
    }

    @Override
    public PooledDataFrame touch(Object hint) {
        return this;
    }

    /**
     * Equal to another pooled frame of this type with the same values: the fields {@code DefaultHttp2DataFrame}
     * compares (stream, content, endStream, padding), and the stream id. Netty's frame equals only frames of its own
     * class, so neither equals the other. In paranoid mode a released frame throws {@code
     * IllegalReferenceCountException}.
     */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof PooledDataFrame)) {
            return false;
        }
        PooledDataFrame other = (PooledDataFrame) o;
        return sameStream(other) && content().equals(other.content()) && isEndStream() == other.isEndStream()
                && padding() == other.padding();
    }

    @Override
    public int hashCode() {
        int hash = streamHash();
        hash = hash * 31 + content().hashCode();
        hash = hash * 31 + (isEndStream() ? 0 : 1);
        hash = hash * 31 + padding();
        return hash;
    }

    @Override
    String fields() {
        return "(stream=" + streamOrId() + ", content=" + content() + ", endStream=" + isEndStream()
                + ", padding=" + padding() + ')';
    }
}
