/*
 * fe_stmt.c - C statements to skeleton nodes: loops with their OpenMP
 * directives, branches, jumps, declarations, inlined helpers; the two-pass
 * kernel driver (module: frontend).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fe_int.h"

/* ---- conversion helpers --------------------------------------------------------------------- */

struct augur_srcloc fe_loc(struct fe_conv *cv, CXCursor c)
{
    struct augur_srcloc loc = { 0, 0, 0 };
    CXFile f = NULL;
    unsigned line = 0, col = 0;

    fe_cursor_pos(c, NULL, &line, &col, &f);
    if (!f || !line)
        return loc;
    if (clang_File_isEqual(f, cv->t->file)) {
        loc.file = augur_skel_add_file(cv->skel, cv->t->path);
    } else {
        CXString s = clang_getFileName(f);

        loc.file = augur_skel_add_file(cv->skel, clang_getCString(s));
        clang_disposeString(s);
    }
    loc.line = line;
    loc.col = col;
    return loc;
}

void fe_note(struct fe_conv *cv, enum augur_note_kind kind, CXCursor at, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    struct augur_srcloc loc;

    if (!cv->final)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    loc = fe_loc(cv, at);
    augur_skel_add_note(cv->b, kind, loc, "%s", msg);
    if (kind == AUGUR_NOTE_UNSUPPORTED)
        cv->unsupported++;
    if (cv->t->opts->on_diag) {
        struct augur_diag d;

        augur_diag_init(&d);
        augur_diag_set(&d, 0, loc.line ? cv->skel->files[loc.file] : cv->t->path, loc.line, loc.col,
                       "%s: %s",
                       kind == AUGUR_NOTE_UNSUPPORTED ? "unsupported"
                       : kind == AUGUR_NOTE_GUARD     ? "note"
                                                      : "warning",
                       msg);
        cv->t->opts->on_diag(cv->t->opts->ud, &d, false);
    }
}

void fe_count(struct fe_conv *cv, enum augur_opkind op, enum augur_type type, uint32_t lanes,
              bool masked, uint64_t n, CXCursor at)
{
    struct augur_opcount *c;

    /*
     * A subscript's integer arithmetic is address generation: compilers fold
     * it into the load's addressing mode (base + index x scale + offset) or,
     * affine in a loop counter, strength-reduce it to a pointer that the
     * loop's increment advances. Divisions and the loads it names still count.
     */
    if (cv->subscript && lanes <= 1 &&
        (op == AUGUR_OPK_IADD || op == AUGUR_OPK_IMUL || op == AUGUR_OPK_IBIT ||
         op == AUGUR_OPK_CVT))
        return;
    if (cv->ops.len == 0)
        cv->ops_loc = fe_loc(cv, at);
    for (size_t i = 0; i < cv->ops.len; i++) {
        c = &AUGUR_VEC_AT(&cv->ops, struct augur_opcount, i);
        if (c->op == op && c->type == type && c->lanes == (lanes ? lanes : 1) &&
            c->masked == masked && !c->carried) {
            c->count += n;
            cv->last_op = *c;
            return;
        }
    }
    c = augur_vec_push(&cv->ops);
    c->op = op;
    c->type = type;
    c->lanes = lanes ? lanes : 1;
    c->masked = masked;
    c->count = n;
    cv->last_op = *c;
}

bool fe_uncount(struct fe_conv *cv, enum augur_opkind op, enum augur_type type, uint32_t lanes,
                bool masked)
{
    for (size_t i = 0; i < cv->ops.len; i++) {
        struct augur_opcount *c = &AUGUR_VEC_AT(&cv->ops, struct augur_opcount, i);

        if (c->op == op && c->type == type && c->lanes == lanes && c->masked == masked &&
            !c->carried && c->count > 0) {
            c->count--;
            return true;
        }
    }
    return false;
}

/*
 * Marks the operation counted last as carried by accumulator acc. Another
 * accumulator's operations of the same kind in the same straight region are
 * another chain (acc0 += ...; acc1 += ...), which the core runs beside it.
 */
void fe_carry_last(struct fe_conv *cv, CXCursor acc)
{
    struct augur_opcount *c, o = cv->last_op;
    bool seen = false;

    if ((o.op != AUGUR_OPK_FADD && o.op != AUGUR_OPK_FMUL && o.op != AUGUR_OPK_FFMA) ||
        !fe_uncount(cv, o.op, o.type, o.lanes, o.masked))
        return;
    for (size_t i = 0; i < cv->carried.n && !seen; i++)
        seen = clang_equalCursors(cv->carried.v[i], acc) != 0;
    if (!seen)
        fe_cursors_push(&cv->carried, acc);
    for (size_t i = 0; i < cv->ops.len; i++) {
        c = &AUGUR_VEC_AT(&cv->ops, struct augur_opcount, i);
        if (c->op == o.op && c->type == o.type && c->lanes == o.lanes && c->masked == o.masked &&
            c->carried) {
            c->count++;
            if (!seen)
                c->chains = (c->chains ? c->chains : 1) + 1;
            return;
        }
    }
    c = augur_vec_push(&cv->ops);
    *c = o;
    c->carried = true;
    c->count = 1;
    c->chains = 1;
}

void fe_flush_ops(struct fe_conv *cv)
{
    struct augur_node *n;
    size_t m = 0;

    cv->carried.n = 0; /* the next region's accumulators start afresh */
    /* counts that a contraction or a carried operation took to nothing */
    for (size_t i = 0; i < cv->ops.len; i++)
        if (AUGUR_VEC_AT(&cv->ops, struct augur_opcount, i).count)
            AUGUR_VEC_AT(&cv->ops, struct augur_opcount, m++) =
                AUGUR_VEC_AT(&cv->ops, struct augur_opcount, i);
    cv->ops.len = m;
    if (!cv->ops.len)
        return;
    n = augur_skel_leaf(cv->b, AUGUR_NODE_OPS, cv->ops_loc);
    augur_skel_set_ops(cv->b, n, cv->ops.data, (uint32_t)cv->ops.len);
    cv->ops.len = 0;
}

void fe_forget_reads(struct fe_conv *cv)
{
    cv->reads.len = 0;
}

enum augur_type fe_type(CXType t)
{
    t = clang_getCanonicalType(t);
    switch (t.kind) {
    case CXType_Bool:
        return AUGUR_T_BOOL;
    case CXType_Char_S:
    case CXType_SChar:
        return AUGUR_T_I8;
    case CXType_Char_U:
    case CXType_UChar:
        return AUGUR_T_U8;
    case CXType_Short:
        return AUGUR_T_I16;
    case CXType_UShort:
        return AUGUR_T_U16;
    case CXType_Int:
    case CXType_Enum:
        return AUGUR_T_I32;
    case CXType_UInt:
        return AUGUR_T_U32;
    case CXType_Long:
    case CXType_LongLong:
    case CXType_Int128:
        return AUGUR_T_I64;
    case CXType_ULong:
    case CXType_ULongLong:
    case CXType_UInt128:
        return AUGUR_T_U64;
    case CXType_Float:
    case CXType_Half:
    case CXType_Float16:
        return AUGUR_T_F32;
    case CXType_Double:
    case CXType_LongDouble:
        return AUGUR_T_F64;
    case CXType_Pointer:
        return AUGUR_T_PTR;
    case CXType_Record:
        return AUGUR_T_REC;
    default:
        return AUGUR_T_VOID;
    }
}

struct fe_var *fe_var(struct fe_conv *cv, CXCursor decl)
{
    unsigned h = clang_hashCursor(decl);
    struct fe_var *v;

    for (size_t i = 0; i < cv->vars.len; i++) {
        v = &AUGUR_VEC_AT(&cv->vars, struct fe_var, i);
        if (v->hash == h && clang_equalCursors(v->decl, decl))
            return v;
    }
    v = augur_vec_push(&cv->vars);
    v->decl = decl;
    v->hash = h;
    v->kind = FV_NONE;
    v->sym = -1;
    v->array = -1;
    v->subst_array = -1;
    v->set_in = clang_getNullCursor();
    v->null_init = false;
    v->has_arg = false;
    v->arg = clang_getNullCursor();
    v->arg_nthis = 0;
    return v;
}

void fe_unique_name(struct fe_conv *cv, const char *name, char *out, size_t size)
{
    char base[200];
    size_t n = 0;

    /* Keep what the text form accepts: letters, digits, _ . -> */
    for (const char *p = name; *p && n + 1 < sizeof(base); p++)
        base[n++] = (isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '-' || *p == '>')
                        ? *p
                        : '_';
    base[n] = '\0';
    if (!n || !(isalpha((unsigned char)base[0]) || base[0] == '_'))
        snprintf(base, sizeof(base), "v%s", n ? name : "");
    snprintf(out, size, "%s", base);
    for (int i = 2; !augur_skel_name_is_valid(out) || augur_skel_find_sym(cv->b, out) >= 0 ||
                    augur_skel_find_array(cv->b, out) >= 0;
         i++)
        snprintf(out, size, "%s.%d", base, i);
}

int32_t fe_declare_sym(struct fe_conv *cv, CXCursor decl, const char *name,
                       enum augur_sym_kind kind, enum augur_type type)
{
    char unique[256];
    int32_t s;

    if (type == AUGUR_T_VOID || type == AUGUR_T_REC)
        type = AUGUR_T_I64;
    if (type == AUGUR_T_PTR)
        type = AUGUR_T_I64;
    fe_unique_name(cv, name, unique, sizeof(unique));
    s = (int32_t)augur_skel_add_sym(cv->b, unique, kind, type,
                                    clang_Cursor_isNull(decl) ? (struct augur_srcloc){ 0, 0, 0 }
                                                              : fe_loc(cv, decl));
    fe_cursors_push(&cv->sym_decls, decl);
    return s;
}

int32_t fe_builtin(struct fe_conv *cv, const char *name, enum augur_type type)
{
    int32_t s = augur_skel_find_sym(cv->b, name);

    if (s >= 0)
        return s;
    s = (int32_t)augur_skel_add_sym(cv->b, name, AUGUR_SYM_BUILTIN, type,
                                    (struct augur_srcloc){ 0, 0, 0 });
    fe_cursors_push(&cv->sym_decls, clang_getNullCursor());
    return s;
}

const struct augur_expr *fe_opaque(struct fe_conv *cv, enum augur_type type, const char *what)
{
    if (type == AUGUR_T_VOID || type == AUGUR_T_REC || type == AUGUR_T_PTR)
        type = AUGUR_T_I64;
    return augur_expr_opaque(cv->skel, type, what);
}

/* ---- pragmas ----------------------------------------------------------------------------------
 */

enum dir_kind { DIR_NONE, DIR_LOOP, DIR_REGION, DIR_SYNC, DIR_IGNORE, DIR_UNSUPPORTED };

struct directive {
    enum dir_kind kind;
    enum augur_region_kind region;
    enum augur_sync_kind sync;
    struct augur_omp omp;
    char word[64];
    char bad_op[16]; /* a reduction operator augur does not know, left out */
    bool bad_var;    /* a reduction item that is not a name (or a name's section), left out */
};

/* The words and parenthesised groups of a pragma. */
struct words {
    const char *p, *end;
};

/* Reads the next word (identifier) and, when followed by "(...)", its group. */
static bool next_word(struct words *w, char *word, size_t wsize, const char **group, size_t *glen)
{
    size_t n = 0;

    *group = NULL;
    *glen = 0;
    while (w->p < w->end && (*w->p == ' ' || *w->p == ','))
        w->p++;
    if (w->p >= w->end)
        return false;
    while (w->p < w->end && (isalnum((unsigned char)*w->p) || *w->p == '_')) {
        if (n + 1 < wsize)
            word[n++] = *w->p;
        w->p++;
    }
    word[n] = '\0';
    if (!n) {
        /* Not a word: skip one character so that the scan ends. */
        word[0] = *w->p++;
        word[1] = '\0';
    }
    while (w->p < w->end && *w->p == ' ')
        w->p++;
    if (w->p < w->end && *w->p == '(') {
        int depth = 0;
        const char *start = w->p + 1;

        for (; w->p < w->end; w->p++) {
            if (*w->p == '(')
                depth++;
            else if (*w->p == ')' && --depth == 0)
                break;
        }
        *group = start;
        *glen = (size_t)(w->p - start);
        if (w->p < w->end)
            w->p++;
    }
    return true;
}

/* The reduction operators the skeleton knows (augur_skel_parse's list). */
static bool known_reduction_op(const char *op)
{
    static const char *const ops[] = { "+", "*", "-", "&", "|", "^", "&&", "||", "max", "min" };

    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
        if (!strcmp(op, ops[i]))
            return true;
    return false;
}

/*
 * Whether a reduction item is a variable's name, or a name and an array
 * section of names, numbers, ':' and arithmetic (y[0 : n]): what the
 * skeleton's reader takes back.
 */
static bool reduction_item(const char *v)
{
    const char *p = v;

    if (!(isalpha((unsigned char)*p) || *p == '_'))
        return false;
    while (isalnum((unsigned char)*p) || *p == '_')
        p++;
    if (!*p)
        return true;
    if (*p != '[' || v[strlen(v) - 1] != ']')
        return false;
    for (p++; p[1]; p++)
        if (!isalnum((unsigned char)*p) && !strchr("_:+-*/()[]", *p))
            return false;
    return true;
}

/*
 * A reduction clause's variables; an operator augur does not know goes to
 * bad_op instead, and an item that is not a name sets *bad_var.
 */
static void parse_reduction(struct fe_conv *cv, const char *g, size_t len, struct augur_vec *reds,
                            char *bad_op, size_t bad_size, bool *bad_var)
{
    const char *colon = memchr(g, ':', len), *p;
    char op[16];
    size_t n = 0;

    if (!colon)
        return;
    /* "reduction(inscan, +: x)" has a modifier before the operator. */
    p = colon;
    while (p > g && (p[-1] == ' '))
        p--;
    {
        const char *s = p;

        while (s > g && s[-1] != ',' && s[-1] != '(' && s[-1] != ' ')
            s--;
        n = (size_t)(p - s) < sizeof(op) ? (size_t)(p - s) : sizeof(op) - 1;
        memcpy(op, s, n);
        op[n] = '\0';
    }
    if (n && !known_reduction_op(op)) {
        snprintf(bad_op, bad_size, "%s", op);
        return;
    }
    for (p = colon + 1; p < g + len;) {
        char var[128];
        size_t k = 0;
        int depth = 0; /* items split at commas outside a section; y [0 : n] is one */

        while (p < g + len && (*p == ' ' || *p == ','))
            p++;
        while (p < g + len && (*p != ',' || depth > 0)) {
            depth += *p == '[' ? 1 : *p == ']' ? -1 : 0;
            if (k + 1 < sizeof(var) && *p != ' ')
                var[k++] = *p;
            p++;
        }
        var[k] = '\0';
        if (k && n && !reduction_item(var)) {
            *bad_var = true;
            continue;
        }
        if (k && n) {
            struct augur_reduction *r = augur_vec_push(reds);

            r->op = augur_arena_strdup(&cv->skel->arena, op);
            r->var = augur_arena_strdup(&cv->skel->arena, var);
        }
    }
}

static void parse_directive(struct fe_conv *cv, const char *text, struct directive *d)
{
    struct words w = { text, text + strlen(text) };
    char word[64];
    const char *g;
    size_t glen;
    struct augur_vec reds;
    bool first = true;

    memset(d, 0, sizeof(*d));
    augur_vec_init(&reds, sizeof(struct augur_reduction));
    while (next_word(&w, word, sizeof(word), &g, &glen)) {
        bool dir_word = true;

        if (!strcmp(word, "parallel"))
            d->omp.flags |= AUGUR_OMP_PARALLEL;
        else if (!strcmp(word, "for") || !strcmp(word, "do") || !strcmp(word, "distribute") ||
                 !strcmp(word, "taskloop") || !strcmp(word, "loop"))
            d->omp.flags |= AUGUR_OMP_FOR;
        else if (!strcmp(word, "simd"))
            d->omp.flags |= AUGUR_OMP_SIMD;
        else if (!strcmp(word, "target") || !strcmp(word, "teams") || !strcmp(word, "declare"))
            ;
        else
            dir_word = false;
        if (dir_word) {
            if (first)
                snprintf(d->word, sizeof(d->word), "%s", word);
            first = false;
            continue;
        }
        if (first) {
            snprintf(d->word, sizeof(d->word), "%s", word);
            first = false;
            if (!strcmp(word, "barrier")) {
                d->kind = DIR_SYNC;
                d->sync = AUGUR_SYNC_BARRIER;
            } else if (!strcmp(word, "flush")) {
                d->kind = DIR_SYNC;
                d->sync = AUGUR_SYNC_FENCE;
            } else if (!strcmp(word, "critical")) {
                d->kind = DIR_REGION;
                d->region = AUGUR_REGION_CRITICAL;
            } else if (!strcmp(word, "atomic")) {
                d->kind = DIR_REGION;
                d->region = AUGUR_REGION_ATOMIC;
            } else if (!strcmp(word, "master") || !strcmp(word, "masked")) {
                d->kind = DIR_REGION;
                d->region = AUGUR_REGION_MASTER;
            } else if (!strcmp(word, "single")) {
                d->kind = DIR_REGION;
                d->region = AUGUR_REGION_SINGLE;
            } else if (!strcmp(word, "threadprivate") || !strcmp(word, "taskwait") ||
                       !strcmp(word, "taskyield") || !strcmp(word, "requires")) {
                d->kind = DIR_IGNORE;
            } else {
                d->kind = DIR_UNSUPPORTED;
            }
            break;
        }
        /* clauses */
        if (!strcmp(word, "schedule") && g) {
            const char *comma = memchr(g, ',', glen);
            size_t klen = comma ? (size_t)(comma - g) : glen;
            char kind[32];
            int k;

            while (klen && g[klen - 1] == ' ')
                klen--;
            snprintf(kind, sizeof(kind), "%.*s", (int)klen, g);
            /* "monotonic:dynamic" */
            if (strchr(kind, ':'))
                memmove(kind, strchr(kind, ':') + 1, strlen(strchr(kind, ':')));
            {
                static const char *const kinds[] = { "none",   "static", "dynamic",
                                                     "guided", "auto",   "runtime" };
                const char *kw = kind[0] == ' ' ? kind + 1 : kind;

                k = -1;
                for (int j = 1; j < 6; j++)
                    if (!strcmp(kw, kinds[j]))
                        k = j;
            }
            if (k > 0)
                d->omp.sched = (enum augur_sched)k;
            if (comma && k > 0)
                d->omp.chunk = fe_pragma_expr(
                    cv, comma + 1, glen - klen - 1 - (size_t)(comma - g - (ptrdiff_t)klen));
        } else if (!strcmp(word, "collapse") && g) {
            int n = atoi(g);

            if (n > 0 && n < 64)
                d->omp.collapse = (uint32_t)n;
        } else if (!strcmp(word, "num_threads") && g) {
            d->omp.num_threads = fe_pragma_expr(cv, g, glen);
        } else if (!strcmp(word, "reduction") && g) {
            parse_reduction(cv, g, glen, &reds, d->bad_op, sizeof(d->bad_op), &d->bad_var);
        } else if (!strcmp(word, "nowait")) {
            d->omp.flags |= AUGUR_OMP_NOWAIT;
        }
    }
    if (d->kind == DIR_NONE && (d->omp.flags & (AUGUR_OMP_FOR | AUGUR_OMP_SIMD)))
        d->kind = DIR_LOOP;
    else if (d->kind == DIR_NONE && (d->omp.flags & AUGUR_OMP_PARALLEL)) {
        d->kind = DIR_REGION;
        d->region = AUGUR_REGION_PARALLEL;
    } else if (d->kind == DIR_NONE && d->word[0])
        d->kind =
            (!strcmp(d->word, "target") || !strcmp(d->word, "teams") || !strcmp(d->word, "declare"))
                ? DIR_IGNORE
                : DIR_UNSUPPORTED;
    augur_skel_set_reductions(cv->b, &d->omp, reds.data, (uint32_t)reds.len);
    augur_vec_release(&reds);
}

