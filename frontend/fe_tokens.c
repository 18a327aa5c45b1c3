/*
 * fe_tokens.c - what the front end reads from tokens: OpenMP and augur
 * pragmas, macro bodies, and the operators libclang's C API does not expose
 * (module: frontend).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fe_int.h"

/* ---- pragmas ----------------------------------------------------------------------------- */

static bool skipped(const struct fe_tu *t, unsigned off)
{
    for (size_t i = 0; i < t->nskipped; i++)
        if (off >= t->skipped_begin[i] && off < t->skipped_end[i])
            return true;
    return false;
}

static void add_pragma(struct fe_tu *t, struct augur_vec *v, enum fe_pragma_kind kind, unsigned off,
                       unsigned line, unsigned col, const char *text, size_t len)
{
    struct fe_pragma *p = augur_vec_push(v);
    char *s = augur_malloc(len + 1);
    size_t n = 0;

    (void)t;
    /* Join continuation lines and squeeze blanks. */
    for (size_t i = 0; i < len; i++) {
        char c = text[i];

        if (c == '\\' && i + 1 < len && (text[i + 1] == '\n' || text[i + 1] == '\r')) {
            c = ' ';
            i++;
            if (i + 1 < len && text[i] == '\r' && text[i + 1] == '\n')
                i++;
        }
        if (c == '\t' || c == '\r' || c == '\n')
            c = ' ';
        if (c == ' ' && (n == 0 || s[n - 1] == ' '))
            continue;
        s[n++] = c;
    }
    while (n && s[n - 1] == ' ')
        n--;
    s[n] = '\0';
    p->kind = kind;
    p->offset = off;
    p->line = line;
    p->col = col;
    p->text = s;
}

/* The text of a pragma line from offset to its end (continuations included), comments removed. */
static size_t line_text(const struct fe_tu *t, size_t off, char *out, size_t size)
{
    size_t n = 0;

    while (off < t->size && n + 1 < size) {
        char c = t->contents[off];

        if (c == '\n') {
            if (n && out[n - 1] == '\\') {
                n--;
                out[n++] = ' ';
                off++;
                continue;
            }
            break;
        }
        if (c == '/' && off + 1 < t->size && t->contents[off + 1] == '/')
            break;
        if (c == '/' && off + 1 < t->size && t->contents[off + 1] == '*') {
            off += 2;
            while (off + 1 < t->size && !(t->contents[off] == '*' && t->contents[off + 1] == '/'))
                off++;
            off += 2;
            out[n++] = ' ';
            continue;
        }
        out[n++] = c;
        off++;
    }
    out[n] = '\0';
    return n;
}

/* Decodes a string literal token ("omp parallel for") into out. */
static void unquote(const char *tok, char *out, size_t size)
{
    size_t n = 0;

    if (*tok == 'L' || *tok == 'u' || *tok == 'U')
        tok++;
    if (*tok == '"')
        tok++;
    for (; *tok && *tok != '"' && n + 1 < size; tok++) {
        if (*tok == '\\' && tok[1])
            tok++;
        out[n++] = *tok;
    }
    out[n] = '\0';
}

