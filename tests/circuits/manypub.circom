// manypub.circom: many public signals (N outputs, N public inputs, one
// private input): checks the order of public.json (outputs first, then
// public inputs) and the IC multi-scalar product of the verifier.
pragma circom 2.0.0;

template ManyPub(N) {
    signal input in[N];
    signal input k;          // private
    signal output out[N];
    for (var i = 0; i < N; i++) {
        out[i] <== in[i] * in[i] + k * (i + 1);
    }
}

component main {public [in]} = ManyPub(24);
