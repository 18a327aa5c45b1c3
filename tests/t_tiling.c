/*
 * t_tiling.c - augur_tiling_compute(): a hand-worked matrix, an independent
 * naive computation (quadratic scans) on generated matrices, the schedule
 * that kernels/ireduce/tiling.c builds on shared datasets, bad input, and
 * the CLI: 'data info --tile-size' and 'predict --tile-size'.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "augur/augur.h"
#include "ireduce/kernel.h"
#include "tap.h"

static char label[256];

static const char *name(const char *what, const char *data, uint32_t ts)
{
    snprintf(label, sizeof(label), "%s on %s at tile size %u", what, data, ts);
    return label;
}

/* splitmix64: reproducible inputs. */
static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* CSR of an nrows x ncols matrix from a dense 0/1 pattern (row-major). */
static void csr_from_dense(uint32_t nrows, uint32_t ncols, const unsigned char *a,
                           struct augur_csr *out)
{
    uint64_t nnz = 0;

    for (uint64_t k = 0; k < (uint64_t)nrows * ncols; k++)
        nnz += a[k] != 0;
    memset(out, 0, sizeof(*out));
    out->nrows = nrows;
    out->ncols = ncols;
    out->nnz = nnz;
    out->rowptr = augur_calloc(nrows + 1, sizeof(*out->rowptr));
    out->col = augur_mallocarray(nnz ? nnz : 1, sizeof(*out->col));
    nnz = 0;
    for (uint32_t i = 0; i < nrows; i++) {
        for (uint32_t j = 0; j < ncols; j++)
            if (a[(uint64_t)i * ncols + j])
                out->col[nnz++] = j;
        out->rowptr[i + 1] = nnz;
    }
}

/* A random pattern with about density * nrows * ncols entries. */
static void random_csr(uint32_t nrows, uint32_t ncols, double density, uint64_t seed,
                       struct augur_csr *out)
{
    unsigned char *a = augur_calloc((size_t)nrows * ncols, 1);

    for (size_t k = 0; k < (size_t)nrows * ncols; k++)
        a[k] = (double)(mix(&seed) >> 11) * 0x1p-53 < density;
    csr_from_dense(nrows, ncols, a, out);
    augur_free(a);
}

/* ---- the naive computation: every test by scanning ------------------------------------------ */

struct nedge {
    uint32_t u, v;
    uint64_t rb, cb, idx;
};