/* What the pragmas before a statement ask for. */
struct pending {
    struct directive loop; /* a loop directive (kind DIR_LOOP) */
    struct directive regions[8];
    int nregions;
    double prob, trips;
    unsigned line; /* of the loop directive */
};

static bool in_main(struct fe_conv *cv, CXCursor s)
{
    CXFile f = NULL;

    fe_cursor_pos(s, NULL, NULL, NULL, &f);
    return f && clang_File_isEqual(f, cv->t->file);
}

/* Reads the real number in "prob(0.25)" or "trips(100)". */
static bool augur_number(const char *text, const char *word, double *out)
{
    size_t n = strlen(word);
    char *end;

    while (*text == ' ')
        text++;
    if (strncmp(text, word, n) != 0)
        return false;
    text += n;
    while (*text == ' ')
        text++;
    if (*text != '(')
        return false;
    *out = strtod(text + 1, &end);
    while (*end == ' ')
        end++;
    return *end == ')' && end != text + 1;
}

/* Takes the pragmas in (lo, hi] of the main file; standalone directives are emitted now. */
static void take_pragmas(struct fe_conv *cv, CXCursor at, unsigned lo, unsigned hi,
                         struct pending *pend, bool trailing)
{
    struct fe_tu *t = cv->t;

    memset(pend, 0, sizeof(*pend));
    pend->prob = -1;
    pend->trips = -1;
    for (size_t i = 0; i < t->npragmas; i++) {
        struct fe_pragma *p = &t->pragmas[i];

        if (p->offset <= lo || p->offset > hi)
            continue;
        p->used = true;
        if (p->kind == FE_PRAGMA_AUGUR) {
            double v;

            if (augur_number(p->text, "prob", &v)) {
                if (v >= 0 && v <= 1)
                    pend->prob = v;
                else
                    fe_note(cv, AUGUR_NOTE_WARNING, at,
                            "'#pragma augur prob' needs a value in [0, 1]");
            } else if (augur_number(p->text, "trips", &v)) {
                if (v >= 0 && v <= 1e18)
                    pend->trips = v;
                else
                    fe_note(cv, AUGUR_NOTE_WARNING, at,
                            "'#pragma augur trips' needs a count in [0, 1e18]");
            } else if (strncmp(p->text, "bind", 4) && strncmp(p->text, "launch", 6)) {
                fe_note(cv, AUGUR_NOTE_WARNING, at, "unknown '#pragma augur %s' (line %u)", p->text,
                        p->line);
            }
            continue;
        }
        {
            struct directive d;

            parse_directive(cv, p->text, &d);
            if (d.bad_op[0])
                fe_note(cv, AUGUR_NOTE_WARNING, at,
                        "reduction operator '%s' (line %u) is not one augur reads "
                        "(+ * - & | ^ && || max min): the clause is left out",
                        d.bad_op, p->line);
            if (d.bad_var)
                fe_note(cv, AUGUR_NOTE_WARNING, at,
                        "a reduction item (line %u) is not a variable or an array section of one: "
                        "it is left out",
                        p->line);
            switch (d.kind) {
            case DIR_SYNC: {
                struct augur_node *n;

                fe_flush_ops(cv);
                n = augur_skel_leaf(cv->b, AUGUR_NODE_SYNC, fe_loc(cv, at));
                n->loc.line = p->line;
                n->loc.col = p->col;
                n->loc.file = augur_skel_add_file(cv->skel, t->path);
                n->u.sync = d.sync;
                fe_forget_reads(cv);
                break;
            }
            case DIR_LOOP:
                if (trailing)
                    fe_note(cv, AUGUR_NOTE_WARNING, at,
                            "'#pragma omp %s' at line %u has no loop after it", p->text, p->line);
                pend->loop = d;
                pend->line = p->line;
                break;
            case DIR_REGION:
                if (trailing)
                    fe_note(cv, AUGUR_NOTE_WARNING, at,
                            "'#pragma omp %s' at line %u has no statement after it", p->text,
                            p->line);
                else if (pend->nregions < 8)
                    pend->regions[pend->nregions++] = d;
                break;
            case DIR_UNSUPPORTED:
                fe_note(cv, AUGUR_NOTE_UNSUPPORTED, at,
                        "'#pragma omp %s' (line %u) is not modelled: what follows is analysed as "
                        "sequential code",
                        p->text, p->line);
                break;
            default:
                break;
            }
        }
    }
}

/* ---- statements
 * ---------------------------------------------------------------------------------- */

static void stmt(struct fe_conv *cv, CXCursor s, unsigned lo, const struct pending *pend);

static unsigned end_of(CXCursor c)
{
    unsigned b, e;

    fe_extent_offsets(c, &b, &e);
    return e;
}

static unsigned start_of(CXCursor c)
{
    unsigned b, e;

    fe_extent_offsets(c, &b, &e);
    return b;
}

/* A visitor that looks for a kind of cursor. */
struct find {
    enum CXCursorKind kind;
    bool found;
};

static enum CXChildVisitResult find_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    struct find *f = data;
    enum CXCursorKind k = clang_getCursorKind(c);

    (void)parent;
    if (k == f->kind) {
        f->found = true;
        return CXChildVisit_Break;
    }
    /* a continue inside a nested loop belongs to that loop */
    if (f->kind == CXCursor_ContinueStmt &&
        (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt))
        return CXChildVisit_Continue;
    return CXChildVisit_Recurse;
}

static bool contains(CXCursor c, enum CXCursorKind kind)
{
    struct find f = { kind, false };

    clang_visitChildren(c, find_visit, &f);
    return f.found;
}

/* Declarations assigned anywhere under c (=, op=, ++, --). */
struct assigned {
    struct fe_conv *cv;
    struct fe_cursors decls;
};

static CXCursor target_decl(CXCursor lhs)
{
    lhs = fe_strip(lhs);
    if (clang_getCursorKind(lhs) != CXCursor_DeclRefExpr)
        return clang_getNullCursor();
    return clang_getCursorReferenced(lhs);
}

static enum CXChildVisitResult assigned_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    struct assigned *a = data;
    enum CXCursorKind k = clang_getCursorKind(c);

    (void)parent;
    if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator ||
        k == CXCursor_UnaryOperator) {
        const char *op = fe_opmap_get(a->cv->t, &a->cv->opmap, c);

        if (op && (k == CXCursor_CompoundAssignOperator || !strcmp(op, "=") || !strcmp(op, "++") ||
                   !strcmp(op, "--"))) {
            struct fe_cursors kids = { 0 };

            fe_children(c, &kids);
            if (kids.n) {
                CXCursor d = target_decl(kids.v[0]);

                if (!clang_Cursor_isNull(d))
                    fe_cursors_push(&a->decls, d);
            }
            fe_cursors_release(&kids);
        }
    } else if (k == CXCursor_VarDecl) {
        fe_cursors_push(&a->decls, c);
    }
    return CXChildVisit_Recurse;
}

/* True when s holds w, ignoring case. */
static bool has_word(const char *s, const char *w)
{
    size_t n = strlen(w);

    for (; *s; s++)
        if (strncasecmp(s, w, n) == 0)
            return true;
    return false;
}

/* True when the function name has no body in the file (a library's or another file's). */
static bool external(struct fe_conv *cv, const char *name)
{
    return fe_map_get(&cv->t->funcs, name) == NULL;
}

/* How a variable is assigned in its function. */
struct assigns {
    struct fe_conv *cv;
    CXCursor decl;
    unsigned n; /* assignments, its initialiser included */
    bool moves; /* stepped (p++, p += k), set from arithmetic (p = q + k), or its address taken */
};

/* A value that names an array as it is: a variable, a member, an allocation, their casts. */
static bool plain_pointer(struct fe_conv *cv, CXCursor e)
{
    for (int i = 0; i < 16; i++) {
        CXCursor next = fe_identity_arg(e);

        e = fe_strip(e);
        if (clang_getCursorKind(e) == CXCursor_CStyleCastExpr) {
            struct fe_cursors kids = { 0 };

            fe_children(e, &kids);
            next = kids.n ? kids.v[kids.n - 1] : clang_getNullCursor();
            fe_cursors_release(&kids);
        }
        if (clang_Cursor_isNull(next))
            break;
        e = next;
    }
    e = fe_strip(e);
    if (clang_getCursorKind(e) == CXCursor_DeclRefExpr ||
        clang_getCursorKind(e) == CXCursor_MemberRefExpr)
        return true;
    if (clang_getCursorKind(e) != CXCursor_CallExpr)
        return false;
    {
        /* an allocator: asked without evaluating its arguments (no nodes, no counts) */
        char name[128];

        fe_spelling(clang_getCursorReferenced(e), name, sizeof(name));
        return has_word(name, "alloc") && external(cv, name);
    }
}

static enum CXChildVisitResult assigns_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    struct assigns *a = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    struct fe_cursors kids = { 0 };

    (void)parent;
    if (k == CXCursor_VarDecl && clang_equalCursors(c, a->decl)) {
        fe_children(c, &kids);
        for (size_t i = 0; i < kids.n; i++)
            if (clang_isExpression(clang_getCursorKind(kids.v[i])))
                a->n++;
        fe_cursors_release(&kids);
    } else if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator ||
               k == CXCursor_UnaryOperator) {
        const char *op = fe_opmap_get(a->cv->t, &a->cv->opmap, c);

        fe_children(c, &kids);
        if (kids.n && clang_equalCursors(target_decl(kids.v[0]), a->decl)) {
            if (op && !strcmp(op, "=") && kids.n == 2) {
                a->n++;
                if (!plain_pointer(a->cv, kids.v[1]))
                    a->moves = true;
            } else if (!op || k == CXCursor_CompoundAssignOperator || !strcmp(op, "++") ||
                       !strcmp(op, "--") || !strcmp(op, "&")) {
                /* a step, or the address taken (anything may write through it) */
                a->n += 2;
                a->moves = true;
            }
        }
        fe_cursors_release(&kids);
    }
    return CXChildVisit_Recurse;
}

static struct assigns count_assigns(struct fe_conv *cv, CXCursor decl)
{
    struct assigns a = { cv, decl, 0, false };
    CXCursor f = clang_getCursorSemanticParent(decl);

    if (clang_getCursorKind(f) == CXCursor_FunctionDecl)
        clang_visitChildren(f, assigns_visit, &a);
    else
        a.n = 2, a.moves = true;
    return a;
}

bool fe_pointer_moves(struct fe_conv *cv, CXCursor decl)
{
    return count_assigns(cv, decl).moves;
}

bool fe_assigned_once(struct fe_conv *cv, CXCursor decl)
{
    struct assigns a = count_assigns(cv, decl);

    return a.n == 1 && !a.moves;
}

static bool refers_to(CXCursor c, const struct fe_cursors *decls);

struct refers {
    const struct fe_cursors *decls;
    bool found;
};

static enum CXChildVisitResult refers_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    struct refers *r = data;

    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(c);

        for (size_t i = 0; i < r->decls->n; i++)
            if (clang_equalCursors(d, r->decls->v[i])) {
                r->found = true;
                return CXChildVisit_Break;
            }
    }
    return CXChildVisit_Recurse;
}

static bool refers_to(CXCursor c, const struct fe_cursors *decls)
{
    struct refers r = { decls, false };

    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(c);

        for (size_t i = 0; i < decls->n; i++)
            if (clang_equalCursors(d, decls->v[i]))
                return true;
    }
    clang_visitChildren(c, refers_visit, &r);
    return r.found;
}

/* True when a read in c (a subscript, a dereference, a call) depends on one of decls. */
struct loads {
    const struct fe_cursors *decls;
    bool found;
};

