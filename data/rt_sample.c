/*
 * rt_sample.c - performance-preserving samplers of Zhu et al. PACT'19 section III:
 * Random Edge, Stride Average (Algorithm 1) and Random Tile (Algorithm 2),
 * augur's Random Row Blocks, and the stride-preserving renumbering of a
 * sample (module: data).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "augur/data.h"

static const char *const sampler_names[] = {
#define X(e, name, text) name,
    AUGUR_SAMPLERS(X)
#undef X
};

const char *augur_sampler_name(enum augur_sampler s)
{
    return (unsigned)s < AUGUR_SAMPLER_COUNT ? sampler_names[s] : "?";
}

int augur_sampler_parse(const char *name, enum augur_sampler *out)
{
    for (unsigned i = 0; i < AUGUR_SAMPLER_COUNT; i++)
        if (strcmp(name, sampler_names[i]) == 0) {
            *out = (enum augur_sampler)i;
            return 0;
        }
    return AUGUR_EINVAL;
}

/* A taken entry: its position in the CSR arrays and its row. */
struct pick {
    uint64_t pos;
    uint32_t row;
};

/* Everything a sampler builds before the sample is assembled. */
struct picks {
    struct augur_vec v; /* struct pick */
    uint64_t *taken;    /* RT: bitmap over the entries (an entry is taken once); else NULL */
};

static void take(struct picks *p, uint64_t pos, uint32_t row)
{
    struct pick *k = augur_vec_push(&p->v);

    k->pos = pos;
    k->row = row;
}

/* First position in row [lo, hi) whose column is >= j (rows are sorted). */
static uint64_t lower_bound(const uint32_t *col, uint64_t lo, uint64_t hi, uint32_t j)
{
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;

        if (col[mid] < j)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The row's bounds, checked against nnz so that a bad CSR cannot make us read out of bounds. */
static int row_bounds(const struct augur_csr *csr, uint32_t i, uint64_t *lo, uint64_t *hi,
                      struct augur_diag *diag)
{
    *lo = csr->rowptr[i];
    *hi = csr->rowptr[i + 1];
    if (*lo > *hi || *hi > csr->nnz)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "csr row %u: row pointers %llu..%llu out of order or past nnz %llu",
                              i, (unsigned long long)*lo, (unsigned long long)*hi,
                              (unsigned long long)csr->nnz);
    return 0;
}

/*
 * Random Edge: Knuth's selection sampling over the entries takes exactly
 * target of them, every subset equally likely, in storage order.
 */
static int sample_re(const struct augur_csr *csr, uint64_t target, uint64_t *state, struct picks *p,
                     struct augur_diag *diag)
{
    uint64_t need = target, left = csr->nnz;

    augur_vec_reserve(&p->v, target);
    for (uint32_t i = 0; i < csr->nrows && need > 0; i++) {
        uint64_t lo, hi;
        int rc = row_bounds(csr, i, &lo, &hi, diag);

        if (rc)
            return rc;
        for (uint64_t k = lo; k < hi && need > 0; k++, left--)
            if (augur_rand_unit(state) * (double)left < (double)need) {
                take(p, k, i);
                need--;
            }
    }
    return 0;
}

/*
 * The two intervals of Stride Average along one axis of n indices: side
 * floor(l n), centred on n/4 and 3n/4 (or, shifted, at the fractions u[0]
 * and u[1] of the room in the first and the second half of the axis),
 * clamped inside [0, n) and apart.
 */
static void sa_axis(uint32_t n, double l, const double *u, uint32_t lo[2], uint32_t *side)
{
    double s = floor(l * (double)n), a, c;

    *side = (uint32_t)s;
    if (u) {
        double half = floor((double)n / 2.0), room = half - s;

        a = room > 0 ? floor(u[0] * (room + 1)) : 0;
        c = half + (room > 0 ? floor(u[1] * (room + 1)) : 0);
    } else {
        a = floor((double)n / 4.0 - s / 2.0);
        c = floor(3.0 * (double)n / 4.0 - s / 2.0);
    }
    if (a < 0)
        a = 0;
    if (c < a + s)
        c = a + s;
    if (c > (double)n - s)
        c = (double)n - s;
    lo[0] = (uint32_t)a;
    lo[1] = (uint32_t)c;
}

