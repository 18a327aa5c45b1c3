/*
 * rt_matrix.c - sparse formats: normalising a dataset's COO, CSR, ELLPACK,
 * jagged diagonals and SELL-C (module: data).
 */
#include <string.h>

#include "rt_int.h"

void augur_coo_release(struct augur_coo *coo)
{
    augur_free(coo->row);
    augur_free(coo->col);
    augur_free(coo->val);
    memset(coo, 0, sizeof(*coo));
}

void augur_csr_release(struct augur_csr *csr)
{
    augur_free(csr->rowptr);
    augur_free(csr->col);
    augur_free(csr->val);
    memset(csr, 0, sizeof(*csr));
}

void augur_ell_release(struct augur_ell *ell)
{
    augur_free(ell->idx);
    augur_free(ell->val);
    memset(ell, 0, sizeof(*ell));
}

void augur_jds_release(struct augur_jds *jds)
{
    augur_free(jds->ptr);
    augur_free(jds->col);
    augur_free(jds->val);
    augur_free(jds->perm);
    memset(jds, 0, sizeof(*jds));
}

void augur_sell_release(struct augur_sell *sell)
{
    augur_free(sell->cs);
    augur_free(sell->cl);
    augur_free(sell->col);
    augur_free(sell->val);
    memset(sell, 0, sizeof(*sell));
}

/* ---- sorting COO by (row, col) ------------------------------------------- */

/*
 * One digit of the key (row << 32 | col) for a stable counting-sort pass:
 * (key >> shift) & mask takes values in [0, nbuckets).
 */
struct digit {
    unsigned shift;
    uint64_t mask;
    size_t nbuckets;
};

/*
 * The digits that sort an index of n distinct values (at bit offset base of
 * the key), least significant first. An index with no more values than cap is
 * one digit, so that a matrix sorts in two passes; a larger one (a huge,
 * nearly empty matrix) is cut into 16-bit digits so that the bucket counts
 * stay proportional to the number of entries.
 */
static int index_digits(uint64_t n, size_t cap, unsigned base, struct digit *d)
{
    unsigned bits = 0;
    int nd = 0;

    if (n <= 1)
        return 0;
    if (n <= cap) {
        d[0].shift = base;
        d[0].mask = UINT32_MAX;
        d[0].nbuckets = (size_t)n;
        return 1;
    }
    while (bits < 32 && ((n - 1) >> bits) != 0)
        bits++;
    for (unsigned lo = 0; lo < bits; lo += 16) {
        d[nd].shift = base + lo;
        d[nd].mask = 0xFFFF;
        d[nd].nbuckets = (size_t)((((n - 1) >> lo) & 0xFFFF) + 1);
        if (lo + 16 < bits)
            d[nd].nbuckets = 0x10000;
        nd++;
    }
    return nd;
}

/* A stable counting-sort pass by one digit from (kin, vin) to (kout, vout); vin may be NULL. */
static void sort_pass(const uint64_t *kin, const double *vin, uint64_t *kout, double *vout,
                      size_t n, const struct digit *d, size_t *count)
{
    size_t sum = 0;

    memset(count, 0, d->nbuckets * sizeof(*count));
    for (size_t k = 0; k < n; k++)
        count[(kin[k] >> d->shift) & d->mask]++;
    for (size_t b = 0; b < d->nbuckets; b++) {
        size_t c = count[b];

        count[b] = sum;
        sum += c;
    }
    if (vin) {
        for (size_t k = 0; k < n; k++) {
            size_t at = count[(kin[k] >> d->shift) & d->mask]++;

            kout[at] = kin[k];
            vout[at] = vin[k];
        }
    } else {
        for (size_t k = 0; k < n; k++)
            kout[count[(kin[k] >> d->shift) & d->mask]++] = kin[k];
    }
}

/*
 * Sorts the n keys (and their values) with O(n) least-significant-digit
 * counting sort; *keys and *vals may come back swapped with the scratch arrays.
 * col_sorted says the keys are already ordered by column, so only the row
 * passes are needed.
 */
