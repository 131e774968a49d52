/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.frame;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameTypes;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The wire bytes of one benchmark input: one frame (HEADERS + CONTINUATION: one header block in three frames;
 * {@link #MIXED}: seven frames), written byte by byte from RFC 9113 so that nothing under test produces its own
 * input; header blocks come from Netty's encoder. A sample with a {@link #rotation} is that many frames, one read
 * per op.
 */
public enum FrameSample {
    /** DATA, 1 KiB payload, no padding. */
    DATA_1K(Http2FrameTypes.DATA) {
        @Override
        void write(ByteBuf out) {
            data(out, 1024);
        }
    },
    /** DATA, 16 KiB payload: the default SETTINGS_MAX_FRAME_SIZE. */
    DATA_16K(Http2FrameTypes.DATA) {
        @Override
        void write(ByteBuf out) {
            data(out, 16384);
        }
    },
    /** WINDOW_UPDATE on a stream. */
    WINDOW_UPDATE(Http2FrameTypes.WINDOW_UPDATE) {
        @Override
        void write(ByteBuf out) {
            header(out, 4, Http2FrameTypes.WINDOW_UPDATE, 0, STREAM);
            out.writeInt(65535);
        }
    },
    /** HEADERS with the four request pseudo-headers only (static hits and one literal), END_STREAM. */
    HEADERS_PSEUDO(Http2FrameTypes.HEADERS) {
        @Override
        void write(ByteBuf out) {
            byte[] block = StaticHeaderBlocks.encode(StaticHeaderBlocks.requestPseudoHeaders());
            header(out, block.length, Http2FrameTypes.HEADERS, Http2Flags.END_HEADERS | Http2Flags.END_STREAM,
                    STREAM);
            out.writeBytes(block);
        }
    },
    /** HEADERS with pseudo-headers and ten regular headers: static hits and literals. */
    HEADERS_10(Http2FrameTypes.HEADERS) {
        @Override
        void write(ByteBuf out) {
            byte[] block = StaticHeaderBlocks.encode(StaticHeaderBlocks.requestTenHeaders());
            header(out, block.length, Http2FrameTypes.HEADERS, Http2Flags.END_HEADERS | Http2Flags.END_STREAM,
                    STREAM);
            out.writeBytes(block);
        }
    },
    /** HEADERS with pseudo-headers and a hundred regular headers: {@link #HEADERS_10} and 90 new names. */
    HEADERS_100(Http2FrameTypes.HEADERS) {
        @Override
        void write(ByteBuf out) {
            byte[] block = StaticHeaderBlocks.encode(StaticHeaderBlocks.requestHundredHeaders());
            header(out, block.length, Http2FrameTypes.HEADERS, Http2Flags.END_HEADERS | Http2Flags.END_STREAM,
                    STREAM);
            out.writeBytes(block);
        }
    },
    /** The block of {@link #HEADERS_10} split over HEADERS and two CONTINUATION frames. */
    HEADERS_CONTINUATION(Http2FrameTypes.HEADERS) {
        @Override
        void write(ByteBuf out) {
            byte[] block = StaticHeaderBlocks.encode(StaticHeaderBlocks.requestTenHeaders());
            int first = block.length / 3;
            int second = 2 * block.length / 3;
            header(out, first, Http2FrameTypes.HEADERS, Http2Flags.END_STREAM, STREAM);
            out.writeBytes(block, 0, first);
            header(out, second - first, Http2FrameTypes.CONTINUATION, 0, STREAM);
            out.writeBytes(block, first, second - first);
            header(out, block.length - second, Http2FrameTypes.CONTINUATION, Http2Flags.END_HEADERS, STREAM);
            out.writeBytes(block, second, block.length - second);
        }
    },
    /**
     * HEADERS with 100 regular headers that overflow the 4 KiB dynamic table, values repeating from request to
     * request: every field a literal that is inserted and evicts an older one ({@link
     * TableHeaderBlocks#overflowingTable()}).
     */
    HEADERS_100_TABLE_OVERFLOW(Http2FrameTypes.HEADERS) {
        @Override
        void write(ByteBuf out) {
            headers(out, TableHeaderBlocks.overflowingTable());
        }
    },
    /**
     * One op reads the next of {@value TableHeaderBlocks#ROTATION} HEADERS frames of one connection, in a cycle:
     * the fields of {@link #HEADERS_10} from the dynamic table, with an {@code x-request-id} (36 bytes) and a
     * {@code traceparent} (55 bytes) new in every request ({@link TableHeaderBlocks#rotation}).
     */
    HEADERS_NEW_IDS(Http2FrameTypes.HEADERS, TableHeaderBlocks.ROTATION) {
        @Override
        void write(ByteBuf out) {
            for (byte[] block : TableHeaderBlocks.rotation(true)) {
                headers(out, block);
            }
        }
    },
    /** {@link #HEADERS_NEW_IDS} with the same two values in every request: what the rest of the block costs. */
    HEADERS_SAME_IDS(Http2FrameTypes.HEADERS, TableHeaderBlocks.ROTATION) {
        @Override
        void write(ByteBuf out) {
            for (byte[] block : TableHeaderBlocks.rotation(false)) {
                headers(out, block);
            }
        }
    },
    /**
     * As {@link #HEADERS_NEW_IDS}, from a peer that sends new strings only: ten headers whose names and values are
     * all new in every request ({@link TableHeaderBlocks#randomStrings()}).
     */
    HEADERS_RANDOM_STRINGS(Http2FrameTypes.HEADERS, TableHeaderBlocks.ROTATION) {
        @Override
        void write(ByteBuf out) {
            for (byte[] block : TableHeaderBlocks.randomStrings()) {
                headers(out, block);
            }
        }
    },
    /** SETTINGS with six entries, the values a server typically sends. */
    SETTINGS(Http2FrameTypes.SETTINGS) {
        @Override
        void write(ByteBuf out) {
            header(out, 6 * Http2CodecUtil.SETTING_ENTRY_LENGTH, Http2FrameTypes.SETTINGS, 0, 0);
            setting(out, Http2CodecUtil.SETTINGS_HEADER_TABLE_SIZE, 4096);
            setting(out, Http2CodecUtil.SETTINGS_ENABLE_PUSH, 0);
            setting(out, Http2CodecUtil.SETTINGS_MAX_CONCURRENT_STREAMS, 100);
            setting(out, Http2CodecUtil.SETTINGS_INITIAL_WINDOW_SIZE, 1048576);
            setting(out, Http2CodecUtil.SETTINGS_MAX_FRAME_SIZE, 16384);
            setting(out, Http2CodecUtil.SETTINGS_MAX_HEADER_LIST_SIZE, 8192);
        }
    },
    /** SETTINGS with the ACK flag, empty. */
    SETTINGS_ACK(Http2FrameTypes.SETTINGS) {
        @Override
        void write(ByteBuf out) {
            header(out, 0, Http2FrameTypes.SETTINGS, Http2Flags.ACK, 0);
        }
    },
    /** PING, not ACK. */
    PING(Http2FrameTypes.PING) {
        @Override
        void write(ByteBuf out) {
            header(out, 8, Http2FrameTypes.PING, 0, 0);
            out.writeLong(0x0102030405060708L);
        }
    },
    /** RST_STREAM with CANCEL. */
    RST_STREAM(Http2FrameTypes.RST_STREAM) {
        @Override
        void write(ByteBuf out) {
            header(out, 4, Http2FrameTypes.RST_STREAM, 0, STREAM);
            out.writeInt((int) Http2Error.CANCEL.code());
        }
    },
    /** GOAWAY with NO_ERROR and 8 bytes of debug data ("shutdown"). */
    GOAWAY(Http2FrameTypes.GO_AWAY) {
        @Override
        void write(ByteBuf out) {
            byte[] debug = "shutdown".getBytes(StandardCharsets.US_ASCII);
            header(out, 8 + debug.length, Http2FrameTypes.GO_AWAY, 0, 0);
            out.writeInt(7);
            out.writeInt((int) Http2Error.NO_ERROR.code());
            out.writeBytes(debug);
        }
    },
    /** PRIORITY: stream 3 depends on stream 1, weight 16, not exclusive. */
    PRIORITY(Http2FrameTypes.PRIORITY) {
        @Override
        void write(ByteBuf out) {
            header(out, 5, Http2FrameTypes.PRIORITY, 0, STREAM);
            out.writeInt(1);
            out.writeByte(15);
        }
    },
    /**
     * Seven frames of seven kinds in one read, as a busy connection delivers them: HEADERS (as
     * {@link #HEADERS_PSEUDO}), DATA of 1 KiB, WINDOW_UPDATE, PRIORITY, RST_STREAM, PING, SETTINGS. With one
     * type per sample every call site in the reader sees one class; here they see seven, as in a server.
     */
    MIXED(7, Http2FrameTypes.SETTINGS) {
        @Override
        void write(ByteBuf out) {
            HEADERS_PSEUDO.write(out);
            DATA_1K.write(out);
            WINDOW_UPDATE.write(out);
            PRIORITY.write(out);
            RST_STREAM.write(out);
            PING.write(out);
            SETTINGS.write(out);
        }
    };

    /** The stream of every stream frame. */
    static final int STREAM = 3;

    /** How many frames (a header block counting once) a listener sees. */
    final int listenerCalls;
    /** The type of the last frame (or header block) a listener sees. */
    final byte frameType;
    /** How many frames the input holds, one read per op in a cycle; 1: one input read whole by every op. */
    final int rotation;

    FrameSample(byte frameType) {
        this(1, frameType);
    }

    FrameSample(byte frameType, int rotation) {
        this.listenerCalls = 1;
        this.frameType = frameType;
        this.rotation = rotation;
    }

    FrameSample(int listenerCalls, byte frameType) {
        this.listenerCalls = listenerCalls;
        this.frameType = frameType;
        this.rotation = 1;
    }

    abstract void write(ByteBuf out);

    /** The sample in a buffer of {@code alloc}, readable from index 0. */
    ByteBuf encode(ByteBufAllocator alloc) {
        ByteBuf out = alloc.directBuffer();
        write(out);
        return out;
    }

    private static void header(ByteBuf out, int length, byte type, int flags, int streamId) {
        out.writeMedium(length);
        out.writeByte(type);
        out.writeByte(flags);
        out.writeInt(streamId);
    }

    /** A HEADERS frame with END_HEADERS and END_STREAM carrying {@code block}. */
    private static void headers(ByteBuf out, byte[] block) {
        header(out, block.length, Http2FrameTypes.HEADERS, Http2Flags.END_HEADERS | Http2Flags.END_STREAM, STREAM);
        out.writeBytes(block);
    }

    private static void setting(ByteBuf out, char id, long value) {
        out.writeShort(id);
        out.writeInt((int) value);
    }

    private static void data(ByteBuf out, int length) {
        header(out, length, Http2FrameTypes.DATA, 0, STREAM);
        byte[] payload = new byte[length];
        Arrays.fill(payload, (byte) 'x');
        out.writeBytes(payload);
    }
}
