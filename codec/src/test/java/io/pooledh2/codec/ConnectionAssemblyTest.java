/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2FrameLogger;
import io.netty.handler.codec.http2.StreamBufferingEncoder;
import io.netty.handler.logging.LogLevel;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * What the builders make around the reader is what Netty's builders make from the same settings: the same
 * connection, encoder and frame writer, the same errors, and no more than Netty's per-connection state.
 */
class ConnectionAssemblyTest {

    /** How many property keys the connection has: the index the next key gets (Netty's field, by reflection). */
    private static int propertyKeys(Http2Connection connection) throws ReflectiveOperationException {
        Http2Connection.PropertyKey key = connection.newKey();
        Field index = key.getClass().getDeclaredField("index");
        index.setAccessible(true);
        return index.getInt(key);
    }

    @Test
    void connectionHasNettysPropertyKeysAndNoMore() throws ReflectiveOperationException {
        assertEquals(propertyKeys(Http2FrameCodecBuilder.forServer().build().connection()),
                propertyKeys(PooledHttp2FrameCodecBuilder.forServer().build().connection()), "frame codec");
        assertEquals(
                propertyKeys(new Http2ConnectionHandlerBuilder().server(true).frameListener(new Http2FrameAdapter())
                        .build().connection()),
                propertyKeys(new PooledHttp2ConnectionHandlerBuilder().server(true)
                        .frameListener(new Http2FrameAdapter()).build().connection()), "listener path");
        // The RFC 9113 scheduler takes the key of the weighted fair queue it replaces.
        assertEquals(propertyKeys(Http2FrameCodecBuilder.forServer().build().connection()),
                propertyKeys(PooledHttp2FrameCodecBuilder.forServer().streamPriorities(false).build().connection()),
                "frame codec, RFC 9113 scheduling");
        assertEquals(
                propertyKeys(new Http2ConnectionHandlerBuilder().server(true).frameListener(new Http2FrameAdapter())
                        .build().connection()),
                propertyKeys(new PooledHttp2ConnectionHandlerBuilder().server(true).streamPriorities(false)
                        .frameListener(new Http2FrameAdapter()).build().connection()),
                "listener path, RFC 9113 scheduling");
    }

    @Test
    void givenConnectionIsTheHandlers() {
        Http2Connection connection = new DefaultHttp2Connection(true);
        Http2ConnectionHandler handler = new PooledHttp2ConnectionHandlerBuilder().connection(connection)
                .frameListener(new Http2FrameAdapter()).build();
        assertSame(connection, handler.connection());
        assertSame(connection, handler.encoder().connection());
        assertSame(connection, handler.decoder().connection());
    }

    @Test
    void encoderAndFrameWriterAreOfNettysClassesButThePooledWriter() {
        Http2FrameLogger logger = new Http2FrameLogger(LogLevel.TRACE);
        assertSameClasses(() -> Http2FrameCodecBuilder.forClient().encoderEnforceMaxConcurrentStreams(true)
                        .frameLogger(logger).build(),
                () -> PooledHttp2FrameCodecBuilder.forClient().encoderEnforceMaxConcurrentStreams(true)
                        .frameLogger(logger).build());
        assertSameClasses(() -> Http2FrameCodecBuilder.forServer().build(),
                () -> PooledHttp2FrameCodecBuilder.forServer().build());
        assertSameClasses(() -> new Http2ConnectionHandlerBuilder().server(false).frameLogger(logger)
                        .encoderEnforceMaxConcurrentStreams(true).frameListener(new Http2FrameAdapter()).build(),
                () -> new PooledHttp2ConnectionHandlerBuilder().server(false).frameLogger(logger)
                        .encoderEnforceMaxConcurrentStreams(true).frameListener(new Http2FrameAdapter()).build());
    }

