/*
 * t_reorder.c - tests of the reorderings (module: data): every method gives
 * a permutation that keeps the matrix (the same entries after the inverse
 * permutation, values and symmetry included), RCM shrinks the bandwidth of
 * a scrambled road graph, METIS cuts it into parts far better than blocks
 * of the scrambled numbering do and repeats itself, a mesh's cells follow
 * its dual, a written reordering reads back equal, and bad requests are
 * refused.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "augur/base.h"
#include "augur/data.h"
#include "tap.h"

static struct augur_dataset *parse(const char *text, const char *name)
{
    struct augur_load_opts opts = { 0 };
    struct augur_dataset *ds = NULL;
    struct augur_diag diag;

    augur_diag_init(&diag);
    if (augur_dataset_parse(text, strlen(text), name, &opts, &ds, &diag) != 0)
        diag("parse failed: %u:%u: %s", diag.line, diag.col, diag.msg);
    return ds;
}

static struct augur_dataset *load(const char *path)
{
    struct augur_load_opts opts = { 0 };
    struct augur_dataset *ds = NULL;
    struct augur_diag diag;

    augur_diag_init(&diag);
    if (augur_dataset_load(path, &opts, &ds, &diag) != 0)
        diag("%s: %s", path, diag.msg);
    return ds;
}

static bool is_permutation(const uint32_t *order, uint32_t n)
{
    bool *seen = augur_calloc(n ? n : 1, sizeof(bool));
    bool good = true;

    for (uint32_t k = 0; k < n && good; k++) {
        good = order[k] < n && !seen[order[k]];
        if (good)
            seen[order[k]] = true;
    }
    augur_free(seen);
    return good;
}

/* The full matrix (both triangles) as sorted keys row << 32 | col, with values. */
struct entries {
    uint64_t n;
    uint64_t *key;
    double *val;
};

