#!/usr/bin/env node
// three.js as an independent oracle for `kinema sample --json`.
//
//   node tests/oracle/three_sample.mjs FILE [--animation I|none] --times t0,t1,... [--clamp] [--skinned]
//        [--unit-rotations] [--json]
//
// Loads a .gltf/.glb with three's GLTFLoader.parse in Node (no DOM), plays animation I with an
// AnimationMixer (LoopRepeat, or LoopOnce + clampWhenFinished with --clamp) and prints the same
// JSON shape as `kinema sample --json`. The output is always JSON (--json is accepted for symmetry).
// --unit-rotations renormalises stored rotations first (known three.js deviation D1, see README.md).
//
// Node has no DOM, so before parsing we
//   * drop images, textures, samplers and materials (three then uses its default material; none of
//     them changes a transform, a morph weight or a vertex position), and
//   * inline every buffer (the GLB BIN chunk and external .bin files) as a base64 data: URI, which
//     three's FileLoader reads through Node's fetch (Node 20 lacks the DOM's ProgressEvent that
//     FileLoader constructs while streaming: a minimal stand-in is installed below).
// Everything that is compared (accessor decoding, sparse accessors, node hierarchy, skins, morph
// targets, animation sampling and interpolation, looping) is three.js's own code.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

if (typeof globalThis.ProgressEvent === 'undefined') {
  globalThis.ProgressEvent = class ProgressEvent extends Event {
    constructor(type, init = {}) {
      super(type);
      this.lengthComputable = !!init.lengthComputable;
      this.loaded = init.loaded ?? 0;
      this.total = init.total ?? 0;
    }
  };
}

const GLB_MAGIC = 0x46546c67; // 'glTF'
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;

// Reads a .gltf or .glb; returns { json, buffers: [Uint8Array per json.buffers entry] }.
export function readGltf(file) {
  const bytes = fs.readFileSync(file);
  const dir = path.dirname(file);
  let json;
  let bin = null;
  if (bytes.length >= 12 && bytes.readUInt32LE(0) === GLB_MAGIC) {
    const total = bytes.readUInt32LE(8);
    let off = 12;
    while (off + 8 <= total) {
      const len = bytes.readUInt32LE(off);
      const type = bytes.readUInt32LE(off + 4);
      const chunk = bytes.subarray(off + 8, off + 8 + len);
      if (type === CHUNK_JSON && json === undefined) json = JSON.parse(new TextDecoder().decode(chunk));
      else if (type === CHUNK_BIN && bin === null) bin = chunk;
      off += 8 + len;
    }
    if (json === undefined) throw new Error(`${file}: GLB without a JSON chunk`);
  } else {
    json = JSON.parse(new TextDecoder().decode(bytes));
  }
  const buffers = (json.buffers || []).map((b, i) => {
    if (b.uri === undefined) {
      if (i !== 0 || bin === null) throw new Error(`${file}: buffer ${i} has no uri and no GLB BIN chunk`);
      return bin;
    }
    if (b.uri.startsWith('data:')) return null; // already inline
    return fs.readFileSync(path.join(dir, decodeURIComponent(b.uri)));
  });
  return { json, buffers };
}

// A copy of the glTF JSON that three can parse in Node: no images/textures/materials, inline buffers.
export function prepareForNode(json, buffers) {
  const j = structuredClone(json);
  delete j.images;
  delete j.textures;
  delete j.samplers;
  delete j.materials;
  for (const mesh of j.meshes || []) for (const prim of mesh.primitives || []) delete prim.material;
  j.buffers = (j.buffers || []).map((b, i) => {
    if (buffers[i] === null) return b;
    const { uri, ...rest } = b;
    return { ...rest, uri: 'data:application/octet-stream;base64,' + Buffer.from(buffers[i]).toString('base64') };
  });
  return j;
}

export async function loadThree(file) {
  const { json, buffers } = readGltf(file);
  const prepared = prepareForNode(json, buffers);
  const loader = new GLTFLoader();
  const gltf = await new Promise((resolve, reject) => loader.parse(prepared, '', resolve, reject));
  const parser = gltf.parser;
  // The three object of every glTF node (nodeCache: also nodes outside the default scene).
  const nodeObjects = await Promise.all((json.nodes || []).map((_, i) => parser.getDependency('node', i)));
  for (let i = 0; i < nodeObjects.length; i++) {
    const a = parser.associations.get(nodeObjects[i]);
    if (a && a.nodes !== undefined && a.nodes !== i)
      throw new Error(`${file}: three object of node ${i} is associated with node ${a.nodes}`);
  }
  return { json, gltf, parser, nodeObjects };
}