static void sort_keys(uint64_t **keys, double **vals, uint64_t **kscratch, double **vscratch,
                      size_t n, uint32_t nrows, uint32_t ncols, bool col_sorted)
{
    struct digit d[4];
    size_t cap = n < 0x10000 ? 0x10000 : n, maxb = 0, *count;
    int nd = 0;

    if (!col_sorted)
        nd += index_digits(ncols, cap, 0, d + nd);
    nd += index_digits(nrows, cap, 32, d + nd);
    for (int i = 0; i < nd; i++)
        if (d[i].nbuckets > maxb)
            maxb = d[i].nbuckets;
    count = augur_mallocarray(maxb ? maxb : 1, sizeof(*count));
    for (int i = 0; i < nd; i++) {
        uint64_t *kt = *keys;
        double *vt = *vals;

        sort_pass(*keys, *vals, *kscratch, *vscratch, n, &d[i], count);
        *keys = *kscratch;
        *kscratch = kt;
        if (vt) {
            *vals = *vscratch;
            *vscratch = vt;
        }
    }
    augur_free(count);
}

/*
 * A stable counting-sort pass of the entries by one index: key[] (rows or
 * columns, values below nkeys) decides the order, other[] and val[] (may be
 * NULL) move with it into other_out[] and val_out[], and key[] is then
 * rewritten in order from the bucket bounds, sequentially. count has nkeys
 * entries; n fits 32 bits.
 */
static void count_pass(uint32_t *key, const uint32_t *other, const double *val, uint32_t *other_out,
                       double *val_out, size_t n, size_t nkeys, uint32_t *count)
{
    uint32_t sum = 0;

    memset(count, 0, nkeys * sizeof(*count));
    for (size_t k = 0; k < n; k++)
        count[key[k]]++;
    for (size_t b = 0; b < nkeys; b++) {
        uint32_t c = count[b];

        count[b] = sum;
        sum += c;
    }
    if (val) {
        for (size_t k = 0; k < n; k++) {
            uint32_t at = count[key[k]]++;

            other_out[at] = other[k];
            val_out[at] = val[k];
        }
    } else {
        for (size_t k = 0; k < n; k++)
            other_out[count[key[k]]++] = other[k];
    }
    /* count[b] is now the end of bucket b. */
    for (size_t b = 0, at = 0; b < nkeys; b++)
        for (; at < count[b]; at++)
            key[at] = (uint32_t)b;
}

/*
 * Sorts the entries of c by (row, col) through 64-bit keys and 16-bit digits:
 * for matrices whose dimensions dwarf their number of entries, or with more
 * than 2^32 entries.
 */
static void sort_by_keys(struct augur_coo *c, size_t n, bool col_sorted)
{
    uint64_t *keys = augur_mallocarray(n, sizeof(*keys));
    uint64_t *kscratch = augur_mallocarray(n, sizeof(*kscratch));
    double *vals = c->val, *vscratch = c->val ? augur_mallocarray(n, sizeof(double)) : NULL;

    for (size_t k = 0; k < n; k++)
        keys[k] = (uint64_t)c->row[k] << 32 | c->col[k];
    sort_keys(&keys, &vals, &kscratch, &vscratch, n, c->nrows, c->ncols, col_sorted);
    for (size_t k = 0; k < n; k++) {
        c->row[k] = (uint32_t)(keys[k] >> 32);
        c->col[k] = (uint32_t)keys[k];
    }
    if (vals != c->val) { /* the sorted values ended in the scratch array */
        memcpy(c->val, vals, n * sizeof(double));
        vscratch = vals;
    }
    augur_free(keys);
    augur_free(kscratch);
    augur_free(vscratch);
}

/*
 * Sorts the entries of c by (row, col) with one stable counting-sort pass by
 * column (skipped when they are in column order already) and one by row.
 */
