/*
 * c1.c: commit-1-like inputs of the PoRep-shaped circuit: generator,
 * writer, reader and validator (see c1.h; the format is documented in
 * docs/POREP_CIRCUIT.md).
 *
 * DESIGN. Values are kept as Fr (Montgomery) and written as 64 hex digits
 * of their 32 little-endian bytes (Filecoin's byte order of a domain
 * element). The sparse trees of the generator are sorted arrays of
 * (index, value) per level; an untouched node is filler(seed, tree, level,
 * index), a SHA-256 of those, masked to 254 bits. Validation runs the
 * native twins of the gadgets (gadgets.h), so an input that passes it
 * satisfies the circuit.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuit/c1.h"
#include "circuit/gadgets.h"
#include "field/field.h"
#include "io/binfile.h"
#include "util/rng.h"
#include "util/hex.h"

#define FORMAT_NAME "cuzk-porep-c1/1"

/* ---- layout of one c1's storage ---- */

static unsigned n_parents(const cz_porep_params *p) { return p->drg_parents + p->exp_parents; }

/* Fr values per challenge: d_path, r_path, then (1 + parents) columns of
   labels + path. */
static size_t frs_per_challenge(const cz_porep_params *p)
{
    size_t col = p->layers + 7 * (size_t)p->oct_depth;
    return p->tree_d_depth + 7 * (size_t)p->oct_depth + (1 + n_parents(p)) * col;
}

static cz_c1 *c1_new(const cz_porep_params *p, unsigned n_partitions)
{
    cz_c1 *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    size_t n = (size_t)n_partitions * p->challenges;
    size_t per = frs_per_challenge(p);
    c->params = p;
    c->n_partitions = n_partitions;
    c->ch = calloc(n, sizeof *c->ch);
    cz_fr *mem = calloc(n * per, sizeof(cz_fr));
    cz_porep_column *cols = calloc(n * (n_parents(p) ? n_parents(p) : 1), sizeof *cols);
    if (!c->ch || !mem || !cols) {
        free(c->ch);
        free(mem);
        free(cols);
        free(c);
        return NULL;
    }
    c->mem = mem;
    for (size_t i = 0; i < n; i++) {
        cz_porep_challenge *ch = &c->ch[i];
        cz_fr *m = mem + i * per;
        ch->d_path = m;
        m += p->tree_d_depth;
        ch->r_path = (cz_fr(*)[7])m;
        m += 7 * (size_t)p->oct_depth;
        ch->parents = cols + i * (n_parents(p) ? n_parents(p) : 1);
        for (unsigned j = 0; j <= n_parents(p); j++) {
            cz_porep_column *col = j == 0 ? &ch->c_x : &ch->parents[j - 1];
            col->labels = m;
            m += p->layers;
            col->path = (cz_fr(*)[7])m;
            m += 7 * (size_t)p->oct_depth;
        }
    }
    return c;
}

void cz_c1_free(cz_c1 *c)
{
    if (!c)
        return;
    if (c->ch) {
        free(c->ch[0].parents);
        size_t n = (size_t)c->n_partitions * c->params->challenges;
        cz_wipe(c->mem, n * frs_per_challenge(c->params) * sizeof(cz_fr));
    }
    free(c->mem);
    free(c->ch);
    free(c);
}

/* ---- native hashes ---- */

static void mask254(uint8_t b[32]) { b[31] &= 0x3f; }

static void fr_of_bytes254(cz_fr *out, uint8_t b[32])
{
    mask254(b);
    cz_fr_from_bytes_le(out, b); /* < 2^254 < r: cannot fail */
}

void cz_porep_label(cz_fr *out, const cz_porep_params *p, const cz_fr *replica_id,
                    unsigned layer, uint64_t node, const cz_fr *parent_labels, unsigned np)
{
    size_t len = 64 + 32 * (size_t)p->label_entries;
    uint8_t stackbuf[64 + 32 * 40];
    uint8_t *buf = len <= sizeof stackbuf ? stackbuf : malloc(len);
    if (!buf) {
        cz_fr_zero(out);
        return;
    }
    memset(buf, 0, 64);
    cz_fr_to_bytes_le(buf, replica_id);
    for (int i = 0; i < 4; i++)
        buf[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++)
        buf[36 + i] = (uint8_t)(node >> (56 - 8 * i));
    for (unsigned e = 0; e < p->label_entries; e++)
        cz_fr_to_bytes_le(buf + 64 + 32 * (size_t)e, &parent_labels[e % np]);
    uint8_t h[32];
    cz_sha256(h, buf, len);
    fr_of_bytes254(out, h);
    if (buf != stackbuf)
        free(buf);
}

/* tree_d node: sha256(left || right), masked. */
static void d_hash(cz_fr *out, const cz_fr *l, const cz_fr *r)
{
    uint8_t b[64], h[32];
    cz_fr_to_bytes_le(b, l);
    cz_fr_to_bytes_le(b + 32, r);
    cz_sha256(h, b, 64);
    fr_of_bytes254(out, h);
}

static void filler(cz_fr *out, uint64_t seed, char tree, unsigned level, uint64_t index)
{
    uint8_t b[8 + 8 + 1 + 4 + 8], h[32];
    memcpy(b, "cuzk-c1:", 8);
    for (int i = 0; i < 8; i++)
        b[8 + i] = (uint8_t)(seed >> (8 * i));
    b[16] = (uint8_t)tree;
    for (int i = 0; i < 4; i++)
        b[17 + i] = (uint8_t)(level >> (8 * i));
    for (int i = 0; i < 8; i++)
        b[21 + i] = (uint8_t)(index >> (8 * i));
    cz_sha256(h, b, sizeof b);
    fr_of_bytes254(out, h);
}

/* ---- sparse trees ---- */

typedef struct {
    uint64_t idx;
    cz_fr v;
} snode;

typedef struct {
    unsigned arity, depth;
    char tag;
    uint64_t seed;
    const cz_poseidon_params *pos; /* arity 8 */
    snode *lv[41];
    size_t n[41];
} sparse;

static int snode_cmp(const void *a, const void *b)
{
    uint64_t x = ((const snode *)a)->idx, y = ((const snode *)b)->idx;
    return x < y ? -1 : x > y;
}

