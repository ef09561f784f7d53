/*
 * c1.h: commit-1-like inputs of the PoRep-shaped circuit (porep.h): a
 * generator of internally consistent ones, a JSON writer, and a reader
 * that validates a file and names its first fault.
 *
 * DESIGN. A c1 is Filecoin's SealCommitPhase1Output in spirit
 * (registered_proof, vanilla_proofs per partition and challenge, comm_r,
 * comm_d, replica_id, seed, ticket); the JSON format is ours and is
 * documented in docs/POREP_CIRCUIT.md. The generator cannot build a 2^30-
 * leaf tree, so its trees are sparse: only the nodes that the paths touch
 * are computed, every other node is drawn from the seed (a hash of seed,
 * tree, level and index, so one node has one value wherever it is used),
 * and roots are computed upward; paths share their upper nodes as in a
 * real tree. Parent columns are drawn from the seed; the challenged nodes'
 * labels really are the SHA-256 of their parents' labels, and the replica
 * leaf is key + data. The reader checks every field's length and hex, that
 * every path reaches its root, that every column hashes to its leaf, every
 * label to its parents, and the encoding, and reports the first fault as
 * "partition K, challenge J: field: what".
 */
#ifndef CZ_CIRCUIT_C1_H
#define CZ_CIRCUIT_C1_H

#include <stddef.h>
#include <stdint.h>

#include "circuit/porep.h"

typedef struct {
    const cz_porep_params *params;
    cz_fr replica_id, comm_d, comm_r, comm_c, comm_r_last;
    uint8_t seed[32], ticket[32];
    unsigned n_partitions;
    cz_porep_challenge *ch;  /* n_partitions * params->challenges, partition-major */
    void *mem;               /* storage of the paths and columns */
} cz_c1;

/* A consistent c1 for every partition of the preset, from a seed. */
cz_status cz_c1_generate(cz_c1 **out, const cz_porep_params *p, uint64_t seed, char *err,
                         size_t err_len);
cz_status cz_c1_write(const cz_c1 *c1, const char *path, char *err, size_t err_len);
/* Read and validate. expect: the preset the caller wants (NULL: the one the
   file names). partition >= 0: validate that partition's proofs only
   (every partition is still parsed); -1: all; CZ_C1_PARSE_ONLY: no
   hash checks at all (tests force a bad input past the reader this way).
   Errors name the file. */
#define CZ_C1_PARSE_ONLY (-2)
cz_status cz_c1_load(cz_c1 **out, const char *path, const cz_porep_params *expect,
                     int partition, char *err, size_t err_len);
cz_status cz_c1_parse(cz_c1 **out, const char *text, size_t len, const char *name,
                      const cz_porep_params *expect, int partition, char *err,
                      size_t err_len);
/* The native checks alone (the reader runs them). */
cz_status cz_c1_validate(const cz_c1 *c1, int partition, const char *name, char *err,
                         size_t err_len);
/* One partition's circuit input (points into c1). */
cz_status cz_c1_partition(const cz_c1 *c1, unsigned k, cz_porep_partition *out, char *err,
                          size_t err_len);
void cz_c1_free(cz_c1 *c1);

/* The share (percent) of aux witness values in {0, 1} for the preset's
   shape: measured on generated inputs of one and two challenges and
   extrapolated linearly to p->challenges (every challenge has the same
   shape), so it stays cheap for porep-32g. */
cz_status cz_porep_boolean_share(const cz_porep_params *p, cz_threadpool *pool, double *pct,
                                 char *err, size_t err_len);

/* The label of a node: SHA-256(replica_id || layer u32 BE || node u64 BE
   || zero pad to 64 B || label_entries parent labels, cyclically), the
   result's last byte masked to 254 bits (& 0x3f). */
void cz_porep_label(cz_fr *out, const cz_porep_params *p, const cz_fr *replica_id,
                    unsigned layer, uint64_t node, const cz_fr *parent_labels, unsigned n_parents);

#endif