static int pragma_cmp(const void *a, const void *b)
{
    const struct fe_pragma *x = a, *y = b;

    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* The arguments of a function-like macro's invocation, as token spellings. */
#define MAX_MACRO_ARGS 16

struct macro_args {
    const char **tok; /* every argument's tokens, back to back */
    size_t start[MAX_MACRO_ARGS + 1];
    size_t n;
};

static int param_index(const struct fe_macro *m, const char *s)
{
    for (size_t p = 0; p < m->nparams; p++)
        if (strcmp(m->params[p], s) == 0)
            return (int)p;
    return -1;
}

/*
 * Splits the tokens after a function-like macro's name, "( a , b ... )",
 * into the arguments of m (a variadic macro's last one keeps its commas),
 * each token a parameter of outer replaced by outer's argument. Returns the
 * tokens used (0 when they are no invocation).
 */
static size_t split_args(const struct fe_macro *m, const char *const *tok, size_t n,
                         const struct fe_macro *outer, const struct macro_args *outer_args,
                         struct macro_args *out)
{
    struct augur_vec v;
    size_t i;
    int depth = 0;

    out->n = 0;
    out->tok = NULL;
    if (n < 2 || strcmp(tok[0], "(") != 0)
        return 0;
    augur_vec_init(&v, sizeof(const char *));
    out->start[0] = 0;
    for (i = 1; i < n; i++) {
        const char *s = tok[i];
        int p;

        if (!strcmp(s, "(")) {
            depth++;
        } else if (!strcmp(s, ")") && depth-- == 0) {
            break;
        } else if (!strcmp(s, ",") && depth == 0 && out->n + 1 < MAX_MACRO_ARGS &&
                   !(m->variadic && out->n + 1 >= m->nparams)) {
            out->start[++out->n] = v.len;
            continue;
        }
        p = outer && outer_args ? param_index(outer, s) : -1;
        if (p >= 0 && (size_t)p < outer_args->n)
            augur_vec_append(&v, outer_args->tok + outer_args->start[p],
                             outer_args->start[p + 1] - outer_args->start[p]);
        else
            *(const char **)augur_vec_push(&v) = s;
    }
    if (i == n) {
        augur_vec_release(&v);
        return 0;
    }
    out->start[++out->n] = v.len;
    out->tok = augur_vec_take(&v, NULL);
    return i + 1;
}

/*
 * The _Pragma text a macro's expansion holds, or false: _Pragma("omp ...")
 * in its body, _Pragma(x) of an argument that is the string (OMP("omp
 * parallel for")), _Pragma(#x) of one that is the words (PRAGMA(omp
 * parallel for)), or any of them in a macro its body invokes.
 */
static bool macro_pragma(struct fe_tu *t, const char *name, const struct macro_args *args,
                         char *out, size_t size, int depth)
{
    const struct fe_macro *m = fe_macro(t, name);

    if (!m || depth > 4)
        return false;
    for (size_t i = 0; i + 2 < m->nbody; i++) {
        const char *a = m->body[i + 2];
        int p;

        if (strcmp(m->body[i], "_Pragma") != 0 || strcmp(m->body[i + 1], "(") != 0)
            continue;
        if (!strcmp(a, "#") && i + 3 < m->nbody) {
            /* stringized: the argument's words, one blank between tokens */
            size_t n = 0;

            p = param_index(m, m->body[i + 3]);
            if (p < 0 || !args || (size_t)p >= args->n)
                return false;
            out[0] = '\0';
            for (size_t k = args->start[p]; k < args->start[p + 1]; k++)
                n += (size_t)snprintf(out + (n < size ? n : size - 1), n < size ? size - n : 1,
                                      "%s%s", n ? " " : "", args->tok[k]);
            return true;
        }
        p = param_index(m, a);
        if (p >= 0) {
            if (!args || (size_t)p >= args->n || args->start[p + 1] != args->start[p] + 1)
                return false;
            a = args->tok[args->start[p]];
        }
        if (a[0] != '"' && !((a[0] == 'L' || a[0] == 'u') && strchr(a, '"')))
            return false;
        unquote(a, out, size);
        return true;
    }
    for (size_t i = 0; i < m->nbody; i++) {
        const struct fe_macro *inner;
        struct macro_args inner_args = { NULL, { 0 }, 0 };
        bool found;

        if (strcmp(m->body[i], name) == 0 || !(inner = fe_macro(t, m->body[i])))
            continue;
        if (inner->funclike && !split_args(inner, (const char *const *)m->body + i + 1,
                                           m->nbody - i - 1, m, args, &inner_args))
            continue;
        found =
            macro_pragma(t, m->body[i], inner->funclike ? &inner_args : NULL, out, size, depth + 1);
        augur_free(inner_args.tok);
        if (found)
            return true;
    }
    return false;
}

/* One past the ')' that closes the '(' at from (from when there is none there, or too far). */
static unsigned invocation_end(struct fe_tu *t, const CXToken *toks, unsigned from, unsigned n)
{
    int depth = 0;

    for (unsigned i = from; i < n && i < from + 4096; i++) {
        CXString s = clang_getTokenSpelling(t->tu, toks[i]);
        const char *sp = clang_getCString(s);
        bool open = !strcmp(sp, "("), close = !strcmp(sp, ")");

        clang_disposeString(s);
        if (i == from && !open)
            return from;
        depth += open ? 1 : close ? -1 : 0;
        if (depth == 0)
            return i + 1;
    }
    return from;
}

/* The spellings of tokens from..to-1, in the TU's arena. */
static const char **token_strings(struct fe_tu *t, const CXToken *toks, unsigned from, unsigned to)
{
    const char **v = augur_arena_alloc(&t->arena, (to - from + 1) * sizeof(*v));

    for (unsigned i = from; i < to; i++) {
        CXString s = clang_getTokenSpelling(t->tu, toks[i]);

        v[i - from] = augur_arena_strdup(&t->arena, clang_getCString(s));
        clang_disposeString(s);
    }
    return v;
}

static enum fe_pragma_kind classify(const char *text, size_t *skip, bool *ok)
{
    *ok = true;
    if (strncmp(text, "omp", 3) == 0 && (text[3] == ' ' || text[3] == '\0')) {
        *skip = 3;
        return FE_PRAGMA_OMP;
    }
    if (strncmp(text, "augur", 5) == 0 && (text[5] == ' ' || text[5] == '\0' || text[5] == '(')) {
        *skip = 5;
        return FE_PRAGMA_AUGUR;
    }
    *ok = false;
    return FE_PRAGMA_OMP;
}

void fe_scan_pragmas(struct fe_tu *t)
{
    CXSourceRange all =
        clang_getRange(clang_getLocationForOffset(t->tu, t->file, 0),
                       clang_getLocationForOffset(t->tu, t->file, (unsigned)t->size));
    CXSourceRangeList *sk = clang_getSkippedRanges(t->tu, t->file);
    CXToken *toks = NULL;
    unsigned ntoks = 0, directive_line = 0;
    struct augur_vec v;
    char buf[2048];

    augur_vec_init(&v, sizeof(struct fe_pragma));
    if (sk) {
        t->nskipped = sk->count;
        t->skipped_begin = augur_calloc(sk->count + 1, sizeof(unsigned));
        t->skipped_end = augur_calloc(sk->count + 1, sizeof(unsigned));
        for (unsigned i = 0; i < sk->count; i++) {
            clang_getExpansionLocation(clang_getRangeStart(sk->ranges[i]), NULL, NULL, NULL,
                                       &t->skipped_begin[i]);
            clang_getExpansionLocation(clang_getRangeEnd(sk->ranges[i]), NULL, NULL, NULL,
                                       &t->skipped_end[i]);
        }
        clang_disposeSourceRangeList(sk);
    }
    clang_tokenize(t->tu, all, &toks, &ntoks);
    for (unsigned i = 0; i < ntoks; i++) {
        CXSourceLocation loc = clang_getTokenLocation(t->tu, toks[i]);
        unsigned line, col, off;
        CXString s;
        const char *sp;

        clang_getSpellingLocation(loc, NULL, &line, &col, &off);
        if (skipped(t, off))
            continue;
        s = clang_getTokenSpelling(t->tu, toks[i]);
        sp = clang_getCString(s);
        if (clang_getTokenKind(toks[i]) == CXToken_Punctuation && strcmp(sp, "#") == 0 &&
            line != directive_line) {
            /* A directive: "# pragma omp ..." or "# pragma augur ...". */
            directive_line = line;
            if (i + 1 < ntoks) {
                CXString s2 = clang_getTokenSpelling(t->tu, toks[i + 1]);
                unsigned l2, off2;
                CXSourceRange r2 = clang_getTokenExtent(t->tu, toks[i + 1]);

                clang_getSpellingLocation(clang_getRangeEnd(r2), NULL, &l2, NULL, &off2);
                if (strcmp(clang_getCString(s2), "pragma") == 0 && l2 == line) {
                    size_t n = line_text(t, off2, buf, sizeof(buf)), skip;
                    const char *p = buf;
                    bool ok;
                    enum fe_pragma_kind kind;

                    while (*p == ' ' || *p == '\t')
                        p++;
                    kind = classify(p, &skip, &ok);
                    if (ok)
                        add_pragma(t, &v, kind, off, line, col, p + skip,
                                   n - (size_t)(p - buf) - skip);
                }
                clang_disposeString(s2);
            }
        } else if (line != directive_line && clang_getTokenKind(toks[i]) == CXToken_Identifier) {
            char text[1024];
            bool found = false;

            if (strcmp(sp, "_Pragma") == 0 && i + 2 < ntoks) {
                CXString s3 = clang_getTokenSpelling(t->tu, toks[i + 2]);

                unquote(clang_getCString(s3), text, sizeof(text));
                clang_disposeString(s3);
                found = true;
            } else if (fe_map_get(&t->macros, sp)) {
                const struct fe_macro *m = fe_macro(t, sp);
                struct macro_args args = { NULL, { 0 }, 0 };

                size_t used = 0;

                if (m && m->funclike) {
                    unsigned end = invocation_end(t, toks, i + 1, ntoks);

                    if (end > i + 1)
                        used = split_args(m, token_strings(t, toks, i + 1, end), end - i - 1, NULL,
                                          NULL, &args);
                }
                found = m && (!m->funclike || used) &&
                        macro_pragma(t, sp, m->funclike ? &args : NULL, text, sizeof(text), 0);
                augur_free(args.tok);
            }
            if (found) {
                const char *p = text;
                size_t skip;
                bool ok;
                enum fe_pragma_kind kind;

                while (*p == ' ')
                    p++;
                kind = classify(p, &skip, &ok);
                if (ok)
                    add_pragma(t, &v, kind, off, line, col, p + skip, strlen(p + skip));
            }
        }
        clang_disposeString(s);
    }
    if (toks)
        clang_disposeTokens(t->tu, toks, ntoks);
    t->pragmas = augur_vec_take(&v, &t->npragmas);
    if (t->npragmas)
        qsort(t->pragmas, t->npragmas, sizeof(*t->pragmas), pragma_cmp);
}

/* ---- macros --------------------------------------------------------------------------------- */

const struct fe_macro *fe_macro(struct fe_tu *t, const char *name)
{
    struct fe_macro *m = fe_map_get(&t->macro_cache, name);
    CXCursor *def;
    CXToken *toks = NULL;
    unsigned n = 0, i = 1;
    struct augur_vec params, body;

    if (m)
        return m->name ? m : NULL;
    def = fe_map_get(&t->macros, name);
    m = augur_arena_alloc(&t->arena, sizeof(*m));
    fe_map_put(&t->macro_cache, augur_arena_strdup(&t->arena, name), m);
    if (!def || clang_Cursor_isMacroBuiltin(*def))
        return NULL;
    clang_tokenize(t->tu, clang_getCursorExtent(*def), &toks, &n);
    augur_vec_init(&params, sizeof(char *));
    augur_vec_init(&body, sizeof(char *));
    m->funclike = clang_Cursor_isMacroFunctionLike(*def) != 0;
    if (m->funclike) {
        /* NAME ( a , b , ... ) */
        for (i = 2; i < n; i++) {
            CXString s = clang_getTokenSpelling(t->tu, toks[i]);
            const char *sp = clang_getCString(s);

            if (strcmp(sp, ")") == 0) {
                clang_disposeString(s);
                i++;
                break;
            }
            if (strcmp(sp, "...") == 0) {
                m->variadic = true;
                *(char **)augur_vec_push(&params) = augur_arena_strdup(&t->arena, "__VA_ARGS__");
            } else if (strcmp(sp, ",") != 0) {
                *(char **)augur_vec_push(&params) = augur_arena_strdup(&t->arena, sp);
            }
            clang_disposeString(s);
        }
    }
    for (; i < n; i++) {
        CXString s = clang_getTokenSpelling(t->tu, toks[i]);

        *(char **)augur_vec_push(&body) = augur_arena_strdup(&t->arena, clang_getCString(s));
        clang_disposeString(s);
    }
    if (toks)
        clang_disposeTokens(t->tu, toks, n);
    m->name = augur_arena_strdup(&t->arena, name);
    m->nparams = params.len;
    m->params = augur_arena_alloc(&t->arena, (params.len + 1) * sizeof(char *));
    if (params.len)
        memcpy(m->params, params.data, params.len * sizeof(char *));
    m->nbody = body.len;
    m->body = augur_arena_alloc(&t->arena, (body.len + 1) * sizeof(char *));
    if (body.len)
        memcpy(m->body, body.data, body.len * sizeof(char *));
    augur_vec_release(&params);
    augur_vec_release(&body);
    return m;
}

/* ---- token streams with macro expansion ----------------------------------------------------- */

#define MAX_HIDE 8

struct stok {
    const char *s;
    unsigned off1; /* 1 + its offset in the main file; 0 for a token of a macro's body */
    const char *hide[MAX_HIDE]; /* macros this token must not expand (it came from them) */
    unsigned nhide;
};

struct stream {
    struct fe_tu *t;
    struct stok *v;
    size_t n, cap, pos;
    unsigned expansions;
    bool bad;
};

static void st_insert(struct stream *st, size_t at, const struct stok *toks, size_t n,
                      size_t remove)
{
    size_t need = st->n - remove + n;

    if (need > st->cap) {
        st->cap = need * 2 + 16;
        st->v = augur_reallocarray(st->v, st->cap, sizeof(*st->v));
    }
    memmove(st->v + at + n, st->v + at + remove, (st->n - at - remove) * sizeof(*st->v));
    memcpy(st->v + at, toks, n * sizeof(*toks));
    st->n = need;
}

static bool is_ident(const char *s)
{
    return (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_';
}

static bool hidden(const struct stok *k, const char *name)
{
    for (unsigned i = 0; i < k->nhide; i++)
        if (strcmp(k->hide[i], name) == 0)
            return true;
    return false;
}

/* Expands the macro named at st->pos, if it is one; returns true when it did. */
static bool expand(struct stream *st)
{
    struct stok *k = &st->v[st->pos];
    const struct fe_macro *m;
    struct augur_vec out, args_at; /* struct stok; size_t pairs (start, end) per arg */
    size_t end = st->pos + 1;
    struct stok proto;

    if (!is_ident(k->s) || hidden(k, k->s) || k->nhide >= MAX_HIDE || st->expansions > 4096)
        return false;
    m = fe_macro(st->t, k->s);
    if (!m)
        return false;
    augur_vec_init(&args_at, sizeof(size_t));
    if (m->funclike) {
        int depth = 0;
        size_t start;

        if (end >= st->n || strcmp(st->v[end].s, "(") != 0)
            return false; /* a function-like macro name without arguments is not expanded */
        start = ++end;
        for (; end < st->n; end++) {
            const char *s = st->v[end].s;

            if (strcmp(s, "(") == 0)
                depth++;
            else if (strcmp(s, ")") == 0 && depth-- == 0)
                break;
            else if (strcmp(s, ",") == 0 && depth == 0 &&
                     !(m->variadic && args_at.len / 2 + 1 >= m->nparams)) {
                *(size_t *)augur_vec_push(&args_at) = start;
                *(size_t *)augur_vec_push(&args_at) = end;
                start = end + 1;
            }
        }
        if (end >= st->n) {
            augur_vec_release(&args_at);
            st->bad = true;
            return false;
        }
        if (end > start || m->nparams) {
            *(size_t *)augur_vec_push(&args_at) = start;
            *(size_t *)augur_vec_push(&args_at) = end;
        }
        end++; /* past ")" */
    }
    proto = *k;
    proto.hide[proto.nhide++] = m->name;
    augur_vec_init(&out, sizeof(struct stok));
    for (size_t i = 0; i < m->nbody; i++) {
        const char *b = m->body[i];
        size_t p;

        if (strcmp(b, "#") == 0 || strcmp(b, "##") == 0) {
            st->bad = true; /* stringizing and pasting are not followed */
            break;
        }
        for (p = 0; p < m->nparams; p++)
            if (strcmp(b, m->params[p]) == 0)
                break;
        if (p < m->nparams && 2 * p + 1 < args_at.len) {
            size_t a0 = AUGUR_VEC_AT(&args_at, size_t, 2 * p);
            size_t a1 = AUGUR_VEC_AT(&args_at, size_t, 2 * p + 1);

            for (size_t q = a0; q < a1; q++) {
                struct stok *o = augur_vec_push(&out);

                *o = st->v[q];
            }
        } else if (p < m->nparams) {
            continue; /* an empty argument */
        } else {
            struct stok *o = augur_vec_push(&out);

            *o = proto;
            o->s = b;
        }
    }
    augur_vec_release(&args_at);
    if (st->bad) {
        augur_vec_release(&out);
        return false;
    }
    st_insert(st, st->pos, out.data, out.len, end - st->pos);
    augur_vec_release(&out);
    st->expansions++;
    return true;
}

/* The current token after macro expansion, or NULL at the end. */
static const char *peek(struct stream *st)
{
    while (st->pos < st->n && expand(st))
        ;
    return st->pos < st->n && !st->bad ? st->v[st->pos].s : NULL;
}

static bool take(struct stream *st, const char *want)
{
    const char *s = peek(st);

    if (!s || strcmp(s, want) != 0)
        return false;
    st->pos++;
    return true;
}

/* Skips a balanced (...) group starting at the current "(". */
static bool skip_group(struct stream *st)
{
    int depth = 0;

    if (!take(st, "("))
        return false;
    for (const char *s; (s = peek(st)) != NULL; st->pos++) {
        if (strcmp(s, "(") == 0) {
            depth++;
        } else if (strcmp(s, ")") == 0 && depth-- == 0) {
            st->pos++;
            return true;
        }
    }
    return false;
}

/* ---- the guided walk --------------------------------------------------------------------------
 */

static const char *const prefix_ops[] = {
    "++", "--", "-", "+", "!", "~", "&", "*", "__extension__", "__real__", "__imag__", NULL
};

static void record(struct fe_opmap *m, CXCursor c, const char *op, bool postfix)
{
    struct fe_opmap_entry *e;

    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 32;
        m->v = augur_reallocarray(m->v, m->cap, sizeof(*m->v));
    }
    e = &m->v[m->n++];
    e->c = c;
    e->hash = clang_hashCursor(c);
    snprintf(e->op, sizeof(e->op), "%s", op);
    e->postfix = postfix;
}

static bool walk(struct stream *st, struct fe_opmap *m, CXCursor c, int depth);

/*
 * True when the ',' at offset off of the main file separates the arguments
 * of a macro invocation: the operator of ADD(x, y) is in ADD's body, and
 * the comma between the arguments is not it.
 */
static bool separates_macro_args(const struct fe_tu *t, unsigned off)
{
    for (size_t i = 0; i < t->nexpansions; i++) {
        int depth = 0;
        unsigned p = t->exp_begin[i];

        if (off <= p || off >= t->exp_end[i] || off >= t->size)
            continue;
        for (; p < off; p++) {
            char c = t->contents[p];

            if (c == '"' || c == '\'') {
                for (p++; p < off && t->contents[p] != c; p++)
                    if (t->contents[p] == '\\')
                        p++;
            } else if (c == '/' && p + 1 < off && t->contents[p + 1] == '*') {
                for (p += 2; p + 1 < off && !(t->contents[p] == '*' && t->contents[p + 1] == '/');
                     p++)
                    ;
                p++;
            } else if (c == '/' && p + 1 < off && t->contents[p + 1] == '/') {
                while (p < off && t->contents[p] != '\n')
                    p++;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            }
        }
        if (depth == 1)
            return true;
    }
    return false;
}

static bool walk(struct stream *st, struct fe_opmap *m, CXCursor c, int depth)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    struct fe_cursors kids = { 0 };
    bool ok = false;
    const char *s;
    char name[256];

    if (depth > 200 || st->bad)
        return false;
    fe_children(c, &kids);
    switch (k) {
    case CXCursor_UnexposedExpr:
        if (kids.n == 1 && clang_isExpression(clang_getCursorKind(kids.v[0]))) {
            ok = walk(st, m, kids.v[0], depth + 1);
            break;
        }
        s = peek(st);
        if (s && is_ident(s) && st->pos + 1 < st->n && !strcmp(st->v[st->pos + 1].s, "(")) {
            st->pos++;
            ok = skip_group(st);
        }
        break;
    case CXCursor_ParenExpr:
        ok = kids.n == 1 && take(st, "(") && walk(st, m, kids.v[0], depth + 1) && take(st, ")");
        break;
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator:
        if (kids.n == 2 && walk(st, m, kids.v[0], depth + 1) && (s = peek(st)) != NULL &&
            !is_ident(s) && strlen(s) <= 3 &&
            !(!strcmp(s, ",") && st->v[st->pos].off1 &&
              separates_macro_args(st->t, st->v[st->pos].off1 - 1))) {
            char op[4];

            snprintf(op, sizeof(op), "%s", s);
            st->pos++;
            if (walk(st, m, kids.v[1], depth + 1)) {
                record(m, c, op, false);
                ok = true;
            }
        }
        break;
    case CXCursor_UnaryOperator:
        if (kids.n != 1)
            break;
        s = peek(st);
        if (!s)
            break;
        for (int i = 0; prefix_ops[i]; i++) {
            if (strcmp(s, prefix_ops[i]) == 0) {
                char op[16];

                snprintf(op, sizeof(op), "%s", s);
                st->pos++;
                if (walk(st, m, kids.v[0], depth + 1)) {
                    record(m, c, op, false);
                    ok = true;
                }
                goto done;
            }
        }
        if (walk(st, m, kids.v[0], depth + 1) && (s = peek(st)) != NULL &&
            (strcmp(s, "++") == 0 || strcmp(s, "--") == 0)) {
            record(m, c, s, true);
            st->pos++;
            ok = true;
        }
        break;
    case CXCursor_ConditionalOperator:
        ok = kids.n == 3 && walk(st, m, kids.v[0], depth + 1) && take(st, "?") &&
             walk(st, m, kids.v[1], depth + 1) && take(st, ":") &&
             walk(st, m, kids.v[2], depth + 1);
        break;
    case CXCursor_CStyleCastExpr: {
        CXCursor e = clang_getNullCursor();

        for (size_t i = 0; i < kids.n; i++)
            if (clang_isExpression(clang_getCursorKind(kids.v[i])))
                e = kids.v[i];
        ok = !clang_Cursor_isNull(e) && skip_group(st) && walk(st, m, e, depth + 1);
        break;
    }
    case CXCursor_ArraySubscriptExpr:
        ok = kids.n == 2 && walk(st, m, kids.v[0], depth + 1) && take(st, "[") &&
             walk(st, m, kids.v[1], depth + 1) && take(st, "]");
        break;
    case CXCursor_CallExpr:
        fe_spelling(clang_getCursorReferenced(c), name, sizeof(name));
        if (kids.n == 3 && !strncmp(name, "operator", 8) && name[8] && !is_ident(name + 8)) {
            /* a C++ operator written as one (v[i], a + b): the object or left operand, the
               operator's own tokens (its callee, the middle child, has no others), the rest */
            if (!strcmp(name + 8, "[]"))
                ok = walk(st, m, kids.v[0], depth + 1) && take(st, "[") &&
                     walk(st, m, kids.v[2], depth + 1) && take(st, "]");
            else
                ok = walk(st, m, kids.v[0], depth + 1) && take(st, name + 8) &&
                     walk(st, m, kids.v[2], depth + 1);
            break;
        }
        if (kids.n == 1 &&
            clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_Constructor) {
            /* C++'s copy of a struct value (an argument passed by value) is written as the
               value copied; a construction written out (Graph(g)) is skipped below */
            size_t at = st->pos;
            bool bad = st->bad;

            if (walk(st, m, kids.v[0], depth + 1)) {
                ok = true;
                break;
            }
            st->pos = at;
            st->bad = bad;
        }
        /* a builtin that clang names by its size (__sync_val_compare_and_swap_4 for the
           token __sync_val_compare_and_swap): skip "name ( ... )" */
        s = peek(st);
        fe_spelling(clang_getCursorReferenced(c), name, sizeof(name));
        if (s && is_ident(s) && strcmp(s, name) != 0 && !strncmp(name, s, strlen(s)) &&
            !strncmp(s, "__", 2) && st->pos + 1 < st->n && !strcmp(st->v[st->pos + 1].s, "(")) {
            st->pos++;
            ok = skip_group(st);
            break;
        }
        if (kids.n < 1 || !walk(st, m, kids.v[0], depth + 1) || !take(st, "("))
            break;
        ok = true;
        for (size_t i = 1; i < kids.n && ok; i++) {
            /* C++ default arguments (CUDA's __shfl_down_sync(mask, v, delta, width =
               warpSize)) are children without tokens: the call ends at its ')' */
            if (i > 1 && (s = peek(st)) != NULL && !strcmp(s, ")"))
                break;
            ok = (i == 1 || take(st, ",")) && walk(st, m, kids.v[i], depth + 1);
        }
        ok = ok && take(st, ")");
        break;
    case CXCursor_MemberRefExpr:
        fe_spelling(c, name, sizeof(name));
        if (kids.n == 1 && !walk(st, m, kids.v[0], depth + 1))
            break;
        if (kids.n == 1 && !take(st, ".") && !take(st, "->"))
            break;
        ok = take(st, name);
        break;
    case CXCursor_DeclRefExpr:
        fe_spelling(c, name, sizeof(name));
        ok = take(st, name);
        break;
    case CXCursor_IntegerLiteral:
    case CXCursor_FloatingLiteral:
    case CXCursor_CharacterLiteral:
        s = peek(st);
        ok = s && !is_ident(s) && (s[0] != '(' && s[0] != ')' && s[0] != ',');
        if (ok)
            st->pos++;
        break;
    case CXCursor_CXXThisExpr: /* this->m in a C++ method */
        ok = take(st, "this");
        break;
    case CXCursor_CXXBoolLiteralExpr: /* true and false of C++ (CUDA) */
    case CXCursor_CXXNullPtrLiteralExpr:
        s = peek(st);
        ok = s && (!strcmp(s, "true") || !strcmp(s, "false") || !strcmp(s, "nullptr"));
        if (ok)
            st->pos++;
        break;
    case CXCursor_StringLiteral:
        for (s = peek(st); s && (s[0] == '"' || ((s[0] == 'L' || s[0] == 'u') && strchr(s, '"')));
             s = peek(st)) {
            st->pos++;
            ok = true;
        }
        break;
    case CXCursor_UnaryExpr: /* sizeof, _Alignof */
        s = peek(st);
        if (s && is_ident(s)) {
            st->pos++;
            s = peek(st);
            if (s && strcmp(s, "(") == 0 &&
                (kids.n == 0 || clang_getCursorKind(kids.v[0]) == CXCursor_TypeRef))
                ok = skip_group(st);
            else if (kids.n == 1)
                ok = walk(st, m, kids.v[0], depth + 1);
            else
                ok = skip_group(st);
        }
        break;
    default:
        /* Syntax the walk does not model (__atomic_* builtins, compound literals): skip
         * "name ( ... )" when it looks like a call, so that the rest of the statement keeps
         * its operators. */
        s = peek(st);
        if (s && is_ident(s) && st->pos + 1 < st->n && !strcmp(st->v[st->pos + 1].s, "(")) {
            st->pos++;
            ok = skip_group(st);
        } else {
            ok = false;
        }
    }
done:
    fe_cursors_release(&kids);
    return ok && !st->bad;
}

