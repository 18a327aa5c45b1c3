/*
 * tiling.c - the tiling and grouping of Chen et al. (CGO 2016) that the
 * tiled reduction variants run on: edges sorted into tiles, tiles coloured
 * into conflict-free tile groups, each tile's edges packed into
 * conflict-free groups of at most IREDUCE_LANES (kernels/ireduce). This is
 * preprocessing, done once per dataset and tile size.
 */
#include <stdlib.h>
#include <string.h>

#include "kernel.h"

void ireduce_tiling_release(struct ireduce_tiling *t)
{
    free(t->gu);
    free(t->gv);
    free(t->gw);
    free(t->gedge);
    free(t->gcount);
    free(t->tile_group);
    free(t->tgroup_tile);
    memset(t, 0, sizeof(*t));
}

double ireduce_tiling_lanes_used(const struct ireduce_tiling *t)
{
    return t->ngroups ? (double)t->nedges / (double)t->ngroups : 0.0;
}

/* Stable counting sort of src[0..m) into dst by key[src[k]] / ts (keys below nb * ts). */
static int sort_by_block(uint64_t m, const uint64_t *src, uint64_t *dst, const uint32_t *key,
                         uint32_t ts, uint64_t nb)
{
    uint64_t *start = calloc(nb + 1, sizeof(*start));

    if (!start)
        return -1;
    for (uint64_t k = 0; k < m; k++)
        start[key[src[k]] / ts + 1]++;
    for (uint64_t b = 0; b < nb; b++)
        start[b + 1] += start[b];
    for (uint64_t k = 0; k < m; k++)
        dst[start[key[src[k]] / ts]++] = src[k];
    free(start);
    return 0;
}

/* The first group at or after g that is not full; groups at ng and beyond are new (empty). */
static uint64_t first_open(uint64_t *parent, uint64_t ng, uint64_t g)
{
    uint64_t root = g;

    while (root < ng && parent[root] != root)
        root = parent[root];
    while (g < ng && parent[g] != g) {
        uint64_t next = parent[g];

        parent[g] = root;
        g = next;
    }
    return root;
}

