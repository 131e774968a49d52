/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import java.util.Arrays;

/**
 * HPACK's Huffman code (RFC 7541, appendix B), decoded from a byte array into a byte array, eight input bits per
 * table lookup: the common symbols (5 to 8 bits) take one lookup each, longer codes walk down one table per
 * further eight bits. Accepts and rejects exactly what Netty's {@code HpackHuffmanDecoder} does: an encoded EOS is
 * an error where it ends, and so is padding longer than seven bits or not all ones.
 */
final class HuffmanDecoder {

    /**
     * The code lengths of symbols 0 to 255 and EOS (256), RFC 7541 appendix B. The code is canonical (within one
     * length, codes count up in symbol order), so the lengths alone give every code.
     */
    private static final byte[] CODE_LENGTHS = {
        13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
        28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
        6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
        5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
        13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
        7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
        15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
        6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
        20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
        24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
        22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
        21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
        26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
        19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
        20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
        26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
        30,
    };
    private static final int EOS = 256;

    /**
     * Lookup tables of 256 entries each, one after the other; the root's at 0. An entry is either a symbol, as
     * {@code symbol << 8 | bits}, where {@code bits} (1 to 8) is how many of the eight looked-up bits the code's
     * end takes; or the start of the table for the next eight bits, as {@code start << 8} (bits 0).
     */
    private static final int[] TABLES = buildTables();

    private HuffmanDecoder() {
    }

    /**
     * Decodes {@code length} bytes of {@code src} from {@code offset} into {@code dst}, which has room for
     * {@code length * 8 / 5} bytes (the shortest code has five bits).
     *
     * @return how many bytes were decoded; or, for input Netty rejects, {@code -1 - i} where {@code i} is the index
     *         (from {@code offset}) at which Netty's decoder stops: the byte in which an EOS ends, or
     *         {@code length} for bad padding
     */
    static int decode(byte[] src, int offset, int length, byte[] dst) {
        int[] tables = TABLES;
        int acc = 0;      // the last bits read, right-aligned; only the low 16 matter
        int bits = 0;     // how many of them are not decoded yet (fewer than 16)
        int table = 0;    // the table the next lookup uses
        int k = 0;
        for (int i = 0; i < length; i++) {
            acc = acc << 8 | src[offset + i] & 0xFF;
            bits += 8;
            while (bits >= 8) {
                int e = tables[table + (acc >>> bits - 8 & 0xFF)];
                int n = e & 0xFF;
                if (n == 0) {
                    table = e >>> 8;
                    bits -= 8;
                } else {
                    int symbol = e >>> 8;
                    bits -= n;
                    if (symbol == EOS) {
                        return -1 - endingByte(i, bits);
                    }
                    dst[k++] = (byte) symbol;
                    table = 0;
                }
            }
        }
        // Fewer than eight bits left: codes that end within them, looked up with ones after them.
        while (bits > 0) {
            int pad = 8 - bits;
            int e = tables[table + ((acc << pad | (1 << pad) - 1) & 0xFF)];
            int n = e & 0xFF;
            if (n == 0 || n > bits) {
                break;
            }
            int symbol = e >>> 8;
            bits -= n;
            if (symbol == EOS) {
                return -1 - endingByte(length - 1, bits);
            }
            dst[k++] = (byte) symbol;
            table = 0;
        }
        // What is left is padding: at most seven bits (not inside a longer code), all ones.
        int ones = (1 << bits) - 1;
        if (table != 0 || (acc & ones) != ones) {
            return -1 - length;
        }
        return k;
    }

    /** The index of the input byte with a code's last bit, {@code bitsLeft} bits before the end of byte {@code i}. */
    private static int endingByte(int i, int bitsLeft) {
        return ((i + 1) * 8 - bitsLeft - 1) >> 3;
    }

    private static int[] buildTables() {
        int[] codes = new int[CODE_LENGTHS.length];
        // Canonical: by length, then by symbol.
        int code = 0;
        int previousLength = 0;
        for (int length = 1; length <= 30; length++) {
            for (int symbol = 0; symbol < CODE_LENGTHS.length; symbol++) {
                if (CODE_LENGTHS[symbol] == length) {
                    if (previousLength != 0) {
                        code = code + 1 << length - previousLength;
                    }
                    previousLength = length;
                    codes[symbol] = code;
                }
            }
        }
        // Tables by the prefix that leads to them: prefixes[t] has prefixLengths[t] bits (0, 8, 16 or 24).
        int[] prefixes = new int[64];
        int[] prefixLengths = new int[64];
        int tableCount = 1;
        int[] tables = new int[64 * 256];
        for (int t = 0; t < tableCount; t++) {
            int depth = prefixLengths[t];
            for (int symbol = 0; symbol < codes.length; symbol++) {
                int length = CODE_LENGTHS[symbol];
                if (length <= depth || codes[symbol] >>> length - depth != prefixes[t]) {
                    continue;
                }
                int rest = length - depth;
                int low = codes[symbol] & (1 << rest) - 1;
                if (rest <= 8) {
                    // Every 8-bit extension that starts with the code's rest.
                    int first = low << 8 - rest;
                    for (int x = first; x < first + (1 << 8 - rest); x++) {
                        tables[t * 256 + x] = symbol << 8 | rest;
                    }
                } else {
                    int x = low >>> rest - 8;
                    if (tables[t * 256 + x] == 0) {
                        prefixes[tableCount] = prefixes[t] << 8 | x;
                        prefixLengths[tableCount] = depth + 8;
                        tables[t * 256 + x] = tableCount * 256 << 8;
                        tableCount++;
                    }
                }
            }
        }
        return Arrays.copyOf(tables, tableCount * 256);
    }
}
