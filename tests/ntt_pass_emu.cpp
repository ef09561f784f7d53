/*
 * ntt_pass_emu.cpp: a host emulation of the GPU NTT's passes
 * (cuda/ntt_pass.cuh) against the CPU NTT, for every variant of
 * CZD_NTT_VARIANTS. Built and run by tests/test_ntt_pass_emu.sh.
 *
 * DESIGN. ntt_pass.cuh is written once for the device and the host: its
 * czd_pass does one thread's share of a pass. Here each block's threads
 * run one after the other, round by round (every thread's put before any
 * get, as the barrier orders them), over a shared-memory array of the
 * block's size, with a field type that wraps the host's cz_fr. The plans
 * (passes, tables, which pass applies which twist, the natural-order rows,
 * the H step's composition) mirror czd_plan_make, czd_ntt and czd_ntt_h of
 * cuda/ntt.cu and must be kept in step with them. What this checks is the
 * index math of every variant (rounds of 2 or 3 stages, the twist at the
 * load or at the store, the low round's trivial twiddles, the rows store,
 * the extras) bit for bit against cz_ntt_*; what it cannot check is the
 * device itself (carry chains, barriers, the 16-byte accesses' alignment):
 * tests/test_gpu_ntt.c does that on a GPU.
 *
 * Usage: ntt_pass_emu [min_log max_log [block_log [direct_log [kmax
 * [variant]]]]] (defaults 3 12 11 18 10, every variant); exit 0 when every
 * transform matched.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
extern "C" {
#include "cuzk/fr.h"
#include "poly/ntt.h"
#include "util/threadpool.h"
}

/* the field as ntt_pass.cuh wants it: 8 little-endian 32-bit limbs in v[] */
struct hfr {
    uint32_t v[8];
    static hfr of(const cz_fr &a)
    {
        hfr r;
        memcpy(r.v, &a, 32);
        return r;
    }
    cz_fr fr() const
    {
        cz_fr a;
        memcpy(&a, v, 32);
        return a;
    }
    hfr operator+(const hfr &b) const
    {
        cz_fr x = fr(), y = b.fr(), z;
        cz_fr_add(&z, &x, &y);
        return of(z);
    }
    hfr operator-(const hfr &b) const
    {
        cz_fr x = fr(), y = b.fr(), z;
        cz_fr_sub(&z, &x, &y);
        return of(z);
    }
    hfr operator*(const hfr &b) const
    {
        cz_fr x = fr(), y = b.fr(), z;
        cz_fr_mul(&z, &x, &y);
        return of(z);
    }
};
#include "ntt_pass.cuh"

static unsigned g_bl = CZD_NTT_BLOCK_LOG; /* block size, as CUZK_NTT_BLOCK_LOG */
static unsigned g_ebl;                    /* that, capped by the variant's BL */
static unsigned g_direct = 18;            /* CZD_NTT_DIRECT_LOG */
static unsigned g_kmax = 10;              /* CZD_NTT_PASS_KMAX */

static hfr powu(const hfr &b, uint64_t e)
{
    cz_fr x = b.fr(), r;
    cz_fr_pow(&r, &x, &e, 1);
    return hfr::of(r);
}

struct ptab {
    std::vector<hfr> lo, hi;
    czd_powt<hfr> t;
};
/* czd_powt_make */
static void powt_make(ptab &p, const hfr &b, unsigned log_n, const hfr *c)
{
    unsigned h = (log_n + 1) / 2;
    size_t nlo = (size_t)1 << h, nhi = ((size_t)1 << (log_n - h)) + 1;
    p.lo.resize(nlo);
    p.hi.resize(nhi);
    for (size_t i = 0; i < nlo; i++)
        p.lo[i] = powu(b, i);
    hfr bh = powu(b, (uint64_t)1 << h);
    for (size_t i = 0; i < nhi; i++) {
        p.hi[i] = powu(bh, i);
        if (c)
            p.hi[i] = p.hi[i] * *c;
    }
    p.t.lo = p.lo.data();
    p.t.hi = p.hi.data();
    p.t.h = h;
}

/* czd_ntt_plan, czd_plan_make (with g_kmax, g_direct for CZD_NTT_PASS_KMAX
   and CZD_NTT_DIRECT_LOG: smaller values give small sizes the plans of
   large ones, three or four passes and twists from the lo/hi tables) */
