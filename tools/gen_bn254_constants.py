#!/usr/bin/env python3
"""Generate src/field/bn254_constants.h: every BN254 ("bn128", snarkjs's
default curve; alt_bn128 of EIP-196/197) constant the field, curve and
pairing layers use, in the host representation (little-endian 64-bit
limbs; Montgomery form x * 2^256 mod m where the name says _MONT). Each
value is printed next to the formula that defines it, and the script checks
what it can (the primes from the BN polynomials in x, the curve equations,
the generators' orders, the Frobenius tables against direct powers in a
small model of the tower).

BN254: x = 4965661367192848881,
  p = 36x^4 + 36x^3 + 24x^2 + 6x + 1, r = 36x^4 + 36x^3 + 18x^2 + 6x + 1,
  G1: y^2 = x^3 + 3 over Fp (cofactor 1), generator (1, 2);
  tower Fp2 = Fp[u]/(u^2 + 1), Fp6 = Fp2[v]/(v^3 - xi), Fp12 = Fp6[w]/(w^2 - v),
  xi = 9 + u; G2 on the D-type twist y^2 = x^3 + 3/xi over Fp2.

Run: python3 tools/gen_bn254_constants.py > src/field/bn254_constants.h
"""
import random

X = 4965661367192848881
P = 36 * X**4 + 36 * X**3 + 24 * X**2 + 6 * X + 1
R = 36 * X**4 + 36 * X**3 + 18 * X**2 + 6 * X + 1
assert P == 21888242871839275222246405745257275088696311157297823662689037894645226208583
assert R == 21888242871839275222246405745257275088548364400416034343698204186575808495617
assert P < 1 << 254 and R < 1 << 254   # one spare bit for the 4-limb code (two, in fact)
assert P % 4 == 3 and P % 6 == 1
RM = 1 << 256  # Montgomery radix of both fields (4 limbs)

# G2 generator (EIP-197; the one snarkjs and @noble/curves use)
G2X = (10857046999023057135944570762232829481370756359578518086990519993285655852781,
       11559732032986387107991004021392285783925812861821192530917403151452391805634)
G2Y = (8495653923123431417604973247489272438418190587263600148770280649306958101930,
       4082367875863433681332203403145435568316851327593401208105741076214120093531)


# ---- a small model of Fp2 and Fp12 (tuples of ints) ----
def f2mul(a, b):
    return ((a[0] * b[0] - a[1] * b[1]) % P, (a[0] * b[1] + a[1] * b[0]) % P)


def f2add(a, b):
    return ((a[0] + b[0]) % P, (a[1] + b[1]) % P)


def f2sub(a, b):
    return ((a[0] - b[0]) % P, (a[1] - b[1]) % P)


def f2pow(a, e):
    r = (1, 0)
    while e:
        if e & 1:
            r = f2mul(r, a)
        a = f2mul(a, a)
        e >>= 1
    return r


def f2inv(a):
    n = pow(a[0] * a[0] + a[1] * a[1], P - 2, P)
    return (a[0] * n % P, -a[1] * n % P)


def f2conj(a):
    return (a[0], (-a[1]) % P)


XI = (9, 1)


def f12mul(a, b):
    t = [(0, 0)] * 11
    for i in range(6):
        for j in range(6):
            t[i + j] = f2add(t[i + j], f2mul(a[i], b[j]))
    for k in range(10, 5, -1):
        t[k - 6] = f2add(t[k - 6], f2mul(t[k], XI))
    return t[:6]


def f12pow(a, e):
    r = [(1, 0)] + [(0, 0)] * 5
    while e:
        if e & 1:
            r = f12mul(r, a)
        a = f12mul(a, a)
        e >>= 1
    return r


# ---- curves ----
B2 = f2mul((3, 0), f2inv(XI))
assert B2 == (19485874751759354771024239261021720505790618469301721065564631296452457478373,
              266929791119991161246907387137283842545076965332900288569378510910307636690)
assert (2 * 2 - (1 + 3)) % P == 0  # (1, 2) on y^2 = x^3 + 3
assert f2mul(G2Y, G2Y) == f2add(f2mul(f2mul(G2X, G2X), G2X), B2)


