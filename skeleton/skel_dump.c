/*
 * skel_dump.c - the text form (.skel) of a skeleton: printing (module: skeleton).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "skel_int.h"

void augur_skel_format_string(const char *s, struct augur_buf *buf)
{
    augur_buf_putc(buf, '"');
    for (; *s; s++) {
        switch (*s) {
        case '"':
            augur_buf_puts(buf, "\\\"");
            break;
        case '\\':
            augur_buf_puts(buf, "\\\\");
            break;
        case '\n':
            augur_buf_puts(buf, "\\n");
            break;
        case '\t':
            augur_buf_puts(buf, "\\t");
            break;
        default:
            if ((unsigned char)*s < 0x20)
                augur_buf_printf(buf, "\\x%02x", (unsigned char)*s);
            else
                augur_buf_putc(buf, *s);
        }
    }
    augur_buf_putc(buf, '"');
}

/* A double that reads back to the same bits; always with '.' or 'e'. */
static void put_double(double v, struct augur_buf *buf)
{
    char tmp[64];

    if (isinf(v)) {
        augur_buf_puts(buf, v < 0 ? "-1e999" : "1e999");
        return;
    }
    snprintf(tmp, sizeof(tmp), "%.17g", v);
    /* Prefer the shortest form that reads back exactly. */
    for (int prec = 1; prec < 17; prec++) {
        char s[64];

        snprintf(s, sizeof(s), "%.*g", prec, v);
        if (strtod(s, NULL) == v) {
            memcpy(tmp, s, sizeof(s));
            break;
        }
    }
    augur_buf_puts(buf, tmp);
    if (!strpbrk(tmp, ".eEn"))
        augur_buf_puts(buf, ".0");
}

/* A count or probability: the shortest form that reads back, without a forced ".0". */
static void put_real(double v, struct augur_buf *buf)
{
    char s[64];

    for (int prec = 1; prec <= 17; prec++) {
        snprintf(s, sizeof(s), "%.*g", prec, v);
        if (strtod(s, NULL) == v)
            break;
    }
    augur_buf_puts(buf, s);
}

static const char *sym_name(const struct augur_node *kernel, uint32_t i)
{
    return i < kernel->u.kernel.nsyms ? kernel->u.kernel.syms[i].name : "?sym";
}

static const char *array_name(const struct augur_node *kernel, uint32_t i)
{
    return i < kernel->u.kernel.narrays ? kernel->u.kernel.arrays[i].name : "?array";
}

static int expr_prec(const struct augur_expr *e)
{
    switch (e->kind) {
    case AUGUR_EXPR_UNARY:
    case AUGUR_EXPR_CAST:
        return SKEL_PREC_UNARY;
    case AUGUR_EXPR_BINARY:
        if (e->u.bin.op == AUGUR_OP_MIN || e->u.bin.op == AUGUR_OP_MAX)
            return 16;
        return augur_skel_op_prec(e->u.bin.op);
    case AUGUR_EXPR_SELECT:
        return SKEL_PREC_SELECT;
    case AUGUR_EXPR_INT:
        return e->u.i < 0 ? SKEL_PREC_UNARY : 16;
    case AUGUR_EXPR_FP:
        return signbit(e->u.f) ? SKEL_PREC_UNARY : 16;
    default:
        return 16;
    }
}

static void put_expr(const struct augur_node *k, const struct augur_expr *e, int min_prec,
                     struct augur_buf *buf);

static void put_sub(const struct augur_node *k, const struct augur_expr *e, int min_prec,
                    struct augur_buf *buf)
{
    if (expr_prec(e) < min_prec) {
        augur_buf_putc(buf, '(');
        put_expr(k, e, 0, buf);
        augur_buf_putc(buf, ')');
    } else {
        put_expr(k, e, min_prec, buf);
    }
}