/* Fills a stream with the tokens of range r. */
static void load_stream(struct fe_tu *t, CXSourceRange r, struct stream *st)
{
    CXToken *toks = NULL;
    unsigned n = 0;

    memset(st, 0, sizeof(*st));
    st->t = t;
    clang_tokenize(t->tu, r, &toks, &n);
    st->v = augur_calloc(n + 1, sizeof(*st->v));
    st->cap = n + 1;
    for (unsigned i = 0; i < n; i++) {
        CXString s = clang_getTokenSpelling(t->tu, toks[i]);
        CXFile f = NULL;
        unsigned off = 0;

        st->v[i].s = augur_arena_strdup(&t->arena, clang_getCString(s));
        clang_getSpellingLocation(clang_getTokenLocation(t->tu, toks[i]), &f, NULL, NULL, &off);
        if (f && clang_File_isEqual(f, t->file))
            st->v[i].off1 = off + 1;
        clang_disposeString(s);
    }
    st->n = n;
    if (toks)
        clang_disposeTokens(t->tu, toks, n);
}

/*
 * Walks c through the tokens of r, from the first token or a later one;
 * true when it matched. A start whose token is written in the file (not in
 * a macro's body) must be where c is written: of two statements that read
 * alike (a <= b, then a < b), each takes its own operators.
 */
