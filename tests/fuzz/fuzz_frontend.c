/*
 * fuzz_frontend.c - libFuzzer target for the C/CUDA front end (module:
 * frontend): every input is parsed from memory as a small C file (a first
 * byte of 'C' makes it CUDA; a first line "T<list>" makes the rest CUDA
 * whose template kernels take that --template list); a failure must say
 * what, and a skeleton it builds must validate, print, parse again and
 * print the same text.
 * Nothing is written and no file is read: inputs that could include one, or
 * that use clang's debugging pragmas, are skipped.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "augur/base.h"
#include "augur/frontend.h"
#include "augur/skeleton.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void on_diag(void *ud, const struct augur_diag *d, bool error)
{
    (void)ud;
    (void)error;
    if (d->msg[0] == '\0')
        __builtin_trap(); /* a diagnostic that says nothing */
}

/* True when text, with its line splices removed, holds a word the parse must not see. */
static bool unsafe(const char *text, size_t len)
{
    static const char *const words[] = { "include", "import", "__debug" };
    char *flat = malloc(len + 1);
    size_t n = 0;
    bool bad = false;

    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\\' && i + 1 < len && (text[i + 1] == '\n' || text[i + 1] == '\r'))
            continue;
        if (text[i] == '\n' && n && flat[n - 1] == '\\')
            continue;
        flat[n++] = text[i];
    }
    flat[n] = '\0';
    for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++)
        bad |= strstr(flat, words[w]) != NULL;
    free(flat);
    return bad;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct augur_fe *fe;
    struct augur_fe_opts fo;
    struct augur_skel *s = NULL, *back = NULL;
    struct augur_diag diag;
    struct augur_buf a, b;
    const char *name = "fuzz.c";
    char templ[256];

    if (size > 4096 || unsafe((const char *)data, size))
        return 0;
    templ[0] = '\0';
    if (size && data[0] == 'T') {
        const uint8_t *nl = memchr(data, '\n', size);
        size_t n = nl ? (size_t)(nl - data) - 1 : 0;

        if (!nl || n >= sizeof(templ) || memchr(data + 1, '\0', n))
            return 0;
        memcpy(templ, data + 1, n);
        templ[n] = '\0';
        size -= (size_t)(nl - data) + 1;
        data = nl + 1;
        name = "fuzz.cu";
    } else if (size && data[0] == 'C') {
        name = "fuzz.cu";
        data++;
        size--;
    }
    augur_diag_init(&diag);
    if (!fe && augur_fe_new(&fe, &diag) != 0)
        abort();
    memset(&fo, 0, sizeof(fo));
    fo.on_diag = on_diag;
    fo.templ = templ[0] ? templ : NULL;
    augur_buf_init(&a);
    augur_buf_init(&b);
    if (augur_fe_parse_source(fe, name, (const char *)data, size, &fo, &s, &diag) != 0) {
        if (diag.code == 0 || diag.msg[0] == '\0' || s != NULL)
            __builtin_trap(); /* a failure must say what */
        goto out;
    }
    if (augur_skel_validate(s, &diag) != 0)
        __builtin_trap(); /* the front end built an invalid skeleton */
    augur_skel_format(s, &a);
    if (augur_skel_parse(a.s, a.len, "fuzz.skel", &back, &diag) != 0)
        __builtin_trap(); /* its text does not read back */
    augur_skel_format(back, &b);
    if (a.len != b.len || memcmp(a.s, b.s, a.len) != 0)
        __builtin_trap(); /* print -> parse -> print changed the text */
out:
    augur_skel_free(s);
    augur_skel_free(back);
    augur_buf_release(&a);
    augur_buf_release(&b);
    return 0;
}
