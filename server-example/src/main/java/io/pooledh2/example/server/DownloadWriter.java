/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;

/**
 * Writes the body of a {@code /download} response: DATA frames of a fixed size while the stream's channel is
 * writable (the stream's flow-control window has room), continuing when it becomes writable again. So a large
 * download holds about one window of data in memory, not the whole body.
 */
final class DownloadWriter {

    private final long size;
    private final int frameSize;
    private long written;

    DownloadWriter(long size, int frameSize) {
        this.size = size;
        this.frameSize = frameSize;
    }

    long size() {
        return size;
    }

    /** Writes frames until the body is complete or the channel is not writable, then flushes. */
    void writeMore(ChannelHandlerContext ctx) {
        while (written < size && ctx.channel().isWritable()) {
            int length = (int) Math.min(frameSize, size - written);
            ByteBuf data = ctx.alloc().buffer(length);
            ExampleContent.writeDownload(data, written, length);
            written += length;
            ctx.write(new DefaultHttp2DataFrame(data, written == size));
        }
        ctx.flush();
    }

    /** The client reset the stream: nothing more to write. */
    void cancel() {
        written = size;
    }
}
