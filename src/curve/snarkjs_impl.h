/*
 * snarkjs_impl.h: the snarkjs encodings of G1 and G2 points (.zkey binary
 * and JSON decimal strings), written once for both curves: encode.c
 * (BLS12-381) and bn254_encode.c (BN254) include it. snarkjs stores both
 * curves alike: x then y, each coordinate little-endian in Montgomery form
 * (x * 2^(64 N) mod p: R = 2^384 for BLS12-381, 2^256 for bn128), G2 as
 * c0 then c1, infinity all zero; and in JSON decimal strings of the plain
 * affine coordinates, z = "1", infinity ("0", "1", "0").
 *
 * The including file defines EN_FP, EN_FP2 (types), EN_FP_(op),
 * EN_FP2_(op), EN_G1_(op), EN_G2_(op) (function names), EN_G1_AFF,
 * EN_G2_AFF (affine types), EN_N (limbs), EN_B (bytes per coordinate,
 * 8 EN_N), EN_P (p's limbs), EN_G1_B (b's Montgomery limbs) and EN_G2_B
 * (b' as an Fp2 initialiser). Decoders validate as encode.c says.
 */
static const EN_FP g1_b = {EN_G1_B};
static const EN_FP2 g2_b = EN_G2_B;
static const uint64_t fp_p[EN_N] = EN_P;

/* y^2 == x^3 + b, with no special case for (0, 0). */
static bool g1_on_curve_strict(const EN_FP *x, const EN_FP *y)
{
    EN_FP l, r;
    EN_FP_(sqr)(&l, y);
    EN_FP_(sqr)(&r, x);
    EN_FP_(mul)(&r, &r, x);
    EN_FP_(add)(&r, &r, &g1_b);
    return EN_FP_(eq)(&l, &r);
}

static bool g2_on_curve_strict(const EN_FP2 *x, const EN_FP2 *y)
{
    EN_FP2 l, r;
    EN_FP2_(sqr)(&l, y);
    EN_FP2_(sqr)(&r, x);
    EN_FP2_(mul)(&r, &r, x);
    EN_FP2_(add)(&r, &r, &g2_b);
    return EN_FP2_(eq)(&l, &r);
}

/* ---- snarkjs binary (.zkey) ---------------------------------------------- */