static enum CXChildVisitResult loads_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    struct loads *l = data;
    enum CXCursorKind k = clang_getCursorKind(c);

    (void)parent;
    if (k == CXCursor_CallExpr && clang_Cursor_isNull(fe_container_subscript(c)) &&
        !fe_container_size(c)) {
        l->found = true;
        return CXChildVisit_Break;
    }
    if ((k == CXCursor_ArraySubscriptExpr || k == CXCursor_UnaryOperator ||
         (k == CXCursor_CallExpr &&
          (!clang_Cursor_isNull(fe_container_subscript(c)) || fe_container_size(c))) ||
         k == CXCursor_MemberRefExpr) &&
        refers_to(c, l->decls)) {
        l->found = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static bool loads_change(CXCursor c, const struct fe_cursors *decls)
{
    struct loads l = { decls, false };

    loads_visit(c, clang_getNullCursor(), &l);
    if (!l.found)
        clang_visitChildren(c, loads_visit, &l);
    return l.found;
}

static bool reads_memory(CXCursor c)
{
    return contains(c, CXCursor_ArraySubscriptExpr) || contains(c, CXCursor_CallExpr) ||
           contains(c, CXCursor_MemberRefExpr) || contains(c, CXCursor_UnaryOperator) ||
           clang_getCursorKind(fe_strip(c)) == CXCursor_ArraySubscriptExpr ||
           clang_getCursorKind(fe_strip(c)) == CXCursor_CallExpr;
}

/* Opens loop s: the outermost one learns what its body assigns. */
static void enter_loop(struct fe_conv *cv, CXCursor s)
{
    if (cv->loops++ == 0) {
        struct assigned a = { cv, { 0 } };

        cv->top_loop = s;
        clang_visitChildren(s, assigned_visit, &a);
        fe_cursors_release(&cv->top_assigned);
        cv->top_assigned = a.decls;
    }
}

static void leave_loop(struct fe_conv *cv)
{
    if (--cv->loops == 0) {
        cv->top_loop = clang_getNullCursor();
        fe_cursors_release(&cv->top_assigned);
    }
}

bool fe_loop_invariant(struct fe_conv *cv, CXCursor e)
{
    return cv->loops > 0 && !clang_Cursor_isNull(cv->loop) && !clang_Cursor_isNull(cv->top_loop) &&
           !reads_memory(e) && !refers_to(e, &cv->top_assigned);
}

/* The value of a scalar declaration as the loop variable: its sym, declared if needed. */
static int32_t loop_sym(struct fe_conv *cv, CXCursor decl, bool *is_ptr)
{
    struct fe_var *v = fe_var(cv, decl);
    CXType t = clang_getCanonicalType(clang_getCursorType(decl));
    char name[256];

    *is_ptr = t.kind == CXType_Pointer;
    if (*is_ptr)
        return v->kind == FV_PTR ? v->sym : -1;
    if (v->kind == FV_SCALAR)
        return augur_skel_sym(cv->b, (uint32_t)v->sym)->kind == AUGUR_SYM_LOCAL || !cv->final
                   ? v->sym
                   : -1;
    if (v->kind != FV_NONE || fe_type(t) == AUGUR_T_VOID || fe_type(t) == AUGUR_T_REC ||
        fe_type(t) == AUGUR_T_PTR)
        return -1;
    fe_spelling(decl, name, sizeof(name));
    v->kind = FV_SCALAR;
    v->sym = fe_declare_sym(cv, decl, name, AUGUR_SYM_LOCAL, fe_type(t));
    return fe_var(cv, decl)->sym;
}

/* Loops of constant bounds up to this many iterations compilers unroll whole (GCC peels 16). */
#define UNROLL_TRIPS 16

/* The declaration the increment of a for loop steps, with the operator. */
static CXCursor inc_decl(struct fe_conv *cv, CXCursor inc, const char **op, CXCursor *rhs)
{
    enum CXCursorKind k;
    struct fe_cursors kids = { 0 };
    CXCursor d = clang_getNullCursor();

    inc = fe_strip(inc);
    k = clang_getCursorKind(inc);
    *rhs = clang_getNullCursor();
    *op = NULL;
    if (k != CXCursor_UnaryOperator && k != CXCursor_CompoundAssignOperator &&
        k != CXCursor_BinaryOperator)
        return d;
    *op = fe_opmap_get(cv->t, &cv->opmap, inc);
    if (!*op)
        return d;
    fe_children(inc, &kids);
    if (k == CXCursor_UnaryOperator && kids.n == 1 && (!strcmp(*op, "++") || !strcmp(*op, "--")))
        d = target_decl(kids.v[0]);
    else if (k == CXCursor_CompoundAssignOperator && kids.n == 2)
        d = target_decl(kids.v[0]), *rhs = kids.v[1];
    else if (k == CXCursor_BinaryOperator && kids.n == 2 && !strcmp(*op, "="))
        d = target_decl(kids.v[0]), *rhs = kids.v[1];
    fe_cursors_release(&kids);
    return d;
}

/* Sets the loop's OpenMP directive from the pragmas before it. */
static void apply_loop_pragmas(struct fe_conv *cv, struct augur_node *loop,
                               const struct pending *pend)
{
    if (pend->loop.kind == DIR_LOOP) {
        loop->u.loop.omp = pend->loop.omp;
        if (pend->loop.omp.flags & AUGUR_OMP_FOR)
            loop->u.loop.parallel = true;
    }
    if (pend->trips >= 0)
        loop->u.loop.trips = pend->trips;
    (void)cv;
}

/* The parts of a for statement, found through the positions of its ';' tokens. */
static void for_parts(struct fe_conv *cv, CXCursor s, CXCursor part[4])
{
    struct fe_cursors kids = { 0 };
    CXSourceRange r;
    CXToken *toks = NULL;
    unsigned n = 0, semi[2] = { 0, 0 }, nsemi = 0, rparen = 0;
    int depth = 0;

    for (int i = 0; i < 4; i++)
        part[i] = clang_getNullCursor();
    fe_children(s, &kids);
    /* the text the loop is written in; its header is read when it starts with "for" */
    if (!fe_spelled_extent(cv->t, s, &r))
        r = fe_file_extent(cv->t->tu, s);
    clang_tokenize(cv->t->tu, r, &toks, &n);
    for (unsigned i = 0; i < n; i++) {
        CXString sp = clang_getTokenSpelling(cv->t->tu, toks[i]);
        const char *p = clang_getCString(sp);
        unsigned off;

        if (i == 0 && strcmp(p, "for") != 0) {
            clang_disposeString(sp);
            break; /* a macro written there: its expansion holds the header */
        }
        clang_getSpellingLocation(clang_getTokenLocation(cv->t->tu, toks[i]), NULL, NULL, NULL,
                                  &off);
        if (!strcmp(p, "("))
            depth++;
        else if (!strcmp(p, ")") && --depth == 0) {
            rparen = off;
            clang_disposeString(sp);
            break;
        } else if (!strcmp(p, ";") && depth == 1 && nsemi < 2)
            semi[nsemi++] = off;
        clang_disposeString(sp);
    }
    if (toks)
        clang_disposeTokens(cv->t->tu, toks, n);
    if (nsemi == 2 && rparen) {
        for (size_t i = 0; i < kids.n; i++) {
            unsigned b = start_of(kids.v[i]);

            if (b < semi[0])
                part[0] = kids.v[i];
            else if (b < semi[1] && b > semi[0])
                part[1] = kids.v[i];
            else if (b < rparen && b > semi[1])
                part[2] = kids.v[i];
            else if (b > rparen)
                part[3] = kids.v[i];
        }
    } else if (kids.n == 4) {
        /* a for statement written by a macro: all four parts must be there */
        for (int i = 0; i < 4; i++)
            part[i] = kids.v[i];
    } else if (kids.n) {
        part[3] = kids.v[kids.n - 1];
        fe_note(cv, AUGUR_NOTE_UNSUPPORTED, s,
                "cannot read the header of this for loop (macro?): it is kept as a loop with an "
                "unknown trip count");
    }
    fe_cursors_release(&kids);
}

/* The initial value for loop variable decl in the for loop's init part (NULL when it sets none). */
static const struct augur_expr *for_init(struct fe_conv *cv, CXCursor init, CXCursor decl,
                                         bool is_ptr)
{
    CXCursor c = fe_strip(init);
    enum CXCursorKind k = clang_getCursorKind(c);

    if (k == CXCursor_DeclStmt) {
        struct fe_cursors vds = { 0 };
        const struct augur_expr *e = NULL;

        fe_children(c, &vds);
        for (size_t i = 0; i < vds.n; i++) {
            if (clang_equalCursors(vds.v[i], decl)) {
                struct fe_cursors kids = { 0 };

                fe_children(vds.v[i], &kids);
                if (kids.n) {
                    CXCursor ini = kids.v[kids.n - 1];

                    if (is_ptr) {
                        struct fe_val p = fe_pointer(cv, ini);

                        if (p.array >= 0 && p.array == fe_var(cv, decl)->array)
                            e = p.e;
                    } else {
                        struct fe_val v = fe_expr(cv, ini, FE_RVALUE);

                        e = v.e && v.array < 0 && !v.vec ? v.e : NULL;
                    }
                }
                fe_cursors_release(&kids);
            } else {
                stmt(cv, vds.v[i], 0, NULL);
            }
        }
        fe_cursors_release(&vds);
        return e;
    }
    if (k == CXCursor_BinaryOperator) {
        const char *op = fe_opmap_get(cv->t, &cv->opmap, c);
        struct fe_cursors kids = { 0 };
        const struct augur_expr *e = NULL;

        fe_children(c, &kids);
        if (op && !strcmp(op, "=") && kids.n == 2 &&
            clang_equalCursors(target_decl(kids.v[0]), decl)) {
            if (is_ptr) {
                struct fe_val p = fe_pointer(cv, kids.v[1]);

                if (p.array >= 0 && p.array == fe_var(cv, decl)->array)
                    e = p.e;
            } else {
                struct fe_val v = fe_expr(cv, kids.v[1], FE_RVALUE);

                e = v.e && v.array < 0 && !v.vec ? v.e : NULL;
            }
            fe_cursors_release(&kids);
            return e;
        }
        fe_cursors_release(&kids);
    }
    fe_expr(cv, c, FE_DISCARD);
    return NULL;
}

/*
 * A loop condition that calls a helper augur inlines runs the helper's
 * statements at every test, before it (while (round_step(...) > 0)): they
 * went into the loop's body, ahead of the rest, so the loop becomes
 * while (1) { the helper's statements; if (!cond) break; the body }.
 * Returns the loop's own condition: cond, or 1 when the test moved.
 */
static const struct augur_expr *test_after_calls(struct fe_conv *cv, CXCursor cnd,
                                                 unsigned inlined_before,
                                                 const struct augur_expr *cond)
{
    struct augur_node *br, *j;

    if (cv->ninlined == inlined_before)
        return cond;
    fe_flush_ops(cv);
    br = augur_skel_open(cv->b, AUGUR_NODE_BRANCH, fe_loc(cv, cnd));
    br->u.branch.cond = augur_expr_unary(cv->skel, AUGUR_OP_NOT, cond);
    j = augur_skel_leaf(cv->b, AUGUR_NODE_JUMP, fe_loc(cv, cnd));
    j->u.jump = AUGUR_JUMP_BREAK;
    br->u.branch.nthen = augur_skel_nkids(cv->b);
    augur_skel_close(cv->b);
    return augur_expr_int(cv->skel, AUGUR_T_I32, 1);
}

/*
 * for (T v : range) body, over a C array or a std container (fe_range_of):
 * a loop of an index k over its elements, v set to element k at the top of
 * each trip, or, for T &v, naming it (a read and store through v are the
 * element's). Another range is not analysed (a note).
 */
static void loop_range(struct fe_conv *cv, CXCursor s, const struct pending *pend)
{
    struct fe_cursors kids = { 0 };
    CXCursor vd = clang_getNullCursor(), range = clang_getNullCursor(), body, outer_loop;
    const struct augur_expr *count = NULL, *start = NULL, *k;
    struct augur_node *loop, *n;
    struct fe_var *v;
    char name[256], kname[64];
    int32_t array = -1, ksym;
    CXType vt;

    fe_children(s, &kids);
    if (kids.n == 3 && clang_getCursorKind(kids.v[0]) == CXCursor_VarDecl) {
        vd = kids.v[0];
        range = kids.v[1];
    }
    body = kids.n ? kids.v[kids.n - 1] : clang_getNullCursor();
    fe_cursors_release(&kids);
    if (clang_Cursor_isNull(vd) || !fe_range_of(cv, range, &array, &count, &start)) {
        fe_note(cv, AUGUR_NOTE_UNSUPPORTED, s,
                "a range-based for loop over something other than an array, a std::vector or a "
                "std::array: not analysed");
        return;
    }
    fe_spelling(vd, name, sizeof(name));
    vt = clang_getCanonicalType(clang_getCursorType(vd));
    fe_unique_name(cv, "range.k", kname, sizeof(kname));
    ksym = (int32_t)augur_skel_add_sym(cv->b, kname, AUGUR_SYM_LOCAL, AUGUR_T_I64, fe_loc(cv, s));
    fe_cursors_push(&cv->sym_decls, clang_getNullCursor());
    k = augur_expr_sym(cv->skel, AUGUR_T_I64, (uint32_t)ksym);
    fe_flush_ops(cv);
    fe_forget_reads(cv);
    loop = augur_skel_open(cv->b, AUGUR_NODE_LOOP, fe_loc(cv, s));
    loop->u.loop.form = AUGUR_LOOP_FOR;
    loop->u.loop.var = ksym;
    /* a row of an adjacency list runs from its start: k is the element's place in the block */
    loop->u.loop.init = start ? start : augur_expr_int(cv->skel, AUGUR_T_I64, 0);
    loop->u.loop.cond =
        augur_expr_binary(cv->skel, AUGUR_OP_LT, k,
                          start ? augur_expr_binary(cv->skel, AUGUR_OP_ADD, start, count) : count);
    loop->u.loop.next =
        augur_expr_binary(cv->skel, AUGUR_OP_ADD, k, augur_expr_int(cv->skel, AUGUR_T_I64, 1));
    apply_loop_pragmas(cv, loop, pend);
    outer_loop = cv->loop;
    cv->loop = s;
    enter_loop(cv, s);
    v = fe_var(cv, vd);
    if (vt.kind == CXType_LValueReference || vt.kind == CXType_RValueReference) {
        v->kind = FV_PTR;
        v->array = array;
        v->ref = true;
        v->sym = fe_declare_sym(cv, vd, name, AUGUR_SYM_LOCAL, AUGUR_T_I64);
        n = augur_skel_leaf(cv->b, AUGUR_NODE_ASSIGN, fe_loc(cv, vd));
        n->u.assign.sym = (uint32_t)v->sym;
        n->u.assign.value = k;
    } else {
        enum augur_type et = fe_type(vt);

        if (et != AUGUR_T_VOID && et != AUGUR_T_REC) {
            fe_access(cv, vd, (uint32_t)array, AUGUR_ACCESS_READ, et, 0, k, NULL, 1, NULL, 0);
            fe_assign_decl(cv, vd, vd, augur_expr_load(cv->skel, et, (uint32_t)array, 0, k));
        }
    }
    if (!clang_Cursor_isNull(body))
        stmt(cv, body, end_of(range), NULL);
    fe_count(cv, AUGUR_OPK_IADD, AUGUR_T_I64, 1, false, 1, s);
    fe_count(cv, AUGUR_OPK_CMP, AUGUR_T_I64, 1, false, 1, s);
    leave_loop(cv);
    cv->loop = outer_loop;
    fe_flush_ops(cv);
    augur_skel_close(cv->b);
    fe_forget_reads(cv);
}

static void loop_for(struct fe_conv *cv, CXCursor s, const struct pending *pend)
{
    CXCursor part[4], decl = clang_getNullCursor(), rhs;
    const char *op = NULL;
    struct augur_node *loop;
    const struct augur_expr *init = NULL, *cond = NULL, *cur, *next;
    int32_t sym = -1;
    bool is_ptr = false, cond_inside, whole;
    unsigned header_end;
    struct augur_vec header_ops;
    CXCursor outer_loop;

    augur_vec_init(&header_ops, sizeof(struct augur_opcount));
    for_parts(cv, s, part);
    if (!clang_Cursor_isNull(part[2]))
        decl = inc_decl(cv, part[2], &op, &rhs);
    if (!clang_Cursor_isNull(decl)) {
        CXType dt = clang_getCanonicalType(clang_getCursorType(decl));

        /* a pointer loop variable needs its pointer first (from the init) */
        if (dt.kind == CXType_Pointer && fe_var(cv, decl)->kind != FV_PTR &&
            !clang_Cursor_isNull(part[0])) {
            stmt(cv, part[0], 0, NULL);
            part[0] = clang_getNullCursor();
        }
        sym = loop_sym(cv, decl, &is_ptr);
    }
    fe_flush_ops(cv);
    fe_forget_reads(cv);
    if (sym < 0) {
        /* No single loop variable: init; while (cond) { body; inc } */
        if (!clang_Cursor_isNull(part[0]))
            stmt(cv, part[0], 0, NULL);
        fe_flush_ops(cv);
        loop = augur_skel_open(cv->b, AUGUR_NODE_LOOP, fe_loc(cv, s));
        loop->u.loop.form = AUGUR_LOOP_WHILE;
        apply_loop_pragmas(cv, loop, pend);
        outer_loop = cv->loop;
        cv->loop = s;
        enter_loop(cv, s);
        {
            unsigned inlined = cv->ninlined;

            cur = clang_Cursor_isNull(part[1]) ? augur_expr_int(cv->skel, AUGUR_T_I32, 1)
                                               : fe_expr(cv, part[1], FE_RVALUE).e;
            cur = cur ? cur : fe_opaque(cv, AUGUR_T_I32, "condition");
            loop->u.loop.cond =
                clang_Cursor_isNull(part[1]) ? cur : test_after_calls(cv, part[1], inlined, cur);
        }
        if (!clang_Cursor_isNull(part[3]))
            stmt(cv, part[3],
                 !clang_Cursor_isNull(part[2])   ? end_of(part[2])
                 : !clang_Cursor_isNull(part[1]) ? end_of(part[1])
                                                 : start_of(s),
                 NULL);
        if (!clang_Cursor_isNull(part[2]))
            fe_expr(cv, part[2], FE_DISCARD);
        leave_loop(cv);
        cv->loop = outer_loop;
        if (!clang_Cursor_isNull(part[3]) && contains(part[3], CXCursor_ContinueStmt) &&
            !clang_Cursor_isNull(part[2]))
            fe_note(cv, AUGUR_NOTE_UNSUPPORTED, s,
                    "a for loop without a single loop variable: 'continue' skips its increment in "
                    "the skeleton");
        fe_flush_ops(cv);
        augur_skel_close(cv->b);
        fe_forget_reads(cv);
        return;
    }
    {
        const struct augur_sym *sy = augur_skel_sym(cv->b, (uint32_t)sym);

        cur = augur_expr_sym(cv->skel, sy->type, (uint32_t)sym);
    }
    if (!clang_Cursor_isNull(part[0]))
        init = for_init(cv, part[0], decl, is_ptr);
    if (!init)
        init = cur;
    /* The condition is read once before the loop when it cannot change inside it. */
    cond_inside = true;
    if (!clang_Cursor_isNull(part[1]) && reads_memory(part[1]) && !clang_Cursor_isNull(part[3])) {
        struct assigned a = { cv, { 0 } };

        fe_cursors_push(&a.decls, decl);
        clang_visitChildren(part[3], assigned_visit, &a);
        cond_inside = loads_change(part[1], &a.decls);
        fe_cursors_release(&a.decls);
        if (!cond_inside) {
            struct augur_vec outer = cv->ops, mine;
            struct augur_srcloc oloc = cv->ops_loc;
            struct fe_val c;

            augur_vec_init(&cv->ops, sizeof(struct augur_opcount));
            c = fe_expr(cv, part[1], FE_RVALUE);
            cond = c.e && c.array < 0 ? c.e : fe_opaque(cv, AUGUR_T_I32, "condition");
            mine = cv->ops;
            cv->ops = outer;
            cv->ops_loc = oloc;
            /* The loads are hoisted; the comparison still runs at every iteration. */
            for (size_t i = 0; i < mine.len; i++) {
                const struct augur_opcount *o = &AUGUR_VEC_AT(&mine, struct augur_opcount, i);

                if (o->op == AUGUR_OPK_CMP)
                    augur_vec_append(&header_ops, o, 1);
                else
                    fe_count(cv, o->op, o->type, o->lanes, o->masked, o->count, part[1]);
            }
            augur_vec_release(&mine);
            fe_flush_ops(cv);
        }
    }
    fe_flush_ops(cv); /* the init's operations run once, before the loop */
    loop = augur_skel_open(cv->b, AUGUR_NODE_LOOP, fe_loc(cv, s));
    loop->u.loop.form = AUGUR_LOOP_FOR;
    loop->u.loop.var = sym;
    loop->u.loop.init = init->type == cur->type ? init : augur_expr_cast(cv->skel, cur->type, init);
    apply_loop_pragmas(cv, loop, pend);
    if (cond_inside && !clang_Cursor_isNull(part[1])) {
        struct augur_vec outer = cv->ops;
        struct augur_srcloc oloc = cv->ops_loc;
        struct fe_val c;

        augur_vec_init(&cv->ops, sizeof(struct augur_opcount));
        c = fe_expr(cv, part[1], FE_RVALUE);
        cond = c.e && c.array < 0 ? c.e : fe_opaque(cv, AUGUR_T_I32, "condition");
        /* The test's operations run with the step: count them at the end of the body. */
        augur_vec_append(&header_ops, cv->ops.data, cv->ops.len);
        augur_vec_release(&cv->ops);
        cv->ops = outer;
        cv->ops_loc = oloc;
    }
    loop->u.loop.cond = cond;
    outer_loop = cv->loop;
    cv->loop = s;
    enter_loop(cv, s);
    header_end = !clang_Cursor_isNull(part[2])   ? end_of(part[2])
                 : !clang_Cursor_isNull(part[1]) ? end_of(part[1])
                                                 : start_of(s);
    if (!clang_Cursor_isNull(part[3]))
        stmt(cv, part[3], header_end, NULL);
    /* The step: var = var + 1, var + e, or any e. */
    {
        int64_t trips = augur_skel_loop_const_trips(loop);

        /* unrolled whole, the loop leaves no test or step to run */
        whole = !strcmp(op, "++") && trips >= 1 && trips <= UNROLL_TRIPS;
    }
    if (!strcmp(op, "++") || !strcmp(op, "--")) {
        next = augur_expr_binary(cv->skel, op[0] == '+' ? AUGUR_OP_ADD : AUGUR_OP_SUB, cur,
                                 augur_expr_int(cv->skel, cur->type, 1));
        if (!whole)
            fe_count(cv, AUGUR_OPK_IADD, cur->type, 1, false, 1, part[2]);
    } else if (is_ptr && strcmp(op, "=") == 0) {
        struct fe_val p = fe_pointer(cv, rhs);

        next = p.array == fe_var(cv, decl)->array ? p.e : fe_opaque(cv, cur->type, "pointer");
    } else {
        struct fe_val v = fe_expr(cv, rhs, FE_RVALUE);
        const struct augur_expr *e =
            v.e && v.array < 0 && !v.vec ? v.e : fe_opaque(cv, cur->type, "step");

        if (!strcmp(op, "=")) {
            next = e;
        } else {
            /* i += e, i -= e, i *= 2, i >>= 1, ... */
            static const struct {
                const char *s;
                enum augur_op op;
                enum augur_opkind kind;
            } steps[] = {
                { "+=", AUGUR_OP_ADD, AUGUR_OPK_IADD },  { "-=", AUGUR_OP_SUB, AUGUR_OPK_IADD },
                { "*=", AUGUR_OP_MUL, AUGUR_OPK_IMUL },  { "/=", AUGUR_OP_DIV, AUGUR_OPK_IDIV },
                { "%=", AUGUR_OP_MOD, AUGUR_OPK_IDIV },  { "<<=", AUGUR_OP_SHL, AUGUR_OPK_IBIT },
                { ">>=", AUGUR_OP_SHR, AUGUR_OPK_IBIT }, { "&=", AUGUR_OP_BAND, AUGUR_OPK_IBIT },
                { "|=", AUGUR_OP_BOR, AUGUR_OPK_IBIT },  { "^=", AUGUR_OP_BXOR, AUGUR_OPK_IBIT }
            };

            next = NULL;
            for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
                if (!strcmp(op, steps[i].s)) {
                    next = augur_expr_binary(cv->skel, steps[i].op, cur, e);
                    fe_count(cv, steps[i].kind, cur->type, 1, false, 1, part[2]);
                }
            if (!next)
                next = fe_opaque(cv, cur->type, "step");
        }
    }
    if (next->type != cur->type)
        next = augur_expr_cast(cv->skel, cur->type, next);
    loop->u.loop.next = next;
    for (size_t i = 0; i < header_ops.len && !whole; i++) {
        const struct augur_opcount *o = &AUGUR_VEC_AT(&header_ops, struct augur_opcount, i);

        fe_count(cv, o->op, o->type, o->lanes, o->masked, o->count, part[1]);
    }
    augur_vec_release(&header_ops);
    leave_loop(cv);
    cv->loop = outer_loop;
    fe_flush_ops(cv);
    augur_skel_close(cv->b);
    fe_forget_reads(cv);
}

/* A condition as a scalar: a vector or mask value (any lane set?) is outside the slice. */
static const struct augur_expr *scalar_cond(struct fe_conv *cv, struct fe_val c)
{
    if (c.vec || c.mask)
        return fe_opaque(cv, AUGUR_T_I32, "any lane of a mask");
    if (c.e && c.array < 0)
        return c.e;
    if (c.array >= 0) /* "if (p)" on a placed array (malloc's result): never null */
        return augur_expr_int(cv->skel, AUGUR_T_I32, 1);
    return fe_opaque(cv, AUGUR_T_I32, "condition");
}

static void loop_while(struct fe_conv *cv, CXCursor s, bool is_do, const struct pending *pend)
{
    struct fe_cursors kids = { 0 };
    CXCursor cnd, body;
    struct augur_node *loop;
    struct fe_val c;
    CXCursor outer_loop;

    fe_children(s, &kids);
    if (kids.n != 2) {
        fe_cursors_release(&kids);
        fe_note(cv, AUGUR_NOTE_UNSUPPORTED, s, "cannot read this loop");
        return;
    }
    cnd = is_do ? kids.v[1] : kids.v[0];
    body = is_do ? kids.v[0] : kids.v[1];
    fe_cursors_release(&kids);
    if (clang_getCursorKind(cnd) == CXCursor_DeclStmt) {
        fe_note(cv, AUGUR_NOTE_UNSUPPORTED, s,
                "a declaration as a loop condition is not supported");
        return;
    }
    fe_flush_ops(cv);
    fe_forget_reads(cv);
    loop = augur_skel_open(cv->b, AUGUR_NODE_LOOP, fe_loc(cv, s));
    loop->u.loop.form = is_do ? AUGUR_LOOP_DO : AUGUR_LOOP_WHILE;
    apply_loop_pragmas(cv, loop, pend);
    outer_loop = cv->loop;
    cv->loop = s;
    enter_loop(cv, s);
    if (!is_do) {
        unsigned inlined = cv->ninlined;

        c = fe_expr(cv, cnd, FE_RVALUE);
        loop->u.loop.cond = test_after_calls(cv, cnd, inlined, scalar_cond(cv, c));
    }
    stmt(cv, body, is_do ? start_of(s) : end_of(cnd), NULL);
    if (is_do) {
        c = fe_expr(cv, cnd, FE_RVALUE);
        loop->u.loop.cond = scalar_cond(cv, c);
    }
    leave_loop(cv);
    cv->loop = outer_loop;
    fe_flush_ops(cv);
    augur_skel_close(cv->b);
    fe_forget_reads(cv);
}

/* ---- validity guards ----------------------------------------------------------------------- */

static const char *const io_calls[] = {
    "printf",    "fprintf",       "sprintf",      "snprintf",
    "vprintf",   "vfprintf",      "puts",         "fputs",
    "putchar",   "fputc",         "putc",         "fflush",
    "perror",    "fopen",         "fclose",       "fread",
    "fwrite",    "fscanf",        "scanf",        "sscanf",
    "setvbuf",   "clock_gettime", "gettimeofday", "clock",
    "time",      "times",         "getrusage",    "omp_get_wtime",
    "MPI_Wtime", "getenv",        "atoi",         "atol",
    "atoll",     "atof",          "strtol",       "strtoll",
    "strtoul",   "strtoull",      "strtod",       "strtof",
    "sleep",     "usleep",        "exit",         "_exit",
    "_Exit",     "quick_exit",    "abort",        "__assert_fail",
    "err",       "errx",          "warn",         "warnx",
    NULL
};

bool fe_is_io(const char *name)
{
    for (int i = 0; io_calls[i]; i++)
        if (!strcmp(io_calls[i], name))
            return true;
    return false;
}

bool fe_is_input(const char *name)
{
    static const char *const parse[] = { "atoi",   "atol",    "atoll",   "atof",
                                         "strtol", "strtoll", "strtoul", "strtoull",
                                         "strtod", "strtof",  NULL };

    for (int i = 0; parse[i]; i++)
        if (!strcmp(parse[i], name))
            return true;
    return false;
}

static bool is_main(struct fe_conv *cv)
{
    char name[16];

    fe_spelling(cv->func, name, sizeof(name));
    return !strcmp(name, "main");
}

bool fe_is_program_arg(struct fe_conv *cv, CXCursor decl)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(decl));

    /* argv and envp: strings for the I/O calls, not data */
    return clang_getCursorKind(decl) == CXCursor_ParmDecl && is_main(cv) &&
           clang_equalCursors(clang_getCursorSemanticParent(decl), cv->func) &&
           (t.kind == CXType_Pointer || t.kind == CXType_IncompleteArray) &&
           clang_getCanonicalType(t.kind == CXType_Pointer ? clang_getPointeeType(t)
                                                           : clang_getArrayElementType(t))
                   .kind == CXType_Pointer;
}