static void sparse_get(const sparse *t, cz_fr *out, unsigned level, uint64_t idx)
{
    size_t lo = 0, hi = t->n[level];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t->lv[level][mid].idx < idx)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < t->n[level] && t->lv[level][lo].idx == idx)
        *out = t->lv[level][lo].v;
    else
        filler(out, t->seed, t->tag, level, idx);
}

static void sparse_free(sparse *t)
{
    for (unsigned k = 0; k <= t->depth; k++)
        free(t->lv[k]);
}

/* leaves: n entries (copied, sorted, deduplicated: equal indices must
   carry equal values). */
static bool sparse_build(sparse *t, const snode *leaves, size_t n)
{
    t->lv[0] = malloc((n ? n : 1) * sizeof(snode));
    if (!t->lv[0])
        return false;
    memcpy(t->lv[0], leaves, n * sizeof(snode));
    qsort(t->lv[0], n, sizeof(snode), snode_cmp);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!m || t->lv[0][m - 1].idx != t->lv[0][i].idx)
            t->lv[0][m++] = t->lv[0][i];
    t->n[0] = m;
    for (unsigned k = 0; k < t->depth; k++) {
        snode *up = malloc((t->n[k] ? t->n[k] : 1) * sizeof(snode));
        if (!up)
            return false;
        size_t u = 0;
        for (size_t i = 0; i < t->n[k]; i++) {
            uint64_t pi = t->lv[k][i].idx / t->arity;
            if (u && up[u - 1].idx == pi)
                continue;
            cz_fr ch[8];
            for (unsigned j = 0; j < t->arity; j++)
                sparse_get(t, &ch[j], k, pi * t->arity + j);
            up[u].idx = pi;
            if (t->arity == 2)
                d_hash(&up[u].v, &ch[0], &ch[1]);
            else
                cz_poseidon_hash(t->pos, &up[u].v, ch);
            u++;
        }
        t->lv[k + 1] = up;
        t->n[k + 1] = u;
    }
    return true;
}

static void sparse_root(const sparse *t, cz_fr *out) { sparse_get(t, out, t->depth, 0); }

/* Siblings of leaf idx: binary: one per level; oct: 7 per level. */
static void sparse_path_d(const sparse *t, cz_fr *out, uint64_t idx)
{
    for (unsigned k = 0; k < t->depth; k++, idx >>= 1)
        sparse_get(t, &out[k], k, idx ^ 1);
}

static void sparse_path_oct(const sparse *t, cz_fr (*out)[7], uint64_t idx)
{
    for (unsigned k = 0; k < t->depth; k++, idx >>= 3) {
        unsigned pos = (unsigned)(idx & 7), j = 0;
        for (unsigned i = 0; i < 8; i++)
            if (i != pos)
                sparse_get(t, &out[k][j++], k, (idx & ~(uint64_t)7) | i);
    }
}

/* ---- generator ---- */

static cz_status gfail(char *err, size_t err_len, cz_status st, const char *msg)
{
    if (err && err_len)
        snprintf(err, err_len, "%s", msg);
    return st;
}

