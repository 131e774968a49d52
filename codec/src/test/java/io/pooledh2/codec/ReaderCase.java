/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameReader;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/**
 * What one differential run feeds a reader: the constructor to use, then a sequence of frames and reader
 * actions (such as a new max frame size), and optionally listener faults. The same case is replayed
 * against both readers in every delivery mode.
 */
final class ReaderCase {

    /** Something done to the reader between frames; returns a line for the transcript, or null. */
    @FunctionalInterface
    interface ReaderAction {
        String apply(Http2FrameReader reader) throws Http2Exception;
    }

    /** Either a frame (raw bytes, possibly not a well-formed one) or an action. */
    static final class Step {
        final byte[] frame;
        final String actionName;
        final ReaderAction action;

        private Step(byte[] frame, String actionName, ReaderAction action) {
            this.frame = frame;
            this.actionName = actionName;
            this.action = action;
        }

        boolean isFrame() {
            return frame != null;
        }
    }

    final String name;
    private ReaderSpec spec = ReaderSpec.defaults();
    private final List<Step> steps = new ArrayList<>();
    private Consumer<ListenerTranscript> listenerSetup = transcript -> { };
    private final List<String> expectedStockLines = new ArrayList<>();
    private boolean expectNoError;

    private ReaderCase(String name) {
        this.name = name;
    }

    static ReaderCase named(String name) {
        return new ReaderCase(name);
    }

    ReaderCase spec(ReaderSpec spec) {
        this.spec = spec;
        return this;
    }

    /** Each array is delivered as one unit in frame-by-frame mode; it need not be exactly one frame. */
    ReaderCase frames(byte[]... frames) {
        for (byte[] frame : frames) {
            steps.add(new Step(frame, null, null));
        }
        return this;
    }

    ReaderCase frames(List<byte[]> frames) {
        return frames(frames.toArray(new byte[0][]));
    }

    ReaderCase action(String name, ReaderAction action) {
        steps.add(new Step(null, name, action));
        return this;
    }

    ReaderCase listener(Consumer<ListenerTranscript> setup) {
        this.listenerSetup = setup;
        return this;
    }

    /**
     * The stock reader's transcript must contain a line starting with {@code linePrefix}. This pins each case
     * to the path it claims to exercise, so a typo in a hand-made frame cannot turn it into a trivial test.
     */
    ReaderCase expect(String linePrefix) {
        expectedStockLines.add(linePrefix);
        return this;
    }

    /** The stock reader must read the case without any error. */
    ReaderCase expectNoError() {
        expectNoError = true;
        return this;
    }

    /** The same case (constructor, listener faults, expectations) with {@code steps} instead. */
    ReaderCase withSteps(String newName, List<Step> newSteps) {
        ReaderCase copy = new ReaderCase(newName);
        copy.spec = spec;
        copy.listenerSetup = listenerSetup;
        copy.steps.addAll(newSteps);
        return copy;
    }

    ReaderSpec spec() {
        return spec;
    }

    List<Step> steps() {
        return Collections.unmodifiableList(steps);
    }

    void setUp(ListenerTranscript transcript) {
        listenerSetup.accept(transcript);
    }

    List<String> expectedStockLines() {
        return expectedStockLines;
    }

    boolean expectsNoError() {
        return expectNoError;
    }

    /** All frame bytes of the case, for failure messages. */
    byte[] allBytes() {
        List<byte[]> parts = new ArrayList<>();
        for (Step step : steps) {
            if (step.isFrame()) {
                parts.add(step.frame);
            }
        }
        return Frames.concat(parts.toArray(new byte[0][]));
    }

    /** A readable description of the input: the steps, frames in hex (shortened when long). */
    String describeInput() {
        StringBuilder out = new StringBuilder("reader ").append(spec);
        for (Step step : steps) {
            out.append("\n  ");
            if (step.isFrame()) {
                byte[] frame = step.frame;
                out.append(frame.length <= 96 ? ByteBufUtil.hexDump(frame)
                        : ByteBufUtil.hexDump(Arrays.copyOf(frame, 48)) + "...(" + frame.length + " bytes)");
            } else {
                out.append("action ").append(step.actionName);
            }
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return name;
    }
}