static int cmp_nedge(const void *a, const void *b)
{
    const struct nedge *x = a, *y = b;

    if (x->rb != y->rb)
        return x->rb < y->rb ? -1 : 1;
    if (x->cb != y->cb)
        return x->cb < y->cb ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

struct naive {
    uint64_t ntiles, ngroups, nfull, ntgroups, min_tiles, max_tiles, max_tile_edges;
};

static void naive_tiling(const struct augur_csr *csr, uint32_t ts, struct naive *r)
{
    struct nedge *e = augur_mallocarray(csr->nnz, sizeof(*e));
    uint64_t *trb = augur_mallocarray(csr->nnz, sizeof(*trb));
    uint64_t *tcb = augur_mallocarray(csr->nnz, sizeof(*tcb));
    uint64_t *tcol = augur_mallocarray(csr->nnz, sizeof(*tcol));
    uint64_t *per = augur_calloc(csr->nnz + 1, sizeof(*per));
    uint32_t(*gu)[AUGUR_TILING_LANES] = augur_mallocarray(csr->nnz, sizeof(*gu));
    uint32_t(*gv)[AUGUR_TILING_LANES] = augur_mallocarray(csr->nnz, sizeof(*gv));
    unsigned *gn = augur_mallocarray(csr->nnz, sizeof(*gn));
    uint64_t m = 0;

    memset(r, 0, sizeof(*r));
    for (uint32_t i = 0; i < csr->nrows; i++)
        for (uint64_t p = csr->rowptr[i]; p < csr->rowptr[i + 1]; p++, m++)
            e[m] = (struct nedge){ i, csr->col[p], i / ts, csr->col[p] / ts, m };
    qsort(e, m, sizeof(*e), cmp_nedge);
    for (uint64_t s = 0, end; s < m; s = end) {
        uint64_t ng = 0, c = 0;

        for (end = s; end < m && e[end].rb == e[s].rb && e[end].cb == e[s].cb; end++)
            ;
        if (end - s > r->max_tile_edges)
            r->max_tile_edges = end - s;
        /* groups: the first one with room and neither endpoint in any lane */
        for (uint64_t k = s; k < end; k++) {
            uint64_t g;

            for (g = 0; g < ng; g++) {
                bool clash = gn[g] == AUGUR_TILING_LANES;

                for (unsigned l = 0; l < gn[g] && !clash; l++)
                    clash = gu[g][l] == e[k].u || gu[g][l] == e[k].v || gv[g][l] == e[k].u ||
                            gv[g][l] == e[k].v;
                if (!clash)
                    break;
            }
            if (g == ng)
                gn[ng++] = 0;
            gu[g][gn[g]] = e[k].u;
            gv[g][gn[g]++] = e[k].v;
        }
        for (uint64_t g = 0; g < ng; g++)
            r->nfull += gn[g] == AUGUR_TILING_LANES;
        r->ngroups += ng;
        /* tile groups: the lowest colour no earlier tile sharing a block holds */
        for (;; c++) {
            bool taken = false;

            for (uint64_t q = 0; q < r->ntiles && !taken; q++)
                taken = tcol[q] == c && (trb[q] == e[s].rb || trb[q] == e[s].cb ||
                                         tcb[q] == e[s].rb || tcb[q] == e[s].cb);
            if (!taken)
                break;
        }
        trb[r->ntiles] = e[s].rb;
        tcb[r->ntiles] = e[s].cb;
        tcol[r->ntiles] = c;
        per[c]++;
        if (c + 1 > r->ntgroups)
            r->ntgroups = c + 1;
        r->ntiles++;
    }
    r->min_tiles = UINT64_MAX;
    for (uint64_t c = 0; c < r->ntgroups; c++) {
        if (per[c] < r->min_tiles)
            r->min_tiles = per[c];
        if (per[c] > r->max_tiles)
            r->max_tiles = per[c];
    }
    augur_free(e);
    augur_free(trb);
    augur_free(tcb);
    augur_free(tcol);
    augur_free(per);
    augur_free(gu);
    augur_free(gv);
    augur_free(gn);
}

static void against_naive(const struct augur_csr *csr, const char *what, uint32_t ts)
{
    struct augur_tiling_stats st;
    struct augur_diag diag;
    struct naive nv;

    augur_diag_init(&diag);
    if (!ok(augur_tiling_compute(csr, ts, &st, &diag) == 0, name("compute", what, ts))) {
        tap_diag("%s", diag.msg);
        return;
    }
    naive_tiling(csr, ts, &nv);
    is_int(st.ntiles, nv.ntiles, name("tiles = naive", what, ts));
    is_int(st.ngroups, nv.ngroups, name("groups = naive", what, ts));
    is_int(st.nfull, nv.nfull, name("full groups = naive", what, ts));
    is_int(st.ntgroups, nv.ntgroups, name("tile groups = naive", what, ts));
    is_int(st.min_tiles, nv.min_tiles, name("min tiles per tile group = naive", what, ts));
    is_int(st.max_tiles, nv.max_tiles, name("max tiles per tile group = naive", what, ts));
    is_int(st.max_tile_edges, nv.max_tile_edges, name("max tile edges = naive", what, ts));
    is_double(st.simd_util, (double)csr->nnz / (AUGUR_TILING_LANES * (double)nv.ngroups), 1e-12,
              name("SIMD utilization = edges / (16 groups)", what, ts));
    is_double(st.avg_mimd, (double)nv.ntiles / (double)nv.ntgroups, 1e-12,
              name("avg_MIMD = tiles / tile groups", what, ts));
}

/* ---- the schedule of kernels/ireduce/tiling.c ------------------------------------------------ */

/* augur_tiling_schedule() lays out the arrays the kernels' own builder does, element for element.
 */
static void same_schedule(const struct augur_csr *csr, const struct ireduce_tiling *t,
                          const char *what, uint32_t ts)
{
    struct augur_tiling_sched s;
    struct augur_diag diag;
    uint64_t bad = 0, slots;

    augur_diag_init(&diag);
    if (!ok(augur_tiling_schedule(csr, ts, &s, &diag) == 0, name("schedule builds", what, ts))) {
        tap_diag("%s", diag.msg);
        return;
    }
    slots = t->ngroups * IREDUCE_LANES;
    bad += s.ntgroups != t->ntgroups || s.ntiles != t->ntiles || s.ngroups != t->ngroups;
    for (uint64_t c = 0; !bad && c <= t->ntgroups; c++)
        bad += s.tgroup_tile[c] != t->tgroup_tile[c];
    for (uint64_t k = 0; !bad && k <= t->ntiles; k++)
        bad += s.tile_group[k] != t->tile_group[k];
    for (uint64_t g = 0; !bad && g < t->ngroups; g++)
        bad += s.gcount[g] != t->gcount[g];
    for (uint64_t l = 0; !bad && l < slots; l++)
        bad += s.gu[l] != t->gu[l] || s.gv[l] != t->gv[l] ||
               s.gw[l] != (t->gw                       ? t->gw[l]
                           : t->gedge[l] == UINT64_MAX ? 0.0
                                                       : 1.0);
    ok(bad == 0, name("schedule arrays = kernels/ireduce", what, ts));
    is_int(s.stats.ngroups, t->ngroups, name("schedule's statistics", what, ts));
    augur_tiling_sched_release(&s);
}

static void against_kernel(const struct augur_csr *csr, const char *what, uint32_t ts)
{
    uint32_t n = csr->nrows > csr->ncols ? csr->nrows : csr->ncols;
    uint32_t *eu = augur_mallocarray(csr->nnz, sizeof(*eu));
    uint32_t *ev = augur_mallocarray(csr->nnz, sizeof(*ev));
    struct ireduce_tiling t;
    struct augur_tiling_stats st;
    struct augur_diag diag;
    uint64_t minc = UINT64_MAX, maxc = 0, full = 0;

    for (uint32_t i = 0; i < csr->nrows; i++)
        for (uint64_t p = csr->rowptr[i]; p < csr->rowptr[i + 1]; p++) {
            eu[p] = i;
            ev[p] = csr->col[p];
        }
    augur_diag_init(&diag);
    if (!ok(ireduce_tiling_build(n, csr->nnz, eu, ev, csr->val, ts, &t) == 0,
            name("kernel schedule builds", what, ts)) ||
        !ok(augur_tiling_compute(csr, ts, &st, &diag) == 0, name("compute", what, ts)))
        goto out;
    for (uint64_t g = 0; g < t.ntgroups; g++) {
        uint64_t c = t.tgroup_tile[g + 1] - t.tgroup_tile[g];

        minc = c < minc ? c : minc;
        maxc = c > maxc ? c : maxc;
    }
    for (uint64_t g = 0; g < t.ngroups; g++)
        full += t.gcount[g] == IREDUCE_LANES;
    is_int(st.ntiles, t.ntiles, name("tiles = kernels/ireduce", what, ts));
    is_int(st.ngroups, t.ngroups, name("groups = kernels/ireduce", what, ts));
    is_int(st.nfull, full, name("full groups = kernels/ireduce", what, ts));
    is_int(st.ntgroups, t.ntgroups, name("tile groups = kernels/ireduce", what, ts));
    is_int(st.min_tiles, minc, name("min tiles per tile group = kernels/ireduce", what, ts));
    is_int(st.max_tiles, maxc, name("max tiles per tile group = kernels/ireduce", what, ts));
    is_double(st.simd_util, ireduce_tiling_lanes_used(&t) / IREDUCE_LANES, 1e-12,
              name("SIMD utilization = kernels/ireduce", what, ts));
    same_schedule(csr, &t, what, ts);
out:
    ireduce_tiling_release(&t);
    augur_free(eu);
    augur_free(ev);
}

/* ---- cases ------------------------------------------------------------------------------------
 */

/*
 * 4 x 4 at tile size 2, worked by hand: tile (0,0) holds (0,0) (0,1) (1,0)
 * (1,1), which group as {(0,0),(1,1)} {(0,1)} {(1,0)}; tile (0,1) holds
 * (0,3): one group; tile (1,1) holds (2,3) (3,2): two groups (they share
 * both nodes). Tiles (0,0) and (1,1) share no block: tile group 0; tile
 * (0,1) shares a block with both: tile group 1.
 */
static void hand_worked(void)
{
    static const unsigned char a[16] = { 1, 1, 0, 1, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0 };
    struct augur_csr csr;
    struct augur_tiling_stats st;
    struct augur_diag diag;

    csr_from_dense(4, 4, a, &csr);
    augur_diag_init(&diag);
    if (ok(augur_tiling_compute(&csr, 2, &st, &diag) == 0, "hand-worked 4 x 4 computes")) {
        is_int(st.nedges, 7, "hand-worked: 7 edges");
        is_int(st.nblocks, 2, "hand-worked: 2 node blocks");
        is_int(st.ntiles, 3, "hand-worked: 3 tiles");
        is_int(st.ngroups, 6, "hand-worked: 6 groups");
        is_int(st.nfull, 0, "hand-worked: no full group");
        is_double(st.simd_util, 7.0 / 96.0, 1e-15, "hand-worked: SIMD utilization 7 / 96");
        is_int(st.ntgroups, 2, "hand-worked: 2 tile groups");
        is_double(st.avg_mimd, 1.5, 1e-15, "hand-worked: avg_MIMD 3 / 2");
        is_int(st.min_tiles, 1, "hand-worked: fewest tiles in a tile group 1");
        is_int(st.max_tiles, 2, "hand-worked: most tiles in a tile group 2");
        is_int(st.max_tile_edges, 4, "hand-worked: largest tile 4 edges");
    }
    /* one tile: the identity's 40 self loops fill 16 + 16 + 8 lanes */
    augur_csr_release(&csr);
    {
        unsigned char *d = augur_calloc(40 * 40, 1);

        for (int i = 0; i < 40; i++)
            d[i * 40 + i] = 1;
        csr_from_dense(40, 40, d, &csr);
        augur_free(d);
    }
    if (ok(augur_tiling_compute(&csr, 64, &st, &diag) == 0, "identity 40 computes")) {
        is_int(st.ngroups, 3, "identity 40: 3 groups");
        is_int(st.nfull, 2, "identity 40: 2 full groups");
        is_double(st.simd_util, 40.0 / 48.0, 1e-15, "identity 40: SIMD utilization 40 / 48");
        is_double(st.avg_mimd, 1.0, 1e-15, "identity 40: one tile, one tile group");
    }
    /* tile size 1: every entry its own tile; the diagonal tiles share no block */
    if (ok(augur_tiling_compute(&csr, 1, &st, &diag) == 0, "identity 40 at tile size 1")) {
        is_int(st.ntiles, 40, "identity 40 at 1: 40 tiles");
        is_int(st.ntgroups, 1, "identity 40 at 1: one tile group");
        is_double(st.simd_util, 1.0 / 16, 1e-15, "identity 40 at 1: one lane per group");
    }
    augur_csr_release(&csr);
}

static void bad_input(void)
{
    struct augur_csr csr;
    struct augur_tiling_stats st;
    struct augur_diag diag;
    uint64_t rowptr[4] = { 0, 0, 0, 0 };
    uint32_t col[2] = { 1, 7 };

    memset(&st, 0xab, sizeof(st));
    memset(&csr, 0, sizeof(csr));
    csr.nrows = csr.ncols = 3;
    csr.rowptr = rowptr;
    csr.col = col;
    augur_diag_init(&diag);
    is_int(augur_tiling_compute(&csr, 16, &st, &diag), AUGUR_EINVAL, "empty matrix: EINVAL");
    ok(strstr(diag.msg, "no entries") != NULL, "empty matrix: the message says so");
    ok(st.nedges == 0xababababababababull, "empty matrix: *out untouched");
    rowptr[1] = 1;
    rowptr[2] = rowptr[3] = 2;
    csr.nnz = 2;
    augur_diag_init(&diag);
    is_int(augur_tiling_compute(&csr, 0, &st, &diag), AUGUR_EINVAL, "tile size 0: EINVAL");
    ok(strstr(diag.msg, "tile size") != NULL, "tile size 0: the message says so");
    augur_diag_init(&diag);
    is_int(augur_tiling_compute(&csr, 4, &st, &diag), AUGUR_EINVAL, "column 7 of 3: EINVAL");
    ok(strstr(diag.msg, "column 7") != NULL, "column 7 of 3: the message names it");
    col[1] = 2;
    rowptr[3] = 5;
    augur_diag_init(&diag);
    is_int(augur_tiling_compute(&csr, 4, &st, &diag), AUGUR_EINVAL,
           "row pointers past nnz: EINVAL");
    is_int(augur_tiling_compute(NULL, 4, &st, NULL), AUGUR_EINVAL, "no matrix: EINVAL");
    ok(st.nedges == 0xababababababababull, "after every failure: *out untouched");
}

static void generated(void)
{
    static const uint32_t sizes[] = { 1, 3, 16, 50, 256 };
    struct augur_csr csr;
    struct augur_diag diag;

    augur_diag_init(&diag);
    if (ok(augur_generate_rmat(8, 8, 0.57, 0.19, 0.19, 5, &csr, &diag) == 0, "R-MAT 2^8")) {
        for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
            against_naive(&csr, "R-MAT 2^8", sizes[k]);
            against_kernel(&csr, "R-MAT 2^8", sizes[k]);
        }
        augur_csr_release(&csr);
    }
    if (ok(augur_generate_blocks(300, 20, 6, 3, &csr, &diag) == 0, "blocks 300")) {
        against_naive(&csr, "blocks 300", 7);
        against_naive(&csr, "blocks 300", 40);
        augur_csr_release(&csr);
    }
    /* rectangular, dense enough for full groups: nodes are max(rows, cols) */
    random_csr(90, 50, 0.3, 11, &csr);
    against_naive(&csr, "random 90 x 50", 8);
    against_naive(&csr, "random 90 x 50", 64);
    against_kernel(&csr, "random 90 x 50", 8);
    augur_csr_release(&csr);
    random_csr(40, 120, 0.5, 12, &csr);
    against_naive(&csr, "random 40 x 120", 32);
    against_kernel(&csr, "random 40 x 120", 32);
    augur_csr_release(&csr);
}

