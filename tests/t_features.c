/*
 * t_features.c - Table I features and the exact clustering coefficient:
 * hand-computed values on small matrices, and real graphs checked against an
 * independent naive computation (module: data).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/augur.h"
#include "tap.h"

/* ---- hand-built CSR ----------------------------------------------------- */

struct pair {
    uint32_t i, j;
};

static int pair_cmp(const void *a, const void *b)
{
    const struct pair *x = a, *y = b;

    if (x->i != y->i)
        return x->i < y->i ? -1 : 1;
    if (x->j != y->j)
        return x->j < y->j ? -1 : 1;
    return 0;
}

/* A CSR pattern from (i, j) pairs (sorted and deduplicated here); free with csr_free(). */
static struct augur_csr csr_from_pairs(uint32_t nrows, uint32_t ncols, struct pair *p, size_t n)
{
    struct augur_csr c;
    size_t w = 0;

    qsort(p, n, sizeof(*p), pair_cmp);
    for (size_t k = 0; k < n; k++)
        if (w == 0 || pair_cmp(&p[w - 1], &p[k]) != 0)
            p[w++] = p[k];
    memset(&c, 0, sizeof(c));
    c.nrows = nrows;
    c.ncols = ncols;
    c.nnz = w;
    c.rowptr = calloc((size_t)nrows + 1, sizeof(*c.rowptr));
    c.col = malloc((w ? w : 1) * sizeof(*c.col));
    for (size_t k = 0; k < w; k++) {
        c.rowptr[p[k].i + 1]++;
        c.col[k] = p[k].j;
    }
    for (uint32_t i = 0; i < nrows; i++)
        c.rowptr[i + 1] += c.rowptr[i];
    return c;
}

static void csr_free(struct augur_csr *c)
{
    free(c->rowptr);
    free(c->col);
    memset(c, 0, sizeof(*c));
}

/* Builds a CSR from a literal list "i j, i j, ..." of pairs; sym adds (j, i) too. */
static struct augur_csr csr_lit(uint32_t n, uint32_t ncols, const uint32_t *ij, size_t npairs,
                                bool sym)
{
    struct pair *p = malloc((2 * npairs + 1) * sizeof(*p));
    size_t w = 0;
    struct augur_csr c;

    for (size_t k = 0; k < npairs; k++) {
        p[w++] = (struct pair){ ij[2 * k], ij[2 * k + 1] };
        if (sym)
            p[w++] = (struct pair){ ij[2 * k + 1], ij[2 * k] };
    }
    c = csr_from_pairs(n, ncols, p, w);
    free(p);
    return c;
}

#define NPAIRS(a) (sizeof(a) / sizeof((a)[0]) / 2)

/* Field by field: padding bytes of a copied struct are unspecified. */
static bool stat_eq(const struct augur_stat *a, const struct augur_stat *b)
{
    return a->min == b->min && a->max == b->max && a->mean == b->mean && a->std == b->std &&
           a->cv == b->cv;
}

static bool features_eq(const struct augur_features *a, const struct augur_features *b)
{
    return a->nrows == b->nrows && a->ncols == b->ncols && a->nnz == b->nnz &&
           a->sampled == b->sampled && a->nrows_sampled == b->nrows_sampled &&
           a->sample_fraction == b->sample_fraction && a->seed == b->seed &&
           a->block_size == b->block_size && a->nempty_rows == b->nempty_rows &&
           a->bandwidth == b->bandwidth && a->mean_distance == b->mean_distance &&
           stat_eq(&a->nnz_row, &b->nnz_row) && a->nnz_tot == b->nnz_tot &&
           a->nnz_frac == b->nnz_frac && a->nnzb_tot == b->nnzb_tot &&
           stat_eq(&a->nnzb_row, &b->nnzb_row) && stat_eq(&a->snzb, &b->snzb);
}

/* ---- features ----------------------------------------------------------- */

/*
 * The 5 x 6 matrix
 *   row 0: x x x . x .     row 1: (empty)      row 2: . . . . . x
 *   row 3: x . . x x x     row 4: . x x . . .
 */
