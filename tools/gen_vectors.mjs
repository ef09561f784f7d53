#!/usr/bin/env node
/*
 * gen_vectors.mjs: known-answer vectors for BLS12-381 from an independent
 * implementation, @noble/curves (tools/oracle), for tests/test_kat.c.
 *
 *   node tools/gen_vectors.mjs > tests/vectors/bls12_381.json
 *
 * Deterministic: every random value comes from splitmix64 seeded with SEED
 * below (never Math.random), so rerunning with the same noble version gives
 * the same file byte for byte. The JSON carries its provenance (generator,
 * noble version, seed). Conventions:
 *   - field elements: big-endian hex of the plain (non-Montgomery) value,
 *     "0x" + lowercase digits, no padding;
 *   - Fp2 values: [c0, c1] for c0 + c1*u, u^2 = -1;
 *   - points: {x, y} affine, or {"infinity": true};
 *   - encodings: hex without 0x exactly as noble's toBytes emits them
 *     (zcash/Filecoin: big-endian, flags in the top 3 bits of byte 0), plus
 *     the snarkjs binary form (x*2^384 mod p little-endian, FORMATS.md) and
 *     the snarkjs JSON decimal form, derived here from the coordinates;
 *   - Fp6, Fp12: noble's Fp6/Fp12.toBytes as hex: 6 or 12 48-byte
 *     big-endian Fp coefficients, c0.c0 first (Fp12: c0.c0.c0, c0.c0.c1,
 *     c0.c1.c0, ... c1.c2.c1).
 * Invalid encodings carry the status cuzk must return (curve.h: FORMAT for
 * bad flags or a coordinate >= p, NOT_ON_CURVE, SUBGROUP) and what noble
 * itself does with them (noble is lenient in a few places; the zcash rules
 * in curve.h are the reference for those).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const oracle = join(here, 'oracle', 'node_modules', '@noble', 'curves');
const { bls12_381 } = await import(pathToFileURL(join(oracle, 'bls12-381.js')).href);
const nobleVersion = JSON.parse(readFileSync(join(oracle, 'package.json'), 'utf8')).version;

const SEED = 0x637a6b766563n; // "czkvec"
const { Fp, Fr, Fp2, Fp6, Fp12 } = bls12_381.fields;
const G1 = bls12_381.G1.Point;
const G2 = bls12_381.G2.Point;
const P = Fp.ORDER;
const R = Fr.ORDER;
const M64 = (1n << 64n) - 1n;

/* ---- deterministic randomness: splitmix64 ---- */
let state = SEED;
function next64() {
  state = (state + 0x9e3779b97f4a7c15n) & M64;
  let z = state;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
  return z ^ (z >> 31n);
}
function randBelow(m) {
  // 64 extra bits make the modular bias < 2^-64
  const words = Math.ceil(m.toString(2).length / 64) + 1;
  let v = 0n;
  for (let i = 0; i < words; i++) v = (v << 64n) | next64();
  return v % m;
}

/* ---- formatting ---- */
const hx = (v) => '0x' + v.toString(16);
const bytesHex = (b) => Buffer.from(b).toString('hex');
const be = (v, n) => v.toString(16).padStart(2 * n, '0');
const le = (v, n) => Buffer.from(be(v, n), 'hex').reverse().toString('hex');
const fp2 = (a) => [hx(a.c0), hx(a.c1)];
const mont = (v) => le((v << 384n) % P, 48); // snarkjs .zkey coordinate

function tryOr(f, dflt) {
  try {
    return f();
  } catch (e) {
    return dflt;
  }
}
function nobleSays(f) {
  try {
    f();
    return 'accepts';
  } catch (e) {
    return 'rejects: ' + e.message;
  }
}

