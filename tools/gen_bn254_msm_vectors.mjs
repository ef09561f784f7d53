#!/usr/bin/env node
/*
 * gen_bn254_msm_vectors.mjs: known answers for BN254's MSM and NTT from
 * snarkjs's own arithmetic library, ffjavascript (tools/oracle), for
 * tests/test_bn254_msm.c.
 *
 *   node tools/gen_bn254_msm_vectors.mjs > tests/vectors/bn254_msm.json
 *
 * Deterministic (splitmix64 from SEED, never Math.random): rerunning with
 * the same ffjavascript gives the same file byte for byte; the JSON
 * records the generator, ffjavascript's version and the seed.
 *   - msm_g1 / msm_g2: points k*G (k from the seed; one at infinity, one
 *     repeated, one the negation of another) as .zkey bytes (ffjavascript's
 *     LEM affine form: coordinates x * 2^256 mod p, little-endian, 32
 *     bytes; G2 x.c0, x.c1, y.c0, y.c1), scalars as plain little-endian
 *     32-byte hex (0, 1, r - 1, small and random values below r), and
 *     G.multiExpAffine's result (the MSM snarkjs's prover runs), as
 *     .zkey bytes;
 *   - ntt: Fr's nqr, shift and w[k] (ffjavascript's roots, the ones
 *     snarkjs's keys use) as hex, and for log sizes 1..5 a seeded vector
 *     with Fr.fft of it and snarkjs's H step on it (Fr.ifft, then
 *     batchApplyKey with first = 1 and inc = w[k + 1], then Fr.fft, as
 *     groth16_prove.js); vectors as plain hex of each element.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const ffdir = join(here, 'oracle', 'node_modules', 'ffjavascript');
const ff = await import(pathToFileURL(join(ffdir, 'main.js')).href);
const ffVersion = JSON.parse(readFileSync(join(ffdir, 'package.json'), 'utf8')).version;

const SEED = 0x6d736d6e7474n; // "msmntt"
const M64 = (1n << 64n) - 1n;
let state = SEED;
function next64() {
  state = (state + 0x9e3779b97f4a7c15n) & M64;
  let z = state;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
  return z ^ (z >> 31n);
}
function rand256() {
  return next64() | (next64() << 64n) | (next64() << 128n) | (next64() << 192n);
}

const curve = await ff.buildBn128(true);
const Fr = curve.Fr;
const R = curve.r;

const hex = (u8) => Buffer.from(u8).toString('hex');
function le32(x) {
  const b = new Uint8Array(32);
  for (let i = 0; i < 32; i++) { b[i] = Number(x & 0xffn); x >>= 8n; }
  return b;
}
const frHex = (e) => '0x' + BigInt(Fr.toString(e)).toString(16);

async function msm(G, n, nbytes) {
  const pts = [], sc = [];
  for (let i = 0; i < n; i++) {
    let p = G.timesScalar(G.g, le32(rand256() % R));
    if (i === 3) p = G.zero;                       /* infinity */
    if (i === 5) p = pts[4];                       /* repeated */
    if (i === 7) p = G.neg(pts[6]);                /* opposite */
    pts.push(p);
    let s = rand256() % R;
    if (i === 0) s = 0n;
    if (i === 1) s = 1n;
    if (i === 2) s = R - 1n;
    if (i === 8) s = 3n;
    if (i === 7) s = BigInt('0x' + sc[6].toString(16)); /* cancels point 6 */
    sc.push(s);
  }
  const bases = new Uint8Array(n * nbytes), scal = new Uint8Array(n * 32);
  for (let i = 0; i < n; i++) {
    G.toRprLEM(bases, i * nbytes, G.toAffine(pts[i]));
    scal.set(le32(sc[i]), i * 32);
  }
  const res = await G.multiExpAffine(bases, scal);
  const out = new Uint8Array(nbytes);
  G.toRprLEM(out, 0, G.toAffine(res));
  const points = [];
  for (let i = 0; i < n; i++) points.push(hex(bases.slice(i * nbytes, (i + 1) * nbytes)));
  return { n, points, scalars: sc.map((s) => hex(le32(s))), result: hex(out) };
}

const v = {
  provenance: {
    generator: 'tools/gen_bn254_msm_vectors.mjs',
    oracle: 'ffjavascript ' + ffVersion + ' (buildBn128: G.multiExpAffine, Fr.fft, Fr.ifft, Fr.batchApplyKey)',
    seed: '0x' + SEED.toString(16),
  },
  msm_g1: await msm(curve.G1, 70, 64),
  msm_g2: await msm(curve.G2, 20, 128),
};

const w = [];
for (let k = 0; k <= Fr.s; k++) w.push(frHex(Fr.w[k]));
const ntt = { s: Fr.s, nqr: frHex(Fr.nqr), shift: frHex(Fr.shift), w, cases: [] };
for (let k = 1; k <= 5; k++) {
  const n = 1 << k;
  const a = new Uint8Array(n * 32);
  const vals = [];
  for (let i = 0; i < n; i++) {
    const x = rand256() % R;
    vals.push('0x' + x.toString(16));
    a.set(Fr.e(x), i * 32);
  }
  const dump = (b) => {
    const o = [];
    for (let i = 0; i < n; i++) o.push(frHex(b.slice(i * 32, (i + 1) * 32)));
    return o;
  };
  const fwd = await Fr.fft(a.slice());
  let h = await Fr.ifft(a.slice());
  h = await Fr.batchApplyKey(h, Fr.e(1), Fr.w[k + 1]);
  h = await Fr.fft(h);
  ntt.cases.push({ log_n: k, input: vals, forward: dump(fwd), odd_points: dump(h) });
}
v.ntt = ntt;
process.stdout.write(JSON.stringify(v, null, 1) + '\n');
await curve.terminate();
