/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

/**
 * Answers an HTTP/1.1 request that did not ask to upgrade (or a TLS client that chose http/1.1): this server
 * speaks HTTP/2 only, so it says how to reach it, with 505, and closes the connection. Bytes that are not an
 * HTTP/1.1 request either (an invalid connection preface) close the connection with no answer.
 */
final class Http1FallbackHandler extends SimpleChannelInboundHandler<HttpObject> {

    private static final String MESSAGE = "This server speaks HTTP/2 only: use h2c with prior knowledge "
            + "(curl --http2-prior-knowledge), HTTP/1.1 with Upgrade: h2c (curl --http2), or TLS with ALPN h2.\n";

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
        if (!(msg instanceof HttpRequest)) {
            return; // the request's body, if any: ignored (and released by SimpleChannelInboundHandler)
        }
        if (msg.decoderResult().isFailure()) {
            // Neither the HTTP/2 preface nor an HTTP/1.1 request (RFC 9113 3.4: an invalid preface is a
            // connection error): the peer may be an HTTP/2 client that would read any answer as a frame, so
            // the connection is closed without one.
            ctx.close();
            return;
        }
        ByteBuf body = ByteBufUtil.writeAscii(ctx.alloc(), MESSAGE);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED, body);
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes())
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