static void sort_by_counting(struct augur_coo *c, size_t n, bool col_sorted)
{
    size_t nkeys = c->nrows > c->ncols ? c->nrows : c->ncols;
    uint32_t *count = augur_mallocarray(nkeys ? nkeys : 1, sizeof(*count));
    uint32_t *scratch = augur_mallocarray(n, sizeof(*scratch)), *t;
    double *vscratch = c->val ? augur_mallocarray(n, sizeof(double)) : NULL, *v;

    if (!col_sorted) {
        count_pass(c->col, c->row, c->val, scratch, vscratch, n, c->ncols, count);
        t = c->row, c->row = scratch, scratch = t;
        v = c->val, c->val = vscratch, vscratch = v;
    }
    count_pass(c->row, c->col, c->val, scratch, vscratch, n, c->nrows, count);
    t = c->col, c->col = scratch, scratch = t;
    v = c->val, c->val = vscratch, vscratch = v;
    augur_free(count);
    augur_free(scratch);
    augur_free(vscratch);
}

int rt_coo_finish(struct augur_dataset *ds, struct augur_diag *diag)
{
    struct augur_coo *c = &ds->coo;
    const size_t n = (size_t)c->nnz;
    const enum augur_symmetry sym = ds->symmetry;
    uint32_t *row = c->row, *col = c->col;
    double *val = c->val;
    bool sorted = true, col_sorted = true;
    size_t m = 0, cap = n < 0x10000 ? 0x10000 : n;
    uint64_t ndup = 0, ndiag = 0;

    if (sym != AUGUR_SYM_GENERAL && c->nrows != c->ncols)
        return augur_diag_set(diag, AUGUR_EINVAL, ds->path, 0, 0,
                              "a %s matrix must be square, not %u x %u", augur_symmetry_name(sym),
                              c->nrows, c->ncols);

    /* Upper-triangle entries of symmetric data move down; note what order the entries are in. */
    for (size_t k = 0; k < n; k++) {
        uint32_t i = row[k], j = col[k];

        if (i >= c->nrows || j >= c->ncols)
            AUGUR_BUG("%s: entry %zu (%u, %u) outside the %u x %u matrix", ds->path, k, i, j,
                      c->nrows, c->ncols);
        if (sym != AUGUR_SYM_GENERAL && i < j) {
            row[k] = j;
            col[k] = i;
            i = row[k];
            j = col[k];
            if (sym == AUGUR_SYM_SKEW && val)
                val[k] = -val[k];
        }
        if (sym == AUGUR_SYM_SKEW && i == j)
            return augur_diag_set(diag, AUGUR_EINVAL, ds->path, 0, 0,
                                  "skew-symmetric data with a diagonal entry (%u, %u)", i + 1,
                                  i + 1);
        if (k && (i < row[k - 1] || (i == row[k - 1] && j < col[k - 1])))
            sorted = false;
        if (k && j < col[k - 1])
            col_sorted = false;
    }
    if (!sorted) {
        if (n <= UINT32_MAX && c->nrows <= cap && c->ncols <= cap)
            sort_by_counting(c, n, col_sorted);
        else
            sort_by_keys(c, n, col_sorted);
        row = c->row;
        col = c->col;
        val = c->val;
    }

    /* Merge equal entries (summing values) in place and count the diagonal. */
    for (size_t k = 0; k < n; k++) {
        if (m && row[k] == row[m - 1] && col[k] == col[m - 1]) {
            if (val)
                val[m - 1] += val[k];
            ndup++;
            continue;
        }
        row[m] = row[k];
        col[m] = col[k];
        if (val)
            val[m] = val[k];
        ndiag += row[m] == col[m];
        m++;
    }
    if (m == 0) {
        augur_free(c->row);
        augur_free(c->col);
        augur_free(c->val);
        c->row = c->col = NULL;
        c->val = NULL;
    } else {
        c->row = augur_reallocarray(c->row, m, sizeof(uint32_t));
        c->col = augur_reallocarray(c->col, m, sizeof(uint32_t));
        if (c->val)
            c->val = augur_reallocarray(c->val, m, sizeof(double));
    }
    c->nnz = m;
    ds->nduplicates = ndup;
    ds->ndiagonal = ndiag;
    return 0;
}

/* ---- CSR and ELL ----------------------------------------------------------- */

