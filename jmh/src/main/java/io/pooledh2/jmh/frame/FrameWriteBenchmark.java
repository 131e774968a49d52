/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.frame;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameWriter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.pooledh2.codec.PooledHttp2FrameWriter;
import io.pooledh2.jmh.EventLoopBenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.nio.ByteBuffer;

/**
 * One op: one frame written by a frame writer through a channel handler context and flushed, as a connection
 * handler writes a frame and flushes it. {@link #writer} is {@code stock} ({@code DefaultHttp2FrameWriter}),
 * {@code pooled} ({@link PooledHttp2FrameWriter}) or {@code channel}: no writer, the op's buffer from the
 * allocator (the DATA payload or GOAWAY debug data the writers get, else 9 bytes) written as it is, which shows
 * what the harness and the channel cost on their own; {@link #frame} is the frame.
 *
 * <p>The channel takes what is flushed as a socket channel does: it gathers the NIO buffers of the flushed
 * messages ({@code ChannelOutboundBuffer.nioBuffers}, which makes a new {@code ByteBuffer} for a derived buffer
 * such as a slice, as for a socket write) and removes the bytes, with no system call. Its allocator is
 * {@code PooledByteBufAllocator}. The harness allocates nothing per op ({@code channel} shows it): a payload is
 * taken from the allocator each op and handed over with its only reference, as a payload is written (a
 * {@code buffer} of its own, or a retained {@code slice} of a larger buffer: {@link #payloadKind}); the promise is
 * one object that counts its completions instead of completing, so that it can be used again; header and
 * settings objects are made once. So B/op is the writer's, plus what the channel makes for it.
 */
@State(Scope.Thread)
public class FrameWriteBenchmark extends EventLoopBenchmark {

    private static final int STREAM = 3;
    /** Distinct header sets for {@link Sample#HEADERS_10_NEW_ENTRY}: far more than HPACK's 4 KiB table holds. */
    private static final int NEW_ENTRY_HEADERS = 4096;

    /** A frame to write. */
    public enum Sample {
        DATA_1K {
            @Override
            void write(FrameWriteBenchmark b) {
                b.frameWriter.writeData(b.ctx, STREAM, b.payload(), 0, false, b.promise);
            }
        },
        DATA_16K {
            @Override
            void write(FrameWriteBenchmark b) {
                b.frameWriter.writeData(b.ctx, STREAM, b.payload(), 0, false, b.promise);
            }
        },
        /** The four request pseudo-headers, END_STREAM. */
        HEADERS_PSEUDO {
            @Override
            void write(FrameWriteBenchmark b) {
                b.frameWriter.writeHeaders(b.ctx, STREAM, b.headers, 0, true, b.promise);
            }
        },
        /** The pseudo-headers and ten regular ones: after the first op, every field is in HPACK's table. */
        HEADERS_10 {
            @Override
            void write(FrameWriteBenchmark b) {
                b.frameWriter.writeHeaders(b.ctx, STREAM, b.headers, 0, true, b.promise);
            }
        },
        /**
         * {@link #HEADERS_10} with an {@code x-request-id} value HPACK's table does not hold, as a new request
         * id is: one new table entry per op, the encoder's own allocation.
         */
        HEADERS_10_NEW_ENTRY {
            @Override
            void write(FrameWriteBenchmark b) {
                b.frameWriter.writeHeaders(b.ctx, STREAM, b.headerSets[b.nextHeaderSet++ & NEW_ENTRY_HEADERS - 1],
                        0, true, b.promise);
            }
        },
        /** Six entries, a server's usual values. */
        SETTINGS {
            @Override
            void write(FrameWriteBenchmark b) {
                b.frameWriter.writeSettings(b.ctx, b.settings, b.promise);
            }
        },
        PING {
            @Override
            void write(FrameWriteBenchmark b) {
                b.frameWriter.writePing(b.ctx, false, 0x0102030405060708L, b.promise);
            }
        },
        WINDOW_UPDATE {
            @Override
            void write(FrameWriteBenchmark b) {
                b.frameWriter.writeWindowUpdate(b.ctx, STREAM, 65535, b.promise);
            }
        },
        RST_STREAM {
            @Override
            void write(FrameWriteBenchmark b) {
                b.frameWriter.writeRstStream(b.ctx, STREAM, Http2Error.CANCEL.code(), b.promise);
            }
        },
        /** NO_ERROR with 8 bytes of debug data. */
        GOAWAY {
            @Override
            void write(FrameWriteBenchmark b) {
                b.frameWriter.writeGoAway(b.ctx, STREAM, Http2Error.NO_ERROR.code(), b.payload(), b.promise);
            }
        };

        abstract void write(FrameWriteBenchmark b);

        int payloadLength() {
            return this == DATA_16K ? 16384 : this == DATA_1K ? 1024 : this == GOAWAY ? 8 : 0;
        }
    }

    @Param
    public Sample frame;

    @Param({"stock", "pooled", "channel"})
    public String writer;

