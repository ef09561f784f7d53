/*
 * api.c: the public prover API (include/cuzk/prover.h) over the internal
 * layers: key loading, witness parsing, the backend-driven prover, the
 * self-check and the JSON writers. The curve is the key's: a snarkjs bn128
 * key (told by its header, cz_zkey_bytes_are_bn254) makes a BN254 prover
 * (groth16_bn254.h) on the device the options name, as for BLS12-381 keys:
 * on the GPU through the backend's prove_bn254 (the key resident from the
 * first proof), a device fault proved again on the CPU with a warning.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/prover.h"
#include "backend/cuda.h"
#include "groth16/groth16.h"
#include "groth16/groth16_bn254.h"
#include "groth16/native.h"
#include "groth16/verify_bn254.h"
#include "io/binfile.h"
#include "io/json.h"
#include "util/log.h"

struct cz_prover {
    cz_prover_opts opts;
    cz_zkey *key;
    cz_vk *vk;
    cz_backend *be;
    /* a BN254 (bn128) key instead: key and vk stay NULL, be is the device's
       backend (NULL on the CPU), the key resident there by uid */
    cz_bn254_zkey *bkey;
    cz_bn254_vk *bvk;
    uint64_t buid;
    cz_threadpool *pool; /* owned, for opts.threads > 1; NULL: global or one */
};

void cz_prover_opts_default(cz_prover_opts *o)
{
    memset(o, 0, sizeof *o);
    o->verify = 1;
    o->device = CZ_DEVICE_AUTO;
}

static const char *device_name(const cz_prover *p)
{
    static const char *names[] = {"auto", "cpu", "cuda"};
    return (unsigned)p->opts.device <= 2 ? names[p->opts.device] : "?";
}

static cz_status finish_create(cz_prover *p, char *err, size_t err_len)
{
    cz_cuda_set_arena_cap(cz_cuda_arena_for_key(p->key)); /* share the card */
    cz_status st = cz_backend_create(&p->be, device_name(p), p->opts.threads, err, err_len);
    if (st)
        return st;
    st = cz_vk_from_zkey(&p->vk, p->key);
    if (st)
        cz_io_fail(st, err, err_len, "prover", "out of memory");
    return st;
}

/* A BN254 prover: the key, its vk, the threads, and (device cuda, or auto
   where a GPU answers) the device's backend, whose prove_bn254 keeps the
   key resident from the first proof on. */
static cz_status create_bn254(cz_prover *p, const char *path, const void *zkey, size_t zkey_len,
                              const cz_zkey_load_opts *lo, char *err, size_t err_len)
{
    cz_status st = path ? cz_bn254_zkey_load_ex(&p->bkey, path, lo, err, err_len)
                        : cz_bn254_zkey_load_bytes(&p->bkey, zkey, zkey_len, "zkey",
                                                   p->opts.threads, err, err_len);
    if (st)
        return st;
    if (p->opts.threads > 1 && !(p->pool = cz_threadpool_create((int)p->opts.threads)))
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, "prover", "cannot start %u threads",
                          p->opts.threads);
    if ((st = cz_bn254_vk_from_zkey(&p->bvk, p->bkey)))
        return cz_io_fail(st, err, err_len, "prover", "out of memory");
    if (p->opts.device != CZ_DEVICE_CPU) {
        cz_cuda_set_arena_cap(cz_cuda_bn254_arena_for_key(p->bkey)); /* share the card */
        if ((st = cz_backend_create(&p->be, device_name(p), p->opts.threads, err, err_len)))
            return st;
        p->buid = cz_zkey_new_uid();
    }
    return CZ_OK;
}

