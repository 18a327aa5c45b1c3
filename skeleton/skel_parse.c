/*
 * skel_parse.c - the text form (.skel) of a skeleton: parsing with
 * file:line:col errors (module: skeleton).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "skel_int.h"

enum tok_kind { T_END, T_NAME, T_NUM, T_STR, T_PUNCT };

struct tok {
    enum tok_kind kind;
    const char *s; /* start in the text */
    size_t len;
    uint32_t col;
};

/* One line of input: its indentation and the text after it (comment removed). */
struct line {
    const char *s, *end; /* the line without indentation, up to the comment */
    uint32_t no;         /* 1-based */
    uint32_t indent;     /* columns of leading spaces */
};

struct parser {
    const char *name;
    struct augur_diag *diag;
    int rc;
    struct line *lines;
    size_t nlines, at; /* next line to read */
    /* The current line and its lexer. */
    const struct line *ln;
    const char *p;
    struct tok tok;
    struct augur_skel *skel;
    struct augur_skel_builder *b;
    struct augur_node *kernel;
    uint32_t kfile; /* the kernel's file index */
    bool kfile_known;
    int loops; /* open loops, for break and continue */
    int depth; /* nesting of expressions and blocks */
};

/* Deeper nesting than this is refused rather than recursed into. */
#define MAX_DEPTH 200

/* ---- errors ------------------------------------------------------------------ */

static int fail_at(struct parser *ps, uint32_t line, uint32_t col, const char *fmt, ...)
    AUGUR_PRINTF(4, 5);

static int fail_at(struct parser *ps, uint32_t line, uint32_t col, const char *fmt, ...)
{
    va_list ap;

    if (ps->rc)
        return ps->rc;
    va_start(ap, fmt);
    augur_diag_setv(ps->diag, AUGUR_EPARSE, ps->name, line, col, fmt, ap);
    va_end(ap);
    ps->rc = AUGUR_EPARSE;
    return ps->rc;
}

#define FAIL(ps, ...) fail_at(ps, (ps)->ln ? (ps)->ln->no : 0, (ps)->tok.col, __VA_ARGS__)

/* ---- lines ------------------------------------------------------------------- */

/* Splits the text into non-blank lines, removing comments (# outside strings). */
static int split_lines(struct parser *ps, const char *text, size_t len)
{
    struct augur_vec v;
    const char *p = text, *end = text + len;
    uint32_t no = 0;

    augur_vec_init(&v, sizeof(struct line));
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *q, *stop;
        bool in_str = false;
        struct line *l;

        if (!eol)
            eol = end;
        no++;
        stop = eol;
        if (stop > p && stop[-1] == '\r')
            stop--;
        for (q = p; q < stop; q++) {
            if (*q == '\0') {
                augur_vec_release(&v);
                return fail_at(ps, no, (uint32_t)(q - p) + 1, "NUL byte in the text");
            }
            if (in_str) {
                if (*q == '\\' && q + 1 < stop)
                    q++;
                else if (*q == '"')
                    in_str = false;
            } else if (*q == '"') {
                in_str = true;
            } else if (*q == '#') {
                stop = q;
                break;
            }
        }
        while (stop > p && (stop[-1] == ' ' || stop[-1] == '\t'))
            stop--;
        for (q = p; q < stop && *q == ' '; q++)
            ;
        if (q < stop && *q == '\t') {
            augur_vec_release(&v);
            return fail_at(ps, no, (uint32_t)(q - p) + 1, "indent with spaces, not tabs");
        }
        if (q < stop) {
            l = augur_vec_push(&v);
            l->s = q;
            l->end = stop;
            l->no = no;
            l->indent = (uint32_t)(q - p);
        }
        p = eol + 1;
    }
    ps->lines = augur_vec_take(&v, &ps->nlines);
    return 0;
}

/* ---- lexer --------------------------------------------------------------------- */

static bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_alnum(char c)
{
    return is_alpha(c) || is_digit(c);
}

static uint32_t col_of(const struct parser *ps, const char *p)
{
    return ps->ln->indent + (uint32_t)(p - ps->ln->s) + 1;
}

static void next(struct parser *ps)
{
    const char *p = ps->p, *end = ps->ln->end;
    static const char *const two[] = { "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=" };

    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    ps->tok.s = p;
    ps->tok.col = col_of(ps, p);
    if (p >= end) {
        ps->tok.kind = T_END;
        ps->tok.len = 0;
        ps->p = p;
        return;
    }
    if (is_alpha(*p)) {
        const char *q = p;

        for (;;) {
            while (q < end && is_alnum(*q))
                q++;
            if (q + 1 < end && q[0] == '.' && is_alnum(q[1]))
                q++;
            else if (q + 2 < end && q[0] == '-' && q[1] == '>' && is_alnum(q[2]))
                q += 2;
            else
                break;
        }
        ps->tok.kind = T_NAME;
        ps->tok.len = (size_t)(q - p);
        ps->p = q;
        return;
    }
    if (is_digit(*p)) {
        const char *q = p;

        while (q < end && is_digit(*q))
            q++;
        if (q + 1 < end && *q == '.' && is_digit(q[1])) {
            q++;
            while (q < end && is_digit(*q))
                q++;
        }
        if (q < end && (*q == 'e' || *q == 'E')) {
            const char *r = q + 1;

            if (r < end && (*r == '+' || *r == '-'))
                r++;
            if (r < end && is_digit(*r)) {
                while (r < end && is_digit(*r))
                    r++;
                q = r;
            }
        }
        if (q + 1 < end && *q == '_' && is_alpha(q[1])) {
            q++;
            while (q < end && is_alnum(*q))
                q++;
        }
        ps->tok.kind = T_NUM;
        ps->tok.len = (size_t)(q - p);
        ps->p = q;
        return;
    }
    if (*p == '"') {
        const char *q = p + 1;

        while (q < end && *q != '"') {
            if (*q == '\\' && q + 1 < end)
                q++;
            q++;
        }
        if (q >= end) {
            ps->tok.kind = T_END;
            FAIL(ps, "unterminated string");
            ps->p = end;
            return;
        }
        ps->tok.kind = T_STR;
        ps->tok.len = (size_t)(q + 1 - p);
        ps->p = q + 1;
        return;
    }
    ps->tok.kind = T_PUNCT;
    ps->tok.len = 1;
    for (size_t i = 0; i < sizeof(two) / sizeof(two[0]); i++)
        if (p + 1 < end && p[0] == two[i][0] && p[1] == two[i][1])
            ps->tok.len = 2;
    ps->p = p + ps->tok.len;
}

static void start_line(struct parser *ps, const struct line *l)
{
    ps->ln = l;
    ps->p = l->s;
    next(ps);
}

static bool is(const struct parser *ps, const char *s)
{
    size_t n = strlen(s);

    return ps->tok.kind != T_END && ps->tok.kind != T_STR && ps->tok.len == n &&
           memcmp(ps->tok.s, s, n) == 0;
}

