/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderValidationUtil;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers.PseudoHeaderName;
import io.netty.util.AsciiString;
import io.netty.util.concurrent.FastThreadLocal;

import java.util.Arrays;

import static io.netty.handler.codec.http2.Http2Error.COMPRESSION_ERROR;
import static io.netty.handler.codec.http2.Http2Error.PROTOCOL_ERROR;
import static io.netty.handler.codec.http2.Http2Exception.connectionError;
import static io.netty.handler.codec.http2.Http2Exception.streamError;
import static io.netty.handler.codec.http2.Http2Headers.PseudoHeaderName.hasPseudoHeaderFormat;

/**
 * One connection's HPACK decoder (RFC 7541): reads a header block into {@link PooledHttp2Headers} exactly as
 * Netty's {@code HpackDecoder} reads it into {@code DefaultHttp2Headers}, with the same headers in the same order,
 * the same dynamic table, and for bad input the same exception, thrown at the same point with the buffer's reader
 * index where Netty's leaves it: the static errors are Netty's own instances, and the rest are made by the same
 * {@code Http2Exception} factories with the same messages. What differs is what it allocates:
 * <ul>
 *   <li>the block is read from an array: the buffer's own, or a copy in the thread's scratch array;</li>
 *   <li>a literal is looked up, by content, in the connection's {@link SeenHeaderStrings}, and a string found
 *       there is handed out again; a new one costs one exact-size {@code byte[]} and its {@code AsciiString},
 *       Huffman decoded first into the thread's scratch array. The seen strings keep a string of a literal without
 *       indexing, or one the table drops, the second time they are told of it. Never-indexed literals are neither
 *       looked up nor remembered;</li>
 *   <li>a connection whose literals are not found (a peer that sends new strings) stops looking: when fewer than
 *       one in 16 of the literals looked up over a window (at least {@value #WINDOW_BLOCKS} blocks and
 *       {@value #WINDOW_LOOKUPS} lookups) were found, it neither looks up nor remembers the literals of the next
 *       {@value #SKIPPED_BLOCKS} blocks, then tries again; such a peer then costs what it costs Netty's decoder,
 *       less its garbage;</li>
 *   <li>the dynamic table keeps its entries in arrays ({@link DynamicHeaderTable});</li>
 *   <li>no object per block (Netty's sink is fields here), and a string known to have passed a validator (a
 *       static entry's, or one the table or the seen strings remember as validated) is not validated again.</li>
 * </ul>
 * Not thread-safe, one block at a time, like the connection it belongs to.
 */
final class HpackBlockDecoder {

    /** The least a window of lookups spans, in blocks and in lookups, before its hits are counted. */
    static final int WINDOW_BLOCKS = 4;
    static final int WINDOW_LOOKUPS = 64;
    /** How many blocks' literals are neither looked up nor remembered after a window with too few hits. */
    static final int SKIPPED_BLOCKS = 120;

    private static final int INCREMENTAL = 0;
    private static final int NONE = 1;
    private static final int NEVER = 2;

    private static final byte REGULAR_HEADER = 1;
    private static final byte REQUEST_PSEUDO_HEADER = 2;
    private static final byte RESPONSE_PSEUDO_HEADER = 3;

    private static final int EMPTY_VALUE_VALID =
            PooledHttp2Headers.validity(AsciiString.EMPTY_STRING, AsciiString.EMPTY_STRING)
                    & PooledHttp2Headers.VALUE_VALID;

    /** Netty's own static exceptions, taken from its decoder by input that makes it throw each one. */
    static final Http2Exception DECOMPRESSION_FAILURE = nettyError("HPACK - decompression failure", 0xFF, 0x80);
    static final Http2Exception LONG_OVERFLOW = nettyError("HPACK - long overflow",
            0x3F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF);
    static final Http2Exception INT_OVERFLOW = nettyError("HPACK - int overflow", 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F);
    static final Http2Exception ILLEGAL_INDEX_ZERO = nettyError("HPACK - illegal index value", 0x80);
    static final Http2Exception ILLEGAL_INDEX = nettyError("HPACK - illegal index value", 0xBF);
    static final Http2Exception ILLEGAL_NAME_INDEX = nettyError("HPACK - illegal index value", 0x7E);
    static final Http2Exception INVALID_MAX_DYNAMIC_TABLE_SIZE =
            nettyError("HPACK - invalid max dynamic table size", 0x3F, 0xE2, 0x1F);
    static final Http2Exception MAX_DYNAMIC_TABLE_SIZE_CHANGE_REQUIRED =
            nettyError("HPACK - max dynamic table size change required", -1, 0x82);
    static final Http2Exception BAD_ENCODING = nettyError("HPACK - Bad Encoding", 0x00, 0x81, 0xFF);