static cz_status prove_bn254(cz_prover *p, const void *wtns, size_t wtns_len, char **pj,
                             char **uj, char *err, size_t err_len)
{
    cz_bn254_fr *w;
    uint32_t nw;
    cz_status st = cz_bn254_wtns_parse(&w, &nw, wtns, wtns_len, "witness", p->bkey->n_vars, err,
                                       err_len);
    if (st)
        return st;
    cz_threadpool *pool = p->pool ? p->pool : p->opts.threads == 1 ? NULL
                                                                  : cz_threadpool_global();
    cz_bn254_proof proof;
    st = CZ_ERR_UNSUPPORTED;
    if (p->be && p->be->prove_bn254) {
        char derr[256] = "";
        cz_core_timings ct;
        st = p->be->prove_bn254(p->be, &proof, p->bkey, p->buid, w, pool, &ct, derr, sizeof derr);
        if (st) /* a device fault (or a card short of memory): the CPU proves */
            cz_log(CZ_LOG_WARN, "prover", "bn128 proof on the GPU failed (%s: %s); proving it on "
                   "the CPU", cz_strerror(st), derr);
    }
    if (st)
        st = cz_bn254_groth16_prove(&proof, p->bkey, w, pool, NULL, NULL, err, err_len);
    if (!st && p->opts.verify) {
        char e2[256];
        if (cz_bn254_groth16_verify(p->bvk, w + 1, p->bkey->n_public, &proof, e2, sizeof e2))
            st = cz_io_fail(CZ_ERR_VERIFY, err, err_len, "prove",
                            "the new proof failed its self-check (%s): does the witness "
                            "satisfy the circuit?", e2);
    }
    if (!st) {
        *pj = cz_bn254_proof_to_json(&proof);
        *uj = cz_bn254_public_to_json(w + 1, p->bkey->n_public);
        if (!*pj || !*uj)
            st = cz_io_fail(CZ_ERR_NOMEM, err, err_len, "prove", "out of memory");
    }
    cz_bn254_wtns_free(w, nw);
    return st;
}

/* A prover from a .zkey file (path) or from bytes (copied). */
static cz_status create(cz_prover **out, const char *path, const void *zkey, size_t zkey_len,
                        const cz_prover_opts *opts, char *err, size_t err_len)
{
    *out = NULL;
    cz_prover *p = calloc(1, sizeof *p);
    if (!p)
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, path ? path : "zkey", "out of memory");
    if (opts)
        p->opts = *opts;
    else
        cz_prover_opts_default(&p->opts);
    /* A prover may live as long as its program: the key is read into memory
       it owns (a mapped file truncated or replaced under it would fault). */
    cz_zkey_load_opts lo = {.threads = p->opts.threads, .private_copy = true};
    if (path ? cz_zkey_file_is_bn254(path) : cz_zkey_bytes_are_bn254(zkey, zkey_len)) {
        cz_status st = create_bn254(p, path, zkey, zkey_len, &lo, err, err_len);
        if (st) {
            cz_prover_destroy(p);
            return st;
        }
        *out = p;
        return CZ_OK;
    }
    cz_status st = path ? cz_zkey_load_ex(&p->key, path, &lo, err, err_len)
                        : cz_zkey_load_bytes(&p->key, zkey, zkey_len, true, "zkey", p->opts.threads,
                                             err, err_len);
    if (!st)
        st = finish_create(p, err, err_len);
    if (st) {
        cz_prover_destroy(p);
        return st;
    }
    *out = p;
    return CZ_OK;
}

cz_status cz_prover_create(cz_prover **out, const char *zkey_path, const cz_prover_opts *opts,
                           char *err, size_t err_len)
{
    if (!out || !zkey_path)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, "cz_prover_create", "NULL argument");
    return create(out, zkey_path, NULL, 0, opts, err, err_len);
}

cz_status cz_prover_create_from_bytes(cz_prover **out, const void *zkey, size_t zkey_len,
                                      const cz_prover_opts *opts, char *err, size_t err_len)
{
    if (!out || (!zkey && zkey_len))
        return cz_io_fail(CZ_ERR_ARG, err, err_len, "cz_prover_create_from_bytes", "NULL argument");
    return create(out, NULL, zkey, zkey_len, opts, err, err_len);
}

size_t cz_prover_public_json_max(const cz_prover *p)
{
    /* "[\n" + per value: 1 space, quote, <= 77 digits, quote, comma, newline + "]\n" + NUL */
    return p ? 8 + (size_t)(p->bkey ? p->bkey->n_public : p->key->n_public) * 84 : 0;
}

void cz_prover_destroy(cz_prover *p)
{
    if (!p)
        return;
    cz_backend_destroy(p->be);
    cz_vk_free(p->vk);
    cz_zkey_free(p->key);
    cz_bn254_vk_free(p->bvk);
    cz_bn254_zkey_free(p->bkey);
    cz_threadpool_destroy(p->pool);
    free(p);
}

