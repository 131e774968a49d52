/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.pooledh2.codec.PooledHttp2FrameCodecBuilder;
import io.pooledh2.codec.PooledHttp2FrameReader;

/**
 * Run by {@link ModulePathIT} in a JVM of its own, with the codec's jar and Netty's on the module path and only this
 * class on the class path: checks that the codec is the named module {@code io.pooledh2.codec}, then uses it (a
 * pooled frame codec answers a client's PING). Prints {@code ok} and exits with 0, or says what is wrong and exits
 * with 1.
 */
public final class ModulePathProbe {

    private ModulePathProbe() {
    }

    public static void main(String[] args) {
        Module module = PooledHttp2FrameReader.class.getModule();
        if (!module.isNamed() || !"io.pooledh2.codec".equals(module.getName())) {
            fail("the codec is not the module io.pooledh2.codec: " + module);
        }
        EmbeddedChannel channel = new EmbeddedChannel(PooledHttp2FrameCodecBuilder.forServer().build());
        try {
            ByteBuf in = Unpooled.buffer();
            in.writeBytes(Http2CodecUtil.connectionPrefaceBuf());
            in.writeMedium(0).writeByte(0x4).writeByte(0).writeInt(0);                     // SETTINGS, empty
            in.writeMedium(8).writeByte(0x6).writeByte(0).writeInt(0).writeLong(0x5EED);   // PING
            channel.writeInbound(in);
            channel.flushOutbound();
            ByteBuf out = Unpooled.buffer();
            for (ByteBuf part; (part = channel.readOutbound()) != null; ) {
                out.writeBytes(part);
                part.release();
            }
            boolean pingAck = false;
            while (out.readableBytes() >= 9) {
                int length = out.readUnsignedMedium();
                int type = out.readUnsignedByte();
                int flags = out.readUnsignedByte();
                out.skipBytes(4);
                if (type == 0x6 && flags == 0x1 && length == 8 && out.getLong(out.readerIndex()) == 0x5EED) {
                    pingAck = true;
                }
                out.skipBytes(Math.min(length, out.readableBytes()));
            }
            out.release();
            if (!pingAck) {
                fail("no PING ACK from the pooled codec");
            }
        } finally {
            channel.finishAndReleaseAll();
        }
        System.out.println("ok: " + module.getDescriptor().toNameAndVersion()
                + (module.getDescriptor().isAutomatic() ? " (automatic)" : ""));
    }

    private static void fail(String message) {
        System.out.println("FAIL: " + message);
        System.exit(1);
    }
}
