#!/usr/bin/env node
// Khronos glTF-Validator (npm gltf-validator, pinned in package.json) as an oracle for `kinema validate`.
//
//   node tests/oracle/validate.mjs --kinema build/h-oracle/bin/kinema --assets ../shared/assets/gltf
//
// 1. Every .gltf/.glb in the assets folder: validateBytes with external resources read from the
//    model's folder; kinema must exit 0 exactly when the validator reports 0 errors.
// 2. A few broken copies of SimpleSkin.gltf (written to a temporary folder): structural errors that
//    the validator reports as errors and that no importer can work around; kinema must exit non-zero.
// 3. With --fixtures EXE (kinema_spec_fixtures, built from tests/oracle/write_fixtures.cpp): the
//    conformance fixtures of tests/support/spec_fixtures.hpp, written to a temporary folder with
//    their manifest. Per fixture: the validator reports exactly the fixture's error code at its
//    pointer (plus only the codes listed as its consequences), or nothing for accepted ones;
//    `kinema validate FILE` exits 1 with a fault line at the fixture's location, or 0 without any
//    fault or warning for accepted ones; `kinema validate --lenient FILE` exits 0 with a warning
//    at that location for recoverable ones, and exits 1 with the same fault for the others.
// One line per check; last line "N passed, N failed"; exit 1 on any disagreement.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import validator from 'gltf-validator';
import { findModels } from './compare.mjs';

function parseArgs(argv) {
  const o = { kinema: null, assets: null, fixtures: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--kinema') o.kinema = argv[++i];
    else if (argv[i] === '--assets') o.assets = argv[++i];
    else if (argv[i] === '--fixtures') o.fixtures = argv[++i];
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!o.kinema || !o.assets) throw new Error('usage: validate.mjs --kinema PATH --assets DIR [--fixtures PATH]');
  return o;
}

async function validate(file) {
  const dir = path.dirname(file);
  const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
    uri: path.basename(file),
    maxIssues: 0,
    externalResourceFunction: (uri) =>
      new Promise((resolve, reject) => {
        fs.readFile(path.resolve(dir, decodeURIComponent(uri)), (err, data) => (err ? reject(err.toString()) : resolve(new Uint8Array(data))));
      }),
  });
  const i = report.issues;
  const errorMessages = i.messages.filter((m) => m.severity === 0);
  const errors = errorMessages.map((m) => `${m.code} ${m.pointer ?? ''}`.trim());
  // Each error as {code, at}: its JSON pointer, "@N" for a byte offset, or '' when it has neither.
  const located = errorMessages.map((m) => ({ code: m.code, at: m.pointer ?? (m.offset !== undefined ? `@${m.offset}` : '') }));
  return { errors: i.numErrors, warnings: i.numWarnings, infos: i.numInfos, hints: i.numHints, codes: errors, located };
}

function kinemaValidate(kinema, file, extra = []) {
  const r = spawnSync(kinema, ['validate', ...extra, file], { encoding: 'utf8' });
  const text = `${r.stdout}${r.stderr}`.trim().split('\n');
  return { rc: r.status, first: text[0] ?? '', lines: text };
}

// Output lines that report something at exactly `location` ("file.gltf#/accessors/1" must not match
// "file.gltf#/accessors/11"): the location, preceded by the line start or a space, then ':'.
function linesAt(lines, location) {
  const escaped = location.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`(^|\\s)${escaped}:`);
  return lines.filter((l) => re.test(l));
}

// Broken copies of SimpleSkin.gltf: [name, mutate(json)]. Each is a hard error for the validator.
// (Not here: an unknown sampler interpolation such as 'SMOOTH' is only a warning for the validator,
// VALUE_NOT_IN_LIST, since the schema admits other strings; kinema rejects the file. See README.md.)
const MUTATIONS = [
  ['channel sampler out of range', (j) => { j.animations[0].channels[0].sampler = 7; }],
  ['channel target node out of range', (j) => { j.animations[0].channels[0].target.node = 42; }],
  ['rotation output is VEC3', (j) => { j.animations[0].samplers[0].output = 1; }],
  ['sampler input is not SCALAR', (j) => { j.animations[0].samplers[0].input = 6; }],
  ['skin joint out of range', (j) => { j.skins[0].joints[1] = 9; }],
  ['node loop (1 -> 2 -> 1)', (j) => { j.nodes[2].children = [1]; }],
  ['accessor runs past its bufferView', (j) => { j.accessors[1].count = 11; }],
  ['bufferView runs past its buffer', (j) => { j.bufferViews[4].byteLength = 400; }],
  ['inverseBindMatrices is VEC4', (j) => { j.skins[0].inverseBindMatrices = 3; }],
  ['scene lists a missing node', (j) => { j.scenes[0].nodes.push(17); }],
  ['node has matrix and TRS', (j) => { j.nodes[2].matrix = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]; }],
];