static void put_expr(const struct augur_node *k, const struct augur_expr *e, int min_prec,
                     struct augur_buf *buf)
{
    (void)min_prec;
    switch (e->kind) {
    case AUGUR_EXPR_INT:
        if (e->type == AUGUR_T_U64)
            augur_buf_printf(buf, "%" PRIu64, (uint64_t)e->u.i);
        else
            augur_buf_printf(buf, "%" PRId64, e->u.i);
        if (e->type != AUGUR_T_I32)
            augur_buf_printf(buf, "_%s", augur_type_name(e->type));
        break;
    case AUGUR_EXPR_FP:
        put_double(e->u.f, buf);
        if (e->type != AUGUR_T_F64)
            augur_buf_printf(buf, "_%s", augur_type_name(e->type));
        break;
    case AUGUR_EXPR_SYM:
        augur_buf_puts(buf, sym_name(k, e->u.sym));
        break;
    case AUGUR_EXPR_LOAD: {
        const struct augur_array *a =
            e->u.load.array < k->u.kernel.narrays ? &k->u.kernel.arrays[e->u.load.array] : NULL;

        augur_buf_puts(buf, array_name(k, e->u.load.array));
        augur_buf_putc(buf, '[');
        put_expr(k, e->u.load.index, 0, buf);
        augur_buf_putc(buf, ']');
        if (e->u.load.offset || (a && a->elem != e->type))
            augur_buf_printf(buf, "{%" PRIu32 " %s}", e->u.load.offset, augur_type_name(e->type));
        break;
    }
    case AUGUR_EXPR_UNARY:
        augur_buf_puts(buf, augur_op_name(e->u.un.op));
        put_sub(k, e->u.un.a, SKEL_PREC_UNARY, buf);
        break;
    case AUGUR_EXPR_CAST:
        augur_buf_printf(buf, "(%s)", augur_type_name(e->type));
        put_sub(k, e->u.cast.a, SKEL_PREC_UNARY, buf);
        break;
    case AUGUR_EXPR_BINARY: {
        enum augur_op op = e->u.bin.op;
        int p = augur_skel_op_prec(op);

        if (op == AUGUR_OP_MIN || op == AUGUR_OP_MAX) {
            augur_buf_printf(buf, "%s(", augur_op_name(op));
            put_expr(k, e->u.bin.a, 0, buf);
            augur_buf_puts(buf, ", ");
            put_expr(k, e->u.bin.b, 0, buf);
            augur_buf_putc(buf, ')');
            break;
        }
        put_sub(k, e->u.bin.a, p, buf);
        augur_buf_printf(buf, " %s ", augur_op_name(op));
        put_sub(k, e->u.bin.b, p + 1, buf);
        break;
    }
    case AUGUR_EXPR_SELECT:
        put_sub(k, e->u.sel.cond, SKEL_PREC_SELECT + 1, buf);
        augur_buf_puts(buf, " ? ");
        put_sub(k, e->u.sel.a, SKEL_PREC_SELECT + 1, buf);
        augur_buf_puts(buf, " : ");
        put_sub(k, e->u.sel.b, SKEL_PREC_SELECT, buf);
        break;
    case AUGUR_EXPR_OPAQUE:
        augur_buf_puts(buf, "opaque(");
        augur_skel_format_string(e->u.opaque, buf);
        if (e->type != AUGUR_T_I32)
            augur_buf_printf(buf, ", %s", augur_type_name(e->type));
        augur_buf_putc(buf, ')');
        break;
    default:
        augur_buf_puts(buf, "?");
    }
}

void augur_expr_format(const struct augur_node *kernel, const struct augur_expr *e,
                       struct augur_buf *buf)
{
    if (!e) {
        augur_buf_puts(buf, "?");
        return;
    }
    put_expr(kernel, e, 0, buf);
}

