/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.Http2FrameWriter;
import io.netty.util.ReferenceCountUtil;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A frame writer and the channel it writes to, as the writer differential runs it: the writer writes through
 * the context of the last handler, past a handler that can refuse writes, to an {@link EmbeddedChannel} whose
 * flush can be made to fail. Collects the bytes flushed and the exceptions fired down the pipeline (a void
 * promise's failures).
 */
final class WriterEnd implements AutoCloseable {

    final Http2FrameWriter writer;
    final FlakyChannel channel = new FlakyChannel();
    /** Another channel, for a promise that is not the writer's channel's. */
    final EmbeddedChannel otherChannel = new EmbeddedChannel();
    final ChannelHandlerContext ctx;
    final List<String> caught = new ArrayList<>();
    /** While set, the handler before the writer fails every write it is given. */
    boolean refuseWrites;

    WriterEnd(Http2FrameWriter writer, ByteBufAllocator alloc) {
        this.writer = writer;
        channel.config().setAllocator(alloc);
        Recorder recorder = new Recorder();
        channel.pipeline().addLast(new Refuser(), recorder);
        ctx = channel.pipeline().context(recorder);
    }

    /** Flushes and returns the bytes the channel took, releasing what it took. */
    byte[] flushAndDrain() {
        channel.flush();
        channel.runPendingTasks();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (Object message; (message = channel.readOutbound()) != null; ) {
            ByteBuf buf = (ByteBuf) message;
            byte[] array = new byte[buf.readableBytes()];
            buf.getBytes(buf.readerIndex(), array);
            bytes.write(array, 0, array.length);
            buf.release();
        }
        return bytes.toByteArray();
    }

    @Override
    public void close() {
        try {
            channel.finishAndReleaseAll();
        } finally {
            otherChannel.finishAndReleaseAll();
            writer.close();
        }
    }

    /** An {@link EmbeddedChannel} whose flush throws while {@link #failFlush} is set. */
    static final class FlakyChannel extends EmbeddedChannel {
        boolean failFlush;
        boolean failFlushWithIoException;

        @Override
        protected void doWrite(ChannelOutboundBuffer in) throws Exception {
            if (failFlush) {
                if (failFlushWithIoException) {
                    throw new IOException("flush failed");
                }
                throw new IllegalStateException("flush failed");
            }
            super.doWrite(in);
        }
    }

    private final class Refuser extends ChannelOutboundHandlerAdapter {
        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (refuseWrites) {
                ReferenceCountUtil.release(msg);
                promise.setFailure(new IOException("write refused"));
            } else {
                ctx.write(msg, promise);
            }
        }
    }

    private final class Recorder extends ChannelInboundHandlerAdapter {
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            caught.add(WriterTranscript.describe(cause));
        }
    }
}
