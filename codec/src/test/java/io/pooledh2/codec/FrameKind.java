/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;

import static io.pooledh2.codec.RawFrames.bytes;
import static io.pooledh2.codec.RawFrames.frame;

/**
 * One valid frame of each kind the reader hands out. {@code variant} changes every field, so that two
 * consecutive frames of a kind differ everywhere and a field left over from the earlier one would show.
 */
enum FrameKind {
    DATA {
        @Override
        void write(ByteBuf out, int v) {
            // PADDED with v bytes of padding, END_STREAM on odd variants.
            byte[] data = bytes("data-" + v);
            out.writeMedium(1 + data.length + v);
            out.writeByte(0x0);
            out.writeByte(Http2Flags.PADDED | (v % 2 == 1 ? Http2Flags.END_STREAM : 0));
            out.writeInt(2 * v + 1);
            out.writeByte(v);
            out.writeBytes(data);
            out.writeZero(v);
        }
    },
    HEADERS {
        @Override
        void write(ByteBuf out, int v) throws Http2Exception {
            byte[] block = RawFrames.requestHeaders("/path-" + v);
            boolean priority = v % 2 == 1;
            int flags = Http2Flags.END_HEADERS | Http2Flags.PADDED | (priority ? Http2Flags.PRIORITY : 0)
                    | (priority ? Http2Flags.END_STREAM : 0);
            out.writeMedium(1 + (priority ? 5 : 0) + block.length + v);
            out.writeByte(0x1);
            out.writeByte(flags);
            out.writeInt(2 * v + 1);
            out.writeByte(v);
            if (priority) {
                out.writeInt(0x80000000 | (100 + v));
                out.writeByte(v);
            }
            out.writeBytes(block);
            out.writeZero(v);
        }
    },
    PRIORITY {
        @Override
        void write(ByteBuf out, int v) {
            RawFrames.header(out, 5, 0x2, 0, 2 * v + 1);
            out.writeInt((v % 2 == 1 ? 0x80000000 : 0) | (200 + v));
            out.writeByte(v);
        }
    },
    RST_STREAM {
        @Override
        void write(ByteBuf out, int v) {
            RawFrames.header(out, 4, 0x3, 0, 2 * v + 1);
            out.writeInt(v);
        }
    },
    SETTINGS {
        @Override
        void write(ByteBuf out, int v) {
            // Variant 1 sets two values, later variants one other value: a stale entry would show.
            if (v == 1) {
                RawFrames.header(out, 12, 0x4, 0, 0);
                out.writeShort(0x3).writeInt(100);
                out.writeShort(0x4).writeInt(65535);
            } else {
                RawFrames.header(out, 6, 0x4, 0, 0);
                out.writeShort(0x5).writeInt(16384 + v);
            }
        }
    },
    SETTINGS_ACK {
        @Override
        void write(ByteBuf out, int v) {
            RawFrames.header(out, 0, 0x4, Http2Flags.ACK, 0);
        }
    },
    PUSH_PROMISE {
        @Override
        void write(ByteBuf out, int v) throws Http2Exception {
            byte[] block = RawFrames.requestHeaders("/pushed-" + v);
            out.writeMedium(1 + 4 + block.length + v);
            out.writeByte(0x5);
            out.writeByte(Http2Flags.END_HEADERS | Http2Flags.PADDED);
            out.writeInt(2 * v + 1);
            out.writeByte(v);
            out.writeInt(2 * v);
            out.writeBytes(block);
            out.writeZero(v);
        }
    },
    PING {
        @Override
        void write(ByteBuf out, int v) {
            RawFrames.header(out, 8, 0x6, v % 2 == 1 ? Http2Flags.ACK : 0, 0);
            out.writeLong(1000L * v);
        }
    },
    GOAWAY {
        @Override
        void write(ByteBuf out, int v) {
            byte[] debug = bytes(v == 1 ? "a long debug message" : "dbg" + v);
            RawFrames.header(out, 8 + debug.length, 0x7, 0, 0);
            out.writeInt(2 * v + 1);
            out.writeInt(v);
            out.writeBytes(debug);
        }
    },
    WINDOW_UPDATE {
        @Override
        void write(ByteBuf out, int v) {
            RawFrames.header(out, 4, 0x8, 0, v % 2 == 1 ? 0 : 2 * v + 1);
            out.writeInt(1000 + v);
        }
    },
    UNKNOWN {
        @Override
        void write(ByteBuf out, int v) {
            frame(out, 0x20 + v, v, 2 * v + 1, bytes("ext-" + v));
        }
    };

    abstract void write(ByteBuf out, int variant) throws Http2Exception;
}
