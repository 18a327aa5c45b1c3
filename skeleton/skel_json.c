/*
 * skel_json.c - the JSON form of a skeleton (module: skeleton).
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "skel_int.h"

static void jstr(struct augur_buf *buf, const char *s)
{
    augur_buf_putc(buf, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;

        if (c == '"' || c == '\\')
            augur_buf_printf(buf, "\\%c", c);
        else if (c == '\n')
            augur_buf_puts(buf, "\\n");
        else if (c == '\t')
            augur_buf_puts(buf, "\\t");
        else if (c < 0x20)
            augur_buf_printf(buf, "\\u%04x", c);
        else
            augur_buf_putc(buf, (char)c);
    }
    augur_buf_putc(buf, '"');
}

static void nl(struct augur_buf *buf, int depth)
{
    augur_buf_putc(buf, '\n');
    for (int i = 0; i < depth; i++)
        augur_buf_puts(buf, "  ");
}

/* Writes ,"key": with the separator handled by *first. */
static void key(struct augur_buf *buf, bool *first, int depth, const char *k)
{
    if (!*first)
        augur_buf_putc(buf, ',');
    *first = false;
    nl(buf, depth);
    jstr(buf, k);
    augur_buf_puts(buf, ": ");
}

static void jexpr(struct augur_buf *buf, const struct augur_node *k, const struct augur_expr *e)
{
    struct augur_buf tmp;

    if (!e) {
        augur_buf_puts(buf, "null");
        return;
    }
    augur_buf_init(&tmp);
    augur_expr_format(k, e, &tmp);
    jstr(buf, tmp.s);
    augur_buf_release(&tmp);
}

static void jloc(struct augur_buf *buf, const struct augur_skel *skel, struct augur_srcloc loc)
{
    if (!loc.line) {
        augur_buf_puts(buf, "null");
        return;
    }
    augur_buf_puts(buf, "{\"file\": ");
    jstr(buf, loc.file < skel->nfiles ? skel->files[loc.file] : "?");
    augur_buf_printf(buf, ", \"line\": %" PRIu32 ", \"col\": %" PRIu32 "}", loc.line, loc.col);
}

static void jnum(struct augur_buf *buf, double v)
{
    if (isfinite(v))
        augur_buf_printf(buf, "%.17g", v);
    else
        augur_buf_puts(buf, "null");
}

static void jomp(struct augur_buf *buf, const struct augur_node *k, const struct augur_omp *o,
                 int depth)
{
    bool first = true;
    struct augur_buf tmp;

    augur_buf_putc(buf, '{');
    key(buf, &first, depth + 1, "directive");
    augur_buf_init(&tmp);
    augur_skel_format_omp(k, o, &tmp);
    jstr(buf, tmp.s);
    augur_buf_release(&tmp);
    key(buf, &first, depth + 1, "parallel");
    augur_buf_puts(buf, o->flags & AUGUR_OMP_PARALLEL ? "true" : "false");
    key(buf, &first, depth + 1, "for");
    augur_buf_puts(buf, o->flags & AUGUR_OMP_FOR ? "true" : "false");
    key(buf, &first, depth + 1, "simd");
    augur_buf_puts(buf, o->flags & AUGUR_OMP_SIMD ? "true" : "false");
    key(buf, &first, depth + 1, "schedule");
    jstr(buf, augur_skel_sched_names[o->sched]);
    key(buf, &first, depth + 1, "chunk");
    jexpr(buf, k, o->chunk);
    key(buf, &first, depth + 1, "collapse");
    augur_buf_printf(buf, "%" PRIu32, o->collapse);
    key(buf, &first, depth + 1, "reductions");
    augur_buf_putc(buf, '[');
    for (uint32_t i = 0; i < o->nreductions; i++) {
        augur_buf_puts(buf, i ? ", {\"op\": " : "{\"op\": ");
        jstr(buf, o->reductions[i].op);
        augur_buf_puts(buf, ", \"var\": ");
        jstr(buf, o->reductions[i].var);
        augur_buf_putc(buf, '}');
    }
    augur_buf_putc(buf, ']');
    nl(buf, depth);
    augur_buf_putc(buf, '}');
}

static void jnode(struct augur_buf *buf, const struct augur_skel *skel, const struct augur_node *k,
                  const struct augur_node *n, int depth);