int augur_dataset_csr(const struct augur_dataset *ds, bool expand, struct augur_csr *out,
                      struct augur_diag *diag)
{
    const struct augur_coo *c = &ds->coo;
    const bool mirror = expand && ds->symmetry != AUGUR_SYM_GENERAL;
    const double sign = ds->symmetry == AUGUR_SYM_SKEW ? -1.0 : 1.0;
    struct augur_csr r = { 0 };
    uint64_t *next = NULL, nnz = 0;

    (void)diag;
    r.nrows = c->nrows;
    r.ncols = c->ncols;
    r.rowptr = augur_calloc((size_t)c->nrows + 1, sizeof(*r.rowptr));
    for (uint64_t k = 0; k < c->nnz; k++) {
        r.rowptr[c->row[k] + 1]++;
        if (mirror && c->row[k] != c->col[k])
            r.rowptr[c->col[k] + 1]++;
    }
    for (uint32_t i = 0; i < c->nrows; i++)
        r.rowptr[i + 1] += r.rowptr[i];
    nnz = r.rowptr[c->nrows];
    r.nnz = nnz;
    r.col = augur_mallocarray(nnz ? (size_t)nnz : 1, sizeof(*r.col));
    if (c->val)
        r.val = augur_mallocarray(nnz ? (size_t)nnz : 1, sizeof(*r.val));
    next = augur_mallocarray((size_t)c->nrows + 1, sizeof(*next));
    memcpy(next, r.rowptr, ((size_t)c->nrows + 1) * sizeof(*next));
    /*
     * The stored lower triangle is sorted by row then column. Row i first gets
     * its own entries (columns <= i, while row i is read), then the mirrored
     * ones (columns > i, from the later rows, in increasing order): sorted.
     */
    for (uint64_t k = 0; k < c->nnz; k++) {
        uint32_t i = c->row[k], j = c->col[k];
        uint64_t at = next[i]++;

        r.col[at] = j;
        if (c->val)
            r.val[at] = c->val[k];
        if (mirror && i != j) {
            at = next[j]++;
            r.col[at] = i;
            if (c->val)
                r.val[at] = sign * c->val[k];
        }
    }
    augur_free(next);
    *out = r;
    return 0;
}

int augur_csr_to_ell(const struct augur_csr *csr, uint32_t width, struct augur_ell *out,
                     struct augur_diag *diag)
{
    struct augur_ell e = { 0 };
    uint64_t maxdeg = 0;
    size_t nslots;
    const size_t nrows = csr->nrows;

    for (size_t i = 0; i < nrows; i++) {
        uint64_t d = csr->rowptr[i + 1] - csr->rowptr[i];

        if (d > maxdeg)
            maxdeg = d;
        if (width && d > width)
            return augur_diag_set(diag, AUGUR_ELIMIT, NULL, 0, 0,
                                  "row %zu has %llu entries, more than the ELL width %u", i,
                                  (unsigned long long)d, width);
    }
    if (!width) {
        if (maxdeg > UINT32_MAX)
            return augur_diag_set(diag, AUGUR_ELIMIT, NULL, 0, 0,
                                  "the longest row has %llu entries: too many for an ELL width",
                                  (unsigned long long)maxdeg);
        width = (uint32_t)maxdeg;
    }
    if (augur_mul_overflows(nrows, width, &nslots) || nslots > SIZE_MAX / sizeof(double))
        return augur_diag_set(diag, AUGUR_ELIMIT, NULL, 0, 0,
                              "ELL of %zu rows x %u slots does not fit in memory", nrows, width);
    {
        uint64_t bytes = (uint64_t)nslots * (sizeof(*e.idx) + (csr->val ? sizeof(*e.val) : 0));
        char what[160];
        int rc;

        snprintf(what, sizeof(what),
                 "ELL of %zu rows x %u slots (the longest row has %llu entries)", nrows, width,
                 (unsigned long long)maxdeg);
        rc = augur_memory_check(bytes, what, diag);
        if (rc)
            return rc;
    }
    e.nrows = csr->nrows;
    e.ncols = csr->ncols;
    e.width = width;
    e.npadding = nslots - csr->rowptr[nrows];
    e.idx = augur_mallocarray(nslots ? nslots : 1, sizeof(*e.idx));
    if (csr->val)
        e.val = augur_mallocarray(nslots ? nslots : 1, sizeof(*e.val));
    /* Slot-major: slot k of every row, then slot k + 1, so the writes are contiguous. */
    for (size_t k = 0; k < width; k++) {
        uint32_t *idx = e.idx + k * nrows;
        double *val = e.val ? e.val + k * nrows : NULL;

        for (size_t i = 0; i < nrows; i++) {
            uint64_t b = csr->rowptr[i];

            if (k < csr->rowptr[i + 1] - b) {
                idx[i] = csr->col[b + k];
                if (val)
                    val[i] = csr->val[b + k];
            } else {
                idx[i] = (uint32_t)i; /* padding: the row itself, with value 0 */
                if (val)
                    val[i] = 0.0;
            }
        }
    }
    *out = e;
    return 0;
}