    /** The DATA payload and GOAWAY debug data: a buffer of its own, or a retained slice of a larger one. */
    @Param({"buffer", "slice"})
    public String payloadKind;

    private Http2FrameWriter frameWriter;
    private SocketLikeChannel channel;
    private ChannelHandlerContext ctx;
    private CountingPromise promise;
    /** The buffer a {@code slice} payload is a slice of. */
    private ByteBuf payloadParent;
    private int payloadLength;
    private boolean slice;
    private Http2Headers headers;
    private Http2Headers[] headerSets;
    private int nextHeaderSet;
    private Http2Settings settings;

    @Setup
    public void setUp() throws Exception {
        requireEventLoopThread();
        frameWriter = "stock".equals(writer) ? new DefaultHttp2FrameWriter()
                : "pooled".equals(writer) ? new PooledHttp2FrameWriter() : null;
        channel = new SocketLikeChannel();
        channel.config().setAllocator(ALLOC);
        channel.pipeline().addLast(new ChannelOutboundHandlerAdapter());
        ctx = channel.pipeline().firstContext();
        promise = new CountingPromise(channel);
        payloadLength = frame.payloadLength();
        slice = "slice".equals(payloadKind);
        payloadParent = ALLOC.directBuffer(payloadLength + 64).writeZero(payloadLength + 64);
        headers = frame == Sample.HEADERS_PSEUDO ? StaticHeaderBlocks.requestPseudoHeaders()
                : StaticHeaderBlocks.requestTenHeaders();
        if (frame == Sample.HEADERS_10_NEW_ENTRY) {
            headerSets = new Http2Headers[NEW_ENTRY_HEADERS];
            for (int i = 0; i < NEW_ENTRY_HEADERS; i++) {
                headerSets[i] = StaticHeaderBlocks.requestTenHeaders()
                        .set("x-request-id", String.format("5b1e7c64-2f0a-4d8e-9b3a-%012x", i));
            }
        }
        settings = new Http2Settings().headerTableSize(4096).pushEnabled(false).maxConcurrentStreams(100)
                .initialWindowSize(1048576).maxFrameSize(16384).maxHeaderListSize(8192);
        // Each op must write the frame and complete its promise once.
        for (int i = 1; i <= 3; i++) {
            long before = channel.written;
            write();
            if (promise.completions != i || channel.written == before) {
                throw new IllegalStateException(frame + " through " + writer + ": " + promise.completions
                        + " completions after " + i + " writes, " + (channel.written - before) + " bytes");
            }
        }
    }

    @Benchmark
    public void write() {
        if (frameWriter == null) {
            ctx.write(payloadLength == 0 ? ALLOC.directBuffer(9).writeZero(9) : payload(), promise);
        } else {
            frame.write(this);
        }
        ctx.flush();
    }

    /** The op's payload, its only reference handed to the writer, as a payload is written. */
    ByteBuf payload() {
        if (slice) {
            return payloadParent.retainedSlice(32, payloadLength);
        }
        return ALLOC.directBuffer(payloadLength, payloadLength).writerIndex(payloadLength);
    }

    @TearDown
    public void tearDown() {
        int refCnt = payloadParent.refCnt();
        payloadParent.release();
        channel.finishAndReleaseAll();
        if (frameWriter != null) {
            frameWriter.close();
        }
        if (refCnt != 1) {
            throw new IllegalStateException(frame + " through " + writer + ": payload refCnt " + refCnt
                    + " after the run");
        }
    }

    /** A channel that takes flushed bytes as a socket channel's gathering write would, without the system call. */
    static final class SocketLikeChannel extends EmbeddedChannel {
        long written;

        @Override
        protected void doWrite(ChannelOutboundBuffer in) {
            while (!in.isEmpty()) {
                ByteBuffer[] buffers = in.nioBuffers(1024, Integer.MAX_VALUE);
                int count = in.nioBufferCount();
                long bytes = 0;
                for (int i = 0; i < count; i++) {
                    bytes += buffers[i].remaining();
                }
                in.removeBytes(bytes);
                written += bytes;
            }
        }
    }

    /**
     * A promise that counts successes instead of completing, so that one object serves every op: the harness
     * allocates no promise. A failure is a broken benchmark. (Not a {@code DefaultChannelPromise} by class, so
     * the pooled writer takes its longer check of the promise: the harness errs against it.)
     */
    static final class CountingPromise extends DefaultChannelPromise {
        long completions;

        CountingPromise(Channel channel) {
            super(channel);
        }

        @Override
        public ChannelPromise setSuccess(Void result) {
            completions++;
            return this;
        }

        @Override
        public boolean trySuccess(Void result) {
            completions++;
            return true;
        }

        @Override
        public ChannelPromise setFailure(Throwable cause) {
            throw new IllegalStateException("write failed", cause);
        }

        @Override
        public boolean tryFailure(Throwable cause) {
            throw new IllegalStateException("write failed", cause);
        }

        @Override
        public boolean isDone() {
            return false;
        }
    }
}