/* A search of the kernel's code for something done to a declaration. */
struct decl_search {
    struct fe_conv *cv;
    CXCursor decl;
    bool found;
};

static enum CXChildVisitResult filled_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    struct decl_search *f = data;
    char name[128];
    int n;

    (void)parent;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    fe_spelling(clang_getCursorReferenced(c), name, sizeof(name));
    if (!name[0] || !external(f->cv, name) || fe_is_io(name) || has_word(name, "alloc") ||
        has_word(name, "free") || !strncmp(name, "__", 2))
        return CXChildVisit_Recurse;
    n = clang_Cursor_getNumArguments(c);
    for (int i = 0; i < n; i++) {
        CXCursor a = fe_strip(clang_Cursor_getArgument(c, (unsigned)i));
        CXType at = clang_getCanonicalType(clang_getCursorType(a));
        struct fe_cursors kids = { 0 };

        if (clang_getCursorKind(a) != CXCursor_UnaryOperator || at.kind != CXType_Pointer)
            continue;
        /* &v: a pointer to v's type whose operand is v */
        fe_children(a, &kids);
        if (kids.n == 1 && clang_getCursorKind(fe_strip(kids.v[0])) == CXCursor_DeclRefExpr &&
            clang_equalCursors(clang_getCursorReferenced(fe_strip(kids.v[0])), f->decl) &&
            clang_equalTypes(clang_getCanonicalType(clang_getPointeeType(at)),
                             clang_getCanonicalType(clang_getCursorType(f->decl))))
            f->found = true;
        fe_cursors_release(&kids);
    }
    return f->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static enum CXChildVisitResult beside_io_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    struct decl_search *f = data;
    enum CXCursorKind k = clang_getCursorKind(c);

    (void)parent;
    if (k == CXCursor_CallExpr) {
        char name[128];

        fe_spelling(clang_getCursorReferenced(c), name, sizeof(name));
        if (fe_is_io(name) && external(f->cv, name))
            return CXChildVisit_Continue;
    }
    if (k == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(c), f->decl)) {
        f->found = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/*
 * True when decl is used other than in I/O and timing calls: a clock's
 * struct (timespec, timeval) never is.
 */
/* The variable an lvalue such as s, s.x or s.a[2] is part of (null: none). */
static CXCursor lvalue_root(CXCursor c)
{
    for (;;) {
        enum CXCursorKind k;

        c = fe_strip(c);
        k = clang_getCursorKind(c);
        if (k == CXCursor_DeclRefExpr)
            return clang_getCursorReferenced(c);
        if (k != CXCursor_MemberRefExpr && k != CXCursor_ArraySubscriptExpr)
            return clang_getNullCursor();
        {
            struct fe_cursors kids = { 0 };
            bool one = false;

            fe_children(c, &kids);
            if (kids.n)
                c = kids.v[0], one = true;
            fe_cursors_release(&kids);
            if (!one)
                return clang_getNullCursor();
        }
    }
}

/* Whether an assignment, ++/--, & or operator= reaches into m->decl. */
static enum CXChildVisitResult modified_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    struct decl_search *m = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    struct fe_cursors kids = { 0 };
    bool writes = false;

    (void)parent;
    if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator ||
        k == CXCursor_UnaryOperator) {
        const char *op = fe_opmap_get(m->cv->t, &m->cv->opmap, c);

        writes = op && (k == CXCursor_CompoundAssignOperator || !strcmp(op, "=") ||
                        !strcmp(op, "++") || !strcmp(op, "--") || !strcmp(op, "&"));
    } else if (k == CXCursor_CallExpr) {
        char name[32];

        fe_spelling(c, name, sizeof(name));
        writes = !strcmp(name, "operator=");
    }
    if (writes) {
        fe_children(c, &kids);
        if (kids.n && clang_equalCursors(lvalue_root(kids.v[0]), m->decl))
            m->found = true;
        fe_cursors_release(&kids);
    }
    return m->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/*
 * T s = A[i] of a struct T: while nothing writes into s or takes its address,
 * s.f reads field f of A[i] where it is used (a compiler loads the fields a
 * copy's uses need): s stands for the element as a pointer into A would.
 */
static bool element_view(struct fe_conv *cv, CXCursor vd, const char *name, CXCursor init)
{
    struct decl_search m = { cv, vd, false };
    CXCursor e = fe_strip(init);
    struct fe_val p;
    uint32_t off = 0;
    enum augur_type et;

    /* a C++ copy: the trivial constructor's one argument */
    if (clang_getCursorKind(e) == CXCursor_CallExpr && clang_Cursor_getNumArguments(e) == 1)
        e = fe_strip(clang_Cursor_getArgument(e, 0));
    if (clang_getCursorKind(e) != CXCursor_ArraySubscriptExpr &&
        clang_getCursorKind(e) != CXCursor_MemberRefExpr)
        return false;
    clang_visitChildren(cv->func, modified_visit, &m);
    for (size_t i = 0; !m.found && i < cv->inlining.n; i++)
        clang_visitChildren(cv->inlining.v[i], modified_visit, &m);
    if (m.found)
        return false;
    p = fe_lvalue(cv, e, &off, &et);
    if (p.array < 0 || off != 0 || !p.e)
        return false;
    {
        struct fe_var *v = fe_var(cv, vd);
        struct augur_node *n;

        v->kind = FV_PTR;
        v->array = p.array;
        v->sym = fe_declare_sym(cv, vd, name, AUGUR_SYM_LOCAL, AUGUR_T_I64);
        n = augur_skel_leaf(cv->b, AUGUR_NODE_ASSIGN, fe_loc(cv, vd));
        n->u.assign.sym = (uint32_t)v->sym;
        n->u.assign.value =
            p.e->type == AUGUR_T_I64 ? p.e : augur_expr_cast(cv->skel, AUGUR_T_I64, p.e);
    }
    return true;
}

static bool used_beside_io(struct fe_conv *cv, CXCursor decl)
{
    static const char *const clocks[] = { "struct timespec", "struct timeval",  "struct rusage",
                                          "struct tms",      "struct timezone", NULL };
    struct decl_search f = { cv, decl, false };
    CXCursor fn = clang_getCursorSemanticParent(decl);
    CXString ts = clang_getTypeSpelling(clang_getCanonicalType(clang_getCursorType(decl)));
    bool clock = false;

    for (int i = 0; clocks[i]; i++)
        clock |= strcmp(clang_getCString(ts), clocks[i]) == 0;
    clang_disposeString(ts);
    if (clock)
        return false;

    clang_visitChildren(clang_getCursorKind(fn) == CXCursor_FunctionDecl ? fn : cv->func,
                        beside_io_visit, &f);
    return f.found;
}

bool fe_filled_by_call(struct fe_conv *cv, CXCursor decl)
{
    struct decl_search f = { cv, decl, false };

    if (clang_getCursorKind(decl) != CXCursor_VarDecl ||
        clang_Cursor_hasVarDeclGlobalStorage(decl) == 1 ||
        !clang_equalCursors(clang_getCursorSemanticParent(decl), cv->func))
        return false;
    clang_visitChildren(cv->func, filled_visit, &f);
    return f.found;
}

/* The callee's name of call c (empty when it has none). */
static void callee_name(CXCursor c, char *out, size_t size)
{
    CXCursor f = clang_getCursorReferenced(c);

    out[0] = '\0';
    if (!clang_Cursor_isNull(f) && clang_getCursorKind(f) == CXCursor_FunctionDecl)
        fe_spelling(f, out, size);
}

/* A statement that leaves the function: return, goto (to its error exit), exit(), abort(). */
static bool leaves(struct fe_conv *cv, CXCursor s)
{
    enum CXCursorKind k = clang_getCursorKind(s);
    char name[64];

    if (k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt)
        return true;
    s = fe_strip(s);
    if (clang_getCursorKind(s) != CXCursor_CallExpr)
        return false;
    callee_name(s, name, sizeof(name));
    (void)cv;
    return !strcmp(name, "exit") || !strcmp(name, "_exit") || !strcmp(name, "_Exit") ||
           !strcmp(name, "quick_exit") || !strcmp(name, "abort") ||
           !strcmp(name, "__assert_fail") || !strcmp(name, "err") || !strcmp(name, "errx");
}

/*
 * An early exit: the function is left, after calls to the library at most
 * (a message, a free).
 */
static bool early_exit(struct fe_conv *cv, CXCursor s)
{
    struct fe_cursors kids = { 0 };
    bool ok;

    if (clang_getCursorKind(s) != CXCursor_CompoundStmt)
        return leaves(cv, s);
    fe_children(s, &kids);
    ok = kids.n > 0 && leaves(cv, kids.v[kids.n - 1]);
    for (size_t i = 0; ok && i + 1 < kids.n; i++) {
        CXCursor c = fe_strip(kids.v[i]);
        char name[128];

        callee_name(c, name, sizeof(name));
        ok = clang_getCursorKind(c) == CXCursor_CallExpr && name[0] &&
             !fe_map_get(&cv->t->funcs, name);
    }
    fe_cursors_release(&kids);
    return ok;
}