/* ---- Fp and Fr ---- */
function fieldVectors(F, n) {
  const m = F.ORDER;
  const special = [
    [0n, 1n], [1n, 1n], [1n, m - 1n], [m - 1n, m - 1n], [2n, (m + 1n) / 2n],
    [m - 1n, 0n], [(m - 1n) / 2n, (m + 1n) / 2n], [(1n << 64n) - 1n, 1n << 64n],
  ];
  const pairs = special.slice();
  while (pairs.length < n) pairs.push([randBelow(m), randBelow(m)]);
  return pairs.map(([a, b]) => {
    const v = {
      a: hx(a), b: hx(b),
      a_dec: a.toString(10),
      add: hx(F.add(a, b)), sub: hx(F.sub(a, b)), mul: hx(F.mul(a, b)),
    };
    if (a !== 0n) v.inv = hx(F.inv(a)); // noble rejects 1/0; cuzk maps it to 0
    const root = tryOr(() => F.sqrt(a), null);
    if (root !== null && F.sqr(root) !== a) throw new Error('noble sqrt inconsistent');
    // no root must mean a non-residue, checked by Euler's criterion
    if (root === null && F.pow(a, (m - 1n) / 2n) !== m - 1n) throw new Error('sqrt missing');
    v.sqrt = root === null ? null : hx(root);
    return v;
  });
}

/* ---- Fp2 ---- */
function fp2Vectors(n) {
  const pairs = [
    [Fp2.ONE, Fp2.ONE],
    [Fp2.create({ c0: 0n, c1: 1n }), Fp2.create({ c0: 0n, c1: 1n })], // u*u = -1
    [Fp2.create({ c0: 4n, c1: 0n }), Fp2.create({ c0: P - 1n, c1: 0n })], // c1 = 0 roots
    [Fp2.create({ c0: P - 1n, c1: 0n }), Fp2.create({ c0: 2n, c1: 3n })],
    [Fp2.create({ c0: 0n, c1: 2n }), Fp2.create({ c0: 5n, c1: 0n })],
  ];
  while (pairs.length < n) {
    pairs.push([
      Fp2.create({ c0: randBelow(P), c1: randBelow(P) }),
      Fp2.create({ c0: randBelow(P), c1: randBelow(P) }),
    ]);
  }
  return pairs.map(([a, b]) => {
    const v = { a: fp2(a), b: fp2(b), add: fp2(Fp2.add(a, b)), sub: fp2(Fp2.sub(a, b)),
                mul: fp2(Fp2.mul(a, b)), sqr: fp2(Fp2.sqr(a)), inv: fp2(Fp2.inv(a)),
                mul_nr: fp2(Fp2.mulByNonresidue(a)), frobenius1: fp2(Fp2.frobeniusMap(a, 1)) };
    const root = tryOr(() => Fp2.sqrt(a), null);
    // a is a square in Fp2 iff its norm c0^2 + c1^2 is a square in Fp
    const normSq = Fp.pow(Fp.add(Fp.sqr(a.c0), Fp.sqr(a.c1)), (P - 1n) / 2n) !== P - 1n;
    if ((root !== null) !== normSq) throw new Error('noble Fp2 sqrt disagrees with the norm');
    if (root !== null && !Fp2.eql(Fp2.sqr(root), a)) throw new Error('noble Fp2 sqrt wrong');
    v.sqrt = root === null ? null : fp2(root);
    return v;
  });
}