static bool accept(struct parser *ps, const char *s)
{
    if (!is(ps, s))
        return false;
    next(ps);
    return true;
}

static int expect(struct parser *ps, const char *s)
{
    if (accept(ps, s))
        return 0;
    if (ps->tok.kind == T_END)
        return FAIL(ps, "expected '%s' at the end of the line", s);
    return FAIL(ps, "expected '%s', found '%.*s'", s, (int)ps->tok.len, ps->tok.s);
}

static int expect_end(struct parser *ps)
{
    if (ps->rc)
        return ps->rc;
    if (ps->tok.kind != T_END)
        return FAIL(ps, "unexpected '%.*s'", (int)ps->tok.len, ps->tok.s);
    return 0;
}

/* Copies the current name token into the arena-independent buffer out. */
static int take_name(struct parser *ps, char *out, size_t size, const char *what)
{
    if (ps->tok.kind != T_NAME)
        return FAIL(ps, "expected %s", what);
    if (ps->tok.len >= size)
        return FAIL(ps, "%s '%.*s' is too long", what, (int)ps->tok.len, ps->tok.s);
    memcpy(out, ps->tok.s, ps->tok.len);
    out[ps->tok.len] = '\0';
    next(ps);
    return 0;
}

/* Decodes the current string token into out (a heap string the caller frees). */
static int take_string(struct parser *ps, char **out)
{
    struct augur_buf buf;
    const char *p, *end;

    if (ps->tok.kind != T_STR)
        return FAIL(ps, "expected a quoted string");
    augur_buf_init(&buf);
    p = ps->tok.s + 1;
    end = ps->tok.s + ps->tok.len - 1;
    for (; p < end; p++) {
        if (*p != '\\') {
            augur_buf_putc(&buf, *p);
            continue;
        }
        p++;
        switch (*p) {
        case 'n':
            augur_buf_putc(&buf, '\n');
            break;
        case 't':
            augur_buf_putc(&buf, '\t');
            break;
        case '"':
        case '\\':
            augur_buf_putc(&buf, *p);
            break;
        case 'x': {
            unsigned v = 0;
            int i;

            for (i = 1; i <= 2 && p + i < end; i++) {
                char c = p[i];

                if (is_digit(c))
                    v = v * 16 + (unsigned)(c - '0');
                else if (c >= 'a' && c <= 'f')
                    v = v * 16 + (unsigned)(c - 'a' + 10);
                else
                    break;
            }
            if (i != 3 || v == 0) {
                augur_buf_release(&buf);
                return fail_at(ps, ps->ln->no, col_of(ps, p), "bad \\x escape in a string");
            }
            augur_buf_putc(&buf, (char)v);
            p += 2;
            break;
        }
        default:
            augur_buf_release(&buf);
            return fail_at(ps, ps->ln->no, col_of(ps, p), "unknown escape '\\%c' in a string", *p);
        }
    }
    *out = augur_buf_detach(&buf, NULL);
    next(ps);
    return 0;
}

/* Parses an unsigned integer token (no suffix). */
static int take_uint(struct parser *ps, uint64_t max, uint64_t *out, const char *what)
{
    uint64_t v = 0;

    if (ps->tok.kind != T_NUM)
        return FAIL(ps, "expected %s", what);
    for (size_t i = 0; i < ps->tok.len; i++) {
        char c = ps->tok.s[i];

        if (!is_digit(c))
            return FAIL(ps, "expected %s, found '%.*s'", what, (int)ps->tok.len, ps->tok.s);
        if (v > (max - (uint64_t)(c - '0')) / 10)
            return FAIL(ps, "%s '%.*s' is too large", what, (int)ps->tok.len, ps->tok.s);
        v = v * 10 + (uint64_t)(c - '0');
    }
    *out = v;
    next(ps);
    return 0;
}

/* Parses a non-negative real (trips, prob). */
static int take_real(struct parser *ps, double *out, const char *what)
{
    char tmp[64];
    char *end;
    double v;

    if (ps->tok.kind != T_NUM || ps->tok.len >= sizeof(tmp))
        return FAIL(ps, "expected %s", what);
    memcpy(tmp, ps->tok.s, ps->tok.len);
    tmp[ps->tok.len] = '\0';
    v = strtod(tmp, &end);
    if (*end || isnan(v) || isinf(v))
        return FAIL(ps, "expected %s, found '%s'", what, tmp);
    *out = v;
    next(ps);
    return 0;
}

static bool tok_type(const struct parser *ps, enum augur_type *out)
{
    return ps->tok.kind == T_NAME && augur_type_parse(ps->tok.s, ps->tok.len, out);
}

/* ---- expressions ------------------------------------------------------------------ */

static const struct augur_expr *parse_expr(struct parser *ps, int min_prec);

static int32_t find_name(struct parser *ps, bool array)
{
    char name[256];

    if (ps->tok.len >= sizeof(name))
        return -1;
    memcpy(name, ps->tok.s, ps->tok.len);
    name[ps->tok.len] = '\0';
    return array ? augur_skel_find_array(ps->b, name) : augur_skel_find_sym(ps->b, name);
}

static const struct augur_expr *parse_number(struct parser *ps)
{
    const char *s = ps->tok.s, *us = memchr(s, '_', ps->tok.len);
    size_t nlen = us ? (size_t)(us - s) : ps->tok.len;
    bool is_fp = memchr(s, '.', nlen) || memchr(s, 'e', nlen) || memchr(s, 'E', nlen);
    enum augur_type t = is_fp ? AUGUR_T_F64 : AUGUR_T_I32;
    char tmp[128];
    const struct augur_expr *e;

    if (nlen >= sizeof(tmp)) {
        FAIL(ps, "number too long");
        return NULL;
    }
    if (us && !augur_type_parse(us + 1, ps->tok.len - nlen - 1, &t)) {
        FAIL(ps, "unknown type suffix '%.*s'", (int)(ps->tok.len - nlen), us);
        return NULL;
    }
    memcpy(tmp, s, nlen);
    tmp[nlen] = '\0';
    if (augur_type_is_float(t)) {
        double v;

        errno = 0;
        v = strtod(tmp, NULL);
        e = augur_expr_fp(ps->skel, t, v);
    } else if (is_fp || !augur_type_is_int(t)) {
        FAIL(ps, "'%.*s' is not a valid %s constant", (int)ps->tok.len, s, augur_type_name(t));
        return NULL;
    } else {
        uint64_t v = 0, lim = t == AUGUR_T_U64 || t == AUGUR_T_I64 ? UINT64_MAX
                              : augur_type_size(t) == 4            ? UINT32_MAX
                              : augur_type_size(t) == 2            ? UINT16_MAX
                              : t == AUGUR_T_BOOL                  ? 1
                                                                   : UINT8_MAX;

        for (size_t i = 0; i < nlen; i++) {
            unsigned d = (unsigned)(tmp[i] - '0');

            if (v > (lim - d) / 10) {
                FAIL(ps, "constant '%.*s' does not fit in %s", (int)ps->tok.len, s,
                     augur_type_name(t));
                return NULL;
            }
            v = v * 10 + d;
        }
        e = augur_expr_int(ps->skel, t, (int64_t)v);
    }
    next(ps);
    return e;
}

