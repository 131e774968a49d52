/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2GoAwayFrame;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Frame;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.util.ReferenceCountUtil;
import io.pooledh2.codec.RandomizedCodecDifferentialTest.Action;
import io.pooledh2.codec.RandomizedCodecDifferentialTest.Behaviour;
import io.pooledh2.codec.RandomizedCodecDifferentialTest.Flavor;
import io.pooledh2.codec.RandomizedCodecDifferentialTest.Script;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static io.pooledh2.codec.RandomizedCodecDifferentialTest.buildCodec;
import static io.pooledh2.codec.RandomizedCodecDifferentialTest.describe;
import static io.pooledh2.codec.RandomizedCodecDifferentialTest.failures;
import static io.pooledh2.codec.RandomizedCodecDifferentialTest.renderEvent;
import static io.pooledh2.codec.RandomizedCodecDifferentialTest.renderFrame;
import static io.pooledh2.codec.RandomizedCodecDifferentialTest.response;

/**
 * The endpoint of {@link RandomizedCodecDifferentialTest.Path#MULTIPLEX},
 * {@link RandomizedCodecDifferentialTest.Path#STRICT_MULTIPLEX} and
 * {@link RandomizedCodecDifferentialTest.Path#CLIENT_MULTIPLEX}: the frame codec with Netty's
 * {@link Http2MultiplexHandler}, the example server's default pipeline and the way most Netty applications use the
 * frame codec. Each stream's frames go to a child channel, whose handler writes down what it reads, its events and
 * exceptions, and answers as the other paths' applications do: a server with a response when the request ends; both a
 * reset (a RST_STREAM frame or the child's close) on some HEADERS, a GOAWAY now and then on the parent. Netty's
 * child channels return DATA credit themselves, when a frame has been read. What the multiplex handler passes on
 * (connection frames, events, exceptions) is written down by a handler after it. A client opens its streams as
 * children of its own ({@code Http2StreamChannelBootstrap}), and the server's pushed streams come as children.
 *
 * <p>Frames outlive their callback in two ways, drawn per case: a paused child ({@code autoRead} off) leaves them
 * in Netty's queue until it reads, which it does after some of the reads of the input, or until it closes; and in
 * keeping cases every handler keeps what it read until the input ends (or the channel closed).
 */
final class MultiplexServer extends RandomizedCodecDifferentialTest.Server {

    private final boolean client;
    private final Http2FrameCodec codec;
    private final Behaviour behaviour;
    /** This server's own decisions (its seed from the case, so both servers take the same ones). */
    private final Random random;
    /** Every handler keeps the frames it reads until the input ends. */
    private final boolean keep;
    /** The share of child channels made with {@code autoRead} off. */
    private final int pausedPercent;
    /** The child channels made with {@code autoRead} off that are still open, by stream id. */
    private final Map<Integer, Http2StreamChannel> paused = new TreeMap<>();
    /** A client's children, by stream id: the streams its application resets. */
    private final Map<Integer, Http2StreamChannel> children = new TreeMap<>();
    private final List<Object> kept = new ArrayList<>();
    private int pooledFrames;

    MultiplexServer(Flavor flavor, Script script) {
        super(script, !script.client);
        client = script.client;
        codec = buildCodec(flavor, script.options, client);
        behaviour = script.behaviour;
        random = new Random(behaviour.seed ^ 0x6d756c7469706c65L);
        keep = random.nextInt(3) == 0;
        pausedPercent = new int[] {0, 0, 30, 100}[random.nextInt(4)];
    }

    @Override
    void start() {
        channel.pipeline().addLast(codec, new Http2MultiplexHandler(new ChildInitializer()), new Parent());
        channel.runPendingTasks();
        outbound.drain(channel, lines);
    }

