/*
 * fuzz_interp_opts.c - libFuzzer target for the lists of `augur simulate`
 * --place NAME=ADDRESS,..., --prob LINE=P,... and --trips LINE=N,..., and
 * the schedule of `augur predict --schedule KIND[,CHUNK]` (module: interp):
 * the input's first three lines are the three lists, the fourth (when
 * there is one) the schedule, given to the interpreter on a CSR SpMV
 * kernel with a branch and a worksharing loop (3 threads with a schedule).
 * A list or schedule it refuses must be refused with a message, leaving
 * the parser's outputs alone; one it takes must run, or stop with a message.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "augur/base.h"
#include "augur/data.h"
#include "augur/interp.h"
#include "augur/sim.h"
#include "augur/skeleton.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char skel_text[] = "augur-skeleton 1\n"
                                "source \"ref.c\"\n"
                                "kernel spmv @\"ref.c\":6:1  #0\n"
                                "  param nrows u32 @6:19 bind n (cli)\n"
                                "  local i u32 @9:10\n"
                                "  local j u64 @12:14\n"
                                "  array rowptr u64[] global param @6:35 bind csr.rowptr (cli)\n"
                                "  array col u32[] global param @6:59 bind csr.col (cli)\n"
                                "  array val f64[] global param @6:80 bind csr.val (cli)\n"
                                "  array x f64[] global param @7:19 bind vec(m) (cli)\n"
                                "  array y f64[] global param @7:36 bind vec(n) (cli)\n"
                                "  for i = (u32)0; i < nrows; i += 1_u32 @9:5 omp(parallel for "
                                "schedule(static))  #1\n"
                                "    for j = rowptr[i]; j < rowptr[i + 1]; j += 1_u64 @12:9  #2\n"
                                "      if val[j] != 0.0 @13:9  #3\n"
                                "        load x[col[j]] @13:29 indirect(col)  #4\n"
                                "    store y[i] @14:9  #5\n";

static uint64_t rowptr[9] = { 0, 2, 4, 7, 8, 10, 12, 13, 14 };
static uint32_t col[14] = { 1, 2, 0, 3, 0, 4, 5, 1, 2, 6, 2, 7, 4, 5 };
static double val[14] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 };

/* The next line of text (NUL-terminated in place), or NULL after the last. */
static char *next_line(char **p)
{
    char *line = *p, *nl;

    if (!line)
        return NULL;
    nl = strchr(line, '\n');
    if (nl) {
        *nl = '\0';
        *p = nl + 1;
    } else {
        *p = NULL;
    }
    return line;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct augur_skel *s;
    static struct augur_bound *b;
    static struct augur_csr csr = { 8, 8, 14, rowptr, col, val };
    struct augur_interp_opts o;
    struct augur_interp *in = NULL;
    struct augur_diag diag;
    char *text, *p, *sched;

    augur_diag_init(&diag);
    if (!s && (augur_skel_parse(skel_text, sizeof(skel_text) - 1, "fuzz.skel", &s, &diag) != 0 ||
               augur_bound_from_csr(&csr, NULL, &b, &diag) != 0))
        abort();
    if (size > 4096)
        return 0;
    text = augur_malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    p = text;
    memset(&o, 0, sizeof(o));
    o.place = next_line(&p);
    o.probs = next_line(&p);
    o.trips = next_line(&p);
    o.max_steps = 100000;
    sched = next_line(&p);
    if (sched) {
        enum augur_sched kind = AUGUR_SCHED_COUNT;
        uint64_t chunk = UINT64_MAX;

        if (augur_sched_parse(sched, &kind, &chunk, &diag) != 0) {
            if (diag.code == 0 || diag.msg[0] == '\0' || kind != AUGUR_SCHED_COUNT ||
                chunk != UINT64_MAX)
                __builtin_trap(); /* a refusal says what and writes nothing */
            goto out;
        }
        o.sched_given = true;
        o.sched = kind;
        o.chunk = chunk;
        o.nthreads = 3;
    }
    if (augur_interp_new_bound(s, s->kernels[0], b, &o, &in, &diag) != 0) {
        if (diag.code == 0 || diag.msg[0] == '\0' || in)
            __builtin_trap(); /* a refusal must say what */
        goto out;
    }
    augur_diag_init(&diag);
    if (augur_interp_run(in, &diag) != 0 && diag.msg[0] == '\0')
        __builtin_trap();
out:
    augur_interp_free(in);
    augur_free(text);
    return 0;
}