static bool walk_range(struct fe_tu *t, struct fe_opmap *m, CXCursor c, CXSourceRange r)
{
    struct stream st;
    size_t mark = m->n;
    bool ok = false;
    CXFile f = NULL;
    unsigned want = 0;

    clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(c)), &f, NULL, NULL, &want);
    if (!f || !clang_File_isEqual(f, t->file))
        want = UINT32_MAX;
    load_stream(t, r, &st);
    for (size_t start = 0; start < st.n && start < 64 && !ok; start++) {
        st.pos = start;
        st.bad = false;
        if (!peek(&st)) /* expands a macro that starts here */
            continue;
        if (want != UINT32_MAX && st.v[start].off1 && st.v[start].off1 - 1 != want)
            continue;
        m->n = mark;
        ok = walk(&st, m, c, 0);
        if (!ok)
            m->n = mark;
    }
    augur_free(st.v);
    return ok;
}

static unsigned range_offset(CXSourceLocation l)
{
    unsigned off = 0;

    clang_getSpellingLocation(l, NULL, NULL, NULL, &off);
    return off;
}

static void prime(struct fe_tu *t, struct fe_opmap *m, CXCursor c)
{
    CXSourceRange whole = fe_file_extent(t->tu, c), spelled;

    for (size_t i = 0; i < m->tried.n; i++)
        if (clang_equalCursors(m->tried.v[i], c))
            return;
    fe_cursors_push(&m->tried, c);
    /*
     * The tokens of the outermost macro invocation, expanded as clang did;
     * then, for code passed to a macro (a loop nest in a timing harness's
     * argument) or written by one inside another's argument, the text it is
     * spelled in, or the innermost invocation that holds it.
     */
    if (walk_range(t, m, c, whole) || !fe_spelled_extent(t, c, &spelled) ||
        (range_offset(clang_getRangeStart(spelled)) == range_offset(clang_getRangeStart(whole)) &&
         range_offset(clang_getRangeEnd(spelled)) == range_offset(clang_getRangeEnd(whole))))
        return;
    walk_range(t, m, c, spelled);
}

