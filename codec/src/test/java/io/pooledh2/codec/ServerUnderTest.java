/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2FrameStreamException;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.util.ReferenceCountUtil;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * One HTTP/2 server end in an {@link EmbeddedChannel}, built by Netty's builder or the pooled one, frame codec or
 * listener path, that answers like a small application: HEADERS ending the request on {@code /respond} get a
 * response that ends the stream, HEADERS on {@code /reset} get RST_STREAM(CANCEL), everything else nothing. The
 * test feeds client bytes in steps and gets back what the server wrote (as frames) and whether it closed the
 * connection, so that Netty's builders and the pooled ones can be compared on the same bytes.
 */
final class ServerUnderTest {

    /** Which builder makes the server. */
    enum Kind {
        NETTY_CODEC(false, true), POOLED_CODEC(true, true), NETTY_LISTENER(false, false), POOLED_LISTENER(true, false);

        final boolean pooled;
        final boolean codec;

        Kind(boolean pooled, boolean codec) {
            this.pooled = pooled;
            this.codec = codec;
        }

        /** Netty's builder of the same path. */
        Kind netty() {
            return codec ? NETTY_CODEC : NETTY_LISTENER;
        }
    }

    /** Builder options the tests vary; {@code null} leaves the builder's default. */
    static final class Options {
        Http2Settings initialSettings;
        Boolean strictStreamStates;
        /** Outbound writes are held, never completed: a peer that does not read. */
        boolean peerDoesNotRead;
        Integer maxConsecutiveEmptyDataFrames;
        /** {@code decoderEnforceMaxRstFramesPerWindow}'s two values. */
        int[] rstLimit;
        /** {@code encoderEnforceMaxRstFramesPerWindow}'s two values. */
        int[] encoderRstLimit;
        Integer maxQueuedControlFrames;

        Options initialSettings(Http2Settings settings) {
            initialSettings = settings;
            return this;
        }

        Options strictStreamStates(boolean strict) {
            strictStreamStates = strict;
            return this;
        }

        Options peerDoesNotRead() {
            peerDoesNotRead = true;
            return this;
        }

        Options maxConsecutiveEmptyDataFrames(int max) {
            maxConsecutiveEmptyDataFrames = max;
            return this;
        }

        Options rstLimit(int maxRstFramesPerWindow, int secondsPerWindow) {
            rstLimit = new int[] {maxRstFramesPerWindow, secondsPerWindow};
            return this;
        }

        Options encoderRstLimit(int maxRstFramesPerWindow, int secondsPerWindow) {
            encoderRstLimit = new int[] {maxRstFramesPerWindow, secondsPerWindow};
            return this;
        }

        Options maxQueuedControlFrames(int max) {
            maxQueuedControlFrames = max;
            return this;
        }

        /** Gives the options that are set to a builder, Netty's or pooled, through its setters. */
        void applyTo(Consumer<Http2Settings> initialSettings, IntConsumer maxConsecutiveEmptyDataFrames,
                     IntPairConsumer decoderRstLimit, IntPairConsumer encoderRstLimit,
                     IntConsumer maxQueuedControlFrames) {
            if (this.initialSettings != null) {
                initialSettings.accept(this.initialSettings);
            }
            if (this.maxConsecutiveEmptyDataFrames != null) {
                maxConsecutiveEmptyDataFrames.accept(this.maxConsecutiveEmptyDataFrames);
            }
            if (rstLimit != null) {
                decoderRstLimit.accept(rstLimit[0], rstLimit[1]);
            }
            if (this.encoderRstLimit != null) {
                encoderRstLimit.accept(this.encoderRstLimit[0], this.encoderRstLimit[1]);
            }
            if (this.maxQueuedControlFrames != null) {
                maxQueuedControlFrames.accept(this.maxQueuedControlFrames);
            }
        }
    }

    /** A setter of two {@code int}s. */
    interface IntPairConsumer {
        void accept(int first, int second);
    }

