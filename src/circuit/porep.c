/*
 * porep.c: the PoRep-shaped circuit (porep.h), its presets and runs.
 *
 * DESIGN. One function per challenge (synth_challenge) and one for the
 * partition (synth_partition) build everything through the gadgets of
 * gadgets.h, carrying values beside variables, so the same code counts,
 * records, checks and computes witnesses. The sub-circuits follow
 * rust-fil-proofs' StackedCircuit step for step (see porep.h), with the
 * gadget costs of bellman (SHA-256 ~25.8 k constraints a block, Poseidon
 * 311 / 505 / 598 for arity 2 / 8 / 11), so the sizes are Filecoin's:
 * porep-32g has ~7.24 M constraints per challenge, ~79 % of them in the
 * eleven 20-block label hashes and ~19 % in the 30 levels of tree_d.
 *
 * Bit orders: a 32-byte node enters SHA-256 as its little-endian bytes,
 * each byte most significant bit first (Filecoin's reverse_bit_numbering
 * of to_bits_le); a SHA-256 output is read back the same way and
 * truncated to 254 bits. Path indices are little-endian bits, packed into
 * one public input per path (the node index).
 *
 * Presets: porep-32g is the real 32 GiB shape (rust-fil-proofs
 * filecoin-proofs/src/constants.rs: 11 layers, 176 challenges in 10
 * partitions -> 18 each, SectorShape32GiB = oct base and sub trees, depth
 * 10 over 2^30 nodes); porep-512m and porep-8m take that file's 512 MiB and
 * 8 MiB rows (2 layers, 2 challenges, 1 partition, SectorShapeBase: an oct
 * tree of depth 8 / 6); porep-mini is ours: small enough for snarkjs.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuit/gadgets.h"
#include "circuit/porep.h"
#include "util/rng.h"

static const cz_porep_params presets[] = {
    {"porep-32g", "32 GiB sector (Filecoin's shape)", 11, 6, 8, 37, 18, 10, 30, 10},
    {"porep-512m", "512 MiB sector", 2, 6, 8, 37, 2, 1, 24, 8},
    {"porep-8m", "8 MiB sector", 2, 6, 8, 37, 2, 1, 18, 6},
    {"porep-mini", "a few nodes: small enough for snarkjs", 2, 1, 1, 2, 1, 2, 2, 1},
};

const char *const cz_porep_sub_names[CZ_POREP_SUB_COUNT] = {
    "partition", "tree_d", "column_hash", "tree_c", "challenge_bits",
    "parent_bits", "label_sha256", "encoding", "tree_r",
};

size_t cz_porep_preset_count(void) { return sizeof presets / sizeof presets[0]; }

const cz_porep_params *cz_porep_preset_at(size_t i)
{
    return i < cz_porep_preset_count() ? &presets[i] : NULL;
}

const cz_porep_params *cz_porep_preset(const char *name)
{
    for (size_t i = 0; name && i < cz_porep_preset_count(); i++)
        if (!strcmp(presets[i].name, name))
            return &presets[i];
    return NULL;
}

static cz_status perr(char *err, size_t err_len, cz_status st, const char *msg)
{
    if (err && err_len)
        snprintf(err, err_len, "%s", msg);
    return st;
}

cz_status cz_porep_params_check(const cz_porep_params *p, char *err, size_t err_len)
{
    if (!p)
        return perr(err, err_len, CZ_ERR_ARG, "no parameters");
    if (p->layers != 2 && p->layers != 8 && p->layers != 11)
        return perr(err, err_len, CZ_ERR_ARG, "layers must be 2, 8 or 11 (a Poseidon arity)");
    if (p->drg_parents < 1 || p->drg_parents > 64 || p->exp_parents > 64)
        return perr(err, err_len, CZ_ERR_ARG, "drg_parents must be 1..64, exp_parents 0..64");
    if (p->label_entries < p->drg_parents + p->exp_parents || p->label_entries > 1024)
        return perr(err, err_len, CZ_ERR_ARG,
                    "label_entries must hold every parent (>= drg + exp) and be <= 1024");
    if (p->challenges < 1 || p->challenges > 4096 || p->partitions < 1 || p->partitions > 256)
        return perr(err, err_len, CZ_ERR_ARG, "challenges must be 1..4096, partitions 1..256");
    if (p->tree_d_depth < 1 || p->tree_d_depth > 40 || p->oct_depth < 1 || p->oct_depth > 14 ||
        3 * p->oct_depth < p->tree_d_depth)
        return perr(err, err_len, CZ_ERR_ARG,
                    "tree_d_depth must be 1..40 and oct_depth 1..14 with 8^oct_depth >= "
                    "2^tree_d_depth");
    uint64_t nodes = cz_porep_nodes(p);
    if ((uint64_t)p->challenges * p->partitions + 1 >= nodes)
        return perr(err, err_len, CZ_ERR_ARG,
                    "the sector needs more nodes than challenges (plus one node for parents)");
    return CZ_OK;
}

uint32_t cz_porep_num_public(const cz_porep_params *p)
{
    return 3 + p->challenges * (p->drg_parents + p->exp_parents + 4);
}

/* ---- small circuit helpers ---- */

