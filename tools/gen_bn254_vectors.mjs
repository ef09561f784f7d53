#!/usr/bin/env node
/*
 * gen_bn254_vectors.mjs: known-answer vectors for BN254 ("bn128") from an
 * independent implementation, @noble/curves' bn254 (tools/oracle), for
 * tests/test_bn254.c.
 *
 *   node tools/gen_bn254_vectors.mjs > tests/vectors/bn254.json
 *
 * Deterministic: every random value comes from splitmix64 seeded with SEED
 * (never Math.random), so rerunning with the same noble version gives the
 * same file byte for byte; the JSON records the generator, noble's version
 * and the seed. Conventions (as tools/gen_vectors.mjs for BLS12-381):
 *   - field elements: "0x" + lowercase hex of the plain value;
 *   - Fp2: [c0, c1] for c0 + c1 u, u^2 = -1; Fp6: [c0, c1, c2] of Fp2;
 *     Fp12: the 12 Fp coefficients in struct order c0.c0.c0, c0.c0.c1,
 *     c0.c1.c0, ..., c1.c2.c1 (Fp12 = c0 + c1 w over Fp6 = Fp2[v]);
 *   - points: {x, y} affine or {"infinity": true}, plus the snarkjs forms:
 *     "zkey" the .zkey bytes (x then y, each coordinate x * 2^256 mod p
 *     little-endian, 32 bytes; G2 x.c0, x.c1, y.c0, y.c1; infinity all
 *     zero) and "dec" the JSON decimal strings (projective, z = "1", or
 *     ("0", "1", "0") for infinity; G2 as pairs);
 *   - pairings: noble's bn254.pairing (Miller loop with the two Frobenius
 *     lines, final exponentiation of Fuentes-Castaneda et al.), as Fp12.
 * Invalid points carry the status cuzk must return: NOT_ON_CURVE, SUBGROUP
 * (a point of the twist outside G2), FORMAT (a coordinate >= p).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const oracle = join(here, 'oracle', 'node_modules', '@noble', 'curves');
const { bn254 } = await import(pathToFileURL(join(oracle, 'bn254.js')).href);
const nobleVersion = JSON.parse(readFileSync(join(oracle, 'package.json'), 'utf8')).version;

const SEED = 0x626e323534n; // "bn254"
const { Fp, Fp2, Fp6, Fp12 } = bn254.fields;
const Fr = bn254.fields.Fr;
const G1 = bn254.G1.Point;
const G2 = bn254.G2.Point;
const P = Fp.ORDER;
const R = Fr.ORDER;
const M64 = (1n << 64n) - 1n;

let state = SEED;
function next64() {
  state = (state + 0x9e3779b97f4a7c15n) & M64;
  let z = state;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
  return z ^ (z >> 31n);
}
function randBelow(m) {
  const words = Math.ceil(m.toString(2).length / 64) + 1;
  let v = 0n;
  for (let i = 0; i < words; i++) v = (v << 64n) | next64();
  return v % m;
}

const hx = (v) => '0x' + v.toString(16);
const be = (v, n) => v.toString(16).padStart(2 * n, '0');
const le = (v, n) => Buffer.from(be(v, n), 'hex').reverse().toString('hex');
const mont = (v) => le((v << 256n) % P, 32);
const fp2 = (a) => [hx(a.c0), hx(a.c1)];
const fp6 = (a) => [fp2(a.c0), fp2(a.c1), fp2(a.c2)];
const fp12 = (a) => [a.c0, a.c1].flatMap((s) => [s.c0, s.c1, s.c2].flatMap((t) => [hx(t.c0), hx(t.c1)]));
const rfp2 = () => Fp2.create({ c0: randBelow(P), c1: randBelow(P) });
const rfp6 = () => Fp6.create({ c0: rfp2(), c1: rfp2(), c2: rfp2() });
const rfp12 = () => Fp12.create({ c0: rfp6(), c1: rfp6() });
function tryOr(f, dflt) {
  try {
    return f();
  } catch (e) {
    return dflt;
  }
}

function fieldVectors(F, n) {
  const m = F.ORDER;
  const pairs = [[0n, 1n], [1n, 1n], [1n, m - 1n], [m - 1n, m - 1n], [2n, (m + 1n) / 2n],
                 [m - 1n, 0n], [(1n << 64n) - 1n, 1n << 64n], [5n, 3n]];
  while (pairs.length < n) pairs.push([randBelow(m), randBelow(m)]);
  return pairs.map(([a, b]) => {
    const v = { a: hx(a), b: hx(b), a_dec: a.toString(10),
                add: hx(F.add(a, b)), sub: hx(F.sub(a, b)), mul: hx(F.mul(a, b)) };
    v.inv = a === 0n ? '0x0' : hx(F.inv(a)); // cuzk maps 1/0 to 0
    const root = tryOr(() => F.sqrt(a), null);
    if (root !== null && F.sqr(root) !== a) throw new Error('noble sqrt inconsistent');
    if (root === null && F.pow(a, (m - 1n) / 2n) !== m - 1n) throw new Error('sqrt missing');
    v.sqrt = root === null ? null : hx(root);
    return v;
  });
}

function fp2Vectors(n) {
  const pairs = [[Fp2.ONE, Fp2.ONE],
                 [Fp2.create({ c0: 0n, c1: 1n }), Fp2.create({ c0: 0n, c1: 1n })],
                 [Fp2.create({ c0: 9n, c1: 1n }), Fp2.create({ c0: P - 1n, c1: 0n })]];
  while (pairs.length < n) pairs.push([rfp2(), rfp2()]);
  return pairs.map(([a, b]) => {
    const root = tryOr(() => Fp2.sqrt(a), null);
    if (root !== null && !Fp2.eql(Fp2.sqr(root), a)) throw new Error('noble Fp2 sqrt wrong');
    return { a: fp2(a), b: fp2(b), add: fp2(Fp2.add(a, b)), sub: fp2(Fp2.sub(a, b)),
             mul: fp2(Fp2.mul(a, b)), sqr: fp2(Fp2.sqr(a)), inv: fp2(Fp2.inv(a)),
             mul_nr: fp2(Fp2.mulByNonresidue(a)), frobenius1: fp2(Fp2.frobeniusMap(a, 1)),
             sqrt: root === null ? null : fp2(root) };
  });
}

function fp6Vectors(n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const a = rfp6(), b = rfp6();
    out.push({ a: fp6(a), b: fp6(b), mul: fp6(Fp6.mul(a, b)), sqr: fp6(Fp6.sqr(a)),
               inv: fp6(Fp6.inv(a)), mul_nr: fp6(Fp6.mulByNonresidue(a)),
               frobenius1: fp6(Fp6.frobeniusMap(a, 1)), frobenius2: fp6(Fp6.frobeniusMap(a, 2)) });
  }
  return out;
}

function fp12Vectors(n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const a = rfp12(), b = rfp12();
    out.push({ a: fp12(a), b: fp12(b), mul: fp12(Fp12.mul(a, b)), sqr: fp12(Fp12.sqr(a)),
               inv: fp12(Fp12.inv(a)), conj: fp12(Fp12.conjugate(a)),
               frobenius1: fp12(Fp12.frobeniusMap(a, 1)), frobenius2: fp12(Fp12.frobeniusMap(a, 2)),
               frobenius3: fp12(Fp12.frobeniusMap(a, 3)), frobenius6: fp12(Fp12.frobeniusMap(a, 6)),
               final_exp: fp12(Fp12.finalExponentiate(a)) });
  }
  return out;
}

function g1Point(pt) {
  if (pt.is0()) return { infinity: true, zkey: '00'.repeat(64), dec: ['0', '1', '0'] };
  const { x, y } = pt.toAffine();
  return { x: hx(x), y: hx(y), zkey: mont(x) + mont(y), dec: [x.toString(10), y.toString(10), '1'] };
}
function g2Point(pt) {
  if (pt.is0()) return { infinity: true, zkey: '00'.repeat(128), dec: [['0', '0'], ['1', '0'], ['0', '0']] };
  const { x, y } = pt.toAffine();
  return { x: fp2(x), y: fp2(y), zkey: mont(x.c0) + mont(x.c1) + mont(y.c0) + mont(y.c1),
           dec: [[x.c0.toString(10), x.c1.toString(10)], [y.c0.toString(10), y.c1.toString(10)], ['1', '0']] };
}

const mulG = (Pt, k) => (k === 0n ? Pt.ZERO : Pt.BASE.multiply(k));
const scalars = [0n, 1n, 2n, 3n, 123456789n, R - 1n, R - 2n, (R + 1n) / 2n, 1n << 128n];
while (scalars.length < 14) scalars.push(randBelow(R));

function groupVectors(Pt, enc) {
  const mul = scalars.map((k) => ({ k: hx(k), point: enc(mulG(Pt, k)) }));
  const add = [];
  const pairs = [[1n, 2n], [5n, 5n], [7n, R - 7n], [0n, 9n]];
  while (pairs.length < 8) pairs.push([randBelow(R), randBelow(R)]);
  for (const [a, b] of pairs) {
    const pa = mulG(Pt, a), pb = mulG(Pt, b);
    add.push({ p: enc(pa), q: enc(pb), sum: enc(pa.add(pb)) });
  }
  return { mul, add };
}

const B2 = Fp2.div(Fp2.create({ c0: 3n, c1: 0n }), Fp2.create({ c0: 9n, c1: 1n })); // 3 / (9 + u)
// G1 is the whole curve (cofactor 1): an invalid point is off the curve.
// G2: a point of the twist outside the r-torsion, found by trying x = 1, 2, ...
function g2OffSubgroup() {
  for (let i = 1n; ; i++) {
    const x = Fp2.create({ c0: i, c1: 0n });
    const y = tryOr(() => Fp2.sqrt(Fp2.add(Fp2.pow(x, 3n), B2)), null);
    if (y === null) continue;
    const pt = new G2(x, y, Fp2.ONE); // on the twist; noble checks the subgroup only on request
    if (!pt.multiplyUnsafe(R - 1n).add(pt).is0()) return pt; // [r]P != 0
  }
}
function invalidVectors() {
  const g1bad = { x: hx(1n), y: hx(3n), status: 'NOT_ON_CURVE', zkey: mont(1n) + mont(3n) };
  const g1big = { status: 'FORMAT', zkey: le(P, 32) + mont(2n) };
  const q = g2OffSubgroup();
  const { x, y } = q.toAffine();
  const g2bad = { x: fp2(x), y: fp2(y), status: 'SUBGROUP',
                  zkey: mont(x.c0) + mont(x.c1) + mont(y.c0) + mont(y.c1) };
  const g2off = { status: 'NOT_ON_CURVE', zkey: mont(x.c0) + mont(x.c1) + mont(y.c0) + mont(Fp.add(y.c1, 1n)) };
  return { g1: [g1bad, g1big], g2: [g2bad, g2off] };
}

function pairingVectors() {
  const pairs = [[1n, 1n], [2n, 3n], [R - 1n, 1n], [6n, R - 1n]];
  while (pairs.length < 6) pairs.push([randBelow(R), randBelow(R)]);
  return pairs.map(([a, b]) => {
    const p = mulG(G1, a), q = mulG(G2, b);
    return { a: hx(a), b: hx(b), p: g1Point(p), q: g2Point(q), e: fp12(bn254.pairing(p, q)) };
  });
}

const out = {
  provenance: {
    generator: 'tools/gen_bn254_vectors.mjs',
    oracle: '@noble/curves ' + nobleVersion + ' (bn254)',
    seed: hx(SEED),
    p: hx(P),
    r: hx(R),
  },
  fp: fieldVectors(Fp, 24),
  fr: fieldVectors(Fr, 24),
  fp2: fp2Vectors(10),
  fp6: fp6Vectors(4),
  fp12: fp12Vectors(4),
  g1: groupVectors(G1, g1Point),
  g2: groupVectors(G2, g2Point),
  invalid: invalidVectors(),
  pairing: pairingVectors(),
};
process.stdout.write(JSON.stringify(out, null, 1) + '\n');
