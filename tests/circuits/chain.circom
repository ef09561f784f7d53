// chain.circom: a parameterised benchmark circuit of exactly 2·N + 1
// constraints (template only; a main is generated per size, e.g. by
// bench/prove_vs_snarkjs.sh: `component main {public [c]} = Chain(N);`).
//
// Step i:  x[i+1] = x[i]^2 + c + bit[i],  bit[i] = low bit of x[i],
//          bit[i]·(bit[i] − 1) = 0.
// So half of the internal signals are 0/1, like the boolean-heavy witnesses
// of hash circuits, and the other half are full-size field elements.
// bit[i] is a hint checked only to be boolean: the circuit is a workload,
// not a statement anyone needs to be sound.
pragma circom 2.0.0;

template Chain(N) {
    signal input x0;       // private
    signal input c;        // public
    signal output out;     // x[N]·c, public
    signal x[N + 1];
    signal bit[N];
    x[0] <== x0;
    for (var i = 0; i < N; i++) {
        bit[i] <-- x[i] & 1;
        bit[i] * (bit[i] - 1) === 0;
        x[i + 1] <== x[i] * x[i] + c + bit[i];
    }
    out <== x[N] * c;
}
