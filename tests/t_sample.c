/*
 * t_sample.c - the samplers (Random Edge, Stride Average, Random Tile,
 * Random Row Blocks), the renumbering of a sample, the Random Node Neighbor
 * clustering estimate, the kernel address streams and their cache
 * simulation.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "augur/augur.h"
#include "augur/cachesim.h"
#include "augur/data.h"
#include "tap.h"

static uint64_t rng_state;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

    return a < b ? -1 : a > b;
}

/* CSR from (row << 32 | col) keys, sorted and deduplicated here; value = row + col / 1000. */
static void csr_from_keys(uint32_t nrows, uint32_t ncols, uint64_t *keys, size_t n, bool values,
                          struct augur_csr *c)
{
    size_t m = 0;

    qsort(keys, n, sizeof(*keys), cmp_u64);
    for (size_t i = 0; i < n; i++)
        if (i == 0 || keys[i] != keys[m - 1])
            keys[m++] = keys[i];
    memset(c, 0, sizeof(*c));
    c->nrows = nrows;
    c->ncols = ncols;
    c->nnz = m;
    c->rowptr = augur_calloc((size_t)nrows + 1, sizeof(uint64_t));
    c->col = augur_mallocarray(m ? m : 1, sizeof(uint32_t));
    c->val = values ? augur_mallocarray(m ? m : 1, sizeof(double)) : NULL;
    for (size_t k = 0; k < m; k++) {
        uint32_t i = (uint32_t)(keys[k] >> 32), j = (uint32_t)keys[k];

        c->rowptr[i + 1]++;
        c->col[k] = j;
        if (values)
            c->val[k] = i + j / 1000.0;
    }
    for (uint32_t i = 0; i < nrows; i++)
        c->rowptr[i + 1] += c->rowptr[i];
}

/* A uniformly random nrows x ncols pattern with about nnz entries. */
static void random_csr(uint32_t nrows, uint32_t ncols, size_t nnz, uint64_t seed,
                       struct augur_csr *c)
{
    uint64_t *keys = malloc(nnz * sizeof(uint64_t));

    rng_state = seed;
    for (size_t k = 0; k < nnz; k++)
        keys[k] = (rnd() % nrows) << 32 | (rnd() % ncols);
    csr_from_keys(nrows, ncols, keys, nnz, true, c);
    free(keys);
}

/* Is (i, j) an entry of c, and with what value? */
static bool has_entry(const struct augur_csr *c, uint32_t i, uint32_t j, double *val)
{
    for (uint64_t k = c->rowptr[i]; k < c->rowptr[i + 1]; k++)
        if (c->col[k] == j) {
            if (val)
                *val = c->val ? c->val[k] : 1.0;
            return true;
        }
    return false;
}

/* Every entry of the sample maps back to an entry of full with the same value. */
static bool is_subset(const struct augur_sample *s, const struct augur_csr *full)
{
    const struct augur_csr *c = &s->csr;

    for (uint32_t i = 0; i < c->nrows; i++)
        for (uint64_t k = c->rowptr[i]; k < c->rowptr[i + 1]; k++) {
            uint32_t oi = s->row_orig[i], oj = s->col_orig[c->col[k]];
            double v;

            if (oi == UINT32_MAX || oj == UINT32_MAX || !has_entry(full, oi, oj, &v))
                return false;
            if (c->val && v != c->val[k])
                return false;
        }
    return true;
}

/* Rows sorted, columns ascending, pointers consistent. */
static bool is_valid_csr(const struct augur_csr *c)
{
    if (c->rowptr[0] != 0 || c->rowptr[c->nrows] != c->nnz)
        return false;
    for (uint32_t i = 0; i < c->nrows; i++)
        for (uint64_t k = c->rowptr[i]; k < c->rowptr[i + 1]; k++)
            if (c->col[k] >= c->ncols || (k > c->rowptr[i] && c->col[k] <= c->col[k - 1]))
                return false;
    return true;
}

static bool same_csr(const struct augur_csr *a, const struct augur_csr *b)
{
    if (a->nrows != b->nrows || a->ncols != b->ncols || a->nnz != b->nnz)
        return false;
    return memcmp(a->rowptr, b->rowptr, ((size_t)a->nrows + 1) * 8) == 0 &&
           memcmp(a->col, b->col, a->nnz * 4) == 0;
}

/* The numbering keeps order, offsets mod 8, short gaps, and shrinks long ones to 8 + d mod 8. */
static bool numbering_ok(const uint32_t *orig, uint32_t n)
{
    uint32_t prev_new = UINT32_MAX, prev_old = 0;

    for (uint32_t x = 0; x < n; x++) {
        uint32_t d, dn;

        if (orig[x] == UINT32_MAX)
            continue;
        if (orig[x] % AUGUR_SAMPLE_ALIGN != x % AUGUR_SAMPLE_ALIGN)
            return false;
        if (prev_new != UINT32_MAX) {
            if (orig[x] <= prev_old)
                return false;
            d = orig[x] - prev_old;
            dn = x - prev_new;
            if (dn !=
                (d < 2 * AUGUR_SAMPLE_ALIGN ? d : AUGUR_SAMPLE_ALIGN + d % AUGUR_SAMPLE_ALIGN))
                return false;
        } else if (x >= AUGUR_SAMPLE_ALIGN) {
            return false; /* the first kept index starts within the first 8 */
        }
        prev_new = x;
        prev_old = orig[x];
    }
    return true;
}

static void test_names(void)
{
    enum augur_sampler s;
    enum augur_stream_kernel k;
    enum augur_scaling sc;

    ok(augur_sampler_parse("rt", &s) == 0 && s == AUGUR_SAMPLER_RT, "'rt' is Random Tile");
    ok(augur_sampler_parse("auto", &s) == AUGUR_EINVAL, "'auto' is not a sampler");
    is_str(augur_sampler_name(AUGUR_SAMPLER_SA), "sa", "Stride Average's name");
    ok(augur_stream_kernel_parse("ireduce", &k) == 0 && k == AUGUR_STREAM_IREDUCE,
       "'ireduce' is a kernel");
    ok(augur_scaling_parse("reuse", &sc) == 0 && sc == AUGUR_SCALING_REUSE, "'reuse' is a scaling");
}

static void test_re(const struct augur_csr *m)
{
    struct augur_sample_opts o = { .method = AUGUR_SAMPLER_RE, .rate = 0.05, .seed = 7 };
    struct augur_sample a, b, c;
    struct augur_diag d;

    augur_diag_init(&d);
    ok(augur_sample_csr(m, &o, &a, &d) == 0, "RE samples");
    is_int(a.csr.nnz, (long long)(0.05 * m->nnz + 0.5), "RE takes exactly round(p m) entries");
    ok(is_valid_csr(&a.csr) && is_subset(&a, m), "RE sample is a valid subset, values kept");
    ok(numbering_ok(a.row_orig, a.csr.nrows), "RE numbering keeps order, offsets and strides");
    ok(augur_sample_csr(m, &o, &b, &d) == 0 && same_csr(&a.csr, &b.csr) &&
           memcmp(a.row_orig, b.row_orig, a.csr.nrows * 4) == 0,
       "RE: same seed, same sample");
    o.seed = 8;
    ok(augur_sample_csr(m, &o, &c, &d) == 0 && !same_csr(&a.csr, &c.csr),
       "RE: another seed, another sample");
    augur_sample_release(&a);
    augur_sample_release(&b);
    augur_sample_release(&c);
}

/* Entries in SA's four squares of side s centred on n/4 and 3n/4 of a square matrix. */
static uint64_t centred_squares(const struct augur_csr *m, uint32_t s)
{
    uint32_t lo[2] = { (uint32_t)floor(m->nrows / 4.0 - s / 2.0),
                       (uint32_t)floor(3.0 * m->nrows / 4.0 - s / 2.0) };
    uint64_t count = 0;

    for (uint32_t i = 0; i < m->nrows; i++)
        for (uint64_t k = m->rowptr[i]; k < m->rowptr[i + 1]; k++) {
            uint32_t j = m->col[k];

            count += ((i >= lo[0] && i < lo[0] + s) || (i >= lo[1] && i < lo[1] + s)) &&
                     ((j >= lo[0] && j < lo[0] + s) || (j >= lo[1] && j < lo[1] + s));
        }
    return count;
}

