#!/usr/bin/env python3
"""Generate src/field/mont_x86_64.h: Montgomery products for BLS12-381's Fp
(6 limbs) and Fr (4 limbs) in x86-64 inline assembly with BMI2 mulx and ADX
adcx/adox.

Algorithm (CIOS with the next row hoisted above each reduction), N limbs,
accumulator T of N+2 words held in registers:
  T = a * b_0                                  (mulx + adc chain)
  for i = 0 .. N-1:
    q = T_0 * n0 mod 2^64                      (imul; its latency is hidden by
                                                the row below, which does not
                                                touch T_0)
    if i + 1 < N: T += a * b_(i+1) * 2^64      (mulx; lo words on the CF chain
                                                with adcx, hi words on the OF
                                                chain with adox)
    T += q * m; T >>= 64                       (same two chains; T_0 becomes 0
                                                and its register, zeroed, is
                                                renamed to the new top word)
  out = T - m if T >= m else T                 (sub/sbb, then cmov: constant time)
Bounds (m < 2^(64N-1), a, b < m): after each step T < 2m + m*2^64 fits N+1
words and the sum before the shift fits N+2, so no carry is lost; at the end
T < 2m. Per product: 2N^2 mulx, about 4N^2 adcx/adox, N imul.
Run: python3 tools/gen_mont_asm.py > src/field/mont_x86_64.h
"""

P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001


# The 6-limb product and square need 13 and 14 registers: inlined into a
# register-hungry caller (curve formulas under LTO, a frame pointer, ASan)
# GCC may find no allocation, so they stay functions of their own; the
# 4-limb ones and add/sub (at most 12 registers) inline.
NOINLINE = "static __attribute__((noinline)) __attribute__((unused))"


def limbs(v, n):
    return [(v >> (64 * i)) & (2**64 - 1) for i in range(n)]