static const uint32_t m5x6[] = { 0, 0, 0, 1, 0, 2, 0, 4, 2, 5, 3, 0, 3, 3, 3, 4, 3, 5, 4, 1, 4, 2 };

static void test_features_runs(void)
{
    struct augur_csr c = csr_lit(5, 6, m5x6, NPAIRS(m5x6), false);
    struct augur_features f;
    struct augur_diag d;
    int rc;

    augur_diag_init(&d);
    rc = augur_features_compute(&c, NULL, &f, &d);
    is_int(rc, 0, "features: 5x6 computes");
    is_int(f.nrows, 5, "features: rows");
    is_int(f.ncols, 6, "features: cols");
    is_int(f.nnz_tot, 11, "features: nnz_tot");
    is_double(f.nnz_frac, 100.0 * 11.0 / 30.0, 1e-12, "features: nnz_frac is a percentage");
    is_int(f.nempty_rows, 1, "features: one empty row");
    is_int(f.bandwidth, 4, "features: bandwidth max |i-j| = 4 (row 0, col 4)");
    is_double(f.mean_distance, 21.0 / 11.0, 1e-12, "features: mean |i-j| = 21/11");
    /* Degrees 4 0 1 4 2: mean 2.2, variance 7.4 - 4.84 = 2.56. */
    is_int(f.nnz_row.min, 0, "features: nnz_min");
    is_int(f.nnz_row.max, 4, "features: nnz_max");
    is_double(f.nnz_row.mean, 2.2, 1e-12, "features: nnz_mu");
    is_double(f.nnz_row.std, 1.6, 1e-12, "features: nnz_sig (population)");
    is_double(f.nnz_row.cv, 1.6 / 2.2, 1e-12, "features: degree cv");
    /* Runs: row 0 {0,1,2} {4}; row 2 {5}; row 3 {0} {3,4,5}; row 4 {1,2}. */
    is_int(f.block_size, AUGUR_BLOCK_RUNS, "features: default blocks are runs");
    is_int(f.nnzb_tot, 6, "features: nnzb_tot (runs)");
    is_int(f.nnzb_row.min, 0, "features: nnzb_min (runs)");
    is_int(f.nnzb_row.max, 2, "features: nnzb_max (runs)");
    is_double(f.nnzb_row.mean, 1.2, 1e-12, "features: nnzb_mu (runs)");
    is_double(f.nnzb_row.std, sqrt(0.56), 1e-12, "features: nnzb_sig (runs)");
    /* Block sizes 3 1 1 1 3 2. */
    is_int(f.snzb.min, 1, "features: snzb_min (runs)");
    is_int(f.snzb.max, 3, "features: snzb_max (runs)");
    is_double(f.snzb.mean, 11.0 / 6.0, 1e-12, "features: snzb_mu (runs)");
    is_double(f.snzb.std, sqrt(29.0) / 6.0, 1e-12, "features: snzb_sig (runs)");
    ok(!f.sampled && f.nrows_sampled == 5, "features: every row examined");
    csr_free(&c);
}