static void test_sa(const struct augur_csr *m)
{
    struct augur_sample_opts o = { .method = AUGUR_SAMPLER_SA, .rate = 0.05, .seed = 1 };
    struct augur_sample a, b;
    struct augur_diag d;
    uint32_t area = (uint32_t)(sqrt(0.05 / 4) * m->nrows), side;
    uint64_t inside = 0;
    bool in_squares = true;

    augur_diag_init(&d);
    ok(augur_sample_csr(m, &o, &a, &d) == 0, "SA samples");
    side = a.info.row_side;
    ok(side + side / 10 >= area && side <= area + area / 10,
       "SA on a uniform matrix: side within 10 % of the paper's sqrt(p/4) n");
    tap_diag("SA: side %u, the paper's %u", side, area);
    ok(a.info.nnz >= a.info.target, "SA: the squares hold the target of entries");
    ok(centred_squares(m, side - 1) < a.info.target,
       "SA: the smallest such side (one index less holds fewer)");
    is_int(a.info.row_lo[0], (uint32_t)floor(m->nrows / 4.0 - side / 2.0),
           "SA: first square centred on n/4");
    is_int(a.info.row_lo[1], (uint32_t)floor(3.0 * m->nrows / 4.0 - side / 2.0),
           "SA: second square centred on 3n/4");
    ok(a.info.col_lo[0] == a.info.row_lo[0] && a.info.col_lo[1] == a.info.row_lo[1],
       "SA: square matrix, same column intervals (diagonal and anti-diagonal)");
    ok(is_valid_csr(&a.csr) && is_subset(&a, m), "SA sample is a valid subset");
    /* Every sample entry lies in the squares, and every entry in the squares is taken. */
    for (uint32_t i = 0; i < a.csr.nrows; i++)
        for (uint64_t k = a.csr.rowptr[i]; k < a.csr.rowptr[i + 1]; k++) {
            uint32_t oi = a.row_orig[i], oj = a.col_orig[a.csr.col[k]];
            bool ri = (oi >= a.info.row_lo[0] && oi < a.info.row_lo[0] + side) ||
                      (oi >= a.info.row_lo[1] && oi < a.info.row_lo[1] + side);
            bool cj = (oj >= a.info.col_lo[0] && oj < a.info.col_lo[0] + side) ||
                      (oj >= a.info.col_lo[1] && oj < a.info.col_lo[1] + side);

            in_squares &= ri && cj;
        }
    for (uint32_t i = 0; i < m->nrows; i++)
        for (uint64_t k = m->rowptr[i]; k < m->rowptr[i + 1]; k++) {
            uint32_t j = m->col[k];
            bool ri = (i >= a.info.row_lo[0] && i < a.info.row_lo[0] + side) ||
                      (i >= a.info.row_lo[1] && i < a.info.row_lo[1] + side);
            bool cj = (j >= a.info.col_lo[0] && j < a.info.col_lo[0] + side) ||
                      (j >= a.info.col_lo[1] && j < a.info.col_lo[1] + side);

            inside += ri && cj;
        }
    ok(in_squares, "SA: every entry taken lies in one of the four squares");
    is_int(a.csr.nnz, inside, "SA: every entry of the four squares is taken");
    /* Two contiguous intervals of side s renumber to 2 s indices at most (plus an offset). */
    ok(a.csr.nrows <= 2 * side + 2 * AUGUR_SAMPLE_ALIGN, "SA: sample spans the two intervals");
    ok(fabs(a.info.achieved - 0.05) < 0.1 * 0.05,
       "SA on a uniform matrix: rate within 10 % of p (4 squares of area p/4)");
    ok(augur_sample_csr(m, &o, &b, &d) == 0 && same_csr(&a.csr, &b.csr), "SA is deterministic");
    tap_diag("SA: %llu of %llu entries (%.4f), %u x %u", (unsigned long long)a.csr.nnz,
             (unsigned long long)m->nnz, a.info.achieved, a.csr.nrows, a.csr.ncols);
    augur_sample_release(&a);
    augur_sample_release(&b);
}

/* Shifted SA: the seed places each square in its half of the axes; unshifted SA ignores it. */
static void test_sa_shifted(const struct augur_csr *m)
{
    struct augur_sample_opts o = { .method = AUGUR_SAMPLER_SA, .rate = 0.05, .seed = 1 };
    struct augur_sample a, b, c, d0;
    struct augur_diag d;
    uint32_t half = m->nrows / 2;
    bool halves = true, moved = false, valid = true;

    augur_diag_init(&d);
    ok(augur_sample_csr(m, &o, &d0, &d) == 0, "SA, seed 1, not shifted");
    o.shifted = true;
    ok(augur_sample_csr(m, &o, &a, &d) == 0 && augur_sample_csr(m, &o, &b, &d) == 0,
       "shifted SA samples");
    ok(a.info.shifted && same_csr(&a.csr, &b.csr), "shifted SA: same seed, same sample");
    for (unsigned seed = 2; seed < 12; seed++) {
        o.seed = seed;
        if (augur_sample_csr(m, &o, &c, &d) != 0) {
            halves = false;
            continue;
        }
        halves &= c.info.row_lo[0] + c.info.row_side <= half && c.info.row_lo[1] >= half &&
                  c.info.row_lo[1] + c.info.row_side <= m->nrows &&
                  c.info.col_lo[0] + c.info.col_side <= half && c.info.col_lo[1] >= half &&
                  c.info.nnz >= c.info.target;
        moved |= c.info.row_lo[0] != a.info.row_lo[0] || c.info.col_lo[1] != a.info.col_lo[1];
        valid &= is_valid_csr(&c.csr) && is_subset(&c, m);
        augur_sample_release(&c);
    }
    ok(valid, "shifted SA, seeds 2..11: valid subsets");
    ok(halves, "shifted SA: each square lies in its half, all of them the target's entries");
    ok(moved, "shifted SA: other seeds place the squares elsewhere");
    o.shifted = false;
    o.seed = 99;
    ok(augur_sample_csr(m, &o, &c, &d) == 0 && same_csr(&c.csr, &d0.csr) && !c.info.shifted,
       "SA not shifted: the seed changes nothing");
    augur_sample_release(&a);
    augur_sample_release(&b);
    augur_sample_release(&c);
    augur_sample_release(&d0);
}

static void test_rt(const struct augur_csr *m)
{
    struct augur_sample_opts o = { .method = AUGUR_SAMPLER_RT, .rate = 0.05, .seed = 3 };
    struct augur_sample a, b, c;
    struct augur_diag d;

    augur_diag_init(&d);
    ok(augur_sample_csr(m, &o, &a, &d) == 0, "RT samples");
    ok(a.info.reached && a.csr.nnz >= a.info.target &&
           a.csr.nnz - a.info.last_tile_nnz < a.info.target,
       "RT: stops at the first tile that reaches p m");
    is_int(a.info.tile, (uint32_t)round(m->nrows * sqrt(0.05 / AUGUR_RT_TILES)),
           "RT: default tile side n sqrt(p / tiles)");
    ok(a.info.ndense + a.info.nsparse <= a.info.ntiles, "RT: dense and sparse tiles counted");
    ok(is_valid_csr(&a.csr) && is_subset(&a, m), "RT sample is a valid subset");
    ok(numbering_ok(a.row_orig, a.csr.nrows), "RT numbering keeps order, offsets and strides");
    ok(augur_sample_csr(m, &o, &b, &d) == 0 && same_csr(&a.csr, &b.csr),
       "RT: same seed, same sample");
    o.seed = 4;
    ok(augur_sample_csr(m, &o, &c, &d) == 0 && !same_csr(&a.csr, &c.csr),
       "RT: another seed, another sample");
    tap_diag("RT: %llu entries (target %llu) in %llu tiles of side %u",
             (unsigned long long)a.csr.nnz, (unsigned long long)a.info.target,
             (unsigned long long)a.info.ntiles, a.info.tile);
    augur_sample_release(&a);
    augur_sample_release(&b);
    augur_sample_release(&c);
    o.tile = 5;
    o.seed = 3;
    ok(augur_sample_csr(m, &o, &a, &d) == 0 && a.info.tile == 5 && is_subset(&a, m),
       "RT: a given tile side is used");
    augur_sample_release(&a);
}

