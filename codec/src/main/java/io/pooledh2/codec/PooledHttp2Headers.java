/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.CharSequenceValueConverter;
import io.netty.handler.codec.DefaultHeaders;
import io.netty.handler.codec.Headers;
import io.netty.handler.codec.HeadersUtils;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.netty.util.HashingStrategy;
import io.netty.util.internal.ObjectUtil;
import io.netty.util.internal.PlatformDependent;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

import static io.netty.handler.codec.http2.Http2Headers.PseudoHeaderName.hasPseudoHeaderFormat;

/**
 * {@link Http2Headers} in two arrays, names and values, in the order {@link DefaultHttp2Headers} iterates:
 * pseudo-headers first, each group in insertion order. Lookups scan the arrays, which for the few dozen
 * headers of a request costs less than hashing every name, and a block decodes into arrays that are kept
 * from one block to the next, so a reused instance allocates nothing of its own.
 *
 * <p>Pseudo-headers are the leading {@link #pseudoCount} entries rather than fields of their own (as in
 * grpc-java's inbound headers): that keeps {@code DefaultHttp2Headers}' iteration order, in which
 * pseudo-headers come in the order they arrived, and their accessors still scan only those few entries.
 *
 * <p>Everything a consumer sees matches {@code DefaultHttp2Headers}: names compare case-sensitively
 * ({@link AsciiString#CASE_SENSITIVE_HASHER}), {@code get} answers the first value, {@code valueIterator}
 * answers newest first, the entry iterator is read-only, and with validation the same validators
 * ({@link DefaultHttp2Headers#defaultHtt2NameValidator()}, {@link DefaultHttp2Headers#defaultHttp2ValueValidator()})
 * and the same pseudo-header checks throw the same exceptions; the HPACK decoder skips a validator for a string it
 * knows passed it ({@link #addDecoded}). Not thread-safe.
 */
final class PooledHttp2Headers implements Http2Headers {

    /** Kept arrays hold at most this many entries; larger ones are given up when the instance is recycled. */
    static final int MAX_KEPT_CAPACITY = 128;
    private static final int DEFAULT_CAPACITY = 16;
    /** A string known to pass Netty's HTTP/2 name validator ({@link #addDecoded}). */
    static final int NAME_VALID = 1;
    /** A string known to pass Netty's HTTP/2 value validator. */
    static final int VALUE_VALID = 2;
    /** {@code DefaultHeaders.HASH_CODE_SEED}, so that equal headers of both classes hash alike. */
    private static final int HASH_CODE_SEED = 0xc2b2ae35;
    private static final CharSequenceValueConverter CONVERTER = CharSequenceValueConverter.INSTANCE;
    private static final DefaultHeaders.NameValidator<CharSequence> NAME_VALIDATOR =
            DefaultHttp2Headers.defaultHtt2NameValidator();
    private static final DefaultHeaders.ValueValidator<CharSequence> VALUE_VALIDATOR =
            DefaultHttp2Headers.defaultHttp2ValueValidator();

    private CharSequence[] names;
    private CharSequence[] values;
    /**
     * Slots from {@code size} on may still hold a reference: {@link #empty()} leaves the last block's in place,
     * so that the next block, which often has the same name and value objects at the same index (HPACK's static
     * and dynamic tables hand out the same instances), stores only what differs. A reference stored into this
     * long-lived array pays G1's write barrier, with a full memory fence; a read and compare costs about nothing.
     * Only {@link #recycle()} clears them, all of them.
     */
    private int size;
    /** Entries {@code [0, pseudoCount)} are pseudo-headers, the rest regular headers. */
    private int pseudoCount;
    private boolean validate;
    private boolean validateValues;
    /**
     * The iterator's entries, one per index, once the container has been recycled with its frame: Netty's decoder
     * walks every block's headers ({@code validatePseudoHeadersDirection}), and so do consumers that convert or copy
     * them, as they walk {@code DefaultHttp2Headers}' entries without allocating. An entry handed out is the header
     * at its index until the layout changes (a removal, a pseudo-header inserted before regular ones, {@code clear})
     * or the frame is released; on a layout change the slots are emptied, so that entries already held keep their
     * header, as {@code DefaultHttp2Headers}' entries do. Null for a container used once.
     */
    private Entry[] entries;
    /** Entries {@code [0, boundEntries)} of {@link #entries} hold a name and value. */
    private int boundEntries;
    /** Set on the first {@link #recycle()}: the container lives with a frame, so its entries are worth keeping. */
    private boolean recycled;

    PooledHttp2Headers(boolean validate, boolean validateValues, int capacity) {
        this.validate = validate;
        this.validateValues = validateValues;
        int n = Math.max(capacity, 1);
        names = new CharSequence[n];
        values = new CharSequence[n];
    }

    /** An unpooled copy that shares the (immutable) names and values: what an adapter gives a listener to keep. */
    PooledHttp2Headers copy() {
        PooledHttp2Headers copy = new PooledHttp2Headers(validate, validateValues, size);
        System.arraycopy(names, 0, copy.names, 0, size);
        System.arraycopy(values, 0, copy.values, 0, size);
        copy.size = size;
        copy.pseudoCount = pseudoCount;
        return copy;
    }