/* The parameter an expression reads as it is (x, A->nz, g.num_nodes), or a null cursor. */
static CXCursor param_root(CXCursor e)
{
    e = fe_strip(e);
    while (clang_getCursorKind(e) == CXCursor_MemberRefExpr) {
        struct fe_cursors kids = { 0 };

        fe_children(e, &kids);
        e = kids.n == 1 ? fe_strip(kids.v[0]) : clang_getNullCursor();
        fe_cursors_release(&kids);
        if (clang_Cursor_isNull(e))
            return e;
    }
    if (clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
        clang_getCursorKind(clang_getCursorReferenced(e)) == CXCursor_ParmDecl)
        return clang_getCursorReferenced(e);
    return clang_getNullCursor();
}

/* An integer constant or a null pointer ((void *)0, NULL): true, with its value. */
static bool constant_value(CXCursor e, long long *v)
{
    CXEvalResult r;
    bool ok;

    e = fe_strip(e);
    if (clang_getCursorKind(e) == CXCursor_CStyleCastExpr) {
        struct fe_cursors kids = { 0 };
        CXCursor x = clang_getNullCursor();

        fe_children(e, &kids);
        if (kids.n)
            x = kids.v[kids.n - 1];
        fe_cursors_release(&kids);
        return !clang_Cursor_isNull(x) && constant_value(x, v);
    }
    if (clang_getCursorKind(e) == CXCursor_GNUNullExpr ||
        clang_getCursorKind(e) == CXCursor_CXXNullPtrLiteralExpr) {
        *v = 0;
        return true;
    }
    r = clang_Cursor_Evaluate(e);
    ok = r && clang_EvalResult_getKind(r) == CXEval_Int;
    if (ok)
        *v = clang_EvalResult_getAsLongLong(r);
    if (r)
        clang_EvalResult_dispose(r);
    return ok;
}

static bool is_pointer_expr(CXCursor e)
{
    return clang_getCanonicalType(clang_getCursorType(fe_strip(e))).kind == CXType_Pointer;
}

/* A call to a function whose body is not here: in main(), its status (reading the input). */
static bool status_call(struct fe_conv *cv, CXCursor e)
{
    char name[128];

    e = fe_strip(e);
    if (clang_getCursorKind(e) != CXCursor_CallExpr || !is_main(cv))
        return false;
    callee_name(e, name, sizeof(name));
    return name[0] && !fe_map_get(&cv->t->funcs, name);
}

/*
 * One test of an argument's validity: a pointer parameter (or a member
 * pointer of one) tested against NULL, a size parameter tested for being
 * negative, a scalar member of a parameter (a flag, a format) compared with
 * a constant; in main(), argc compared with a constant and the status of a
 * call to the library.
 */
static bool validity_test(struct fe_conv *cv, CXCursor e)
{
    CXCursor root;
    const char *op;
    struct fe_cursors kids = { 0 };
    bool ok = false;
    long long v;

    e = fe_strip(e);
    root = param_root(e);
    if (!clang_Cursor_isNull(root))
        return is_pointer_expr(e); /* if (!x), if (A && ...) */
    if (status_call(cv, e))
        return true;
    if (clang_getCursorKind(e) != CXCursor_BinaryOperator ||
        !(op = fe_opmap_get(cv->t, &cv->opmap, e)))
        return false;
    fe_children(e, &kids);
    if (kids.n == 2 && (!strcmp(op, "==") || !strcmp(op, "!=") || !strcmp(op, "<") ||
                        !strcmp(op, "<=") || !strcmp(op, ">") || !strcmp(op, ">="))) {
        bool const_right = constant_value(kids.v[1], &v);
        CXCursor x = const_right ? kids.v[1] : kids.v[0];
        char rel = op[0];

        x = const_right ? kids.v[0] : kids.v[1];
        if (!const_right && !constant_value(kids.v[0], &v)) {
            fe_cursors_release(&kids);
            return false;
        }
        /* as x REL v: mirror "0 > n" into "n < 0" */
        if (!const_right && (rel == '<' || rel == '>'))
            rel = rel == '<' ? '>' : '<';
        root = param_root(x);
        x = fe_strip(x);
        if (status_call(cv, x)) {
            ok = true;
        } else if (!clang_Cursor_isNull(root)) {
            bool member = clang_getCursorKind(x) == CXCursor_MemberRefExpr;
            bool first_of_main = false;

            if (is_main(cv)) {
                struct fe_cursors ps = { 0 };

                fe_children(cv->func, &ps);
                first_of_main = ps.n && clang_getCursorKind(ps.v[0]) == CXCursor_ParmDecl &&
                                clang_equalCursors(ps.v[0], root);
                fe_cursors_release(&ps);
            }
            if (is_pointer_expr(x))
                ok = (op[0] == '=' || op[0] == '!') && v == 0;
            else if (member || first_of_main)
                ok = true;
            else /* n < 0, n <= 0, n < 1 */
                ok = rel == '<' && (op[1] == '=' ? v <= 0 : v <= 1);
        }
    }
    fe_cursors_release(&kids);
    return ok;
}

/* A condition made of validity tests only, with !, && and ||. */
static bool validity_cond(struct fe_conv *cv, CXCursor e, int depth)
{
    enum CXCursorKind k;
    const char *op;
    struct fe_cursors kids = { 0 };
    bool ok = false;

    e = fe_strip(e);
    k = clang_getCursorKind(e);
    if (depth > 32)
        return false;
    if ((k == CXCursor_UnaryOperator || k == CXCursor_BinaryOperator) &&
        (op = fe_opmap_get(cv->t, &cv->opmap, e)) != NULL &&
        (!strcmp(op, "!") || !strcmp(op, "&&") || !strcmp(op, "||"))) {
        fe_children(e, &kids);
        ok = kids.n >= 1;
        for (size_t i = 0; i < kids.n && ok; i++)
            ok = validity_cond(cv, kids.v[i], depth + 1);
        fe_cursors_release(&kids);
        return ok;
    }
    return validity_test(cv, e);
}

/*
 * The members a valid argument must hold, from a guard's condition taken
 * to be want: !(A && A->nz == -1) false needs A->nz == -1, A->format != 1
 * false needs A->format == 1. Each becomes a parameter bound to that
 * value, so that a run of the compiled kernel (augur measure) passes the
 * guard as the skeleton does; --bind still overrides it.
 */
static void guard_values(struct fe_conv *cv, CXCursor e, bool want, int depth)
{
    enum CXCursorKind k;
    const char *op;
    struct fe_cursors kids = { 0 };

    e = fe_strip(e);
    k = clang_getCursorKind(e);
    if (depth > 32 || (k != CXCursor_UnaryOperator && k != CXCursor_BinaryOperator) ||
        !(op = fe_opmap_get(cv->t, &cv->opmap, e)))
        return;
    fe_children(e, &kids);
    if (!strcmp(op, "!") && kids.n == 1) {
        guard_values(cv, kids.v[0], !want, depth + 1);
    } else if (((!strcmp(op, "||") && !want) || (!strcmp(op, "&&") && want)) && kids.n == 2) {
        guard_values(cv, kids.v[0], want, depth + 1);
        guard_values(cv, kids.v[1], want, depth + 1);
    } else if ((!strcmp(op, "==") || !strcmp(op, "!=")) && (op[0] == '=') == want && kids.n == 2) {
        long long v;
        bool right = constant_value(kids.v[1], &v);
        CXCursor m = fe_strip(right ? kids.v[0] : kids.v[1]);

        if ((right || constant_value(kids.v[0], &v)) &&
            clang_getCursorKind(m) == CXCursor_MemberRefExpr &&
            !clang_Cursor_isNull(param_root(m)) && !is_pointer_expr(m)) {
            struct fe_val x = fe_expr(cv, m, FE_RVALUE);

            if (x.e && x.e->kind == AUGUR_EXPR_SYM) {
                struct augur_sym *sym = augur_skel_sym(cv->b, x.e->u.sym);

                if (sym->kind == AUGUR_SYM_PARAM && sym->bind_src == AUGUR_BIND_NONE) {
                    sym->bind = augur_arena_strfmt(&cv->skel->arena, "=%lld", v);
                    sym->bind_src = AUGUR_BIND_INFERRED;
                }
            }
        }
    }
    fe_cursors_release(&kids);
}

/* Evaluates the calls a condition makes (reading the input: they still run). */
static enum CXChildVisitResult guard_calls(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        fe_expr(data, c, FE_DISCARD);
        return CXChildVisit_Continue;
    }
    return CXChildVisit_Recurse;
}

/*
 * if (!A || !x || n < 0) return ...: the arguments' validity checked
 * before the work. The early exit is taken never to run (the data the
 * skeleton runs on is valid) rather than as a branch of probability 0.5
 * on members nothing binds; a note says so.
 */
static bool validity_guard(struct fe_conv *cv, CXCursor s, const struct fe_cursors *kids,
                           const struct pending *pend)
{
    char text[160];
    unsigned b, e;
    size_t n = 0;

    if (kids->n != 2 || (pend && pend->prob >= 0) || !early_exit(cv, kids->v[1]) ||
        !validity_cond(cv, kids->v[0], 0))
        return false;
    if (clang_getCursorKind(fe_strip(kids->v[0])) == CXCursor_CallExpr)
        fe_expr(cv, kids->v[0], FE_DISCARD);
    else
        clang_visitChildren(kids->v[0], guard_calls, cv);
    if (cv->final)
        guard_values(cv, kids->v[0], false, 0);
    fe_extent_offsets(kids->v[0], &b, &e);
    for (unsigned i = b; i < e && i < cv->t->size && n + 4 < sizeof(text); i++) {
        char ch = cv->t->contents[i];

        if (ch == '\n' || ch == '\t' || ch == '\r')
            ch = ' ';
        if (ch == ' ' && n && text[n - 1] == ' ')
            continue;
        text[n++] = ch;
    }
    if (e > b && n + 4 >= sizeof(text))
        memcpy(text + n, "...", 3), n += 3;
    text[n] = '\0';
    fe_note(cv, AUGUR_NOTE_GUARD, s, "validity guard taken as valid: %s", text);
    return true;
}

static void branch(struct fe_conv *cv, CXCursor s, const struct pending *pend)
{
    struct fe_cursors kids = { 0 };
    struct augur_node *br;
    struct fe_val c;

    fe_children(s, &kids);
    if (kids.n < 2 || clang_getCursorKind(kids.v[0]) == CXCursor_DeclStmt) {
        fe_cursors_release(&kids);
        fe_note(cv, AUGUR_NOTE_UNSUPPORTED, s, "cannot read this if statement");
        return;
    }
    if (validity_guard(cv, s, &kids, pend)) {
        fe_cursors_release(&kids);
        return;
    }
    c = fe_expr(cv, kids.v[0], FE_RVALUE);
    fe_flush_ops(cv);
    fe_forget_reads(cv);
    br = augur_skel_open(cv->b, AUGUR_NODE_BRANCH, fe_loc(cv, s));
    br->u.branch.cond =
        c.e && c.array < 0 && !c.vec ? c.e : fe_opaque(cv, AUGUR_T_I32, "condition");
    if (pend && pend->prob >= 0)
        br->u.branch.prob = pend->prob;
    stmt(cv, kids.v[1], end_of(kids.v[0]), NULL);
    fe_flush_ops(cv);
    fe_forget_reads(cv);
    br->u.branch.nthen = augur_skel_nkids(cv->b);
    if (kids.n > 2) {
        stmt(cv, kids.v[2], end_of(kids.v[1]), NULL);
        fe_flush_ops(cv);
    }
    augur_skel_close(cv->b);
    fe_forget_reads(cv);
    fe_cursors_release(&kids);
}

/*
 * switch: each group of case labels with its statements becomes a branch on
 * the value (kept in a sym, read once), the default's statements the last
 * else, as a compiler's chain of compares or jump table runs them. Groups
 * must end in break (or return, continue): a case that falls through into
 * the next one's statements, or a break inside a group's code, is not read.
 */
struct case_group {
    struct fe_cursors labels; /* the values' expressions; empty for default alone */
    bool is_default;
    struct fe_cursors body;
    CXCursor at;
};