/* The largest row degree of c. */
static uint64_t max_deg(const struct augur_csr *c)
{
    uint64_t w = 0;

    for (uint32_t i = 0; i < c->nrows; i++)
        if (c->rowptr[i + 1] - c->rowptr[i] > w)
            w = c->rowptr[i + 1] - c->rowptr[i];
    return w;
}

/*
 * Every row of a Random Row Blocks sample is a whole row of full: the same
 * degree and values (value = row + col / 1000 names the original column);
 * a column that is a taken row maps to it, any other lies inside the folded
 * range F (the sample's size rounded down to 8) and keeps its offset in a
 * line (j mod 8) unless the row uses all F / 8 columns of that offset.
 */
static bool rb_rows_whole(const struct augur_sample *s, const struct augur_csr *full)
{
    const struct augur_csr *c = &s->csr;
    uint32_t *where = malloc((size_t)full->nrows * sizeof(uint32_t));
    uint32_t fold = c->nrows / AUGUR_SAMPLE_ALIGN * AUGUR_SAMPLE_ALIGN;
    uint64_t per_offset[AUGUR_SAMPLE_ALIGN];
    bool good = true;

    memset(where, 0xff, (size_t)full->nrows * sizeof(uint32_t));
    for (uint32_t r = 0; r < c->nrows; r++)
        if (s->row_orig[r] != UINT32_MAX)
            where[s->row_orig[r]] = r;
    for (uint32_t r = 0; r < c->nrows && good; r++) {
        uint32_t i = s->row_orig[r];

        if (i == UINT32_MAX) {
            good = c->rowptr[r] == c->rowptr[r + 1];
            continue;
        }
        good = c->rowptr[r + 1] - c->rowptr[r] == full->rowptr[i + 1] - full->rowptr[i];
        memset(per_offset, 0, sizeof(per_offset));
        for (uint64_t k = c->rowptr[r]; k < c->rowptr[r + 1]; k++)
            per_offset[c->col[k] % AUGUR_SAMPLE_ALIGN]++;
        for (uint64_t k = c->rowptr[r]; k < c->rowptr[r + 1] && good; k++) {
            uint32_t j = (uint32_t)llround((c->val[k] - i) * 1000.0), off = j % AUGUR_SAMPLE_ALIGN;

            /* A folded column changes its offset only when its offset's slots are all used. */
            good = has_entry(full, i, j, NULL) &&
                   (where[j] != UINT32_MAX
                        ? c->col[k] == where[j]
                        : c->col[k] < fold && (c->col[k] % AUGUR_SAMPLE_ALIGN == off ||
                                               per_offset[off] >= fold / AUGUR_SAMPLE_ALIGN));
        }
    }
    free(where);
    return good;
}

/* Runs of consecutive original rows among the taken ones (empty rows of full join runs). */
static unsigned rb_runs(const struct augur_sample *s, const struct augur_csr *full)
{
    unsigned runs = 0;
    uint32_t prev = UINT32_MAX;

    for (uint32_t r = 0; r < s->csr.nrows; r++) {
        uint32_t i = s->row_orig[r];

        if (i == UINT32_MAX)
            continue;
        runs += prev == UINT32_MAX || full->rowptr[prev + 1] != full->rowptr[i];
        prev = i;
    }
    return runs;
}

static void test_rb(const struct augur_csr *m)
{
    struct augur_sample_opts o = { .method = AUGUR_SAMPLER_RB, .rate = 0.05, .seed = 3 };
    struct augur_sample a, b, c;
    struct augur_diag d;
    uint64_t w = max_deg(m);
    bool all = true;

    augur_diag_init(&d);
    ok(augur_sample_csr(m, &o, &a, &d) == 0, "RB samples");
    ok(a.csr.nnz >= a.info.target && a.csr.nnz < a.info.target + w,
       "RB: the target reached, by less than one row over");
    ok(fabs(a.info.achieved - 0.05) <= (double)w / (double)m->nnz,
       "RB: the rate within one row's entries");
    is_int(a.info.blocks, AUGUR_RB_BLOCKS, "RB: AUGUR_RB_BLOCKS blocks");
    ok(rb_runs(&a, m) <= AUGUR_RB_BLOCKS, "RB: rows taken in at most AUGUR_RB_BLOCKS runs");
    ok(is_valid_csr(&a.csr), "RB sample is valid CSR (folded columns distinct and sorted)");
    ok(rb_rows_whole(&a, m), "RB: whole rows, taken rows exact, folded columns keep j mod 8");
    ok(numbering_ok(a.row_orig, a.csr.nrows), "RB: the taken rows keep the gap rule");
    ok(a.csr.nrows <= a.info.rows_taken + AUGUR_RB_BLOCKS * 2 * AUGUR_SAMPLE_ALIGN,
       "RB: x folded onto the taken rows' range");
    tap_diag("RB: %llu entries (target %llu), %u rows taken, sample %u x %u",
             (unsigned long long)a.csr.nnz, (unsigned long long)a.info.target, a.info.rows_taken,
             a.csr.nrows, a.csr.ncols);
    ok(augur_sample_csr(m, &o, &b, &d) == 0 && same_csr(&a.csr, &b.csr),
       "RB: same seed, same sample");
    o.seed = 4;
    ok(augur_sample_csr(m, &o, &c, &d) == 0 && !same_csr(&a.csr, &c.csr),
       "RB: another seed, another sample");
    augur_sample_release(&a);
    augur_sample_release(&b);
    augur_sample_release(&c);

    /* Skewed rows (R-MAT) at several rates and seeds: the same invariants. */
    {
        struct augur_csr g, gv;

        ok(augur_generate_rmat(10, 8, 0.65, 0.15, 0.15, 7, &g, &d) == 0, "an R-MAT graph");
        /* csr_from_keys gives the values that name the columns. */
        {
            uint64_t *keys = malloc(g.nnz * sizeof(uint64_t));

            for (uint32_t i = 0; i < g.nrows; i++)
                for (uint64_t k = g.rowptr[i]; k < g.rowptr[i + 1]; k++)
                    keys[k] = (uint64_t)i << 32 | g.col[k];
            csr_from_keys(g.nrows, g.ncols, keys, g.nnz, true, &gv);
            free(keys);
        }
        w = max_deg(&gv);
        for (int q = 0; q < 4; q++)
            for (uint64_t seed = 1; seed <= 10; seed++) {
                struct augur_sample s;
                static const double rates[] = { 0.01, 0.05, 0.3, 0.9 };

                o.rate = rates[q];
                o.seed = seed;
                if (augur_sample_csr(&gv, &o, &s, &d) != 0) {
                    all = false;
                    continue;
                }
                all &= s.csr.nnz >= s.info.target && s.csr.nnz < s.info.target + w &&
                       is_valid_csr(&s.csr) && rb_rows_whole(&s, &gv) &&
                       numbering_ok(s.row_orig, s.csr.nrows);
                all &= rb_runs(&s, &gv) <= s.info.blocks;
                augur_sample_release(&s);
            }
        ok(all, "RB on R-MAT, rates 1 to 90 %, 10 seeds: target reached, whole rows, valid");
        augur_csr_release(&g);
        augur_csr_release(&gv);
    }
}

