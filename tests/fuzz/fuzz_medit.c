/*
 * fuzz_medit.c - libFuzzer target: Medit text, reader and mesh dual (module: data).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "augur/augur.h"

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
    struct augur_load_opts opts;
    struct augur_dataset *ds = NULL;
    char *text = malloc(size + 1);

    memcpy(text, data, size);
    text[size] = '\0';
    memset(&opts, 0, sizeof(opts));
    opts.format = AUGUR_FORMAT_MEDIT;
    if (augur_dataset_parse(text, size, "fuzz.mesh", &opts, &ds, NULL) == 0) {
        check_dual(ds);
        augur_dataset_free(ds);
    }
    free(text);
    return 0;
}