static const struct augur_expr *parse_primary1(struct parser *ps);

static const struct augur_expr *parse_primary(struct parser *ps)
{
    const struct augur_expr *e;

    if (ps->rc)
        return NULL;
    if (++ps->depth > MAX_DEPTH) {
        FAIL(ps, "expression nested more than %d deep", MAX_DEPTH);
        return NULL;
    }
    e = parse_primary1(ps);
    ps->depth--;
    return e;
}

static const struct augur_expr *parse_primary1(struct parser *ps)
{
    const struct augur_expr *e;
    enum augur_type t;

    if (ps->tok.kind == T_NUM)
        return parse_number(ps);
    if (is(ps, "-") || is(ps, "!") || is(ps, "~")) {
        enum augur_op op = is(ps, "-") ? AUGUR_OP_NEG : is(ps, "!") ? AUGUR_OP_NOT : AUGUR_OP_BNOT;

        next(ps);
        e = parse_primary(ps);
        return e ? augur_expr_unary(ps->skel, op, e) : NULL;
    }
    if (is(ps, "(")) {
        next(ps);
        if (tok_type(ps, &t)) {
            next(ps);
            if (expect(ps, ")"))
                return NULL;
            e = parse_primary(ps);
            return e ? augur_expr_cast(ps->skel, t, e) : NULL;
        }
        e = parse_expr(ps, 0);
        if (!e || expect(ps, ")"))
            return NULL;
        return e;
    }
    if (ps->tok.kind != T_NAME) {
        if (ps->tok.kind == T_END)
            FAIL(ps, "expected an expression at the end of the line");
        else
            FAIL(ps, "expected an expression, found '%.*s'", (int)ps->tok.len, ps->tok.s);
        return NULL;
    }
    if ((is(ps, "min") || is(ps, "max")) && *ps->p == '(') {
        enum augur_op op = is(ps, "min") ? AUGUR_OP_MIN : AUGUR_OP_MAX;
        const struct augur_expr *a, *b;

        next(ps);
        next(ps);
        a = parse_expr(ps, 0);
        if (!a || expect(ps, ","))
            return NULL;
        b = parse_expr(ps, 0);
        if (!b || expect(ps, ")"))
            return NULL;
        return augur_expr_binary(ps->skel, op, a, b);
    }
    if (is(ps, "opaque") && *ps->p == '(') {
        char *what = NULL;

        next(ps);
        next(ps);
        if (take_string(ps, &what))
            return NULL;
        t = AUGUR_T_I32;
        if (accept(ps, ",")) {
            if (!tok_type(ps, &t)) {
                augur_free(what);
                FAIL(ps, "expected a type");
                return NULL;
            }
            next(ps);
        }
        if (expect(ps, ")")) {
            augur_free(what);
            return NULL;
        }
        e = augur_expr_opaque(ps->skel, t, what);
        augur_free(what);
        return e;
    }
    if (*ps->p == '[') {
        int32_t a = find_name(ps, true);
        const struct augur_expr *index;
        uint32_t off = 0;

        if (a < 0) {
            FAIL(ps, "unknown array '%.*s'", (int)ps->tok.len, ps->tok.s);
            return NULL;
        }
        t = augur_skel_array(ps->b, (uint32_t)a)->elem;
        next(ps);
        next(ps);
        index = parse_expr(ps, 0);
        if (!index || expect(ps, "]"))
            return NULL;
        if (accept(ps, "{")) {
            uint64_t v;

            if (take_uint(ps, UINT32_MAX, &v, "a byte offset"))
                return NULL;
            off = (uint32_t)v;
            if (!tok_type(ps, &t)) {
                FAIL(ps, "expected a type");
                return NULL;
            }
            next(ps);
            if (expect(ps, "}"))
                return NULL;
        }
        return augur_expr_load(ps->skel, t, (uint32_t)a, off, index);
    }
    {
        int32_t s = find_name(ps, false);

        if (s < 0) {
            if (find_name(ps, true) >= 0)
                FAIL(ps, "array '%.*s' needs an index", (int)ps->tok.len, ps->tok.s);
            else
                FAIL(ps, "unknown name '%.*s'", (int)ps->tok.len, ps->tok.s);
            return NULL;
        }
        e = augur_expr_sym(ps->skel, augur_skel_sym(ps->b, (uint32_t)s)->type, (uint32_t)s);
        next(ps);
        return e;
    }
}

/* The binary operator at the current token, or -1. */
static int binop(const struct parser *ps)
{
    if (ps->tok.kind != T_PUNCT)
        return -1;
    for (int op = AUGUR_OP_MUL; op <= AUGUR_OP_LOR; op++) {
        const char *s = augur_op_name((enum augur_op)op);

        if (ps->tok.len == strlen(s) && memcmp(ps->tok.s, s, ps->tok.len) == 0)
            return op;
    }
    return -1;
}

static const struct augur_expr *parse_expr(struct parser *ps, int min_prec)
{
    const struct augur_expr *lhs = parse_primary(ps);
    int op;

    while (lhs && !ps->rc) {
        op = binop(ps);
        if (op >= 0 && augur_skel_op_prec((enum augur_op)op) >= min_prec) {
            const struct augur_expr *rhs;

            next(ps);
            rhs = parse_expr(ps, augur_skel_op_prec((enum augur_op)op) + 1);
            if (!rhs)
                return NULL;
            lhs = augur_expr_binary(ps->skel, (enum augur_op)op, lhs, rhs);
        } else if (is(ps, "?") && min_prec <= SKEL_PREC_SELECT) {
            const struct augur_expr *a, *b;

            next(ps);
            a = parse_expr(ps, 0);
            if (!a || expect(ps, ":"))
                return NULL;
            b = parse_expr(ps, SKEL_PREC_SELECT);
            if (!b)
                return NULL;
            lhs = augur_expr_select(ps->skel, lhs, a, b);
        } else {
            break;
        }
    }
    return ps->rc ? NULL : lhs;
}

/* ---- locations, bindings, omp ------------------------------------------------------ */

/* Parses an optional "@[\"file\":]L:C". */
static int parse_loc(struct parser *ps, struct augur_srcloc *loc, bool need_file)
{
    uint64_t v;
    uint32_t at = ps->tok.col;

    loc->file = ps->kfile;
    loc->line = loc->col = 0;
    if (!accept(ps, "@"))
        return 0;
    if (ps->tok.kind == T_STR) {
        char *file = NULL;

        if (take_string(ps, &file))
            return ps->rc;
        loc->file = augur_skel_add_file(ps->skel, file);
        augur_free(file);
        if (expect(ps, ":"))
            return ps->rc;
    } else if (need_file || !ps->kfile_known) {
        return fail_at(ps, ps->ln->no, at, "this location needs a file: write @\"FILE\":LINE:COL");
    }
    if (take_uint(ps, UINT32_MAX, &v, "a line number"))
        return ps->rc;
    loc->line = (uint32_t)v;
    if (expect(ps, ":") || take_uint(ps, UINT32_MAX, &v, "a column number"))
        return ps->rc;
    loc->col = (uint32_t)v;
    if (!loc->line)
        return FAIL(ps, "line numbers start at 1");
    return 0;
}

