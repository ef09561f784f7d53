#!/usr/bin/env python3
"""Generate src/field/mont_x86_64.h: Montgomery products for BLS12-381's Fp
(6 limbs) and Fr (4 limbs) in x86-64 inline assembly with BMI2 mulx and ADX
adcx/adox.

Algorithm (CIOS, a reduction after each row), N limbs, accumulator T of
N+1 words held in registers:
  T = a * b_0                                  (mulx + add/adc chain)
  for i = 0 .. N-1:
    q = T_0 * n0 mod 2^64                      (imul, straight into rdx)
    T += q * m; T >>= 64                       (mulx; low words on one flag
                                                chain, high words on the
                                                other; T_0 + lo(q m_0) is 0
                                                and only its carry counts; the
                                                freed register becomes the new
                                                top word)
    if i + 1 < N: T += a * b_(i+1)             (mulx, the two chains again)
  out = T - m if T >= m else T                 (sub/sbb, then cmov: constant time)
Bounds (m < 2^(64N-1), a, b < m, T < 2m at the top of a round):
T + a b_i + q m < 2m + 2 (2^64 - 1) m = 2^65 m <= 2^(64(N+1)), so every sum
fits N+1 words, no carry leaves the top word (the fix-ups that add the
pending CF/OF into it cannot wrap), and after the shift T < 2m again.
Per product: 2N^2 mulx, about 4N^2 adcx/adox/adc, N imul.
Which chain takes the low words is a per-field choice, measured on AMD
Zen 4 (EPYC, 2 cores; ns per product, dependent chain / 4 independent
chains, min of 5 runs; the variants were compared at -O2 -mbmi2 -madx,
where the compiler's stores stay scalar, the first and kept rows are
-O2 -march=native with the stores as below):
  Fp: hoisted N+2-word CIOS (the former code)      38.3 / 33.4
      this scheme, low words on CF in both rows    35.1 / 32.0
      low words of a b_i on OF, of q m on CF        33.2 / 31.3  (kept)
      low words on OF in both rows, or CF/OF        35.9 / 32.4
      the hoisted scheme with a b_i's low on OF     35.3 / 33.6
  Fr: former 20.7 / 16.6; CF in both rows 17.4 / 15.0 (kept); OF/CF
      18.7 / 14.6.
The imul on the q chain is not the bound: dropping it (a wrong product,
as an experiment) changed nothing; the port throughput of mulx + two
flag adds per partial product (about 1.2-1.5 cycles measured) is.
Run: python3 tools/gen_mont_asm.py > src/field/mont_x86_64.h
     python3 tools/gen_mont_asm.py bn254 > src/field/mont_bn254_x86_64.h
"""

P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001


# The 6-limb product and square need 13 and 14 registers: inlined into a
# register-hungry caller (curve formulas under LTO, a frame pointer, ASan)
# GCC may find no allocation, so they stay functions of their own; the
# 4-limb ones and add/sub (at most 12 registers) inline.
NOINLINE = "static __attribute__((noinline)) __attribute__((unused))"
NOINLINE_NO_SLP = "static CZ_NO_SLP __attribute__((noinline)) __attribute__((unused))"


# Result stores. Left to the compiler, the stores of the output registers
# get packed by the SLP vectorizer under -march=znver4 (vmovq, vpinsrq,
# vinserti128, one ymm store), which adds some 10 cycles to the result's
# latency and slows store forwarding to the next product's 8-byte loads
# (measured: 38 against 34 ns for the Fp product, 21.7 against 16.5 ns for
# the Fr square). Three forms:
#   in a register: the asm stores through [out] "r"(out) with an "=m"
#     output for the words (where a register is left over: the inline
#     functions, redc);
#   through the stack: the noinline 6-limb square uses every register, so
#     out arrives in one of its work registers, is parked in its scratch
#     frame and reloaded for the stores ("memory" clobber, volatile);
#   compiler stores with the vectorizer off for the function (CZ_NO_SLP, a
#     GCC attribute): the noinline 6-limb product, where this measured
#     faster than the asm storing through a parked pointer (33.7 against
#     35.5 ns).
def store_reg(op, regs):
    for j, r in enumerate(regs):
        op("movq %s, %d(%%[out])" % (r, 8 * j))


def limbs(v, n):
    return [(v >> (64 * i)) & (2**64 - 1) for i in range(n)]