// The three Mesh objects that draw primitive 0..n-1 of node `nodeIndex`'s mesh.
function primitiveObjects(parser, json, nodeObjects, nodeIndex) {
  const meshIndex = json.nodes[nodeIndex].mesh;
  const count = json.meshes[meshIndex].primitives.length;
  const out = new Array(count).fill(null);
  const consider = (o) => {
    const a = parser.associations.get(o);
    if (o.isMesh && a && a.meshes === meshIndex && a.primitives !== undefined) out[a.primitives] = o;
  };
  const obj = nodeObjects[nodeIndex];
  consider(obj);
  // Multi-primitive meshes (and nodes that are both a joint and a mesh) hang the meshes as children.
  for (const child of obj.children) {
    const a = parser.associations.get(child);
    if (a && a.nodes !== undefined) continue; // a glTF child node, not one of this node's primitives
    consider(child);
  }
  if (count === 1 && out[0] === null && obj.isMesh) out[0] = obj; // single primitive, no association
  for (let p = 0; p < count; p++)
    if (out[p] === null) throw new Error(`node ${nodeIndex}: three object for mesh ${meshIndex} primitive ${p} not found`);
  return out;
}

const arr = (v) => Array.from(v);

function updateWorld(nodeObjects) {
  const roots = new Set();
  for (const o of nodeObjects) {
    let r = o;
    while (r.parent) r = r.parent;
    roots.add(r);
  }
  for (const r of roots) r.updateMatrixWorld(true);
}

// World-space position of every vertex of one primitive after morphing and skinning, computed the
// way three renders it: Mesh/SkinnedMesh.getVertexPosition (morph displacements, then for a skinned
// mesh applyBoneTransform = bindMatrixInverse * sum_i w_i * (bone_i.matrixWorld * boneInverse_i) *
// bindMatrix * v), then the object's matrixWorld (the model matrix of three's vertex shader).
//
// glTF: a skinned vertex is sum_i w_i * (jointWorld_i * inverseBind_i) * morphed(v) and the skinned
// mesh node's own transform (and its parents') is ignored. three gets the same result because
// GLTFLoader binds every SkinnedMesh with bindMatrix = identity and AttachedBindMode, in which
// SkinnedMesh.updateMatrixWorld sets bindMatrixInverse = inverse(matrixWorld): the trailing
// matrixWorld cancels it. We check both preconditions rather than assume them.
const _v = new THREE.Vector3();
const _identity = new THREE.Matrix4();
function posedPositions(mesh) {
  if (mesh.isSkinnedMesh) {
    if (mesh.bindMode !== THREE.AttachedBindMode || !mesh.bindMatrix.equals(_identity))
      throw new Error(`SkinnedMesh ${mesh.name}: not bound the way GLTFLoader r187 binds (attached, identity)`);
  }
  const pos = mesh.geometry.attributes.position;
  const out = [];
  for (let i = 0; i < pos.count; i++) {
    mesh.getVertexPosition(i, _v); // morph (+ bone transform for a SkinnedMesh)
    _v.applyMatrix4(mesh.matrixWorld);
    out.push([_v.x, _v.y, _v.z]);
  }
  return out;
}

// Known three.js deviation D1 (README.md): three uses rotation data as stored. A glTF rotation
// (node.rotation or a rotation key) is a unit quaternion; files written with few decimals (e.g.
// 0.707, 0.383/0.924) are a little off unit length (accepted by glTF-Validator's tolerance) and
// three then builds non-rigid matrices from them (Matrix4.compose assumes |q| = 1) and slerps with
// a slightly wrong angle. With unitRotations, we renormalise the stored rotations before three
// uses them: rest rotations of nodes, and the values (not the cubic tangents) of rotation keys
// whose |q|^2 is more than 1e-6 from 1 (kinema's threshold; the float32 rounding of a unit
// quaternion stays far below it). Everything else (interpolation, slerp, looping) stays three's.
export function rotationDataIsUnit(json, clips) {
  for (const n of json.nodes || [])
    if (n.rotation && Math.abs(n.rotation.reduce((a, x) => a + x * x, 0) - 1) > 1e-6) return false;
  for (const clip of clips || [])
    for (const tr of clip.tracks) {
      if (!(tr instanceof THREE.QuaternionKeyframeTrack)) continue;
      const cubic = tr.createInterpolant.name === 'InterpolantFactoryMethodGLTFCubicSpline';
      const stride = cubic ? 12 : 4;
      const first = cubic ? 4 : 0;
      for (let k = 0; k < tr.times.length; k++) {
        const o = k * stride + first;
        const v = tr.values;
        if (Math.abs(v[o] * v[o] + v[o + 1] * v[o + 1] + v[o + 2] * v[o + 2] + v[o + 3] * v[o + 3] - 1) > 1e-6) return false;
      }
    }
  return true;
}

