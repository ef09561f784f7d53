#!/usr/bin/env python3
"""Generate src/curve/curve_constants.h: the constants of the curve layer's
endomorphisms (GLV phi on G1, untwist-Frobenius-twist psi on G2) and the G2
curve coefficient, in the host representation (little-endian 64-bit limbs,
Montgomery form x * 2^384 mod p). Each value is printed with its formula, and
the script checks each one on the generators before printing it:

  phi(x, y) = (beta * x, y), beta a primitive cube root of unity in Fp, chosen
              so that phi(P) = -x^2 * P on G1 (Scott 2021, "A note on group
              membership tests for G1, G2 and GT on BLS pairing-friendly
              curves": P in G1 iff phi(P) == -x^2 P).
  psi(x, y) = (cx * conj(x), cy * conj(y)), with cx = 1 / (u+1)^((p-1)/3) and
              cy = 1 / (u+1)^((p-1)/2): untwist to E(Fp12), Frobenius, twist
              back; on G2 it acts as multiplication by x (P in G2 iff
              psi(P) == x P).

Run: python3 tools/gen_curve_constants.py > src/curve/curve_constants.h
"""

P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
RP = 1 << 384
X = -0xd201000000010000  # the BLS parameter

G1 = (0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb,
      0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1)
G2 = ((0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8,
       0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e),
      (0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801,
       0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be))


# ---- Fp2 = Fp[u]/(u^2 + 1) as pairs (c0, c1) ----
def f2add(a, b): return ((a[0] + b[0]) % P, (a[1] + b[1]) % P)
def f2sub(a, b): return ((a[0] - b[0]) % P, (a[1] - b[1]) % P)
def f2mul(a, b): return ((a[0] * b[0] - a[1] * b[1]) % P, (a[0] * b[1] + a[1] * b[0]) % P)
def f2conj(a): return (a[0], (-a[1]) % P)


def f2inv(a):
    n = pow(a[0] * a[0] + a[1] * a[1], P - 2, P)
    return (a[0] * n % P, (-a[1]) * n % P)


def f2pow(a, e):
    r = (1, 0)
    while e:
        if e & 1:
            r = f2mul(r, a)
        a = f2mul(a, a)
        e >>= 1
    return r


# ---- affine short Weierstrass arithmetic (a = 0), generic over a field ----
class Field:
    def __init__(self, add, sub, mul, inv, zero, one):
        self.add, self.sub, self.mul, self.inv, self.zero, self.one = add, sub, mul, inv, zero, one


FP = Field(lambda a, b: (a + b) % P, lambda a, b: (a - b) % P, lambda a, b: a * b % P,
           lambda a: pow(a, P - 2, P), 0, 1)
FP2 = Field(f2add, f2sub, f2mul, f2inv, (0, 0), (1, 0))


def ec_add(F, p, q):
    if p is None:
        return q
    if q is None:
        return p
    if p[0] == q[0]:
        if F.add(p[1], q[1]) == F.zero:
            return None
        three_x2 = F.mul(F.add(F.add(p[0], p[0]), p[0]), p[0])
        lam = F.mul(three_x2, F.inv(F.add(p[1], p[1])))
    else:
        lam = F.mul(F.sub(q[1], p[1]), F.inv(F.sub(q[0], p[0])))
    x3 = F.sub(F.sub(F.mul(lam, lam), p[0]), q[0])
    return (x3, F.sub(F.mul(lam, F.sub(p[0], x3)), p[1]))


def ec_neg(F, p):
    return None if p is None else (p[0], F.sub(F.zero, p[1]))


def ec_mul(F, p, k):
    if k < 0:
        return ec_mul(F, ec_neg(F, p), -k)
    r = None
    while k:
        if k & 1:
            r = ec_add(F, r, p)
        p = ec_add(F, p, p)
        k >>= 1
    return r


def on_curve(F, p, b):
    x, y = p
    return F.mul(y, y) == F.add(F.mul(F.mul(x, x), x), b)


# ---- the constants ----
B1 = 4
B2 = (4, 4)  # 4 (u + 1)
assert on_curve(FP, G1, B1) and on_curve(FP2, G2, B2)
assert ec_mul(FP, G1, R) is None and ec_mul(FP2, G2, R) is None

# beta: a primitive cube root of unity in Fp. Candidates are g^((p-1)/3) for
# small g; the two primitive roots are beta and beta^2 = -1 - beta; take the
# one whose phi has eigenvalue -x^2 on G1.
lam = (-X * X) % R
assert (lam * lam + lam + 1) % R == 0
beta = None
for g in range(2, 100):
    c = pow(g, (P - 1) // 3, P)
    if c != 1:
        for cand in (c, c * c % P):
            if ec_mul(FP, G1, lam) == (cand * G1[0] % P, G1[1]):
                beta = cand
        break
assert beta is not None and pow(beta, 3, P) == 1 and beta != 1

# psi coefficients.
xi = (1, 1)  # u + 1
cx = f2inv(f2pow(xi, (P - 1) // 3))
cy = f2inv(f2pow(xi, (P - 1) // 2))


def psi(p):
    return (f2mul(cx, f2conj(p[0])), f2mul(cy, f2conj(p[1])))


assert on_curve(FP2, psi(G2), B2)
assert psi(G2) == ec_mul(FP2, G2, X % R)
# psi^2 - t psi + p = 0 on E'(Fp2), t = x + 1: check on the generator.
t = X + 1
lhs = ec_add(FP2, ec_add(FP2, psi(psi(G2)), ec_neg(FP2, ec_mul(FP2, psi(G2), t))), ec_mul(FP2, G2, P))
assert lhs is None


def limbs(v, n=6):
    return [(v >> (64 * i)) & (2**64 - 1) for i in range(n)]


def arr(name, v, formula):
    body = ", ".join("0x%016xULL" % x for x in limbs(v * RP % P))
    return "/* %s */\n#define %s { %s }\n" % (formula, name, body)


out = []
out.append("/* Generated by tools/gen_curve_constants.py; do not edit. */\n")
out.append("#ifndef CZ_CURVE_CONSTANTS_H\n#define CZ_CURVE_CONSTANTS_H\n\n")
out.append("/* All values Montgomery form (v * 2^384 mod p), little-endian limbs. */\n")
out.append(arr("CZ_G1_BETA_MONT", beta,
               "beta = g^((p-1)/3) (a primitive cube root of unity, g = smallest non-cube),\n"
               "   the root for which phi(x, y) = (beta x, y) equals [-x^2] on G1.\n"
               "   beta = 0x%x" % beta))
out.append(arr("CZ_G2_B_C0_MONT", 4, "G2 curve coefficient b' = 4 (u + 1): c0 = 4"))
out.append(arr("CZ_G2_B_C1_MONT", 4, "G2 curve coefficient b' = 4 (u + 1): c1 = 4"))
out.append(arr("CZ_G2_PSI_CX_C0_MONT", cx[0], "psi x coefficient 1 / (u+1)^((p-1)/3), c0"))
out.append(arr("CZ_G2_PSI_CX_C1_MONT", cx[1], "psi x coefficient 1 / (u+1)^((p-1)/3), c1"))
out.append(arr("CZ_G2_PSI_CY_C0_MONT", cy[0], "psi y coefficient 1 / (u+1)^((p-1)/2), c0"))
out.append(arr("CZ_G2_PSI_CY_C1_MONT", cy[1], "psi y coefficient 1 / (u+1)^((p-1)/2), c1"))
out.append("\n#endif\n")
print("".join(out), end="")
