/*
 * fuzz_edges.c - libFuzzer target: parses the input as an edge list (SNAP style), with and without
 * --undirected, and builds CSR from what loads (tests).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "augur/augur.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct augur_load_opts opts = { 0 };
    char *text = malloc(size + 1);

    memcpy(text, data, size);
    text[size] = '\0';
    opts.format = AUGUR_FORMAT_EDGES;
    /* The last byte picks --base 0, --base 1 or detection, so that each gets inputs. */
    opts.base_given = size > 0 && data[size - 1] % 3 != 0;
    opts.index_base = size > 0 && data[size - 1] % 3 == 2;
    for (int pass = 0; pass < 2; pass++) {
        struct augur_dataset *ds = NULL;
        struct augur_diag diag;

        augur_diag_init(&diag);
        if (augur_dataset_parse(text, size, "fuzz", &opts, &ds, &diag) == 0) {
            struct augur_csr csr;

            /* CSR of a huge id range would be a legitimate large allocation: skip it. */
            if (ds->coo.nrows <= (1u << 20) && augur_dataset_csr(ds, true, &csr, &diag) == 0)
                augur_csr_release(&csr);
            augur_dataset_free(ds);
        }
        opts.undirected = !opts.undirected;
    }
    free(text);
    return 0;
}
