/*
 * fuzz_mtx.c - libFuzzer target for the Matrix Market reader and the sparse
 * formats built from what it reads (module: data).
 */
#include <stdint.h>
#include <string.h>

#include "augur/base.h"
#include "augur/data.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * CSR needs nrows + 1 row pointers and ELL nrows x width slots: both are
 * honest allocations for what the file says, so the fuzzer only builds them
 * for shapes that fit its memory limit.
 */
#define MAX_ROWS  (1u << 22)
#define MAX_SLOTS (1u << 24)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct augur_load_opts opts = { 0 };
    struct augur_dataset *ds = NULL;
    struct augur_csr csr = { 0 };
    struct augur_ell ell = { 0 };
    struct augur_diag diag;
    char *buf = augur_malloc(size + 1);
    uint64_t maxdeg = 0;

    memcpy(buf, data, size);
    buf[size] = '\0';
    opts.format = AUGUR_FORMAT_MTX;
    augur_diag_init(&diag);
    if (augur_dataset_parse(buf, size, "fuzz.mtx", &opts, &ds, &diag) != 0) {
        /* A failure must say what and where. */
        if (diag.code == 0 || diag.msg[0] == '\0')
            __builtin_trap();
        goto out;
    }
    if (ds->coo.nrows > MAX_ROWS)
        goto out;
    if (augur_dataset_csr(ds, true, &csr, &diag) != 0)
        __builtin_trap();
    if (csr.rowptr[csr.nrows] != csr.nnz || csr.nnz != augur_dataset_nnz_full(ds))
        __builtin_trap();
    for (uint32_t i = 0; i < csr.nrows; i++) {
        uint64_t d = csr.rowptr[i + 1] - csr.rowptr[i];

        if (d > maxdeg)
            maxdeg = d;
        for (uint64_t k = csr.rowptr[i] + 1; k < csr.rowptr[i + 1]; k++)
            if (csr.col[k] <= csr.col[k - 1])
                __builtin_trap(); /* rows sorted, no duplicates */
    }
    if (maxdeg * csr.nrows <= MAX_SLOTS) {
        if (augur_csr_to_ell(&csr, 0, &ell, &diag) != 0)
            __builtin_trap();
        if (ell.width != maxdeg || ell.npadding != (uint64_t)ell.width * ell.nrows - csr.nnz)
            __builtin_trap();
    }
out:
    augur_ell_release(&ell);
    augur_csr_release(&csr);
    augur_dataset_free(ds);
    augur_free(buf);
    return 0;
}