static void test_features_fixed_blocks(void)
{
    struct augur_csr c = csr_lit(5, 6, m5x6, NPAIRS(m5x6), false);
    struct augur_feature_opts o = { .block_size = 2 };
    struct augur_features f;

    /* B = 2: row 0 [0,1] [2] [4]; row 2 [5]; row 3 [0] [3] [4,5]; row 4 [1] [2]. */
    is_int(augur_features_compute(&c, &o, &f, NULL), 0, "features B=2: computes");
    is_int(f.nnzb_tot, 9, "features B=2: nnzb_tot");
    is_double(f.nnzb_row.mean, 1.8, 1e-12, "features B=2: nnzb_mu");
    is_double(f.nnzb_row.std, sqrt(1.36), 1e-12, "features B=2: nnzb_sig");
    is_int(f.nnzb_row.max, 3, "features B=2: nnzb_max");
    is_double(f.snzb.mean, 11.0 / 9.0, 1e-12, "features B=2: snzb_mu");
    is_double(f.snzb.std, sqrt(14.0) / 9.0, 1e-12, "features B=2: snzb_sig");
    is_int(f.snzb.max, 2, "features B=2: snzb_max");

    o.block_size = 1; /* every non-zero is a block of size 1 */
    is_int(augur_features_compute(&c, &o, &f, NULL), 0, "features B=1: computes");
    is_int(f.nnzb_tot, 11, "features B=1: nnzb_tot = nnz");
    ok(f.snzb.min == 1 && f.snzb.max == 1 && f.snzb.std == 0.0, "features B=1: every block is 1");
    is_double(f.nnzb_row.std, 1.6, 1e-12, "features B=1: nnzb per row = degree");

    o.block_size = 100; /* one block per non-empty row */
    is_int(augur_features_compute(&c, &o, &f, NULL), 0, "features B=100: computes");
    is_int(f.nnzb_tot, 4, "features B=100: one block per non-empty row");
    is_double(f.snzb.mean, 11.0 / 4.0, 1e-12, "features B=100: snzb_mu = 11/4");
    csr_free(&c);
}

static void test_features_edge_cases(void)
{
    struct augur_csr c;
    struct augur_features f;
    struct augur_feature_opts o = { 0 };
    struct augur_diag d;
    uint32_t none[1] = { 0 };
    static const uint32_t bad[] = { 0, 1, 1, 0 };

    c = csr_lit(3, 4, none, 0, false);
    is_int(augur_features_compute(&c, NULL, &f, NULL), 0, "features: empty matrix computes");
    ok(f.nnz_tot == 0 && f.nempty_rows == 3 && f.nnzb_tot == 0 && f.snzb.max == 0 &&
           f.nnz_frac == 0.0 && f.nnz_row.cv == 0.0,
       "features: empty matrix has zero features and 3 empty rows");
    csr_free(&c);

    c = csr_lit(0, 0, none, 0, false);
    is_int(augur_features_compute(&c, NULL, &f, NULL), 0, "features: 0 x 0 computes");
    ok(f.nrows == 0 && f.nnz_frac == 0.0, "features: 0 x 0 is all zero");
    csr_free(&c);

    c = csr_lit(2, 2, bad, 2, false);
    augur_diag_init(&d);
    o.sample_fraction = 1.5;
    is_int(augur_features_compute(&c, &o, &f, &d), AUGUR_EINVAL, "features: fraction 1.5 refused");
    ok(strstr(d.msg, "1.5") != NULL, "features: the message names the fraction");
    o.sample_fraction = NAN;
    is_int(augur_features_compute(&c, &o, &f, NULL), AUGUR_EINVAL,
           "features: fraction NaN refused");
    /* A column out of range is refused with the row named. */
    c.col[1] = 7; /* row 1's only entry */
    augur_diag_init(&d);
    is_int(augur_features_compute(&c, NULL, &f, &d), AUGUR_EINVAL,
           "features: column 7 of 2 refused");
    ok(strstr(d.msg, "row 1") != NULL, "features: the message names the row");
    csr_free(&c);
}

/* A matrix whose row i has i % 7 non-zeros in a run starting at column i % 5. */
static struct augur_csr csr_mod7(uint32_t n)
{
    struct pair *p = malloc((size_t)n * 7 * sizeof(*p));
    size_t w = 0;
    struct augur_csr c;

    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < i % 7; k++)
            p[w++] = (struct pair){ i, i % 5 + k };
    c = csr_from_pairs(n, 16, p, w);
    free(p);
    return c;
}