    private static final FastThreadLocal<Scratch> SCRATCH = new FastThreadLocal<Scratch>() {
        @Override
        protected Scratch initialValue() {
            return new Scratch();
        }
    };

    private final SeenHeaderStrings seen;
    private final DynamicHeaderTable table;
    private long maxHeaderListSize;
    private long maxDynamicTableSize;
    private long encoderMaxDynamicTableSize;
    private boolean maxDynamicTableSizeChangeRequired;
    /** The window of lookups so far (blocks, lookups, hits); the blocks left that do not look. */
    private int windowBlocks;
    private int windowLookups;
    private int windowHits;
    private int skippedBlocks;

    // The block being decoded: its bytes are src[pos, end), and src[base] is the buffer's byte at readerIndex start.
    private ByteBuf in;
    private byte[] src;
    private int base;
    private int start;
    private int pos;
    private int end;
    private Scratch scratch;
    /** Where the last {@link #readString} found its string among the seen strings (-1: new), and its hash. */
    private int stringSlot;
    private int stringHash;
    /** Whether this block looks its literals up; how many it looked up and found. */
    private boolean lookUp;
    private int lookups;
    private int hits;

    // What Netty's Http2HeadersSink holds, for the block being decoded.
    private PooledHttp2Headers headers;
    private int streamId;
    private boolean validate;
    private long headersLength;
    private boolean exceededMaxLength;
    private byte previousType;
    private Http2Exception validationException;

    HpackBlockDecoder(long maxHeaderListSize, int salt) {
        this.maxHeaderListSize = maxHeaderListSize;
        maxDynamicTableSize = encoderMaxDynamicTableSize = Http2CodecUtil.DEFAULT_HEADER_TABLE_SIZE;
        seen = new SeenHeaderStrings(salt, maxHeaderListSize);
        table = new DynamicHeaderTable(maxDynamicTableSize, seen);
    }

    /** The decoder's limit, already checked by Netty's (see {@link PooledHttp2HeadersDecoder}). */
    void maxHeaderListSize(long max) {
        maxHeaderListSize = max;
        seen.budget(max);
    }

    /** As Netty's {@code HpackDecoder.setMaxHeaderTableSize}, the bounds already checked by Netty's. */
    void maxHeaderTableSize(long max) {
        maxDynamicTableSize = max;
        if (maxDynamicTableSize < encoderMaxDynamicTableSize) {
            // The peer's encoder must acknowledge the smaller table with a size update first thing.
            maxDynamicTableSizeChangeRequired = true;
            table.capacity(maxDynamicTableSize);
        }
    }

    long maxHeaderTableSize() {
        return table.capacity();
    }

    /** For tests. */
    DynamicHeaderTable table() {
        return table;
    }

    SeenHeaderStrings seen() {
        return seen;
    }

    /** For tests: whether the next block looks its literals up. */
    boolean looksUp() {
        return skippedBlocks == 0;
    }

    /** Decodes the readable bytes of {@code in}, a whole header block, into {@code headers}. */
    void decode(int streamId, ByteBuf in, PooledHttp2Headers headers, boolean validate) throws Http2Exception {
        int start = in.readerIndex();
        int length = in.writerIndex() - start;
        if (in.hasArray()) {
            src = in.array();
            base = in.arrayOffset() + start;
        } else {
            scratch = SCRATCH.get();
            src = scratch.input(length);
            in.getBytes(start, src, 0, length);
            base = 0;
        }
        this.in = in;
        this.start = start;
        pos = base;
        end = base + length;
        this.headers = headers;
        this.streamId = streamId;
        this.validate = validate;
        headersLength = 0;
        exceededMaxLength = false;
        previousType = 0;
        lookUp = skippedBlocks == 0;
        if (!lookUp) {
            skippedBlocks--;
        }
        lookups = 0;
        hits = 0;
        try {
            decodeDynamicTableSizeUpdates();
            decodeFields();
            in.readerIndex(start + length);
            if (exceededMaxLength) {
                Http2CodecUtil.headerListSizeExceeded(streamId, maxHeaderListSize, true);
            } else if (validationException != null) {
                throw validationException;
            }
        } catch (Throwable t) {
            // Where Netty's decoder leaves the buffer when it throws: every throw below sets pos to that.
            in.readerIndex(this.start + pos - base);
            throw t;
        } finally {
            countLookups();
            this.in = null;
            src = null;
            scratch = null;
            this.headers = null;
            validationException = null;
        }
    }

