/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.util.AsciiString;
import io.netty.util.internal.PlatformDependent;

import java.util.Arrays;

/**
 * One connection's names and values that HPACK sent as literals before, by content, so that a literal seen again
 * is handed out as the same immutable {@link AsciiString} instead of a new copy. It is told of the strings of
 * literals sent without indexing, and of those that leave the dynamic table (evicted, or dropped by a table size
 * change): a string still in the dynamic table comes by index, not as a literal. Never-indexed literals never come
 * here. A string is kept only when it is told of it a second time (TinyLFU's doorkeeper: a first sighting sets
 * two bits of a small Bloom filter, which is cleared every {@value #DOORKEEPER_PERIOD} sightings): a peer that
 * sends new strings every time costs two bit stores per string and has kept only the few its filter mistook.
 *
 * <p>A hash table with linear probing, of references, their content hashes and a byte of flags each (which of
 * Netty's validators the string passed, and whether a lookup found it since the clock hand last passed). While
 * the strings would exceed the byte budget, or fill more than half the slots at the largest size, a clock hand
 * walks the slots and removes strings not found since it last passed. Nothing is allocated per string: the
 * arrays start at {@value #MIN_SLOTS} slots on the first string and double while more than half are in use, up
 * to {@value #MAX_SLOTS}.
 *
 * <p>Bounded in entries and bytes: at most {@value #MAX_SLOTS} / 2 strings, whose lengths plus
 * {@value #OVERHEAD_PER_STRING} bytes each (half of HPACK's 32 per header field, which has two strings) add up to
 * at most the budget: the connection's header list size limit (SETTINGS_MAX_HEADER_LIST_SIZE as the decoder
 * enforces it), capped at {@value #MAX_BUDGET} bytes. So the cache holds at most one largest header list's worth
 * of strings, and a peer sending new strings only replaces older ones. Salted per connection, so which strings
 * probe the same slots differs from one connection to the next.
 */
final class SeenHeaderStrings {

    static final int MIN_SLOTS = 64;
    static final int MAX_SLOTS = 1024;
    static final int OVERHEAD_PER_STRING = 16;
    static final int MAX_BUDGET = 64 * 1024;
    /** The doorkeeper's bits (8 Ki, 1 KiB, made on the first sighting), and how often it is cleared. */
    static final int DOORKEEPER_BITS = 8192;
    static final int DOORKEEPER_PERIOD = 1024;
    /** Set by a lookup that finds the string, cleared by the clock hand. */
    private static final int FOUND = 4;

    private final int salt;
    private AsciiString[] strings;
    private int[] hashes;
    /** {@link PooledHttp2Headers#NAME_VALID}, {@link PooledHttp2Headers#VALUE_VALID} and {@link #FOUND}. */
    private byte[] flags;
    private int shift;
    private int count;
    private long bytes;
    private long budget;
    private int hand;
    /** First sightings: a Bloom filter of two bits per hash. */
    private long[] doorkeeper;
    private int sightings;

    SeenHeaderStrings(int salt, long budget) {
        this.salt = salt;
        budget(budget);
    }

    /** The byte budget follows the header list size limit; a lower one applies at once. */
    void budget(long maxHeaderListSize) {
        budget = Math.min(maxHeaderListSize, MAX_BUDGET);
        while (bytes > budget) {
            sweep();
        }
    }

    /** The hash every lookup and insert uses for these bytes: {@link AsciiString#hashCode()}'s. */
    static int hash(byte[] bytes, int offset, int length) {
        return PlatformDependent.hashCodeAscii(bytes, offset, length);
    }

    /**
     * The slot of the string with the content {@code src[offset, offset + length)}, whose {@link #hash} is
     * {@code hash}; or -1.
     */
    int find(byte[] src, int offset, int length, int hash) {
        AsciiString[] strings = this.strings;
        if (strings == null) {
            return -1;
        }
        int mask = strings.length - 1;
        for (int slot = home(hash); ; slot = slot + 1 & mask) {
            AsciiString s = strings[slot];
            if (s == null) {
                return -1;
            }
            if (hashes[slot] == hash && contentEquals(s, src, offset, length)) {
                byte f = flags[slot];
                if ((f & FOUND) == 0) {
                    flags[slot] = (byte) (f | FOUND);
                }
                return slot;
            }
        }
    }

    AsciiString string(int slot) {
        return strings[slot];
    }

    /** Which validators the string in {@code slot} passed. */
    int valid(int slot) {
        return flags[slot] & (PooledHttp2Headers.NAME_VALID | PooledHttp2Headers.VALUE_VALID);
    }

    /** {@code s}, found in {@code slot}, passed the validators {@code valid}: remembered if it is still there. */
    void validated(int slot, AsciiString s, int valid) {
        byte f = flags[slot];
        if (strings[slot] == s && (f | valid) != f) {
            flags[slot] = (byte) (f | valid);
        }
    }

