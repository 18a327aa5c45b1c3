/*
 * fe_slice.c - the address and control-flow slice of a first-pass kernel,
 * indirect accesses, grid-stride loops (module: frontend).
 */
#include <stdlib.h>
#include <string.h>

#include "fe_int.h"

bool fe_slice_has_decl(const struct fe_slice *s, CXCursor decl)
{
    if (!s)
        return true;
    for (size_t i = 0; i < s->decls.n; i++)
        if (clang_equalCursors(s->decls.v[i], decl))
            return true;
    return false;
}

bool fe_slice_has_array(const struct fe_slice *s, const char *name)
{
    if (!s)
        return true;
    for (size_t i = 0; i < s->narrays; i++)
        if (augur_skel_name_is(s->arrays[i], name))
            return true;
    return false;
}

bool fe_slice_accesses(const struct fe_slice *s, const char *name)
{
    if (!s)
        return true;
    for (size_t i = 0; i < s->naccessed; i++)
        if (augur_skel_name_is(s->accessed[i], name))
            return true;
    return false;
}

void fe_slice_release(struct fe_slice *s)
{
    fe_cursors_release(&s->decls);
    fe_cursors_release(&s->written_params);
    fe_cursors_release(&s->params);
    for (size_t i = 0; i < s->narrays; i++)
        augur_free(s->arrays[i]);
    augur_free(s->arrays);
    for (size_t i = 0; i < s->naccessed; i++)
        augur_free(s->accessed[i]);
    augur_free(s->accessed);
    s->arrays = NULL;
    s->narrays = 0;
    s->accessed = NULL;
    s->naccessed = 0;
}

/* Marks the arrays that accesses and loads name. */
static void accessed(const struct augur_node *n, bool *used)
{
    if (n->kind == AUGUR_NODE_ACCESS)
        used[n->u.access.array] = true;
    for (uint32_t i = 0; i < n->nkids; i++)
        accessed(n->kids[i], used);
}

struct marks {
    bool *syms, *arrays;
    bool changed;
};

static void mark(struct marks *m, const struct augur_expr *e)
{
    if (!e)
        return;
    switch (e->kind) {
    case AUGUR_EXPR_SYM:
        if (!m->syms[e->u.sym])
            m->syms[e->u.sym] = m->changed = true;
        break;
    case AUGUR_EXPR_LOAD:
        if (!m->arrays[e->u.load.array])
            m->arrays[e->u.load.array] = m->changed = true;
        mark(m, e->u.load.index);
        break;
    case AUGUR_EXPR_UNARY:
        mark(m, e->u.un.a);
        break;
    case AUGUR_EXPR_BINARY:
        mark(m, e->u.bin.a);
        mark(m, e->u.bin.b);
        break;
    case AUGUR_EXPR_SELECT:
        mark(m, e->u.sel.cond);
        mark(m, e->u.sel.a);
        mark(m, e->u.sel.b);
        break;
    case AUGUR_EXPR_CAST:
        mark(m, e->u.cast.a);
        break;
    default:
        break;
    }
}

