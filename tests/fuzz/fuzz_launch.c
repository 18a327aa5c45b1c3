/*
 * fuzz_launch.c - libFuzzer target for --launch GRID,BLOCK (module:
 * skeleton, frontend): augur_skel_launch_parse() reads the input; numbers it
 * accepts must print and read back the same, and anything it accepts is
 * given to the front end as the launch of a small CUDA kernel, which must
 * either set both expressions or warn that it cannot read them. Expressions
 * it sets must print to a launch that reads back to the same expressions.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/base.h"
#include "augur/frontend.h"
#include "augur/skeleton.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char source[] =
    "__global__ void k(int n, int nnz, int m, long width, const float *x,\n"
    "                  float *y)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        y[i] = 2 * x[i];\n"
    "}\n";

static void on_diag(void *ud, const struct augur_diag *d, bool error)
{
    unsigned *warnings = ud;

    (void)error;
    if (d->msg[0] == '\0')
        __builtin_trap();
    if (strstr(d->msg, "launch configuration"))
        (*warnings)++;
}

/* The kernel's launch printed as GRID,BLOCK into buf; false when there is none. */
static bool launch_of(const char *launch, struct augur_buf *buf, unsigned *warnings)
{
    static struct augur_fe *fe;
    struct augur_fe_opts fo;
    struct augur_skel *s = NULL;
    struct augur_diag diag;
    const struct augur_node *k;
    bool have;

    augur_diag_init(&diag);
    if (!fe && augur_fe_new(&fe, &diag) != 0)
        abort();
    memset(&fo, 0, sizeof(fo));
    fo.launch = launch;
    fo.on_diag = on_diag;
    fo.ud = warnings;
    if (augur_fe_parse_source(fe, "fuzz.cu", source, sizeof(source) - 1, &fo, &s, &diag) != 0)
        __builtin_trap(); /* a bad launch is a warning, not a failure */
    k = s->kernels[0];
    have = k->u.kernel.grid && k->u.kernel.block;
    if (!have != !!*warnings)
        __builtin_trap(); /* neither a launch nor a warning, or both */
    if (have) {
        augur_expr_format(k, k->u.kernel.grid, buf);
        augur_buf_puts(buf, ",");
        augur_expr_format(k, k->u.kernel.block, buf);
    }
    augur_skel_free(s);
    return have;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t grid = 7, block = 7, g2, b2;
    struct augur_buf a, b;
    unsigned w1 = 0, w2 = 0;
    char *text, num[64];
    int rc;

    if (size > 512)
        return 0;
    text = augur_malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    augur_buf_init(&a);
    augur_buf_init(&b);
    rc = augur_skel_launch_parse(text, &grid, &block);
    if (rc == -1 && (grid != 7 || block != 7))
        __builtin_trap(); /* a malformed launch set something */
    if (rc == 1 && (grid || block))
        __builtin_trap();
    if (rc == 0) {
        if (!grid || !block)
            __builtin_trap();
        snprintf(num, sizeof(num), "%" PRIu64 ",%" PRIu64, grid, block);
        if (augur_skel_launch_parse(num, &g2, &b2) != 0 || g2 != grid || b2 != block)
            __builtin_trap(); /* numbers that do not read back */
    }
    if (rc < 0 || strlen(text) != size)
        goto out;
    if (launch_of(text, &a, &w1)) {
        if (augur_skel_launch_parse(a.s, &g2, &b2) < 0)
            __builtin_trap(); /* the printed launch is not a launch */
        if (!launch_of(a.s, &b, &w2) || strcmp(a.s, b.s) != 0)
            __builtin_trap(); /* print -> read -> print changed it */
    }
out:
    augur_buf_release(&a);
    augur_buf_release(&b);
    augur_free(text);
    return 0;
}
