/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionDecoder;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionEncoder;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The reader where DefaultHttp2FrameReader stood: inside DefaultHttp2ConnectionDecoder, unchanged. */
class DropInDecoderTest {

    @Test
    void serverDecodesARequestAndAppliesAcknowledgedSettingsToTheReader() throws Exception {
        List<String> calls = new ArrayList<>();
        PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
        Http2Connection connection = new DefaultHttp2Connection(true);
        Http2ConnectionEncoder encoder = new DefaultHttp2ConnectionEncoder(connection, new DefaultHttp2FrameWriter());
        Http2ConnectionDecoder decoder = new DefaultHttp2ConnectionDecoder(connection, encoder, reader);
        Http2ConnectionHandler handler = new Http2ConnectionHandlerBuilder()
                .codec(decoder, encoder)
                .initialSettings(new Http2Settings().maxFrameSize(32768).maxHeaderListSize(4096))
                .frameListener(new Http2FrameAdapter() {
                    @Override
                    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers,
                                              int streamDependency, short weight, boolean exclusive,
                                              int padding, boolean endStream) {
                        // The decoder always calls this form.
                        calls.add("HEADERS " + streamId + " " + headers.path() + " eos=" + endStream);
                    }

                    @Override
                    public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding,
                                          boolean endOfStream) {
                        calls.add("DATA " + streamId + " " + ByteBufUtil.hexDump(data) + " eos=" + endOfStream);
                        return data.readableBytes() + padding;
                    }
                })
                .build();
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        channel.pipeline().addLast(handler);
        try {
            assertEquals(16384, reader.maxFrameSize(), "the peer has not acknowledged our settings yet");

            ByteBuf in = PooledByteBufAllocator.DEFAULT.buffer();
            in.writeBytes(Http2CodecUtil.connectionPrefaceBuf());
            RawFrames.header(in, 0, 0x4, 0, 0);                      // client SETTINGS
            RawFrames.header(in, 0, 0x4, 0x1, 0);                    // ACK of the server's SETTINGS
            RawFrames.frame(in, 0x1, 0x4, 1, RawFrames.requestHeaders("/drop-in"));
            RawFrames.frame(in, 0x0, 0x1, 1, RawFrames.bytes("body"));
            channel.writeInbound(in);

            assertEquals(List.of("HEADERS 1 /drop-in eos=false",
                    "DATA 1 " + ByteBufUtil.hexDump(RawFrames.bytes("body")) + " eos=true"), calls);
            assertEquals(32768, reader.maxFrameSize(), "MAX_FRAME_SIZE applied to the reader on ACK");
            assertEquals(4096, reader.headersConfiguration().maxHeaderListSize());
            assertTrue(channel.isActive());
            assertFalse(reader.holdsHeaderBlockBuffer());
        } finally {
            channel.finishAndReleaseAll();
        }
    }
}
