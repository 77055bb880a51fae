#!/usr/bin/env node
// Compares `kinema sample --json` with three.js (three_sample.mjs) number for number.
//
//   node tests/oracle/compare.mjs --kinema build/h-oracle/bin/kinema --assets ../shared/assets/gltf
//        [--only Model[,Model...]] [--verbose]
//
// For every .gltf/.glb in the assets folder (one level of model folders) and every animation index:
// looping run at keys, between keys, near the end (inside [0, duration)), past the end and before 0;
// clamped run (--clamp) at 0, duration and past the end; and the rest pose (--animation none) of every
// model. kinema runs plain and with --skinned; both outputs are compared with three's.
// Compared: animation duration, node indices and names, local translation / rotation (up to sign)
// / scale, world matrices, morph weights and world-space skinned vertex positions.
// Tolerance: |kinema - three| <= ABS_TOL + REL_TOL * max(|kinema|, |three|) for every number (see
// README.md). One line per (model, animation); last line "N passed, N failed"; exit 1 on a mismatch.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadThree, rotationDataIsUnit, sampleThree } from './three_sample.mjs';

export const ABS_TOL = 1e-4;
export const REL_TOL = 1e-5;

// Cases where three.js r187 is known to deviate from the glTF 2.0 specification and the comparison
// would test three rather than kinema. Each entry: { model, animation (index | 'rest' | '*'),
// what: 'positions' | 'weights' | 'trs' | 'world', why }. Keep it empty unless a deviation is proven.
// (Three's renderer applying a skinned mesh's own node transform is NOT excluded: three_sample.mjs
// computes spec positions from three's bone matrices instead, see posedPositions there.)
const KNOWN_THREE_DEVIATIONS = [];

function parseArgs(argv) {
  const o = { kinema: null, assets: null, only: null, verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--kinema') o.kinema = argv[++i];
    else if (a === '--assets') o.assets = argv[++i];
    else if (a === '--only') o.only = new Set(argv[++i].split(','));
    else if (a === '--verbose') o.verbose = true;
    else throw new Error(`unknown argument ${a}`);
  }
  if (!o.kinema || !o.assets) throw new Error('usage: compare.mjs --kinema PATH --assets DIR [--only Model,...] [--verbose]');
  return o;
}

export function findModels(assets) {
  const out = [];
  for (const d of fs.readdirSync(assets).sort()) {
    const dir = path.join(assets, d);
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const f of fs.readdirSync(dir).sort()) {
      if (/\.(gltf|glb)$/i.test(f)) out.push({ model: d, file: path.join(dir, f) });
    }
  }
  return out;
}

// JS number -> shortest decimal that parses back to the same double (what kinema's CLI reads).
const num = (t) => String(t);

// Times for one clip: t=0, up to 6 keys spread over the clip, the midpoint after each of them, a third
// of the way into the first interval, 99.9 % of the duration; for the loop run also about 1.37 *
// duration (wraps from above) and -0.29 * duration (wraps from below). Never exactly `duration` in
// the loop run. Times that are not keys keep clear of every key (kinema wraps and samples in float32,
// three in float64: a time a rounding error away from a STEP key would test the rounding, not the
// runtime).
function clipTimes(clip) {
  const duration = clip.duration;
  const keySet = new Set();
  for (const tr of clip.tracks) for (const t of tr.times) keySet.add(t);
  const keys = [...keySet].sort((a, b) => a - b);
  const clear = 1e-3 * Math.max(duration, 1e-3);
  const nearKey = (t) => keys.some((k) => Math.abs(k - t) < clear);
  const times = new Set([0]);
  const inside = keys.filter((t) => t < duration);
  const pick = Math.min(6, inside.length);
  for (let i = 0; i < pick; i++) {
    const t = inside[Math.round((i * (inside.length - 1)) / Math.max(1, pick - 1))];
    times.add(t);
    const next = keys.find((x) => x > t);
    if (next !== undefined) times.add((t + next) / 2);
  }
  if (keys.length > 1) times.add(keys[0] + (keys[1] - keys[0]) / 3);
  if (!nearKey(duration * 0.999)) times.add(duration * 0.999);
  const loop = [...times].filter((t) => t >= 0 && t < duration).sort((a, b) => a - b);
  // Outside [0, duration): a fraction f whose wrapped time f - floor(f) is clear of every key.
  const outside = (f) => {
    for (let i = 0; i < 50 && nearKey((f - Math.floor(f)) * duration); i++) f += 0.0137;
    return f * duration;
  };
  loop.push(outside(1.37), outside(-0.29));
  const clamp = [0, duration, duration * 1.5, -duration * 0.5, outside(0.5)];
  return { loop, clamp };
}

