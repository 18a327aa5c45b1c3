/*
 * fuzz_tetgen.c - libFuzzer target: the TetGen reader and the mesh dual (module: data).
 * The input is the .node text, then the .ele text after the first NUL byte
 * or, when there is none, after the first line "--ele--".
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "augur/augur.h"
#include "data/rt_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Invariants of a mesh's dual; a violation aborts so that libFuzzer reports it. */
static void check_dual(const struct augur_dataset *ds)
{
    if (ds->coo.nrows != ds->ncells || ds->coo.ncols != ds->ncells ||
        4 * ds->ncells != 2 * ds->coo.nnz + ds->nboundary_faces || ds->nduplicates != 0 ||
        ds->ndiagonal != 0 || ds->symmetry != AUGUR_SYM_SYMMETRIC)
        abort();
    for (uint64_t k = 0; k < 4 * ds->ncells; k++)
        if (ds->cells[k] >= ds->nnodes)
            abort();
    for (uint64_t e = 0; e < ds->coo.nnz; e++)
        if (ds->coo.row[e] <= ds->coo.col[e] || ds->coo.row[e] >= ds->ncells)
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char marker[] = "--ele--\n";
    const uint8_t *nul = memchr(data, 0, size);
    size_t nlen = size, estart = size;
    struct augur_dataset ds;
    char *node, *ele;
    int rc;

    if (nul) {
        nlen = (size_t)(nul - data);
        estart = nlen + 1;
    } else {
        for (size_t i = 0; i + sizeof(marker) - 1 <= size; i++) {
            if ((i == 0 || data[i - 1] == '\n') &&
                memcmp(data + i, marker, sizeof(marker) - 1) == 0) {
                nlen = i;
                estart = i + sizeof(marker) - 1;
                break;
            }
        }
    }
    node = malloc(nlen + 1);
    ele = malloc(size - estart + 1);
    memcpy(node, data, nlen);
    node[nlen] = '\0';
    memcpy(ele, data + estart, size - estart);
    ele[size - estart] = '\0';

    memset(&ds, 0, sizeof(ds));
    ds.path = augur_strdup("fuzz.node");
    rc = rt_parse_tetgen(node, nlen, "fuzz.node", ele, size - estart, "fuzz.ele", &ds, NULL);
    if (rc == 0)
        rc = rt_mesh_build_dual(&ds, NULL);
    if (rc == 0)
        rc = rt_coo_finish(&ds, NULL);
    if (rc == 0)
        check_dual(&ds);
    augur_coo_release(&ds.coo);
    augur_free(ds.cells);
    augur_free(ds.cell_lines);
    augur_free(ds.cells_file);
    augur_free(ds.path);
    free(node);
    free(ele);
    return 0;
}