/* Whether s holds a break that leaves the switch (not one of a loop or switch inside it). */
static enum CXChildVisitResult switch_break_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    enum CXCursorKind k = clang_getCursorKind(c);

    (void)parent;
    if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt ||
        k == CXCursor_SwitchStmt)
        return CXChildVisit_Continue;
    if (k == CXCursor_BreakStmt) {
        *(bool *)d = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static bool breaks_switch(CXCursor s)
{
    bool found = clang_getCursorKind(s) == CXCursor_BreakStmt;

    if (!found)
        clang_visitChildren(s, switch_break_visit, &found);
    return found;
}

static bool ends_group(CXCursor s)
{
    enum CXCursorKind k = clang_getCursorKind(s);

    return k == CXCursor_BreakStmt || k == CXCursor_ReturnStmt || k == CXCursor_ContinueStmt;
}

/* The groups of a switch's body; false when it has a form this does not read. */
static bool case_groups(CXCursor body, struct case_group *g, size_t *ng, size_t max)
{
    struct fe_cursors st = { 0 };
    bool ok = true;

    *ng = 0;
    if (clang_getCursorKind(body) == CXCursor_CompoundStmt)
        fe_children(body, &st);
    else
        fe_cursors_push(&st, body);
    for (size_t i = 0; i < st.n && ok; i++) {
        CXCursor c = st.v[i];
        enum CXCursorKind k = clang_getCursorKind(c);

        if (k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt) {
            struct case_group *cg;

            if (*ng == max) {
                ok = false;
                break;
            }
            cg = &g[(*ng)++];
            memset(cg, 0, sizeof(*cg));
            cg->at = c;
            /* stacked labels: case 1: case 2: S */
            while (k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt) {
                struct fe_cursors lk = { 0 };

                fe_children(c, &lk);
                if (k == CXCursor_CaseStmt && lk.n == 2)
                    fe_cursors_push(&cg->labels, lk.v[0]);
                else if (k == CXCursor_DefaultStmt && lk.n == 1)
                    cg->is_default = true;
                else
                    ok = false; /* a GNU case range */
                c = lk.n ? lk.v[lk.n - 1] : clang_getNullCursor();
                fe_cursors_release(&lk);
                k = clang_getCursorKind(c);
                if (!ok || clang_Cursor_isNull(c))
                    break;
            }
            if (ok && !clang_Cursor_isNull(c) && k != CXCursor_NullStmt)
                fe_cursors_push(&cg->body, c);
        } else if (*ng) {
            fe_cursors_push(&g[*ng - 1].body, c);
        } /* statements before the first label never run */
    }
    fe_cursors_release(&st);
    for (size_t i = 0; i < *ng && ok; i++) {
        struct case_group *cg = &g[i];
        size_t n = cg->body.n;

        /* every group but the last ends its statements with a jump; no other break leaves */
        if (n == 0 ? i + 1 < *ng : !ends_group(cg->body.v[n - 1]) && i + 1 < *ng)
            ok = false;
        for (size_t j = 0; j + 1 < n && ok; j++)
            ok = !breaks_switch(cg->body.v[j]);
        if (n && ok && clang_getCursorKind(cg->body.v[n - 1]) != CXCursor_BreakStmt)
            ok = !breaks_switch(cg->body.v[n - 1]);
    }
    return ok;
}

static void case_groups_release(struct case_group *g, size_t ng)
{
    for (size_t i = 0; i < ng; i++) {
        fe_cursors_release(&g[i].labels);
        fe_cursors_release(&g[i].body);
    }
}

/* A group's statements, without the break that ends it. */
static void case_body(struct fe_conv *cv, const struct case_group *cg)
{
    for (size_t j = 0; j < cg->body.n; j++)
        if (clang_getCursorKind(cg->body.v[j]) != CXCursor_BreakStmt)
            stmt(cv, cg->body.v[j], start_of(cg->body.v[j]), NULL);
    fe_flush_ops(cv);
    fe_forget_reads(cv);
}

/* Branches for the groups from i on: if (v == a || v == b) { ... } else { the rest }. */
static void case_chain(struct fe_conv *cv, const struct augur_expr *v, struct case_group *g,
                       size_t ng, size_t i, const struct case_group *dflt)
{
    const struct augur_expr *cond = NULL;
    struct augur_node *br;

    while (i < ng && (g[i].is_default || g[i].labels.n == 0))
        i++; /* default (with any labels stacked on it) runs last */
    if (i == ng) {
        if (dflt)
            case_body(cv, dflt);
        return;
    }
    for (size_t k = 0; k < g[i].labels.n; k++) {
        struct fe_val l = fe_expr(cv, g[i].labels.v[k], FE_RVALUE);
        const struct augur_expr *le = l.e && l.array < 0 && !l.vec ? l.e : NULL;
        const struct augur_expr *eq = le ? augur_expr_binary(cv->skel, AUGUR_OP_EQ, v, le)
                                         : fe_opaque(cv, AUGUR_T_I32, "case");

        fe_count(cv, AUGUR_OPK_CMP, v->type, 1, false, 1, g[i].labels.v[k]);
        cond = cond ? augur_expr_binary(cv->skel, AUGUR_OP_LOR, cond, eq) : eq;
    }
    fe_flush_ops(cv);
    br = augur_skel_open(cv->b, AUGUR_NODE_BRANCH, fe_loc(cv, g[i].at));
    br->u.branch.cond = cond;
    case_body(cv, &g[i]);
    br->u.branch.nthen = augur_skel_nkids(cv->b);
    case_chain(cv, v, g, ng, i + 1, dflt);
    augur_skel_close(cv->b);
    fe_forget_reads(cv);
}

#define MAX_CASE_GROUPS 64

static void switch_stmt(struct fe_conv *cv, CXCursor s)
{
    struct fe_cursors kids = { 0 };
    struct case_group *g = augur_calloc(MAX_CASE_GROUPS, sizeof(*g));
    const struct case_group *dflt = NULL;
    size_t ng = 0;
    struct fe_val v;

    fe_children(s, &kids);
    if (!g || kids.n != 2 || clang_getCursorKind(kids.v[0]) == CXCursor_DeclStmt ||
        !case_groups(kids.v[1], g, &ng, MAX_CASE_GROUPS)) {
        if (kids.n)
            fe_expr(cv, kids.v[0], FE_DISCARD);
        fe_note(cv, AUGUR_NOTE_UNSUPPORTED, s,
                "this switch is not read (a case falls through into the next one's code, a break "
                "inside a case, a case range, or over %d groups): its body is left out",
                MAX_CASE_GROUPS);
        goto out;
    }
    v = fe_expr(cv, kids.v[0], FE_RVALUE);
    for (size_t i = 0; i < ng; i++)
        if (g[i].is_default)
            dflt = &g[i];
    {
        const struct augur_expr *e =
            v.e && v.array < 0 && !v.vec ? v.e : fe_opaque(cv, AUGUR_T_I32, "switch");

        /* read once, as the compiled switch does */
        e = fe_capture(cv, s, "switch", e);
        fe_flush_ops(cv);
        fe_forget_reads(cv);
        case_chain(cv, e, g, ng, 0, dflt);
    }
out:
    case_groups_release(g, ng);
    augur_free(g);
    fe_cursors_release(&kids);
}

static void jump(struct fe_conv *cv, CXCursor s, enum augur_jump_kind kind)
{
    struct augur_node *n;

    if (kind != AUGUR_JUMP_RETURN && cv->loops == 0) {
        fe_note(cv, AUGUR_NOTE_UNSUPPORTED, s, "'%s' outside a loop (in a switch?) is left out",
                kind == AUGUR_JUMP_BREAK ? "break" : "continue");
        return;
    }
    fe_flush_ops(cv);
    n = augur_skel_leaf(cv->b, AUGUR_NODE_JUMP, fe_loc(cv, s));
    n->u.jump = kind;
}

/* NULL, 0, (void *)0, nullptr: a pointer that points nowhere yet. */
static bool is_null_pointer(CXCursor c)
{
    for (int i = 0; i < 8; i++) {
        enum CXCursorKind k;
        struct fe_cursors kids = { 0 };
        CXCursor next;

        c = fe_strip(c);
        k = clang_getCursorKind(c);
        if (k == CXCursor_GNUNullExpr || k == CXCursor_CXXNullPtrLiteralExpr)
            return true;
        if (k != CXCursor_CStyleCastExpr)
            break;
        fe_children(c, &kids);
        next = kids.n ? kids.v[kids.n - 1] : c;
        fe_cursors_release(&kids);
        if (clang_equalCursors(next, c))
            break;
        c = next;
    }
    if (clang_getCursorKind(c) == CXCursor_IntegerLiteral) {
        CXEvalResult r = clang_Cursor_Evaluate(c);
        bool zero = r && clang_EvalResult_getKind(r) == CXEval_Int &&
                    clang_EvalResult_getAsLongLong(r) == 0;

        if (r)
            clang_EvalResult_dispose(r);
        return zero;
    }
    return false;
}

static bool is_sizeof(CXCursor c)
{
    return clang_getCursorKind(fe_strip(c)) == CXCursor_UnaryExpr;
}

static bool is_const_int(CXCursor c)
{
    CXEvalResult r = clang_Cursor_Evaluate(fe_strip(c));
    bool k = r && clang_EvalResult_getKind(r) == CXEval_Int;

    if (r)
        clang_EvalResult_dispose(r);
    return k;
}

bool fe_alloc_size(struct fe_conv *cv, CXCursor c, const struct augur_expr **bytes)
{
    char name[128];
    CXCursor sizes[4];
    int n, nsizes = 0, nvar = 0, var = -1;

    c = fe_strip(c);
    if (clang_getCursorKind(c) == CXCursor_CStyleCastExpr) {
        struct fe_cursors kids = { 0 };

        fe_children(c, &kids);
        if (kids.n)
            c = fe_strip(kids.v[kids.n - 1]);
        fe_cursors_release(&kids);
    }
    if (clang_getCursorKind(c) != CXCursor_CallExpr ||
        clang_getCanonicalType(clang_getCursorType(c)).kind != CXType_Pointer)
        return false;
    fe_spelling(clang_getCursorReferenced(c), name, sizeof(name));
    if (!name[0] || !has_word(name, "alloc") || !external(cv, name))
        return false;
    /* The size arguments: the integer ones (realloc's pointer is not one). */
    n = clang_Cursor_getNumArguments(c);
    for (int i = 0; i < n && nsizes < 4; i++) {
        CXCursor a = clang_Cursor_getArgument(c, (unsigned)i);

        if (clang_getCanonicalType(clang_getCursorType(fe_strip(a))).kind == CXType_Pointer)
            continue;
        if (!is_const_int(a))
            nvar++, var = nsizes;
        sizes[nsizes++] = a;
    }
    *bytes = NULL;
    if (nsizes == 2 && (has_word(name, "calloc") || is_sizeof(sizes[0]) || is_sizeof(sizes[1]))) {
        /* a count and an element size: calloc(n, sizeof(T)), xcalloc(n, 8) */
        const struct augur_expr *a = fe_expr(cv, sizes[0], FE_RVALUE).e;
        const struct augur_expr *b = fe_expr(cv, sizes[1], FE_RVALUE).e;

        *bytes = a && b ? augur_expr_binary(cv->skel, AUGUR_OP_MUL, a, b) : NULL;
    } else if (nsizes == 1 || nvar == 1) {
        /* the size; a constant beside it is an alignment (_mm_malloc(s, 64), aligned_alloc) */
        *bytes = fe_expr(cv, sizes[nsizes == 1 ? 0 : var], FE_RVALUE).e;
    } else if (nsizes > 1) {
        *bytes = fe_expr(cv, sizes[has_word(name, "align") ? nsizes - 1 : 0], FE_RVALUE).e;
    }
    return true;
}

bool fe_is_free(struct fe_conv *cv, CXCursor c, const char *name)
{
    CXType rt = clang_getCanonicalType(clang_getCursorType(c));

    return has_word(name, "free") && external(cv, name) && (rt.kind == CXType_Void || cv->discard);
}

bool fe_alias_pointer(struct fe_conv *cv, CXCursor decl, CXCursor at, struct fe_val *p)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(decl));
    const struct augur_array *arr = augur_skel_array(cv->b, (uint32_t)p->array);
    long long psize = clang_Type_getSizeOf(clang_getPointeeType(t));
    struct fe_var *v = fe_var(cv, decl);
    char name[256];

    if (v->kind != FV_NONE)
        return false;
    fe_spelling(decl, name, sizeof(name));
    if (psize > 0 && (uint64_t)psize != arr->elem_size && arr->elem != AUGUR_T_REC) {
        /* A view with another element type (a u32 pointer into a double buffer) is an array of
         * its own: indices count its own elements. */
        enum augur_space space = arr->space;
        int32_t a;

        fe_note(cv, AUGUR_NOTE_WARNING, at,
                "'%s' views '%s' with another element type: it is kept as an array of its own",
                name, arr->name);
        a = fe_array_for(cv, decl, name, clang_getPointeeType(t), space, false, decl);
        v = fe_var(cv, decl);
        v->kind = FV_ARRAY;
        v->array = a;
        p->array = a;
        p->e = augur_expr_int(cv->skel, AUGUR_T_I64, 0);
        return true;
    }
    if (p->e->kind == AUGUR_EXPR_INT && p->e->u.i == 0 && !fe_pointer_moves(cv, decl)) {
        /* Ap = A->p: the array itself, as long as the pointer never moves along it */
        v->kind = FV_ARRAY;
        v->array = p->array;
        return true;
    }
    return false;
}

static void declare_local(struct fe_conv *cv, CXCursor vd)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(vd));
    struct fe_cursors kids = { 0 };
    CXCursor init = clang_getNullCursor();
    char name[256];
    bool shared = false;

    fe_spelling(vd, name, sizeof(name));
    fe_children(vd, &kids);
    for (size_t i = 0; i < kids.n; i++) {
        enum CXCursorKind k = clang_getCursorKind(kids.v[i]);

        if (k == CXCursor_CUDASharedAttr)
            shared = true;
        else if (clang_isExpression(k))
            init = kids.v[i];
    }
    fe_cursors_release(&kids);
    if (t.kind == CXType_ConstantArray || t.kind == CXType_VariableArray ||
        t.kind == CXType_IncompleteArray) {
        int32_t a;
        const struct augur_expr *extent = NULL;

        if (t.kind == CXType_VariableArray) {
            fe_note(cv, AUGUR_NOTE_UNSUPPORTED, vd,
                    "variable-length array '%s': its size is not known to the skeleton", name);
        } else if (t.kind == CXType_ConstantArray) {
            long long count = 1;

            for (CXType e = t; e.kind == CXType_ConstantArray;
                 e = clang_getCanonicalType(clang_getArrayElementType(e)))
                count *= clang_getArraySize(e) > 0 ? clang_getArraySize(e) : 1;
            extent =
                augur_expr_int(cv->skel, count <= INT32_MAX ? AUGUR_T_I32 : AUGUR_T_I64, count);
        }
        a = fe_array_for(cv, vd, name, t, shared ? AUGUR_SPACE_SHARED : AUGUR_SPACE_LOCAL, false,
                         vd);
        augur_skel_array(cv->b, (uint32_t)a)->extent = extent;
        fe_var(cv, vd)->kind = FV_ARRAY;
        fe_var(cv, vd)->array = a;
        if (!clang_Cursor_isNull(init) && t.kind != CXType_ConstantArray)
            fe_expr(cv, init, FE_DISCARD);
        return;
    }
    if (t.kind == CXType_Pointer) {
        const struct augur_expr *bytes = NULL;

        if (clang_Cursor_isNull(init))
            return;
        /* no array yet: the assignment that gives it one decides (checked at the end) */
        if (is_null_pointer(init)) {
            fe_var(cv, vd)->null_init = true;
            return;
        }
        if (fe_alloc_size(cv, init, &bytes)) {
            CXType pointee = clang_getPointeeType(t);
            int32_t a = fe_array_for(cv, vd, name, pointee, AUGUR_SPACE_LOCAL, false, vd);
            struct augur_array *arr = augur_skel_array(cv->b, (uint32_t)a);

            if (bytes)
                arr->extent = fe_bytes_to_count(cv, bytes, arr->elem_size);
            fe_var(cv, vd)->kind = FV_ARRAY;
            fe_var(cv, vd)->array = a;
            return;
        }
        {
            struct fe_val p = fe_pointer(cv, init);
            struct fe_var *v = fe_var(cv, vd);

            if (p.array < 0) {
                fe_note(cv, AUGUR_NOTE_WARNING, vd,
                        "cannot tell which array '%s' points to: accesses through it are left out",
                        name);
                return;
            }
            if (fe_alias_pointer(cv, vd, vd, &p))
                return;
            v = fe_var(cv, vd);
            v->kind = FV_PTR;
            v->array = p.array;
            v->sym = fe_declare_sym(cv, vd, name, AUGUR_SYM_LOCAL, AUGUR_T_I64);
            {
                struct augur_node *n = augur_skel_leaf(cv->b, AUGUR_NODE_ASSIGN, fe_loc(cv, vd));

                n->u.assign.sym = (uint32_t)fe_var(cv, vd)->sym;
                n->u.assign.value =
                    p.e->type == AUGUR_T_I64 ? p.e : augur_expr_cast(cv->skel, AUGUR_T_I64, p.e);
            }
        }
        return;
    }
    if ((t.kind == CXType_LValueReference || t.kind == CXType_RValueReference) &&
        !clang_Cursor_isNull(init) && !fe_is_record(t)) {
        uint32_t off = 0;
        enum augur_type et;
        struct fe_val w = fe_lvalue(cv, init, &off, &et);

        /* T &r = y[i]: r names that element, through every read and store */
        if (w.array >= 0 && off == 0) {
            struct fe_var *v = fe_var(cv, vd);
            struct augur_node *n;

            v->kind = FV_PTR;
            v->array = w.array;
            v->ref = true;
            v->sym = fe_declare_sym(cv, vd, name, AUGUR_SYM_LOCAL, AUGUR_T_I64);
            n = augur_skel_leaf(cv->b, AUGUR_NODE_ASSIGN, fe_loc(cv, vd));
            n->u.assign.sym = (uint32_t)v->sym;
            n->u.assign.value =
                w.e->type == AUGUR_T_I64 ? w.e : augur_expr_cast(cv->skel, AUGUR_T_I64, w.e);
            return;
        }
        if (!clang_isConstQualifiedType(clang_getPointeeType(t)))
            fe_note(cv, AUGUR_NOTE_UNSUPPORTED, vd,
                    "the reference '%s' names nothing the skeleton can place: stores through it "
                    "are left out",
                    name);
    }
    if (t.kind == CXType_Record) {
        if (!clang_Cursor_isNull(init) && fe_std_container(t) &&
            fe_local_container(cv, vd, name, t, init))
            return;
        if (!clang_Cursor_isNull(init) && element_view(cv, vd, name, init))
            return;
        if (!clang_Cursor_isNull(init))
            fe_expr(cv, init, FE_DISCARD);
        if (used_beside_io(cv, vd))
            fe_note(cv, AUGUR_NOTE_WARNING, vd, "the struct variable '%s' is not followed", name);
        return;
    }
    if (clang_Cursor_isNull(init)) {
        if (t.kind == CXType_Vector) {
            struct fe_var *v = fe_var(cv, vd);

            v->kind = FV_VEC;
            v->lanes = fe_opaque(cv, AUGUR_T_I64, name);
            v->lanes_n = 1;
        }
        return;
    }
    {
        struct fe_val v = fe_expr(cv, init, FE_RVALUE);

        if (v.vec || v.mask || t.kind == CXType_Vector) {
            struct fe_var *fv = fe_var(cv, vd);

            fv->kind = v.mask ? FV_MASK : FV_VEC;
            fv->lanes = v.e ? v.e : fe_opaque(cv, AUGUR_T_I64, name);
            fv->lanes_n = v.lanes;
            fv->lane_type = v.type;
            return;
        }
        fe_assign_decl(cv, vd, vd, v.e && v.array < 0 ? v.e : fe_opaque(cv, fe_type(t), name));
    }
}

static void region(struct fe_conv *cv, CXCursor s, unsigned lo, const struct pending *pend, int r)
{
    struct augur_node *n;
    const struct directive *d = &pend->regions[r];

    fe_flush_ops(cv);
    fe_forget_reads(cv);
    n = augur_skel_open(cv->b, AUGUR_NODE_REGION, fe_loc(cv, s));
    n->u.region.kind = d->region;
    n->u.region.omp = d->omp;
    if (d->region == AUGUR_REGION_ATOMIC)
        cv->atomic++;
    if (r + 1 < pend->nregions) {
        region(cv, s, lo, pend, r + 1);
    } else {
        struct pending rest = *pend;

        rest.nregions = 0;
        stmt(cv, s, lo, &rest);
    }
    if (d->region == AUGUR_REGION_ATOMIC)
        cv->atomic--;
    fe_flush_ops(cv);
    augur_skel_close(cv->b);
    fe_forget_reads(cv);
}

/* Loop extents of the kernel, to tell whether a goto jumps into a loop. */
struct loops_of {
    struct augur_vec ext; /* unsigned pairs */
};

static enum CXChildVisitResult loops_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    struct loops_of *l = data;
    enum CXCursorKind k = clang_getCursorKind(c);

    (void)parent;
    if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt) {
        unsigned *p = augur_vec_push(&l->ext);

        fe_extent_offsets(c, &p[0], &p[1]);
    }
    return CXChildVisit_Recurse;
}

static bool goes_into_loop(struct fe_conv *cv, CXCursor go)
{
    CXCursor label = clang_getCursorReferenced(go);
    struct loops_of l;
    unsigned g = start_of(go), lb;
    bool into = false;

    if (clang_Cursor_isNull(label))
        return false;
    lb = start_of(label);
    augur_vec_init(&l.ext, 2 * sizeof(unsigned));
    clang_visitChildren(cv->func, loops_visit, &l);
    for (size_t i = 0; i < l.ext.len; i++) {
        unsigned *p = (unsigned *)l.ext.data + 2 * i;

        if (lb >= p[0] && lb < p[1] && !(g >= p[0] && g < p[1]))
            into = true;
    }
    augur_vec_release(&l.ext);
    return into;
}

void fe_stmt(struct fe_conv *cv, CXCursor s, unsigned lo)
{
    stmt(cv, s, lo, NULL);
}

/* Converts s; pend (when not NULL) holds the pragmas already taken for it. */
struct assert_find {
    CXCursor cond;
    bool found;
};

static enum CXChildVisitResult assert_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    struct assert_find *f = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    struct fe_cursors kids = { 0 };

    (void)parent;
    if (k == CXCursor_UnaryExpr) /* sizeof ((expr) ? 1 : 0): not evaluated */
        return CXChildVisit_Continue;
    if (k != CXCursor_IfStmt && k != CXCursor_ConditionalOperator)
        return CXChildVisit_Recurse;
    fe_children(c, &kids);
    if (kids.n) {
        f->cond = kids.v[0];
        f->found = true;
    }
    fe_cursors_release(&kids);
    return CXChildVisit_Break;
}