void augur_skel_format_loc(const struct augur_skel *skel, const struct augur_node *kernel,
                           struct augur_srcloc loc, struct augur_buf *buf)
{
    if (!loc.line)
        return;
    augur_buf_putc(buf, '@');
    if (!kernel || loc.file != kernel->loc.file || kernel->loc.line == 0) {
        augur_skel_format_string(loc.file < skel->nfiles ? skel->files[loc.file] : "?", buf);
        augur_buf_putc(buf, ':');
    }
    augur_buf_printf(buf, "%" PRIu32 ":%" PRIu32, loc.line, loc.col);
}

void augur_skel_format_omp(const struct augur_node *kernel, const struct augur_omp *omp,
                           struct augur_buf *buf)
{
    size_t start = buf->len;

#define WORD(s)                       \
    do {                              \
        if (buf->len > start)         \
            augur_buf_putc(buf, ' '); \
        augur_buf_puts(buf, s);       \
    } while (0)
    if (omp->flags & AUGUR_OMP_PARALLEL)
        WORD("parallel");
    if (omp->flags & AUGUR_OMP_FOR)
        WORD("for");
    if (omp->flags & AUGUR_OMP_SIMD)
        WORD("simd");
    if (omp->flags & AUGUR_OMP_NOWAIT)
        WORD("nowait");
    if (omp->sched != AUGUR_SCHED_NONE) {
        WORD("schedule(");
        augur_buf_puts(buf, augur_skel_sched_names[omp->sched]);
        if (omp->chunk) {
            augur_buf_puts(buf, ", ");
            augur_expr_format(kernel, omp->chunk, buf);
        }
        augur_buf_putc(buf, ')');
    }
    if (omp->collapse)
        augur_buf_printf(buf, "%scollapse(%" PRIu32 ")", buf->len > start ? " " : "",
                         omp->collapse);
    if (omp->num_threads) {
        WORD("num_threads(");
        augur_expr_format(kernel, omp->num_threads, buf);
        augur_buf_putc(buf, ')');
    }
    for (uint32_t i = 0; i < omp->nreductions; i++) {
        WORD("reduction(");
        augur_buf_printf(buf, "%s: %s)", omp->reductions[i].op, omp->reductions[i].var);
    }
#undef WORD
}

static void indent(struct augur_buf *buf, int depth)
{
    for (int i = 0; i < depth; i++)
        augur_buf_puts(buf, "  ");
}

static void put_bind(const char *bind, enum augur_bind_src src, struct augur_buf *buf)
{
    if (!bind)
        return;
    augur_buf_printf(buf, " bind %s (%s)", bind, augur_skel_bind_src_names[src]);
}

static void put_decls(const struct augur_skel *skel, const struct augur_node *k,
                      struct augur_buf *buf)
{
    const struct augur_kernel_info *ki = &k->u.kernel;

    for (uint32_t i = 0; i < ki->nnotes; i++) {
        indent(buf, 1);
        augur_buf_printf(buf, "note %s ", augur_skel_note_kind_names[ki->notes[i].kind]);
        if (ki->notes[i].loc.line) {
            augur_skel_format_loc(skel, k, ki->notes[i].loc, buf);
            augur_buf_putc(buf, ' ');
        }
        augur_skel_format_string(ki->notes[i].msg, buf);
        augur_buf_putc(buf, '\n');
    }
    for (uint32_t i = 0; i < ki->nsyms; i++) {
        const struct augur_sym *s = &ki->syms[i];

        indent(buf, 1);
        augur_buf_printf(buf, "%s %s %s", augur_skel_sym_kind_names[s->kind], s->name,
                         augur_type_name(s->type));
        if (s->loc.line) {
            augur_buf_putc(buf, ' ');
            augur_skel_format_loc(skel, k, s->loc, buf);
        }
        put_bind(s->bind, s->bind_src, buf);
        augur_buf_putc(buf, '\n');
    }
    for (uint32_t i = 0; i < ki->narrays; i++) {
        const struct augur_array *a = &ki->arrays[i];

        indent(buf, 1);
        augur_buf_printf(buf, "array %s ", a->name);
        if (a->elem == AUGUR_T_REC)
            augur_buf_printf(buf, "rec(%" PRIu32 ")", a->elem_size);
        else
            augur_buf_puts(buf, augur_type_name(a->elem));
        augur_buf_putc(buf, '[');
        if (a->extent)
            augur_expr_format(k, a->extent, buf);
        augur_buf_printf(buf, "] %s", augur_skel_space_names[a->space]);
        if (a->param)
            augur_buf_puts(buf, " param");
        if (a->loc.line) {
            augur_buf_putc(buf, ' ');
            augur_skel_format_loc(skel, k, a->loc, buf);
        }
        put_bind(a->bind, a->bind_src, buf);
        augur_buf_putc(buf, '\n');
    }
}

