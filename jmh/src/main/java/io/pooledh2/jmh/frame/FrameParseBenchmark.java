/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.frame;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameReader;
import io.pooledh2.codec.PooledHttp2FrameReader;
import io.pooledh2.jmh.EventLoopBenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

import java.util.function.IntSupplier;

/**
 * One op: read one {@link FrameSample} (one frame; a header block of three frames for HEADERS_CONTINUATION; seven
 * frames of seven types for MIXED; the next frame of the cycle for a sample with a rotation) from the same
 * {@code PooledByteBufAllocator} direct buffer, and hand each frame to a consumer that uses and releases it.
 *
 * <p>{@link #reader} picks the reader and the way frames come out of it:
 * <ul>
 *   <li>{@code stockFrame}: {@code DefaultHttp2FrameReader} with a listener that does what
 *       {@code Http2FrameCodec}'s does, a new {@code DefaultHttp2*Frame} per frame
 *       ({@link FrameCodecStyleListener});</li>
 *   <li>{@code pooledFrame}: {@link PooledHttp2FrameReader}'s frame API, the frame released during the callback
 *       ({@link PooledFrameConsumer});</li>
 *   <li>{@code stockListener}, {@code pooledListener}: the same {@link ConsumingListener} behind
 *       {@code DefaultHttp2FrameReader} and behind the pooled reader's {@code Http2FrameListener} adapter with its
 *       defaults (settings and GOAWAY debug data copied for the listener);</li>
 *   <li>{@code pooledListenerKeepsNothing}: as {@code pooledListener}, with {@code listenerKeepsNothing(true)}.</li>
 * </ul>
 * Compare {@code pooledFrame} with {@code stockFrame}, and the two pooled listener paths with
 * {@code stockListener}.
 */
@State(Scope.Thread)
public class FrameParseBenchmark extends FrameInputBenchmark {

    /** The reader and the consumer of its frames; a {@code stock} value is the baseline of a {@code pooled} one. */
    public enum ReaderPath {
        stockFrame, pooledFrame, stockListener, pooledListener, pooledListenerKeepsNothing
    }

    @Param
    public FrameSample frame;

    @Param
    public ReaderPath reader;

    private Parse parse;
    /** For a sample with a rotation: where each of its frames starts in the input (and the input's end), and the next. */
    private int[] starts;
    private int next;

    /** One read of the whole input through the chosen reader and consumer. */
    private interface Parse {
        void read(ChannelHandlerContext ctx, ByteBuf in) throws Http2Exception;
    }

    @Setup
    public void setUp(Blackhole bh) throws Exception {
        open(frame.encode(ALLOC));
        if (frame.rotation > 1) {
            starts = new int[frame.rotation + 1];
            for (int i = 0, at = 0; i <= frame.rotation; i++) {
                starts[i] = at;
                at = i < frame.rotation ? at + 9 + input.getUnsignedMedium(at) : at;
            }
            if (starts[frame.rotation] != input.writerIndex()) {
                throw new IllegalStateException(frame + ": the rotation's frames do not fill the input");
            }
        }

        IntSupplier framesSeen;
        java.util.function.Supplier<Byte> lastType;
        switch (reader) {
            case stockFrame: {
                DefaultHttp2FrameReader stock = new DefaultHttp2FrameReader();
                FrameCodecStyleListener listener = new FrameCodecStyleListener(bh);
                frameReader = stock;
                parse = (c, in) -> stock.readFrame(c, in, listener);
                framesSeen = () -> listener.frames;
                lastType = () -> listener.lastType;
                break;
            }
            case pooledFrame: {
                PooledHttp2FrameReader pooled = new PooledHttp2FrameReader();
                PooledFrameConsumer consumer = new PooledFrameConsumer(bh);
                frameReader = pooled;
                parse = (c, in) -> pooled.readFrame(c, in, consumer);
                framesSeen = () -> consumer.frames;
                lastType = () -> consumer.lastType;
                break;
            }
            case stockListener:
            case pooledListener:
            case pooledListenerKeepsNothing: {
                Http2FrameReader r = reader == ReaderPath.stockListener ? new DefaultHttp2FrameReader()
                        : new PooledHttp2FrameReader()
                                .listenerKeepsNothing(reader == ReaderPath.pooledListenerKeepsNothing);
                ConsumingListener listener = new ConsumingListener(bh);
                frameReader = r;
                parse = (c, in) -> r.readFrame(c, in, listener);
                framesSeen = () -> listener.frames;
                lastType = () -> listener.lastType;
                break;
            }
            default:
                throw new AssertionError(reader);
        }

        // The input must make the sample's listener calls, the last of the expected type, and be read to the end
        // (a rotation's frame: to the frame's end); a rotation is read through once.
        for (int i = 1; i <= Math.max(3, frame.rotation); i++) {
            parse();
            if (input.isReadable() || framesSeen.getAsInt() != i * frame.listenerCalls
                    || lastType.get() != frame.frameType) {
                throw new IllegalStateException(frame + " through " + reader + ": " + framesSeen.getAsInt()
                        + " frames after " + i + " reads, last type " + lastType.get() + ", "
                        + input.readableBytes() + " bytes left");
            }
        }
    }

    @Benchmark
    public void parse() throws Http2Exception {
        ByteBuf in = input;
        int[] starts = this.starts;
        if (starts == null) {
            in.readerIndex(0);
        } else {
            int i = next;
            in.setIndex(starts[i], starts[i + 1]);
            next = i + 1 == starts.length - 1 ? 0 : i + 1;
        }
        parse.read(ctx, in);
    }

    @Override
    String variant() {
        return frame + " through " + reader;
    }
}