    /** The client application's action: a request on a child channel of its own, a reset, or GOAWAY. */
    @Override
    void act(Action action) {
        switch (action.kind) {
            case OPEN: {
                Http2StreamChannel child;
                try {
                    child = new Http2StreamChannelBootstrap(channel).handler(new Child()).open().sync().getNow();
                } catch (Exception e) {
                    lines.add("CLIENT_OPEN_FAILED " + describe(e));
                    return;
                }
                child.writeAndFlush(new DefaultHttp2HeadersFrame(action.headers, action.endStream))
                        .addListener(failures(lines, "CLIENT_HEADERS"));
                int id = child.stream().id();
                lines.add("CLIENT_OPENED s=" + id + " " + child.stream().state());
                children.put(id, child);
                if (action.body >= 0) {
                    ByteBuf body = child.alloc().buffer().writeBytes(Frames.pattern(action.body, action.body));
                    child.writeAndFlush(new DefaultHttp2DataFrame(body, action.bodyEnd))
                            .addListener(failures(lines, "CLIENT_DATA"));
                }
                break;
            }
            case RESET: {
                Http2StreamChannel child = children.get(action.stream);
                if (child == null) {
                    lines.add("CLIENT_RESET unknown stream " + action.stream);
                } else {
                    child.writeAndFlush(new DefaultHttp2ResetFrame(Http2Error.CANCEL))
                            .addListener(failures(lines, "CLIENT_RST_STREAM"));
                }
                break;
            }
            default:
                channel.writeAndFlush(new DefaultHttp2GoAwayFrame(Http2Error.NO_ERROR))
                        .addListener(failures(lines, "CLIENT_GOAWAY"));
                break;
        }
    }

    /** After a read, some paused children read what Netty queued for them. */
    @Override
    void step(List<Object> steps, int index) {
        super.step(steps, index);
        if (paused.isEmpty() || !channel.isOpen()) {
            return;
        }
        for (Http2StreamChannel child : new ArrayList<>(paused.values())) {
            if (random.nextBoolean()) {
                lines.add("CHILD s=" + child.stream().id() + " CALLS read()");
                child.read();
            }
        }
        channel.runPendingTasks();
        outbound.drain(channel, lines);
    }

    /**
     * The input is over: the paused children still open go on reading, or close with frames still in Netty's queue
     * (a paused child neither reads nor closes by itself, even once its stream closed, and would keep them).
     */
    @Override
    void end() {
        super.end();
        for (Http2StreamChannel child : new ArrayList<>(paused.values())) {
            if (random.nextBoolean()) {
                lines.add("CHILD s=" + child.stream().id() + " RESUMES");
                child.config().setAutoRead(true);
            } else {
                lines.add("CHILD s=" + child.stream().id() + " CLOSES");
                child.close();
            }
            channel.runPendingTasks();
            outbound.drain(channel, lines);
        }
        if (keep && !behaviour.releaseAfterClose) {
            releaseKept("LATER");
        }
    }

    @Override
    void close() {
        super.close();
        if (keep) {
            releaseKept("LATER_AFTER_CLOSE");
        }
    }

    @Override
    void cleanUp() {
        try {
            for (Object msg : kept) {
                ReferenceCountUtil.safeRelease(msg);
            }
            kept.clear();
        } finally {
            super.cleanUp();
        }
    }

    @Override
    int pooledFrames() {
        return pooledFrames;
    }

    private void releaseKept(String label) {
        for (Object msg : kept) {
            lines.add(label + " " + renderFrame(msg));
            ReferenceCountUtil.release(msg);
        }
        kept.clear();
    }

    /** Writes the frame down and counts it ({@link #done} keeps or releases it). */
    private void read(String prefix, Object msg) {
        lines.add(prefix + "READ " + renderFrame(msg));
        if (msg instanceof PooledHttp2Frame) {
            pooledFrames++;
        }
    }

