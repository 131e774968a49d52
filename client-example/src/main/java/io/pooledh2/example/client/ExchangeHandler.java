/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.client;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.util.ByteProcessor;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * One request/response on its own stream channel: sends the request (headers, body in DATA frames, trailers) when
 * the channel becomes active, checks the response as it arrives (status, echoed id, every body byte, trailers)
 * and reports once: {@code null} for a correct response, else what was wrong. Each inbound frame is released in
 * {@code channelRead}.
 */
final class ExchangeHandler extends ChannelInboundHandlerAdapter {

    private final Exchange exchange;
    private final CharSequence authority;
    private final int frameSize;
    private final FrameReuseCounter reuseCounter;
    private final LoadStats stats;
    /** Called once, on the channel's event loop: the exchange and its error (null when the response was right). */
    private final BiConsumer<Exchange, String> done;

    private final BodyChecker bodyChecker;
    private boolean responseHeadersSeen;
    private long bodyReceived;
    private boolean finished;

    ExchangeHandler(Exchange exchange, CharSequence authority, int frameSize, FrameReuseCounter reuseCounter,
                    LoadStats stats, BiConsumer<Exchange, String> done) {
        this.exchange = exchange;
        this.authority = authority;
        this.frameSize = frameSize;
        this.reuseCounter = reuseCounter;
        this.stats = stats;
        this.done = done;
        this.bodyChecker = new BodyChecker(exchange);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        Http2Headers trailers = exchange.requestTrailers();
        int bodySize = exchange.bodySize;
        ctx.write(new DefaultHttp2HeadersFrame(exchange.requestHeaders(authority), bodySize == 0 && trailers == null))
                .addListener(this::failIfNotWritten);
        for (long offset = 0; offset < bodySize; ) {
            int length = (int) Math.min(frameSize, bodySize - offset);
            ByteBuf data = ctx.alloc().buffer(length);
            exchange.writeBody(data, offset, length);
            offset += length;
            ctx.write(new DefaultHttp2DataFrame(data, offset == bodySize && trailers == null))
                    .addListener(this::failIfNotWritten);
        }
        if (trailers != null) {
            ctx.write(new DefaultHttp2HeadersFrame(trailers, true)).addListener(this::failIfNotWritten);
        }
        ctx.flush();
        stats.bodyBytesSent.add(bodySize);
        ctx.fireChannelActive();
    }

    private void failIfNotWritten(Future<? super Void> write) {
        if (!write.isSuccess()) {
            finish(null, "request not sent: " + write.cause());
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            reuseCounter.observe(msg);
            if (finished) {
                return;
            }
            if (msg instanceof Http2HeadersFrame) {
                onHeaders(ctx, (Http2HeadersFrame) msg);
            } else if (msg instanceof Http2DataFrame) {
                onData(ctx, (Http2DataFrame) msg);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void onHeaders(ChannelHandlerContext ctx, Http2HeadersFrame frame) {
        Http2Headers headers = frame.headers();
        if (!responseHeadersSeen) {
            responseHeadersSeen = true;
            if (!"200".contentEquals(headers.status())) {
                finish(ctx, "status " + headers.status() + " (expected 200)");
                return;
            }
            CharSequence id = headers.get(Exchange.ECHO_ID_HEADER);
            if (id == null || !exchange.id.contentEquals(id)) {
                finish(ctx, Exchange.ECHO_ID_HEADER + ": " + id + " (expected " + exchange.id + ")");
                return;
            }
            if (frame.isEndStream()) {
                endOfResponse(ctx, null);
            }
            return;
        }
        if (!frame.isEndStream()) {
            finish(ctx, "a second HEADERS frame without END_STREAM");
            return;
        }
        endOfResponse(ctx, headers);
    }

    private void onData(ChannelHandlerContext ctx, Http2DataFrame frame) {
        if (!responseHeadersSeen) {
            finish(ctx, "DATA before the response headers");
            return;
        }
        ByteBuf content = frame.content();
        int length = content.readableBytes();
        if (bodyReceived + length > exchange.expectedBodyLength()) {
            finish(ctx, "body longer than " + exchange.expectedBodyLength() + " bytes");
            return;
        }
        // One pass over the payload (one call: a leak-tracked buffer records each call under paranoid detection).
        bodyChecker.next = bodyReceived;
        int mismatch = content.forEachByte(bodyChecker);
        if (mismatch >= 0) {
            long offset = bodyReceived + mismatch - content.readerIndex();
            finish(ctx, "body byte " + offset + " is " + content.getByte(mismatch) + ", expected "
                    + exchange.expectedBodyByte(offset));
            return;
        }
        bodyReceived += length;
        stats.bodyBytesReceived.add(length);
        if (frame.isEndStream()) {
            endOfResponse(ctx, null);
        }
    }

    private void endOfResponse(ChannelHandlerContext ctx, Http2Headers trailers) {
        if (bodyReceived != exchange.expectedBodyLength()) {
            finish(ctx, "body of " + bodyReceived + " bytes, expected " + exchange.expectedBodyLength());
            return;
        }
        List<String> expected = fields(exchange.expectedTrailers());
        List<String> actual = fields(trailers);
        if (!expected.equals(actual)) {
            finish(ctx, "trailers " + actual + ", expected " + expected);
            return;
        }
        finish(ctx, null);
    }

    /** The header fields as sorted "name: value" strings, so that two blocks compare as multisets. */
    private static List<String> fields(Http2Headers headers) {
        List<String> fields = new ArrayList<>();
        if (headers != null) {
            for (Map.Entry<CharSequence, CharSequence> header : headers) {
                fields.add(header.getKey() + ": " + header.getValue());
            }
        }
        fields.sort(null);
        return fields;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof Http2ResetFrame) {
            finish(ctx, "stream reset by the server: error code " + ((Http2ResetFrame) evt).errorCode());
        }
        ctx.fireUserEventTriggered(evt); // the tail releases it
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        finish(ctx, "stream error: " + cause);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        finish(null, "stream closed before the response ended");
        ctx.fireChannelInactive();
    }

    /** Reports once; closes the stream's channel (which resets the stream if the response had not ended). */
    private void finish(ChannelHandlerContext ctx, String error) {
        if (finished) {
            return;
        }
        finished = true;
        done.accept(exchange, error);
        if (ctx != null) {
            ctx.close();
        }
    }

    /** Compares each byte with the expected body byte at the next offset; stops at the first difference. */
    private static final class BodyChecker implements ByteProcessor {
        private final Exchange exchange;
        long next;

        BodyChecker(Exchange exchange) {
            this.exchange = exchange;
        }

        @Override
        public boolean process(byte value) {
            return value == exchange.expectedBodyByte(next++);
        }
    }
}
