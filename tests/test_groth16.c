/* ctest: labels=unit timeout=300 */
/*
 * test_groth16.c: the Groth16 prover, verifier and development setup.
 *
 * A small R1CS is built in the test (no circom or snarkjs needed): a public
 * output out = x^3 + x + 5, a public input y, and a chain of booleans and
 * products so the witness is mostly 0/1 like a circom hash circuit's. It
 * goes through cuzk's setup (seeded), the prover and the verifier; then
 * tampered proofs, public inputs and witnesses must be rejected. The
 * committed snarkjs fixtures check interop both ways without node: cuzk's
 * proof for the snarkjs key verifies under snarkjs's verification key, and
 * snarkjs's own proof verifies under cuzk's verifier. pi_a is also checked
 * against a naive double-and-add sum (independent of the MSM and pairing).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

#include "cuzk/prover.h"
#include "groth16/groth16.h"
#include "io/binfile.h"
#include "io/json.h"

/* ---- a circuit builder ---- */

typedef struct {
    cz_r1cs cs;
    uint64_t cap_terms, cap_c;
    cz_fr *w;
    uint32_t cap_w;
} builder;

static uint32_t wire(builder *b, const cz_fr *v)
{
    if (b->cs.n_wires == b->cap_w) {
        b->cap_w = b->cap_w ? 2 * b->cap_w : 64;
        b->w = realloc(b->w, b->cap_w * sizeof *b->w);
    }
    b->w[b->cs.n_wires] = *v;
    return b->cs.n_wires++;
}

typedef struct {
    uint32_t wire;
    int64_t coef;
} lin;

static void terms(builder *b, const lin *l, int n)
{
    for (int i = 0; i < n; i++) {
        if (b->cs.n_terms == b->cap_terms) {
            b->cap_terms = b->cap_terms ? 2 * b->cap_terms : 256;
            b->cs.terms = realloc(b->cs.terms, b->cap_terms * sizeof *b->cs.terms);
        }
        cz_r1cs_term *t = &b->cs.terms[b->cs.n_terms++];
        t->wire = l[i].wire;
        cz_fr_set_u64(&t->coef, (uint64_t)(l[i].coef < 0 ? -l[i].coef : l[i].coef));
        if (l[i].coef < 0)
            cz_fr_neg(&t->coef, &t->coef);
    }
}

/* (A)(B) = (C) */
static void constraint(builder *b, const lin *a, int na, const lin *bb, int nb, const lin *c, int nc)
{
    if (3 * (uint64_t)b->cs.n_constraints + 4 > b->cap_c) {
        b->cap_c = b->cap_c ? 2 * b->cap_c : 256;
        b->cs.start = realloc(b->cs.start, b->cap_c * sizeof *b->cs.start);
    }
    uint64_t *s = b->cs.start + 3 * (uint64_t)b->cs.n_constraints;
    s[0] = b->cs.n_terms;
    terms(b, a, na);
    s[1] = b->cs.n_terms;
    terms(b, bb, nb);
    s[2] = b->cs.n_terms;
    terms(b, c, nc);
    s[3] = b->cs.n_terms;
    b->cs.n_constraints++;
}

/* The test circuit with k chain steps. Wires: 0 one, 1 out, 2 y (public),
   3 x (private input), then internal. */
