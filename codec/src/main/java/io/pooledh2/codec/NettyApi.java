/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.DefaultHttp2ConnectionDecoder;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2FrameReader;
import io.netty.handler.codec.http2.Http2PromisedRequestVerifier;
import io.netty.util.internal.PlatformDependent;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Map;

/**
 * What the Netty on the class path has beyond 4.2.12, the oldest release the codec supports (4.2.11's
 * {@code CompositeByteBuf} misreads a buffer read in place, as the reader reads its input; older releases lack the
 * reader's CONTINUATION-flood limit). Found by its API (a constructor or method that is there or not), or where a
 * release changed behaviour without new API, by asking Netty's own class once; never by a version string, so that a
 * patched or repackaged Netty, or a class path that mixes Netty's modules from several releases, is judged by what
 * it does. The source compiles against every supported release: API newer than 4.2.12 is reached through the
 * method handles here, looked up once, and used only where present, so an older Netty never meets a
 * {@code NoSuchMethodError}.
 */
final class NettyApi {

    /**
     * {@code DefaultHttp2ConnectionDecoder}'s constructor that takes {@code validateRequiredPseudoHeaders}, or
     * {@code null} before Netty 4.2.16.
     */
    private static final MethodHandle DECODER_WITH_REQUIRED_PSEUDO_HEADERS = constructor(
            DefaultHttp2ConnectionDecoder.class, Http2Connection.class, Http2ConnectionEncoder.class,
            Http2FrameReader.class, Http2PromisedRequestVerifier.class,
            boolean.class, boolean.class, boolean.class, boolean.class);

    /**
     * Netty 4.2.16 or newer, known by its decoder constructor with {@code validateRequiredPseudoHeaders}. That
     * release also made {@code DefaultHttp2FrameReader} refuse a PUSH_PROMISE on stream 0 and started the decoder's
     * RST_STREAM window at the first RST_STREAM rather than at construction; the reader and
     * {@link DecoderFloodLimits} follow the release on the class path.
     */
    static final boolean NETTY_4_2_16 = DECODER_WITH_REQUIRED_PSEUDO_HEADERS != null;

    /**
     * Whether {@code DefaultHttp2Headers} validates a value set through an iterator's entry, as Netty 4.2.20's
     * {@code DefaultHeaders} does and older releases do not. No API tells the two apart, so Netty's own class is
     * asked, once; {@link PooledHttp2Headers}' entries do the same as it.
     */
    static final boolean ENTRY_SET_VALUE_VALIDATES = entrySetValueValidates();

    private NettyApi() {
    }

    /**
     * Netty's decoder; with {@code validateRequiredPseudoHeaders}, which the builders allow only when
     * {@link #NETTY_4_2_16}, through the constructor that takes it.
     */
    static DefaultHttp2ConnectionDecoder newDecoder(Http2Connection connection, Http2ConnectionEncoder encoder,
                                                    Http2FrameReader frameReader,
                                                    Http2PromisedRequestVerifier requestVerifier,
                                                    boolean autoAckSettings, boolean autoAckPing,
                                                    boolean validateHeaders, boolean validateRequiredPseudoHeaders) {
        if (!validateRequiredPseudoHeaders) {
            return new DefaultHttp2ConnectionDecoder(connection, encoder, frameReader, requestVerifier,
                    autoAckSettings, autoAckPing, validateHeaders);
        }
        try {
            return (DefaultHttp2ConnectionDecoder) DECODER_WITH_REQUIRED_PSEUDO_HEADERS.invoke(connection, encoder,
                    frameReader, requestVerifier, autoAckSettings, autoAckPing, validateHeaders, true);
        } catch (Throwable t) {
            PlatformDependent.throwException(t);
            throw new AssertionError(t);
        }
    }

    /**
     * The superclass method {@code name} of {@code caller}, for a {@code super.name(..)} call, or {@code null} when
     * the Netty on the class path does not have it. {@code lookup} is the caller's own.
     */
    static MethodHandle superMethod(MethodHandles.Lookup lookup, Class<?> owner, String name, Class<?> returnType,
                                    Class<?>... parameters) {
        try {
            return lookup.findSpecial(owner, name, MethodType.methodType(returnType, parameters),
                    lookup.lookupClass());
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }

    /** Calls a builder's setter found by {@link #superMethod}, which returns the builder. */
    static void invokeSetter(MethodHandle setter, Object builder, boolean value) {
        try {
            setter.invoke(builder, value);
        } catch (Throwable t) {
            PlatformDependent.throwException(t);
        }
    }

    /**
     * Fails a builder option that needs a newer Netty than the one on the class path, naming the option and the
     * release that has it.
     */
    static UnsupportedOperationException unsupported(String option, String release) {
        return new UnsupportedOperationException(option + " needs Netty " + release
                + " or newer; the Netty on the class path is older. Upgrade Netty or leave the option unset.");
    }

    private static boolean entrySetValueValidates() {
        Map.Entry<CharSequence, CharSequence> entry = new DefaultHttp2Headers(true, true, 1).add("a", "b")
                .iterator().next();
        try {
            entry.setValue("\n");
            return false;
        } catch (IllegalArgumentException e) {
            return true;
        }
    }

    private static MethodHandle constructor(Class<?> type, Class<?>... parameters) {
        try {
            return MethodHandles.publicLookup().findConstructor(type, MethodType.methodType(void.class, parameters));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }
}
