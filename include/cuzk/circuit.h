/*
 * circuit.h: the public C API for writing circuits in C (R1CS over
 * BLS12-381 Fr), bellman-style: one circuit function, run in several modes.
 *
 *   COUNT    counts variables and constraints, records nothing (cheap: sizes
 *            buffers, finds per-sub-circuit costs);
 *   SHAPE    records the constraints A, B, C (compact CSR rows, a shared
 *            coefficient table) and the variable layout; no values;
 *   WITNESS  computes only the assignment, straight into the caller's
 *            witness buffer in the prover's layout; no constraint is built,
 *            so gadgets skip their linear combinations entirely
 *            (cz_cs_records() is false);
 *   CHECK    values and constraints, each constraint checked as it is
 *            enforced (tests and debugging; slow).
 *
 * Variable layout (snarkjs's, so shapes export as .r1cs/.wtns and prove with
 * .zkey keys): w[0] = 1, then the public inputs in allocation order, then the
 * private (aux) variables in allocation order. A cz_var is tagged (public or
 * aux) until the layout is final; cz_cs_wire() gives its final index.
 *
 * Errors in circuit code (an unsatisfied constraint in CHECK mode, a child
 * that allocated a different count than it reserved, running out of memory,
 * a value asked in a mode that has none) never abort: the first one is kept
 * in the cs (sticky), later calls become no-ops, and cz_cs_status() returns
 * it with a message naming the constraint and its namespace path.
 *
 * Parallel witness generation: cz_cs_fork() reserves the next n_public
 * public and n_aux aux slots for a child cs that may run on another thread
 * (WITNESS mode writes disjoint slots of one buffer); cz_cs_join() checks
 * that the child used exactly what it reserved and frees it. In the other
 * modes a child forwards to its parent, so it must run to completion before
 * the parent (or a sibling) records more: circuits fork in parallel only in
 * WITNESS mode (cz_cs_mode()).
 */
#ifndef CUZK_CIRCUIT_H
#define CUZK_CIRCUIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "cuzk/fr.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CZ_CS_COUNT = 0,
    CZ_CS_SHAPE = 1,
    CZ_CS_WITNESS = 2,
    CZ_CS_CHECK = 3,
} cz_cs_mode;

/* A variable: bit 31 set = public input number (idx & 0x7fffffff), 1-based
   (0 with the bit set is the constant one); clear = aux number, 0-based. */
typedef struct {
    uint32_t idx;
} cz_var;
#define CZ_VAR_PUBLIC 0x80000000u
/* The constant 1 (w[0]). */
static inline cz_var cz_var_one(void) { cz_var v = {CZ_VAR_PUBLIC}; return v; }

/* A linear combination sum coef_i * var_i. Terms of the same variable may
   repeat (they are summed when recorded). Coefficients are Montgomery Fr. */
typedef struct {
    cz_var var;
    cz_fr coef;
} cz_lc_term;
typedef struct {
    cz_lc_term *t;
    uint32_t n, cap;
} cz_lc;

void cz_lc_init(cz_lc *lc);                 /* empty, no allocation */
void cz_lc_clear(cz_lc *lc);                /* n = 0, keeps the storage */
void cz_lc_free(cz_lc *lc);
/* Append a term; false when out of memory (the lc is unchanged). */
bool cz_lc_add(cz_lc *lc, cz_var v, const cz_fr *coef);
bool cz_lc_add_i64(cz_lc *lc, cz_var v, int64_t coef);       /* small signed coefficient */
bool cz_lc_add_pow2(cz_lc *lc, cz_var v, unsigned k, bool neg); /* +-2^k, k < 255 */

typedef struct cz_cs cz_cs;

/* Make a constraint system in COUNT, SHAPE or CHECK mode. */
cz_status cz_cs_new(cz_cs **out, cz_cs_mode mode);
/* WITNESS mode into w, which holds 1 + n_public + n_aux values (the counts
   come from a COUNT or SHAPE run of the same circuit); w[0] is set to 1.
   The circuit must allocate exactly these counts (cz_cs_finish checks). */
cz_status cz_cs_new_witness(cz_cs **out, cz_fr *w, uint32_t n_public, uint64_t n_aux);
/* CHECK mode over a caller's buffer laid out as for WITNESS (so a check run
   also yields the witness); NULL, 0, 0: the cs keeps its own values. */
cz_status cz_cs_new_check(cz_cs **out, cz_fr *w, uint32_t n_public, uint64_t n_aux);
void cz_cs_free(cz_cs *cs);  /* NULL: no-op */

cz_cs_mode cz_cs_mode_of(const cz_cs *cs);
/* True in SHAPE and CHECK: gadgets build and enforce constraints. */
bool cz_cs_records(const cz_cs *cs);
/* True in WITNESS and CHECK: values are computed. */
bool cz_cs_has_values(const cz_cs *cs);

