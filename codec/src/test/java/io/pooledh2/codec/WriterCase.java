/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelPromise;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameWriter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Settings;

import java.util.ArrayList;
import java.util.List;

/**
 * One case of the writer differential: how the writers are made, the channel's allocator, and a sequence of
 * steps (writes of every kind with their promise and channel conditions, configuration changes, a close). Run
 * through {@code DefaultHttp2FrameWriter} and through {@link PooledHttp2FrameWriter}, it must give the same
 * {@link WriterTranscript}.
 */
final class WriterCase {

    /** Header names starting with {@code s-} are sensitive (never indexed). */
    static final Http2HeadersEncoder.SensitivityDetector SENSITIVE =
            (name, value) -> name.length() > 1 && name.charAt(0) == 's' && name.charAt(1) == '-';

    /** How both writers are made: each constructor, and a caller's encoder. */
    enum Construction {
        DEFAULT, DETECTOR, DETECTOR_IGNORE_LIST_SIZE, DETECTOR_ENFORCE_LIST_SIZE, ENCODER, THROWING_ENCODER;

        Http2FrameWriter make(boolean pooled) {
            switch (this) {
                case DEFAULT:
                    return pooled ? new PooledHttp2FrameWriter() : new DefaultHttp2FrameWriter();
                case DETECTOR:
                    return pooled ? new PooledHttp2FrameWriter(SENSITIVE) : new DefaultHttp2FrameWriter(SENSITIVE);
                case DETECTOR_IGNORE_LIST_SIZE:
                case DETECTOR_ENFORCE_LIST_SIZE: {
                    boolean ignore = this == DETECTOR_IGNORE_LIST_SIZE;
                    return pooled ? new PooledHttp2FrameWriter(SENSITIVE, ignore)
                            : new DefaultHttp2FrameWriter(SENSITIVE, ignore);
                }
                case ENCODER: {
                    Http2HeadersEncoder encoder = new DefaultHttp2HeadersEncoder(SENSITIVE, false, 4);
                    return pooled ? new PooledHttp2FrameWriter(encoder) : new DefaultHttp2FrameWriter(encoder);
                }
                case THROWING_ENCODER: {
                    Http2HeadersEncoder encoder = new ThrowingEncoder(new DefaultHttp2HeadersEncoder());
                    return pooled ? new PooledHttp2FrameWriter(encoder) : new DefaultHttp2FrameWriter(encoder);
                }
                default:
                    throw new AssertionError(this);
            }
        }
    }

    /** The channel's allocator. */
    enum Alloc {
        POOLED_DIRECT(PooledByteBufAllocator.DEFAULT),
        POOLED_HEAP(new PooledByteBufAllocator(false)),
        UNPOOLED(UnpooledByteBufAllocator.DEFAULT);

        final ByteBufAllocator allocator;

        Alloc(ByteBufAllocator allocator) {
            this.allocator = allocator;
        }
    }

    final String name;
    final Construction construction;
    final Alloc alloc;
    final List<Step> steps;

    WriterCase(String name, Construction construction, Alloc alloc, List<Step> steps) {
        this.name = name;
        this.construction = construction;
        this.alloc = alloc;
        this.steps = List.copyOf(steps);
    }

    WriterCase withSteps(List<Step> fewer) {
        return new WriterCase(name, construction, alloc, fewer);
    }

    String describe() {
        StringBuilder s = new StringBuilder(name).append(": ").append(construction).append(", ").append(alloc);
        for (int i = 0; i < steps.size(); i++) {
            s.append("\n  ").append(i).append(": ").append(steps.get(i));
        }
        return s.toString();
    }

    /** The transcript of the steps through the stock writer or the pooled one. */
    String run(boolean pooled) {
        WriterTranscript transcript = WriterTranscript.start();
        try (WriterEnd end = new WriterEnd(construction.make(pooled), alloc.allocator)) {
            for (int i = 0; i < steps.size(); i++) {
                transcript.line(i + ": " + steps.get(i));
                steps.get(i).run(end, transcript);
            }
        }
        return transcript.toString();
    }

    /** A step of a case. */
    interface Step {
        void run(WriterEnd end, WriterTranscript transcript);
    }

