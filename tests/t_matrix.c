/*
 * t_matrix.c - tests of the sparse formats (module: data): COO
 * normalisation, CSR expansion and ELLPACK, on hand-built matrices with exact
 * expected arrays and on real datasets against a naive computation.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "augur/base.h"
#include "augur/data.h"
#include "tap.h"

static struct augur_dataset *parse(const char *text)
{
    struct augur_load_opts opts = { 0 };
    struct augur_dataset *ds = NULL;
    struct augur_diag diag;

    opts.format = AUGUR_FORMAT_MTX;
    augur_diag_init(&diag);
    if (augur_dataset_parse(text, strlen(text), "hand.mtx", &opts, &ds, &diag) != 0)
        diag("parse failed: %u:%u: %s", diag.line, diag.col, diag.msg);
    return ds;
}

static bool u32_eq(const uint32_t *got, const uint32_t *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            diag("at %zu: got %u, expected %u", i, got[i], want[i]);
            return false;
        }
    }
    return true;
}

static bool u64_eq(const uint64_t *got, const uint64_t *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            diag("at %zu: got %llu, expected %llu", i, (unsigned long long)got[i],
                 (unsigned long long)want[i]);
            return false;
        }
    }
    return true;
}

static bool dbl_eq(const double *got, const double *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            diag("at %zu: got %.17g, expected %.17g", i, got[i], want[i]);
            return false;
        }
    }
    return true;
}

/* A symmetric real 4 x 4 matrix, unsorted, with one upper entry duplicating a lower one. */
static void test_symmetric(void)
{
    static const char text[] = "%%MatrixMarket matrix coordinate real symmetric\n"
                               "4 4 6\n3 1 2\n1 1 1\n2 2 3\n1 3 0.5\n4 2 4\n4 4 5\n";
    struct augur_dataset *ds = parse(text);
    struct augur_csr csr = { 0 }, low = { 0 };
    struct augur_ell ell = { 0 };
    struct augur_diag diag;
    int rc;

    if (!ok(ds != NULL, "symmetric: parses"))
        return;
    {
        static const uint32_t row[] = { 0, 1, 2, 3, 3 }, col[] = { 0, 1, 0, 1, 3 };
        static const double val[] = { 1, 3, 2.5, 4, 5 };

        is_int(ds->coo.nnz, 5, "symmetric: 5 stored entries after merging");
        ok(u32_eq(ds->coo.row, row, 5) && u32_eq(ds->coo.col, col, 5) &&
               dbl_eq(ds->coo.val, val, 5),
           "symmetric: COO sorted, upper entry mirrored and summed");
        ok(ds->nduplicates == 1 && ds->ndiagonal == 3 && ds->nentries_read == 6,
           "symmetric: 1 duplicate, 3 diagonal, 6 read");
        is_int(augur_dataset_nnz_full(ds), 7, "symmetric: 7 entries in full");
    }

    rc = augur_dataset_csr(ds, true, &csr, &diag);
    if (is_int(rc, 0, "symmetric: expanded CSR")) {
        static const uint64_t rowptr[] = { 0, 2, 4, 5, 7 };
        static const uint32_t col[] = { 0, 2, 1, 3, 0, 1, 3 };
        static const double val[] = { 1, 2.5, 3, 4, 2.5, 4, 5 };

        ok(csr.nrows == 4 && csr.ncols == 4 && csr.nnz == 7, "expanded CSR: shape");
        ok(u64_eq(csr.rowptr, rowptr, 5) && u32_eq(csr.col, col, 7) && dbl_eq(csr.val, val, 7),
           "expanded CSR: both triangles, diagonal once, rows sorted");
    }
    rc = augur_dataset_csr(ds, false, &low, &diag);
    if (is_int(rc, 0, "symmetric: stored-triangle CSR")) {
        static const uint64_t rowptr[] = { 0, 1, 2, 3, 5 };
        static const uint32_t col[] = { 0, 1, 0, 1, 3 };
        static const double val[] = { 1, 3, 2.5, 4, 5 };

        ok(low.nnz == 5 && u64_eq(low.rowptr, rowptr, 5) && u32_eq(low.col, col, 5) &&
               dbl_eq(low.val, val, 5),
           "stored-triangle CSR: the lower triangle only");
    }

    rc = augur_csr_to_ell(&csr, 0, &ell, &diag);
    if (is_int(rc, 0, "ELL width 0 (max degree)")) {
        static const uint32_t idx[] = { 0, 1, 0, 1, 2, 3, 2, 3 };
        static const double val[] = { 1, 3, 2.5, 4, 2.5, 4, 0, 5 };

        ok(ell.nrows == 4 && ell.ncols == 4 && ell.width == 2 && ell.npadding == 1,
           "ELL: width 2, one padding slot");
        ok(u32_eq(ell.idx, idx, 8) && dbl_eq(ell.val, val, 8),
           "ELL: slot-major, padding points at its own row with value 0");
    }
    augur_ell_release(&ell);
    rc = augur_csr_to_ell(&csr, 3, &ell, &diag);
    if (is_int(rc, 0, "ELL width 3")) {
        static const uint32_t idx[] = { 0, 1, 0, 1, 2, 3, 2, 3, 0, 1, 2, 3 };

        ok(ell.width == 3 && ell.npadding == 5 && u32_eq(ell.idx, idx, 12) && ell.val[8] == 0 &&
               ell.val[11] == 0,
           "ELL width 3: a full padding slot");
    }
    augur_ell_release(&ell);
    augur_diag_init(&diag);
    rc = augur_csr_to_ell(&csr, 1, &ell, &diag);
    is_int(rc, AUGUR_ELIMIT, "ELL width 1 is too narrow");
    ok(strstr(diag.msg, "row 0 has 2 entries") != NULL && ell.idx == NULL,
       "ELL too narrow: names the first long row");
    diag("%s", diag.msg);

    augur_csr_release(&csr);
    augur_csr_release(&low);
    augur_ell_release(&ell);
    augur_dataset_free(ds);
}

