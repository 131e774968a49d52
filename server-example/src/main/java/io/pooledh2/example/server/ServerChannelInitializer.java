/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http2.CleartextHttp2ServerUpgradeHandler;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.ssl.SslContext;
import io.netty.util.AsciiString;

/**
 * The pipeline of each accepted connection. Cleartext: HTTP/2 with prior knowledge, or HTTP/1.1 that upgrades
 * with {@code Upgrade: h2c} (Netty's {@link CleartextHttp2ServerUpgradeHandler} tells them apart by the first
 * bytes); an HTTP/1.1 request without upgrade gets {@link Http1FallbackHandler}'s answer. TLS: ALPN decides.
 * Every connection joins {@code connections}, which the graceful shutdown closes.
 */
final class ServerChannelInitializer extends ChannelInitializer<SocketChannel> {

    /** Netty's limit on the body of an HTTP/1.1 request that asks to upgrade. */
    private static final int MAX_UPGRADE_CONTENT_LENGTH = 64 * 1024;

    private final Http2ConnectionSetup http2;
    private final SslContext sslContext;
    private final ChannelGroup connections;

    ServerChannelInitializer(Http2ConnectionSetup http2, SslContext sslContext, ChannelGroup connections) {
        this.http2 = http2;
        this.sslContext = sslContext;
        this.connections = connections;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        connections.add(ch);
        ChannelPipeline p = ch.pipeline();
        if (sslContext != null) {
            p.addLast(sslContext.newHandler(ch.alloc()), new AlpnHandler(http2));
            return;
        }
        HttpServerCodec http1 = new HttpServerCodec();
        HttpServerUpgradeHandler upgrade = new HttpServerUpgradeHandler(http1, protocol ->
                AsciiString.contentEquals(Http2CodecUtil.HTTP_UPGRADE_PROTOCOL_NAME, protocol)
                        ? http2.newUpgradeCodec() : null, MAX_UPGRADE_CONTENT_LENGTH);
        p.addLast(new CleartextHttp2ServerUpgradeHandler(http1, upgrade, new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                // Prior knowledge: no HTTP/1.1 on this connection.
                ch.pipeline().remove(Http1FallbackHandler.class);
                http2.addTo(ch.pipeline());
            }
        }));
        p.addLast(new Http1FallbackHandler());
    }
}
