/*
 * interp_bind.c - a kernel's arrays and scalars bound to the data a source
 * presents (augur_source: sim/'s over a dataset), which arrays the slice
 * reads, and the simulated memory layout (module: interp).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "interp_int.h"

static int bind_fail(struct augur_interp *in, int code, struct augur_srcloc loc,
                     struct augur_diag *diag, const char *fmt, ...) AUGUR_PRINTF(5, 6);

/* A binding failure at loc (in the kernel's file when loc has no line) of in's skeleton. */
static int bind_fail(struct augur_interp *in, int code, struct augur_srcloc loc,
                     struct augur_diag *diag, const char *fmt, ...)
{
    uint32_t f = loc.line ? loc.file : in->kernel->loc.file;
    const char *file = f < in->skel->nfiles ? in->skel->files[f] : NULL;
    char msg[sizeof(diag->msg)];
    va_list ap;

    /* formatted apart first: an argument may be diag->msg itself (a cause passed on) */
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return augur_diag_set(diag, code, file, loc.line, loc.col, "%s", msg);
}

/* Marks the arrays whose values an expression reads. */
static void mark_reads(struct augur_interp *in, const struct augur_expr *e)
{
    if (!e)
        return;
    switch (e->kind) {
    case AUGUR_EXPR_LOAD:
        in->ainfo[e->u.load.array].needs_data = true;
        mark_reads(in, e->u.load.index);
        break;
    case AUGUR_EXPR_UNARY:
        mark_reads(in, e->u.un.a);
        break;
    case AUGUR_EXPR_BINARY:
        mark_reads(in, e->u.bin.a);
        mark_reads(in, e->u.bin.b);
        break;
    case AUGUR_EXPR_SELECT:
        mark_reads(in, e->u.sel.cond);
        mark_reads(in, e->u.sel.a);
        mark_reads(in, e->u.sel.b);
        break;
    case AUGUR_EXPR_CAST:
        mark_reads(in, e->u.cast.a);
        break;
    default:
        break;
    }
}

static void mark_node_reads(struct augur_interp *in, const struct augur_node *n)
{
    const struct augur_node *kid;

    switch (n->kind) {
    case AUGUR_NODE_LOOP:
        mark_reads(in, n->u.loop.init);
        mark_reads(in, n->u.loop.cond);
        mark_reads(in, n->u.loop.next);
        mark_reads(in, n->u.loop.omp.chunk);
        mark_reads(in, n->u.loop.omp.num_threads);
        break;
    case AUGUR_NODE_BRANCH:
        mark_reads(in, n->u.branch.cond);
        break;
    case AUGUR_NODE_ACCESS:
        mark_reads(in, n->u.access.index);
        mark_reads(in, n->u.access.value);
        mark_reads(in, n->u.access.mask);
        break;
    case AUGUR_NODE_ASSIGN:
        mark_reads(in, n->u.assign.value);
        break;
    case AUGUR_NODE_REGION:
        mark_reads(in, n->u.region.omp.num_threads);
        break;
    default:
        break;
    }
    augur_node_for_each_kid(n, kid) {
        mark_node_reads(in, kid);
    }
}

void interp_prepare(struct augur_interp *in)
{
    const struct augur_kernel_info *k = &in->kernel->u.kernel;

    for (uint32_t i = 0; i < k->narrays; i++) {
        const struct augur_array *a = &k->arrays[i];
        struct arr_info *I = &in->ainfo[i];

        I->elem = a->elem;
        I->esize = a->elem_size ? a->elem_size : 1;
        I->target = a->bind;
        I->kind = a->space == AUGUR_SPACE_LOCAL    ? ARR_PRIVATE
                  : a->space == AUGUR_SPACE_SHARED ? ARR_SHARED
                                                   : ARR_GLOBAL;
    }
    mark_node_reads(in, in->kernel);
}

/* ---- layout -------------------------------------------------------------------------------- */