    /** After a block that looked its literals up: whether looking pays on this connection. */
    private void countLookups() {
        if (!lookUp) {
            return;
        }
        windowBlocks++;
        windowLookups += lookups;
        windowHits += hits;
        if (windowBlocks >= WINDOW_BLOCKS && windowLookups >= WINDOW_LOOKUPS) {
            if (windowHits << 4 < windowLookups) {
                skippedBlocks = SKIPPED_BLOCKS;
            }
            windowBlocks = 0;
            windowLookups = 0;
            windowHits = 0;
        }
    }

    /** Size updates may only come first in a block (RFC 7541, section 4.2). */
    private void decodeDynamicTableSizeUpdates() throws Http2Exception {
        while (pos < end) {
            int b = src[pos];
            if ((b & 0xE0) != 0x20) {
                return;
            }
            pos++;
            int size = b & 0x1F;
            if (size == 0x1F) {
                setDynamicTableSize(readLong(size));
            } else {
                setDynamicTableSize(size);
            }
        }
    }

    private void setDynamicTableSize(long size) throws Http2Exception {
        if (size > maxDynamicTableSize) {
            throw INVALID_MAX_DYNAMIC_TABLE_SIZE;
        }
        encoderMaxDynamicTableSize = size;
        maxDynamicTableSizeChangeRequired = false;
        table.capacity(size);
    }

    private void decodeFields() throws Http2Exception {
        while (pos < end) {
            int b = src[pos++];
            if (maxDynamicTableSizeChangeRequired && (b & 0xE0) != 0x20) {
                throw MAX_DYNAMIC_TABLE_SIZE_CHANGE_REQUIRED;
            }
            if (b < 0) {
                // Indexed header field.
                int index = b & 0x7F;
                if (index == 0) {
                    throw ILLEGAL_INDEX_ZERO;
                }
                if (index == 0x7F) {
                    requireByte();
                    index = readInt(index);
                }
                indexedField(index);
            } else if ((b & 0x40) != 0) {
                literalField(b & 0x3F, 0x3F, INCREMENTAL);
            } else if ((b & 0x20) != 0) {
                throw connectionError(COMPRESSION_ERROR,
                        "Dynamic table size update must happen at the beginning of the header block");
            } else {
                literalField(b & 0x0F, 0x0F, (b & 0x10) != 0 ? NEVER : NONE);
            }
        }
    }

    private void indexedField(int index) throws Http2Exception {
        if (index <= StaticHeaderTable.LENGTH) {
            append(StaticHeaderTable.name(index), StaticHeaderTable.value(index), StaticHeaderTable.valid(index));
            return;
        }
        int entry = index - StaticHeaderTable.LENGTH;
        if (entry > table.length()) {
            throw ILLEGAL_INDEX;
        }
        int valid = table.valid(entry);
        int now = append(table.name(entry), table.value(entry), valid);
        if (now != valid) {
            table.validated(entry, now);
        }
    }

    /** A literal field whose first byte held {@code index} in a prefix whose all-ones value is {@code max}. */
    private void literalField(int index, int max, int indexType) throws Http2Exception {
        boolean share = indexType != NEVER && lookUp;
        AsciiString name;
        int nameValid;
        int nameEntry = 0;
        int nameSlot = -1;
        int nameHash = 0;
        if (index == 0) {
            name = readLiteral(share, false);
            nameSlot = stringSlot;
            nameHash = stringHash;
            nameValid = nameSlot >= 0 ? seen.valid(nameSlot) & PooledHttp2Headers.NAME_VALID : 0;
        } else {
            if (index == max) {
                requireByte();
                index = readInt(index);
            }
            if (index <= StaticHeaderTable.LENGTH) {
                name = StaticHeaderTable.name(index);
                nameHash = StaticHeaderTable.nameHash(index);
                nameValid = StaticHeaderTable.valid(index) & PooledHttp2Headers.NAME_VALID;
            } else {
                nameEntry = index - StaticHeaderTable.LENGTH;
                if (nameEntry > table.length()) {
                    throw ILLEGAL_NAME_INDEX;
                }
                name = table.name(nameEntry);
                nameHash = table.nameHash(nameEntry);
                nameValid = table.valid(nameEntry) & PooledHttp2Headers.NAME_VALID;
            }
        }
        boolean nameIsNew = index == 0 && nameSlot < 0 && name.length() > 0;

        AsciiString value = readLiteral(share, true);
        int valueSlot = stringSlot;
        int valueHash = stringHash;
        int valueValid = valueSlot >= 0 ? seen.valid(valueSlot) & PooledHttp2Headers.VALUE_VALID
                : value.length() == 0 ? EMPTY_VALUE_VALID : 0;
        boolean valueIsNew = valueSlot < 0 && value.length() > 0;

        int valid = append(name, value, nameValid | valueValid);
        if (indexType == NEVER) {
            return;
        }
        // What the validators said is remembered where the strings came from, before the table moves.
        int nameNow = valid & PooledHttp2Headers.NAME_VALID;
        if (nameEntry != 0 && nameNow != nameValid) {
            table.validated(nameEntry, nameNow);
        } else if (nameSlot >= 0 && nameNow != nameValid) {
            seen.validated(nameSlot, name, nameNow);
        }
        int valueNow = valid & PooledHttp2Headers.VALUE_VALID;
        if (valueSlot >= 0 && valueNow != valueValid) {
            seen.validated(valueSlot, value, valueNow);
        }
        if (indexType == INCREMENTAL) {
            // The seen strings are told of it when it leaves the table (not if it came unhashed: hash 0).
            table.add(name, nameHash, value, valueHash, valid);
        } else if (share) {
            if (nameIsNew) {
                seen.sighted(name, nameHash, nameNow);
            }
            if (valueIsNew) {
                seen.sighted(value, valueHash, valueNow);
            }
        }
    }

