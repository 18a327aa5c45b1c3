/*
 * rt_mtx.c - the Matrix Market coordinate reader and writer (module: data).
 *
 * Loading is dominated by number parsing, so the entry loop is specialised per
 * field type and parses the common shape of a line ("i j [v]\n") inline. Any
 * line it does not recognise at once (leading blanks, a comment, a long or odd
 * number, an error) is parsed again from its start by the general path, which
 * uses the rt_scan parsers and names file:line:col in its messages.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "rt_int.h"

#define IS_DIGIT(c) ((unsigned)((unsigned char)(c) - '0') <= 9)

/* What the banner and the size line say. */
struct mm_header {
    enum augur_field field;
    enum augur_symmetry sym;
    uint64_t nrows, ncols, nnz;
};

/* The entry arrays being filled and the bounds every entry is checked against. */
struct mm_fill {
    uint64_t nrows, ncols, nnz;
    bool skew;
    uint32_t *row, *col;
    double *val;
};

/* ---- banner and size line ------------------------------------------------ */

/* Reads the next banner word at *col; false when the line has ended. */
static bool banner_word(struct rt_scan *s, char *buf, size_t size, uint32_t *col)
{
    rt_skip_blanks(s);
    *col = rt_col(s);
    return rt_parse_word(s, buf, size);
}

static int banner_missing(struct rt_scan *s, const char *what)
{
    return rt_error(s, AUGUR_EPARSE, "the banner ends early: expected the %s", what);
}

static int banner_error(struct rt_scan *s, int code, uint32_t col, const char *fmt, ...)
    AUGUR_PRINTF(4, 5);

/* An error at column col of the banner line. */
static int banner_error(struct rt_scan *s, int code, uint32_t col, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    augur_diag_setv(s->diag, code, s->file, rt_line(s), col, fmt, ap);
    va_end(ap);
    return code;
}

static int parse_banner(struct rt_scan *s, struct mm_header *h)
{
    char w[32];
    uint32_t col;

    /* A UTF-8 byte order mark, written by some editors, is not part of the banner. */
    if ((unsigned char)s->p[0] == 0xEF && (unsigned char)s->p[1] == 0xBB &&
        (unsigned char)s->p[2] == 0xBF)
        s->p += 3;
    if (!rt_next_content_line(s, NULL))
        return rt_error(s, AUGUR_EPARSE, "empty file: expected a %%%%MatrixMarket banner");
    if (!banner_word(s, w, sizeof(w), &col) || strcasecmp(w, "%%MatrixMarket") != 0) {
        s->p = s->line_start;
        return rt_error(s, AUGUR_EPARSE,
                        "not a Matrix Market file: the first line must be the "
                        "%%%%MatrixMarket banner");
    }

    if (!banner_word(s, w, sizeof(w), &col))
        return banner_missing(s, "object (matrix)");
    if (strcasecmp(w, "matrix") != 0)
        return banner_error(s, AUGUR_EFORMAT, col,
                            "unsupported Matrix Market object '%s': only 'matrix' is read", w);

    if (!banner_word(s, w, sizeof(w), &col))
        return banner_missing(s, "format (coordinate)");
    if (strcasecmp(w, "array") == 0)
        return banner_error(s, AUGUR_EUNSUP, col,
                            "the dense '%s' format is not supported: only 'coordinate' is read", w);
    if (strcasecmp(w, "coordinate") != 0)
        return banner_error(s, AUGUR_EFORMAT, col,
                            "unknown Matrix Market format '%s': expected 'coordinate'", w);

    if (!banner_word(s, w, sizeof(w), &col))
        return banner_missing(s, "field (real, integer or pattern)");
    if (strcasecmp(w, "real") == 0)
        h->field = AUGUR_FIELD_REAL;
    else if (strcasecmp(w, "integer") == 0)
        h->field = AUGUR_FIELD_INTEGER;
    else if (strcasecmp(w, "pattern") == 0)
        h->field = AUGUR_FIELD_PATTERN;
    else if (strcasecmp(w, "complex") == 0)
        return banner_error(s, AUGUR_EUNSUP, col,
                            "the '%s' field is not supported: use real, integer or pattern", w);
    else
        return banner_error(s, AUGUR_EFORMAT, col,
                            "unknown Matrix Market field '%s': expected real, integer or pattern",
                            w);

    if (!banner_word(s, w, sizeof(w), &col))
        return banner_missing(s, "symmetry (general, symmetric or skew-symmetric)");
    if (strcasecmp(w, "general") == 0)
        h->sym = AUGUR_SYM_GENERAL;
    else if (strcasecmp(w, "symmetric") == 0)
        h->sym = AUGUR_SYM_SYMMETRIC;
    else if (strcasecmp(w, "skew-symmetric") == 0) {
        if (h->field == AUGUR_FIELD_PATTERN)
            return banner_error(s, AUGUR_EFORMAT, col,
                                "a pattern matrix cannot be '%s': it has no values to negate "
                                "(the Matrix Market format allows general or symmetric)",
                                w);
        h->sym = AUGUR_SYM_SKEW;
    } else if (strcasecmp(w, "hermitian") == 0)
        return banner_error(s, AUGUR_EUNSUP, col,
                            "'%s' symmetry is not supported (it needs complex values)", w);
    else
        return banner_error(s, AUGUR_EFORMAT, col,
                            "unknown Matrix Market symmetry '%s': expected general, symmetric "
                            "or skew-symmetric",
                            w);
    return rt_expect_eol(s, "the symmetry");
}