static void put_loop_attrs(const struct augur_node *k, const struct augur_loop_info *l,
                           struct augur_buf *buf)
{
    if (l->parallel)
        augur_buf_puts(buf, " parallel");
    if (l->gridstride)
        augur_buf_puts(buf, " gridstride");
    if (l->omp.flags || l->omp.sched || l->omp.collapse || l->omp.nreductions ||
        l->omp.num_threads) {
        augur_buf_puts(buf, " omp(");
        augur_skel_format_omp(k, &l->omp, buf);
        augur_buf_putc(buf, ')');
    }
    if (l->trips >= 0) {
        augur_buf_puts(buf, " trips ");
        put_real(l->trips, buf);
    }
}

/* Prints "@loc" with a leading space when the location is known. */
static void put_loc(const struct augur_skel *skel, const struct augur_node *k,
                    struct augur_srcloc loc, struct augur_buf *buf)
{
    if (!loc.line)
        return;
    augur_buf_putc(buf, ' ');
    augur_skel_format_loc(skel, k, loc, buf);
}

static void put_node(const struct augur_skel *skel, const struct augur_node *k,
                     const struct augur_node *n, int depth, struct augur_buf *buf);

static void put_kids(const struct augur_skel *skel, const struct augur_node *k,
                     const struct augur_node *n, uint32_t from, uint32_t to, int depth,
                     struct augur_buf *buf)
{
    for (uint32_t i = from; i < to; i++)
        put_node(skel, k, n->kids[i], depth, buf);
}

