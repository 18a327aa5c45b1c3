/*
 * rt_mesh.c - the face-adjacency dual graph of a tetrahedral mesh (module: runtime).
 *
 * Every tet contributes its four faces as sorted vertex triples. Sorting the
 * 4 * ncells triples brings the copies of a face together: a face seen once
 * is on the boundary, a face seen twice couples its two tets, and a face seen
 * three or more times makes the mesh non-manifold. The sort is a stable
 * three-pass counting sort on the vertex ids (O(ncells + nnodes)); when the
 * ids are sparse compared with the number of faces, qsort takes over.
 */
#include <stdio.h>
#include <stdlib.h>

#include "rt_int.h"

struct face {
    uint32_t a, b, c; /* a < b < c */
    uint32_t cell;
};

static int face_cmp(const void *x, const void *y)
{
    const struct face *f = x, *g = y;

    if (f->a != g->a)
        return f->a < g->a ? -1 : 1;
    if (f->b != g->b)
        return f->b < g->b ? -1 : 1;
    if (f->c != g->c)
        return f->c < g->c ? -1 : 1;
    return f->cell < g->cell ? -1 : f->cell > g->cell;
}

static inline bool face_same(const struct face *f, const struct face *g)
{
    return f->a == g->a && f->b == g->b && f->c == g->c;
}

/* The key of a face for radix pass k: 0 sorts by c, 1 by b, 2 by a. */
static inline uint32_t face_key(const struct face *f, int pass)
{
    return pass == 0 ? f->c : pass == 1 ? f->b : f->a;
}

/*
 * Stable LSD counting sort of n faces on (a, b, c), every id below nkeys.
 * Returns the buffer that holds the result (src or tmp).
 */
static struct face *radix_sort(struct face *src, struct face *tmp, size_t n, uint32_t nkeys)
{
    size_t *count = augur_calloc((size_t)nkeys + 1, sizeof(*count));

    for (int pass = 0; pass < 3; pass++) {
        size_t sum = 0;

        for (size_t k = 0; k <= nkeys; k++)
            count[k] = 0;
        for (size_t i = 0; i < n; i++)
            count[face_key(&src[i], pass)]++;
        for (size_t k = 0; k < nkeys; k++) {
            size_t c = count[k];

            count[k] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++)
            tmp[count[face_key(&src[i], pass)]++] = src[i];
        {
            struct face *t = src;

            src = tmp;
            tmp = t;
        }
    }
    augur_free(count);
    return src;
}

/* Where messages about tet k point: its file and line when the reader kept them. */
static const char *cell_file(const struct augur_dataset *ds)
{
    return ds->cells_file ? ds->cells_file : ds->path;
}

static uint32_t cell_line(const struct augur_dataset *ds, uint64_t k)
{
    return ds->cell_lines ? ds->cell_lines[k] : 0;
}

/* Adds q to p's neighbour slots; false when q is there already (p and q are the same tet). */
static bool link_cells(uint32_t *nbr, uint32_t p, uint32_t q)
{
    uint32_t *slot = nbr + 4 * (size_t)p;

    for (int k = 0; k < 4; k++) {
        if (slot[k] == q)
            return false;
        if (slot[k] == UINT32_MAX) {
            slot[k] = q;
            return true;
        }
    }
    AUGUR_BUG("tet %u has more than four face neighbours", p);
}

static int duplicate_error(const struct augur_dataset *ds, uint32_t p, uint32_t q,
                           struct augur_diag *diag)
{
    if (ds->cell_lines)
        return augur_diag_set(diag, AUGUR_EPARSE, cell_file(ds), cell_line(ds, q), 0,
                              "this tet has the same four nodes as the tet at line %u "
                              "(a duplicate element)",
                              cell_line(ds, p));
    return augur_diag_set(diag, AUGUR_EPARSE, cell_file(ds), 0, 0,
                          "tets %u and %u have the same four nodes (a duplicate element)", p + 1,
                          q + 1);
}

static int nonmanifold_error(const struct augur_dataset *ds, const struct face *run, size_t len,
                             struct augur_diag *diag)
{
    char where[160];
    size_t n = 0;

    /* The run is in file order, so run[2] is the first tet too many. */
    for (size_t k = 0; k < 2; k++) {
        int w = ds->cell_lines ? snprintf(where + n, sizeof(where) - n, "%s%u", k ? " and " : "",
                                          cell_line(ds, run[k].cell))
                               : snprintf(where + n, sizeof(where) - n, "%s%u", k ? " and " : "",
                                          run[k].cell + 1);

        if (w > 0 && (size_t)w < sizeof(where) - n)
            n += (size_t)w;
    }
    return augur_diag_set(diag, AUGUR_EPARSE, cell_file(ds), cell_line(ds, run[2].cell), 0,
                          "non-manifold mesh: %zu tets share the face of nodes %u, %u, %u "
                          "(counted from 1 in file order); this tet is the third, after the %s %s",
                          len, run[0].a + 1, run[0].b + 1, run[0].c + 1,
                          ds->cell_lines ? "tets at lines" : "tets", where);
}

/* Sorts the four vertices of a tet (a sorting network) and checks them. */
static int tet_vertices(const struct augur_dataset *ds, uint64_t k, uint32_t v[4],
                        struct augur_diag *diag)
{
    static const int net[5][2] = { { 0, 1 }, { 2, 3 }, { 0, 2 }, { 1, 3 }, { 1, 2 } };