static void test_features_sampling(void)
{
    struct augur_csr c = csr_mod7(70000);
    struct augur_feature_opts o = { .sample_fraction = 0.1, .seed = 42 };
    struct augur_features all, s1, s2, s3;

    is_int(augur_features_compute(&c, NULL, &all, NULL), 0, "sampling: full pass computes");
    is_int(augur_features_compute(&c, &o, &s1, NULL), 0, "sampling: 10% computes");
    is_int(s1.nrows_sampled, 7000, "sampling: exactly round(0.1 * 70000) rows");
    ok(s1.sampled && s1.seed == 42 && s1.sample_fraction == 0.1, "sampling: marked sampled");
    is_int(s1.nnz_tot, all.nnz_tot, "sampling: nnz_tot stays exact");
    is_double(s1.nnz_row.mean, 3.0, 0.05, "sampling: nnz_mu near 3 (degrees 0..6)");
    is_double(s1.nnz_row.std, all.nnz_row.std, 0.05, "sampling: nnz_sig near the full one");
    is_double((double)s1.nnzb_tot, (double)all.nnzb_tot, 0.05, "sampling: nnzb_tot estimate");
    is_double((double)s1.nempty_rows, 10000.0, 0.1, "sampling: empty rows estimate near 1/7");
    ok(s1.snzb.max <= 6 && s1.bandwidth <= all.bandwidth, "sampling: bounded by the full pass");
    is_int(augur_features_compute(&c, &o, &s2, NULL), 0, "sampling: again computes");
    ok(features_eq(&s1, &s2), "sampling: same seed, same features");
    o.seed = 43;
    is_int(augur_features_compute(&c, &o, &s3, NULL), 0, "sampling: seed 43 computes");
    ok(s3.nnz_row.mean != s1.nnz_row.mean, "sampling: another seed, another sample");
    o.sample_fraction = 1e-9;
    is_int(augur_features_compute(&c, &o, &s3, NULL), 0, "sampling: tiny fraction computes");
    is_int(s3.nrows_sampled, 1, "sampling: at least one row");
    o.sample_fraction = 1.0;
    is_int(augur_features_compute(&c, &o, &s3, NULL), 0, "sampling: fraction 1 computes");
    ok(!s3.sampled && s3.nrows_sampled == 70000 && s3.nnzb_tot == all.nnzb_tot,
       "sampling: fraction 1 is the full pass");
    csr_free(&c);

    /* Identical rows: the scaled totals of any sample are exact. */
    {
        struct pair p[3000];
        struct augur_features a, b;
        struct augur_feature_opts h = { .sample_fraction = 0.25, .seed = 7 };

        for (uint32_t i = 0; i < 1000; i++) {
            p[3 * i] = (struct pair){ i, 0 };
            p[3 * i + 1] = (struct pair){ i, 1 };
            p[3 * i + 2] = (struct pair){ i, 5 };
        }
        c = csr_from_pairs(1000, 8, p, 3000);
        augur_features_compute(&c, NULL, &a, NULL);
        is_int(augur_features_compute(&c, &h, &b, NULL), 0, "sampling: identical rows compute");
        ok(b.nrows_sampled == 250 && b.nnzb_tot == 2000 && a.nnzb_tot == 2000 &&
               b.snzb.mean == a.snzb.mean && b.nnz_row.std == 0.0,
           "sampling: identical rows give the exact totals");
        csr_free(&c);
    }
}

/* ---- clustering on hand-made graphs ------------------------------------- */

static void cc_case(const char *name, uint32_t n, const uint32_t *ij, size_t npairs, bool sym,
                    double want_und, double want_dir)
{
    struct augur_csr c = csr_lit(n, n, ij, npairs, sym);
    struct augur_cc_opts o = { .directed = true, .undirected = true };
    struct augur_clustering r;
    char msg[160];
    int rc = augur_clustering_compute(&c, &o, &r, NULL);

    snprintf(msg, sizeof(msg), "cc %s: computes", name);
    is_int(rc, 0, msg);
    snprintf(msg, sizeof(msg), "cc %s: undirected = %g", name, want_und);
    is_double(r.undirected.global, want_und, 1e-12, msg);
    snprintf(msg, sizeof(msg), "cc %s: directed = %g", name, want_dir);
    is_double(r.directed.global, want_dir, 1e-12, msg);
    csr_free(&c);
}

