/*
 * rt_mesh.c - the face-adjacency dual graph of a tetrahedral mesh (module: data).
 *
 * Every tet contributes its four faces as sorted vertex triples. Sorting the
 * 4 * ncells triples brings the copies of a face together: a face seen once
 * is on the boundary, a face seen twice couples its two tets, and a face seen
 * three or more times makes the mesh non-manifold. The sort is a counting
 * sort on the smallest vertex of each face (O(ncells + nnodes)) followed by a
 * sort of each vertex's few faces; when the vertex ids are sparse compared
 * with the number of faces, one qsort does it all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_int.h"

/* A face: its vertices a < b < c, with b and c packed in one key, and its tet. */
struct face {
    uint64_t bc; /* b << 32 | c */
    uint32_t a;
    uint32_t cell;
};

static inline struct face face_make(uint32_t a, uint32_t b, uint32_t c, uint32_t cell)
{
    struct face f = { (uint64_t)b << 32 | c, a, cell };

    return f;
}

static int face_cmp(const void *x, const void *y)
{
    const struct face *f = x, *g = y;

    if (f->a != g->a)
        return f->a < g->a ? -1 : 1;
    if (f->bc != g->bc)
        return f->bc < g->bc ? -1 : 1;
    return f->cell < g->cell ? -1 : f->cell > g->cell;
}

static inline bool face_same(const struct face *f, const struct face *g)
{
    return f->a == g->a && f->bc == g->bc;
}

/*
 * Sorts the faces of one bucket (one a, in cell order) on (b, c): by
 * insertion, which is stable, when they are few as around any vertex of a
 * real mesh; with qsort, the cell breaking ties, when they are many.
 */
static void sort_bucket(struct face *f, size_t n)
{
    if (n > 128) {
        qsort(f, n, sizeof(*f), face_cmp);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        struct face x = f[i];
        size_t j = i;

        while (j > 0 && f[j - 1].bc > x.bc) {
            f[j] = f[j - 1];
            j--;
        }
        f[j] = x;
    }
}

/* Sorts four vertex ids (a sorting network). */
static inline void sort4(uint32_t v[4])
{
    static const int net[5][2] = { { 0, 1 }, { 2, 3 }, { 0, 2 }, { 1, 3 }, { 1, 2 } };

    for (int i = 0; i < 5; i++) {
        uint32_t *x = &v[net[i][0]], *y = &v[net[i][1]];

        if (*x > *y) {
            uint32_t t = *x;

            *x = *y;
            *y = t;
        }
    }
}

/* The four faces of tet k (vertices sorted): face i leaves out vertex i. */
static inline void tet_faces(const uint32_t v[4], uint32_t k, struct face f[4])
{
    f[0] = face_make(v[1], v[2], v[3], k);
    f[1] = face_make(v[0], v[2], v[3], k);
    f[2] = face_make(v[0], v[1], v[3], k);
    f[3] = face_make(v[0], v[1], v[2], k);
}

/*
 * Writes the faces of every tet to out, sorted on (a, b, c, cell), every
 * vertex id below nkeys: a counting sort scatters them straight from the
 * cells into one bucket per smallest vertex a (in cell order), then each
 * bucket, the few faces around one vertex, is sorted on its own.
 */
static void bucket_sort(const uint32_t *cells, uint32_t ncells, struct face *out, uint32_t nkeys)
{
    size_t *start = augur_calloc((size_t)nkeys + 1, sizeof(*start));
    size_t sum = 0;

    /* Three faces of a tet have its smallest vertex first, one its second smallest. */
    for (uint32_t k = 0; k < ncells; k++) {
        uint32_t v[4] = { cells[4 * (size_t)k], cells[4 * (size_t)k + 1], cells[4 * (size_t)k + 2],
                          cells[4 * (size_t)k + 3] };

        sort4(v);
        start[v[0]] += 3;
        start[v[1]] += 1;
    }
    for (size_t k = 0; k <= nkeys; k++) {
        size_t c = start[k];

        start[k] = sum;
        sum += c;
    }
    for (uint32_t k = 0; k < ncells; k++) {
        uint32_t v[4] = { cells[4 * (size_t)k], cells[4 * (size_t)k + 1], cells[4 * (size_t)k + 2],
                          cells[4 * (size_t)k + 3] };
        struct face f[4];

        sort4(v);
        tet_faces(v, k, f);
        for (int i = 0; i < 4; i++)
            out[start[f[i].a]++] = f[i];
    }
    /* start[k] is now the end of bucket k, and the start of bucket k + 1. */
    for (size_t k = 0, lo = 0; k < nkeys; k++) {
        sort_bucket(out + lo, start[k] - lo);
        lo = start[k];
    }
    augur_free(start);
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
                          len, run[0].a + 1, (uint32_t)(run[0].bc >> 32) + 1,
                          (uint32_t)run[0].bc + 1, ds->cell_lines ? "tets at lines" : "tets",
                          where);
}

/* Checks the vertices of tet k and returns them sorted in v. */
static int tet_vertices(const struct augur_dataset *ds, uint64_t k, uint32_t v[4],
                        struct augur_diag *diag)
{
    for (int i = 0; i < 4; i++) {
        v[i] = ds->cells[4 * k + (uint64_t)i];
        if (v[i] >= ds->nnodes)
            return augur_diag_set(diag, AUGUR_ERANGE, cell_file(ds), cell_line(ds, k), 0,
                                  "tet %llu refers to node %u of %llu", (unsigned long long)k + 1,
                                  v[i] + 1, (unsigned long long)ds->nnodes);
    }
    sort4(v);
    for (int i = 0; i < 3; i++)
        if (v[i] == v[i + 1])
            return augur_diag_set(diag, AUGUR_EPARSE, cell_file(ds), cell_line(ds, k), 0,
                                  "degenerate tet %llu: node %u appears twice",
                                  (unsigned long long)k + 1, v[i] + 1);
    return 0;
}

int rt_mesh_build_dual(struct augur_dataset *ds, struct augur_diag *diag)
{
    struct face *faces = NULL, *sorted;
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
    for (uint64_t k = 0; k < ncells; k++) {
        uint32_t v[4] = { 0 };

        rc = tet_vertices(ds, k, v, diag);
        if (rc)
            goto out;
        if (v[3] > maxv)
            maxv = v[3];
    }
    faces = augur_mallocarray(nfaces ? nfaces : 1, sizeof(*faces));
    if ((uint64_t)maxv + 1 <= 2 * (uint64_t)nfaces + 1024) {
        bucket_sort(ds->cells, (uint32_t)ncells, faces, maxv + 1);
    } else {
        for (uint64_t k = 0; k < ncells; k++) {
            uint32_t v[4];

            memcpy(v, ds->cells + 4 * k, sizeof(v));
            sort4(v);
            tet_faces(v, (uint32_t)k, faces + 4 * k);
        }
        qsort(faces, nfaces, sizeof(*faces), face_cmp);
    }
    sorted = faces;

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
    augur_free(faces);
    return rc;
}