static int parse_size_line(struct rt_scan *s, struct mm_header *h)
{
    uint32_t rows_col, nnz_col, size_line;
    uint64_t nlines;
    int rc;

    rt_next_line(s);
    if (!rt_next_content_line(s, "%"))
        return rt_error(s, AUGUR_ETRUNC, "missing size line 'rows cols entries' after the banner");
    rt_skip_blanks(s);
    size_line = rt_line(s);
    rows_col = rt_col(s);
    rc = rt_parse_u64(s, &h->nrows, "number of rows");
    if (!rc)
        rc = rt_parse_u64(s, &h->ncols, "number of columns");
    if (!rc) {
        rt_skip_blanks(s);
        nnz_col = rt_col(s);
        rc = rt_parse_u64(s, &h->nnz, "number of entries");
    }
    if (!rc)
        rc = rt_expect_eol(s, "the number of entries");
    if (rc)
        return rc;
    if (h->nrows > UINT32_MAX || h->ncols > UINT32_MAX)
        return augur_diag_set(s->diag, AUGUR_ERANGE, s->file, rt_line(s), rows_col,
                              "matrix of %llu x %llu is too large: rows and columns must fit "
                              "32-bit indices (at most %u)",
                              (unsigned long long)h->nrows, (unsigned long long)h->ncols,
                              UINT32_MAX);
    if (h->sym != AUGUR_SYM_GENERAL && h->nrows != h->ncols)
        return augur_diag_set(s->diag, AUGUR_EPARSE, s->file, rt_line(s), rows_col,
                              "a %s matrix must be square, not %llu x %llu",
                              augur_symmetry_name(h->sym), (unsigned long long)h->nrows,
                              (unsigned long long)h->ncols);
    /* Every entry takes a line: a count the text cannot hold is refused before allocating. */
    rt_next_line(s);
    nlines = rt_count_lines(s);
    if (h->nnz > nlines)
        return augur_diag_set(s->diag, AUGUR_ETRUNC, s->file, size_line, nnz_col,
                              "truncated: expected %llu entries (as the size line says), but "
                              "only %llu line%s follow%s",
                              (unsigned long long)h->nnz, (unsigned long long)nlines,
                              nlines == 1 ? "" : "s", nlines == 1 ? "s" : "");
    return 0;
}

/* ---- entries: the general path ------------------------------------------- */