/* Parses "bind TARGET (SRC)" when present; the target is taken as a raw word. */
static int parse_bind(struct parser *ps, const char **bind, enum augur_bind_src *src)
{
    const char *p, *q;
    char *word;
    int s;

    if (!is(ps, "bind"))
        return 0;
    p = ps->p;
    while (p < ps->ln->end && *p == ' ')
        p++;
    for (q = p; q < ps->ln->end && *q != ' '; q++)
        ;
    if (q == p)
        return FAIL(ps, "expected a binding target after 'bind'");
    /* as long as the binder wrote it: an expression of the data's sizes has no bound */
    word = augur_arena_strndup(&ps->skel->arena, p, (size_t)(q - p));
    ps->tok.col = col_of(ps, p);
    if (!augur_bind_is_array_target(word) && !augur_bind_is_scalar_target(word))
        return FAIL(ps, "unknown binding target '%s'", word);
    ps->p = q;
    next(ps);
    if (expect(ps, "("))
        return ps->rc;
    s = ps->tok.kind == T_NAME
            ? augur_skel_lookup(augur_skel_bind_src_names, ps->tok.s, ps->tok.len)
            : -1;
    if (s <= AUGUR_BIND_NONE)
        return FAIL(ps, "expected cli, pragma or inferred");
    next(ps);
    if (expect(ps, ")"))
        return ps->rc;
    *bind = word;
    *src = (enum augur_bind_src)s;
    return 0;
}

static int parse_omp(struct parser *ps, struct augur_omp *omp)
{
    struct augur_reduction red[32];
    uint32_t nred = 0;
    int rc = 0;
    char *ops[32] = { NULL }, *vars[32] = { NULL };

    if (expect(ps, "("))
        return ps->rc;
    while (!ps->rc && !is(ps, ")")) {
        if (accept(ps, "parallel")) {
            omp->flags |= AUGUR_OMP_PARALLEL;
        } else if (accept(ps, "for")) {
            omp->flags |= AUGUR_OMP_FOR;
        } else if (accept(ps, "simd")) {
            omp->flags |= AUGUR_OMP_SIMD;
        } else if (accept(ps, "nowait")) {
            omp->flags |= AUGUR_OMP_NOWAIT;
        } else if (accept(ps, "schedule")) {
            int k;

            if (expect(ps, "("))
                break;
            k = ps->tok.kind == T_NAME
                    ? augur_skel_lookup(augur_skel_sched_names, ps->tok.s, ps->tok.len)
                    : -1;
            if (k <= AUGUR_SCHED_NONE) {
                FAIL(ps, "unknown schedule kind");
                break;
            }
            omp->sched = (enum augur_sched)k;
            next(ps);
            if (accept(ps, ",") && !(omp->chunk = parse_expr(ps, 0)))
                break;
            expect(ps, ")");
        } else if (accept(ps, "collapse")) {
            uint64_t v;

            if (expect(ps, "(") || take_uint(ps, 64, &v, "a collapse depth"))
                break;
            if (!v) {
                FAIL(ps, "collapse depth must be at least 1");
                break;
            }
            omp->collapse = (uint32_t)v;
            expect(ps, ")");
        } else if (accept(ps, "num_threads")) {
            if (expect(ps, "(") || !(omp->num_threads = parse_expr(ps, 0)))
                break;
            expect(ps, ")");
        } else if (accept(ps, "reduction")) {
            static const char *const rops[] = { "+",  "*",  "-",   "&",   "|", "^",
                                                "&&", "||", "max", "min", NULL };
            char var[256];

            if (expect(ps, "("))
                break;
            if (augur_skel_lookup(rops, ps->tok.s, ps->tok.kind == T_END ? 0 : ps->tok.len) < 0) {
                FAIL(ps, "unknown reduction operator");
                break;
            }
            if (nred == sizeof(red) / sizeof(red[0])) {
                FAIL(ps, "too many reductions");
                break;
            }
            ops[nred] = augur_malloc(ps->tok.len + 1);
            memcpy(ops[nred], ps->tok.s, ps->tok.len);
            ops[nred][ps->tok.len] = '\0';
            next(ps);
            if (expect(ps, ":") || take_name(ps, var, sizeof(var), "a reduction variable")) {
                augur_free(ops[nred]);
                ops[nred] = NULL;
                break;
            }
            /* an array section, y[:n] or y[lo:len], kept as written */
            if (is(ps, "[")) {
                size_t k = strlen(var);

                while (ps->tok.kind != T_END && k + ps->tok.len + 1 < sizeof(var)) {
                    bool last = is(ps, "]");

                    memcpy(var + k, ps->tok.s, ps->tok.len);
                    k += ps->tok.len;
                    var[k] = '\0';
                    next(ps);
                    if (last)
                        break;
                }
                if (var[k - 1] != ']') {
                    FAIL(ps, "unterminated array section in reduction '%s'", var);
                    augur_free(ops[nred]);
                    ops[nred] = NULL;
                    break;
                }
            }
            vars[nred] = augur_strdup(var);
            red[nred].op = ops[nred];
            red[nred].var = vars[nred];
            nred++;
            expect(ps, ")");
        } else if (ps->tok.kind == T_END) {
            FAIL(ps, "unterminated omp(...)");
        } else {
            FAIL(ps, "unknown OpenMP word '%.*s'", (int)ps->tok.len, ps->tok.s);
        }
    }
    if (!ps->rc) {
        expect(ps, ")");
        augur_skel_set_reductions(ps->b, omp, red, nred);
    }
    for (uint32_t i = 0; i < nred; i++) {
        augur_free(ops[i]);
        augur_free(vars[i]);
    }
    rc = ps->rc;
    return rc;
}

/* ---- statements ---------------------------------------------------------------------- */

static int parse_block(struct parser *ps, uint32_t indent);

static int parse_loop_attrs(struct parser *ps, struct augur_loop_info *l)
{
    while (!ps->rc && ps->tok.kind != T_END) {
        if (accept(ps, "parallel")) {
            l->parallel = true;
        } else if (accept(ps, "gridstride")) {
            l->gridstride = true;
        } else if (accept(ps, "omp")) {
            parse_omp(ps, &l->omp);
        } else if (accept(ps, "trips")) {
            take_real(ps, &l->trips, "a trip count");
        } else {
            return FAIL(ps, "unknown loop attribute '%.*s'", (int)ps->tok.len, ps->tok.s);
        }
    }
    return ps->rc;
}