/*
 * assert(e) as <assert.h> expands it (a statement expression, a sizeof,
 * the stringified condition): the condition is read and tested, and the
 * failure path never runs. True when s is one and was converted.
 */
static bool assert_stmt(struct fe_conv *cv, CXCursor s)
{
    CXFile f = NULL;
    unsigned off = 0;
    size_t len = 0;
    const char *text;
    bool is_assert;
    struct assert_find fd = { clang_getNullCursor(), false };

    /* the text where the statement is written (the macro's invocation): "assert (" */
    clang_getSpellingLocation(clang_getRangeStart(fe_file_extent(cv->t->tu, s)), &f, NULL, NULL,
                              &off);
    text = f ? clang_getFileContents(cv->t->tu, f, &len) : NULL;
    is_assert = text && off + 6 < len && !strncmp(text + off, "assert", 6);
    for (off += 6; is_assert && off < len && (text[off] == ' ' || text[off] == '\t'); off++)
        ;
    is_assert = is_assert && off < len && text[off] == '(';
    if (!is_assert)
        return false;
    clang_visitChildren(s, assert_visit, &fd);
    if (fd.found)
        fe_expr(cv, fd.cond, FE_DISCARD);
    return true;
}

static void stmt(struct fe_conv *cv, CXCursor s, unsigned lo, const struct pending *given)
{
    enum CXCursorKind k = clang_getCursorKind(s);
    struct pending pend;

    if (cv->rc)
        return;
    if (given) {
        pend = *given;
    } else if (in_main(cv, s) && lo) {
        take_pragmas(cv, s, lo, start_of(s), &pend, false);
    } else {
        memset(&pend, 0, sizeof(pend));
        pend.prob = pend.trips = -1;
    }
    if (pend.nregions) {
        region(cv, s, lo, &pend, 0);
        return;
    }
    if (pend.loop.kind == DIR_LOOP && k != CXCursor_ForStmt && k != CXCursor_WhileStmt &&
        k != CXCursor_DoStmt && k != CXCursor_UnexposedStmt)
        fe_note(cv, AUGUR_NOTE_WARNING, s,
                "the OpenMP loop directive at line %u is not followed by a loop", pend.line);
    switch (k) {
    case CXCursor_CompoundStmt: {
        struct fe_cursors kids = { 0 };
        unsigned prev = start_of(s);

        fe_children(s, &kids);
        for (size_t i = 0; i < kids.n && !cv->rc; i++) {
            stmt(cv, kids.v[i], prev, NULL);
            prev = end_of(kids.v[i]);
        }
        fe_cursors_release(&kids);
        if (in_main(cv, s)) {
            struct pending tail;

            take_pragmas(cv, s, prev, end_of(s), &tail, true);
        }
        break;
    }
    case CXCursor_DeclStmt: {
        struct fe_cursors kids = { 0 };

        fe_children(s, &kids);
        for (size_t i = 0; i < kids.n; i++)
            if (clang_getCursorKind(kids.v[i]) == CXCursor_VarDecl)
                declare_local(cv, kids.v[i]);
        fe_cursors_release(&kids);
        break;
    }
    case CXCursor_VarDecl:
        declare_local(cv, s);
        break;
    case CXCursor_ForStmt:
        loop_for(cv, s, &pend);
        break;
    case CXCursor_CXXForRangeStmt:
        loop_range(cv, s, &pend);
        break;
    case CXCursor_WhileStmt:
        loop_while(cv, s, false, &pend);
        break;
    case CXCursor_DoStmt:
        loop_while(cv, s, true, &pend);
        break;
    case CXCursor_IfStmt:
        branch(cv, s, &pend);
        break;
    case CXCursor_BreakStmt:
        jump(cv, s, AUGUR_JUMP_BREAK);
        break;
    case CXCursor_ContinueStmt:
        jump(cv, s, AUGUR_JUMP_CONTINUE);
        break;
    case CXCursor_ReturnStmt: {
        struct fe_cursors kids = { 0 };

        fe_children(s, &kids);
        if (kids.n)
            fe_expr(cv, kids.v[0], FE_DISCARD);
        fe_cursors_release(&kids);
        jump(cv, s, AUGUR_JUMP_RETURN);
        break;
    }
    case CXCursor_NullStmt:
        break;
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
        if (goes_into_loop(cv, s))
            fe_note(cv, AUGUR_NOTE_UNSUPPORTED, s,
                    "goto into a loop is not followed: the code around it is analysed as if it ran "
                    "in order");
        else
            fe_note(cv, AUGUR_NOTE_UNSUPPORTED, s,
                    "goto is not followed: the code around it is analysed as if it ran in order");
        break;
    case CXCursor_LabelStmt: {
        struct fe_cursors kids = { 0 };

        fe_children(s, &kids);
        for (size_t i = 0; i < kids.n; i++)
            if (clang_getCursorKind(kids.v[i]) != CXCursor_LabelRef)
                stmt(cv, kids.v[i], 0, NULL);
        fe_cursors_release(&kids);
        break;
    }
    case CXCursor_SwitchStmt:
        switch_stmt(cv, s);
        break;
    case CXCursor_UnexposedStmt: {
        /*
         * A statement under attributes: the loop of #pragma unroll, clang loop, GCC unroll
         * or nounroll, which change how it is compiled, not what it does.
         */
        struct fe_cursors kids = { 0 };
        CXCursor sub = clang_getNullCursor();

        fe_children(s, &kids);
        for (size_t i = 0; i < kids.n; i++)
            if (clang_isStatement(clang_getCursorKind(kids.v[i])) ||
                clang_isExpression(clang_getCursorKind(kids.v[i])))
                sub = kids.v[i];
        fe_cursors_release(&kids);
        if (clang_Cursor_isNull(sub))
            fe_note(cv, AUGUR_NOTE_UNSUPPORTED, s, "this kind of statement is not analysed");
        else
            stmt(cv, sub, lo, &pend);
        break;
    }
    case CXCursor_GCCAsmStmt:
    case CXCursor_MSAsmStmt:
        fe_note(cv, AUGUR_NOTE_UNSUPPORTED, s, "inline assembly is not analysed");
        break;
    default:
        if (clang_isExpression(k) && !assert_stmt(cv, s))
            fe_expr(cv, s, FE_DISCARD);
        else if (!clang_isExpression(k) && clang_isStatement(k))
            fe_note(cv, AUGUR_NOTE_UNSUPPORTED, s, "this kind of statement is not analysed");
        break;
    }
}

/* ---- inlining ----------------------------------------------------------------------------------
 */

struct count {
    unsigned stmts, returns;
};

static enum CXChildVisitResult count_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    struct count *n = data;

    (void)parent;
    if (clang_isStatement(clang_getCursorKind(c)))
        n->stmts++;
    if (clang_getCursorKind(c) == CXCursor_ReturnStmt)
        n->returns++;
    return CXChildVisit_Recurse;
}

struct mention {
    enum CXCursorKind kind;
    CXCursor decl;
    bool found;
};