static void build(builder *b, int k, cz_rng *rng)
{
    memset(b, 0, sizeof *b);
    cz_fr one, x, y, s, cube, out, t;
    cz_fr_one(&one);
    cz_fr_random(&x, rng);
    cz_fr_random(&y, rng);
    cz_fr_mul(&s, &x, &x);
    cz_fr_mul(&cube, &s, &x);
    cz_fr_set_u64(&t, 5);
    cz_fr_add(&out, &cube, &x);
    cz_fr_add(&out, &out, &t);
    wire(b, &one);
    uint32_t w_out = wire(b, &out), w_y = wire(b, &y), w_x = wire(b, &x);
    b->cs.n_pub_out = 1;
    b->cs.n_pub_in = 1;
    b->cs.n_prv_in = 1;
    uint32_t w_s = wire(b, &s), w_c = wire(b, &cube);
    constraint(b, (lin[]){{w_x, 1}}, 1, (lin[]){{w_x, 1}}, 1, (lin[]){{w_s, 1}}, 1);
    constraint(b, (lin[]){{w_s, 1}}, 1, (lin[]){{w_x, 1}}, 1, (lin[]){{w_c, 1}}, 1);
    constraint(b, (lin[]){{w_c, 1}, {w_x, 1}, {0, 5}}, 3, (lin[]){{0, 1}}, 1, (lin[]){{w_out, 1}}, 1);
    /* chain: bit_i (0/1), acc_{i+1} = acc_i * (y + bit_i) */
    uint32_t acc = w_y;
    cz_fr accv = y;
    for (int i = 0; i < k; i++) {
        cz_fr bit;
        cz_fr_set_u64(&bit, cz_rng_u64(rng) & 1);
        uint32_t wb = wire(b, &bit);
        /* bit * (bit - 1) = 0 */
        constraint(b, (lin[]){{wb, 1}}, 1, (lin[]){{wb, 1}, {0, -1}}, 2, NULL, 0);
        cz_fr f, nv;
        cz_fr_add(&f, &y, &bit);
        cz_fr_mul(&nv, &accv, &f);
        uint32_t wn = wire(b, &nv);
        constraint(b, (lin[]){{acc, 1}}, 1, (lin[]){{w_y, 1}, {wb, 1}}, 2, (lin[]){{wn, 1}}, 1);
        acc = wn;
        accv = nv;
    }
    b->cs.n_labels = b->cs.n_wires;
}

static void builder_free(builder *b)
{
    free(b->cs.start);
    free(b->cs.terms);
    free(b->w);
}

static bool satisfied(const cz_r1cs *cs, const cz_fr *w)
{
    for (uint32_t c = 0; c < cs->n_constraints; c++) {
        cz_fr v[3];
        for (int m = 0; m < 3; m++) {
            cz_fr_zero(&v[m]);
            for (uint64_t t = cs->start[3 * c + m]; t < cs->start[3 * c + m + 1]; t++) {
                cz_fr p;
                cz_fr_mul(&p, &cs->terms[t].coef, &w[cs->terms[t].wire]);
                cz_fr_add(&v[m], &v[m], &p);
            }
        }
        cz_fr ab;
        cz_fr_mul(&ab, &v[0], &v[1]);
        if (!cz_fr_eq(&ab, &v[2]))
            return false;
    }
    return true;
}

/* ---- shared state: one circuit, one key ---- */

typedef struct {
    builder b;
    char path[64];
    cz_zkey *key;
    cz_vk *vk;
    cz_backend *be;
    cz_rng rng;
} fixture;

static int setup_fixture(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    cz_test_rng(&f->rng);
    build(&f->b, 150, &f->rng);
    if (!satisfied(&f->b.cs, f->b.w))
        return -1;
    strcpy(f->path, "/tmp/cz_test_g16_XXXXXX");
    int fd = mkstemp(f->path);
    close(fd);
    char err[256];
    cz_setup_opts o = {.seeded = true, .seed = cz_rng_u64(&f->rng), .threads = 2};
    if (cz_groth16_setup(&f->b.cs, f->path, &o, err, sizeof err)) {
        fprintf(stderr, "setup: %s\n", err);
        return -1;
    }
    if (cz_zkey_load(&f->key, f->path, 2, err, sizeof err)) {
        fprintf(stderr, "load: %s\n", err);
        return -1;
    }
    if (cz_vk_from_zkey(&f->vk, f->key) || cz_backend_cpu_create(&f->be, 2))
        return -1;
    *state = f;
    return 0;
}

