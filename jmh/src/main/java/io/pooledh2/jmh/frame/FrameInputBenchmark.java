/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.frame;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.Http2FrameReader;
import io.pooledh2.jmh.EventLoopBenchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the frame benchmarks share: a channel whose context the reader is given, the input every op reads from
 * the start, and the reader. At the end the input's count must be back at 1: every slice or frame that took a
 * reference to it was released.
 */
@State(Scope.Thread)
public abstract class FrameInputBenchmark extends EventLoopBenchmark {

    private EmbeddedChannel channel;
    ChannelHandlerContext ctx;
    ByteBuf input;
    Http2FrameReader frameReader;

    /** Opens the channel ({@link #ALLOC} its allocator) and takes the input; the subclass sets the reader. */
    final void open(ByteBuf input) {
        requireEventLoopThread();
        channel = new EmbeddedChannel();
        channel.config().setAllocator(ALLOC);
        channel.pipeline().addLast(new ChannelInboundHandlerAdapter());
        ctx = channel.pipeline().firstContext();
        this.input = input;
    }

    /** The variant, for the message of a failed check. */
    abstract String variant();

    @TearDown
    public void tearDown() {
        frameReader.close();
        int refCnt = input.refCnt();
        input.release();
        channel.finishAndReleaseAll();
        if (refCnt != 1) {
            throw new IllegalStateException(variant() + ": input refCnt " + refCnt
                    + " after the run, a slice or frame kept a reference to it");
        }
    }
}