static int index_range_error(struct rt_scan *s, const char *what, uint64_t v, uint64_t n,
                             const char *dim)
{
    if (v == 0)
        return rt_error(s, AUGUR_ERANGE, "%s 0 is out of range: Matrix Market indices start at 1",
                        what);
    return rt_error(s, AUGUR_ERANGE, "%s %llu is out of range: the matrix has %llu %s", what,
                    (unsigned long long)v, (unsigned long long)n, dim);
}

/* "<what>, found '<token>'" at the cursor. */
static int bad_value(struct rt_scan *s, const char *what)
{
    const char *q = s->p;

    while (q < s->end && q - s->p < 24 && *q != ' ' && *q != '\t' && *q != '\r' && *q != '\n' &&
           *q != '\0')
        q++;
    return rt_error(s, AUGUR_EPARSE, "%s, found '%.*s'", what, (int)(q - s->p), s->p);
}

static int extra_field(struct rt_scan *s, enum augur_field field)
{
    const char *q = s->p;
    const char *shape = field == AUGUR_FIELD_PATTERN ? "'row col'" : "'row col value'";

    if (*q == '\0')
        return rt_error(s, AUGUR_EPARSE, "unexpected NUL byte: a %s entry is %s",
                        augur_field_name(field), shape);
    while (q < s->end && q - s->p < 24 && *q != ' ' && *q != '\t' && *q != '\r' && *q != '\n')
        q++;
    return rt_error(s, AUGUR_EPARSE, "extra field '%.*s': a %s entry is %s", (int)(q - s->p), s->p,
                    augur_field_name(field), shape);
}

/*
 * An integer value of any length, kept as the nearest double (exact up to
 * 2^53): [+-]digits ending at a blank or the end of the line.
 */
static int parse_integer(struct rt_scan *s, double *out)
{
    const char *t, *q;
    char *endp;
    double v;

    rt_skip_blanks(s);
    t = q = s->p;
    if (*q == '-' || *q == '+')
        q++;
    if (!IS_DIGIT(*q)) {
        if (rt_at_eol(s))
            return rt_error(s, AUGUR_EPARSE, "expected integer value, found end of %s",
                            s->p >= s->end ? "file" : "line");
        return bad_value(s, "expected integer value");
    }
    while (IS_DIGIT(*q))
        q++;
    if (*q != ' ' && *q != '\t' && *q != '\r' && *q != '\n' && *q != '\0')
        return bad_value(s, "expected integer value");
    /* Only digits: strtod gives the correctly rounded value and cannot run past q. */
    v = strtod(t, &endp);
    if (endp != q || !isfinite(v))
        return rt_error(s, AUGUR_ERANGE, "integer value is too large");
    s->p = q;
    *out = v;
    return 0;
}

/*
 * Parses the line at the cursor (a line start) as entry k, or skips it when it
 * is blank or a comment (*stored = false). Leaves the cursor at the next line.
 */
static int entry_slow(struct rt_scan *s, const struct mm_fill *f, enum augur_field field,
                      uint64_t k, bool *stored)
{
    uint64_t i, j;
    const char *ti, *tj;
    int rc;

    *stored = false;
    rt_skip_blanks(s);
    if (s->p >= s->end) {
        /* Name the last line of the file, not the empty one after its final newline. */
        uint32_t line = rt_line(s) - (s->line_start == s->end && s->line > 1);

        return augur_diag_set(s->diag, AUGUR_ETRUNC, s->file, line, 0,
                              "truncated: expected %llu entries, found %llu",
                              (unsigned long long)f->nnz, (unsigned long long)k);
    }
    if (*s->p == '\n' || *s->p == '%') {
        rt_next_line(s);
        return 0;
    }
    ti = s->p;
    rc = rt_parse_u64(s, &i, "row index");
    if (rc)
        return rc;
    rt_skip_blanks(s);
    tj = s->p;
    rc = rt_parse_u64(s, &j, "column index");
    if (rc)
        return rc;
    if (i - 1 >= f->nrows) {
        s->p = ti;
        return index_range_error(s, "row index", i, f->nrows, "rows");
    }
    if (j - 1 >= f->ncols) {
        s->p = tj;
        return index_range_error(s, "column index", j, f->ncols, "columns");
    }
    if (f->skew && i == j) {
        s->p = ti;
        return rt_error(s, AUGUR_EPARSE,
                        "diagonal entry (%llu, %llu) in a skew-symmetric matrix, whose "
                        "diagonal is zero and not stored",
                        (unsigned long long)i, (unsigned long long)j);
    }
    if (field == AUGUR_FIELD_REAL) {
        rc = rt_parse_double(s, &f->val[k], "value");
    } else if (field == AUGUR_FIELD_INTEGER) {
        rc = parse_integer(s, &f->val[k]);
    }
    if (rc)
        return rc;
    if (!rt_at_eol(s))
        return extra_field(s, field);
    f->row[k] = (uint32_t)(i - 1);
    f->col[k] = (uint32_t)(j - 1);
    rt_next_line(s);
    *stored = true;
    return 0;
}