def gen(name, m, n, inline=True):
    n0 = (-pow(m, -1, 2**64)) % 2**64
    assert m < 2 ** (64 * n - 1)
    acc = ["t%d" % i for i in range(n + 2)]  # T: words 0 .. n+1
    lines = []

    def op(s):
        lines.append(s)

    def a(j):
        return "%d(%%[a])" % (8 * j)

    def r(k):
        return "%%[%s]" % acc[k]

    # row 0: T = a * b_0 (words 0 .. n), a mulx + adc chain
    op("movq 0(%[b]), %%rdx")
    op("mulxq %s, %s, %s" % (a(0), r(0), r(1)))
    for j in range(1, n):
        op("mulxq %s, %%[lo], %s" % (a(j), r(j + 1)))
        op("%s %%[lo], %s" % ("addq" if j == 1 else "adcq", r(j)))
    op("adcq $0, %s" % r(n))
    op("xorl %%k%s, %%k%s" % (r(n + 1)[1:], r(n + 1)[1:]))  # word n+1 = 0
    for i in range(n):
        # q = T_0 * n0, computed in T_0's register; T_0 itself goes to the
        # spill slot (its sum with lo(q * m_0) is 0 and only the carry counts)
        op("movq %s, %%[spill]" % r(0))
        op("imulq %%[n0], %s" % r(0))
        if i + 1 < n:
            # T += a * b_(i+1) * 2^64 (words 1 .. n+1): lo words on the CF
            # chain, hi words on the OF chain; the imul above runs meanwhile
            op("movq %d(%%[b]), %%%%rdx" % (8 * (i + 1)))
            op("xorl %k[lo], %k[lo]")
            for j in range(n):
                op("mulxq %s, %%[lo], %%[hi]" % a(j))
                op("adcxq %%[lo], %s" % r(j + 1))
                op("adoxq %%[hi], %s" % r(j + 2))
            op("adcq $0, %s" % r(n + 1))
        # T += q * m (words 0 .. n+1)
        op("movq %s, %%%%rdx" % r(0))
        op("xorl %k[lo], %k[lo]")
        op("movl $0, %%k%s" % r(0)[1:])  # T_0's register: zero (flags kept)
        for j in range(n):
            op("mulxq %%[p%d], %%[lo], %%[hi]" % j)
            if j == 0:
                op("adcxq %[spill], %[lo]")
            else:
                op("adcxq %%[lo], %s" % r(j))
            op("adoxq %%[hi], %s" % r(j + 1))
        op("adcxq %s, %s" % (r(0), r(n)))
        op("adoxq %s, %s" % (r(0), r(n + 1)))
        op("adcxq %s, %s" % (r(0), r(n + 1)))
        acc = acc[1:] + acc[:1]  # T >>= 64: the zeroed register is the new top
    # T < 2m now lies in acc[0 .. n-1]; acc[n], acc[n+1] are zero. d = T - m
    # goes to spare registers (the spill slot keeps one word of T when five
    # spares are too few), then cmov keeps T on borrow.
    spare = ["%[lo]", "%[hi]", "%%rdx", r(n), r(n + 1)]
    dst = []
    for j in range(n):
        if j < len(spare):
            op("movq %s, %s" % (r(j), spare[j]))
            dst.append(spare[j])
        else:
            op("movq %s, %%[spill]" % r(j))
            dst.append(None)
    for j in range(n):
        d = dst[j] if dst[j] else r(j)
        op("%s %%[p%d], %s" % ("subq" if j == 0 else "sbbq", j, d))
    for j in range(n):
        if dst[j]:
            op("cmovncq %s, %s" % (dst[j], r(j)))
        else:
            op("cmovcq %%[spill], %s" % r(j))

    body = "\n".join('        "%s\\n\\t"' % l for l in lines)
    outs = ", ".join('[t%d] "=&r"(t[%d])' % (i, i) for i in range(n + 2))
    ins_p = ", ".join('[p%d] "m"(%s_p[%d])' % (j, name, j) for j in range(n))
    plist = ", ".join("0x%016xULL" % x for x in limbs(m, n))
    stores = "\n".join("    out[%d] = t[%s];" % (j, acc[j][1:]) for j in range(n))
    QUAL = "static inline" if inline else NOINLINE
    return f'''
static const uint64_t {name}_p[{n}] = {{ {plist} }};
static const uint64_t {name}_n0 = 0x{n0:016x}ULL;

/* out = a * b / 2^{64*n} mod m, inputs < m; out may alias a or b. */
{QUAL} void {name}_mul(uint64_t out[{n}], const uint64_t a[{n}], const uint64_t b[{n}])
{{
    uint64_t t[{n + 2}], lo, hi, spill;
    __asm__(
{body}
        : {outs}, [lo] "=&r"(lo), [hi] "=&r"(hi),
          [spill] "=&m"(spill)
        : [a] "r"(a), [b] "r"(b), "m"(*(const uint64_t(*)[{n}])a), "m"(*(const uint64_t(*)[{n}])b),
          [n0] "m"({name}_n0), {ins_p}
        : "rdx", "cc");
{stores}
}}
'''


def gen_addsub(name, n):
    """add: s = a + b (no carry out: m < 2^(64N-1)); s -= m; on borrow add
    m back as below (few registers, so it fits under a frame pointer).
    sub: d = a - b; z = borrow ? m : 0 built limb by limb with cmovnz (no
    flags touched) and added with adcx, which leaves ZF alone. The compiler
    stores the result words, so the asm needs no output pointer."""
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

    def body(lines):
        return "\n".join('        "%s\\n\\t"' % l for l in lines)

    souts = ", ".join('[s%d] "=&r"(s[%d])' % (j, j) for j in range(n))
    ins_p = ", ".join('[p%d] "m"(%s_p[%d])' % (j, name, j) for j in range(n))
    mem = f'[a] "r"(a), [b] "r"(b), "m"(*(const uint64_t(*)[{n}])a), "m"(*(const uint64_t(*)[{n}])b)'
    stores = "\n".join("    out[%d] = s[%d];" % (j, j) for j in range(n))
    return f'''
/* out = a + b mod m, inputs < m; out may alias a or b. */
static inline void {name}_add(uint64_t out[{n}], const uint64_t a[{n}], const uint64_t b[{n}])
{{
    uint64_t s[{n}], m, t;
    __asm__(
{body(add)}
        : {souts}, [m] "=&r"(m), [t] "=&r"(t)
        : {mem},
          {ins_p}
        : "cc");
{stores}
}}

/* out = a - b mod m, inputs < m; out may alias a or b. */
static inline void {name}_sub(uint64_t out[{n}], const uint64_t a[{n}], const uint64_t b[{n}])
{{
    uint64_t s[{n}], m, t;
    __asm__(
{body(sub)}
        : {souts}, [m] "=&r"(m), [t] "=&r"(t)
        : {mem},
          {ins_p}
        : "cc");
{stores}
}}
'''