int augur_csr_to_jds(const struct augur_csr *csr, struct augur_jds *out, struct augur_diag *diag)
{
    struct augur_jds j = { 0 };
    uint64_t maxlen = 0, *count = NULL, bytes;
    const uint32_t n = csr->nrows;
    int rc;

    for (uint32_t i = 0; i < n; i++)
        if (csr->rowptr[i + 1] - csr->rowptr[i] > maxlen)
            maxlen = csr->rowptr[i + 1] - csr->rowptr[i];
    if (maxlen > UINT32_MAX)
        return augur_diag_set(diag, AUGUR_ELIMIT, NULL, 0, 0,
                              "the longest row has %llu entries: too many diagonals",
                              (unsigned long long)maxlen);
    /* ptr and the counts per length, col, val and perm */
    bytes = (2 * maxlen + 3) * sizeof(uint64_t) +
            csr->nnz * (sizeof(uint32_t) + (csr->val ? sizeof(double) : 0)) +
            (uint64_t)n * sizeof(uint32_t);
    rc = augur_memory_check(bytes, "jagged diagonals", diag);
    if (rc)
        return rc;
    j.nrows = n;
    j.ncols = csr->ncols;
    j.nnz = csr->nnz;
    j.ndiag = (uint32_t)maxlen;
    j.ptr = augur_calloc((size_t)maxlen + 1, sizeof(*j.ptr));
    j.col = augur_mallocarray(j.nnz ? j.nnz : 1, sizeof(*j.col));
    j.val = csr->val ? augur_mallocarray(j.nnz ? j.nnz : 1, sizeof(*j.val)) : NULL;
    j.perm = augur_mallocarray(n ? n : 1, sizeof(*j.perm));
    count = augur_calloc((size_t)maxlen + 2, sizeof(*count));
    /* a counting sort by decreasing length keeps rows of one length in order (stable) */
    for (uint32_t i = 0; i < n; i++)
        count[maxlen - (csr->rowptr[i + 1] - csr->rowptr[i]) + 1]++;
    for (uint64_t l = 1; l <= maxlen + 1; l++)
        count[l] += count[l - 1];
    for (uint32_t i = 0; i < n; i++)
        j.perm[count[maxlen - (csr->rowptr[i + 1] - csr->rowptr[i])]++] = i;
    /* diagonal d: the rows longer than d, a prefix of the permuted order */
    for (uint32_t d = 0, rows = n; d < j.ndiag; d++) {
        while (rows > 0 && csr->rowptr[j.perm[rows - 1] + 1] - csr->rowptr[j.perm[rows - 1]] <= d)
            rows--;
        j.ptr[d + 1] = j.ptr[d] + rows;
        for (uint32_t r = 0; r < rows; r++) {
            uint64_t at = csr->rowptr[j.perm[r]] + d;

            j.col[j.ptr[d] + r] = csr->col[at];
            if (j.val)
                j.val[j.ptr[d] + r] = csr->val[at];
        }
    }
    augur_free(count);
    *out = j;
    return 0;
}

