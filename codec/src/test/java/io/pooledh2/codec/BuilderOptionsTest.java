/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2ChannelDuplexHandler;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2Frame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamFrame;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Each option of Netty's builders that changes what a connection does, set on the pooled builder, changes it as it
 * does on Netty's: one end is built by each builder with the option, fed the same bytes, and what it writes (every
 * byte, frame by frame) and what it hands the application must be the same. So that a builder that ignored the
 * option could not pass, each case also checks that the pooled end without the option behaves differently.
 * Options with tests of their own elsewhere (the flood limits, {@code encoderIgnoreMaxHeaderListSize},
 * {@code encoderEnforceMaxConcurrentStreams}, {@code frameLogger}, {@code gracefulShutdownTimeoutMillis}) are not
 * repeated here; an option that needs a newer Netty is here when the class path has it
 * ({@link NettyReleaseOptionsTest} covers the releases without it).
 */
class BuilderOptionsTest {

    /** The two ways into a pipeline: the frame codec, or a connection handler calling an {@link Http2FrameListener}. */
    enum Path { FRAME_CODEC, LISTENER }

    /** A step of a scenario: bytes from the peer, or something the application does. */
    interface Step {
        /** {@code frames} is the handler after the frame codec, null on the listener path. */
        void run(EmbeddedChannel channel, Http2ConnectionHandler handler, FrameRecorder frames) throws Exception;
    }

    /** An option by its setter's name and arguments, set through reflection on whichever builder is built. */
    record Option(String name, Object... args) {
        @Override
        public String toString() {
            return name + Arrays.toString(args);
        }
    }

    /** {@code base}: an option set with and without the one under test, or null. */
    record Scenario(String name, boolean server, Option option, Option base, Step... steps) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final Http2HeadersEncoder.SensitivityDetector ALL_SENSITIVE = (name, value) -> true;