int ireduce_tiling_build(uint32_t n, uint64_t nedges, const uint32_t *eu, const uint32_t *ev,
                         const double *w, uint32_t tile_size, struct ireduce_tiling *t)
{
    uint64_t nb, ntiles = 0, ncolors = 0, maxm = 0, ngroups = 0;
    uint64_t *ident = NULL, *order = NULL, *tstart = NULL, *pool_next = NULL, *head = NULL;
    uint64_t *mark = NULL, *color = NULL, *torder = NULL, *cstart = NULL, *tng = NULL;
    uint64_t *gid = NULL, *parent = NULL, *cnt = NULL, *last = NULL, *stamp = NULL;
    uint64_t *pool_color = NULL, *gmark = NULL, *lnext = NULL, *lgroup = NULL;
    int rc = -1;

    memset(t, 0, sizeof(*t));
    if (tile_size == 0 || (n == 0 && nedges > 0))
        return -1;
    for (uint64_t e = 0; e < nedges; e++) {
        if (eu[e] >= n || ev[e] >= n)
            return -1;
    }
    nb = ((uint64_t)n + tile_size - 1) / tile_size;
    t->n = n;
    t->tile_size = tile_size;
    t->nedges = nedges;

    /* 1. Edges in tile order: by column block, then stably by row block. */
    ident = malloc((nedges ? nedges : 1) * sizeof(*ident));
    order = malloc((nedges ? nedges : 1) * sizeof(*order));
    tstart = malloc((nedges + 1) * sizeof(*tstart));
    if (!ident || !order || !tstart)
        goto out;
    for (uint64_t e = 0; e < nedges; e++)
        ident[e] = e;
    if (sort_by_block(nedges, ident, order, ev, tile_size, nb) ||
        sort_by_block(nedges, order, ident, eu, tile_size, nb))
        goto out;
    /* ident now holds the edges in tile order; tiles are its runs of equal blocks. */
    for (uint64_t k = 0; k < nedges; k++) {
        if (k == 0 || eu[ident[k]] / tile_size != eu[ident[k - 1]] / tile_size ||
            ev[ident[k]] / tile_size != ev[ident[k - 1]] / tile_size)
            tstart[ntiles++] = k;
    }
    tstart[ntiles] = nedges;

    /* 2. Tile groups: first-fit colouring; a tile conflicts with every tile touching its blocks. */
    pool_next = malloc((2 * ntiles + 1) * sizeof(*pool_next));
    pool_color = malloc((2 * ntiles + 1) * sizeof(*pool_color));
    head = malloc((nb ? nb : 1) * sizeof(*head));
    mark = calloc(2 * ntiles + 2, sizeof(*mark));
    color = malloc((ntiles + 1) * sizeof(*color));
    if (!pool_next || !pool_color || !head || !mark || !color)
        goto out;
    for (uint64_t b = 0; b < nb; b++)
        head[b] = UINT64_MAX;
    for (uint64_t k = 0, npool = 0; k < ntiles; k++) {
        uint64_t blk[2], c = 0;

        blk[0] = eu[ident[tstart[k]]] / tile_size;
        blk[1] = ev[ident[tstart[k]]] / tile_size;
        for (int s = 0; s < 2; s++) {
            for (uint64_t p = head[blk[s]]; p != UINT64_MAX; p = pool_next[p])
                mark[pool_color[p]] = k + 1;
        }
        while (mark[c] == k + 1)
            c++;
        color[k] = c;
        if (c + 1 > ncolors)
            ncolors = c + 1;
        for (int s = 0; s < (blk[0] == blk[1] ? 1 : 2); s++) {
            pool_color[npool] = c;
            pool_next[npool] = head[blk[s]];
            head[blk[s]] = npool++;
        }
    }

    /* 3. Tiles in tile-group order. */
    torder = malloc((ntiles + 1) * sizeof(*torder));
    cstart = calloc(ncolors + 2, sizeof(*cstart));
    t->tgroup_tile = malloc((ncolors + 1) * sizeof(*t->tgroup_tile));
    if (!torder || !cstart || !t->tgroup_tile)
        goto out;
    for (uint64_t k = 0; k < ntiles; k++)
        cstart[color[k] + 1]++;
    for (uint64_t c = 0; c < ncolors; c++)
        cstart[c + 1] += cstart[c];
    memcpy(t->tgroup_tile, cstart, (ncolors + 1) * sizeof(*cstart));
    for (uint64_t k = 0; k < ntiles; k++)
        torder[cstart[color[k]]++] = k;
    t->ntgroups = ncolors;
    t->ntiles = ntiles;

    /*
     * 4. Groups within each tile, first fit: an edge goes to the first group
     * that is not full and holds neither endpoint (each node keeps the list
     * of its groups in this tile), so a node appears at most once in a group.
     */
    for (uint64_t k = 0; k < ntiles; k++) {
        if (tstart[k + 1] - tstart[k] > maxm)
            maxm = tstart[k + 1] - tstart[k];
    }
    gid = malloc((nedges ? nedges : 1) * sizeof(*gid));
    tng = malloc((ntiles + 1) * sizeof(*tng));
    parent = malloc((maxm + 1) * sizeof(*parent));
    cnt = malloc((maxm + 1) * sizeof(*cnt));
    gmark = calloc(maxm + 1, sizeof(*gmark));
    lnext = malloc((2 * maxm + 1) * sizeof(*lnext));
    lgroup = malloc((2 * maxm + 1) * sizeof(*lgroup));
    last = malloc(((uint64_t)n + 1) * sizeof(*last));
    stamp = calloc((uint64_t)n + 1, sizeof(*stamp));
    if (!gid || !tng || !parent || !cnt || !gmark || !lnext || !lgroup || !last || !stamp)
        goto out;
    for (uint64_t k = 0, st = 0; k < ntiles; k++) {
        uint64_t ng = 0, nlist = 0;

        for (uint64_t p = tstart[k]; p < tstart[k + 1]; p++) {
            uint32_t ends[2] = { eu[ident[p]], ev[ident[p]] };
            uint64_t g;

            /* Mark the groups of both endpoints; last[] heads each node's list. */
            st++;
            for (int s = 0; s < 2; s++) {
                if (stamp[ends[s]] != k + 1) {
                    stamp[ends[s]] = k + 1;
                    last[ends[s]] = UINT64_MAX;
                }
                for (uint64_t q = last[ends[s]]; q != UINT64_MAX; q = lnext[q])
                    gmark[lgroup[q]] = st;
            }
            g = first_open(parent, ng, 0);
            while (g < ng && gmark[g] == st)
                g = first_open(parent, ng, g + 1);
            if (g == ng) {
                parent[ng] = ng;
                cnt[ng] = 0;
                gmark[ng] = 0;
                ng++;
            }
            if (++cnt[g] == IREDUCE_LANES)
                parent[g] = g + 1;
            gid[p] = g;
            for (int s = 0; s < (ends[0] == ends[1] ? 1 : 2); s++) {
                lgroup[nlist] = g;
                lnext[nlist] = last[ends[s]];
                last[ends[s]] = nlist++;
            }
        }
        tng[k] = ng;
        ngroups += ng;
    }

    /* 5. The schedule's arrays, tiles in tile-group order. */
    t->ngroups = ngroups;
    t->gu = calloc((ngroups ? ngroups : 1) * IREDUCE_LANES, sizeof(*t->gu));
    t->gv = calloc((ngroups ? ngroups : 1) * IREDUCE_LANES, sizeof(*t->gv));
    t->gedge = malloc((ngroups ? ngroups : 1) * IREDUCE_LANES * sizeof(*t->gedge));
    t->gcount = calloc(ngroups ? ngroups : 1, sizeof(*t->gcount));
    t->tile_group = malloc((ntiles + 1) * sizeof(*t->tile_group));
    if (w)
        t->gw = calloc((ngroups ? ngroups : 1) * IREDUCE_LANES, sizeof(*t->gw));
    if (!t->gu || !t->gv || !t->gedge || !t->gcount || !t->tile_group || (w && !t->gw))
        goto out;
    for (uint64_t s = 0; s < ngroups * IREDUCE_LANES; s++)
        t->gedge[s] = UINT64_MAX;
    for (uint64_t r = 0, base = 0; r < ntiles; r++) {
        uint64_t k = torder[r];

        t->tile_group[r] = base;
        for (uint64_t p = tstart[k]; p < tstart[k + 1]; p++) {
            uint64_t e = ident[p], g = base + gid[p];
            uint64_t slot = g * IREDUCE_LANES + t->gcount[g]++;

            t->gu[slot] = eu[e];
            t->gv[slot] = ev[e];
            t->gedge[slot] = e;
            if (w)
                t->gw[slot] = w[e];
        }
        base += tng[k];
    }
    t->tile_group[ntiles] = ngroups;
    rc = 0;
out:
    free(ident);
    free(order);
    free(tstart);
    free(pool_next);
    free(pool_color);
    free(head);
    free(mark);
    free(color);
    free(torder);
    free(cstart);
    free(tng);
    free(gid);
    free(parent);
    free(cnt);
    free(gmark);
    free(lnext);
    free(lgroup);
    free(last);
    free(stamp);
    if (rc)
        ireduce_tiling_release(t);
    return rc;
}