    /**
     * The promise a write is given. {@code CANCEL_AFTER}: a new one, which the caller cancels after the call, before
     * the flush. The kinds from {@code CANCELLED} on are done, or not the channel's, when the writer gets them.
     */
    enum PromiseKind {
        NEW, VOID, UNSAFE_VOID, PROGRESSIVE, CANCEL_AFTER, CANCELLED, SUCCEEDED, FAILED, OTHER_CHANNEL, CLOSE_FUTURE,
        NULL;

        ChannelPromise make(WriterEnd end) {
            ChannelHandlerContext ctx = end.ctx;
            switch (this) {
                case NEW:
                case CANCEL_AFTER:
                    return ctx.newPromise();
                case VOID:
                    return ctx.voidPromise();
                case UNSAFE_VOID:
                    return end.channel.unsafe().voidPromise();
                case PROGRESSIVE:
                    return ctx.newProgressivePromise();
                case CANCELLED: {
                    ChannelPromise promise = ctx.newPromise();
                    promise.cancel(false);
                    return promise;
                }
                case SUCCEEDED:
                    return ctx.newPromise().setSuccess();
                case FAILED:
                    return ctx.newPromise().setFailure(new IllegalStateException("failed before"));
                case OTHER_CHANNEL:
                    return new DefaultChannelPromise(end.otherChannel);
                case CLOSE_FUTURE:
                    return (ChannelPromise) end.channel.closeFuture();
                case NULL:
                    return null;
                default:
                    throw new AssertionError(this);
            }
        }
    }

    /** The kind of buffer a payload comes in; the unpooled ones keep their count readable once released. */
    enum PayloadKind {
        UNPOOLED_HEAP, UNPOOLED_DIRECT, POOLED_DIRECT, POOLED_HEAP, COMPOSITE, SLICE, READ_ONLY, RELEASED, EMPTY_BUFFER;

        /**
         * The buffer of these bytes; adds the buffers whose count the transcript shows to {@code tracked}, and the
         * buffer, retained, to {@code kept} unless that is null (a released buffer cannot be kept).
         */
        ByteBuf make(byte[] bytes, List<ByteBuf> tracked, List<ByteBuf> kept) {
            ByteBuf buf = make(bytes, tracked);
            if (kept != null && this != RELEASED) {
                kept.add(buf.retain());
            }
            return buf;
        }

        private ByteBuf make(byte[] bytes, List<ByteBuf> tracked) {
            switch (this) {
                case UNPOOLED_HEAP:
                    return track(Unpooled.buffer(bytes.length).writeBytes(bytes), tracked);
                case UNPOOLED_DIRECT:
                    return track(Unpooled.directBuffer(bytes.length).writeBytes(bytes), tracked);
                case POOLED_DIRECT:
                    return PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length).writeBytes(bytes);
                case POOLED_HEAP:
                    return PooledByteBufAllocator.DEFAULT.heapBuffer(bytes.length).writeBytes(bytes);
                case COMPOSITE: {
                    int half = bytes.length / 2;
                    ByteBuf a = track(Unpooled.buffer(half).writeBytes(bytes, 0, half), tracked);
                    ByteBuf b = track(Unpooled.directBuffer(bytes.length - half)
                            .writeBytes(bytes, half, bytes.length - half), tracked);
                    CompositeByteBuf composite = Unpooled.compositeBuffer();
                    return track(composite.addComponents(true, a, b), tracked);
                }
                case SLICE: {
                    ByteBuf whole = track(Unpooled.buffer(bytes.length + 10).writeZero(5).writeBytes(bytes)
                            .writeZero(5), tracked);
                    return whole.slice(5, bytes.length);
                }
                case READ_ONLY:
                    return track(Unpooled.buffer(bytes.length).writeBytes(bytes), tracked).asReadOnly();
                case RELEASED: {
                    ByteBuf released = track(Unpooled.buffer(bytes.length).writeBytes(bytes), tracked);
                    released.release();
                    return released;
                }
                case EMPTY_BUFFER:
                    return Unpooled.EMPTY_BUFFER;
                default:
                    throw new AssertionError(this);
            }
        }