/* ---- points ---- */
function g1Affine(pt) {
  if (pt.is0()) return { infinity: true };
  const { x, y } = pt.toAffine();
  return { x: hx(x), y: hx(y) };
}
function g2Affine(pt) {
  if (pt.is0()) return { infinity: true };
  const { x, y } = pt.toAffine();
  return { x: fp2(x), y: fp2(y) };
}
function g1Encodings(pt) {
  const e = { compressed: bytesHex(pt.toBytes(true)), uncompressed: bytesHex(pt.toBytes(false)) };
  if (pt.is0()) {
    e.snarkjs = '00'.repeat(96);
    e.dec = ['0', '1', '0'];
  } else {
    const { x, y } = pt.toAffine();
    e.snarkjs = mont(x) + mont(y);
    e.dec = [x.toString(10), y.toString(10), '1'];
  }
  // noble must read back what it wrote
  if (!G1.fromBytes(pt.toBytes(true)).equals(pt)) throw new Error('noble G1 round trip');
  if (!pt.is0() && ((Buffer.from(e.compressed, 'hex')[0] & 0x20) !== 0) !== g1Sort(pt.toAffine().y))
    throw new Error('G1 compressed sort flag disagrees with the zcash rule');
  return e;
}
function g2Encodings(pt) {
  const e = { compressed: bytesHex(pt.toBytes(true)), uncompressed: bytesHex(pt.toBytes(false)) };
  if (pt.is0()) {
    e.snarkjs = '00'.repeat(192);
    e.dec = ['0', '0', '1', '0', '0', '0'];
  } else {
    const { x, y } = pt.toAffine();
    e.snarkjs = mont(x.c0) + mont(x.c1) + mont(y.c0) + mont(y.c1);
    e.dec = [x.c0, x.c1, y.c0, y.c1].map((c) => c.toString(10)).concat(['1', '0']);
  }
  if (!G2.fromBytes(pt.toBytes(false)).equals(pt)) throw new Error('noble G2 round trip');
  if (!pt.is0()) {
    // the compressed form, decoded here by the zcash rule: y is the root
    // whose sign (c1, or c0 when c1 = 0) matches the flag
    const b = Buffer.from(e.compressed, 'hex');
    const flag = (b[0] & 0x20) !== 0;
    b[0] &= 0x1f;
    const x = Fp2.create({ c0: BigInt('0x' + b.subarray(48).toString('hex')),
                           c1: BigInt('0x' + b.subarray(0, 48).toString('hex')) });
    let y = Fp2.sqrt(Fp2.add(Fp2.pow(x, 3n), B2));
    if (g2Sort(y) !== flag) y = Fp2.neg(y);
    if (!new G2(x, y, Fp2.ONE).equals(pt)) throw new Error('G2 compressed encoding disagrees with the zcash rule');
  }
  return e;
}

const mulG = (Pt, k) => (k === 0n ? Pt.ZERO : Pt.BASE.multiply(k));
const scalars = [0n, 1n, 2n, 3n, 123456789n, R - 1n, R - 2n, (R + 1n) / 2n, 1n << 128n];
while (scalars.length < 12) scalars.push(randBelow(R));

function mulVectors(Pt, aff, enc) {
  return scalars.map((k) => {
    const pt = mulG(Pt, k);
    return { k: hx(k), point: aff(pt), ...enc(pt) };
  });
}

// k*P for random bases P (a table built for G alone would pass the k*G
// vectors), and plain scalars >= r for the _var multiplication, where the
// answer is (k mod r)*P since P has order r
function mulPointVectors(Pt, aff) {
  const out = [];
  for (let i = 0; i < 3; i++) {
    const p = mulG(Pt, randBelow(R)), k = 1n + randBelow(R - 1n);
    out.push({ p: aff(p), k: hx(k), kp: aff(p.multiply(k)) });
  }
  for (const k of [R, R + 1n, 2n * R - 1n, 1n << 255n, (1n << 256n) - 1n]) {
    const p = mulG(Pt, randBelow(R)), km = k % R;
    out.push({ p: aff(p), k: hx(k), kp: aff(km === 0n ? Pt.ZERO : p.multiply(km)), wide: true });
  }
  return out;
}

function addVectors(Pt, aff) {
  const a = mulG(Pt, randBelow(R)), b = mulG(Pt, randBelow(R));
  const cases = [
    [a, b], [mulG(Pt, randBelow(R)), mulG(Pt, randBelow(R))],
    [a, a],            // doubling through add
    [a, a.negate()],   // P + (-P) = O
    [a, Pt.ZERO],      // P + O
    [Pt.ZERO, Pt.ZERO],
    [Pt.BASE, Pt.BASE.double()],
  ];
  return cases.map(([p, q]) => ({ p: aff(p), q: aff(q), sum: aff(p.add(q)) }));
}

