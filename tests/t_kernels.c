/*
 * t_kernels.c - every variant of every reference kernel (kernels/) against
 * its scalar reference: on small hand-built graphs with known answers, then
 * on three real datasets (a tetrahedral mesh's dual, a road graph, a skewed
 * graph). Same summation order: exact; another order: bounded by the sum of
 * the magnitudes of the terms.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#    include <omp.h>
#endif

#include "augur/augur.h"
#include "bfs/kernel.h"
#include "fv/kernel.h"
#include "ireduce/kernel.h"
#include "pagerank/kernel.h"
#include "spmv/kernel.h"
#include "tap.h"

/* Relative bound for sums taken in another order: far above n * eps for these sizes. */
#define REORDER_TOL 1e-10

static bool have_avx512;
static bool have_openmp;

static char label[256];

/* "what on dataset" as a test name (one buffer, used before the next call). */
static const char *name(const char *what, const char *data)
{
    snprintf(label, sizeof(label), "%s on %s", what, data);
    return label;
}

static void skip_avx(const char *what, const char *data)
{
    tap_skip("no avx512f", name(what, data));
}

static void skip_omp(const char *what, const char *data)
{
    tap_skip("no OpenMP", name(what, data));
}

/* splitmix64: reproducible inputs. */
static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double *random_vec(size_t n, uint64_t seed)
{
    double *v = augur_mallocarray(n ? n : 1, sizeof(*v));

    for (size_t i = 0; i < n; i++)
        v[i] = (double)(mix(&seed) >> 11) * 0x1.0p-53;
    return v;
}

static double *zero_vec(size_t n)
{
    return augur_calloc(n ? n : 1, sizeof(double));
}

/* Index of the first element that differs, or -1. */
static long first_diff(const double *a, const double *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (a[i] != b[i])
            return (long)i;
    }
    return -1;
}

static long first_diff_i32(const int32_t *a, const int32_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (a[i] != b[i])
            return (long)i;
    }
    return -1;
}

/* Largest |got - want| / bound over the elements (bound: the sum of |terms|). */
static double worst_rel(const double *got, const double *want, const double *bound, size_t n)
{
    double worst = 0.0;

    for (size_t i = 0; i < n; i++) {
        double d = fabs(got[i] - want[i]);
        double b = bound[i] > 0 ? bound[i] : 1e-300;

        if (d / b > worst)
            worst = d / b;
    }
    return worst;
}

static void is_exact(const double *got, const double *want, size_t n, const char *test)
{
    long at = first_diff(got, want, n);

    if (!ok(at < 0, test))
        tap_diag("element %ld: %.17g, want %.17g", at, got[at], want[at]);
}

static void is_close(const double *got, const double *want, const double *bound, size_t n,
                     const char *test)
{
    double w = worst_rel(got, want, bound, n);

    if (!ok(w <= REORDER_TOL, test))
        tap_diag("worst error relative to the sum of magnitudes: %g", w);
}

/* ---- a small graph with known answers ------------------------------------ */

/*
 * 0 -> 1, 0 -> 2, 1 -> 3, 2 -> 3, 3 -> 4, 5 -> 0 (5 is not reachable from 0),
 * values 1..6 in entry order.
 */
static const uint64_t g_rowptr[] = { 0, 2, 3, 4, 5, 5, 6 };
static const uint32_t g_col[] = { 1, 2, 3, 3, 4, 0 };
static const double g_val[] = { 1, 2, 3, 4, 5, 6 };

