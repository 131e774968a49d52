/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.AbstractByteBuf;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.IllegalReferenceCountException;
import io.netty.util.internal.MathUtil;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ScatteringByteChannel;

/**
 * The payload of a DATA, GOAWAY or unknown frame: a window on the reader's input, owned by its frame and
 * pointed at each new payload the frame is parsed with. It has no count of its own: {@code retain} and
 * {@code release} are the frame's, so a DATA frame and its content cost one count between them, where a
 * retained slice would cost a recycled object and its own count on top of the input's.
 *
 * <p>During the callback the input is alive because the reader is reading it. A frame that outlives the callback
 * retains the input ({@link #retainInput()}), which also stops Netty's {@code ByteToMessageDecoder} from
 * compacting or appending to it; the last release of the frame releases it. Reads and writes behave as on a
 * slice of the input: indexes from 0, capacity fixed at the length of the frame's payload. Its shape is that of
 * the buffer Netty's reader hands out, a slice of the whole payload that the reader has read up to where the
 * listener's bytes start (past DATA's pad length, GOAWAY's stream id and error code), so that code reading from
 * index 0, or resetting the reader index, sees what it sees with Netty.
 */
final class PayloadView extends AbstractByteBuf {

    private final PooledFrame frame;
    /** The reader's input: retained and released for the view, as its count says. */
    private ByteBuf input;
    /**
     * Null, or when the input is a leak detector's wrapper, the buffer it wraps (same indexes): reads and writes go
     * there, so that advanced and paranoid leak detection record one access per frame, not one per byte read
     * through the view. Null in the usual case, so that pointing the view at a new input stores one reference.
     */
    private ByteBuf unwrapped;
    /** Where the payload starts in {@link #input}. */
    private int offset;
    private int length;
    /** The input class last looked at, and whether it is a leak-detection wrapper: the check is by name. */
    private Class<?> checkedClass;
    private boolean checkedLeakAware;
    /** Whether this view holds a reference to {@link #input}, given back on the frame's last release. */
    private boolean inputRetained;
    /** Whether a consumer set a mark: then the next {@link #target} puts the marks back at 0. */
    private boolean marked;

    PayloadView(PooledFrame frame) {
        super(0);
        this.frame = frame;
    }

    /**
     * Points the view at the {@code length} bytes of a frame's payload in {@code input} from {@code index}, readable
     * from {@code readerIndex} to {@code writerIndex} (the view's own indexes); retains the input if asked.
     */
    void target(ByteBuf input, int index, int length, int readerIndex, int writerIndex, boolean retainInput) {
        if (this.input != input) {
            // A reference store costs a GC barrier: skipped for the same input.
            this.input = input;
            Class<?> inputClass = input.getClass();
            if (inputClass != checkedClass) {
                checkedClass = inputClass;
                checkedLeakAware = leakAwareWrapper(inputClass);
            }
            if (checkedLeakAware) {
                unwrapped = input.unwrap();
            } else if (unwrapped != null) {
                unwrapped = null;
            }
        }
        offset = index;
        this.length = length;
        maxCapacity(length);
        // Marks as on a new slice, at 0. Marks move only when a consumer sets them, so they are reset only then.
        if (marked) {
            marked = false;
            setIndex(0, 0);
            super.markReaderIndex();
            super.markWriterIndex();
        }
        setIndex(readerIndex, writerIndex);
        if (retainInput) {
            input.retain();
        }
        inputRetained = retainInput;
    }

    @Override
    public ByteBuf markReaderIndex() {
        marked = true;
        return super.markReaderIndex();
    }

    @Override
    public ByteBuf markWriterIndex() {
        marked = true;
        return super.markWriterIndex();
    }

    /** Forgets the input, between reads: a view kept for reuse holds no buffer. */
    void untarget() {
        input = null;
        unwrapped = null;
    }

    /** Netty's leak-detection wrappers: they record every access, and unwrap to a buffer with the same indexes. */
    private static boolean leakAwareWrapper(Class<?> inputClass) {
        String name = inputClass.getName();
        return name.startsWith("io.netty.buffer.") && name.contains("LeakAware");
    }

    /** The frame outlives the callback: from now on the view keeps the input alive itself. */
    void retainInput() {
        if (!inputRetained) {
            input.retain();
            inputRetained = true;
        }
    }