static uint64_t load_le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static void store_le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Raw Montgomery limbs, accepted only when < p (i.e. fully reduced). */
static bool fp_load_mont_le(EN_FP *out, const uint8_t *in)
{
    uint64_t borrow = 0;
    for (int i = 0; i < EN_N; i++) {
        out->l[i] = load_le64(in + 8 * i);
        unsigned __int128 d = (unsigned __int128)out->l[i] - fp_p[i] - borrow;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    return borrow != 0;
}

static void fp_store_mont_le(uint8_t *out, const EN_FP *a)
{
    for (int i = 0; i < EN_N; i++)
        store_le64(out + 8 * i, a->l[i]);
}

cz_status EN_G1_(from_snarkjs)(EN_G1_AFF *out, const uint8_t in[2 * EN_B])
{
    if (!out || !in)
        return CZ_ERR_ARG;
    EN_G1_AFF p;
    if (!fp_load_mont_le(&p.x, in) || !fp_load_mont_le(&p.y, in + EN_B))
        return CZ_ERR_FORMAT;
    if (!EN_G1_(affine_is_infinity)(&p) && !g1_on_curve_strict(&p.x, &p.y))
        return CZ_ERR_NOT_ON_CURVE;
    *out = p;
    return CZ_OK;
}

cz_status EN_G2_(from_snarkjs)(EN_G2_AFF *out, const uint8_t in[4 * EN_B])
{
    if (!out || !in)
        return CZ_ERR_ARG;
    EN_G2_AFF p;
    if (!fp_load_mont_le(&p.x.c0, in) || !fp_load_mont_le(&p.x.c1, in + EN_B) ||
        !fp_load_mont_le(&p.y.c0, in + 2 * EN_B) || !fp_load_mont_le(&p.y.c1, in + 3 * EN_B))
        return CZ_ERR_FORMAT;
    if (!EN_G2_(affine_is_infinity)(&p) && !g2_on_curve_strict(&p.x, &p.y))
        return CZ_ERR_NOT_ON_CURVE;
    *out = p;
    return CZ_OK;
}

void EN_G1_(to_snarkjs)(uint8_t out[2 * EN_B], const EN_G1_AFF *p)
{
    fp_store_mont_le(out, &p->x);
    fp_store_mont_le(out + EN_B, &p->y);
}

void EN_G2_(to_snarkjs)(uint8_t out[4 * EN_B], const EN_G2_AFF *p)
{
    fp_store_mont_le(out, &p->x.c0);
    fp_store_mont_le(out + EN_B, &p->x.c1);
    fp_store_mont_le(out + 2 * EN_B, &p->y.c0);
    fp_store_mont_le(out + 3 * EN_B, &p->y.c1);
}

/* ---- snarkjs JSON (decimal strings) --------------------------------------- */

cz_status EN_G1_(from_dec)(EN_G1_AFF *out, const char *x, const char *y, const char *z)
{
    if (!out || !x || !y || !z)
        return CZ_ERR_ARG;
    EN_G1_AFF p;
    EN_FP zz;
    if (!EN_FP_(from_dec)(&p.x, x) || !EN_FP_(from_dec)(&p.y, y) || !EN_FP_(from_dec)(&zz, z))
        return CZ_ERR_FORMAT;
    if (EN_FP_(is_zero)(&zz)) {
        /* projective infinity: exactly (0, 1, 0) */
        if (!EN_FP_(is_zero)(&p.x) || !EN_FP_(is_one)(&p.y))
            return CZ_ERR_FORMAT;
        EN_G1_(affine_infinity)(out);
        return CZ_OK;
    }
    if (!EN_FP_(is_one)(&zz))
        return CZ_ERR_FORMAT;
    if (!g1_on_curve_strict(&p.x, &p.y))
        return CZ_ERR_NOT_ON_CURVE;
    if (!EN_G1_(affine_in_subgroup)(&p))
        return CZ_ERR_SUBGROUP;
    *out = p;
    return CZ_OK;
}

cz_status EN_G2_(from_dec)(EN_G2_AFF *out, const char *x0, const char *x1,
                         const char *y0, const char *y1, const char *z0, const char *z1)
{
    if (!out || !x0 || !x1 || !y0 || !y1 || !z0 || !z1)
        return CZ_ERR_ARG;
    EN_G2_AFF p;
    EN_FP2 zz, one;
    if (!EN_FP_(from_dec)(&p.x.c0, x0) || !EN_FP_(from_dec)(&p.x.c1, x1) ||
        !EN_FP_(from_dec)(&p.y.c0, y0) || !EN_FP_(from_dec)(&p.y.c1, y1) ||
        !EN_FP_(from_dec)(&zz.c0, z0) || !EN_FP_(from_dec)(&zz.c1, z1))
        return CZ_ERR_FORMAT;
    EN_FP2_(one)(&one);
    if (EN_FP2_(is_zero)(&zz)) {
        if (!EN_FP2_(is_zero)(&p.x) || !EN_FP2_(eq)(&p.y, &one))
            return CZ_ERR_FORMAT;
        EN_G2_(affine_infinity)(out);
        return CZ_OK;
    }
    if (!EN_FP2_(eq)(&zz, &one))
        return CZ_ERR_FORMAT;
    if (!g2_on_curve_strict(&p.x, &p.y))
        return CZ_ERR_NOT_ON_CURVE;
    if (!EN_G2_(affine_in_subgroup)(&p))
        return CZ_ERR_SUBGROUP;
    *out = p;
    return CZ_OK;
}

void EN_G1_(to_dec)(char *x, char *y, char *z, const EN_G1_AFF *p)
{
    if (EN_G1_(affine_is_infinity)(p)) {
        strcpy(x, "0");
        strcpy(y, "1");
        strcpy(z, "0");
        return;
    }
    EN_FP_(to_dec)(x, &p->x);
    EN_FP_(to_dec)(y, &p->y);
    strcpy(z, "1");
}

void EN_G2_(to_dec)(char *x0, char *x1, char *y0, char *y1, char *z0, char *z1,
                  const EN_G2_AFF *p)
{
    if (EN_G2_(affine_is_infinity)(p)) {
        strcpy(x0, "0");
        strcpy(x1, "0");
        strcpy(y0, "1");
        strcpy(y1, "0");
        strcpy(z0, "0");
        strcpy(z1, "0");
        return;
    }
    EN_FP_(to_dec)(x0, &p->x.c0);
    EN_FP_(to_dec)(x1, &p->x.c1);
    EN_FP_(to_dec)(y0, &p->y.c0);
    EN_FP_(to_dec)(y1, &p->y.c1);
    strcpy(z0, "1");
    strcpy(z1, "0");
}
