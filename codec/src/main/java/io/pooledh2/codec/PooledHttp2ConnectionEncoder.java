/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http2.DefaultHttp2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameWriter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2LifecycleManager;
import io.netty.handler.codec.http2.Http2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Stream;

import static io.netty.handler.codec.http.HttpStatusClass.INFORMATIONAL;

/**
 * A {@link DefaultHttp2ConnectionEncoder} that writes HEADERS and DATA without garbage of its own: Netty's encoder
 * makes, per write, a listener for its lifecycle manager, and for every frame that waits for the flow controller a
 * wrapper, which for DATA holds a {@code CoalescingBufferQueue}, its {@code ArrayDeque}, a promise notifier and,
 * once written, a second listener on the write's promise. Here the listeners and the wrappers come from a
 * {@code Recycler} and return to it once the write they wait for has completed. Everything else
 * (SETTINGS, PING, PRIORITY, RST_STREAM, GOAWAY, PUSH_PROMISE, unknown frames) is Netty's encoder's own code.
 *
 * <p>Its behaviour is Netty's: the same frames and bytes to the frame writer in the same order, the same promise
 * outcomes in the same order, the same stream states, the same calls to the {@link Http2LifecycleManager}, and
 * buffers released when Netty's encoder releases them, for the Netty release on the class path (4.2.12 to 4.2.20,
 * whose encoders differ). It is not a subclass for changing those: its frames in the flow controller are not
 * Netty's {@code FlowControlledBase}, and they merge only with each other. A frame given to the flow controller
 * must be written or failed by it, as Netty's remote flow controller does, and not kept after that.
 */
public class PooledHttp2ConnectionEncoder extends DefaultHttp2ConnectionEncoder {

    /** Netty's encoder writes HEADERS through its field, not through {@link #frameWriter()}. */
    private final Http2FrameWriter writer;
    private Http2LifecycleManager lifecycleManager;

    /**
     * Like {@code new DefaultHttp2ConnectionEncoder(connection, frameWriter)}.
     *
     * @param connection the connection whose streams this encoder writes on
     * @param frameWriter writes the frames; {@link PooledHttp2FrameWriter} writes each in one buffer
     */
    public PooledHttp2ConnectionEncoder(Http2Connection connection, Http2FrameWriter frameWriter) {
        super(connection, frameWriter);
        writer = frameWriter;
    }

    @Override
    public void lifecycleManager(Http2LifecycleManager lifecycleManager) {
        super.lifecycleManager(lifecycleManager);
        this.lifecycleManager = lifecycleManager;
    }

    Http2LifecycleManager lifecycleManager() {
        return lifecycleManager;
    }

    Http2FrameWriter writer() {
        return writer;
    }

    boolean isServer() {
        return connection().isServer();
    }

    @Override
    public ChannelFuture writeData(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding,
                                   boolean endOfStream, ChannelPromise promise) {
        if (!NettyApi.DATA_WRITES_KNOWN) {
            return super.writeData(ctx, streamId, data, padding, endOfStream, promise);
        }
        promise = promise.unvoid();
        Http2Stream stream;
        try {
            stream = requireStream(streamId);
            switch (stream.state()) {
                case OPEN:
                case HALF_CLOSED_REMOTE:
                    break;
                default:
                    throw new IllegalStateException("Stream " + stream.id() + " in unexpected state " + stream.state());
            }
        } catch (Throwable e) {
            data.release();
            return promise.setFailure(e);
        }
        QueuedData frame = QueuedData.newInstance(this, stream, data, padding, endOfStream, promise);
        flowController().addFlowControlled(stream, frame);
        // Merged into the frame queued before it, it has handed over its buffer and promise and the flow controller
        // has let go of it.
        frame.recycleIfMerged();
        return promise;
    }

    @Override
    public ChannelFuture writeHeaders(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                      boolean endStream, ChannelPromise promise) {
        return writeHeaders0(ctx, streamId, headers, false, 0, (short) 0, false, padding, endStream, promise);
    }

    @Override
    public ChannelFuture writeHeaders(ChannelHandlerContext ctx, int streamId, Http2Headers headers,
                                      int streamDependency, short weight, boolean exclusive, int padding,
                                      boolean endOfStream, ChannelPromise promise) {
        return writeHeaders0(ctx, streamId, headers, true, streamDependency, weight, exclusive, padding, endOfStream,
                promise);
    }