function runKinema(kinema, file, anim, times, { clamp = false, skinned = false } = {}) {
  const args = ['sample', file, '--animation', anim === null ? 'none' : String(anim), '--times', times.map(num).join(','), '--json'];
  if (clamp) args.push('--clamp');
  if (skinned) args.push('--skinned');
  const out = execFileSync(kinema, args, { maxBuffer: 1 << 30, encoding: 'utf8' });
  return JSON.parse(out);
}

class Checker {
  constructor(label) {
    this.label = label;
    this.max = { duration: 0, translation: 0, rotation: 0, scale: 0, world: 0, weights: 0, positions: 0 };
    this.failures = [];
    this.compared = 0;
  }
  fail(msg) {
    this.failures.push(msg);
  }
  // Compares two equal-length number arrays; `where` describes the location for the report.
  nums(cat, k, t, where, { sign = false } = {}) {
    if (!Array.isArray(k) || !Array.isArray(t) || k.length !== t.length) {
      this.fail(`${where} ${cat}: length kinema ${k?.length} vs three ${t?.length}`);
      return;
    }
    const measure = (s) => {
      let worst = 0;
      let worstRatio = 0;
      let at = -1;
      for (let i = 0; i < k.length; i++) {
        const a = k[i];
        const b = s * t[i];
        const err = Math.abs(a - b);
        const ratio = err / (ABS_TOL + REL_TOL * Math.max(Math.abs(a), Math.abs(b)));
        if (!(err <= worst)) worst = err;
        if (!(ratio <= worstRatio)) { worstRatio = ratio; at = i; }
      }
      return { worst, worstRatio, at };
    };
    let m = measure(1);
    if (sign) {
      const m2 = measure(-1);
      if (m2.worstRatio < m.worstRatio) m = m2;
    }
    this.compared += k.length;
    if (!(m.worst <= this.max[cat])) this.max[cat] = m.worst;
    if (!(m.worstRatio <= 1)) {
      this.fail(`${where} ${cat}: kinema ${JSON.stringify(k)} vs three ${JSON.stringify(t)} (|diff| ${m.worst.toExponential(3)}, component ${m.at})`);
    }
  }
}

function excluded(model, anim, what) {
  const a = anim === null ? 'rest' : anim;
  return KNOWN_THREE_DEVIATIONS.some((d) => d.model === model && (d.animation === '*' || d.animation === a) && d.what === what);
}

function compareRuns(ck, model, anim, kin, thr, { positions }) {
  const tag = `${model} anim ${anim === null ? 'rest' : anim}`;
  if ((kin.animation === null) !== (thr.animation === null)) {
    ck.fail(`${tag}: animation kinema ${JSON.stringify(kin.animation)} vs three ${JSON.stringify(thr.animation)}`);
    return;
  }
  if (kin.animation) {
    if (kin.animation.index !== thr.animation.index) ck.fail(`${tag}: animation index ${kin.animation.index} vs ${thr.animation.index}`);
    ck.nums('duration', [kin.animation.duration], [thr.animation.duration], `${tag}`);
  }
  if (kin.samples.length !== thr.samples.length) {
    ck.fail(`${tag}: ${kin.samples.length} samples vs ${thr.samples.length}`);
    return;
  }
  for (let s = 0; s < kin.samples.length; s++) {
    const ks = kin.samples[s];
    const ts = thr.samples[s];
    const at = `${tag} t=${num(ts.time)}`;
    if (ks.nodes.length !== ts.nodes.length) ck.fail(`${at}: ${ks.nodes.length} nodes vs ${ts.nodes.length}`);
    const tnodes = new Map(ts.nodes.map((n) => [n.index, n]));
    for (const kn of ks.nodes) {
      const tn = tnodes.get(kn.index);
      const w = `${at} node ${kn.index} (${kn.name})`;
      if (!tn) { ck.fail(`${w}: missing in three`); continue; }
      if (kn.name !== tn.name) ck.fail(`${w}: name '${kn.name}' vs three '${tn.name}'`);
      if (!excluded(model, anim, 'trs')) {
        ck.nums('translation', kn.translation, tn.translation, w);
        ck.nums('rotation', kn.rotation, tn.rotation, w, { sign: true });
        ck.nums('scale', kn.scale, tn.scale, w);
      }
      if (!excluded(model, anim, 'world')) ck.nums('world', kn.world, tn.world, w);
    }
    if (ks.meshes.length !== ts.meshes.length) ck.fail(`${at}: ${ks.meshes.length} mesh primitives vs ${ts.meshes.length}`);
    const key = (m) => `${m.node}/${m.mesh}/${m.primitive}`;
    const tmeshes = new Map(ts.meshes.map((m) => [key(m), m]));
    for (const km of ks.meshes) {
      const tm = tmeshes.get(key(km));
      const w = `${at} node ${km.node} mesh ${km.mesh} primitive ${km.primitive}`;
      if (!tm) { ck.fail(`${w}: missing in three`); continue; }
      if (!excluded(model, anim, 'weights')) ck.nums('weights', km.weights, tm.weights, w);
      if (!positions) {
        if (km.positions !== undefined) ck.fail(`${w}: positions printed without --skinned`);
      } else if (!excluded(model, anim, 'positions')) {
        if (!Array.isArray(km.positions) || km.positions.length !== tm.positions.length) {
          ck.fail(`${w}: ${km.positions?.length} positions vs three ${tm.positions.length}`);
        } else {
          // Per vertex, so that a failure names the vertex.
          for (let v = 0; v < km.positions.length; v++) {
            ck.nums('positions', km.positions[v], tm.positions[v], `${w} vertex ${v}`);
            if (ck.failures.length > 50) break; // enough to diagnose
          }
        }
      }
    }
  }
}

