#!/usr/bin/env python3
"""Tables of kinema_import_compare runs: medians (CPU time) and ratios to kinema.

Usage: bench/compare/report.py run1.json [run2.json ...]

Each file is one run's --benchmark_out (JSON, with --benchmark_repetitions; aggregates
only or not). Per run: one row per model with the median of every library and the
ratios tinygltf/kinema and assimp/kinema. With several runs, a summary follows: per
model the median over runs of each run's median and of each run's ratios (a ratio is
formed within one run, so load drift between runs cancels), with the range of the ratios.
"""
import json
import statistics
import sys

MODELS = ["CesiumMan", "RiggedFigure", "InterpolationTest", "RiggedSimple"]
LIBS = ["kinema", "kinema_animpath", "tinygltf_parse", "tinygltf_decode", "assimp"]
# (label, numerator, denominator)
RATIOS = [
    ("tinygltf parse+decode / kinema animpath", "tinygltf_decode", "kinema_animpath"),
    ("tinygltf parse / kinema animpath", "tinygltf_parse", "kinema_animpath"),
    ("assimp / kinema animpath", "assimp", "kinema_animpath"),
    ("assimp / kinema full", "assimp", "kinema"),
]


def to_us(value, unit):
    return value * {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[unit]


def medians(path):
    with open(path) as f:
        data = json.load(f)
    per_rep = {}
    agg = {}
    for b in data["benchmarks"]:
        if b.get("error_occurred"):
            continue
        name = b.get("run_name", b["name"])
        t = to_us(b["cpu_time"], b.get("time_unit", "ns"))
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                agg[name] = t
        else:
            per_rep.setdefault(name, []).append(t)
    out = {name: statistics.median(v) for name, v in per_rep.items()}
    out.update(agg)
    return out, data.get("context", {})


def fmt(x):
    return "-" if x is None else (f"{x:.1f}" if x >= 10 else f"{x:.2f}")


def ratio(m, model, num, den):
    a, b = m.get(f"{model}/{num}"), m.get(f"{model}/{den}")
    return None if a is None or not b else a / b


def main(paths):
    runs = []
    for path in paths:
        m, ctx = medians(path)
        runs.append(m)
        load = ctx.get("load_avg")
        print(f"#### {path} ({ctx.get('date', '')}, load average {load})\n")
        print("| Model | kinema full | kinema animpath | tinygltf parse | tinygltf parse+decode | assimp | "
              + " | ".join(r[0] for r in RATIOS) + " |")
        print("|---|" + "---:|" * (len(LIBS) + len(RATIOS)))
        for model in MODELS:
            cells = [fmt(m.get(f"{model}/{lib}")) + " us" for lib in LIBS]
            cells += [fmt(ratio(m, model, n, d)) + "x" for _, n, d in RATIOS]
            print(f"| {model} | " + " | ".join(cells) + " |")
        print()
    if len(runs) > 1:
        print(f"#### Summary of {len(runs)} runs (median over runs; ratio range in brackets)\n")
        print("| Model | kinema full | kinema animpath | tinygltf parse | tinygltf parse+decode | assimp | "
              + " | ".join(r[0] for r in RATIOS) + " |")
        print("|---|" + "---:|" * (len(LIBS) + len(RATIOS)))
        for model in MODELS:
            cells = []
            for lib in LIBS:
                v = [m[f"{model}/{lib}"] for m in runs if f"{model}/{lib}" in m]
                cells.append((fmt(statistics.median(v)) if v else "-") + " us")
            for _, n, d in RATIOS:
                v = [r for r in (ratio(m, model, n, d) for m in runs) if r is not None]
                cells.append(f"{fmt(statistics.median(v))}x ({fmt(min(v))}-{fmt(max(v))})" if v else "-")
            print(f"| {model} | " + " | ".join(cells) + " |")
        print()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