/* Breakdown sections: deltas of the cs's counters. */
typedef struct {
    cz_porep_breakdown *bd;
    cz_cs *cs;
    uint64_t c0, a0;
    int k;
} section;

static inline void sec_begin(section *s, cz_porep_breakdown *bd, cz_cs *cs, int k)
{
    s->bd = bd;
    s->cs = cs;
    s->k = k;
    s->c0 = s->a0 = 0;
    if (bd) {
        s->c0 = cz_cs_num_constraints(cs);
        s->a0 = cz_cs_num_aux(cs);
    }
}

static inline void sec_end(section *s)
{
    if (s->bd) {
        s->bd->constraints[s->k] += cz_cs_num_constraints(s->cs) - s->c0;
        s->bd->aux[s->k] += cz_cs_num_aux(s->cs) - s->a0;
        s->bd->calls[s->k]++;
    }
}

static void push_fmt(cz_cs *cs, const char *fmt, unsigned i)
{
    if (cz_cs_mode_of(cs) == CZ_CS_WITNESS)
        return;
    char name[48];
    snprintf(name, sizeof name, fmt, i);
    cz_cs_push(cs, name);
}

/* Pack little-endian bits into a new public input: sum 2^i b_i = x
   (1 constraint), as bellman's multipack::pack_into_inputs for <= 64 bits. */
static void pack_input(cz_cs *cs, const cz_bool *bits, unsigned n, uint64_t value)
{
    cz_fr v;
    cz_fr_set_u64(&v, value);
    cz_var x = cz_cs_alloc_input(cs, cz_cs_has_values(cs) ? &v : NULL);
    if (!cz_cs_records(cs)) {
        cz_cs_enforce(cs, NULL, NULL, NULL);
        return;
    }
    cz_lc a, b, c;
    cz_lc_init(&a);
    cz_lc_init(&b);
    cz_lc_init(&c);
    bool ok = true;
    for (unsigned i = 0; i < n; i++) {
        cz_fr k;
        cz_fr_set_u64(&k, (uint64_t)1 << i);
        ok &= cz_bool_lc_add(&a, bits[i], &k);
    }
    ok &= cz_lc_add_i64(&b, cz_var_one(), 1);
    ok &= cz_lc_add_i64(&c, x, 1);
    if (ok)
        cz_cs_enforce(cs, &a, &b, &c);
    else
        cz_cs_fail(cs, CZ_ERR_NOMEM, "out of memory packing a public input");
    cz_lc_free(&a);
    cz_lc_free(&b);
    cz_lc_free(&c);
}

/* x as 256 bits in SHA-256 order: its 32 little-endian bytes, each MSB
   first; x < 2^254, so the two top bits are constant zeros (254 + 1
   constraints). */
static void num_to_sha_bits(cz_cs *cs, cz_bool out[256], const cz_num *x)
{
    cz_bool le[254];
    cz_num_to_bits_le(cs, le, 254, x);
    for (unsigned i = 0; i < 256; i++)
        out[(i & ~7u) | (7 - (i & 7))] = i < 254 ? le[i] : cz_bool_const(0);
}

