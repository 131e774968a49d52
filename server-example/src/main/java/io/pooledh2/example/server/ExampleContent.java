/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.example.server;

import io.netty.buffer.ByteBuf;
import io.netty.util.AsciiString;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What the example server answers, defined so that a client can check every byte it gets: the 1 KiB body of
 * {@code GET /hello}, the byte pattern of {@code GET /download?size=N}, and the request headers that every route
 * echoes. {@code src/interop/h2c-server.mjs} (a Node server the client is tested against) defines the same.
 */
public final class ExampleContent {

    /** The length of the {@code /hello} body. */
    public static final int HELLO_LENGTH = 1024;

    /** Request headers whose name starts with this are copied into the response headers, on every route. */
    public static final String ECHO_HEADER_PREFIX = "x-echo-";

    public static final AsciiString HELLO_PATH = AsciiString.cached("/hello");
    public static final AsciiString ECHO_PATH = AsciiString.cached("/echo");
    public static final AsciiString DOWNLOAD_PATH = AsciiString.cached("/download");

    private static final byte[] HELLO = hello();

    private ExampleContent() {
    }

    /**
     * The {@code /hello} body: the line {@code "Hello from pooledh2 <n>\n"} for n = 0, 1, 2, ... cut at 1024 bytes.
     * Returns a new array.
     */
    public static byte[] helloBody() {
        return HELLO.clone();
    }

    private static byte[] hello() {
        StringBuilder text = new StringBuilder(HELLO_LENGTH + 32);
        for (int line = 0; text.length() < HELLO_LENGTH; line++) {
            text.append("Hello from pooledh2 ").append(line).append('\n');
        }
        text.setLength(HELLO_LENGTH);
        return text.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** Byte {@code offset} of every {@code /download} body: the top byte of a multiplicative hash of the offset. */
    public static byte downloadByte(long offset) {
        return (byte) (((int) offset * 0x9E3779B1) >>> 24);
    }

    /** Writes bytes {@code offset .. offset + length - 1} of the download pattern to {@code out}. */
    public static void writeDownload(ByteBuf out, long offset, int length) {
        out.ensureWritable(length);
        int start = out.writerIndex();
        if (out.nioBufferCount() == 1) {
            // One view of the buffer's memory, filled in place: one call on the ByteBuf instead of one per byte
            // (each call on a leak-tracked buffer records a stack trace under paranoid leak detection).
            ByteBuffer target = out.nioBuffer(start, length);
            for (int i = 0; i < length; i++) {
                target.put(i, downloadByte(offset + i));
            }
        } else {
            for (int i = 0; i < length; i++) {
                out.setByte(start + i, downloadByte(offset + i));
            }
        }
        out.writerIndex(start + length);
    }
}
