/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.Http2FrameTypes;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link FrameReuseStatistics}: off by default (the switch is a constant, so the counting is compiled out), and
 * with {@code -Dio.pooledh2.reuseStats=true} in a JVM of its own, the counts of frames parsed and of frame objects
 * made new.
 */
class FrameReuseStatisticsTest {

    @Test
    void offByDefault() {
        assertFalse(FrameReuseStatistics.isEnabled());
        assertEquals(0, FrameReuseStatistics.parsed(Http2FrameTypes.DATA));
    }

    @Test
    void countsParsedAndNewFramesWhenOn() throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        Process process = new ProcessBuilder(java, "-D" + FrameReuseStatistics.REUSE_STATS_PROPERTY + "=true",
                "-Dio.netty.leakDetection.level=paranoid", "-cp", System.getProperty("java.class.path"),
                Child.class.getName())
                .redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), out);
        // 100 DATA frames: the first made new, one kept by the consumer, so one more made new; 98 reused.
        assertTrue(out.contains("enabled=true parsed=100 created=2"), out);
        assertTrue(out.contains("DATA          parsed          100  new        2  reused  98.0000%"), out);
    }

    /** Reads 100 DATA frames, releasing all but the 50th during the callback, and prints the counts. */
    static final class Child {
        public static void main(String[] args) throws Exception {
            EventLoopThread.run(() -> {
                EmbeddedChannel channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
                ChannelHandlerContext ctx = channel.pipeline().firstContext();
                PooledHttp2FrameReader reader = new PooledHttp2FrameReader();
                List<PooledHttp2Frame> kept = new ArrayList<>();
                for (int i = 1; i <= 100; i++) {
                    ByteBuf in = Unpooled.buffer();
                    FrameKind.DATA.write(in, 1);
                    int n = i;
                    reader.readFrame(ctx, in, (c, frame) -> {
                        if (n == 50) {
                            kept.add(frame);
                        } else {
                            frame.release();
                        }
                    });
                    in.release();
                }
                kept.forEach(PooledHttp2Frame::release);
                channel.finishAndReleaseAll();
            });
            System.out.println("enabled=" + FrameReuseStatistics.isEnabled()
                    + " parsed=" + FrameReuseStatistics.parsed(Http2FrameTypes.DATA)
                    + " created=" + FrameReuseStatistics.created(Http2FrameTypes.DATA));
            System.out.print(FrameReuseStatistics.summary());
        }
    }
}