/* Looks up a loop variable name at the current token. */
static int take_loop_var(struct parser *ps, int32_t *var)
{
    int32_t s;

    if (ps->tok.kind != T_NAME)
        return FAIL(ps, "expected a loop variable");
    s = find_name(ps, false);
    if (s < 0)
        return FAIL(ps, "unknown name '%.*s'", (int)ps->tok.len, ps->tok.s);
    if (augur_skel_sym(ps->b, (uint32_t)s)->kind != AUGUR_SYM_LOCAL)
        return FAIL(ps, "loop variable '%.*s' must be a local", (int)ps->tok.len, ps->tok.s);
    *var = s;
    next(ps);
    return 0;
}

static int parse_for(struct parser *ps, const struct line *l)
{
    struct augur_loop_info info = { 0 };
    struct augur_srcloc loc;
    struct augur_node *n;
    int32_t var2 = -1;

    info.form = AUGUR_LOOP_FOR;
    info.trips = -1;
    if (take_loop_var(ps, &info.var) || expect(ps, "="))
        return ps->rc;
    if (!(info.init = parse_expr(ps, 0)) || expect(ps, ";"))
        return ps->rc;
    if (!is(ps, ";") && !(info.cond = parse_expr(ps, 0)))
        return ps->rc;
    if (expect(ps, ";") || take_loop_var(ps, &var2))
        return ps->rc;
    if (var2 != info.var)
        return FAIL(ps, "the step must assign the loop variable");
    if (is(ps, "+=") || is(ps, "-=")) {
        enum augur_op op = is(ps, "+=") ? AUGUR_OP_ADD : AUGUR_OP_SUB;
        const struct augur_expr *step;
        const struct augur_sym *s = augur_skel_sym(ps->b, (uint32_t)info.var);

        next(ps);
        if (!(step = parse_expr(ps, 0)))
            return ps->rc;
        info.next = augur_expr_binary(ps->skel, op,
                                      augur_expr_sym(ps->skel, s->type, (uint32_t)info.var), step);
    } else {
        if (expect(ps, "=") || !(info.next = parse_expr(ps, 0)))
            return ps->rc;
    }
    if (parse_loc(ps, &loc, false) || parse_loop_attrs(ps, &info))
        return ps->rc;
    n = augur_skel_open(ps->b, AUGUR_NODE_LOOP, loc);
    n->u.loop = info;
    ps->loops++;
    parse_block(ps, l->indent + 2);
    ps->loops--;
    augur_skel_close(ps->b);
    return ps->rc;
}

static int parse_while(struct parser *ps, const struct line *l, bool is_do)
{
    struct augur_loop_info info = { 0 };
    struct augur_srcloc loc;
    struct augur_node *n;

    info.form = is_do ? AUGUR_LOOP_DO : AUGUR_LOOP_WHILE;
    info.var = -1;
    info.trips = -1;
    if (!is_do && !(info.cond = parse_expr(ps, 0)))
        return ps->rc;
    if (parse_loc(ps, &loc, false) || parse_loop_attrs(ps, &info))
        return ps->rc;
    n = augur_skel_open(ps->b, AUGUR_NODE_LOOP, loc);
    n->u.loop = info;
    ps->loops++;
    parse_block(ps, l->indent + 2);
    ps->loops--;
    if (!ps->rc && is_do) {
        if (ps->at >= ps->nlines || ps->lines[ps->at].indent != l->indent) {
            augur_skel_close(ps->b);
            return fail_at(ps, l->no, l->indent + 1,
                           "'do' needs a 'while COND' line at its own indentation after the body");
        }
        start_line(ps, &ps->lines[ps->at++]);
        if (expect(ps, "while")) {
            augur_skel_close(ps->b);
            return ps->rc;
        }
        n->u.loop.cond = parse_expr(ps, 0);
        expect_end(ps);
    }
    augur_skel_close(ps->b);
    return ps->rc;
}

static int parse_if(struct parser *ps, const struct line *l)
{
    const struct augur_expr *cond;
    struct augur_srcloc loc;
    struct augur_node *n;
    double prob = -1;

    if (!(cond = parse_expr(ps, 0)) || parse_loc(ps, &loc, false))
        return ps->rc;
    if (accept(ps, "prob")) {
        if (take_real(ps, &prob, "a probability"))
            return ps->rc;
        if (prob > 1)
            return FAIL(ps, "a probability is at most 1");
    }
    if (expect_end(ps))
        return ps->rc;
    n = augur_skel_open(ps->b, AUGUR_NODE_BRANCH, loc);
    n->u.branch.cond = cond;
    n->u.branch.prob = prob;
    parse_block(ps, l->indent + 2);
    n->u.branch.nthen = augur_skel_nkids(ps->b);
    if (!ps->rc && ps->at < ps->nlines && ps->lines[ps->at].indent == l->indent) {
        const struct line *el = &ps->lines[ps->at];

        if ((size_t)(el->end - el->s) == 4 && memcmp(el->s, "else", 4) == 0) {
            ps->at++;
            parse_block(ps, l->indent + 2);
        }
    }
    augur_skel_close(ps->b);
    return ps->rc;
}

static int parse_access(struct parser *ps, enum augur_access_mode mode)
{
    struct augur_access_info a = { 0 };
    const struct augur_array *arr;
    struct augur_srcloc loc;
    struct augur_node *n;
    uint32_t via[64], nvia = 0;
    int32_t ai;

    a.mode = mode;
    a.lanes = 1;
    if (ps->tok.kind != T_NAME || (ai = find_name(ps, true)) < 0)
        return FAIL(ps, "expected an array name");
    a.array = (uint32_t)ai;
    arr = augur_skel_array(ps->b, a.array);
    a.type = arr->elem;
    next(ps);
    if (expect(ps, "[") || !(a.index = parse_expr(ps, 0)) || expect(ps, "]"))
        return ps->rc;
    if (accept(ps, "{")) {
        uint64_t v;

        if (take_uint(ps, UINT32_MAX, &v, "a byte offset"))
            return ps->rc;
        a.offset = (uint32_t)v;
        if (!tok_type(ps, &a.type))
            return FAIL(ps, "expected a type");
        next(ps);
        if (expect(ps, "}"))
            return ps->rc;
    }
    if (accept(ps, "=") && !(a.value = parse_expr(ps, 0)))
        return ps->rc;
    if (parse_loc(ps, &loc, false))
        return ps->rc;
    while (!ps->rc && ps->tok.kind != T_END) {
        if (ps->tok.kind == T_NAME && ps->tok.s[0] == 'x' && ps->tok.len > 1 &&
            is_digit(ps->tok.s[1])) {
            uint64_t v = 0;

            for (size_t i = 1; i < ps->tok.len; i++) {
                if (!is_digit(ps->tok.s[i]) || v > 4096)
                    return FAIL(ps, "bad lane count '%.*s'", (int)ps->tok.len, ps->tok.s);
                v = v * 10 + (uint64_t)(ps->tok.s[i] - '0');
            }
            if (v < 1 || v > 4096)
                return FAIL(ps, "a lane count is between 1 and 4096");
            a.lanes = (uint32_t)v;
            next(ps);
        } else if (accept(ps, "mask")) {
            if (expect(ps, "(") || !(a.mask = parse_expr(ps, 0)) || expect(ps, ")"))
                return ps->rc;
        } else if (accept(ps, "atomic")) {
            a.flags |= AUGUR_ACC_ATOMIC;
        } else if (accept(ps, "ldg")) {
            a.flags |= AUGUR_ACC_LDG;
        } else if (accept(ps, "stream")) {
            a.flags |= AUGUR_ACC_STREAM;
        } else if (accept(ps, "reuse")) {
            a.flags |= AUGUR_ACC_REUSE;
        } else if (accept(ps, "indirect")) {
            a.indirect = true;
            if (expect(ps, "("))
                return ps->rc;
            while (!ps->rc && !is(ps, ")")) {
                if (nvia && expect(ps, ","))
                    return ps->rc;
                if (ps->tok.kind != T_NAME || (ai = find_name(ps, true)) < 0)
                    return FAIL(ps, "expected an array name");
                if (nvia == sizeof(via) / sizeof(via[0]))
                    return FAIL(ps, "too many arrays in indirect(...)");
                via[nvia++] = (uint32_t)ai;
                next(ps);
            }
            expect(ps, ")");
        } else {
            return FAIL(ps, "unknown access attribute '%.*s'", (int)ps->tok.len, ps->tok.s);
        }
    }
    if (ps->rc)
        return ps->rc;
    n = augur_skel_leaf(ps->b, AUGUR_NODE_ACCESS, loc);
    n->u.access = a;
    augur_skel_set_via(ps->b, n, via, nvia);
    return 0;
}