def gen_sqr(name, m, n, pool_size=9, inline=True):
    """Montgomery square, out = a^2 / 2^(64N) mod m, in three phases (the
    stack words it spills lie below the red zone: the asm moves rsp down
    128 + 24N bytes and back, and names no rsp-relative operand):
    A: the off-diagonal sum  sum_{i<j} a_i a_j 2^(64(i+j))  (N(N-1)/2 mulx),
       row by row on the CF/OF chains; words that are final are spilled to
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

    # scratch below the red zone: words k of A at 8k(%rsp), H after them
    frame = 128 + ((8 * 3 * n + 15) // 16) * 16
    op("subq $%d, %%%%rsp" % frame)
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
                op("adcxq %%[lo], %s" % loc[k])
                op("adoxq %%[hi], %s" % loc[k + 1])
            else:
                loc[k + 1] = alloc()
                op("mulxq %s, %%[lo], %s" % (a(j), loc[k + 1]))
                op("adcxq %%[lo], %s" % loc[k])
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
    op("addq $%d, %%%%rsp" % frame)

    body = "\n".join('        "%s\\n\\t"' % l for l in lines)
    outs = ", ".join('[r%d] "=&r"(r[%d])' % (i, i) for i in range(pool_size))
    ins_p = ", ".join('[p%d] "m"(%s_p[%d])' % (j, name, j) for j in range(n))
    idx = {pool[i]: i for i in range(pool_size)}
    stores = "\n".join("    out[%d] = r[%d];" % (j, idx[t[j]]) for j in range(n))
    QUAL = "static inline" if inline else NOINLINE
    return f'''
/* out = a^2 / 2^{64*n} mod m, a < m; out may alias a. */
{QUAL} void {name}_sqr(uint64_t out[{n}], const uint64_t a[{n}])
{{
    uint64_t r[{pool_size}], lo, hi, z;
    __asm__(
{body}
        : {outs}, [lo] "=&r"(lo), [hi] "=&r"(hi), [z] "=&r"(z)
        : [a] "r"(a), "m"(*(const uint64_t(*)[{n}])a),
          [n0] "m"({name}_n0), {ins_p}
        : "rdx", "cc");
{stores}
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
    redc_body = "\n".join('        "%s\\n\\t"' % l for l in L)
    ins_p = ", ".join('[p%d] "m"(%s_p[%d])' % (j, name, j) for j in range(n))
    stores = "\n".join("    out[%d] = t[%s];" % (j, acc[j][1:]) for j in range(n))
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
        : {touts}, [lo] "=&r"(lo), [hi] "=&r"(hi)
        : [in] "r"(in), "m"(*(const uint64_t(*)[{2 * n}])in),
          [n0] "m"({name}_n0), {ins_p}
        : "rdx", "cc");
{stores}
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
''', end="")
print(gen("cz_fp_asm", P, 6, inline=False), end="")
print(gen_sqr("cz_fp_asm", P, 6, inline=False), end="")
print(gen_addsub("cz_fp_asm", 6), end="")
print(gen_wide("cz_fp_asm", P, 6), end="")
print(gen_wsub("cz_fp_asm", 6), end="")
print(gen("cz_fr_asm", R, 4), end="")
print(gen_sqr("cz_fr_asm", R, 4, pool_size=7), end="")
print(gen_addsub("cz_fr_asm", 4), end="")
print(gen_wide("cz_fr_asm", R, 4), end="")
print(gen_wsub("cz_fr_asm", 4), end="")
print("\n#endif")
