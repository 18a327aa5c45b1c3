/*
 * fuzz_bind.c - libFuzzer target for binding lists (module: skeleton): the
 * text of --bind and of "#pragma augur bind(...)" applied to a CSR SpMV
 * skeleton, and scalar binding expressions (n=4*n+1) evaluated alone. The
 * first byte picks the source (command line or pragma) and the kernel
 * (named or every kernel). A failure must say what; a skeleton that takes
 * the bindings must validate, and print, parse and print the same text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "augur/base.h"
#include "augur/skeleton.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char skel_text[] = "augur-skeleton 1\n"
                                "source \"ref.c\"\n"
                                "kernel spmv @\"ref.c\":6:1  #0\n"
                                "  param nrows u32 @6:19\n"
                                "  param width i64 @6:25\n"
                                "  param alpha f64 @6:30\n"
                                "  local i u32 @9:10\n"
                                "  local j u64 @12:14\n"
                                "  array rowptr u64[] global param @6:35\n"
                                "  array col u32[] global param @6:59\n"
                                "  array val f64[] global param @6:80\n"
                                "  array x f64[] global param @7:19\n"
                                "  array y f64[] global param @7:36\n"
                                "  for i = (u32)0; i < nrows; i += 1_u32 @9:5  #1\n"
                                "    for j = rowptr[i]; j < rowptr[i + 1]; j += 1_u64 @12:9  #2\n"
                                "      load val[j] @13:20  #3\n"
                                "      load x[col[j]] @13:29 indirect(col)  #4\n"
                                "    store y[i] @14:9  #5\n";

static int value(void *ud, const char *name, int64_t *out, struct augur_diag *diag)
{
    (void)ud;
    if (!strcmp(name, "n") || !strcmp(name, "m"))
        *out = 1000;
    else if (!strcmp(name, "nnz"))
        *out = INT64_C(1) << 40;
    else
        return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0, "unknown name '%s'", name);
    return 0;
}

static void check_expr(const char *text, size_t len)
{
    struct augur_diag diag;
    int64_t v = 0, w = 1;
    int rc;

    augur_diag_init(&diag);
    rc = augur_bind_expr_eval(text, len, value, NULL, &v, &diag);
    if (rc != 0 && (diag.code == 0 || diag.msg[0] == '\0'))
        __builtin_trap();
    augur_diag_init(&diag);
    if (augur_bind_expr_eval(text, len, value, NULL, &w, &diag) != rc || (rc == 0 && v != w))
        __builtin_trap(); /* the same text, another answer */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct augur_skel *s = NULL, *back = NULL;
    struct augur_diag diag;
    struct augur_buf a, b;
    char *spec;
    unsigned mode;

    if (size == 0 || size > 2048)
        return 0;
    mode = data[0];
    spec = augur_malloc(size);
    memcpy(spec, data + 1, size - 1);
    spec[size - 1] = '\0';
    augur_buf_init(&a);
    augur_buf_init(&b);
    check_expr(spec, strlen(spec));
    augur_diag_init(&diag);
    if (augur_skel_parse(skel_text, sizeof(skel_text) - 1, "fuzz.skel", &s, &diag) != 0)
        abort();
    augur_diag_init(&diag);
    if (augur_skel_bind(s, mode & 1 ? s->kernels[0] : NULL, spec,
                        mode & 2 ? AUGUR_BIND_PRAGMA : AUGUR_BIND_CLI, &diag) != 0) {
        if (diag.code == 0 || diag.msg[0] == '\0')
            __builtin_trap(); /* a failure must say what */
        goto out;
    }
    augur_diag_init(&diag);
    if (augur_skel_validate(s, &diag) != 0)
        __builtin_trap();
    augur_skel_format(s, &a);
    if (augur_skel_parse(a.s, a.len, "fuzz.skel", &back, &diag) != 0)
        __builtin_trap(); /* a bound skeleton that does not read back */
    augur_skel_format(back, &b);
    if (a.len != b.len || memcmp(a.s, b.s, a.len) != 0)
        __builtin_trap();
    augur_diag_init(&diag);
    if (augur_skel_infer_bindings(s, &diag) != 0 && diag.msg[0] == '\0')
        __builtin_trap();
out:
    augur_skel_free(s);
    augur_skel_free(back);
    augur_buf_release(&a);
    augur_buf_release(&b);
    augur_free(spec);
    return 0;
}