    /** Netty's HEADERS write, step by step; only its lifecycle listener and flow-controlled wrapper are not new. */
    private ChannelFuture writeHeaders0(ChannelHandlerContext ctx, int streamId, Http2Headers headers,
                                        boolean hasPriority, int streamDependency, short weight, boolean exclusive,
                                        int padding, boolean endOfStream, ChannelPromise promise) {
        Http2Connection connection = connection();
        try {
            Http2Stream stream = connection.stream(streamId);
            if (stream == null) {
                try {
                    // Not half-closed yet: the lifecycle manager closes the local side once the HEADERS are out.
                    stream = connection.local().createStream(streamId, false);
                } catch (Http2Exception cause) {
                    if (connection.remote().mayHaveCreatedStream(streamId)) {
                        promise.tryFailure(new IllegalStateException("Stream no longer exists: " + streamId, cause));
                        return promise;
                    }
                    throw cause;
                }
            } else {
                switch (stream.state()) {
                    case RESERVED_LOCAL:
                        stream.open(endOfStream);
                        break;
                    case OPEN:
                    case HALF_CLOSED_REMOTE:
                        break;
                    default:
                        throw new IllegalStateException("Stream " + stream.id() + " in unexpected state "
                                + stream.state());
                }
            }
            // Trailers wait behind the stream's DATA in the flow controller, if it holds some.
            Http2RemoteFlowController flowController = flowController();
            if (!endOfStream || !flowController.hasFlowControlled(stream)) {
                promise = promise.unvoid();
                boolean isInformational = validateHeadersSentState(stream, headers, connection.isServer(),
                        endOfStream);
                ChannelFuture future = sendHeaders(writer, ctx, streamId, headers, hasPriority, streamDependency,
                        weight, exclusive, padding, endOfStream, promise);
                // Encoding may fail at once, for HPACK limits.
                Throwable failureCause = future.cause();
                if (failureCause == null) {
                    stream.headersSent(isInformational);
                    if (!future.isSuccess()) {
                        future.addListener(HeadersWriteListener.newInstance(this, ctx));
                    }
                } else {
                    lifecycleManager.onError(ctx, true, failureCause);
                }
                if (endOfStream) {
                    // After onError, which may still need the stream open to reset it.
                    lifecycleManager.closeStreamLocal(stream, future);
                }
                return future;
            }
            flowController.addFlowControlled(stream, QueuedHeaders.newInstance(this, stream, headers, hasPriority,
                    streamDependency, weight, exclusive, padding, promise));
            return promise;
        } catch (Throwable t) {
            lifecycleManager.onError(ctx, true, t);
            promise.tryFailure(t);
            return promise;
        }
    }

    private Http2Stream requireStream(int streamId) {
        Http2Connection connection = connection();
        Http2Stream stream = connection.stream(streamId);
        if (stream == null) {
            String message = connection.streamMayHaveExisted(streamId) ? "Stream no longer exists: " + streamId
                    : "Stream does not exist: " + streamId;
            throw new IllegalArgumentException(message);
        }
        return stream;
    }

    /** Whether HEADERS may be sent on the stream now, as Netty's encoder decides; {@code true} for a 1xx. */
    static boolean validateHeadersSentState(Http2Stream stream, Http2Headers headers, boolean isServer,
                                            boolean endOfStream) {
        boolean isInformational = isServer && HttpStatusClass.valueOf(headers.status()) == INFORMATIONAL;
        if ((isInformational || !endOfStream) && stream.isHeadersSent() || stream.isTrailersSent()) {
            throw new IllegalStateException("Stream " + stream.id() + " sent too many headers EOS: " + endOfStream);
        }
        return isInformational;
    }

    /** Writes HEADERS through the frame writer; without priority, {@code streamDependency} and the rest are unused. */
    static ChannelFuture sendHeaders(Http2FrameWriter frameWriter, ChannelHandlerContext ctx, int streamId,
                                     Http2Headers headers, boolean hasPriority, int streamDependency, short weight,
                                     boolean exclusive, int padding, boolean endOfStream, ChannelPromise promise) {
        if (hasPriority) {
            return frameWriter.writeHeaders(ctx, streamId, headers, streamDependency, weight, exclusive, padding,
                    endOfStream, promise);
        }
        return frameWriter.writeHeaders(ctx, streamId, headers, padding, endOfStream, promise);
    }
}