static void test_small(void)
{
    const double x[6] = { 1, 10, 100, 1000, 10000, 100000 };
    const double want_y[6] = { 210, 3000, 4000, 50000, 0, 6 };
    const int32_t want_level[6] = { 0, 1, 1, 2, 3, BFS_INF };
    double y[6];
    int32_t level[6];
    uint32_t queue[6];

    spmv_csr_ref(6, g_rowptr, g_col, g_val, x, y);
    is_exact(y, want_y, 6, "spmv ref on the small graph");
    memset(y, 0, sizeof(y));
    spmv_csr_omp_static(6, g_rowptr, g_col, g_val, x, y);
    is_exact(y, want_y, 6, "spmv omp static on the small graph");
    memset(y, 0, sizeof(y));
    spmv_csr_omp_dynamic(6, g_rowptr, g_col, g_val, x, y);
    is_exact(y, want_y, 6, "spmv omp dynamic on the small graph");
    if (have_avx512) {
        memset(y, 0, sizeof(y));
        spmv_csr_avx512(6, g_rowptr, g_col, g_val, x, y);
        is_exact(y, want_y, 6, "spmv avx512 on the small graph (sums of integers: exact)");
    } else {
        skip_avx("spmv avx512", "the small graph");
    }

    is_int(bfs_topo_ref(6, g_rowptr, g_col, 0, level), 3, "bfs topo ref: depth 3");
    ok(first_diff_i32(level, want_level, 6) < 0, "bfs topo ref: levels 0 1 1 2 3 INF");
    is_int(bfs_topo_round_ref(6, g_rowptr, g_col, level, 4), 0, "bfs topo: round 4 labels none");
    is_int(bfs_topo_omp(6, g_rowptr, g_col, 0, level), 3, "bfs topo omp: depth 3");
    ok(first_diff_i32(level, want_level, 6) < 0, "bfs topo omp: levels");
    is_int(bfs_frontier_ref(6, g_rowptr, g_col, 0, level, queue), 3, "bfs frontier ref: depth 3");
    ok(first_diff_i32(level, want_level, 6) < 0, "bfs frontier ref: levels");
    ok(queue[0] == 0 && queue[1] == 1 && queue[2] == 2 && queue[3] == 3 && queue[4] == 4,
       "bfs frontier ref: queue in BFS order");
    is_int(bfs_frontier_omp(6, g_rowptr, g_col, 0, level, queue), 3, "bfs frontier omp: depth 3");
    ok(first_diff_i32(level, want_level, 6) < 0, "bfs frontier omp: levels");
    is_int(bfs_topo_ref(6, g_rowptr, g_col, 5, level), 4, "bfs from node 5 reaches all: depth 4");
}

/* Finite volume on 3 cells, width 2 (slot-major), one padding slot. */
static void test_small_fv(void)
{
    /* cell 0: neighbours 1, 2; cell 1: neighbour 0 and padding; cell 2: neighbours 0, 1. */
    const uint32_t idx[6] = { 1, 0, 0, 2, 1, 1 };
    const double a[6] = { 1, 2, 3, 4, 0, 5 };
    const double x[3] = { 1, 2, 4 };
    /* y0 = 1(2-1) + 4(4-1) = 13; y1 = 2(1-2) + 0 = -2; y2 = 3(1-4) + 5(2-4) = -19 */
    const double want[3] = { 13, -2, -19 };
    double y[3], xs[3], ys[3], *res;
    double want2[3];

    fv_ell_ref(3, 2, idx, a, x, y);
    is_exact(y, want, 3, "fv ref on 3 cells");
    memset(y, 0, sizeof(y));
    fv_ell_omp_simple(3, 2, idx, a, x, y);
    is_exact(y, want, 3, "fv omp simple on 3 cells");
    if (have_avx512) {
        memset(y, 0, sizeof(y));
        fv_ell_avx512(3, 2, idx, a, x, y);
        is_exact(y, want, 3, "fv avx512 on 3 cells (masked tail)");
    } else {
        skip_avx("fv avx512", "3 cells");
    }
    /* Two steps: the second is F(want). */
    fv_ell_ref(3, 2, idx, a, want, want2);
    memcpy(xs, x, sizeof(xs));
    res = fv_ell_steps_ref(3, 2, idx, a, xs, ys, 2);
    ok(res == xs, "fv steps: two steps end in x");
    is_exact(res, want2, 3, "fv steps ref: F(F(x))");
    memcpy(xs, x, sizeof(xs));
    res = fv_ell_omp_private(3, 2, idx, a, xs, ys, 2);
    ok(res == xs, "fv omp private: two steps end in x");
    is_exact(res, want2, 3, "fv omp private: F(F(x))");
    memcpy(xs, x, sizeof(xs));
    res = fv_ell_omp_private(3, 2, idx, a, xs, ys, 1);
    ok(res == ys, "fv omp private: one step ends in y");
    is_exact(res, want, 3, "fv omp private: F(x)");
}

