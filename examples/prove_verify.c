/*
 * prove_verify.c: prove and verify with the cuzk C API (include/cuzk/prover.h),
 * as a program linked against an installed libcuzk would.
 *
 *   cc prove_verify.c $(pkg-config --cflags --libs cuzk) -o prove_verify
 *   ./prove_verify circuit.zkey witness.wtns verification_key.json
 *
 * Loads the key once, proves the witness (on the GPU where one is usable,
 * else the CPU), prints the proof and public signals (snarkjs JSON), and
 * checks the proof against the verification key. Exit 0: the proof verifies.
 */
#include <stdio.h>
#include <stdlib.h>

#include <cuzk/prover.h>

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n == cap) {
            char *nb = realloc(buf, cap ? 2 * cap : 65536);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
            cap = cap ? 2 * cap : 65536;
        }
        got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
    } while (got > 0);
    fclose(f);
    buf[n] = 0;
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s circuit.zkey witness.wtns verification_key.json\n", argv[0]);
        return 2;
    }
    char err[512];
    size_t wtns_len, vk_len;
    char *wtns = slurp(argv[2], &wtns_len), *vk = slurp(argv[3], &vk_len);
    if (!wtns || !vk) {
        fprintf(stderr, "cannot read %s\n", wtns ? argv[3] : argv[2]);
        return 2;
    }

    cz_prover_opts opts;
    cz_prover_opts_default(&opts);
    cz_prover *prover;
    cz_status st = cz_prover_create(&prover, argv[1], &opts, err, sizeof err);
    if (st != CZ_OK) {
        fprintf(stderr, "create: %s (%s)\n", err, cz_strerror(st));
        return 2;
    }
    char proof[CZ_PROOF_JSON_MAX];
    size_t proof_len = sizeof proof, pub_len = cz_prover_public_json_max(prover);
    char *pub = malloc(pub_len);
    st = pub ? cz_prover_prove(prover, wtns, wtns_len, proof, &proof_len, pub, &pub_len, err, sizeof err)
             : CZ_ERR_NOMEM;
    cz_prover_destroy(prover);
    if (st != CZ_OK) {
        fprintf(stderr, "prove: %s (%s)\n", err, cz_strerror(st));
        return 3;
    }
    printf("proof: %s\npublic: %s\n", proof, pub);
    st = cz_verify_json(vk, pub, proof, err, sizeof err);
    printf("verify: %s\n", st == CZ_OK ? "OK" : err);
    free(pub);
    free(wtns);
    free(vk);
    return st == CZ_OK ? 0 : 1;
}