/* Allocate. value may be NULL where the mode has no values (COUNT, SHAPE);
   in WITNESS and CHECK a NULL value is an error. The bit forms write 0/1
   without a field conversion (the witness hot path). */
cz_var cz_cs_alloc(cz_cs *cs, const cz_fr *value);
cz_var cz_cs_alloc_input(cz_cs *cs, const cz_fr *value);
cz_var cz_cs_alloc_bit(cz_cs *cs, int bit);
cz_var cz_cs_alloc_input_bit(cz_cs *cs, int bit);

/* Record a * b = c (SHAPE), check it (CHECK), count it (all modes but
   WITNESS, where it is a no-op and the lcs may be empty). */
void cz_cs_enforce(cz_cs *cs, const cz_lc *a, const cz_lc *b, const cz_lc *c);

/* The value of a variable (WITNESS and CHECK; zero and a sticky error
   otherwise), and of a linear combination. */
void cz_cs_value(const cz_cs *cs, cz_fr *out, cz_var v);
void cz_cs_lc_value(const cz_cs *cs, cz_fr *out, const cz_lc *lc);

/* Namespaces name constraints in error messages ("label/sha256/round
   12: constraint 812 is not satisfied"); no-ops in WITNESS mode. Per
   sub-circuit costs come from the counts before and after (COUNT mode). */
void cz_cs_push(cz_cs *cs, const char *name);
void cz_cs_pop(cz_cs *cs);

/* Counts so far (this cs; a parent's counts include its joined children). */
uint32_t cz_cs_num_public(const cz_cs *cs);   /* without the constant one */
uint64_t cz_cs_num_aux(const cz_cs *cs);
uint64_t cz_cs_num_constraints(const cz_cs *cs);

/* Reserve slots for a child (see the top of this file). */
cz_status cz_cs_fork(cz_cs *parent, cz_cs **child, uint32_t n_public, uint64_t n_aux);
/* Check and free the child; its error, if any, becomes the parent's. */
cz_status cz_cs_join(cz_cs *parent, cz_cs *child);

/* Record an error from circuit code (e.g. a value out of range); the first
   one sticks. Returns the status given. */
cz_status cz_cs_fail(cz_cs *cs, cz_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* CZ_OK, or the first error with its message. */
cz_status cz_cs_status(const cz_cs *cs, char *err, size_t err_len);

/* The final index of a variable in w (only after the public count is
   final: after cz_cs_finish, or in WITNESS/CHECK over a buffer). */
uint64_t cz_cs_wire(const cz_cs *cs, cz_var v);

/* End a run: checks the counts against a WITNESS/CHECK buffer's and
   returns the sticky status. */
cz_status cz_cs_finish(cz_cs *cs, char *err, size_t err_len);

/* ---- recorded circuits (SHAPE) ---- */

/* A recorded circuit: three sparse matrices with one row per constraint,
   columns = final wire indices, values as indices into one coefficient
   table (most circuits use a handful of distinct coefficients: +-1, powers
   of two), so 130 M constraints fit in a few GB. */
typedef struct {
    uint64_t *row_ptr; /* n_constraints + 1 */
    uint32_t *col;     /* nnz wire indices, ascending within a row */
    uint16_t *coef;    /* nnz indices into cz_shape.coefs */
    uint64_t nnz;
} cz_shape_matrix;

typedef struct {
    uint32_t n_public;       /* public inputs, the constant one not counted */
    uint64_t n_aux;
    uint64_t n_constraints;
    cz_shape_matrix m[3];    /* A, B, C */
    cz_fr *coefs;            /* Montgomery; coefs[0] = 1 */
    uint32_t n_coefs;
} cz_shape;

/* Take the recorded circuit out of a SHAPE cs (after cz_cs_finish). */
cz_status cz_cs_take_shape(cz_cs *cs, cz_shape **out, char *err, size_t err_len);
void cz_shape_free(cz_shape *shape);  /* NULL: no-op */
/* One row's value of a matrix of the shape (m: &shape->m[0..2], A B C)
   over w: sum of coefficient x w[column]. No bounds checks: the shape as
   cz_cs_take_shape made it, w as long as its wires. */
void cz_shape_row_value(cz_fr *out, const cz_shape *shape, const cz_shape_matrix *m, uint64_t row,
                        const cz_fr *w);
/* Is w (1 + n_public + n_aux values) a satisfying assignment? On failure
   err names the first unsatisfied constraint. */
cz_status cz_shape_check(const cz_shape *shape, const cz_fr *w, char *err, size_t err_len);

/* Write the recorded circuit as a circom .r1cs (version 1, BLS12-381) and
   a witness as a .wtns, for `snarkjs wtns check` and `cuzk setup`. */
cz_status cz_shape_write_r1cs(const cz_shape *shape, const char *path, char *err, size_t err_len);
cz_status cz_witness_write_wtns(const cz_fr *w, uint64_t n, const char *path, char *err,
                                size_t err_len);

#ifdef __cplusplus
}
#endif
#endif