static struct fe_opmap_entry *find(struct fe_opmap *m, CXCursor c)
{
    unsigned h = clang_hashCursor(c);

    for (size_t i = m->n; i-- > 0;)
        if (m->v[i].hash == h && clang_equalCursors(m->v[i].c, c))
            return &m->v[i];
    return NULL;
}

/* The operator as a static string: the map's storage moves as it grows. */
static const char *intern(const char *op)
{
    static const char *const ops[] = {
        "+",   "-",   "*",  "/",  "%",  "<<", ">>", "<",  "<=", ">",  ">=", "==",
        "!=",  "&",   "^",  "|",  "&&", "||", "=",  "+=", "-=", "*=", "/=", "%=",
        "<<=", ">>=", "&=", "^=", "|=", "++", "--", "!",  "~",  ",",  NULL,
    };

    for (int i = 0; ops[i]; i++)
        if (!strcmp(ops[i], op))
            return ops[i];
    return NULL;
}

const char *fe_opmap_get(struct fe_tu *t, struct fe_opmap *m, CXCursor c)
{
    struct fe_opmap_entry *e = find(m, c);

    if (!e) {
        prime(t, m, c);
        e = find(m, c);
    }
    if (!e)
        return NULL;
    return intern(e->op);
}

bool fe_opmap_postfix(struct fe_tu *t, struct fe_opmap *m, CXCursor c)
{
    struct fe_opmap_entry *e;

    if (!fe_opmap_get(t, m, c))
        return false;
    e = find(m, c);
    return e && e->postfix;
}

