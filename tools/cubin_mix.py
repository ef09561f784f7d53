#!/usr/bin/env python3
"""cubin_mix.py: the instruction mix of each kernel of an sm_90 cubin,
without cuobjdump (the development machine has nvcc but no disassembler).

    nvcc -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -Icuda -cubin -o k.cubin k.cu
    tools/cubin_mix.py k.cubin [NAME_SUBSTRING]

Reads the ELF's .text.<kernel> sections and classes each 16-byte
instruction by the low 12 bits of its first word (the opcode and its
operand form on sm_90: 0x2xx register, 0x8xx immediate, 0xaxx constant).
Prints, a kernel a line: instructions, IMAD.WIDE (the 32x32+64 multiply
that carries the field products), other IMADs (IMAD, IMAD.HI, and
IMAD.MOV, ptxas's move on the FMA pipe), IADD3, MOV, SEL, and the IMAD
pipe's issue count (2 a wide one). The opcode table covers what the field
code emits; anything else counts only in the total. Static counts: a loop
body's instructions once, the prologue and epilogue too, so compare
kernels that differ only in what is measured. Checked against cuobjdump
on the H200 (docs/PERF.md, 2026-12-02 13:21).
"""
import collections
import struct
import sys

OPS = {
    0x225: "IMAD.WIDE", 0x825: "IMAD.WIDE", 0xA25: "IMAD.WIDE",
    0x224: "IMAD", 0x824: "IMAD", 0xA24: "IMAD", 0x227: "IMAD", 0x827: "IMAD", 0xA27: "IMAD",
    0x210: "IADD3", 0x810: "IADD3", 0xA10: "IADD3",
    0x202: "MOV", 0x802: "MOV", 0xA02: "MOV",
    0x207: "SEL", 0x807: "SEL", 0xA07: "SEL",
}


def sections(data):
    if data[:4] != b"\x7fELF" or data[4] != 2:
        sys.exit("cubin_mix: not a 64-bit ELF (a .cubin from nvcc -cubin)")
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    secs = []
    for i in range(shnum):
        name, _typ, _flags, _addr, off, size = struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
        secs.append((name, off, size))
    stroff = secs[shstrndx][1]
    for name, off, size in secs:
        end = data.index(b"\0", stroff + name)
        yield data[stroff + name:end].decode(), off, size


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    data = open(sys.argv[1], "rb").read()
    pat = sys.argv[2] if len(sys.argv) > 2 else ""
    print("%-60s %6s %6s %6s %6s %6s %6s %9s" % ("kernel", "instr", "wide", "imad", "iadd3", "mov", "sel",
                                                 "imad-pipe"))
    for name, off, size in sections(data):
        if not name.startswith(".text.") or pat not in name:
            continue
        c = collections.Counter()
        for i in range(0, size, 16):
            c[OPS.get(struct.unpack_from("<Q", data, off + i)[0] & 0xFFF, "other")] += 1
        print("%-60s %6d %6d %6d %6d %6d %6d %9d" % (name[6:66], size // 16, c["IMAD.WIDE"], c["IMAD"], c["IADD3"],
                                                     c["MOV"], c["SEL"], 2 * c["IMAD.WIDE"] + c["IMAD"]))


if __name__ == "__main__":
    main()