#define HEAP0          UINT64_C(0x0000000001000000) /* 16 MiB: the simulated brk heap */
#define MAP0           UINT64_C(0x00007f0000000000) /* where mmap() regions start */
#define MMAP_THRESHOLD (128u * 1024u)               /* glibc's default M_MMAP_THRESHOLD */

static uint64_t round_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) & ~(a - 1);
}

uint64_t interp_place(struct augur_interp *in, uint64_t bytes)
{
    uint64_t base;

    if (in->opts.layout == AUGUR_LAYOUT_ALIGN) {
        base = round_up(in->map_cur, in->opts.align);
        in->map_cur = round_up(base + bytes, 4096) + 4096;
        return base;
    }
    if (bytes >= MMAP_THRESHOLD) {
        /* an mmap()ed chunk: a 16-byte header at the start of fresh pages */
        base = in->map_cur + 16;
        in->map_cur = round_up(base + bytes, 4096);
        return base;
    }
    /* a heap chunk: 8 bytes of size before the data, sizes in 16-byte steps, at least 32 */
    base = in->heap_cur + 16;
    {
        uint64_t chunk = round_up(bytes + 8, 16);

        in->heap_cur += chunk < 32 ? 32 : chunk;
    }
    return base;
}

void interp_levels_for_round(struct augur_interp *in, int64_t round)
{
    const struct augur_source *src = &in->src;

    for (uint32_t i = 0; i < in->narrays; i++) {
        struct arr_info *I = &in->ainfo[i];

        if (!I->by_round || !I->data || I->aliased ||
            src->fill(src->ud, &in->kernel->u.kernel.arrays[i], I->target, in->nthreads, round,
                      I->extent < I->target_count ? I->extent : I->target_count, I->data, NULL))
            continue;
        if (I->orig)
            memcpy(I->orig, I->data, I->extent * I->esize);
    }
}

/* ---- binding a kernel -------------------------------------------------------------------------
 */

static int bind_scalars(struct augur_interp *in, struct augur_diag *diag)
{
    const struct augur_kernel_info *k = &in->kernel->u.kernel;

    in->round_sym = -1;
    for (uint32_t i = 0; i < k->nsyms; i++) {
        const struct augur_sym *s = &k->syms[i];
        double v, lo, hi;
        int rc;

        /* a parameter nothing reads (tested by an assert() alone) needs no value */
        if (s->kind != AUGUR_SYM_PARAM || (!s->bind && !augur_skel_sym_used(in->kernel, i)))
            continue;
        if (!s->bind) {
            char name[128];

            augur_skel_bind_name(s->name, name, sizeof(name));
            return bind_fail(in, AUGUR_EBIND, s->loc, diag,
                             "scalar '%s' of kernel %s is not bound: bind it with --bind %s=TARGET "
                             "(n, m, nnz, an expression such as n-1, or a number)",
                             s->name, k->name, name);
        }
        /* nthreads (alone or in an expression) is the run's: CUDA's SMs, or OpenMP's team */
        rc = in->src.scalar(in->src.ud, s->bind, in->nthreads, 0, &v, diag);
        if (rc)
            return bind_fail(in, rc, s->loc, diag, "scalar '%s': %s", s->name,
                             diag ? diag->msg : "");
        if (augur_bind_uses_round(s->bind))
            in->round_sym = (int32_t)i;
        if (augur_type_is_float(s->type)) {
            in->init_regs[i].f = s->type == AUGUR_T_F32 ? (double)(float)v : v;
            continue;
        }
        augur_type_range(s->type, &lo, &hi);
        if (v != floor(v) || v < lo || v > hi)
            return bind_fail(in, AUGUR_EBIND, s->loc, diag,
                             "scalar '%s' (%s) cannot hold %s = %.17g", s->name,
                             augur_type_name(s->type), s->bind, v);
        if (s->type == AUGUR_T_U64 && v >= 9223372036854775808.0)
            in->init_regs[i].u = (uint64_t)v;
        else
            in->init_regs[i].i = (int64_t)v;
    }
    return 0;
}

