#!/usr/bin/env python3
"""Turns kinema_bench JSON output (run with --benchmark_repetitions=N
--benchmark_out=FILE --benchmark_out_format=json) into the Markdown tables of
docs/PERFORMANCE.md: per benchmark the median CPU time, the median of its per-unit
counter (ns per joint / vertex / call; the effective clock for Calibration/*), the coefficient of variation over the
repetitions, and for imports the reference figure and whether it is met.

usage: bench/report.py FILE.json
"""
import json
import sys

# fastgltf import times on a Zen 3 machine class (the import targets of
# docs/PERFORMANCE.md), in microseconds.
REFERENCE_US = {"CesiumMan": 120.0, "RiggedFigure": 65.0, "InterpolationTest": 40.0, "RiggedSimple": 15.0}
PER_UNIT = ("per_joint", "per_vertex", "per_call")


def to_us(value, unit):
    return value * {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[unit]


def main(path):
    with open(path) as f:
        data = json.load(f)
    ctx = data.get("context", {})
    print(f"<!-- {ctx.get('date', '?')}, {ctx.get('num_cpus', '?')} CPUs at {ctx.get('mhz_per_cpu', '?')} MHz, "
          f"load average {ctx.get('load_avg', '?')} -->")
    runs = {}
    order = []
    for b in data["benchmarks"]:
        if b.get("run_type") != "aggregate":
            continue
        name = b["run_name"]
        if name not in runs:
            runs[name] = {}
            order.append(name)
        runs[name][b["aggregate_name"]] = b

    imports = [n for n in order if n.startswith("Import")]
    others = [n for n in order if not n.startswith("Import")]

    print("\n| Benchmark | median CPU time | per unit (median) | CV | reps |")
    print("|---|---:|---:|---:|---:|")
    for name in others:
        med = runs[name].get("median")
        if med is None:
            continue
        unit = next((u for u in PER_UNIT if u in med), None)
        per = f"{med[unit] * 1e9:.1f} ns/{unit[4:]}" if unit else ""
        if "adds_per_s" in med:
            per = f"{med['adds_per_s'] / 1e9:.2f} G adds/s (effective GHz)"
        cv = runs[name].get("cv")
        cvs = f"{cv['cpu_time'] * 100:.1f}%" if cv else ""
        reps = med.get("repetitions", "")
        print(f"| {name} | {to_us(med['cpu_time'], med['time_unit']):.1f} us | {per} | {cvs} | {reps} |")

    print("\n| Model | reused importer | fresh importer | CV (reused) | fastgltf reference | met? |")
    print("|---|---:|---:|---:|---:|---|")
    models = sorted({n.split("/", 1)[1] for n in imports})
    for model in models:
        reused = runs.get(f"Import/{model}", {}).get("median")
        fresh = runs.get(f"ImportFreshImporter/{model}", {}).get("median")
        cv = runs.get(f"Import/{model}", {}).get("cv")
        r = to_us(reused["cpu_time"], reused["time_unit"]) if reused else None
        fr = to_us(fresh["cpu_time"], fresh["time_unit"]) if fresh else None
        ref = REFERENCE_US.get(model)
        met = "" if ref is None or r is None else ("yes" if r <= ref else f"no ({r / ref:.1f}x)")
        cells = ["" if r is None else f"{r:.1f} us", "" if fr is None else f"{fr:.1f} us",
                 "" if cv is None else f"{cv['cpu_time'] * 100:.1f}%", "" if ref is None else f"{ref:.0f} us", met]
        print(f"| {model} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