static void test_cc_hand(void)
{
    static const uint32_t tri[] = { 0, 1, 1, 2, 2, 0 };
    static const uint32_t star[] = { 0, 1, 0, 2, 0, 3, 0, 4 };
    static const uint32_t k4[] = { 0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 2, 3 };
    static const uint32_t cyc[] = { 0, 1, 1, 2, 2, 0 };
    static const uint32_t trans[] = { 0, 1, 0, 2, 1, 2 };
    static const uint32_t paw[] = { 0, 1, 1, 2, 2, 0, 0, 3 };
    static const uint32_t loops[] = { 0, 0, 1, 1, 0, 1, 1, 2, 2, 0, 2, 2 };
    static const uint32_t path[] = { 0, 1, 1, 2, 2, 3 };
    struct augur_cc_opts o = { .directed = true, .undirected = true };
    struct augur_clustering r;
    double local[4];
    struct augur_csr c;
    struct augur_diag d;

    cc_case("triangle", 3, tri, NPAIRS(tri), true, 1.0, 1.0);
    cc_case("star K1,4", 5, star, NPAIRS(star), true, 0.0, 0.0);
    cc_case("4-clique", 4, k4, NPAIRS(k4), true, 1.0, 1.0);
    /* Directed 3-cycle: out-degree 1 everywhere, so C_i = 0 (eq. 1); as a graph, a triangle. */
    cc_case("directed 3-cycle", 3, cyc, NPAIRS(cyc), false, 1.0, 0.0);
    /* 0->1, 0->2, 1->2: node 0 has N = {1, 2} and the arc 1->2: C_0 = 1/2. */
    cc_case("transitive triple", 3, trans, NPAIRS(trans), false, 1.0, 1.0 / 6.0);
    /* Both directions of every edge: directed = undirected. */
    cc_case("complete digraph on 3", 3, tri, NPAIRS(tri), true, 1.0, 1.0);
    /* Paw: C = 1/3, 1, 1, 0: the pendant node counts as 0 in the average (Algorithm 3). */
    cc_case("paw", 4, paw, NPAIRS(paw), true, 7.0 / 12.0, 7.0 / 12.0);
    cc_case("triangle with self loops", 3, loops, NPAIRS(loops), true, 1.0, 1.0);
    cc_case("path P4", 4, path, NPAIRS(path), true, 0.0, 0.0);

    c = csr_lit(4, 4, paw, NPAIRS(paw), true);
    o.local_undirected = local;
    is_int(augur_clustering_compute(&c, &o, &r, NULL), 0, "cc paw: local computes");
    ok(fabs(local[0] - 1.0 / 3.0) < 1e-15 && local[1] == 1.0 && local[2] == 1.0 && local[3] == 0.0,
       "cc paw: local coefficients 1/3 1 1 0");
    is_int(r.undirected.nlow_degree, 1, "cc paw: one node of degree < 2");
    is_double(r.undirected.mean_deg2, 7.0 / 9.0, 1e-12, "cc paw: mean over degree >= 2 is 7/9");
    is_int(r.undirected.nlinks, 1, "cc paw: one triangle");
    is_int(r.undirected.nedges, 4, "cc paw: four edges");
    is_int(r.directed.nedges, 8, "cc paw: eight arcs");
    is_int(r.undirected.max_degree, 3, "cc paw: max degree 3");
    csr_free(&c);

    /*
     * A false claim of symmetry gives wrong values but stays within its
     * memory: in the 3-cycle two of three arcs point forward, more than half.
     */
    c = csr_lit(3, 3, cyc, NPAIRS(cyc), false);
    o.symmetric = true;
    o.local_undirected = NULL;
    is_int(augur_clustering_compute(&c, &o, &r, NULL), 0, "cc: false symmetric claim is safe");
    o.symmetric = false;
    csr_free(&c);

    c = csr_lit(3, 4, tri, NPAIRS(tri), false);
    augur_diag_init(&d);
    is_int(augur_clustering_compute(&c, NULL, &r, &d), AUGUR_EINVAL, "cc: 3 x 4 refused");
    ok(strstr(d.msg, "square") != NULL, "cc: the message says square");
    csr_free(&c);

    c = csr_lit(0, 0, tri, 0, false);
    is_int(augur_clustering_compute(&c, NULL, &r, NULL), 0, "cc: empty graph computes");
    ok(r.undirected.computed && !r.directed.computed && r.undirected.global == 0.0,
       "cc: empty graph has coefficient 0; directed not asked");
    csr_free(&c);
}