def gen(name, m, n, inline=True, mul_lo="o", red_lo="c"):
    """The Montgomery product (see the module docstring). mul_lo, red_lo:
    the flag chain ('c' = CF/adcx, 'o' = OF/adox) that takes the low words
    of a * b_i and of q * m; the other chain takes the high words.
    Registers: N+1 accumulator words, lo, hi, a zero z, a, b, rdx (13 for
    N = 6). The inline form takes out in one more register and stores the
    result itself; the noinline form (N = 6, which must fit under a frame
    pointer: 14 registers) leaves the stores to the compiler, with the SLP
    vectorizer off for the function (see CZ_NO_SLP)."""
    n0 = (-pow(m, -1, 2**64)) % 2**64
    assert m < 2 ** (64 * n - 1)
    acc = ["t%d" % i for i in range(n + 1)]
    lines = []
    op = lines.append
    X = {"c": "adcxq", "o": "adoxq"}
    other = {"c": "o", "o": "c"}

    def a(j):
        return "%d(%%[a])" % (8 * j)

    def r(k):
        return "%%[%s]" % acc[k]

    op("movq 0(%[b]), %%rdx")
    op("mulxq %s, %s, %s" % (a(0), r(0), r(1)))
    for j in range(1, n):
        op("mulxq %s, %%[lo], %s" % (a(j), r(j + 1)))
        op("%s %%[lo], %s" % ("addq" if j == 1 else "adcq", r(j)))
    op("adcq $0, %s" % r(n))
    op("xorl %k[z], %k[z]")  # z: a zero for the fix-ups
    rl, rh = X[red_lo], X[other[red_lo]]
    ml, mh = X[mul_lo], X[other[mul_lo]]
    for i in range(n):
        # reduce: q = T_0 n0; T += q m; T >>= 64
        op("movq %s, %%%%rdx" % r(0))
        op("imulq %[n0], %%rdx")
        op("xorl %k[lo], %k[lo]")
        op("mulxq %[p0], %[lo], %[hi]")
        op("%s %s, %%[lo]" % (rl, r(0)))
        op("%s %%[hi], %s" % (rh, r(1)))
        for j in range(1, n):
            op("mulxq %%[p%d], %%[lo], %%[hi]" % j)
            op("%s %%[lo], %s" % (rl, r(j)))
            op("%s %%[hi], %s" % (rh, r(j + 1)))
        if red_lo == "c":
            op("adcq $0, %s" % r(n))
        else:
            op("adoxq %%[z], %s" % r(n))
        acc = acc[1:] + acc[:1]  # T >>= 64: T_0's register is the new top
        if i + 1 < n:
            # T += a * b_(i+1): the top word starts as hi(a_(N-1) b_(i+1))
            op("movq %d(%%[b]), %%%%rdx" % (8 * (i + 1)))
            op("xorl %k[lo], %k[lo]")
            for j in range(n - 1):
                op("mulxq %s, %%[lo], %%[hi]" % a(j))
                op("%s %%[lo], %s" % (ml, r(j)))
                op("%s %%[hi], %s" % (mh, r(j + 1)))
            op("mulxq %s, %%[lo], %s" % (a(n - 1), r(n)))
            op("%s %%[lo], %s" % (ml, r(n - 1)))
            op("adcxq %%[z], %s" % r(n))
            op("adoxq %%[z], %s" % r(n))
    # T < 2m lies in acc[0 .. n-1]: d = T - m in spare registers (z, b and,
    # inline, a are dead by now), then cmov keeps T on borrow
    spare = ["%[lo]", "%[hi]", "%%rdx", r(n), "%[b]", "%[a]" if inline else "%[z]"]
    for j in range(n):
        op("movq %s, %s" % (r(j), spare[j]))
    for j in range(n):
        op("%s %%[p%d], %s" % ("subq" if j == 0 else "sbbq", j, spare[j]))
    for j in range(n):
        op("cmovncq %s, %s" % (spare[j], r(j)))
    if inline:
        store_reg(op, [r(j) for j in range(n)])
    body = "\n".join('        "%s\\n\\t"' % l for l in lines)
    outs = ", ".join('[t%d] "=&r"(t[%d])' % (k, k) for k in range(n + 1))
    ins_p = ", ".join('[p%d] "m"(%s_p[%d])' % (j, name, j) for j in range(n))
    plist = ", ".join("0x%016xULL" % x for x in limbs(m, n))
    if inline:
        # a and b are dead at the end; the copies let the asm reuse them
        decl = "uint64_t t[%d], lo, hi, z;\n    const uint64_t *ap = a, *bp = b;" % (n + 1)
        asm = "__asm__"
        ops = ('        : %s, [lo] "=&r"(lo), [hi] "=&r"(hi), [z] "=&r"(z),\n'
               '          [a] "+&r"(ap), [b] "+&r"(bp), "=m"(*(uint64_t(*)[%d])out)\n'
               '        : [out] "r"(out), "m"(*(const uint64_t(*)[%d])a), "m"(*(const uint64_t(*)[%d])b),\n'
               '          [n0] "m"(%s_n0), %s\n'
               '        : "rdx", "cc");' % (outs, n, n, n, name, ins_p))
        QUAL = "static inline"
    else:
        decl = "uint64_t t[%d], lo, hi, z;\n    const uint64_t *bp = b;" % (n + 1)
        asm = "__asm__"
        stores = "\n".join("    out[%d] = t[%s];" % (j, acc[j][1:]) for j in range(n))
        ops = ('        : %s, [lo] "=&r"(lo), [hi] "=&r"(hi), [z] "=&r"(z), [b] "+&r"(bp)\n'
               '        : [a] "r"(a), "m"(*(const uint64_t(*)[%d])a), "m"(*(const uint64_t(*)[%d])b),\n'
               '          [n0] "m"(%s_n0), %s\n'
               '        : "rdx", "cc");\n%s' % (outs, n, n, name, ins_p, stores))
        QUAL = NOINLINE_NO_SLP
    return f'''
static const uint64_t {name}_p[{n}] = {{ {plist} }};
static const uint64_t {name}_n0 = 0x{n0:016x}ULL;

/* out = a * b / 2^{64*n} mod m, inputs < m; out may alias a or b. */
{QUAL} void {name}_mul(uint64_t out[{n}], const uint64_t a[{n}], const uint64_t b[{n}])
{{
    {decl}
    {asm}(
{body}
{ops}
}}
'''


