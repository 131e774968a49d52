/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.pooledh2.codec.BuilderOptionsTest.Option;
import io.pooledh2.codec.BuilderOptionsTest.Path;
import io.pooledh2.codec.BuilderOptionsTest.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The builder options that need a newer Netty than the oldest the codec supports (4.2.12), on whichever Netty the
 * tests run: CI runs them on the oldest and on the newest. Where the class path lacks an option, setting it fails at
 * once, naming the option and the release that has it, and a builder without it works as Netty's builder on that
 * release does; where the class path has it, it can be set ({@link BuilderOptionsTest} checks what it does).
 */
class NettyReleaseOptionsTest {

    /** A request without :method, which only {@code validateRequiredPseudoHeaders(true)} refuses. */
    private static final Scenario REQUEST_WITHOUT_METHOD = new Scenario("a request without :method", true,
            new Option("validateRequiredPseudoHeaders", false), null,
            BuilderOptionsTest.clientPreface(), BuilderOptionsTest.inbound(BuilderOptionsTest::requestWithoutMethod));

    /**
     * Every Netty module on the class path is one release: the one the build asked the tests to run on
     * ({@code -Dnetty.runtime.version}), when it asked.
     */
    @Test
    void testsRunOnOneNettyRelease() {
        String requested = System.getProperty("pooledh2.test.nettyRelease");
        if (requested != null) {
            assertEquals(requested, NettyRelease.VERSION);
        }
        for (String artifact : List.of("netty-common", "netty-buffer", "netty-transport", "netty-codec-base",
                "netty-handler", "netty-codec-http", "netty-codec-http2")) {
            assertEquals(NettyRelease.VERSION, NettyRelease.artifactVersion(artifact), artifact);
        }
        assertTrue(NettyRelease.atLeast(12), "the codec supports Netty 4.2.12 and newer: " + NettyRelease.VERSION);
    }

    @ParameterizedTest
    @EnumSource(Path.class)
    void validateRequiredPseudoHeadersNeedsNetty4216(Path path) throws Exception {
        boolean available = NettyRelease.atLeast(16);
        assertEquals(available, path == Path.FRAME_CODEC
                ? PooledHttp2FrameCodecBuilder.isValidateRequiredPseudoHeadersSupported()
                : PooledHttp2ConnectionHandlerBuilder.isValidateRequiredPseudoHeadersSupported());
        if (available) {
            if (path == Path.FRAME_CODEC) {
                PooledHttp2FrameCodecBuilder builder = PooledHttp2FrameCodecBuilder.forServer();
                assertSame(builder, builder.validateRequiredPseudoHeaders(true));
            } else {
                PooledHttp2ConnectionHandlerBuilder builder = new PooledHttp2ConnectionHandlerBuilder();
                assertSame(builder, builder.validateRequiredPseudoHeaders(true));
            }
        } else {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> {
                        if (path == Path.FRAME_CODEC) {
                            PooledHttp2FrameCodecBuilder.forServer().validateRequiredPseudoHeaders(true);
                        } else {
                            new PooledHttp2ConnectionHandlerBuilder().validateRequiredPseudoHeaders(true);
                        }
                    });
            assertTrue(e.getMessage().startsWith("validateRequiredPseudoHeaders(true) needs Netty 4.2.16.Final "),
                    e.getMessage());
        }
        // Unset, or false (which Netty's builder, where it has the option, is given too): the pooled builder's
        // connection does what Netty's does on this release, byte for byte.
        List<String> unset = BuilderOptionsTest.run(true, path, REQUEST_WITHOUT_METHOD, false);
        assertEquals(BuilderOptionsTest.run(false, path, REQUEST_WITHOUT_METHOD, false), unset);
        assertTrue(unset.contains(path == Path.FRAME_CODEC ? "read HEADERS stream 1" : "read onHeadersRead stream 1"),
                "the request reaches the application: " + unset);
        assertEquals(BuilderOptionsTest.run(false, path, REQUEST_WITHOUT_METHOD, available),
                BuilderOptionsTest.run(true, path, REQUEST_WITHOUT_METHOD, true));
    }
}
