/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.pipeline;

import io.netty.buffer.ByteBuf;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import io.pooledh2.jmh.EventLoopBenchmark;
import org.openjdk.jmh.infra.Blackhole;

import java.util.ArrayList;

/**
 * A client and a server joined in memory: two {@link EmbeddedChannel}s on the benchmark thread, the bytes each
 * flushes carried to the other by {@link #carry}, which copies them into read buffers from
 * {@code PooledByteBufAllocator} of at most 64 KiB each (as socket reads into Netty's adaptive receive buffers
 * would), fires one {@code channelRead} per buffer and one {@code channelReadComplete} at the end. No sockets, no
 * second thread: what is measured is the HTTP/2 code on both ends plus that copy, the same for every variant.
 */
public final class InMemoryConnection implements AutoCloseable {

    /** The largest buffer Netty's {@code AdaptiveRecvByteBufAllocator} reads into by default. */
    static final int READ_BUFFER_SIZE = 64 * 1024;

    private final EmbeddedChannel clientChannel = newChannel();
    private final EmbeddedChannel serverChannel = newChannel();
    private final Http2Stack.Endpoint server;
    private final Http2Stack.Client client;
    /** What one {@link #carry} takes from the sending end; reused, so carrying allocates no Java objects. */
    private final ArrayList<ByteBuf> flushed = new ArrayList<>();
    private long responses;

    public InMemoryConnection(Http2Stack stack, Scenario scenario, Blackhole bh) {
        server = stack.initServer(serverChannel, scenario, bh);
        client = stack.initClient(clientChannel, scenario, bh, () -> responses++);
        // Preface, SETTINGS and their ACKs; then both ends open their connection windows.
        settle();
        client.connected();
        server.connected();
        settle();
        for (int i = 0; i < 3; i++) {
            exchange();
        }
        requireIdle();
    }

    private static EmbeddedChannel newChannel() {
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.config().setAllocator(EventLoopBenchmark.ALLOC);
        // The in-memory peer reads everything at once; the flow controllers, not channel writability, limit writes.
        channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(32 << 20, 64 << 20));
        return channel;
    }

    /** One request and its whole response; returns when the client has read the response's end of stream. */
    public void exchange() {
        long target = responses + 1;
        client.sendRequest();
        while (responses < target) {
            boolean moved = carry(clientChannel, serverChannel);
            moved |= carry(serverChannel, clientChannel);
            if (!moved) {
                throw new IllegalStateException("exchange stalled: no bytes to carry, response incomplete ("
                        + "client open " + clientChannel.isOpen() + ", server open " + serverChannel.isOpen() + ')');
            }
        }
    }

    /** Carries bytes both ways until neither end has anything to send. */
    private void settle() {
        for (int rounds = 0; carry(clientChannel, serverChannel) | carry(serverChannel, clientChannel); rounds++) {
            if (rounds > 100) {
                throw new IllegalStateException("connection does not settle");
            }
        }
    }

    /** Fails unless both ends are open with no stream left open, after the exchanges so far. */
    public void requireIdle() {
        settle();
        if (!clientChannel.isOpen() || !serverChannel.isOpen()) {
            throw new IllegalStateException("a channel closed");
        }
        if (client.activeStreams() != 0 || server.activeStreams() != 0) {
            throw new IllegalStateException("streams left open: client " + client.activeStreams() + ", server "
                    + server.activeStreams());
        }
    }

    /**
     * Everything {@code from} has flushed, into {@code to}'s pipeline, as socket reads would bring it: in read
     * buffers sized to what is waiting, up to {@link #READ_BUFFER_SIZE} (the size an adaptive receive buffer
     * allocator settles on), one {@code channelRead} each and one {@code channelReadComplete} after the last.
     */
    private boolean carry(EmbeddedChannel from, EmbeddedChannel to) {
        ArrayList<ByteBuf> flushed = this.flushed;
        long waiting = 0;
        for (Object message; (message = from.readOutbound()) != null; ) {
            ByteBuf out = (ByteBuf) message;
            flushed.add(out);
            waiting += out.readableBytes();
        }
        if (flushed.isEmpty()) {
            return false;
        }
        ByteBuf read = null;
        try {
            for (int i = 0; i < flushed.size(); i++) {
                ByteBuf out = flushed.get(i);
                while (out.isReadable()) {
                    if (read == null) {
                        int size = (int) Math.min(waiting, READ_BUFFER_SIZE);
                        read = EventLoopBenchmark.ALLOC.directBuffer(size, size);
                    }
                    int length = Math.min(out.readableBytes(), read.writableBytes());
                    read.writeBytes(out, length);
                    waiting -= length;
                    if (!read.isWritable()) {
                        ByteBuf full = read;
                        read = null;
                        to.pipeline().fireChannelRead(full);
                    }
                }
            }
        } finally {
            for (int i = 0; i < flushed.size(); i++) {
                flushed.get(i).release();
            }
            flushed.clear();
            if (read != null) {
                read.release();
            }
        }
        to.pipeline().fireChannelReadComplete();
        to.runPendingTasks();
        to.checkException();
        return true;
    }

    public long responses() {
        return responses;
    }

    @Override
    public void close() {
        try {
            clientChannel.finishAndReleaseAll();
            serverChannel.finishAndReleaseAll();
        } finally {
            client.close();
            server.close();
        }
    }
}
