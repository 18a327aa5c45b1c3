/*
 * skel_validate.c - checks every invariant of a skeleton (module: skeleton).
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "skel_int.h"

/* Expressions deeper than this are refused (they would only come from a bug or a fuzzer). */
#define MAX_EXPR_DEPTH 256

struct check {
    const struct augur_skel *skel;
    const struct augur_node *kernel;
    struct augur_diag *diag;
    uint32_t next_id;
    int rc;
};

static int bad(struct check *c, struct augur_srcloc loc, const char *fmt, ...) AUGUR_PRINTF(3, 4);

static int bad(struct check *c, struct augur_srcloc loc, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    const char *file = loc.file < c->skel->nfiles ? c->skel->files[loc.file] : NULL;

    if (c->rc)
        return c->rc;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    augur_diag_set(c->diag, AUGUR_EINVAL, file, loc.line, loc.col, "%s%s%s", msg,
                   c->kernel ? " in kernel " : "", c->kernel ? c->kernel->u.kernel.name : "");
    c->rc = AUGUR_EINVAL;
    return c->rc;
}

static bool type_ok(enum augur_type t)
{
    return (unsigned)t < AUGUR_T_COUNT;
}

static int check_expr(struct check *c, struct augur_srcloc loc, const struct augur_expr *e,
                      int depth)
{
    const struct augur_kernel_info *k = &c->kernel->u.kernel;

    if (c->rc)
        return c->rc;
    if (!e)
        return bad(c, loc, "missing expression");
    if (depth > MAX_EXPR_DEPTH)
        return bad(c, loc, "expression nested more than %d deep", MAX_EXPR_DEPTH);
    if (!type_ok(e->type) || e->type == AUGUR_T_REC)
        return bad(c, loc, "expression of invalid type %d", (int)e->type);
    switch (e->kind) {
    case AUGUR_EXPR_INT:
        if (!augur_type_is_int(e->type))
            return bad(c, loc, "integer constant of type %s", augur_type_name(e->type));
        return 0;
    case AUGUR_EXPR_FP:
        if (!augur_type_is_float(e->type) || isnan(e->u.f))
            return bad(c, loc, "invalid floating-point constant");
        return 0;
    case AUGUR_EXPR_SYM:
        if (e->u.sym >= k->nsyms)
            return bad(c, loc, "sym %" PRIu32 " out of range", e->u.sym);
        if (e->type != k->syms[e->u.sym].type)
            return bad(c, loc, "'%s' used with type %s, declared %s", k->syms[e->u.sym].name,
                       augur_type_name(e->type), augur_type_name(k->syms[e->u.sym].type));
        return 0;
    case AUGUR_EXPR_LOAD: {
        const struct augur_array *a;

        if (e->u.load.array >= k->narrays)
            return bad(c, loc, "array %" PRIu32 " out of range", e->u.load.array);
        a = &k->arrays[e->u.load.array];
        if (e->type == AUGUR_T_VOID ||
            (uint64_t)e->u.load.offset + augur_type_size(e->type) > a->elem_size)
            return bad(c, loc,
                       "load of %s at offset %" PRIu32 " does not fit in an element of '%s'",
                       augur_type_name(e->type), e->u.load.offset, a->name);
        return check_expr(c, loc, e->u.load.index, depth + 1);
    }
    case AUGUR_EXPR_UNARY:
        if (!augur_op_is_unary(e->u.un.op))
            return bad(c, loc, "'%s' is not a unary operator", augur_op_name(e->u.un.op));
        return check_expr(c, loc, e->u.un.a, depth + 1);
    case AUGUR_EXPR_BINARY:
        if ((unsigned)e->u.bin.op >= AUGUR_OP_COUNT || augur_op_is_unary(e->u.bin.op))
            return bad(c, loc, "'%s' is not a binary operator", augur_op_name(e->u.bin.op));
        return check_expr(c, loc, e->u.bin.a, depth + 1) ||
               check_expr(c, loc, e->u.bin.b, depth + 1);
    case AUGUR_EXPR_SELECT:
        return check_expr(c, loc, e->u.sel.cond, depth + 1) ||
               check_expr(c, loc, e->u.sel.a, depth + 1) ||
               check_expr(c, loc, e->u.sel.b, depth + 1);
    case AUGUR_EXPR_CAST:
        return check_expr(c, loc, e->u.cast.a, depth + 1);
    case AUGUR_EXPR_OPAQUE:
        if (!e->u.opaque)
            return bad(c, loc, "opaque value without a description");
        return 0;
    default:
        return bad(c, loc, "unknown expression kind %d", (int)e->kind);
    }
}