struct plan {
    unsigned log_n, npass, k[4], s0[4], lc[4];
    ptab wt;
    std::vector<hfr> roots[4], twd[4];
    int tw[4];
};
static void plan_make(plan &pl, const hfr &w, unsigned log_n, unsigned extra)
{
    unsigned root_log = log_n + extra;
    pl.log_n = log_n;
    pl.npass = (log_n + g_kmax - 1) / g_kmax;
    powt_make(pl.wt, w, root_log, nullptr);
    unsigned s0 = 0;
    for (unsigned p = 0; p < pl.npass; p++) {
        unsigned k = log_n / pl.npass + (p < log_n % pl.npass ? 1 : 0);
        unsigned L = log_n - s0 - k, lc = g_ebl > k ? g_ebl - k : 0;
        if (lc > L)
            lc = L;
        pl.k[p] = k;
        pl.s0[p] = s0;
        pl.lc[p] = lc;
        size_t nr = (size_t)1 << (k - 1);
        pl.roots[p].resize(nr);
        for (size_t e = 0; e < nr; e++)
            pl.roots[p][e] = pl.wt.t.at((uint64_t)e << (root_log - k));
        if (L == 0) {
            pl.tw[p] = CZD_TW_NONE;
        } else if (root_log - s0 <= g_direct) {
            size_t nt = (size_t)1 << (root_log - s0);
            pl.twd[p].resize(nt);
            for (size_t e = 0; e < nt; e++)
                pl.twd[p][e] = pl.wt.t.at((uint64_t)e << s0);
            pl.tw[p] = CZD_TW_DIRECT;
        } else {
            pl.tw[p] = CZD_TW_POW;
        }
        s0 += k;
    }
}
/* czd_pass_base */
static czd_pass_args<hfr> base_args(plan &pl, unsigned p, const hfr *src, hfr *dst, bool dit, bool ts)
{
    czd_pass_args<hfr> a;
    memset(&a, 0, sizeof a);
    a.src = src;
    a.dst = dst;
    a.log_n = pl.log_n;
    a.s0 = pl.s0[p];
    a.k = pl.k[p];
    a.lc = pl.lc[p];
    a.roots = pl.roots[p].data();
    a.twp = pl.wt.t;
    unsigned tp = dit || ts ? p : p - 1;
    if (dit || ts || p > 0) {
        a.tw = pl.tw[tp];
        a.twd = pl.twd[tp].data();
        a.tw_s0 = pl.s0[tp];
        a.tw_k = pl.k[tp];
        a.tw_L = pl.log_n - pl.s0[tp] - pl.k[tp];
    }
    return a;
}

/* k_ntt_pass over every block, threads in turn */
template <bool DIT, int RLOW, bool X, class V>
static void run1(const czd_pass_args<hfr> &a)
{
    unsigned E = 1u << (a.k + a.lc), T = E >> V::R;
    size_t blocks = ((size_t)1 << a.log_n) >> (a.k + a.lc);
    std::vector<uint4> sh(2 * E);
    for (size_t b = 0; b < blocks; b++) {
        std::vector<czd_pass<hfr, DIT, RLOW, X, V>> th;
        for (unsigned t = 0; t < T; t++)
            th.emplace_back(a, b, t);
        for (auto &t : th) {
            t.load();
            t.compute(0);
        }
        for (unsigned ri = 1; ri <= th[0].nu; ri++) {
            for (auto &t : th)
                t.put(sh.data(), ri - 1);
            for (auto &t : th) {
                t.get(sh.data(), ri);
                t.compute(ri);
            }
        }
        if (X && a.rows) {
            for (auto &t : th)
                t.put(sh.data(), t.nu);
            for (unsigned t = 0; t < T; t++)
                th[t].store_rows(sh.data(), t, T);
        } else {
            for (auto &t : th)
                t.store();
        }
    }
}
/* k_ntt_mid over every block */
template <int RLOW, bool X, class V>
static void mid1(const czd_pass_args<hfr> &a, const czd_pass_args<hfr> &b)
{
    unsigned E = 1u << (a.k + a.lc), T = E >> V::R;
    size_t blocks = ((size_t)1 << a.log_n) >> (a.k + a.lc);
    std::vector<uint4> sh(2 * E);
    for (size_t bi = 0; bi < blocks; bi++) {
        std::vector<czd_pass<hfr, false, RLOW, false, V>> fs;
        std::vector<czd_pass<hfr, true, RLOW, X, V>> ts;
        for (unsigned t = 0; t < T; t++) {
            fs.emplace_back(a, bi, t);
            ts.emplace_back(b, bi, t);
        }
        for (auto &f : fs) {
            f.load();
            f.compute(0);
        }
        for (unsigned ri = 1; ri <= fs[0].nu; ri++) {
            for (auto &f : fs)
                f.put(sh.data(), ri - 1);
            for (auto &f : fs) {
                f.get(sh.data(), ri);
                f.compute(ri);
            }
        }
        for (unsigned t = 0; t < T; t++) {
            fs[t].mid(ts[t].v, b);
            ts[t].compute(0);
        }
        for (unsigned ri = 1; ri <= ts[0].nu; ri++) {
            for (auto &t : ts)
                t.put(sh.data(), ri - 1);
            for (auto &t : ts) {
                t.get(sh.data(), ri);
                t.compute(ri);
            }
        }
        for (auto &t : ts)
            t.store();
    }
}
/* czd_mid_launch_v */
template <class V>
static void run_mid(const czd_pass_args<hfr> &a, const czd_pass_args<hfr> &b)
{
    if (a.k != b.k || a.lc != b.lc || a.s0 + a.k != a.log_n || b.s0 + b.k != b.log_n) {
        printf("FAIL: middle pass of different shapes\n");
        exit(1);
    }
    const unsigned rl = czd_rlow(a.k, V::R, czd_ntt_low_full());
    if (V::R >= 3 && rl == 3)
        return b.pa ? mid1<(V::R >= 3 ? 3 : 1), true, V>(a, b) : mid1<(V::R >= 3 ? 3 : 1), false, V>(a, b);
    if (rl == 2)
        return b.pa ? mid1<2, true, V>(a, b) : mid1<2, false, V>(a, b);
    return b.pa ? mid1<1, true, V>(a, b) : mid1<1, false, V>(a, b);
}