static void datasets(void)
{
    static const char *const files[] = { "mtx/ss_bcsstk13.mtx", "mtx/polblogs.mtx",
                                         "mtx/snap_email-Eu-core.mtx", "mtx/ss_rajat01.mtx",
                                         "mtx/walshaw_4elt.mtx" };
    static const uint32_t sizes[] = { 128, 1024 };
    const char *dir = tap_datasets();

    for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
        struct augur_dataset *ds = NULL;
        struct augur_csr csr;
        struct augur_diag diag;
        char path[1024];

        if (!dir) {
            tap_skip("AUGUR_DATASETS not set", files[f]);
            continue;
        }
        snprintf(path, sizeof(path), "%s/%s", dir, files[f]);
        memset(&csr, 0, sizeof(csr));
        augur_diag_init(&diag);
        if (ok(augur_dataset_load(path, NULL, &ds, &diag) == 0 &&
                   augur_dataset_csr(ds, true, &csr, &diag) == 0,
               files[f]))
            for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
                against_kernel(&csr, files[f], sizes[k]);
        else
            tap_diag("%s:%u:%u: %s", diag.file, diag.line, diag.col, diag.msg);
        augur_csr_release(&csr);
        augur_dataset_free(ds);
    }
}

/* ---- the CLI ----------------------------------------------------------------------------------
 */