def gen_addsub(name, n):
    """add: s = a + b (no carry out: m < 2^(64N-1)); s -= m; on borrow add
    m back as below (few registers, so it fits under a frame pointer).
    sub: d = a - b; z = borrow ? m : 0 built limb by limb with cmovnz (no
    flags touched) and added with adcx, which leaves ZF alone. The asm
    stores the result words (see store_reg). always_inline: GCC sized the
    asm as large and kept ~300 call sites of the curve code out of line
    (g1 MSM 2^16 about 2-3% faster inlined); 11 registers at most, which
    fit under a frame pointer and ASan."""
    add = []
    for j in range(n):
        add.append("movq %d(%%[a]), %%[s%d]" % (8 * j, j))
        add.append("%s %d(%%[b]), %%[s%d]" % ("addq" if j == 0 else "adcq", 8 * j, j))
    for j in range(n):
        add.append("%s %%[p%d], %%[s%d]" % ("subq" if j == 0 else "sbbq", j, j))
    add.append("sbbq %[m], %[m]")
    add.append("testq %[m], %[m]")  # ZF = no borrow; CF = 0
    for j in range(n):
        add.append("movl $0, %k[t]")
        add.append("cmovnzq %%[p%d], %%[t]" % j)
        add.append("adcxq %%[t], %%[s%d]" % j)
    store_reg(add.append, ["%%[s%d]" % j for j in range(n)])
    sub = []
    for j in range(n):
        sub.append("movq %d(%%[a]), %%[s%d]" % (8 * j, j))
        sub.append("%s %d(%%[b]), %%[s%d]" % ("subq" if j == 0 else "sbbq", 8 * j, j))
    sub.append("sbbq %[m], %[m]")
    sub.append("testq %[m], %[m]")  # ZF = no borrow; CF = 0
    for j in range(n):
        sub.append("movl $0, %k[t]")
        sub.append("cmovnzq %%[p%d], %%[t]" % j)
        sub.append("adcxq %%[t], %%[s%d]" % j)
    store_reg(sub.append, ["%%[s%d]" % j for j in range(n)])

    def body(lines):
        return "\n".join('        "%s\\n\\t"' % l for l in lines)

    souts = ", ".join('[s%d] "=&r"(s[%d])' % (j, j) for j in range(n))
    ins_p = ", ".join('[p%d] "m"(%s_p[%d])' % (j, name, j) for j in range(n))
    mem = (f'[a] "r"(a), [b] "r"(b), [out] "r"(out), "m"(*(const uint64_t(*)[{n}])a), '
           f'"m"(*(const uint64_t(*)[{n}])b)')
    return f'''
/* out = a + b mod m, inputs < m; out may alias a or b. */
static inline __attribute__((always_inline)) void {name}_add(uint64_t out[{n}], const uint64_t a[{n}], const uint64_t b[{n}])
{{
    uint64_t s[{n}], m, t;
    __asm__(
{body(add)}
        : {souts}, [m] "=&r"(m), [t] "=&r"(t), "=m"(*(uint64_t(*)[{n}])out)
        : {mem},
          {ins_p}
        : "cc");
}}

/* out = a - b mod m, inputs < m; out may alias a or b. */
static inline __attribute__((always_inline)) void {name}_sub(uint64_t out[{n}], const uint64_t a[{n}], const uint64_t b[{n}])
{{
    uint64_t s[{n}], m, t;
    __asm__(
{body(sub)}
        : {souts}, [m] "=&r"(m), [t] "=&r"(t), "=m"(*(uint64_t(*)[{n}])out)
        : {mem},
          {ins_p}
        : "cc");
}}
'''