/* The schedule of a tiling: every edge once, groups and tile groups conflict-free. */
static void check_tiling(const struct ireduce_tiling *t, const uint32_t *eu, const uint32_t *ev,
                         const char *what)
{
    uint8_t *seen = augur_calloc(t->nedges ? t->nedges : 1, 1);
    uint64_t *mark = augur_calloc((size_t)t->n + 1, sizeof(*mark));
    uint64_t *bmark = augur_calloc((size_t)t->n / t->tile_size + 2, sizeof(*bmark));
    uint64_t nseen = 0, stamp = 0;
    bool once = true, lanes_ok = true, groups_ok = true, tiles_ok = true, tiled = true;
    char test[300];

    for (uint64_t g = 0; g < t->ngroups; g++) {
        stamp++;
        if (t->gcount[g] < 1 || t->gcount[g] > IREDUCE_LANES)
            lanes_ok = false;
        for (uint64_t s = g * IREDUCE_LANES; s < (g + 1) * IREDUCE_LANES; s++) {
            uint64_t e = t->gedge[s];

            if (s - g * IREDUCE_LANES >= t->gcount[g]) {
                if (e != UINT64_MAX)
                    lanes_ok = false;
                continue;
            }
            if (e >= t->nedges || seen[e] || t->gu[s] != eu[e] || t->gv[s] != ev[e]) {
                once = false;
                continue;
            }
            seen[e] = 1;
            nseen++;
            /* A node in two lanes of a group (a self-loop's two ends are one lane). */
            if ((mark[t->gu[s]] == stamp) || (t->gv[s] != t->gu[s] && mark[t->gv[s]] == stamp))
                groups_ok = false;
            mark[t->gu[s]] = stamp;
            mark[t->gv[s]] = stamp;
        }
    }
    /* Each tile's edges lie in one tile; the tiles of a tile group use distinct blocks. */
    for (uint64_t tg = 0; tg < t->ntgroups; tg++) {
        stamp++;
        for (uint64_t k = t->tgroup_tile[tg]; k < t->tgroup_tile[tg + 1]; k++) {
            uint64_t s0 = t->tile_group[k] * IREDUCE_LANES;
            uint32_t bu = t->gu[s0] / t->tile_size, bv = t->gv[s0] / t->tile_size;

            for (uint64_t g = t->tile_group[k]; g < t->tile_group[k + 1]; g++) {
                for (uint64_t s = g * IREDUCE_LANES; s < g * IREDUCE_LANES + t->gcount[g]; s++) {
                    if (t->gu[s] / t->tile_size != bu || t->gv[s] / t->tile_size != bv)
                        tiled = false;
                }
            }
            if (bmark[bu] == stamp || (bv != bu && bmark[bv] == stamp))
                tiles_ok = false;
            bmark[bu] = stamp;
            bmark[bv] = stamp;
        }
    }
    snprintf(test, sizeof(test), "%s: every edge in exactly one lane", what);
    ok(once && nseen == t->nedges, test);
    snprintf(test, sizeof(test), "%s: groups hold 1..16 edges, padding marked", what);
    ok(lanes_ok, test);
    snprintf(test, sizeof(test), "%s: no node twice in a group", what);
    ok(groups_ok, test);
    snprintf(test, sizeof(test), "%s: a tile's edges share its row and column block", what);
    ok(tiled, test);
    snprintf(test, sizeof(test), "%s: tiles of a tile group share no block", what);
    ok(tiles_ok, test);
    snprintf(test, sizeof(test), "%s: tile groups cover the tiles", what);
    ok(t->ntgroups == 0 || (t->tgroup_tile[0] == 0 && t->tgroup_tile[t->ntgroups] == t->ntiles),
       test);
    augur_free(seen);
    augur_free(mark);
    augur_free(bmark);
}

static void test_small_tiling(void)
{
    /* A star (node 0 to all) and a path: the star's edges must land in distinct groups. */
    uint32_t eu[40], ev[40];
    struct ireduce_tiling t;
    uint64_t ne = 0;

    for (uint32_t v = 1; v < 20; v++) {
        eu[ne] = 0;
        ev[ne++] = v;
    }
    for (uint32_t v = 20; v < 39; v++) {
        eu[ne] = v;
        ev[ne++] = v + 1;
    }
    eu[ne] = 7;
    ev[ne++] = 7; /* a self-loop */
    ok(ireduce_tiling_build(40, ne, eu, ev, NULL, 8, &t) == 0, "tiling of a star and a path");
    check_tiling(&t, eu, ev, "tiling of a star and a path (tile 8)");
    ireduce_tiling_release(&t);
    ok(ireduce_tiling_build(40, ne, eu, ev, NULL, 64, &t) == 0, "one tile");
    is_int((long long)t.ntiles, 1, "tile 64: one tile");
    /* 19 star edges need 19 groups (node 0 once per group); the path fits beside them. */
    is_int((long long)t.ngroups, 19, "tile 64: the star's 19 edges in 19 groups");
    check_tiling(&t, eu, ev, "one tile of 64");
    ireduce_tiling_release(&t);
    ok(ireduce_tiling_build(40, ne, eu, ev, NULL, 0, &t) == -1, "tile size 0 is refused");
    eu[0] = 40;
    ok(ireduce_tiling_build(40, ne, eu, ev, NULL, 8, &t) == -1, "an endpoint >= n is refused");
}

