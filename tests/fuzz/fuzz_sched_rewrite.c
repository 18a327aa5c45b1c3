/*
 * fuzz_sched_rewrite.c - libFuzzer target for the copy of a kernel's file
 * that `augur measure --schedule` compiles (rt_sched_rewrite, module:
 * measure). The input's first line is "LINE COL [LOOP_LINE ...]": where the
 * kernel's definition starts and its worksharing loops' lines; the rest is
 * the file. A refusal must say what; a copy must keep the file's line count,
 * say schedule(runtime) at least once per directive rewritten, and come out
 * the same when rewritten again.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "augur/base.h"
#include "measure/measure_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t count(const char *s, size_t n, const char *what)
{
    size_t c = 0, w = strlen(what);

    for (size_t i = 0; i + w <= n; i++)
        c += memcmp(s + i, what, w) == 0;
    return c;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *nl = memchr(data, '\n', size);
    uint32_t head[18] = { 0 }, n1 = 0, n2 = 0;
    size_t nhead = 0, len;
    struct augur_buf a, b;
    struct augur_diag diag;
    const char *text, *p;
    char line[128];

    if (!nl || (size_t)(nl - (const char *)data) >= sizeof(line) || size > 8192)
        return 0;
    memcpy(line, data, (size_t)(nl - (const char *)data));
    line[nl - (const char *)data] = '\0';
    for (p = line; *p && nhead < 18;) {
        char *end;
        unsigned long v = strtoul(p, &end, 10);

        if (end == p)
            break;
        head[nhead++] = v > 1000000 ? 1000000 : (uint32_t)v;
        p = end;
    }
    if (nhead < 2)
        return 0;
    text = nl + 1;
    len = size - (size_t)(text - (const char *)data);
    augur_buf_init(&a);
    augur_buf_init(&b);
    augur_diag_init(&diag);
    if (rt_sched_rewrite("f.c", text, len, head[0], head[1], head + 2, nhead - 2, &a, &n1, &diag) !=
        0) {
        if (diag.code != AUGUR_EUNSUP || diag.msg[0] == '\0')
            __builtin_trap(); /* a refusal must say what */
        goto out;
    }
    if (n1 == 0 || count(a.s, a.len, "\n") != count(text, len, "\n") ||
        count(a.s, a.len, "schedule(runtime)") < n1)
        __builtin_trap();
    if (rt_sched_rewrite("f.c", a.s, a.len, head[0], head[1], head + 2, nhead - 2, &b, &n2,
                         &diag) != 0 ||
        n2 != n1 || b.len != a.len || memcmp(a.s, b.s, a.len) != 0)
        __builtin_trap(); /* a copy is its own copy */
out:
    augur_buf_release(&a);
    augur_buf_release(&b);
    return 0;
}