/* ---- entries: the fast path ---------------------------------------------- */

static const double pow10_exact[] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

/*
 * A decimal that a double holds exactly after one multiplication or division
 * by an exact power of ten (Clinger's fast path), which is the correctly
 * rounded value. False for anything else; the caller then uses rt_parse_double.
 */
static inline bool fast_double(const char **pp, double *out)
{
    const char *q = *pp, *d0;
    uint64_t m = 0;
    int nd, e = 0;
    bool neg = false;
    double v;

    if (*q == '-' || *q == '+')
        neg = *q++ == '-';
    d0 = q;
    while (IS_DIGIT(*q))
        m = m * 10 + (unsigned)(*q++ - '0');
    nd = (int)(q - d0);
    if (*q == '.') {
        const char *f0 = ++q;

        while (IS_DIGIT(*q))
            m = m * 10 + (unsigned)(*q++ - '0');
        e = -(int)(q - f0);
        nd -= e;
    }
    if (nd == 0 || nd > 19)
        return false;
    if (*q == 'e' || *q == 'E') {
        const char *x0;
        bool eneg = false;
        int x = 0;

        q++;
        if (*q == '-' || *q == '+')
            eneg = *q++ == '-';
        x0 = q;
        while (IS_DIGIT(*q) && q - x0 < 4)
            x = x * 10 + (*q++ - '0');
        if (q == x0 || IS_DIGIT(*q))
            return false;
        e += eneg ? -x : x;
    }
    if (*q != ' ' && *q != '\t' && *q != '\r' && *q != '\n' && *q != '\0')
        return false;
    if (m > (UINT64_C(1) << 53) || e < -22 || e > 22)
        return false;
    v = (double)m;
    v = e < 0 ? v / pow10_exact[-e] : v * pow10_exact[e];
    *out = neg ? -v : v;
    *pp = q;
    return true;
}

/*
 * Parses a 1-based index of at most 18 digits ending at a blank; returns NULL
 * when the text is anything else (the general path then says what is wrong).
 */
static inline const char *fast_index(const char *p, uint64_t *out)
{
    const char *t = p;
    uint64_t v;

    if (!IS_DIGIT(*p))
        return NULL;
    v = (unsigned)(*p++ - '0');
    while (IS_DIGIT(*p))
        v = v * 10 + (unsigned)(*p++ - '0');
    if (p - t > 18)
        return NULL;
    *out = v;
    return p;
}

/*
 * The entry loop, inlined once per field type so that the value parsing is
 * resolved at compile time. The scanner state lives in locals (p, ls, line)
 * and is written back to s before any call that may report an error.
 */