/* The first 254 bits of a SHA-256 output (SHA order) as little-endian bits. */
static void sha_bits_to_le254(cz_bool le[254], const cz_bool sha[256])
{
    for (unsigned i = 0; i < 254; i++)
        le[i] = sha[(i & ~7u) | (7 - (i & 7))];
}

static cz_num alloc_num(cz_cs *cs, const cz_fr *v)
{
    return cz_num_alloc(cs, cz_cs_has_values(cs) ? v : NULL);
}

/* Inclusion in an arity-8 Poseidon tree: index bits (3 per level, 1
   constraint each), siblings, the tree gadget, root == expected (1), the
   index packed into a public input (1). */
static void oct_inclusion(cz_cs *cs, const cz_porep_params *p, const cz_num *leaf,
                          const cz_fr (*path)[7], uint64_t index, const cz_num *root)
{
    const unsigned depth = p->oct_depth;
    cz_bool bits[3 * 14];
    cz_num sib[14][7];
    bool vals = cz_cs_has_values(cs);
    for (unsigned i = 0; i < 3 * depth; i++)
        bits[i] = cz_bool_alloc(cs, vals ? (int)((index >> i) & 1) : 0);
    for (unsigned l = 0; l < depth; l++)
        for (unsigned j = 0; j < 7; j++)
            sib[l][j] = cz_num_alloc(cs, vals ? &path[l][j] : NULL);
    cz_num got = cz_merkle_poseidon8_gadget(cs, leaf, (const cz_num(*)[7])sib, bits, depth);
    cz_num_enforce_equal(cs, &got, root);
    pack_input(cs, bits, 3 * depth, index);
}

/* ---- one challenge ---- */

typedef struct {
    cz_bool replica_bits[256]; /* SHA order */
    cz_num comm_d, comm_c, comm_r_last;
} shared_vars;

typedef struct {
    cz_bool *pre;       /* label preimage bits */
    cz_bool (*pbits)[256]; /* parent label bits of one layer */
    cz_num *cols;       /* (drg + exp) * layers */
    cz_num *labels;     /* layers */
} scratch;

static void scratch_free(scratch *s)
{
    free(s->pre);
    free(s->pbits);
    free(s->cols);
    free(s->labels);
}

static bool scratch_alloc(scratch *s, const cz_porep_params *p)
{
    unsigned np = p->drg_parents + p->exp_parents;
    s->pre = malloc((512 + (size_t)p->label_entries * 256) * sizeof *s->pre);
    s->pbits = malloc((size_t)np * sizeof *s->pbits);
    s->cols = malloc((size_t)(np ? np : 1) * p->layers * sizeof *s->cols);
    s->labels = malloc((size_t)p->layers * sizeof *s->labels);
    if (!s->pre || !s->pbits || !s->cols || !s->labels) {
        scratch_free(s);
        return false;
    }
    return true;
}