/* A hub joined to every node of a ring: the hub must not cost O(k^2) in the method. */
static void test_cc_wheel(void)
{
    uint32_t n = 20001; /* hub 0, ring 1..20000 */
    struct pair *p = malloc((size_t)(n - 1) * 4 * sizeof(*p));
    size_t w = 0;
    struct augur_csr c;
    struct augur_clustering r;
    double k = (double)(n - 1), want;

    for (uint32_t i = 1; i < n; i++) {
        uint32_t nx = i == n - 1 ? 1 : i + 1;

        p[w++] = (struct pair){ 0, i };
        p[w++] = (struct pair){ i, 0 };
        p[w++] = (struct pair){ i, nx };
        p[w++] = (struct pair){ nx, i };
    }
    c = csr_from_pairs(n, n, p, w);
    free(p);
    /* Hub: k ring edges among k neighbours, C = 2k / (k(k-1)); rim: degree 3, 2 triangles: 2/3. */
    want = (2.0 * k / (k * (k - 1.0)) + k * (2.0 / 3.0)) / (double)n;
    is_int(augur_clustering_compute(&c, NULL, &r, NULL), 0, "cc wheel: computes");
    is_double(r.undirected.global, want, 1e-12, "cc wheel W_20000: exact value");
    is_int(r.undirected.nlinks, n - 1, "cc wheel: 20000 triangles");
    csr_free(&c);
}

/* ---- real graphs against a naive computation ---------------------------- */

/*
 * Reads a Matrix Market coordinate file (plain text) into (i, j) pairs,
 * 0-based; the test's own reader, so that the check does not rest on the
 * library's. Returns false when the file cannot be read.
 */
static bool read_mtx(const char *path, uint32_t *n, bool *sym, struct pair **out, size_t *np)
{
    FILE *fp = fopen(path, "r");
    char line[1024];
    unsigned long long rows = 0, cols = 0, nnz = 0, a, b;
    size_t w = 0;
    struct pair *p = NULL;

    if (!fp)
        return false;
    *sym = false;
    while (fgets(line, sizeof(line), fp)) {
        if (strncmp(line, "%%MatrixMarket", 14) == 0) {
            *sym = strstr(line, "symmetric") != NULL;
            continue;
        }
        if (line[0] == '%')
            continue;
        if (!p) {
            if (sscanf(line, "%llu %llu %llu", &rows, &cols, &nnz) != 3 || rows != cols)
                break;
            p = malloc((nnz ? nnz : 1) * sizeof(*p));
            continue;
        }
        if (w < nnz && sscanf(line, "%llu %llu", &a, &b) == 2 && a >= 1 && b >= 1 && a <= rows &&
            b <= cols)
            p[w++] = (struct pair){ (uint32_t)(a - 1), (uint32_t)(b - 1) };
    }
    fclose(fp);
    if (!p || w != nnz) {
        free(p);
        return false;
    }
    *n = (uint32_t)rows;
    *out = p;
    *np = w;
    return true;
}

static int u32_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

    return x < y ? -1 : x > y;
}

/* Sorted neighbour lists without self loops; both directions when und. */
struct naive {
    uint32_t n;
    uint32_t **adj;
    uint32_t *deg;
};

static void naive_build(struct naive *g, uint32_t n, const struct pair *p, size_t np, bool und)
{
    uint32_t *cap = calloc(n, sizeof(*cap));

    g->n = n;
    g->adj = calloc(n, sizeof(*g->adj));
    g->deg = calloc(n, sizeof(*g->deg));
    for (size_t k = 0; k < np; k++) {
        for (int dir = 0; dir < (und ? 2 : 1); dir++) {
            uint32_t u = dir ? p[k].j : p[k].i, v = dir ? p[k].i : p[k].j;

            if (u == v)
                continue;
            if (g->deg[u] == cap[u]) {
                cap[u] = cap[u] ? 2 * cap[u] : 4;
                g->adj[u] = realloc(g->adj[u], cap[u] * sizeof(uint32_t));
            }
            g->adj[u][g->deg[u]++] = v;
        }
    }
    for (uint32_t u = 0; u < n; u++) {
        uint32_t w = 0;

        if (g->deg[u])
            qsort(g->adj[u], g->deg[u], sizeof(uint32_t), u32_cmp);
        for (uint32_t k = 0; k < g->deg[u]; k++)
            if (w == 0 || g->adj[u][w - 1] != g->adj[u][k])
                g->adj[u][w++] = g->adj[u][k];
        g->deg[u] = w;
    }
    free(cap);
}

