/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ApplicationProtocolNegotiationHandler;

/** After the TLS handshake: HTTP/2 for a client that chose h2 in ALPN, the HTTP/1.1 answer otherwise. */
final class AlpnHandler extends ApplicationProtocolNegotiationHandler {

    private final Http2ConnectionSetup http2;

    AlpnHandler(Http2ConnectionSetup http2) {
        super(ApplicationProtocolNames.HTTP_1_1);
        this.http2 = http2;
    }

    @Override
    protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
        if (ApplicationProtocolNames.HTTP_2.equals(protocol)) {
            http2.addTo(ctx.pipeline());
        } else if (ApplicationProtocolNames.HTTP_1_1.equals(protocol)) {
            ctx.pipeline().addLast(new HttpServerCodec(), new Http1FallbackHandler());
        } else {
            throw new IllegalStateException("unknown protocol: " + protocol);
        }
    }
}
