/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.channel.Channel;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelPromise;
import io.netty.util.concurrent.EventExecutor;

/**
 * The promise of each write of a frame written in several writes (a header buffer, then the payload as it is):
 * completes the caller's promise once every part is done, with the first failure if a part failed, as the
 * aggregator Netty's {@code DefaultHttp2FrameWriter} writes under (package-private there). Like it, it takes
 * several completions, one per {@link #newPart() part}, and reports each as accepted.
 */
final class FramePartsPromise extends DefaultChannelPromise {

    private final ChannelPromise promise;
    private int parts;
    private int doneParts;
    private boolean allParts;
    private Throwable failure;

    FramePartsPromise(ChannelPromise promise, Channel channel, EventExecutor executor) {
        super(channel, executor);
        this.promise = promise;
    }

    /** This promise, for one more write. */
    ChannelPromise newPart() {
        parts++;
        return this;
    }

    /** No more parts: completes the caller's promise if every part is done already. */
    ChannelPromise allPartsWritten() {
        if (!allParts) {
            allParts = true;
            if (doneParts == parts || parts == 0) {
                return setBoth();
            }
        }
        return this;
    }

    @Override
    public ChannelPromise setSuccess(Void result) {
        if (doneParts < parts && partDone(null)) {
            setBoth();
        }
        return this;
    }

    @Override
    public boolean trySuccess(Void result) {
        if (doneParts < parts) {
            return !partDone(null) || tryBoth();
        }
        return false;
    }

    @Override
    public ChannelPromise setFailure(Throwable cause) {
        if ((doneParts < parts || parts == 0) && partDone(cause)) {
            return setBoth();
        }
        return this;
    }

    @Override
    public boolean tryFailure(Throwable cause) {
        if (doneParts < parts || parts == 0) {
            return !partDone(cause) || tryBoth();
        }
        return false;
    }

    /** Counts a part done, keeping the first failure; whether that was the last. */
    private boolean partDone(Throwable cause) {
        doneParts++;
        if (failure == null) {
            failure = cause;
        }
        return allParts && doneParts == parts;
    }

    /** Sets the caller's promise, then this one, as Netty's aggregator does when its last part is set. */
    private ChannelPromise setBoth() {
        if (failure == null) {
            promise.setSuccess();
            return super.setSuccess(null);
        }
        promise.setFailure(failure);
        return super.setFailure(failure);
    }

    /** Tries the caller's promise, then this one. */
    private boolean tryBoth() {
        if (failure == null) {
            promise.trySuccess();
            return super.trySuccess(null);
        }
        promise.tryFailure(failure);
        return super.tryFailure(failure);
    }
}