static int teardown_fixture(void **state)
{
    fixture *f = *state;
    unlink(f->path);
    cz_backend_destroy(f->be);
    cz_vk_free(f->vk);
    cz_zkey_free(f->key);
    builder_free(&f->b);
    free(f);
    return 0;
}

static void rand_rs(cz_fr rs[2], cz_rng *rng)
{
    cz_fr_random(&rs[0], rng);
    cz_fr_random(&rs[1], rng);
}

static void test_key_shape(void **state)
{
    fixture *f = *state;
    /* domain: smallest 2^k >= nConstraints + nPublic + 1 = 303 + 2 + 1 */
    assert_int_equal(f->b.cs.n_constraints, 303);
    assert_int_equal(f->key->domain_size, 512);
    assert_int_equal(f->key->n_vars, f->b.cs.n_wires);
    assert_int_equal(f->key->n_public, 2);
    cz_g2_affine g2;
    cz_g2_generator(&g2);
    assert_true(cz_g2_affine_eq(&f->key->gamma2, &g2));
    for (uint32_t i = 0; i < f->key->domain_size; i += 61)
        assert_true(cz_g1_affine_in_subgroup(&f->key->h[i]));
}

static void test_prove_verify(void **state)
{
    fixture *f = *state;
    char err[256];
    cz_proof p;
    cz_prove_timings tm;
    assert_int_equal(cz_groth16_prove(&p, f->key, f->b.w, f->be, NULL, &tm, err, sizeof err), CZ_OK);
    assert_int_equal(cz_groth16_verify(f->vk, f->b.w + 1, 2, &p, err, sizeof err), CZ_OK);
    assert_true(tm.total_ms > 0);

    /* fixed r, s: deterministic; and pi_a = alpha1 + sum w_i A_i + r delta1 naively */
    cz_fr rs[2];
    rand_rs(rs, &f->rng);
    cz_proof p1, p2;
    assert_int_equal(cz_groth16_prove(&p1, f->key, f->b.w, f->be, rs, NULL, err, sizeof err), CZ_OK);
    assert_int_equal(cz_groth16_prove(&p2, f->key, f->b.w, f->be, rs, NULL, err, sizeof err), CZ_OK);
    assert_memory_equal(&p1, &p2, sizeof p1);
    cz_g1_jac acc, t, pt;
    cz_g1_jac_from_affine(&acc, &f->key->alpha1);
    for (uint32_t i = 0; i < f->key->n_vars; i++) {
        uint64_t k[4];
        cz_fr_to_limbs(k, &f->b.w[i]);
        cz_g1_jac_from_affine(&pt, &f->key->a[i]);
        cz_g1_jac_mul_var(&t, &pt, k, 4);
        cz_g1_jac_add(&acc, &acc, &t);
    }
    cz_g1_jac_from_affine(&pt, &f->key->delta1);
    cz_g1_jac_mul(&t, &pt, &rs[0]);
    cz_g1_jac_add(&acc, &acc, &t);
    cz_g1_affine a;
    cz_g1_jac_to_affine(&a, &acc);
    assert_true(cz_g1_affine_eq(&a, &p1.a));
    /* other r, s: another proof, also valid */
    rs[1].l[0] ^= 1;
    cz_fr_add(&rs[1], &rs[1], &rs[0]);
    assert_int_equal(cz_groth16_prove(&p2, f->key, f->b.w, f->be, rs, NULL, err, sizeof err), CZ_OK);
    assert_memory_not_equal(&p1, &p2, sizeof p1);
    assert_int_equal(cz_groth16_verify(f->vk, f->b.w + 1, 2, &p2, err, sizeof err), CZ_OK);
    /* Groth16 is malleable: (-A, -B, C) verifies too */
    cz_g1_affine_neg(&p2.a, &p2.a);
    cz_g2_affine_neg(&p2.b, &p2.b);
    assert_int_equal(cz_groth16_verify(f->vk, f->b.w + 1, 2, &p2, err, sizeof err), CZ_OK);
}