    /** Readies a reused instance for a new block, validating as the decoder says. */
    void prepare(boolean validate, boolean validateValues) {
        this.validate = validate;
        this.validateValues = validateValues;
    }

    /**
     * Empties the instance for its frame's next block, in the reader's slot: as {@link #empty()}, the references
     * stay in their slots, out of reach, until the next block overwrites them or {@link #recycle()} clears them.
     */
    void reuse() {
        if (names.length > MAX_KEPT_CAPACITY || entries != null && entries.length > MAX_KEPT_CAPACITY) {
            recycle();
            return;
        }
        recycled = true;
        empty();
    }

    /**
     * Empties the instance for a frame going back to its {@code Recycler}: no reference to a name or value is
     * kept, and arrays grown past {@link #MAX_KEPT_CAPACITY} by one large block are replaced by smaller ones so
     * they do not stay pinned.
     */
    void recycle() {
        recycled = true;
        Entry[] cache = entries;
        if (cache != null) {
            if (cache.length > MAX_KEPT_CAPACITY) {
                entries = null;
            } else {
                for (int i = 0; i < boundEntries; i++) {
                    cache[i].unbind();
                }
            }
            boundEntries = 0;
        }
        if (names.length > MAX_KEPT_CAPACITY) {
            names = new CharSequence[MAX_KEPT_CAPACITY];
            values = new CharSequence[MAX_KEPT_CAPACITY];
        } else {
            // Every slot, past the last block's size too (see size): a rare path, arrays of at most 128.
            Arrays.fill(names, null);
            Arrays.fill(values, null);
        }
        size = 0;
        pseudoCount = 0;
    }

    /** For tests: the length of the arrays. */
    int capacity() {
        return names.length;
    }

    /** For tests: the names and values the arrays still reference, in reach or not. */
    int referencesHeld() {
        int held = 0;
        for (int i = 0; i < names.length; i++) {
            held += (names[i] != null ? 1 : 0) + (values[i] != null ? 1 : 0);
        }
        return held;
    }

    // Storage

    private int indexOf(CharSequence name, int from, int to) {
        for (int i = from; i < to; i++) {
            if (AsciiString.contentEquals(name, names[i])) {
                return i;
            }
        }
        return -1;
    }

    private int indexOf(CharSequence name) {
        return hasPseudoHeaderFormat(name) ? indexOf(name, 0, pseudoCount) : indexOf(name, pseudoCount, size);
    }

    private void append(CharSequence name, CharSequence value) {
        if (size == names.length) {
            int capacity = size << 1;
            names = Arrays.copyOf(names, capacity);
            values = Arrays.copyOf(values, capacity);
        }
        if (hasPseudoHeaderFormat(name)) {
            // After the pseudo-headers already there, before any regular header, as DefaultHttp2Headers does.
            int at = pseudoCount;
            if (at < size) {
                forgetEntries();
                System.arraycopy(names, at, names, at + 1, size - at);
                System.arraycopy(values, at, values, at + 1, size - at);
            }
            store(at, name, value);
            pseudoCount++;
        } else {
            store(size, name, value);
        }
        size++;
    }

    /** Stores only what the slot does not already hold: see {@link #size}. */
    private void store(int index, CharSequence name, CharSequence value) {
        if (names[index] != name) {
            names[index] = name;
        }
        if (values[index] != value) {
            values[index] = value;
        }
    }

    private void removeAt(int index) {
        forgetEntries();
        int moved = size - index - 1;
        if (moved > 0) {
            System.arraycopy(names, index + 1, names, index, moved);
            System.arraycopy(values, index + 1, values, index, moved);
        }
        size--;
        names[size] = null;
        values[size] = null;
        if (index < pseudoCount) {
            pseudoCount--;
        }
    }

    /** Removes every entry of {@code name}; answers the first value, or {@code null}. */
    private CharSequence removeAll(CharSequence name) {
        boolean pseudo = hasPseudoHeaderFormat(name);
        int from = pseudo ? 0 : pseudoCount;
        CharSequence first = null;
        int i = from;
        while (i < (pseudo ? pseudoCount : size)) {
            if (AsciiString.contentEquals(name, names[i])) {
                if (first == null) {
                    first = values[i];
                }
                removeAt(i);
            } else {
                i++;
            }
        }
        return first;
    }

    /** The layout changes: entries handed out keep the header they had, and new ones are made from now on. */
    private void forgetEntries() {
        forgetEntriesFrom(0);
    }

    /** As {@link #forgetEntries()}, for the entries from {@code index} on: those before it keep their header. */
    private void forgetEntriesFrom(int index) {
        if (boundEntries > index) {
            Arrays.fill(entries, index, boundEntries, null);
            boundEntries = index;
        }
    }

