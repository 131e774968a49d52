/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.idle;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.FastThreadLocalThread;
import io.pooledh2.codec.PooledHttp2FrameCodecBuilder;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import javax.management.ObjectName;
import java.util.ArrayList;
import java.util.List;

/**
 * Heap retained per idle HTTP/2 server connection, stock {@code Http2FrameCodec} against the pooled codec.
 *
 * <p>Opens N in-memory server connections ({@code EmbeddedChannel}, heap {@link PooledByteBufAllocator}, so a
 * buffer a connection kept would show in the heap), and on each one the client preface, SETTINGS, the ACK of the
 * server's SETTINGS and one GET whose header block is split over HEADERS and two CONTINUATION frames; the server
 * answers 200 and the stream closes. Then the connections sit idle: used heap after a full GC, minus the same
 * before they were opened, divided by N. Runs on a {@code FastThreadLocalThread}, as an event loop would, after a
 * warm-up round of each variant (classes, allocator arenas and the Recycler's pools are not per connection).
 *
 * <pre>
 * java -XX:+UseSerialGC -Xmx512m -cp jmh/target/benchmarks.jar io.pooledh2.jmh.idle.IdleConnectionFootprint [N]
 * </pre>
 *
 * With {@code -Dfootprint.histogram=true} it also prints, per variant, the classes with the most instances
 * per connection (from the JVM's class histogram with the connections open), to see where the bytes are.
 */
public final class IdleConnectionFootprint {

    private static final ByteBufAllocator ALLOC = new PooledByteBufAllocator(false);

    private enum Variant {
        stock, pooled,
        /** Pooled with {@code strictStreamStates(false)}: Netty's stream-state answers, without the checks' state. */
        pooledNotStrict,
        /** Pooled with {@code streamPriorities(false)}: RFC 9113 scheduling instead of the priority tree. */
        pooledRfc9113;

        Http2FrameCodec codec() {
            switch (this) {
                case stock:
                    return Http2FrameCodecBuilder.forServer().build();
                case pooled:
                    return PooledHttp2FrameCodecBuilder.forServer().build();
                case pooledRfc9113:
                    return PooledHttp2FrameCodecBuilder.forServer().streamPriorities(false).build();
                default:
                    return PooledHttp2FrameCodecBuilder.forServer().strictStreamStates(false).build();
            }
        }
    }

    private IdleConnectionFootprint() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        Throwable[] failure = new Throwable[1];
        Thread thread = new FastThreadLocalThread(() -> {
            try {
                run(n);
            } catch (Throwable t) {
                failure[0] = t;
            }
        }, "footprint-event-loop");
        thread.start();
        thread.join();
        if (failure[0] != null) {
            throw new IllegalStateException(failure[0]);
        }
    }

    private static void run(int n) throws Exception {
        byte[] request = request();
        System.out.printf("JDK %s, %s, %d connections, request of %d bytes (HEADERS + 2 CONTINUATION)%n",
                System.getProperty("java.version"), ManagementFactory.getRuntimeMXBean().getVmName(), n,
                request.length);
        for (Variant v : Variant.values()) {
            close(open(v, 50, request)); // warm-up
        }
        for (int round = 0; round < 2; round++) {
            for (Variant v : Variant.values()) {
                long before = usedHeapAfterGc();
                List<EmbeddedChannel> connections = open(v, n, request);
                long after = usedHeapAfterGc();
                System.out.printf("round %d %-15s %,8d bytes per idle connection%n", round + 1, v,
                        (after - before) / n);
                if (round == 1 && Boolean.getBoolean("footprint.histogram")) {
                    printHistogram(v, n);
                }
                close(connections);
            }
        }
    }

    private static List<EmbeddedChannel> open(Variant variant, int n, byte[] request) {
        List<EmbeddedChannel> connections = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            EmbeddedChannel channel = new EmbeddedChannel();
            channel.config().setAllocator(ALLOC);
            channel.pipeline().addLast(variant.codec(), new Responder());
            ByteBuf in = ALLOC.buffer(request.length);
            in.writeBytes(request);
            channel.writeInbound(in);
            channel.runPendingTasks();
            for (Object out; (out = channel.readOutbound()) != null; ) {
                ReferenceCountUtil.release(out);
            }
            if (channel.pipeline().get(Responder.class).responses != 1) {
                throw new IllegalStateException(variant + ": the request was not answered");
            }
            connections.add(channel);
        }
        return connections;
    }

    private static void close(List<EmbeddedChannel> connections) {
        for (EmbeddedChannel channel : connections) {
            channel.finishAndReleaseAll();
        }
        connections.clear();
    }

    /** Answers each request with a bodiless 200. */
    private static final class Responder extends ChannelInboundHandlerAdapter {
        int responses;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof Http2HeadersFrame && ((Http2HeadersFrame) msg).isEndStream()) {
                    Http2HeadersFrame request = (Http2HeadersFrame) msg;
                    ctx.writeAndFlush(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().status("200"), true)
                            .stream(request.stream()));
                    responses++;
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }
    }

    /** Preface, SETTINGS, SETTINGS ACK, and a GET of 20 headers split over HEADERS and two CONTINUATIONs. */
    private static byte[] request() throws Exception {
        Http2Headers headers = new DefaultHttp2Headers().method("GET").scheme("https").authority("example.com")
                .path("/idle");
        for (int i = 0; i < 20; i++) {
            headers.add("x-header-" + i, "value-of-header-" + i);
        }
        ByteBuf block = Unpooled.buffer();
        ByteBuf out = Unpooled.buffer();
        try {
            new DefaultHttp2HeadersEncoder(Http2HeadersEncoder.NEVER_SENSITIVE, true).encodeHeaders(1, headers, block);
            out.writeBytes(Http2CodecUtil.connectionPrefaceBuf());
            frameHeader(out, 0, Http2FrameTypes.SETTINGS, 0, 0);
            frameHeader(out, 0, Http2FrameTypes.SETTINGS, Http2Flags.ACK, 0);
            int length = block.readableBytes();
            int first = length / 3;
            int second = 2 * length / 3;
            frameHeader(out, first, Http2FrameTypes.HEADERS, Http2Flags.END_STREAM, 1);
            out.writeBytes(block, 0, first);
            frameHeader(out, second - first, Http2FrameTypes.CONTINUATION, 0, 1);
            out.writeBytes(block, first, second - first);
            frameHeader(out, length - second, Http2FrameTypes.CONTINUATION, Http2Flags.END_HEADERS, 1);
            out.writeBytes(block, second, length - second);
            return ByteBufUtil.getBytes(out);
        } finally {
            block.release();
            out.release();
        }
    }

    private static void frameHeader(ByteBuf out, int length, byte type, int flags, int streamId) {
        out.writeMedium(length);
        out.writeByte(type);
        out.writeByte(flags);
        out.writeInt(streamId);
    }

    /** The histogram lines whose instance count is at least the number of connections. */
    private static void printHistogram(Variant variant, int n) throws Exception {
        String histogram = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[] {new String[0]}, new String[] {String[].class.getName()});
        System.out.println(variant + ": classes with at least one instance per connection (instances, bytes)");
        for (String line : histogram.split("\n")) {
            String[] f = line.trim().split("\\s+");
            // "num: instances bytes class", with " (module)" after classes of named modules such as byte[].
            if (f.length >= 4 && f[0].endsWith(":") && Long.parseLong(f[1]) >= n) {
                System.out.printf("  %-90s %8.1f %8.0f B/conn%n", f[3], Long.parseLong(f[1]) / (double) n,
                        Long.parseLong(f[2]) / (double) n);
            }
        }
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(50);
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