/* Runs a shell command; returns its exit status and, when doc is not NULL, its stdout as JSON. */
static int run(const char *cmd, json_t **doc)
{
    FILE *fp = popen(cmd, "r");
    json_error_t err;
    int st;

    if (!fp)
        return -1;
    if (doc) {
        *doc = json_loadf(fp, JSON_DISABLE_EOF_CHECK, &err);
        if (!*doc)
            tap_diag("no JSON from '%s': %s", cmd, err.text);
    }
    while (fgetc(fp) != EOF)
        ;
    st = pclose(fp);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static double num(json_t *doc, const char *obj, const char *key)
{
    json_t *o = json_object_get(doc, obj), *v = o ? json_object_get(o, key) : NULL;

    return v ? json_number_value(v) : -1;
}

static void cli(void)
{
    const char *bin = getenv("AUGUR_BIN"), *src = getenv("AUGUR_SOURCE_DIR");
    const char *simd_bind = "rowptr=csr.rowptr,col=csr.col,val=csr.val,x=vec(n),y=vec(n),nrows=n";
    struct augur_dataset *ds = NULL;
    struct augur_csr csr;
    struct augur_tiling_stats st;
    struct augur_diag diag;
    char mtx[1024], cmd[4096];
    json_t *doc = NULL;

    if (!bin || !src) {
        tap_skip("AUGUR_BIN or AUGUR_SOURCE_DIR not set", "the CLI");
        return;
    }
    snprintf(mtx, sizeof(mtx), "%s/samples/walshaw_fe_4elt2.mtx", src);
    memset(&csr, 0, sizeof(csr));
    augur_diag_init(&diag);
    if (!ok(augur_dataset_load(mtx, NULL, &ds, &diag) == 0 &&
                augur_dataset_csr(ds, true, &csr, &diag) == 0 &&
                augur_tiling_compute(&csr, 256, &st, &diag) == 0,
            "walshaw_fe_4elt2 at 256 in the library")) {
        tap_diag("%s", diag.msg);
        goto out;
    }

    snprintf(cmd, sizeof(cmd), "'%s' --json data info --no-clustering --tile-size 256 '%s'", bin,
             mtx);
    is_int(run(cmd, &doc), 0, "data info --tile-size 256 runs");
    is_int(num(doc, "tiling", "tiles"), st.ntiles, "data info: tiles as the library");
    is_int(num(doc, "tiling", "groups"), st.ngroups, "data info: groups as the library");
    is_int(num(doc, "tiling", "tile_groups"), st.ntgroups, "data info: tile groups as the library");
    is_int(num(doc, "tiling", "min_tiles"), st.min_tiles, "data info: min tiles as the library");
    is_int(num(doc, "tiling", "max_tiles"), st.max_tiles, "data info: max tiles as the library");
    is_double(num(doc, "tiling", "simd_util"), st.simd_util, 1e-9,
              "data info: SIMD utilization as the library");
    is_double(num(doc, "tiling", "avg_mimd"), st.avg_mimd, 1e-9,
              "data info: avg_MIMD as the library");
    json_decref(doc);
    doc = NULL;
    snprintf(cmd, sizeof(cmd), "'%s' data info --tile-size 0 '%s' 2>/dev/null", bin, mtx);
    is_int(run(cmd, NULL), 2, "data info --tile-size 0: usage error");

    {
        char empty[] = "/tmp/t_tiling_XXXXXX";
        int fd = mkstemp(empty);
        FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;

        if (fp) {
            fputs("%%MatrixMarket matrix coordinate pattern general\n3 3 0\n", fp);
            fclose(fp);
            snprintf(cmd, sizeof(cmd),
                     "'%s' data info --no-clustering --format mtx --tile-size 64 '%s' 2>&1", bin,
                     empty);
            fp = popen(cmd, "r");
            if (fp) {
                char line[1024] = "", all[4096] = "";

                while (fgets(line, sizeof(line), fp))
                    strncat(all, line, sizeof(all) - strlen(all) - 1);
                ok(pclose(fp) != 0, "data info --tile-size on an empty matrix fails");
                ok(strstr(all, "no entries to tile") != NULL, "empty matrix: the message says so");
            }
            remove(empty);
        }
    }

    /* a scalar kernel keeps simd_util 1; the tile size and edges reach the workload */
    snprintf(cmd, sizeof(cmd),
             "'%s' predict '%s/samples/spmv.c' --data '%s' --tile-size 256 --json", bin, src, mtx);
    is_int(run(cmd, &doc), 0, "predict --tile-size 256 runs (scalar kernel)");
    ok(json_is_false(json_object_get(json_object_get(doc, "tiling"), "applied")),
       "predict scalar: not applied");
    is_double(num(doc, "tiling", "simd_util"), st.simd_util, 1e-9,
              "predict scalar: SIMD utilization reported");
    is_double(num(doc, "tiling", "avg_mimd"), st.avg_mimd, 1e-9, "predict scalar: avg_MIMD");
    is_double(num(doc, "workload", "simd_util"), 1.0, 0, "predict scalar: workload simd_util 1");
    is_double(num(doc, "workload", "tile_size"), 256, 0, "predict scalar: workload tile_size");
    is_double(num(doc, "workload", "tile_edges"), (double)csr.nnz, 0,
              "predict scalar: workload tile_edges = the entries");
    json_decref(doc);
    doc = NULL;

    /* an AVX-512 kernel (SIMD accesses): the measured utilization reaches Model 3 */
    snprintf(cmd, sizeof(cmd),
             "'%s' predict '%s/kernels/spmv/avx512.c' --data '%s' --tile-size 256 --bind '%s' "
             "--json -- -mavx512f",
             bin, src, mtx, simd_bind);
    is_int(run(cmd, &doc), 0, "predict --tile-size 256 runs (AVX-512 kernel)");
    ok(json_is_true(json_object_get(json_object_get(doc, "tiling"), "applied")),
       "predict AVX-512: applied");
    is_double(num(doc, "workload", "simd_util"), st.simd_util, 1e-9,
              "predict AVX-512: workload simd_util = the measured one");
    json_decref(doc);
    doc = NULL;
    snprintf(cmd, sizeof(cmd),
             "'%s' predict '%s/samples/spmv.c' --data '%s' --tile-size x 2>/dev/null", bin, src,
             mtx);
    is_int(run(cmd, NULL), 2, "predict --tile-size x: usage error");
out:
    augur_csr_release(&csr);
    augur_dataset_free(ds);
}

int main(void)
{
    hand_worked();
    bad_input();
    generated();
    datasets();
    cli();
    return tap_done();
}