    /** The frame's last release: gives back the input if this view held it. */
    void releaseInput() {
        if (inputRetained) {
            inputRetained = false;
            input.release();
        }
    }

    /** Where reads and writes go. */
    private ByteBuf bytes() {
        ByteBuf unwrapped = this.unwrapped;
        return unwrapped != null ? unwrapped : input;
    }

    /**
     * {@link #input} for the methods that check no index, and so no count: a view whose frame was released and
     * reset has forgotten its input, and says so as its index-checked methods do, not with a
     * {@code NullPointerException}.
     */
    private ByteBuf liveInput() {
        ByteBuf input = this.input;
        if (input == null) {
            throw new IllegalReferenceCountException(0);
        }
        return input;
    }

    /** {@link #bytes()}, checked as {@link #liveInput()} is. */
    private ByteBuf liveBytes() {
        ByteBuf unwrapped = this.unwrapped;
        return unwrapped != null ? unwrapped : liveInput();
    }

    // The count is the frame's.

    @Override
    public int refCnt() {
        return frame.refCnt();
    }

    @Override
    public ByteBuf retain() {
        frame.retain();
        return this;
    }

    @Override
    public ByteBuf retain(int increment) {
        frame.retain(increment);
        return this;
    }

    @Override
    public boolean release() {
        return frame.release();
    }

    @Override
    public boolean release(int decrement) {
        return frame.release(decrement);
    }

    @Override
    public ByteBuf touch() {
        return this;
    }

    @Override
    public ByteBuf touch(Object hint) {
        return this;
    }

    // What the view is: a fixed window on the input, as a slice.

    @Override
    public int capacity() {
        return length;
    }

    @Override
    public ByteBuf capacity(int newCapacity) {
        throw new UnsupportedOperationException("sliced buffer");
    }

    @Override
    public ByteBufAllocator alloc() {
        return liveInput().alloc();
    }

    @Override
    @Deprecated
    public ByteOrder order() {
        return liveInput().order();
    }

    @Override
    public ByteBuf unwrap() {
        return input;
    }

    // Derived buffers as Netty's slices make them: the bounds checked first, a duplicate with its marks at 0.

    @Override
    public ByteBuf slice(int index, int length) {
        // Before the slice's constructor, which takes a negative length for an illegal capacity; the count is
        // checked there, as Netty's slices leave it to their parent's slice.
        if (MathUtil.isOutOfBounds(index, length, this.length)) {
            throw new IndexOutOfBoundsException(String.format(
                    "index: %d, length: %d (expected: range(0, %d))", index, length, this.length));
        }
        return super.slice(index, length);
    }

    @Override
    public ByteBuf duplicate() {
        return slice(0, capacity()).setIndex(readerIndex(), writerIndex());
    }

    @Override
    public ByteBuf retainedDuplicate() {
        return retainedSlice(0, capacity()).setIndex(readerIndex(), writerIndex());
    }

    @Override
    public boolean isDirect() {
        return liveInput().isDirect();
    }

    @Override
    public boolean isReadOnly() {
        return liveInput().isReadOnly();
    }

    @Override
    public boolean isContiguous() {
        return liveBytes().isContiguous();
    }

    @Override
    public boolean hasArray() {
        return liveBytes().hasArray();
    }

    @Override
    public byte[] array() {
        return liveBytes().array();
    }

    @Override
    public int arrayOffset() {
        return liveBytes().arrayOffset() + offset;
    }

    @Override
    public boolean hasMemoryAddress() {
        return liveBytes().hasMemoryAddress();
    }

    @Override
    public long memoryAddress() {
        return liveBytes().memoryAddress() + offset;
    }

    @Override
    public int nioBufferCount() {
        return liveBytes().nioBufferCount();
    }

    @Override
    public ByteBuffer nioBuffer(int index, int length) {
        checkIndex(index, length);
        return bytes().nioBuffer(index + offset, length);
    }

    @Override
    public ByteBuffer internalNioBuffer(int index, int length) {
        return nioBuffer(index, length);
    }

    @Override
    public ByteBuffer[] nioBuffers(int index, int length) {
        checkIndex(index, length);
        return bytes().nioBuffers(index + offset, length);
    }