static void naive_free(struct naive *g)
{
    for (uint32_t u = 0; u < g->n; u++)
        free(g->adj[u]);
    free(g->adj);
    free(g->deg);
}

/*
 * Algorithm 3 over every node, literally: for each ordered pair (v, w) of
 * distinct neighbours of u, binary-search w in N[v]. Fills local[] and
 * returns the global coefficient (eq. 3, nodes with k < 2 count as 0).
 */
static double naive_cc(const struct naive *g, double *local)
{
    double total = 0.0;

    for (uint32_t u = 0; u < g->n; u++) {
        uint64_t k = g->deg[u], links = 0;

        local[u] = 0.0;
        if (k < 2)
            continue;
        for (uint64_t a = 0; a < k; a++) {
            uint32_t v = g->adj[u][a];

            for (uint64_t b = 0; b < k; b++) {
                uint32_t x = g->adj[u][b];

                if (a != b && g->deg[v] &&
                    bsearch(&x, g->adj[v], g->deg[v], sizeof(uint32_t), u32_cmp))
                    links++;
            }
        }
        local[u] = (double)links / ((double)k * (double)(k - 1));
        total += local[u];
    }
    return g->n ? total / g->n : 0.0;
}

static double max_diff(const double *a, const double *b, uint32_t n)
{
    double m = 0.0;

    for (uint32_t i = 0; i < n; i++)
        if (fabs(a[i] - b[i]) > m)
            m = fabs(a[i] - b[i]);
    return m;
}

/*
 * published: the value on SNAP's page for the graph (undirected, isolated
 * nodes counting 0), or a negative number when there is none.
 */
