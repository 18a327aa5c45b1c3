/*
 * rt_reorder.c - renumbering a dataset's rows and columns alike: reverse
 * Cuthill-McKee, and METIS k-way parts numbered part by part (Langguth et
 * al. JPDC'15 section 8 reorder meshes into blocks of b cells this way), and
 * the permuted copy of the dataset (module: data).
 */
#include <inttypes.h>
#include <metis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_int.h"

static const char *const reorder_names[] = {
#define X(e, name, text) name,
    AUGUR_REORDERS(X)
#undef X
};

int augur_reorder_parse(const char *text, struct augur_reorder *out, struct augur_diag *diag)
{
    const char *colon = strchr(text, ':');
    size_t len = colon ? (size_t)(colon - text) : strlen(text);
    int m = -1;

    for (int i = 0; i < AUGUR_REORDER_COUNT; i++)
        if (strlen(reorder_names[i]) == len && strncmp(text, reorder_names[i], len) == 0)
            m = i;
    if (m < 0)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "unknown reordering '%s' (none, rcm or metis:B)", text);
    memset(out, 0, sizeof(*out));
    out->method = (enum augur_reorder_method)m;
    if (out->method == AUGUR_REORDER_METIS) {
        char *end;
        unsigned long long b;

        if (!colon || colon[1] < '0' || colon[1] > '9')
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "'%s': METIS needs the rows per part, as metis:4096", text);
        b = strtoull(colon + 1, &end, 10);
        if (*end || b < 1 || b > UINT32_MAX)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "'%s': the rows per part are a whole number in 1..%u", text,
                                  UINT32_MAX);
        out->block = (uint32_t)b;
    } else if (colon) {
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "'%s': only metis takes a size (metis:B)", text);
    }
    return 0;
}

void augur_reorder_format(const struct augur_reorder *how, char *buf, size_t size)
{
    if (how->method == AUGUR_REORDER_METIS)
        snprintf(buf, size, "metis:%" PRIu32, how->block);
    else
        snprintf(buf, size, "%s", reorder_names[how->method]);
}

/* ---- the graph: the pattern of A + A^T without the diagonal ------------------ */

struct graph {
    uint32_t n;
    uint64_t *xadj; /* n + 1 */
    uint32_t *adj;  /* sorted, distinct within a node */
};

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

    return x < y ? -1 : x > y;
}

static void graph_build(const struct augur_coo *c, struct graph *g)
{
    uint64_t *fill, m = 0;
    uint32_t n = c->nrows;

    g->n = n;
    g->xadj = augur_calloc((size_t)n + 1, sizeof(uint64_t));
    for (uint64_t e = 0; e < c->nnz; e++)
        if (c->row[e] != c->col[e]) {
            g->xadj[c->row[e] + 1]++;
            g->xadj[c->col[e] + 1]++;
        }
    for (uint32_t i = 0; i < n; i++)
        g->xadj[i + 1] += g->xadj[i];
    g->adj = augur_mallocarray(g->xadj[n] ? (size_t)g->xadj[n] : 1, sizeof(uint32_t));
    fill = augur_mallocarray((size_t)n + 1, sizeof(uint64_t));
    memcpy(fill, g->xadj, ((size_t)n + 1) * sizeof(uint64_t));
    for (uint64_t e = 0; e < c->nnz; e++)
        if (c->row[e] != c->col[e]) {
            g->adj[fill[c->row[e]]++] = c->col[e];
            g->adj[fill[c->col[e]]++] = c->row[e];
        }
    augur_free(fill);
    /* A general matrix may hold both (i, j) and (j, i): keep each neighbour once. */
    for (uint32_t i = 0; i < n; i++) {
        uint64_t lo = g->xadj[i], hi = g->xadj[i + 1];

        qsort(g->adj + lo, (size_t)(hi - lo), sizeof(uint32_t), cmp_u32);
        g->xadj[i] = m;
        for (uint64_t k = lo; k < hi; k++)
            if (k == lo || g->adj[k] != g->adj[k - 1])
                g->adj[m++] = g->adj[k];
    }
    g->xadj[n] = m;
}