static void synth_challenge(cz_cs *cs, const cz_porep_params *p, const shared_vars *sh,
                            const cz_porep_challenge *in, cz_porep_breakdown *bd)
{
    const bool vals = cz_cs_has_values(cs);
    const unsigned L = p->layers, nd = p->drg_parents, ne = p->exp_parents;
    const uint64_t c = vals ? in->challenge : 0;
    const cz_poseidon_params *col_h = cz_poseidon_params_get(L);
    scratch s;
    if (!col_h || !scratch_alloc(&s, p)) {
        cz_cs_fail(cs, CZ_ERR_NOMEM, "out of memory (challenge scratch or Poseidon parameters)");
        return;
    }
    section sec;

    /* tree_d: data leaf, its bits, path to comm_d */
    sec_begin(&sec, bd, cs, CZ_POREP_SUB_TREE_D);
    cz_cs_push(cs, "tree_d");
    cz_num data = alloc_num(cs, vals ? &in->data : NULL);
    {
        const unsigned depth = p->tree_d_depth;
        cz_bool leaf_bits[256];
        cz_bool (*sib_bits)[256] = malloc((size_t)depth * sizeof *sib_bits);
        cz_bool idx[64];
        if (!sib_bits) {
            cz_cs_fail(cs, CZ_ERR_NOMEM, "out of memory (tree_d path)");
            scratch_free(&s);
            return;
        }
        num_to_sha_bits(cs, leaf_bits, &data);
        for (unsigned l = 0; l < depth; l++)
            idx[l] = cz_bool_alloc(cs, (int)((c >> l) & 1));
        for (unsigned l = 0; l < depth; l++) {
            cz_num sn = alloc_num(cs, vals ? &in->d_path[l] : NULL);
            num_to_sha_bits(cs, sib_bits[l], &sn);
        }
        cz_bool root_bits[256], root_le[254];
        cz_merkle_sha256_gadget(cs, root_bits, leaf_bits, (const cz_bool(*)[256])sib_bits, idx,
                                depth);
        sha_bits_to_le254(root_le, root_bits);
        cz_num root = cz_bits_pack_le(cs, root_le, 254);
        cz_num_enforce_equal(cs, &root, &sh->comm_d);
        pack_input(cs, idx, depth, c);
        free(sib_bits);
    }
    cz_cs_pop(cs);
    sec_end(&sec);

    /* parent columns: hash, inclusion in tree_c */
    for (unsigned i = 0; i < nd + ne; i++) {
        const cz_porep_column *col = vals ? &in->parents[i] : NULL;
        push_fmt(cs, i < nd ? "drg_parent %u" : "exp_parent %u", i < nd ? i : i - nd);
        sec_begin(&sec, bd, cs, CZ_POREP_SUB_COLUMN_HASH);
        cz_num *cn = &s.cols[(size_t)i * L];
        for (unsigned l = 0; l < L; l++)
            cn[l] = alloc_num(cs, vals ? &col->labels[l] : NULL);
        cz_num h = cz_poseidon_gadget(cs, col_h, cn);
        sec_end(&sec);
        sec_begin(&sec, bd, cs, CZ_POREP_SUB_TREE_C);
        oct_inclusion(cs, p, &h, vals ? (const cz_fr(*)[7])col->path : NULL,
                      vals ? col->node : 0, &sh->comm_c);
        sec_end(&sec);
        cz_cs_pop(cs);
    }

    /* the challenge as a 64-bit number, a public input */
    sec_begin(&sec, bd, cs, CZ_POREP_SUB_CHALLENGE);
    cz_cs_push(cs, "challenge");
    cz_bool cbits[64];
    for (unsigned i = 0; i < 64; i++)
        cbits[i] = cz_bool_alloc(cs, (int)((c >> i) & 1));
    pack_input(cs, cbits, 64, c);
    cz_cs_pop(cs);
    sec_end(&sec);

    /* labels: the fixed 64-byte head, then the parents' labels */
    cz_bool *pre = s.pre;
    memcpy(pre, sh->replica_bits, sizeof sh->replica_bits);
    for (unsigned t = 0; t < 64; t++)
        pre[256 + 32 + t] = cbits[63 - t]; /* node, u64 big-endian */
    for (unsigned t = 256 + 32 + 64; t < 512; t++)
        pre[t] = cz_bool_const(0);
    for (unsigned layer = 1; layer <= L; layer++) {
        push_fmt(cs, "label %u", layer);
        for (unsigned t = 0; t < 32; t++)
            pre[256 + t] = cz_bool_const((int)((layer >> (31 - t)) & 1));
        sec_begin(&sec, bd, cs, CZ_POREP_SUB_PARENT_BITS);
        unsigned np = layer == 1 ? nd : nd + ne;
        for (unsigned i = 0; i < np; i++) {
            /* DRG parents: this layer; expander parents: the previous one */
            const cz_num *v = i < nd ? &s.cols[(size_t)i * L + (layer - 1)]
                                     : &s.cols[(size_t)i * L + (layer - 2)];
            num_to_sha_bits(cs, s.pbits[i], v);
        }
        for (unsigned e = 0; e < p->label_entries; e++)
            memcpy(&pre[512 + (size_t)e * 256], s.pbits[e % np], sizeof s.pbits[0]);
        sec_end(&sec);
        sec_begin(&sec, bd, cs, CZ_POREP_SUB_LABEL);
        cz_bool out[256], le[254];
        cz_sha256_gadget(cs, out, pre, 512 + (size_t)p->label_entries * 256);
        sha_bits_to_le254(le, out);
        s.labels[layer - 1] = cz_bits_pack_le(cs, le, 254);
        sec_end(&sec);
        cz_cs_pop(cs);
    }

    /* encoding: replica = key + data (1 constraint) */
    sec_begin(&sec, bd, cs, CZ_POREP_SUB_ENCODING);
    cz_cs_push(cs, "encoding");
    cz_fr enc;
    if (vals)
        cz_fr_add(&enc, &s.labels[L - 1].value, &data.value);
    cz_num encoded = alloc_num(cs, vals ? &enc : NULL);
    if (cz_cs_records(cs)) {
        cz_lc a, b, cc;
        cz_lc_init(&a);
        cz_lc_init(&b);
        cz_lc_init(&cc);
        bool ok = cz_lc_add_i64(&a, s.labels[L - 1].var, 1) && cz_lc_add_i64(&a, data.var, 1) &&
                  cz_lc_add_i64(&b, cz_var_one(), 1) && cz_lc_add_i64(&cc, encoded.var, 1);
        if (ok)
            cz_cs_enforce(cs, &a, &b, &cc);
        else
            cz_cs_fail(cs, CZ_ERR_NOMEM, "out of memory (encoding)");
        cz_lc_free(&a);
        cz_lc_free(&b);
        cz_lc_free(&cc);
    } else {
        cz_cs_enforce(cs, NULL, NULL, NULL);
    }
    cz_cs_pop(cs);
    sec_end(&sec);

    /* tree_r: the replica leaf in comm_r_last */
    sec_begin(&sec, bd, cs, CZ_POREP_SUB_TREE_R);
    cz_cs_push(cs, "tree_r");
    oct_inclusion(cs, p, &encoded, vals ? (const cz_fr(*)[7])in->r_path : NULL, c,
                  &sh->comm_r_last);
    cz_cs_pop(cs);
    sec_end(&sec);

    /* c_x: the computed labels' column, in tree_c */
    cz_cs_push(cs, "c_x");
    sec_begin(&sec, bd, cs, CZ_POREP_SUB_COLUMN_HASH);
    cz_num h = cz_poseidon_gadget(cs, col_h, s.labels);
    sec_end(&sec);
    sec_begin(&sec, bd, cs, CZ_POREP_SUB_TREE_C);
    oct_inclusion(cs, p, &h, vals ? (const cz_fr(*)[7])in->c_x.path : NULL, c, &sh->comm_c);
    sec_end(&sec);
    cz_cs_pop(cs);
    scratch_free(&s);
}