static void test_cc_real(const char *name, double published)
{
    const char *root = tap_datasets();
    char path[1024], msg[256];
    struct pair *p = NULL, *full = NULL;
    size_t np = 0, nfull = 0;
    uint32_t n = 0;
    bool sym = false;
    struct augur_csr c;
    struct augur_cc_opts o = { .directed = true, .undirected = true };
    struct augur_clustering r;
    struct naive gu, gd;
    double *lu, *ld, *ru, *rd, want_u, want_d;

    snprintf(path, sizeof(path), "%s/mtx/%s", root ? root : "", name);
    if (!root || !read_mtx(path, &n, &sym, &p, &np)) {
        skip("datasets not found (AUGUR_DATASETS)", name);
        return;
    }
    /* The CSR given to the library: the full pattern of symmetric data, as stored otherwise. */
    full = malloc(2 * np * sizeof(*full));
    for (size_t k = 0; k < np; k++) {
        full[nfull++] = p[k];
        if (sym && p[k].i != p[k].j)
            full[nfull++] = (struct pair){ p[k].j, p[k].i };
    }
    c = csr_from_pairs(n, n, full, nfull);
    lu = calloc(n, sizeof(double));
    ld = calloc(n, sizeof(double));
    ru = calloc(n, sizeof(double));
    rd = calloc(n, sizeof(double));
    o.local_undirected = lu;
    o.local_directed = ld;
    snprintf(msg, sizeof(msg), "cc %s: computes", name);
    is_int(augur_clustering_compute(&c, &o, &r, NULL), 0, msg);

    naive_build(&gu, n, p, np, true);
    naive_build(&gd, n, p, np, !!sym);
    want_u = naive_cc(&gu, ru);
    want_d = naive_cc(&gd, rd);
    diag("%s: n %u, undirected %.10f (naive %.10f), directed %.10f (naive %.10f)", name, n,
         r.undirected.global, want_u, r.directed.global, want_d);
    snprintf(msg, sizeof(msg), "cc %s: undirected global matches the naive count", name);
    is_double(r.undirected.global, want_u, 1e-12, msg);
    snprintf(msg, sizeof(msg), "cc %s: undirected local C_i all match", name);
    ok(max_diff(lu, ru, n) < 1e-12, msg);
    snprintf(msg, sizeof(msg), "cc %s: directed global matches the naive count", name);
    is_double(r.directed.global, want_d, 1e-12, msg);
    snprintf(msg, sizeof(msg), "cc %s: directed local C_i all match", name);
    ok(max_diff(ld, rd, n) < 1e-12, msg);
    if (sym) {
        struct augur_cc_opts so = { .undirected = true, .symmetric = true };
        struct augur_clustering sr;

        snprintf(msg, sizeof(msg), "cc %s: symmetric data: directed = undirected", name);
        is_double(r.directed.global, r.undirected.global, 1e-12, msg);
        snprintf(msg, sizeof(msg), "cc %s: the symmetric shortcut gives the same counts", name);
        ok(augur_clustering_compute(&c, &so, &sr, NULL) == 0 &&
               sr.undirected.global == r.undirected.global &&
               sr.undirected.nlinks == r.undirected.nlinks &&
               sr.undirected.nedges == r.undirected.nedges,
           msg);
    } else {
        snprintf(msg, sizeof(msg), "cc %s: general data: directed differs from undirected", name);
        ok(fabs(r.directed.global - r.undirected.global) > 1e-3, msg);
    }
    if (published >= 0) {
        snprintf(msg, sizeof(msg), "cc %s: SNAP's published %.4f", name, published);
        is_double(r.undirected.global, published, 1e-4, msg);
    }
    {
        /* The library's own reader and CSR expansion give the same pattern and values. */
        struct augur_dataset *ds = NULL;
        struct augur_csr lc;
        struct augur_clustering lr;
        struct augur_features f1, f2;
        bool same;

        memset(&lc, 0, sizeof(lc));
        snprintf(msg, sizeof(msg), "cc %s: loads with augur_dataset_load and builds CSR", name);
        ok(augur_dataset_load(path, NULL, &ds, NULL) == 0 &&
               augur_dataset_csr(ds, true, &lc, NULL) == 0,
           msg);
        same = lc.nrows == c.nrows && lc.nnz == c.nnz && lc.rowptr && lc.col &&
               memcmp(lc.rowptr, c.rowptr, ((size_t)c.nrows + 1) * sizeof(*c.rowptr)) == 0 &&
               memcmp(lc.col, c.col, c.nnz * sizeof(*c.col)) == 0;
        snprintf(msg, sizeof(msg), "cc %s: the library's CSR is the test's pattern", name);
        ok(same, msg);
        snprintf(msg, sizeof(msg), "cc %s: same coefficients and features from it", name);
        ok(same && augur_clustering_compute(&lc, &o, &lr, NULL) == 0 &&
               lr.undirected.global == r.undirected.global &&
               lr.directed.global == r.directed.global &&
               augur_features_compute(&lc, NULL, &f1, NULL) == 0 &&
               augur_features_compute(&c, NULL, &f2, NULL) == 0 && features_eq(&f1, &f2),
           msg);
        augur_csr_release(&lc);
        augur_dataset_free(ds);
    }
    naive_free(&gu);
    naive_free(&gd);
    free(lu);
    free(ld);
    free(ru);
    free(rd);
    free(full);
    free(p);
    csr_free(&c);
}

int main(void)
{
    test_features_runs();
    test_features_fixed_blocks();
    test_features_edge_cases();
    test_features_sampling();
    test_cc_hand();
    test_cc_wheel();
    test_cc_real("polblogs.mtx", -1);
    test_cc_real("snap_email-Eu-core.mtx", 0.3994);
    test_cc_real("snap_ego-Facebook.mtx", 0.6055);
    test_cc_real("ss_bcspwr10.mtx", -1);
    return tap_done();
}