/* A band matrix: Stride Average takes every row of its squares whole. */
static void test_band(void)
{
    uint32_t n = 1000;
    uint64_t *keys = malloc(n * 5 * sizeof(uint64_t));
    size_t k = 0;
    struct augur_csr m;
    struct augur_sample s;
    struct augur_sample_opts o = { .method = AUGUR_SAMPLER_SA, .rate = 0.04 };
    struct augur_diag d;

    for (uint32_t i = 0; i < n; i++)
        for (int off = -2; off <= 2; off++)
            if ((int)i + off >= 0 && (int)i + off < (int)n)
                keys[k++] = (uint64_t)i << 32 | (uint32_t)((int)i + off);
    csr_from_keys(n, n, keys, k, false, &m);
    augur_diag_init(&d);
    ok(augur_sample_csr(&m, &o, &s, &d) == 0, "SA samples a band");
    /*
     * Two diagonal squares of s rows hold 2 (5 s - 2 * 3) entries, the
     * target round(0.04 * 4994) = 200 from s = 22 (the paper's side, 100,
     * takes 988: a fifth of the band).
     */
    is_int(s.info.row_side, 22, "SA on a band: the smallest side that holds 4 % of the entries");
    is_int(s.csr.nnz, 2 * (5 * 22 - 6), "SA on a band: the diagonal squares' whole band");
    {
        uint32_t e = s.info.row_side - 1, lo0 = s.info.row_lo[0], lo1 = s.info.row_lo[1];
        uint32_t gap = lo1 - (lo0 + e), last = lo0 % 8 + e + (gap < 16 ? gap : 8 + gap % 8) + e;

        is_int(s.csr.nrows, last + 1, "SA on a band: the two intervals, the gap shrunk");
    }
    ok(numbering_ok(s.row_orig, s.csr.nrows), "SA on a band: numbering rule");
    /* A stride inside an interval is unchanged: row i's neighbours stay at i-2 .. i+2. */
    {
        bool same = true;

        for (uint32_t i = 0; i < s.csr.nrows; i++)
            for (uint64_t q = s.csr.rowptr[i]; q < s.csr.rowptr[i + 1]; q++)
                same &=
                    (int64_t)s.csr.col[q] - i == (int64_t)s.col_orig[s.csr.col[q]] - s.row_orig[i];
        ok(same, "SA on a band: every |i - j| of the sample is the original one");
    }
    augur_sample_release(&s);
    augur_csr_release(&m);
    free(keys);
}

static void test_whole_and_rect(const struct augur_csr *m)
{
    struct augur_sample_opts o = { .method = AUGUR_SAMPLER_RT, .rate = 1.0, .seed = 3 };
    struct augur_sample s;
    struct augur_csr r;
    struct augur_diag d;
    bool ident = true;

    augur_diag_init(&d);
    ok(augur_sample_csr(m, &o, &s, &d) == 0 && s.info.whole && same_csr(&s.csr, m),
       "rate 1: the whole matrix");
    for (uint32_t i = 0; i < m->nrows; i++)
        ident &= s.row_orig[i] == i;
    ok(ident, "rate 1: numbering unchanged");
    augur_sample_release(&s);

    random_csr(300, 1200, 20000, 11, &r);
    for (int meth = 0; meth < AUGUR_SAMPLER_COUNT; meth++) {
        char name[64];

        o.method = (enum augur_sampler)meth;
        o.rate = 0.1;
        snprintf(name, sizeof(name), "%s on a 300 x 1200 matrix: valid subset",
                 augur_sampler_name(o.method));
        ok(augur_sample_csr(&r, &o, &s, &d) == 0 && is_valid_csr(&s.csr) && is_subset(&s, &r) &&
               numbering_ok(s.col_orig, s.csr.ncols),
           name);
        if (meth == AUGUR_SAMPLER_SA)
            ok(fabs((double)s.info.col_side / s.info.row_side - 4.0) < 0.1 &&
                   s.info.nnz >= s.info.target,
               "SA on a rectangle: sides in the ratio of rows to columns, the target held");
        augur_sample_release(&s);
    }
    augur_csr_release(&r);
}

static void test_bad_input(const struct augur_csr *m)
{
    struct augur_sample_opts o = { .method = AUGUR_SAMPLER_RE, .rate = 0.0 };
    struct augur_sample s;
    struct augur_csr empty, tiny;
    struct augur_diag d;
    uint32_t rowptr0[4] = { 0 };
    uint64_t rp[4] = { 0, 0, 0, 0 };
    uint64_t keys[2] = { 0, (uint64_t)1 << 32 | 2 };
    double rates[] = { 0.0, -0.5, 1.5, NAN };

    (void)rowptr0;
    augur_diag_init(&d);
    for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
        o.rate = rates[i];
        ok(augur_sample_csr(m, &o, &s, &d) == AUGUR_EINVAL && strstr(d.msg, "not in (0, 1]"),
           "a rate outside (0, 1] is refused");
    }
    memset(&empty, 0, sizeof(empty));
    empty.nrows = empty.ncols = 3;
    empty.rowptr = rp;
    o.rate = 0.5;
    ok(augur_sample_csr(&empty, &o, &s, &d) == AUGUR_EINVAL && strstr(d.msg, "no entries"),
       "an empty matrix is refused: nothing to sample");
    csr_from_keys(3, 3, keys, 2, false, &tiny);
    o.rate = 0.05;
    ok(augur_sample_csr(&tiny, &o, &s, &d) == AUGUR_ERANGE && strstr(d.msg, "too small"),
       "2 entries at 5 %: too small to sample");
    tap_diag("message: %s", d.msg);
    o.method = AUGUR_SAMPLER_SA;
    o.rate = 0.9;
    if (augur_sample_csr(&tiny, &o, &s, &d) == 0) {
        ok(is_subset(&s, &tiny), "SA on a 3 x 3 matrix at 90 %: a valid sample");
        augur_sample_release(&s);
    } else {
        ok(d.code == AUGUR_ERANGE, "SA on a 3 x 3 matrix at 90 %: a clear refusal");
    }
    augur_csr_release(&tiny);
    {
        uint64_t k2[] = { 0, (uint64_t)1 << 32 | 1, (uint64_t)2 << 32 | 2, (uint64_t)3 << 32 | 3,
                          (uint64_t)4 << 32 | 4 };

        csr_from_keys(5, 5, k2, 5, false, &tiny);
        o.rate = 0.12;
        ok(augur_sample_csr(&tiny, &o, &s, &d) == 0 && s.info.nnz >= 1 && s.info.row_side >= 1,
           "SA at a rate whose paper side is under one index: the squares grow to one entry");
        augur_sample_release(&s);
        augur_csr_release(&tiny);
    }
    {
        /* Entries only far off the squares: rows 0 and 999 of a 1000 x 1000 matrix. */
        uint64_t k3[] = { 0, 999, (uint64_t)999 << 32, (uint64_t)999 << 32 | 999 };

        csr_from_keys(1000, 1000, k3, 4, false, &tiny);
        o.rate = 0.5;
        ok(augur_sample_csr(&tiny, &o, &s, &d) == 0 && s.info.nnz >= 2 && is_subset(&s, &tiny),
           "SA with entries only in the corners: the squares grow until they hold 2");
        augur_sample_release(&s);
        augur_csr_release(&tiny);
    }
    {
        /* An odd axis: the squares at their largest miss the last index. */
        uint64_t k4[] = { (uint64_t)4 << 32 | 4 };

        csr_from_keys(5, 5, k4, 1, false, &tiny);
        o.rate = 1.0 / 1.5;
        ok(augur_sample_csr(&tiny, &o, &s, &d) == AUGUR_ERANGE && strstr(d.msg, "hold no entry"),
           "SA: squares that can hold no entry are refused");
        tap_diag("message: %s", d.msg);
        augur_csr_release(&tiny);
    }
}

static void test_write(const struct augur_csr *m)
{
    struct augur_sample_opts o = { .method = AUGUR_SAMPLER_SA, .rate = 0.2 };
    struct augur_sample s;
    struct augur_dataset *ds = NULL, *back = NULL;
    struct augur_csr c;
    struct augur_diag d;
    char path[] = "/tmp/t_sample_XXXXXX";
    int fd = mkstemp(path);

    augur_diag_init(&d);
    close(fd);
    ok(augur_sample_csr(m, &o, &s, &d) == 0 &&
           augur_sample_dataset(&s, AUGUR_FIELD_REAL, "test sample", &ds, &d) == 0 &&
           augur_dataset_write_mtx(ds, path, &d) == 0 &&
           augur_dataset_load(path, NULL, &back, &d) == 0,
       "a sample writes as Matrix Market and loads back");
    if (back && augur_dataset_csr(back, true, &c, &d) == 0) {
        bool vals = c.nnz == s.csr.nnz;

        for (uint64_t k = 0; vals && k < c.nnz; k++)
            vals = c.val[k] == s.csr.val[k];
        ok(same_csr(&c, &s.csr) && vals, "the file holds the sample exactly");
        augur_csr_release(&c);
    } else {
        ok(0, "the file holds the sample exactly");
    }
    unlink(path);
    augur_dataset_free(ds);
    augur_dataset_free(back);
    augur_sample_release(&s);
}

