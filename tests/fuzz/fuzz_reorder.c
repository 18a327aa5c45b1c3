/*
 * fuzz_reorder.c - libFuzzer target for the reorderings (module: data): the
 * input's first line is a --method ("rcm", "metis:8", ...), the rest a
 * Matrix Market file. A method or a matrix refused must be refused with a
 * message; a reordering that succeeds must give a permutation and a
 * dataset of the same shape and entries.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "augur/base.h"
#include "augur/data.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reordering costs memory per row: the fuzzer keeps to shapes its memory limit fits. */
#define MAX_ROWS (1u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct augur_load_opts opts = { 0 };
    struct augur_dataset *ds = NULL, *r = NULL;
    struct augur_reorder how;
    struct augur_diag diag;
    char *buf = augur_malloc(size + 1), *nl;
    uint32_t *order = NULL;
    bool *seen = NULL;

    memcpy(buf, data, size);
    buf[size] = '\0';
    nl = strchr(buf, '\n');
    if (!nl)
        goto out;
    *nl = '\0';
    augur_diag_init(&diag);
    if (augur_reorder_parse(buf, &how, &diag) != 0) {
        if (diag.code == 0 || diag.msg[0] == '\0')
            __builtin_trap();
        goto out;
    }
    opts.format = AUGUR_FORMAT_MTX;
    if (augur_dataset_parse(nl + 1, size - (size_t)(nl + 1 - buf), "fuzz.mtx", &opts, &ds, &diag) !=
            0 ||
        ds->coo.nrows > MAX_ROWS)
        goto out;
    augur_diag_init(&diag);
    if (augur_dataset_reorder(ds, &how, &r, &order, NULL, &diag) != 0) {
        if (diag.code == 0 || diag.msg[0] == '\0' || r || order)
            __builtin_trap();
        goto out;
    }
    if (r->coo.nrows != ds->coo.nrows || r->coo.ncols != ds->coo.ncols ||
        r->coo.nnz != ds->coo.nnz || r->ndiagonal != ds->ndiagonal || r->symmetry != ds->symmetry)
        __builtin_trap();
    seen = augur_calloc(ds->coo.nrows ? ds->coo.nrows : 1, sizeof(bool));
    for (uint32_t k = 0; k < ds->coo.nrows; k++) {
        if (order[k] >= ds->coo.nrows || seen[order[k]])
            __builtin_trap();
        seen[order[k]] = true;
    }
out:
    augur_free(seen);
    augur_free(order);
    augur_dataset_free(r);
    augur_dataset_free(ds);
    augur_free(buf);
    return 0;
}