    /**
     * What the server did: the frames it wrote, rendered, whether the connection is still open, and on the frame
     * codec the HTTP/2 errors it fired to the application.
     */
    static final class Outcome {
        final List<String> written;
        final boolean open;
        final List<String> exceptions;

        Outcome(List<String> written, boolean open, List<String> exceptions) {
            this.written = written;
            this.open = open;
            this.exceptions = exceptions;
        }

        /** The frames that end something: GOAWAY and RST_STREAM. */
        List<String> errors() {
            List<String> errors = new ArrayList<>();
            for (String frame : written) {
                if (frame.startsWith("GOAWAY") || frame.startsWith("RST_STREAM")) {
                    errors.add(frame);
                }
            }
            return errors;
        }

        @Override
        public String toString() {
            return (open ? "open " : "closed ") + errors() + " of " + written.size() + " frames";
        }
    }

    private ServerUnderTest() {
    }

    /** Netty's handler sends {@code Integer.MAX_VALUE} as the last stream id of a GOAWAY for a connection error. */
    static String goAway(int lastStreamId, Http2Error error) {
        return "GOAWAY last=" + lastStreamId + " error=" + error.code();
    }

    static String rst(int streamId, Http2Error error) {
        return "RST_STREAM " + streamId + " error=" + error.code();
    }

    /** Runs the client's steps (after the preface, an empty SETTINGS and the ACK of the server's) one by one. */
    @SafeVarargs
    static Outcome serve(Kind kind, Options options, Consumer<ByteBuf>... steps) {
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        HeldWrites held = new HeldWrites(options.peerDoesNotRead);
        channel.pipeline().addLast(held);
        List<String> exceptions = new ArrayList<>();
        if (kind.codec) {
            channel.pipeline().addLast(codec(kind, options), new Http2StreamResetHandler(),
                    new CodecApplication(exceptions));
        } else {
            ListenerApplication application = new ListenerApplication();
            Http2ConnectionHandler handler = listenerHandler(kind, options, application);
            application.handler = handler;
            channel.pipeline().addLast(handler);
        }
        channel.pipeline().addLast(new Tail());
        try {
            ByteBuf preface = Unpooled.buffer();
            preface.writeBytes(Http2CodecUtil.connectionPrefaceBuf());
            RawFrames.header(preface, 0, 0x4, 0, 0);
            RawFrames.header(preface, 0, 0x4, 0x1, 0);
            channel.writeInbound(preface);
            for (Consumer<ByteBuf> step : steps) {
                if (!channel.isOpen()) {
                    break;
                }
                ByteBuf in = PooledByteBufAllocator.DEFAULT.buffer();
                step.accept(in);
                channel.writeInbound(in);
                channel.runPendingTasks();
            }
            channel.runPendingTasks();
            ByteBuf written = Unpooled.buffer();
            for (Object out; (out = channel.readOutbound()) != null; ) {
                written.writeBytes((ByteBuf) out);
                ((ByteBuf) out).release();
            }
            held.drainTo(written);
            try {
                return new Outcome(frames(written), channel.isOpen(), exceptions);
            } finally {
                written.release();
            }
        } finally {
            channel.finishAndReleaseAll();
            held.releaseAll();
        }
    }

    private static ChannelHandler codec(Kind kind, Options options) {
        if (kind.pooled) {
            PooledHttp2FrameCodecBuilder builder = PooledHttp2FrameCodecBuilder.forServer();
            options.applyTo(builder::initialSettings, builder::decoderEnforceMaxConsecutiveEmptyDataFrames,
                    builder::decoderEnforceMaxRstFramesPerWindow, builder::encoderEnforceMaxRstFramesPerWindow,
                    builder::encoderEnforceMaxQueuedControlFrames);
            if (options.strictStreamStates != null) {
                builder.strictStreamStates(options.strictStreamStates);
            }
            return builder.build();
        }
        Http2FrameCodecBuilder builder = Http2FrameCodecBuilder.forServer();
        options.applyTo(builder::initialSettings, builder::decoderEnforceMaxConsecutiveEmptyDataFrames,
                builder::decoderEnforceMaxRstFramesPerWindow, builder::encoderEnforceMaxRstFramesPerWindow,
                builder::encoderEnforceMaxQueuedControlFrames);
        return builder.build();
    }