int augur_csr_to_sell(const struct augur_csr *csr, uint32_t chunk, struct augur_sell *out,
                      struct augur_diag *diag)
{
    struct augur_sell s = { 0 };
    const uint32_t n = csr->nrows;
    uint64_t nslots = 0, bytes;
    size_t wide;
    int rc;

    if (chunk < 1 || chunk > 64 || (chunk & (chunk - 1)))
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "SELL-C chunk %u is not a power of two from 1 to 64", chunk);
    s.nrows = n;
    s.ncols = csr->ncols;
    s.chunk = chunk;
    s.nchunks = (uint32_t)(((uint64_t)n + chunk - 1) / chunk);
    for (uint32_t c = 0; c < s.nchunks; c++) {
        uint64_t w = 0;

        for (uint32_t r = 0; r < chunk && (uint64_t)c * chunk + r < n; r++) {
            uint32_t i = c * chunk + r;

            if (csr->rowptr[i + 1] - csr->rowptr[i] > w)
                w = csr->rowptr[i + 1] - csr->rowptr[i];
        }
        if (w > UINT32_MAX || augur_mul_overflows((size_t)w, chunk, &wide) ||
            nslots > UINT64_MAX - wide)
            return augur_diag_set(diag, AUGUR_ELIMIT, NULL, 0, 0,
                                  "SELL-%u chunk %u is too wide (%llu entries in a row)", chunk, c,
                                  (unsigned long long)w);
        nslots += wide;
    }
    if (nslots > SIZE_MAX / sizeof(double))
        return augur_diag_set(diag, AUGUR_ELIMIT, NULL, 0, 0,
                              "SELL-%u of %llu slots does not fit in memory", chunk,
                              (unsigned long long)nslots);
    bytes = ((uint64_t)s.nchunks + 1) * sizeof(uint64_t) + (uint64_t)s.nchunks * sizeof(uint32_t) +
            nslots * (sizeof(uint32_t) + (csr->val ? sizeof(double) : 0));
    {
        char what[96];

        snprintf(what, sizeof(what), "SELL-%u of %llu slots", chunk, (unsigned long long)nslots);
        rc = augur_memory_check(bytes, what, diag);
        if (rc)
            return rc;
    }
    s.nslots = nslots;
    s.npadding = nslots - csr->nnz;
    s.cs = augur_mallocarray((size_t)s.nchunks + 1, sizeof(*s.cs));
    s.cl = augur_mallocarray(s.nchunks ? s.nchunks : 1, sizeof(*s.cl));
    s.col = augur_mallocarray(nslots ? nslots : 1, sizeof(*s.col));
    s.val = csr->val ? augur_mallocarray(nslots ? nslots : 1, sizeof(*s.val)) : NULL;
    s.cs[0] = 0;
    for (uint32_t c = 0; c < s.nchunks; c++) {
        uint64_t w = 0;

        for (uint32_t r = 0; r < chunk && (uint64_t)c * chunk + r < n; r++) {
            uint32_t i = c * chunk + r;

            if (csr->rowptr[i + 1] - csr->rowptr[i] > w)
                w = csr->rowptr[i + 1] - csr->rowptr[i];
        }
        s.cl[c] = (uint32_t)w;
        s.cs[c + 1] = s.cs[c] + w * chunk;
        /* column by column: entry j of the chunk's rows side by side */
        for (uint32_t jj = 0; jj < s.cl[c]; jj++)
            for (uint32_t r = 0; r < chunk; r++) {
                uint64_t i = (uint64_t)c * chunk + r, at = s.cs[c] + (uint64_t)jj * chunk + r;

                if (i < n && jj < csr->rowptr[i + 1] - csr->rowptr[i]) {
                    s.col[at] = csr->col[csr->rowptr[i] + jj];
                    if (s.val)
                        s.val[at] = csr->val[csr->rowptr[i] + jj];
                } else {
                    /* padding: the row itself (column 0 past the last row), value 0 */
                    s.col[at] = i < n ? (uint32_t)i : 0;
                    if (s.val)
                        s.val[at] = 0.0;
                }
            }
    }
    *out = s;
    return 0;
}