    /**
     * The outermost encoder (StreamBufferingEncoder on a client that asks for it) and the frame writer: the
     * pooled one where Netty's builder makes a DefaultHttp2FrameWriter, Netty's logger around it.
     */
    private static void assertSameClasses(Supplier<Http2ConnectionHandler> netty,
                                          Supplier<Http2ConnectionHandler> pooled) {
        Http2ConnectionHandler expected = netty.get();
        Http2ConnectionHandler actual = pooled.get();
        assertEquals(expected.encoder() instanceof StreamBufferingEncoder,
                actual.encoder() instanceof StreamBufferingEncoder, "StreamBufferingEncoder");
        Class<?> writer = expected.encoder().frameWriter().getClass();
        assertEquals(writer == DefaultHttp2FrameWriter.class ? PooledHttp2FrameWriter.class : writer,
                actual.encoder().frameWriter().getClass(), "frame writer");
        assertEquals(expected.gracefulShutdownTimeoutMillis(), actual.gracefulShutdownTimeoutMillis(),
                "graceful shutdown timeout");
    }

    @Test
    void encoderEnforceMaxConcurrentStreamsOnAServerFailsAsInNettysBuilder() {
        IllegalArgumentException netty = assertThrows(IllegalArgumentException.class,
                () -> Http2FrameCodecBuilder.forServer().encoderEnforceMaxConcurrentStreams(true).build());
        IllegalArgumentException codec = assertThrows(IllegalArgumentException.class,
                () -> PooledHttp2FrameCodecBuilder.forServer().encoderEnforceMaxConcurrentStreams(true).build());
        IllegalArgumentException listener = assertThrows(IllegalArgumentException.class,
                () -> new PooledHttp2ConnectionHandlerBuilder().server(true).encoderEnforceMaxConcurrentStreams(true)
                        .frameListener(new Http2FrameAdapter()).build());
        assertEquals(netty.getMessage(), codec.getMessage());
        assertEquals(netty.getMessage(), listener.getMessage());
    }

    /** {@code encoderIgnoreMaxHeaderListSize}, which the builders hand to the frame writer they make. */
    @Test
    void encoderIgnoreMaxHeaderListSizeAsInNettysBuilder() {
        for (boolean ignore : new boolean[] {false, true}) {
            boolean netty = sendsOverThePeersLimit(new Http2ConnectionHandlerBuilder().server(false)
                    .encoderIgnoreMaxHeaderListSize(ignore).frameListener(new Http2FrameAdapter()).build());
            assertEquals(ignore, netty, "Netty's builder");
            assertEquals(netty, sendsOverThePeersLimit(new PooledHttp2ConnectionHandlerBuilder().server(false)
                    .encoderIgnoreMaxHeaderListSize(ignore).frameListener(new Http2FrameAdapter()).build()),
                    "listener path, ignore " + ignore);
            assertEquals(netty, sendsOverThePeersLimit(PooledHttp2FrameCodecBuilder.forClient()
                    .encoderIgnoreMaxHeaderListSize(ignore).build()), "frame codec, ignore " + ignore);
        }
    }

    /** Whether a client handler writes a request of about 300 header-list bytes to a peer that allows 100. */
    private static boolean sendsOverThePeersLimit(Http2ConnectionHandler handler) {
        EmbeddedChannel channel = new EmbeddedChannel(handler);
        try {
            ByteBuf settings = Unpooled.buffer();
            RawFrames.header(settings, 6, 0x4, 0, 0);
            settings.writeShort(0x6).writeInt(100);
            channel.writeInbound(settings);
            ChannelPromise promise = channel.newPromise();
            handler.encoder().writeHeaders(channel.pipeline().context(handler), 3, new DefaultHttp2Headers()
                    .method("GET").scheme("http").authority("localhost").path("/").add("big", "x".repeat(250)),
                    0, true, promise);
            channel.flush();
            channel.runPendingTasks();
            return promise.isSuccess();
        } finally {
            channel.finishAndReleaseAll();
        }
    }
}