/* Places the four squares of relative side l; 0, or an error for bad row pointers. */
static int sa_place(const struct augur_csr *csr, double l, const double *u,
                    struct augur_sample_info *info, uint64_t *count, struct augur_diag *diag)
{
    *count = 0;
    sa_axis(csr->nrows, l, u, info->row_lo, &info->row_side);
    sa_axis(csr->ncols, l, u ? u + 2 : NULL, info->col_lo, &info->col_side);
    for (int r = 0; r < 2; r++)
        for (uint32_t i = info->row_lo[r]; i < info->row_lo[r] + info->row_side; i++) {
            uint64_t lo, hi;
            int rc = row_bounds(csr, i, &lo, &hi, diag);

            if (rc)
                return rc;
            for (int c = 0; c < 2; c++) {
                uint64_t first = lower_bound(csr->col, lo, hi, info->col_lo[c]);

                *count +=
                    lower_bound(csr->col, first, hi, info->col_lo[c] + info->col_side) - first;
            }
        }
    return 0;
}

/*
 * Stride Average (Algorithm 1): every entry in rows [row_lo[k], +row_side)
 * and columns [col_lo[k'], +col_side), k, k' in {0, 1}: two squares on the
 * diagonal, two on the anti-diagonal. The paper's side, sqrt(p/4) n, gives
 * the squares p of the area, which holds p of the entries only where they
 * are spread evenly (a band matrix's diagonal squares hold several times
 * more); the side is the smallest whose squares hold the target of entries,
 * found by bisection from the paper's. Each row's columns are found by
 * binary search (the algorithm's early break, which needs sorted rows, made
 * exact).
 */
static int sample_sa(const struct augur_csr *csr, uint64_t target, bool shifted, uint64_t *state,
                     struct augur_sample_info *info, struct picks *p, struct augur_diag *diag)
{
    uint32_t longer = csr->nrows > csr->ncols ? csr->nrows : csr->ncols;
    double area = sqrt(info->rate / 4.0), lo = 0, hi = 0.5, u[4];
    const double *place = shifted ? u : NULL;
    uint64_t count;
    int rc;

    for (int k = 0; k < 4; k++)
        u[k] = augur_rand_unit(state);
    if ((rc = sa_place(csr, area, place, info, &count, diag)) != 0)
        return rc;
    if (count >= target)
        hi = area;
    else
        lo = area;
    /* the squares grow with l: bisect to a quarter of an index on the longer axis */
    while (hi - lo > 0.25 / longer) {
        double mid = (lo + hi) / 2;

        if ((rc = sa_place(csr, mid, place, info, &count, diag)) != 0)
            return rc;
        if (count >= target)
            hi = mid;
        else
            lo = mid;
    }
    if ((rc = sa_place(csr, hi, place, info, &count, diag)) != 0)
        return rc;
    if (info->row_side < 1 || info->col_side < 1)
        return augur_diag_set(diag, AUGUR_ERANGE, NULL, 0, 0,
                              "matrix too small for Stride Average at rate %g: squares of "
                              "%u x %u indices",
                              info->rate, info->row_side, info->col_side);
    for (int r = 0; r < 2; r++)
        for (uint32_t i = info->row_lo[r]; i < info->row_lo[r] + info->row_side; i++) {
            uint64_t rlo = csr->rowptr[i], rhi = csr->rowptr[i + 1];

            for (int c = 0; c < 2; c++) {
                uint32_t end = info->col_lo[c] + info->col_side;

                for (uint64_t k = lower_bound(csr->col, rlo, rhi, info->col_lo[c]);
                     k < rhi && csr->col[k] < end; k++)
                    take(p, k, i);
            }
        }
    if (p->v.len == 0)
        return augur_diag_set(diag, AUGUR_ERANGE, NULL, 0, 0,
                              "the Stride Average squares (rows %u+%u and %u+%u) hold no entry: "
                              "try Random Tile or a higher rate",
                              info->row_lo[0], info->row_side, info->row_lo[1], info->row_side);
    return 0;
}