function fmt(x) {
  return x === 0 ? '0' : x.toExponential(1);
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const kinema = path.resolve(o.kinema);
  const started = Date.now();
  let passed = 0;
  let failed = 0;
  const models = findModels(o.assets).filter((m) => !o.only || o.only.has(m.model));
  if (models.length === 0) throw new Error(`no .gltf/.glb models under ${o.assets}`);

  for (const { model, file } of models) {
    const { json, gltf } = await loadThree(file);
    const animCount = (json.animations || []).length;
    // Known three.js deviation D1 (README.md): renormalise stored rotations for three when the file
    // has rotations off unit length; kinema (like the spec's unit-quaternion rule) treats them as unit.
    const unitRotations = !rotationDataIsUnit(json, gltf.animations);
    const runs = [null];
    for (let a = 0; a < animCount; a++) runs.push(a);
    for (const anim of runs) {
      const label = `${model} ${anim === null ? 'rest' : 'anim ' + anim}${unitRotations ? ' [D1]' : ''}`;
      const ck = new Checker(label);
      let nTimes = 0;
      try {
        if (anim === null) {
          const times = [0, 1.25];
          nTimes = times.length;
          const thr = await sampleThree(file, { animation: null, times, skinned: true, unitRotations });
          compareRuns(ck, model, anim, runKinema(kinema, file, null, times), thr, { positions: false });
          compareRuns(ck, model, anim, runKinema(kinema, file, null, times, { skinned: true }), thr, { positions: true });
        } else {
          // Key times come from three's clip (same accessor data kinema reads).
          const { loop, clamp } = clipTimes(gltf.animations[anim]);
          nTimes = loop.length + clamp.length;
          const thrLoop = await sampleThree(file, { animation: anim, times: loop, skinned: true, unitRotations });
          compareRuns(ck, model, anim, runKinema(kinema, file, anim, loop), thrLoop, { positions: false });
          compareRuns(ck, model, anim, runKinema(kinema, file, anim, loop, { skinned: true }), thrLoop, { positions: true });
          const thrClamp = await sampleThree(file, { animation: anim, times: clamp, clamp: true, skinned: true, unitRotations });
          compareRuns(ck, model, anim, runKinema(kinema, file, anim, clamp, { clamp: true, skinned: true }), thrClamp, { positions: true });
        }
      } catch (e) {
        ck.fail(`error: ${e.message.split('\n')[0]}`);
      }
      const ok = ck.failures.length === 0;
      if (ok) passed++; else failed++;
      const m = ck.max;
      console.log(
        `${ok ? 'PASS' : 'FAIL'} ${label.padEnd(30)} times ${String(nTimes).padStart(2)}  max|diff| ` +
          `T ${fmt(m.translation)} R ${fmt(m.rotation)} S ${fmt(m.scale)} world ${fmt(m.world)} ` +
          `weights ${fmt(m.weights)} pos ${fmt(m.positions)}  (${ck.compared} numbers)`,
      );
      const show = o.verbose ? ck.failures : ck.failures.slice(0, 5);
      for (const f of show) console.log(`    ${f}`);
      if (show.length < ck.failures.length) console.log(`    ... ${ck.failures.length - show.length} more (use --verbose)`);
    }
  }
  console.log(`tolerance: |kinema - three| <= ${ABS_TOL} + ${REL_TOL} * max(|kinema|, |three|); ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`compare: ${e.stack || e}`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  });
}