static void jkids(struct augur_buf *buf, const struct augur_skel *skel, const struct augur_node *k,
                  const struct augur_node *n, uint32_t from, uint32_t to, int depth)
{
    augur_buf_putc(buf, '[');
    for (uint32_t i = from; i < to; i++) {
        if (i > from)
            augur_buf_putc(buf, ',');
        nl(buf, depth + 1);
        jnode(buf, skel, k, n->kids[i], depth + 1);
    }
    if (to > from)
        nl(buf, depth);
    augur_buf_putc(buf, ']');
}

static void jnode(struct augur_buf *buf, const struct augur_skel *skel, const struct augur_node *k,
                  const struct augur_node *n, int depth)
{
    bool first = true;
    int d = depth + 1;

    augur_buf_putc(buf, '{');
    key(buf, &first, d, "id");
    augur_buf_printf(buf, "%" PRIu32, n->id);
    key(buf, &first, d, "kind");
    switch (n->kind) {
    case AUGUR_NODE_LOOP:
        jstr(buf, augur_skel_loop_form_names[n->u.loop.form]);
        break;
    case AUGUR_NODE_ACCESS:
        jstr(buf, augur_skel_access_mode_names[n->u.access.mode]);
        break;
    default:
        jstr(buf, augur_node_kind_name(n->kind));
    }
    key(buf, &first, d, "loc");
    jloc(buf, skel, n->loc);
    switch (n->kind) {
    case AUGUR_NODE_LOOP: {
        const struct augur_loop_info *l = &n->u.loop;

        if (l->form == AUGUR_LOOP_FOR) {
            key(buf, &first, d, "var");
            jstr(buf, k->u.kernel.syms[l->var].name);
            key(buf, &first, d, "init");
            jexpr(buf, k, l->init);
            key(buf, &first, d, "next");
            jexpr(buf, k, l->next);
        }
        key(buf, &first, d, "cond");
        jexpr(buf, k, l->cond);
        key(buf, &first, d, "parallel");
        augur_buf_puts(buf, l->parallel ? "true" : "false");
        key(buf, &first, d, "gridstride");
        augur_buf_puts(buf, l->gridstride ? "true" : "false");
        if (l->omp.flags || l->omp.sched || l->omp.collapse || l->omp.nreductions) {
            key(buf, &first, d, "omp");
            jomp(buf, k, &l->omp, d);
        }
        key(buf, &first, d, "trips");
        if (l->trips >= 0)
            jnum(buf, l->trips);
        else
            augur_buf_puts(buf, "null");
        key(buf, &first, d, "body");
        jkids(buf, skel, k, n, 0, n->nkids, d);
        break;
    }
    case AUGUR_NODE_BRANCH:
        key(buf, &first, d, "cond");
        jexpr(buf, k, n->u.branch.cond);
        key(buf, &first, d, "prob");
        if (n->u.branch.prob >= 0)
            jnum(buf, n->u.branch.prob);
        else
            augur_buf_puts(buf, "null");
        key(buf, &first, d, "then");
        jkids(buf, skel, k, n, 0, n->u.branch.nthen, d);
        key(buf, &first, d, "else");
        jkids(buf, skel, k, n, n->u.branch.nthen, n->nkids, d);
        break;
    case AUGUR_NODE_ACCESS: {
        const struct augur_access_info *a = &n->u.access;

        key(buf, &first, d, "array");
        jstr(buf, k->u.kernel.arrays[a->array].name);
        key(buf, &first, d, "type");
        jstr(buf, augur_type_name(a->type));
        key(buf, &first, d, "bytes");
        augur_buf_printf(buf, "%u", augur_type_size(a->type));
        key(buf, &first, d, "offset");
        augur_buf_printf(buf, "%" PRIu32, a->offset);
        key(buf, &first, d, "index");
        jexpr(buf, k, a->index);
        key(buf, &first, d, "value");
        jexpr(buf, k, a->value);
        key(buf, &first, d, "lanes");
        augur_buf_printf(buf, "%" PRIu32, a->lanes);
        key(buf, &first, d, "mask");
        jexpr(buf, k, a->mask);
        key(buf, &first, d, "atomic");
        augur_buf_puts(buf, a->flags & AUGUR_ACC_ATOMIC ? "true" : "false");
        key(buf, &first, d, "ldg");
        augur_buf_puts(buf, a->flags & AUGUR_ACC_LDG ? "true" : "false");
        key(buf, &first, d, "stream");
        augur_buf_puts(buf, a->flags & AUGUR_ACC_STREAM ? "true" : "false");
        key(buf, &first, d, "reuse");
        augur_buf_puts(buf, a->flags & AUGUR_ACC_REUSE ? "true" : "false");
        key(buf, &first, d, "indirect");
        augur_buf_puts(buf, a->indirect ? "true" : "false");
        key(buf, &first, d, "via");
        augur_buf_putc(buf, '[');
        for (uint32_t i = 0; i < a->nvia; i++) {
            if (i)
                augur_buf_puts(buf, ", ");
            jstr(buf, k->u.kernel.arrays[a->via[i]].name);
        }
        augur_buf_putc(buf, ']');
        break;
    }
    case AUGUR_NODE_ASSIGN:
        key(buf, &first, d, "var");
        jstr(buf, k->u.kernel.syms[n->u.assign.sym].name);
        key(buf, &first, d, "value");
        jexpr(buf, k, n->u.assign.value);
        break;
    case AUGUR_NODE_OPS:
        key(buf, &first, d, "ops");
        augur_buf_putc(buf, '[');
        for (uint32_t i = 0; i < n->u.ops.n; i++) {
            const struct augur_opcount *c = &n->u.ops.v[i];

            augur_buf_puts(buf, i ? ", {\"op\": " : "{\"op\": ");
            jstr(buf, augur_opkind_name(c->op));
            augur_buf_puts(buf, ", \"type\": ");
            jstr(buf, augur_type_name(c->type));
            augur_buf_printf(buf,
                             ", \"lanes\": %" PRIu32 ", \"masked\": %s, \"carried\": %s, "
                             "\"chains\": %" PRIu32 ", \"count\": %" PRIu64 "}",
                             c->lanes, c->masked ? "true" : "false", c->carried ? "true" : "false",
                             c->carried && c->chains > 1 ? c->chains
                             : c->carried                ? 1u
                                                         : 0u,
                             c->count);
        }
        augur_buf_putc(buf, ']');
        break;
    case AUGUR_NODE_CALL:
        key(buf, &first, d, "name");
        jstr(buf, n->u.call.name);
        break;
    case AUGUR_NODE_SYNC:
        key(buf, &first, d, "sync");
        jstr(buf, augur_skel_sync_names[n->u.sync]);
        break;
    case AUGUR_NODE_JUMP:
        key(buf, &first, d, "jump");
        jstr(buf, augur_skel_jump_names[n->u.jump]);
        break;
    case AUGUR_NODE_REGION:
        key(buf, &first, d, "region");
        jstr(buf, augur_skel_region_names[n->u.region.kind]);
        key(buf, &first, d, "omp");
        jomp(buf, k, &n->u.region.omp, d);
        key(buf, &first, d, "body");
        jkids(buf, skel, k, n, 0, n->nkids, d);
        break;
    default:
        break;
    }
    nl(buf, depth);
    augur_buf_putc(buf, '}');
}