/* ---- the partition ---- */

static void synth_head(cz_cs *cs, const cz_porep_partition *in, shared_vars *sh,
                       cz_porep_breakdown *bd)
{
    const bool vals = cz_cs_has_values(cs);
    section sec;
    sec_begin(&sec, bd, cs, CZ_POREP_SUB_PARTITION);
    cz_cs_push(cs, "partition");
    cz_num rid = cz_num_alloc_input(cs, vals ? &in->replica_id : NULL);
    sh->comm_d = cz_num_alloc_input(cs, vals ? &in->comm_d : NULL);
    cz_num comm_r = cz_num_alloc_input(cs, vals ? &in->comm_r : NULL);
    num_to_sha_bits(cs, sh->replica_bits, &rid);
    sh->comm_c = alloc_num(cs, vals ? &in->comm_c : NULL);
    sh->comm_r_last = alloc_num(cs, vals ? &in->comm_r_last : NULL);
    const cz_poseidon_params *p2 = cz_poseidon_params_get(2);
    if (!p2) {
        cz_cs_fail(cs, CZ_ERR_NOMEM, "out of memory (Poseidon parameters)");
    } else {
        cz_num two[2] = {sh->comm_c, sh->comm_r_last};
        cz_num h = cz_poseidon_gadget(cs, p2, two);
        cz_num_enforce_equal(cs, &h, &comm_r);
    }
    cz_cs_pop(cs);
    sec_end(&sec);
}