static int cmp_entry(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

static void full_entries(const struct augur_dataset *ds, const uint32_t *order, struct entries *out)
{
    const struct augur_coo *c = &ds->coo;
    uint64_t m = 0, *pairs;
    uint32_t *newof = NULL;

    out->n = augur_dataset_nnz_full(ds);
    out->key = augur_mallocarray(out->n ? out->n : 1, sizeof(uint64_t));
    out->val = augur_mallocarray(out->n ? out->n : 1, sizeof(double));
    if (order) {
        newof = augur_mallocarray(c->nrows ? c->nrows : 1, sizeof(uint32_t));
        for (uint32_t k = 0; k < c->nrows; k++)
            newof[k] = order[k];
    }
    for (uint64_t e = 0; e < c->nnz; e++) {
        /* order maps new indices to original ones: the entry's original place */
        uint32_t i = newof ? newof[c->row[e]] : c->row[e];
        uint32_t j = newof ? newof[c->col[e]] : c->col[e];
        double v = c->val ? c->val[e] : 1;

        out->key[m] = (uint64_t)i << 32 | j;
        out->val[m++] = v;
        if (ds->symmetry != AUGUR_SYM_GENERAL && i != j) {
            out->key[m] = (uint64_t)j << 32 | i;
            out->val[m++] = ds->symmetry == AUGUR_SYM_SKEW ? -v : v;
        }
    }
    out->n = m;
    /* sorted as (key, value) pairs: the key decides, keys are distinct */
    pairs = augur_mallocarray(m ? m : 1, 2 * sizeof(uint64_t));
    for (uint64_t k = 0; k < m; k++) {
        pairs[2 * k] = out->key[k];
        memcpy(&pairs[2 * k + 1], &out->val[k], sizeof(double));
    }
    qsort(pairs, m, 2 * sizeof(uint64_t), cmp_entry);
    for (uint64_t k = 0; k < m; k++) {
        out->key[k] = pairs[2 * k];
        memcpy(&out->val[k], &pairs[2 * k + 1], sizeof(double));
    }
    augur_free(pairs);
    augur_free(newof);
}

static bool same_entries(const struct entries *a, const struct entries *b)
{
    if (a->n != b->n) {
        diag("%" PRIu64 " entries against %" PRIu64, a->n, b->n);
        return false;
    }
    for (uint64_t k = 0; k < a->n; k++)
        if (a->key[k] != b->key[k] || a->val[k] != b->val[k]) {
            diag("entry %" PRIu64 ": (%u, %u) = %g against (%u, %u) = %g", k,
                 (uint32_t)(a->key[k] >> 32), (uint32_t)a->key[k], a->val[k],
                 (uint32_t)(b->key[k] >> 32), (uint32_t)b->key[k], b->val[k]);
            return false;
        }
    return true;
}

static void entries_free(struct entries *e)
{
    augur_free(e->key);
    augur_free(e->val);
}

/* Reorders ds by text and checks the result is ds renumbered; returns the new dataset. */
static struct augur_dataset *check_reorder(const struct augur_dataset *ds, const char *text,
                                           const char *what, uint32_t **order_out,
                                           struct augur_reorder_info *info)
{
    struct augur_reorder how;
    struct augur_dataset *r = NULL;
    struct augur_diag diag;
    uint32_t *order = NULL;
    struct entries a, b;
    char name[64];

    augur_diag_init(&diag);
    snprintf(name, sizeof(name), "%s: %s reorders", what, text);
    if (!ok(augur_reorder_parse(text, &how, &diag) == 0 &&
                augur_dataset_reorder(ds, &how, &r, &order, info, &diag) == 0,
            name)) {
        diag("%s", diag.msg);
        return NULL;
    }
    snprintf(name, sizeof(name), "%s: %s gives a permutation", what, text);
    ok(is_permutation(order, ds->coo.nrows), name);
    full_entries(ds, NULL, &a);
    full_entries(r, order, &b);
    snprintf(name, sizeof(name), "%s: %s keeps every entry and value", what, text);
    ok(same_entries(&a, &b) && r->symmetry == ds->symmetry && r->field == ds->field, name);
    entries_free(&a);
    entries_free(&b);
    if (order_out)
        *order_out = order;
    else
        augur_free(order);
    return r;
}

static void hand_built(void)
{
    static const char *general = "%%MatrixMarket matrix coordinate real general\n"
                                 "6 6 9\n"
                                 "1 6 1.5\n2 1 -2\n2 5 3\n3 3 4\n4 2 5.25\n5 4 6\n6 1 7\n"
                                 "6 3 8\n1 1 9\n";
    static const char *skew = "%%MatrixMarket matrix coordinate real skew-symmetric\n"
                              "5 5 4\n"
                              "5 1 1\n3 2 2\n4 3 -3\n5 4 4\n";
    static const char *methods[] = { "none", "rcm", "metis:2", "metis:5" };
    struct augur_dataset *g = parse(general, "general.mtx"), *s = parse(skew, "skew.mtx");

    for (size_t m = 0; m < sizeof(methods) / sizeof(methods[0]); m++) {
        augur_dataset_free(check_reorder(g, methods[m], "general", NULL, NULL));
        augur_dataset_free(check_reorder(s, methods[m], "skew", NULL, NULL));
    }
    augur_dataset_free(g);
    augur_dataset_free(s);
}

static void bad_requests(void)
{
    static const char *bad[] = { "",         "foo",      "rcm:4",
                                 "metis",    "metis:",   "metis:0",
                                 "metis:-3", "metis:4x", "metis:99999999999",
                                 "none:1" };
    struct augur_reorder how;
    struct augur_dataset *r = NULL, *rect, *small;
    struct augur_diag diag;
    uint32_t *order = NULL;
    char name[64];

    for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
        augur_diag_init(&diag);
        snprintf(name, sizeof(name), "'%s' is refused", bad[k]);
        ok(augur_reorder_parse(bad[k], &how, &diag) == AUGUR_EINVAL && diag.msg[0], name);
    }
    rect = parse("%%MatrixMarket matrix coordinate pattern general\n2 3 2\n1 3\n2 1\n", "rect.mtx");
    augur_diag_init(&diag);
    how.method = AUGUR_REORDER_RCM;
    how.block = 0;
    ok(augur_dataset_reorder(rect, &how, &r, &order, NULL, &diag) == AUGUR_EINVAL &&
           strstr(diag.msg, "square"),
       "a 2 x 3 matrix is refused");
    small =
        parse("%%MatrixMarket matrix coordinate pattern symmetric\n4 4 2\n2 1\n4 3\n", "small.mtx");
    augur_diag_init(&diag);
    how.method = AUGUR_REORDER_METIS;
    how.block = 5;
    ok(augur_dataset_reorder(small, &how, &r, &order, NULL, &diag) == AUGUR_EINVAL &&
           strstr(diag.msg, "metis:5"),
       "metis:5 on 4 rows is refused");
    ok(r == NULL && order == NULL, "nothing is returned on failure");
    augur_dataset_free(rect);
    augur_dataset_free(small);
}