    /**
     * {@code s}, whose hash is {@code hash} (0: not known) and which passed the validators {@code valid}, came as a
     * literal without indexing or left the dynamic table. A string of the same content already held stays (with {@code valid} added
     * if it is this very instance); else {@code s} is kept if its hash was seen before, and its hash noted if not.
     */
    void sighted(AsciiString s, int hash, int valid) {
        int length = s.length();
        // A hash of 0: a string the decoder did not hash (it was not looking), or one in four billion others.
        if (hash == 0 || length == 0 || length + OVERHEAD_PER_STRING > budget) {
            return;
        }
        AsciiString[] strings = this.strings;
        if (strings != null) {
            int mask = strings.length - 1;
            for (int slot = home(hash); strings[slot] != null; slot = slot + 1 & mask) {
                AsciiString held = strings[slot];
                if (hashes[slot] == hash && (held == s || held.contentEquals(s))) {
                    validated(slot, s, valid);
                    return;
                }
            }
        }
        long[] seenOnce = doorkeeper;
        if (seenOnce == null) {
            doorkeeper = seenOnce = new long[DOORKEEPER_BITS / Long.SIZE];
        } else if (++sightings == DOORKEEPER_PERIOD) {
            // Forget old first sightings, so that the filter stays sparse and rarely mistakes a new string.
            sightings = 0;
            Arrays.fill(seenOnce, 0);
        }
        int mixed = (hash ^ salt) * 0x9E3779B9;
        int bit1 = mixed >>> 19;                     // 13 bits each: DOORKEEPER_BITS
        int bit2 = mixed >>> 6 & DOORKEEPER_BITS - 1;
        long mask1 = 1L << bit1;
        long mask2 = 1L << bit2;
        long word1 = seenOnce[bit1 >>> 6];
        long word2 = seenOnce[bit2 >>> 6];
        if ((word1 & mask1) == 0 || (word2 & mask2) == 0) {
            seenOnce[bit1 >>> 6] = word1 | mask1;
            seenOnce[bit2 >>> 6] |= mask2;
            return;
        }
        add(s, hash, valid);
    }

    /** Keeps {@code s}, which is not held, whose hash is {@code hash}. */
    private void add(AsciiString s, int hash, int valid) {
        long cost = s.length() + OVERHEAD_PER_STRING;
        if (strings == null) {
            allocate(MIN_SLOTS);
        }
        if (count + 1 > strings.length >> 1 && strings.length < MAX_SLOTS) {
            allocate(strings.length << 1);
        }
        while (bytes + cost > budget || count + 1 > strings.length >> 1) {
            sweep();
        }
        int mask = strings.length - 1;
        int slot = home(hash);
        while (strings[slot] != null) {
            slot = slot + 1 & mask;
        }
        strings[slot] = s;
        hashes[slot] = hash;
        flags[slot] = (byte) valid;
        bytes += cost;
        count++;
    }

    /** One step of the clock hand: removes the string under it unless found since the last pass. */
    private void sweep() {
        int slot = hand;
        hand = slot + 1 & strings.length - 1;
        if (strings[slot] == null) {
            return;
        }
        byte f = flags[slot];
        if ((f & FOUND) != 0) {
            flags[slot] = (byte) (f & ~FOUND);
        } else {
            remove(slot);
        }
    }

    /** Empties {@code slot} and moves back the strings after it that probed past it (no tombstones). */
    private void remove(int slot) {
        bytes -= strings[slot].length() + OVERHEAD_PER_STRING;
        count--;
        int mask = strings.length - 1;
        int hole = slot;
        for (int next = hole + 1 & mask; strings[next] != null; next = next + 1 & mask) {
            int home = home(hashes[next]);
            // Movable into the hole unless its home lies cyclically in (hole, next].
            boolean stays = hole <= next ? hole < home && home <= next : hole < home || home <= next;
            if (!stays) {
                strings[hole] = strings[next];
                hashes[hole] = hashes[next];
                flags[hole] = flags[next];
                hole = next;
            }
        }
        strings[hole] = null;
        hashes[hole] = 0;
        flags[hole] = 0;
    }

    /** New arrays of {@code slots}, with the strings held so far. */
    private void allocate(int slots) {
        AsciiString[] oldStrings = strings;
        int[] oldHashes = hashes;
        byte[] oldFlags = flags;
        strings = new AsciiString[slots];
        hashes = new int[slots];
        flags = new byte[slots];
        shift = Integer.SIZE - Integer.numberOfTrailingZeros(slots);
        hand = 0;
        if (oldStrings != null) {
            int mask = slots - 1;
            for (int i = 0; i < oldStrings.length; i++) {
                if (oldStrings[i] != null) {
                    int slot = home(oldHashes[i]);
                    while (strings[slot] != null) {
                        slot = slot + 1 & mask;
                    }
                    strings[slot] = oldStrings[i];
                    hashes[slot] = oldHashes[i];
                    flags[slot] = oldFlags[i];
                }
            }
        }
    }

    private int home(int hash) {
        return (hash ^ salt) * 0x9E3779B9 >>> shift;
    }

    private static boolean contentEquals(AsciiString s, byte[] src, int offset, int length) {
        if (s.length() != length) {
            return false;
        }
        int from = s.arrayOffset();
        return Arrays.equals(s.array(), from, from + length, src, offset, offset + length);
    }

    /** For tests: how many strings are held, and their bytes as counted against the budget. */
    int size() {
        return count;
    }

    long bytes() {
        return bytes;
    }

    /** For tests: the number of slots, 0 before the first string. */
    int slots() {
        return strings == null ? 0 : strings.length;
    }
}