static inline __attribute__((always_inline)) int
read_entries(struct rt_scan *s, const struct mm_fill *f, const enum augur_field field)
{
    const char *p = s->p, *ls = s->line_start, *end = s->end;
    uint64_t line = s->line, k = 0, i, j;
    const uint64_t nrows = f->nrows, ncols = f->ncols, nnz = f->nnz;
    uint32_t *row = f->row, *col = f->col;
    double *val = f->val;
    int rc;

    while (k < nnz) {
        const char *q;

        if (!(q = fast_index(p, &i)) || (*q != ' ' && *q != '\t'))
            goto slow;
        do
            q++;
        while (*q == ' ' || *q == '\t');
        if (!(q = fast_index(q, &j)))
            goto slow;
        if (i - 1 >= nrows || j - 1 >= ncols || (f->skew && i == j))
            goto slow;
        if (field != AUGUR_FIELD_PATTERN) {
            if (*q != ' ' && *q != '\t')
                goto slow;
            do
                q++;
            while (*q == ' ' || *q == '\t');
            if (field == AUGUR_FIELD_REAL) {
                if (!fast_double(&q, &val[k])) {
                    /* Long mantissas and large exponents: the scanner's exact parser. */
                    s->p = q;
                    s->line_start = ls;
                    s->line = line;
                    rc = rt_parse_double(s, &val[k], "value");
                    if (rc)
                        return rc;
                    q = s->p;
                }
            } else {
                bool neg = *q == '-';
                uint64_t v;

                q += neg;
                if (!(q = fast_index(q, &v)))
                    goto slow;
                val[k] = neg ? -(double)v : (double)v;
            }
        }
        while (*q == ' ' || *q == '\t' || *q == '\r')
            q++;
        if (*q == '\n') {
            p = ls = q + 1;
            line++;
        } else if (q >= end) {
            p = q;
        } else {
            goto slow;
        }
        row[k] = (uint32_t)(i - 1);
        col[k] = (uint32_t)(j - 1);
        k++;
        continue;
    slow:
        /* Parse the line again from its start, with full checks and messages. */
        {
            bool stored;

            s->p = p; /* the line start, or the end after a last line without newline */
            s->line_start = ls;
            s->line = line;
            rc = entry_slow(s, f, field, k, &stored);
            if (rc)
                return rc;
            k += stored;
            p = s->p;
            ls = s->line_start;
            line = s->line;
        }
    }
    s->p = p;
    s->line_start = ls;
    s->line = line;
    return 0;
}

static int read_pattern(struct rt_scan *s, const struct mm_fill *f)
{
    return read_entries(s, f, AUGUR_FIELD_PATTERN);
}

static int read_real(struct rt_scan *s, const struct mm_fill *f)
{
    return read_entries(s, f, AUGUR_FIELD_REAL);
}

static int read_integer(struct rt_scan *s, const struct mm_fill *f)
{
    return read_entries(s, f, AUGUR_FIELD_INTEGER);
}

int rt_read_mtx(const char *text, size_t len, const char *file, const struct augur_load_opts *opts,
                struct augur_dataset *ds, struct augur_diag *diag)
{
    struct rt_scan s;
    struct mm_header h = { 0 };
    struct mm_fill f = { 0 };
    int rc;

    (void)opts;
    rt_scan_init(&s, text, len, file, diag);
    rc = parse_banner(&s, &h);
    if (!rc)
        rc = parse_size_line(&s, &h);
    if (rc)
        return rc;

    /* nnz <= the number of lines left, so these are bounded by the text's size. */
    f.nrows = h.nrows;
    f.ncols = h.ncols;
    f.nnz = h.nnz;
    f.skew = h.sym == AUGUR_SYM_SKEW;
    f.row = augur_mallocarray((size_t)h.nnz, sizeof(uint32_t));
    f.col = augur_mallocarray((size_t)h.nnz, sizeof(uint32_t));
    if (h.field != AUGUR_FIELD_PATTERN)
        f.val = augur_mallocarray((size_t)h.nnz, sizeof(double));
    ds->coo.row = f.row;
    ds->coo.col = f.col;
    ds->coo.val = f.val;
    ds->coo.nrows = (uint32_t)h.nrows;
    ds->coo.ncols = (uint32_t)h.ncols;
    ds->field = h.field;
    ds->symmetry = h.sym;