/* road_usa_NY with its nodes renumbered at random: a graph with no locality left. */
static struct augur_dataset *scrambled(const struct augur_dataset *ds)
{
    const struct augur_coo *c = &ds->coo;
    uint32_t n = c->nrows, *p = augur_mallocarray(n, sizeof(uint32_t));
    uint64_t x = 0x9e3779b97f4a7c15u;
    size_t cap = (size_t)c->nnz * 24 + 128, len;
    char *text = augur_malloc(cap);
    struct augur_dataset *s;

    for (uint32_t k = 0; k < n; k++)
        p[k] = k;
    for (uint32_t k = n - 1; k > 0; k--) {
        uint32_t j, t;

        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        j = (uint32_t)(x % ((uint64_t)k + 1));
        t = p[k];
        p[k] = p[j];
        p[j] = t;
    }
    len = (size_t)snprintf(
        text, cap, "%%%%MatrixMarket matrix coordinate pattern symmetric\n%u %u %" PRIu64 "\n", n,
        n, c->nnz);
    for (uint64_t e = 0; e < c->nnz; e++)
        len +=
            (size_t)snprintf(text + len, cap - len, "%u %u\n", p[c->row[e]] + 1, p[c->col[e]] + 1);
    s = parse(text, "scrambled.mtx");
    augur_free(text);
    augur_free(p);
    return s;
}

/* Edges {i, j} whose ends lie in different blocks of b consecutive rows. */
static uint64_t block_cut(const struct augur_dataset *ds, uint32_t b)
{
    uint64_t cut = 0;

    for (uint64_t e = 0; e < ds->coo.nnz; e++)
        cut += ds->coo.row[e] / b != ds->coo.col[e] / b;
    return cut;
}

static void road_graph(const char *dir)
{
    char path[4096];
    struct augur_dataset *ds, *s, *r, *m, *m2;
    struct augur_reorder_info info, info2;
    uint32_t *order = NULL, *order2 = NULL;

    snprintf(path, sizeof(path), "%s/mtx/road_usa_NY.mtx.gz", dir);
    ds = load(path);
    s = ds ? scrambled(ds) : NULL;
    if (!ok(s != NULL, "road_usa_NY loads and scrambles"))
        return;
    r = check_reorder(s, "rcm", "scrambled NY", NULL, &info);
    ok(r && info.bandwidth_after * 20 < info.bandwidth_before,
       "RCM shrinks the scrambled road graph's bandwidth more than 20x");
    diag("RCM: bandwidth %" PRIu64 " -> %" PRIu64 ", mean |i-j| %.1f -> %.1f, %.3f s",
         info.bandwidth_before, info.bandwidth_after, info.distance_before, info.distance_after,
         info.seconds);
    m = check_reorder(s, "metis:4096", "scrambled NY", &order, &info);
    ok(m && info.parts == (s->coo.nrows + 4095) / 4096, "METIS makes ceil(n / 4096) parts");
    ok(m && info.edge_cut * 20 < block_cut(s, 4096),
       "METIS cuts far fewer edges than blocks of the scrambled numbering");
    diag("METIS: %u parts, edge cut %" PRIu64 " against %" PRIu64 " for blocks, %.3f s", info.parts,
         info.edge_cut, block_cut(s, 4096), info.seconds);
    m2 = check_reorder(s, "metis:4096", "scrambled NY again", &order2, &info2);
    ok(order && order2 && memcmp(order, order2, s->coo.nrows * sizeof(uint32_t)) == 0 &&
           info2.edge_cut == info.edge_cut,
       "METIS gives the same order twice");
    augur_free(order);
    augur_free(order2);
    augur_dataset_free(m2);
    augur_dataset_free(m);
    augur_dataset_free(r);
    augur_dataset_free(s);
    augur_dataset_free(ds);
}