static void test_tampered(void **state)
{
    fixture *f = *state;
    char err[256];
    cz_proof p, q;
    assert_int_equal(cz_groth16_prove(&p, f->key, f->b.w, f->be, NULL, NULL, err, sizeof err), CZ_OK);
    /* A + G1 */
    cz_g1_jac j;
    cz_g1_affine g;
    cz_g1_generator(&g);
    q = p;
    cz_g1_jac_from_affine(&j, &q.a);
    cz_g1_jac_add_affine(&j, &j, &g);
    cz_g1_jac_to_affine(&q.a, &j);
    assert_int_equal(cz_groth16_verify(f->vk, f->b.w + 1, 2, &q, err, sizeof err), CZ_ERR_VERIFY);
    /* C negated */
    q = p;
    cz_g1_affine_neg(&q.c, &q.c);
    assert_int_equal(cz_groth16_verify(f->vk, f->b.w + 1, 2, &q, err, sizeof err), CZ_ERR_VERIFY);
    /* A and C swapped */
    q = p;
    q.a = p.c;
    q.c = p.a;
    assert_int_equal(cz_groth16_verify(f->vk, f->b.w + 1, 2, &q, err, sizeof err), CZ_ERR_VERIFY);
    /* a public input changed */
    cz_fr pub[2] = {f->b.w[1], f->b.w[2]};
    cz_fr one;
    cz_fr_one(&one);
    cz_fr_add(&pub[1], &pub[1], &one);
    assert_int_equal(cz_groth16_verify(f->vk, pub, 2, &p, err, sizeof err), CZ_ERR_VERIFY);
    /* wrong number of public inputs */
    assert_int_equal(cz_groth16_verify(f->vk, f->b.w + 1, 1, &p, err, sizeof err), CZ_ERR_ARG);
    /* C replaced by a point on the curve outside the subgroup */
    q = p;
    cz_fp x, y2, b4;
    cz_fp_set_u64(&b4, 4);
    for (uint64_t xi = 1;; xi++) {
        cz_fp_set_u64(&x, xi);
        cz_fp_sqr(&y2, &x);
        cz_fp_mul(&y2, &y2, &x);
        cz_fp_add(&y2, &y2, &b4);
        if (cz_fp_sqrt(&q.c.y, &y2))
            break;
    }
    q.c.x = x;
    assert_true(cz_g1_affine_is_on_curve(&q.c));
    assert_false(cz_g1_affine_in_subgroup(&q.c));
    assert_int_equal(cz_groth16_verify(f->vk, f->b.w + 1, 2, &q, err, sizeof err), CZ_ERR_SUBGROUP);
    /* a witness that does not satisfy the circuit: the proof does not verify */
    cz_fr *w = malloc(f->key->n_vars * sizeof *w);
    memcpy(w, f->b.w, f->key->n_vars * sizeof *w);
    cz_fr_add(&w[f->key->n_vars - 1], &w[f->key->n_vars - 1], &one);
    assert_false(satisfied(&f->b.cs, w));
    assert_int_equal(cz_groth16_prove(&q, f->key, w, f->be, NULL, NULL, err, sizeof err), CZ_OK);
    assert_int_equal(cz_groth16_verify(f->vk, w + 1, 2, &q, err, sizeof err), CZ_ERR_VERIFY);
    /* a flipped bit (0 <-> 1, a bit of the chain) likewise */
    memcpy(w, f->b.w, f->key->n_vars * sizeof *w);
    uint32_t bit; /* wires 6, 8, 10, ... are the bits */
    for (bit = 6; bit < f->key->n_vars; bit += 2)
        if (cz_fr_is_zero(&w[bit]) || cz_fr_is_one(&w[bit]))
            break;
    assert_true(bit < f->key->n_vars);
    if (cz_fr_is_zero(&w[bit]))
        cz_fr_one(&w[bit]);
    else
        cz_fr_zero(&w[bit]);
    assert_false(satisfied(&f->b.cs, w));
    assert_int_equal(cz_groth16_prove(&q, f->key, w, f->be, NULL, NULL, err, sizeof err), CZ_OK);
    assert_int_equal(cz_groth16_verify(f->vk, w + 1, 2, &q, err, sizeof err), CZ_ERR_VERIFY);
    free(w);
}