    @Override
    public ByteBuf copy(int index, int length) {
        checkIndex(index, length);
        return bytes().copy(index + offset, length);
    }

    // Bulk transfers: bounds checked here, then done by the input at the shifted index.

    @Override
    public ByteBuf getBytes(int index, ByteBuf dst, int dstIndex, int length) {
        checkIndex(index, length);
        bytes().getBytes(index + offset, dst, dstIndex, length);
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, byte[] dst, int dstIndex, int length) {
        checkIndex(index, length);
        bytes().getBytes(index + offset, dst, dstIndex, length);
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, ByteBuffer dst) {
        checkIndex(index, dst.remaining());
        bytes().getBytes(index + offset, dst);
        return this;
    }

    @Override
    public ByteBuf getBytes(int index, OutputStream out, int length) throws IOException {
        checkIndex(index, length);
        bytes().getBytes(index + offset, out, length);
        return this;
    }

    @Override
    public int getBytes(int index, GatheringByteChannel out, int length) throws IOException {
        checkIndex(index, length);
        return bytes().getBytes(index + offset, out, length);
    }

    @Override
    public int getBytes(int index, FileChannel out, long position, int length) throws IOException {
        checkIndex(index, length);
        return bytes().getBytes(index + offset, out, position, length);
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuf src, int srcIndex, int length) {
        checkIndex(index, length);
        bytes().setBytes(index + offset, src, srcIndex, length);
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, byte[] src, int srcIndex, int length) {
        checkIndex(index, length);
        bytes().setBytes(index + offset, src, srcIndex, length);
        return this;
    }

    @Override
    public ByteBuf setBytes(int index, ByteBuffer src) {
        checkIndex(index, src.remaining());
        bytes().setBytes(index + offset, src);
        return this;
    }

    @Override
    public int setBytes(int index, InputStream in, int length) throws IOException {
        checkIndex(index, length);
        return bytes().setBytes(index + offset, in, length);
    }

    @Override
    public int setBytes(int index, ScatteringByteChannel in, int length) throws IOException {
        checkIndex(index, length);
        return bytes().setBytes(index + offset, in, length);
    }

    @Override
    public int setBytes(int index, FileChannel in, long position, int length) throws IOException {
        checkIndex(index, length);
        return bytes().setBytes(index + offset, in, position, length);
    }

    // Single values: AbstractByteBuf has checked the index against this view already.

    @Override
    protected byte _getByte(int index) {
        return bytes().getByte(index + offset);
    }

    @Override
    protected short _getShort(int index) {
        return bytes().getShort(index + offset);
    }

    @Override
    protected short _getShortLE(int index) {
        return bytes().getShortLE(index + offset);
    }

    @Override
    protected int _getUnsignedMedium(int index) {
        return bytes().getUnsignedMedium(index + offset);
    }

    @Override
    protected int _getUnsignedMediumLE(int index) {
        return bytes().getUnsignedMediumLE(index + offset);
    }

    @Override
    protected int _getInt(int index) {
        return bytes().getInt(index + offset);
    }

    @Override
    protected int _getIntLE(int index) {
        return bytes().getIntLE(index + offset);
    }

    @Override
    protected long _getLong(int index) {
        return bytes().getLong(index + offset);
    }

    @Override
    protected long _getLongLE(int index) {
        return bytes().getLongLE(index + offset);
    }

    @Override
    protected void _setByte(int index, int value) {
        bytes().setByte(index + offset, value);
    }

    @Override
    protected void _setShort(int index, int value) {
        bytes().setShort(index + offset, value);
    }

    @Override
    protected void _setShortLE(int index, int value) {
        bytes().setShortLE(index + offset, value);
    }

    @Override
    protected void _setMedium(int index, int value) {
        bytes().setMedium(index + offset, value);
    }

    @Override
    protected void _setMediumLE(int index, int value) {
        bytes().setMediumLE(index + offset, value);
    }

    @Override
    protected void _setInt(int index, int value) {
        bytes().setInt(index + offset, value);
    }

    @Override
    protected void _setIntLE(int index, int value) {
        bytes().setIntLE(index + offset, value);
    }

    @Override
    protected void _setLong(int index, long value) {
        bytes().setLong(index + offset, value);
    }

    @Override
    protected void _setLongLE(int index, long value) {
        bytes().setLongLE(index + offset, value);
    }
}