    private void done(Object msg) {
        if (keep) {
            kept.add(msg);
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    private static String render(Object evt) {
        return evt instanceof Http2Frame ? renderFrame(evt) : renderEvent(evt);
    }

    @ChannelHandler.Sharable
    private final class ChildInitializer extends ChannelInitializer<Http2StreamChannel> {
        @Override
        protected void initChannel(Http2StreamChannel child) {
            int id = child.stream().id();
            boolean pausedChild = random.nextInt(100) < pausedPercent;
            lines.add("CHILD s=" + id + " OPENED" + (pausedChild ? " paused" : ""));
            if (pausedChild) {
                child.config().setAutoRead(false);
                paused.put(id, child);
            }
            children.put(id, child);
            child.pipeline().addLast(new Child());
        }
    }

    /** A stream's handler: the application for one request. */
    private final class Child extends ChannelInboundHandlerAdapter {
        /** A client's stream has its id once its HEADERS were written. */
        private String prefix;

        private String prefix(ChannelHandlerContext ctx) {
            if (prefix == null) {
                int id = ((Http2StreamChannel) ctx.channel()).stream().id();
                if (id <= 0) {
                    return "CHILD s=? ";
                }
                prefix = "CHILD s=" + id + " ";
            }
            return prefix;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            String prefix = prefix(ctx);
            try {
                read(prefix, msg);
                react(ctx, msg);
            } catch (RuntimeException e) {
                lines.add(prefix + "CONSUMER_FAILED " + describe(e));
            } finally {
                done(msg);
            }
        }

        private void react(ChannelHandlerContext ctx, Object msg) {
            String prefix = prefix(ctx);
            if (msg instanceof Http2HeadersFrame) {
                Http2HeadersFrame headers = (Http2HeadersFrame) msg;
                if (headers.isEndStream()) {
                    respond(ctx);
                } else if (random.nextInt(100) < behaviour.resetPercent) {
                    if (random.nextBoolean()) {
                        ctx.writeAndFlush(new DefaultHttp2ResetFrame(Http2Error.CANCEL))
                                .addListener(failures(lines, prefix + "RST_STREAM"));
                    } else {
                        lines.add(prefix + "CLOSES");
                        ctx.close();
                    }
                }
            } else if (msg instanceof Http2DataFrame && ((Http2DataFrame) msg).isEndStream()) {
                respond(ctx);
            }
            if (behaviour.goAwayPermille > 0 && random.nextInt(1000) < behaviour.goAwayPermille) {
                channel.writeAndFlush(new DefaultHttp2GoAwayFrame(Http2Error.NO_ERROR))
                        .addListener(failures(lines, "GOAWAY"));
            }
        }

        /** A server's response; a client answers no stream. */
        private void respond(ChannelHandlerContext ctx) {
            if (client || random.nextInt(100) >= behaviour.respondPercent) {
                return;
            }
            String prefix = prefix(ctx);
            if (random.nextBoolean()) {
                ctx.writeAndFlush(new DefaultHttp2HeadersFrame(response(), true))
                        .addListener(failures(lines, prefix + "HEADERS(eos)"));
            } else {
                ctx.write(new DefaultHttp2HeadersFrame(response(), false))
                        .addListener(failures(lines, prefix + "HEADERS"));
                ctx.writeAndFlush(new DefaultHttp2DataFrame(
                        ctx.alloc().buffer().writeBytes("ok".getBytes(StandardCharsets.US_ASCII)), true))
                        .addListener(failures(lines, prefix + "DATA(eos)"));
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            lines.add(prefix(ctx) + "EVENT " + render(evt));
            ReferenceCountUtil.release(evt);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            lines.add(prefix(ctx) + "EXCEPTION " + describe(cause));
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            lines.add(prefix(ctx) + "INACTIVE");
            paused.remove(((Http2StreamChannel) ctx.channel()).stream().id());
        }
    }

    /** After the multiplex handler: what it passes on. */
    private final class Parent extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                read("", msg);
                if (behaviour.goAwayPermille > 0 && random.nextInt(1000) < behaviour.goAwayPermille) {
                    ctx.writeAndFlush(new DefaultHttp2GoAwayFrame(Http2Error.NO_ERROR))
                            .addListener(failures(lines, "GOAWAY"));
                }
            } catch (RuntimeException e) {
                lines.add("CONSUMER_FAILED " + describe(e));
            } finally {
                done(msg);
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            lines.add("EVENT " + render(evt));
            ReferenceCountUtil.release(evt);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            lines.add("EXCEPTION " + describe(cause));
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            lines.add("INACTIVE");
        }
    }
}
