/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionAdapter;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.StreamByteDistributor;

import static io.netty.handler.codec.http2.Http2CodecUtil.streamableBytes;
import static io.netty.handler.codec.http2.Http2Error.INTERNAL_ERROR;
import static io.netty.handler.codec.http2.Http2Exception.connectionError;

/**
 * RFC 9113 scheduling: the streams with something to write take turns in a queue, each given an equal share of
 * what the connection may send per turn (at least 1 KiB), with no priority tree (RFC 9113 section 5.3.2 deprecates
 * RFC 7540's priority signals; {@link #updateDependencyTree} ignores them). The algorithm of Netty's
 * {@code UniformStreamByteDistributor}, without its object per stream: a stream's values are read from the
 * {@link StreamState} the flow controller hands in, which it updates before every call here, and the queue is a ring
 * of those states, marked on their stream by a property that holds the state itself while it is queued. A closed
 * stream leaves the queue at once.
 */
final class RoundRobinStreamByteDistributor extends Http2ConnectionAdapter implements StreamByteDistributor {

    /** Netty's {@code Http2CodecUtil.DEFAULT_MIN_ALLOCATION_CHUNK}, package-private there. */
    static final int MIN_ALLOCATION_CHUNK = 1024;
    private static final StreamState[] EMPTY = new StreamState[0];
    private static final int INITIAL_CAPACITY = 8;

    private final Http2Connection.PropertyKey queuedKey;
    /** A ring: {@link #size} states from {@link #head}, null elsewhere. */
    private StreamState[] queue = EMPTY;
    private int head;
    private int size;
    /** The stream being written in {@link #distribute}, or null. */
    private Http2Stream writing;

    RoundRobinStreamByteDistributor(Http2Connection connection) {
        queuedKey = connection.newKey();
        connection.addListener(this);
    }

    @Override
    public void onStreamClosed(Http2Stream stream) {
        StreamState state = stream.getProperty(queuedKey);
        if (state != null) {
            stream.removeProperty(queuedKey);
            remove(state);
        }
    }

    @Override
    public void updateStreamableBytes(StreamState state) {
        Http2Stream stream = state.stream();
        StreamState queued = stream.getProperty(queuedKey);
        if (queued != null) {
            if (queued != state) {
                // Netty's flow controller hands in one state per stream; another caller may not. The latest counts.
                replace(queued, state);
                stream.setProperty(queuedKey, state);
            }
            return;
        }
        // As Netty's uniform distributor: a state is queued while it has frames and a window that is positive, or
        // zero when it is not being written (an empty frame can still go out). One whose window went negative is
        // left where it is and dropped when its turn comes.
        if (!state.hasFrame()) {
            return;
        }
        int window = state.windowSize();
        if (window > 0 || window == 0 && stream != writing) {
            stream.setProperty(queuedKey, state);
            addLast(state);
        }
    }

    @Override
    public void updateDependencyTree(int childStreamId, int parentStreamId, short weight, boolean exclusive) {
        // RFC 9113: priority signals are not acted on.
    }

    @Override
    public boolean distribute(int maxBytes, Writer writer) throws Http2Exception {
        int queued = size;
        if (queued == 0) {
            return false;
        }
        int chunkSize = Math.max(MIN_ALLOCATION_CHUNK, maxBytes / queued);
        StreamState state = pollFirst();
        do {
            int window = state.windowSize();
            if (window < 0) {
                continue;
            }
            int streamable = streamableBytes(state);
            if (maxBytes == 0 && streamable > 0) {
                // The first stream that cannot send stays first. Empty frames ahead of it have been written.
                addFirst(state);
                return true;
            }
            int chunk = Math.min(chunkSize, Math.min(maxBytes, streamable));
            maxBytes -= chunk;
            write(state, chunk, writer);
        } while ((state = pollFirst()) != null);
        // Every queued stream had its turn and none is left with bytes it may send: a stream still holding some
        // is queued again by the update the flow controller makes after each write.
        return false;
    }

    private void write(StreamState state, int numBytes, Writer writer) throws Http2Exception {
        Http2Stream stream = state.stream();
        writing = stream;
        try {
            writer.write(stream, numBytes);
        } catch (Throwable t) {
            throw connectionError(INTERNAL_ERROR, t, "byte distribution write error");
        } finally {
            writing = null;
        }
    }

    private StreamState pollFirst() {
        if (size == 0) {
            return null;
        }
        StreamState[] queue = this.queue;
        StreamState state = queue[head];
        queue[head] = null;
        head = (head + 1) & queue.length - 1;
        size--;
        state.stream().removeProperty(queuedKey);
        return state;
    }

    private void addFirst(StreamState state) {
        grow();
        head = (head - 1) & queue.length - 1;
        queue[head] = state;
        size++;
        state.stream().setProperty(queuedKey, state);
    }

    private void addLast(StreamState state) {
        grow();
        queue[(head + size) & queue.length - 1] = state;
        size++;
    }

    private void replace(StreamState queued, StreamState state) {
        StreamState[] queue = this.queue;
        int mask = queue.length - 1;
        for (int i = 0; i < size; i++) {
            if (queue[(head + i) & mask] == queued) {
                queue[(head + i) & mask] = state;
                return;
            }
        }
    }

    /** Takes a queued state out, keeping the order of the rest. */
    private void remove(StreamState state) {
        StreamState[] queue = this.queue;
        int mask = queue.length - 1;
        for (int i = 0; i < size; i++) {
            if (queue[(head + i) & mask] == state) {
                for (int j = i; j < size - 1; j++) {
                    queue[(head + j) & mask] = queue[(head + j + 1) & mask];
                }
                queue[(head + size - 1) & mask] = null;
                size--;
                return;
            }
        }
    }

    /** Makes room for one more; the ring's length stays a power of two. */
    private void grow() {
        StreamState[] queue = this.queue;
        if (size < queue.length) {
            return;
        }
        StreamState[] larger = new StreamState[Math.max(INITIAL_CAPACITY, queue.length << 1)];
        for (int i = 0; i < size; i++) {
            larger[i] = queue[(head + i) & queue.length - 1];
        }
        this.queue = larger;
        head = 0;
    }
}
