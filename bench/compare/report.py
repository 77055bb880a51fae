#!/usr/bin/env python3
"""Tables of kinema_import_compare runs: medians (CPU time) and ratios to kinema.

Usage: bench/compare/report.py run1.json [run2.json ...]

Each file is one run's --benchmark_out (JSON, with --benchmark_repetitions; aggregates
only or not). Models: the four with fastgltf reference figures first, then
every other model of the runs, sorted. Per run: one row per model with the median of
every library and the ratios tinygltf/kinema and assimp/kinema; benchmarks that
reported an error (their set-up's equal-work check failed, say) are listed with it. With several runs, a summary follows: per
model the median over runs of each run's median and of each run's ratios (a ratio is
formed within one run, so load drift between runs cancels), with the range of the ratios.
"""
import json
import statistics
import sys

REFERENCE_MODELS = ["CesiumMan", "RiggedFigure", "InterpolationTest", "RiggedSimple"]
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
    errors = {}
    for b in data["benchmarks"]:
        if b.get("error_occurred"):
            errors[b.get("run_name", b["name"])] = b.get("error_message", "")
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
    return out, data.get("context", {}), errors


def model_names(runs):
    names = {key.split("/")[0] for m in runs for key in m}
    return [m for m in REFERENCE_MODELS if m in names] + sorted(names - set(REFERENCE_MODELS))


def fmt(x):
    return "-" if x is None else (f"{x:.1f}" if x >= 10 else f"{x:.2f}")


def ratio(m, model, num, den):
    a, b = m.get(f"{model}/{num}"), m.get(f"{model}/{den}")
    return None if a is None or not b else a / b


def main(paths):
    loaded = [medians(path) for path in paths]
    MODELS = model_names([m for m, _, _ in loaded] + [e for _, _, e in loaded])
    runs = []
    for path, (m, ctx, errors) in zip(paths, loaded):
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
        for name, message in sorted(errors.items()):
            print(f"- {name}: error: {message}")
        if errors:
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
    io_table(runs, MODELS)


def io_table(runs, models):
    """Models with a <model>/buffer_files benchmark (.gltf with external buffers): the
    file I/O time, and the ratios with it taken off both sides (every library reads the
    same files in each iteration), per run, then the median over runs with the range."""
    models = [m for m in models if any(f"{m}/buffer_files" in r for r in runs)]
    if not models:
        return
    print("#### External buffer files: file I/O, and the ratios without it\n")
    print("| Model | buffer files (read whole) | kinema animpath - I/O | tinygltf parse+decode - I/O "
          "| assimp - I/O | kinema full - I/O | tinygltf p+d / kinema animpath without I/O "
          "| assimp / kinema full without I/O |")
    print("|---|" + "---:|" * 7)
    for model in models:
        def med(lib):
            v = [r[f"{model}/{lib}"] for r in runs if f"{model}/{lib}" in r]
            return statistics.median(v) if v else None

        def adjusted(num, den):
            v = []
            for r in runs:
                keys = [f"{model}/{k}" for k in (num, den, "buffer_files")]
                if all(k in r for k in keys) and r[keys[1]] > r[keys[2]]:
                    v.append((r[keys[0]] - r[keys[2]]) / (r[keys[1]] - r[keys[2]]))
            return f"{fmt(statistics.median(v))}x ({fmt(min(v))}-{fmt(max(v))})" if v else "-"

        io = med("buffer_files")
        cells = [fmt(io) + " us"]
        for lib in ("kinema_animpath", "tinygltf_decode", "assimp", "kinema"):
            x = med(lib)
            cells.append("-" if x is None or io is None else fmt(x - io) + " us")
        cells += [adjusted("tinygltf_decode", "kinema_animpath"), adjusted("assimp", "kinema")]
        print(f"| {model} | " + " | ".join(cells) + " |")
    print()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