    private static Http2ConnectionHandler listenerHandler(Kind kind, Options options, ListenerApplication listener) {
        if (kind.pooled) {
            PooledHttp2ConnectionHandlerBuilder builder =
                    new PooledHttp2ConnectionHandlerBuilder().server(true).frameListener(listener);
            options.applyTo(builder::initialSettings, builder::decoderEnforceMaxConsecutiveEmptyDataFrames,
                    builder::decoderEnforceMaxRstFramesPerWindow, builder::encoderEnforceMaxRstFramesPerWindow,
                    builder::encoderEnforceMaxQueuedControlFrames);
            if (options.strictStreamStates != null) {
                builder.strictStreamStates(options.strictStreamStates);
            }
            return builder.build();
        }
        Http2ConnectionHandlerBuilder builder = new Http2ConnectionHandlerBuilder().server(true)
                .frameListener(listener);
        options.applyTo(builder::initialSettings, builder::decoderEnforceMaxConsecutiveEmptyDataFrames,
                builder::decoderEnforceMaxRstFramesPerWindow, builder::encoderEnforceMaxRstFramesPerWindow, max -> {
                    throw new IllegalArgumentException(
                            "Netty's Http2ConnectionHandlerBuilder has no public encoderEnforceMaxQueuedControlFrames");
                });
        return builder.build();
    }

    private static Http2Headers response() {
        return new DefaultHttp2Headers().status("200");
    }

    /** The application on the frame codec. */
    private static final class CodecApplication extends ChannelInboundHandlerAdapter {
        private final List<String> exceptions;

        CodecApplication(List<String> exceptions) {
            this.exceptions = exceptions;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof Http2HeadersFrame) {
                    Http2HeadersFrame frame = (Http2HeadersFrame) msg;
                    CharSequence path = frame.headers().path();
                    if (frame.isEndStream() && path != null && "/respond".contentEquals(path)) {
                        ctx.writeAndFlush(new DefaultHttp2HeadersFrame(response(), true).stream(frame.stream()));
                    } else if (path != null && "/reset".contentEquals(path)) {
                        ctx.writeAndFlush(new DefaultHttp2ResetFrame(Http2Error.CANCEL).stream(frame.stream()));
                    }
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // Stream errors arrive here after Http2StreamResetHandler: what they wrote is the outcome, and the
            // error the application was told of.
            Throwable error = cause instanceof Http2FrameStreamException ? cause.getCause() : cause;
            exceptions.add(error instanceof Http2Exception
                    ? (error instanceof Http2Exception.StreamException ? "stream " : "connection ")
                            + ((Http2Exception) error).error()
                    : error.getClass().getName());
        }
    }

    /** The same application as a listener. */
    private static final class ListenerApplication extends Http2FrameAdapter {
        Http2ConnectionHandler handler;

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int dependency,
                                  short weight, boolean exclusive, int padding, boolean endOfStream) {
            onHeadersRead(ctx, streamId, headers, padding, endOfStream);
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                  boolean endOfStream) {
            CharSequence path = headers.path();
            if (endOfStream && path != null && "/respond".contentEquals(path)) {
                handler.encoder().writeHeaders(ctx, streamId, response(), 0, true, ctx.newPromise());
                ctx.flush();
            } else if (path != null && "/reset".contentEquals(path)) {
                handler.resetStream(ctx, streamId, Http2Error.CANCEL.code(), ctx.newPromise());
                ctx.flush();
            }
        }