/* ---- Random Node Neighbor -------------------------------------------------- */

/* The expanded symmetric pattern of an undirected edge list. */
static void undirected(uint32_t n, const uint32_t *e, size_t ne, struct augur_csr *c)
{
    uint64_t *keys = malloc(2 * ne * sizeof(uint64_t));

    for (size_t k = 0; k < ne; k++) {
        keys[2 * k] = (uint64_t)e[2 * k] << 32 | e[2 * k + 1];
        keys[2 * k + 1] = (uint64_t)e[2 * k + 1] << 32 | e[2 * k];
    }
    csr_from_keys(n, n, keys, 2 * ne, false, c);
    free(keys);
}

/* A ring of n nodes, each joined to the next: no triangles. */
static void ring(uint32_t n, struct augur_csr *c)
{
    uint32_t *e = malloc(2 * (size_t)n * sizeof(*e));

    for (uint32_t i = 0; i < n; i++) {
        e[2 * i] = i;
        e[2 * i + 1] = (i + 1) % n;
    }
    undirected(n, e, n, c);
    free(e);
}

static double rnn(const struct augur_csr *c, double rate, uint64_t seed, bool directed,
                  bool symmetric, struct augur_cc_estimate *e)
{
    struct augur_rnn_opts o = {
        .rate = rate, .seed = seed, .directed = directed, .symmetric = symmetric
    };
    struct augur_diag d;

    augur_diag_init(&d);
    if (augur_clustering_estimate(c, &o, e, &d) != 0) {
        tap_diag("estimate failed: %s", d.msg);
        return -1;
    }
    return e->value;
}

static void test_rnn_known(void)
{
    uint32_t e[2 * 400];
    size_t ne = 0;
    struct augur_csr c;
    struct augur_cc_estimate est;

    /* Complete graph K_12: every C_i = 1. */
    for (uint32_t i = 0; i < 12; i++)
        for (uint32_t j = i + 1; j < 12; j++) {
            e[2 * ne] = i;
            e[2 * ne++ + 1] = j;
        }
    undirected(12, e, ne, &c);
    is_double(rnn(&c, 0.1, 1, false, true, &est), 1.0, 1e-12, "RNN on K_12: 1");
    is_double(rnn(&c, 0.1, 1, false, false, &est), 1.0, 1e-12, "RNN on K_12 (symmetrised): 1");
    is_int(est.edges_sampled >= (uint64_t)(0.1 * 132) && est.nodes_sampled == 2, 1,
           "RNN on K_12 at 10 %: two nodes of degree 11 reach 13.2 arcs");
    augur_csr_release(&c);

    /* Ring of 100: no triangles. */
    ring(100, &c);
    is_double(rnn(&c, 0.05, 3, false, true, &est), 0.0, 0, "RNN on a ring: 0");
    is_int(est.nodes_sampled, 5, "RNN on a ring at 5 %: 5 nodes of degree 2 (10 of 200 arcs)");
    augur_csr_release(&c);

    /* Ring lattice, each node joined to 2 on each side: C_i = 3 (K - 2) / (4 (K - 1)) = 1/2. */
    ne = 0;
    for (uint32_t i = 0; i < 100; i++)
        for (uint32_t s = 1; s <= 2; s++) {
            e[2 * ne] = i;
            e[2 * ne++ + 1] = (i + s) % 100;
        }
    undirected(100, e, ne, &c);
    is_double(rnn(&c, 0.05, 5, false, true, &est), 0.5, 1e-12, "RNN on a ring lattice (K 4): 1/2");
    augur_csr_release(&c);

    /* Star: the centre's neighbours are not linked, the leaves have k = 1. */
    ne = 0;
    for (uint32_t i = 1; i < 50; i++) {
        e[2 * ne] = 0;
        e[2 * ne++ + 1] = i;
    }
    undirected(50, e, ne, &c);
    is_double(rnn(&c, 0.5, 9, false, true, &est), 0.0, 0, "RNN on a star: 0");
    ok(est.nodes_low == est.nodes_sampled || est.nodes_low + 1 == est.nodes_sampled,
       "RNN on a star: leaves have k < 2");
    augur_csr_release(&c);

    /* Friendship graph F_10: 10 triangles sharing node 0; leaves C = 1, centre 1 / 19. */
    ne = 0;
    for (uint32_t t = 0; t < 10; t++) {
        uint32_t a = 1 + 2 * t, b = 2 + 2 * t;

        e[2 * ne] = 0;
        e[2 * ne++ + 1] = a;
        e[2 * ne] = 0;
        e[2 * ne++ + 1] = b;
        e[2 * ne] = a;
        e[2 * ne++ + 1] = b;
    }
    undirected(21, e, ne, &c);
    is_double(rnn(&c, 1.0, 1, false, true, &est), (20.0 + 1.0 / 19.0) / 21.0, 1e-12,
              "RNN at rate 1 on a friendship graph: (20 + 1/19) / 21");
    augur_csr_release(&c);
}

/*
 * The draws are stratified by degree: 100 disjoint triangles (k = 2, C = 1)
 * and 150 disjoint edges (k = 1, C = 0), exact coefficient 300 / 600 = 1/2.
 * At 10 % about 60 nodes are drawn, half from each degree; a uniform draw
 * would be off by 0.065 (one standard deviation), the stratified one stays
 * within 0.03 for every seed.
 */
static void test_rnn_stratified(void)
{
    uint32_t e[2 * 450];
    size_t ne = 0;
    struct augur_csr c;
    struct augur_cc_estimate est;
    double worst = 0.0;

    for (uint32_t t = 0; t < 100; t++)
        for (uint32_t a = 0; a < 3; a++) {
            e[2 * ne] = 3 * t + a;
            e[2 * ne++ + 1] = 3 * t + (a + 1) % 3;
        }
    for (uint32_t t = 0; t < 150; t++) {
        e[2 * ne] = 300 + 2 * t;
        e[2 * ne++ + 1] = 301 + 2 * t;
    }
    undirected(600, e, ne, &c);
    for (uint64_t seed = 1; seed <= 20; seed++) {
        double v = rnn(&c, 0.1, seed, false, true, &est);

        if (fabs(v - 0.5) > worst)
            worst = fabs(v - 0.5);
    }
    tap_diag("worst of 20 seeds: %.4f", worst);
    ok(worst <= 0.03, "RNN stratified by degree: 20 seeds within 0.03 of 1/2");
    ok(est.nodes_sampled >= 55 && est.nodes_sampled <= 65,
       "RNN at 10 % of 900 arcs: about 60 nodes of mean degree 1.5");
    augur_csr_release(&c);
}

/*
 * The error target: 40 disjoint triangles (C = 1) among a ring of 880 nodes
 * (C = 0), all of degree 2, exact coefficient 120 / 1000 = 0.12. At 1 %
 * 10 nodes are drawn, about one on a triangle; with a target of 10 % the
 * draws go on until 16 lie on triangles and the standard error is at most
 * 10 % of the estimate. Over 20 seeds the exact value must lie within two
 * standard errors of nearly every estimate (the error it reports is true).
 */
