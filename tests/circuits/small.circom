// small.circom: the interop fixture circuit (about 120 constraints).
//
// It has every kind of signal a Groth16 prover must place correctly:
// 2 public outputs, 2 public inputs, 3 private inputs, internal signals,
// boolean signals (a 16-bit decomposition, so the witness holds many 0/1
// values) and degree-5 "hash-like" mixing rounds (a MiMC-style Feistel
// network on two lanes), so the H polynomial is far from trivial.
// Public signals in the witness and in public.json: prod, digest, a, b.
pragma circom 2.0.0;

// One Feistel round: t = l + k + C; (l, r) -> (r + t^5, l).
// 3 constraints (t^2, t^4, t^5); the lane swap is a renaming.
template Round(C) {
    signal input l;
    signal input r;
    signal input k;
    signal output lo;
    signal output ro;
    signal t2;
    signal t4;
    var t = l + k + C;
    t2 <== t * t;
    t4 <== t2 * t2;
    lo <== r + t4 * t;
    ro <== l;
}

// Num2Bits: out[i] in {0,1} and sum out[i]·2^i = in (n + 1 constraints).
template Bits(n) {
    signal input in;
    signal output out[n];
    var acc = 0;
    var pow = 1;
    for (var i = 0; i < n; i++) {
        out[i] <-- (in >> i) & 1;
        out[i] * (out[i] - 1) === 0;
        acc += out[i] * pow;
        pow = pow + pow;
    }
    acc === in;
}

template Small(ROUNDS, NBITS) {
    signal input a;        // public
    signal input b;        // public
    signal input x;        // private, < 2^NBITS
    signal input y;        // private
    signal input k;        // private
    signal output prod;    // a * x
    signal output digest;  // Feistel(y, b + bits-weighted x) under key k

    prod <== a * x;

    component bits = Bits(NBITS);
    bits.in <== x;

    // Odd-weighted sum of the bits: a linear combination of booleans that
    // feeds the mixer, so B/C columns of bit signals are non-empty.
    signal gated[NBITS];
    for (var i = 0; i < NBITS; i++) {
        gated[i] <== bits.out[i] * (k + i);
    }
    var s = 0;
    for (var i = 0; i < NBITS; i++) {
        s += gated[i];
    }

    component r[ROUNDS];
    for (var i = 0; i < ROUNDS; i++) {
        r[i] = Round(i * i * i + 7 * i + 1);
        r[i].k <== k;
        if (i == 0) {
            r[i].l <== y;
            r[i].r <== b + s;
        } else {
            r[i].l <== r[i - 1].lo;
            r[i].r <== r[i - 1].ro;
        }
    }
    digest <== r[ROUNDS - 1].lo * a;
}

component main {public [a, b]} = Small(24, 16);
