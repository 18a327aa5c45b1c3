/*
 * fuzz_cat_errors.c - libFuzzer target for the reader of `augur train
 * categorizer --errors` (module: data): a failure must say what; errors
 * that read hold names without a folder, each found again, and errors that
 * are finite and not negative.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "augur/base.h"
#include "augur/data.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct augur_cat_errors e = { 0 };
    struct augur_diag diag;

    augur_diag_init(&diag);
    if (augur_cat_errors_parse((const char *)data, size, "fuzz.tsv", &e, &diag) != 0) {
        if (diag.code == 0 || diag.msg[0] == '\0' || e.rows != NULL)
            __builtin_trap(); /* a failure must say what, and hand nothing back */
        return 0;
    }
    if (e.n == 0)
        __builtin_trap();
    for (size_t i = 0; i < e.n; i++) {
        const struct augur_cat_error *r = &e.rows[i];

        if (!r->name[0] || strchr(r->name, '/') || augur_cat_errors_find(&e, r->name) != r)
            __builtin_trap();
        if (!(r->err[AUGUR_SAMPLER_SA] >= 0 && isfinite(r->err[AUGUR_SAMPLER_SA])) ||
            !(r->err[AUGUR_SAMPLER_RT] >= 0 && isfinite(r->err[AUGUR_SAMPLER_RT])) ||
            !(r->err[AUGUR_SAMPLER_RB] >= 0 && isfinite(r->err[AUGUR_SAMPLER_RB])))
            __builtin_trap();
    }
    augur_cat_errors_release(&e);
    return 0;
}
