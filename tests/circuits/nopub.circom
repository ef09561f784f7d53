// nopub.circom: a circuit with no public signals at all (nPublic = 0):
// public.json is [], the verification key has a single IC point.
pragma circom 2.0.0;

template NoPub() {
    signal input a;
    signal input b;
    signal ab;
    signal sq;
    ab <== a * b;
    sq <== ab * ab;
    sq * a === 432;      // (a·b)²·a for a = 3, b = 4
}

component main = NoPub();