static void graph_free(struct graph *g)
{
    augur_free(g->xadj);
    augur_free(g->adj);
}

static uint64_t degree(const struct graph *g, uint32_t v)
{
    return g->xadj[v + 1] - g->xadj[v];
}

/* ---- reverse Cuthill-McKee --------------------------------------------------- */

/*
 * Breadth-first levels from root over the unnumbered nodes (mark[v] !=
 * stamp), writing the nodes reached into queue; returns how many and sets
 * *depth to the number of levels and *last to the start of the last one.
 */
static uint32_t bfs_levels(const struct graph *g, uint32_t root, uint32_t *mark, uint32_t stamp,
                           const bool *numbered, uint32_t *queue, uint32_t *depth, uint32_t *last)
{
    uint32_t head = 0, tail = 0, level_end = 1;

    queue[tail++] = root;
    mark[root] = stamp;
    *depth = 1;
    *last = 0;
    while (head < tail) {
        uint32_t v = queue[head++];

        for (uint64_t k = g->xadj[v]; k < g->xadj[v + 1]; k++) {
            uint32_t w = g->adj[k];

            if (mark[w] != stamp && !numbered[w]) {
                mark[w] = stamp;
                queue[tail++] = w;
            }
        }
        if (head == level_end && head < tail) {
            *last = head;
            level_end = tail;
            (*depth)++;
        }
    }
    return tail;
}

/*
 * A pseudo-peripheral node of start's component (George and Liu): from a
 * node of the last breadth-first level with the least degree, while that
 * gives more levels.
 */
