#!/usr/bin/env python3
# Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
"""The inbound codec's part of a server's CPU per request, from an async-profiler CPU profile (h2load-profile.sh).

    python3 src/bench/codec-share.py --line CODEC ROUND REQUESTS PROFILE   one server: prints its line
    python3 src/bench/codec-share.py --summary LINES                       the lines of a run: medians, shares
    python3 src/bench/codec-share.py --methods PART LINES DIR              where one part's time goes, by method

PROFILE is async-profiler's collapsed output (one stack a line, its sample count last), sampled every millisecond
of CPU, so a sample is a millisecond. Each stack goes to the first part whose test it passes:
  after    the handlers after the codec (Http2StreamResetHandler, Http2MultiplexHandler, the example's own) and
           what they call: the same code for both codecs
  hpack    HPACK decoding (Netty's HpackDecoder, into each codec's headers)
  decoder  DefaultHttp2ConnectionDecoder's listener (flow-control accounting, stream look-ups, the frame codec's
           frames) up to the next handler
  reader   the frame reader below DefaultHttp2ConnectionDecoder.decodeFrame (for the pooled codec with its
           adapter and stream-state checks)
  input    ByteToMessageDecoder.channelRead around it (Netty's cumulation of partial frames)
  rest     everything else: socket reads and writes, the flush, the event loop, the kernel, GC
A line is: CODEC ROUND REQUESTS, then microseconds per request for total reader hpack input decoder after rest.
--methods reads the profiles h2load-profile.sh kept in DIR (PROFILES=DIR), DIR/profile-ROUND-CODEC.txt, and prints
the methods the samples of PART were in (the stack's last frame; an itable or vtable stub with its caller), each codec's
median over the rounds in microseconds per request, the largest differences first.
"""
import statistics
import sys

PARTS = ("reader", "hpack", "input", "decoder", "after", "rest")
AFTER = ("io/pooledh2/codec/Http2StreamResetHandler.", "io/netty/handler/codec/http2/Http2MultiplexHandler.",
         "io/pooledh2/example/")
DECODER = ("DefaultHttp2ConnectionDecoder$FrameReadListener.", "DefaultHttp2ConnectionDecoder$PrefaceFrameListener.")


def part(frames):
    """The part of one stack, its frames from the root."""
    start = next((i for i, f in enumerate(frames) if "ByteToMessageDecoder.channelRead" in f), None)
    if start is None:
        return "rest"
    below = frames[start:]
    if any(f.startswith(AFTER) for f in below):
        return "after"
    if any("HpackDecoder" in f for f in below):
        return "hpack"
    if any(marker in f for f in below for marker in DECODER):
        return "decoder"
    if any("DefaultHttp2ConnectionDecoder.decodeFrame" in f for f in below):
        return "reader"
    return "input"


def stacks(path):
    """A collapsed profile's stacks: each its frames from the root and its sample count."""
    for text in open(path):
        stack, _, count = text.rstrip("\n").rpartition(" ")
        if stack:
            yield stack.split(";"), int(count)


def line(codec, round_, requests, path):
    samples = dict.fromkeys(PARTS, 0)
    for frames, count in stacks(path):
        samples[part(frames)] += count
    if requests <= 0 or sum(samples.values()) == 0:
        sys.exit(f"codec-share: no requests or no samples in {path}")
    per_request = {k: v * 1000.0 / requests for k, v in samples.items()}
    total = sum(per_request.values())
    return f"{codec} {round_} {requests} " + " ".join(f"{v:.3f}" for v in [total] + [per_request[k] for k in PARTS])


def summary(path):
    columns = ("total",) + PARTS
    rows = {}
    for text in open(path):
        fields = text.split()
        rows.setdefault(fields[0], []).append([float(x) for x in fields[3:]])
    medians = {codec: [statistics.median(r[i] for r in values) for i in range(len(columns))]
               for codec, values in rows.items()}
    print("medians over the rounds, microseconds of CPU per request:")
    print("  codec   " + " ".join(f"{c:>8}" for c in columns) + "  rounds")
    for codec, m in medians.items():
        print(f"  {codec:7} " + " ".join(f"{v:8.3f}" for v in m) + f"  {len(rows[codec])}")
    if "pooled" in medians and "stock" in medians:
        p, s = medians["pooled"], medians["stock"]
        print("  pooled/stock " + " ".join(f"{c} {a / b:.3f}" if b else f"{c} -" for c, a, b in zip(columns, p, s)))
        reading = sum(s[1 + PARTS.index(k)] for k in ("reader", "hpack", "input"))
        codec = reading + s[1 + PARTS.index("decoder")]
        # "stock" and "pooled" name the arms: with h2load-profile.sh's CONTROL both may run the same codec.
        print(f"  stock: reader, HPACK and input {reading:.3f} us, {reading / s[0]:.1%} of its request; "
              f"with the decoder's listener {codec:.3f} us, {codec / s[0]:.1%}")
        pooled_reading = sum(p[1 + PARTS.index(k)] for k in ("reader", "hpack", "input"))
        print(f"  pooled: reader, HPACK and input {pooled_reading:.3f} us, {pooled_reading / p[0]:.1%} of its "
              f"request; pooled less stock {(pooled_reading - reading) / s[0]:+.1%} of stock's request")


def methods(part_name, lines_path, directory, top=25):
    if part_name not in PARTS:
        sys.exit(f"codec-share: no part {part_name}; the parts are {', '.join(PARTS)}")
    per_codec = {}
    for text in open(lines_path):
        codec, round_, requests = text.split()[:3]
        samples = {}
        for frames, count in stacks(f"{directory}/profile-{round_}-{codec}.txt"):
            if part(frames) == part_name:
                leaf = frames[-1]
                if leaf in ("itable stub", "vtable stub") and len(frames) > 1:
                    leaf += " from " + frames[-2]  # the call site: the stub alone names no method
                samples[leaf] = samples.get(leaf, 0) + count
        per_codec.setdefault(codec, []).append({k: v * 1000.0 / int(requests) for k, v in samples.items()})
    codecs = sorted(per_codec)
    names = set().union(*(r for rounds in per_codec.values() for r in rounds))
    medians = {name: [statistics.median(r.get(name, 0.0) for r in per_codec[c]) for c in codecs] for name in names}
    rows = sorted(medians.items(), key=lambda kv: (-(max(kv[1]) - min(kv[1]) if len(codecs) > 1 else -kv[1][0]), kv[0]))
    print(f"{part_name}: microseconds of CPU per request by method, medians over the rounds")
    print("  " + " ".join(f"{c:>8}" for c in codecs) + "  method")
    for name, values in rows[:top]:
        print("  " + " ".join(f"{v:8.3f}" for v in values) + "  " + name)
    print("  " + " ".join(f"{sum(v[i] for _, v in rows):8.3f}" for i in range(len(codecs))) + "  (all its methods)")


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "--line":
        print(line(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]))
    elif len(sys.argv) == 3 and sys.argv[1] == "--summary":
        summary(sys.argv[2])
    elif len(sys.argv) == 5 and sys.argv[1] == "--methods":
        methods(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)