    for (int i = 0; i < 4; i++) {
        v[i] = ds->cells[4 * k + (uint64_t)i];
        if (v[i] >= ds->nnodes)
            return augur_diag_set(diag, AUGUR_ERANGE, cell_file(ds), cell_line(ds, k), 0,
                                  "tet %llu refers to node %u of %llu", (unsigned long long)k + 1,
                                  v[i] + 1, (unsigned long long)ds->nnodes);
    }
    for (int i = 0; i < 5; i++) {
        uint32_t *x = &v[net[i][0]], *y = &v[net[i][1]];

        if (*x > *y) {
            uint32_t t = *x;

            *x = *y;
            *y = t;
        }
    }
    for (int i = 0; i < 3; i++)
        if (v[i] == v[i + 1])
            return augur_diag_set(diag, AUGUR_EPARSE, cell_file(ds), cell_line(ds, k), 0,
                                  "degenerate tet %llu: node %u appears twice",
                                  (unsigned long long)k + 1, v[i] + 1);
    return 0;
}

int rt_mesh_build_dual(struct augur_dataset *ds, struct augur_diag *diag)
{
    struct face *faces = NULL, *tmp = NULL, *sorted;
    uint32_t *nbr = NULL, *row = NULL, *col = NULL;
    uint64_t ncells = ds->ncells, nboundary = 0, nedges = 0;
    size_t nfaces, e;
    uint32_t maxv = 0;
    int rc = 0;

    if (ncells >= UINT32_MAX || ds->nnodes > UINT32_MAX)
        return augur_diag_set(diag, AUGUR_ELIMIT, cell_file(ds), 0, 0,
                              "%llu tets and %llu nodes: more than 32-bit indices can hold",
                              (unsigned long long)ncells, (unsigned long long)ds->nnodes);
    if (ncells > 0 && !ds->cells)
        AUGUR_BUG("mesh with %llu tets and no cells", (unsigned long long)ncells);
    nfaces = 4 * (size_t)ncells;
    faces = augur_mallocarray(nfaces ? nfaces : 1, sizeof(*faces));
    for (uint64_t k = 0; k < ncells; k++) {
        uint32_t v[4];
        struct face *f = faces + 4 * k;

        rc = tet_vertices(ds, k, v, diag);
        if (rc)
            goto out;
        /* Face i leaves out vertex i; each triple stays sorted. */
        f[0] = (struct face){ v[1], v[2], v[3], (uint32_t)k };
        f[1] = (struct face){ v[0], v[2], v[3], (uint32_t)k };
        f[2] = (struct face){ v[0], v[1], v[3], (uint32_t)k };
        f[3] = (struct face){ v[0], v[1], v[2], (uint32_t)k };
        if (v[3] > maxv)
            maxv = v[3];
    }
    if ((uint64_t)maxv + 1 <= 2 * (uint64_t)nfaces + 1024) {
        tmp = augur_mallocarray(nfaces ? nfaces : 1, sizeof(*tmp));
        sorted = radix_sort(faces, tmp, nfaces, maxv + 1);
    } else {
        qsort(faces, nfaces, sizeof(*faces), face_cmp);
        sorted = faces;
    }

    nbr = augur_mallocarray(nfaces ? nfaces : 1, sizeof(*nbr));
    for (size_t i = 0; i < nfaces; i++)
        nbr[i] = UINT32_MAX;
    for (size_t i = 0; i < nfaces;) {
        size_t j = i + 1;

        while (j < nfaces && face_same(&sorted[j], &sorted[i]))
            j++;
        if (j - i == 1) {
            nboundary++;
        } else if (j - i == 2) {
            uint32_t p = sorted[i].cell, q = sorted[i + 1].cell;

            if (!link_cells(nbr, p, q) || !link_cells(nbr, q, p)) {
                rc = duplicate_error(ds, p, q, diag);
                goto out;
            }
            nedges++;
        } else {
            rc = nonmanifold_error(ds, sorted + i, j - i, diag);
            goto out;
        }
        i = j;
    }

    /* Each edge once, in the lower triangle, sorted by row then column. */
    row = augur_mallocarray(nedges ? nedges : 1, sizeof(*row));
    col = augur_mallocarray(nedges ? nedges : 1, sizeof(*col));
    e = 0;
    for (uint32_t i = 0; i < ncells; i++) {
        uint32_t lower[4];
        int n = 0;

        for (int k = 0; k < 4; k++) {
            uint32_t j = nbr[4 * (size_t)i + (size_t)k];

            if (j != UINT32_MAX && j < i) {
                int m = n++;

                while (m > 0 && lower[m - 1] > j) {
                    lower[m] = lower[m - 1];
                    m--;
                }
                lower[m] = j;
            }
        }
        for (int k = 0; k < n; k++) {
            row[e] = i;
            col[e] = lower[k];
            e++;
        }
    }
    if (e != nedges)
        AUGUR_BUG("dual: %zu entries for %llu edges", e, (unsigned long long)nedges);

    ds->coo.nrows = ds->coo.ncols = (uint32_t)ncells;
    ds->coo.nnz = nedges;
    ds->coo.row = row;
    ds->coo.col = col;
    ds->coo.val = NULL;
    row = col = NULL;
    ds->symmetry = AUGUR_SYM_SYMMETRIC;
    ds->field = AUGUR_FIELD_PATTERN;
    ds->nentries_read = nedges;
    ds->nboundary_faces = nboundary;
out:
    augur_free(row);
    augur_free(col);
    augur_free(nbr);
    augur_free(tmp);
    augur_free(faces);
    return rc;
}
