/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Code written against Netty's builders compiles against the pooled ones with the class name changed: every public
 * method of Netty's builder is public on the pooled one, static where Netty's is, and where Netty's returns its
 * builder the pooled one returns the pooled builder, so that a chain of setters ends in the pooled {@code build()}.
 */
class BuilderApiTest {

    @Test
    void frameCodecBuilderHasEveryPublicMethodOfNettys() {
        assertEquals(List.of(), differences(Http2FrameCodecBuilder.class, PooledHttp2FrameCodecBuilder.class));
    }

    @Test
    void connectionHandlerBuilderHasEveryPublicMethodOfNettys() {
        assertEquals(List.of(),
                differences(Http2ConnectionHandlerBuilder.class, PooledHttp2ConnectionHandlerBuilder.class));
    }

    /** Netty's public methods the pooled builder lacks or declares differently, one line each. */
    private static List<String> differences(Class<?> netty, Class<?> pooled) {
        List<String> differences = new ArrayList<>();
        for (Method nettys : netty.getMethods()) {
            if (nettys.getDeclaringClass() == Object.class || nettys.isBridge()) {
                continue;
            }
            String name = nettys.getName() + Arrays.toString(nettys.getParameterTypes());
            Method pooleds;
            try {
                // The most specific return type wins over a covariant override's bridge.
                pooleds = pooled.getMethod(nettys.getName(), nettys.getParameterTypes());
            } catch (NoSuchMethodException e) {
                differences.add(name + ": not public");
                continue;
            }
            boolean isStatic = Modifier.isStatic(nettys.getModifiers());
            if (isStatic != Modifier.isStatic(pooleds.getModifiers())) {
                differences.add(name + ": static on one builder only");
            }
            if (nettys.getReturnType() == netty && pooleds.getReturnType() != pooled) {
                differences.add(name + ": returns " + pooleds.getReturnType().getSimpleName());
            }
        }
        return differences;
    }
}