/* czd_pass_launch_rl, czd_pass_launch_v */
template <bool DIT, bool X, class V>
static void run_rl(const czd_pass_args<hfr> &a)
{
    const unsigned rl = czd_rlow(a.k, V::R, czd_ntt_low_full());
    if (V::R >= 3 && rl == 3)
        return run1<DIT, (V::R >= 3 ? 3 : 1), X, V>(a);
    if (rl == 2)
        return run1<DIT, 2, X, V>(a);
    return run1<DIT, 1, X, V>(a);
}
template <class V>
static void run(bool dit, const czd_pass_args<hfr> &a)
{
    const bool x = a.pre || a.post || a.pa || a.rows || a.pre_x;
    if (dit)
        return x ? run_rl<true, true, V>(a) : run_rl<true, false, V>(a);
    return x ? run_rl<false, true, V>(a) : run_rl<false, false, V>(a);
}

/* czd_ntt for log_n >= 3 */
template <class V>
static void emu_ntt(hfr *a, unsigned log_n, hfr w, const hfr *g, int bitrev_out, const hfr *c, const hfr *h)
{
    size_t n = (size_t)1 << log_n;
    plan pl;
    plan_make(pl, w, log_n, 0);
    ptab pre, post;
    int postf = 0;
    if (g)
        powt_make(pre, *g, log_n, nullptr);
    if (!bitrev_out) {
        postf = CZD_POST_NATURAL;
        if (h) {
            powt_make(post, *h, log_n, c);
            postf |= CZD_POST_POW;
        } else if (c) {
            postf |= CZD_POST_C;
        }
    }
    std::vector<hfr> tmpv;
    hfr *tmp = a;
    if (!bitrev_out && pl.npass > 1) {
        tmpv.resize(n);
        tmp = tmpv.data();
    }
    for (unsigned p = 0; p < pl.npass; p++) {
        bool last = p + 1 == pl.npass;
        auto pa = base_args(pl, p, p == 0 ? a : tmp, last ? a : tmp, false, V::TS);
        if (p == 0 && g) {
            pa.pre = 1;
            pa.pre_t = pre.t;
        }
        if (last) {
            pa.post = postf;
            if (c)
                pa.post_c = *c;
            pa.post_t = post.t;
            if (postf & CZD_POST_NATURAL) {
                unsigned m = log_n - pa.k;
                if (m > 3)
                    m = 3;
                if (pa.k + m > g_ebl)
                    m = g_ebl > pa.k ? g_ebl - pa.k : 0;
                pa.rows = 1;
                pa.lc = m;
            }
        }
        run<V>(false, pa);
    }
}

/* czd_ntt_h for log_n >= 3; half: g = w_2n (folded into the twists);
   fuse: the inverse's last pass and the forward's first in k_ntt_mid */