/*
 * Random Tile (Algorithm 2). A tile of default side t has its top left
 * corner (a, b) drawn uniformly among the positions where it fits; the
 * density of its first and last rows, (deg(a) + deg(a + t - 1)) / (2 ncols),
 * against the matrix density s = nnz / (nrows ncols) makes it 0.5 t (below
 * 0.5 s) or 1.5 t (above 1.5 s) wide, clipped at the matrix border. Every
 * entry in the tile not taken before is taken. Tiles are drawn until target
 * entries are taken, or the tile budget is spent.
 */
static int sample_rt(const struct augur_csr *csr, uint64_t target, uint64_t *state,
                     struct augur_sample_info *info, struct picks *p, struct augur_diag *diag)
{
    uint32_t nmin = csr->nrows < csr->ncols ? csr->nrows : csr->ncols;
    double s = (double)csr->nnz / ((double)csr->nrows * (double)csr->ncols);
    uint64_t budget, taken = 0;
    uint32_t t = info->tile;

    if (t == 0) {
        double want = round((double)nmin * sqrt(info->rate / AUGUR_RT_TILES));

        t = want < 1.0 ? 1 : (uint32_t)want;
    }
    if (t > nmin)
        t = nmin;
    info->tile = t;
    budget = 1000ull * AUGUR_RT_TILES + 4 * target;
    p->taken = augur_calloc((size_t)(csr->nnz / 64 + 1), sizeof(uint64_t));
    while (taken < target && info->ntiles < budget) {
        uint32_t a = augur_rand_below(state, csr->nrows - t + 1);
        uint32_t b = augur_rand_below(state, csr->ncols - t + 1);
        uint64_t lo, hi, lo2, hi2, added = 0;
        uint32_t l = t, rend, cend;
        double dens;
        int rc;

        rc = row_bounds(csr, a, &lo, &hi, diag);
        if (!rc)
            rc = row_bounds(csr, a + t - 1, &lo2, &hi2, diag);
        if (rc)
            return rc;
        dens = (double)(hi - lo + hi2 - lo2) / (2.0 * (double)csr->ncols);
        if (dens < 0.5 * s) {
            l = (uint32_t)round(0.5 * t);
            if (l < 1)
                l = 1;
            info->nsparse++;
        } else if (dens > 1.5 * s) {
            l = (uint32_t)round(1.5 * t);
            info->ndense++;
        }
        rend = (uint64_t)a + l > csr->nrows ? csr->nrows : a + l;
        cend = (uint64_t)b + l > csr->ncols ? csr->ncols : b + l;
        for (uint32_t u = a; u < rend; u++) {
            rc = row_bounds(csr, u, &lo, &hi, diag);
            if (rc)
                return rc;
            for (uint64_t k = lower_bound(csr->col, lo, hi, b); k < hi && csr->col[k] < cend; k++) {
                if (p->taken[k / 64] >> (k % 64) & 1)
                    continue;
                p->taken[k / 64] |= 1ull << (k % 64);
                take(p, k, u);
                added++;
            }
        }
        taken += added;
        info->ntiles++;
        info->last_tile_nnz = added;
    }
    return 0;
}

/* floor(a * k / d) without overflow for d, k < 2^32 (k <= d). */
static uint64_t mul_div(uint64_t a, uint32_t k, uint32_t d)
{
    return a / d * k + a % d * k / d;
}