static void test_rnn_error_target(void)
{
    uint32_t e[2 * 1000];
    size_t ne = 0;
    struct augur_csr c;
    struct augur_cc_estimate est;
    struct augur_rnn_opts o = { .rate = 0.01, .symmetric = true, .rel_error = 0.1 };
    struct augur_diag d;
    int within = 0, met = 0;

    for (uint32_t t = 0; t < 40; t++)
        for (uint32_t a = 0; a < 3; a++) {
            e[2 * ne] = 3 * t + a;
            e[2 * ne++ + 1] = 3 * t + (a + 1) % 3;
        }
    for (uint32_t i = 0; i < 880; i++) {
        e[2 * ne] = 120 + i;
        e[2 * ne++ + 1] = 120 + (i + 1) % 880;
    }
    undirected(1000, e, ne, &c);
    rnn(&c, 0.01, 1, false, true, &est);
    is_int(est.nodes_sampled, 10, "1 % of 2000 arcs: 10 nodes of degree 2");
    ok(isfinite(est.std_error) && (est.std_error > 0.0) == (est.nodes_linked > 0),
       "a standard error for 10 of 1000 nodes, 0 only when none lies on a triangle");
    augur_diag_init(&d);
    for (uint64_t seed = 1; seed <= 20; seed++) {
        o.seed = seed;
        if (augur_clustering_estimate(&c, &o, &est, &d) != 0) {
            tap_diag("estimate failed: %s", d.msg);
            break;
        }
        met += est.nodes_linked >= AUGUR_RNN_MIN_LINKED && est.nodes_sampled < 1000 &&
               est.std_error <= 0.1 * est.value && est.nodes_sampled > 10;
        within += fabs(est.value - 0.12) <= 2.0 * est.std_error;
    }
    tap_diag("target met %d of 20, exact within 2 SE in %d of 20 (last: %u nodes, %.4f +- %.4f)",
             met, within, est.nodes_sampled, est.value, est.std_error);
    is_int(met, 20, "error target 10 %: every seed stops with 16 on triangles and SE <= 10 %");
    ok(within >= 17, "the exact 0.12 within two standard errors for at least 17 of 20 seeds");
    augur_csr_release(&c);

    /* No triangles: the target cannot be judged, so every node is drawn. */
    ring(100, &c);
    o.seed = 3;
    ok(augur_clustering_estimate(&c, &o, &est, &d) == 0 && est.nodes_sampled == 100 &&
           est.value == 0.0 && est.std_error == 0.0,
       "error target on a ring: every node drawn, 0 with standard error 0");
    o.rel_error = -0.1;
    ok(augur_clustering_estimate(&c, &o, &est, &d) == AUGUR_EINVAL && strstr(d.msg, "error target"),
       "error target -0.1 refused");
    o.rel_error = 1.0;
    ok(augur_clustering_estimate(&c, &o, &est, &d) == AUGUR_EINVAL, "error target 1 refused");
    o.rel_error = NAN;
    ok(augur_clustering_estimate(&c, &o, &est, &d) == AUGUR_EINVAL, "error target NaN refused");
    augur_csr_release(&c);
}

/* At rate 1 every node is drawn: the estimate equals the exact coefficient. */
static void test_rnn_exact(void)
{
    struct augur_csr c;
    struct augur_cc_opts co = { .directed = true, .undirected = true };
    struct augur_clustering cl;
    struct augur_cc_estimate e1, e2;
    struct augur_diag d;

    random_csr(300, 300, 3000, 5, &c);
    augur_diag_init(&d);
    ok(augur_clustering_compute(&c, &co, &cl, &d) == 0, "exact coefficients of a random digraph");
    is_double(rnn(&c, 1.0, 1, true, false, &e1), cl.directed.global, 1e-12,
              "RNN at rate 1, directed (eq. 1): exact");
    is_double(rnn(&c, 1.0, 2, false, false, &e1), cl.undirected.global, 1e-12,
              "RNN at rate 1, undirected on A + A^T (eq. 2): exact");
    is_int(e1.nodes_sampled, 300, "rate 1 draws every node");
    is_double(e1.std_error, 0.0, 0, "rate 1: standard error 0");
    rnn(&c, 0.1, 42, false, false, &e1);
    rnn(&c, 0.1, 42, false, false, &e2);
    ok(e1.value == e2.value && e1.nodes_sampled == e2.nodes_sampled,
       "RNN: same seed, same estimate");
    ok(e1.edges_sampled >= 0.1 * e1.nedges && e1.nodes_sampled < 300,
       "RNN at 10 %: stops once the degrees reach p m");
    augur_csr_release(&c);

    {
        struct augur_rnn_opts o = { .rate = 0.0 };
        struct augur_csr r;

        random_csr(10, 20, 30, 1, &r);
        ok(augur_clustering_estimate(&r, &o, &e1, &d) == AUGUR_EINVAL, "RNN: rate 0 refused");
        o.rate = 0.5;
        ok(augur_clustering_estimate(&r, &o, &e1, &d) == AUGUR_EINVAL && strstr(d.msg, "square"),
           "RNN: a 10 x 20 matrix is refused (not square)");
        augur_csr_release(&r);
    }
}

/*
 * fv on a skewed graph (pgp_giantcompo: ELL width 205, 411 slot streams in
 * a 32 KiB 8-way L1): the sample keeps the full matrix's width and slot
 * stride, so its streams fall into the sets as the full run's do and the L1
 * miss rate transfers; laid out with the sample's own row count as the
 * stride, the same streams conflict.
 */
static void test_fv_stride(void)
{
    const char *dir = tap_datasets();
    char path[1024];
    struct augur_dataset *ds = NULL;
    struct augur_csr c;
    struct augur_sample s;
    struct augur_sample_opts so = { .method = AUGUR_SAMPLER_SA, .rate = 0.05, .seed = 1 };
    struct augur_cache_config cfg;
    struct augur_stream_result full, kept, own;
    struct augur_diag d;
    uint32_t w = 0;

    snprintf(path, sizeof(path), "%s/mtx/pgp_giantcompo.mtx", dir ? dir : "");
    augur_diag_init(&d);
    if (!dir || augur_dataset_load(path, NULL, &ds, &d) != 0) {
        tap_skip("no datasets", "fv sample of pgp_giantcompo: L1 transfers with the full stride");
        tap_skip("no datasets", "fv sample of pgp_giantcompo: the sample's own stride conflicts");
        return;
    }
    augur_dataset_csr(ds, true, &c, &d);
    for (uint32_t i = 0; i < c.nrows; i++)
        if (c.rowptr[i + 1] - c.rowptr[i] > w)
            w = (uint32_t)(c.rowptr[i + 1] - c.rowptr[i]);
    memset(&cfg, 0, sizeof(cfg));
    cfg.nlevels = 1;
    strcpy(cfg.level[0].name, "L1");
    cfg.level[0].size = 32 << 10;
    cfg.level[0].line = 64;
    cfg.level[0].ways = 8;
    augur_stream_simulate(&c, AUGUR_STREAM_FV, 0, &cfg, NULL, false, &full, &d);
    augur_sample_simulate(&c, &so, AUGUR_STREAM_FV, &cfg, AUGUR_SCALING_NONE, false, &kept, NULL,
                          &d);
    augur_sample_csr(&c, &so, &s, &d);
    augur_stream_simulate(&s.csr, AUGUR_STREAM_FV, w, &cfg, NULL, false, &own, &d);
    tap_diag("fv L1 miss rate: full %.4f, sample %.4f, sample at its own stride %.4f",
             full.miss_rate[0], kept.miss_rate[0], own.miss_rate[0]);
    ok(augur_error_rate(full.miss_rate[0], kept.miss_rate[0]) < 0.2,
       "fv sample of pgp_giantcompo: L1 transfers with the full stride");
    /* (5 % of the entries: 0.159 against the full run's 0.089 and the kept stride's 0.078) */
    ok(augur_error_rate(full.miss_rate[0], own.miss_rate[0]) > 0.5 &&
           augur_error_rate(full.miss_rate[0], own.miss_rate[0]) >
               4 * augur_error_rate(full.miss_rate[0], kept.miss_rate[0]),
       "fv sample of pgp_giantcompo: the sample's own stride conflicts");
    augur_sample_release(&s);
    augur_csr_release(&c);
    augur_dataset_free(ds);
}

static void test_rnn_dataset(void)
{
    const char *dir = tap_datasets();
    char path[1024];
    struct augur_dataset *ds = NULL;
    struct augur_csr c;
    struct augur_cc_estimate e;
    struct augur_diag d;

    snprintf(path, sizeof(path), "%s/mtx/polblogs.mtx", dir ? dir : "");
    augur_diag_init(&d);
    if (!dir || augur_dataset_load(path, NULL, &ds, &d) != 0) {
        tap_skip("no datasets", "RNN on polblogs at rate 1: networkx 0.2626517751");
        return;
    }
    augur_dataset_csr(ds, true, &c, &d);
    is_double(rnn(&c, 1.0, 1, false, true, &e), 0.262651775135839, 1e-9,
              "RNN on polblogs at rate 1: networkx 0.2626517751");
    augur_csr_release(&c);
    augur_dataset_free(ds);
}

/* ---- streams and their simulation ------------------------------------------- */