/* ---- invalid encodings ---- */
// flags go in the top 3 bits of byte 0; the value must leave them free
// (a coordinate >= 2^381 would lose bits and become another value)
function flagged(hexValue, flags) {
  if (Buffer.from(hexValue, 'hex')[0] & 0xe0) throw new Error('value overlaps the flag bits');
  return setFlags(hexValue, flags);
}
function setFlags(hex, flags) {
  const b = Buffer.from(hex, 'hex');
  b[0] = (b[0] & 0x1f) | flags;
  return b.toString('hex');
}
// A point on E1 (y^2 = x^3 + 4) outside the r-torsion: the first x from a
// fixed start whose right side is a square (almost every curve point is
// outside the subgroup: the cofactor is ~2^126).
function g1OffSubgroup() {
  for (let x = 5n; ; x++) {
    const y = tryOr(() => Fp.sqrt(Fp.add(Fp.pow(x, 3n), 4n)), null);
    if (y === null) continue;
    const pt = new G1(x, y, Fp.ONE);
    if (!pt.isTorsionFree()) return { x, y };
  }
}
function g1NonX() {
  for (let x = 1n; ; x++) {
    if (tryOr(() => Fp.sqrt(Fp.add(Fp.pow(x, 3n), 4n)), null) === null) return x;
  }
}
const B2 = Fp2.create({ c0: 4n, c1: 4n });
function g2OffSubgroup() {
  for (let t = 1n; ; t++) {
    const x = Fp2.create({ c0: t, c1: 1n });
    const y = tryOr(() => Fp2.sqrt(Fp2.add(Fp2.pow(x, 3n), B2)), null);
    if (y === null) continue;
    const pt = new G2(x, y, Fp2.ONE);
    if (!pt.isTorsionFree()) return { x, y };
  }
}
function g2NonX() {
  for (let t = 1n; ; t++) {
    const x = Fp2.create({ c0: t, c1: 1n });
    if (tryOr(() => Fp2.sqrt(Fp2.add(Fp2.pow(x, 3n), B2)), null) === null) return x;
  }
}
// the lexicographically-largest flag of y, zcash rule
const g1Sort = (y) => y > (P - 1n) / 2n;
const g2Sort = (y) => (y.c1 !== 0n ? y.c1 : y.c0) > (P - 1n) / 2n;

// G2 points whose y lies in Fp (y.c1 = 0): the zcash sign flag then comes
// from y.c0, the rule's special case. x = a + b*u with 3a^2 b - b^3 = -4
// makes x^3 + 4(u+1) real; a real square root then gives y.c1 = 0. Such
// points are on the curve but not in the subgroup (checked), so noble will
// not encode them: the encodings are written here by the zcash rule.
function g2SignC0() {
  for (let b = 1n; ; b++) {
    const a2 = Fp.div(Fp.sub(Fp.pow(b, 3n), 4n), Fp.mul(3n, b));
    const a = tryOr(() => Fp.sqrt(a2), null);
    if (a === null) continue;
    const x = Fp2.create({ c0: a, c1: b });
    const rhs = Fp2.add(Fp2.pow(x, 3n), B2);
    if (rhs.c1 !== 0n) throw new Error('g2SignC0: rhs not real');
    const y0 = tryOr(() => Fp.sqrt(rhs.c0), null);
    if (y0 === null) continue;
    const out = [];
    for (const yc0 of [y0, Fp.neg(y0)]) {
      const y = Fp2.create({ c0: yc0, c1: 0n });
      const pt = new G2(x, y, Fp2.ONE);
      if (!Fp2.eql(Fp2.sqr(y), rhs) || pt.isTorsionFree()) throw new Error('g2SignC0: bad point');
      const flag = g2Sort(y) ? 0x20 : 0;
      out.push({
        point: { x: fp2(x), y: fp2(y) },
        compressed: flagged(be(x.c1, 48) + be(x.c0, 48), 0x80 | flag),
        uncompressed: be(x.c1, 48) + be(x.c0, 48) + be(0n, 48) + be(yc0, 48),
        error: 'SUBGROUP',
        reason: 'y.c1 = 0, so the sort flag comes from y.c0; on the curve, not in the subgroup',
      });
    }
    return out;
  }
}