static uint32_t peripheral(const struct graph *g, uint32_t start, uint32_t *mark, uint32_t *stamp,
                           const bool *numbered, uint32_t *queue)
{
    uint32_t root = start, depth, last, n;

    n = bfs_levels(g, root, mark, ++*stamp, numbered, queue, &depth, &last);
    for (;;) {
        uint32_t best = queue[last], d2, last2;

        for (uint32_t k = last; k < n; k++)
            if (degree(g, queue[k]) < degree(g, best))
                best = queue[k];
        n = bfs_levels(g, best, mark, ++*stamp, numbered, queue, &d2, &last2);
        if (d2 <= depth)
            return root;
        root = best;
        depth = d2;
        last = last2;
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

static void rcm(const struct graph *g, uint32_t *order)
{
    uint32_t n = g->n, done = 0, stamp = 0;
    uint32_t *mark = augur_calloc(n ? n : 1, sizeof(uint32_t));
    uint32_t *queue = augur_mallocarray(n ? n : 1, sizeof(uint32_t));
    uint64_t *key = augur_mallocarray(n ? n : 1, sizeof(uint64_t));
    bool *numbered = augur_calloc(n ? n : 1, sizeof(bool));

    for (uint32_t s = 0; s < n; s++) {
        uint32_t head = done;

        if (numbered[s])
            continue;
        order[done++] = peripheral(g, s, mark, &stamp, numbered, queue);
        numbered[order[head]] = true;
        /* Cuthill-McKee: each node's unnumbered neighbours, the least degree (then index) first. */
        while (head < done) {
            uint32_t v = order[head++], m = 0;

            for (uint64_t k = g->xadj[v]; k < g->xadj[v + 1]; k++) {
                uint32_t w = g->adj[k];

                if (!numbered[w]) {
                    numbered[w] = true;
                    key[m++] = degree(g, w) << 32 | w;
                }
            }
            qsort(key, m, sizeof(uint64_t), cmp_u64);
            for (uint32_t k = 0; k < m; k++)
                order[done++] = (uint32_t)key[k];
        }
    }
    for (uint32_t i = 0, j = n ? n - 1 : 0; i < j; i++, j--) {
        uint32_t t = order[i];

        order[i] = order[j];
        order[j] = t;
    }
    augur_free(mark);
    augur_free(queue);
    augur_free(key);
    augur_free(numbered);
}

/* ---- METIS k-way, numbered part by part ------------------------------------ */

static int metis_order(const struct graph *g, uint32_t block, const char *path, uint32_t *order,
                       struct augur_reorder_info *info, struct augur_diag *diag)
{
    idx_t nv = (idx_t)g->n, ncon = 1, nparts, cut = 0, options[METIS_NOPTIONS];
    idx_t *xadj = NULL, *adj = NULL, *part;
    uint64_t *start;
    uint32_t k = (uint32_t)((g->n + (uint64_t)block - 1) / block);
    int rc = 0;

    if (g->xadj[g->n] > (uint64_t)INT32_MAX)
        return augur_diag_set(diag, AUGUR_ELIMIT, path, 0, 0,
                              "%" PRIu64 " adjacencies: more than METIS's 32-bit indices hold",
                              g->xadj[g->n]);
    part = augur_calloc(g->n, sizeof(idx_t));
    if (k > 1) {
        xadj = augur_mallocarray((size_t)g->n + 1, sizeof(idx_t));
        adj = augur_mallocarray(g->xadj[g->n] ? (size_t)g->xadj[g->n] : 1, sizeof(idx_t));
        for (uint32_t i = 0; i <= g->n; i++)
            xadj[i] = (idx_t)g->xadj[i];
        for (uint64_t e = 0; e < g->xadj[g->n]; e++)
            adj[e] = (idx_t)g->adj[e];
        METIS_SetDefaultOptions(options);
        options[METIS_OPTION_SEED] = 1;
        options[METIS_OPTION_NUMBERING] = 0;
        nparts = (idx_t)k;
        rc = METIS_PartGraphKway(&nv, &ncon, xadj, adj, NULL, NULL, NULL, &nparts, NULL, NULL,
                                 options, &cut, part);
        augur_free(xadj);
        augur_free(adj);
        if (rc != METIS_OK) {
            augur_free(part);
            return augur_diag_set(diag, AUGUR_ERUN, path, 0, 0,
                                  "METIS could not cut %u rows into %u parts (METIS error %d)",
                                  g->n, k, rc);
        }
    }
    /* Stable counting sort by part: a part's rows keep their order. */
    start = augur_calloc((size_t)k + 1, sizeof(uint64_t));
    for (uint32_t i = 0; i < g->n; i++)
        start[part[i] + 1]++;
    for (uint32_t p = 0; p < k; p++)
        start[p + 1] += start[p];
    for (uint32_t i = 0; i < g->n; i++)
        order[start[part[i]]++] = i;
    augur_free(start);
    augur_free(part);
    info->parts = k;
    info->edge_cut = (uint64_t)cut;
    return 0;
}

/* ---- the permuted copy ----------------------------------------------------- */

static void spread(const struct augur_coo *c, uint64_t *bandwidth, double *distance)
{
    double sum = 0;

    *bandwidth = 0;
    for (uint64_t e = 0; e < c->nnz; e++) {
        uint64_t d = c->row[e] > c->col[e] ? c->row[e] - c->col[e] : c->col[e] - c->row[e];

        *bandwidth = d > *bandwidth ? d : *bandwidth;
        sum += (double)d;
    }
    *distance = c->nnz ? sum / (double)c->nnz : 0;
}

static int permuted_copy(const struct augur_dataset *ds, const uint32_t *order,
                         struct augur_dataset **out, struct augur_diag *diag)
{
    const struct augur_coo *c = &ds->coo;
    struct augur_dataset *r = augur_calloc(1, sizeof(*r));
    uint32_t *inv = augur_mallocarray(c->nrows ? c->nrows : 1, sizeof(uint32_t));
    int rc;

    for (uint32_t k = 0; k < c->nrows; k++)
        inv[order[k]] = k;
    *r = *ds;
    r->path = augur_strdup(ds->path ? ds->path : "(memory)");
    r->cells = NULL;
    r->cell_lines = NULL;
    r->cells_file = ds->cells_file ? augur_strdup(ds->cells_file) : NULL;
    r->coo.row = augur_mallocarray(c->nnz ? (size_t)c->nnz : 1, sizeof(uint32_t));
    r->coo.col = augur_mallocarray(c->nnz ? (size_t)c->nnz : 1, sizeof(uint32_t));
    r->coo.val = NULL;
    if (c->val) {
        r->coo.val = augur_mallocarray(c->nnz ? (size_t)c->nnz : 1, sizeof(double));
        memcpy(r->coo.val, c->val, (size_t)c->nnz * sizeof(double));
    }
    for (uint64_t e = 0; e < c->nnz; e++) {
        r->coo.row[e] = inv[c->row[e]];
        r->coo.col[e] = inv[c->col[e]];
    }
    if (ds->cells && ds->ncells == c->nrows) {
        r->cells = augur_mallocarray((size_t)ds->ncells, 4 * sizeof(uint32_t));
        for (uint32_t k = 0; k < c->nrows; k++)
            memcpy(r->cells + 4 * (size_t)k, ds->cells + 4 * (size_t)order[k],
                   4 * sizeof(uint32_t));
        if (ds->cell_lines) {
            r->cell_lines = augur_mallocarray((size_t)ds->ncells, sizeof(uint32_t));
            for (uint32_t k = 0; k < c->nrows; k++)
                r->cell_lines[k] = ds->cell_lines[order[k]];
        }
    }
    augur_free(inv);
    /* sorted again; entries that crossed the diagonal go back to the stored triangle */
    rc = rt_coo_finish(r, diag);
    r->nduplicates = ds->nduplicates;
    if (rc) {
        augur_dataset_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

int augur_dataset_reorder(const struct augur_dataset *ds, const struct augur_reorder *how,
                          struct augur_dataset **out, uint32_t **order_out,
                          struct augur_reorder_info *info_out, struct augur_diag *diag)
{
    const struct augur_coo *c = &ds->coo;
    struct augur_reorder_info info = { 0 };
    struct graph g = { 0 };
    uint32_t *order;
    double t0 = augur_now();
    int rc = 0;

    if (c->nrows != c->ncols)
        return augur_diag_set(diag, AUGUR_EINVAL, ds->path, 0, 0,
                              "a reordering renumbers rows and columns alike: it needs a square "
                              "matrix, not %u x %u",
                              c->nrows, c->ncols);
    if (how->method == AUGUR_REORDER_METIS && (how->block < 1 || how->block > c->nrows))
        return augur_diag_set(diag, AUGUR_EINVAL, ds->path, 0, 0,
                              "metis:%u: the rows per part must be 1 to the %u rows", how->block,
                              c->nrows);
    order = augur_mallocarray(c->nrows ? c->nrows : 1, sizeof(uint32_t));
    if (how->method == AUGUR_REORDER_NONE) {
        for (uint32_t k = 0; k < c->nrows; k++)
            order[k] = k;
    } else {
        graph_build(c, &g);
        if (how->method == AUGUR_REORDER_RCM)
            rcm(&g, order);
        else
            rc = metis_order(&g, how->block, ds->path, order, &info, diag);
        graph_free(&g);
    }
    if (!rc)
        rc = permuted_copy(ds, order, out, diag);
    if (rc) {
        augur_free(order);
        return rc;
    }
    info.seconds = augur_now() - t0;
    spread(c, &info.bandwidth_before, &info.distance_before);
    spread(&(*out)->coo, &info.bandwidth_after, &info.distance_after);
    if (info_out)
        *info_out = info;
    *order_out = order;
    return 0;
}

int augur_order_write(const uint32_t *order, uint32_t n, const char *comment, const char *path,
                      struct augur_diag *diag)
{
    struct augur_out out = { 0 };
    int rc = augur_out_open(&out, path, diag);

    if (rc)
        return rc;
    fputs("% ", out.fp);
    for (const char *q = comment ? comment : ""; *q; q++)
        fputc((unsigned char)*q < 0x20 || *q == 0x7f ? '?' : *q, out.fp);
    fputc('\n', out.fp);
    for (uint32_t k = 0; k < n; k++)
        fprintf(out.fp, "%" PRIu32 "\n", order[k] + 1);
    return augur_out_commit(&out, diag);
}