struct collect {
    struct augur_stream_access *a;
    size_t n, cap;
};

static void collect_fn(void *ud, const struct augur_stream_access *acc, size_t n)
{
    struct collect *c = ud;

    if (c->n + n > c->cap) {
        c->cap = 2 * (c->n + n);
        c->a = realloc(c->a, c->cap * sizeof(*acc));
    }
    memcpy(c->a + c->n, acc, n * sizeof(*acc));
    c->n += n;
}

static size_t distinct_lines(const struct collect *c, uint64_t line)
{
    uint64_t *l = malloc(c->n * 2 * sizeof(uint64_t));
    size_t n = 0, m = 0;

    for (size_t i = 0; i < c->n; i++) {
        l[n++] = c->a[i].addr / line;
        l[n++] = (c->a[i].addr + c->a[i].size - 1) / line;
    }
    qsort(l, n, sizeof(*l), cmp_u64);
    for (size_t i = 0; i < n; i++)
        if (i == 0 || l[i] != l[m - 1])
            l[m++] = l[i];
    free(l);
    return m;
}

/* ireduce's reuse scale: the larger of n'/n and the sample's share of the full run's row window
 * (the geometric mean of |u - v| + 1). */
static void span_csr(struct augur_csr *c, uint64_t *rowptr, uint32_t *col, uint32_t n,
                     uint32_t shift)
{
    c->nrows = c->ncols = n;
    c->nnz = n;
    c->rowptr = rowptr;
    c->col = col;
    c->val = NULL;
    for (uint32_t u = 0; u < n; u++) {
        rowptr[u] = u;
        col[u] = (u + shift) % n;
    }
    rowptr[n] = n;
}

static void test_ireduce_span(void)
{
    uint64_t rp_full[401], rp_far[401], rp_small[101];
    uint32_t col_full[400], col_far[400], col_small[100];
    struct augur_csr full, far, small;
    struct augur_cache_config cfg;
    double sc[4], live = 3.0 * 64, c = 1 << 20;
    double reuse = (live + (c - live) * 100.0 / 400.0) / c;

    span_csr(&full, rp_full, col_full, 400, 0);
    span_csr(&far, rp_far, col_far, 400, 200);
    span_csr(&small, rp_small, col_small, 100, 0);
    memset(&cfg, 0, sizeof(cfg));
    cfg.nlevels = 1;
    strcpy(cfg.level[0].name, "L1");
    cfg.level[0].size = 1 << 20;
    cfg.level[0].line = 64;
    cfg.level[0].ways = 8;
    augur_scaling_scales(AUGUR_SCALING_REUSE, &full, &small, AUGUR_STREAM_IREDUCE, &cfg, sc);
    is_double(sc[0], 1.0, 1e-15,
              "ireduce reuse: a sample that keeps the row windows whole keeps the cache");
    augur_scaling_scales(AUGUR_SCALING_REUSE, &full, &small, AUGUR_STREAM_SPMV, &cfg, sc);
    is_double(sc[0], (4.0 * 64 + (c - 4.0 * 64) * 0.25) / c, 1e-15,
              "spmv reuse: n'/n whatever the windows");
    augur_scaling_scales(AUGUR_SCALING_REUSE, &far, &small, AUGUR_STREAM_IREDUCE, &cfg, sc);
    is_double(sc[0], reuse, 1e-15,
              "ireduce reuse: windows shrunk below n'/n (201 to 1) leave the n'/n scale");
}

static void test_streams(void)
{
    /* 3 x 3: (0,1) (0,2) (1,0) (2,2) */
    uint64_t keys[] = { 1, 2, (uint64_t)1 << 32, (uint64_t)2 << 32 | 2 };
    struct augur_csr m;
    struct collect c = { 0 };
    struct augur_diag d;
    uint64_t base;

    csr_from_keys(3, 3, keys, 4, false, &m);
    augur_diag_init(&d);
    ok(augur_stream_generate(&m, AUGUR_STREAM_SPMV, 0, collect_fn, &c, &d) == 0, "spmv stream");
    is_int(c.n, 3 * 3 + 3 * 4, "spmv: 3 accesses a row, 3 an entry");
    base = c.a[0].addr;
    ok(base % 4096 == 16 && c.a[1].addr == base + 8 && c.a[2].array == 2 && c.a[3].array == 1 &&
           c.a[4].array == 3 && c.a[8].array == 4 && c.a[8].is_write,
       "spmv: rowptr[i], rowptr[i+1], then val, col, x per entry, then y written");
    is_int(augur_stream_footprint(&m, AUGUR_STREAM_SPMV, 0), 8 * 4 + 4 * 4 + 8 * 4 + 8 * 3 + 8 * 3,
           "spmv footprint: rowptr, col, val, x, y");
    c.n = 0;
    ok(augur_stream_generate(&m, AUGUR_STREAM_FV, 0, collect_fn, &c, &d) == 0, "fv stream");
    is_int(c.n, 3 * 2 + 3 * 2 * 3, "fv: width 2 (max degree), 2 + 3 w accesses a row");
    /* Row 2 has one entry: slot 1 is padding that reads x[2] again. */
    ok(c.a[2 * 8 + 1 + 3 + 2].addr == c.a[2 * 8].addr, "fv: padding reads x of its own row");
    c.n = 0;
    ok(augur_stream_generate(&m, AUGUR_STREAM_FV, 5, collect_fn, &c, &d) == 0 &&
           c.n == 3 * 2 + 3 * 5 * 3 &&
           augur_stream_footprint(&m, AUGUR_STREAM_FV, 5) == 4 * 15 + 8 * 15 + 8 * 3 + 8 * 3,
       "fv at a given ELL width 5: 5 slots a row");
    ok(augur_stream_generate(&m, AUGUR_STREAM_FV, 1, collect_fn, &c, &d) == AUGUR_EINVAL &&
           strstr(d.msg, "below the largest row degree"),
       "fv: a width below the largest degree is refused");
    c.n = 0;
    ok(augur_stream_generate(&m, AUGUR_STREAM_IREDUCE, 0, collect_fn, &c, &d) == 0,
       "ireduce stream");
    is_int(c.n, 9 * 4, "ireduce: 9 accesses an edge");
    ok(c.a[6].is_write && !c.a[5].is_write && c.a[5].addr == c.a[6].addr,
       "ireduce: y[u] read then written");
    free(c.a);
    augur_csr_release(&m);

    {
        struct augur_csr r;
        struct augur_cache_config cfg;
        struct augur_stream_result res;
        const double quarter[4] = { 0.25 }, tiny[4] = { 1e-6 }, zero[4] = { 0.0 };

        random_csr(400, 400, 2000, 9, &r);
        c.a = NULL;
        c.n = c.cap = 0;
        augur_stream_generate(&r, AUGUR_STREAM_SPMV, 0, collect_fn, &c, &d);
        memset(&cfg, 0, sizeof(cfg));
        cfg.nlevels = 1;
        strcpy(cfg.level[0].name, "L1");
        cfg.level[0].size = 1 << 20;
        cfg.level[0].line = 64;
        cfg.level[0].ways = 8;
        ok(augur_stream_simulate(&r, AUGUR_STREAM_SPMV, 0, &cfg, NULL, false, &res, &d) == 0,
           "spmv simulates");
        is_int(res.misses[0], distinct_lines(&c, 64),
               "a cache that holds everything misses once a line (cold)");
        is_int(res.accesses[0], c.n, "every access is one request (none straddles a line)");
        ok(augur_stream_simulate(&r, AUGUR_STREAM_SPMV, 0, &cfg, NULL, true, &res, &d) == 0 &&
               res.misses[0] == 0,
           "warm: the second pass hits everywhere");
        ok(augur_stream_simulate(&r, AUGUR_STREAM_SPMV, 0, &cfg, quarter, false, &res, &d) == 0 &&
               res.size[0] == (1 << 18),
           "scale 1/4: a quarter of the sets");
        ok(augur_stream_simulate(&r, AUGUR_STREAM_SPMV, 0, &cfg, tiny, false, &res, &d) == 0 &&
               res.size[0] == 64,
           "a tiny scale keeps one line");
        ok(augur_stream_simulate(&r, AUGUR_STREAM_SPMV, 0, &cfg, zero, false, &res, &d) ==
               AUGUR_EINVAL,
           "scale 0 refused");
        {
            struct augur_sample_opts so = { .method = AUGUR_SAMPLER_SA, .rate = 0.2 };
            struct augur_sample s;

            augur_sample_csr(&r, &so, &s, &d);
            double sc[4], live = 4.0 * 64, want;

            augur_scaling_scales(AUGUR_SCALING_REUSE, &r, &s.csr, AUGUR_STREAM_SPMV, &cfg, sc);
            want = (live + ((1 << 20) - live) * s.csr.nrows / 400.0) / (1 << 20);
            is_double(sc[0], want, 1e-15,
                      "reuse scaling: 4 stream lines kept, the rest times n'/n");
            augur_scaling_scales(AUGUR_SCALING_FOOTPRINT, &r, &s.csr, AUGUR_STREAM_SPMV, &cfg, sc);
            is_double(sc[0],
                      (double)augur_stream_footprint(&s.csr, AUGUR_STREAM_SPMV, 0) /
                          augur_stream_footprint(&r, AUGUR_STREAM_SPMV, 0),
                      1e-15, "footprint scaling: bytes ratio");
            augur_scaling_scales(AUGUR_SCALING_NONE, &r, &s.csr, AUGUR_STREAM_SPMV, &cfg, sc);
            is_double(sc[0], 1.0, 0, "no scaling: 1");
            augur_scaling_scales(AUGUR_SCALING_AUTO, &r, &s.csr, AUGUR_STREAM_FV, &cfg, sc);
            is_double(sc[0], 1.0, 0, "auto scaling of fv: none");
            augur_scaling_scales(AUGUR_SCALING_AUTO, &r, &s.csr, AUGUR_STREAM_SPMV, &cfg, sc);
            is_double(sc[0], want, 1e-15, "auto scaling of spmv: reuse");
            cfg.level[0].size = 8 * 64;
            cfg.level[0].ways = 0;
            augur_scaling_scales(AUGUR_SCALING_REUSE, &r, &s.csr, AUGUR_STREAM_FV, &cfg, sc);
            is_double(sc[0], 1.0, 0,
                      "reuse scaling: a cache under fv's 2 w + 1 stream lines is not scaled");
            {
                uint64_t maxdeg = 0;

                for (uint32_t i = 0; i < r.nrows; i++)
                    if (r.rowptr[i + 1] - r.rowptr[i] > maxdeg)
                        maxdeg = r.rowptr[i + 1] - r.rowptr[i];
                is_int(augur_stream_live_lines(&r, AUGUR_STREAM_FV, 0), 2 * maxdeg + 1,
                       "fv live lines: a and idx of each slot, and y");
            }
            cfg.level[0].size = 1 << 20;
            cfg.level[0].ways = 8;
            ok(augur_sample_simulate(&r, &so, AUGUR_STREAM_IREDUCE, &cfg, AUGUR_SCALING_REUSE,
                                     false, &res, NULL, &d) == 0 &&
                   fabs(res.scale[0] - ((3.0 * 64 + ((1 << 20) - 3.0 * 64) * s.csr.nrows / 400.0) /
                                        (1 << 20))) < 1e-15,
               "sample simulation uses the reuse scale (ireduce: 3 stream lines)");
            augur_sample_release(&s);
        }
        free(c.a);
        augur_csr_release(&r);
    }
    is_double(augur_error_rate(0.2, 0.15), 0.25, 1e-15, "eq. 7: |0.2 - 0.15| / 0.2");
    is_double(augur_error_rate(0.0, 0.0), 0.0, 0, "eq. 7: 0 against 0");
}

