/*
 * interp_sched.c - the schedule a caller puts in place of the kernel's own
 * (module: interp): the OMP_SCHEDULE form read and written, and the loops it
 * replaces.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "augur/interp.h"

/* The kinds an override may name, as OMP_SCHEDULE spells them. */
static const struct {
    const char *name;
    enum augur_sched kind;
} kinds[] = {
    { "static", AUGUR_SCHED_STATIC },
    { "dynamic", AUGUR_SCHED_DYNAMIC },
    { "guided", AUGUR_SCHED_GUIDED },
    { "auto", AUGUR_SCHED_AUTO },
};

int augur_sched_parse(const char *text, enum augur_sched *kind, uint64_t *chunk,
                      struct augur_diag *diag)
{
    const char *p = text ? text : "", *comma;
    size_t n;
    int k = -1;
    uint64_t ch = 0;

    while (isspace((unsigned char)*p))
        p++;
    comma = strchr(p, ',');
    n = comma ? (size_t)(comma - p) : strlen(p);
    while (n && isspace((unsigned char)p[n - 1]))
        n--;
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (strlen(kinds[i].name) == n && strncasecmp(kinds[i].name, p, n) == 0)
            k = (int)i;
    if (k < 0 && n == 0)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "empty schedule: static, dynamic, guided or auto, with ',CHUNK' but "
                              "for auto");
    if (k < 0 && n == 7 && strncasecmp(p, "runtime", 7) == 0)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "schedule 'runtime' names no schedule: give the one to run "
                              "(static, dynamic, guided or auto)");
    if (k < 0)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "unknown schedule kind '%.*s'%s%s%s: static, dynamic, guided or "
                              "auto, with ',CHUNK' but for auto",
                              (int)(n < 64 ? n : 64), p, comma ? " in '" : "", comma ? text : "",
                              comma ? "'" : "");
    if (comma) {
        const char *c = comma + 1;
        char *end;

        while (isspace((unsigned char)*c))
            c++;
        if (kinds[k].kind == AUGUR_SCHED_AUTO)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "schedule '%s': auto takes no chunk", text);
        /* digits only: strtoull would take a sign or a hexadecimal prefix */
        if (!isdigit((unsigned char)*c))
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "schedule '%s': the chunk is not a whole number", text);
        errno = 0;
        ch = strtoull(c, &end, 10);
        while (isspace((unsigned char)*end))
            end++;
        if (*end)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "schedule '%s': the chunk is not a whole number", text);
        if (ch == 0)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "schedule '%s': the chunk must be at least 1 (leave it out "
                                  "for the kind's default)",
                                  text);
        if (errno == ERANGE || ch > AUGUR_SCHED_MAX_CHUNK)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "schedule '%s': the chunk is too large (at most %" PRIu64 ")",
                                  text, AUGUR_SCHED_MAX_CHUNK);
    }
    *kind = kinds[k].kind;
    *chunk = ch;
    return 0;
}

char *augur_sched_format(enum augur_sched kind, uint64_t chunk, char *buf, size_t size)
{
    static const char *const names[] = {
#define X(e, name) name,
        AUGUR_SCHEDS(X)
#undef X
    };
    const char *name = (unsigned)kind < AUGUR_SCHED_COUNT ? names[kind] : "?";

    if (!size)
        return buf;
    if (chunk)
        snprintf(buf, size, "%s,%" PRIu64, name, chunk);
    else
        snprintf(buf, size, "%s", name);
    return buf;
}

static uint32_t count_ws(const struct augur_node *n)
{
    const struct augur_node *kid;
    uint32_t c = n->kind == AUGUR_NODE_LOOP && (n->u.loop.omp.flags & AUGUR_OMP_FOR);

    augur_node_for_each_kid(n, kid)
        c += count_ws(kid);
    return c;
}

uint32_t augur_sched_nloops(const struct augur_node *kernel)
{
    if (!kernel || kernel->kind != AUGUR_NODE_KERNEL || kernel->u.kernel.cuda)
        return 0;
    return count_ws(kernel);
}