function invalidVectors() {
  const out = [];
  const add = (group, format, hex, error, reason, noble) => out.push({ group, format, hex, error, reason, noble });
  const g1noble = (h) => nobleSays(() => G1.fromHex(h));
  const g2noble = (h) => nobleSays(() => G2.fromHex(h));
  const gen1 = g1Encodings(G1.BASE), gen2 = g2Encodings(G2.BASE);

  // G1, zcash compressed (48 bytes)
  const nx = g1NonX();
  let h = flagged(be(nx, 48), 0x80);
  add('g1', 'compressed', h, 'NOT_ON_CURVE', 'x^3 + 4 is not a square: no y', g1noble(h));
  const os1 = g1OffSubgroup();
  h = flagged(be(os1.x, 48), 0x80 | (g1Sort(os1.y) ? 0x20 : 0));
  add('g1', 'compressed', h, 'SUBGROUP', 'on the curve, not in the r-order subgroup', g1noble(h));
  h = setFlags(gen1.compressed, 0x00);
  add('g1', 'compressed', h, 'FORMAT', 'compression flag clear in a 48-byte encoding', g1noble(h));
  h = flagged(be(P, 48), 0x80);
  add('g1', 'compressed', h, 'FORMAT', 'x = p (not reduced)', g1noble(h));
  h = flagged(be(P + 1n, 48), 0x80);
  add('g1', 'compressed', h, 'FORMAT', 'x = p + 1 (not reduced; x = 1 mod p)', g1noble(h));
  h = setFlags('00'.repeat(47) + '01', 0xc0);
  add('g1', 'compressed', h, 'FORMAT', 'infinity flag with nonzero x', g1noble(h));
  h = setFlags('00'.repeat(48), 0xe0);
  add('g1', 'compressed', h, 'FORMAT', 'infinity flag with the sort flag set', g1noble(h));
  h = setFlags('00'.repeat(48), 0x40);
  add('g1', 'compressed', h, 'FORMAT', 'infinity flag without the compression flag in 48 bytes', g1noble(h));
  h = setFlags('00'.repeat(48), 0x80);
  add('g1', 'compressed', h, 'SUBGROUP', 'x = 0 without the infinity flag: (0, -2) is on the curve, of order 3', g1noble(h));
  // G1, zcash uncompressed (96 bytes)
  const g = G1.BASE.toAffine();
  h = be(g.x, 48) + be(Fp.add(g.y, 1n), 48);
  add('g1', 'uncompressed', h, 'NOT_ON_CURVE', 'generator with y + 1', g1noble(h));
  h = be(os1.x, 48) + be(os1.y, 48);
  add('g1', 'uncompressed', h, 'SUBGROUP', 'on the curve, not in the r-order subgroup', g1noble(h));
  h = setFlags(gen1.uncompressed, 0x80);
  add('g1', 'uncompressed', h, 'FORMAT', 'compression flag set in a 96-byte encoding', g1noble(h));
  h = setFlags(gen1.uncompressed, 0x20);
  add('g1', 'uncompressed', h, 'FORMAT', 'sort flag set in an uncompressed encoding', g1noble(h));
  h = be(g.x, 48) + be(g.y + P, 48);
  add('g1', 'uncompressed', h, 'FORMAT', 'y + p (not reduced)', g1noble(h));
  h = flagged(be(os1.x + P, 48), 0) + be(os1.y, 48);
  add('g1', 'uncompressed', h, 'FORMAT', 'x + p (not reduced; reduced, the point is on the curve outside the subgroup)', g1noble(h));
  h = setFlags('00'.repeat(95) + '01', 0x40);
  add('g1', 'uncompressed', h, 'FORMAT', 'infinity flag with nonzero y', g1noble(h));
  h = '00'.repeat(96);
  add('g1', 'uncompressed', h, 'NOT_ON_CURVE', '(0, 0) without the infinity flag', g1noble(h));
  h = setFlags('00'.repeat(96), 0xc0);
  add('g1', 'uncompressed', h, 'FORMAT', 'infinity with the compression flag in 96 bytes', g1noble(h));

  // G2, zcash compressed (96 bytes: x.c1 then x.c0)
  const nx2 = g2NonX();
  h = flagged(be(nx2.c1, 48) + be(nx2.c0, 48), 0x80);
  add('g2', 'compressed', h, 'NOT_ON_CURVE', 'x^3 + 4(u+1) is not a square: no y', g2noble(h));
  const os2 = g2OffSubgroup();
  h = flagged(be(os2.x.c1, 48) + be(os2.x.c0, 48), 0x80 | (g2Sort(os2.y) ? 0x20 : 0));
  add('g2', 'compressed', h, 'SUBGROUP', 'on the curve, not in the r-order subgroup', g2noble(h));
  h = setFlags(gen2.compressed, 0x00);
  add('g2', 'compressed', h, 'FORMAT', 'compression flag clear in a 96-byte encoding', g2noble(h));
  const g2a = G2.BASE.toAffine();
  h = flagged(be(g2a.x.c1, 48) + be(g2a.x.c0 + P, 48), 0x80 | (g2Sort(g2a.y) ? 0x20 : 0));
  add('g2', 'compressed', h, 'FORMAT', 'x.c0 + p (not reduced)', g2noble(h));
  h = flagged(be(os2.x.c1 + P, 48) + be(os2.x.c0, 48), 0x80 | (g2Sort(os2.y) ? 0x20 : 0));
  add('g2', 'compressed', h, 'FORMAT', 'x.c1 + p (not reduced; reduced, the point is on the curve outside the subgroup)', g2noble(h));
  h = setFlags('00'.repeat(95) + '01', 0xc0);
  add('g2', 'compressed', h, 'FORMAT', 'infinity flag with nonzero x', g2noble(h));
  h = setFlags('00'.repeat(96), 0xe0);
  add('g2', 'compressed', h, 'FORMAT', 'infinity flag with the sort flag set', g2noble(h));
  // G2, zcash uncompressed (192 bytes: x.c1, x.c0, y.c1, y.c0)
  h = be(g2a.x.c1, 48) + be(g2a.x.c0, 48) + be(g2a.y.c1, 48) + be(Fp.add(g2a.y.c0, 1n), 48);
  add('g2', 'uncompressed', h, 'NOT_ON_CURVE', 'generator with y.c0 + 1', g2noble(h));
  h = be(os2.x.c1, 48) + be(os2.x.c0, 48) + be(os2.y.c1, 48) + be(os2.y.c0, 48);
  add('g2', 'uncompressed', h, 'SUBGROUP', 'on the curve, not in the r-order subgroup', g2noble(h));
  h = setFlags(gen2.uncompressed, 0x80);
  add('g2', 'uncompressed', h, 'FORMAT', 'compression flag set in a 192-byte encoding', g2noble(h));
  h = setFlags(gen2.uncompressed, 0x20);
  add('g2', 'uncompressed', h, 'FORMAT', 'sort flag set in an uncompressed encoding', g2noble(h));
  h = be(g2a.x.c1, 48) + be(g2a.x.c0, 48) + be(g2a.y.c1 + P, 48) + be(g2a.y.c0, 48);
  add('g2', 'uncompressed', h, 'FORMAT', 'y.c1 + p (not reduced)', g2noble(h));
  h = setFlags('00'.repeat(191) + '01', 0x40);
  add('g2', 'uncompressed', h, 'FORMAT', 'infinity flag with nonzero y', g2noble(h));

  // snarkjs binary (little-endian Montgomery): the decoder checks the curve
  // and the range, not the subgroup
  const s1 = gen1.snarkjs;
  h = s1.slice(0, 96) + mont(Fp.add(g.y, 1n));
  add('g1', 'snarkjs', h, 'NOT_ON_CURVE', 'generator with y + 1', 'n/a');
  h = le(P, 48) + s1.slice(96);
  add('g1', 'snarkjs', h, 'FORMAT', 'x Montgomery limbs = p (not reduced)', 'n/a');
  h = 'ff'.repeat(96);
  add('g1', 'snarkjs', h, 'FORMAT', 'all ones: coordinates >= p', 'n/a');
  h = mont(0n) + mont(2n);
  add('g1', 'snarkjs', h, 'OK_NOT_IN_SUBGROUP', '(0, 2): x = 0 but not the all-zero infinity; a point of order 3', 'n/a');
  h = mont(0n) + mont(1n);
  add('g1', 'snarkjs', h, 'NOT_ON_CURVE', '(0, 1): x = 0, not the all-zero infinity, off the curve', 'n/a');
  h = mont(os1.x) + mont(os1.y);
  add('g1', 'snarkjs', h, 'OK_NOT_IN_SUBGROUP', 'on the curve, not in the subgroup: snarkjs decoding does not check the subgroup', 'n/a');
  const s2 = gen2.snarkjs;
  h = s2.slice(0, 288) + mont(Fp.add(g2a.y.c1, 1n));
  add('g2', 'snarkjs', h, 'NOT_ON_CURVE', 'generator with y.c1 + 1', 'n/a');
  h = s2.slice(0, 96) + le(P, 48) + s2.slice(192);
  add('g2', 'snarkjs', h, 'FORMAT', 'x.c1 Montgomery limbs = p (not reduced)', 'n/a');
  h = mont(os2.x.c0) + mont(os2.x.c1) + mont(os2.y.c0) + mont(os2.y.c1);
  add('g2', 'snarkjs', h, 'OK_NOT_IN_SUBGROUP', 'on the curve, not in the subgroup: snarkjs decoding does not check the subgroup', 'n/a');
  return out;
}

