/*
 * porep.h: a circuit with the shape of Filecoin's PoRep (StackedDRG)
 * commit-2 circuit, parameterised, with named presets.
 *
 * DESIGN. One partition proves `challenges` challenged nodes of a sector
 * of 2^tree_d_depth nodes. Per challenge, in the order of rust-fil-proofs'
 * StackedCircuit (storage-proofs-porep/src/stacked/circuit/params.rs), so
 * the public inputs come in Filecoin's order:
 *   tree_d    the data leaf's inclusion in the binary SHA-256 tree (comm_d);
 *   columns   per DRG then expander parent: its column of `layers` labels
 *             (private), Poseidon-`layers` column hash, inclusion in the
 *             arity-8 Poseidon tree_c (comm_c);
 *   challenge the node index as 64 bits, packed into a public input;
 *   labels    per layer: the parents' labels to bits, SHA-256 of
 *             replica_id || layer (u32 BE) || node (u64 BE) || zero pad
 *             to 64 B || `label_entries` parent labels (the DRG parents
 *             for layer 1, DRG + expander of the previous layer after,
 *             repeated cyclically), truncated to 254 bits;
 *   encoding  replica = key (the last label) + data;
 *   tree_r    the replica leaf's inclusion in tree_r (comm_r_last);
 *   c_x       the column hash of the computed labels, included in tree_c.
 * Once per partition comm_r = Poseidon-2(comm_c, comm_r_last). Public
 * inputs: replica_id, comm_d, comm_r, then per challenge the packed path
 * index of each inclusion and the challenge (drg + exp + 4 of them).
 * Parent indices are public inputs: the circuit does not compute the graph.
 *
 * Modes (include/cuzk/circuit.h): COUNT and SHAPE need no input; WITNESS
 * runs the challenges in parallel, one forked child cs per challenge (its
 * counts come from a cached COUNT run of one challenge), on a thread pool.
 */
#ifndef CZ_CIRCUIT_POREP_H
#define CZ_CIRCUIT_POREP_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/circuit.h"
#include "cuzk/cuzk.h"
#include "groth16/groth16.h"
#include "util/threadpool.h"

typedef struct {
    const char *name;
    const char *like;         /* what it stands for, e.g. "32 GiB sector" */
    unsigned layers;          /* 2, 8 or 11 (the column hash is Poseidon of that arity) */
    unsigned drg_parents;     /* base (DRG) parents per node */
    unsigned exp_parents;     /* expander parents (layers 2 and up) */
    unsigned label_entries;   /* parent labels in a label preimage (37 in Filecoin) */
    unsigned challenges;      /* per partition */
    unsigned partitions;
    unsigned tree_d_depth;    /* the sector has 2^tree_d_depth nodes of 32 bytes */
    unsigned oct_depth;       /* tree_c / tree_r depth: 8^oct_depth >= nodes */
} cz_porep_params;

/* The named presets (porep-32g, porep-512m, porep-8m, porep-mini). */
size_t cz_porep_preset_count(void);
const cz_porep_params *cz_porep_preset_at(size_t i);
const cz_porep_params *cz_porep_preset(const char *name); /* NULL: unknown */
/* Are the parameters buildable (arities, depths, sizes)? */
cz_status cz_porep_params_check(const cz_porep_params *p, char *err, size_t err_len);
static inline uint64_t cz_porep_nodes(const cz_porep_params *p)
{
    return (uint64_t)1 << p->tree_d_depth;
}
/* Public inputs without the constant one: 3 + challenges * (drg + exp + 4). */
uint32_t cz_porep_num_public(const cz_porep_params *p);

/* ---- the assignment of one partition (from a commit-1 file, c1.h) ---- */

typedef struct {
    uint64_t node;
    cz_fr *labels;        /* layers labels (layer 1 first) */
    cz_fr (*path)[7];     /* oct_depth levels of 7 siblings in tree_c, leaf level first */
} cz_porep_column;

