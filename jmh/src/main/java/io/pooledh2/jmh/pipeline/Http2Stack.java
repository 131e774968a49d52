/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.jmh.pipeline;

import io.netty.channel.Channel;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One way of building the HTTP/2 ends of a connection: the variable of the pipeline benchmarks. An
 * implementation installs its handlers on a channel whose allocator is already {@code PooledByteBufAllocator},
 * serves or sends the {@link Scenario}, and consumes what it receives into the {@link Blackhole}.
 *
 * <p>To add a variant (for instance a frame-codec pipeline), implement this interface and add a constant to
 * {@link PipelineStack}: every pipeline benchmark then runs it too.
 */
public interface Http2Stack {

    /** Installs the server end on {@code channel}; it answers every complete request as the scenario says. */
    Endpoint initServer(Channel channel, Scenario scenario, Blackhole bh);

    /**
     * Installs the client end on {@code channel}. It must call {@code onResponseComplete} once for every response
     * it has read to its end of stream.
     */
    Client initClient(Channel channel, Scenario scenario, Blackhole bh, Runnable onResponseComplete);

    /** One end of the connection. */
    interface Endpoint {

        /** Called once the SETTINGS handshake is done, before the first exchange; may write (and flush). */
        default void connected() {
        }

        /** The streams still open at this end, which must be 0 between exchanges. */
        int activeStreams();

        /** Releases what the end holds (bodies); the channel itself is closed by the caller. */
        default void close() {
        }
    }

    /** The client end. */
    interface Client extends Endpoint {

        /** Starts one request on a new stream and flushes it. */
        void sendRequest();
    }
}