    static Stream<Arguments> cases() {
        List<Scenario> scenarios = List.of(
                new Scenario("autoAckSettingsFrame(false): SETTINGS not acknowledged", true,
                        new Option("autoAckSettingsFrame", false), null,
                        clientPreface(),
                        inbound(out -> settings(out, Http2CodecUtil.SETTINGS_MAX_CONCURRENT_STREAMS, 10))),
                new Scenario("autoAckPingFrame(false): PING not answered", true,
                        new Option("autoAckPingFrame", false), null,
                        clientPreface(), inbound(out -> RawFrames.frame(out, 0x6, 0, 0, new byte[8]))),
                new Scenario("flushPreface(false): the preface waits for a flush", true,
                        new Option("flushPreface", false), null),
                new Scenario("decoupleCloseAndGoAway(true): close sends no GOAWAY", true,
                        new Option("decoupleCloseAndGoAway", true), null,
                        clientPreface()),
                new Scenario("decoderEnforceMaxSmallContinuationFrames(1): three small CONTINUATIONs", true,
                        new Option("decoderEnforceMaxSmallContinuationFrames", 1), null,
                        clientPreface(), inbound(BuilderOptionsTest::headersInFourPieces)),
                new Scenario("validateHeaders(false): an upper-case header name passes", true,
                        new Option("validateHeaders", false), null,
                        clientPreface(), inbound(out -> RawFrames.frame(out, 0x1,
                                Http2Flags.END_HEADERS | Http2Flags.END_STREAM, 1, RawFrames.literalBlock(
                                        ":method", "GET", ":scheme", "http", ":authority", "a", ":path", "/",
                                        "X-Upper", "v")))),
                new Scenario("initialSettings(maxConcurrentStreams 1): a second stream is refused", true,
                        new Option("initialSettings", new Http2Settings().maxConcurrentStreams(1)), null,
                        clientPreface(), inbound(out -> {
                            RawFrames.frame(out, 0x1, Http2Flags.END_HEADERS, 1, request());
                            RawFrames.frame(out, 0x1, Http2Flags.END_HEADERS, 3, request());
                        })),
                new Scenario("headerSensitivityDetector(every header): never-indexed literals", false,
                        new Option("headerSensitivityDetector", ALL_SENSITIVE), null,
                        serverSettings(), writeRequest(true)),
                // A client's limit on pushed streams is its MAX_CONCURRENT_STREAMS plus the reserved ones.
                new Scenario("maxReservedStreams(0): a PUSH_PROMISE cannot reserve its stream", false,
                        new Option("maxReservedStreams", 0),
                        new Option("initialSettings", new Http2Settings().maxConcurrentStreams(0)),
                        serverSettings(), writeRequest(false), (channel, handler, frames) -> {
                            // On the request's stream, whose id the frame codec chose.
                            int streamId = handler.connection().local().lastStreamCreated();
                            ByteBuf payload = Unpooled.buffer().writeInt(2).writeBytes(request());
                            ByteBuf in = PooledByteBufAllocator.DEFAULT.buffer();
                            RawFrames.frame(in, 0x5, Http2Flags.END_HEADERS, streamId,
                                    ByteBufUtil.getBytes(payload));
                            payload.release();
                            channel.writeInbound(in);
                        }));
        List<Scenario> all = new ArrayList<>(scenarios);
        if (NettyRelease.atLeast(16)) {
            // Netty's builders have it from 4.2.16 on; NettyReleaseOptionsTest covers older releases.
            all.add(new Scenario("validateRequiredPseudoHeaders(true): a request without :method is reset", true,
                    new Option("validateRequiredPseudoHeaders", true), null,
                    clientPreface(), inbound(BuilderOptionsTest::requestWithoutMethod)));
        }
        List<Arguments> cases = new ArrayList<>();
        for (Scenario scenario : all) {
            for (Path path : Path.values()) {
                cases.add(Arguments.of(path, scenario));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void optionDoesOnThePooledBuilderWhatItDoesOnNettys(Path path, Scenario scenario) throws Exception {
        List<String> netty = run(false, path, scenario, true);
        List<String> pooled = run(true, path, scenario, true);
        assertEquals(netty, pooled, "with the option, Netty's builder then the pooled one");
        assertNotEquals(pooled, run(true, path, scenario, false), "the option changes nothing in this scenario");
    }

    /** What the end did, in order: what it wrote after each step (as frames) and what reached the application. */
    static List<String> run(boolean pooled, Path path, Scenario scenario, boolean withOption)
            throws Exception {
        List<String> transcript = new ArrayList<>();
        // Registered once the handler is in, so that it writes its preface as on a real connection.
        EmbeddedChannel channel = new EmbeddedChannel(false, false);
        channel.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        Http2ConnectionHandler handler;
        FrameRecorder frames = null;
        if (path == Path.FRAME_CODEC) {
            Http2FrameCodecBuilder builder = !pooled
                    ? scenario.server() ? Http2FrameCodecBuilder.forServer() : Http2FrameCodecBuilder.forClient()
                    : scenario.server() ? PooledHttp2FrameCodecBuilder.forServer()
                    : PooledHttp2FrameCodecBuilder.forClient();
            set(builder, scenario, withOption);
            handler = builder.build();
            frames = new FrameRecorder(transcript);
            channel.pipeline().addLast(handler, frames);
        } else {
            Http2FrameListener listener = recordingListener(transcript);
            Object builder = pooled
                    ? new PooledHttp2ConnectionHandlerBuilder().server(scenario.server()).frameListener(listener)
                    : new Http2ConnectionHandlerBuilder().server(scenario.server()).frameListener(listener);
            set(builder, scenario, withOption);
            handler = (Http2ConnectionHandler) invoke(builder, "build");
            channel.pipeline().addLast(handler);
        }
        try {
            channel.register();
            written(channel, "start", transcript);
            for (Step step : scenario.steps()) {
                step.run(channel, handler, frames);
                channel.runPendingTasks();
                written(channel, "step", transcript);
            }
            channel.close();
            channel.runPendingTasks();
            written(channel, "close", transcript);
            return transcript;
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    private static void set(Object builder, Scenario scenario, boolean withOption) throws Exception {
        if (scenario.base() != null) {
            invoke(builder, scenario.base().name(), scenario.base().args());
        }
        if (withOption) {
            invoke(builder, scenario.option().name(), scenario.option().args());
        }
    }

    /**
     * Calls a builder method by name. Netty's {@code Http2ConnectionHandlerBuilder} keeps some options protected
     * ({@code autoAckSettingsFrame}, {@code autoAckPingFrame}, {@code decoderEnforceMaxSmallContinuationFrames}),
     * which its subclasses may set: those are called as a subclass would.
     */
    private static Object invoke(Object target, String name, Object... args) throws Exception {
        for (Class<?> type = target.getClass(); type != null; type = type.getSuperclass()) {
            for (Method method : type.getDeclaredMethods()) {
                if (method.getName().equals(name) && method.getParameterCount() == args.length && !method.isBridge()
                        && accepts(method.getParameterTypes(), args)) {
                    method.setAccessible(true);
                    try {
                        return method.invoke(target, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
                    }
                }
            }
        }
        throw new NoSuchMethodException(target.getClass().getName() + "." + name);
    }

    private static boolean accepts(Class<?>[] types, Object[] args) {
        for (int i = 0; i < types.length; i++) {
            Class<?> type = types[i] == boolean.class ? Boolean.class : types[i] == int.class ? Integer.class
                    : types[i] == long.class ? Long.class : types[i];
            if (!type.isInstance(args[i])) {
                return false;
            }
        }
        return true;
    }

    /** Renders the bytes the end wrote since the last call, frame by frame, every byte of each. */
    private static void written(EmbeddedChannel channel, String when, List<String> transcript) {
        ByteBuf all = Unpooled.buffer();
        for (Object out; (out = channel.readOutbound()) != null; ) {
            all.writeBytes((ByteBuf) out);
            ((ByteBuf) out).release();
        }
        ByteBuf preface = Http2CodecUtil.connectionPrefaceBuf();
        if (all.readableBytes() >= preface.readableBytes()
                && ByteBufUtil.equals(all, 0, preface, 0, preface.readableBytes())) {
            transcript.add(when + ": wrote the client preface");
            all.skipBytes(preface.readableBytes());
        }
        preface.release();
        while (all.readableBytes() >= 9) {
            int length = all.getUnsignedMedium(all.readerIndex());
            String header = "type=" + all.getUnsignedByte(all.readerIndex() + 3)
                    + " flags=" + all.getUnsignedByte(all.readerIndex() + 4)
                    + " stream=" + all.getInt(all.readerIndex() + 5);
            all.skipBytes(9);
            int available = Math.min(length, all.readableBytes());
            transcript.add(when + ": wrote " + header + " " + ByteBufUtil.hexDump(all, all.readerIndex(), available));
            all.skipBytes(available);
        }
        if (all.isReadable()) {
            transcript.add(when + ": wrote a partial frame " + ByteBufUtil.hexDump(all));
        }
        all.release();
    }

    /** On the frame codec: the frames, events and exceptions the codec hands on; it makes streams to write on. */
    private static final class FrameRecorder extends Http2ChannelDuplexHandler {
        private final List<String> transcript;

        FrameRecorder(List<String> transcript) {
            this.transcript = transcript;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                String stream = msg instanceof Http2StreamFrame && ((Http2StreamFrame) msg).stream() != null
                        ? " stream " + ((Http2StreamFrame) msg).stream().id() : "";
                transcript.add("read " + (msg instanceof Http2Frame ? ((Http2Frame) msg).name() : msg) + stream);
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            transcript.add("event " + evt.getClass().getSimpleName());
            ReferenceCountUtil.release(evt);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            transcript.add("exception " + cause.getClass().getSimpleName());
        }
    }

    /** On the listener path: each listener call, with its stream id where it has one. */
    private static Http2FrameListener recordingListener(List<String> transcript) {
        return (Http2FrameListener) Proxy.newProxyInstance(BuilderOptionsTest.class.getClassLoader(),
                new Class<?>[] {Http2FrameListener.class}, (proxy, method, args) -> {
                    String stream = args.length > 1 && args[1] instanceof Integer ? " stream " + args[1] : "";
                    transcript.add("read " + method.getName() + stream);
                    if (method.getName().equals("onDataRead")) {
                        return ((ByteBuf) args[2]).readableBytes() + (Integer) args[3];
                    }
                    return null;
                });
    }

    /** A step with bytes from the peer. */
    static Step inbound(Consumer<ByteBuf> bytes) {
        return (channel, handler, frames) -> {
            ByteBuf in = PooledByteBufAllocator.DEFAULT.buffer();
            bytes.accept(in);
            channel.writeInbound(in);
        };
    }

    /** A client's preface and empty SETTINGS, and the ACK of the server's. */
    static Step clientPreface() {
        return inbound(out -> {
            out.writeBytes(Http2CodecUtil.connectionPrefaceBuf());
            RawFrames.header(out, 0, 0x4, 0, 0);
            RawFrames.header(out, 0, 0x4, Http2Flags.ACK, 0);
        });
    }

    /** A server's empty SETTINGS, and the ACK of the client's. */
    private static Step serverSettings() {
        return inbound(out -> {
            RawFrames.header(out, 0, 0x4, 0, 0);
            RawFrames.header(out, 0, 0x4, Http2Flags.ACK, 0);
        });
    }

    /** The application sends a request on stream 1: a frame on a new frame stream, or through the encoder. */
    private static Step writeRequest(boolean endStream) {
        return (channel, handler, frames) -> {
            Http2Headers headers = new DefaultHttp2Headers().method("GET").scheme("http").authority("a").path("/")
                    .add("cookie", "secret");
            if (frames != null) {
                channel.writeOutbound(new DefaultHttp2HeadersFrame(headers, endStream).stream(frames.newStream()));
                return;
            }
            ChannelHandlerContext ctx = channel.pipeline().context(handler);
            handler.encoder().writeHeaders(ctx, 1, headers, 0, endStream, ctx.newPromise());
            ctx.flush();
        };
    }

    private static void settings(ByteBuf out, char id, long value) {
        RawFrames.header(out, 6, 0x4, 0, 0);
        out.writeShort(id).writeInt((int) value);
    }

    private static byte[] request() {
        return RawFrames.literalBlock(":method", "GET", ":scheme", "http", ":authority", "a", ":path", "/");
    }

    /** A request on stream 1 with every pseudo-header but :method (RFC 9113 section 8.3.1 requires it). */
    static void requestWithoutMethod(ByteBuf out) {
        RawFrames.frame(out, 0x1, Http2Flags.END_HEADERS | Http2Flags.END_STREAM, 1,
                RawFrames.literalBlock(":scheme", "http", ":authority", "a", ":path", "/"));
    }

    /** A request's header block in a HEADERS frame and three small CONTINUATION frames. */
    private static void headersInFourPieces(ByteBuf out) {
        byte[] block = request();
        int piece = block.length / 4;
        RawFrames.frame(out, 0x1, Http2Flags.END_STREAM, 1, Arrays.copyOfRange(block, 0, piece));
        RawFrames.frame(out, 0x9, 0, 1, Arrays.copyOfRange(block, piece, 2 * piece));
        RawFrames.frame(out, 0x9, 0, 1, Arrays.copyOfRange(block, 2 * piece, 3 * piece));
        RawFrames.frame(out, 0x9, Http2Flags.END_HEADERS, 1, Arrays.copyOfRange(block, 3 * piece, block.length));
    }
}