static void test_setup_deterministic(void **state)
{
    fixture *f = *state;
    char p1[] = "/tmp/cz_test_g16a_XXXXXX", p2[] = "/tmp/cz_test_g16b_XXXXXX";
    close(mkstemp(p1));
    close(mkstemp(p2));
    char err[256];
    builder b;
    cz_rng rng;
    cz_rng_seed(&rng, 5);
    build(&b, 3, &rng);
    cz_setup_opts o = {.seeded = true, .seed = 99, .threads = 1};
    assert_int_equal(cz_groth16_setup(&b.cs, p1, &o, err, sizeof err), CZ_OK);
    o.threads = 2;
    assert_int_equal(cz_groth16_setup(&b.cs, p2, &o, err, sizeof err), CZ_OK);
    size_t n1, n2;
    uint8_t *a = cz_test_read_file(p1, &n1), *c = cz_test_read_file(p2, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(a, c, n1);
    free(c);
    o.seed = 100;
    assert_int_equal(cz_groth16_setup(&b.cs, p2, &o, err, sizeof err), CZ_OK);
    c = cz_test_read_file(p2, &n2);
    assert_int_equal(n1, n2);
    assert_memory_not_equal(a, c, n1);
    /* the small key proves too (domain 2^4: 9 constraints + 2 + 1) */
    cz_zkey *key;
    cz_vk *vk;
    cz_proof p;
    assert_int_equal(cz_zkey_load_bytes(&key, c, n2, false, p2, 1, err, sizeof err), CZ_OK);
    assert_int_equal(key->domain_size, 16);
    assert_int_equal(cz_vk_from_zkey(&vk, key), CZ_OK);
    assert_int_equal(cz_groth16_prove(&p, key, b.w, f->be, NULL, NULL, err, sizeof err), CZ_OK);
    assert_int_equal(cz_groth16_verify(vk, b.w + 1, 2, &p, err, sizeof err), CZ_OK);
    cz_vk_free(vk);
    cz_zkey_free(key);
    free(a);
    free(c);
    unlink(p1);
    unlink(p2);
    builder_free(&b);
}

/* Shapes at the edges: no public signals (IC has one point, public.json is
   []), and every signal public (the C section is empty). */
static void prove_shape(fixture *f, uint32_t n_pub_out, uint32_t n_pub_in, uint32_t n_prv_in)
{
    char path[] = "/tmp/cz_test_g16e_XXXXXX";
    close(mkstemp(path));
    char err[256];
    builder b;
    cz_rng rng;
    cz_rng_seed(&rng, cz_rng_u64(&f->rng));
    build(&b, 0, &rng);
    b.cs.n_pub_out = n_pub_out;
    b.cs.n_pub_in = n_pub_in;
    b.cs.n_prv_in = n_prv_in;
    cz_setup_opts o = {.seeded = true, .seed = 3, .threads = 2};
    assert_int_equal(cz_groth16_setup(&b.cs, path, &o, err, sizeof err), CZ_OK);
    cz_zkey *key;
    cz_vk *vk;
    cz_proof p;
    assert_int_equal(cz_zkey_load(&key, path, 2, err, sizeof err), CZ_OK);
    assert_int_equal(key->n_public, n_pub_out + n_pub_in);
    assert_int_equal(cz_vk_from_zkey(&vk, key), CZ_OK);
    assert_int_equal(cz_groth16_prove(&p, key, b.w, f->be, NULL, NULL, err, sizeof err), CZ_OK);
    assert_int_equal(cz_groth16_verify(vk, b.w + 1, key->n_public, &p, err, sizeof err), CZ_OK);
    /* JSON round trip of the vk and public signals, verified as text */
    char *vj = cz_vk_to_json(vk, NULL), *pj = cz_proof_to_json(&p);
    char *uj = cz_public_to_json(b.w + 1, key->n_public);
    assert_int_equal(cz_verify_json(vj, uj, pj, err, sizeof err), CZ_OK);
    if (key->n_public == 0)
        assert_non_null(strstr(uj, "[]"));
    /* a changed statement fails */
    if (key->n_public > 0) {
        cz_fr one;
        cz_fr_one(&one);
        cz_fr_add(&b.w[1], &b.w[1], &one);
        assert_int_equal(cz_groth16_verify(vk, b.w + 1, key->n_public, &p, err, sizeof err),
                         CZ_ERR_VERIFY);
    }
    free(vj);
    free(pj);
    free(uj);
    cz_vk_free(vk);
    cz_zkey_free(key);
    unlink(path);
    builder_free(&b);
}

static void test_edge_shapes(void **state)
{
    fixture *f = *state;
    prove_shape(f, 0, 0, 1); /* no public signals */
    prove_shape(f, 1, 4, 0); /* wires out, y, x, s, cube all public: C is empty */
}

/* ---- the snarkjs fixtures ---- */

static char *fix(const char *name, size_t *n)
{
    char rel[256];
    snprintf(rel, sizeof rel, "tests/fixtures/%s", name);
    char *b = (char *)cz_test_read_file(cz_test_src_path(rel), n);
    if (!b)
        fail_msg("missing fixture %s", rel);
    return b;
}

static void test_snarkjs_fixture(void **state)
{
    (void)state;
    size_t zn, wn, vn, pn, un;
    char *z = fix("small.zkey", &zn), *w = fix("small.wtns", &wn), *vk = fix("small_vk.json", &vn);
    char *sp = fix("small_proof.json", &pn), *su = fix("small_public.json", &un);
    char err[256];
    /* snarkjs's proof verifies with cuzk */
    assert_int_equal(cz_verify_json(vk, su, sp, err, sizeof err), CZ_OK);
    /* a changed public input does not */
    char *bad = strdup(su);
    char *d = strstr(bad, "121509");
    assert_non_null(d);
    d[5] = '8';
    assert_int_equal(cz_verify_json(vk, bad, sp, err, sizeof err), CZ_ERR_VERIFY);
    free(bad);

    /* the public API: cuzk's proof verifies under snarkjs's vk */
    cz_prover *p;
    cz_prover_opts o;
    cz_prover_opts_default(&o);
    o.threads = 2;
    o.device = CZ_DEVICE_CPU;
    assert_int_equal(cz_prover_create_from_bytes(&p, z, zn, &o, err, sizeof err), CZ_OK);
    char small[8];
    size_t pl = sizeof small, ul = sizeof small;
    assert_int_equal(cz_prover_prove(p, w, wn, small, &pl, small, &ul, err, sizeof err), CZ_ERR_ARG);
    assert_true(pl > 100 && ul > 10);
    assert_true(pl <= CZ_PROOF_JSON_MAX && ul <= cz_prover_public_json_max(p));
    /* the next proof may be a few bytes longer (other r, s): use the bounds */
    pl = CZ_PROOF_JSON_MAX;
    ul = cz_prover_public_json_max(p);
    char *pj = malloc(pl), *uj = malloc(ul);
    size_t pl2 = pl, ul2 = ul;
    assert_int_equal(cz_prover_prove(p, w, wn, pj, &pl2, uj, &ul2, err, sizeof err), CZ_OK);
    assert_int_equal(strlen(uj) + 1, ul2);
    assert_int_equal(cz_verify_json(vk, uj, pj, err, sizeof err), CZ_OK);
    /* the same public signals as snarkjs's */
    cz_fr *a, *b;
    size_t na, nb;
    assert_int_equal(cz_public_from_json(&a, &na, uj, strlen(uj), "a", err, sizeof err), CZ_OK);
    assert_int_equal(cz_public_from_json(&b, &nb, su, un, "b", err, sizeof err), CZ_OK);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na * sizeof *a);
    free(a);
    free(b);
    /* a witness of another length */
    size_t cn;
    char *cw = fix("chain64.wtns", &cn);
    pl2 = pl;
    ul2 = ul;
    assert_int_equal(cz_prover_prove(p, cw, cn, pj, &pl2, uj, &ul2, err, sizeof err), CZ_ERR_WITNESS);
    free(cw);
    cz_prover_destroy(p);
    cz_prover_destroy(NULL);
    /* a BN254 key makes a BN254 prover (test_bn254_prover.c), which
       refuses this BLS12-381 witness as the other curve's */
    size_t bn;
    char *bz = fix("bn254/small.zkey", &bn);
    o.device = CZ_DEVICE_CPU;
    assert_int_equal(cz_prover_create_from_bytes(&p, bz, bn, &o, err, sizeof err), CZ_OK);
    pl2 = pl;
    ul2 = ul;
    assert_int_equal(cz_prover_prove(p, w, wn, pj, &pl2, uj, &ul2, err, sizeof err), CZ_ERR_CURVE);
    cz_prover_destroy(p);
    free(bz);
    free(pj);
    free(uj);
    free(z);
    free(w);
    free(vk);
    free(sp);
    free(su);
}

