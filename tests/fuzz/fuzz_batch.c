/*
 * fuzz_batch.c - libFuzzer target for the batch manifest parser (module:
 * predict): a failure must say what and where; a manifest that parses has
 * rows whose fields are set and whose thread counts are in range, each row
 * gives a predict command, and a Makefile and a Slurm script are written
 * for it without a failure.
 */
#include <stdint.h>
#include <string.h>

#include "augur/base.h"
#include "augur/predict.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct augur_batch_emit e = { "/usr/bin/augur", "rows", "out.jsonl" };
    struct augur_batch *b = NULL;
    struct augur_diag diag;
    struct augur_buf out;

    augur_diag_init(&diag);
    if (augur_batch_parse((const char *)data, size, "dir/m.txt", &b, &diag) != 0) {
        if (diag.code == 0 || diag.msg[0] == '\0' || b)
            __builtin_trap(); /* a failure must say what, and give nothing */
        return 0;
    }
    for (size_t i = 0; i < b->nrows; i++) {
        const struct augur_batch_row *r = &b->rows[i];
        char **argv;

        if (!r->kernel || !r->dataset || r->threads < 1 || r->threads > 4096 || r->line < 1 ||
            (r->nargs && !r->args))
            __builtin_trap();
        if (i < 4) {
            argv = augur_batch_argv(b, i, "augur");
            if (!argv[0] || strcmp(argv[1], "predict") != 0)
                __builtin_trap();
            augur_argv_free(argv);
        }
    }
    if (b->nrows <= 64) {
        augur_buf_init(&out);
        if (augur_batch_write(b, AUGUR_BATCH_MAKE, &e, &out, &diag) != 0 ||
            augur_batch_write(b, AUGUR_BATCH_SLURM, &e, &out, &diag) != 0)
            __builtin_trap();
        augur_buf_release(&out);
    }
    augur_batch_free(b);
    return 0;
}