/* A count of the head and n_ch challenges, run without forks. */
static cz_status count_plain(const cz_porep_params *p, unsigned n_ch, cz_porep_counts *out,
                             char *err, size_t err_len)
{
    cz_cs *cs;
    cz_status st = cz_cs_new(&cs, CZ_CS_COUNT);
    if (st)
        return perr(err, err_len, st, "out of memory");
    shared_vars sh;
    synth_head(cs, NULL, &sh, NULL);
    for (unsigned i = 0; i < n_ch; i++)
        synth_challenge(cs, p, &sh, NULL, NULL);
    st = cz_cs_finish(cs, err, err_len);
    out->n_public = cz_cs_num_public(cs);
    out->n_aux = cz_cs_num_aux(cs);
    out->n_constraints = cz_cs_num_constraints(cs);
    cz_cs_free(cs);
    return st;
}

typedef struct {
    cz_porep_params key;
    cz_porep_counts counts;
} count_entry;

static pthread_mutex_t count_mu = PTHREAD_MUTEX_INITIALIZER;
static count_entry count_cache[16];
static unsigned count_n;

static bool same_shape(const cz_porep_params *a, const cz_porep_params *b)
{
    return a->layers == b->layers && a->drg_parents == b->drg_parents &&
           a->exp_parents == b->exp_parents && a->label_entries == b->label_entries &&
           a->challenges == b->challenges && a->tree_d_depth == b->tree_d_depth &&
           a->oct_depth == b->oct_depth;
}

cz_status cz_porep_counts_get(const cz_porep_params *p, cz_porep_counts *out, char *err,
                              size_t err_len)
{
    cz_status st = cz_porep_params_check(p, err, err_len);
    if (st)
        return st;
    pthread_mutex_lock(&count_mu);
    for (unsigned i = 0; i < count_n; i++)
        if (same_shape(&count_cache[i].key, p)) {
            *out = count_cache[i].counts;
            pthread_mutex_unlock(&count_mu);
            return CZ_OK;
        }
    pthread_mutex_unlock(&count_mu);
    cz_porep_counts c0, c1, r;
    st = count_plain(p, 0, &c0, err, err_len);
    if (!st)
        st = count_plain(p, 1, &c1, err, err_len);
    if (st)
        return st;
    memset(&r, 0, sizeof r);
    r.partition_aux = c0.n_aux;
    r.partition_constraints = c0.n_constraints;
    r.challenge_aux = c1.n_aux - c0.n_aux;
    r.challenge_constraints = c1.n_constraints - c0.n_constraints;
    uint32_t ch_pub = c1.n_public - c0.n_public;
    r.n_public = c0.n_public + p->challenges * ch_pub;
    r.n_aux = r.partition_aux + (uint64_t)p->challenges * r.challenge_aux;
    r.n_constraints = r.partition_constraints + (uint64_t)p->challenges * r.challenge_constraints;
    if (r.n_public != cz_porep_num_public(p) || 1 + (uint64_t)r.n_public + r.n_aux > UINT32_MAX)
        return perr(err, err_len, CZ_ERR_INTERNAL,
                    "the circuit's public input count is not the expected one, or it has "
                    "more than 2^32 variables");
    pthread_mutex_lock(&count_mu);
    if (count_n < sizeof count_cache / sizeof count_cache[0]) {
        count_cache[count_n].key = *p;
        count_cache[count_n].counts = r;
        count_n++;
    }
    pthread_mutex_unlock(&count_mu);
    *out = r;
    return CZ_OK;
}

typedef struct {
    const cz_porep_params *p;
    const shared_vars *sh;
    const cz_porep_partition *in;
    cz_cs **child;
} par_ctx;

static void par_challenge(void *ctx, size_t begin, size_t end, int worker)
{
    par_ctx *x = ctx;
    for (size_t i = begin; i < end; i++)
        synth_challenge(x->child[i], x->p, x->sh, &x->in->ch[i], NULL);
}