typedef struct {
    uint64_t challenge;
    cz_fr data;               /* tree_d leaf (< 2^254) */
    cz_fr *d_path;            /* tree_d_depth siblings, leaf level first */
    cz_fr replica;            /* tree_r leaf = last label + data */
    cz_fr (*r_path)[7];       /* tree_r siblings */
    cz_porep_column c_x;      /* the challenged node's column */
    cz_porep_column *parents; /* drg_parents DRG parents, then exp_parents expander parents */
} cz_porep_challenge;

typedef struct {
    cz_fr replica_id, comm_d, comm_r, comm_c, comm_r_last;
    const cz_porep_challenge *ch; /* params->challenges */
} cz_porep_partition;

/* ---- sizes ---- */

typedef struct {
    uint32_t n_public;               /* without the constant one */
    uint64_t n_aux, n_constraints;
    uint64_t challenge_aux, challenge_constraints;  /* each challenge */
    uint64_t partition_aux, partition_constraints;  /* the rest */
} cz_porep_counts;

/* From a COUNT run of the partition-level part and of one challenge
   (every challenge has the same shape); cached per parameters. */
cz_status cz_porep_counts_get(const cz_porep_params *p, cz_porep_counts *out, char *err,
                              size_t err_len);

/* Sub-circuits of the per-sub-circuit breakdown. */
enum {
    CZ_POREP_SUB_PARTITION = 0, /* public inputs, replica_id bits, comm_r */
    CZ_POREP_SUB_TREE_D,
    CZ_POREP_SUB_COLUMN_HASH,
    CZ_POREP_SUB_TREE_C,
    CZ_POREP_SUB_CHALLENGE,
    CZ_POREP_SUB_PARENT_BITS,
    CZ_POREP_SUB_LABEL,
    CZ_POREP_SUB_ENCODING,
    CZ_POREP_SUB_TREE_R,
    CZ_POREP_SUB_COUNT
};
extern const char *const cz_porep_sub_names[CZ_POREP_SUB_COUNT];

typedef struct {
    uint64_t constraints[CZ_POREP_SUB_COUNT];
    uint64_t aux[CZ_POREP_SUB_COUNT];
    uint64_t calls[CZ_POREP_SUB_COUNT];  /* how many instances */
} cz_porep_breakdown;

/* ---- runs ---- */

/* The circuit into any cs. in: NULL in COUNT and SHAPE, required in
   WITNESS and CHECK. pool: WITNESS runs challenges on it (NULL: inline).
   bd (optional, COUNT/SHAPE/CHECK): the per-sub-circuit breakdown. The
   cs's sticky status says how it went. */
cz_status cz_porep_synthesize(cz_cs *cs, const cz_porep_params *p, const cz_porep_partition *in,
                              cz_threadpool *pool, cz_porep_breakdown *bd);

/* A whole COUNT run (every challenge), with its breakdown. */
cz_status cz_porep_count(const cz_porep_params *p, cz_porep_counts *counts,
                         cz_porep_breakdown *bd, char *err, size_t err_len);
/* Record the circuit (SHAPE). */
cz_status cz_porep_shape(const cz_porep_params *p, cz_shape **out, char *err, size_t err_len);
/* The witness of one partition into w (1 + n_public + n_aux values, from
   cz_porep_counts_get). */
cz_status cz_porep_witness(const cz_porep_params *p, const cz_porep_partition *in,
                           cz_threadpool *pool, cz_fr *w, uint64_t n_w, char *err,
                           size_t err_len);
/* The same, allocating w (*n_w values; free with cz_porep_witness_free). */
cz_status cz_porep_witness_alloc(const cz_porep_params *p, const cz_porep_partition *in,
                                 cz_threadpool *pool, cz_fr **w, uint64_t *n_w, char *err,
                                 size_t err_len);
void cz_porep_witness_free(cz_fr *w, uint64_t n_w);
/* CHECK mode: every constraint checked as it is made (slow; names the
   first unsatisfied one). */
cz_status cz_porep_check(const cz_porep_params *p, const cz_porep_partition *in, char *err,
                         size_t err_len);

/* A recorded circuit as an in-memory .r1cs (for cz_groth16_setup). */
cz_status cz_shape_to_r1cs(const cz_shape *s, cz_r1cs **out, char *err, size_t err_len);

#endif
