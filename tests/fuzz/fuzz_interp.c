/*
 * fuzz_interp.c - libFuzzer target for the skeleton interpreter: every
 * skeleton that parses is bound to a small graph and run on 1 or 3 threads
 * with a short step limit; it must finish or fail with a message, never
 * crash, read out of bounds or hang (module: skeleton).
 */
#include <stdint.h>
#include <string.h>

#include "augur/base.h"
#include "augur/data.h"
#include "augur/interp.h"
#include "augur/sim.h"
#include "augur/skeleton.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t rowptr[9] = { 0, 2, 4, 7, 8, 10, 12, 13, 14 };
static uint32_t col[14] = { 1, 2, 0, 3, 0, 4, 5, 1, 2, 6, 2, 7, 4, 5 };
static double val[14] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 };

static void on_events(void *ud, const struct augur_event *ev, size_t n)
{
    uint64_t *sum = ud;

    for (size_t i = 0; i < n; i++)
        *sum += ev[i].addr + ev[i].size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct augur_csr csr = { 8, 8, 14, rowptr, col, val };
    struct augur_skel *s = NULL;
    struct augur_bound *b = NULL;
    struct augur_diag diag;
    char *buf = augur_malloc(size + 1);
    uint64_t sum = 0;

    memcpy(buf, data, size);
    buf[size] = '\0';
    augur_diag_init(&diag);
    if (augur_skel_parse(buf, size, "fuzz.skel", &s, &diag) != 0)
        goto out;
    augur_skel_infer_bindings(s, &diag);
    if (augur_bound_from_csr(&csr, NULL, &b, &diag) != 0)
        __builtin_trap();
    for (uint32_t k = 0; k < s->nkernels; k++) {
        for (unsigned threads = 1; threads <= 3; threads += 2) {
            struct augur_interp_opts o;
            struct augur_interp *in = NULL;
            uint32_t rounds;

            memset(&o, 0, sizeof(o));
            o.nthreads = threads;
            o.max_steps = 20000;
            o.grid = 3;
            o.block = 40;
            o.sms = 2;
            augur_diag_init(&diag);
            if (augur_interp_new_bound(s, s->kernels[k], b, &o, &in, &diag) != 0) {
                if (diag.code == 0 || diag.msg[0] == '\0')
                    __builtin_trap(); /* a failure must say what */
                continue;
            }
            augur_interp_subscribe(in, on_events, &sum);
            augur_diag_init(&diag);
            if (augur_interp_run(in, &diag) != 0 && diag.msg[0] == '\0')
                __builtin_trap();
            augur_diag_init(&diag);
            if (augur_interp_run_rounds(in, 4, &rounds, &diag) != 0 && diag.msg[0] == '\0')
                __builtin_trap();
            augur_interp_free(in);
        }
    }
out:
    augur_bound_free(b);
    augur_skel_free(s);
    augur_free(buf);
    (void)sum;
    return 0;
}