        private static ByteBuf track(ByteBuf buf, List<ByteBuf> tracked) {
            tracked.add(buf);
            return buf;
        }
    }

    /** A write: its promise, the channel's condition during it, and what it writes. */
    abstract static class Write implements Step {
        final PromiseKind promise;
        /** The handler before the writer fails every write. */
        final boolean refuse;
        /** The flush after the call fails (with an IOException, which closes the channel, if {@code ioFailure}). */
        final boolean failFlush;
        final boolean ioFailure;

        Write(PromiseKind promise, boolean refuse, boolean failFlush, boolean ioFailure) {
            this.promise = promise;
            this.refuse = refuse;
            this.failFlush = failFlush;
            this.ioFailure = ioFailure;
        }

        /**
         * Makes the call. A write with a buffer argument that the caller keeps a reference to adds the buffer,
         * retained, to {@code kept}: its indices are compared after the call and after the flush.
         */
        abstract ChannelFuture write(Http2FrameWriter writer, ChannelHandlerContext ctx, List<ByteBuf> inputs,
                                     List<ByteBuf> kept, ChannelPromise promise);

        abstract String what();

        @Override
        public final void run(WriterEnd end, WriterTranscript transcript) {
            List<ByteBuf> inputs = new ArrayList<>();
            end.refuseWrites = refuse;
            end.channel.failFlush = failFlush;
            end.channel.failFlushWithIoException = ioFailure;
            end.caught.clear();
            ChannelPromise p = promise.make(end);
            List<ByteBuf> kept = new ArrayList<>();
            ChannelFuture returned = null;
            Throwable thrown = null;
            try {
                returned = write(end.writer, end.ctx, inputs, kept, p);
            } catch (Throwable t) {
                thrown = t;
            }
            transcript.add("threw", WriterTranscript.describe(thrown))
                    .add("returned", WriterTranscript.state(returned))
                    .add("kept", WriterTranscript.indices(kept));
            if (promise == PromiseKind.CANCEL_AFTER) {
                // Netty's writer writes a HEADERS, DATA or GOAWAY frame under an aggregate of this promise, so the
                // cancel succeeds and the frame is still written; the pooled writer writes it under this promise,
                // which it makes uncancellable for that (the promise then succeeds): compared are the bytes and
                // the returned future, of the promise only that it is done.
                p.cancel(false);
            }
            // Not compared: when the inputs are released. A copied payload is released in the call, a payload
            // written as it is once the channel is done with it.
            if (thrown != null) {
                releaseAll(kept);
                // Netty's writer leaks the payload when it throws before taking it (an assertion on a done or
                // null promise): release it here, on both sides alike, so that the leak detector hears of
                // nothing but differences. Such writes are given unpooled inputs, whose counts stay readable.
                for (int i = inputs.size() - 1; i >= 0; i--) {
                    // Last first: a composite before its components.
                    ByteBuf input = inputs.get(i);
                    if (input.refCnt() > 0) {
                        input.release(input.refCnt());
                    }
                }
            }
            byte[] bytes = end.flushAndDrain();
            end.refuseWrites = false;
            end.channel.failFlush = false;
            String promiseState = p == null ? "null"
                    : promise == PromiseKind.CANCEL_AFTER ? "done " + p.isDone() : WriterTranscript.state(p);
            transcript.add("promise", promiseState)
                    .add("returned after flush", WriterTranscript.state(returned))
                    .add("kept after flush", WriterTranscript.indices(kept));
            releaseAll(kept);
            transcript
                    .add("inputs", WriterTranscript.refCounts(inputs))
                    .add("caught", end.caught)
                    .add("open", end.channel.isOpen())
                    .add("bytes", WriterTranscript.bytes(bytes));
        }

        /** Releases the caller's references and forgets the buffers. */
        private static void releaseAll(List<ByteBuf> kept) {
            for (ByteBuf buf : kept) {
                buf.release();
            }
            kept.clear();
        }

        @Override
        public final String toString() {
            return what() + " promise " + promise + (refuse ? " refused" : "")
                    + (failFlush ? ioFailure ? " flush-io-fails" : " flush-fails" : "");
        }
    }

    static final class Data extends Write {
        final int streamId;
        final byte[] payload;
        final PayloadKind kind;
        final int padding;
        final boolean endStream;
        /** The caller keeps a reference to the payload. */
        final boolean keep;

        Data(PromiseKind promise, boolean refuse, boolean failFlush, boolean ioFailure, int streamId, byte[] payload,
             PayloadKind kind, int padding, boolean endStream, boolean keep) {
            super(promise, refuse, failFlush, ioFailure);
            this.streamId = streamId;
            this.payload = payload;
            this.kind = kind;
            this.padding = padding;
            this.endStream = endStream;
            this.keep = keep;
        }

        @Override
        ChannelFuture write(Http2FrameWriter writer, ChannelHandlerContext ctx, List<ByteBuf> inputs,
                            List<ByteBuf> kept, ChannelPromise promise) {
            return writer.writeData(ctx, streamId, kind.make(payload, inputs, keep ? kept : null), padding, endStream,
                    promise);
        }

        @Override
        String what() {
            return "DATA stream " + streamId + " " + payload.length + " bytes " + kind + " padding " + padding
                    + (endStream ? " end" : "") + (keep ? " kept" : "");
        }
    }

    static final class Headers extends Write {
        final int streamId;
        final Http2Headers headers;
        final int padding;
        final boolean endStream;
        /** Null: the writeHeaders without priority. */
        final int[] priority;
        final boolean exclusive;

        Headers(PromiseKind promise, boolean refuse, boolean failFlush, boolean ioFailure, int streamId,
                Http2Headers headers, int padding, boolean endStream, int[] priority, boolean exclusive) {
            super(promise, refuse, failFlush, ioFailure);
            this.streamId = streamId;
            this.headers = headers;
            this.padding = padding;
            this.endStream = endStream;
            this.priority = priority;
            this.exclusive = exclusive;
        }

        @Override
        ChannelFuture write(Http2FrameWriter writer, ChannelHandlerContext ctx, List<ByteBuf> inputs,
                            List<ByteBuf> kept, ChannelPromise promise) {
            if (priority == null) {
                return writer.writeHeaders(ctx, streamId, headers, padding, endStream, promise);
            }
            return writer.writeHeaders(ctx, streamId, headers, priority[0], (short) priority[1], exclusive, padding,
                    endStream, promise);
        }

        @Override
        String what() {
            return "HEADERS stream " + streamId + " " + (headers == null ? "null" : headers.size() + " headers")
                    + " padding " + padding + (endStream ? " end" : "")
                    + (priority == null ? "" : " priority " + priority[0] + "/" + priority[1]
                    + (exclusive ? " exclusive" : ""));
        }
    }

    static final class PushPromise extends Write {
        final int streamId;
        final int promisedStreamId;
        final Http2Headers headers;
        final int padding;

        PushPromise(PromiseKind promise, boolean refuse, boolean failFlush, boolean ioFailure, int streamId,
                    int promisedStreamId, Http2Headers headers, int padding) {
            super(promise, refuse, failFlush, ioFailure);
            this.streamId = streamId;
            this.promisedStreamId = promisedStreamId;
            this.headers = headers;
            this.padding = padding;
        }

        @Override
        ChannelFuture write(Http2FrameWriter writer, ChannelHandlerContext ctx, List<ByteBuf> inputs,
                            List<ByteBuf> kept, ChannelPromise promise) {
            return writer.writePushPromise(ctx, streamId, promisedStreamId, headers, padding, promise);
        }

        @Override
        String what() {
            return "PUSH_PROMISE stream " + streamId + " promised " + promisedStreamId + " "
                    + (headers == null ? "null" : headers.size() + " headers") + " padding " + padding;
        }
    }

    /** A control frame with no buffer argument: the call's description and the call. */
    static final class Control extends Write {
        interface Call {
            ChannelFuture write(Http2FrameWriter writer, ChannelHandlerContext ctx, ChannelPromise promise);
        }

        final String what;
        final Call call;

        Control(PromiseKind promise, boolean refuse, boolean failFlush, boolean ioFailure, String what, Call call) {
            super(promise, refuse, failFlush, ioFailure);
            this.what = what;
            this.call = call;
        }

        @Override
        ChannelFuture write(Http2FrameWriter writer, ChannelHandlerContext ctx, List<ByteBuf> inputs,
                            List<ByteBuf> kept, ChannelPromise promise) {
            return call.write(writer, ctx, promise);
        }

        @Override
        String what() {
            return what;
        }
    }

    static final class GoAway extends Write {
        final int lastStreamId;
        final long errorCode;
        final byte[] debugData;
        final PayloadKind kind;
        /** The caller keeps a reference to the debug data. */
        final boolean keep;

        GoAway(PromiseKind promise, boolean refuse, boolean failFlush, boolean ioFailure, int lastStreamId,
               long errorCode, byte[] debugData, PayloadKind kind, boolean keep) {
            super(promise, refuse, failFlush, ioFailure);
            this.lastStreamId = lastStreamId;
            this.errorCode = errorCode;
            this.debugData = debugData;
            this.kind = kind;
            this.keep = keep;
        }

        @Override
        ChannelFuture write(Http2FrameWriter writer, ChannelHandlerContext ctx, List<ByteBuf> inputs,
                            List<ByteBuf> kept, ChannelPromise promise) {
            return writer.writeGoAway(ctx, lastStreamId, errorCode, kind.make(debugData, inputs, keep ? kept : null),
                    promise);
        }

        @Override
        String what() {
            return "GOAWAY last " + lastStreamId + " error " + errorCode + " debug " + debugData.length + " " + kind
                    + (keep ? " kept" : "");
        }
    }

    static final class Settings extends Write {
        /** Made anew for each writer, as the settings object is the caller's. */
        interface Maker {
            Http2Settings make();
        }

        final String what;
        final Maker settings;

        Settings(PromiseKind promise, boolean refuse, boolean failFlush, boolean ioFailure, String what,
                 Maker settings) {
            super(promise, refuse, failFlush, ioFailure);
            this.what = what;
            this.settings = settings;
        }

        @Override
        ChannelFuture write(Http2FrameWriter writer, ChannelHandlerContext ctx, List<ByteBuf> inputs,
                            List<ByteBuf> kept, ChannelPromise promise) {
            return writer.writeSettings(ctx, settings.make(), promise);
        }

        @Override
        String what() {
            return "SETTINGS " + what;
        }
    }

    static final class Unknown extends Write {
        final byte type;
        final int streamId;
        final short flags;
        final byte[] payload;
        final PayloadKind kind;

        Unknown(PromiseKind promise, boolean refuse, boolean failFlush, boolean ioFailure, byte type, int streamId,
                short flags, byte[] payload, PayloadKind kind) {
            super(promise, refuse, failFlush, ioFailure);
            this.type = type;
            this.streamId = streamId;
            this.flags = flags;
            this.payload = payload;
            this.kind = kind;
        }

        @Override
        ChannelFuture write(Http2FrameWriter writer, ChannelHandlerContext ctx, List<ByteBuf> inputs,
                            List<ByteBuf> kept, ChannelPromise promise) {
            return writer.writeFrame(ctx, type, streamId, new Http2Flags(flags), kind.make(payload, inputs, null),
                    promise);
        }

        @Override
        String what() {
            return "frame type " + (type & 0xFF) + " stream " + streamId + " flags " + flags + " " + payload.length
                    + " bytes " + kind;
        }
    }

    /** A change of the writer's configuration, as the encoder makes when SETTINGS apply; the outcome is noted. */
    static final class Configure implements Step {
        interface Change {
            void apply(Http2FrameWriter writer) throws Http2Exception;
        }

        final String what;
        final Change change;

        Configure(String what, Change change) {
            this.what = what;
            this.change = change;
        }

        @Override
        public void run(WriterEnd end, WriterTranscript transcript) {
            Throwable thrown = null;
            try {
                change.apply(end.writer);
            } catch (Throwable t) {
                thrown = t;
            }
            Http2FrameWriter.Configuration config = end.writer.configuration();
            transcript.add("threw", WriterTranscript.describe(thrown))
                    .add("max frame size", config.frameSizePolicy().maxFrameSize())
                    .add("table size", config.headersConfiguration().maxHeaderTableSize())
                    .add("list size", config.headersConfiguration().maxHeaderListSize());
        }

        @Override
        public String toString() {
            return what;
        }
    }

    /** Closes the channel. */
    static final class Close implements Step {
        @Override
        public void run(WriterEnd end, WriterTranscript transcript) {
            end.channel.close();
            end.channel.runPendingTasks();
            transcript.add("open", end.channel.isOpen());
        }

        @Override
        public String toString() {
            return "close the channel";
        }
    }

    /** An encoder that throws an unchecked exception for headers with a name {@code x-throw}, as a caller's might. */
    private static final class ThrowingEncoder implements Http2HeadersEncoder {
        private final Http2HeadersEncoder delegate;

        ThrowingEncoder(Http2HeadersEncoder delegate) {
            this.delegate = delegate;
        }

        @Override
        public void encodeHeaders(int streamId, Http2Headers headers, ByteBuf buffer) throws Http2Exception {
            if (headers != null && headers.contains("x-throw")) {
                throw new IllegalStateException("encoder refuses x-throw");
            }
            delegate.encodeHeaders(streamId, headers, buffer);
        }

        @Override
        public Configuration configuration() {
            return delegate.configuration();
        }
    }
}