static void mesh(const char *dir)
{
    char path[4096];
    struct augur_dataset *ds, *r;
    uint32_t *order = NULL;
    bool same = true;

    snprintf(path, sizeof(path), "%s/mesh/mfem_piece_tet.msh", dir);
    ds = load(path);
    if (!ok(ds && ds->cells, "mfem_piece_tet loads"))
        return;
    r = check_reorder(ds, "metis:512", "mesh", &order, NULL);
    for (uint64_t k = 0; r && k < ds->ncells && same; k++)
        same =
            memcmp(r->cells + 4 * k, ds->cells + 4 * (size_t)order[k], 4 * sizeof(uint32_t)) == 0;
    ok(r && same && r->ncells == ds->ncells, "a mesh's cells follow its dual's numbering");
    augur_free(order);
    augur_dataset_free(r);
    augur_dataset_free(ds);
}

static void round_trip(void)
{
    struct augur_dataset *ds = parse("%%MatrixMarket matrix coordinate integer symmetric\n"
                                     "5 5 6\n1 1 4\n3 1 -7\n4 2 2\n5 2 9\n5 3 1\n5 5 3\n",
                                     "int.mtx");
    struct augur_dataset *r, *back;
    struct entries a, b;
    char dir[] = "/tmp/t_reorder.XXXXXX", path[64], perm[64], line[64];
    uint32_t *order = NULL;
    struct augur_diag diag;
    FILE *fp;
    bool good = true;

    r = check_reorder(ds, "rcm", "integer", &order, NULL);
    if (!mkdtemp(dir) || !r) {
        ok(false, "a temporary folder");
        return;
    }
    snprintf(path, sizeof(path), "%s/r.mtx", dir);
    snprintf(perm, sizeof(perm), "%s/r.perm", dir);
    augur_diag_init(&diag);
    ok(augur_dataset_write_mtx(r, path, &diag) == 0 &&
           augur_order_write(order, r->coo.nrows, "test", perm, &diag) == 0,
       "the reordered matrix and its permutation are written");
    back = load(path);
    full_entries(r, NULL, &a);
    if (back)
        full_entries(back, NULL, &b);
    ok(back && same_entries(&a, &b) && back->symmetry == r->symmetry, "and read back equal");
    entries_free(&a);
    if (back)
        entries_free(&b);
    fp = fopen(perm, "r");
    good = fp && fgets(line, sizeof(line), fp) && line[0] == '%';
    for (uint32_t k = 0; good && k < r->coo.nrows; k++)
        good = fgets(line, sizeof(line), fp) && strtoul(line, NULL, 10) == order[k] + 1;
    ok(good && fp && !fgets(line, sizeof(line), fp), "the permutation file lists order + 1");
    if (fp)
        fclose(fp);
    unlink(path);
    unlink(perm);
    rmdir(dir);
    augur_free(order);
    augur_dataset_free(back);
    augur_dataset_free(r);
    augur_dataset_free(ds);
}

int main(void)
{
    const char *dir = tap_datasets();

    hand_built();
    bad_requests();
    round_trip();
    if (dir) {
        road_graph(dir);
        mesh(dir);
    } else {
        skip("no shared datasets", "road graph and mesh reorderings");
    }
    return tap_done();
}