static int check_omp(struct check *c, struct augur_srcloc loc, const struct augur_omp *o)
{
    if ((unsigned)o->sched >= AUGUR_SCHED_COUNT)
        return bad(c, loc, "unknown schedule");
    if (o->chunk && (o->sched == AUGUR_SCHED_NONE || check_expr(c, loc, o->chunk, 0)))
        return bad(c, loc, "chunk without a schedule");
    if (o->num_threads && check_expr(c, loc, o->num_threads, 0))
        return c->rc;
    if (o->nreductions && !o->reductions)
        return bad(c, loc, "missing reductions");
    for (uint32_t i = 0; i < o->nreductions; i++)
        if (!o->reductions[i].op || !o->reductions[i].var)
            return bad(c, loc, "incomplete reduction");
    return 0;
}

static bool in_loop(const struct augur_node *n)
{
    for (n = n->parent; n && n->kind != AUGUR_NODE_KERNEL; n = n->parent)
        if (n->kind == AUGUR_NODE_LOOP)
            return true;
    return false;
}

static int check_node(struct check *c, const struct augur_node *n, int depth);

static int check_kernel(struct check *c, const struct augur_node *n)
{
    const struct augur_kernel_info *k = &n->u.kernel;

    if (!k->name || !augur_skel_kernel_name_is_valid(k->name))
        return bad(c, n->loc, "invalid kernel name");
    if ((k->nsyms && !k->syms) || (k->narrays && !k->arrays) || (k->nnotes && !k->notes))
        return bad(c, n->loc, "missing declarations");
    for (uint32_t i = 0; i < k->nsyms; i++) {
        const struct augur_sym *s = &k->syms[i];

        if (!s->name || !augur_skel_name_is_valid(s->name))
            return bad(c, s->loc, "invalid name '%s'", s->name ? s->name : "");
        if ((unsigned)s->kind >= AUGUR_SYM_KIND_COUNT || !type_ok(s->type) ||
            s->type == AUGUR_T_VOID || s->type == AUGUR_T_REC)
            return bad(c, s->loc, "invalid declaration of '%s'", s->name);
        if (s->kind == AUGUR_SYM_BUILTIN && !augur_skel_builtin_is_known(s->name))
            return bad(c, s->loc, "unknown builtin '%s'", s->name);
        if ((s->bind != NULL) != (s->bind_src != AUGUR_BIND_NONE) ||
            (unsigned)s->bind_src >= AUGUR_BIND_SRC_COUNT ||
            (s->bind && !augur_bind_is_scalar_target(s->bind)))
            return bad(c, s->loc, "invalid binding of '%s'", s->name);
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(k->syms[j].name, s->name) == 0)
                return bad(c, s->loc, "'%s' is declared twice", s->name);
    }
    for (uint32_t i = 0; i < k->narrays; i++) {
        const struct augur_array *a = &k->arrays[i];

        if (!a->name || !augur_skel_name_is_valid(a->name))
            return bad(c, a->loc, "invalid array name '%s'", a->name ? a->name : "");
        if (!type_ok(a->elem) || a->elem == AUGUR_T_VOID || a->elem_size == 0 ||
            (a->elem != AUGUR_T_REC && a->elem_size != augur_type_size(a->elem)) ||
            (unsigned)a->space >= AUGUR_SPACE_COUNT)
            return bad(c, a->loc, "invalid declaration of array '%s'", a->name);
        if ((a->bind != NULL) != (a->bind_src != AUGUR_BIND_NONE) ||
            (unsigned)a->bind_src >= AUGUR_BIND_SRC_COUNT ||
            (a->bind && !augur_bind_is_array_target(a->bind)))
            return bad(c, a->loc, "invalid binding of array '%s'", a->name);
        for (uint32_t j = 0; j < k->nsyms; j++)
            if (strcmp(k->syms[j].name, a->name) == 0)
                return bad(c, a->loc, "'%s' is both a scalar and an array", a->name);
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(k->arrays[j].name, a->name) == 0)
                return bad(c, a->loc, "array '%s' is declared twice", a->name);
        if (a->extent && check_expr(c, a->loc, a->extent, 0))
            return c->rc;
    }
    for (uint32_t i = 0; i < k->nnotes; i++)
        if (!k->notes[i].msg || (unsigned)k->notes[i].kind >= AUGUR_NOTE_KIND_COUNT)
            return bad(c, k->notes[i].loc, "invalid note");
    if ((k->grid == NULL) != (k->block == NULL))
        return bad(c, n->loc, "a launch needs both the grid and the block size");
    if (k->grid && (check_expr(c, n->loc, k->grid, 0) || check_expr(c, n->loc, k->block, 0)))
        return c->rc;
    return 0;
}