/* The row that holds entry pos (rows are sorted; the last one whose first entry is <= pos). */
static uint32_t row_of(const struct augur_csr *csr, uint64_t pos)
{
    uint32_t lo = 0, hi = csr->nrows;

    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;

        if (csr->rowptr[mid] <= pos)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/*
 * Random Row Blocks: the entries, in storage order, are cut into K equal
 * segments; segment k gets a run of consecutive whole rows that starts at
 * the row holding an entry drawn uniformly among the positions where the
 * run's quota still fits in the segment (or where the previous run ended,
 * if later), and takes rows until round(target (k + 1) / K) entries are
 * taken in all (a run whose quota an earlier run's last row already met is
 * skipped). Every entry of a taken row is taken, so target <= taken <
 * target + the largest row degree. The rows cannot run out first: the
 * entries before a run's end that no run took are at most m - target
 * (each run starts by the segment's end less its want), which leaves at
 * least the entries still wanted after it.
 */
static int sample_rb(const struct augur_csr *csr, uint64_t target, uint64_t *state,
                     struct augur_sample_info *info, struct picks *p, struct augur_diag *diag)
{
    uint64_t m = csr->nnz, taken = 0;
    uint32_t nb = AUGUR_RB_BLOCKS, next = 0;

    if (nb > target)
        nb = (uint32_t)target;
    if (nb > csr->nrows)
        nb = csr->nrows;
    info->blocks = nb;
    augur_vec_reserve(&p->v, target);
    for (uint32_t k = 0; k < nb && next < csr->nrows; k++) {
        uint64_t seg_lo = mul_div(m, k, nb), seg_hi = mul_div(m, k + 1, nb);
        uint64_t quota = mul_div(target, k + 1, nb), want, slack, pos;
        uint32_t r;

        if (taken >= quota)
            continue;
        want = quota - taken;
        slack = seg_hi - seg_lo > want ? seg_hi - seg_lo - want : 0;
        pos = seg_lo + (uint64_t)(augur_rand_unit(state) * (double)(slack + 1));
        if (pos > seg_lo + slack)
            pos = seg_lo + slack;
        r = row_of(csr, pos);
        for (r = r < next ? next : r; taken < quota && r < csr->nrows; r++) {
            uint64_t lo, hi;
            int rc = row_bounds(csr, r, &lo, &hi, diag);

            if (rc)
                return rc;
            for (uint64_t j = lo; j < hi; j++)
                take(p, j, r);
            taken += hi - lo;
            info->rows_taken++;
        }
        next = r;
    }
    return 0;
}

static int cmp_pick(const void *x, const void *y)
{
    const struct pick *a = x, *b = y;

    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* Sorted distinct ids and their new numbers under the gap rule (AUGUR_SAMPLE_ALIGN). */
struct numbering {
    uint32_t *old, *new_;
    size_t n;
    uint32_t size; /* indices of the new numbering */
};

static void numbering_release(struct numbering *m)
{
    augur_free(m->old);
    augur_free(m->new_);
    memset(m, 0, sizeof(*m));
}

/* Takes ids (n of them, the array becomes the numbering's), sorts and numbers them. */
static void numbering_build(struct numbering *m, uint32_t *ids, size_t n)
{
    const uint64_t g = AUGUR_SAMPLE_ALIGN;
    size_t k = 0;
    uint64_t cur = 0;

    qsort(ids, n, sizeof(*ids), augur_cmp_u32);
    for (size_t i = 0; i < n; i++)
        if (i == 0 || ids[i] != ids[k - 1])
            ids[k++] = ids[i];
    m->old = ids;
    m->n = k;
    m->new_ = augur_mallocarray(k ? k : 1, sizeof(uint32_t));
    for (size_t i = 0; i < k; i++) {
        if (i == 0) {
            cur = ids[0] % g;
        } else {
            uint64_t d = (uint64_t)ids[i] - ids[i - 1];

            cur += d < 2 * g ? d : g + d % g;
        }
        m->new_[i] = (uint32_t)cur;
    }
    m->size = k ? (uint32_t)(cur + 1) : 0;
}

static uint32_t numbering_map(const struct numbering *m, uint32_t id)
{
    size_t lo = 0, hi = m->n;

    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;

        if (m->old[mid] <= id)
            lo = mid;
        else
            hi = mid;
    }
    return m->new_[lo];
}

/* The original index of every new index (UINT32_MAX for gap indices). */
static uint32_t *numbering_inverse(const struct numbering *m)
{
    uint32_t *inv = augur_mallocarray(m->size ? m->size : 1, sizeof(uint32_t));

    memset(inv, 0xff, (size_t)(m->size ? m->size : 1) * sizeof(uint32_t));
    for (size_t i = 0; i < m->n; i++)
        inv[m->new_[i]] = m->old[i];
    return inv;
}

/* Builds the renumbered CSR of the picks (sorted by position, so by row then column). */
static void assemble(const struct augur_csr *csr, const struct picks *p, struct augur_sample *out)
{
    const struct pick *pk = p->v.data;
    size_t n = p->v.len;
    bool square = csr->nrows == csr->ncols;
    struct numbering rows = { 0 }, cols = { 0 };
    struct augur_csr *s = &out->csr;
    uint32_t *ids;

    if (square) {
        ids = augur_mallocarray(2 * n, sizeof(uint32_t));
        for (size_t i = 0; i < n; i++) {
            ids[2 * i] = pk[i].row;
            ids[2 * i + 1] = csr->col[pk[i].pos];
        }
        numbering_build(&rows, ids, 2 * n);
    } else {
        ids = augur_mallocarray(n, sizeof(uint32_t));
        for (size_t i = 0; i < n; i++)
            ids[i] = pk[i].row;
        numbering_build(&rows, ids, n);
        ids = augur_mallocarray(n, sizeof(uint32_t));
        for (size_t i = 0; i < n; i++)
            ids[i] = csr->col[pk[i].pos];
        numbering_build(&cols, ids, n);
    }
    s->nrows = rows.size;
    s->ncols = square ? rows.size : cols.size;
    s->nnz = n;
    s->rowptr = augur_calloc((size_t)s->nrows + 1, sizeof(uint64_t));
    s->col = augur_mallocarray(n, sizeof(uint32_t));
    s->val = csr->val ? augur_mallocarray(n, sizeof(double)) : NULL;
    for (size_t i = 0; i < n; i++) {
        uint32_t r = numbering_map(&rows, pk[i].row);

        s->rowptr[r + 1]++;
        s->col[i] = numbering_map(square ? &rows : &cols, csr->col[pk[i].pos]);
        if (s->val)
            s->val[i] = csr->val[pk[i].pos];
    }
    for (uint32_t r = 0; r < s->nrows; r++)
        s->rowptr[r + 1] += s->rowptr[r];
    out->row_orig = numbering_inverse(&rows);
    out->col_orig = numbering_inverse(square ? &rows : &cols);
    numbering_release(&rows);
    numbering_release(&cols);
}

/* Exact lookup: the index of id among the numbering's ids, or SIZE_MAX. */
static size_t numbering_find(const struct numbering *m, uint32_t id)
{
    size_t lo = 0, hi = m->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (m->old[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->n && m->old[lo] == id ? lo : SIZE_MAX;
}

/* An entry of a folded row: its new column and value. */
struct folded {
    uint32_t col;
    double val;
};

static int cmp_folded(const void *x, const void *y)
{
    const struct folded *a = x, *b = y;

    return a->col < b->col ? -1 : a->col > b->col;
}

/*
 * Random Row Blocks' numbering: the taken rows are numbered alone, by the
 * gap rule; a column that is a taken row maps to that row's number, any
 * other column j is folded onto j mod F, F = the rows' numbering rounded
 * down to a multiple of AUGUR_SAMPLE_ALIGN (at least the largest taken
 * degree, rounded up), which keeps j's offset in its line. A folded column
 * that meets one the row already has moves on by AUGUR_SAMPLE_ALIGN (same
 * offset) until free, by one once its offset class is full, so that every
 * row keeps all of its entries, distinct and sorted.
 */
static void assemble_folded(const struct augur_csr *csr, const struct picks *p,
                            struct augur_sample *out)
{
    const struct pick *pk = p->v.data;
    const uint64_t g = AUGUR_SAMPLE_ALIGN;
    size_t n = p->v.len;
    struct numbering rows = { 0 };
    struct augur_csr *s = &out->csr;
    uint32_t *ids = augur_mallocarray(n ? n : 1, sizeof(uint32_t)), *stamp = NULL;
    struct folded *f = augur_mallocarray(n ? n : 1, sizeof(*f));
    uint64_t fold, maxdeg = 0;
    size_t i0 = 0;

    for (size_t i = 0; i < n; i++)
        ids[i] = pk[i].row;
    numbering_build(&rows, ids, n);
    for (size_t i = 0; i < n;) {
        size_t e = i;

        while (e < n && pk[e].row == pk[i].row)
            e++;
        if (e - i > maxdeg)
            maxdeg = e - i;
        i = e;
    }
    fold = rows.size / g * g;
    if (fold < (maxdeg + g - 1) / g * g)
        fold = (maxdeg + g - 1) / g * g;
    s->nrows = s->ncols = rows.size > fold ? rows.size : (uint32_t)fold;
    s->nnz = n;
    s->rowptr = augur_calloc((size_t)s->nrows + 1, sizeof(uint64_t));
    s->col = augur_mallocarray(n ? n : 1, sizeof(uint32_t));
    s->val = csr->val ? augur_mallocarray(n ? n : 1, sizeof(double)) : NULL;
    stamp = augur_calloc(s->nrows, sizeof(uint32_t));
    for (uint32_t row = 1; i0 < n; row++) {
        size_t e = i0;
        uint32_t r = numbering_map(&rows, pk[i0].row);

        while (e < n && pk[e].row == pk[i0].row)
            e++;
        /* The columns that are taken rows first: they are fixed. */
        for (size_t i = i0; i < e; i++) {
            size_t at = numbering_find(&rows, csr->col[pk[i].pos]);

            f[i].col = UINT32_MAX;
            f[i].val = csr->val ? csr->val[pk[i].pos] : 0.0;
            if (at != SIZE_MAX) {
                f[i].col = rows.new_[at];
                stamp[f[i].col] = row;
            }
        }
        for (size_t i = i0; i < e; i++) {
            uint64_t c, tries = 0;

            if (f[i].col != UINT32_MAX)
                continue;
            c = csr->col[pk[i].pos] % fold;
            while (stamp[c] == row)
                c = ++tries < fold / g ? (c + g) % fold : (c + 1) % fold;
            f[i].col = (uint32_t)c;
            stamp[c] = row;
        }
        qsort(f + i0, e - i0, sizeof(*f), cmp_folded);
        for (size_t i = i0; i < e; i++) {
            s->col[i] = f[i].col;
            if (s->val)
                s->val[i] = f[i].val;
        }
        s->rowptr[r + 1] = e - i0;
        i0 = e;
    }
    for (uint32_t r = 0; r < s->nrows; r++)
        s->rowptr[r + 1] += s->rowptr[r];
    out->row_orig = augur_mallocarray(s->nrows, sizeof(uint32_t));
    memset(out->row_orig, 0xff, (size_t)s->nrows * sizeof(uint32_t));
    for (size_t i = 0; i < rows.n; i++)
        out->row_orig[rows.new_[i]] = rows.old[i];
    /* A folded column has no single original: col_orig names the taken rows only. */
    out->col_orig = augur_mallocarray(s->nrows, sizeof(uint32_t));
    memcpy(out->col_orig, out->row_orig, (size_t)s->nrows * sizeof(uint32_t));
    augur_free(stamp);
    augur_free(f);
    numbering_release(&rows);
}

/* p = 1: the sample is the matrix itself, numbering unchanged. */
static void copy_whole(const struct augur_csr *csr, struct augur_sample *out)
{
    struct augur_csr *s = &out->csr;

    s->nrows = csr->nrows;
    s->ncols = csr->ncols;
    s->nnz = csr->nnz;
    s->rowptr = augur_mallocarray((size_t)csr->nrows + 1, sizeof(uint64_t));
    memcpy(s->rowptr, csr->rowptr, ((size_t)csr->nrows + 1) * sizeof(uint64_t));
    s->col = augur_mallocarray(csr->nnz ? csr->nnz : 1, sizeof(uint32_t));
    memcpy(s->col, csr->col, csr->nnz * sizeof(uint32_t));
    if (csr->val) {
        s->val = augur_mallocarray(csr->nnz ? csr->nnz : 1, sizeof(double));
        memcpy(s->val, csr->val, csr->nnz * sizeof(double));
    }
    out->row_orig = augur_mallocarray(csr->nrows ? csr->nrows : 1, sizeof(uint32_t));
    out->col_orig = augur_mallocarray(csr->ncols ? csr->ncols : 1, sizeof(uint32_t));
    for (uint32_t i = 0; i < csr->nrows; i++)
        out->row_orig[i] = i;
    for (uint32_t j = 0; j < csr->ncols; j++)
        out->col_orig[j] = j;
}

void augur_sample_release(struct augur_sample *s)
{
    if (!s)
        return;
    augur_csr_release(&s->csr);
    augur_free(s->row_orig);
    augur_free(s->col_orig);
    memset(s, 0, sizeof(*s));
}

int augur_sample_csr(const struct augur_csr *csr, const struct augur_sample_opts *opts,
                     struct augur_sample *out, struct augur_diag *diag)
{
    struct augur_sample res;
    struct augur_sample_info *info = &res.info;
    struct picks p;
    uint64_t state;
    double want;
    int rc = 0;

    memset(&res, 0, sizeof(res));
    memset(&p, 0, sizeof(p));
    augur_vec_init(&p.v, sizeof(struct pick));
    if ((unsigned)opts->method >= AUGUR_SAMPLER_COUNT)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "unknown sampler %d",
                              (int)opts->method);
    if (!(opts->rate > 0.0 && opts->rate <= 1.0))
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "sampling rate %g is not in (0, 1]",
                              opts->rate);
    if (csr->nrows == 0 || csr->ncols == 0 || csr->nnz == 0)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "the matrix (%u x %u) has no entries: nothing to sample", csr->nrows,
                              csr->ncols);
    if (!csr->rowptr || csr->rowptr[0] != 0 || csr->rowptr[csr->nrows] != csr->nnz)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "csr row pointers do not run from 0 to nnz %llu",
                              (unsigned long long)csr->nnz);
    info->method = opts->method;
    info->rate = opts->rate;
    info->seed = opts->seed;
    info->shifted = opts->shifted && opts->method == AUGUR_SAMPLER_SA;
    info->nnz_full = csr->nnz;
    info->tile = opts->tile;
    want = round(opts->rate * (double)csr->nnz);
    if (want < 1.0)
        return augur_diag_set(diag, AUGUR_ERANGE, NULL, 0, 0,
                              "matrix too small to sample at rate %g: %llu entries give %.3g, "
                              "under one entry",
                              opts->rate, (unsigned long long)csr->nnz,
                              opts->rate * (double)csr->nnz);
    info->target = (uint64_t)want;
    if (opts->rate == 1.0) {
        info->whole = true;
        copy_whole(csr, &res);
    } else {
        state = opts->seed;
        switch (opts->method) {
        case AUGUR_SAMPLER_RE:
            rc = sample_re(csr, info->target, &state, &p, diag);
            break;
        case AUGUR_SAMPLER_SA:
            rc = sample_sa(csr, info->target, opts->shifted, &state, info, &p, diag);
            break;
        case AUGUR_SAMPLER_RT:
            rc = sample_rt(csr, info->target, &state, info, &p, diag);
            if (!rc && p.v.len == 0)
                rc = augur_diag_set(diag, AUGUR_ERANGE, NULL, 0, 0,
                                    "no Random Tile of side %u met an entry in %llu tries",
                                    info->tile, (unsigned long long)info->ntiles);
            break;
        case AUGUR_SAMPLER_RB:
            rc = sample_rb(csr, info->target, &state, info, &p, diag);
            break;
        default:
            break;
        }
        if (rc)
            goto out;
        if (opts->method == AUGUR_SAMPLER_RT)
            qsort(p.v.data, p.v.len, sizeof(struct pick), cmp_pick);
        if (opts->method == AUGUR_SAMPLER_RB && csr->nrows == csr->ncols)
            assemble_folded(csr, &p, &res);
        else
            assemble(csr, &p, &res);
    }
    info->nnz = res.csr.nnz;
    info->achieved = (double)res.csr.nnz / (double)csr->nnz;
    info->reached = info->nnz >= info->target;
    *out = res;
out:
    augur_vec_release(&p.v);
    augur_free(p.taken);
    return rc;
}

int augur_sample_dataset(const struct augur_sample *s, enum augur_field field,
                         const char *description, struct augur_dataset **out,
                         struct augur_diag *diag)
{
    const struct augur_csr *c = &s->csr;
    int rc;

    if (c->nrows > 0 && (!c->rowptr || c->rowptr[c->nrows] != c->nnz))
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "sample csr is inconsistent");
    if ((rc = augur_dataset_from_csr(c, description ? description : "sample", out, diag)) != 0)
        return rc;
    if (c->val)
        (*out)->field = field;
    return 0;
}