static void put_node(const struct augur_skel *skel, const struct augur_node *k,
                     const struct augur_node *n, int depth, struct augur_buf *buf)
{
    indent(buf, depth);
    switch (n->kind) {
    case AUGUR_NODE_LOOP: {
        const struct augur_loop_info *l = &n->u.loop;

        if (l->form == AUGUR_LOOP_FOR) {
            const struct augur_expr *nx = l->next;
            const char *v = sym_name(k, (uint32_t)l->var);

            augur_buf_printf(buf, "for %s = ", v);
            augur_expr_format(k, l->init, buf);
            augur_buf_puts(buf, "; ");
            if (l->cond)
                augur_expr_format(k, l->cond, buf);
            augur_buf_printf(buf, "; %s ", v);
            if (nx->kind == AUGUR_EXPR_BINARY &&
                (nx->u.bin.op == AUGUR_OP_ADD || nx->u.bin.op == AUGUR_OP_SUB) &&
                nx->u.bin.a->kind == AUGUR_EXPR_SYM && nx->u.bin.a->u.sym == (uint32_t)l->var &&
                nx->type == nx->u.bin.a->type) {
                augur_buf_printf(buf, "%s= ", nx->u.bin.op == AUGUR_OP_ADD ? "+" : "-");
                augur_expr_format(k, nx->u.bin.b, buf);
            } else {
                augur_buf_puts(buf, "= ");
                augur_expr_format(k, nx, buf);
            }
        } else if (l->form == AUGUR_LOOP_WHILE) {
            augur_buf_puts(buf, "while ");
            augur_expr_format(k, l->cond, buf);
        } else {
            augur_buf_puts(buf, "do");
        }
        put_loc(skel, k, n->loc, buf);
        put_loop_attrs(k, l, buf);
        augur_buf_printf(buf, "  #%" PRIu32 "\n", n->id);
        put_kids(skel, k, n, 0, n->nkids, depth + 1, buf);
        if (l->form == AUGUR_LOOP_DO) {
            indent(buf, depth);
            augur_buf_puts(buf, "while ");
            augur_expr_format(k, l->cond, buf);
            augur_buf_putc(buf, '\n');
        }
        return;
    }
    case AUGUR_NODE_BRANCH:
        augur_buf_puts(buf, "if ");
        augur_expr_format(k, n->u.branch.cond, buf);
        put_loc(skel, k, n->loc, buf);
        if (n->u.branch.prob >= 0) {
            augur_buf_puts(buf, " prob ");
            put_real(n->u.branch.prob, buf);
        }
        augur_buf_printf(buf, "  #%" PRIu32 "\n", n->id);
        put_kids(skel, k, n, 0, n->u.branch.nthen, depth + 1, buf);
        if (n->u.branch.nthen < n->nkids) {
            indent(buf, depth);
            augur_buf_puts(buf, "else\n");
            put_kids(skel, k, n, n->u.branch.nthen, n->nkids, depth + 1, buf);
        }
        return;
    case AUGUR_NODE_ACCESS: {
        const struct augur_access_info *a = &n->u.access;
        const struct augur_array *arr =
            a->array < k->u.kernel.narrays ? &k->u.kernel.arrays[a->array] : NULL;

        augur_buf_printf(buf, "%s %s[", augur_skel_access_mode_names[a->mode],
                         array_name(k, a->array));
        augur_expr_format(k, a->index, buf);
        augur_buf_putc(buf, ']');
        if (a->offset || (arr && arr->elem != a->type))
            augur_buf_printf(buf, "{%" PRIu32 " %s}", a->offset, augur_type_name(a->type));
        if (a->value) {
            augur_buf_puts(buf, " = ");
            augur_expr_format(k, a->value, buf);
        }
        put_loc(skel, k, n->loc, buf);
        if (a->lanes != 1)
            augur_buf_printf(buf, " x%" PRIu32, a->lanes);
        if (a->mask) {
            augur_buf_puts(buf, " mask(");
            augur_expr_format(k, a->mask, buf);
            augur_buf_putc(buf, ')');
        }
        if (a->flags & AUGUR_ACC_ATOMIC)
            augur_buf_puts(buf, " atomic");
        if (a->flags & AUGUR_ACC_LDG)
            augur_buf_puts(buf, " ldg");
        if (a->flags & AUGUR_ACC_STREAM)
            augur_buf_puts(buf, " stream");
        if (a->flags & AUGUR_ACC_REUSE)
            augur_buf_puts(buf, " reuse");
        if (a->indirect) {
            augur_buf_puts(buf, " indirect(");
            for (uint32_t i = 0; i < a->nvia; i++)
                augur_buf_printf(buf, "%s%s", i ? ", " : "", array_name(k, a->via[i]));
            augur_buf_putc(buf, ')');
        }
        break;
    }
    case AUGUR_NODE_ASSIGN:
        augur_buf_printf(buf, "set %s = ", sym_name(k, n->u.assign.sym));
        augur_expr_format(k, n->u.assign.value, buf);
        put_loc(skel, k, n->loc, buf);
        break;
    case AUGUR_NODE_OPS:
        augur_buf_puts(buf, "ops");
        for (uint32_t i = 0; i < n->u.ops.n; i++) {
            const struct augur_opcount *c = &n->u.ops.v[i];

            augur_buf_printf(buf, " %s.%s", augur_opkind_name(c->op), augur_type_name(c->type));
            if (c->lanes != 1)
                augur_buf_printf(buf, "x%" PRIu32, c->lanes);
            if (c->masked)
                augur_buf_puts(buf, ".m");
            if (c->carried)
                augur_buf_puts(buf, ".c");
            if (c->carried && c->chains > 1)
                augur_buf_printf(buf, "%" PRIu32, c->chains);
            augur_buf_printf(buf, "=%" PRIu64, c->count);
        }
        put_loc(skel, k, n->loc, buf);
        break;
    case AUGUR_NODE_CALL:
        augur_buf_puts(buf, "call ");
        if (augur_skel_name_is_valid(n->u.call.name))
            augur_buf_puts(buf, n->u.call.name);
        else
            augur_skel_format_string(n->u.call.name, buf);
        put_loc(skel, k, n->loc, buf);
        break;
    case AUGUR_NODE_SYNC:
        augur_buf_printf(buf, "sync %s", augur_skel_sync_names[n->u.sync]);
        put_loc(skel, k, n->loc, buf);
        break;
    case AUGUR_NODE_JUMP:
        augur_buf_puts(buf, augur_skel_jump_names[n->u.jump]);
        put_loc(skel, k, n->loc, buf);
        break;
    case AUGUR_NODE_REGION: {
        const struct augur_omp *o = &n->u.region.omp;

        augur_buf_printf(buf, "region %s", augur_skel_region_names[n->u.region.kind]);
        put_loc(skel, k, n->loc, buf);
        if (o->flags || o->sched || o->collapse || o->nreductions || o->num_threads) {
            augur_buf_puts(buf, " omp(");
            augur_skel_format_omp(k, o, buf);
            augur_buf_putc(buf, ')');
        }
        augur_buf_printf(buf, "  #%" PRIu32 "\n", n->id);
        put_kids(skel, k, n, 0, n->nkids, depth + 1, buf);
        return;
    }
    default:
        augur_buf_printf(buf, "?%s", augur_node_kind_name(n->kind));
        break;
    }
    augur_buf_printf(buf, "  #%" PRIu32 "\n", n->id);
}