// Decimal (snarkjs JSON) inputs that must be refused.
function invalidDec() {
  const g = G1.BASE.toAffine();
  const g2a = G2.BASE.toAffine();
  const d = (v) => v.toString(10);
  return [
    { group: 'g1', dec: [d(g.x), d(Fp.add(g.y, 1n)), '1'], error: 'NOT_ON_CURVE', reason: 'generator with y + 1' },
    { group: 'g1', dec: [d(g.x + P), d(g.y), '1'], error: 'FORMAT', reason: 'x + p (not reduced)' },
    { group: 'g1', dec: [d(g.x), 'abc', '1'], error: 'FORMAT', reason: 'not a number' },
    { group: 'g1', dec: [d(g.x), '', '1'], error: 'FORMAT', reason: 'empty string' },
    { group: 'g1', dec: [d(g.x), d(g.y), '2'], error: 'FORMAT', reason: 'z is neither 1 nor 0 (not affine)' },
    { group: 'g1', dec: ['1', '1', '0'], error: 'FORMAT', reason: 'z = 0 but not the (0, 1, 0) infinity' },
    { group: 'g2', dec: [d(g2a.x.c0), d(g2a.x.c1), d(g2a.y.c0), d(Fp.add(g2a.y.c1, 1n)), '1', '0'],
      error: 'NOT_ON_CURVE', reason: 'generator with y.c1 + 1' },
    { group: 'g2', dec: [d(g2a.x.c0), d(g2a.x.c1), d(g2a.y.c0), d(g2a.y.c1), '1', '1'],
      error: 'FORMAT', reason: 'z = 1 + u (not affine)' },
  ];
}