static enum CXChildVisitResult mention_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    struct mention *m = data;

    (void)parent;
    if (clang_getCursorKind(c) == m->kind &&
        clang_equalCursors(clang_getCursorReferenced(c), m->decl)) {
        m->found = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

bool fe_mentions(CXCursor root, enum CXCursorKind kind, CXCursor decl)
{
    struct mention m = { kind, decl, false };

    clang_visitChildren(root, mention_visit, &m);
    return m.found;
}

/* The object a C++ method is called on (g of g.degree(v)); null for this->f() and f(). */
static CXCursor method_object(CXCursor call)
{
    struct fe_cursors kids = { 0 }, mk = { 0 };
    CXCursor obj = clang_getNullCursor();

    fe_children(call, &kids);
    if (kids.n && clang_getCursorKind(fe_strip(kids.v[0])) == CXCursor_MemberRefExpr) {
        fe_children(fe_strip(kids.v[0]), &mk);
        if (mk.n == 1 && clang_getCursorKind(fe_strip(mk.v[0])) != CXCursor_CXXThisExpr)
            obj = mk.v[0];
        fe_cursors_release(&mk);
    }
    fe_cursors_release(&kids);
    return obj;
}

bool fe_inline_call(struct fe_conv *cv, CXCursor call, CXCursor def, struct fe_val *result)
{
    struct fe_cursors kids = { 0 }, params = { 0 }, body_kids = { 0 };
    CXCursor body = clang_getNullCursor(), outer_loop;
    struct fe_var *saved = NULL;
    struct count n = { 0, 0 };
    char name[256];
    int nargs = clang_Cursor_getNumArguments(call);
    unsigned nthis;
    bool ok = false;

    fe_spelling(def, name, sizeof(name));
    if (clang_equalCursors(def, cv->func)) {
        fe_note(cv, AUGUR_NOTE_UNSUPPORTED, call, "recursive call to '%s' is not followed", name);
        return false;
    }
    for (size_t i = 0; i < cv->inlining.n; i++)
        if (clang_equalCursors(cv->inlining.v[i], def)) {
            fe_note(cv, AUGUR_NOTE_UNSUPPORTED, call, "recursive call to '%s' is not followed",
                    name);
            return false;
        }
    if (cv->inlining.n >= 16)
        return false;
    fe_children(def, &kids);
    for (size_t i = 0; i < kids.n; i++) {
        if (clang_getCursorKind(kids.v[i]) == CXCursor_ParmDecl)
            fe_cursors_push(&params, kids.v[i]);
        else if (clang_getCursorKind(kids.v[i]) == CXCursor_CompoundStmt)
            body = kids.v[i];
    }
    if (clang_Cursor_isNull(body) || (int)params.n != nargs)
        goto out;
    if (fe_mentions(body, CXCursor_CallExpr, def)) {
        fe_note(cv, AUGUR_NOTE_UNSUPPORTED, call,
                "recursive function '%s' is not followed: the call is opaque", name);
        goto out;
    }
    clang_visitChildren(body, count_visit, &n);
    fe_children(body, &body_kids);
    if (n.stmts > 400) {
        fe_note(cv, AUGUR_NOTE_WARNING, call, "'%s' is too large to inline: the call is opaque",
                name);
        goto out;
    }
    if (n.returns > 1 ||
        (n.returns == 1 && (!body_kids.n || clang_getCursorKind(body_kids.v[body_kids.n - 1]) !=
                                                CXCursor_ReturnStmt))) {
        fe_note(cv, AUGUR_NOTE_UNSUPPORTED, call,
                "'%s' returns early: it is not inlined and the call is opaque", name);
        goto out;
    }
    /* Bind each parameter to its argument. */
    saved = augur_calloc(params.n + 1, sizeof(*saved));
    for (size_t i = 0; i < params.n; i++) {
        CXCursor arg = clang_Cursor_getArgument(call, (unsigned)i);
        CXType pt = clang_getCanonicalType(clang_getCursorType(params.v[i]));
        struct fe_var *v;

        saved[i] = *fe_var(cv, params.v[i]);
        if (fe_is_record(pt)) {
            /* a struct, by value or by reference: its members are the argument's */
            v = fe_var(cv, params.v[i]);
            v->kind = FV_NONE;
            v->has_arg = true;
            v->arg = arg;
            v->arg_nthis = cv->nthis;
        } else if (pt.kind == CXType_Pointer) {
            struct fe_val p = fe_pointer(cv, arg);

            v = fe_var(cv, params.v[i]);
            v->has_arg = true;
            v->arg = arg;
            v->arg_nthis = cv->nthis;
            if (p.array >= 0) {
                v->kind = FV_SUBST;
                v->subst = p.e;
                v->subst_array = p.array;
            } else {
                v->kind = FV_NONE;
            }
        } else {
            struct fe_val a = fe_expr(cv, arg, FE_RVALUE);
            struct assigned as = { cv, { 0 } };
            bool written;

            clang_visitChildren(body, assigned_visit, &as);
            written = false;
            for (size_t j = 0; j < as.decls.n; j++)
                written |= clang_equalCursors(as.decls.v[j], params.v[i]) != 0;
            fe_cursors_release(&as.decls);
            v = fe_var(cv, params.v[i]);
            if (a.vec || a.mask) {
                v->kind = a.mask ? FV_MASK : FV_VEC;
                v->lanes = a.e;
                v->lanes_n = a.lanes;
                v->lane_type = a.type;
            } else if (written) {
                v->kind = FV_NONE;
                fe_assign_decl(cv, params.v[i], arg,
                               a.e && a.array < 0 ? a.e : fe_opaque(cv, fe_type(pt), "argument"));
            } else {
                v->kind = FV_SUBST;
                v->subst_array = -1;
                v->subst = a.e && a.array < 0 ? a.e : fe_opaque(cv, fe_type(pt), "argument");
            }
        }
    }
    fe_cursors_push(&cv->inlining, def);
    nthis = cv->nthis;
    if (clang_getCursorKind(def) == CXCursor_CXXMethod) {
        CXCursor obj = method_object(call);

        /* g.degree(v): g is the object; degree(v) or this->degree(v): the same one */
        if (!clang_Cursor_isNull(obj)) {
            cv->this_v[cv->nthis] = obj;
            cv->this_at[cv->nthis] = cv->nthis;
            cv->nthis++;
        } else if (cv->nthis) {
            cv->this_v[cv->nthis] = cv->this_v[cv->nthis - 1];
            cv->this_at[cv->nthis] = cv->this_at[cv->nthis - 1];
            cv->nthis++;
        }
    }
    /* the helper's locals live one call: none carries across the caller's loop */
    outer_loop = cv->loop;
    cv->loop = clang_getNullCursor();
    *result = (struct fe_val){ NULL, -1, false, false, 1, AUGUR_T_VOID };
    {
        unsigned prev = start_of(body);

        for (size_t i = 0; i < body_kids.n && !cv->rc; i++) {
            CXCursor s = body_kids.v[i];

            if (clang_getCursorKind(s) == CXCursor_ReturnStmt) {
                struct fe_cursors rk = { 0 };

                fe_children(s, &rk);
                if (rk.n)
                    *result = fe_expr(cv, rk.v[0], FE_RVALUE);
                fe_cursors_release(&rk);
            } else {
                stmt(cv, s, prev, NULL);
            }
            prev = end_of(s);
        }
    }
    cv->inlining.n--;
    cv->ninlined++;
    cv->loop = outer_loop;
    cv->nthis = nthis;
    for (size_t i = 0; i < params.n; i++)
        *fe_var(cv, params.v[i]) = saved[i];
    ok = true;
out:
    augur_free(saved);
    fe_cursors_release(&kids);
    fe_cursors_release(&params);
    fe_cursors_release(&body_kids);
    return ok;
}

/* ---- pragma expressions ------------------------------------------------------------------------
 */

struct pexpr {
    struct fe_conv *cv;
    const char *p, *end;
    int depth;
};

static void pskip(struct pexpr *x)
{
    while (x->p < x->end && isspace((unsigned char)*x->p))
        x->p++;
}

static const struct augur_expr *pexpr_bin(struct pexpr *x, int min);

static const struct augur_expr *pexpr_name(struct pexpr *x, const char *name)
{
    struct fe_conv *cv = x->cv;
    const struct fe_macro *m;

    /* a macro: its body, parsed in turn */
    m = x->depth < 8 ? fe_macro(cv->t, name) : NULL;
    if (m && !m->funclike && m->nbody) {
        struct augur_buf b;
        const struct augur_expr *e;

        augur_buf_init(&b);
        for (size_t i = 0; i < m->nbody; i++) {
            augur_buf_puts(&b, m->body[i]);
            augur_buf_putc(&b, ' ');
        }
        {
            struct pexpr y = { cv, b.s, b.s + b.len, x->depth + 1 };

            e = pexpr_bin(&y, 0);
        }
        augur_buf_release(&b);
        return e;
    }
    /* a sym already in the kernel (graph.num_nodes, a builtin) */
    {
        int32_t s = augur_skel_find_sym(cv->b, name);

        if (s >= 0)
            return augur_expr_sym(cv->skel, augur_skel_sym(cv->b, (uint32_t)s)->type, (uint32_t)s);
    }
    /* a variable of the kernel */
    for (size_t i = 0; i < cv->vars.len; i++) {
        struct fe_var *v = &AUGUR_VEC_AT(&cv->vars, struct fe_var, i);
        char vn[256];

        fe_spelling(v->decl, vn, sizeof(vn));
        if (strcmp(vn, name) != 0)
            continue;
        if (v->kind == FV_SCALAR)
            return augur_expr_sym(cv->skel, augur_skel_sym(cv->b, (uint32_t)v->sym)->type,
                                  (uint32_t)v->sym);
        if (v->kind == FV_SUBST && v->subst_array < 0)
            return v->subst;
    }
    {
        struct fe_cursors kids = { 0 };
        const struct augur_expr *e = NULL;

        fe_children(cv->func, &kids);
        for (size_t i = 0; i < kids.n && !e; i++) {
            char pn[256];

            if (clang_getCursorKind(kids.v[i]) != CXCursor_ParmDecl)
                continue;
            fe_spelling(kids.v[i], pn, sizeof(pn));
            if (!strcmp(pn, name)) {
                struct fe_var *v = fe_var(cv, kids.v[i]);
                enum augur_type t = fe_type(clang_getCursorType(kids.v[i]));

                if (v->kind == FV_NONE && t != AUGUR_T_VOID && t != AUGUR_T_REC &&
                    t != AUGUR_T_PTR) {
                    v->kind = FV_SCALAR;
                    v->sym = fe_declare_sym(cv, kids.v[i], name, AUGUR_SYM_PARAM, t);
                    v = fe_var(cv, kids.v[i]);
                }
                if (v->kind == FV_SCALAR)
                    e = augur_expr_sym(cv->skel, augur_skel_sym(cv->b, (uint32_t)v->sym)->type,
                                       (uint32_t)v->sym);
            }
        }
        fe_cursors_release(&kids);
        if (e)
            return e;
    }
    if (augur_skel_builtin_is_known(name))
        return augur_expr_sym(cv->skel, AUGUR_T_U32, (uint32_t)fe_builtin(cv, name, AUGUR_T_U32));
    if (augur_bind_is_scalar_target(name) && augur_skel_name_is_valid(name)) {
        /* a dataset size (n, nnz, ...): a parameter bound to it */
        int32_t s = fe_declare_sym(cv, clang_getNullCursor(), name, AUGUR_SYM_PARAM, AUGUR_T_I64);
        struct augur_sym *sym = augur_skel_sym(cv->b, (uint32_t)s);

        sym->bind = augur_arena_strdup(&cv->skel->arena, name);
        sym->bind_src = AUGUR_BIND_INFERRED;
        return augur_expr_sym(cv->skel, AUGUR_T_I64, (uint32_t)s);
    }
    return fe_opaque(cv, AUGUR_T_I64, name);
}

static const struct augur_expr *pexpr_atom(struct pexpr *x)
{
    pskip(x);
    if (x->p >= x->end || x->depth > 64)
        return NULL;
    if (*x->p == '(') {
        const struct augur_expr *e;

        x->p++;
        x->depth++;
        e = pexpr_bin(x, 0);
        x->depth--;
        pskip(x);
        if (!e || x->p >= x->end || *x->p != ')')
            return NULL;
        x->p++;
        return e;
    }
    if (*x->p == '-') {
        const struct augur_expr *e;

        x->p++;
        x->depth++;
        e = pexpr_atom(x);
        x->depth--;
        return e ? augur_expr_unary(x->cv->skel, AUGUR_OP_NEG, e) : NULL;
    }
    if (isdigit((unsigned char)*x->p)) {
        char *end;
        long long v = strtoll(x->p, &end, 0);

        if (end > x->end)
            return NULL;
        while (end < x->end && (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L'))
            end++;
        x->p = end;
        return augur_expr_int(x->cv->skel, AUGUR_T_I32, v);
    }
    if (isalpha((unsigned char)*x->p) || *x->p == '_') {
        char name[128];
        size_t n = 0;

        while (x->p < x->end && (isalnum((unsigned char)*x->p) || *x->p == '_' || *x->p == '.' ||
                                 (*x->p == '-' && x->p + 1 < x->end && x->p[1] == '>') ||
                                 (*x->p == '>' && n && name[n - 1] == '-'))) {
            if (n + 1 < sizeof(name))
                name[n++] = *x->p;
            x->p++;
        }
        name[n] = '\0';
        return pexpr_name(x, name);
    }
    return NULL;
}

static const struct augur_expr *pexpr_bin(struct pexpr *x, int min)
{
    const struct augur_expr *lhs = pexpr_atom(x);

    while (lhs) {
        enum augur_op op;
        int prec;
        const struct augur_expr *rhs;

        pskip(x);
        if (x->p >= x->end)
            break;
        switch (*x->p) {
        case '+':
            op = AUGUR_OP_ADD;
            break;
        case '-':
            op = AUGUR_OP_SUB;
            break;
        case '*':
            op = AUGUR_OP_MUL;
            break;
        case '/':
            op = AUGUR_OP_DIV;
            break;
        case '%':
            op = AUGUR_OP_MOD;
            break;
        default:
            return lhs;
        }
        prec = op == AUGUR_OP_ADD || op == AUGUR_OP_SUB ? 12 : 13;
        if (prec < min)
            break;
        x->p++;
        rhs = pexpr_bin(x, prec + 1);
        if (!rhs)
            return NULL;
        lhs = augur_expr_binary(x->cv->skel, op, lhs, rhs);
    }
    return lhs;
}

const struct augur_expr *fe_pragma_expr(struct fe_conv *cv, const char *text, size_t len)
{
    struct pexpr x = { cv, text, text + len, 0 };
    const struct augur_expr *e = pexpr_bin(&x, 0);

    pskip(&x);
    if (!e || x.p != x.end)
        return NULL;
    return e;
}

/* ---- kernels ------------------------------------------------------------------------------------
 */

static void conv_release(struct fe_conv *cv)
{
    augur_vec_release(&cv->vars);
    augur_vec_release(&cv->ops);
    augur_vec_release(&cv->reads);
    fe_cursors_release(&cv->sym_decls);
    fe_cursors_release(&cv->inlining);
    fe_cursors_release(&cv->carried);
    fe_cursors_release(&cv->top_assigned);
    fe_opmap_release(&cv->opmap);
}

static void conv_init(struct fe_conv *cv, struct fe_tu *t, struct augur_skel *skel,
                      struct augur_skel_builder *b, CXCursor func, bool final,
                      const struct fe_slice *slice, struct augur_diag *diag)
{
    memset(cv, 0, sizeof(*cv));
    cv->t = t;
    cv->skel = skel;
    cv->b = b;
    cv->func = func;
    cv->final = final;
    cv->slice = slice;
    cv->diag = diag;
    cv->lane_sym = -1;
    cv->loop = clang_getNullCursor();
    augur_vec_init(&cv->vars, sizeof(struct fe_var));
    augur_vec_init(&cv->ops, sizeof(struct augur_opcount));
    augur_vec_init(&cv->reads, sizeof(struct fe_read));
}

/*
 * The launch configuration "GRID,BLOCK" (split at the top-level comma);
 * from names where it was read for the messages ("the launch
 * configuration", or the host code's).
 */
static void set_launch_from(struct fe_conv *cv, struct augur_node *k, const char *text, CXCursor at,
                            const char *from)
{
    int depth = 0;
    const char *comma = NULL;

    for (const char *p = text; *p; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        else if (*p == ',' && depth == 0 && !comma)
            comma = p;
    }
    if (comma) {
        const struct augur_expr *g = fe_pragma_expr(cv, text, (size_t)(comma - text));
        const struct augur_expr *b = fe_pragma_expr(cv, comma + 1, strlen(comma + 1));

        /* an unknown name would be an opaque value: a launch of any size */
        if (g && b && (augur_expr_has_opaque(g) || augur_expr_has_opaque(b))) {
            fe_note(cv, AUGUR_NOTE_WARNING, at,
                    "cannot read %s '%s': it names something that is not a scalar of the "
                    "kernel, a dataset size (n, nnz, m) or a macro (give --launch G,B)",
                    from, text);
            return;
        }
        /* a constant that folds to no block or no thread is no launch (255 / 256 is 0) */
        if (g && b &&
            ((g->kind == AUGUR_EXPR_INT && g->u.i <= 0) ||
             (b->kind == AUGUR_EXPR_INT && b->u.i <= 0))) {
            fe_note(cv, AUGUR_NOTE_WARNING, at, "cannot read %s '%s': it launches no %s", from,
                    text, g->kind == AUGUR_EXPR_INT && g->u.i <= 0 ? "block" : "thread");
            return;
        }
        if (g && b) {
            k->u.kernel.grid = g;
            k->u.kernel.block = b;
            return;
        }
    }
    fe_note(cv, AUGUR_NOTE_WARNING, at, "cannot read %s '%s' (GRID,BLOCK)", from, text);
}

static void set_launch(struct fe_conv *cv, struct augur_node *k, const char *text, CXCursor at)
{
    set_launch_from(cv, k, text, at, "the launch configuration");
}

/* The launch the host code makes of kernel K, where neither --launch nor a pragma gives one. */
static void host_launch(struct fe_conv *cv, struct augur_node *k, CXCursor K)
{
    struct fe_cursors kids = { 0 };
    const char *param[64];
    unsigned np = 0;
    struct augur_buf text;
    int found;

    fe_children(K, &kids);
    for (size_t i = 0; i < kids.n && np < 64; i++)
        if (clang_getCursorKind(kids.v[i]) == CXCursor_ParmDecl) {
            char name[256];

            fe_spelling(kids.v[i], name, sizeof(name));
            param[np++] = augur_arena_strdup(&cv->t->arena, name);
        }
    fe_cursors_release(&kids);
    augur_buf_init(&text);
    found = fe_host_launch(cv->t, k->u.kernel.name, param, np, &text);
    if (found > 0)
        set_launch_from(cv, k, text.s, K, "the host code's launch");
    else if (found < 0)
        fe_note(cv, AUGUR_NOTE_WARNING, K,
                "the host code launches '%s' with different configurations: give the one to "
                "predict with --launch G,B",
                k->u.kernel.name);
    augur_buf_release(&text);
}

/*
 * The augur pragmas that belong to kernel K, at offsets in [lo, hi]: inside it or between
 * the previous function and it (a pragma on the file's first byte included).
 */
static void kernel_pragma_range(struct fe_tu *t, CXCursor K, unsigned *lo, unsigned *hi)
{
    unsigned kb = start_of(K);

    *lo = 0;
    *hi = end_of(K);
    for (size_t i = 0; i < t->funcs.cap; i++) {
        CXCursor *f = t->funcs.v[i].val;
        unsigned e;

        if (!t->funcs.v[i].key || !fe_in_kernel_file(t, *f))
            continue;
        e = end_of(*f);
        if (e <= kb && e > *lo)
            *lo = e;
    }
}

static struct augur_node *convert_kernel(struct fe_conv *cv, CXCursor K)
{
    struct fe_tu *t = cv->t;
    char name[256];
    struct augur_node *k;
    struct fe_cursors kids = { 0 };
    CXCursor body = clang_getNullCursor();
    unsigned lo, hi;

    fe_spelling(K, name, sizeof(name));
    k = augur_skel_begin_kernel(cv->b, name, fe_loc(cv, K));
    if (t->cuda) {
        struct fe_cursors a = { 0 };

        fe_children(K, &a);
        for (size_t i = 0; i < a.n; i++)
            if (clang_getCursorKind(a.v[i]) == CXCursor_CUDAGlobalAttr)
                k->u.kernel.cuda = true;
        fe_cursors_release(&a);
    }
    fe_children(K, &kids);
    if (cv->final) {
        /* Parameters first, in their order: the scalars the slice uses, the arrays accessed. */
        for (size_t i = 0; i < kids.n; i++) {
            CXCursor p = kids.v[i];
            CXType pt = clang_getCanonicalType(clang_getCursorType(p));
            char pn[256];

            if (clang_getCursorKind(p) != CXCursor_ParmDecl)
                continue;
            fe_spelling(p, pn, sizeof(pn));
            (void)pt;
            for (size_t j = 0; j < cv->slice->params.n; j++)
                if (clang_equalCursors(cv->slice->params.v[j], p))
                    fe_touch_decl(cv, p);
        }
        for (size_t i = 0; i < cv->slice->written_params.n; i++) {
            CXCursor p = cv->slice->written_params.v[i];
            enum augur_type pt = fe_type(clang_getCursorType(p));
            char pn[256], ln[260];
            int32_t ps, ls;
            struct augur_node *n;
            struct fe_var *v;

            fe_spelling(p, pn, sizeof(pn));
            ps = fe_declare_sym(cv, clang_getNullCursor(), pn, AUGUR_SYM_PARAM, pt);
            snprintf(ln, sizeof(ln), "%s.v", pn);
            ls = fe_declare_sym(cv, p, ln, AUGUR_SYM_LOCAL, pt);
            v = fe_var(cv, p);
            v->kind = FV_SCALAR;
            v->sym = ls;
            n = augur_skel_leaf(cv->b, AUGUR_NODE_ASSIGN, fe_loc(cv, p));
            n->u.assign.sym = (uint32_t)ls;
            n->u.assign.value =
                augur_expr_sym(cv->skel, augur_skel_sym(cv->b, (uint32_t)ps)->type, (uint32_t)ps);
        }
    }
    for (size_t i = 0; i < kids.n; i++)
        if (clang_getCursorKind(kids.v[i]) == CXCursor_CompoundStmt)
            body = kids.v[i];
    fe_cursors_release(&kids);
    if (!clang_Cursor_isNull(body))
        stmt(cv, body, start_of(K), NULL);
    fe_flush_ops(cv);
    /* a pointer declared NULL that no assignment pointed at an array */
    for (size_t i = 0; i < cv->vars.len; i++) {
        struct fe_var *v = &AUGUR_VEC_AT(&cv->vars, struct fe_var, i);
        char vn[256];

        if (!v->null_init || v->kind != FV_NONE)
            continue;
        fe_spelling(v->decl, vn, sizeof(vn));
        fe_note(cv, AUGUR_NOTE_WARNING, v->decl,
                "cannot tell which array '%s' points to: accesses through it are left out", vn);
    }
    /* Launch configuration: the command line, else a #pragma augur launch(...). */
    if (cv->final && k->u.kernel.cuda) {
        if (t->opts->launch) {
            set_launch(cv, k, t->opts->launch, K);
        } else {
            kernel_pragma_range(t, K, &lo, &hi);
            for (size_t i = 0; i < t->npragmas; i++) {
                const struct fe_pragma *p = &t->pragmas[i];

                if (p->kind == FE_PRAGMA_AUGUR && p->offset >= lo && p->offset <= hi &&
                    !strncmp(p->text, "launch", 6)) {
                    const char *open = strchr(p->text, '('), *close = strrchr(p->text, ')');

                    if (open && close && close > open) {
                        char spec[512];

                        snprintf(spec, sizeof(spec), "%.*s", (int)(close - open - 1), open + 1);
                        set_launch(cv, k, spec, K);
                    }
                }
            }
            if (!k->u.kernel.grid)
                host_launch(cv, k, K);
        }
    }
    augur_skel_end_kernel(cv->b);
    return k;
}

/* Applies "#pragma augur bind(...)" for kernel K. */
static int pragma_binds(struct fe_tu *t, struct augur_skel *skel, struct augur_node *k, CXCursor K,
                        struct augur_diag *diag)
{
    unsigned lo, hi;

    kernel_pragma_range(t, K, &lo, &hi);
    for (size_t i = 0; i < t->npragmas; i++) {
        const struct fe_pragma *p = &t->pragmas[i];
        const char *open, *close;
        char spec[1024];
        size_t n = 0;
        int rc;

        if (p->kind != FE_PRAGMA_AUGUR || p->offset < lo || p->offset > hi ||
            strncmp(p->text, "bind", 4) != 0)
            continue;
        open = strchr(p->text, '(');
        close = strrchr(p->text, ')');
        if (!open || !close || close < open)
            return augur_diag_set(diag, AUGUR_EBIND, t->path, p->line, p->col,
                                  "expected '#pragma augur bind(NAME=TARGET, ...)'");
        for (const char *q = open + 1; q < close && n + 1 < sizeof(spec); q++)
            if (!isspace((unsigned char)*q))
                spec[n++] = *q;
        spec[n] = '\0';
        rc = augur_skel_bind(skel, k, spec, AUGUR_BIND_PRAGMA, diag);
        if (rc) {
            char msg[512];

            snprintf(msg, sizeof(msg), "%s", diag ? diag->msg : "bad binding");
            return augur_diag_set(diag, rc, t->path, p->line, p->col, "%s", msg);
        }
    }
    return 0;
}

int fe_build(struct fe_tu *t, struct augur_skel *skel, struct augur_diag *diag)
{
    struct augur_skel_builder *b = augur_skel_builder_new(skel);
    int rc = 0;

    for (size_t i = 0; i < t->kernels.n && !rc; i++) {
        CXCursor K = t->kernels.v[i];
        struct augur_skel *scratch = augur_skel_new();
        struct augur_skel_builder *sb = augur_skel_builder_new(scratch);
        struct fe_conv cv;
        struct fe_slice slice;

        memset(&slice, 0, sizeof(slice));
        /* Pass 1: everything, to find the slice. */
        conv_init(&cv, t, scratch, sb, K, false, NULL, diag);
        fe_slice_compute(&cv, convert_kernel(&cv, K), &slice);
        rc = cv.rc;
        conv_release(&cv);
        augur_skel_builder_free(sb);
        augur_skel_free(scratch);
        /* Pass 2: the slice only. */
        if (!rc) {
            conv_init(&cv, t, skel, b, K, true, &slice, diag);
            convert_kernel(&cv, K);
            rc = cv.rc;
            conv_release(&cv);
        }
        fe_slice_release(&slice);
    }
    if (!rc)
        rc = augur_skel_builder_finish(b, diag);
    augur_skel_builder_free(b);
    if (rc)
        return rc;
    for (uint32_t i = 0; i < skel->nkernels; i++) {
        fe_mark_indirect(skel, skel->kernels[i]);
        if (skel->kernels[i]->u.kernel.cuda)
            fe_mark_gridstride(skel->kernels[i]);
    }
    for (uint32_t i = 0; i < skel->nkernels && !rc; i++)
        rc = pragma_binds(t, skel, skel->kernels[i], t->kernels.v[i], diag);
    if (!rc && t->opts->bind)
        rc = augur_skel_bind(skel, NULL, t->opts->bind, AUGUR_BIND_CLI, diag);
    if (!rc && !t->opts->no_infer) {
        struct augur_diag d;

        augur_diag_init(&d);
        if (augur_skel_infer_bindings(skel, &d) != 0 && t->opts->on_diag) {
            char msg[sizeof(d.msg)], file[sizeof(d.file)];

            memcpy(msg, d.msg, sizeof(msg));
            memcpy(file, d.file, sizeof(file));
            augur_diag_set(&d, d.code, file[0] ? file : NULL, d.line, d.col, "warning: %.500s",
                           msg);
            t->opts->on_diag(t->opts->ud, &d, false);
        }
    }
    if (!rc)
        rc = augur_skel_validate(skel, diag);
    return rc;
}