def gen_addnr(name, n):
    """add_nr: out = a + b as plain N-word integers (no reduction; the
    caller keeps a + b < 2^(64N)): an add/adc chain, stored by the asm."""
    L = []
    for j in range(n):
        L.append("movq %d(%%[a]), %%[s%d]" % (8 * j, j))
        L.append("%s %d(%%[b]), %%[s%d]" % ("addq" if j == 0 else "adcq", 8 * j, j))
    store_reg(L.append, ["%%[s%d]" % j for j in range(n)])
    body = "\n".join('        "%s\\n\\t"' % l for l in L)
    souts = ", ".join('[s%d] "=&r"(s[%d])' % (j, j) for j in range(n))
    return f'''
/* out = a + b, not reduced, for a + b < 2^{64*n}; out may alias a or b. */
static inline void {name}_add_nr(uint64_t out[{n}], const uint64_t a[{n}], const uint64_t b[{n}])
{{
    uint64_t s[{n}];
    __asm__(
{body}
        : {souts}, "=m"(*(uint64_t(*)[{n}])out)
        : [a] "r"(a), [b] "r"(b), [out] "r"(out), "m"(*(const uint64_t(*)[{n}])a),
          "m"(*(const uint64_t(*)[{n}])b)
        : "cc");
}}
'''


