/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionDecoder;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionEncoder;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2FrameWriter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * DATA written through {@code DefaultHttp2ConnectionEncoder} and its remote flow controller, which writes each
 * queued payload in parts as the peer's windows open (parts of a buffer, several buffers at once): the same bytes
 * and promise outcomes with {@link PooledHttp2FrameWriter} as with {@code DefaultHttp2FrameWriter}, for random
 * payloads, paddings, frame sizes, windows and window updates.
 */
class FlowControlledWritesTest {

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
    void partialWritesAreNettys(long seed) {
        String stock = run(seed, false);
        assertFalse(stock.contains("pending") || stock.contains("failed"), stock);
        assertEquals(stock, run(seed, true));
    }

    /** The client's bytes after the preface and the promise outcomes, as text. */
    private static String run(long seed, boolean pooled) {
        Random random = new Random(seed);
        Http2FrameWriter writer = pooled ? new PooledHttp2FrameWriter() : new DefaultHttp2FrameWriter();
        Http2Connection connection = new DefaultHttp2Connection(false);
        Http2ConnectionEncoder encoder = new DefaultHttp2ConnectionEncoder(connection, writer);
        Http2ConnectionDecoder decoder =
                new DefaultHttp2ConnectionDecoder(connection, encoder, new DefaultHttp2FrameReader());
        Http2ConnectionHandler handler = new Http2ConnectionHandlerBuilder()
                .frameListener(new Http2FrameAdapter()).codec(decoder, encoder).build();
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        channel.pipeline().addLast(handler);
        StringBuilder transcript = new StringBuilder();
        try {
            ChannelHandlerContext ctx = channel.pipeline().context(handler);
            int window = 1 + random.nextInt(random.nextBoolean() ? 100 : 20000);
            int maxFrameSize = 16384 + (random.nextBoolean() ? 0 : random.nextInt(30000));
            channel.writeInbound(Unpooled.wrappedBuffer(Frames.concat(
                    Frames.settings(4, window, 5, maxFrameSize), Frames.settingsAck())));
            drain(channel);

            List<ChannelPromise> promises = new ArrayList<>();
            int streams = 1 + random.nextInt(3);
            for (int s = 0; s < streams; s++) {
                int streamId = 3 + 2 * s;
                encoder.writeHeaders(ctx, streamId, new DefaultHttp2Headers().method("POST").path("/" + s)
                        .scheme("http").authority("x"), 0, false, track(ctx, promises));
                int writes = 1 + random.nextInt(4);
                for (int w = 0; w < writes; w++) {
                    int length = random.nextInt(4) == 0 ? random.nextInt(20) : random.nextInt(50000);
                    int padding = random.nextInt(4) == 0 ? random.nextInt(257) : 0;
                    ByteBuf data = PooledByteBufAllocator.DEFAULT.buffer(length)
                            .writeBytes(Frames.pattern(length, (int) seed + w));
                    encoder.writeData(ctx, streamId, data, padding, w == writes - 1, track(ctx, promises));
                }
            }
            channel.flush();
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            bytes.writeBytes(drain(channel));
            for (int round = 0; round < 400 && !allDone(promises); round++) {
                int streamId = random.nextInt(3) == 0 ? 0 : 3 + 2 * random.nextInt(streams);
                int increment = 1 + random.nextInt(random.nextBoolean() ? 500 : 40000);
                channel.writeInbound(Unpooled.wrappedBuffer(Frames.windowUpdate(streamId, increment)));
                channel.flush();
                bytes.writeBytes(drain(channel));
            }
            transcript.append(WriterTranscript.bytes(bytes.toByteArray()));
            for (ChannelPromise promise : promises) {
                transcript.append('\n').append(WriterTranscript.state(promise));
            }
        } finally {
            channel.finishAndReleaseAll();
        }
        return transcript.toString();
    }

    private static ChannelPromise track(ChannelHandlerContext ctx, List<ChannelPromise> promises) {
        ChannelPromise promise = ctx.newPromise();
        promises.add(promise);
        return promise;
    }

    private static boolean allDone(List<ChannelPromise> promises) {
        for (ChannelPromise promise : promises) {
            if (!promise.isDone()) {
                return false;
            }
        }
        return true;
    }

    private static byte[] drain(EmbeddedChannel channel) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuf buf; (buf = channel.readOutbound()) != null; ) {
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            out.write(bytes, 0, bytes.length);
            buf.release();
        }
        return out.toByteArray();
    }
}
