/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.pooledh2.codec.FrameReuseStatistics;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The example HTTP/2 server: {@code GET /hello}, {@code POST /echo}, {@code GET /download?size=N} (see
 * {@link ExampleExchange}) over h2c (prior knowledge or {@code Upgrade: h2c}) or TLS with ALPN, on the
 * pooled frame codec or, with {@code --stock}, on Netty's own, in one of three {@link Pipeline}s.
 *
 * <p>Buffers come from {@link PooledByteBufAllocator}, set on the connections and on every stream's channel:
 * Netty 4.2's default allocator is the adaptive one, and the codec's payload slices are recycled (not
 * allocated) only on pooled buffers.
 *
 * <p>{@link #stop()} (also run by a JVM shutdown hook, so on SIGTERM or Ctrl-C) shuts down gracefully: it stops
 * accepting, sends GOAWAY on every connection, lets the streams in flight finish (up to
 * {@code --shutdown-timeout-ms}), then closes the connections.
 */
public final class ExampleServer {

    private final ServerOptions options;
    private final ByteBufAllocator allocator = PooledByteBufAllocator.DEFAULT;
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private EventLoopGroup acceptGroup;
    private EventLoopGroup connectionGroup;
    private ChannelGroup connections;
    private Channel serverChannel;

    public ExampleServer(ServerOptions options) {
        this.options = options;
    }

    /**
     * Runs the server until SIGTERM or Ctrl-C. Once it listens it prints {@code pooledh2 example server: <protocols>
     * on <host>:<port>, <codec>, pipeline <name>}. Exits with status 2, naming the flag, on a bad command line.
     */
    public static void main(String[] args) throws Exception {
        ServerOptions options = new ServerOptions();
        PrintWriter out = new PrintWriter(System.out, true);
        try {
            if (!options.parse(out, args)) {
                return;
            }
        } catch (CommandLine.ParameterException e) {
            PrintWriter err = new PrintWriter(System.err, true);
            err.println(e.getMessage());
            e.getCommandLine().usage(err);
            System.exit(2);
            return;
        }
        ExampleServer server = new ExampleServer(options).start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("shutting down: GOAWAY to every connection, waiting for the streams in flight");
            server.stop();
            System.out.println("stopped");
            if (FrameReuseStatistics.isEnabled()) {
                // -Dio.pooledh2.reuseStats=true: what src/bench/reuse-rate.sh reads.
                System.out.print("frame reuse (FrameReuseStatistics):\n" + FrameReuseStatistics.summary());
            }
        }, "pooledh2-server-shutdown"));
        String url = (options.tls ? "https://" : "http://") + options.host + ':' + server.port();
        System.out.println("pooledh2 example server: " + options.describe(server.port()));
        System.out.println(options.tls
                ? "try: curl -k --http2 " + url + "/hello"
                : "try: curl --http2-prior-knowledge " + url + "/hello");
        System.out.println("stop: Ctrl-C or SIGTERM (graceful: GOAWAY, streams in flight finish)");
        server.awaitStopped();
    }

    /** Binds the port and starts accepting. */
    public ExampleServer start() throws Exception {
        SslContext sslContext = options.tls ? SelfSignedTls.newServerContext() : null;
        acceptGroup = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("pooledh2-server-accept"),
                NioIoHandler.newFactory());
        connectionGroup = new MultiThreadIoEventLoopGroup(options.threads,
                new DefaultThreadFactory("pooledh2-server"), NioIoHandler.newFactory());
        connections = new DefaultChannelGroup("pooledh2-server-connections", GlobalEventExecutor.INSTANCE);
        Http2ConnectionSetup http2 = new Http2ConnectionSetup(options, allocator);
        try {
            serverChannel = new ServerBootstrap()
                    .group(acceptGroup, connectionGroup)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.ALLOCATOR, allocator)
                    .childOption(ChannelOption.ALLOCATOR, allocator)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ServerChannelInitializer(http2, sslContext, connections))
                    .bind(options.host, options.port).sync().channel();
        } catch (Exception e) {
            acceptGroup.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            connectionGroup.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e;
        }
        return this;
    }

    /** The port the server listens on (the one picked, for port 0). */
    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    public ServerOptions options() {
        return options;
    }

    /**
     * The server's event loop threads (accepting and connections), for per-thread measurements: every stream of a
     * connection runs on its connection's thread.
     */
    public List<Thread> eventLoopThreads() {
        List<Thread> threads = new ArrayList<>();
        for (EventLoopGroup group : List.of(acceptGroup, connectionGroup)) {
            for (EventExecutor executor : group) {
                threads.add(executor.submit(Thread::currentThread).syncUninterruptibly().getNow());
            }
        }
        return threads;
    }

    /** The HTTP/2 streams open on all connections now, counted on each connection's event loop (for tests). */
    public int activeStreams() {
        int active = 0;
        for (Channel channel : connections) {
            Http2ConnectionHandler handler = channel.pipeline().get(Http2ConnectionHandler.class);
            if (handler != null) {
                active += channel.eventLoop().submit(() -> handler.connection().numActiveStreams())
                        .syncUninterruptibly().getNow();
            }
        }
        return active;
    }

    /**
     * Graceful shutdown: stops accepting, sends GOAWAY on every connection and closes each one when its streams
     * in flight have finished (or the shutdown timeout has passed), then stops the event loops. Returns when all
     * is closed. New streams a client opens after the GOAWAY are refused (RST_STREAM REFUSED_STREAM).
     */
    public void stop() {
        if (!stopping.compareAndSet(false, true)) {
            awaitStopped();
            return;
        }
        try {
            serverChannel.close().syncUninterruptibly();
            // Each connection's frame codec turns close() into GOAWAY, then closes when its streams are done.
            connections.close().awaitUninterruptibly(options.shutdownTimeoutMillis + 5_000, TimeUnit.MILLISECONDS);
        } finally {
            acceptGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
            connectionGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
            stopped.countDown();
        }
    }

    /** Waits until {@link #stop()} has finished. */
    public void awaitStopped() {
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