    /**
     * A string literal (RFC 7541, section 5.2): the Huffman bit and the length, an integer with a 7-bit prefix, then
     * the string (see {@link #readString}). As in Netty's state machine, each part needs a byte to start, except the
     * string of a value of length 0, which is complete with its prefix.
     */
    private AsciiString readLiteral(boolean share, boolean value) throws Http2Exception {
        requireByte();
        int b = src[pos++];
        int length = b & 0x7F;
        if (length == 0 && value) {
            stringSlot = -1;
            stringHash = 0;
            return AsciiString.EMPTY_STRING;
        }
        if (length == 0x7F) {
            requireByte();
            length = readInt(length);
        }
        requireByte();
        return readString(length, b < 0, share);
    }

    /**
     * The string literal of {@code length} bytes at {@code pos}, which starts at a readable byte: the seen string
     * of that content if {@code share} and there is one (its slot in {@link #stringSlot}), else a new one.
     */
    private AsciiString readString(int length, boolean huffman, boolean share) throws Http2Exception {
        stringSlot = -1;
        stringHash = 0;
        if (end - pos < length) {
            in.readerIndex(start + pos - base);
            throw new IllegalArgumentException("decode only works with an entire header block! " + in);
        }
        if (length == 0) {
            return AsciiString.EMPTY_STRING;
        }
        byte[] bytes;
        int offset;
        int n;
        if (huffman) {
            if (scratch == null) {
                scratch = SCRATCH.get();
            }
            bytes = scratch.huffman(length * 8 / 5);
            offset = 0;
            n = HuffmanDecoder.decode(src, pos, length, bytes);
            if (n < 0) {
                pos += -1 - n;
                throw BAD_ENCODING;
            }
        } else {
            bytes = src;
            offset = pos;
            n = length;
        }
        pos += length;
        if (share) {
            int hash = SeenHeaderStrings.hash(bytes, offset, n);
            stringHash = hash;
            lookups++;
            int slot = seen.find(bytes, offset, n, hash);
            if (slot >= 0) {
                hits++;
                stringSlot = slot;
                return seen.string(slot);
            }
        }
        return new AsciiString(Arrays.copyOfRange(bytes, offset, offset + n), false);
    }

    /** Netty's state machine stops with "Incomplete header block fragment." where it needs a byte and has none. */
    private void requireByte() throws Http2Exception {
        if (pos == end) {
            throw connectionError(COMPRESSION_ERROR, "Incomplete header block fragment.");
        }
    }

    /** An integer's continuation bytes after a prefix of value {@code prefix}, as Netty's {@code decodeULE128}. */
    private int readInt(int prefix) throws Http2Exception {
        int at = pos;
        long v = readLong(prefix);
        if (v > Integer.MAX_VALUE) {
            pos = at;
            throw INT_OVERFLOW;
        }
        return (int) v;
    }

    private long readLong(long result) throws Http2Exception {
        boolean startedAtZero = result == 0;
        for (int i = pos, shift = 0; i < end; i++, shift += 7) {
            int b = src[i];
            if (shift == 56 && ((b & 0x80) != 0 || b == 0x7F && !startedAtZero)) {
                throw LONG_OVERFLOW;
            }
            if ((b & 0x80) == 0) {
                pos = i + 1;
                return result + ((b & 0x7FL) << shift);
            }
            result += (b & 0x7FL) << shift;
        }
        throw DECOMPRESSION_FAILURE;
    }

