/*
 * fuzz_skel.c - libFuzzer target for the .skel text parser: every input is
 * parsed; whatever parses must print, parse again and print the same text,
 * and bind/infer must not fail on it in an unexplained way (module: skeleton).
 */
#include <stdint.h>
#include <string.h>

#include "augur/base.h"
#include "augur/skeleton.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct augur_skel *s = NULL, *s2 = NULL;
    struct augur_diag diag;
    struct augur_buf a, b, j;
    char *buf = augur_malloc(size + 1);

    memcpy(buf, data, size);
    buf[size] = '\0';
    augur_buf_init(&a);
    augur_buf_init(&b);
    augur_buf_init(&j);
    augur_diag_init(&diag);
    if (augur_skel_parse(buf, size, "fuzz.skel", &s, &diag) != 0) {
        /* A failure must say what and where. */
        if (diag.code == 0 || diag.msg[0] == '\0')
            __builtin_trap();
        goto out;
    }
    augur_skel_format(s, &a);
    augur_skel_format_json(s, &j);
    if (augur_skel_parse(a.s, a.len, "fuzz.skel", &s2, &diag) != 0)
        __builtin_trap(); /* a dump that does not read back */
    augur_skel_format(s2, &b);
    if (a.len != b.len || memcmp(a.s, b.s, a.len) != 0)
        __builtin_trap(); /* dump -> parse -> dump changed the text */
    augur_diag_init(&diag);
    if (augur_skel_infer_bindings(s, &diag) != 0 && diag.msg[0] == '\0')
        __builtin_trap();
    if (augur_skel_validate(s, &diag) != 0)
        __builtin_trap(); /* inference broke an invariant */
out:
    augur_skel_free(s);
    augur_skel_free(s2);
    augur_buf_release(&a);
    augur_buf_release(&b);
    augur_buf_release(&j);
    augur_free(buf);
    return 0;
}
