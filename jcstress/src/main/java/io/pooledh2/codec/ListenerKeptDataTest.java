/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.pooledh2.jcstress.EventLoopScope;
import io.pooledh2.jcstress.Observed;
import io.pooledh2.jcstress.WireFrames;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LLL_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Test 7: the {@code Http2FrameListener} path's DATA buffer for a listener that declared it keeps nothing
 * ({@code listenerKeepsNothing(true)}, which gets the frame's view of the input, sharing the frame's count; a
 * listener that may keep what it gets has a slice of the input, as from Netty's reader), retained all the same
 * and handed to another thread. The reader, as soon as the callback returns, sees the extra reference, retains the input for the view
 * and goes on to DATA frame 2 in the same input, then the read's caller releases the input. The consumer reads
 * the bytes and releases the buffer, racing all of that. It must see frame 1's bytes, and the input must be
 * freed exactly once, after both (the arbiter sees a count of 0 and no error). {@code same-view}: the reader's
 * frame for frame 2 was the kept one, returned in time by the consumer.
 */
@JCStressTest
@Description("A DATA buffer retained by an Http2FrameListener keeps its bytes while the reader moves on and the "
        + "input is released")
@Outcome(id = "data=1112, (same-view|other-view), input-freed", expect = ACCEPTABLE,
        desc = "The consumer saw frame 1's bytes; the input was freed once both were done.")
@Outcome(expect = FORBIDDEN, desc = "Other bytes, an error, or the input not freed or freed twice.")
@State
public class ListenerKeptDataTest {

    private static final byte[] FRAMES = WireFrames.concat(
            WireFrames.data(1, new byte[] {0x11, 0x12}, 0, false),
            WireFrames.data(3, new byte[] {0x21, 0x22}, 0, true));

    private final PooledHttp2FrameReader reader = new PooledHttp2FrameReader().reuseFrames(true).listenerKeepsNothing(true);
    private final ByteBuf input = Unpooled.wrappedBuffer(FRAMES);
    private volatile ByteBuf handoff;

    @Actor
    public void reader(LLL_Result r) {
        EventLoopScope.run(() -> {
            ByteBuf[] buffers = new ByteBuf[2];
            try {
                reader.readFrame(WireFrames.CTX, input, new Http2FrameAdapter() {
                    @Override
                    public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding,
                                          boolean endOfStream) {
                        if (buffers[0] == null) {
                            buffers[0] = data;
                            handoff = data.retain();  // the consumer's reference
                        } else {
                            buffers[1] = data;
                        }
                        return data.readableBytes() + padding;
                    }
                });
                r.r2 = buffers[1] == buffers[0] ? "same-view" : "other-view";
            } catch (Throwable t) {
                r.r2 = Observed.error(t);
            } finally {
                input.release();  // the caller's reference, as ByteToMessageDecoder's
            }
        });
    }

    @Actor
    public void consumer(LLL_Result r) {
        ByteBuf data;
        while ((data = handoff) == null) {
            Thread.onSpinWait();
        }
        try {
            r.r1 = "data=" + ByteBufUtil.hexDump(data);
            data.release();
        } catch (Throwable t) {
            r.r1 = Observed.error(t);
        }
    }

    @Arbiter
    public void arbiter(LLL_Result r) {
        r.r3 = input.refCnt() == 0 ? "input-freed" : "input-refCnt=" + input.refCnt();
    }
}