static int check_node(struct check *c, const struct augur_node *n, int depth)
{
    const struct augur_kernel_info *k = &c->kernel->u.kernel;

    if (c->rc)
        return c->rc;
    if (depth > 4096)
        return bad(c, n->loc, "nodes nested too deeply");
    if (n->id != c->next_id || n->id >= c->skel->nnodes || c->skel->nodes[n->id] != n)
        return bad(c, n->loc,
                   "node ids are not dense pre-order (found %" PRIu32 ", expected %" PRIu32 ")",
                   n->id, c->next_id);
    c->next_id++;
    if (n->loc.line && n->loc.file >= c->skel->nfiles)
        return bad(c, n->loc, "file index %" PRIu32 " out of range", n->loc.file);
    if (n->nkids && !n->kids)
        return bad(c, n->loc, "missing kids");
    if ((unsigned)n->kind >= AUGUR_NODE_KIND_COUNT)
        return bad(c, n->loc, "unknown node kind %d", (int)n->kind);
    switch (n->kind) {
    case AUGUR_NODE_KERNEL:
        if (n->parent || depth)
            return bad(c, n->loc, "a kernel inside another node");
        if (check_kernel(c, n))
            return c->rc;
        break;
    case AUGUR_NODE_LOOP: {
        const struct augur_loop_info *l = &n->u.loop;

        if (l->form == AUGUR_LOOP_FOR) {
            if (l->var < 0 || (uint32_t)l->var >= k->nsyms ||
                k->syms[l->var].kind != AUGUR_SYM_LOCAL)
                return bad(c, n->loc, "a for loop needs a local loop variable");
            if (check_expr(c, n->loc, l->init, 0) || check_expr(c, n->loc, l->next, 0))
                return c->rc;
            if (l->cond && check_expr(c, n->loc, l->cond, 0))
                return c->rc;
        } else if (l->form == AUGUR_LOOP_WHILE || l->form == AUGUR_LOOP_DO) {
            if (l->var != -1 || l->init || l->next)
                return bad(c, n->loc, "a while loop has no loop variable");
            if (check_expr(c, n->loc, l->cond, 0))
                return c->rc;
        } else {
            return bad(c, n->loc, "unknown loop form");
        }
        if (!(l->trips >= 0 || l->trips == -1) || isinf(l->trips))
            return bad(c, n->loc, "invalid trip count");
        if (check_omp(c, n->loc, &l->omp))
            return c->rc;
        break;
    }
    case AUGUR_NODE_BRANCH:
        if (check_expr(c, n->loc, n->u.branch.cond, 0))
            return c->rc;
        if (n->u.branch.nthen > n->nkids)
            return bad(c, n->loc, "branch with %" PRIu32 " then-kids of %" PRIu32,
                       n->u.branch.nthen, n->nkids);
        if (!(n->u.branch.prob == -1 || (n->u.branch.prob >= 0 && n->u.branch.prob <= 1)))
            return bad(c, n->loc, "invalid probability");
        break;
    case AUGUR_NODE_ACCESS: {
        const struct augur_access_info *a = &n->u.access;

        if (a->array >= k->narrays)
            return bad(c, n->loc, "array %" PRIu32 " out of range", a->array);
        if ((unsigned)a->mode > AUGUR_ACCESS_RMW || !type_ok(a->type) || a->type == AUGUR_T_VOID ||
            a->type == AUGUR_T_REC || a->lanes < 1 ||
            (uint64_t)a->offset + augur_type_size(a->type) > k->arrays[a->array].elem_size)
            return bad(c, n->loc, "invalid access to '%s'", k->arrays[a->array].name);
        if (check_expr(c, n->loc, a->index, 0))
            return c->rc;
        if (a->value && (a->mode == AUGUR_ACCESS_READ || check_expr(c, n->loc, a->value, 0)))
            return bad(c, n->loc, "a load with a stored value");
        if (a->mask && check_expr(c, n->loc, a->mask, 0))
            return c->rc;
        if (a->indirect != (a->nvia > 0) || (a->nvia && !a->via))
            return bad(c, n->loc, "indirect access without the arrays it goes through");
        for (uint32_t i = 0; i < a->nvia; i++)
            if (a->via[i] >= k->narrays)
                return bad(c, n->loc, "array %" PRIu32 " out of range", a->via[i]);
        break;
    }
    case AUGUR_NODE_ASSIGN:
        if (n->u.assign.sym >= k->nsyms || k->syms[n->u.assign.sym].kind != AUGUR_SYM_LOCAL)
            return bad(c, n->loc, "only locals can be set");
        if (check_expr(c, n->loc, n->u.assign.value, 0))
            return c->rc;
        break;
    case AUGUR_NODE_OPS:
        if (n->u.ops.n && !n->u.ops.v)
            return bad(c, n->loc, "missing operation counts");
        for (uint32_t i = 0; i < n->u.ops.n; i++) {
            const struct augur_opcount *o = &n->u.ops.v[i];

            if ((unsigned)o->op >= AUGUR_OPK_COUNT || !type_ok(o->type) || o->lanes < 1 ||
                o->count == 0)
                return bad(c, n->loc, "invalid operation count");
            if (i && augur_skel_opcount_order(&o[-1], o) >= 0)
                return bad(c, n->loc, "operation counts are not sorted");
        }
        break;
    case AUGUR_NODE_CALL:
        if (!n->u.call.name)
            return bad(c, n->loc, "call without a name");
        break;
    case AUGUR_NODE_SYNC:
        if ((unsigned)n->u.sync > AUGUR_SYNC_FENCE)
            return bad(c, n->loc, "unknown sync kind");
        break;
    case AUGUR_NODE_JUMP:
        if ((unsigned)n->u.jump > AUGUR_JUMP_RETURN)
            return bad(c, n->loc, "unknown jump");
        if (n->u.jump != AUGUR_JUMP_RETURN && !in_loop(n))
            return bad(c, n->loc, "'%s' outside a loop", augur_skel_jump_names[n->u.jump]);
        break;
    case AUGUR_NODE_REGION:
        if ((unsigned)n->u.region.kind > AUGUR_REGION_SINGLE)
            return bad(c, n->loc, "unknown region kind");
        if (check_omp(c, n->loc, &n->u.region.omp))
            return c->rc;
        break;
    default:
        break;
    }
    switch (n->kind) {
    case AUGUR_NODE_ACCESS:
    case AUGUR_NODE_ASSIGN:
    case AUGUR_NODE_OPS:
    case AUGUR_NODE_CALL:
    case AUGUR_NODE_SYNC:
    case AUGUR_NODE_JUMP:
        if (n->nkids)
            return bad(c, n->loc, "a %s node with kids", augur_node_kind_name(n->kind));
        return 0;
    default:
        break;
    }
    for (uint32_t i = 0; i < n->nkids; i++) {
        if (!n->kids[i] || n->kids[i]->parent != n)
            return bad(c, n->loc, "broken parent link");
        if (check_node(c, n->kids[i], depth + 1))
            return c->rc;
    }
    return 0;
}

