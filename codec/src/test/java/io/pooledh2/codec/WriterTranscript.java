/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.util.concurrent.Future;

import java.util.List;
import java.util.zip.CRC32;

/**
 * What a writer's call left behind, as text: what it threw and returned, how its promise ended after the flush,
 * the reference counts of its input buffers, the exceptions fired down the pipeline, and the bytes flushed. Two
 * writers given the same calls must give the same lines.
 */
final class WriterTranscript {

    private final StringBuilder text = new StringBuilder();

    private WriterTranscript() {
    }

    static WriterTranscript start() {
        return new WriterTranscript();
    }

    WriterTranscript add(String field, Object value) {
        text.append(" | ").append(field).append(' ').append(value);
        return this;
    }

    WriterTranscript line(String step) {
        if (text.length() > 0) {
            text.append('\n');
        }
        text.append(step);
        return this;
    }

    @Override
    public String toString() {
        return text.toString();
    }

    /** Class and message, without identity hashes (a promise's {@code toString} in a message has one). */
    static String describe(Throwable t) {
        if (t == null) {
            return "-";
        }
        StringBuilder s = new StringBuilder(t.getClass().getName());
        if (t instanceof Http2Exception) {
            Http2Exception e = (Http2Exception) t;
            s.append('[').append(e.error()).append(',').append(e.shutdownHint()).append(']');
        }
        // A NullPointerException's message is the JVM's: it may be dropped once the site is hot, and it names the
        // code that dereferenced, which differs between Netty releases. So is a message made from it.
        String message = t instanceof NullPointerException ? null : t.getMessage();
        if (message != null && t.getCause() instanceof NullPointerException) {
            String npe = String.valueOf(t.getCause().getMessage());
            if (message.endsWith(npe)) {
                message = message.substring(0, message.length() - npe.length()) + "<its message>";
            }
        }
        if (message != null) {
            s.append(": ").append(message.replaceAll("@[0-9a-f]{3,}", "@#"));
        }
        if (t.getCause() != null && t.getCause() != t) {
            s.append(" <- ").append(describe(t.getCause()));
        }
        return s.toString();
    }

    static String state(Future<?> future) {
        if (future == null) {
            return "null";
        }
        if (!future.isDone()) {
            return "pending";
        }
        if (future.isCancelled()) {
            return "cancelled";
        }
        return future.isSuccess() ? "success" : "failed " + describe(future.cause());
    }

    static String refCounts(List<ByteBuf> inputs) {
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i < inputs.size(); i++) {
            if (i > 0) {
                s.append(',');
            }
            s.append(inputs.get(i).refCnt());
        }
        return s.append(']').toString();
    }

    /** The reader and writer indices of buffers the caller keeps. */
    static String indices(List<ByteBuf> kept) {
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i < kept.size(); i++) {
            if (i > 0) {
                s.append(',');
            }
            s.append(kept.get(i).readerIndex()).append('/').append(kept.get(i).writerIndex());
        }
        return s.append(']').toString();
    }

    /** Short bytes in hex; longer ones by length, CRC and their first and last bytes. */
    static String bytes(byte[] bytes) {
        if (bytes.length <= 96) {
            return bytes.length + ":" + hex(bytes, 0, bytes.length);
        }
        CRC32 crc = new CRC32();
        crc.update(bytes);
        return bytes.length + ":crc" + Long.toHexString(crc.getValue()) + ":" + hex(bytes, 0, 48) + ".."
                + hex(bytes, bytes.length - 24, bytes.length);
    }

    private static String hex(byte[] bytes, int from, int to) {
        StringBuilder s = new StringBuilder();
        for (int i = from; i < to; i++) {
            s.append(Character.forDigit(bytes[i] >> 4 & 0xF, 16)).append(Character.forDigit(bytes[i] & 0xF, 16));
        }
        return s.toString();
    }

    /** The first line where the two differ, with both versions, or null. */
    static String firstDifference(String stock, String pooled) {
        String[] a = stock.split("\n", -1);
        String[] b = pooled.split("\n", -1);
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            String x = i < a.length ? a[i] : "<none>";
            String y = i < b.length ? b[i] : "<none>";
            if (!x.equals(y)) {
                return "line " + (i + 1) + "\n  stock:  " + x + "\n  pooled: " + y;
            }
        }
        return null;
    }
}
