#!/usr/bin/env python3
"""Whether two vqtwin JSON outputs carry the same values, bit for bit (every frame's metrics, the pooled
and the aggregate ones; at --precision max the printed values are exact), and which outputs the second
one's receipt names as computed on the CPU. Prints one line:
  SAME|DIFF [fallback:NAME,...] [first:frameN:METRIC=A/B(K keys)] engine fps A / B
  json_same.py CPU.json OTHER.json"""
import json
import sys


def main():
    try:
        a, b = (json.load(open(p)) for p in sys.argv[1:3])
    except (OSError, ValueError) as e:
        print(f"no comparison ({type(e).__name__}: a run failed or wrote no JSON)")
        return
    rec = b.get("backends", {})
    fallback = sorted(k for k, v in rec.items() if "cpu" in v or not v.endswith(("_cuda", "_vulkan")))
    key = lambda j: ([f.get("metrics") for f in j.get("frames", [])], j.get("pooled_metrics"), j.get("aggregate_metrics"))
    same = key(a) == key(b) and bool(a.get("frames"))
    first = ""
    if not same:
        fa, fb = a.get("frames", []), b.get("frames", [])
        for i, (x, y) in enumerate(zip(fa, fb)):
            d = [k for k in x.get("metrics", {}) if x["metrics"].get(k) != y.get("metrics", {}).get(k)]
            if d:
                first = f" first:frame{i}:{d[0]}={x['metrics'][d[0]]!r}/{y.get('metrics', {}).get(d[0])!r}({len(d)} keys)"
                break
        else:
            first = f" frames:{len(fa)}/{len(fb)}" if len(fa) != len(fb) else " pooled/aggregate differ"
    print(("SAME" if same else "DIFF") + (" fallback:" + ",".join(fallback[:6]) if fallback else "") + first +
          f" engine fps {a.get('fps', 0):.1f} / {b.get('fps', 0):.1f}")


if __name__ == "__main__":
    main()