        @Override
        public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean eos) {
            return data.readableBytes() + padding;
        }
    }

    /** Swallows what reaches the end of the pipeline, so that EmbeddedChannel does not rethrow it. */
    private static final class Tail extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            ReferenceCountUtil.release(evt);
        }
    }

    /** When the peer does not read, writes stay queued: their promises never complete. */
    private static final class HeldWrites extends ChannelDuplexHandler {
        private final boolean hold;
        private final List<Object> messages = new ArrayList<>();
        private final List<ChannelPromise> promises = new ArrayList<>();

        HeldWrites(boolean hold) {
            this.hold = hold;
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (hold) {
                messages.add(msg);
                promises.add(promise);
            } else {
                ctx.write(msg, promise);
            }
        }

        void drainTo(ByteBuf out) {
            for (Object msg : messages) {
                out.writeBytes(((ByteBuf) msg).duplicate());
            }
        }

        /** As when a connection closes with writes pending: they fail, so whoever waits on them lets go. */
        void releaseAll() {
            for (ChannelPromise promise : promises) {
                promise.tryFailure(new java.nio.channels.ClosedChannelException());
            }
            promises.clear();
            for (Object msg : messages) {
                ReferenceCountUtil.release(msg);
            }
            messages.clear();
        }
    }

    /** The server's frames, parsed by Netty's own reader. */
    static List<String> frames(ByteBuf written) {
        List<String> frames = new ArrayList<>();
        DefaultHttp2FrameReader reader = new DefaultHttp2FrameReader(false);
        // The reader takes its header block buffers from the context's allocator.
        EmbeddedChannel parser = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        ChannelHandlerContext ctx = parser.pipeline().firstContext();
        try {
            while (written.isReadable()) {
                int before = written.readableBytes();
                reader.readFrame(ctx, written, new Http2FrameAdapter() {
                    @Override
                    public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding,
                                          boolean eos) {
                        frames.add("DATA " + streamId + " " + data.readableBytes() + (eos ? " eos" : ""));
                        return 0;
                    }

                    @Override
                    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers,
                                              int dependency, short weight, boolean exclusive, int padding,
                                              boolean eos) {
                        frames.add("HEADERS " + streamId + (eos ? " eos" : ""));
                    }

                    @Override
                    public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers,
                                              int padding, boolean eos) {
                        frames.add("HEADERS " + streamId + (eos ? " eos" : ""));
                    }

                    @Override
                    public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
                        frames.add("RST_STREAM " + streamId + " error=" + errorCode);
                    }

                    @Override
                    public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) {
                        frames.add("SETTINGS " + settings);
                    }

                    @Override
                    public void onSettingsAckRead(ChannelHandlerContext ctx) {
                        frames.add("SETTINGS_ACK");
                    }

                    @Override
                    public void onPingAckRead(ChannelHandlerContext ctx, long data) {
                        frames.add("PING_ACK " + data);
                    }

                    @Override
                    public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode,
                                             ByteBuf debugData) {
                        frames.add("GOAWAY last=" + lastStreamId + " error=" + errorCode);
                    }

                    @Override
                    public void onWindowUpdateRead(ChannelHandlerContext ctx, int streamId, int increment) {
                        frames.add("WINDOW_UPDATE " + streamId + " " + increment);
                    }
                });
                if (written.readableBytes() == before) {
                    break; // a partial frame: nothing more to parse
                }
            }
        } catch (Http2Exception e) {
            frames.add("UNPARSEABLE " + e.getMessage());
        } finally {
            reader.close();
            parser.finishAndReleaseAll();
        }
        return frames;
    }

    /** A HEADERS frame with END_HEADERS, END_STREAM as asked, for a GET of the path. */
    static void headers(ByteBuf in, int streamId, String path, boolean endStream) {
        try {
            RawFrames.frame(in, 0x1, Http2Flags.END_HEADERS | (endStream ? Http2Flags.END_STREAM : 0), streamId,
                    RawFrames.requestHeaders(path));
        } catch (Http2Exception e) {
            throw new AssertionError(e);
        }
    }
}