static int parse_ops(struct parser *ps)
{
    struct augur_vec v;
    struct augur_srcloc loc;
    struct augur_node *n;

    augur_vec_init(&v, sizeof(struct augur_opcount));
    while (!ps->rc && ps->tok.kind == T_NAME) {
        struct augur_opcount *c = augur_vec_push(&v);
        const char *s = ps->tok.s, *end = s + ps->tok.len, *dot = memchr(s, '.', ps->tok.len);
        const char *q;
        uint64_t cnt;
        int k;

        if (!dot) {
            FAIL(ps, "expected KIND.TYPE=COUNT, found '%.*s'", (int)ps->tok.len, s);
            break;
        }
        k = augur_skel_lookup(augur_skel_opkind_names, s, (size_t)(dot - s));
        if (k < 0) {
            FAIL(ps, "unknown operation kind '%.*s'", (int)(dot - s), s);
            break;
        }
        c->op = (enum augur_opkind)k;
        for (q = dot + 1; q < end && *q != '.' && *q != 'x'; q++)
            ;
        /* The type name may itself hold an 'x' only as the lane separator. */
        if (!augur_type_parse(dot + 1, (size_t)(q - dot - 1), &c->type)) {
            FAIL(ps, "unknown type '%.*s'", (int)(q - dot - 1), dot + 1);
            break;
        }
        c->lanes = 1;
        if (q < end && *q == 'x') {
            uint64_t lanes = 0;

            for (q++; q < end && is_digit(*q) && lanes <= 4096; q++)
                lanes = lanes * 10 + (uint64_t)(*q - '0');
            if (lanes < 2 || lanes > 4096) {
                FAIL(ps, "bad lane count in '%.*s'", (int)ps->tok.len, s);
                break;
            }
            c->lanes = (uint32_t)lanes;
        }
        if (end - q >= 2 && !memcmp(q, ".m", 2))
            c->masked = true, q += 2;
        if (end - q >= 2 && !memcmp(q, ".c", 2)) {
            uint64_t chains = 0;

            c->carried = true, q += 2;
            /* .cN: spread over N independent accumulators */
            for (; q < end && is_digit(*q) && chains <= UINT32_MAX; q++)
                chains = chains * 10 + (uint64_t)(*q - '0');
            if (q[-1] != 'c' && (chains < 2 || chains > UINT32_MAX)) {
                FAIL(ps, "bad chain count in '%.*s'", (int)ps->tok.len, s);
                break;
            }
            c->chains = (uint32_t)chains;
        }
        if (q < end) {
            FAIL(ps, "unexpected '%.*s' in an operation count", (int)(end - q), q);
            break;
        }
        next(ps);
        if (expect(ps, "=") || take_uint(ps, UINT64_MAX, &cnt, "a count"))
            break;
        c->count = cnt;
        if (c->chains > cnt) {
            FAIL(ps, "%" PRIu32 " chains of %" PRIu64 " operations", c->chains, cnt);
            break;
        }
    }
    if (!ps->rc && !parse_loc(ps, &loc, false) && !expect_end(ps)) {
        n = augur_skel_leaf(ps->b, AUGUR_NODE_OPS, loc);
        augur_skel_set_ops(ps->b, n, v.data, (uint32_t)v.len);
    }
    augur_vec_release(&v);
    return ps->rc;
}