cz_status cz_porep_synthesize(cz_cs *cs, const cz_porep_params *p, const cz_porep_partition *in,
                              cz_threadpool *pool, cz_porep_breakdown *bd)
{
    char err[256];
    cz_porep_counts counts;
    cz_status st = cz_porep_counts_get(p, &counts, err, sizeof err);
    if (st)
        return cz_cs_fail(cs, st, "%s", err);
    if (cz_cs_has_values(cs) && !in)
        return cz_cs_fail(cs, CZ_ERR_ARG, "a witness needs the partition's input");
    if (bd)
        memset(bd, 0, sizeof *bd);
    shared_vars sh;
    synth_head(cs, in, &sh, bd);
    const uint32_t ch_pub = p->drg_parents + p->exp_parents + 4;
    if (cz_cs_mode_of(cs) != CZ_CS_WITNESS) {
        /* children forward to cs here: one after the other */
        for (unsigned i = 0; i < p->challenges; i++) {
            cz_cs *child;
            if (cz_cs_fork(cs, &child, ch_pub, counts.challenge_aux))
                break;
            push_fmt(child, "challenge %u", i);
            synth_challenge(child, p, &sh, in ? &in->ch[i] : NULL, bd);
            cz_cs_pop(child);
            if (cz_cs_join(cs, child))
                break;
        }
        return cz_cs_status(cs, NULL, 0);
    }
    cz_cs **child = calloc(p->challenges, sizeof *child);
    if (!child)
        return cz_cs_fail(cs, CZ_ERR_NOMEM, "out of memory");
    unsigned forked = 0;
    for (; forked < p->challenges; forked++)
        if (cz_cs_fork(cs, &child[forked], ch_pub, counts.challenge_aux)) {
            forked++; /* the failed child exists: join it below */
            break;
        }
    if (forked == p->challenges && cz_cs_status(cs, NULL, 0) == CZ_OK) {
        par_ctx x = {p, &sh, in, child};
        cz_parallel_for(pool, p->challenges, 1, par_challenge, &x);
    }
    for (unsigned i = 0; i < forked; i++)
        if (child[i])
            cz_cs_join(cs, child[i]);
    free(child);
    return cz_cs_status(cs, NULL, 0);
}

/* ---- runs ---- */

cz_status cz_porep_count(const cz_porep_params *p, cz_porep_counts *counts,
                         cz_porep_breakdown *bd, char *err, size_t err_len)
{
    cz_status st = cz_porep_counts_get(p, counts, err, err_len);
    if (st)
        return st;
    cz_cs *cs;
    if ((st = cz_cs_new(&cs, CZ_CS_COUNT)))
        return perr(err, err_len, st, "out of memory");
    cz_porep_synthesize(cs, p, NULL, NULL, bd);
    st = cz_cs_finish(cs, err, err_len);
    if (!st && (cz_cs_num_aux(cs) != counts->n_aux ||
                cz_cs_num_constraints(cs) != counts->n_constraints ||
                cz_cs_num_public(cs) != counts->n_public))
        st = perr(err, err_len, CZ_ERR_INTERNAL,
                  "the whole count differs from the per-challenge count");
    cz_cs_free(cs);
    return st;
}

cz_status cz_porep_shape(const cz_porep_params *p, cz_shape **out, char *err, size_t err_len)
{
    *out = NULL;
    cz_status st = cz_porep_params_check(p, err, err_len);
    if (st)
        return st;
    cz_cs *cs;
    if ((st = cz_cs_new(&cs, CZ_CS_SHAPE)))
        return perr(err, err_len, st, "out of memory");
    cz_porep_synthesize(cs, p, NULL, NULL, NULL);
    st = cz_cs_finish(cs, err, err_len);
    if (!st)
        st = cz_cs_take_shape(cs, out, err, err_len);
    cz_cs_free(cs);
    return st;
}