/* A prover made from a key file keeps its own copy: the file truncated
   and then removed under it (as an operator replacing keys would) must not
   fault it, and its proofs still verify. */
static void test_prover_key_file_changed(void **state)
{
    (void)state;
    size_t zn, wn, vn;
    char *z = fix("small.zkey", &zn), *w = fix("small.wtns", &wn), *vk = fix("small_vk.json", &vn);
    char path[] = "/tmp/cuzk-test-key-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, z, zn), (ssize_t)zn);
    close(fd);
    cz_prover *p;
    cz_prover_opts o;
    cz_prover_opts_default(&o);
    o.threads = 2;
    o.device = CZ_DEVICE_CPU;
    char err[256];
    assert_int_equal(cz_prover_create(&p, path, &o, err, sizeof err), CZ_OK);
    assert_int_equal(truncate(path, 0), 0);
    size_t pl = CZ_PROOF_JSON_MAX, ul = cz_prover_public_json_max(p);
    char *pj = malloc(pl), *uj = malloc(ul);
    assert_int_equal(cz_prover_prove(p, w, wn, pj, &pl, uj, &ul, err, sizeof err), CZ_OK);
    assert_int_equal(cz_verify_json(vk, uj, pj, err, sizeof err), CZ_OK);
    unlink(path);
    pl = CZ_PROOF_JSON_MAX;
    ul = cz_prover_public_json_max(p);
    assert_int_equal(cz_prover_prove(p, w, wn, pj, &pl, uj, &ul, err, sizeof err), CZ_OK);
    assert_int_equal(cz_verify_json(vk, uj, pj, err, sizeof err), CZ_OK);
    cz_prover_destroy(p);
    /* and only a regular file is read */
    assert_int_equal(cz_prover_create(&p, "/dev/zero", &o, err, sizeof err) == CZ_OK, 0);
    assert_null(p);
    free(pj);
    free(uj);
    free(z);
    free(w);
    free(vk);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_shape),
        cmocka_unit_test(test_prove_verify),
        cmocka_unit_test(test_tampered),
        cmocka_unit_test(test_setup_deterministic),
        cmocka_unit_test(test_edge_shapes),
        cmocka_unit_test(test_snarkjs_fixture),
        cmocka_unit_test(test_prover_key_file_changed),
    };
    return cmocka_run_group_tests(tests, setup_fixture, teardown_fixture);
}
