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
import java.nio.charset.StandardCharsets;

/**
 * One op: one frame written by a frame writer through a channel handler context and flushed, as a connection
 * handler writes a frame and flushes it. {@link #writer} is {@code stock} ({@code DefaultHttp2FrameWriter}) or
 * {@code pooled} ({@link PooledHttp2FrameWriter}); {@link #frame} the frame.
 *
 * <p>The channel takes what is flushed as a socket channel does: it gathers the NIO buffers of the flushed
 * messages ({@code ChannelOutboundBuffer.nioBuffers}, which makes a new {@code ByteBuffer} for a derived buffer
 * such as a slice, as for a socket write) and removes the bytes, with no system call. Its allocator is
 * {@code PooledByteBufAllocator}. The harness allocates nothing per op: the payload and the debug data are one
 * buffer, retained and rewound each op (the writer releases it); the promise is one object that counts its
 * completions instead of completing (so that it can be used again), a {@code DefaultChannelPromise} otherwise;
 * header and settings objects are made once. So B/op is the writer's, plus the channel's.
 */
@State(Scope.Thread)
public class FrameWriteBenchmark extends EventLoopBenchmark {

    private static final int STREAM = 3;

    /** A frame to write. */
    public enum Sample {
        DATA_1K {
            @Override
            void write(FrameWriteBenchmark b) {
                b.frameWriter.writeData(b.ctx, STREAM, b.payload.readerIndex(0).retain(), 0, false, b.promise);
            }
        },
        DATA_16K {
            @Override
            void write(FrameWriteBenchmark b) {
                b.frameWriter.writeData(b.ctx, STREAM, b.payload.readerIndex(0).retain(), 0, false, b.promise);
            }
        },
        /** The four request pseudo-headers, END_STREAM. */
        HEADERS_PSEUDO {
            @Override
            void write(FrameWriteBenchmark b) {
                b.frameWriter.writeHeaders(b.ctx, STREAM, b.headers, 0, true, b.promise);
            }
        },
        /** The pseudo-headers and ten regular ones. */
        HEADERS_10 {
            @Override
            void write(FrameWriteBenchmark b) {
                b.frameWriter.writeHeaders(b.ctx, STREAM, b.headers, 0, true, b.promise);
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
                b.frameWriter.writeGoAway(b.ctx, STREAM, Http2Error.NO_ERROR.code(), b.payload.readerIndex(0).retain(),
                        b.promise);
            }
        };

        abstract void write(FrameWriteBenchmark b);
    }

    @Param
    public Sample frame;

    @Param({"stock", "pooled"})
    public String writer;

    /** The DATA payload: a buffer of its own, or a slice of a larger one (as a forwarded payload is). */
    @Param({"buffer"})
    public String payloadKind;

    private Http2FrameWriter frameWriter;
    private SocketLikeChannel channel;
    private ChannelHandlerContext ctx;
    private CountingPromise promise;
    private ByteBuf payloadParent;
    private ByteBuf payload;
    private Http2Headers headers;
    private Http2Settings settings;

    @Setup
    public void setUp() throws Exception {
        requireEventLoopThread();
        frameWriter = "stock".equals(writer) ? new DefaultHttp2FrameWriter() : new PooledHttp2FrameWriter();
        channel = new SocketLikeChannel();
        channel.config().setAllocator(ALLOC);
        channel.pipeline().addLast(new ChannelOutboundHandlerAdapter());
        ctx = channel.pipeline().firstContext();
        promise = new CountingPromise(channel);
        int payloadLength = frame == Sample.DATA_16K ? 16384 : frame == Sample.GOAWAY ? 8 : 1024;
        byte[] bytes = new byte[payloadLength];
        if (frame == Sample.GOAWAY) {
            bytes = "shutdown".getBytes(StandardCharsets.US_ASCII);
        }
        if ("slice".equals(payloadKind)) {
            payloadParent = ALLOC.directBuffer(payloadLength + 64).writeZero(32).writeBytes(bytes).writeZero(32);
            payload = payloadParent.slice(32, payloadLength);
        } else {
            payloadParent = ALLOC.directBuffer(payloadLength).writeBytes(bytes);
            payload = payloadParent;
        }
        headers = frame == Sample.HEADERS_10 ? StaticHeaderBlocks.requestTenHeaders()
                : StaticHeaderBlocks.requestPseudoHeaders();
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
        frame.write(this);
        ctx.flush();
    }

    @TearDown
    public void tearDown() {
        int refCnt = payloadParent.refCnt();
        payloadParent.release();
        channel.finishAndReleaseAll();
        frameWriter.close();
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
     * allocates no promise. A failure is a broken benchmark.
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