    /** The iterator's entry for index {@code i}: kept and rebound in a recycled container, new otherwise. */
    private Entry entryAt(int i) {
        if (!recycled) {
            return new Entry(i, names[i], values[i]);
        }
        Entry[] cache = entries;
        if (cache == null || i >= cache.length) {
            entries = cache = cache == null ? new Entry[names.length] : Arrays.copyOf(cache, names.length);
        }
        Entry entry = cache[i];
        if (entry == null) {
            cache[i] = entry = new Entry(i, names[i], values[i]);
        } else {
            entry.bind(names[i], values[i]);
        }
        if (i >= boundEntries) {
            boundEntries = i + 1;
        }
        return entry;
    }

    // Validation, as DefaultHttp2Headers (and DefaultHeaders under it) does it

    /** As {@code DefaultHttp2Headers} validates a name it adds ({@code forAdd}) or sets. */
    private void validateName(CharSequence name, boolean forAdd) {
        if (!validate) {
            ObjectUtil.checkNotNull(name, "name");
            return;
        }
        NAME_VALIDATOR.validateName(name);
        checkPseudoHeaderName(name, forAdd);
    }

    private void checkPseudoHeaderName(CharSequence name, boolean forAdd) {
        if (forAdd && hasPseudoHeaderFormat(name) && indexOf(name, 0, pseudoCount) >= 0) {
            PlatformDependent.throwException(Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR,
                    "Duplicate HTTP/2 pseudo-header '%s' encountered.", name));
        }
    }

    /** As {@link #validateName}, for a value. */
    private void validateValue(CharSequence name, CharSequence value) {
        if (validateValues) {
            validateValueContent(name, value);
        }
        checkPseudoHeaderValue(name, value);
    }

    private static void validateValueContent(CharSequence name, CharSequence value) {
        try {
            VALUE_VALIDATOR.validate(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Validation failed for header '" + name + "'", e);
        }
    }

    private void checkPseudoHeaderValue(CharSequence name, CharSequence value) {
        if (validate && (value == null || value.length() == 0) && hasPseudoHeaderFormat(name)) {
            PlatformDependent.throwException(Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR,
                    "HTTP/2 pseudo-header '%s' must not be empty.", name));
        }
    }

    private static CharSequence fromObject(CharSequence name, Object value) {
        try {
            return CONVERTER.convertObject(ObjectUtil.checkNotNull(value, "value"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Failed to convert object value for header '" + name + '\'', e);
        }
    }

    // Http2Headers

    @Override
    public Iterator<Map.Entry<CharSequence, CharSequence>> iterator() {
        return new EntryIterator();
    }

    @Override
    public Iterator<CharSequence> valueIterator(CharSequence name) {
        return new ValueIterator(ObjectUtil.checkNotNull(name, "name"));
    }

    @Override
    public Http2Headers method(CharSequence value) {
        return set(PseudoHeaderName.METHOD.value(), value);
    }

    @Override
    public Http2Headers scheme(CharSequence value) {
        return set(PseudoHeaderName.SCHEME.value(), value);
    }

    @Override
    public Http2Headers authority(CharSequence value) {
        return set(PseudoHeaderName.AUTHORITY.value(), value);
    }

    @Override
    public Http2Headers path(CharSequence value) {
        return set(PseudoHeaderName.PATH.value(), value);
    }

    @Override
    public Http2Headers status(CharSequence value) {
        return set(PseudoHeaderName.STATUS.value(), value);
    }

    @Override
    public CharSequence method() {
        return pseudo(PseudoHeaderName.METHOD.value());
    }

    @Override
    public CharSequence scheme() {
        return pseudo(PseudoHeaderName.SCHEME.value());
    }

    @Override
    public CharSequence authority() {
        return pseudo(PseudoHeaderName.AUTHORITY.value());
    }

    @Override
    public CharSequence path() {
        return pseudo(PseudoHeaderName.PATH.value());
    }

    @Override
    public CharSequence status() {
        return pseudo(PseudoHeaderName.STATUS.value());
    }

    private CharSequence pseudo(AsciiString name) {
        int i = indexOf(name, 0, pseudoCount);
        return i < 0 ? null : values[i];
    }

    @Override
    public boolean contains(CharSequence name, CharSequence value, boolean caseInsensitive) {
        return contains(name, value, caseInsensitive ? AsciiString.CASE_INSENSITIVE_HASHER
                : AsciiString.CASE_SENSITIVE_HASHER);
    }

    private boolean contains(CharSequence name, CharSequence value, HashingStrategy<? super CharSequence> strategy) {
        ObjectUtil.checkNotNull(name, "name");
        boolean pseudo = hasPseudoHeaderFormat(name);
        int to = pseudo ? pseudoCount : size;
        for (int i = pseudo ? 0 : pseudoCount; i < to; i++) {
            if (AsciiString.contentEquals(name, names[i]) && strategy.equals(value, values[i])) {
                return true;
            }
        }
        return false;
    }

    // Headers: reads

    @Override
    public CharSequence get(CharSequence name) {
        int i = indexOf(ObjectUtil.checkNotNull(name, "name"));
        return i < 0 ? null : values[i];
    }

    @Override
    public CharSequence get(CharSequence name, CharSequence defaultValue) {
        CharSequence value = get(name);
        return value == null ? defaultValue : value;
    }

    @Override
    public CharSequence getAndRemove(CharSequence name) {
        return removeAll(ObjectUtil.checkNotNull(name, "name"));
    }

    @Override
    public CharSequence getAndRemove(CharSequence name, CharSequence defaultValue) {
        CharSequence value = getAndRemove(name);
        return value == null ? defaultValue : value;
    }

    @Override
    public List<CharSequence> getAll(CharSequence name) {
        ObjectUtil.checkNotNull(name, "name");
        boolean pseudo = hasPseudoHeaderFormat(name);
        int to = pseudo ? pseudoCount : size;
        List<CharSequence> all = null;
        CharSequence first = null;
        for (int i = pseudo ? 0 : pseudoCount; i < to; i++) {
            if (AsciiString.contentEquals(name, names[i])) {
                if (first == null) {
                    first = values[i];
                } else {
                    if (all == null) {
                        all = new ArrayList<>(4);
                        all.add(first);
                    }
                    all.add(values[i]);
                }
            }
        }
        // The same list kinds DefaultHeaders answers with.
        if (all != null) {
            return all;
        }
        return first == null ? Collections.emptyList() : Collections.singletonList(first);
    }

    @Override
    public List<CharSequence> getAllAndRemove(CharSequence name) {
        List<CharSequence> all = getAll(name);
        remove(name);
        return all;
    }

    @Override
    public boolean contains(CharSequence name) {
        return get(name) != null;
    }

    @Override
    public boolean contains(CharSequence name, CharSequence value) {
        return contains(name, value, false);
    }

    @Override
    public boolean containsObject(CharSequence name, Object value) {
        return contains(name, fromObject(name, value));
    }

    @Override
    public boolean containsBoolean(CharSequence name, boolean value) {
        return contains(name, CONVERTER.convertBoolean(value));
    }

    @Override
    public boolean containsByte(CharSequence name, byte value) {
        return contains(name, CONVERTER.convertByte(value));
    }

    @Override
    public boolean containsChar(CharSequence name, char value) {
        return contains(name, CONVERTER.convertChar(value));
    }

    @Override
    public boolean containsShort(CharSequence name, short value) {
        return contains(name, CONVERTER.convertShort(value));
    }

    @Override
    public boolean containsInt(CharSequence name, int value) {
        return contains(name, CONVERTER.convertInt(value));
    }

    @Override
    public boolean containsLong(CharSequence name, long value) {
        return contains(name, CONVERTER.convertLong(value));
    }

    @Override
    public boolean containsFloat(CharSequence name, float value) {
        return contains(name, CONVERTER.convertFloat(value));
    }

    @Override
    public boolean containsDouble(CharSequence name, double value) {
        return contains(name, CONVERTER.convertDouble(value));
    }

    @Override
    public boolean containsTimeMillis(CharSequence name, long value) {
        return contains(name, CONVERTER.convertTimeMillis(value));
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean isEmpty() {
        return size == 0;
    }

    @Override
    public Set<CharSequence> names() {
        if (size == 0) {
            return Collections.emptySet();
        }
        Set<CharSequence> names = new LinkedHashSet<>(size);
        for (int i = 0; i < size; i++) {
            names.add(this.names[i]);
        }
        return names;
    }

    @Override
    public Boolean getBoolean(CharSequence name) {
        CharSequence v = get(name);
        try {
            return v != null ? CONVERTER.convertToBoolean(v) : null;
        } catch (RuntimeException ignore) {
            return null;
        }
    }

    @Override
    public boolean getBoolean(CharSequence name, boolean defaultValue) {
        Boolean v = getBoolean(name);
        return v != null ? v : defaultValue;
    }

    @Override
    public Byte getByte(CharSequence name) {
        CharSequence v = get(name);
        try {
            return v != null ? CONVERTER.convertToByte(v) : null;
        } catch (RuntimeException ignore) {
            return null;
        }
    }

    @Override
    public byte getByte(CharSequence name, byte defaultValue) {
        Byte v = getByte(name);
        return v != null ? v : defaultValue;
    }

    @Override
    public Character getChar(CharSequence name) {
        CharSequence v = get(name);
        try {
            return v != null ? CONVERTER.convertToChar(v) : null;
        } catch (RuntimeException ignore) {
            return null;
        }
    }

    @Override
    public char getChar(CharSequence name, char defaultValue) {
        Character v = getChar(name);
        return v != null ? v : defaultValue;
    }

    @Override
    public Short getShort(CharSequence name) {
        CharSequence v = get(name);
        try {
            return v != null ? CONVERTER.convertToShort(v) : null;
        } catch (RuntimeException ignore) {
            return null;
        }
    }

    @Override
    public short getShort(CharSequence name, short defaultValue) {
        Short v = getShort(name);
        return v != null ? v : defaultValue;
    }

    @Override
    public Integer getInt(CharSequence name) {
        CharSequence v = get(name);
        try {
            return v != null ? CONVERTER.convertToInt(v) : null;
        } catch (RuntimeException ignore) {
            return null;
        }
    }

    @Override
    public int getInt(CharSequence name, int defaultValue) {
        Integer v = getInt(name);
        return v != null ? v : defaultValue;
    }

    @Override
    public Long getLong(CharSequence name) {
        CharSequence v = get(name);
        try {
            return v != null ? CONVERTER.convertToLong(v) : null;
        } catch (RuntimeException ignore) {
            return null;
        }
    }

    @Override
    public long getLong(CharSequence name, long defaultValue) {
        Long v = getLong(name);
        return v != null ? v : defaultValue;
    }

    @Override
    public Float getFloat(CharSequence name) {
        CharSequence v = get(name);
        try {
            return v != null ? CONVERTER.convertToFloat(v) : null;
        } catch (RuntimeException ignore) {
            return null;
        }
    }

    @Override
    public float getFloat(CharSequence name, float defaultValue) {
        Float v = getFloat(name);
        return v != null ? v : defaultValue;
    }

    @Override
    public Double getDouble(CharSequence name) {
        CharSequence v = get(name);
        try {
            return v != null ? CONVERTER.convertToDouble(v) : null;
        } catch (RuntimeException ignore) {
            return null;
        }
    }

    @Override
    public double getDouble(CharSequence name, double defaultValue) {
        Double v = getDouble(name);
        return v != null ? v : defaultValue;
    }

    @Override
    public Long getTimeMillis(CharSequence name) {
        CharSequence v = get(name);
        try {
            return v != null ? CONVERTER.convertToTimeMillis(v) : null;
        } catch (RuntimeException ignore) {
            return null;
        }
    }

    @Override
    public long getTimeMillis(CharSequence name, long defaultValue) {
        Long v = getTimeMillis(name);
        return v != null ? v : defaultValue;
    }

    @Override
    public Boolean getBooleanAndRemove(CharSequence name) {
        CharSequence v = getAndRemove(name);
        try {
            return v != null ? CONVERTER.convertToBoolean(v) : null;
        } catch (RuntimeException ignore) {
            return null;
        }
    }

    @Override
    public boolean getBooleanAndRemove(CharSequence name, boolean defaultValue) {
        Boolean v = getBooleanAndRemove(name);
        return v != null ? v : defaultValue;
    }

    @Override
    public Byte getByteAndRemove(CharSequence name) {
        CharSequence v = getAndRemove(name);
        try {
            return v != null ? CONVERTER.convertToByte(v) : null;
        } catch (RuntimeException ignore) {
            return null;
        }
    }

    @Override
    public byte getByteAndRemove(CharSequence name, byte defaultValue) {
        Byte v = getByteAndRemove(name);
        return v != null ? v : defaultValue;
    }

    @Override
    public Character getCharAndRemove(CharSequence name) {
        CharSequence v = getAndRemove(name);
        try {
            return v != null ? CONVERTER.convertToChar(v) : null;
        } catch (RuntimeException ignore) {
            return null;
        }
    }

    @Override
    public char getCharAndRemove(CharSequence name, char defaultValue) {
        Character v = getCharAndRemove(name);
        return v != null ? v : defaultValue;
    }

    @Override
    public Short getShortAndRemove(CharSequence name) {
        CharSequence v = getAndRemove(name);
        try {
            return v != null ? CONVERTER.convertToShort(v) : null;
        } catch (RuntimeException ignore) {
            return null;
        }
    }

    @Override
    public short getShortAndRemove(CharSequence name, short defaultValue) {
        Short v = getShortAndRemove(name);
        return v != null ? v : defaultValue;
    }

    @Override
    public Integer getIntAndRemove(CharSequence name) {
        CharSequence v = getAndRemove(name);
        try {
            return v != null ? CONVERTER.convertToInt(v) : null;
        } catch (RuntimeException ignore) {
            return null;
        }
    }

    @Override
    public int getIntAndRemove(CharSequence name, int defaultValue) {
        Integer v = getIntAndRemove(name);
        return v != null ? v : defaultValue;
    }

    @Override
    public Long getLongAndRemove(CharSequence name) {
        CharSequence v = getAndRemove(name);
        try {
            return v != null ? CONVERTER.convertToLong(v) : null;
        } catch (RuntimeException ignore) {
            return null;
        }
    }

    @Override
    public long getLongAndRemove(CharSequence name, long defaultValue) {
        Long v = getLongAndRemove(name);
        return v != null ? v : defaultValue;
    }

    @Override
    public Float getFloatAndRemove(CharSequence name) {
        CharSequence v = getAndRemove(name);
        try {
            return v != null ? CONVERTER.convertToFloat(v) : null;
        } catch (RuntimeException ignore) {
            return null;
        }
    }

    @Override
    public float getFloatAndRemove(CharSequence name, float defaultValue) {
        Float v = getFloatAndRemove(name);
        return v != null ? v : defaultValue;
    }

    @Override
    public Double getDoubleAndRemove(CharSequence name) {
        CharSequence v = getAndRemove(name);
        try {
            return v != null ? CONVERTER.convertToDouble(v) : null;
        } catch (RuntimeException ignore) {
            return null;
        }
    }

    @Override
    public double getDoubleAndRemove(CharSequence name, double defaultValue) {
        Double v = getDoubleAndRemove(name);
        return v != null ? v : defaultValue;
    }

    @Override
    public Long getTimeMillisAndRemove(CharSequence name) {
        CharSequence v = getAndRemove(name);
        try {
            return v != null ? CONVERTER.convertToTimeMillis(v) : null;
        } catch (RuntimeException ignore) {
            return null;
        }
    }

    @Override
    public long getTimeMillisAndRemove(CharSequence name, long defaultValue) {
        Long v = getTimeMillisAndRemove(name);
        return v != null ? v : defaultValue;
    }

    // Headers: writes

    /**
     * The HPACK decoder's add: as {@link #add(CharSequence, CharSequence)}, except that the name validator is not
     * run for a name known to pass it ({@code valid} has {@link #NAME_VALID}), nor the value validator for a value
     * known to pass it ({@link #VALUE_VALID}): the validators depend on a string's content only, and an
     * {@code AsciiString}'s does not change. The checks that depend on the rest of the block (a duplicate or empty
     * pseudo-header) run every time.
     *
     * @return {@code valid} with the validators that passed now
     */
    int addDecoded(AsciiString name, AsciiString value, int valid) {
        if (validate) {
            if ((valid & NAME_VALID) == 0) {
                NAME_VALIDATOR.validateName(name);
                valid |= NAME_VALID;
            }
            checkPseudoHeaderName(name, true);
        }
        // Values are validated with or without names, as in DefaultHttp2Headers.
        if (validateValues && (valid & VALUE_VALID) == 0) {
            validateValueContent(name, value);
            valid |= VALUE_VALID;
        }
        checkPseudoHeaderValue(name, value);
        append(name, value);
        return valid;
    }

    /** Which of the validators {@code name} and {@code value} pass: {@link #NAME_VALID}, {@link #VALUE_VALID}. */
    static int validity(AsciiString name, AsciiString value) {
        int valid = 0;
        try {
            NAME_VALIDATOR.validateName(name);
            valid |= NAME_VALID;
        } catch (Exception e) {
            // Not valid as a name (the validator throws an Http2Exception, unchecked by PlatformDependent).
        }
        try {
            VALUE_VALIDATOR.validate(value);
            valid |= VALUE_VALID;
        } catch (Exception e) {
            // Not valid as a value.
        }
        return valid;
    }

    @Override
    public Http2Headers add(CharSequence name, CharSequence value) {
        validateName(name, true);
        validateValue(name, value);
        ObjectUtil.checkNotNull(value, "value");
        append(name, value);
        return this;
    }

    @Override
    public Http2Headers add(CharSequence name, Iterable<? extends CharSequence> values) {
        validateName(name, true);
        for (CharSequence v : values) {
            validateValue(name, v);
            append(name, v);
        }
        return this;
    }

    @Override
    public Http2Headers add(CharSequence name, CharSequence... values) {
        validateName(name, true);
        for (CharSequence v : values) {
            validateValue(name, v);
            append(name, v);
        }
        return this;
    }

    @Override
    public Http2Headers addObject(CharSequence name, Object value) {
        return add(name, fromObject(name, value));
    }

    @Override
    public Http2Headers addObject(CharSequence name, Iterable<?> values) {
        for (Object value : values) {
            addObject(name, value);
        }
        return this;
    }

    @Override
    public Http2Headers addObject(CharSequence name, Object... values) {
        for (Object value : values) {
            addObject(name, value);
        }
        return this;
    }

    @Override
    public Http2Headers addInt(CharSequence name, int value) {
        return add(name, CONVERTER.convertInt(value));
    }

    @Override
    public Http2Headers addLong(CharSequence name, long value) {
        return add(name, CONVERTER.convertLong(value));
    }

    @Override
    public Http2Headers addDouble(CharSequence name, double value) {
        return add(name, CONVERTER.convertDouble(value));
    }

    @Override
    public Http2Headers addTimeMillis(CharSequence name, long value) {
        return add(name, CONVERTER.convertTimeMillis(value));
    }

    @Override
    public Http2Headers addChar(CharSequence name, char value) {
        return add(name, CONVERTER.convertChar(value));
    }

    @Override
    public Http2Headers addBoolean(CharSequence name, boolean value) {
        return add(name, CONVERTER.convertBoolean(value));
    }

    @Override
    public Http2Headers addFloat(CharSequence name, float value) {
        return add(name, CONVERTER.convertFloat(value));
    }

    @Override
    public Http2Headers addByte(CharSequence name, byte value) {
        return add(name, CONVERTER.convertByte(value));
    }

    @Override
    public Http2Headers addShort(CharSequence name, short value) {
        return add(name, CONVERTER.convertShort(value));
    }

    @Override
    public Http2Headers add(Headers<? extends CharSequence, ? extends CharSequence, ?> headers) {
        if (headers == this) {
            throw new IllegalArgumentException("can't add to itself.");
        }
        addAll(headers);
        return this;
    }

    private void addAll(Headers<? extends CharSequence, ? extends CharSequence, ?> headers) {
        for (Map.Entry<? extends CharSequence, ? extends CharSequence> e : headers) {
            add(e.getKey(), e.getValue());
        }
    }

    @Override
    public Http2Headers set(CharSequence name, CharSequence value) {
        validateName(name, false);
        validateValue(name, value);
        ObjectUtil.checkNotNull(value, "value");
        int sole = soleRegularIndex(name);
        if (sole >= 0) {
            moveToEnd(sole, name, value);
        } else {
            removeAll(name);
            append(name, value);
        }
        return this;
    }

    /** The index of the one regular header named {@code name}; -1 if there is none, or more than one. */
    private int soleRegularIndex(CharSequence name) {
        if (hasPseudoHeaderFormat(name)) {
            return -1;
        }
        int found = -1;
        for (int i = pseudoCount; i < size; i++) {
            if (AsciiString.contentEquals(name, names[i])) {
                if (found >= 0) {
                    return -1;
                }
                found = i;
            }
        }
        return found;
    }

    /**
     * A {@code set} of the one regular header at {@code index}: what its removal and an append do (in
     * {@code DefaultHttp2Headers} a set header moves to the end), in place. Netty's decoder does this on every
     * request with a body ({@code setLong(content-length)}); only the entries from {@code index} on change, so
     * only they are forgotten, and the walks after it rebind the others instead of making new ones.
     */
    private void moveToEnd(int index, CharSequence name, CharSequence value) {
        int last = size - 1;
        if (index < last) {
            System.arraycopy(names, index + 1, names, index, last - index);
            System.arraycopy(values, index + 1, values, index, last - index);
        }
        forgetEntriesFrom(index);
        store(last, name, value);
    }

    @Override
    public Http2Headers set(CharSequence name, Iterable<? extends CharSequence> values) {
        validateName(name, false);
        ObjectUtil.checkNotNull(values, "values");
        removeAll(name);
        for (CharSequence v : values) {
            if (v == null) {
                break;
            }
            validateValue(name, v);
            append(name, v);
        }
        return this;
    }

    @Override
    public Http2Headers set(CharSequence name, CharSequence... values) {
        validateName(name, false);
        ObjectUtil.checkNotNull(values, "values");
        removeAll(name);
        for (CharSequence v : values) {
            if (v == null) {
                break;
            }
            validateValue(name, v);
            append(name, v);
        }
        return this;
    }

    @Override
    public Http2Headers setObject(CharSequence name, Object value) {
        return set(name, fromObject(name, value));
    }

    @Override
    public Http2Headers setObject(CharSequence name, Iterable<?> values) {
        validateName(name, false);
        ObjectUtil.checkNotNull(values, "values");
        removeAll(name);
        for (Object v : values) {
            if (v == null) {
                break;
            }
            CharSequence converted = fromObject(name, v);
            validateValue(name, converted);
            append(name, converted);
        }
        return this;
    }

    @Override
    public Http2Headers setObject(CharSequence name, Object... values) {
        validateName(name, false);
        ObjectUtil.checkNotNull(values, "values");
        removeAll(name);
        for (Object v : values) {
            if (v == null) {
                break;
            }
            CharSequence converted = fromObject(name, v);
            validateValue(name, converted);
            append(name, converted);
        }
        return this;
    }

    @Override
    public Http2Headers setInt(CharSequence name, int value) {
        return set(name, CONVERTER.convertInt(value));
    }

    @Override
    public Http2Headers setLong(CharSequence name, long value) {
        return set(name, CONVERTER.convertLong(value));
    }

    @Override
    public Http2Headers setDouble(CharSequence name, double value) {
        return set(name, CONVERTER.convertDouble(value));
    }

    @Override
    public Http2Headers setTimeMillis(CharSequence name, long value) {
        return set(name, CONVERTER.convertTimeMillis(value));
    }

    @Override
    public Http2Headers setFloat(CharSequence name, float value) {
        return set(name, CONVERTER.convertFloat(value));
    }

    @Override
    public Http2Headers setChar(CharSequence name, char value) {
        return set(name, CONVERTER.convertChar(value));
    }

    @Override
    public Http2Headers setBoolean(CharSequence name, boolean value) {
        return set(name, CONVERTER.convertBoolean(value));
    }

    @Override
    public Http2Headers setByte(CharSequence name, byte value) {
        return set(name, CONVERTER.convertByte(value));
    }

    @Override
    public Http2Headers setShort(CharSequence name, short value) {
        return set(name, CONVERTER.convertShort(value));
    }

    @Override
    public Http2Headers set(Headers<? extends CharSequence, ? extends CharSequence, ?> headers) {
        if (headers != this) {
            clear();
            addAll(headers);
        }
        return this;
    }

    @Override
    public Http2Headers setAll(Headers<? extends CharSequence, ? extends CharSequence, ?> headers) {
        if (headers != this) {
            for (CharSequence name : headers.names()) {
                remove(name);
            }
            addAll(headers);
        }
        return this;
    }

    @Override
    public boolean remove(CharSequence name) {
        return getAndRemove(name) != null;
    }

    @Override
    public Http2Headers clear() {
        forgetEntries();
        empty();
        return this;
    }

    /**
     * Empties the headers for a new block of the same frame; the iterator's entries stay for reuse, and the
     * references stay in their slots, out of reach (see {@link #size}).
     */
    void empty() {
        size = 0;
        pseudoCount = 0;
    }

    // Object

    /** Equal to any {@link Http2Headers} with the same names and, per name, the same values in the same order. */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Http2Headers)) {
            return false;
        }
        Http2Headers other = (Http2Headers) o;
        if (other.size() != size) {
            return false;
        }
        if (other == this) {
            return true;
        }
        for (CharSequence name : names()) {
            List<CharSequence> otherValues = other.getAll(name);
            List<CharSequence> values = getAll(name);
            if (otherValues.size() != values.size()) {
                return false;
            }
            for (int i = 0; i < otherValues.size(); i++) {
                if (!AsciiString.contentEquals(otherValues.get(i), values.get(i))) {
                    return false;
                }
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int result = HASH_CODE_SEED;
        for (CharSequence name : names()) {
            result = 31 * result + AsciiString.CASE_SENSITIVE_HASHER.hashCode(name);
            List<CharSequence> values = getAll(name);
            for (int i = 0; i < values.size(); ++i) {
                result = 31 * result + AsciiString.CASE_SENSITIVE_HASHER.hashCode(values.get(i));
            }
        }
        return result;
    }

    @Override
    public String toString() {
        return HeadersUtils.toString(getClass(), iterator(), size);
    }

    /** Read-only, as {@code DefaultHttp2Headers}' entry iterator is. */
    private final class EntryIterator implements Iterator<Map.Entry<CharSequence, CharSequence>> {
        private int next;

        @Override
        public boolean hasNext() {
            return next < size;
        }

        @Override
        public Map.Entry<CharSequence, CharSequence> next() {
            if (next >= size) {
                throw new NoSuchElementException();
            }
            return entryAt(next++);
        }

        @Override
        public void remove() {
            throw new UnsupportedOperationException("read only");
        }
    }

    /**
     * An entry as the iterator found it; {@code setValue} writes through, validated like the headers' own where
     * Netty's entries validate ({@link NettyApi#ENTRY_SET_VALUE_VALIDATES}).
     */
    private final class Entry implements Map.Entry<CharSequence, CharSequence> {
        private final int index;
        private CharSequence name;
        private CharSequence value;

        Entry(int index, CharSequence name, CharSequence value) {
            this.index = index;
            this.name = name;
            this.value = value;
        }

        /** Stores only what changed, as {@link PooledHttp2Headers#store} does: entries are long-lived too. */
        void bind(CharSequence name, CharSequence value) {
            if (this.name != name) {
                this.name = name;
            }
            if (this.value != value) {
                this.value = value;
            }
        }

        void unbind() {
            name = null;
            value = null;
        }

        @Override
        public CharSequence getKey() {
            return name;
        }

        @Override
        public CharSequence getValue() {
            return value;
        }

        @Override
        public CharSequence setValue(CharSequence value) {
            ObjectUtil.checkNotNull(value, "value");
            if (NettyApi.ENTRY_SET_VALUE_VALIDATES) {
                try {
                    validateValue(name, value);
                } catch (IllegalArgumentException e) {
                    // DefaultHeaders' entry wraps the already wrapped exception once more.
                    throw new IllegalArgumentException("Validation failed for header '" + name + "'", e);
                }
            }
            CharSequence old = this.value;
            this.value = value;
            if (index < size && names[index] == name) {
                values[index] = value;
            }
            return old;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Map.Entry)) {
                return false;
            }
            Map.Entry<?, ?> other = (Map.Entry<?, ?>) o;
            return (name == null ? other.getKey() == null : name.equals(other.getKey()))
                    && (value == null ? other.getValue() == null : value.equals(other.getValue()));
        }

        @Override
        public int hashCode() {
            return (name == null ? 0 : name.hashCode()) ^ (value == null ? 0 : value.hashCode());
        }

        @Override
        public String toString() {
            return name + "=" + value;
        }
    }

    /** The values of one name, newest first (the order of {@code DefaultHeaders.valueIterator}); removable. */
    private final class ValueIterator implements Iterator<CharSequence> {
        private final CharSequence name;
        private final int from;
        private int cursor;
        private int last = -1;

        ValueIterator(CharSequence name) {
            this.name = name;
            boolean pseudo = hasPseudoHeaderFormat(name);
            from = pseudo ? 0 : pseudoCount;
            cursor = advance((pseudo ? pseudoCount : size) - 1);
        }

        private int advance(int i) {
            while (i >= from && !AsciiString.contentEquals(name, names[i])) {
                i--;
            }
            return i;
        }

        @Override
        public boolean hasNext() {
            return cursor >= from;
        }

        @Override
        public CharSequence next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            last = cursor;
            CharSequence value = values[cursor];
            cursor = advance(cursor - 1);
            return value;
        }

        @Override
        public void remove() {
            if (last < 0) {
                throw new IllegalStateException();
            }
            // Removing at 'last' shifts only later entries; the cursor is before it, so it stays valid.
            removeAt(last);
            last = -1;
        }
    }
}
