/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 */
package io.pooledh2.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.DefaultChannelId;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.local.LocalServerChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2GoAwayFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2ChannelDuplexHandler;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2FrameListener;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2FrameStreamEvent;
import io.netty.handler.codec.http2.Http2FrameStreamException;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2PushPromiseFrame;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamFrame;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.ResourceLeakDetector;
import io.pooledh2.codec.Differential.Delivery;
import io.pooledh2.codec.ListenerTranscript.ListenerFailure;
import io.pooledh2.codec.ListenerTranscript.Style;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static io.pooledh2.codec.Frames.END_HEADERS;
import static io.pooledh2.codec.Frames.END_STREAM;
import static io.pooledh2.codec.Frames.GOAWAY;
import static io.pooledh2.codec.Frames.HEADERS;
import static io.pooledh2.codec.Frames.PADDED;
import static io.pooledh2.codec.Frames.PING;
import static io.pooledh2.codec.Frames.PRIORITY;
import static io.pooledh2.codec.Frames.PRIORITY_FLAG;
import static io.pooledh2.codec.Frames.PUSH_PROMISE;
import static io.pooledh2.codec.Frames.RST_STREAM;
import static io.pooledh2.codec.Frames.SETTINGS;
import static io.pooledh2.codec.Frames.WINDOW_UPDATE;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The randomized differential test at the pipeline level: random client byte sequences (a preface, then mostly
 * valid HTTP/2 traffic on streams in every state, with a minority of protocol violations) are fed in random chunks,
 * one {@code writeInbound} per chunk, to a server channel built by Netty's builder and to one built by the pooled
 * builder with the same (random) options; the frames, stream events and exceptions fired up the pipeline (or the
 * listener calls), the bytes written back (cut into frames and rendered after every chunk), what happens when the
 * server closes the channel, and the channel's state must be the same, and nothing may leak (paranoid leak
 * detection, checked after each (path, seed); a leak is traced to its case and shrunk). The server's application
 * answers, resets streams, returns DATA credit and sends GOAWAY from a random of its own, the same for both servers.
 *
 * <p>Six server paths, each against Netty's counterpart:
 * <ul>
 *   <li>{@link Path#CODEC}: {@code Http2FrameCodecBuilder.forServer()} against
 *       {@code PooledHttp2FrameCodecBuilder.forServer().strictStreamStates(false)}, with a consumer that releases
 *       each frame in {@code channelRead};</li>
 *   <li>{@link Path#CODEC_KEEP}: the same, with a consumer that keeps every frame (or, for some cases, the last few,
 *       or retained duplicates or copies of them) until the whole input was delivered or the channel closed, renders
 *       it again, then releases it;</li>
 *   <li>{@link Path#HANDLER}: {@code Http2ConnectionHandlerBuilder} against {@code PooledHttp2ConnectionHandlerBuilder}
 *       with {@code strictStreamStates(false)} and a {@link ListenerTranscript} listener (read-only, consuming or
 *       retaining), sometimes throwing;</li>
 *   <li>{@link Path#STRICT}: the default (strict) pooled builders, one of the three shapes above. The stream-state
 *       checks are an intended divergence, so the outputs must equal Netty's only when the input has no HEADERS or
 *       DATA on a stream the client already ended and no HEADERS opening a skipped stream id (and no desynchronizing
 *       mutation); otherwise only up to the first such frame, and no exception but an HTTP/2 one (or one Netty's
 *       server has too) may reach the pipeline.</li>
 *   <li>{@link Path#MULTIPLEX}: the frame codecs ({@code strictStreamStates(false)}) with Netty's
 *       {@code Http2MultiplexHandler}, a child channel per stream answering from it; some children paused, so that
 *       frames wait in Netty's queue ({@link MultiplexServer}); {@link Path#STRICT_MULTIPLEX}, the same with the
 *       default (strict) pooled builder, compared as on {@link Path#STRICT}: the example server's default.</li>
 * </ul>
 * And three client paths, the same comparisons with the roles turned round: a client built by
 * {@code Http2FrameCodecBuilder.forClient()} or {@code Http2ConnectionHandlerBuilder().server(false)} against the
 * pooled {@code PooledHttp2FrameCodecBuilder.forClient()} or
 * {@code PooledHttp2ConnectionHandlerBuilder().server(false)}, fed random SERVER bytes:
 * <ul>
 *   <li>{@link Path#CLIENT_CODEC}: the frame codecs with {@code strictStreamStates(false)}, the consumer releasing
 *       or (in some cases) keeping the frames as on {@link Path#CODEC_KEEP};</li>
 *   <li>{@link Path#CLIENT_HANDLER}: the connection handlers with {@code strictStreamStates(false)} and a
 *       {@link ListenerTranscript} listener;</li>
 *   <li>{@link Path#CLIENT_STRICT}: the default (strict) pooled client builders, one of the three shapes, compared
 *       as on {@link Path#STRICT} but up to the first HEADERS or DATA on an even (server-opened) stream that was not
 *       promised or that the server ended: on a client the checks only concern the streams the server opens.</li>
 *   <li>{@link Path#CLIENT_MULTIPLEX}: the frame codecs with {@code strictStreamStates(false)} and Netty's
 *       {@code Http2MultiplexHandler}, requests on child channels opened by {@code Http2StreamChannelBootstrap},
 *       pushed streams as children ({@link MultiplexServer}).</li>
 * </ul>
 *
 * <p>A client case ({@link Generator} in client mode) interleaves the client application's actions with the server's
 * bytes ({@link Action}: open the next stream with a request, some with a DATA body, some ending the stream; reset
 * a stream; send GOAWAY), so that the server's frames answer streams that exist: its SETTINGS preface (no preface
 * string), SETTINGS ACKs, responses (1xx, HEADERS, DATA, trailers, CONTINUATION splits, padding) on the client's odd
 * streams, PUSH_PROMISE on them (the client's settings enable push, disable it, or say nothing) and responses on
 * the promised even streams, PING, GOAWAY, WINDOW_UPDATE, RST_STREAM, PRIORITY, unknown frames; and at the case's
 * violation rate the server-path violations (most of them errors on a client too) or client-specific ones: odd or
 * reused promised ids, push on idle, closed or 0 streams or when disabled, DATA on a reserved stream, HEADERS on a
 * stream never promised, a response header list over the client's limit, invalid responses, content-length
 * mismatches, RST and CONTINUATION floods. The bytes between two actions are delivered as the case says; the same
 * actions are taken on both clients at the same points, and the application otherwise reacts as the server's
 * (credit, resets, GOAWAY, keeping frames) except that it answers no stream.
 *
 * <p>A divergence is reported with its seeds, the input as frames, the first differing transcript line with both
 * transcripts around it, and the input shrunk to as few frames as still diverge.
 *
 * <p>Bounded by cases and time per (path, seed). Reproducible: {@code -Dcodec.fuzz.seed=N} replaces the base seed,
 * {@code -Dcodec.fuzz.seeds=K} runs K seeds, {@code -Dcodec.fuzz.cases=N} turns the time bound off and runs N cases
 * per (path, seed) (the long mode):
 * <pre>
 * mvn -B -o -pl codec test -Dtest=RandomizedCodecDifferentialTest -Dcodec.fuzz.seeds=500 -Dcodec.fuzz.cases=20
 * </pre>
 * {@link #main} runs many seeds outside JUnit and goes on past divergences, reporting each distinct one once (the
 * class path as {@code src/fuzz/run.sh} builds it):
 * <pre>
 * java -Dio.netty.leakDetection.level=paranoid \
 *     -cp codec/target/test-classes:codec/target/classes:$(cat codec/target/fuzz/classpath.txt) \
 *     [-Dcodec.fuzz.paths=CLIENT_CODEC,CLIENT_HANDLER,CLIENT_STRICT] \
 *     io.pooledh2.codec.RandomizedCodecDifferentialTest SEEDS CASES_PER_SEED [BASE_SEED]
 * java ... io.pooledh2.codec.RandomizedCodecDifferentialTest case PATH CASE_SEED    one case, both transcripts
 * java ... io.pooledh2.codec.RandomizedCodecDifferentialTest leak PATH CASE_SEED    which server leaks on a case
 * </pre>
 * {@code -Dcodec.fuzz.exact=true} also fails on the differences {@link #normalize} leaves out.
 */
class RandomizedCodecDifferentialTest {

    static final String SEED_PROPERTY = "codec.fuzz.seed";
    static final String SEEDS_PROPERTY = "codec.fuzz.seeds";
    static final String CASES_PROPERTY = "codec.fuzz.cases";
    static final String PATHS_PROPERTY = "codec.fuzz.paths";

    private static final long DEFAULT_SEED = 0x636f64656346757aL;
    private static final int DEFAULT_SEEDS = 3;
    private static final int MAX_CASES = 400;
    private static final long TIME_PER_RUN_NANOS = TimeUnit.MILLISECONDS.toNanos(1_600);
    // Less for the three client paths, so that they add little to the unit run; the long mode is where they count.
    private static final long CLIENT_TIME_PER_RUN_NANOS = TimeUnit.MILLISECONDS.toNanos(1_100);
    // Enough to mean something on a slow or busy machine; far below what the time bound normally allows.
    private static final int MIN_CASES = 10;
    private static final long SHRINK_NANOS = TimeUnit.SECONDS.toNanos(30);

    /** Which server (or client) is compared with Netty's. */
    enum Path {
        CODEC, CODEC_KEEP, HANDLER, STRICT, CLIENT_CODEC, CLIENT_HANDLER, CLIENT_STRICT, MULTIPLEX, CLIENT_MULTIPLEX,
        STRICT_MULTIPLEX;

        /** The endpoint compared is a client, fed a server's bytes (see {@link Generator}). */
        boolean client() {
            return this == CLIENT_CODEC || this == CLIENT_HANDLER || this == CLIENT_STRICT
                    || this == CLIENT_MULTIPLEX;
        }
    }

    /** How the server is assembled and consumed. */
    enum Shape {
        CODEC, CODEC_KEEP, HANDLER, MULTIPLEX;

        /** The shapes the strict paths draw from. */
        static final Shape[] STRICT = {CODEC, CODEC_KEEP, HANDLER};
    }

    /** Whose builder. */
    enum Flavor { NETTY, POOLED, POOLED_STRICT }

    static Stream<Arguments> runs() {
        List<Arguments> runs = new ArrayList<>();
        for (long seed : seeds()) {
            for (Path path : paths()) {
                runs.add(Arguments.of(path, seed));
            }
        }
        return runs.stream();
    }

    /** All paths, or those {@code -Dcodec.fuzz.paths=CLIENT_CODEC,CLIENT_HANDLER} names. */
    static List<Path> paths() {
        String names = System.getProperty(PATHS_PROPERTY, "");
        if (names.isEmpty()) {
            return List.of(Path.values());
        }
        List<Path> paths = new ArrayList<>();
        for (String name : names.split(",")) {
            paths.add(Path.valueOf(name.trim()));
        }
        return paths;
    }

    static long[] seeds() {
        long base = Long.getLong(SEED_PROPERTY, DEFAULT_SEED);
        int count = Integer.getInteger(SEEDS_PROPERTY, DEFAULT_SEEDS);
        long[] seeds = new long[count];
        seeds[0] = base;
        Random derive = new Random(base);
        for (int i = 1; i < count; i++) {
            seeds[i] = derive.nextLong();
        }
        return seeds;
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("runs")
    void sameAsNettysServer(Path path, long seed, TestReporter reporter) throws Exception {
        int cases = Integer.getInteger(CASES_PROPERTY, 0);
        Campaign campaign = new Campaign(path, seed, cases > 0 ? cases : MAX_CASES,
                cases > 0 ? Long.MAX_VALUE : path.client() ? CLIENT_TIME_PER_RUN_NANOS : TIME_PER_RUN_NANOS);
        onEventLoopThread(campaign::run);
        campaign.checkLeaks();
        if (campaign.failure != null) {
            fail(campaign.failure);
        }
        reporter.publishEntry(path + " seed " + seed, campaign.summary());
        System.out.println("RandomizedCodecDifferentialTest " + path + " seed " + seed + ": " + campaign.summary());
        assertTrue(campaign.cases >= Math.min(MIN_CASES, campaign.maxCases),
                () -> "only " + campaign.cases + " cases ran for " + path + " seed " + seed);
        assertTrue(path == Path.HANDLER || path == Path.CLIENT_HANDLER || campaign.pooledFrames > 0
                        || campaign.cases == 0,
                "the pooled codec fired pooled frames");
    }

    /**
     * Runs {@code body} as {@link EventLoopThread} does, with no time limit: a long mode campaign, or shrinking a
     * divergence, may take minutes.
     */
    static void onEventLoopThread(EventLoopThread.Body body) throws Exception {
        EventLoopThread.run(body, 0);
    }

    // ------------------------------------------------------------------------------------------------------------
    // Campaign: the cases of one (path, seed)

    static final class Campaign {
        final Path path;
        final long seed;
        final int maxCases;
        final long nanos;
        int cases;
        long pooledFrames;
        String failure;
        final List<Long> caseSeeds = new ArrayList<>();
        /** Coverage, from Netty's transcripts: how the cases ended and what the server sent. */
        final Map<String, Integer> coverage = new TreeMap<>();

        Campaign(Path path, long seed, int maxCases, long nanos) {
            this.path = path;
            this.seed = seed;
            this.maxCases = maxCases;
            this.nanos = nanos;
        }

        void run() {
            Random random = new Random(seed);
            long deadline = System.nanoTime() + nanos;
            while (cases < maxCases && (nanos == Long.MAX_VALUE || System.nanoTime() - deadline < 0)) {
                long caseSeed = random.nextLong();
                caseSeeds.add(caseSeed);
                Script script = Script.generate(caseSeed, path);
                Outcome outcome = compare(path, script);
                pooledFrames += outcome.pooledFrames;
                count(outcome.stock);
                if (outcome.strictNote != null) {
                    coverage.merge(outcome.strictNote, 1, Integer::sum);
                }
                if (outcome.difference != null) {
                    failure = report(path, seed, cases, script, outcome.difference);
                    return;
                }
                cases++;
            }
        }

        /**
         * After {@link #run}, once its thread has ended (what the thread kept for reuse went with it): fails the
         * campaign if anything leaked.
         */
        void checkLeaks() {
            if (failure != null) {
                return;
            }
            List<String> leaks = LeakDetectionExtension.collectLeaks();
            if (!leaks.isEmpty()) {
                failure = leakReport(leaks);
            }
        }

        private void count(List<String> stock) {
            Set<String> seen = new TreeSet<>();
            int frames = 0;
            for (String line : stock) {
                if (!line.matches("^(OUT|EVENT|END|CLOSED|INACTIVE|EXCEPTION|TAIL_|WRITE_|LATER|FORCE|THROWN|FINISH"
                        + "|CONSUMER_|RESPONDER_|LISTENER_FAILURE|COPY|DUPLICATE|HOLD_|TWIN|CLIENT|PAUSED"
                        + "|CHILD s=\\d+ (?!READ)).*")) {
                    frames++;
                }
                if (line.startsWith("READ PUSH_PROMISE") || line.startsWith("PUSH_PROMISE")) {
                    seen.add("client: PUSH_PROMISE read");
                } else if (line.matches("^(READ HEADERS stream|HEADERS s)=\\d*[02468] .*")) {
                    seen.add("client: pushed stream HEADERS read");
                }
                if (line.startsWith("OUT GOAWAY")) {
                    int code = line.indexOf("code=");
                    seen.add("GOAWAY " + line.substring(code + 5, line.indexOf(' ', code)));
                } else if (line.startsWith("OUT RST_STREAM")) {
                    seen.add("RST_STREAM " + line.substring(line.indexOf("code=") + 5));
                } else if (line.startsWith("EXCEPTION") || line.startsWith("TAIL_EXCEPTION")) {
                    seen.add("exception");
                } else if (line.startsWith("END ")) {
                    seen.add(line.contains("open=true") ? "open after input" : "closed by input");
                }
            }
            seen.add(frames < 10 ? "frames read 0-9" : frames < 50 ? "frames read 10-49"
                    : frames < 200 ? "frames read 50-199" : "frames read 200+");
            for (String s : seen) {
                coverage.merge(s, 1, Integer::sum);
            }
        }

        String summary() {
            return cases + " cases, " + pooledFrames + " pooled frames, " + coverage;
        }

        /**
         * Finds the case that leaked by running the cases again one at a time, each server alone, and shrinks it; null
         * if only cases on which Netty's own server leaks too leak (with {@code -ea}, a Netty assertion in its
         * priority tree can abort the release of queued DATA): not the pooled server's leak, only printed.
         */
        private String leakReport(List<String> leaks) {
            StringBuilder out = new StringBuilder(path + ": Netty leak report(s) after seed " + seed + " ("
                    + caseSeeds.size() + " cases):\n" + String.join("\n", leaks) + "\n");
            List<String> nettyToo = new ArrayList<>();
            for (int i = 0; i < caseSeeds.size(); i++) {
                long caseSeed = caseSeeds.get(i);
                Script script = Script.generate(caseSeed, path);
                Shape shape = shape(path, script);
                Flavor flavor = pooledFlavor(path);
                if (!leaks(shape, flavor, script)) {
                    continue;
                }
                if (leaks(shape, Flavor.NETTY, script)) {
                    nettyToo.add("#" + i + " (case seed " + caseSeed + ")");
                    continue;
                }
                Script shrunk = shrink(script, s -> leaks(shape, flavor, s), System.nanoTime() + SHRINK_NANOS);
                out.append("leaking case #").append(i).append(" (case seed ").append(caseSeed)
                        .append("), the ").append(flavor).append(" server leaks, Netty's does not\n")
                        .append(script.describe()).append("shrunk to:\n").append(shrunk.describe());
                return out.toString();
            }
            if (!nettyToo.isEmpty()) {
                System.out.println("RandomizedCodecDifferentialTest: " + path + " seed " + seed + ": Netty's own server"
                        + " leaks too on case(s) " + nettyToo + ": not counted against the pooled one");
                return null;
            }
            return out.append("no single case leaks when run alone").toString();
        }
    }

    /**
     * Whether one server leaks on the script. It runs on a thread of its own: what the thread keeps for reuse (the
     * pooled reader's frames keep their last stream, and through it the connection, until reused or until the
     * connection closes) goes with the thread, so that a leak shows up with the run that made it, not with a later one
     * that happens to free what kept it reachable. Netty's detector reports a leak with a given trace only once per
     * JVM, so the traces already reported are forgotten first: a server must not pass for leaking nothing because the
     * same leak was reported for another path.
     */
    static boolean leaks(Shape shape, Flavor flavor, Script script) {
        LeakDetectionExtension.collectLeaks();
        forgetReportedLeaks();
        try {
            onEventLoopThread(() -> run(shape, flavor, script));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return !LeakDetectionExtension.collectLeaks().isEmpty();
    }

    private static void forgetReportedLeaks() {
        try {
            Field reported = ResourceLeakDetector.class.getDeclaredField("reportedLeaks");
            reported.setAccessible(true);
            ((Set<?>) reported.get(LeakDetectionExtension.byteBufLeakDetector())).clear();
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Best effort: without it, a leak already reported elsewhere is not seen again.
        }
    }

    static Shape shape(Path path, Script script) {
        switch (path) {
            case STRICT:
            case CLIENT_STRICT:
                return script.behaviour.strictShape;
            case CLIENT_CODEC:
                // Keeping frames or not, drawn with the case (the strict path's draw, unused on a client path).
                return script.behaviour.strictShape == Shape.CODEC_KEEP ? Shape.CODEC_KEEP : Shape.CODEC;
            case CLIENT_HANDLER:
                return Shape.HANDLER;
            case MULTIPLEX:
            case CLIENT_MULTIPLEX:
            case STRICT_MULTIPLEX:
                return Shape.MULTIPLEX;
            default:
                return Shape.values()[path.ordinal()];
        }
    }

    static Flavor pooledFlavor(Path path) {
        return path == Path.STRICT || path == Path.CLIENT_STRICT || path == Path.STRICT_MULTIPLEX ? Flavor.POOLED_STRICT
                : Flavor.POOLED;
    }

    static String report(Path path, long seed, int index, Script script, String difference) {
        Script shrunk = shrink(script, s -> compare(path, s).difference != null, System.nanoTime() + SHRINK_NANOS);
        String shrunkDifference = compare(path, shrunk).difference;
        return path + " diverges from Netty: seed " + seed + " (-D" + SEED_PROPERTY + "=" + seed + "), case #" + index
                + " (case seed " + script.caseSeed + ": main case " + path + " " + script.caseSeed + ")\n"
                + script.describe() + difference + "\n"
                + "---- shrunk to:\n" + shrunk.describe() + shrunkDifference;
    }

    // ------------------------------------------------------------------------------------------------------------
    // Comparison

    /** The result of one case on one path: {@code difference} is null when the servers agree. */
    static final class Outcome {
        final List<String> stock;
        final String difference;
        final int pooledFrames;
        /** On the strict path: whether the input had a frame the checks are about, and what they made of it. */
        String strictNote;

        Outcome(List<String> stock, String difference, int pooledFrames) {
            this.stock = stock;
            this.difference = difference;
            this.pooledFrames = pooledFrames;
        }

        Outcome strict(String note) {
            strictNote = note;
            return this;
        }
    }

    static Outcome compare(Path path, Script script) {
        Shape shape = shape(path, script);
        Result stock = run(shape, Flavor.NETTY, script);
        if (pooledFlavor(path) == Flavor.POOLED) {
            Result pooled = run(shape, Flavor.POOLED, script);
            return new Outcome(stock.lines, firstDifference(stock.lines, pooled.lines), pooled.pooledFrames);
        }
        Result strict = run(shape, Flavor.POOLED_STRICT, script);
        String unexpected = unexpectedExceptions(stock.lines, strict.lines);
        if (unexpected != null) {
            return new Outcome(stock.lines, unexpected, strict.pooledFrames);
        }
        int dirty = script.firstStrictRelevant();
        String full = firstDifference(stock.lines, strict.lines);
        if (dirty < 0) {
            return new Outcome(stock.lines, full == null ? null
                    : "strict server differs on an input with no frame the strict checks are about\n" + full,
                    strict.pooledFrames).strict("strict: no relevant frame");
        }
        Script prefix = script.withItems(script.items.subList(0, dirty));
        String difference = firstDifference(run(shape, Flavor.NETTY, prefix).lines,
                run(shape, Flavor.POOLED_STRICT, prefix).lines);
        return new Outcome(stock.lines, difference == null ? null
                : "strict server differs on the input before item #" + dirty + " (the first frame the strict checks"
                + " are about)\n" + difference, strict.pooledFrames)
                .strict(full == null ? "strict: relevant frame, same as Netty" : "strict: relevant frame, differs");
    }

    /** Exceptions in the strict transcript that are neither HTTP/2 exceptions nor ones Netty's server had too. */
    private static String unexpectedExceptions(List<String> stock, List<String> strict) {
        Set<String> stockTypes = new HashSet<>();
        for (String line : stock) {
            if (line.contains(NON_HTTP2)) {
                stockTypes.add(exceptionType(line));
            }
        }
        for (String line : strict) {
            if (line.contains(NON_HTTP2) && !stockTypes.contains(exceptionType(line)) && !failedOnClose(line)) {
                return "strict server: an exception other than an HTTP/2 one, which Netty's server did not have: "
                        + line + "\nstrict transcript:\n  " + String.join("\n  ", strict);
            }
        }
        return null;
    }

    /**
     * A write the application made after the strict checks closed the connection, failed by the closed channel: the
     * close is the intended divergence, and the failure reaches the writer's future, not the pipeline. (A child
     * channel of {@code Http2MultiplexHandler} that resumes reading after the close answers its requests then.)
     */
    private static boolean failedOnClose(String line) {
        return line.startsWith("WRITE_FAILED ") && exceptionType(line).endsWith("ClosedChannelException");
    }

    private static String exceptionType(String line) {
        int from = line.indexOf(NON_HTTP2) + NON_HTTP2.length();
        int to = line.indexOf(':', from);
        return line.substring(from, to < 0 ? line.length() : to);
    }

    /**
     * Null when the transcripts are the same. Differences of no meaning are left out unless
     * {@code -Dcodec.fuzz.exact=true}: {@link #normalize} says which; they are counted in {@link #COSMETIC}.
     */
    static String firstDifference(List<String> stock, List<String> pooled) {
        String exact = Differential.firstDifference(String.join("\n", stock), String.join("\n", pooled));
        if (exact == null || EXACT) {
            return exact;
        }
        String normalized = Differential.firstDifference(normalize(stock), normalize(pooled));
        if (normalized == null) {
            int first = exact.indexOf("  stock : ");
            COSMETIC.merge(exact.substring(first, exact.indexOf("\nstock transcript:")), 1, Integer::sum);
        }
        return normalized;
    }

    static final boolean EXACT = Boolean.getBoolean("codec.fuzz.exact");
    /** The cosmetic differences seen (first differing lines), with how often. */
    static final Map<String, Integer> COSMETIC = new ConcurrentHashMap<>();

    /**
     * Two known differences of no meaning: the class of the stackless exceptions the flood limits throw (Netty's is
     * package-private, so the pooled limits have their own, with the same error, message and hint), and a
     * {@code ByteBuf}'s {@code toString()} inside an exception message (Netty's HPACK decoder puts the buffer it was
     * given into "decode only works with an entire header block!": the buffer's class and indexes differ between the
     * readers, and in Netty's own reader with the leak detection level and the cumulation).
     */
    static String normalize(List<String> lines) {
        StringBuilder out = new StringBuilder();
        for (String line : lines) {
            line = line.replaceAll("[\\w.]+\\$(Stackless\\w*Exception)", "$1");
            int at;
            while ((at = byteBufToString(line)) >= 0) {
                int depth = 0;
                int end = line.indexOf('(', at);
                for (; end < line.length(); end++) {
                    char c = line.charAt(end);
                    if (c == '(') {
                        depth++;
                    } else if (c == ')' && --depth == 0) {
                        break;
                    }
                }
                line = line.substring(0, at) + "<ByteBuf>" + line.substring(Math.min(line.length(), end + 1));
            }
            out.append(line).append('\n');
        }
        return out.toString();
    }

    private static final Pattern BYTE_BUF_TO_STRING = Pattern.compile("\\w*ByteBuf\\(");

    private static int byteBufToString(String line) {
        Matcher m = BYTE_BUF_TO_STRING.matcher(line);
        return m.find() ? m.start() : -1;
    }

    // ------------------------------------------------------------------------------------------------------------
    // Shrinking

    interface Failing {
        boolean test(Script script);
    }

    /** Fewer items, a whole delivery, default options and a passive consumer, as long as the failure remains. */
    static Script shrink(Script script, Failing failing, long deadline) {
        Script current = script;
        Script whole = current.withDelivery(Differential.WHOLE, "whole");
        if (failing.test(whole)) {
            current = whole;
        }
        current = dropItems(current, failing, deadline);
        Script passive = current.withBehaviour(current.behaviour.passive());
        if (failing.test(passive)) {
            current = passive;
        }
        Script defaults = current.withOptions(new Options());
        if (failing.test(defaults)) {
            current = defaults;
        }
        Script heap = current.withDirect(false);
        if (failing.test(heap)) {
            current = heap;
        }
        return dropItems(current, failing, deadline);
    }

    /** Drops frames (a HEADERS frame with its CONTINUATIONs as one), many at a time first, then one by one. */
    private static Script dropItems(Script script, Failing failing, long deadline) {
        Script current = script;
        boolean progress = true;
        while (progress && System.nanoTime() - deadline < 0) {
            progress = false;
            // Group starts: every item but the preface (item 0) and the CONTINUATIONs that go with a HEADERS frame.
            List<Integer> starts = new ArrayList<>();
            for (int i = 1; i < current.items.size(); i++) {
                if (!current.items.get(i).text.startsWith("  ")) {
                    starts.add(i);
                }
            }
            starts.add(current.items.size());
            int groups = starts.size() - 1;
            for (int size = Math.max(1, groups / 2); size >= 1 && !progress; size /= 2) {
                for (int from = 0; from + size <= groups && System.nanoTime() - deadline < 0; from += size) {
                    List<Item> fewer = new ArrayList<>(current.items);
                    fewer.subList(starts.get(from), starts.get(from + size)).clear();
                    Script candidate = current.withItems(fewer);
                    if (failing.test(candidate)) {
                        current = candidate;
                        progress = true;
                        break;
                    }
                }
            }
        }
        return current;
    }

    // ------------------------------------------------------------------------------------------------------------
    // Running one server

    /** A transcript: every frame, event and exception fired, listener call, and frame written back, in order. */
    static final class Result {
        final List<String> lines;
        final int pooledFrames;

        Result(List<String> lines, int pooledFrames) {
            this.lines = lines;
            this.pooledFrames = pooledFrames;
        }
    }

    /**
     * Runs the script through a new server. With {@link Behaviour#twin}, a pooled server runs alongside a twin on the
     * same thread, each chunk read by one then the other, so that they share the thread's frame pools while frames
     * are kept, released and reused; the twin's transcript must be the same.
     */
    static Result run(Shape shape, Flavor flavor, Script script) {
        boolean twin = flavor != Flavor.NETTY && script.behaviour.twin;
        List<Server> servers = new ArrayList<>();
        try {
            servers.add(Server.create(shape, flavor, script));
            if (twin) {
                servers.add(Server.create(shape, flavor, script));
            }
            for (Server server : servers) {
                server.start();
            }
            List<Object> steps = script.steps();
            for (int i = 0; i < steps.size(); i++) {
                for (Server server : servers) {
                    server.step(steps, i);
                }
            }
            for (Server server : servers) {
                server.end();
            }
            for (Server server : servers) {
                server.close();
            }
        } finally {
            for (Server server : servers) {
                server.cleanUp();
            }
        }
        List<String> lines = servers.get(0).lines;
        if (twin) {
            String twinDifference = firstDifference(lines, servers.get(1).lines);
            if (twinDifference != null) {
                lines = new ArrayList<>(lines);
                lines.add("TWIN SERVER DIFFERS: " + twinDifference);
            }
        }
        return new Result(lines, servers.get(0).pooledFrames());
    }

    /**
     * A connection's channel; a child of a server channel if {@code accepted}, as a server's connections are: Netty's
     * {@code Http2MultiplexHandler} takes a channel without such a parent for a client's, and then stream 1 for the
     * stream of an h2c upgrade.
     */
    private static EmbeddedChannel newChannel(boolean accepted) {
        EmbeddedChannel channel = accepted
                ? new EmbeddedChannel(new LocalServerChannel(), DefaultChannelId.newInstance(), true, false)
                : new EmbeddedChannel();
        channel.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        // The event loop's clock moves only when the server closes the channel: a graceful shutdown's timeout must
        // not fire, or not, depending on how fast the machine is.
        channel.freezeTime();
        return channel;
    }

    /** One server channel, driven step by step. */
    abstract static class Server {
        final Script script;
        final EmbeddedChannel channel;
        final Outbound outbound = new Outbound();
        List<String> lines = new ArrayList<>();
        private boolean closedNoted;

        Server(Script script) {
            this(script, false);
        }

        Server(Script script, boolean accepted) {
            channel = newChannel(accepted);
            this.script = script;
            outbound.clientPreface = script.client;
        }

        static Server create(Shape shape, Flavor flavor, Script script) {
            switch (shape) {
                case HANDLER:
                    return new HandlerServer(flavor, script);
                case MULTIPLEX:
                    return new MultiplexServer(flavor, script);
                default:
                    return new CodecServer(flavor, shape == Shape.CODEC_KEEP, script);
            }
        }

        abstract void start();

        /** The client application's action (client paths only). */
        abstract void act(Action action);

        /**
         * One writeInbound, on a pooled buffer, or one action of the client application, unless the channel is
         * closed.
         */
        void step(List<Object> steps, int index) {
            if (!channel.isOpen()) {
                if (!closedNoted) {
                    lines.add("CLOSED before read " + (index + 1) + " of " + steps.size());
                    closedNoted = true;
                }
                return;
            }
            if (steps.get(index) instanceof Action) {
                lines.add("CLIENT " + steps.get(index));
                act((Action) steps.get(index));
                channel.runPendingTasks();
                outbound.drain(channel, lines);
                return;
            }
            byte[] read = (byte[]) steps.get(index);
            if (read.length == 0) {
                return;
            }
            ByteBuf buf = script.direct ? PooledByteBufAllocator.DEFAULT.directBuffer(read.length)
                    : PooledByteBufAllocator.DEFAULT.heapBuffer(read.length);
            buf.writeBytes(read);
            try {
                channel.writeInbound(buf);
            } catch (Throwable t) {
                lines.add("THROWN " + describe(t));
            }
            channel.runPendingTasks();
            outbound.drain(channel, lines);
        }

        /** The input is over: what the channel is, and what the application kept, rendered and released. */
        void end() {
            lines.add("END " + state(channel));
        }

        /** The server closes the channel, and lets a graceful shutdown time out. */
        void close() {
            // Through the pipeline: EmbeddedChannel.close() would cancel the graceful shutdown's timeout.
            ChannelFuture closed = channel.pipeline().close();
            channel.runPendingTasks();
            outbound.drain(channel, lines);
            channel.advanceTimeBy(200, TimeUnit.SECONDS);
            channel.runScheduledPendingTasks();
            channel.runPendingTasks();
            outbound.drain(channel, lines);
            lines.add("CLOSED " + state(channel) + " closeFuture="
                    + (closed.isDone() ? closed.isSuccess() : "pending"));
            if (channel.isOpen()) {
                // Never closed by the handler: the transport closes it, so that the handler lets go of its input.
                channel.unsafe().close(channel.voidPromise());
                channel.runPendingTasks();
                outbound.drain(channel, lines);
                lines.add("FORCE-CLOSED " + state(channel));
            }
            outbound.finish(lines);
            try {
                channel.finishAndReleaseAll();
            } catch (Throwable t) {
                lines.add("FINISH_THROWN " + describe(t));
            }
        }

        /** Whatever happened: nothing left unreleased. */
        void cleanUp() {
            channel.finishAndReleaseAll();
        }

        int pooledFrames() {
            return 0;
        }
    }

    static final class CodecServer extends Server {
        private final Http2FrameCodec codec;
        private final FrameConsumer consumer;
        private final boolean keep;

        CodecServer(Flavor flavor, boolean keep, Script script) {
            super(script);
            this.keep = keep;
            codec = buildCodec(flavor, script.options, script.client);
            consumer = new FrameConsumer(script.behaviour, keep);
            lines = consumer.lines;
        }

        @Override
        void act(Action action) {
            consumer.act(channel.pipeline().context(consumer), action);
        }

        @Override
        void start() {
            channel.pipeline().addLast(codec, consumer);
            channel.runPendingTasks();
            outbound.drain(channel, lines);
        }

        @Override
        void end() {
            super.end();
            if (keep && !script.behaviour.releaseAfterClose) {
                consumer.releaseKept("LATER");
            }
        }

        @Override
        void close() {
            super.close();
            if (keep) {
                consumer.releaseKept("LATER_AFTER_CLOSE");
            }
        }

        @Override
        void cleanUp() {
            try {
                consumer.releaseKeptQuietly();
            } finally {
                super.cleanUp();
            }
        }

        @Override
        int pooledFrames() {
            return consumer.pooledFrames;
        }
    }

    static final class HandlerServer extends Server {
        private final Http2ConnectionHandler handler;
        private final DelegatingListener listener = new DelegatingListener();
        private final Tail tail = new Tail();
        private ListenerTranscript transcript;

        HandlerServer(Flavor flavor, Script script) {
            super(script);
            handler = buildHandler(flavor, script.options, listener, script.client);
        }

        /** The client application's action, through the handler's encoder (the id: the next the client may use). */
        @Override
        void act(Action action) {
            ChannelHandlerContext ctx = channel.pipeline().context(handler);
            try {
                switch (action.kind) {
                    case OPEN: {
                        int id = handler.connection().local().incrementAndGetNextStreamId();
                        handler.encoder().writeHeaders(ctx, id, action.headers, 0, action.endStream, ctx.newPromise())
                                .addListener(failures(lines, "CLIENT_HEADERS"));
                        lines.add("CLIENT_OPENED s=" + id);
                        if (action.body >= 0) {
                            ByteBuf body = ctx.alloc().buffer().writeBytes(Frames.pattern(action.body, action.body));
                            handler.encoder().writeData(ctx, id, body, 0, action.bodyEnd, ctx.newPromise())
                                    .addListener(failures(lines, "CLIENT_DATA"));
                        }
                        break;
                    }
                    case RESET:
                        handler.resetStream(ctx, action.stream, Http2Error.CANCEL.code(), ctx.newPromise())
                                .addListener(failures(lines, "CLIENT_RST_STREAM"));
                        break;
                    default:
                        handler.goAway(ctx, handler.connection().remote().lastStreamCreated(),
                                Http2Error.NO_ERROR.code(), Unpooled.EMPTY_BUFFER, ctx.newPromise())
                                .addListener(failures(lines, "CLIENT_GOAWAY"));
                        break;
                }
                ctx.flush();
            } catch (RuntimeException e) {
                lines.add("CLIENT_FAILED " + describe(e));
            }
        }

        @Override
        void start() {
            channel.pipeline().addLast(handler, tail);
            // The transcript checks that the listener is called with the handler's context, which exists only now.
            transcript = new ListenerTranscript(channel.pipeline().context(handler), script.behaviour.style);
            Behaviour b = script.behaviour;
            if (b.faultPrefix != null) {
                String prefix = b.faultPrefix;
                switch (b.faultKind) {
                    case 0:
                        transcript.failOn(prefix, () -> Http2Exception.streamError(b.faultStream,
                                Http2Error.CANCEL, "listener stream failure"));
                        break;
                    case 1:
                        transcript.failOn(prefix, () -> Http2Exception.connectionError(Http2Error.INTERNAL_ERROR,
                                "listener connection failure"));
                        break;
                    default:
                        transcript.failOn(prefix, () -> new ListenerFailure("listener failure on " + prefix));
                        break;
                }
            }
            lines = transcript.lines();
            tail.lines = lines;
            listener.target = new Responder(transcript, handler, b, lines);
            channel.runPendingTasks();
            outbound.drain(channel, lines);
        }

        @Override
        void end() {
            super.end();
            transcript.finish();
        }

        @Override
        void cleanUp() {
            try {
                if (transcript != null) {
                    transcript.releaseRetained();
                }
            } finally {
                super.cleanUp();
            }
        }
    }

    private static String state(EmbeddedChannel channel) {
        return "open=" + channel.isOpen() + " active=" + channel.isActive();
    }

    // ------------------------------------------------------------------------------------------------------------
    // Builders

    static Http2FrameCodec buildCodec(Flavor flavor, Options options, boolean client) {
        Http2FrameCodecBuilder builder;
        if (flavor == Flavor.NETTY) {
            builder = client ? Http2FrameCodecBuilder.forClient() : Http2FrameCodecBuilder.forServer();
        } else {
            PooledHttp2FrameCodecBuilder pooled = client ? PooledHttp2FrameCodecBuilder.forClient()
                    : PooledHttp2FrameCodecBuilder.forServer();
            if (flavor == Flavor.POOLED) {
                pooled.strictStreamStates(false);
            }
            if (options.paranoid != null) {
                pooled.paranoid(options.paranoid);
            }
            if (options.reuseFrames != null) {
                pooled.reuseFrames(options.reuseFrames);
            }
            builder = pooled;
        }
        if (options.settings != null) {
            builder.initialSettings(new Http2Settings().copyFrom(options.settings));
        }
        if (options.validateHeaders != null) {
            builder.validateHeaders(options.validateHeaders);
        }
        if (options.maxEmptyData != null) {
            builder.decoderEnforceMaxConsecutiveEmptyDataFrames(options.maxEmptyData);
        }
        if (options.maxDecodedRst != null) {
            builder.decoderEnforceMaxRstFramesPerWindow(options.maxDecodedRst, 30);
        }
        if (options.maxEncodedRst != null) {
            builder.encoderEnforceMaxRstFramesPerWindow(options.maxEncodedRst, 30);
        }
        if (options.maxSmallContinuations != null) {
            builder.decoderEnforceMaxSmallContinuationFrames(options.maxSmallContinuations);
        }
        if (options.maxQueuedControlFrames != null) {
            builder.encoderEnforceMaxQueuedControlFrames(options.maxQueuedControlFrames);
        }
        if (options.autoAckPing != null) {
            builder.autoAckPingFrame(options.autoAckPing);
        }
        if (options.autoAckSettings != null) {
            builder.autoAckSettingsFrame(options.autoAckSettings);
        }
        if (options.gracefulShutdownMillis != null) {
            builder.gracefulShutdownTimeoutMillis(options.gracefulShutdownMillis);
        }
        if (options.decoupleCloseAndGoAway != null) {
            builder.decoupleCloseAndGoAway(options.decoupleCloseAndGoAway);
        }
        return builder.build();
    }

    /** Netty's handler builder has fewer public options than its codec builder: only those are used here. */
    static Http2ConnectionHandler buildHandler(Flavor flavor, Options options, Http2FrameListener listener,
                                               boolean client) {
        Http2Settings settings = options.settings == null ? null : new Http2Settings().copyFrom(options.settings);
        if (flavor == Flavor.NETTY) {
            Http2ConnectionHandlerBuilder builder = new Http2ConnectionHandlerBuilder().server(!client)
                    .frameListener(listener);
            if (settings != null) {
                builder.initialSettings(settings);
            }
            if (options.validateHeaders != null) {
                builder.validateHeaders(options.validateHeaders);
            }
            if (options.maxEmptyData != null) {
                builder.decoderEnforceMaxConsecutiveEmptyDataFrames(options.maxEmptyData);
            }
            if (options.maxDecodedRst != null) {
                builder.decoderEnforceMaxRstFramesPerWindow(options.maxDecodedRst, 30);
            }
            if (options.maxEncodedRst != null) {
                builder.encoderEnforceMaxRstFramesPerWindow(options.maxEncodedRst, 30);
            }
            if (options.gracefulShutdownMillis != null) {
                builder.gracefulShutdownTimeoutMillis(options.gracefulShutdownMillis);
            }
            if (options.decoupleCloseAndGoAway != null) {
                builder.decoupleCloseAndGoAway(options.decoupleCloseAndGoAway);
            }
            return builder.build();
        }
        PooledHttp2ConnectionHandlerBuilder builder = new PooledHttp2ConnectionHandlerBuilder().server(!client);
        if (flavor == Flavor.POOLED) {
            builder.strictStreamStates(false);
        }
        builder.frameListener(listener);
        if (options.paranoid != null) {
            builder.paranoid(options.paranoid);
        }
        if (options.reuseFrames != null) {
            builder.reuseFrames(options.reuseFrames);
        }
        if (settings != null) {
            builder.initialSettings(settings);
        }
        if (options.validateHeaders != null) {
            builder.validateHeaders(options.validateHeaders);
        }
        if (options.maxEmptyData != null) {
            builder.decoderEnforceMaxConsecutiveEmptyDataFrames(options.maxEmptyData);
        }
        if (options.maxDecodedRst != null) {
            builder.decoderEnforceMaxRstFramesPerWindow(options.maxDecodedRst, 30);
        }
        if (options.maxEncodedRst != null) {
            builder.encoderEnforceMaxRstFramesPerWindow(options.maxEncodedRst, 30);
        }
        if (options.gracefulShutdownMillis != null) {
            builder.gracefulShutdownTimeoutMillis(options.gracefulShutdownMillis);
        }
        if (options.decoupleCloseAndGoAway != null) {
            builder.decoupleCloseAndGoAway(options.decoupleCloseAndGoAway);
        }
        return builder.build();
    }

    // ------------------------------------------------------------------------------------------------------------
    // Rendering

    /** Marks an exception that is not an HTTP/2 one (nor a stream exception wrapping one). */
    static final String NON_HTTP2 = "NON-HTTP2 ";

    static String describe(Throwable t) {
        StringBuilder out = new StringBuilder();
        boolean http2 = t instanceof Http2Exception
                || t instanceof Http2FrameStreamException && t.getCause() instanceof Http2Exception;
        if (!http2) {
            out.append(NON_HTTP2);
        }
        append(out, t, 0);
        return out.toString();
    }

    private static void append(StringBuilder out, Throwable t, int depth) {
        out.append(t.getClass().getName());
        if (t instanceof Http2Exception) {
            Http2Exception e = (Http2Exception) t;
            out.append('[').append(e.error());
            if (Http2Exception.isStreamError(e)) {
                out.append(" stream ").append(Http2Exception.streamId(e));
            } else {
                out.append(" connection hint=").append(e.shutdownHint());
            }
            out.append(']');
        } else if (t instanceof Http2FrameStreamException) {
            Http2FrameStreamException e = (Http2FrameStreamException) t;
            out.append('[').append(e.error()).append(" stream ").append(e.stream().id()).append(']');
        }
        out.append(": ").append(t.getMessage());
        if (t.getCause() != null && t.getCause() != t && depth < 3) {
            out.append(" <- ");
            append(out, t.getCause(), depth + 1);
        }
    }

    /** {@link PooledHttp2FrameCodecTest#render}, and the state of the frame's stream. */
    static String renderFrame(Object msg) {
        String frame = PooledHttp2FrameCodecTest.render(msg);
        if (msg instanceof Http2PushPromiseFrame) {
            Http2PushPromiseFrame p = (Http2PushPromiseFrame) msg;
            Http2FrameStream push = p.pushStream();
            frame += " promised=" + p.promisedStreamId() + " headers=" + ListenerTranscript.render(p.http2Headers())
                    + " pad=" + p.padding() + " push=" + (push == null ? "none" : push.id() + " " + push.state());
        }
        if (msg instanceof Http2StreamFrame && ((Http2StreamFrame) msg).stream() != null) {
            return frame + " (" + ((Http2StreamFrame) msg).stream().state() + ")";
        }
        return frame;
    }

    static String renderEvent(Object evt) {
        if (evt instanceof Http2FrameStreamEvent) {
            Http2FrameStreamEvent e = (Http2FrameStreamEvent) evt;
            return e.type() + " stream=" + e.stream().id() + " " + e.stream().state();
        }
        return evt.getClass().getSimpleName();
    }

    /** The bytes the server wrote, cut into frames and rendered one line each; a partial frame waits for more. */
    static final class Outbound {
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
        static final byte[] PREFACE = ByteBufUtil.getBytes(Http2CodecUtil.connectionPrefaceBuf());
        /** A client writes the connection preface string first, which is not a frame. */
        boolean clientPreface;

        void drain(EmbeddedChannel channel, List<String> lines) {
            for (Object out; (out = channel.readOutbound()) != null; ) {
                try {
                    if (out instanceof ByteBuf) {
                        pending.writeBytes(ByteBufUtil.getBytes((ByteBuf) out));
                    } else {
                        lines.add("OUT_OBJECT " + out.getClass().getName());
                    }
                } finally {
                    ReferenceCountUtil.release(out);
                }
            }
            byte[] bytes = pending.toByteArray();
            int at = 0;
            if (clientPreface && bytes.length >= PREFACE.length) {
                clientPreface = false;
                at = PREFACE.length;
                lines.add(Arrays.equals(PREFACE, Arrays.copyOf(bytes, at)) ? "OUT PREFACE"
                        : "OUT NOT_A_PREFACE " + ByteBufUtil.hexDump(bytes, 0, at));
            }
            while (bytes.length - at >= 9) {
                int length = (bytes[at] & 0xff) << 16 | (bytes[at + 1] & 0xff) << 8 | bytes[at + 2] & 0xff;
                if (bytes.length - at < 9 + length) {
                    break;
                }
                lines.add("OUT " + renderWireFrame(bytes, at, length));
                at += 9 + length;
            }
            pending.reset();
            pending.write(bytes, at, bytes.length - at);
        }

        void finish(List<String> lines) {
            if (pending.size() > 0) {
                lines.add("OUT_PARTIAL " + ByteBufUtil.hexDump(pending.toByteArray()));
                pending.reset();
            }
        }
    }

    static String renderWireFrame(byte[] bytes, int at, int length) {
        int type = bytes[at + 3] & 0xff;
        int flags = bytes[at + 4] & 0xff;
        int stream = readInt(bytes, at + 5) & 0x7fffffff;
        int p = at + 9;
        byte[] payload = Arrays.copyOfRange(bytes, p, p + length);
        switch (type) {
            case Frames.SETTINGS: {
                if ((flags & Frames.ACK) != 0) {
                    return "SETTINGS_ACK s=" + stream + " len=" + length;
                }
                StringBuilder out = new StringBuilder("SETTINGS s=" + stream + " {");
                for (int i = 0; i + 6 <= length; i += 6) {
                    out.append(i == 0 ? "" : ", ").append((payload[i] & 0xff) << 8 | payload[i + 1] & 0xff)
                            .append('=').append(readInt(payload, i + 2) & 0xffffffffL);
                }
                return out.append('}').toString();
            }
            case Frames.GOAWAY:
                return "GOAWAY last=" + (readInt(payload, 0) & 0x7fffffff) + " code=" + error(readInt(payload, 4))
                        + " debug=\"" + new String(payload, 8, length - 8, StandardCharsets.UTF_8) + "\"";
            case Frames.RST_STREAM:
                return "RST_STREAM s=" + stream + " code=" + error(readInt(payload, 0));
            case Frames.WINDOW_UPDATE:
                return "WINDOW_UPDATE s=" + stream + " inc=" + readInt(payload, 0);
            case Frames.PING:
                return "PING ack=" + ((flags & Frames.ACK) != 0) + " " + ByteBufUtil.hexDump(payload);
            case Frames.HEADERS:
                return "HEADERS s=" + stream + " flags=" + flags + " block=" + ByteBufUtil.hexDump(payload);
            case Frames.DATA:
                return "DATA s=" + stream + " flags=" + flags + " data=" + ByteBufUtil.hexDump(payload);
            default:
                return "type=" + type + " s=" + stream + " flags=" + flags + " " + ByteBufUtil.hexDump(payload);
        }
    }

    private static String error(int code) {
        Http2Error error = Http2Error.valueOf(code & 0xffffffffL);
        return error == null ? Long.toString(code & 0xffffffffL) : error.name();
    }

    private static int readInt(byte[] bytes, int at) {
        return (bytes[at] & 0xff) << 24 | (bytes[at + 1] & 0xff) << 16 | (bytes[at + 2] & 0xff) << 8
                | bytes[at + 3] & 0xff;
    }

    // ------------------------------------------------------------------------------------------------------------
    // The server's application: a frame consumer (codec paths) or a listener (handler path)

    /** Writes down a failed write, which both servers must fail alike. */
    static ChannelFutureListener failures(List<String> lines, String what) {
        return future -> {
            if (!future.isSuccess()) {
                lines.add("WRITE_FAILED " + what + " " + describe(future.cause()));
            }
        };
    }

    static Http2Headers response() {
        return new DefaultHttp2Headers().status("200").add("x-r", "1");
    }

    /**
     * Renders every frame, event and exception the codec fires; returns DATA credit; answers, resets, or sends GOAWAY
     * as the case's behaviour says (its own random, so both servers get the same answers to the same frames). Keeps
     * every frame until told to release them when {@code keep}.
     */
    static final class FrameConsumer extends Http2ChannelDuplexHandler {
        final List<String> lines = new ArrayList<>();
        final List<Object> kept = new ArrayList<>();
        /** The streams seen or opened, by id: what a client application resets through. */
        final Map<Integer, Http2FrameStream> streams = new TreeMap<>();
        final Behaviour behaviour;
        final Random random;
        final boolean keep;
        int pooledFrames;

        FrameConsumer(Behaviour behaviour, boolean keep) {
            this.behaviour = behaviour;
            this.random = new Random(behaviour.seed);
            this.keep = keep;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                lines.add("READ " + renderFrame(msg));
                if (msg instanceof PooledHttp2Frame) {
                    pooledFrames++;
                }
                remember(msg);
                react(ctx, msg);
            } catch (RuntimeException e) {
                lines.add("CONSUMER_FAILED " + describe(e));
            } finally {
                if (keep) {
                    keep(msg);
                } else {
                    ReferenceCountUtil.release(msg);
                }
            }
        }

        /**
         * Keeps the frame, or a retained duplicate or a copy of it (then releases the frame), and releases the
         * oldest kept one when more than the case's window are kept (0: keeps all until told).
         */
        private void keep(Object msg) {
            Object held = msg;
            if (msg instanceof ByteBufHolder && behaviour.holdKind != 0) {
                try {
                    held = behaviour.holdKind == 1 ? ((ByteBufHolder) msg).retainedDuplicate()
                            : ((ByteBufHolder) msg).copy();
                    lines.add((behaviour.holdKind == 1 ? "DUPLICATE " : "COPY ") + renderFrame(held));
                } catch (RuntimeException e) {
                    lines.add("HOLD_FAILED " + describe(e));
                    held = msg;
                }
                if (held != msg) {
                    ReferenceCountUtil.release(msg);
                }
            }
            kept.add(held);
            if (behaviour.keepWindow > 0 && kept.size() > behaviour.keepWindow) {
                Object oldest = kept.remove(0);
                lines.add("LATER " + renderFrame(oldest));
                ReferenceCountUtil.release(oldest);
            }
        }

        private void react(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2DataFrame) {
                Http2DataFrame data = (Http2DataFrame) msg;
                int credit = data.initialFlowControlledBytes();
                if (behaviour.returnCredit && credit > 0) {
                    write(ctx, new DefaultHttp2WindowUpdateFrame(credit).stream(data.stream()),
                            "WINDOW_UPDATE(" + credit + ")");
                }
                if (data.isEndStream()) {
                    endOfStream(ctx, data.stream());
                }
            } else if (msg instanceof Http2HeadersFrame) {
                Http2HeadersFrame headers = (Http2HeadersFrame) msg;
                if (headers.isEndStream()) {
                    endOfStream(ctx, headers.stream());
                } else if (random.nextInt(100) < behaviour.resetPercent) {
                    write(ctx, new DefaultHttp2ResetFrame(Http2Error.CANCEL).stream(headers.stream()), "RST_STREAM");
                }
            }
            if (behaviour.goAwayPermille > 0 && random.nextInt(1000) < behaviour.goAwayPermille) {
                write(ctx, new DefaultHttp2GoAwayFrame(Http2Error.NO_ERROR), "GOAWAY");
            }
        }

        private void remember(Object msg) {
            if (msg instanceof Http2StreamFrame && ((Http2StreamFrame) msg).stream() != null) {
                Http2FrameStream stream = ((Http2StreamFrame) msg).stream();
                streams.put(stream.id(), stream);
            }
            if (msg instanceof Http2PushPromiseFrame && ((Http2PushPromiseFrame) msg).pushStream() != null) {
                Http2FrameStream stream = ((Http2PushPromiseFrame) msg).pushStream();
                streams.put(stream.id(), stream);
            }
        }

        /**
         * The client application's action, through the frame codec: a request opens a stream of {@link #newStream}
         * (its id assigned when its HEADERS are written).
         */
        void act(ChannelHandlerContext ctx, Action action) {
            switch (action.kind) {
                case OPEN: {
                    Http2FrameStream stream = newStream();
                    write(ctx, new DefaultHttp2HeadersFrame(action.headers, action.endStream).stream(stream),
                            "CLIENT_HEADERS");
                    lines.add("CLIENT_OPENED s=" + stream.id() + " " + stream.state());
                    streams.put(stream.id(), stream);
                    if (action.body >= 0) {
                        ByteBuf body = ctx.alloc().buffer().writeBytes(Frames.pattern(action.body, action.body));
                        write(ctx, new DefaultHttp2DataFrame(body, action.bodyEnd).stream(stream), "CLIENT_DATA");
                    }
                    break;
                }
                case RESET: {
                    Http2FrameStream stream = streams.get(action.stream);
                    if (stream == null) {
                        lines.add("CLIENT_RESET unknown stream " + action.stream);
                    } else {
                        write(ctx, new DefaultHttp2ResetFrame(Http2Error.CANCEL).stream(stream), "CLIENT_RST_STREAM");
                    }
                    break;
                }
                default:
                    write(ctx, new DefaultHttp2GoAwayFrame(Http2Error.NO_ERROR), "CLIENT_GOAWAY");
                    break;
            }
        }

        private void endOfStream(ChannelHandlerContext ctx, Http2FrameStream stream) {
            if (random.nextInt(100) >= behaviour.respondPercent) {
                return;
            }
            if (random.nextBoolean()) {
                write(ctx, new DefaultHttp2HeadersFrame(response(), true).stream(stream), "HEADERS(eos)");
            } else {
                write(ctx, new DefaultHttp2HeadersFrame(response(), false).stream(stream), "HEADERS");
                ByteBuf body = ctx.alloc().buffer().writeBytes(RawFrames.bytes("ok"));
                write(ctx, new DefaultHttp2DataFrame(body, true).stream(stream), "DATA(eos)");
            }
        }

        private void write(ChannelHandlerContext ctx, Object frame, String what) {
            ctx.writeAndFlush(frame).addListener(failures(lines, what));
        }

        /** Renders each kept frame again, now that the codec is done with it, and releases it. */
        void releaseKept(String label) {
            for (Object msg : kept) {
                lines.add(label + " " + renderFrame(msg));
                ReferenceCountUtil.release(msg);
            }
            kept.clear();
        }

        void releaseKeptQuietly() {
            for (Object msg : kept) {
                ReferenceCountUtil.safeRelease(msg);
            }
            kept.clear();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            lines.add("EXCEPTION " + describe(cause));
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            lines.add("EVENT " + renderEvent(evt));
            ReferenceCountUtil.release(evt);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            lines.add("INACTIVE");
        }
    }

    /** After the connection handler: records what passes it (nothing should, but exceptions it does not handle). */
    static final class Tail extends ChannelInboundHandlerAdapter {
        List<String> lines = new ArrayList<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            lines.add("TAIL_READ " + msg.getClass().getName());
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            lines.add("TAIL_EXCEPTION " + describe(cause));
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            lines.add("EVENT " + renderEvent(evt));
            ReferenceCountUtil.release(evt);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            lines.add("INACTIVE");
        }
    }

    /** The listener given to the builders; the transcript it forwards to is made once the handler has a context. */
    static class DelegatingListener implements Http2FrameListener {
        Http2FrameListener target;

        @Override
        public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean eos)
                throws Http2Exception {
            return target.onDataRead(ctx, streamId, data, padding, eos);
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                  boolean eos) throws Http2Exception {
            target.onHeadersRead(ctx, streamId, headers, padding, eos);
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int dependency,
                                  short weight, boolean exclusive, int padding, boolean eos) throws Http2Exception {
            target.onHeadersRead(ctx, streamId, headers, dependency, weight, exclusive, padding, eos);
        }

        @Override
        public void onPriorityRead(ChannelHandlerContext ctx, int streamId, int dependency, short weight,
                                   boolean exclusive) throws Http2Exception {
            target.onPriorityRead(ctx, streamId, dependency, weight, exclusive);
        }

        @Override
        public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) throws Http2Exception {
            target.onRstStreamRead(ctx, streamId, errorCode);
        }

        @Override
        public void onSettingsAckRead(ChannelHandlerContext ctx) throws Http2Exception {
            target.onSettingsAckRead(ctx);
        }

        @Override
        public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) throws Http2Exception {
            target.onSettingsRead(ctx, settings);
        }

        @Override
        public void onPingRead(ChannelHandlerContext ctx, long data) throws Http2Exception {
            target.onPingRead(ctx, data);
        }

        @Override
        public void onPingAckRead(ChannelHandlerContext ctx, long data) throws Http2Exception {
            target.onPingAckRead(ctx, data);
        }

        @Override
        public void onPushPromiseRead(ChannelHandlerContext ctx, int streamId, int promisedStreamId,
                                      Http2Headers headers, int padding) throws Http2Exception {
            target.onPushPromiseRead(ctx, streamId, promisedStreamId, headers, padding);
        }

        @Override
        public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData)
                throws Http2Exception {
            target.onGoAwayRead(ctx, lastStreamId, errorCode, debugData);
        }

        @Override
        public void onWindowUpdateRead(ChannelHandlerContext ctx, int streamId, int increment)
                throws Http2Exception {
            target.onWindowUpdateRead(ctx, streamId, increment);
        }

        @Override
        public void onUnknownFrame(ChannelHandlerContext ctx, byte frameType, int streamId, Http2Flags flags,
                                   ByteBuf payload) throws Http2Exception {
            target.onUnknownFrame(ctx, frameType, streamId, flags, payload);
        }
    }

    /** The transcript, then the same answers as {@link FrameConsumer}, written through the handler's encoder. */
    static final class Responder extends DelegatingListener {
        private final Http2ConnectionHandler handler;
        private final Behaviour behaviour;
        private final Random random;
        private final List<String> lines;

        Responder(ListenerTranscript transcript, Http2ConnectionHandler handler, Behaviour behaviour,
                  List<String> lines) {
            this.target = transcript;
            this.handler = handler;
            this.behaviour = behaviour;
            this.random = new Random(behaviour.seed);
            this.lines = lines;
        }

        @Override
        public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean eos)
                throws Http2Exception {
            int processed = target.onDataRead(ctx, streamId, data, padding, eos);
            if (eos) {
                endOfStream(ctx, streamId);
            }
            maybeGoAway(ctx);
            return processed;
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                  boolean eos) throws Http2Exception {
            target.onHeadersRead(ctx, streamId, headers, padding, eos);
            headers(ctx, streamId, eos);
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int dependency,
                                  short weight, boolean exclusive, int padding, boolean eos) throws Http2Exception {
            target.onHeadersRead(ctx, streamId, headers, dependency, weight, exclusive, padding, eos);
            headers(ctx, streamId, eos);
        }

        private void headers(ChannelHandlerContext ctx, int streamId, boolean eos) {
            if (eos) {
                endOfStream(ctx, streamId);
            } else if (random.nextInt(100) < behaviour.resetPercent) {
                try {
                    handler.resetStream(ctx, streamId, Http2Error.CANCEL.code(), ctx.newPromise())
                            .addListener(failures(lines, "RST_STREAM"));
                    ctx.flush();
                } catch (RuntimeException e) {
                    lines.add("RESPONDER_FAILED " + describe(e));
                }
            }
            maybeGoAway(ctx);
        }

        private void endOfStream(ChannelHandlerContext ctx, int streamId) {
            if (random.nextInt(100) >= behaviour.respondPercent) {
                return;
            }
            try {
                if (random.nextBoolean()) {
                    handler.encoder().writeHeaders(ctx, streamId, response(), 0, true, ctx.newPromise())
                            .addListener(failures(lines, "HEADERS(eos)"));
                } else {
                    handler.encoder().writeHeaders(ctx, streamId, response(), 0, false, ctx.newPromise())
                            .addListener(failures(lines, "HEADERS"));
                    ByteBuf body = ctx.alloc().buffer().writeBytes(RawFrames.bytes("ok"));
                    handler.encoder().writeData(ctx, streamId, body, 0, true, ctx.newPromise())
                            .addListener(failures(lines, "DATA(eos)"));
                }
                ctx.flush();
            } catch (RuntimeException e) {
                lines.add("RESPONDER_FAILED " + describe(e));
            }
        }

        private void maybeGoAway(ChannelHandlerContext ctx) {
            if (behaviour.goAwayPermille > 0 && random.nextInt(1000) < behaviour.goAwayPermille) {
                try {
                    handler.goAway(ctx, handler.connection().remote().lastStreamCreated(), Http2Error.NO_ERROR.code(),
                            Unpooled.EMPTY_BUFFER, ctx.newPromise()).addListener(failures(lines, "GOAWAY"));
                    ctx.flush();
                } catch (RuntimeException e) {
                    lines.add("RESPONDER_FAILED " + describe(e));
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // The case: client bytes, server options, application behaviour, delivery

    /** One client frame (or part of one), with what the strict checks need to know about it. */
    static final class Item {
        static final char OTHER = 'O';
        static final char HEADERS_FRAME = 'H';
        static final char DATA_FRAME = 'D';
        /** PUSH_PROMISE; its {@code stream} is the promised id. */
        static final char PUSH_FRAME = 'P';

        final byte[] bytes;
        final String text;
        final char kind;
        final int stream;
        final boolean endStream;
        /** The frame boundaries after this item are not what the items say (mutated length or bytes). */
        final boolean desync;
        /** Client paths: not bytes but what the client application does at this point of the input. */
        final Action action;

        Item(byte[] bytes, String text, char kind, int stream, boolean endStream, boolean desync) {
            this(bytes, text, kind, stream, endStream, desync, null);
        }

        Item(byte[] bytes, String text, char kind, int stream, boolean endStream, boolean desync, Action action) {
            this.bytes = bytes;
            this.text = text;
            this.kind = kind;
            this.stream = stream;
            this.endStream = endStream;
            this.desync = desync;
            this.action = action;
        }
    }

    /**
     * What the client application does between two pieces of the server's input, the same on both clients: opens a
     * stream with a request (some with a body, some ending the stream), resets a stream, or sends GOAWAY.
     */
    static final class Action {
        enum Kind { OPEN, RESET, GOAWAY }

        final Kind kind;
        /** RESET: the stream; OPEN: the id the generator expects it to get (the client assigns it). */
        final int stream;
        final Http2Headers headers;
        final boolean endStream;
        /** OPEN: the length of the DATA frame after the request's HEADERS, -1 for none. */
        final int body;
        final boolean bodyEnd;

        Action(Kind kind, int stream, Http2Headers headers, boolean endStream, int body, boolean bodyEnd) {
            this.kind = kind;
            this.stream = stream;
            this.headers = headers;
            this.endStream = endStream;
            this.body = body;
            this.bodyEnd = bodyEnd;
        }

        @Override
        public String toString() {
            switch (kind) {
                case OPEN:
                    return "OPEN s=" + stream + (endStream ? " END_STREAM " : " ") + Generator.label(headers)
                            + (body < 0 ? "" : " then DATA len=" + body + (bodyEnd ? " END_STREAM" : ""));
                case RESET:
                    return "RESET s=" + stream;
                default:
                    return "GOAWAY";
            }
        }
    }

    /** Options given to both builders (paranoid and reuseFrames: the pooled one only). Null: the builder's default. */
    static final class Options {
        Http2Settings settings;
        Boolean validateHeaders;
        Integer maxEmptyData;
        Integer maxDecodedRst;
        Integer maxEncodedRst;
        Integer maxSmallContinuations;
        Integer maxQueuedControlFrames;
        Boolean autoAckPing;
        Boolean autoAckSettings;
        Long gracefulShutdownMillis;
        Boolean decoupleCloseAndGoAway;
        Boolean paranoid;
        Boolean reuseFrames;

        static Options random(Random r) {
            Options o = new Options();
            if (r.nextInt(10) < 4) {
                if (r.nextInt(6) == 0) {
                    o.paranoid = true;
                }
                if (r.nextInt(6) == 0) {
                    o.reuseFrames = false;
                }
                return o;
            }
            if (r.nextInt(3) == 0) {
                Http2Settings s = Http2Settings.defaultSettings();
                if (r.nextInt(3) == 0) {
                    s.maxConcurrentStreams(1 + r.nextInt(5));
                }
                if (r.nextInt(3) == 0) {
                    s.maxHeaderListSize(100 + r.nextInt(2000));
                }
                if (r.nextInt(3) == 0) {
                    s.initialWindowSize(16384 + r.nextInt(100_000));
                }
                if (r.nextInt(3) == 0) {
                    s.maxFrameSize(16384 + r.nextInt(10_000));
                }
                if (r.nextInt(12) == 0) {
                    s.headerTableSize(r.nextInt(4097));
                }
                o.settings = s;
            }
            if (r.nextInt(10) == 0) {
                o.validateHeaders = false;
            }
            if (r.nextInt(5) == 0) {
                o.maxEmptyData = r.nextInt(5);
            }
            if (r.nextInt(5) == 0) {
                o.maxDecodedRst = 1 + r.nextInt(20);
            }
            if (r.nextInt(6) == 0) {
                o.maxEncodedRst = 1 + r.nextInt(20);
            }
            if (r.nextInt(5) == 0) {
                o.maxSmallContinuations = r.nextInt(20);
            }
            if (r.nextInt(6) == 0) {
                o.maxQueuedControlFrames = 1 + r.nextInt(20);
            }
            if (r.nextInt(20) == 0) {
                o.autoAckPing = false;
            }
            if (r.nextInt(20) == 0) {
                o.autoAckSettings = false;
            }
            if (r.nextInt(6) == 0) {
                o.gracefulShutdownMillis = r.nextBoolean() ? 0L : 100L;
            }
            if (r.nextInt(10) == 0) {
                o.decoupleCloseAndGoAway = true;
            }
            if (r.nextInt(6) == 0) {
                o.paranoid = true;
            }
            if (r.nextInt(6) == 0) {
                o.reuseFrames = false;
            }
            return o;
        }

        /**
         * A client's initial settings: sometimes ENABLE_PUSH 1, sometimes 0, sometimes not sent (then the server may
         * push, RFC 9113 6.5.2).
         */
        void clientPush(Random r) {
            int roll = r.nextInt(3);
            if (roll > 0) {
                if (settings == null) {
                    settings = Http2Settings.defaultSettings();
                }
                settings.pushEnabled(roll == 1);
            }
        }

        /** Whether the client's settings allow a push (once the server acknowledged them). */
        boolean pushAllowed() {
            return settings == null || settings.pushEnabled() == null || settings.pushEnabled();
        }

        @Override
        public String toString() {
            Map<String, Object> set = new LinkedHashMap<>();
            if (settings != null) {
                // Numbered: the map's keys are chars, most of them unprintable.
                Map<Integer, Long> numbered = new TreeMap<>();
                settings.forEach((id, value) -> numbered.put((int) id, value));
                set.put("initialSettings", numbered);
            }
            set.put("validateHeaders", validateHeaders);
            set.put("maxConsecutiveEmptyData", maxEmptyData);
            set.put("decoderMaxRstPer30s", maxDecodedRst);
            set.put("encoderMaxRstPer30s", maxEncodedRst);
            set.put("maxSmallContinuations(codec)", maxSmallContinuations);
            set.put("maxQueuedControlFrames(codec)", maxQueuedControlFrames);
            set.put("autoAckPing(codec)", autoAckPing);
            set.put("autoAckSettings(codec)", autoAckSettings);
            set.put("gracefulShutdownMillis", gracefulShutdownMillis);
            set.put("decoupleCloseAndGoAway", decoupleCloseAndGoAway);
            set.put("paranoid(pooled)", paranoid);
            set.put("reuseFrames(pooled)", reuseFrames);
            set.values().removeIf(v -> v == null);
            return set.isEmpty() ? "defaults" : set.toString();
        }
    }

    /** What the server's application does; the same for both servers, decisions drawn from {@code seed}. */
    static final class Behaviour {
        long seed;
        boolean returnCredit;
        int respondPercent;
        int resetPercent;
        int goAwayPermille;
        boolean releaseAfterClose;
        /** The codec path that keeps frames: 0 keeps every frame until the input ends, N only the last N. */
        int keepWindow;
        /** What is kept of a frame holding a buffer: 0 the frame, 1 a retained duplicate, 2 a copy. */
        int holdKind;
        /** The pooled server runs alongside a twin on the same thread (see {@code run}). */
        boolean twin;
        Style style;
        String faultPrefix;
        int faultKind;
        int faultStream;
        Shape strictShape;

        static Behaviour random(Random r) {
            Behaviour b = new Behaviour();
            b.seed = r.nextLong();
            b.returnCredit = r.nextInt(10) != 0;
            b.respondPercent = new int[] {0, 30, 70, 100}[r.nextInt(4)];
            b.resetPercent = r.nextInt(4) == 0 ? 10 : 0;
            b.goAwayPermille = r.nextInt(8) == 0 ? 30 : 0;
            b.releaseAfterClose = r.nextInt(3) == 0;
            b.keepWindow = r.nextInt(5) < 3 ? 0 : 1 + r.nextInt(4);
            b.holdKind = r.nextInt(10) < 7 ? 0 : 1 + r.nextInt(2);
            b.twin = r.nextInt(5) == 0;
            b.style = Style.values()[r.nextInt(Style.values().length)];
            if (r.nextInt(12) == 0) {
                String[] prefixes = {"DATA", "HEADERS", "SETTINGS", "PING", "GOAWAY", "UNKNOWN", "WINDOW_UPDATE",
                    "PRIORITY", "RST_STREAM"};
                b.faultPrefix = prefixes[r.nextInt(prefixes.length)];
                b.faultKind = r.nextInt(3);
                b.faultStream = 1 + 2 * r.nextInt(3);
            }
            b.strictShape = Shape.STRICT[r.nextInt(Shape.STRICT.length)];
            return b;
        }

        /** Answers nothing, resets nothing, never fails: for shrinking. */
        Behaviour passive() {
            Behaviour b = copy();
            b.respondPercent = 0;
            b.resetPercent = 0;
            b.goAwayPermille = 0;
            b.faultPrefix = null;
            return b;
        }

        private Behaviour copy() {
            Behaviour b = new Behaviour();
            b.seed = seed;
            b.returnCredit = returnCredit;
            b.respondPercent = respondPercent;
            b.resetPercent = resetPercent;
            b.goAwayPermille = goAwayPermille;
            b.releaseAfterClose = releaseAfterClose;
            b.keepWindow = keepWindow;
            b.holdKind = holdKind;
            b.twin = twin;
            b.style = style;
            b.faultPrefix = faultPrefix;
            b.faultKind = faultKind;
            b.faultStream = faultStream;
            b.strictShape = strictShape;
            return b;
        }

        @Override
        public String toString() {
            return "consumer: returnCredit=" + returnCredit + " respond=" + respondPercent + "% reset=" + resetPercent
                    + "% goAway=" + goAwayPermille + "\u2030 keeps " + (keepWindow == 0 ? "all" : "the last "
                    + keepWindow) + " frames " + new String[] {"as they are", "as retained duplicates",
                        "as copies"}[holdKind] + ", releaseKeptAfterClose=" + releaseAfterClose
                    + (twin ? "; the pooled server runs with a twin" : "")
                    + "; listener: " + style + (faultPrefix == null ? "" : " throws on " + faultPrefix + " ("
                    + new String[] {"stream error on " + faultStream, "connection error", "RuntimeException"}[faultKind]
                    + ")") + "; strict path shape: " + strictShape + "; decisions seed " + seed;
        }
    }

    static final class Script {
        final long caseSeed;
        final List<Item> items;
        final Options options;
        final Behaviour behaviour;
        final Delivery delivery;
        final String deliveryName;
        final boolean direct;
        /** A client path's case: the items are a server's bytes and the client application's actions. */
        final boolean client;

        Script(long caseSeed, List<Item> items, Options options, Behaviour behaviour, Delivery delivery,
               String deliveryName, boolean direct, boolean client) {
            this.client = client;
            this.caseSeed = caseSeed;
            this.items = List.copyOf(items);
            this.options = options;
            this.behaviour = behaviour;
            this.delivery = delivery;
            this.deliveryName = deliveryName;
            this.direct = direct;
        }

        static Script generate(long caseSeed, Path path) {
            boolean client = path.client();
            Random r = new Random(caseSeed);
            Options options = Options.random(r);
            Behaviour behaviour = Behaviour.random(r);
            if (client) {
                options.clientPush(r);

                // Answering a stream the server ended is a server's reaction: on a client, the stream is closed or
                // half-closed (local), the write fails and Netty closes the connection with INTERNAL_ERROR.
                behaviour.respondPercent = 0;
            }
            List<Item> items = new Generator(r, behaviour, options, client).generate();
            if (path == Path.CLIENT_MULTIPLEX) {
                items = withoutPushPromises(items);
            }
            int length = 0;
            for (Item item : items) {
                length += item.bytes.length;
            }
            Delivery delivery;
            String name;
            switch (r.nextInt(10)) {
                case 0:
                case 1:
                    delivery = Differential.WHOLE;
                    name = "whole";
                    break;
                case 2:
                case 3:
                    delivery = Differential.FRAME_BY_FRAME;
                    name = "frame by frame";
                    break;
                case 4:
                    if (length <= 3_000) {
                        delivery = Differential.BYTE_BY_BYTE;
                        name = "byte by byte";
                        break;
                    }
                    // fall through: too long to go byte by byte
                case 5:
                case 6:
                case 7: {
                    long seed = r.nextLong();
                    int max = 1 + r.nextInt(r.nextBoolean() ? 16 : 200);
                    delivery = Differential.randomReads(seed, max);
                    name = "random reads of 1.." + max + " bytes (seed " + seed + ")";
                    break;
                }
                default: {
                    int at = r.nextInt(length + 1);
                    delivery = Differential.splitAt(at);
                    name = "two reads, split at byte " + at;
                    break;
                }
            }
            return new Script(caseSeed, items, options, behaviour, delivery, name, r.nextBoolean(), client);
        }

        /**
         * Netty's {@code Http2MultiplexHandler} (4.2.20) makes no child channel for a pushed stream: the pushed
         * response's frames fail with a {@code NullPointerException} and leak, with either codec. The PUSH_PROMISE
         * frames are left out (those whose place in the input is known: up to the first desynchronizing item);
         * the pushed responses stay, on streams the server never promised.
         */
        private static List<Item> withoutPushPromises(List<Item> items) {
            List<Item> kept = new ArrayList<>(items.size());
            boolean aligned = true;
            for (Item item : items) {
                if (aligned && item.action == null && item.bytes.length >= 9 && item.bytes[3] == PUSH_PROMISE) {
                    continue;
                }
                kept.add(item);
                aligned &= !item.desync;
            }
            return kept;
        }

        Script withItems(List<Item> fewer) {
            return new Script(caseSeed, fewer, options, behaviour, delivery, deliveryName, direct, client);
        }

        Script withDelivery(Delivery other, String name) {
            return new Script(caseSeed, items, options, behaviour, other, name, direct, client);
        }

        Script withOptions(Options other) {
            return new Script(caseSeed, items, other, behaviour, delivery, deliveryName, direct, client);
        }

        Script withBehaviour(Behaviour other) {
            return new Script(caseSeed, items, options, other, delivery, deliveryName, direct, client);
        }

        Script withDirect(boolean isDirect) {
            return new Script(caseSeed, items, options, behaviour, delivery, deliveryName, isDirect, client);
        }

        /**
         * The reads (byte arrays) and the client application's actions, in order: the bytes between two actions are
         * cut into reads by the delivery (all the bytes at once when there is no action: a server path's case).
         */
        List<Object> steps() {
            List<Object> steps = new ArrayList<>();
            List<byte[]> segment = new ArrayList<>();
            for (Item item : items) {
                if (item.action == null) {
                    segment.add(item.bytes);
                    continue;
                }
                if (!segment.isEmpty()) {
                    steps.addAll(delivery.reads(segment));
                    segment = new ArrayList<>();
                }
                steps.add(item.action);
            }
            if (!segment.isEmpty()) {
                steps.addAll(delivery.reads(segment));
            }
            return steps;
        }

        /**
         * The index of the first item the strict checks may answer differently from Netty: HEADERS or DATA on a stream
         * the client ended, HEADERS opening a stream id lower than one already used, or a mutation after which the
         * frames are not what the items say. -1 if none.
         */
        int firstStrictRelevant() {
            if (client) {
                return firstClientStrictRelevant();
            }
            Set<Integer> ended = new HashSet<>();
            Set<Integer> opened = new HashSet<>();
            int highest = 0;
            for (int i = 0; i < items.size(); i++) {
                Item item = items.get(i);
                if (item.desync) {
                    return i;
                }
                if (item.kind == Item.HEADERS_FRAME) {
                    int id = item.stream;
                    if (ended.contains(id)) {
                        return i;
                    }
                    if (id > 0 && (id & 1) == 1) {
                        if (id < highest && !opened.contains(id)) {
                            return i;
                        }
                        opened.add(id);
                        highest = Math.max(highest, id);
                    }
                    if (item.endStream) {
                        ended.add(id);
                    }
                } else if (item.kind == Item.DATA_FRAME) {
                    if (ended.contains(item.stream)) {
                        return i;
                    }
                    if (item.endStream) {
                        ended.add(item.stream);
                    }
                }
            }
            return -1;
        }

        /**
         * On a client, the checks are about the streams the server opens (promises): HEADERS or DATA on an even
         * stream the server ended, or on one it never promised (conservatively: Netty's answer and the checks' differ
         * only for the ids below the highest used, which this does not try to tell apart), or a desynchronizing
         * mutation. -1 if none.
         */
        private int firstClientStrictRelevant() {
            Set<Integer> ended = new HashSet<>();
            Set<Integer> promised = new HashSet<>();
            for (int i = 0; i < items.size(); i++) {
                Item item = items.get(i);
                if (item.desync) {
                    return i;
                }
                if (item.kind == Item.PUSH_FRAME) {
                    // Also a promise Netty's client ignores (on a stream it reset): RFC 9113 5.1 reserves the id.
                    promised.add(item.stream);
                } else if ((item.kind == Item.HEADERS_FRAME || item.kind == Item.DATA_FRAME) && item.stream > 0
                        && (item.stream & 1) == 0) {
                    if (ended.contains(item.stream) || !promised.contains(item.stream)) {
                        return i;
                    }
                    if (item.endStream) {
                        ended.add(item.stream);
                    }
                }
            }
            return -1;
        }

        String describe() {
            int strict = firstStrictRelevant();
            int bytes = 0;
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < items.size(); i++) {
                Item item = items.get(i);
                out.append(String.format(Locale.ROOT, "  #%-3d @%-6d %s%s%n", i, bytes, item.text,
                        i == strict ? "   <- first frame the strict checks are about" : ""));
                bytes += item.bytes.length;
            }
            return (client ? "CLIENT, fed a server's bytes; " : "") + "options: " + options + "\n" + behaviour
                    + "\ndelivery: " + deliveryName + ", "
                    + (direct ? "direct" : "heap") + " pooled buffers, " + bytes + " bytes\ninput (" + items.size()
                    + " items):\n" + out;
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // The client

    /**
     * A client's frames: the preface, then steps, each a valid frame for what the client knows of its streams, or
     * (at the case's violation rate) a protocol violation. Streams are opened in order, some ids skipped; the client
     * remembers which it ended and which it reset.
     */
    static final class Generator {
        private static final int OPEN = 0;
        private static final int ENDED = 1;
        private static final int RESET = 2;

        private final Random r;
        private final Behaviour behaviour;
        private final boolean sharedHpack;
        private final HeaderBlocks hpack = new HeaderBlocks();
        private final List<Item> items = new ArrayList<>();
        private final TreeMap<Integer, Integer> streams = new TreeMap<>();
        private final TreeSet<Integer> skipped = new TreeSet<>();
        private int nextId = 1;
        private long dataSent;
        private int emptyDataRun;
        private int goAwayLast = 100;

        // Client mode: the server's bytes and the client application's actions.
        /** A stream the server promised (PUSH_PROMISE), whose response HEADERS have not come yet. */
        private static final int PROMISED = 3;
        private final boolean client;
        private final boolean pushAllowed;
        /**
         * The id the client's next request gets: it assigns them in order, failed or not, from 3 (Netty keeps 1 for
         * the stream of an HTTP/1.1 upgrade).
         */
        private int clientNext = 3;
        private int nextPush = 2;
        private boolean goAwayReceived;
        /** The streams the server sent its (final) response HEADERS on: more HEADERS on them are trailers. */
        private final Set<Integer> responded = new HashSet<>();

        Generator(Random r, Behaviour behaviour, Options options, boolean client) {
            this.r = r;
            this.behaviour = behaviour;
            this.sharedHpack = r.nextBoolean();
            this.client = client;
            this.pushAllowed = options.pushAllowed();
        }

        List<Item> generate() {
            if (client) {
                serverPreface();
            } else {
                preface();
            }
            double violationRate = new double[] {0, 0, 0.01, 0.03, 0.1, 0.3}[r.nextInt(6)];
            int steps = r.nextInt(3) == 0 ? 30 + r.nextInt(200) : 1 + r.nextInt(40);
            for (int i = 0; i < steps; i++) {
                if (r.nextDouble() < violationRate) {
                    // A client gets the server's violations, or a client's ones (on a client, most are errors too).
                    if (client && r.nextBoolean()) {
                        serverViolation();
                    } else {
                        violation();
                    }
                } else if (client) {
                    fromServer();
                } else {
                    valid();
                }
            }
            if (r.nextInt(12) == 0 && items.size() > 1 && items.get(items.size() - 1).bytes.length > 0) {
                // The input ends in the middle of a frame.
                Item last = items.remove(items.size() - 1);
                int cut = r.nextInt(last.bytes.length);
                items.add(new Item(Arrays.copyOf(last.bytes, cut), last.text + " (cut after " + cut + " of "
                        + last.bytes.length + " bytes)", Item.OTHER, 0, false, false));
            }
            return items;
        }

        private void preface() {
            byte[] magic = ByteBufUtil.getBytes(Http2CodecUtil.connectionPrefaceBuf());
            if (r.nextInt(100) == 0) {
                magic[r.nextInt(magic.length)] ^= (byte) (1 + r.nextInt(255));
                add(magic, "! PREFACE (one byte changed)", Item.OTHER, 0, false, true);
            } else {
                add(magic, "PREFACE", Item.OTHER, 0, false, false);
            }
            if (r.nextInt(100) == 0) {
                add(Frames.ping(false, 7), "! PING before the client's SETTINGS", Item.OTHER, 0, false, false);
            }
            settingsAndAck();
        }

        /** The SETTINGS after a preface (mostly empty), and most of the time the ACK of the peer's. */
        private void settingsAndAck() {
            if (r.nextInt(10) < 3) {
                validSettings();
            } else {
                add(Frames.settings(), "SETTINGS {}", Item.OTHER, 0, false, false);
            }
            if (r.nextInt(10) != 0) {
                add(Frames.settingsAck(), "SETTINGS_ACK", Item.OTHER, 0, false, false);
            }
        }

        // ---- stream bookkeeping

        private void add(byte[] bytes, String text, char kind, int stream, boolean endStream, boolean desync) {
            items.add(new Item(bytes, text, kind, stream, endStream, desync));
        }

        private int pick(int state) {
            List<Integer> ids = new ArrayList<>();
            for (Map.Entry<Integer, Integer> e : streams.entrySet()) {
                if (e.getValue() == state) {
                    ids.add(e.getKey());
                }
            }
            // Mostly recent streams: a client works on the streams it just opened.
            if (ids.isEmpty()) {
                return -1;
            }
            int from = r.nextInt(4) == 0 ? 0 : Math.max(0, ids.size() - 4);
            return ids.get(from + r.nextInt(ids.size() - from));
        }

        /** A stream the client may still receive on (open, or ended by the client); -1 if there is none. */
        private int pickOpenOrEnded() {
            int open = pick(OPEN);
            int ended = pick(ENDED);
            if (open < 0 || ended < 0) {
                return Math.max(open, ended);
            }
            return r.nextBoolean() ? open : ended;
        }

        private int idle() {
            return nextId + 2 * r.nextInt(3);
        }

        private int even() {
            return 2 * (1 + r.nextInt(10));
        }

        /** A stream id below the highest used that was never opened (making one if there is none yet). */
        private int skippedId() {
            if (skipped.isEmpty()) {
                newRequest(false, request(), "", 1);
            }
            Integer[] ids = skipped.toArray(new Integer[0]);
            return ids[r.nextInt(ids.length)];
        }

        private int orIdle(int id) {
            return id > 0 ? id : idle();
        }

        // ---- header blocks

        private byte[] encode(Http2Headers headers) {
            return sharedHpack ? hpack.encode(headers) : new HeaderBlocks().encode(headers);
        }

        private Http2Headers request() {
            Http2Headers h = new DefaultHttp2Headers(false);
            boolean post = r.nextInt(3) == 0;
            h.method(post ? "POST" : "GET").scheme("https").authority("example.com").path("/" + r.nextInt(1000));
            int extra = r.nextInt(4);
            for (int i = 0; i < extra; i++) {
                h.add("x-h" + r.nextInt(6), ascii(r.nextInt(30)));
            }
            if (post && r.nextInt(10) == 0) {
                h.add("content-length", Integer.toString(r.nextInt(20)));
            }
            return h;
        }

        private static String label(Http2Headers h) {
            StringBuilder out = new StringBuilder("[");
            for (Map.Entry<CharSequence, CharSequence> e : h) {
                CharSequence v = e.getValue();
                out.append(out.length() == 1 ? "" : " ").append(e.getKey()).append('=')
                        .append(v.length() > 24 ? v.subSequence(0, 24) + "..(" + v.length() + ")" : v);
            }
            return out.append(']').toString();
        }

        private String ascii(int length) {
            StringBuilder value = new StringBuilder(length);
            for (int i = 0; i < length; i++) {
                value.append((char) ('!' + r.nextInt(94)));
            }
            return value.toString();
        }

        // ---- frames

        /** Opens the next stream (now and then skipping ids) with a request. */
        private int newRequest(boolean eos, Http2Headers headers, String prefix, int skip) {
            int id = nextId;
            if (skip == 0 && r.nextInt(25) == 0) {
                skip = 1 + r.nextInt(3);
            }
            for (int i = 0; i < skip; i++) {
                skipped.add(id);
                id += 2;
            }
            nextId = id + 2;
            headersFrame(id, encode(headers), eos, prefix, label(headers), true);
            streams.put(id, eos ? ENDED : OPEN);
            return id;
        }

        /** HEADERS, sometimes padded, with priority, or with its block cut into CONTINUATIONs. */
        private void headersFrame(int id, byte[] block, boolean eos, String prefix, String label, boolean endHeaders) {
            int cuts = r.nextInt(5) == 0 ? 1 + r.nextInt(3) : 0;
            List<byte[]> fragments = new ArrayList<>();
            int from = 0;
            for (int i = 0; i < cuts; i++) {
                int to = Math.min(block.length, from + r.nextInt(1 + block.length / (cuts + 1)));
                fragments.add(Arrays.copyOfRange(block, from, to));
                from = to;
            }
            fragments.add(Arrays.copyOfRange(block, from, block.length));
            int flags = (eos ? END_STREAM : 0) | (fragments.size() == 1 && endHeaders ? END_HEADERS : 0);
            byte[] first = fragments.get(0);
            StringBuilder text = new StringBuilder(prefix + "HEADERS s=" + id + (eos ? " END_STREAM" : ""));
            if (r.nextInt(5) == 0) {
                flags |= PRIORITY_FLAG;
                int dependency = r.nextInt(3) == 0 ? 0 : Math.max(0, id - 2 * (1 + r.nextInt(3)));
                int weight = r.nextInt(256);
                boolean exclusive = r.nextBoolean();
                first = Frames.concat(Frames.priorityFields(exclusive, dependency, weight), first);
                text.append(" priority(dep=").append(dependency).append(" w=").append(weight + 1)
                        .append(exclusive ? " exclusive)" : ")");
            }
            if (r.nextInt(5) == 0) {
                flags |= PADDED;
                int pad = r.nextInt(24);
                first = Frames.padded(pad, first);
                text.append(" pad=").append(pad);
            }
            text.append(' ').append(label);
            if (fragments.size() > 1) {
                text.append(" (block in ").append(fragments.size()).append(" frames)");
            }
            if (!endHeaders && fragments.size() == 1) {
                text.append(" no END_HEADERS");
            }
            add(Frames.frame(HEADERS, flags, id, first), text.toString(), Item.HEADERS_FRAME, id, eos, false);
            for (int i = 1; i < fragments.size(); i++) {
                boolean last = i == fragments.size() - 1;
                add(Frames.continuation(id, last && endHeaders ? END_HEADERS : 0, fragments.get(i)),
                        "  CONTINUATION s=" + id + " len=" + fragments.get(i).length
                                + (last && endHeaders ? " END_HEADERS" : ""), Item.OTHER, id, false, false);
            }
        }

        private int dataLength() {
            int roll = r.nextInt(100);
            if (roll < 4) {
                return 0;
            }
            if (roll < 70) {
                return 1 + r.nextInt(64);
            }
            if (roll < 96) {
                return 65 + r.nextInt(2000);
            }
            return 2000 + r.nextInt(14_000);
        }

        private void data(int id, int length, boolean eos, String prefix) {
            boolean padded = r.nextInt(5) == 0 && length < 16_300;
            int pad = padded ? r.nextInt(40) : 0;
            byte[] content = Frames.pattern(length, r.nextInt(256));
            byte[] payload = padded ? Frames.padded(pad, content) : content;
            add(Frames.data(id, (eos ? END_STREAM : 0) | (padded ? PADDED : 0), payload),
                    prefix + "DATA s=" + id + " len=" + length + (padded ? " pad=" + pad : "")
                            + (eos ? " END_STREAM" : ""), Item.DATA_FRAME, id, eos, false);
            dataSent += payload.length;
            emptyDataRun = payload.length == 0 && !eos ? emptyDataRun + 1 : 0;
        }

        /** A valid DATA frame on an open stream (within the window when the consumer returns no credit). */
        private void validData(int id) {
            int length = dataLength();
            boolean eos = r.nextInt(4) == 0;
            if (!behaviour.returnCredit && dataSent + length + 64 > 60_000) {
                length = 0;
                eos = true;
            }
            if (length == 0 && !eos && emptyDataRun >= 1) {
                eos = true; // two empty DATA frames in a row are Netty's limit: a violation, not a valid step
            }
            data(id, length, eos, "");
            if (eos) {
                streams.put(id, ENDED);
            }
        }

        private void valid() {
            int roll = r.nextInt(100);
            int open = pick(OPEN);
            int ender = pickOpenOrEnded();
            if (roll < 22 || open < 0 && (roll < 49 || roll >= 83) || ender < 0 && roll >= 49 && roll < 53) {
                newRequest(r.nextInt(10) < 4, request(), "", 0);
            } else if (roll < 45) {
                validData(open);
            } else if (roll < 49) {
                Http2Headers trailers = new DefaultHttp2Headers(false);
                if (r.nextInt(5) != 0) {
                    trailers.add("x-trailer", ascii(r.nextInt(12)));
                }
                headersFrame(open, encode(trailers), true, "", "trailers " + label(trailers), true);
                streams.put(open, ENDED);
            } else if (roll < 53) {
                // Now and then a stream already reset: a closed stream, whose RST_STREAM is ignored.
                int id = r.nextInt(8) == 0 && pick(RESET) > 0 ? pick(RESET) : ender;
                int code = new int[] {0, 8, 1, 2, 0x7fffffff}[r.nextInt(5)];
                add(Frames.rstStream(id, code), "RST_STREAM s=" + id + " code=" + code, Item.OTHER, id, false, false);
                streams.put(id, RESET);
            } else if (roll < 58) {
                // PRIORITY may come on a stream in any state.
                int id;
                switch (r.nextInt(6)) {
                    case 0:
                        id = idle();
                        break;
                    case 1:
                        id = orIdle(pick(RESET));
                        break;
                    case 2:
                        id = even();
                        break;
                    case 3:
                        id = skipped.isEmpty() ? idle() : skipped.first();
                        break;
                    default:
                        id = orIdle(pickOpenOrEnded());
                        break;
                }
                int dependency = r.nextInt(2) == 0 ? 0 : Math.max(0, id - 2);
                priority(id, dependency, "");
            } else if (roll < 64) {
                ping();
            } else if (roll < 68) {
                validSettings();
            } else if (roll < 70) {
                add(Frames.settingsAck(), "SETTINGS_ACK", Item.OTHER, 0, false, false);
            } else if (roll < 77) {
                // The connection, a stream that may receive, or now and then one already reset (closed).
                int id = r.nextBoolean() ? 0 : r.nextInt(6) == 0 ? pick(RESET) : pickOpenOrEnded();
                id = Math.max(0, id);
                windowUpdate(id);
            } else if (roll < 82) {
                int id = r.nextInt(3) == 0 || open < 0 ? 0 : open;
                unknown(id, "");
            } else if (roll < 83) {
                // A later GOAWAY may not raise the last stream id.
                int last = goAwayLast = r.nextInt(3) == 0 ? 0 : r.nextInt(goAwayLast + 1);
                byte[] debug = RawFrames.bytes(ascii(r.nextInt(20)));
                add(Frames.goAway(last, 0, debug), "GOAWAY last=" + last + " NO_ERROR debug=\""
                        + new String(debug, StandardCharsets.US_ASCII) + "\"", Item.OTHER, 0, false, false);
            } else {
                validData(open);
            }
        }

        private void priority(int id, int dependency, String prefix) {
            int weight = r.nextInt(256);
            boolean exclusive = r.nextBoolean();
            add(Frames.priority(id, exclusive, dependency, weight), prefix + "PRIORITY s=" + id + " dep=" + dependency
                    + " w=" + (weight + 1) + (exclusive ? " exclusive" : ""), Item.OTHER, id, false, false);
        }

        private void ping() {
            boolean ack = r.nextInt(5) == 0;
            long data = r.nextLong();
            add(Frames.ping(ack, data), "PING" + (ack ? " ACK " : " ") + Long.toHexString(data), Item.OTHER, 0, false,
                    false);
        }

        private void windowUpdate(int id) {
            int increment = 1 + r.nextInt(r.nextBoolean() ? 1000 : 1 << 20);
            add(Frames.windowUpdate(id, increment), "WINDOW_UPDATE s=" + id + " inc=" + increment, Item.OTHER, id,
                    false, false);
        }

        /** HEADERS without END_HEADERS, then a flood of empty CONTINUATIONs. */
        private void smallContinuations(int id, byte[] block, String label) {
            add(Frames.headers(id, 0, block), "! HEADERS s=" + id + " " + label + " then many small CONTINUATIONs",
                    Item.HEADERS_FRAME, id, false, false);
            int n = 5 + r.nextInt(30);
            for (int i = 0; i < n; i++) {
                add(Frames.continuation(id, i == n - 1 ? END_HEADERS : 0, new byte[0]), "  CONTINUATION s=" + id
                        + " len=0" + (i == n - 1 ? " END_HEADERS" : ""), Item.OTHER, id, false, false);
            }
        }

        private void unknown(int id, String prefix) {
            int type = 10 + r.nextInt(246);
            int flags = r.nextInt(256);
            byte[] payload = new byte[r.nextInt(40)];
            r.nextBytes(payload);
            add(Frames.frame(type, flags, id, payload), prefix + "UNKNOWN type=" + type + " flags=" + flags + " s=" + id
                    + " len=" + payload.length, Item.OTHER, id, false, false);
        }

        private void validSettings() {
            int count = r.nextInt(4);
            long[] pairs = new long[2 * count];
            StringBuilder text = new StringBuilder("SETTINGS {");
            for (int i = 0; i < count; i++) {
                int id = 1 + r.nextInt(7);
                long value;
                switch (id) {
                    case 1:
                        value = r.nextInt(8193);
                        break;
                    case 2:
                        // A server may only send ENABLE_PUSH 0 (RFC 9113 6.5.2); 1 is a violation of its own.
                        value = client ? 0 : r.nextInt(2);
                        break;
                    case 3:
                        // Enough for a client's requests to be mostly accepted.
                        value = (client ? 100 : 0) + r.nextInt(1000);
                        break;
                    case 4:
                        value = r.nextInt(10) == 0 ? 0x7fffffffL : r.nextInt(1 << 20);
                        break;
                    case 5:
                        value = 16_384 + r.nextInt(0xffffff - 16_384 + 1);
                        break;
                    case 6:
                        value = r.nextInt(100_000);
                        break;
                    default:
                        id = 7 + r.nextInt(100);
                        value = r.nextInt() & 0xffffffffL;
                        break;
                }
                pairs[2 * i] = id;
                pairs[2 * i + 1] = value;
                text.append(i == 0 ? "" : ", ").append(id).append('=').append(value);
            }
            add(Frames.settings(pairs), text.append('}').toString(), Item.OTHER, 0, false, false);
        }

        // ---- client mode: the server's frames, the client application's actions

        /** A server's preface is its SETTINGS frame (no preface string); the client may have sent a request before. */
        private void serverPreface() {
            if (r.nextBoolean()) {
                clientOpens();
            }
            if (r.nextInt(100) == 0) {
                add(Frames.ping(false, 7), "! PING before the server's SETTINGS", Item.OTHER, 0, false, false);
            }
            settingsAndAck();
        }

        private void action(Action action) {
            items.add(new Item(new byte[0], "CLIENT " + action, Item.OTHER, action.stream, false, false, action));
        }

        /** The client application opens the next stream: a request, maybe with a body, maybe ending the stream. */
        private int clientOpens() {
            Http2Headers h = request();
            boolean post = "POST".contentEquals(h.method());
            boolean eos = !post && r.nextInt(3) != 0;
            int body = eos ? -1 : post || r.nextInt(3) == 0 ? r.nextInt(200) : -1;
            boolean bodyEnd = body >= 0 && r.nextInt(4) != 0;
            int id = clientNext;
            clientNext += 2;
            nextId = Math.max(nextId, clientNext);
            action(new Action(Action.Kind.OPEN, id, h, eos, body, bodyEnd));
            if (!goAwayReceived) {
                streams.put(id, OPEN);
            }
            return id;
        }

        private Http2Headers responseHeaders() {
            Http2Headers h = new DefaultHttp2Headers(false).status(new String[] {"200", "204", "404", "500"}[
                    r.nextInt(4)]);
            int extra = r.nextInt(4);
            for (int i = 0; i < extra; i++) {
                h.add("x-h" + r.nextInt(6), ascii(r.nextInt(30)));
            }
            return h;
        }

        /** The server's response HEADERS (now and then a 1xx first) on a stream the client opened or was promised. */
        private void response(int id, Http2Headers h, String prefix) {
            if (r.nextInt(15) == 0) {
                Http2Headers informational = new DefaultHttp2Headers(false).status("100");
                headersFrame(id, encode(informational), false, prefix + "1xx ", label(informational), true);
            }
            boolean eos = r.nextInt(4) == 0;
            headersFrame(id, encode(h), eos, prefix, label(h), true);
            responded.add(id);
            streams.put(id, eos ? ENDED : OPEN);
        }

        private void responseOrData(int id) {
            if (responded.contains(id)) {
                validData(id);
            } else {
                response(id, responseHeaders(), "");
            }
        }

        private int nextPush() {
            int id = nextPush;
            nextPush += 2;
            return id;
        }

        /** PUSH_PROMISE on {@code parent}, sometimes padded or with its block continued, promising {@code promised}. */
        private void pushPromise(int parent, int promised, String prefix) {
            Http2Headers h = new DefaultHttp2Headers(false).method("GET").scheme("https").authority("example.com")
                    .path("/pushed/" + r.nextInt(100));
            byte[] block = encode(h);
            int split = r.nextInt(5) == 0 ? r.nextInt(block.length + 1) : block.length;
            int flags = split == block.length ? END_HEADERS : 0;
            byte[] payload = Frames.concat(Frames.int32(promised), Arrays.copyOf(block, split));
            StringBuilder text = new StringBuilder(prefix + "PUSH_PROMISE s=" + parent + " promised=" + promised);
            if (r.nextInt(5) == 0) {
                int pad = r.nextInt(24);
                payload = Frames.padded(pad, payload);
                flags |= PADDED;
                text.append(" pad=").append(pad);
            }
            text.append(' ').append(label(h));
            add(Frames.frame(PUSH_PROMISE, flags, parent, payload), text.toString(), Item.PUSH_FRAME, promised, false,
                    false);
            if (split < block.length) {
                add(Frames.continuation(parent, END_HEADERS, Arrays.copyOfRange(block, split, block.length)),
                        "  CONTINUATION s=" + parent + " len=" + (block.length - split) + " END_HEADERS", Item.OTHER,
                        parent, false, false);
            }
            if (promised > 0 && (promised & 1) == 0) {
                streams.put(promised, PROMISED);
            }
        }

        /** A valid step of a server (or of the client application) for what the generator knows of the streams. */
        private void fromServer() {
            int roll = r.nextInt(100);
            int open = pick(OPEN);
            if (roll < 14 || open < 0 && (roll < 64 || roll >= 91)) {
                clientOpens();
            } else if (roll < 46) {
                responseOrData(open);
            } else if (roll < 50) {
                if (responded.contains(open)) {
                    Http2Headers trailers = new DefaultHttp2Headers(false).add("x-trailer", ascii(r.nextInt(12)));
                    headersFrame(open, encode(trailers), true, "", "trailers " + label(trailers), true);
                    streams.put(open, ENDED);
                } else {
                    responseOrData(open);
                }
            } else if (roll < 56) {
                if (pushAllowed && !goAwayReceived) {
                    pushPromise(open, nextPush(), "");
                } else {
                    responseOrData(open);
                }
            } else if (roll < 60) {
                int promised = pick(PROMISED);
                if (promised > 0) {
                    response(promised, responseHeaders(), "pushed response: ");
                } else {
                    responseOrData(open);
                }
            } else if (roll < 63) {
                int id = r.nextInt(4) == 0 && pick(PROMISED) > 0 ? pick(PROMISED) : Math.max(open, pickOpenOrEnded());
                int code = new int[] {0, 8, 1, 2, 7}[r.nextInt(5)];
                add(Frames.rstStream(id, code), "RST_STREAM s=" + id + " code=" + code, Item.OTHER, id, false, false);
                streams.put(id, RESET);
            } else if (roll < 66) {
                int id = r.nextInt(3) == 0 ? idle() : r.nextInt(3) == 0 ? nextPush + 2 * r.nextInt(2) : orIdle(open);
                priority(id, r.nextInt(2) == 0 ? 0 : Math.max(0, open - 2), "");
            } else if (roll < 71) {
                ping();
            } else if (roll < 73) {
                validSettings();
            } else if (roll < 75) {
                add(Frames.settingsAck(), "SETTINGS_ACK", Item.OTHER, 0, false, false);
            } else if (roll < 81) {
                int id = r.nextBoolean() ? 0 : Math.max(0, pickOpenOrEnded());
                windowUpdate(id);
            } else if (roll < 84) {
                unknown(r.nextInt(3) == 0 ? 0 : Math.max(0, open), "");
            } else if (roll < 85) {
                serverGoAway();
            } else if (roll < 90) {
                int id = r.nextInt(4) == 0 && pick(PROMISED) > 0 ? pick(PROMISED) : orIdle(pickOpenOrEnded());
                action(new Action(Action.Kind.RESET, id, null, false, -1, false));
                streams.put(id, RESET);
            } else if (roll < 91) {
                action(new Action(Action.Kind.GOAWAY, 0, null, false, -1, false));
            } else {
                responseOrData(open);
            }
        }

        /** GOAWAY from the server: the client's streams above its last stream id are closed, new ones refused. */
        private void serverGoAway() {
            int last = r.nextInt(3) == 0 ? 0 : Math.max(0, Math.min(goAwayLast, clientNext - 2 - 2 * r.nextInt(3)));
            last = last > 0 && (last & 1) == 0 ? last - 1 : last;
            goAwayLast = last;
            goAwayReceived = true;
            long code = new long[] {0, 0, 1, 11}[r.nextInt(4)];
            byte[] debug = RawFrames.bytes(ascii(r.nextInt(20)));
            add(Frames.goAway(last, code, debug), "GOAWAY last=" + last + " code=" + code + " debug=\""
                    + new String(debug, StandardCharsets.US_ASCII) + "\"", Item.OTHER, 0, false, false);
            for (Map.Entry<Integer, Integer> e : streams.entrySet()) {
                if ((e.getKey() & 1) == 1 && e.getKey() > last) {
                    e.setValue(RESET);
                }
            }
        }

        /** What a client may get wrong from a server: pushes, responses, limits. */
        private void serverViolation() {
            int open = pick(OPEN);
            int promised = pick(PROMISED);
            switch (r.nextInt(15)) {
                case 0:
                    pushPromise(orIdle(open), clientNext - 2 * r.nextInt(2), "! odd promised id: ");
                    break;
                case 13: {
                    // What the strict checks are about on a client: a pushed stream the server ended, used again.
                    int id = -1;
                    for (Map.Entry<Integer, Integer> e : streams.entrySet()) {
                        if ((e.getKey() & 1) == 0 && e.getValue() == ENDED) {
                            id = e.getKey();
                        }
                    }
                    if (id < 0) {
                        response(nextPush(), responseHeaders(), "! HEADERS on an even stream never promised: ");
                    } else if (r.nextBoolean()) {
                        data(id, dataLength(), r.nextBoolean(), "! ended pushed stream: ");
                    } else {
                        Http2Headers h = responseHeaders();
                        headersFrame(id, encode(h), r.nextBoolean(), "! ended pushed stream: ", label(h), true);
                    }
                    break;
                }
                case 14: {
                    // And a skipped one: a promise skips an even id, then a response comes on it.
                    int skipped = nextPush();
                    pushPromise(orIdle(open), nextPush(), "");
                    response(skipped, responseHeaders(), "! skipped pushed id: ");
                    break;
                }
                case 1:
                    pushPromise(orIdle(open), nextPush(), pushAllowed ? "! push: " : "! push disabled: ");
                    break;
                case 2:
                    pushPromise(idle(), nextPush(), "! push on an idle stream: ");
                    break;
                case 3:
                    pushPromise(0, nextPush(), "! push on stream 0: ");
                    break;
                case 4:
                    pushPromise(orIdle(open), Math.max(2, nextPush - 2), "! promised id used already: ");
                    break;
                case 5:
                    if (promised > 0) {
                        data(promised, dataLength(), r.nextBoolean(), "! DATA on a reserved stream: ");
                    } else {
                        response(nextPush(), responseHeaders(), "! HEADERS on an even stream never promised: ");
                    }
                    break;
                case 6:
                    response(orIdle(open), responseHeaders().add("x-large", ascii(8_000 + r.nextInt(4_000))),
                            "! header list over 8192: ");
                    break;
                case 7: {
                    int id = orIdle(open);
                    Http2Headers h = responseHeaders();
                    headersFrame(id, encode(h), false, "! HEADERS again without END_STREAM: ", label(h), true);
                    headersFrame(id, encode(h), false, "! HEADERS again without END_STREAM: ", label(h), true);
                    break;
                }
                case 8: {
                    int id = orIdle(open);
                    response(id, responseHeaders().status("200").set("content-length", "5"), "! content-length 5: ");
                    data(id, r.nextBoolean() ? 3 : 8, true, "! content-length mismatch: ");
                    streams.put(id, ENDED);
                    break;
                }
                case 9: {
                    int id = orIdle(open);
                    Http2Headers[] bad = {responseHeaders().add("X-Upper", "1"),
                        responseHeaders().add("connection", "close"), responseHeaders().add(":path", "/"),
                        new DefaultHttp2Headers(false).add("x-no-status", "1"), responseHeaders().add(":status", "201"),
                        responseHeaders().add("x-bad", "a\nb")};
                    response(id, bad[r.nextInt(bad.length)], "! invalid response: ");
                    break;
                }
                case 10: {
                    int n = 20 + r.nextInt(r.nextInt(4) == 0 ? 240 : 20);
                    for (int i = 0; i < n; i++) {
                        int id = clientOpens();
                        add(Frames.rstStream(id, 8), "RST_STREAM s=" + id + " code=8 (RST flood " + (i + 1) + " of "
                                + n + ")", Item.OTHER, id, false, false);
                        streams.put(id, RESET);
                    }
                    break;
                }
                case 11: {
                    int id = orIdle(open);
                    Http2Headers h = responseHeaders();
                    smallContinuations(id, encode(h), label(h));
                    responded.add(id);
                    break;
                }
                default: {
                    int id = r.nextBoolean() ? orIdle(pick(ENDED)) : orIdle(pick(RESET));
                    pushPromise(id, nextPush(), "! push on a stream the server ended or that was reset: ");
                    break;
                }
            }
        }

        private Http2Headers invalidRequest(StringBuilder what) {
            Http2Headers h = new DefaultHttp2Headers(false);
            switch (r.nextInt(9)) {
                case 7:
                    what.append("line feed in a value");
                    return request().add("x-bad", "a\nb");
                case 8:
                    what.append("empty name");
                    return request().add("", "v");
                case 0:
                    what.append("upper case name");
                    return request().add("X-Upper", "1");
                case 1:
                    what.append("connection-specific header");
                    return request().add("connection", "close");
                case 2:
                    what.append("te: gzip");
                    return request().add("te", "gzip");
                case 3:
                    what.append("no :path");
                    return h.method("GET").scheme("https").authority("example.com");
                case 4:
                    what.append(":status in a request");
                    return request().status("200");
                case 5:
                    what.append("unknown pseudo header");
                    return request().add(":foo", "bar");
                default:
                    what.append("two :path");
                    return request().add(":path", "/again");
            }
        }

        private void violation() {
            int open = pick(OPEN);
            int ended = pick(ENDED);
            int reset = pick(RESET);
            switch (r.nextInt(50)) {
                case 0:
                    data(idle(), dataLength(), r.nextBoolean(), "! idle: ");
                    break;
                case 1:
                    data(0, dataLength(), r.nextBoolean(), "! stream 0: ");
                    break;
                case 2:
                    data(even(), dataLength(), r.nextBoolean(), "! even id: ");
                    break;
                case 3:
                    data(skippedId(), dataLength(), r.nextBoolean(), "! skipped id: ");
                    break;
                case 4:
                    data(orIdle(ended), dataLength(), r.nextBoolean(), "! ended stream: ");
                    break;
                case 5:
                    data(orIdle(reset), dataLength(), r.nextBoolean(), "! reset stream: ");
                    break;
                case 6: {
                    int id = orIdle(ended);
                    Http2Headers h = r.nextBoolean() ? request() : new DefaultHttp2Headers(false).add("x-t", "1");
                    headersFrame(id, encode(h), r.nextBoolean(), "! ended stream: ", label(h), true);
                    break;
                }
                case 7: {
                    int id = orIdle(reset);
                    Http2Headers h = request();
                    headersFrame(id, encode(h), r.nextBoolean(), "! reset stream: ", label(h), true);
                    break;
                }
                case 8: {
                    Http2Headers h = request();
                    headersFrame(even(), encode(h), r.nextBoolean(), "! even id: ", label(h), true);
                    break;
                }
                case 9: {
                    Http2Headers h = request();
                    headersFrame(0, encode(h), r.nextBoolean(), "! stream 0: ", label(h), true);
                    break;
                }
                case 10: {
                    int id = skippedId();
                    skipped.remove(id);
                    Http2Headers h = request();
                    boolean eos = r.nextBoolean();
                    headersFrame(id, encode(h), eos, "! skipped id: ", label(h), true);
                    streams.put(id, eos ? ENDED : OPEN);
                    break;
                }
                case 11: {
                    int id = orIdle(open);
                    Http2Headers h = new DefaultHttp2Headers(false).add("x-t", "1");
                    headersFrame(id, encode(h), false, "! trailers without END_STREAM: ", label(h), true);
                    break;
                }
                case 12: {
                    StringBuilder what = new StringBuilder("! invalid request (");
                    Http2Headers h = invalidRequest(what);
                    newRequest(r.nextBoolean(), h, what.append("): ").toString(), 0);
                    break;
                }
                case 13: {
                    int id = nextId;
                    nextId += 2;
                    Http2Headers h = request();
                    headersFrame(id, encode(h), false, "! interrupted block: ", label(h), false);
                    add(Frames.ping(false, 1), "! PING inside the header block", Item.OTHER, 0, false, false);
                    add(Frames.continuation(id, END_HEADERS, new byte[0]), "  CONTINUATION s=" + id
                            + " len=0 END_HEADERS", Item.OTHER, id, false, false);
                    streams.put(id, OPEN);
                    break;
                }
                case 14: {
                    int id = orIdle(open);
                    add(Frames.continuation(id, END_HEADERS, encode(request())), "! CONTINUATION s=" + id
                            + " without HEADERS", Item.OTHER, id, false, false);
                    break;
                }
                case 15: {
                    int id = nextId;
                    nextId += 2;
                    Http2Headers h = request();
                    headersFrame(id, encode(h), false, "! block continued on another stream: ", label(h), false);
                    add(Frames.continuation(id + 2, END_HEADERS, new byte[0]), "! CONTINUATION s=" + (id + 2)
                            + " END_HEADERS", Item.OTHER, id + 2, false, false);
                    streams.put(id, OPEN);
                    break;
                }
                case 16: {
                    int id = r.nextBoolean() ? orIdle(open) : idle();
                    priority(id, id, "! depends on itself: ");
                    break;
                }
                case 17: {
                    int id = orIdle(open);
                    int length = r.nextBoolean() ? 4 : 6;
                    add(Frames.frame(PRIORITY, 0, id, new byte[length]), "! PRIORITY s=" + id + " length " + length,
                            Item.OTHER, id, false, false);
                    break;
                }
                case 18:
                    priority(0, 1, "! stream 0: ");
                    break;
                case 19: {
                    int id = idle();
                    add(Frames.rstStream(id, 8), "! RST_STREAM on idle s=" + id, Item.OTHER, id, false, false);
                    break;
                }
                case 20:
                    add(Frames.rstStream(0, 8), "! RST_STREAM s=0", Item.OTHER, 0, false, false);
                    break;
                case 21: {
                    int id = orIdle(open);
                    int length = r.nextBoolean() ? 3 : 5;
                    add(Frames.frame(RST_STREAM, 0, id, new byte[length]), "! RST_STREAM s=" + id + " length "
                            + length, Item.OTHER, id, false, false);
                    break;
                }
                case 22: {
                    long[][] bad = {{2, 2}, {4, 0x80000000L}, {5, 16_383}, {5, 0x1000000}, {4, 0xffffffffL}};
                    long[] pair = bad[r.nextInt(bad.length)];
                    add(Frames.settings(pair), "! SETTINGS {" + pair[0] + "=" + pair[1] + "}", Item.OTHER, 0, false,
                            false);
                    break;
                }
                case 23: {
                    int length = 1 + r.nextInt(11);
                    length += length % 6 == 0 ? 1 : 0;
                    add(Frames.frame(SETTINGS, 0, 0, new byte[length]), "! SETTINGS length " + length, Item.OTHER, 0,
                            false, false);
                    break;
                }
                case 24:
                    add(Frames.frame(SETTINGS, 0, 1, new byte[0]), "! SETTINGS s=1", Item.OTHER, 1, false, false);
                    break;
                case 25:
                    add(Frames.frame(SETTINGS, Frames.ACK, 0, new byte[6]), "! SETTINGS_ACK length 6", Item.OTHER, 0,
                            false, false);
                    break;
                case 26: {
                    int length = r.nextBoolean() ? 7 : 9;
                    add(Frames.frame(PING, 0, 0, new byte[length]), "! PING length " + length, Item.OTHER, 0, false,
                            false);
                    break;
                }
                case 27: {
                    int id = orIdle(open);
                    add(Frames.frame(PING, 0, id, new byte[8]), "! PING s=" + id, Item.OTHER, id, false, false);
                    break;
                }
                case 28:
                    add(Frames.windowUpdate(0, 0), "! WINDOW_UPDATE s=0 inc=0", Item.OTHER, 0, false, false);
                    break;
                case 29: {
                    int id = orIdle(open);
                    add(Frames.windowUpdate(id, 0), "! WINDOW_UPDATE s=" + id + " inc=0", Item.OTHER, id, false,
                            false);
                    break;
                }
                case 30:
                case 31: {
                    int id = r.nextBoolean() ? 0 : orIdle(open);
                    add(Frames.windowUpdate(id, 0x7fffffff), "! WINDOW_UPDATE s=" + id + " inc=2^31-1 (overflow)",
                            Item.OTHER, id, false, false);
                    break;
                }
                case 32: {
                    int id = idle();
                    add(Frames.windowUpdate(id, 100), "! WINDOW_UPDATE on idle s=" + id, Item.OTHER, id, false,
                            false);
                    break;
                }
                case 33: {
                    int id = r.nextBoolean() ? 0 : orIdle(open);
                    add(Frames.frame(WINDOW_UPDATE, 0, id, new byte[] {0, 0, 1}), "! WINDOW_UPDATE s=" + id
                            + " length 3", Item.OTHER, id, false, false);
                    break;
                }
                case 34:
                    add(Frames.frame(GOAWAY, 0, 1, new byte[8]), "! GOAWAY s=1", Item.OTHER, 1, false, false);
                    break;
                case 35:
                    add(Frames.frame(GOAWAY, 0, 0, new byte[5]), "! GOAWAY length 5", Item.OTHER, 0, false, false);
                    break;
                case 36: {
                    int id = orIdle(open);
                    add(Frames.pushPromise(id, END_HEADERS, 2, encode(request())), "! PUSH_PROMISE s=" + id
                            + " promised=2", Item.OTHER, id, false, false);
                    break;
                }
                case 37: {
                    int id = orIdle(open);
                    if (r.nextBoolean()) {
                        byte[] payload = {(byte) 10, 1, 2, 3};
                        add(Frames.data(id, PADDED, payload), "! DATA s=" + id + " pad=10 in 4 bytes", Item.DATA_FRAME,
                                id, false, false);
                    } else {
                        byte[] payload = Frames.concat(new byte[] {(byte) 200}, encode(request()));
                        add(Frames.headers(id, PADDED | END_HEADERS, payload), "! HEADERS s=" + id
                                + " pad=200 longer than the frame", Item.HEADERS_FRAME, id, false, false);
                    }
                    break;
                }
                case 38: {
                    int id = orIdle(open);
                    data(id, 16_385 + r.nextInt(4_000), false, "! over the max frame size: ");
                    break;
                }
                case 39: {
                    int id = orIdle(open);
                    int n = 3 + r.nextInt(6);
                    for (int i = 0; i < n; i++) {
                        add(Frames.data(id, 0, new byte[0]), "! empty DATA s=" + id + " (" + (i + 1) + " of " + n
                                + " in a row)", Item.DATA_FRAME, id, false, false);
                    }
                    break;
                }
                case 40: {
                    int id = r.nextBoolean() ? idle() : orIdle(r.nextBoolean() ? ended : reset);
                    unknown(id, "! not an open stream: ");
                    break;
                }
                case 41: {
                    int id = orIdle(open);
                    for (int i = 0; i < 5; i++) {
                        data(id, 16_000, false, "! past the flow-control window: ");
                    }
                    break;
                }
                case 42: {
                    int at = 1 + r.nextInt(items.size());
                    Item target = items.get(at - 1);
                    if (target.bytes.length == 0 || at == 1) {
                        data(orIdle(open), 5, false, "");
                        break;
                    }
                    byte[] bytes = target.bytes.clone();
                    int bit = r.nextInt(bytes.length);
                    bytes[bit] ^= (byte) (1 + r.nextInt(255));
                    items.set(at - 1, new Item(bytes, "! " + target.text + " (byte " + bit + " changed)", target.kind,
                            target.stream, target.endStream, true));
                    break;
                }
                case 43: {
                    int id = orIdle(open);
                    int length = 10 + r.nextInt(20);
                    int lie = length + (r.nextBoolean() ? -1 - r.nextInt(9) : 1 + r.nextInt(9));
                    add(Frames.frame(lie, Frames.DATA, 0, id, new byte[length]), "! DATA s=" + id + " of " + length
                            + " bytes, header says " + lie, Item.DATA_FRAME, id, false, true);
                    break;
                }
                case 44: {
                    int id = nextId;
                    nextId += 2;
                    Http2Headers h = request();
                    smallContinuations(id, encode(h), label(h));
                    streams.put(id, OPEN);
                    break;
                }
                case 45: {
                    int n = 20 + r.nextInt(r.nextInt(4) == 0 ? 240 : 20);
                    for (int i = 0; i < n; i++) {
                        int id = nextId;
                        nextId += 2;
                        Http2Headers h = request();
                        add(Frames.headers(id, END_HEADERS, encode(h)), "HEADERS s=" + id + " " + label(h)
                                + " (RST flood " + (i + 1) + " of " + n + ")", Item.HEADERS_FRAME, id, false, false);
                        add(Frames.rstStream(id, 8), "RST_STREAM s=" + id + " code=8", Item.OTHER, id, false, false);
                        streams.put(id, RESET);
                    }
                    break;
                }
                case 46: {
                    Http2Headers h = request().method("POST").set("content-length", "5");
                    int id = newRequest(false, h, "! content-length 5: ", 0);
                    data(id, r.nextBoolean() ? 3 : 8, true, "! content-length mismatch: ");
                    streams.put(id, ENDED);
                    break;
                }
                case 47: {
                    int id = orIdle(open);
                    Http2Headers h = new DefaultHttp2Headers(false).add(":path", "/t").add("x-t", "1");
                    headersFrame(id, encode(h), true, "! pseudo header in trailers: ", label(h), true);
                    streams.put(id, ENDED);
                    break;
                }
                case 48: {
                    Http2Headers h = request().add("x-large", ascii(8_000 + r.nextInt(4_000)));
                    newRequest(r.nextBoolean(), h, "! header list over 8192: ", 0);
                    break;
                }
                default: {
                    int n = 10 + r.nextInt(30);
                    for (int i = 0; i < n; i++) {
                        add(Frames.ping(false, i), "PING " + i + " (burst of " + n + ")", Item.OTHER, 0, false, false);
                    }
                    break;
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Long mode

    /**
     * Many seeds outside JUnit, all paths, continuing past divergences (each reported once per distinct first
     * difference). Run with paranoid leak detection:
     * <pre>
     * java -Dio.netty.leakDetection.level=paranoid -cp ... io.pooledh2.codec.RandomizedCodecDifferentialTest \
     *     [seeds [casesPerSeed [baseSeed]]]
     * java ... RandomizedCodecDifferentialTest case PATH CASE_SEED      one case, with its transcripts
     * </pre>
     */
    public static void main(String[] args) throws Exception {
        // Netty's HTTP/2 decoder logs every frame it ignores: thousands of lines.
        Logger http2Logger = Logger.getLogger("io.netty.handler.codec.http2");
        http2Logger.setLevel(Level.WARNING);
        if (args.length > 0 && args[0].equals("case")) {
            Path path = Path.valueOf(args[1]);
            Script script = Script.generate(Long.parseLong(args[2]), path);
            onEventLoopThread(() -> {
                System.out.println(script.describe());
                Shape shape = shape(path, script);
                System.out.println("---- Netty:\n  " + String.join("\n  ", run(shape, Flavor.NETTY, script).lines));
                Flavor flavor = pooledFlavor(path);
                System.out.println("---- " + flavor + ":\n  " + String.join("\n  ", run(shape, flavor, script).lines));
                Outcome outcome = compare(path, script);
                System.out.println(outcome.difference == null ? "SAME" : "DIFFERENT:\n" + outcome.difference);
                if (outcome.difference != null) {
                    System.out.println(report(path, 0, 0, script, outcome.difference));
                }
            });
            return;
        }
        if (args.length > 0 && args[0].equals("leak")) {
            // Which server leaks on a case, and on its shrunk form.
            Path path = Path.valueOf(args[1]);
            Script script = Script.generate(Long.parseLong(args[2]), path);
            onEventLoopThread(() -> {
                Shape shape = shape(path, script);
                for (Flavor flavor : Flavor.values()) {
                    LeakDetectionExtension.collectLeaks();
                    List<String> lines = run(shape, flavor, script).lines;
                    List<String> leaks = LeakDetectionExtension.collectLeaks();
                    System.out.println(flavor + ": " + leaks.size() + " leak reports");
                    if (!leaks.isEmpty()) {
                        System.out.println("  " + String.join("\n  ", lines));
                        System.out.println(leaks.get(0));
                        Script shrunk = shrink(script, s -> {
                            LeakDetectionExtension.collectLeaks();
                            run(shape, flavor, s);
                            return !LeakDetectionExtension.collectLeaks().isEmpty();
                        }, System.nanoTime() + SHRINK_NANOS);
                        System.out.println("shrunk:\n" + shrunk.describe());
                        System.out.println("  " + String.join("\n  ", run(shape, flavor, shrunk).lines));
                    }
                }
            });
            return;
        }
        int seeds = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int cases = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        long base = args.length > 2 ? Long.parseLong(args[2]) : System.nanoTime();
        List<Path> paths = paths();
        System.out.println("codec fuzz: " + seeds + " seeds x " + cases + " cases x " + paths + ", base seed " + base);
        Random derive = new Random(base);
        Map<String, String> distinct = new LinkedHashMap<>();
        Map<Path, Map<String, Integer>> coverage = new TreeMap<>();
        long[] totals = new long[Path.values().length];
        int failures = 0;
        long start = System.nanoTime();
        for (int i = 0; i < seeds; i++) {
            long seed = derive.nextLong();
            for (Path path : paths) {
                Campaign campaign = new Campaign(path, seed, cases, Long.MAX_VALUE);
                onEventLoopThread(campaign::run);
                campaign.checkLeaks();
                totals[path.ordinal()] += campaign.cases;
                campaign.coverage.forEach((k, v) -> coverage.computeIfAbsent(path, p -> new TreeMap<>())
                        .merge(k, v, Integer::sum));
                if (campaign.failure != null) {
                    failures++;
                    String key = path + " " + signature(campaign.failure);
                    if (!distinct.containsKey(key)) {
                        distinct.put(key, campaign.failure);
                        System.out.println("==== DIVERGENCE " + key + "\n" + campaign.failure);
                    } else {
                        System.out.println("==== again: " + key + " (seed " + seed + ")");
                    }
                }
            }
            if ((i + 1) % 10 == 0 || i == seeds - 1) {
                System.out.printf(Locale.ROOT, "codec fuzz: %d/%d seeds, cases per path %s, %d failures, %.0f s%n",
                        i + 1, seeds, Arrays.toString(totals), failures, (System.nanoTime() - start) / 1e9);
            }
        }
        System.out.println("coverage (cases per outcome, from Netty's transcripts): " + coverage);
        System.out.println("cosmetic differences left out (-Dcodec.fuzz.exact=true to fail on them): "
                + (COSMETIC.isEmpty() ? "none" : ""));
        COSMETIC.forEach((k, v) -> System.out.println("  " + v + "x\n" + k));
        System.out.println("codec fuzz: done, " + distinct.size() + " distinct divergences: " + distinct.keySet());
        System.exit(distinct.isEmpty() ? 0 : 1);
    }

    /** The first differing lines, without numbers: the same bug found twice has the same signature. */
    private static String signature(String failure) {
        int stock = failure.indexOf("  stock : ");
        if (stock < 0) {
            return failure.substring(0, Math.min(120, failure.indexOf('\n') < 0 ? failure.length()
                    : failure.indexOf('\n')));
        }
        int end = failure.indexOf('\n', failure.indexOf("  pooled: ", stock));
        return failure.substring(stock, end).replaceAll("[0-9a-f]{6,}", "#").replaceAll("\\d+", "N")
                .replace('\n', ' ');
    }
}