/* ---- Fp12 and pairing ---- */
const f12 = (x) => bytesHex(Fp12.toBytes(x));
function randFp12() {
  const c = [];
  for (let i = 0; i < 12; i++) c.push(randBelow(P));
  return Fp12.fromBytes(Buffer.from(c.map((v) => be(v, 48)).join(''), 'hex'));
}
function fp12Vectors(n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const a = randFp12(), b = randFp12();
    out.push({ a: f12(a), b: f12(b), mul: f12(Fp12.mul(a, b)), sqr: f12(Fp12.sqr(a)),
               inv: f12(Fp12.inv(a)), conj: f12(Fp12.conjugate(a)),
               frobenius1: f12(Fp12.frobeniusMap(a, 1)), frobenius2: f12(Fp12.frobeniusMap(a, 2)),
               frobenius3: f12(Fp12.frobeniusMap(a, 3)), frobenius6: f12(Fp12.frobeniusMap(a, 6)),
               final_exp: f12(Fp12.finalExponentiate(a)) });
  }
  return out;
}
// Fp6 = Fp2[v]/(v^3 - (u+1)) as noble's Fp6.toBytes: c0.c0, c0.c1, c1.c0, ..., c2.c1
const f6 = (x) => bytesHex(Fp6.toBytes(x));
function fp6Vectors(n) {
  const rand6 = () => {
    const c = [];
    for (let i = 0; i < 6; i++) c.push(randBelow(P));
    return Fp6.fromBytes(Buffer.from(c.map((v) => be(v, 48)).join(''), 'hex'));
  };
  const out = [];
  for (let i = 0; i < n; i++) {
    const a = rand6(), b = rand6();
    out.push({ a: f6(a), b: f6(b), mul: f6(Fp6.mul(a, b)), sqr: f6(Fp6.sqr(a)), inv: f6(Fp6.inv(a)),
               mul_nr: f6(Fp6.mulByNonresidue(a)), frobenius1: f6(Fp6.frobeniusMap(a, 1)),
               frobenius2: f6(Fp6.frobeniusMap(a, 2)) });
  }
  return out;
}
function pairingVectors() {
  const ab = [[1n, 1n], [2n, 3n], [3n, 2n], [R - 1n, 1n], [123456789n, 987654321n]];
  ab.push([randBelow(R), randBelow(R)]);
  const out = ab.map(([a, b]) => {
    const p = G1.BASE.multiply(a), q = G2.BASE.multiply(b);
    return { a: hx(a), b: hx(b), p: g1Affine(p), q: g2Affine(q), e: f12(bls12_381.pairing(p, q)) };
  });
  // bilinearity of the oracle itself, so a bad vector cannot slip in
  const e1 = bls12_381.pairing(G1.BASE, G2.BASE);
  if (!Fp12.eql(bls12_381.pairing(G1.BASE.multiply(2n), G2.BASE.multiply(3n)), Fp12.pow(e1, 6n)))
    throw new Error('noble pairing not bilinear');
  return out;
}

