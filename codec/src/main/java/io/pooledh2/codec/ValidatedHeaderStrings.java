/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.util.AsciiString;
import io.netty.util.concurrent.FastThreadLocal;

/**
 * The header names and values that recently passed Netty's HTTP/2 name or value validator on this thread, by
 * identity: a direct-mapped table of {@link AsciiString}s, one per slot, the newest winning.
 *
 * <p>HPACK hands out the same instances again and again: every static-table entry, and every entry of a
 * connection's dynamic table for as long as it stays there, which for the headers a client repeats on each
 * request is the life of the connection. {@code DefaultHttp2Headers} validates each of them byte by byte on
 * every block, and on a pipeline exchange that is about as much time as the stock reader's own parsing. An
 * instance found here passed the same validator before, and validation is a function of the content only, which
 * an {@code AsciiString} does not change: so it is not validated again. Only {@code AsciiString}s are kept (a
 * {@code StringBuilder} could change after it was checked), and only after the validator accepted them.
 *
 * <p>Per thread, so that a lookup is a plain read of memory no other core writes. A container handed to another
 * thread (a consumer adding to a frame's headers there) still uses its creating thread's table, without
 * synchronization, and that is safe: a reference is read or written whole, only an instance that passed the
 * validator is ever stored, and what the validator accepted is in the {@code AsciiString}'s final fields.
 * Each connection looks up under a salt of its own ({@link PooledHttp2HeadersDecoder}). The table holds up to
 * {@value #SLOTS} names and {@value #SLOTS} values past the request that brought them, as the thread's reused
 * frames hold the last block's headers; it never grows.
 */
final class ValidatedHeaderStrings {

    private static final int SLOT_BITS = 8;
    static final int SLOTS = 1 << SLOT_BITS;

    private static final FastThreadLocal<ValidatedHeaderStrings> THREAD =
            new FastThreadLocal<ValidatedHeaderStrings>() {
                @Override
                protected ValidatedHeaderStrings initialValue() {
                    return new ValidatedHeaderStrings();
                }
            };

    private final AsciiString[] names = new AsciiString[SLOTS];
    private final AsciiString[] values = new AsciiString[SLOTS];

    private ValidatedHeaderStrings() {
    }

    /** The calling thread's table. */
    static ValidatedHeaderStrings forThread() {
        return THREAD.get();
    }

    /** Whether {@code name} is an instance the name validator accepted. */
    boolean isValidatedName(CharSequence name, int salt) {
        return name instanceof AsciiString && names[slot(name, salt)] == name;
    }

    /** {@code name} passed the name validator. */
    void nameValidated(CharSequence name, int salt) {
        if (name instanceof AsciiString) {
            names[slot(name, salt)] = (AsciiString) name;
        }
    }

    /** Whether {@code value} is an instance the value validator accepted. */
    boolean isValidatedValue(CharSequence value, int salt) {
        return value instanceof AsciiString && values[slot(value, salt)] == value;
    }

    /** {@code value} passed the value validator. */
    void valueValidated(CharSequence value, int salt) {
        if (value instanceof AsciiString) {
            values[slot(value, salt)] = (AsciiString) value;
        }
    }

    /**
     * The content's hash, which {@code AsciiString} caches (after the first call a field read), mixed with the
     * connection's salt: the same content from two connections (two instances) lands in two slots, and which
     * strings of one connection share a slot differs from connection to connection.
     */
    static int slot(CharSequence s, int salt) {
        return ((s.hashCode() ^ salt) * 0x9E3779B9) >>> (Integer.SIZE - SLOT_BITS);
    }
}