// One conformance fixture (manifest entry f, written at file): up to three checks.
async function checkFixture(f, file, kinema, line) {
  const accepted = f.validatorCode === '';
  const v = await validate(file);
  const seen = v.located.map((e) => `${e.code} ${e.at || '(no pointer)'}`).join(', ') || 'no errors';
  let ok;
  if (accepted) {
    // The base model must be clean outright; the other accepted fixtures must have no error.
    ok = v.errors === 0 && (f.name !== 'base' || v.warnings === 0);
  } else {
    const hit = v.located.some((e) => e.code === f.validatorCode && e.at === f.validatorPointer);
    const allowed = new Set([f.validatorCode, ...f.validatorAlso]);
    ok = hit && v.located.every((e) => allowed.has(e.code));
  }
  const want = accepted ? 'no error' : `${f.validatorCode} ${f.validatorPointer || '(no pointer)'}`;
  line(ok, `${f.name}: validator`, `want ${want}; got ${seen} (E/W/I/H ${v.errors}/${v.warnings}/${v.infos}/${v.hints})`);

  const base = path.basename(file);
  const strict = kinemaValidate(kinema, file);
  if (accepted) {
    const reported = strict.lines.filter((l) => l.includes(`${base}#`) || l.includes(`${base}@`));
    ok = strict.rc === 0 && reported.length === 0;
    line(ok, `${f.name}: kinema strict`, `want exit 0, no fault or warning; got exit ${strict.rc}`);
    if (!ok) for (const l of strict.lines.slice(0, 5)) console.log(`    kinema: ${l}`);
    return;
  }
  ok = strict.rc === 1 && linesAt(strict.lines, f.location).length > 0;
  line(ok, `${f.name}: kinema strict`, `want exit 1 at ${f.location}; got exit ${strict.rc}`);
  if (!ok) for (const l of strict.lines.slice(0, 5)) console.log(`    kinema: ${l}`);

  const lenient = kinemaValidate(kinema, file, ['--lenient']);
  if (f.recoverable) {
    ok = lenient.rc === 0 && linesAt(lenient.lines, f.location).length > 0;
    line(ok, `${f.name}: kinema lenient`, `want exit 0, warning at ${f.location}; got exit ${lenient.rc}`);
  } else {
    ok = lenient.rc === 1 && linesAt(lenient.lines, f.location).length > 0;
    line(ok, `${f.name}: kinema lenient`, `want exit 1 at ${f.location} (not recoverable); got exit ${lenient.rc}`);
  }
  if (!ok) for (const l of lenient.lines.slice(0, 5)) console.log(`    kinema: ${l}`);
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const kinema = path.resolve(o.kinema);
  let passed = 0;
  let failed = 0;
  const line = (ok, label, detail) => {
    if (ok) passed++; else failed++;
    console.log(`${ok ? 'PASS' : 'FAIL'} ${label.padEnd(44)} ${detail}`);
  };

  for (const { model, file } of findModels(o.assets)) {
    const v = await validate(file);
    const k = kinemaValidate(kinema, file);
    const agree = (v.errors === 0) === (k.rc === 0);
    line(agree, `${model}/${path.basename(file)}`, `validator E/W/I/H ${v.errors}/${v.warnings}/${v.infos}/${v.hints}  kinema exit ${k.rc}`);
    if (!agree) {
      for (const c of v.codes.slice(0, 5)) console.log(`    validator: ${c}`);
      for (const l of k.lines.slice(0, 5)) console.log(`    kinema: ${l}`);
    }
  }

  const base = path.join(o.assets, 'SimpleSkin', 'SimpleSkin.gltf');
  if (fs.existsSync(base)) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kinema-oracle-'));
    try {
      const srcDir = path.dirname(base);
      for (const f of fs.readdirSync(srcDir)) if (f !== 'SimpleSkin.gltf') fs.copyFileSync(path.join(srcDir, f), path.join(tmp, f));
      const original = JSON.parse(fs.readFileSync(base, 'utf8'));
      MUTATIONS.forEach(([name, mutate], n) => {
        const j = structuredClone(original);
        mutate(j);
        fs.writeFileSync(path.join(tmp, `m${n}.gltf`), JSON.stringify(j));
      });
      for (let n = 0; n < MUTATIONS.length; n++) {
        const file = path.join(tmp, `m${n}.gltf`);
        const v = await validate(file);
        const k = kinemaValidate(kinema, file);
        // The case is only meaningful when the validator calls it an error; then kinema must reject it.
        const ok = v.errors > 0 && k.rc !== 0;
        line(ok, `SimpleSkin broken: ${MUTATIONS[n][0]}`, `validator errors ${v.errors} (${v.codes[0] ?? '-'})  kinema exit ${k.rc}`);
        if (!ok) for (const l of k.lines.slice(0, 3)) console.log(`    kinema: ${l}`);
      }
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
  if (o.fixtures) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kinema-spec-'));
    try {
      const w = spawnSync(path.resolve(o.fixtures), [tmp], { encoding: 'utf8' });
      if (w.status !== 0) throw new Error(`${o.fixtures} failed (exit ${w.status}): ${w.stderr}`);
      const manifest = JSON.parse(fs.readFileSync(path.join(tmp, 'manifest.json'), 'utf8'));
      for (const f of manifest) await checkFixture(f, path.join(tmp, f.file), kinema, line);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  } else {
    console.log('SKIP conformance fixtures                          (no --fixtures kinema_spec_fixtures given)');
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(`validate: ${e.stack || e}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