/* The address opts.place gives array name, or 0 (*rc set on a malformed list). */
static uint64_t placed_at(struct augur_interp *in, const char *name, int *rc,
                          struct augur_diag *diag)
{
    const char *p = in->opts.place;
    size_t len = strlen(name);

    while (p && *p) {
        const char *eq = strchr(p, '='), *end = strchr(p, ',');
        char *stop;
        uint64_t v;

        if (!end)
            end = p + strlen(p);
        if (!eq || eq > end || eq == p) {
            *rc = augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                 "bad placement list '%s': expected NAME=ADDRESS,...",
                                 in->opts.place);
            return 0;
        }
        errno = 0;
        v = strtoull(eq + 1, &stop, 0);
        if (errno || stop != end || v == 0 || v >= (UINT64_C(1) << 48)) {
            *rc = augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                 "bad address in placement list '%s'", in->opts.place);
            return 0;
        }
        if ((size_t)(eq - p) == len && strncmp(p, name, len) == 0)
            return v;
        p = *end ? end + 1 : end;
    }
    return 0;
}

/* Every name opts.place lists must be a global array of the kernel. */
static int check_place(struct augur_interp *in, struct augur_diag *diag)
{
    const struct augur_kernel_info *k = &in->kernel->u.kernel;
    const char *p = in->opts.place;

    while (p && *p) {
        const char *eq = strchr(p, '='), *end = strchr(p, ',');
        bool found = false;

        if (!end)
            end = p + strlen(p);
        if (!eq || eq > end)
            break; /* placed_at() reports it */
        for (uint32_t i = 0; i < k->narrays; i++)
            found |= in->ainfo[i].kind == ARR_GLOBAL &&
                     strlen(k->arrays[i].name) == (size_t)(eq - p) &&
                     strncmp(k->arrays[i].name, p, (size_t)(eq - p)) == 0;
        if (!found)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "cannot place '%.*s': no global array of that name in kernel %s",
                                  (int)(eq - p), p, k->name);
        p = *end ? end + 1 : end;
    }
    return 0;
}

