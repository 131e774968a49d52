/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.frame;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2EventAdapter;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameReader;
import io.pooledh2.codec.PooledHttp2FrameListener;
import io.pooledh2.codec.PooledHttp2FrameReader;
import io.pooledh2.jmh.EventLoopBenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One op: read one DATA frame and send its payload on, as an echo server or a proxy does on the frame-codec path.
 * The handler retains the frame's content and releases the frame during the callback (the content waits in the
 * flow controller's queue past the read); then, as Netty's write path does at the flush for a payload that fits in
 * one frame without padding, {@code DefaultHttp2FrameWriter.writeData} takes {@code readSlice} of it, which carries
 * the content's reference on with no retain, and the socket write reads the slice through
 * {@code internalNioBuffer} ({@code ChannelOutboundBuffer.nioBuffers}) and releases it once written.
 *
 * <p>{@code framesPerRead}: how many such frames one read holds (one op reads them all and then flushes them all):
 * an echo server keeps each request DATA frame of a socket read until the read's flush, so a read of several
 * has several kept frames out at once.
 *
 * <p>{@code stockFrame}: {@code DefaultHttp2FrameReader} and a new {@code DefaultHttp2DataFrame} with the retained
 * slice of the input, as {@code Http2FrameCodec} makes it; {@code pooledFrame}: {@code PooledHttp2FrameReader}'s
 * frame API, the content the frame's view of the input.
 */
@State(Scope.Thread)
public class ForwardDataBenchmark extends FrameInputBenchmark {

    /** The reader and its frames; {@code stockFrame} is the baseline. */
    public enum ReaderPath {
        stockFrame, pooledFrame
    }

    @Param({"DATA_1K", "DATA_16K"})
    public FrameSample frame;

    @Param
    public ReaderPath reader;

    @Param({"1", "4"})
    public int framesPerRead;

    private Blackhole bh;
    private Http2EventAdapter stockListener;
    private PooledHttp2FrameListener pooledListener;
    /** The contents the handler kept during the read, sent at the flush. */
    private ByteBuf[] pending;
    private int pendingCount;

    @Setup
    public void setUp(Blackhole bh) throws Exception {
        this.bh = bh;
        ByteBuf one = frame.encode(ALLOC);
        ByteBuf in = ALLOC.directBuffer(one.readableBytes() * framesPerRead);
        for (int i = 0; i < framesPerRead; i++) {
            in.writeBytes(one, one.readerIndex(), one.readableBytes());
        }
        one.release();
        open(in);
        pending = new ByteBuf[framesPerRead];
        if (reader == ReaderPath.stockFrame) {
            frameReader = new DefaultHttp2FrameReader();
            stockListener = new Http2EventAdapter() {
                @Override
                public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding,
                                      boolean endOfStream) {
                    // Http2FrameCodec's frame: the reader's slice, retained.
                    keep(new DefaultHttp2DataFrame(data, endOfStream, padding)
                            .stream(FixedFrameStream.INSTANCE).retain());
                    return 0;
                }
            };
        } else {
            frameReader = new PooledHttp2FrameReader();
            pooledListener = (c, f) -> {
                ((Http2DataFrame) f).stream(FixedFrameStream.INSTANCE);
                keep((Http2DataFrame) f);
            };
        }
        for (int i = 0; i < 3; i++) {
            forward();
            if (input.isReadable() || input.refCnt() != 1) {
                throw new IllegalStateException(reader + ": input left with " + input.readableBytes()
                        + " bytes and count " + input.refCnt());
            }
        }
    }

    /** The handler: the content goes on with a reference of its own, the frame is released. */
    private void keep(Http2DataFrame data) {
        pending[pendingCount++] = data.content().retain();
        data.release();
    }

    @Benchmark
    public void forward() throws Http2Exception {
        ByteBuf in = input;
        in.readerIndex(0);
        if (stockListener != null) {
            frameReader.readFrame(ctx, in, stockListener);
        } else {
            ((PooledHttp2FrameReader) frameReader).readFrame(ctx, in, pooledListener);
        }
        // The flush: for each payload the writer's slice (the content's reference goes with it, as in Netty 4.2's
        // writeData for an unpadded last frame), the socket's read of the slice, its release.
        ByteBuf[] kept = pending;
        for (int i = 0, n = pendingCount; i < n; i++) {
            ByteBuf data = kept[i];
            kept[i] = null;
            ByteBuf written = data.readSlice(data.readableBytes());
            bh.consume(written.internalNioBuffer(written.readerIndex(), written.readableBytes()));
            written.release();
        }
        pendingCount = 0;
    }

    @Override
    String variant() {
        return frame + " x " + framesPerRead + " through " + reader;
    }
}