/* Skew-symmetric: the mirrored entries are negated. */
static void test_skew(void)
{
    static const char text[] = "%%MatrixMarket matrix coordinate real skew-symmetric\n"
                               "3 3 2\n2 1 1.5\n1 3 2\n";
    struct augur_dataset *ds = parse(text);
    struct augur_csr csr = { 0 };
    struct augur_diag diag;

    if (!ok(ds != NULL, "skew: parses"))
        return;
    {
        static const uint32_t row[] = { 1, 2 }, col[] = { 0, 0 };
        static const double val[] = { 1.5, -2 };

        ok(ds->coo.nnz == 2 && u32_eq(ds->coo.row, row, 2) && u32_eq(ds->coo.col, col, 2) &&
               dbl_eq(ds->coo.val, val, 2),
           "skew: upper entry moved down and negated");
        is_int(augur_dataset_nnz_full(ds), 4, "skew: 4 entries in full");
    }
    if (is_int(augur_dataset_csr(ds, true, &csr, &diag), 0, "skew: expanded CSR")) {
        static const uint64_t rowptr[] = { 0, 2, 3, 4 };
        static const uint32_t col[] = { 1, 2, 0, 0 };
        static const double val[] = { -1.5, 2, 1.5, -2 };

        ok(csr.nnz == 4 && u64_eq(csr.rowptr, rowptr, 4) && u32_eq(csr.col, col, 4) &&
               dbl_eq(csr.val, val, 4),
           "skew CSR: a(j,i) = -a(i,j)");
    }
    augur_csr_release(&csr);
    augur_dataset_free(ds);
}