template <class V>
static void emu_h(hfr *v[3], unsigned log_n, hfr w, hfr wi, hfr ni, hfr g, bool half, bool fuse)
{
    plan inv, fwd;
    ptab sc;
    std::vector<hfr> prex;
    plan_make(inv, wi, log_n, 0);
    if (half) {
        plan_make(fwd, g, log_n, 1);
        unsigned kl = fwd.k[fwd.npass - 1];
        prex.resize((size_t)1 << kl);
        for (unsigned x = 0; x < (1u << kl); x++)
            prex[x] = ni * fwd.wt.t.at((uint64_t)czd_bitrev(x, kl) << fwd.s0[fwd.npass - 1]);
    } else {
        plan_make(fwd, w, log_n, 0);
        powt_make(sc, g, log_n, &ni);
    }
    for (int i = 0; i < 3; i++) {
        czd_pass_args<hfr> last;
        for (unsigned p = 0; p < inv.npass; p++) {
            auto pa = base_args(inv, p, v[i], v[i], false, V::TS);
            if (p + 1 == inv.npass && !half) {
                pa.post = CZD_POST_POW;
                pa.post_t = sc.t;
            }
            if (fuse && p + 1 == inv.npass) {
                last = pa;
                break;
            }
            run<V>(false, pa);
        }
        for (unsigned q = fwd.npass; q-- > 0;) {
            bool prod = i == 2 && q == 0;
            auto pa = base_args(fwd, q, v[i], prod ? v[0] : v[i], true, V::TS);
            if (prod) {
                pa.pa = v[0];
                pa.pb = v[1];
            }
            if (half) {
                pa.coset = 1;
                if (q + 1 == fwd.npass)
                    pa.pre_x = prex.data();
            }
            if (fuse && q + 1 == fwd.npass) {
                run_mid<V>(last, pa);
                continue;
            }
            run<V>(true, pa);
        }
    }
}

static uint64_t g_rs = 88172645463325252ull;
static uint64_t rnd(void)
{
    g_rs ^= g_rs << 13;
    g_rs ^= g_rs >> 7;
    g_rs ^= g_rs << 17;
    return g_rs;
}
/* random elements below 2^252 < r */
static void rvec(std::vector<cz_fr> &a)
{
    for (auto &x : a) {
        for (int k = 0; k < 4; k++)
            x.l[k] = rnd();
        x.l[3] &= 0x0fffffffffffffffull;
    }
}
static int cmp(const std::vector<hfr> &g, const std::vector<cz_fr> &c, const char *vname, const char *what,
               unsigned lg)
{
    for (size_t i = 0; i < c.size(); i++) {
        cz_fr x = g[i].fr();
        if (!cz_fr_eq(&c[i], &x)) {
            printf("FAIL variant %s: %s 2^%u (block 2^%u) differs at %zu\n", vname, what, lg, g_ebl, i);
            return 1;
        }
    }
    return 0;
}