static bool in_sorted(const uint64_t *a, size_t n, uint64_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (a[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && a[lo] == x;
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

cz_status cz_c1_generate(cz_c1 **out, const cz_porep_params *p, uint64_t seed, char *err,
                         size_t err_len)
{
    *out = NULL;
    cz_status st = cz_porep_params_check(p, err, err_len);
    if (st)
        return st;
    const cz_poseidon_params *p8 = cz_poseidon_params_get(8), *pL = cz_poseidon_params_get(p->layers),
                             *p2 = cz_poseidon_params_get(2);
    if (!p8 || !pL || !p2)
        return gfail(err, err_len, CZ_ERR_NOMEM, "out of memory (Poseidon parameters)");
    const unsigned L = p->layers, np = n_parents(p), nd = p->drg_parents;
    const uint64_t nodes = cz_porep_nodes(p);
    const size_t nch = (size_t)p->partitions * p->challenges;
    cz_c1 *c = c1_new(p, p->partitions);
    uint64_t *chal = malloc(nch * sizeof *chal), *sorted = malloc(nch * sizeof *sorted);
    snode *dl = malloc(nch * sizeof *dl), *rl = malloc(nch * sizeof *rl);
    snode *cl = malloc(nch * (1 + np) * sizeof *cl);
    cz_fr *plab = malloc((size_t)np * sizeof *plab);
    sparse td = {2, p->tree_d_depth, 'd', seed, NULL, {0}, {0}};
    sparse tc = {8, p->oct_depth, 'c', seed, p8, {0}, {0}};
    sparse tr = {8, p->oct_depth, 'r', seed, p8, {0}, {0}};
    if (!c || !chal || !sorted || !dl || !rl || !cl || !plab) {
        st = gfail(err, err_len, CZ_ERR_NOMEM, "out of memory");
        goto done;
    }
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    filler(&c->replica_id, seed, 'R', 0, 0);
    cz_rng_bytes(&rng, c->seed, 32);
    cz_rng_bytes(&rng, c->ticket, 32);
    /* distinct challenges in [1, nodes), as Filecoin never challenges node 0 */
    for (size_t i = 0; i < nch; i++) {
        uint64_t x;
        bool dup;
        do {
            x = 1 + cz_rng_u64(&rng) % (nodes - 1);
            dup = false;
            for (size_t j = 0; j < i; j++)
                dup |= chal[j] == x;
        } while (dup);
        chal[i] = sorted[i] = x;
    }
    qsort(sorted, nch, sizeof *sorted, u64_cmp);
    size_t ncl = 0;
    for (size_t i = 0; i < nch; i++) {
        cz_porep_challenge *ch = &c->ch[i];
        ch->challenge = chal[i];
        ch->c_x.node = chal[i];
        /* parents: never a challenged node, so their columns are free */
        for (unsigned j = 0; j < np; j++) {
            uint64_t x;
            do
                x = cz_rng_u64(&rng) % nodes;
            while (in_sorted(sorted, nch, x));
            cz_porep_column *col = &ch->parents[j];
            col->node = x;
            for (unsigned l = 0; l < L; l++)
                filler(&col->labels[l], seed, 'l', l, x);
            cl[ncl].idx = x;
            cz_poseidon_hash(pL, &cl[ncl].v, col->labels);
            ncl++;
        }
        /* the challenged column: labels from the parents' */
        for (unsigned layer = 1; layer <= L; layer++) {
            unsigned n = layer == 1 ? nd : np;
            for (unsigned j = 0; j < n; j++)
                plab[j] = ch->parents[j].labels[j < nd ? layer - 1 : layer - 2];
            cz_porep_label(&ch->c_x.labels[layer - 1], p, &c->replica_id, layer, chal[i], plab, n);
        }
        cl[ncl].idx = chal[i];
        cz_poseidon_hash(pL, &cl[ncl].v, ch->c_x.labels);
        ncl++;
        filler(&ch->data, seed, 'd', 0, chal[i]);
        cz_fr_add(&ch->replica, &ch->c_x.labels[L - 1], &ch->data);
        dl[i].idx = chal[i];
        dl[i].v = ch->data;
        rl[i].idx = chal[i];
        rl[i].v = ch->replica;
    }
    if (!sparse_build(&td, dl, nch) || !sparse_build(&tc, cl, ncl) || !sparse_build(&tr, rl, nch)) {
        st = gfail(err, err_len, CZ_ERR_NOMEM, "out of memory (sparse trees)");
        goto done;
    }
    sparse_root(&td, &c->comm_d);
    sparse_root(&tc, &c->comm_c);
    sparse_root(&tr, &c->comm_r_last);
    cz_fr two[2] = {c->comm_c, c->comm_r_last};
    cz_poseidon_hash(p2, &c->comm_r, two);
    for (size_t i = 0; i < nch; i++) {
        cz_porep_challenge *ch = &c->ch[i];
        sparse_path_d(&td, ch->d_path, ch->challenge);
        sparse_path_oct(&tr, ch->r_path, ch->challenge);
        sparse_path_oct(&tc, ch->c_x.path, ch->challenge);
        for (unsigned j = 0; j < np; j++)
            sparse_path_oct(&tc, ch->parents[j].path, ch->parents[j].node);
    }
    *out = c;
    c = NULL;
done:
    sparse_free(&td);
    sparse_free(&tc);
    sparse_free(&tr);
    cz_c1_free(c);
    free(chal);
    free(sorted);
    free(dl);
    free(rl);
    free(cl);
    free(plab);
    return st;
}

/* ---- JSON writer ---- */

static json_t *hex_of(const cz_fr *v)
{
    static const char d[] = "0123456789abcdef";
    uint8_t b[32];
    char s[65];
    cz_fr_to_bytes_le(b, v);
    for (int i = 0; i < 32; i++) {
        s[2 * i] = d[b[i] >> 4];
        s[2 * i + 1] = d[b[i] & 15];
    }
    s[64] = 0;
    return json_string(s);
}

static json_t *hex_bytes(const uint8_t b[32])
{
    static const char d[] = "0123456789abcdef";
    char s[65];
    for (int i = 0; i < 32; i++) {
        s[2 * i] = d[b[i] >> 4];
        s[2 * i + 1] = d[b[i] & 15];
    }
    s[64] = 0;
    return json_string(s);
}

static json_t *oct_path_json(const cz_fr (*path)[7], unsigned depth)
{
    json_t *a = json_array();
    for (unsigned k = 0; k < depth; k++) {
        json_t *lv = json_array();
        for (unsigned j = 0; j < 7; j++)
            json_array_append_new(lv, hex_of(&path[k][j]));
        json_array_append_new(a, lv);
    }
    return a;
}

static json_t *column_json(const cz_porep_params *p, const cz_porep_column *col, const cz_fr *root)
{
    const cz_poseidon_params *pL = cz_poseidon_params_get(p->layers);
    json_t *labels = json_array();
    for (unsigned l = 0; l < p->layers; l++)
        json_array_append_new(labels, hex_of(&col->labels[l]));
    cz_fr leaf;
    cz_poseidon_hash(pL, &leaf, col->labels);
    return json_pack("{s:I,s:o,s:{s:o,s:o,s:o}}", "index", (json_int_t)col->node, "column", labels,
                     "inclusion_proof", "root", hex_of(root), "leaf", hex_of(&leaf), "path",
                     oct_path_json((const cz_fr(*)[7])col->path, p->oct_depth));
}

static json_t *challenge_json(const cz_c1 *c, const cz_porep_challenge *ch)
{
    const cz_porep_params *p = c->params;
    const unsigned nd = p->drg_parents, ne = p->exp_parents;
    json_t *dpath = json_array();
    for (unsigned k = 0; k < p->tree_d_depth; k++)
        json_array_append_new(dpath, hex_of(&ch->d_path[k]));
    json_t *drg = json_array(), *exp = json_array();
    for (unsigned j = 0; j < nd + ne; j++)
        json_array_append_new(j < nd ? drg : exp, column_json(p, &ch->parents[j], &c->comm_c));
    json_t *labeling = json_array();
    for (unsigned layer = 1; layer <= p->layers; layer++) {
        json_t *par = json_array();
        unsigned n = layer == 1 ? nd : nd + ne;
        for (unsigned j = 0; j < n; j++)
            json_array_append_new(par, hex_of(&ch->parents[j].labels[j < nd ? layer - 1 : layer - 2]));
        json_array_append_new(labeling, json_pack("{s:i,s:I,s:o}", "layer_index", (int)layer, "node",
                                                  (json_int_t)ch->challenge, "parents", par));
    }
    return json_pack(
        "{s:I,s:{s:o,s:o,s:o},s:{s:o,s:o,s:o},s:{s:o,s:o,s:o},s:o,s:{s:I,s:o,s:o,s:o}}",
        "challenge", (json_int_t)ch->challenge,
        "comm_d_proofs", "root", hex_of(&c->comm_d), "leaf", hex_of(&ch->data), "path", dpath,
        "comm_r_last_proof", "root", hex_of(&c->comm_r_last), "leaf", hex_of(&ch->replica), "path",
        oct_path_json((const cz_fr(*)[7])ch->r_path, p->oct_depth),
        "replica_column_proofs", "c_x", column_json(p, &ch->c_x, &c->comm_c), "drg_parents", drg,
        "exp_parents", exp,
        "labeling_proofs", labeling,
        "encoding_proof", "node", (json_int_t)ch->challenge, "key", hex_of(&ch->c_x.labels[p->layers - 1]),
        "data", hex_of(&ch->data), "encoded", hex_of(&ch->replica));
}

cz_status cz_c1_write(const cz_c1 *c, const char *path, char *err, size_t err_len)
{
    const cz_porep_params *p = c->params;
    json_t *parts = json_array();
    for (unsigned k = 0; k < c->n_partitions; k++) {
        json_t *a = json_array();
        for (unsigned j = 0; j < p->challenges; j++)
            json_array_append_new(a, challenge_json(c, &c->ch[(size_t)k * p->challenges + j]));
        json_array_append_new(parts, a);
    }
    json_t *o = json_pack("{s:s,s:s,s:o,s:o,s:o,s:o,s:o,s:o}", "format", FORMAT_NAME,
                          "registered_proof", p->name, "comm_r", hex_of(&c->comm_r), "comm_d",
                          hex_of(&c->comm_d), "replica_id", hex_of(&c->replica_id), "seed",
                          hex_bytes(c->seed), "ticket", hex_bytes(c->ticket), "vanilla_proofs",
                          parts);
    if (!o)
        return gfail(err, err_len, CZ_ERR_NOMEM, "out of memory (JSON)");
    int rc = json_dump_file(o, path, JSON_PRESERVE_ORDER | JSON_COMPACT);
    json_decref(o);
    if (rc)
        return cz_io_fail(CZ_ERR_IO, err, err_len, path, "cannot write the file");
    return CZ_OK;
}

/* ---- reader ---- */

typedef struct {
    const char *name;
    char *err;
    size_t err_len;
    int part, chal;    /* -1: not inside one */
    char field[160];
} rd;

static cz_status rfail(rd *r, cz_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static cz_status rfail(rd *r, cz_status st, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (r->err && r->err_len) {
        if (r->part >= 0 && r->chal >= 0)
            snprintf(r->err, r->err_len, "%s: partition %d, challenge %d: %s: %s", r->name, r->part,
                     r->chal, r->field, what);
        else if (r->part >= 0)
            snprintf(r->err, r->err_len, "%s: partition %d: %s: %s", r->name, r->part, r->field,
                     what);
        else
            snprintf(r->err, r->err_len, "%s: %s: %s", r->name, r->field, what);
    }
    return st;
}

static void setf(rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void setf(rd *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->field, sizeof r->field, fmt, ap);
    va_end(ap);
}

/* 64 hex digits -> 32 bytes. */
static cz_status get_bytes(rd *r, uint8_t out[32], json_t *v)
{
    if (!json_is_string(v))
        return rfail(r, CZ_ERR_FORMAT, v ? "not a string" : "missing");
    const char *s = json_string_value(v);
    size_t n = json_string_length(v);
    if (n != 64)
        return rfail(r, CZ_ERR_FORMAT, "%zu hex digits, not 64 (32 bytes)", n);
    for (int i = 0; i < 32; i++) {
        int hi = cz_hex_digit(s[2 * i]), lo = cz_hex_digit(s[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return rfail(r, CZ_ERR_FORMAT, "bad hex digit at %d", hi < 0 ? 2 * i : 2 * i + 1);
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return CZ_OK;
}

/* A field element (< r); bits254: also < 2^254 (values the circuit
   decomposes into 254 bits). */
static cz_status get_fr(rd *r, cz_fr *out, json_t *v, bool bits254)
{
    uint8_t b[32];
    cz_status st = get_bytes(r, b, v);
    if (st)
        return st;
    if (bits254 && (b[31] & 0xc0))
        return rfail(r, CZ_ERR_RANGE, "not below 2^254 (a 254-bit node)");
    if (!cz_fr_from_bytes_le(out, b))
        return rfail(r, CZ_ERR_RANGE, "not below the field modulus r");
    return CZ_OK;
}

static cz_status get_array(rd *r, json_t **out, json_t *v, size_t n)
{
    if (!json_is_array(v))
        return rfail(r, CZ_ERR_FORMAT, v ? "not an array" : "missing");
    if (json_array_size(v) != n)
        return rfail(r, CZ_ERR_FORMAT, "%zu entries, not %zu", json_array_size(v), n);
    *out = v;
    return CZ_OK;
}

static cz_status get_index(rd *r, uint64_t *out, json_t *v, uint64_t nodes)
{
    if (!json_is_integer(v))
        return rfail(r, CZ_ERR_FORMAT, v ? "not an integer" : "missing");
    json_int_t x = json_integer_value(v);
    if (x < 0 || (uint64_t)x >= nodes)
        return rfail(r, CZ_ERR_RANGE, "node %lld is outside the sector's %llu nodes", (long long)x,
                     (unsigned long long)nodes);
    *out = (uint64_t)x;
    return CZ_OK;
}

static cz_status get_oct_path(rd *r, cz_fr (*path)[7], json_t *v, unsigned depth, const char *base)
{
    json_t *a = NULL, *lv = NULL;
    setf(r, "%s", base);
    cz_status st = get_array(r, &a, v, depth);
    for (unsigned k = 0; !st && k < depth; k++) {
        setf(r, "%s[%u]", base, k);
        st = get_array(r, &lv, json_array_get(a, k), 7);
        for (unsigned j = 0; !st && j < 7; j++) {
            setf(r, "%s[%u][%u]", base, k, j);
            st = get_fr(r, &path[k][j], json_array_get(lv, j), false);
        }
    }
    return st;
}

/* Extra values the validator compares, kept per challenge while parsing. */
typedef struct {
    cz_fr d_root, r_root;
    cz_fr *col_root, *col_leaf;  /* 1 + parents */
    cz_fr *lab_parents;          /* layers * parents (layer 1: drg only) */
    uint64_t *lab_node, *lab_layer;
    uint64_t enc_node;
    cz_fr enc_key, enc_data;
} extra;

static cz_status get_column(rd *r, cz_porep_column *col, cz_fr *root, cz_fr *leaf, json_t *v,
                            const cz_porep_params *p, const char *base)
{
    char b[96];
    setf(r, "%s", base);
    if (!json_is_object(v))
        return rfail(r, CZ_ERR_FORMAT, v ? "not an object" : "missing");
    setf(r, "%s.index", base);
    cz_status st = get_index(r, &col->node, json_object_get(v, "index"), cz_porep_nodes(p));
    json_t *a = NULL;
    if (!st) {
        setf(r, "%s.column", base);
        st = get_array(r, &a, json_object_get(v, "column"), p->layers);
    }
    for (unsigned l = 0; !st && l < p->layers; l++) {
        setf(r, "%s.column[%u]", base, l);
        st = get_fr(r, &col->labels[l], json_array_get(a, l), true);
    }
    json_t *ip = json_object_get(v, "inclusion_proof");
    if (!st && !json_is_object(ip)) {
        setf(r, "%s.inclusion_proof", base);
        st = rfail(r, CZ_ERR_FORMAT, ip ? "not an object" : "missing");
    }
    if (!st) {
        setf(r, "%s.inclusion_proof.root", base);
        st = get_fr(r, root, json_object_get(ip, "root"), false);
    }
    if (!st) {
        setf(r, "%s.inclusion_proof.leaf", base);
        st = get_fr(r, leaf, json_object_get(ip, "leaf"), false);
    }
    if (!st) {
        snprintf(b, sizeof b, "%s.inclusion_proof.path", base);
        st = get_oct_path(r, col->path, json_object_get(ip, "path"), p->oct_depth, b);
    }
    return st;
}

static cz_status get_challenge(rd *r, cz_porep_challenge *ch, extra *x, json_t *v,
                               const cz_porep_params *p)
{
    const uint64_t nodes = cz_porep_nodes(p);
    const unsigned nd = p->drg_parents, ne = p->exp_parents, L = p->layers;
    json_t *o, *a = NULL;
    cz_status st;
    setf(r, "(challenge object)");
    if (!json_is_object(v))
        return rfail(r, CZ_ERR_FORMAT, "not an object");
    setf(r, "challenge");
    if ((st = get_index(r, &ch->challenge, json_object_get(v, "challenge"), nodes)))
        return st;
    /* comm_d_proofs */
    o = json_object_get(v, "comm_d_proofs");
    setf(r, "comm_d_proofs");
    if (!json_is_object(o))
        return rfail(r, CZ_ERR_FORMAT, o ? "not an object" : "missing");
    setf(r, "comm_d_proofs.root");
    if ((st = get_fr(r, &x->d_root, json_object_get(o, "root"), true)))
        return st;
    setf(r, "comm_d_proofs.leaf");
    if ((st = get_fr(r, &ch->data, json_object_get(o, "leaf"), true)))
        return st;
    setf(r, "comm_d_proofs.path");
    if ((st = get_array(r, &a, json_object_get(o, "path"), p->tree_d_depth)))
        return st;
    for (unsigned k = 0; k < p->tree_d_depth; k++) {
        setf(r, "comm_d_proofs.path[%u]", k);
        if ((st = get_fr(r, &ch->d_path[k], json_array_get(a, k), true)))
            return st;
    }
    /* comm_r_last_proof */
    o = json_object_get(v, "comm_r_last_proof");
    setf(r, "comm_r_last_proof");
    if (!json_is_object(o))
        return rfail(r, CZ_ERR_FORMAT, o ? "not an object" : "missing");
    setf(r, "comm_r_last_proof.root");
    if ((st = get_fr(r, &x->r_root, json_object_get(o, "root"), false)))
        return st;
    setf(r, "comm_r_last_proof.leaf");
    if ((st = get_fr(r, &ch->replica, json_object_get(o, "leaf"), false)))
        return st;
    if ((st = get_oct_path(r, ch->r_path, json_object_get(o, "path"), p->oct_depth,
                           "comm_r_last_proof.path")))
        return st;
    /* replica_column_proofs */
    o = json_object_get(v, "replica_column_proofs");
    setf(r, "replica_column_proofs");
    if (!json_is_object(o))
        return rfail(r, CZ_ERR_FORMAT, o ? "not an object" : "missing");
    if ((st = get_column(r, &ch->c_x, &x->col_root[0], &x->col_leaf[0], json_object_get(o, "c_x"),
                         p, "replica_column_proofs.c_x")))
        return st;
    for (int kind = 0; kind < 2; kind++) {
        const char *nm = kind ? "exp_parents" : "drg_parents";
        unsigned n = kind ? ne : nd, off = kind ? nd : 0;
        setf(r, "replica_column_proofs.%s", nm);
        if ((st = get_array(r, &a, json_object_get(o, nm), n)))
            return st;
        for (unsigned j = 0; j < n; j++) {
            char b[64];
            snprintf(b, sizeof b, "replica_column_proofs.%s[%u]", nm, j);
            if ((st = get_column(r, &ch->parents[off + j], &x->col_root[1 + off + j],
                                 &x->col_leaf[1 + off + j], json_array_get(a, j), p, b)))
                return st;
        }
    }
    /* labeling_proofs */
    setf(r, "labeling_proofs");
    if ((st = get_array(r, &a, json_object_get(v, "labeling_proofs"), L)))
        return st;
    for (unsigned l = 0; l < L; l++) {
        json_t *lp = json_array_get(a, l), *pa;
        setf(r, "labeling_proofs[%u]", l);
        if (!json_is_object(lp))
            return rfail(r, CZ_ERR_FORMAT, "not an object");
        setf(r, "labeling_proofs[%u].layer_index", l);
        if ((st = get_index(r, &x->lab_layer[l], json_object_get(lp, "layer_index"), 1u << 30)))
            return st;
        setf(r, "labeling_proofs[%u].node", l);
        if ((st = get_index(r, &x->lab_node[l], json_object_get(lp, "node"), nodes)))
            return st;
        unsigned n = l == 0 ? nd : nd + ne;
        setf(r, "labeling_proofs[%u].parents", l);
        if ((st = get_array(r, &pa, json_object_get(lp, "parents"), n)))
            return st;
        for (unsigned j = 0; j < n; j++) {
            setf(r, "labeling_proofs[%u].parents[%u]", l, j);
            if ((st = get_fr(r, &x->lab_parents[(size_t)l * (nd + ne) + j], json_array_get(pa, j), true)))
                return st;
        }
    }
    /* encoding_proof */
    o = json_object_get(v, "encoding_proof");
    setf(r, "encoding_proof");
    if (!json_is_object(o))
        return rfail(r, CZ_ERR_FORMAT, o ? "not an object" : "missing");
    setf(r, "encoding_proof.node");
    if ((st = get_index(r, &x->enc_node, json_object_get(o, "node"), nodes)))
        return st;
    setf(r, "encoding_proof.key");
    if ((st = get_fr(r, &x->enc_key, json_object_get(o, "key"), false)))
        return st;
    setf(r, "encoding_proof.data");
    if ((st = get_fr(r, &x->enc_data, json_object_get(o, "data"), false)))
        return st;
    cz_fr enc;
    setf(r, "encoding_proof.encoded");
    if ((st = get_fr(r, &enc, json_object_get(o, "encoded"), false)))
        return st;
    if (!cz_fr_eq(&enc, &ch->replica))
        return rfail(r, CZ_ERR_WITNESS, "differs from comm_r_last_proof.leaf");
    return CZ_OK;
}

/* Root of an oct path (index bits little-endian, 3 per level). */
static void oct_root(cz_fr *root, const cz_fr *leaf, const cz_fr (*path)[7], uint64_t index,
                     unsigned depth)
{
    uint8_t bits[3 * 14];
    for (unsigned i = 0; i < 3 * depth; i++)
        bits[i] = (uint8_t)((index >> i) & 1);
    cz_merkle_poseidon8_root(root, leaf, path, bits, depth);
}

/* The checks that need hashes, in circuit order, for one challenge. */
static cz_status check_challenge(rd *r, const cz_c1 *c, const cz_porep_challenge *ch,
                                 const extra *x)
{
    const cz_porep_params *p = c->params;
    const unsigned nd = p->drg_parents, ne = p->exp_parents, L = p->layers, np = nd + ne;
    const cz_poseidon_params *pL = cz_poseidon_params_get(L);
    cz_fr got;
    /* tree_d */
    setf(r, "comm_d_proofs.root");
    if (!cz_fr_eq(&x->d_root, &c->comm_d))
        return rfail(r, CZ_ERR_WITNESS, "differs from comm_d");
    {
        uint8_t leaf[32], (*sib)[32] = malloc((size_t)p->tree_d_depth * 32), bits[64], root[32];
        if (!sib)
            return rfail(r, CZ_ERR_NOMEM, "out of memory");
        cz_fr_to_bytes_le(leaf, &ch->data);
        for (unsigned k = 0; k < p->tree_d_depth; k++) {
            cz_fr_to_bytes_le(sib[k], &ch->d_path[k]);
            bits[k] = (uint8_t)((ch->challenge >> k) & 1);
        }
        cz_merkle_sha256_root(root, leaf, (const uint8_t(*)[32])sib, bits, p->tree_d_depth);
        free(sib);
        uint8_t want[32];
        cz_fr_to_bytes_le(want, &c->comm_d);
        setf(r, "comm_d_proofs.path");
        if (memcmp(root, want, 32))
            return rfail(r, CZ_ERR_WITNESS, "does not reach the root comm_d (a wrong sibling or leaf)");
    }
    /* columns: leaf = column hash, path reaches comm_c */
    for (unsigned j = 0; j <= np; j++) {
        const cz_porep_column *col = j == 0 ? &ch->c_x : &ch->parents[j - 1];
        char base[64];
        if (j == 0)
            snprintf(base, sizeof base, "replica_column_proofs.c_x");
        else if (j <= nd)
            snprintf(base, sizeof base, "replica_column_proofs.drg_parents[%u]", j - 1);
        else
            snprintf(base, sizeof base, "replica_column_proofs.exp_parents[%u]", j - 1 - nd);
        if (j == 0 && col->node != ch->challenge) {
            setf(r, "%s.index", base);
            return rfail(r, CZ_ERR_WITNESS, "is not the challenge");
        }
        setf(r, "%s.inclusion_proof.root", base);
        if (!cz_fr_eq(&x->col_root[j], &c->comm_c))
            return rfail(r, CZ_ERR_WITNESS, "differs from the other proofs' comm_c");
        if (j > 0) { /* the challenged column's labels are checked below */
            cz_poseidon_hash(pL, &got, col->labels);
            setf(r, "%s.column", base);
            if (!cz_fr_eq(&got, &x->col_leaf[j]))
                return rfail(r, CZ_ERR_WITNESS, "does not hash to inclusion_proof.leaf");
        }
        oct_root(&got, &x->col_leaf[j], (const cz_fr(*)[7])col->path, col->node, p->oct_depth);
        setf(r, "%s.inclusion_proof.path", base);
        if (!cz_fr_eq(&got, &c->comm_c))
            return rfail(r, CZ_ERR_WITNESS, "does not reach the root comm_c (a wrong sibling or leaf)");
    }
    /* labels */
    cz_fr plab[128];
    for (unsigned l = 0; l < L; l++) {
        unsigned n = l == 0 ? nd : np;
        setf(r, "labeling_proofs[%u].layer_index", l);
        if (x->lab_layer[l] != l + 1)
            return rfail(r, CZ_ERR_WITNESS, "is %llu, not %u", (unsigned long long)x->lab_layer[l], l + 1);
        setf(r, "labeling_proofs[%u].node", l);
        if (x->lab_node[l] != ch->challenge)
            return rfail(r, CZ_ERR_WITNESS, "is not the challenge");
        for (unsigned j = 0; j < n; j++) {
            plab[j] = ch->parents[j].labels[j < nd ? l : l - 1];
            setf(r, "labeling_proofs[%u].parents[%u]", l, j);
            if (!cz_fr_eq(&plab[j], &x->lab_parents[(size_t)l * np + j]))
                return rfail(r, CZ_ERR_WITNESS, "differs from the parent's column");
        }
        cz_porep_label(&got, p, &c->replica_id, l + 1, ch->challenge, plab, n);
        setf(r, "replica_column_proofs.c_x.column[%u]", l);
        if (!cz_fr_eq(&got, &ch->c_x.labels[l]))
            return rfail(r, CZ_ERR_WITNESS,
                         "the label of layer %u does not hash: SHA-256 of its parents' labels differs",
                         l + 1);
    }
    cz_poseidon_hash(pL, &got, ch->c_x.labels);
    setf(r, "replica_column_proofs.c_x.column");
    if (!cz_fr_eq(&got, &x->col_leaf[0]))
        return rfail(r, CZ_ERR_WITNESS, "does not hash to inclusion_proof.leaf");
    /* encoding */
    setf(r, "encoding_proof.node");
    if (x->enc_node != ch->challenge)
        return rfail(r, CZ_ERR_WITNESS, "is not the challenge");
    setf(r, "encoding_proof.key");
    if (!cz_fr_eq(&x->enc_key, &ch->c_x.labels[L - 1]))
        return rfail(r, CZ_ERR_WITNESS, "is not the last layer's label");
    setf(r, "encoding_proof.data");
    if (!cz_fr_eq(&x->enc_data, &ch->data))
        return rfail(r, CZ_ERR_WITNESS, "is not comm_d_proofs.leaf");
    cz_fr_add(&got, &ch->c_x.labels[L - 1], &ch->data);
    setf(r, "encoding_proof.encoded");
    if (!cz_fr_eq(&got, &ch->replica))
        return rfail(r, CZ_ERR_WITNESS, "is not key + data");
    /* tree_r */
    setf(r, "comm_r_last_proof.root");
    if (!cz_fr_eq(&x->r_root, &c->comm_r_last))
        return rfail(r, CZ_ERR_WITNESS, "differs from the other proofs' comm_r_last");
    oct_root(&got, &ch->replica, (const cz_fr(*)[7])ch->r_path, ch->challenge, p->oct_depth);
    setf(r, "comm_r_last_proof.path");
    if (!cz_fr_eq(&got, &c->comm_r_last))
        return rfail(r, CZ_ERR_WITNESS, "does not reach the root comm_r_last (a wrong sibling or leaf)");
    return CZ_OK;
}

static extra *extras_new(const cz_porep_params *p, size_t n)
{
    unsigned np = n_parents(p);
    extra *x = calloc(n, sizeof *x);
    cz_fr *f = calloc(n * (2 * (size_t)(1 + np) + (size_t)p->layers * np + 1), sizeof *f);
    uint64_t *u = calloc(n * 2 * (size_t)p->layers, sizeof *u);
    if (!x || !f || !u) {
        free(x);
        free(f);
        free(u);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        x[i].col_root = f;
        f += 1 + np;
        x[i].col_leaf = f;
        f += 1 + np;
        x[i].lab_parents = f;
        f += (size_t)p->layers * np + 1;
        x[i].lab_node = u;
        u += p->layers;
        x[i].lab_layer = u;
        u += p->layers;
    }
    return x;
}

static void extras_free(extra *x)
{
    if (x) {
        free(x[0].col_root);
        free(x[0].lab_node);
    }
    free(x);
}

static cz_status validate(rd *r, const cz_c1 *c, const extra *x, int partition)
{
    const cz_porep_params *p = c->params;
    cz_fr got, two[2] = {c->comm_c, c->comm_r_last};
    cz_poseidon_hash(cz_poseidon_params_get(2), &got, two);
    r->part = r->chal = -1;
    setf(r, "comm_r");
    if (!cz_fr_eq(&got, &c->comm_r))
        return rfail(r, CZ_ERR_WITNESS, "is not Poseidon-2(comm_c, comm_r_last) of the proofs' roots");
    for (unsigned k = 0; k < c->n_partitions; k++) {
        if (partition >= 0 && (unsigned)partition != k)
            continue;
        for (unsigned j = 0; j < p->challenges; j++) {
            size_t i = (size_t)k * p->challenges + j;
            r->part = (int)k;
            r->chal = (int)j;
            cz_status st = check_challenge(r, c, &c->ch[i], &x[i]);
            if (st)
                return st;
        }
    }
    return CZ_OK;
}

cz_status cz_c1_validate(const cz_c1 *c, int partition, const char *name, char *err,
                         size_t err_len)
{
    /* rebuild the extras from the parsed values (what the writer would write) */
    const cz_porep_params *p = c->params;
    size_t n = (size_t)c->n_partitions * p->challenges;
    unsigned np = n_parents(p), nd = p->drg_parents;
    extra *x = extras_new(p, n);
    if (!x)
        return gfail(err, err_len, CZ_ERR_NOMEM, "out of memory");
    const cz_poseidon_params *pL = cz_poseidon_params_get(p->layers);
    for (size_t i = 0; i < n; i++) {
        const cz_porep_challenge *ch = &c->ch[i];
        x[i].d_root = c->comm_d;
        x[i].r_root = c->comm_r_last;
        for (unsigned j = 0; j <= np; j++) {
            x[i].col_root[j] = c->comm_c;
            cz_poseidon_hash(pL, &x[i].col_leaf[j], j ? ch->parents[j - 1].labels : ch->c_x.labels);
        }
        for (unsigned l = 0; l < p->layers; l++) {
            x[i].lab_layer[l] = l + 1;
            x[i].lab_node[l] = ch->challenge;
            for (unsigned j = 0; j < (l ? np : nd); j++)
                x[i].lab_parents[(size_t)l * np + j] = ch->parents[j].labels[j < nd ? l : l - 1];
        }
        x[i].enc_node = ch->challenge;
        x[i].enc_key = ch->c_x.labels[p->layers - 1];
        x[i].enc_data = ch->data;
    }
    rd r = {name ? name : "c1", err, err_len, -1, -1, ""};
    cz_status st = validate(&r, c, x, partition);
    extras_free(x);
    return st;
}

cz_status cz_c1_parse(cz_c1 **out, const char *text, size_t len, const char *name,
                      const cz_porep_params *expect, int partition, char *err,
                      size_t err_len)
{
    *out = NULL;
    rd r = {name ? name : "c1", err, err_len, -1, -1, ""};
    json_error_t je;
    json_t *doc = json_loadb(text, len, 0, &je);
    if (!doc) {
        setf(&r, "JSON");
        return rfail(&r, CZ_ERR_FORMAT, "line %d: %s", je.line, je.text);
    }
    cz_status st = CZ_OK;
    cz_c1 *c = NULL;
    extra *x = NULL;
    json_t *v;
    const cz_porep_params *p = NULL;
    if (!json_is_object(doc)) {
        setf(&r, "(top level)");
        st = rfail(&r, CZ_ERR_FORMAT, "not a JSON object");
        goto out;
    }
    v = json_object_get(doc, "format");
    setf(&r, "format");
    if (!json_is_string(v) || strcmp(json_string_value(v), FORMAT_NAME)) {
        st = rfail(&r, CZ_ERR_FORMAT, "missing or not \"" FORMAT_NAME "\"");
        goto out;
    }
    v = json_object_get(doc, "registered_proof");
    setf(&r, "registered_proof");
    if (!json_is_string(v)) {
        st = rfail(&r, CZ_ERR_FORMAT, v ? "not a string" : "missing");
        goto out;
    }
    p = cz_porep_preset(json_string_value(v));
    if (!p) {
        st = rfail(&r, CZ_ERR_FORMAT, "\"%s\" is not a known preset", json_string_value(v));
        goto out;
    }
    if (expect && strcmp(expect->name, p->name)) {
        st = rfail(&r, CZ_ERR_WITNESS, "the file is for %s, not %s", p->name, expect->name);
        goto out;
    }
    json_t *parts = NULL;
    setf(&r, "vanilla_proofs");
    if ((st = get_array(&r, &parts, json_object_get(doc, "vanilla_proofs"), p->partitions)))
        goto out;
    if (partition >= 0 && (unsigned)partition >= p->partitions) {
        setf(&r, "--partition");
        st = rfail(&r, CZ_ERR_ARG, "partition %d does not exist (%s has %u)", partition, p->name,
                   p->partitions);
        goto out;
    }
    c = c1_new(p, p->partitions);
    x = c ? extras_new(p, (size_t)p->partitions * p->challenges) : NULL;
    if (!c || !x) {
        setf(&r, "(file)");
        st = rfail(&r, CZ_ERR_NOMEM, "out of memory");
        goto out;
    }
    static const char *const top[] = {"replica_id", "comm_d", "comm_r"};
    cz_fr *topv[] = {&c->replica_id, &c->comm_d, &c->comm_r};
    for (int i = 0; i < 3; i++) {
        setf(&r, "%s", top[i]);
        if ((st = get_fr(&r, topv[i], json_object_get(doc, top[i]), i < 2)))
            goto out;
    }
    setf(&r, "seed");
    if ((st = get_bytes(&r, c->seed, json_object_get(doc, "seed"))))
        goto out;
    setf(&r, "ticket");
    if ((st = get_bytes(&r, c->ticket, json_object_get(doc, "ticket"))))
        goto out;
    for (unsigned k = 0; k < p->partitions; k++) {
        json_t *a = NULL;
        r.part = (int)k;
        r.chal = -1;
        setf(&r, "vanilla_proofs[%u]", k);
        if ((st = get_array(&r, &a, json_array_get(parts, k), p->challenges)))
            goto out;
        for (unsigned j = 0; j < p->challenges; j++) {
            size_t i = (size_t)k * p->challenges + j;
            r.chal = (int)j;
            if ((st = get_challenge(&r, &c->ch[i], &x[i], json_array_get(a, j), p)))
                goto out;
        }
    }
    /* the roots every proof carries: comm_c and comm_r_last from the first */
    c->comm_c = x[0].col_root[0];
    c->comm_r_last = x[0].r_root;
    if (partition != CZ_C1_PARSE_ONLY)
        st = validate(&r, c, x, partition);
out:
    json_decref(doc);
    extras_free(x);
    if (st)
        cz_c1_free(c);
    else
        *out = c;
    return st;
}

cz_status cz_c1_load(cz_c1 **out, const char *path, const cz_porep_params *expect,
                     int partition, char *err, size_t err_len)
{
    *out = NULL;
    cz_blob b;
    cz_status st = cz_blob_map(&b, path, err, err_len);
    if (st)
        return st;
    st = cz_c1_parse(out, (const char *)b.data, b.len, path, expect, partition, err, err_len);
    cz_blob_release(&b);
    return st;
}

cz_status cz_c1_partition(const cz_c1 *c, unsigned k, cz_porep_partition *out, char *err,
                          size_t err_len)
{
    if (k >= c->n_partitions) {
        if (err && err_len)
            snprintf(err, err_len, "partition %u does not exist (%s has %u)", k, c->params->name,
                     c->n_partitions);
        return CZ_ERR_ARG;
    }
    out->replica_id = c->replica_id;
    out->comm_d = c->comm_d;
    out->comm_r = c->comm_r;
    out->comm_c = c->comm_c;
    out->comm_r_last = c->comm_r_last;
    out->ch = &c->ch[(size_t)k * c->params->challenges];
    return CZ_OK;
}

/* ---- the boolean share of a witness ---- */

static cz_status bool_counts(const cz_porep_params *p, cz_threadpool *pool, uint64_t *bools,
                             uint64_t *aux, char *err, size_t err_len)
{
    cz_c1 *c1;
    cz_status st = cz_c1_generate(&c1, p, 1, err, err_len);
    if (st)
        return st;
    cz_porep_partition in;
    cz_fr *w = NULL;
    uint64_t n = 0;
    st = cz_c1_partition(c1, 0, &in, err, err_len);
    if (!st)
        st = cz_porep_witness_alloc(p, &in, pool, &w, &n, err, err_len);
    if (!st) {
        uint64_t first = 1 + (uint64_t)cz_porep_num_public(p), b = 0;
        for (uint64_t i = first; i < n; i++)
            b += cz_fr_is_zero(&w[i]) || cz_fr_is_one(&w[i]);
        *bools = b;
        *aux = n - first;
    }
    cz_porep_witness_free(w, n);
    cz_c1_free(c1);
    return st;
}

cz_status cz_porep_boolean_share(const cz_porep_params *p, cz_threadpool *pool, double *pct,
                                 char *err, size_t err_len)
{
    uint64_t b[2], a[2];
    for (unsigned k = 0; k < 2; k++) {
        cz_porep_params q = *p;
        q.challenges = k + 1;
        q.partitions = 1;
        cz_status st = bool_counts(&q, pool, &b[k], &a[k], err, err_len);
        if (st)
            return st;
    }
    uint64_t bch = b[1] - b[0], ach = a[1] - a[0];
    double tb = (double)(b[0] - bch) + (double)p->challenges * (double)bch;
    double ta = (double)(a[0] - ach) + (double)p->challenges * (double)ach;
    *pct = 100.0 * tb / ta;
    return CZ_OK;
}