def g2_add(p1, p2):
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    if p1[0] == p2[0]:
        if p1[1] != p2[1] or p1[1] == (0, 0):
            return None
        lam = f2mul(f2mul((3, 0), f2mul(p1[0], p1[0])), f2inv(f2add(p1[1], p1[1])))
    else:
        lam = f2mul(f2sub(p2[1], p1[1]), f2inv(f2sub(p2[0], p1[0])))
    x3 = f2sub(f2sub(f2mul(lam, lam), p1[0]), p2[0])
    return (x3, f2sub(f2mul(lam, f2sub(p1[0], x3)), p1[1]))


def g2_mul(pt, k):
    acc = None
    while k:
        if k & 1:
            acc = g2_add(acc, pt)
        pt = g2_add(pt, pt)
        k >>= 1
    return acc


assert g2_mul((G2X, G2Y), R) is None

# ---- Frobenius tables (as tools/gen_tower_constants.py, xi = 9 + u) ----
g1 = [f2pow(XI, (P**k - 1) // 3) for k in range(6)]
g2 = [f2pow(XI, 2 * (P**k - 1) // 3) for k in range(6)]
gw = [f2pow(XI, (P**k - 1) // 6) for k in range(12)]
gw3 = [f2pow(g, 3) for g in gw]
gw5 = [f2pow(g, 5) for g in gw]
for k in range(6):
    assert g2[k] == f2mul(g1[k], g1[k]) and g1[k] == f2mul(gw[k], gw[k])


def frob_model(a, k):
    out = []
    for i in range(6):
        c = a[i] if k % 2 == 0 else f2conj(a[i])
        out.append(f2mul(c, f2pow(gw[k], i)))
    return out


rnd = random.Random(1)
a = [(rnd.randrange(P), rnd.randrange(P)) for _ in range(6)]
assert frob_model(a, 1) == f12pow(a, P)
b = frob_model(a, 1)
for k in range(2, 12):
    b = frob_model(b, 1)
    assert b == frob_model(a, k), k

# psi = untwist . Frobenius . twist on the D-type twist:
# psi(x, y) = (conj(x) xi^((p-1)/3), conj(y) xi^((p-1)/2)); on G2 it is [p] = [6x^2].
PSI_X = f2pow(XI, (P - 1) // 3)
PSI_Y = f2pow(XI, (P - 1) // 2)
PSI2_X = f2pow(XI, (P * P - 1) // 3)  # psi^2(x, y) = (x PSI2_X, -y)
assert f2pow(XI, (P * P - 1) // 2) == (P - 1, 0)
assert PSI2_X[1] == 0


def psi(pt):
    return (f2mul(f2conj(pt[0]), PSI_X), f2mul(f2conj(pt[1]), PSI_Y))


assert psi((G2X, G2Y)) == g2_mul((G2X, G2Y), 6 * X * X)
assert psi((G2X, G2Y)) == g2_mul((G2X, G2Y), P % R)

# ---- Fr: r - 1 = 2^28 t ----
S = 0
while ((R - 1) >> S) & 1 == 0:
    S += 1
assert S == 28
T = (R - 1) >> S
# 5 is the smallest quadratic non-residue mod r (and snarkjs's generator)
assert pow(5, (R - 1) // 2, R) == R - 1
for q in (2, 3):
    assert pow(q, (R - 1) // 2, R) == 1
root5 = pow(5, T, R)
assert pow(root5, 1 << 28, R) == 1 and pow(root5, 1 << 27, R) != 1



# ---- GLV on G1: phi(x, y) = (beta x, y) = [lambda](x, y) ----
# beta, lambda: primitive cube roots of unity in Fp and Fr, paired so that
# phi = [lambda] on the generator (hence on all of G1, which is cyclic).
def g1_add(p1, p2):
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    if p1[0] == p2[0]:
        if (p1[1] + p2[1]) % P == 0:
            return None
        lam = 3 * p1[0] * p1[0] * pow(2 * p1[1], -1, P) % P
    else:
        lam = (p2[1] - p1[1]) * pow(p2[0] - p1[0], -1, P) % P
    x3 = (lam * lam - p1[0] - p2[0]) % P
    return (x3, (lam * (p1[0] - x3) - p1[1]) % P)


def g1_mul(pt, k):
    acc = None
    while k:
        if k & 1:
            acc = g1_add(acc, pt)
        pt = g1_add(pt, pt)
        k >>= 1
    return acc


def cube_roots(m):
    for g in range(2, 100):
        w = pow(g, (m - 1) // 3, m)
        if w != 1:
            return [w, w * w % m]


GLV = []
for beta in cube_roots(P):
    for lam in cube_roots(R):
        if g1_mul((1, 2), lam) == (beta % P, 2):
            GLV.append((lam, beta))
assert len(GLV) == 2
LAMBDA, BETA = min(GLV)  # the smaller lambda (192 bits), the beta that goes with it
assert pow(BETA, 3, P) == 1 and BETA != 1 and (LAMBDA * LAMBDA + LAMBDA + 1) % R == 0

# The lattice {(a, b): a + b lambda = 0 mod r} and a short basis from the
# extended Euclidean algorithm on (r, lambda) (Gallant-Lambert-Vanstone
# 2001, section 4): remainders r_i = s_i r + t_i lambda give vectors
# (r_i, -t_i); v1 at the first r_i < sqrt(r), v2 the shorter neighbour.
def glv_basis(n, lam):
    r0, r1, t0, t1 = n, lam, 0, 1
    rows = [(r0, t0), (r1, t1)]
    while r1:
        q = r0 // r1
        r0, r1 = r1, r0 - q * r1
        t0, t1 = t1, t0 - q * t1
        rows.append((r1, t1))
    import math
    m = next(i for i, (ri, _) in enumerate(rows) if ri * ri < n)
    v1 = (rows[m][0], -rows[m][1])
    cands = [(rows[m - 1][0], -rows[m - 1][1]), (rows[m + 1][0], -rows[m + 1][1])]
    v2 = min(cands, key=lambda v: v[0] ** 2 + v[1] ** 2)
    return v1, v2


(LA1, LB1), (LA2, LB2) = glv_basis(R, LAMBDA)
for a, b in ((LA1, LB1), (LA2, LB2)):
    assert (a + b * LAMBDA) % R == 0 and abs(a) < 1 << 128 and abs(b) < 1 << 128
DET = LA1 * LB2 - LA2 * LB1
assert abs(DET) == R
# Babai rounding: (k, 0) = beta1 v1 + beta2 v2, beta1 = k LB2 / DET,
# beta2 = -k LB1 / DET; c_i = round(beta_i) by G_i = round(2^256 * num_i / DET):
# c_i = sign_i * floor((k |G_i| + 2^255) / 2^256) (off by at most 1 from the
# exact rounding, which keeps |k1|, |k2| below 2^128; checked below).
G1N = (LB2 << 256) * (1 if DET > 0 else -1)
G2N = (-LB1 << 256) * (1 if DET > 0 else -1)
GL1 = (abs(G1N) + R // 2) // R
GL2 = (abs(G2N) + R // 2) // R
S1 = 1 if G1N >= 0 else -1
S2 = 1 if G2N >= 0 else -1
M = 1 << 256
# k1 = k - c1 LA1 - c2 LA2, k2 = -c1 LB1 - c2 LB2 mod 2^256, with c_i = S_i C_i:
MK11, MK12 = (-S1 * LA1) % M, (-S2 * LA2) % M
MK21, MK22 = (-S1 * LB1) % M, (-S2 * LB2) % M


def glv_split(k):
    c1 = (k * GL1 + (1 << 255)) >> 256
    c2 = (k * GL2 + (1 << 255)) >> 256
    k1 = (k + c1 * MK11 + c2 * MK12) % M
    k2 = (c1 * MK21 + c2 * MK22) % M
    k1 = k1 - M if k1 >> 255 else k1
    k2 = k2 - M if k2 >> 255 else k2
    return k1, k2


worst = 0
glv_rnd = random.Random(2)
for k in [0, 1, 2, LAMBDA, LAMBDA + 1, R - 1, R - 2, (R - 1) // 2, 1 << 253, (1 << 254) % R] + \
        [glv_rnd.randrange(R) for _ in range(20000)]:
    k1, k2 = glv_split(k)
    assert (k1 + k2 * LAMBDA - k) % R == 0
    worst = max(worst, abs(k1), abs(k2))
assert worst < 1 << 128


def limbs(v, n=4):
    return [(v >> (64 * i)) & (2**64 - 1) for i in range(n)]


def body(v):
    return ", ".join("0x%016xULL" % x for x in limbs(v))


def arr(name, v, formula):
    return "/* %s */\n#define %s { %s }\n" % (formula, name, body(v))


def u64(name, v, formula):
    return "/* %s */\n#define %s 0x%016xULL\n" % (formula, name, v)


def mont(v):
    return v * RM % P


def fp2_init(a):
    return "{{{%s}}, {{%s}}}" % (body(mont(a[0])), body(mont(a[1])))


def table(name, vals, formula):
    s = "/* %s */\n#define %s { \\\n" % (formula, name)
    s += ", \\\n".join("    " + fp2_init(v) for v in vals)
    return s + " }\n"


# signed binary (NAF) digits of the ate loop length 6x + 2, most significant first
def naf(n):
    d = []
    while n:
        if n & 1:
            z = 2 - (n % 4)
            n -= z
        else:
            z = 0
        d.append(z)
        n //= 2
    return d[::-1]


ATE = 6 * X + 2
ate_naf = naf(ATE)
assert sum(z << i for i, z in enumerate(reversed(ate_naf))) == ATE

out = []
out.append("/* Generated by tools/gen_bn254_constants.py; do not edit. */\n")
out.append("#ifndef CZ_BN254_CONSTANTS_H\n#define CZ_BN254_CONSTANTS_H\n\n")
out.append("/* BN254: x = %d, p = 36x^4 + 36x^3 + 24x^2 + 6x + 1,\n"
           "   r = 36x^4 + 36x^3 + 18x^2 + 6x + 1. Montgomery radix R = 2^256 for both. */\n" % X)
out.append("/* ---- Fp ---- */\n")
out.append(arr("CZ_BN254_FP_P", P, "p, the base field modulus"))
out.append(arr("CZ_BN254_FP_ONE_MONT", RM % P, "R mod p (1 in Montgomery form)"))
out.append(arr("CZ_BN254_FP_R2", RM * RM % P, "R^2 mod p"))
out.append(arr("CZ_BN254_FP_R3", RM**3 % P, "R^3 mod p (variable-time inversion fix-up)"))
out.append(u64("CZ_BN254_FP_N0", (-pow(P, -1, 2**64)) % 2**64, "-p^-1 mod 2^64"))
out.append(arr("CZ_BN254_FP_P_MINUS_2", P - 2, "p - 2 (Fermat inversion exponent)"))
out.append(arr("CZ_BN254_FP_P_MINUS_1_HALF", (P - 1) // 2, "(p - 1) / 2 (sign bound, Fp2 sqrt)"))
out.append(arr("CZ_BN254_FP_SQRT_EXP", (P + 1) // 4, "(p + 1) / 4 (sqrt exponent, p = 3 mod 4)"))
out.append(arr("CZ_BN254_FP_P_MINUS_3_DIV_4", (P - 3) // 4, "(p - 3) / 4 (Fp2 sqrt exponent)"))
out.append("/* ---- Fr ---- */\n")
out.append(arr("CZ_BN254_FR_P", R, "r, the scalar field modulus (group order)"))
out.append(arr("CZ_BN254_FR_ONE_MONT", RM % R, "R mod r"))
out.append(arr("CZ_BN254_FR_R2", RM * RM % R, "R^2 mod r"))
out.append(arr("CZ_BN254_FR_R3", RM**3 % R, "R^3 mod r"))
out.append(u64("CZ_BN254_FR_N0", (-pow(R, -1, 2**64)) % 2**64, "-r^-1 mod 2^64"))
out.append(arr("CZ_BN254_FR_P_MINUS_2", R - 2, "r - 2 (Fermat inversion exponent)"))
out.append("/* r - 1 = 2^28 * t with t odd */\n#define CZ_BN254_FR_TWO_ADICITY 28\n")
out.append(arr("CZ_BN254_FR_TS_T_MINUS_1_HALF", (T - 1) // 2, "(t - 1) / 2 (Tonelli-Shanks)"))
out.append(arr("CZ_BN254_FR_ROOT_OF_UNITY_5_MONT", root5 * RM % R,
               "5^t * R mod r: a primitive 2^28-th root of unity (5 a non-residue; snarkjs's)"))
out.append("/* ---- tower: xi = 9 + u; each entry a cz_bn254_fp2 {c0, c1}, Montgomery ---- */\n")
out.append(table("CZ_BN254_FP6_FROB_V", g1, "k = 0..5: xi^((p^k - 1)/3); v^(p^k) = v * this"))
out.append(table("CZ_BN254_FP6_FROB_V2", g2, "k = 0..5: xi^(2(p^k - 1)/3)"))
out.append(table("CZ_BN254_FP12_FROB_W", gw, "k = 0..11: xi^((p^k - 1)/6); w^(p^k) = w * this"))
out.append(table("CZ_BN254_FP12_FROB_W3", gw3, "k = 0..11: FROB_W[k]^3"))
out.append(table("CZ_BN254_FP12_FROB_W5", gw5, "k = 0..11: FROB_W[k]^5"))
out.append("/* ---- curves ---- */\n")
out.append(arr("CZ_BN254_G1_B_MONT", mont(3), "3 R mod p (G1: y^2 = x^3 + 3)"))
out.append(arr("CZ_BN254_G1_GEN_X_MONT", mont(1), "G1 generator x = 1"))
out.append(arr("CZ_BN254_G1_GEN_Y_MONT", mont(2), "G1 generator y = 2"))
out.append("/* b' = 3 / xi = 3 / (9 + u): G2 (D-type twist) y^2 = x^3 + b' */\n"
           "#define CZ_BN254_G2_B %s\n" % fp2_init(B2))
out.append("/* G2 generator (EIP-197), x = x.c0 + x.c1 u, y likewise */\n")
out.append("#define CZ_BN254_G2_GEN_X %s\n" % fp2_init(G2X))
out.append("#define CZ_BN254_G2_GEN_Y %s\n" % fp2_init(G2Y))
out.append("/* psi(x, y) = (conj(x) PSI_X, conj(y) PSI_Y), PSI_X = xi^((p-1)/3),\n"
           "   PSI_Y = xi^((p-1)/2): untwist-Frobenius-twist; [6x^2] = [p] on G2 */\n")
out.append("#define CZ_BN254_G2_PSI_X %s\n" % fp2_init(PSI_X))
out.append("#define CZ_BN254_G2_PSI_Y %s\n" % fp2_init(PSI_Y))
out.append("/* psi^2(x, y) = (x PSI2_X, -y), PSI2_X = xi^((p^2-1)/3) (in Fp) */\n")
out.append("#define CZ_BN254_G2_PSI2_X %s\n" % fp2_init(PSI2_X))
out.append("/* ---- GLV on G1: phi(x, y) = (beta x, y) = [lambda] (x, y) ---- */\n")
out.append(arr("CZ_BN254_G1_BETA_MONT", mont(BETA), "beta = 0x%x, a cube root of unity in Fp (Montgomery)" % BETA))
out.append(arr("CZ_BN254_G1_LAMBDA", LAMBDA,
               "lambda = 0x%x, the cube root of unity in Fr with phi = [lambda] (plain)" % LAMBDA))
out.append("/* lattice basis v1 = (%d, %d),\n   v2 = (%d, %d) (a + b lambda = 0 mod r).\n"
           "   Babai rounding c_i = S_i floor((k G_i + 2^255) / 2^256), then\n"
           "   k1 = k + c1' MK11 + c2' MK12, k2 = c1' MK21 + c2' MK22 mod 2^256 (c_i' = floor part,\n"
           "   the MK the signed basis entries times -S_i); |k1|, |k2| < 2^128 (worst of 20000\n"
           "   random k: 2^%.2f) */\n" % (LA1, LB1, LA2, LB2, __import__('math').log2(worst)))
out.append("#define CZ_BN254_GLV_G1 { 0x%016xULL, 0x%016xULL, 0x%016xULL }\n" % (GL1 & (2**64-1), (GL1 >> 64) & (2**64-1), GL1 >> 128))
out.append("#define CZ_BN254_GLV_G2 { 0x%016xULL, 0x%016xULL, 0x%016xULL }\n" % (GL2 & (2**64-1), (GL2 >> 64) & (2**64-1), GL2 >> 128))
for name, v in (("MK11", MK11), ("MK12", MK12), ("MK21", MK21), ("MK22", MK22)):
    out.append("#define CZ_BN254_GLV_%s { %s }\n" % (name, body(v)))
out.append(u64("CZ_BN254_X", X, "x, the BN parameter (positive)"))
sx2 = 6 * X * X
out.append("/* 6x^2 = 0x%x (128 bits): psi(Q) == [6x^2] Q iff Q in G2 */\n" % sx2)
out.append("#define CZ_BN254_SIX_X_SQ { 0x%016xULL, 0x%016xULL }\n" % (sx2 & (2**64 - 1), sx2 >> 64))
out.append("/* 6x + 2 = 0x%x, the ate loop length; its NAF digits, most\n"
           "   significant first (%d digits; the leading 1 is the start) */\n" % (ATE, len(ate_naf)))
out.append("#define CZ_BN254_ATE_NAF_LEN %d\n" % len(ate_naf))
out.append("#define CZ_BN254_ATE_NAF { %s }\n" % ", ".join(str(z) for z in ate_naf))
out.append("\n#endif\n")
print("".join(out), end="")