void augur_skel_format(const struct augur_skel *skel, struct augur_buf *buf)
{
    augur_buf_puts(buf, "augur-skeleton 1\n");
    for (uint32_t i = 0; i < skel->nfiles; i++) {
        augur_buf_puts(buf, "source ");
        augur_skel_format_string(skel->files[i], buf);
        augur_buf_putc(buf, '\n');
    }
    for (uint32_t i = 0; i < skel->nkernels; i++) {
        const struct augur_node *k = skel->kernels[i];

        augur_buf_printf(buf, "kernel %s", k->u.kernel.name);
        if (k->loc.line) {
            augur_buf_putc(buf, ' ');
            augur_skel_format_loc(skel, NULL, k->loc, buf);
        }
        if (k->u.kernel.cuda)
            augur_buf_puts(buf, " cuda");
        if (k->u.kernel.template_args) {
            augur_buf_puts(buf, " template(");
            augur_skel_format_string(k->u.kernel.template_args, buf);
            augur_buf_putc(buf, ')');
        }
        if (k->u.kernel.grid && k->u.kernel.block) {
            augur_buf_puts(buf, " launch(");
            augur_expr_format(k, k->u.kernel.grid, buf);
            augur_buf_puts(buf, ", ");
            augur_expr_format(k, k->u.kernel.block, buf);
            augur_buf_putc(buf, ')');
        }
        augur_buf_printf(buf, "  #%" PRIu32 "\n", k->id);
        put_decls(skel, k, buf);
        put_kids(skel, k, k, 0, k->nkids, 1, buf);
    }
}

int augur_skel_dump(FILE *fp, const struct augur_skel *skel)
{
    struct augur_buf buf;
    int rc = 0;

    augur_buf_init(&buf);
    augur_skel_format(skel, &buf);
    if (fwrite(buf.s, 1, buf.len, fp) != buf.len || fflush(fp) != 0)
        rc = AUGUR_EIO;
    augur_buf_release(&buf);
    return rc;
}