void fe_opmap_release(struct fe_opmap *m)
{
    augur_free(m->v);
    m->v = NULL;
    m->n = m->cap = 0;
    fe_cursors_release(&m->tried);
}

/* ---- a CUDA kernel's launch in the host code ------------------------------------------------ */

struct toks {
    char **s;
    size_t n;
};

/* Appends the tokens of file f (its whole text) to v. */
static void file_tokens(struct fe_tu *t, CXFile f, struct toks *v)
{
    size_t size = 0;
    CXToken *tk = NULL;
    unsigned n = 0;
    char **grown;

    if (!f || !clang_getFileContents(t->tu, f, &size))
        return;
    clang_tokenize(t->tu,
                   clang_getRange(clang_getLocationForOffset(t->tu, f, 0),
                                  clang_getLocationForOffset(t->tu, f, (unsigned)size)),
                   &tk, &n);
    grown = augur_reallocarray(v->s, v->n + n + 1, sizeof(*v->s));
    v->s = grown;
    for (unsigned i = 0; i < n; i++) {
        CXString s = clang_getTokenSpelling(t->tu, tk[i]);

        v->s[v->n++] = augur_arena_strdup(&t->arena, clang_getCString(s));
        clang_disposeString(s);
    }
    if (tk)
        clang_disposeTokens(t->tu, tk, n);
}

