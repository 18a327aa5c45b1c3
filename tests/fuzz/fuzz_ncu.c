/*
 * fuzz_ncu.c - libFuzzer target for the Nsight Compute CSV reader (module:
 * measure): a failure must say what; a file that reads holds a launch, every
 * value it kept is a finite number >= 0 or absent, and each launch's kernel
 * is found again by its name, alone and by its ID.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "augur/base.h"
#include "augur/measure.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct augur_ncu *n = NULL;
    struct augur_diag diag;
    struct augur_workload w;
    struct augur_ncu_row rows[AUGUR_NCU_NQUANTITIES];

    augur_diag_init(&diag);
    if (augur_ncu_parse((const char *)data, size, "fuzz.csv", &n, &diag) != 0) {
        if (diag.code == 0 || diag.msg[0] == '\0' || n != NULL)
            __builtin_trap(); /* a failure must say what */
        return 0;
    }
    if (!n->nlaunches)
        __builtin_trap();
    memset(&w, 0, sizeof(w));
    w.nlevels = 2;
    w.gpu_given = true;
    w.gpu.jobs = 1;
    for (size_t i = 0; i < n->nlaunches && i < 64; i++) {
        const struct augur_ncu_launch *l = &n->launches[i];
        struct augur_ncu_launch one;
        uint32_t count = 0;

        for (int q = 0; q < AUGUR_NCU_NQUANTITIES; q++)
            if (!isnan(l->value[q]) && (!isfinite(l->value[q]) || l->value[q] < 0))
                __builtin_trap(); /* a value kept that is no count */
        if (augur_ncu_select(n, l->name, -1, &one, &count, &diag) != 0 || count == 0 ||
            augur_ncu_select(n, l->name, (int64_t)l->id, &one, &count, &diag) != 0)
            __builtin_trap(); /* the launch is not found again */
        if (augur_ncu_compare(&one, &w, 1e-6, rows) > AUGUR_NCU_NQUANTITIES)
            __builtin_trap();
    }
    augur_ncu_free(n);
    return 0;
}