/* Roots: everything that decides control flow or an address. */
static void roots(struct marks *m, const struct augur_node *n)
{
    switch (n->kind) {
    case AUGUR_NODE_LOOP:
        mark(m, n->u.loop.init);
        mark(m, n->u.loop.cond);
        mark(m, n->u.loop.next);
        mark(m, n->u.loop.omp.chunk);
        mark(m, n->u.loop.omp.num_threads);
        if (n->u.loop.var >= 0)
            m->syms[n->u.loop.var] = true;
        break;
    case AUGUR_NODE_BRANCH:
        mark(m, n->u.branch.cond);
        break;
    case AUGUR_NODE_ACCESS:
        mark(m, n->u.access.index);
        mark(m, n->u.access.mask);
        break;
    case AUGUR_NODE_REGION:
        mark(m, n->u.region.omp.num_threads);
        break;
    default:
        break;
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        roots(m, n->kids[i]);
}

/* Values that feed the slice: assignments to its scalars, stores into arrays it reads. */
static void feed(struct marks *m, const struct augur_node *n)
{
    if (n->kind == AUGUR_NODE_ASSIGN && m->syms[n->u.assign.sym])
        mark(m, n->u.assign.value);
    if (n->kind == AUGUR_NODE_ACCESS && n->u.access.value && m->arrays[n->u.access.array])
        mark(m, n->u.access.value);
    for (uint32_t i = 0; i < n->nkids; i++)
        feed(m, n->kids[i]);
}

static void written(const struct augur_node *n, bool *w)
{
    if (n->kind == AUGUR_NODE_ASSIGN)
        w[n->u.assign.sym] = true;
    if (n->kind == AUGUR_NODE_LOOP && n->u.loop.var >= 0)
        w[n->u.loop.var] = true;
    for (uint32_t i = 0; i < n->nkids; i++)
        written(n->kids[i], w);
}

void fe_slice_compute(struct fe_conv *cv, const struct augur_node *kernel, struct fe_slice *out)
{
    const struct augur_kernel_info *k;
    struct marks m;
    bool *w, *used_arrays;

    memset(out, 0, sizeof(*out));
    if (!kernel)
        return;
    k = &kernel->u.kernel;
    m.syms = augur_calloc(k->nsyms + 1, sizeof(bool));
    m.arrays = augur_calloc(k->narrays + 1, sizeof(bool));
    w = augur_calloc(k->nsyms + 1, sizeof(bool));
    for (uint32_t a = 0; a < k->narrays; a++)
        mark(&m, k->arrays[a].extent);
    roots(&m, kernel);
    mark(&m, k->grid);
    mark(&m, k->block);
    for (int round = 0; round < 64; round++) {
        m.changed = false;
        feed(&m, kernel);
        if (!m.changed)
            break;
    }
    written(kernel, w);
    used_arrays = augur_calloc(k->narrays + 1, sizeof(bool));
    accessed(kernel, used_arrays);
    for (uint32_t s = 0; s < k->nsyms && s < cv->sym_decls.n; s++) {
        CXCursor d = cv->sym_decls.v[s];

        if (clang_Cursor_isNull(d))
            continue;
        if (m.syms[s])
            fe_cursors_push(&out->decls, d);
        if (k->syms[s].kind == AUGUR_SYM_PARAM && w[s] &&
            clang_getCursorKind(d) == CXCursor_ParmDecl)
            fe_cursors_push(&out->written_params, d);
        if (k->syms[s].kind == AUGUR_SYM_PARAM && m.syms[s] &&
            clang_getCursorKind(d) == CXCursor_ParmDecl)
            fe_cursors_push(&out->params, d);
    }
    for (size_t i = 0; i < cv->vars.len; i++) {
        const struct fe_var *v = &AUGUR_VEC_AT(&cv->vars, struct fe_var, i);

        if (v->kind == FV_ARRAY && clang_getCursorKind(v->decl) == CXCursor_ParmDecl &&
            clang_equalCursors(clang_getCursorSemanticParent(v->decl), cv->func) && v->array >= 0 &&
            (uint32_t)v->array < k->narrays && used_arrays[v->array])
            fe_cursors_push(&out->params, v->decl);
    }
    out->arrays = augur_calloc(k->narrays + 1, sizeof(char *));
    for (uint32_t a = 0; a < k->narrays; a++)
        if (m.arrays[a])
            out->arrays[out->narrays++] = augur_strdup(k->arrays[a].name);
    memset(m.arrays, 0, (k->narrays + 1) * sizeof(bool));
    accessed(kernel, m.arrays);
    out->accessed = augur_calloc(k->narrays + 1, sizeof(char *));
    for (uint32_t a = 0; a < k->narrays; a++)
        if (m.arrays[a] || k->arrays[a].space != AUGUR_SPACE_GLOBAL)
            out->accessed[out->naccessed++] = augur_strdup(k->arrays[a].name);
    augur_free(m.syms);
    augur_free(m.arrays);
    augur_free(w);
    augur_free(used_arrays);
}

/* ---- indirect accesses ------------------------------------------------------------------ */

struct taint {
    uint32_t nsyms, narrays;
    bool *t;       /* nsyms x narrays: sym s carries values loaded from array a */
    bool *stepped; /* per sym: it is an induction variable (s = s + step) */
    bool changed;
};

/* Adds to row (an array set) the arrays e loads from, directly or through tainted syms. */
static void collect(struct taint *tt, const struct augur_expr *e, bool *row, int32_t skip)
{
    if (!e)
        return;
    switch (e->kind) {
    case AUGUR_EXPR_SYM:
        if ((int32_t)e->u.sym == skip)
            break;
        for (uint32_t a = 0; a < tt->narrays; a++)
            if (tt->t[(size_t)e->u.sym * tt->narrays + a] && !row[a])
                row[a] = tt->changed = true;
        break;
    case AUGUR_EXPR_LOAD:
        if (!row[e->u.load.array])
            row[e->u.load.array] = tt->changed = true;
        collect(tt, e->u.load.index, row, skip);
        break;
    case AUGUR_EXPR_UNARY:
        collect(tt, e->u.un.a, row, skip);
        break;
    case AUGUR_EXPR_BINARY:
        collect(tt, e->u.bin.a, row, skip);
        collect(tt, e->u.bin.b, row, skip);
        break;
    case AUGUR_EXPR_SELECT:
        collect(tt, e->u.sel.cond, row, skip);
        collect(tt, e->u.sel.a, row, skip);
        collect(tt, e->u.sel.b, row, skip);
        break;
    case AUGUR_EXPR_CAST:
        collect(tt, e->u.cast.a, row, skip);
        break;
    default:
        break;
    }
}

/* True when e is s + x or s - x with no load in x: a step of an induction variable. */
static bool is_step(const struct augur_expr *e, uint32_t s)
{
    while (e && e->kind == AUGUR_EXPR_CAST)
        e = e->u.cast.a;
    if (!e || e->kind != AUGUR_EXPR_BINARY ||
        (e->u.bin.op != AUGUR_OP_ADD && e->u.bin.op != AUGUR_OP_SUB))
        return false;
    {
        const struct augur_expr *a = e->u.bin.a;

        while (a && a->kind == AUGUR_EXPR_CAST)
            a = a->u.cast.a;
        return a && a->kind == AUGUR_EXPR_SYM && a->u.sym == s &&
               !augur_expr_uses_sym(e->u.bin.b, s);
    }
}

static void find_steps(const struct augur_node *n, bool *stepped)
{
    if (n->kind == AUGUR_NODE_ASSIGN && is_step(n->u.assign.value, n->u.assign.sym))
        stepped[n->u.assign.sym] = true;
    for (uint32_t i = 0; i < n->nkids; i++)
        find_steps(n->kids[i], stepped);
}

static void spread(struct taint *tt, const struct augur_node *n)
{
    /*
     * An induction variable (k = start; ...; k++) is regular like a for loop's variable: the
     * value it starts from does not make the accesses it indexes indirect.
     */
    if (n->kind == AUGUR_NODE_ASSIGN &&
        !(tt->stepped[n->u.assign.sym] && !augur_expr_uses_sym(n->u.assign.value, n->u.assign.sym)))
        collect(tt, n->u.assign.value, tt->t + (size_t)n->u.assign.sym * tt->narrays,
                tt->stepped[n->u.assign.sym] ? (int32_t)n->u.assign.sym : -1);
    /* A loop variable is regular in its loop unless its step loads (v = next[v]). */
    if (n->kind == AUGUR_NODE_LOOP && n->u.loop.var >= 0)
        collect(tt, n->u.loop.next, tt->t + (size_t)n->u.loop.var * tt->narrays, n->u.loop.var);
    for (uint32_t i = 0; i < n->nkids; i++)
        spread(tt, n->kids[i]);
}

static void set_via(struct augur_skel *skel, struct taint *tt, struct augur_node *n, bool *row)
{
    if (n->kind == AUGUR_NODE_ACCESS) {
        uint32_t nv = 0, *via;

        memset(row, 0, tt->narrays * sizeof(bool));
        collect(tt, n->u.access.index, row, -1);
        for (uint32_t a = 0; a < tt->narrays; a++)
            nv += row[a];
        via = nv ? augur_arena_alloc(&skel->arena, nv * sizeof(*via)) : NULL;
        nv = 0;
        for (uint32_t a = 0; a < tt->narrays; a++)
            if (row[a])
                via[nv++] = a;
        n->u.access.via = via;
        n->u.access.nvia = nv;
        n->u.access.indirect = nv > 0;
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        set_via(skel, tt, n->kids[i], row);
}

void fe_mark_indirect(struct augur_skel *skel, struct augur_node *kernel)
{
    const struct augur_kernel_info *k = &kernel->u.kernel;
    struct taint tt;
    bool *row;

    tt.nsyms = k->nsyms;
    tt.narrays = k->narrays;
    tt.t = augur_calloc((size_t)k->nsyms * k->narrays + 1, sizeof(bool));
    tt.stepped = augur_calloc(k->nsyms + 1, sizeof(bool));
    find_steps(kernel, tt.stepped);
    row = augur_calloc(k->narrays + 1, sizeof(bool));
    for (int round = 0; round < 64; round++) {
        tt.changed = false;
        spread(&tt, kernel);
        if (!tt.changed)
            break;
    }
    set_via(skel, &tt, kernel, row);
    augur_free(tt.t);
    augur_free(tt.stepped);
    augur_free(row);
}

/* ---- grid-stride loops ---------------------------------------------------------------------- */

/* The single value assigned to each sym (NULL when none or several). */
static void single_values(const struct augur_node *n, const struct augur_expr **val,
                          uint32_t *count)
{
    if (n->kind == AUGUR_NODE_ASSIGN) {
        count[n->u.assign.sym]++;
        val[n->u.assign.sym] = n->u.assign.value;
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        single_values(n->kids[i], val, count);
}

/* True when e uses a builtin whose name starts with prefix (through single-assigned syms). */
static bool uses_builtin(const struct augur_kernel_info *k, const struct augur_expr *e,
                         const char *prefix, const struct augur_expr **val, const uint32_t *count,
                         int depth)
{
    if (!e || depth > 32)
        return false;
    switch (e->kind) {
    case AUGUR_EXPR_SYM: {
        const struct augur_sym *s = &k->syms[e->u.sym];

        if (s->kind == AUGUR_SYM_BUILTIN)
            return strncmp(s->name, prefix, strlen(prefix)) == 0;
        if (count[e->u.sym] == 1)
            return uses_builtin(k, val[e->u.sym], prefix, val, count, depth + 1);
        return false;
    }
    case AUGUR_EXPR_LOAD:
        return false;
    case AUGUR_EXPR_UNARY:
        return uses_builtin(k, e->u.un.a, prefix, val, count, depth + 1);
    case AUGUR_EXPR_BINARY:
        return uses_builtin(k, e->u.bin.a, prefix, val, count, depth + 1) ||
               uses_builtin(k, e->u.bin.b, prefix, val, count, depth + 1);
    case AUGUR_EXPR_CAST:
        return uses_builtin(k, e->u.cast.a, prefix, val, count, depth + 1);
    default:
        return false;
    }
}

static void mark_grid(const struct augur_kernel_info *k, struct augur_node *n,
                      const struct augur_expr **val, const uint32_t *count)
{
    if (n->kind == AUGUR_NODE_LOOP && n->u.loop.form == AUGUR_LOOP_FOR && n->u.loop.var >= 0) {
        const struct augur_expr *nx = n->u.loop.next, *step = NULL;

        while (nx && nx->kind == AUGUR_EXPR_CAST)
            nx = nx->u.cast.a;
        if (nx && nx->kind == AUGUR_EXPR_BINARY && nx->u.bin.op == AUGUR_OP_ADD)
            step = nx->u.bin.b;
        if (step && uses_builtin(k, n->u.loop.init, "threadIdx.", val, count, 0) &&
            uses_builtin(k, n->u.loop.init, "blockIdx.", val, count, 0) &&
            uses_builtin(k, step, "blockDim.", val, count, 0) &&
            uses_builtin(k, step, "gridDim.", val, count, 0)) {
            n->u.loop.gridstride = true;
            n->u.loop.parallel = true;
        }
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        mark_grid(k, n->kids[i], val, count);
}

void fe_mark_gridstride(struct augur_node *kernel)
{
    const struct augur_kernel_info *k = &kernel->u.kernel;
    const struct augur_expr **val = augur_calloc(k->nsyms + 1, sizeof(*val));
    uint32_t *count = augur_calloc(k->nsyms + 1, sizeof(*count));

    single_values(kernel, val, count);
    mark_grid(k, kernel, val, count);
    augur_free(val);
    augur_free(count);
}