static int parse_stmt(struct parser *ps, const struct line *l)
{
    struct augur_srcloc loc;
    struct augur_node *n;
    int k;

    start_line(ps, l);
    if (ps->tok.kind != T_NAME)
        return FAIL(ps, "expected a statement");
    if (accept(ps, "for"))
        return parse_for(ps, l);
    if (accept(ps, "while"))
        return parse_while(ps, l, false);
    if (accept(ps, "do"))
        return parse_while(ps, l, true);
    if (accept(ps, "if"))
        return parse_if(ps, l);
    if (is(ps, "else"))
        return FAIL(ps, "'else' without 'if'");
    k = augur_skel_lookup(augur_skel_access_mode_names, ps->tok.s, ps->tok.len);
    if (k >= 0) {
        next(ps);
        return parse_access(ps, (enum augur_access_mode)k);
    }
    if (accept(ps, "ops"))
        return parse_ops(ps);
    if (accept(ps, "set")) {
        const struct augur_expr *v;
        int32_t s;

        if (ps->tok.kind != T_NAME || (s = find_name(ps, false)) < 0)
            return FAIL(ps, "expected a declared scalar");
        if (augur_skel_sym(ps->b, (uint32_t)s)->kind != AUGUR_SYM_LOCAL)
            return FAIL(ps, "only locals can be set");
        next(ps);
        if (expect(ps, "=") || !(v = parse_expr(ps, 0)) || parse_loc(ps, &loc, false) ||
            expect_end(ps))
            return ps->rc;
        n = augur_skel_leaf(ps->b, AUGUR_NODE_ASSIGN, loc);
        n->u.assign.sym = (uint32_t)s;
        n->u.assign.value = v;
        return 0;
    }
    if (accept(ps, "call")) {
        char name[256], *quoted = NULL;

        if (ps->tok.kind == T_STR) {
            if (take_string(ps, &quoted))
                return ps->rc;
            snprintf(name, sizeof(name), "%s", quoted);
            augur_free(quoted);
        } else if (take_name(ps, name, sizeof(name), "a function name")) {
            return ps->rc;
        }
        if (parse_loc(ps, &loc, false) || expect_end(ps))
            return ps->rc;
        n = augur_skel_leaf(ps->b, AUGUR_NODE_CALL, loc);
        n->u.call.name = augur_arena_strdup(&ps->skel->arena, name);
        return 0;
    }
    if (accept(ps, "sync")) {
        k = ps->tok.kind == T_NAME
                ? augur_skel_lookup(augur_skel_sync_names, ps->tok.s, ps->tok.len)
                : -1;
        if (k < 0)
            return FAIL(ps, "expected threads, warp, barrier or fence");
        next(ps);
        if (parse_loc(ps, &loc, false) || expect_end(ps))
            return ps->rc;
        n = augur_skel_leaf(ps->b, AUGUR_NODE_SYNC, loc);
        n->u.sync = (enum augur_sync_kind)k;
        return 0;
    }
    k = augur_skel_lookup(augur_skel_jump_names, ps->tok.s, ps->tok.len);
    if (k >= 0) {
        if (k != AUGUR_JUMP_RETURN && ps->loops == 0)
            return FAIL(ps, "'%.*s' outside a loop", (int)ps->tok.len, ps->tok.s);
        next(ps);
        if (parse_loc(ps, &loc, false) || expect_end(ps))
            return ps->rc;
        n = augur_skel_leaf(ps->b, AUGUR_NODE_JUMP, loc);
        n->u.jump = (enum augur_jump_kind)k;
        return 0;
    }
    if (accept(ps, "region")) {
        struct augur_region_info r = { 0 };

        k = ps->tok.kind == T_NAME
                ? augur_skel_lookup(augur_skel_region_names, ps->tok.s, ps->tok.len)
                : -1;
        if (k < 0)
            return FAIL(ps, "expected parallel, critical, atomic, master or single");
        r.kind = (enum augur_region_kind)k;
        next(ps);
        if (parse_loc(ps, &loc, false))
            return ps->rc;
        if (accept(ps, "omp") && parse_omp(ps, &r.omp))
            return ps->rc;
        if (expect_end(ps))
            return ps->rc;
        n = augur_skel_open(ps->b, AUGUR_NODE_REGION, loc);
        n->u.region = r;
        parse_block(ps, l->indent + 2);
        augur_skel_close(ps->b);
        return ps->rc;
    }
    if (accept(ps, "kernel") || accept(ps, "array") || accept(ps, "param") || accept(ps, "local") ||
        accept(ps, "builtin") || accept(ps, "note"))
        return fail_at(ps, l->no, l->indent + 1, "declarations come before the statements");
    return FAIL(ps, "unknown statement '%.*s'", (int)ps->tok.len, ps->tok.s);
}

/* Parses the lines at exactly this indentation (a deeper one is an error). */
static int parse_block(struct parser *ps, uint32_t indent)
{
    if (++ps->depth > MAX_DEPTH) {
        uint32_t no = ps->at < ps->nlines ? ps->lines[ps->at].no : 0;

        return fail_at(ps, no, 1, "statements nested more than %d deep", MAX_DEPTH);
    }
    while (!ps->rc && ps->at < ps->nlines) {
        const struct line *l = &ps->lines[ps->at];

        if (l->indent < indent)
            break;
        if (l->indent > indent) {
            fail_at(ps, l->no, l->indent + 1, "unexpected indentation");
            break;
        }
        ps->at++;
        parse_stmt(ps, l);
    }
    ps->depth--;
    return ps->rc;
}

/* ---- declarations and kernels --------------------------------------------------------- */

static bool is_decl(const struct line *l)
{
    static const char *const words[] = { "note", "param", "local", "builtin", "array", NULL };
    const char *q = l->s;

    while (q < l->end && is_alpha(*q))
        q++;
    return augur_skel_lookup(words, l->s, (size_t)(q - l->s)) >= 0;
}

static int check_new_name(struct parser *ps, const char *name, uint32_t col)
{
    if (!augur_skel_name_is_valid(name))
        return fail_at(ps, ps->ln->no, col, "'%s' cannot be used as a name", name);
    if (augur_skel_find_sym(ps->b, name) >= 0 || augur_skel_find_array(ps->b, name) >= 0)
        return fail_at(ps, ps->ln->no, col, "'%s' is declared twice", name);
    return 0;
}

/* First pass over a declaration line: registers the name (and the array's element type). */
static int declare(struct parser *ps, const struct line *l)
{
    char name[256];
    struct augur_srcloc noloc = { 0, 0, 0 };
    uint32_t ncol;
    int k;

    start_line(ps, l);
    if (accept(ps, "note"))
        return 0;
    if (accept(ps, "array")) {
        enum augur_type t;
        uint64_t size = 0;

        ncol = ps->tok.col;
        if (take_name(ps, name, sizeof(name), "an array name") || check_new_name(ps, name, ncol))
            return ps->rc;
        if (!tok_type(ps, &t) || t == AUGUR_T_VOID)
            return FAIL(ps, "expected an element type");
        next(ps);
        if (t == AUGUR_T_REC) {
            if (expect(ps, "(") || take_uint(ps, UINT32_MAX, &size, "a record size"))
                return ps->rc;
            if (!size)
                return FAIL(ps, "a record size is at least 1");
            if (expect(ps, ")"))
                return ps->rc;
        } else {
            size = augur_type_size(t);
        }
        augur_skel_add_array(ps->b, name, t, (uint32_t)size, AUGUR_SPACE_GLOBAL, false, noloc);
        return 0;
    }
    k = augur_skel_lookup(augur_skel_sym_kind_names, ps->tok.s, ps->tok.len);
    if (k >= 0) {
        enum augur_type t;
        uint32_t s;

        next(ps);
        ncol = ps->tok.col;
        if (take_name(ps, name, sizeof(name), "a name") || check_new_name(ps, name, ncol))
            return ps->rc;
        if (k == AUGUR_SYM_BUILTIN && !augur_skel_builtin_is_known(name))
            return fail_at(ps, l->no, ncol, "unknown builtin '%s'", name);
        if (!tok_type(ps, &t) || t == AUGUR_T_VOID || t == AUGUR_T_REC)
            return FAIL(ps, "expected a scalar type");
        next(ps);
        s = augur_skel_add_sym(ps->b, name, (enum augur_sym_kind)k, t, noloc);
        if (parse_loc(ps, &augur_skel_sym(ps->b, s)->loc, false))
            return ps->rc;
        if (parse_bind(ps, &augur_skel_sym(ps->b, s)->bind, &augur_skel_sym(ps->b, s)->bind_src))
            return ps->rc;
        return expect_end(ps);
    }
    return FAIL(ps, "unknown declaration");
}