static void jbind(struct augur_buf *buf, bool *first, int d, const char *bind,
                  enum augur_bind_src src)
{
    key(buf, first, d, "bind");
    if (bind)
        jstr(buf, bind);
    else
        augur_buf_puts(buf, "null");
    key(buf, first, d, "bind_source");
    jstr(buf, augur_skel_bind_src_names[src]);
}

static void jkernel(struct augur_buf *buf, const struct augur_skel *skel,
                    const struct augur_node *k, int depth)
{
    const struct augur_kernel_info *ki = &k->u.kernel;
    bool first = true;
    int d = depth + 1;

    augur_buf_putc(buf, '{');
    key(buf, &first, d, "id");
    augur_buf_printf(buf, "%" PRIu32, k->id);
    key(buf, &first, d, "name");
    jstr(buf, ki->name);
    key(buf, &first, d, "loc");
    jloc(buf, skel, k->loc);
    key(buf, &first, d, "cuda");
    augur_buf_puts(buf, ki->cuda ? "true" : "false");
    if (ki->template_args) {
        key(buf, &first, d, "template_args");
        jstr(buf, ki->template_args);
    }
    key(buf, &first, d, "launch");
    if (ki->grid) {
        augur_buf_puts(buf, "{\"grid\": ");
        jexpr(buf, k, ki->grid);
        augur_buf_puts(buf, ", \"block\": ");
        jexpr(buf, k, ki->block);
        augur_buf_putc(buf, '}');
    } else {
        augur_buf_puts(buf, "null");
    }
    key(buf, &first, d, "notes");
    augur_buf_putc(buf, '[');
    for (uint32_t i = 0; i < ki->nnotes; i++) {
        bool f = true;

        if (i)
            augur_buf_putc(buf, ',');
        nl(buf, d + 1);
        augur_buf_putc(buf, '{');
        key(buf, &f, d + 2, "kind");
        jstr(buf, augur_skel_note_kind_names[ki->notes[i].kind]);
        key(buf, &f, d + 2, "loc");
        jloc(buf, skel, ki->notes[i].loc);
        key(buf, &f, d + 2, "message");
        jstr(buf, ki->notes[i].msg);
        nl(buf, d + 1);
        augur_buf_putc(buf, '}');
    }
    if (ki->nnotes)
        nl(buf, d);
    augur_buf_puts(buf, "]");
    key(buf, &first, d, "syms");
    augur_buf_putc(buf, '[');
    for (uint32_t i = 0; i < ki->nsyms; i++) {
        const struct augur_sym *s = &ki->syms[i];
        bool f = true;

        if (i)
            augur_buf_putc(buf, ',');
        nl(buf, d + 1);
        augur_buf_putc(buf, '{');
        key(buf, &f, d + 2, "name");
        jstr(buf, s->name);
        key(buf, &f, d + 2, "kind");
        jstr(buf, augur_skel_sym_kind_names[s->kind]);
        key(buf, &f, d + 2, "type");
        jstr(buf, augur_type_name(s->type));
        key(buf, &f, d + 2, "loc");
        jloc(buf, skel, s->loc);
        jbind(buf, &f, d + 2, s->bind, s->bind_src);
        nl(buf, d + 1);
        augur_buf_putc(buf, '}');
    }
    if (ki->nsyms)
        nl(buf, d);
    augur_buf_putc(buf, ']');
    key(buf, &first, d, "arrays");
    augur_buf_putc(buf, '[');
    for (uint32_t i = 0; i < ki->narrays; i++) {
        const struct augur_array *a = &ki->arrays[i];
        bool f = true;

        if (i)
            augur_buf_putc(buf, ',');
        nl(buf, d + 1);
        augur_buf_putc(buf, '{');
        key(buf, &f, d + 2, "name");
        jstr(buf, a->name);
        key(buf, &f, d + 2, "elem");
        jstr(buf, augur_type_name(a->elem));
        key(buf, &f, d + 2, "elem_size");
        augur_buf_printf(buf, "%" PRIu32, a->elem_size);
        key(buf, &f, d + 2, "space");
        jstr(buf, augur_skel_space_names[a->space]);
        key(buf, &f, d + 2, "param");
        augur_buf_puts(buf, a->param ? "true" : "false");
        key(buf, &f, d + 2, "extent");
        jexpr(buf, k, a->extent);
        key(buf, &f, d + 2, "loc");
        jloc(buf, skel, a->loc);
        jbind(buf, &f, d + 2, a->bind, a->bind_src);
        nl(buf, d + 1);
        augur_buf_putc(buf, '}');
    }
    if (ki->narrays)
        nl(buf, d);
    augur_buf_putc(buf, ']');
    key(buf, &first, d, "body");
    jkids(buf, skel, k, k, 0, k->nkids, d);
    nl(buf, depth);
    augur_buf_putc(buf, '}');
}

void augur_skel_format_json(const struct augur_skel *skel, struct augur_buf *buf)
{
    augur_buf_puts(buf,
                   "{\n  \"format\": \"augur-skeleton\",\n  \"version\": 1,\n  \"sources\": [");
    for (uint32_t i = 0; i < skel->nfiles; i++) {
        if (i)
            augur_buf_puts(buf, ", ");
        jstr(buf, skel->files[i]);
    }
    augur_buf_printf(buf, "],\n  \"nodes\": %" PRIu32 ",\n  \"kernels\": [", skel->nnodes);
    for (uint32_t i = 0; i < skel->nkernels; i++) {
        if (i)
            augur_buf_putc(buf, ',');
        nl(buf, 2);
        jkernel(buf, skel, skel->kernels[i], 2);
    }
    if (skel->nkernels)
        nl(buf, 1);
    augur_buf_puts(buf, "]\n}\n");
}
