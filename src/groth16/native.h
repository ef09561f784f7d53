/*
 * native.h: internals shared by the development setup (setup.c), keys made
 * in memory from a recorded circuit (native.c), the key loader (zkey.c),
 * the prover (prove.c) and the CPU backend's fixed-base hooks (cpu.c).
 *
 * DESIGN. A development setup is two parts: the scalars (toxic waste, the
 * Lagrange basis at tau, u/v/w per wire, the IC/C and H scalars), made by
 * cz_setup_scalars_make from either an .r1cs or a cz_shape, and the
 * fixed-base products of those scalars (cz_fixed_base_g1/g2), which a
 * backend may run instead (be->fixed_base_g1/g2). setup.c writes the
 * products to a .zkey; native.c keeps them in a key in compact form.
 */
#ifndef CZ_GROTH16_NATIVE_H
#define CZ_GROTH16_NATIVE_H

#include "groth16/groth16.h"
#include "util/threadpool.h"

/* out[i] = scalars[i] G (G the generator), affine, in parallel on pool
   (NULL: inline). Scalars Montgomery, any value (0 gives infinity, all
   zero). The generator tables (1.3 MB for G1, 2.6 MB for G2) are built
   once per process. CZ_ERR_NOMEM when scratch cannot be had. */
cz_status cz_fixed_base_g1(cz_g1_affine *out, const cz_fr *scalars, size_t n,
                           cz_threadpool *pool);
cz_status cz_fixed_base_g2(cz_g2_affine *out, const cz_fr *scalars, size_t n,
                           cz_threadpool *pool);

/* The scalars of a development key. */
typedef struct {
    uint32_t n_vars, n_public, n_constraints, log_n;
    size_t n;                   /* domain size 2^log_n */
    cz_fr alpha, beta, delta;   /* toxic waste (gamma = 1) */
    cz_fr *u;                   /* n_vars: A_s = u_s G1 */
    cz_fr *v;                   /* n_vars: B1_s = v_s G1, B2_s = v_s G2 */
    cz_fr *k;                   /* n_vars: s <= n_public: IC scalars beta u + alpha v + w;
                                   past it: C scalars, the same over delta */
    cz_fr *h;                   /* n: H scalars */
    cz_fr *cp;                  /* fold_c: n_public + 1 scalars -w_s(tau) Z(tau) / (Z(g) delta)
                                   (cz_zkey.cpub), and k's C scalars carry the same term;
                                   NULL otherwise */
    uint8_t *in_b;              /* n_vars, when asked: 1 where the wire occurs in B */
    cz_threadpool *pool;        /* the pool they were made on (wipes) */
} cz_setup_scalars;

/* Make the scalars of `cs` (an .r1cs) or of `shape` (exactly one of them
   non-NULL), with opts' toxic waste (the same draws for both forms), on
   pool. want_in_b: fill in_b too. `name` is for messages. */
cz_status cz_setup_scalars_make(cz_setup_scalars *out, const cz_r1cs *cs, const cz_shape *shape,
                                const cz_setup_opts *opts, bool want_in_b, cz_threadpool *pool,
                                const char *name, char *err, size_t err_len);
/* Wipe (toxic waste; in parallel on pool) and free one array of the
   scalars (*arr = NULL), or all of them. */
void cz_setup_scalars_drop(cz_fr **arr, size_t count, cz_threadpool *pool);
void cz_setup_scalars_free(cz_setup_scalars *s);

/* Free a compact matrix (NULL or empty: no-op). */
void cz_cmat_free(cz_cmat *m);

/* A process-wide unique key id (cz_zkey.uid). */
uint64_t cz_zkey_new_uid(void);

/* The key's owned point arrays live in copies[]: these slots. */
enum { CZ_ZKEY_SLOT_IC = 0, CZ_ZKEY_SLOT_A, CZ_ZKEY_SLOT_B1, CZ_ZKEY_SLOT_B2, CZ_ZKEY_SLOT_C,
       CZ_ZKEY_SLOT_H, CZ_ZKEY_SLOT_CPUB };

#endif