/* Second pass: the parts that hold expressions, locations and bindings. */
static int define(struct parser *ps, const struct line *l, uint32_t *array_no)
{
    start_line(ps, l);
    if (accept(ps, "note")) {
        struct augur_srcloc loc = { ps->kfile, 0, 0 };
        char *msg = NULL;
        int k = ps->tok.kind == T_NAME
                    ? augur_skel_lookup(augur_skel_note_kind_names, ps->tok.s, ps->tok.len)
                    : -1;

        if (k < 0)
            return FAIL(ps, "expected warning, unsupported or guard");
        next(ps);
        if (parse_loc(ps, &loc, false) || take_string(ps, &msg))
            return ps->rc;
        if (!expect_end(ps))
            augur_skel_add_note(ps->b, (enum augur_note_kind)k, loc, "%s", msg);
        augur_free(msg);
        return ps->rc;
    }
    if (accept(ps, "array")) {
        struct augur_array *a = augur_skel_array(ps->b, (*array_no)++);
        const struct augur_expr *extent = NULL;
        struct augur_srcloc loc;
        int sp;

        next(ps); /* name */
        next(ps); /* type */
        if (a->elem == AUGUR_T_REC) {
            next(ps);
            next(ps);
            next(ps);
        }
        if (expect(ps, "["))
            return ps->rc;
        if (!is(ps, "]") && !(extent = parse_expr(ps, 0)))
            return ps->rc;
        if (expect(ps, "]"))
            return ps->rc;
        sp = ps->tok.kind == T_NAME
                 ? augur_skel_lookup(augur_skel_space_names, ps->tok.s, ps->tok.len)
                 : -1;
        if (sp < 0)
            return FAIL(ps, "expected global, shared, local or const");
        next(ps);
        a = augur_skel_array(ps->b, *array_no - 1);
        a->extent = extent;
        a->space = (enum augur_space)sp;
        a->param = accept(ps, "param");
        if (parse_loc(ps, &loc, false))
            return ps->rc;
        a = augur_skel_array(ps->b, *array_no - 1);
        a->loc = loc;
        if (parse_bind(ps, &a->bind, &a->bind_src))
            return ps->rc;
        return expect_end(ps);
    }
    return 0; /* syms were complete after the first pass */
}

static int parse_kernel(struct parser *ps, const struct line *l)
{
    char name[256];
    struct augur_srcloc loc;
    struct augur_node *k;
    const struct augur_expr *grid = NULL, *block = NULL;
    bool cuda = false;
    size_t first, end;
    uint32_t array_no = 0;

    start_line(ps, l);
    if (expect(ps, "kernel") || take_name(ps, name, sizeof(name), "a kernel name"))
        return ps->rc;
    if (!augur_skel_kernel_name_is_valid(name))
        return FAIL(ps, "'%s' cannot be used as a kernel name", name);
    ps->kfile_known = false;
    ps->kfile = 0;
    if (parse_loc(ps, &loc, true))
        return ps->rc;
    ps->kfile = loc.file;
    ps->kfile_known = loc.line != 0;
    if (accept(ps, "cuda"))
        cuda = true;
    k = augur_skel_begin_kernel(ps->b, name, loc);
    k->u.kernel.cuda = cuda;
    ps->kernel = k;
    /* Declarations: names first, so that extents may refer to any of them. */
    first = ps->at;
    for (end = first; end < ps->nlines && ps->lines[end].indent == 2 && is_decl(&ps->lines[end]);
         end++)
        if (declare(ps, &ps->lines[end]))
            goto fail;
    for (size_t i = first; i < end; i++)
        if (define(ps, &ps->lines[i], &array_no))
            goto fail;
    /* Back to the kernel line for the launch, which may use the declarations. */
    start_line(ps, l);
    next(ps);
    next(ps);
    if (parse_loc(ps, &loc, true))
        goto fail;
    accept(ps, "cuda");
    if (accept(ps, "template")) {
        char *args = NULL;

        if (expect(ps, "(") || take_string(ps, &args)) {
            augur_free(args);
            goto fail;
        }
        k->u.kernel.template_args = augur_arena_strdup(&ps->skel->arena, args);
        augur_free(args);
        if (expect(ps, ")"))
            goto fail;
    }
    if (accept(ps, "launch")) {
        if (expect(ps, "(") || !(grid = parse_expr(ps, 0)) || expect(ps, ",") ||
            !(block = parse_expr(ps, 0)) || expect(ps, ")"))
            goto fail;
        k->u.kernel.grid = grid;
        k->u.kernel.block = block;
    }
    if (expect_end(ps))
        goto fail;
    ps->at = end;
    if (parse_block(ps, 2))
        goto fail;
    augur_skel_end_kernel(ps->b);
    return 0;
fail:
    augur_skel_abandon_kernel(ps->b);
    return ps->rc;
}

int augur_skel_parse(const char *text, size_t len, const char *name, struct augur_skel **out,
                     struct augur_diag *diag)
{
    struct parser ps;
    struct augur_diag vdiag;
    int rc;

    memset(&ps, 0, sizeof(ps));
    ps.name = name ? name : "<skeleton>";
    ps.diag = diag;
    if ((rc = split_lines(&ps, text, len)) != 0)
        return rc;
    ps.skel = augur_skel_new();
    ps.b = augur_skel_builder_new(ps.skel);
    if (!ps.nlines || (size_t)(ps.lines[0].end - ps.lines[0].s) != 16 ||
        memcmp(ps.lines[0].s, "augur-skeleton 1", 16) != 0 || ps.lines[0].indent) {
        fail_at(&ps, ps.nlines ? ps.lines[0].no : 1, 1,
                "not a skeleton: the first line must be 'augur-skeleton 1'");
        goto out;
    }
    ps.at = 1;
    while (!ps.rc && ps.at < ps.nlines) {
        const struct line *l = &ps.lines[ps.at++];

        if (l->indent) {
            fail_at(&ps, l->no, l->indent + 1, "unexpected indentation");
            break;
        }
        start_line(&ps, l);
        if (accept(&ps, "source")) {
            char *file = NULL;

            if (take_string(&ps, &file))
                break;
            if (!expect_end(&ps))
                augur_skel_add_file(ps.skel, file);
            augur_free(file);
        } else if (is(&ps, "kernel")) {
            parse_kernel(&ps, l);
        } else {
            FAIL(&ps, "expected 'source' or 'kernel'");
        }
    }
    if (ps.rc)
        goto out;
    augur_diag_init(&vdiag);
    if (augur_skel_builder_finish(ps.b, &vdiag)) {
        char msg[1200];

        augur_diag_format(&vdiag, msg, sizeof(msg));
        augur_diag_set(diag, AUGUR_EPARSE, ps.name, 0, 0, "invalid skeleton: %s", msg);
        ps.rc = AUGUR_EPARSE;
    }
out:
    augur_skel_builder_free(ps.b);
    augur_free(ps.lines);
    if (ps.rc) {
        augur_skel_free(ps.skel);
        return ps.rc;
    }
    *out = ps.skel;
    return 0;
}

int augur_skel_load(const char *path, struct augur_skel **out, struct augur_diag *diag)
{
    struct augur_buf buf;
    int rc;

    augur_buf_init(&buf);
    rc = augur_file_read(path, (size_t)1 << 30, &buf, NULL, diag);
    if (rc == 0)
        rc = augur_skel_parse(buf.s, buf.len, path, out, diag);
    augur_buf_release(&buf);
    return rc;
}