    switch (h.field) {
    case AUGUR_FIELD_PATTERN:
        rc = read_pattern(&s, &f);
        break;
    case AUGUR_FIELD_REAL:
        rc = read_real(&s, &f);
        break;
    case AUGUR_FIELD_INTEGER:
        rc = read_integer(&s, &f);
        break;
    }
    if (rc)
        return rc;
    if (rt_next_content_line(&s, "%"))
        return rt_error_line(&s, AUGUR_EPARSE, "more entries than the %llu the size line announces",
                             (unsigned long long)h.nnz);
    ds->coo.nnz = h.nnz;
    ds->nentries_read = h.nnz;
    return 0;
}

/* ---- writer --------------------------------------------------------------- */

/* Appends the decimal digits of v; returns the new end. */
static char *put_u64(char *o, uint64_t v)
{
    char tmp[20];
    int n = 0;

    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        *o++ = tmp[--n];
    return o;
}

/*
 * Appends the shortest of %.15g, %.16g and %.17g that reads back as v: exact
 * (17 significant digits always are) and without the noise digits of %.17g
 * when fewer say the same ("0.1", not "0.10000000000000001").
 */
static char *put_double(char *o, size_t size, double v)
{
    int n = 0;

    for (int prec = 15; prec <= 17; prec++) {
        n = snprintf(o, size, "%.*g", prec, v);
        if (prec == 17 || strtod(o, NULL) == v)
            break;
    }
    return o + n;
}

int augur_dataset_write_mtx(const struct augur_dataset *ds, const char *path,
                            struct augur_diag *diag)
{
    const struct augur_coo *c = &ds->coo;
    struct augur_out out = { 0 };
    char *buf = NULL, *o;
    const size_t bufsize = 1 << 16;
    const size_t room = 400; /* the longest entry line: two indices and a 309-digit integer */
    int rc;

    rc = augur_out_open(&out, path, diag);
    if (rc)
        return rc;
    fprintf(out.fp, "%%%%MatrixMarket matrix coordinate %s %s\n", augur_field_name(ds->field),
            augur_symmetry_name(ds->symmetry));
    /* The source path on one comment line: control characters would break the file. */
    fputs("% written by augur from ", out.fp);
    for (const char *q = ds->path ? ds->path : "(memory)"; *q; q++)
        fputc((unsigned char)*q < 0x20 || *q == 0x7f ? '?' : *q, out.fp);
    fprintf(out.fp, "\n%u %u %llu\n", c->nrows, c->ncols, (unsigned long long)c->nnz);

    buf = augur_malloc(bufsize);
    o = buf;
    for (uint64_t k = 0; k < c->nnz; k++) {
        if ((size_t)(o - buf) > bufsize - room) {
            fwrite(buf, 1, (size_t)(o - buf), out.fp);
            o = buf;
        }
        o = put_u64(o, (uint64_t)c->row[k] + 1);
        *o++ = ' ';
        o = put_u64(o, (uint64_t)c->col[k] + 1);
        if (ds->field == AUGUR_FIELD_INTEGER) {
            double v = c->val ? c->val[k] : 0.0;

            /* The exact decimal of an integral double, which the reader takes back exactly. */
            if (!isfinite(v) || v != floor(v)) {
                rc = augur_diag_set(diag, AUGUR_ERANGE, path, 0, 0,
                                    "entry (%u, %u): value %.17g is not an integer, as an "
                                    "integer matrix needs",
                                    c->row[k] + 1, c->col[k] + 1, v);
                goto fail;
            }
            *o++ = ' ';
            o += snprintf(o, room - 32, "%.0f", v);
        } else if (ds->field == AUGUR_FIELD_REAL) {
            *o++ = ' ';
            o = put_double(o, room - 32, c->val ? c->val[k] : 0.0);
        }
        *o++ = '\n';
    }
    fwrite(buf, 1, (size_t)(o - buf), out.fp);
    augur_free(buf);
    return augur_out_commit(&out, diag);
fail:
    augur_free(buf);
    augur_out_abort(&out);
    return rc;
}