cz_status cz_porep_witness(const cz_porep_params *p, const cz_porep_partition *in,
                           cz_threadpool *pool, cz_fr *w, uint64_t n_w, char *err,
                           size_t err_len)
{
    cz_porep_counts counts;
    cz_status st = cz_porep_counts_get(p, &counts, err, err_len);
    if (st)
        return st;
    if (!in || !w || n_w != 1 + (uint64_t)counts.n_public + counts.n_aux)
        return perr(err, err_len, CZ_ERR_ARG, "the witness buffer does not fit the circuit");
    cz_cs *cs;
    if ((st = cz_cs_new_witness(&cs, w, counts.n_public, counts.n_aux)))
        return perr(err, err_len, st, "out of memory");
    cz_porep_synthesize(cs, p, in, pool, NULL);
    st = cz_cs_finish(cs, err, err_len);
    cz_cs_free(cs);
    return st;
}

cz_status cz_porep_witness_alloc(const cz_porep_params *p, const cz_porep_partition *in,
                                 cz_threadpool *pool, cz_fr **w, uint64_t *n_w, char *err,
                                 size_t err_len)
{
    *w = NULL;
    *n_w = 0;
    cz_porep_counts counts;
    cz_status st = cz_porep_counts_get(p, &counts, err, err_len);
    if (st)
        return st;
    uint64_t n = 1 + (uint64_t)counts.n_public + counts.n_aux;
    cz_fr *b = malloc(n * sizeof *b);
    if (!b)
        return perr(err, err_len, CZ_ERR_NOMEM, "out of memory (witness)");
    st = cz_porep_witness(p, in, pool, b, n, err, err_len);
    if (st) {
        cz_porep_witness_free(b, n);
        return st;
    }
    *w = b;
    *n_w = n;
    return CZ_OK;
}

void cz_porep_witness_free(cz_fr *w, uint64_t n_w)
{
    if (!w)
        return;
    cz_wipe(w, n_w * sizeof *w);
    free(w);
}

cz_status cz_porep_check(const cz_porep_params *p, const cz_porep_partition *in, char *err,
                         size_t err_len)
{
    cz_status st = cz_porep_params_check(p, err, err_len);
    if (st)
        return st;
    cz_cs *cs;
    if ((st = cz_cs_new_check(&cs, NULL, 0, 0)))
        return perr(err, err_len, st, "out of memory");
    cz_porep_synthesize(cs, p, in, NULL, NULL);
    st = cz_cs_finish(cs, err, err_len);
    cz_cs_free(cs);
    return st;
}

cz_status cz_shape_to_r1cs(const cz_shape *s, cz_r1cs **out, char *err, size_t err_len)
{
    *out = NULL;
    uint64_t nnz = s->m[0].nnz + s->m[1].nnz + s->m[2].nnz;
    uint64_t n_wires = 1 + (uint64_t)s->n_public + s->n_aux;
    if (n_wires > UINT32_MAX || s->n_constraints > UINT32_MAX)
        return perr(err, err_len, CZ_ERR_RANGE, "the circuit is too large for an .r1cs (2^32)");
    cz_r1cs *r = calloc(1, sizeof *r);
    if (!r)
        return perr(err, err_len, CZ_ERR_NOMEM, "out of memory");
    r->start = malloc((3 * (size_t)s->n_constraints + 1) * sizeof *r->start);
    r->terms = malloc((nnz ? nnz : 1) * sizeof *r->terms);
    if (!r->start || !r->terms) {
        cz_r1cs_free(r);
        return perr(err, err_len, CZ_ERR_NOMEM, "out of memory (r1cs terms)");
    }
    r->n_wires = (uint32_t)n_wires;
    r->n_pub_out = 0;
    r->n_pub_in = s->n_public;
    r->n_prv_in = 0;
    r->n_constraints = (uint32_t)s->n_constraints;
    r->n_labels = n_wires;
    uint64_t k = 0;
    for (uint64_t c = 0; c < s->n_constraints; c++)
        for (int m = 0; m < 3; m++) {
            const cz_shape_matrix *mx = &s->m[m];
            r->start[3 * c + (uint64_t)m] = k;
            for (uint64_t j = mx->row_ptr[c]; j < mx->row_ptr[c + 1]; j++) {
                r->terms[k].wire = mx->col[j];
                r->terms[k].coef = s->coefs[mx->coef[j]];
                k++;
            }
        }
    r->start[3 * s->n_constraints] = k;
    r->n_terms = k;
    *out = r;
    return CZ_OK;
}