function renormaliseRotations(json, nodeObjects, clips) {
  (json.nodes || []).forEach((n, i) => { if (n.rotation) nodeObjects[i].quaternion.normalize(); });
  for (const clip of clips)
    for (const tr of clip.tracks) {
      if (!(tr instanceof THREE.QuaternionKeyframeTrack)) continue;
      const cubic = tr.createInterpolant.name === 'InterpolantFactoryMethodGLTFCubicSpline';
      const stride = cubic ? 12 : 4;
      const first = cubic ? 4 : 0;
      const v = Float32Array.from(tr.values); // accessor arrays may be shared: copy before editing
      for (let k = 0; k < tr.times.length; k++) {
        const o = k * stride + first;
        const len2 = v[o] * v[o] + v[o + 1] * v[o + 1] + v[o + 2] * v[o + 2] + v[o + 3] * v[o + 3];
        if (Math.abs(len2 - 1) <= 1e-6 || len2 === 0) continue;
        const inv = 1 / Math.sqrt(len2);
        for (let c = 0; c < 4; c++) v[o + c] *= inv;
      }
      tr.values = v;
    }
}

// Samples `file` like `kinema sample --json`. animation: index (number) or null for the rest pose.
export async function sampleThree(file, { animation = 0, times = [0], clamp = false, skinned = false, unitRotations = false } = {}) {
  const { json, gltf, parser, nodeObjects } = await loadThree(file);
  if (unitRotations) renormaliseRotations(json, nodeObjects, gltf.animations);
  const animCount = (json.animations || []).length;
  let clip = null;
  let action = null;
  let mixer = null;
  if (animation !== null && animCount > 0) {
    if (!(animation >= 0 && animation < animCount)) throw new Error(`animation ${animation} does not exist (${animCount})`);
    clip = gltf.animations[animation];
    mixer = new THREE.AnimationMixer(gltf.scene);
    action = mixer.clipAction(clip);
    if (clamp) {
      action.setLoop(THREE.LoopOnce, 1);
      action.clampWhenFinished = true;
    } else {
      action.setLoop(THREE.LoopRepeat, Infinity);
    }
    action.play();
  }
  const meshNodes = [];
  (json.nodes || []).forEach((n, i) => { if (n.mesh !== undefined) meshNodes.push(i); });

  const samples = [];
  for (const time of times) {
    if (mixer) {
      // LoopOnce pauses (clampWhenFinished) once it reaches the end: re-arm it for every sample.
      action.paused = false;
      action.enabled = true;
      mixer.setTime(time);
    }
    updateWorld(nodeObjects);
    const nodes = nodeObjects.map((o, i) => ({
      index: i,
      name: json.nodes[i].name ?? '',
      translation: o.position.toArray(),
      rotation: o.quaternion.toArray(),
      scale: o.scale.toArray(),
      world: arr(o.matrixWorld.elements),
    }));
    const meshes = [];
    for (const n of meshNodes) {
      const prims = primitiveObjects(parser, json, nodeObjects, n);
      prims.forEach((m, p) => {
        const entry = { node: n, mesh: json.nodes[n].mesh, primitive: p, weights: arr(m.morphTargetInfluences || []) };
        if (skinned) entry.positions = posedPositions(m);
        meshes.push(entry);
      });
    }
    samples.push({ time, nodes, meshes });
  }
  return {
    file,
    animation: clip ? { index: animation, name: json.animations[animation].name ?? '', duration: clip.duration } : null,
    samples,
  };
}

function parseArgs(argv) {
  const o = { file: null, animation: '0', times: null, clamp: false, skinned: false, unitRotations: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--animation') o.animation = argv[++i];
    else if (a === '--times') o.times = argv[++i].split(',').map(Number);
    else if (a === '--clamp') o.clamp = true;
    else if (a === '--skinned') o.skinned = true;
    else if (a === '--unit-rotations') o.unitRotations = true;
    else if (a === '--json') { /* always JSON */ }
    else if (!a.startsWith('--') && o.file === null) o.file = a;
    else throw new Error(`unknown argument ${a}`);
  }
  if (!o.file || !o.times || o.times.some((t) => !Number.isFinite(t)))
    throw new Error('usage: three_sample.mjs FILE [--animation I|none] --times t0,t1,... [--clamp] [--skinned] [--unit-rotations] [--json]');
  return o;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const o = parseArgs(process.argv.slice(2));
    const anim = o.animation === 'none' ? null : Number(o.animation);
    const result = await sampleThree(o.file, { animation: anim, times: o.times, clamp: o.clamp, skinned: o.skinned, unitRotations: o.unitRotations });
    process.stdout.write(JSON.stringify(result) + '\n');
  } catch (e) {
    process.stderr.write(`three_sample: ${e.stack || e}\n`);
    process.exit(1);
  }
}