    /**
     * Netty's {@code Http2HeadersSink.appendToHeaderList}: counts the field against the header list size, and
     * while within it and valid so far adds it to the headers and checks it. {@code valid}: the validators the
     * name and value are known to pass.
     *
     * @return {@code valid} with the validators that passed now
     */
    private int append(AsciiString name, AsciiString value, int valid) {
        headersLength += name.length() + value.length() + 32L;
        exceededMaxLength |= headersLength > maxHeaderListSize;
        if (exceededMaxLength || validationException != null) {
            return valid;
        }
        try {
            valid = headers.addDecoded(name, value, valid);
            if (validate) {
                previousType = validateHeader(streamId, name, value, previousType);
            }
        } catch (IllegalArgumentException ex) {
            validationException = streamError(streamId, PROTOCOL_ERROR, ex,
                    "Validation failed for header '%s': %s", name, ex.getMessage());
        } catch (Http2Exception ex) {
            validationException = streamError(streamId, PROTOCOL_ERROR, ex, ex.getMessage());
        }
        return valid;
    }

    /** Netty's {@code HpackDecoder.validateHeader}: pseudo-headers first, of one kind; no connection headers. */
    private static byte validateHeader(int streamId, AsciiString name, CharSequence value, byte previousHeaderType)
            throws Http2Exception {
        if (hasPseudoHeaderFormat(name)) {
            if (previousHeaderType == REGULAR_HEADER) {
                throw streamError(streamId, PROTOCOL_ERROR,
                        "Pseudo-header field '%s' found after regular header.", name);
            }
            PseudoHeaderName pseudoHeader = PseudoHeaderName.getPseudoHeader(name);
            byte currentHeaderType = pseudoHeader.isRequestOnly() ? REQUEST_PSEUDO_HEADER : RESPONSE_PSEUDO_HEADER;
            if (previousHeaderType != 0 && currentHeaderType != previousHeaderType) {
                throw streamError(streamId, PROTOCOL_ERROR, "Mix of request and response pseudo-headers.");
            }
            return currentHeaderType;
        }
        if (HttpHeaderValidationUtil.isConnectionHeader(name, true)) {
            throw streamError(streamId, PROTOCOL_ERROR, "Illegal connection-specific header '%s' encountered.", name);
        }
        if (HttpHeaderValidationUtil.isTeNotTrailers(name, value)) {
            throw streamError(streamId, PROTOCOL_ERROR,
                    "Illegal value specified for the 'TE' header (only 'trailers' is allowed).");
        }
        return REGULAR_HEADER;
    }

    /**
     * The static exception Netty's decoder throws for {@code block} (a first value of -1: after its table size is
     * set to 0, so that it requires a size update), so that this decoder throws the very same instance. Should a
     * Netty version not throw one with that message, an equal exception of this class's own.
     */
    private static Http2Exception nettyError(String message, int... block) {
        DefaultHttp2HeadersDecoder netty = new DefaultHttp2HeadersDecoder(false);
        ByteBuf in = Unpooled.buffer(block.length);
        try {
            for (int b : block) {
                if (b < 0) {
                    netty.maxHeaderTableSize(0);
                } else {
                    in.writeByte(b);
                }
            }
            netty.decodeHeaders(1, in);
        } catch (Http2Exception e) {
            if (message.equals(e.getMessage()) && e.error() == COMPRESSION_ERROR) {
                return e;
            }
        } finally {
            in.release();
        }
        return new Http2Exception(COMPRESSION_ERROR, message, Http2Exception.ShutdownHint.HARD_SHUTDOWN);
    }

    /**
     * The thread's arrays for a block in a direct buffer and for Huffman decoding; each kept up to
     * {@value #MAX_KEPT} bytes, a larger one made for the block that needs it.
     */
    private static final class Scratch {
        static final int MAX_KEPT = 64 * 1024;
        private byte[] input = new byte[1024];
        private byte[] huffman = new byte[1024];

        byte[] input(int length) {
            byte[] a = input;
            if (a.length < length) {
                a = new byte[length <= MAX_KEPT ? Math.max(length, Math.min(a.length << 1, MAX_KEPT)) : length];
                if (length <= MAX_KEPT) {
                    input = a;
                }
            }
            return a;
        }

        byte[] huffman(int length) {
            byte[] a = huffman;
            if (a.length < length) {
                a = new byte[length <= MAX_KEPT ? Math.max(length, Math.min(a.length << 1, MAX_KEPT)) : length];
                if (length <= MAX_KEPT) {
                    huffman = a;
                }
            }
            return a;
        }
    }
}