def gen_sqr(name, m, n, pool_size=9, inline=True):
    """Montgomery square, out = a^2 / 2^(64N) mod m, in three phases (the
    stack words it spills lie below the red zone: the asm moves rsp down
    128 + 24N bytes and back, and names no rsp-relative operand):
    A: the off-diagonal sum  sum_{i<j} a_i a_j 2^(64(i+j))  (N(N-1)/2 mulx),
       row by row on the OF (low words) / CF (high words) chains; words that are final are spilled to
       the stack when registers run out;
    B: S = 2 * A + sum a_i^2 2^(128 i)  (N mulx): doubling on the CF chain
       (adcx x, x), diagonal words on the OF chain; the high half of S goes
       to the stack;
    C: Montgomery reduction of the low half L (N rounds of q = t_0 * n0,
       T += q * m, T >>= 64: N^2 mulx) gives (L + Q m) / 2^(64N) <= m; adding
       the high half H <= (m-1)^2 / 2^(64N) < m - 1 gives a value < 2m, and
       one conditional subtraction finishes. N^2 + N(N+1)/2 mulx in all
       (57 for N = 6, against 72 for a product)."""
    pool = ["%%[r%d]" % i for i in range(pool_size)]
    free = list(pool)
    loc = {}        # word index -> register name or ("mem", slot)
    final = set()
    lines = []

    def op(x):
        lines.append(x)

    def a(j):
        return "%d(%%[a])" % (8 * j)

    def alloc():
        if not free:
            # spill the lowest final word held in a register
            k = min(k for k in final if isinstance(loc.get(k), str))
            op("movq %s, %d(%%%%rsp)" % (loc[k], 8 * k))
            free.append(loc[k])
            loc[k] = ("mem", k)
        return free.pop(0)

    # scratch below the red zone: words k of A at 8k(%rsp), H after them,
    # then (noinline form) the out pointer, which arrives in the last pool
    # register and is parked there until the stores
    frame = 128 + ((8 * 3 * n + 8 + 15) // 16) * 16
    op("subq $%d, %%%%rsp" % frame)
    if not inline:
        op("movq %s, %d(%%%%rsp)" % (pool[-1], 8 * 3 * n))
    # ---- phase A ----
    op("xorl %k[z], %k[z]")
    op("movq 0(%[a]), %%rdx")
    loc[1] = alloc()
    loc[2] = alloc()
    op("mulxq %s, %s, %s" % (a(1), loc[1], loc[2]))
    for j in range(2, n):
        loc[j + 1] = alloc()
        op("mulxq %s, %%[lo], %s" % (a(j), loc[j + 1]))
        op("%s %%[lo], %s" % ("addq" if j == 2 else "adcq", loc[j]))
    if n > 2:
        op("adcq $0, %s" % loc[n])
    final |= {1, 2}
    for i in range(1, n - 1):
        op("movq %s, %%%%rdx" % a(i))
        op("xorl %k[lo], %k[lo]")
        for j in range(i + 1, n):
            k = i + j
            if j < n - 1:
                op("mulxq %s, %%[lo], %%[hi]" % a(j))
                op("adoxq %%[lo], %s" % loc[k])
                op("adcxq %%[hi], %s" % loc[k + 1])
            else:
                loc[k + 1] = alloc()
                op("mulxq %s, %%[lo], %s" % (a(j), loc[k + 1]))
                op("adoxq %%[lo], %s" % loc[k])
                op("adcxq %%[z], %s" % loc[k + 1])
                op("adoxq %%[z], %s" % loc[k + 1])
        final |= {2 * i + 1, 2 * i + 2}
    final |= set(range(1, 2 * n - 1))
    # ---- phase B ----
    s = {}

    def word(k):
        """register holding off-diagonal word k (reloaded if spilled)"""
        if k >= 2 * n - 1:
            r = alloc()
            op("movl $0, %%k%s" % r[1:])
            return r
        w = loc[k]
        if isinstance(w, str):
            return w
        r = alloc()
        op("movq %d(%%%%rsp), %s" % (8 * k, r))
        return r

    def done(k, r):
        if k >= n:
            op("movq %s, %d(%%%%rsp)" % (r, 8 * (n + k)))
            free.append(r)
        else:
            s[k] = r

    op("movq 0(%[a]), %%rdx")
    s0 = alloc()
    op("xorl %k[lo], %k[lo]")
    op("mulxq %%%%rdx, %s, %%[hi]" % s0)
    s[0] = s0
    r = word(1)
    op("adcxq %s, %s" % (r, r))
    op("adoxq %%[hi], %s" % r)
    done(1, r)
    for i in range(1, n):
        op("movq %s, %%%%rdx" % a(i))
        op("mulxq %%rdx, %[lo], %[hi]")
        for k, d in ((2 * i, "%[lo]"), (2 * i + 1, "%[hi]")):
            r = word(k)
            op("adcxq %s, %s" % (r, r))
            op("adoxq %s, %s" % (d, r))
            done(k, r)
    # ---- phase C ----
    t = [s[k] for k in range(n)]
    top = alloc()
    op("xorl %%k%s, %%k%s" % (top[1:], top[1:]))
    t.append(top)
    for rnd in range(n):
        op("movq %s, %%%%rdx" % t[0])
        op("imulq %[n0], %%rdx")
        op("xorl %k[lo], %k[lo]")
        for j in range(n):
            op("mulxq %%[p%d], %%[lo], %%[hi]" % j)
            op("adcxq %%[lo], %s" % t[j])
            op("adoxq %%[hi], %s" % t[j + 1])
        op("adcq $0, %s" % t[n])
        t = t[1:] + t[:1]
    for j in range(n):
        op("%s %d(%%%%rsp), %s" % ("addq" if j == 0 else "adcq", 8 * (2 * n + j), t[j]))
    spare = ["%[lo]", "%[hi]", "%%rdx", "%[z]", t[n]] + free
    assert len(spare) >= n
    for j in range(n):
        op("movq %s, %s" % (t[j], spare[j]))
    for j in range(n):
        op("%s %%[p%d], %s" % ("subq" if j == 0 else "sbbq", j, spare[j]))
    for j in range(n):
        op("cmovncq %s, %s" % (spare[j], t[j]))
    if inline:
        op("addq $%d, %%%%rsp" % frame)
        store_reg(op, t[:n])
        o_out = ', "=m"(*(uint64_t(*)[%d])out)' % n
        i_out, clob = ', [out] "r"(out)', ""
    else:
        op("movq %d(%%%%rsp), %%[lo]" % (8 * 3 * n))
        op("addq $%d, %%%%rsp" % frame)
        for j in range(n):
            op("movq %s, %d(%%[lo])" % (t[j], 8 * j))
        o_out, i_out, clob = "", "", ', "memory"'
    # noinline form: no register output is used after the asm, and the
    # stores are known to the compiler only through the memory clobber:
    # volatile keeps it
    vol = "" if inline else " volatile"
    init = "" if inline else "\n    r[%d] = (uint64_t)(uintptr_t)out;" % (pool_size - 1)

    body = "\n".join('        "%s\\n\\t"' % l for l in lines)
    outs = ", ".join('[r%d] "%s"(r[%d])' % (i, "+&r" if (i == pool_size - 1 and not inline) else "=&r", i)
                     for i in range(pool_size))
    ins_p = ", ".join('[p%d] "m"(%s_p[%d])' % (j, name, j) for j in range(n))
    QUAL = "static inline" if inline else NOINLINE
    return f'''
/* out = a^2 / 2^{64*n} mod m, a < m; out may alias a. */
{QUAL} void {name}_sqr(uint64_t out[{n}], const uint64_t a[{n}])
{{
    uint64_t r[{pool_size}], lo, hi, z;{init}
    __asm__{vol}(
{body}
        : {outs}, [lo] "=&r"(lo), [hi] "=&r"(hi), [z] "=&r"(z){o_out}
        : [a] "r"(a), "m"(*(const uint64_t(*)[{n}])a),
          [n0] "m"({name}_n0), {ins_p}{i_out}
        : "rdx", "cc"{clob});
}}
'''


def gen_wide(name, m, n):
    """mul_wide: out (2N words) = a * b, any a, b < 2^(64N); row by row on
    the CF/OF chains, each row's lowest word stored as soon as it is final.
    redc: out = in / 2^(64N) mod m for in < m 2^(64N): N rounds of
    q = t_0 n0, T += q m, T >>= 64 on the low half L give (L + Q m) / 2^(64N)
    <= m; adding the high half H < m gives < 2m; one conditional
    subtraction (subtract, then add m back under a borrow mask) finishes."""
    acc = ["t%d" % i for i in range(n + 1)]
    L = []

    def op(x):
        L.append(x)

    def r(k):
        return "%%[%s]" % acc[k]

    def a(j):
        return "%d(%%[a])" % (8 * j)

    op("movq 0(%[b]), %%rdx")
    op("mulxq %s, %s, %s" % (a(0), r(0), r(1)))
    for j in range(1, n):
        op("mulxq %s, %%[lo], %s" % (a(j), r(j + 1)))
        op("%s %%[lo], %s" % ("addq" if j == 1 else "adcq", r(j)))
    op("adcq $0, %s" % r(n))
    op("movq %s, 0(%%[out])" % r(0))
    acc = acc[1:] + acc[:1]
    for i in range(1, n):
        op("movq %d(%%[b]), %%%%rdx" % (8 * i))
        op("movl $0, %%k%s" % r(n)[1:])
        op("xorl %k[lo], %k[lo]")
        for j in range(n):
            op("mulxq %s, %%[lo], %%[hi]" % a(j))
            op("adcxq %%[lo], %s" % r(j))
            op("adoxq %%[hi], %s" % r(j + 1))
        op("adcq $0, %s" % r(n))
        op("movq %s, %d(%%[out])" % (r(0), 8 * i))
        acc = acc[1:] + acc[:1]
    for j in range(n):
        op("movq %s, %d(%%[out])" % (r(j), 8 * (n + j)))
    wide_body = "\n".join('        "%s\\n\\t"' % l for l in L)
    touts = ", ".join('[t%d] "=&r"(t[%d])' % (i, i) for i in range(n + 1))

    acc = ["t%d" % i for i in range(n + 1)]
    L = []
    for j in range(n):
        op("movq %d(%%[in]), %s" % (8 * j, r(j)))
    op("xorl %%k%s, %%k%s" % (r(n)[1:], r(n)[1:]))
    for rnd in range(n):
        op("movq %s, %%%%rdx" % r(0))
        op("imulq %[n0], %%rdx")
        op("xorl %k[lo], %k[lo]")
        for j in range(n):
            op("mulxq %%[p%d], %%[lo], %%[hi]" % j)
            op("adcxq %%[lo], %s" % r(j))
            op("adoxq %%[hi], %s" % r(j + 1))
        op("adcq $0, %s" % r(n))
        acc = acc[1:] + acc[:1]
    for j in range(n):
        op("%s %d(%%[in]), %s" % ("addq" if j == 0 else "adcq", 8 * (n + j), r(j)))
    for j in range(n):
        op("%s %%[p%d], %s" % ("subq" if j == 0 else "sbbq", j, r(j)))
    op("sbbq %[lo], %[lo]")
    op("testq %[lo], %[lo]")
    for j in range(n):
        op("movl $0, %k[hi]")
        op("cmovnzq %%[p%d], %%[hi]" % j)
        op("adcxq %%[hi], %s" % r(j))
    store_reg(op, [r(j) for j in range(n)])
    redc_body = "\n".join('        "%s\\n\\t"' % l for l in L)
    ins_p = ", ".join('[p%d] "m"(%s_p[%d])' % (j, name, j) for j in range(n))
    return f'''
/* out = a * b as a {128*n}-bit integer ({2*n} words), any a, b < 2^{64*n}. */
{NOINLINE} void {name}_mul_wide(uint64_t out[{2 * n}], const uint64_t a[{n}], const uint64_t b[{n}])
{{
    uint64_t t[{n + 1}], lo, hi;
    __asm__(
{wide_body}
        : {touts}, [lo] "=&r"(lo), [hi] "=&r"(hi), "=m"(*(uint64_t(*)[{2 * n}])out)
        : [a] "r"(a), [b] "r"(b), [out] "r"(out),
          "m"(*(const uint64_t(*)[{n}])a), "m"(*(const uint64_t(*)[{n}])b)
        : "rdx", "cc");
}}

/* out = in / 2^{64*n} mod m, fully reduced, for in < m * 2^{64*n}. */
{NOINLINE} void {name}_redc(uint64_t out[{n}], const uint64_t in[{2 * n}])
{{
    uint64_t t[{n + 1}], lo, hi;
    __asm__(
{redc_body}
        : {touts}, [lo] "=&r"(lo), [hi] "=&r"(hi), "=m"(*(uint64_t(*)[{n}])out)
        : [in] "r"(in), [out] "r"(out), "m"(*(const uint64_t(*)[{2 * n}])in),
          [n0] "m"({name}_n0), {ins_p}
        : "rdx", "cc");
}}
'''


def gen_wsub(name, n):
    """out (2N words) = a - b, plus m * 2^(64N) when that borrows: a
    difference of wide products made nonnegative for redc. The low half
    streams through one register (mov keeps the borrow); the high half is
    fixed with the cmovnz/adcx trick of sub."""
    L = []
    for j in range(n):
        L.append("movq %d(%%[a]), %%[t]" % (8 * j))
        L.append("%s %d(%%[b]), %%[t]" % ("subq" if j == 0 else "sbbq", 8 * j))
        L.append("movq %%[t], %d(%%[out])" % (8 * j))
    for j in range(n):
        L.append("movq %d(%%[a]), %%[s%d]" % (8 * (n + j), j))
        L.append("sbbq %d(%%[b]), %%[s%d]" % (8 * (n + j), j))
    L.append("sbbq %[m], %[m]")
    L.append("testq %[m], %[m]")
    for j in range(n):
        L.append("movl $0, %k[t]")
        L.append("cmovnzq %%[p%d], %%[t]" % j)
        L.append("adcxq %%[t], %%[s%d]" % j)
    for j in range(n):
        L.append("movq %%[s%d], %d(%%[out])" % (j, 8 * (n + j)))
    body = "\n".join('        "%s\\n\\t"' % l for l in L)
    souts = ", ".join('[s%d] "=&r"(s[%d])' % (j, j) for j in range(n))
    ins_p = ", ".join('[p%d] "m"(%s_p[%d])' % (j, name, j) for j in range(n))
    return f'''
/* out = a - b mod m * 2^{64*n} ({2*n} words), a, b < m * 2^{64*n}; out may alias. */
static inline void {name}_wsub(uint64_t out[{2 * n}], const uint64_t a[{2 * n}], const uint64_t b[{2 * n}])
{{
    uint64_t s[{n}], m, t;
    __asm__(
{body}
        : {souts}, [m] "=&r"(m), [t] "=&r"(t), "=m"(*(uint64_t(*)[{2 * n}])out)
        : [a] "r"(a), [b] "r"(b), [out] "r"(out),
          "m"(*(const uint64_t(*)[{2 * n}])a), "m"(*(const uint64_t(*)[{2 * n}])b),
          {ins_p}
        : "cc");
}}
'''


import sys

# BN254 (tools/gen_bn254_constants.py): both primes below 2^254, 4 limbs,
# the same code as BLS12-381's Fr (its chain choices, untuned for these).
P_BN254 = 21888242871839275222246405745257275088696311157297823662689037894645226208583
R_BN254 = 21888242871839275222246405745257275088548364400416034343698204186575808495617
BN254 = len(sys.argv) > 1 and sys.argv[1] == "bn254"
if BN254:
    print('''/* Generated by tools/gen_mont_asm.py bn254; do not edit. */
/*
 * mont_bn254_x86_64.h: mulx/adcx/adox Montgomery products for BN254's Fp and
 * Fr (4 limbs each), included by mont_impl.h (through bn254_fp.c and
 * bn254_fr.c) only when the compiler targets BMI2 and ADX on x86-64 and
 * CZ_NO_ASM is not defined. The same generator and algorithm as
 * mont_x86_64.h (BLS12-381).
 */
#ifndef CZ_MONT_BN254_X86_64_H
#define CZ_MONT_BN254_X86_64_H

#include <stdint.h>

#if defined(__GNUC__) && !defined(__clang__)
#define CZ_NO_SLP __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define CZ_NO_SLP
#endif
''', end="")
    for name, m in (("cz_bn254_fp_asm", P_BN254), ("cz_bn254_fr_asm", R_BN254)):
        print(gen(name, m, 4, mul_lo="c", red_lo="c"), end="")
        print(gen_sqr(name, m, 4, pool_size=7), end="")
        print(gen_addsub(name, 4), end="")
        print(gen_addnr(name, 4), end="")
        print(gen_wide(name, m, 4), end="")
        print(gen_wsub(name, 4), end="")
    print("\n#endif")
    sys.exit(0)

print('''/* Generated by tools/gen_mont_asm.py; do not edit. */
/*
 * mont_x86_64.h: mulx/adcx/adox Montgomery products for Fp (6 limbs) and Fr
 * (4 limbs), included by mont_impl.h only when the compiler targets BMI2 and
 * ADX on x86-64 and CZ_NO_ASM is not defined. Constant time: no branches,
 * the final subtraction selects with cmov. See the generator for the
 * algorithm.
 */
#ifndef CZ_MONT_X86_64_H
#define CZ_MONT_X86_64_H

#include <stdint.h>

/* keep the compiler's stores of a result scalar (see tools/gen_mont_asm.py) */
#if defined(__GNUC__) && !defined(__clang__)
#define CZ_NO_SLP __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define CZ_NO_SLP
#endif
''', end="")
print(gen("cz_fp_asm", P, 6, inline=False, mul_lo="o", red_lo="c"), end="")
print(gen_sqr("cz_fp_asm", P, 6, inline=False), end="")
print(gen_addsub("cz_fp_asm", 6), end="")
print(gen_addnr("cz_fp_asm", 6), end="")
print(gen_wide("cz_fp_asm", P, 6), end="")
print(gen_wsub("cz_fp_asm", 6), end="")
print(gen("cz_fr_asm", R, 4, mul_lo="c", red_lo="c"), end="")
print(gen_sqr("cz_fr_asm", R, 4, pool_size=7), end="")
print(gen_addsub("cz_fr_asm", 4), end="")
print(gen_addnr("cz_fr_asm", 4), end="")
print(gen_wide("cz_fr_asm", R, 4), end="")
print(gen_wsub("cz_fr_asm", 4), end="")
print("\n#endif")