/* General pattern with empty rows, a rectangular shape and no values. */
static void test_pattern_general(void)
{
    static const char text[] = "%%MatrixMarket matrix coordinate pattern general\n"
                               "4 6 5\n4 6\n1 2\n4 1\n1 5\n4 6\n";
    struct augur_dataset *ds = parse(text);
    struct augur_csr csr = { 0 };
    struct augur_ell ell = { 0 };
    struct augur_diag diag;

    if (!ok(ds != NULL, "pattern: parses"))
        return;
    if (is_int(augur_dataset_csr(ds, true, &csr, &diag), 0, "pattern: CSR")) {
        static const uint64_t rowptr[] = { 0, 2, 2, 2, 4 };
        static const uint32_t col[] = { 1, 4, 0, 5 };

        ok(csr.nrows == 4 && csr.ncols == 6 && csr.nnz == 4 && csr.val == NULL &&
               u64_eq(csr.rowptr, rowptr, 5) && u32_eq(csr.col, col, 4),
           "pattern CSR: empty rows, duplicate merged, no values");
    }
    if (is_int(augur_csr_to_ell(&csr, 0, &ell, &diag), 0, "pattern: ELL")) {
        static const uint32_t idx[] = { 1, 1, 2, 0, 4, 1, 2, 5 };

        ok(ell.width == 2 && ell.npadding == 4 && ell.val == NULL && u32_eq(ell.idx, idx, 8),
           "pattern ELL: empty rows are all padding");
    }
    augur_ell_release(&ell);
    augur_csr_release(&csr);
    augur_dataset_free(ds);

    /* An empty matrix: nothing to allocate, everything released. */
    ds = parse("%%MatrixMarket matrix coordinate pattern general\n3 3 0\n");
    if (ok(ds != NULL, "empty: parses")) {
        ok(augur_dataset_csr(ds, true, &csr, &diag) == 0 && csr.nnz == 0 && csr.rowptr[3] == 0,
           "empty: CSR of zero entries");
        ok(augur_csr_to_ell(&csr, 0, &ell, &diag) == 0 && ell.width == 0 && ell.npadding == 0,
           "empty: ELL of width 0");
    }
    augur_ell_release(&ell);
    augur_csr_release(&csr);
    augur_dataset_free(ds);

    /* Releasing zeroed structs is a no-op. */
    {
        struct augur_coo z1 = { 0 };
        struct augur_csr z2 = { 0 };
        struct augur_ell z3 = { 0 };

        augur_coo_release(&z1);
        augur_csr_release(&z2);
        augur_ell_release(&z3);
        ok(z1.row == NULL && z2.rowptr == NULL && z3.idx == NULL, "release accepts zeroed structs");
    }
}

/* ---- random matrices against qsort --------------------------------------- */

struct entry {
    uint32_t r, c;
    double v;
};