int augur_skel_validate(const struct augur_skel *skel, struct augur_diag *diag)
{
    struct check c = { skel, NULL, diag, 0, 0 };

    if ((skel->nkernels && !skel->kernels) || (skel->nnodes && !skel->nodes) ||
        (skel->nfiles && !skel->files))
        return bad(&c, (struct augur_srcloc){ 0, 0, 0 }, "incomplete skeleton");
    for (uint32_t i = 0; i < skel->nfiles; i++)
        if (!skel->files[i])
            return bad(&c, (struct augur_srcloc){ 0, 0, 0 }, "missing file name");
    for (uint32_t i = 0; i < skel->nkernels; i++) {
        c.kernel = skel->kernels[i];
        if (!c.kernel || c.kernel->kind != AUGUR_NODE_KERNEL) {
            c.kernel = NULL;
            return bad(&c, (struct augur_srcloc){ 0, 0, 0 }, "kernel %" PRIu32 " is not a kernel",
                       i);
        }
        for (uint32_t j = 0; j < i; j++)
            if (c.kernel->u.kernel.name &&
                strcmp(skel->kernels[j]->u.kernel.name, c.kernel->u.kernel.name) == 0)
                return bad(&c, c.kernel->loc, "kernel '%s' appears twice", c.kernel->u.kernel.name);
        if (check_node(&c, c.kernel, 0))
            return c.rc;
    }
    c.kernel = NULL;
    if (c.next_id != skel->nnodes)
        return bad(&c, (struct augur_srcloc){ 0, 0, 0 },
                   "%" PRIu32 " nodes listed, %" PRIu32 " reachable", skel->nnodes, c.next_id);
    return 0;
}