const doc = {
  generator: 'tools/gen_vectors.mjs',
  noble_version: nobleVersion,
  seed: hx(SEED),
  regenerate: 'node tools/gen_vectors.mjs > tests/vectors/bls12_381.json',
  conventions: 'field values: big-endian hex of plain values; Fp2 [c0, c1]; points affine {x, y} or {infinity: true}; ' +
    'compressed/uncompressed: zcash bytes as noble toBytes emits them; snarkjs: x*2^384 mod p little-endian, x then y (c0 then c1); ' +
    'dec: snarkjs JSON decimal strings (projective, z = 1, infinity (0,1,0)); fp6/fp12: noble Fp6/Fp12.toBytes hex (c0.c0 / c0.c0.c0 first)',
  fp: { modulus: hx(P), ops: fieldVectors(Fp, 16) },
  fr: { modulus: hx(R), ops: fieldVectors(Fr, 16) },
  fp2: fp2Vectors(12),
  fp6: fp6Vectors(3),
  fp12: fp12Vectors(2),
  g1: { mul: mulVectors(G1, g1Affine, g1Encodings), mul_point: mulPointVectors(G1, g1Affine),
        add: addVectors(G1, g1Affine) },
  g2: { mul: mulVectors(G2, g2Affine, g2Encodings), mul_point: mulPointVectors(G2, g2Affine),
        add: addVectors(G2, g2Affine), sign_c0: g2SignC0() },
  invalid: invalidVectors(),
  invalid_dec: invalidDec(),
  pairing: pairingVectors(),
};
process.stdout.write(JSON.stringify(doc, null, 1) + '\n');
