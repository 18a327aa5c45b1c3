/*
 * rt_edges.c - the edge-list reader, SNAP style "src dst [weight]" lines (module: data).
 *
 * There is no header, so the arrays grow as edges arrive; a line of at least
 * four bytes ("0 1\n") per edge bounds them. Ids are kept as read and shifted
 * to 0-based at the end, once the base is known.
 */
#include <stdio.h>

#include "rt_int.h"

/* The largest integer a double holds exactly: integer weights beyond it lose digits. */
#define EXACT_INT_MAX 9007199254740992.0

/* Growing COO arrays; val stays NULL for an unweighted list. */
struct edge_buf {
    uint32_t *row, *col;
    double *val;
    uint64_t n, cap, limit;
};

static inline bool is_sep(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\0' || c == '\f' || c == '\v' ||
           c == ',';
}

/* Skips blanks and at most one comma between fields. */
static inline void skip_sep(struct rt_scan *s)
{
    rt_skip_blanks(s);
    if (*s->p == ',') {
        s->p++;
        rt_skip_blanks(s);
    }
}

/* Why the token at the cursor is not a vertex id (the slow path of parse_id). */
static int id_error(struct rt_scan *s, const char *what)
{
    const char *q = s->p;

    if (rt_eof(s) || *q == '\n')
        return rt_error(s, AUGUR_EPARSE, "expected %s, found end of %s", what,
                        rt_eof(s) ? "file" : "line");
    if (*q == '-' && (unsigned)(q[1] - '0') <= 9)
        return rt_error(s, AUGUR_ERANGE, "%s must not be negative", what);
    while ((unsigned)(*q - '0') <= 9)
        q++;
    if (q > s->p && is_sep(*q))
        return rt_error(s, AUGUR_ERANGE, "%s %.*s is too large (ids must be below 2^32)", what,
                        (int)(q - s->p > 40 ? 40 : q - s->p), s->p);
    q = s->p;
    while (!is_sep(*q) && q - s->p < 24)
        q++;
    return rt_error(s, AUGUR_EPARSE, "expected %s, found '%.*s'", what, (int)(q - s->p), s->p);
}

/* Parses a vertex id (a plain decimal below 2^32) that ends at a separator. */
static inline int parse_id(struct rt_scan *s, uint64_t *out, const char *what)
{
    const char *q = s->p;
    uint64_t v;

    if ((unsigned)(*q - '0') > 9)
        return id_error(s, what);
    v = (unsigned)(*q++ - '0');
    while ((unsigned)(*q - '0') <= 9) {
        v = v * 10 + (unsigned)(*q++ - '0');
        if (v > UINT32_MAX)
            return id_error(s, what);
    }
    if (!is_sep(*q))
        return id_error(s, what);
    s->p = q;
    *out = v;
    return 0;
}

/* Is the token [start, end) written as an integer (no point, no exponent)? */
static bool is_integer_token(const char *start, const char *end)
{
    for (const char *q = start; q < end; q++)
        if ((unsigned)(*q - '0') > 9 && *q != '-' && *q != '+')
            return false;
    return true;
}

static void grow(struct edge_buf *b)
{
    uint64_t cap = b->cap * 2;

    /* limit bounds the edges a text can hold; it never stops growth, only trims it. */
    if (cap > b->limit && b->limit > b->cap)
        cap = b->limit;
    b->row = augur_reallocarray(b->row, cap, sizeof(*b->row));
    b->col = augur_reallocarray(b->col, cap, sizeof(*b->col));
    if (b->val)
        b->val = augur_reallocarray(b->val, cap, sizeof(*b->val));
    b->cap = cap;
}

int rt_read_edges(const char *text, size_t len, const char *file,
                  const struct augur_load_opts *opts, struct augur_dataset *ds,
                  struct augur_diag *diag)
{
    struct rt_scan s;
    struct edge_buf b = { 0 };
    int base = -1;           /* -1: detect */
    int weighted = -1;       /* -1: not known until the first edge */
    uint64_t first_line = 0; /* line of the first edge, which decides "weighted" */
    uint64_t max_id = 0, big_line = 0;
    uint32_t big_col = 0; /* where id 2^32-1 first appears: too large if 0-based */
    bool any_zero = false;
    enum augur_field field = AUGUR_FIELD_INTEGER;
    int rc = 0;

    rt_scan_init(&s, text, len, file, diag);
    if (opts->base_given) {
        if (opts->index_base != 0 && opts->index_base != 1)
            return augur_diag_set(diag, AUGUR_EINVAL, file, 0, 0,
                                  "index base must be 0 or 1, not %d", opts->index_base);
        base = opts->index_base;
    }
    /* The shortest edge line is "0 1\n". */
    b.limit = len / 4 + 1;
    b.cap = len / 16 + 1024 < b.limit ? len / 16 + 1024 : b.limit;
    b.row = augur_mallocarray(b.cap, sizeof(*b.row));
    b.col = augur_mallocarray(b.cap, sizeof(*b.col));