/* every kind of transform and the H step (both forms) at 2^lg */
template <class V>
static int check_size(const char *vname, unsigned lg, cz_threadpool *pool)
{
    size_t n = (size_t)1 << lg;
    g_ebl = g_bl < (unsigned)V::BL ? g_bl : (unsigned)V::BL;
    cz_ntt_domain *d;
    if (cz_ntt_domain_create(&d, lg, (lg & 1) ? CZ_NTT_ROOT_7 : CZ_NTT_ROOT_5) != CZ_OK) {
        printf("FAIL: no domain 2^%u\n", lg);
        return 1;
    }
    cz_fr shift, shinv;
    cz_fr_set_u64(&shift, 7);
    cz_fr_inv(&shinv, &shift);
    const hfr w = hfr::of(d->omega), wi = hfr::of(d->omega_inv), ni = hfr::of(d->n_inv);
    const hfr s = hfr::of(shift), si = hfr::of(shinv);
    std::vector<cz_fr> a(n), c(n);
    std::vector<hfr> g(n);
    int bad = 0;
    static const char *nm[] = {"forward", "inverse", "coset forward", "coset inverse", "forward bit-reversed"};
    for (int kind = 0; kind < 5; kind++) {
        rvec(a);
        c = a;
        for (size_t i = 0; i < n; i++)
            g[i] = hfr::of(a[i]);
        switch (kind) {
        case 0:
            cz_ntt_forward(d, c.data(), pool);
            emu_ntt<V>(g.data(), lg, w, nullptr, 0, nullptr, nullptr);
            break;
        case 1:
            cz_ntt_inverse(d, c.data(), pool);
            emu_ntt<V>(g.data(), lg, wi, nullptr, 0, &ni, nullptr);
            break;
        case 2:
            cz_ntt_coset_forward(d, c.data(), &shift, pool);
            emu_ntt<V>(g.data(), lg, w, &s, 0, nullptr, nullptr);
            break;
        case 3:
            cz_ntt_coset_inverse(d, c.data(), &shift, pool);
            emu_ntt<V>(g.data(), lg, wi, nullptr, 0, &ni, &si);
            break;
        default: {
            cz_ntt_forward(d, c.data(), pool);
            emu_ntt<V>(g.data(), lg, w, nullptr, 1, nullptr, nullptr);
            std::vector<hfr> t(n);
            for (size_t i = 0; i < n; i++)
                t[czd_bitrev((uint32_t)i, lg)] = g[i];
            g = t;
            break;
        }
        }
        bad |= cmp(g, c, vname, nm[kind], lg);
    }
    for (int hf = 0; hf < 4; hf++) {
        /* half: snarkjs's odd points (g = w_2n); else the coset 7; fuse:
           the middle passes as one kernel */
        const int half = hf & 1, fuse = hf >> 1;
        std::vector<cz_fr> A(n), B(n), C(n);
        rvec(A);
        rvec(B);
        rvec(C);
        std::vector<hfr> gA(n), gB(n), gC(n);
        for (size_t i = 0; i < n; i++) {
            gA[i] = hfr::of(A[i]);
            gB[i] = hfr::of(B[i]);
            gC[i] = hfr::of(C[i]);
        }
        cz_fr *cv[3] = {A.data(), B.data(), C.data()};
        for (int i = 0; i < 3; i++) {
            if (half) {
                cz_ntt_snarkjs_odd_points(d, cv[i], pool);
            } else {
                cz_ntt_inverse(d, cv[i], pool);
                cz_fr_scale_powers(cv[i], n, NULL, &shift, pool);
                cz_ntt_forward(d, cv[i], pool);
            }
        }
        for (size_t i = 0; i < n; i++) {
            cz_fr t;
            cz_fr_mul(&t, &A[i], &B[i]);
            cz_fr_sub(&A[i], &t, &C[i]);
        }
        hfr *v[3] = {gA.data(), gB.data(), gC.data()};
        emu_h<V>(v, lg, w, wi, ni, half ? hfr::of(d->omega_2n) : s, half, fuse);
        static const char *hn[] = {"H step (coset 7)", "H step (odd points)", "H step (coset 7, fused)",
                                   "H step (odd points, fused)"};
        bad |= cmp(gA, A, vname, hn[hf], lg);
    }
    cz_ntt_domain_destroy(d);
    return bad;
}

typedef int (*check_fn)(const char *, unsigned, cz_threadpool *);
struct variant {
    const char *name;
    check_fn check;
};
#define EMU_ROW(i, name, r, vec, ts, minb, bl) {name, check_size<czd_nv_at<i>::type>},
static const variant g_variants[CZD_NTT_NVARIANTS] = {CZD_NTT_VARIANTS(EMU_ROW)};

int main(int argc, char **argv)
{
    unsigned lo = argc > 1 ? (unsigned)atoi(argv[1]) : 3, hi = argc > 2 ? (unsigned)atoi(argv[2]) : 12;
    if (argc > 3)
        g_bl = (unsigned)atoi(argv[3]);
    if (argc > 4)
        g_direct = (unsigned)atoi(argv[4]);
    if (argc > 5)
        g_kmax = (unsigned)atoi(argv[5]);
    const char *only = argc > 6 ? argv[6] : nullptr;
    if (lo < 3 || hi > 20 || lo > hi || g_bl < 9 || g_bl > CZD_NTT_BLOCK_LOG || g_direct > 30 || g_kmax < 3 ||
        g_kmax > 10 || (hi + g_kmax - 1) / g_kmax > 4) {
        fprintf(stderr,
                "usage: %s [min_log >= 3 [max_log <= 20 [block_log 9..%d [direct_log [kmax 3..10 (at most 4 "
                "passes) [variant]]]]]]\n",
                argv[0], CZD_NTT_BLOCK_LOG);
        return 2;
    }
    cz_threadpool *pool = cz_threadpool_global();
    int bad = 0, ran = 0;
    for (int vi = 0; vi < CZD_NTT_NVARIANTS; vi++) {
        if (only && strcmp(only, g_variants[vi].name) != 0)
            continue;
        ran++;
        for (unsigned lg = lo; lg <= hi; lg++) {
            int b = g_variants[vi].check(g_variants[vi].name, lg, pool);
            printf("variant %s block 2^%u direct 2^%u kmax %u 2^%u: %s\n", g_variants[vi].name, g_ebl,
                   g_direct, g_kmax, lg, b ? "FAIL" : "ok");
            fflush(stdout);
            bad |= b;
        }
    }
    if (!ran) {
        printf("FAIL: no variant named %s\n", only);
        return 1;
    }
    return bad;
}