int interp_bind(struct augur_interp *in, struct augur_diag *diag)
{
    const struct augur_kernel_info *k = &in->kernel->u.kernel;
    const struct augur_source *src = &in->src;
    int rc;

    in->heap_cur = HEAP0;
    in->map_cur = MAP0;
    rc = bind_scalars(in, diag);
    if (!rc)
        rc = check_place(in, diag);
    if (rc)
        return rc;
    for (uint32_t i = 0; i < k->narrays; i++) {
        const struct augur_array *a = &k->arrays[i];
        struct arr_info *I = &in->ainfo[i];
        struct augur_source_array t;
        uint64_t extent;

        if (I->kind != ARR_GLOBAL)
            continue;
        if (!a->bind) {
            char hint[200], name[128];

            augur_skel_bind_hint(in->kernel, a->name, hint, sizeof(hint));
            augur_skel_bind_name(a->name, name, sizeof(name));
            return bind_fail(in, AUGUR_EBIND, a->loc, diag,
                             "array '%s' of kernel %s is not bound to the dataset: bind it with "
                             "--bind %s=TARGET (%s) or #pragma augur bind(%s=TARGET)",
                             a->name, k->name, name, hint, name);
        }
        memset(&t, 0, sizeof(t));
        rc = src->array(src->ud, a->bind, in->nthreads, &t, diag);
        if (rc)
            return bind_fail(in, rc, a->loc, diag, "array '%s': %s", a->name,
                             diag ? diag->msg : "");
        I->target_count = t.count;
        I->is_level = t.level;
        I->by_round = t.by_round;
        extent = t.count;
        if (a->extent) {
            union augur_value v;

            rc = interp_eval(in, a->extent, in->init_regs, NULL, in->kernel->id, &v);
            if (rc)
                return bind_fail(in, AUGUR_EBIND, a->loc, diag,
                                 "the size of array '%s' cannot be computed from the scalars: %s",
                                 a->name, diag->msg);
            v = interp_convert(v, a->extent->type, AUGUR_T_I64);
            /*
             * A file-scope array (static int rowstr[NA + 2]) is storage sized for
             * the largest problem: the data fills its first elements and the
             * rest stay zero, as static storage starts. It must hold the data.
             */
            if (!a->param && v.i >= 0 && (uint64_t)v.i < t.count)
                return bind_fail(in, AUGUR_EBIND, a->loc, diag,
                                 "array '%s' is declared with %" PRId64
                                 " elements, fewer than the %" PRIu64
                                 " of '%s': the data does not fit (declare it larger)",
                                 a->name, v.i, t.count, a->bind);
            if (v.i < 0 || ((uint64_t)v.i > t.count && a->param))
                return bind_fail(in, AUGUR_EBIND, a->loc, diag,
                                 "array '%s' is declared with %" PRId64
                                 " elements but '%s' has %" PRIu64,
                                 a->name, v.i, a->bind, t.count);
            extent = (uint64_t)v.i;
        }
        if (extent > (UINT64_C(1) << 40) / I->esize)
            return bind_fail(in, AUGUR_ELIMIT, a->loc, diag,
                             "array '%s' would have %" PRIu64 " elements: more than 1 TiB", a->name,
                             extent);
        if (I->needs_data && extent > INTERP_MAX_HELD / I->esize)
            return bind_fail(in, AUGUR_ELIMIT, a->loc, diag,
                             "array '%s' would hold %" PRIu64
                             " bytes of values in the interpreter (at most %" PRIu64 ")",
                             a->name, extent * I->esize, (uint64_t)INTERP_MAX_HELD);
        I->extent = extent;
        /* an array the slice only reads, stored as the target stores it, is the target's data */
        I->aliased =
            I->needs_data && !I->written && t.stored && extent <= t.count &&
            ((t.kind == AUGUR_SOURCE_U32 && I->esize == 4 &&
              (a->elem == AUGUR_T_U32 || a->elem == AUGUR_T_I32)) ||
             (t.kind == AUGUR_SOURCE_U64 && I->esize == 8 &&
              (a->elem == AUGUR_T_U64 || a->elem == AUGUR_T_I64 || a->elem == AUGUR_T_PTR)) ||
             (t.kind == AUGUR_SOURCE_F64 && I->esize == 8 && a->elem == AUGUR_T_F64));
        if (I->needs_data && !I->aliased)
            I->data = augur_calloc(extent ? extent : 1, I->esize);
        if (I->needs_data && I->written)
            I->orig = augur_mallocarray(extent ? extent : 1, I->esize);
        /* the values are checked against the type even where they are not kept */
        rc = src->fill(src->ud, a, a->bind, in->nthreads, 0, extent < t.count ? extent : t.count,
                       I->data, diag);
        if (rc)
            return bind_fail(in, rc, a->loc, diag, "%s", diag ? diag->msg : "");
        if (I->aliased)
            I->data = (uint8_t *)(uintptr_t)t.stored; /* never written: the slice does not store */
        if (I->orig)
            memcpy(I->orig, I->data, extent * I->esize);
        rc = 0;
        I->base = placed_at(in, a->name, &rc, diag);
        if (rc)
            return rc;
        if (!I->base)
            I->base = interp_place(in, extent * I->esize);
    }
    in->layout_heap0 = in->heap_cur;
    in->layout_map0 = in->map_cur;
    return 0;
}

int interp_round_value(struct augur_interp *in, int64_t round, int64_t *out,
                       struct augur_diag *diag)
{
    const struct augur_sym *s = &in->kernel->u.kernel.syms[in->round_sym];
    double v = 0;
    int rc = in->src.scalar(in->src.ud, s->bind, in->nthreads, round, &v, diag);

    if (!rc)
        *out = (int64_t)v;
    return rc;
}