    for (;;) {
        uint64_t u = 0, v = 0;
        const char *u_start, *v_start;

        /* Most lines start with a digit: only others can be blank or comments. */
        if ((unsigned)(*s.p - '0') > 9 && !rt_next_content_line(&s, "#%"))
            break;
        u_start = s.p;

        if ((rc = parse_id(&s, &u, "source vertex id")))
            goto fail;
        skip_sep(&s);
        v_start = s.p;
        if ((rc = parse_id(&s, &v, "target vertex id")))
            goto fail;
        if (u == 0 || v == 0 || u == UINT32_MAX || v == UINT32_MAX) {
            /* Rare ids, checked off the fast path: 0 fixes the base, 2^32-1 may not fit. */
            if (u == 0 || v == 0) {
                if (base == 1) {
                    s.p = u == 0 ? u_start : v_start;
                    rc = rt_error(&s, AUGUR_ERANGE, "vertex id 0 in a 1-based edge list");
                    goto fail;
                }
                any_zero = true;
            }
            if ((u == UINT32_MAX || v == UINT32_MAX) && !big_line) {
                const char *at = s.p;

                s.p = u == UINT32_MAX ? u_start : v_start;
                big_line = s.line;
                big_col = rt_col(&s);
                s.p = at;
            }
        }
        if (u > max_id)
            max_id = u;
        if (v > max_id)
            max_id = v;
        skip_sep(&s);
        if (b.n == b.cap)
            grow(&b);
        if (rt_at_eol(&s)) {
            if (weighted == 1) {
                rc = rt_error(&s, AUGUR_EPARSE,
                              "expected a weight: the first edge (line %llu) has one, so every "
                              "line must",
                              (unsigned long long)first_line);
                goto fail;
            }
            weighted = 0;
        } else {
            const char *w_start = s.p;
            double w;

            if (weighted == 0) {
                rc = rt_error(&s, AUGUR_EPARSE,
                              "unexpected third field: the first edge (line %llu) has no weight, "
                              "so no line may",
                              (unsigned long long)first_line);
                goto fail;
            }
            if (weighted < 0) {
                weighted = 1;
                b.val = augur_mallocarray(b.cap, sizeof(*b.val));
            }
            if ((rc = rt_parse_double(&s, &w, "weight")))
                goto fail;
            if (field == AUGUR_FIELD_INTEGER &&
                (!is_integer_token(w_start, s.p) || w > EXACT_INT_MAX || w < -EXACT_INT_MAX))
                field = AUGUR_FIELD_REAL;
            b.val[b.n] = w;
            if ((rc = rt_expect_eol(&s, "the weight")))
                goto fail;
        }
        if (!first_line)
            first_line = s.line;
        b.row[b.n] = (uint32_t)u;
        b.col[b.n] = (uint32_t)v;
        b.n++;
        if (*s.p == '\n') {
            s.line_start = ++s.p;
            s.line++;
        } else {
            rt_next_line(&s);
        }
    }
    if (b.n == 0) {
        rc = rt_error(&s, AUGUR_EPARSE, "no edges: the file holds only blank lines and comments");
        goto fail;
    }
    if (base < 0)
        base = any_zero ? 0 : 1;
    if (base == 0 && big_line) {
        rc = augur_diag_set(diag, AUGUR_ERANGE, file,
                            big_line > UINT32_MAX ? UINT32_MAX : (uint32_t)big_line, big_col,
                            "vertex id 4294967295 in a 0-based edge list makes 2^32 vertices, "
                            "more than augur indexes");
        goto fail;
    }
    if (base == 1) {
        for (uint64_t k = 0; k < b.n; k++) {
            b.row[k]--;
            b.col[k]--;
        }
    }
    ds->coo.nrows = ds->coo.ncols = (uint32_t)(max_id + 1 - (uint64_t)base);
    ds->coo.nnz = b.n;
    ds->coo.row = b.row;
    ds->coo.col = b.col;
    ds->coo.val = b.val;
    ds->symmetry = opts->undirected ? AUGUR_SYM_SYMMETRIC : AUGUR_SYM_GENERAL;
    ds->weighted = weighted == 1;
    ds->field = ds->weighted ? field : AUGUR_FIELD_PATTERN;
    ds->nentries_read = b.n;
    return 0;
fail:
    augur_free(b.row);
    augur_free(b.col);
    augur_free(b.val);
    return rc;
}
