#!/usr/bin/env python3
"""Write tiny.r1cs and tiny.wtns: the circuit x * x = out (wires: 0 = one,
1 = out, public, 2 = x, private) and its witness for x = 3, in the iden3
formats of /work/shared/FORMATS.md. They seed the fuzzers: small inputs make
many more executions per second than the snarkjs fixtures. The key and JSON
seeds come from cuzk itself:
    python3 tests/fuzz/seeds/make_tiny.py tests/fuzz/seeds
    cuzk setup --seed 1 tiny.r1cs tiny.zkey tiny_vk.json
    cuzk prove tiny.zkey tiny.wtns tiny_proof.json tiny_public.json
"""
import os
import struct
import sys

R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001


def fe(v):
    return v.to_bytes(32, "little")


def container(magic, version, sections):
    out = magic + struct.pack("<II", version, len(sections))
    for sid, data in sections:
        out += struct.pack("<IQ", sid, len(data)) + data
    return out


def lc(terms):
    return struct.pack("<I", len(terms)) + b"".join(struct.pack("<I", w) + fe(c) for w, c in terms)


def main(out):
    # n8, prime, nWires, nPubOut, nPubIn, nPrvIn, nLabels (u64), nConstraints
    hdr = struct.pack("<I", 32) + fe(R) + struct.pack("<IIIIQI", 3, 1, 0, 1, 3, 1)
    cons = lc([(2, 1)]) + lc([(2, 1)]) + lc([(1, 1)])  # A = x, B = x, C = out
    labels = b"".join(struct.pack("<Q", i) for i in range(3))
    with open(os.path.join(out, "tiny.r1cs"), "wb") as f:
        f.write(container(b"r1cs", 1, [(1, hdr), (2, cons), (3, labels)]))
    w = [1, 9, 3]
    sec1 = struct.pack("<I", 32) + fe(R) + struct.pack("<I", len(w))
    with open(os.path.join(out, "tiny.wtns"), "wb") as f:
        f.write(container(b"wtns", 2, [(1, sec1), (2, b"".join(fe(v) for v in w))]))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)))