/* ---- descriptors --------------------------------------------------------- */

/* Every descriptor: its bindings are skeleton targets, its variants' functions are in their files.
 */
static void test_descriptors(void)
{
    static const struct augur_kernel_desc *const descs[] = {
        &spmv_csr_desc,      &bfs_topo_desc,       &bfs_frontier_desc,  &fv_ell_desc,
        &ireduce_euler_desc, &ireduce_moldyn_desc, &pagerank_pull_desc,
    };
    const char *src = getenv("AUGUR_SOURCE_DIR");

    for (size_t d = 0; d < sizeof(descs) / sizeof(descs[0]); d++) {
        const struct augur_kernel_desc *k = descs[d];
        char spec[512], test[300], *save = NULL;
        bool targets_ok = true, funcs_ok = true;

        snprintf(spec, sizeof(spec), "%s", k->bindings);
        for (char *item = strtok_r(spec, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
            char *eq = strchr(item, '=');

            if (!eq ||
                (!augur_bind_is_array_target(eq + 1) && !augur_bind_is_scalar_target(eq + 1))) {
                targets_ok = false;
                tap_diag("%s: binding '%s' is not a skeleton target", k->name, item);
            }
        }
        snprintf(test, sizeof(test), "%s: bindings name skeleton targets", k->name);
        ok(targets_ok, test);
        snprintf(test, sizeof(test), "%s: costs given, %d variants", k->name, k->nvariants);
        ok(k->nvariants >= 2 && k->inner_bytes > 0 && k->outer && k->inner && k->equation, test);
        if (!src) {
            tap_skip("AUGUR_SOURCE_DIR not set", "variant functions in their files");
            continue;
        }
        for (int v = 0; v < k->nvariants; v++) {
            struct augur_buf text;
            struct augur_diag diag;
            char path[1024];

            snprintf(path, sizeof(path), "%s/%s", src, k->variants[v].file);
            augur_buf_init(&text);
            augur_diag_init(&diag);
            if (augur_file_read(path, 0, &text, NULL, &diag) != 0 ||
                !strstr(text.s, k->variants[v].function)) {
                funcs_ok = false;
                tap_diag("%s: %s not in %s", k->name, k->variants[v].function, path);
            }
            augur_buf_release(&text);
        }
        snprintf(test, sizeof(test), "%s: each variant's function is in its file", k->name);
        ok(funcs_ok, test);
    }
}

/* ---- real datasets ------------------------------------------------------- */

struct graph {
    const char *label;
    struct augur_dataset *ds;
    struct augur_csr csr; /* both triangles */
    double *val;          /* csr values, ones for a pattern */
    uint32_t n;
};

static int load_graph(const char *rel, const char *lbl, struct graph *g)
{
    const char *dir = tap_datasets();
    struct augur_diag diag;
    char path[1024];

    memset(g, 0, sizeof(*g));
    g->label = lbl;
    if (!dir) {
        tap_skip("AUGUR_DATASETS not set", name("load", lbl));
        return -1;
    }
    snprintf(path, sizeof(path), "%s/%s", dir, rel);
    augur_diag_init(&diag);
    if (!ok(augur_dataset_load(path, NULL, &g->ds, &diag) == 0, name("load", lbl)) ||
        !ok(augur_dataset_csr(g->ds, true, &g->csr, &diag) == 0, name("csr", lbl))) {
        tap_diag("%s:%u:%u: %s", diag.file, diag.line, diag.col, diag.msg);
        return -1;
    }
    g->n = g->csr.nrows;
    g->val = augur_mallocarray(g->csr.nnz ? g->csr.nnz : 1, sizeof(double));
    for (uint64_t j = 0; j < g->csr.nnz; j++)
        g->val[j] = g->csr.val ? g->csr.val[j] : 1.0;
    tap_diag("%s: %u rows, %llu entries", lbl, g->n, (unsigned long long)g->csr.nnz);
    return 0;
}

static void free_graph(struct graph *g)
{
    augur_csr_release(&g->csr);
    augur_free(g->val);
    augur_dataset_free(g->ds);
}

static void test_spmv(const struct graph *g)
{
    uint32_t n = g->n;
    double *x = random_vec(g->csr.ncols, 1), *want = zero_vec(n), *got = zero_vec(n);
    double *absval = augur_mallocarray(g->csr.nnz ? g->csr.nnz : 1, sizeof(double));
    double *bound = zero_vec(n);

    for (uint64_t j = 0; j < g->csr.nnz; j++)
        absval[j] = fabs(g->val[j]);
    spmv_csr_ref(n, g->csr.rowptr, g->csr.col, g->val, x, want);
    spmv_csr_ref(n, g->csr.rowptr, g->csr.col, absval, x, bound); /* x >= 0 */
    if (have_openmp) {
        spmv_csr_omp_static(n, g->csr.rowptr, g->csr.col, g->val, x, got);
        is_exact(got, want, n, name("spmv omp static", g->label));
        memset(got, 0, n * sizeof(*got));
        spmv_csr_omp_dynamic(n, g->csr.rowptr, g->csr.col, g->val, x, got);
        is_exact(got, want, n, name("spmv omp dynamic", g->label));
    } else {
        skip_omp("spmv omp static", g->label);
        skip_omp("spmv omp dynamic", g->label);
    }
    if (have_avx512) {
        memset(got, 0, n * sizeof(*got));
        spmv_csr_avx512(n, g->csr.rowptr, g->csr.col, g->val, x, got);
        is_close(got, want, bound, n, name("spmv avx512", g->label));
    } else {
        skip_avx("spmv avx512", g->label);
    }
#ifdef AUGUR_HAVE_CUDA
    memset(got, 0, n * sizeof(*got));
    if (spmv_csr_cuda_run(n, g->csr.nnz, g->csr.rowptr, g->csr.col, g->val, x, got, 1, NULL) == 0)
        is_close(got, want, bound, n, name("spmv cuda", g->label));
    else
        tap_skip("no usable GPU", name("spmv cuda", g->label));
#endif
    augur_free(x);
    augur_free(want);
    augur_free(got);
    augur_free(absval);
    augur_free(bound);
}

static void test_bfs(const struct graph *g)
{
    uint32_t n = g->n, src = 0;
    int32_t *want = augur_mallocarray(n, sizeof(int32_t)), *got = augur_mallocarray(n, 4);
    uint32_t *queue = augur_mallocarray(n, sizeof(uint32_t));
    int32_t depth, d;
    uint64_t reached = 0;

    /* Start at the node of largest out-degree: a search that goes somewhere. */
    for (uint32_t v = 1; v < n; v++) {
        if (g->csr.rowptr[v + 1] - g->csr.rowptr[v] > g->csr.rowptr[src + 1] - g->csr.rowptr[src])
            src = v;
    }
    depth = bfs_topo_ref(n, g->csr.rowptr, g->csr.col, src, want);
    for (uint32_t v = 0; v < n; v++)
        reached += want[v] != BFS_INF;
    tap_diag("bfs from %u on %s: depth %d, %llu nodes reached", src, g->label, depth,
             (unsigned long long)reached);
    ok(depth > 0 && reached > 1, name("bfs topo ref reaches beyond its source", g->label));
    d = bfs_frontier_ref(n, g->csr.rowptr, g->csr.col, src, got, queue);
    ok(d == depth && first_diff_i32(got, want, n) < 0,
       name("bfs frontier ref: same levels as topo", g->label));
    if (have_openmp) {
        memset(got, 0, n * sizeof(*got));
        d = bfs_topo_omp(n, g->csr.rowptr, g->csr.col, src, got);
        ok(d == depth && first_diff_i32(got, want, n) < 0, name("bfs topo omp", g->label));
        memset(got, 0, n * sizeof(*got));
        d = bfs_frontier_omp(n, g->csr.rowptr, g->csr.col, src, got, queue);
        ok(d == depth && first_diff_i32(got, want, n) < 0, name("bfs frontier omp", g->label));
    } else {
        skip_omp("bfs topo omp", g->label);
        skip_omp("bfs frontier omp", g->label);
    }
#ifdef AUGUR_HAVE_CUDA
    memset(got, 0, n * sizeof(*got));
    d = bfs_topo_cuda_run(n, g->csr.nnz, g->csr.rowptr, g->csr.col, src, got, NULL);
    if (d >= 0)
        ok(d == depth && first_diff_i32(got, want, n) < 0, name("bfs topo cuda", g->label));
    else
        tap_skip("no usable GPU", name("bfs topo cuda", g->label));
#endif
    augur_free(want);
    augur_free(got);
    augur_free(queue);
}

static void test_fv(const struct graph *g)
{
    struct augur_ell ell;
    struct augur_diag diag;
    uint32_t n = g->n;
    double *a, *x, *want, *got, *bound, *absx, *x2, *y2, *res;
    double *w1, *w2, *wres;
    uint64_t slots;
    uint64_t seed = 7;

    augur_diag_init(&diag);
    memset(&ell, 0, sizeof(ell));
    if (!ok(augur_csr_to_ell(&g->csr, 0, &ell, &diag) == 0, name("ell of", g->label))) {
        tap_diag("%s", diag.msg);
        return;
    }
    tap_diag("%s: ELLPACK width %u, %llu padding slots", g->label, ell.width,
             (unsigned long long)ell.npadding);
    slots = (uint64_t)n * ell.width;
    /* Coupling weights in (0.5, 1.5); 0 in padding slots (which point at their own cell). */
    a = zero_vec(slots);
    for (uint64_t s = 0; s < slots; s++) {
        double r = (double)(mix(&seed) >> 11) * 0x1.0p-53;

        a[s] = ell.idx[s] == s % n ? 0.0 : 0.5 + r;
    }
    x = random_vec(n, 3);
    absx = zero_vec(n);
    for (uint32_t i = 0; i < n; i++)
        absx[i] = fabs(x[i]);
    want = zero_vec(n);
    got = zero_vec(n);
    bound = zero_vec(n);
    fv_ell_ref(n, ell.width, ell.idx, a, x, want);
    /* sum |a| (|x_l| + |x_i|) bounds the terms. */
    for (uint32_t i = 0; i < n; i++) {
        for (uint32_t k = 0; k < ell.width; k++)
            bound[i] +=
                fabs(a[(uint64_t)k * n + i]) * (absx[ell.idx[(uint64_t)k * n + i]] + absx[i]);
    }
    if (have_openmp) {
        fv_ell_omp_simple(n, ell.width, ell.idx, a, x, got);
        is_exact(got, want, n, name("fv omp simple (Fig. 4)", g->label));
    } else {
        skip_omp("fv omp simple (Fig. 4)", g->label);
    }
    if (have_avx512) {
        memset(got, 0, n * sizeof(*got));
        fv_ell_avx512(n, ell.width, ell.idx, a, x, got);
        is_close(got, want, bound, n, name("fv avx512", g->label));
    } else {
        skip_avx("fv avx512", g->label);
    }
    /* Three steps with swaps: the private-copy version against the reference driver. */
    w1 = random_vec(n, 3);
    w2 = zero_vec(n);
    wres = fv_ell_steps_ref(n, ell.width, ell.idx, a, w1, w2, 3);
    x2 = random_vec(n, 3);
    y2 = zero_vec(n);
    if (have_openmp) {
        res = fv_ell_omp_private(n, ell.width, ell.idx, a, x2, y2, 3);
        ok(res == y2, name("fv omp private: 3 steps end in y", g->label));
        if (res)
            is_exact(res, wres, n, name("fv omp private (Fig. 5), 3 steps", g->label));
    } else {
        skip_omp("fv omp private: 3 steps end in y", g->label);
        skip_omp("fv omp private (Fig. 5), 3 steps", g->label);
    }
#ifdef AUGUR_HAVE_CUDA
    for (int which = 1; which <= 2; which++) {
        const char *what = which == 1 ? "fv cuda kernel 1 (Fig. 2)" : "fv cuda kernel 2 (Fig. 3)";

        memset(got, 0, n * sizeof(*got));
        if (fv_ell_cuda_run(which, n, ell.width, ell.idx, a, x, got, 128, 1, NULL) == 0)
            is_close(got, want, bound, n, name(what, g->label));
        else
            tap_skip("no usable GPU", name(what, g->label));
    }
#endif
    augur_free(a);
    augur_free(x);
    augur_free(absx);
    augur_free(want);
    augur_free(got);
    augur_free(bound);
    augur_free(w1);
    augur_free(w2);
    augur_free(x2);
    augur_free(y2);
    augur_ell_release(&ell);
}

/* Euler and Moldyn over the stored entries of the dataset (each undirected edge once). */
static void test_ireduce(const struct graph *g)
{
    const struct augur_coo *coo = &g->ds->coo;
    uint32_t n = g->n;
    uint64_t ne = coo->nnz;
    double *w = augur_mallocarray(ne ? ne : 1, sizeof(double));
    double *x = random_vec(n, 11), *want = zero_vec(n), *got = zero_vec(n), *bound = zero_vec(n);
    double *px = random_vec(n, 21), *py = random_vec(n, 22), *pz = random_vec(n, 23);
    double *f[3], *wf[3], fbound[3] = { 0, 0, 0 };
    const double cutoff2 = 0.25;
    const uint32_t tiles[2] = { 64, 4096 };
    uint64_t near = 0;

    for (uint64_t e = 0; e < ne; e++) {
        w[e] = coo->val ? coo->val[e] : 1.0;
        bound[coo->row[e]] += fabs(w[e] * (x[coo->row[e]] - x[coo->col[e]]));
        bound[coo->col[e]] += fabs(w[e] * (x[coo->row[e]] - x[coo->col[e]]));
    }
    for (int c = 0; c < 3; c++) {
        f[c] = zero_vec(n);
        wf[c] = zero_vec(n);
    }
    ireduce_euler_ref(ne, coo->row, coo->col, w, x, want);
    ireduce_moldyn_ref(ne, coo->row, coo->col, px, py, pz, cutoff2, wf[0], wf[1], wf[2]);
    for (uint64_t e = 0; e < ne; e++) {
        double dx = px[coo->row[e]] - px[coo->col[e]], dy = py[coo->row[e]] - py[coo->col[e]];
        double dz = pz[coo->row[e]] - pz[coo->col[e]];

        near += dx * dx + dy * dy + dz * dz < cutoff2;
    }
    for (int c = 0; c < 3; c++) {
        for (uint32_t i = 0; i < n; i++)
            fbound[c] = fmax(fbound[c], fabs(wf[c][i]));
    }
    tap_diag("%s: %llu edges, %llu within the Moldyn cut-off", g->label, (unsigned long long)ne,
             (unsigned long long)near);
    for (int k = 0; k < 2; k++) {
        struct ireduce_tiling t;
        char what[128];

        snprintf(what, sizeof(what), "tiling %u", tiles[k]);
        if (!ok(ireduce_tiling_build(n, ne, coo->row, coo->col, w, tiles[k], &t) == 0,
                name(what, g->label)))
            continue;
        tap_diag("%s, tile %u: %llu tiles in %llu tile groups, %llu groups, %.2f of 16 lanes used",
                 g->label, tiles[k], (unsigned long long)t.ntiles, (unsigned long long)t.ntgroups,
                 (unsigned long long)t.ngroups, ireduce_tiling_lanes_used(&t));
        check_tiling(&t, coo->row, coo->col, name(what, g->label));
        if (have_openmp) {
            memset(got, 0, n * sizeof(*got));
            ireduce_euler_tiled_omp(t.ntgroups, t.tgroup_tile, t.tile_group, t.gcount, t.gu, t.gv,
                                    t.gw, x, got);
            snprintf(what, sizeof(what), "euler tiled omp, tile %u", tiles[k]);
            is_close(got, want, bound, n, name(what, g->label));
        } else {
            skip_omp("euler tiled omp", g->label);
        }
        if (have_avx512) {
            memset(got, 0, n * sizeof(*got));
            ireduce_euler_avx512(t.ntgroups, t.tgroup_tile, t.tile_group, t.gcount, t.gu, t.gv,
                                 t.gw, x, got);
            snprintf(what, sizeof(what), "euler avx512 tiled and grouped, tile %u", tiles[k]);
            is_close(got, want, bound, n, name(what, g->label));
        } else {
            skip_avx("euler avx512", g->label);
        }
        for (int v = 0; v < 2; v++) {
            double worst = 0.0;
            bool run = v == 0 ? have_openmp : have_avx512;

            snprintf(what, sizeof(what), "moldyn %s, tile %u", v ? "avx512" : "tiled omp",
                     tiles[k]);
            if (!run) {
                tap_skip(v ? "no avx512f" : "no OpenMP", name(what, g->label));
                continue;
            }
            for (int c = 0; c < 3; c++)
                memset(f[c], 0, n * sizeof(double));
            if (v == 0)
                ireduce_moldyn_tiled_omp(t.ntgroups, t.tgroup_tile, t.tile_group, t.gcount, t.gu,
                                         t.gv, px, py, pz, cutoff2, f[0], f[1], f[2]);
            else
                ireduce_moldyn_avx512(t.ntgroups, t.tgroup_tile, t.tile_group, t.gcount, t.gu, t.gv,
                                      px, py, pz, cutoff2, f[0], f[1], f[2]);
            /* Forces cancel at a node: compare against the largest force of the component. */
            for (int c = 0; c < 3; c++) {
                for (uint32_t i = 0; i < n; i++)
                    worst = fmax(worst, fabs(f[c][i] - wf[c][i]) / fmax(fbound[c], 1e-300));
            }
            if (!ok(worst <= REORDER_TOL, name(what, g->label)))
                tap_diag("worst error relative to the largest force: %g", worst);
        }
        ireduce_tiling_release(&t);
    }
    for (int c = 0; c < 3; c++) {
        augur_free(f[c]);
        augur_free(wf[c]);
    }
    augur_free(w);
    augur_free(x);
    augur_free(want);
    augur_free(got);
    augur_free(bound);
    augur_free(px);
    augur_free(py);
    augur_free(pz);
}

static void test_pagerank(const struct graph *g)
{
    uint32_t n = g->n;
    uint64_t nnz = g->csr.nnz;
    uint64_t *trow = augur_calloc((size_t)n + 2, sizeof(uint64_t));
    uint32_t *tcol = augur_mallocarray(nnz ? nnz : 1, sizeof(uint32_t));
    uint32_t *outdeg = augur_mallocarray(n, sizeof(uint32_t));
    double *pr = augur_mallocarray(n, sizeof(double)), *contrib = zero_vec(n);
    double *want = zero_vec(n), *got = zero_vec(n);
    double dwant, dgot, sum = 0.0;

    /* The in-edge CSR: the transpose, by counting sort. */
    for (uint64_t j = 0; j < nnz; j++)
        trow[g->csr.col[j] + 2]++;
    for (uint32_t v = 0; v < n; v++)
        trow[v + 2] += trow[v + 1];
    for (uint32_t u = 0; u < n; u++) {
        outdeg[u] = (uint32_t)(g->csr.rowptr[u + 1] - g->csr.rowptr[u]);
        for (uint64_t j = g->csr.rowptr[u]; j < g->csr.rowptr[u + 1]; j++)
            tcol[trow[g->csr.col[j] + 1]++] = u;
    }
    for (uint32_t v = 0; v < n; v++)
        pr[v] = 1.0 / n;
    dwant = pagerank_pull_ref(n, trow, tcol, outdeg, 0.85, pr, contrib, want);
    for (uint32_t v = 0; v < n; v++)
        sum += want[v];
    ok(sum > 0.0 && sum <= 1.0 + 1e-9, name("pagerank ref: ranks sum to at most 1", g->label));
    if (have_openmp) {
        dgot = pagerank_pull_omp(n, trow, tcol, outdeg, 0.85, pr, contrib, got);
        is_exact(got, want, n, name("pagerank omp: same ranks", g->label));
        is_double(dgot, dwant, REORDER_TOL, name("pagerank omp: same change", g->label));
    } else {
        skip_omp("pagerank omp: same ranks", g->label);
        skip_omp("pagerank omp: same change", g->label);
    }
    augur_free(trow);
    augur_free(tcol);
    augur_free(outdeg);
    augur_free(pr);
    augur_free(contrib);
    augur_free(want);
    augur_free(got);
}

int main(void)
{
    static const struct {
        const char *file, *label;
    } sets[] = {
        { "mesh/mfem_indheat_tet.msh", "mesh dual mfem_indheat" },
        { "mtx/road_usa_NY.mtx.gz", "road graph road_usa_NY" },
        { "mtx/snap_email-Eu-core.mtx", "skewed graph snap_email-Eu-core" },
    };

    have_avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                  __builtin_cpu_supports("avx512vl");
#ifdef _OPENMP
    have_openmp = true;
    omp_set_num_threads(2); /* two threads even on one core: the races are real */
#endif
    tap_diag("avx512f %s, OpenMP %s", have_avx512 ? "yes" : "no", have_openmp ? "yes" : "no");
    test_descriptors();
    test_small();
    test_small_fv();
    test_small_tiling();
    for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
        struct graph g;

        if (load_graph(sets[i].file, sets[i].label, &g) == 0) {
            test_spmv(&g);
            test_bfs(&g);
            test_fv(&g);
            test_ireduce(&g);
            test_pagerank(&g);
        }
        free_graph(&g);
    }
    return tap_done();
}