cz_status cz_prover_prove(cz_prover *p, const void *wtns, size_t wtns_len,
                          char *proof_json, size_t *proof_len,
                          char *public_json, size_t *public_len,
                          char *err, size_t err_len)
{
    if (!p || !wtns || !proof_len || !public_len)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, "cz_prover_prove", "NULL argument");
    char *pj = NULL, *uj = NULL;
    cz_status st;
    if (p->bkey) {
        st = prove_bn254(p, wtns, wtns_len, &pj, &uj, err, err_len);
        goto copy_out;
    }
    cz_fr *w;
    uint32_t nw;
    st = cz_wtns_parse(&w, &nw, wtns, wtns_len, "witness", p->key->n_vars, err, err_len);
    if (st)
        return st;
    cz_proof proof;
    st = cz_groth16_prove(&proof, p->key, w, p->be, NULL, NULL, err, err_len);
    if (!st && p->opts.verify) {
        char e2[256];
        if (cz_groth16_verify(p->vk, w + 1, p->key->n_public, &proof, e2, sizeof e2) != CZ_OK)
            st = cz_io_fail(CZ_ERR_VERIFY, err, err_len, "prove",
                            "the new proof failed its self-check (%s): does the witness "
                            "satisfy the circuit?", e2);
    }
    if (!st) {
        pj = cz_proof_to_json(&proof);
        uj = cz_public_to_json(w + 1, p->key->n_public);
        if (!pj || !uj)
            st = cz_io_fail(CZ_ERR_NOMEM, err, err_len, "prove", "out of memory");
    }
    cz_wtns_free(w, nw);
copy_out:
    if (!st) {
        size_t np = strlen(pj) + 1, nu = strlen(uj) + 1;
        int small = np > *proof_len || nu > *public_len || !proof_json || !public_json;
        *proof_len = np;
        *public_len = nu;
        if (small) {
            st = cz_io_fail(CZ_ERR_ARG, err, err_len, "prove",
                            "output buffers too small: need %zu bytes for the proof, %zu for "
                            "the public signals", np, nu);
        } else {
            memcpy(proof_json, pj, np);
            memcpy(public_json, uj, nu);
        }
    }
    free(pj);
    free(uj);
    return st;
}

cz_status cz_verify_json_named(const char *vk_json, size_t vk_len, const char *vk_name,
                               const char *pub_json, size_t pub_len, const char *pub_name,
                               const char *proof_json, size_t proof_len, const char *proof_name,
                               char *err, size_t err_len)
{
    /* a key that names BN254 ("bn128") goes to BN254's verifier */
    if (cz_bn254_json_is_bn254(vk_json, vk_len))
        return cz_bn254_verify_json_named(vk_json, vk_len, vk_name, pub_json, pub_len, pub_name,
                                          proof_json, proof_len, proof_name, err, err_len);
    cz_vk *vk = NULL;
    cz_fr *pub = NULL;
    size_t npub = 0;
    cz_proof proof;
    cz_status st = cz_vk_from_json(&vk, vk_json, vk_len, vk_name, err, err_len);
    if (st)
        return st;
    st = cz_public_from_json(&pub, &npub, pub_json, pub_len, pub_name, err, err_len);
    if (st == CZ_ERR_RANGE)
        st = CZ_ERR_VERIFY;
    if (!st) {
        st = cz_proof_from_json(&proof, proof_json, proof_len, proof_name, err, err_len);
        if (st == CZ_ERR_NOT_ON_CURVE || st == CZ_ERR_SUBGROUP)
            st = CZ_ERR_VERIFY;
    }
    if (!st) {
        st = cz_groth16_verify(vk, pub, npub, &proof, err, err_len);
        if (st == CZ_ERR_ARG || st == CZ_ERR_NOT_ON_CURVE || st == CZ_ERR_SUBGROUP)
            st = CZ_ERR_VERIFY;
    }
    free(pub);
    cz_vk_free(vk);
    return st;
}

cz_status cz_verify_json(const char *vk_json, const char *public_json, const char *proof_json,
                         char *err, size_t err_len)
{
    if (!vk_json || !public_json || !proof_json)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, "cz_verify_json", "NULL argument");
    return cz_verify_json_named(vk_json, strlen(vk_json), "verification key", public_json,
                                strlen(public_json), "public signals", proof_json,
                                strlen(proof_json), "proof", err, err_len);
}
