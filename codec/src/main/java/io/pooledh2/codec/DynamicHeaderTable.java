/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.util.AsciiString;

/**
 * HPACK's dynamic table (RFC 7541, section 2.3.2) as a ring of entries kept in parallel arrays, names, values, their
 * hashes ({@link SeenHeaderStrings#hash}, so that an entry leaving the table is not hashed again) and a byte of
 * validity each ({@link PooledHttp2Headers#NAME_VALID}, {@link PooledHttp2Headers#VALUE_VALID}): no object per
 * entry. Sizes are HPACK's (name length + value length + 32), the eviction order and the behaviour at
 * capacity Netty's {@code HpackDynamicTable}'s. An entry that leaves the table, evicted or dropped by a smaller
 * capacity, goes to the connection's {@link SeenHeaderStrings}, from which a literal of the same content is
 * handed out again.
 *
 * <p>The arrays are made on the first insert and grow by doubling up to what the capacity can hold (an entry
 * takes 32 bytes at least), so a connection that indexes a few headers holds a few slots.
 */
final class DynamicHeaderTable {

    private static final int ENTRY_OVERHEAD = 32;
    private static final int MIN_SLOTS = 8;

    private final SeenHeaderStrings seen;
    private AsciiString[] names;
    private AsciiString[] values;
    /** The name's hash at {@code 2 * slot}, the value's at {@code 2 * slot + 1}. */
    private int[] hashes;
    private byte[] valid;
    /** The slot the next entry goes to; the newest entry is at {@code head - 1}. */
    private int head;
    private int length;
    private long size;
    private long capacity;

    DynamicHeaderTable(long capacity, SeenHeaderStrings seen) {
        this.capacity = capacity;
        this.seen = seen;
    }

    /** The number of entries. */
    int length() {
        return length;
    }

    /** The sum of the entries' sizes. */
    long size() {
        return size;
    }

    long capacity() {
        return capacity;
    }

    /** The slot of entry {@code index}: 1 is the newest, {@link #length()} the oldest. */
    private int slot(int index) {
        return head - index & names.length - 1;
    }

    AsciiString name(int index) {
        return names[slot(index)];
    }

    AsciiString value(int index) {
        return values[slot(index)];
    }

    /** The hash of entry {@code index}'s name. */
    int nameHash(int index) {
        return hashes[slot(index) << 1];
    }

    /** Which validators entry {@code index}'s name and value passed. */
    int valid(int index) {
        return valid[slot(index)];
    }

    /** Entry {@code index}'s name and value passed the validators {@code bits} too. */
    void validated(int index, int bits) {
        int slot = slot(index);
        byte v = valid[slot];
        if ((v | bits) != v) {
            valid[slot] = (byte) (v | bits);
        }
    }

    /**
     * Adds an entry, evicting the oldest until it fits; one larger than the capacity empties the table and is not
     * added (RFC 7541, section 4.4).
     */
    void add(AsciiString name, int nameHash, AsciiString value, int valueHash, int validity) {
        long entrySize = (long) name.length() + value.length() + ENTRY_OVERHEAD;
        if (entrySize > capacity) {
            clear();
            return;
        }
        while (capacity - size < entrySize) {
            evictOldest();
        }
        if (names == null || length == names.length) {
            grow();
        }
        int slot = head;
        names[slot] = name;
        values[slot] = value;
        hashes[slot << 1] = nameHash;
        hashes[(slot << 1) + 1] = valueHash;
        valid[slot] = (byte) validity;
        head = slot + 1 & names.length - 1;
        length++;
        size += entrySize;
    }

    /** A new capacity (a table size update, or the decoder's own limit): evicts until the entries fit. */
    void capacity(long capacity) {
        this.capacity = capacity;
        while (size > capacity) {
            evictOldest();
        }
        if (names != null && maxSlots(capacity) < names.length >> 1) {
            if (length == 0) {
                names = null;
                values = null;
                hashes = null;
                valid = null;
                head = 0;
            } else {
                resize(Math.max(MIN_SLOTS, Integer.highestOneBit(length) << 1));
            }
        }
    }

    private void clear() {
        while (length > 0) {
            evictOldest();
        }
    }

    private void evictOldest() {
        int slot = slot(length);
        AsciiString name = names[slot];
        AsciiString value = values[slot];
        int v = valid[slot];
        names[slot] = null;
        values[slot] = null;
        valid[slot] = 0;
        length--;
        size -= (long) name.length() + value.length() + ENTRY_OVERHEAD;
        seen.sighted(name, hashes[slot << 1], v & PooledHttp2Headers.NAME_VALID);
        seen.sighted(value, hashes[(slot << 1) + 1], v & PooledHttp2Headers.VALUE_VALID);
    }

    private void grow() {
        int slots = names == null ? MIN_SLOTS : names.length << 1;
        resize(Math.min(slots, Math.max(MIN_SLOTS, maxSlots(capacity))));
    }

    /** The smallest power of two that holds the most entries {@code capacity} allows (each takes 32 at least). */
    private static int maxSlots(long capacity) {
        int entries = (int) Math.min(capacity / ENTRY_OVERHEAD, 1 << 30);
        return entries <= 1 ? 1 : Integer.highestOneBit(entries - 1) << 1;
    }

    private void resize(int slots) {
        AsciiString[] newNames = new AsciiString[slots];
        AsciiString[] newValues = new AsciiString[slots];
        int[] newHashes = new int[slots << 1];
        byte[] newValid = new byte[slots];
        // Oldest first, from slot 0.
        for (int i = 0; i < length; i++) {
            int from = slot(length - i);
            newNames[i] = names[from];
            newValues[i] = values[from];
            newHashes[i << 1] = hashes[from << 1];
            newHashes[(i << 1) + 1] = hashes[(from << 1) + 1];
            newValid[i] = valid[from];
        }
        names = newNames;
        values = newValues;
        hashes = newHashes;
        valid = newValid;
        head = length & slots - 1;
    }
}