/*
 * The top-level groups of a list from token i (just after its opening
 * token) to the closing one: starts in at[], ends in to[]; the index after
 * the closing token, or 0 when the list does not close.
 */
static size_t groups(const struct toks *v, size_t i, const char *close, size_t *at, size_t *to,
                     unsigned max, unsigned *ng)
{
    int depth = 0;

    *ng = 0;
    at[0] = i;
    for (; i < v->n; i++) {
        const char *s = v->s[i];

        if (depth == 0 && (!strcmp(s, close) || !strcmp(s, ","))) {
            if (*ng < max) {
                to[*ng] = i;
                (*ng)++;
            }
            if (!strcmp(s, close))
                return i + 1;
            if (*ng < max)
                at[*ng] = i + 1;
            continue;
        }
        if (!strcmp(s, "(") || !strcmp(s, "[") || !strcmp(s, "{"))
            depth++;
        else if (!strcmp(s, ")") || !strcmp(s, "]") || !strcmp(s, "}"))
            depth--;
        if (depth < 0 || !strcmp(s, ";"))
            return 0;
    }
    return 0;
}

static bool is_ident_tok(const char *s)
{
    return (isalpha((unsigned char)s[0]) || s[0] == '_');
}

/*
 * The expression a host variable holds when one statement sets it: "dim3
 * x(a, ...)" (a), "dim3 x = dim3(a, ...)", "T x = e;" or one "x = e;".
 * False when it is set more than once or never.
 */