/*
 * The cold-miss correction of a sampled run under reuse scaling: a Stride
 * Average sample of a matrix numbered at random keeps 22 % of x for 5 % of
 * the entries, so each of its x lines is gathered about a fifth as often as
 * in the full run and, where x fits (the 1 MiB L2: only cold misses), its
 * miss rate is several times the full run's unless the cold misses are
 * counted at the full run's accesses per line.
 */
static void test_cold_correction(void)
{
    struct augur_csr m;
    struct augur_sample_opts so = { .method = AUGUR_SAMPLER_SA, .rate = 0.05, .seed = 1 };
    struct augur_cache_config cfg;
    struct augur_stream_result full, plain, fixed, whole;
    struct augur_diag d;
    const enum augur_stream_kernel ks[2] = { AUGUR_STREAM_SPMV, AUGUR_STREAM_IREDUCE };

    augur_diag_init(&d);
    random_csr(4096, 4096, 65536, 7, &m);
    memset(&cfg, 0, sizeof(cfg));
    cfg.nlevels = 2;
    strcpy(cfg.level[0].name, "L1");
    cfg.level[0].size = 32 << 10;
    cfg.level[0].line = 64;
    cfg.level[0].ways = 8;
    strcpy(cfg.level[1].name, "L2");
    cfg.level[1].size = 1 << 20;
    cfg.level[1].line = 64;
    cfg.level[1].ways = 16;
    for (int i = 0; i < 2; i++) {
        const char *kn = augur_stream_kernel_name(ks[i]);
        char name[5][128];

        snprintf(name[0], sizeof(name[0]), "%s: full run and SA samples simulated", kn);
        snprintf(name[1], sizeof(name[1]),
                 "%s: uncounted, the sample's cold misses inflate its L2 miss rate", kn);
        snprintf(name[2], sizeof(name[2]),
                 "%s: at the full run's accesses per line, the L2 miss rate transfers", kn);
        snprintf(name[3], sizeof(name[3]),
                 "%s: corrected, the L1 miss rate transfers too and no level misses more than it "
                 "is asked",
                 kn);
        snprintf(name[4], sizeof(name[4]),
                 "%s: the whole matrix as its sample is not corrected (the same accesses per "
                 "line)",
                 kn);

        so.rate = 0.05;
        ok(augur_stream_simulate(&m, ks[i], 0, &cfg, NULL, false, &full, &d) == 0 &&
               augur_sample_simulate(&m, &so, ks[i], &cfg, AUGUR_SCALING_NONE, false, &plain, NULL,
                                     &d) == 0 &&
               augur_sample_simulate(&m, &so, ks[i], &cfg, AUGUR_SCALING_REUSE, false, &fixed, NULL,
                                     &d) == 0,
           name[0]);
        tap_diag("%s L2 miss rate: full %.4f, SA sample uncorrected (none) %.4f, corrected (reuse) "
                 "%.4f; L1 %.4f, %.4f, %.4f",
                 kn, full.miss_rate[1], plain.miss_rate[1], fixed.miss_rate[1], full.miss_rate[0],
                 plain.miss_rate[0], fixed.miss_rate[0]);
        ok(augur_error_rate(full.miss_rate[1], plain.miss_rate[1]) > 0.5, name[1]);
        ok(augur_error_rate(full.miss_rate[1], fixed.miss_rate[1]) < 0.1, name[2]);
        ok(augur_error_rate(full.miss_rate[0], fixed.miss_rate[0]) < 0.1 &&
               fixed.misses[0] <= fixed.accesses[0] && fixed.misses[1] <= fixed.accesses[1],
           name[3]);
        so.rate = 1.0;
        ok(augur_sample_simulate(&m, &so, ks[i], &cfg, AUGUR_SCALING_REUSE, false, &whole, NULL,
                                 &d) == 0 &&
               whole.misses[0] == full.misses[0] && whole.misses[1] == full.misses[1] &&
               whole.accesses[1] == full.accesses[1],
           name[4]);
    }
    augur_csr_release(&m);
}

int main(void)
{
    struct augur_csr m;

    test_names();
    random_csr(2000, 2000, 40000, 1, &m);
    test_re(&m);
    test_sa(&m);
    test_sa_shifted(&m);
    test_rt(&m);
    test_rb(&m);
    test_band();
    test_whole_and_rect(&m);
    test_bad_input(&m);
    test_write(&m);
    augur_csr_release(&m);
    test_rnn_known();
    test_rnn_stratified();
    test_rnn_error_target();
    test_rnn_exact();
    test_rnn_dataset();
    test_fv_stride();
    test_streams();
    test_ireduce_span();
    test_cold_correction();
    return tap_done();
}
