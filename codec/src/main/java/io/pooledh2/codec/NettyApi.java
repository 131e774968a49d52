/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.Unpooled;
import io.netty.channel.AbstractCoalescingBufferQueue;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelPromise;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionDecoder;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionEncoder;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2FrameReader;
import io.netty.handler.codec.http2.Http2FrameWriter;
import io.netty.handler.codec.http2.Http2LifecycleManager;
import io.netty.handler.codec.http2.Http2PromisedRequestVerifier;
import io.netty.handler.codec.http2.Http2RemoteFlowController;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.util.internal.PlatformDependent;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
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

    private static final InternalLogger logger = InternalLoggerFactory.getInstance(NettyApi.class);

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
     * RST_STREAM window at the first RST_STREAM rather than at construction, and made
     * {@code DefaultHttp2ConnectionEncoder} fail a DATA write whose queued buffer yields fewer bytes than it held
     * when queued; the reader, {@link DecoderFloodLimits} and {@link PooledHttp2ConnectionEncoder} follow the
     * release on the class path.
     */
    static final boolean NETTY_4_2_16 = DECODER_WITH_REQUIRED_PSEUDO_HEADERS != null;

    /**
     * Whether {@code DefaultHttp2Headers} validates a value set through an iterator's entry, as Netty 4.2.20's
     * {@code DefaultHeaders} does and older releases do not. No API tells the two apart, so Netty's own class is
     * asked, once; {@link PooledHttp2Headers}' entries do the same as it.
     */
    static final boolean ENTRY_SET_VALUE_VALIDATES = entrySetValueValidates();

    /**
     * How {@code DefaultHttp2ConnectionEncoder}'s DATA write, merged with a later one, ends the stream: with the
     * later write's promise, as Netty 4.2.20 does, or with the first write's, as before; {@code null} if Netty's
     * encoder could not be asked. No API tells them apart: Netty's own encoder is asked once.
     */
    private static final Boolean MERGE_PROBE = mergedDataTakesLaterPromise();

    /**
     * Whether Netty's DATA writes are known well enough for {@link PooledHttp2ConnectionEncoder} to make them
     * itself; if not, it leaves them to Netty's encoder.
     */
    static final boolean DATA_WRITES_KNOWN = MERGE_PROBE != null;

    /** Whether a merged DATA write ends its stream with the later write's promise (Netty 4.2.20). */
    static final boolean MERGED_DATA_TAKES_LATER_PROMISE = Boolean.TRUE.equals(MERGE_PROBE);

    /**
     * Whether Netty's {@code AbstractCoalescingBufferQueue} (netty-transport) resets its byte count, with an error
     * logged, when it finds itself empty with bytes counted (a queued buffer was consumed by someone else), as it
     * does from Netty 4.2.16 on; older releases only assert. Known by that private method being there.
     */
    static final boolean COALESCING_QUEUE_RECONCILES = declaresMethod(AbstractCoalescingBufferQueue.class,
            "reconcileReadableBytes");

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

    private static boolean declaresMethod(Class<?> type, String name) {
        for (Method method : type.getDeclaredMethods()) {
            if (method.getName().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Two DATA writes on one stream through Netty's own encoder, into a flow controller that only keeps them; the
     * first merges the second and completes: which promise does it close the stream with? Stand-ins answer
     * every other call with nothing.
     */
    private static Boolean mergedDataTakesLaterPromise() {
        try {
            List<Object> seen = new ArrayList<>();
            InvocationHandler recorder = (proxy, method, args) -> {
                if ("addFlowControlled".equals(method.getName()) || "closeStreamLocal".equals(method.getName())) {
                    seen.add(args[1]);
                }
                return defaultValue(method.getReturnType());
            };
            Http2Connection connection = new DefaultHttp2Connection(true);
            connection.remote().flowController(stand(Http2RemoteFlowController.class, recorder));
            connection.local().createStream(2, false);
            DefaultHttp2ConnectionEncoder encoder = new DefaultHttp2ConnectionEncoder(connection,
                    stand(Http2FrameWriter.class, recorder));
            encoder.lifecycleManager(stand(Http2LifecycleManager.class, recorder));
            Channel channel = stand(Channel.class, recorder);
            ChannelPromise first = new DefaultChannelPromise(channel, ImmediateEventExecutor.INSTANCE);
            ChannelPromise later = new DefaultChannelPromise(channel, ImmediateEventExecutor.INSTANCE);
            encoder.writeData(null, 2, Unpooled.EMPTY_BUFFER, 0, false, first);
            encoder.writeData(null, 2, Unpooled.EMPTY_BUFFER, 0, true, later);
            Http2RemoteFlowController.FlowControlled merged = (Http2RemoteFlowController.FlowControlled) seen.get(0);
            if (seen.size() != 2 || !merged.merge(null, (Http2RemoteFlowController.FlowControlled) seen.get(1))) {
                return null;
            }
            merged.writeComplete();
            return seen.size() == 3 ? seen.get(2) == later : null;
        } catch (Throwable t) {
            logger.debug("DefaultHttp2ConnectionEncoder could not be asked how it merges DATA writes", t);
            return null;
        }
    }

    private static <T> T stand(Class<T> type, InvocationHandler handler) {
        return type.cast(Proxy.newProxyInstance(NettyApi.class.getClassLoader(), new Class<?>[] {type}, handler));
    }

    private static Object defaultValue(Class<?> type) {
        if (!type.isPrimitive() || type == void.class) {
            return null;
        }
        if (type == boolean.class) {
            return false;
        }
        if (type == char.class) {
            return '\0';
        }
        if (type == long.class) {
            return 0L;
        }
        if (type == float.class) {
            return 0f;
        }
        if (type == double.class) {
            return 0d;
        }
        if (type == byte.class) {
            return (byte) 0;
        }
        if (type == short.class) {
            return (short) 0;
        }
        return 0;
    }

    private static MethodHandle constructor(Class<?> type, Class<?>... parameters) {
        try {
            return MethodHandles.publicLookup().findConstructor(type, MethodType.methodType(void.class, parameters));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }
}