static int cmp_entry(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;

    if (x->r != y->r)
        return x->r < y->r ? -1 : 1;
    if (x->c != y->c)
        return x->c < y->c ? -1 : 1;
    return 0;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/*
 * Writes n random entries of an nrows x ncols matrix (many duplicates when the
 * range is small), parses them and compares the COO with a qsort reference.
 * order: 0 random, 1 sorted by column, 2 sorted by row then column.
 */
static void random_case(const char *name, uint32_t nrows, uint32_t ncols, size_t n, uint32_t range,
                        int order, bool symmetric)
{
    struct augur_buf text;
    struct entry *e = augur_mallocarray(n ? n : 1, sizeof(*e));
    struct augur_dataset *ds;
    size_t m = 0;
    uint64_t ndup = 0;
    bool same = true;
    char msg[200];

    for (size_t k = 0; k < n; k++) {
        uint32_t rmax = range < nrows ? range : nrows, cmax = range < ncols ? range : ncols;

        e[k].r = (uint32_t)(rng() % rmax) * (nrows / rmax);
        e[k].c = (uint32_t)(rng() % cmax) * (ncols / cmax);
        e[k].v = (double)(rng() % 1000) / 8.0;
    }
    if (order == 1) {
        /* Column order: sort by (c, r) through swapped fields. */
        for (size_t k = 0; k < n; k++) {
            uint32_t t = e[k].r;

            e[k].r = e[k].c;
            e[k].c = t;
        }
        qsort(e, n, sizeof(*e), cmp_entry);
        for (size_t k = 0; k < n; k++) {
            uint32_t t = e[k].r;

            e[k].r = e[k].c;
            e[k].c = t;
        }
    } else if (order == 2) {
        qsort(e, n, sizeof(*e), cmp_entry);
    }
    augur_buf_init(&text);
    augur_buf_printf(&text, "%%%%MatrixMarket matrix coordinate real %s\n%u %u %zu\n",
                     symmetric ? "symmetric" : "general", nrows, ncols, n);
    for (size_t k = 0; k < n; k++)
        augur_buf_printf(&text, "%u %u %.17g\n", e[k].r + 1, e[k].c + 1, e[k].v);
    ds = parse(text.s);

    /* The reference: mirror, qsort (stable order does not matter for sums of eighths), merge. */
    for (size_t k = 0; k < n; k++) {
        if (symmetric && e[k].r < e[k].c) {
            uint32_t t = e[k].r;

            e[k].r = e[k].c;
            e[k].c = t;
        }
    }
    qsort(e, n, sizeof(*e), cmp_entry);
    for (size_t k = 0; k < n; k++) {
        if (m && cmp_entry(&e[k], &e[m - 1]) == 0) {
            e[m - 1].v += e[k].v;
            ndup++;
            continue;
        }
        e[m++] = e[k];
    }
    snprintf(msg, sizeof(msg), "%s: parses", name);
    if (ok(ds != NULL, msg)) {
        snprintf(msg, sizeof(msg), "%s: %zu entries, %llu duplicates", name, m,
                 (unsigned long long)ndup);
        ok(ds->coo.nnz == m && ds->nduplicates == ndup, msg);
        for (size_t k = 0; k < m && ds->coo.nnz == m && same; k++) {
            same = ds->coo.row[k] == e[k].r && ds->coo.col[k] == e[k].c && ds->coo.val[k] == e[k].v;
            if (!same)
                diag("entry %zu: got (%u, %u, %g), expected (%u, %u, %g)", k, ds->coo.row[k],
                     ds->coo.col[k], ds->coo.val[k], e[k].r, e[k].c, e[k].v);
        }
        snprintf(msg, sizeof(msg), "%s: same entries as qsort", name);
        ok(same && ds->coo.nnz == m, msg);
    }
    augur_dataset_free(ds);
    augur_buf_release(&text);
    augur_free(e);
}

static void test_random(void)
{
    random_case("random general", 300, 200, 5000, 300, 0, false);
    random_case("random with many duplicates", 50, 50, 4000, 20, 0, false);
    random_case("random in column order", 400, 500, 3000, 500, 1, false);
    random_case("random already sorted", 400, 500, 3000, 500, 2, false);
    random_case("random symmetric", 250, 250, 4000, 250, 0, true);
    random_case("huge sparse dimensions", 16000000u, 12000000u, 3000, 1u << 30, 0, false);
    random_case("huge dimensions in column order", 16000000u, 7, 2000, 1u << 30, 1, false);
    random_case("huge symmetric", 16777216u, 16777216u, 2000, 1u << 30, 0, true);
}

/* ---- real datasets: CSR against a naive computation from the COO ----------- */

static void check_real(const char *dir, const char *name, uint32_t maxdeg)
{
    char path[1024], msg[300];
    struct augur_dataset *ds = NULL;
    struct augur_csr csr = { 0 };
    struct augur_ell ell = { 0 };
    struct augur_diag diag;
    uint64_t *deg = NULL, maxd = 0, pad = 0;
    double *sum = NULL;
    bool deg_ok = true, sum_ok = true, sorted = true, ell_ok = true;
    const struct augur_coo *c;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    augur_diag_init(&diag);
    if (augur_dataset_load(path, NULL, &ds, &diag) != 0) {
        snprintf(msg, sizeof(msg), "%s loads", name);
        ok(false, msg);
        diag("%s", diag.msg);
        return;
    }
    c = &ds->coo;
    /* Naive: every stored entry adds to its row, and its mirror to the column's row. */
    deg = augur_calloc((size_t)c->nrows + 1, sizeof(*deg));
    sum = augur_calloc((size_t)c->nrows + 1, sizeof(*sum));
    for (uint64_t k = 0; k < c->nnz; k++) {
        double v = c->val ? c->val[k] : 1.0;

        deg[c->row[k]]++;
        sum[c->row[k]] += v;
        if (ds->symmetry != AUGUR_SYM_GENERAL && c->row[k] != c->col[k]) {
            deg[c->col[k]]++;
            sum[c->col[k]] += ds->symmetry == AUGUR_SYM_SKEW ? -v : v;
        }
    }
    snprintf(msg, sizeof(msg), "%s: expanded CSR", name);
    if (!is_int(augur_dataset_csr(ds, true, &csr, &diag), 0, msg))
        goto out;
    for (uint32_t i = 0; i < csr.nrows; i++) {
        double s = 0;

        if (csr.rowptr[i + 1] - csr.rowptr[i] != deg[i])
            deg_ok = false;
        if (deg[i] > maxd)
            maxd = deg[i];
        for (uint64_t k = csr.rowptr[i]; k < csr.rowptr[i + 1]; k++) {
            s += csr.val ? csr.val[k] : 1.0;
            if (k > csr.rowptr[i] && csr.col[k] <= csr.col[k - 1])
                sorted = false;
        }
        if (fabs(s - sum[i]) > 1e-9 * (fabs(sum[i]) + 1.0))
            sum_ok = false;
    }
    snprintf(msg, sizeof(msg), "%s: CSR degrees match the naive count", name);
    ok(deg_ok && csr.nnz == augur_dataset_nnz_full(ds), msg);
    snprintf(msg, sizeof(msg), "%s: CSR row sums match the naive sums", name);
    ok(sum_ok, msg);
    snprintf(msg, sizeof(msg), "%s: CSR rows sorted without duplicates", name);
    ok(sorted, msg);
    snprintf(msg, sizeof(msg), "%s: max degree %u (manifest)", name, maxdeg);
    is_int(maxd, maxdeg, msg);

    snprintf(msg, sizeof(msg), "%s: ELL width 0", name);
    if (!is_int(augur_csr_to_ell(&csr, 0, &ell, &diag), 0, msg))
        goto out;
    for (uint32_t i = 0; i < csr.nrows && ell_ok; i++) {
        uint64_t b = csr.rowptr[i], d = csr.rowptr[i + 1] - b;

        for (uint32_t k = 0; k < ell.width; k++) {
            size_t at = (size_t)k * csr.nrows + i;
            bool real = k < d;

            if (ell.idx[at] != (real ? csr.col[b + k] : i) ||
                (ell.val && ell.val[at] != (real ? csr.val[b + k] : 0.0)))
                ell_ok = false;
            pad += !real;
        }
    }
    snprintf(msg, sizeof(msg), "%s: ELL holds the CSR rows, padded with the row itself", name);
    ok(ell_ok && ell.width == maxdeg && ell.npadding == pad &&
           pad == (uint64_t)csr.nrows * ell.width - csr.nnz,
       msg);
out:
    augur_ell_release(&ell);
    augur_csr_release(&csr);
    augur_free(deg);
    augur_free(sum);
    augur_dataset_free(ds);
}

/* A dataset built from CSR holds its entries; a CSR that is not one is refused. */
static void test_from_csr(void)
{
    uint64_t rowptr[4] = { 0, 2, 2, 3 };
    uint32_t col[3] = { 1, 2, 0 };
    double val[3] = { 1.5, -2, 3 };
    struct augur_csr csr = { 3, 3, 3, rowptr, col, val };
    struct augur_dataset *ds = NULL;
    struct augur_diag diag;
    const uint32_t want_row[3] = { 0, 0, 2 };

    augur_diag_init(&diag);
    if (ok(augur_dataset_from_csr(&csr, "csr", &ds, &diag) == 0, "from CSR")) {
        ok(ds->coo.nnz == 3 && u32_eq(ds->coo.row, want_row, 3) && u32_eq(ds->coo.col, col, 3) &&
               dbl_eq(ds->coo.val, val, 3) && ds->field == AUGUR_FIELD_REAL,
           "from CSR: the same entries, real");
        augur_dataset_free(ds);
    }
    col[1] = 3;
    ds = NULL;
    ok(augur_dataset_from_csr(&csr, "csr", &ds, &diag) == AUGUR_EINVAL && !ds &&
           strstr(diag.msg, "column 3 of 3"),
       "from CSR: a column outside the matrix is refused");
    col[1] = 2;
    rowptr[2] = 3;
    rowptr[3] = 2;
    ok(augur_dataset_from_csr(&csr, "csr", &ds, &diag) == AUGUR_EINVAL && !ds,
       "from CSR: row pointers out of order are refused");
}

int main(void)
{
    const char *data = tap_datasets();
    char dir[900];

    test_symmetric();
    test_skew();
    test_pattern_general();
    test_random();
    test_from_csr();
    if (data && *data) {
        snprintf(dir, sizeof(dir), "%s/mtx", data);
        /* Max degrees from the manifest's "maxdeg / cv" column. */
        check_real(dir, "ss_bcsstk13.mtx", 95);
        check_real(dir, "ss_bayer10.mtx", 27);
        check_real(dir, "snap_wiki-Vote.mtx", 893);
        check_real(dir, "ss_rajat01.mtx", 1442);
        check_real(dir, "road_usa_NY.mtx.gz", 8);
        check_real(dir, "walshaw_wing.mtx", 4);
    } else {
        skip("AUGUR_DATASETS is not set", "real datasets");
    }
    return tap_done();
}