static bool host_value(const struct toks *v, const char *x, size_t *lo, size_t *hi)
{
    unsigned sets = 0;

    for (size_t i = 1; i + 1 < v->n; i++) {
        size_t at[8], to[8], end;
        unsigned ng;

        if (strcmp(v->s[i], x) != 0 || !strcmp(v->s[i - 1], ".") || !strcmp(v->s[i - 1], "->"))
            continue;
        if (!strcmp(v->s[i - 1], "dim3") && !strcmp(v->s[i + 1], "(")) {
            end = groups(v, i + 2, ")", at, to, 8, &ng);
            if (!end || !ng)
                return false;
            *lo = at[0];
            *hi = to[0];
            sets++;
        } else if (!strcmp(v->s[i + 1], "=")) {
            size_t j = i + 2, k = j;

            while (k < v->n && strcmp(v->s[k], ";") != 0 && strcmp(v->s[k], ",") != 0)
                k++;
            if (k + 1 < v->n && !strcmp(v->s[k], ",")) /* T x = a, y = b; or a call's list */
                return false;
            if (j + 1 < k && !strcmp(v->s[j], "dim3") && !strcmp(v->s[j + 1], "(")) {
                end = groups(v, j + 2, ")", at, to, 8, &ng);
                if (!end || !ng)
                    return false;
                *lo = at[0];
                *hi = to[0];
            } else {
                *lo = j;
                *hi = k;
            }
            sets++;
        } else if (v->s[i + 1][0] && strchr("+-*/%&|^<>", v->s[i + 1][0]) &&
                   v->s[i + 1][1] == '=' && v->s[i + 1][2] == '\0') {
            return false; /* x += ...: set more than once */
        } else if (!strcmp(v->s[i + 1], "++") || !strcmp(v->s[i + 1], "--") ||
                   !strcmp(v->s[i - 1], "++") || !strcmp(v->s[i - 1], "--")) {
            return false;
        }
    }
    return sets == 1;
}

/* Appends tokens lo..hi to out, host variables passed to the kernel named as its parameters. */
static bool launch_text(const struct toks *v, size_t lo, size_t hi, const char *const *arg,
                        const char *const *param, unsigned nargs, struct augur_buf *out, int depth)
{
    if (lo >= hi || depth > 3)
        return false;
    for (size_t i = lo; i < hi; i++) {
        const char *s = v->s[i], *name = NULL;
        size_t a, b;

        for (unsigned k = 0; k < nargs && !name; k++)
            if (arg[k] && !strcmp(arg[k], s))
                name = param[k];
        if (name) {
            augur_buf_printf(out, "%s ", name);
        } else if (is_ident_tok(s) && (i + 1 >= hi || strcmp(v->s[i + 1], "(") != 0) &&
                   host_value(v, s, &a, &b)) {
            /* a host variable set once: its expression, in the kernel's terms too */
            augur_buf_printf(out, "( ");
            if (!launch_text(v, a, b, arg, param, nargs, out, depth + 1))
                return false;
            augur_buf_printf(out, ") ");
        } else {
            augur_buf_printf(out, "%s ", s);
        }
    }
    return true;
}

int fe_host_launch(struct fe_tu *t, const char *kernel, const char *const *param, unsigned nparams,
                   struct augur_buf *out)
{
    struct toks v = { 0 };
    CXString spelling = clang_getTranslationUnitSpelling(t->tu);
    CXFile main_file = clang_getFile(t->tu, clang_getCString(spelling));
    int found = 0;
    char *first = NULL;

    clang_disposeString(spelling);

    file_tokens(t, main_file, &v);
    if (t->file && (!main_file || !clang_File_isEqual(t->file, main_file)))
        file_tokens(t, t->file, &v);
    for (size_t i = 0; i + 1 < v.n && found >= 0; i++) {
        size_t cat[4], cto[4], aat[64], ato[64], next;
        unsigned nc, na;
        const char *arg[64] = { NULL };
        struct augur_buf text;

        if (strcmp(v.s[i], kernel) != 0 || strcmp(v.s[i + 1], "<<<") != 0)
            continue;
        next = groups(&v, i + 2, ">>>", cat, cto, 4, &nc);
        if (!next || nc < 2 || next >= v.n || strcmp(v.s[next], "(") != 0 ||
            !groups(&v, next + 1, ")", aat, ato, 64, &na))
            continue;
        /* a host variable passed as it is stands for that parameter */
        for (unsigned k = 0; k < na && k < nparams; k++)
            if (ato[k] == aat[k] + 1 && is_ident_tok(v.s[aat[k]]))
                arg[k] = v.s[aat[k]];
        augur_buf_init(&text);
        if (launch_text(&v, cat[0], cto[0], arg, param, na < nparams ? na : nparams, &text, 0)) {
            augur_buf_printf(&text, ", ");
            if (launch_text(&v, cat[1], cto[1], arg, param, na < nparams ? na : nparams, &text,
                            0)) {
                if (!first)
                    first = augur_strdup(text.s);
                else if (strcmp(first, text.s) != 0)
                    found = -1; /* launched two ways: the user says which */
                if (found >= 0)
                    found = 1;
            }
        }
        augur_buf_release(&text);
    }
    if (found > 0) {
        size_t len = strlen(first);

        while (len && first[len - 1] == ' ')
            len--;
        augur_buf_printf(out, "%.*s", (int)len, first);
    }
    augur_free(first);
    augur_free(v.s);
    return found;
}
