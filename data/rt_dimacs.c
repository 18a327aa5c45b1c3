/*
 * rt_dimacs.c - the DIMACS-9 shortest-path graph reader, .gr files (module: data).
 *
 * Lines are "c comment", one "p sp N M" and M arcs "a u v w" (1-based, integer
 * lengths). Arc lines take a fast path; anything unusual goes through the
 * scanner's general parsers, which also word the errors.
 */
#include <stdio.h>

#include "rt_int.h"

/* Arc lengths are kept as doubles, which hold integers exactly up to 2^53. */
#define EXACT_INT_MAX (INT64_C(1) << 53)

static inline bool ends_type(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\0' || c == '\f' || c == '\v';
}

/* A plain decimal of at most 18 digits that ends at a delimiter; else false. */
static inline bool fast_u64(const char **pp, uint64_t *out)
{
    const char *q = *pp, *start = q;
    uint64_t v;

    if ((unsigned)(*q - '0') > 9)
        return false;
    v = (unsigned)(*q++ - '0');
    while ((unsigned)(*q - '0') <= 9)
        v = v * 10 + (unsigned)(*q++ - '0');
    if (q - start > 18 || !ends_type(*q))
        return false;
    *pp = q;
    *out = v;
    return true;
}

/*
 * The fast path of an arc line "a u v w" (p at the 'a'): plain numbers, in
 * range, ending the line. False sends the line to the general parsers, which
 * also word the errors. On success p is at the newline or the end.
 */
static inline bool fast_arc(const char **pp, const char *end, uint64_t nverts, uint32_t *u,
                            uint32_t *v, double *w)
{
    const char *q = *pp + 1;
    uint64_t a, b, c;
    bool neg;

    if (*q != ' ' && *q != '\t')
        return false;
    while (*q == ' ' || *q == '\t')
        q++;
    if (!fast_u64(&q, &a) || a - 1 >= nverts)
        return false;
    while (*q == ' ' || *q == '\t')
        q++;
    if (!fast_u64(&q, &b) || b - 1 >= nverts)
        return false;
    while (*q == ' ' || *q == '\t')
        q++;
    neg = *q == '-';
    q += neg;
    if (!fast_u64(&q, &c) || c > (uint64_t)EXACT_INT_MAX)
        return false;
    while (*q == ' ' || *q == '\t' || *q == '\r')
        q++;
    if (*q != '\n' && q < end)
        return false;
    *u = (uint32_t)(a - 1);
    *v = (uint32_t)(b - 1);
    *w = neg ? -(double)c : (double)c;
    *pp = q;
    return true;
}

/* Reads one endpoint of an arc and checks it against 1..nverts. */
static int parse_vertex(struct rt_scan *s, uint64_t nverts, uint64_t *out, const char *what)
{
    const char *start;
    uint64_t v;
    int rc;

    rt_skip_blanks(s);
    start = s->p;
    if ((rc = rt_parse_u64(s, &v, what)))
        return rc;
    if (v == 0 || v > nverts) {
        s->p = start;
        return rt_error(s, AUGUR_ERANGE, "%s %llu is out of range 1..%llu", what,
                        (unsigned long long)v, (unsigned long long)nverts);
    }
    *out = v - 1;
    return 0;
}

int rt_read_dimacs(const char *text, size_t len, const char *file,
                   const struct augur_load_opts *opts, struct augur_dataset *ds,
                   struct augur_diag *diag)
{
    struct rt_scan s;
    uint32_t *row = NULL, *col = NULL;
    double *val = NULL;
    uint64_t nverts = 0, narcs = 0, k = 0, p_line = 0;
    int rc = 0;

    rt_scan_init(&s, text, len, file, diag);
    for (;;) {
        char type;

        /* Arc lines, the bulk of a file, skip the general line handling. */
        if (*s.p == 'a' && k < narcs && fast_arc(&s.p, s.end, nverts, &row[k], &col[k], &val[k])) {
            k++;
            if (*s.p == '\n') {
                s.line_start = ++s.p;
                s.line++;
            }
            continue;
        }
        if (!rt_next_content_line(&s, NULL))
            break;
        type = *s.p;
        if (type == 'a' && ends_type(s.p[1]) && p_line) {
            uint64_t u, v;
            int64_t w;
            const char *w_start;

            if (k == narcs) {
                rc = rt_error(&s, AUGUR_EPARSE,
                              "more arcs than the %llu announced by the problem line (line %llu)",
                              (unsigned long long)narcs, (unsigned long long)p_line);
                goto fail;
            }
            s.p++;
            if ((rc = parse_vertex(&s, nverts, &u, "arc tail")) ||
                (rc = parse_vertex(&s, nverts, &v, "arc head")))
                goto fail;
            rt_skip_blanks(&s);
            w_start = s.p;
            if ((rc = rt_parse_i64(&s, &w, "arc length (an integer)")))
                goto fail;
            if (w > EXACT_INT_MAX || w < -EXACT_INT_MAX) {
                s.p = w_start;
                rc = rt_error(&s, AUGUR_ERANGE, "arc length %lld is beyond 2^53", (long long)w);
                goto fail;
            }
            if ((rc = rt_expect_eol(&s, "the arc length")))
                goto fail;
            row[k] = (uint32_t)u;
            col[k] = (uint32_t)v;
            val[k] = (double)w;
            k++;
        } else if (type == 'c') {
            /* A comment: the whole line. */
        } else if (type == 'p' && ends_type(s.p[1])) {
            char word[16] = "";
            const char *at;
            uint64_t room;

            if (p_line) {
                rc = rt_error(&s, AUGUR_EPARSE, "a second problem line (the first is line %llu)",
                              (unsigned long long)p_line);
                goto fail;
            }
            s.p++;
            rt_skip_blanks(&s);
            at = s.p;
            if (!rt_parse_word(&s, word, sizeof(word)) || strcmp(word, "sp") != 0) {
                s.p = at;
                rc = rt_error(&s, AUGUR_EFORMAT,
                              "expected problem type 'sp' (a shortest-path graph), found %s%s%s",
                              word[0] ? "'" : "end of line", word, word[0] ? "'" : "");
                goto fail;
            }
            rt_skip_blanks(&s);
            at = s.p;
            if ((rc = rt_parse_u64(&s, &nverts, "number of vertices")))
                goto fail;
            if (nverts == 0 || nverts > UINT32_MAX) {
                s.p = at;
                rc = rt_error(&s, AUGUR_ERANGE,
                              "number of vertices %llu is out of range 1..4294967295",
                              (unsigned long long)nverts);
                goto fail;
            }
            rt_skip_blanks(&s);
            at = s.p;
            if ((rc = rt_parse_u64(&s, &narcs, "number of arcs")) ||
                (rc = rt_expect_eol(&s, "the number of arcs")))
                goto fail;
            p_line = s.line;
            /* Every arc needs a line of its own: check before allocating. */
            room = rt_count_lines(&s);
            room = room ? room - 1 : 0; /* the first one counted is the problem line's end */
            if (narcs > room) {
                s.p = at;
                rc = rt_error(&s, AUGUR_ETRUNC,
                              "the problem line announces %llu arcs but only %llu lines follow",
                              (unsigned long long)narcs, (unsigned long long)room);
                goto fail;
            }
            row = augur_mallocarray(narcs ? narcs : 1, sizeof(*row));
            col = augur_mallocarray(narcs ? narcs : 1, sizeof(*col));
            val = augur_mallocarray(narcs ? narcs : 1, sizeof(*val));
        } else if (type == 'a' && ends_type(s.p[1])) {
            rc = rt_error(&s, AUGUR_EPARSE, "arc before the problem line 'p sp N M'");
            goto fail;
        } else {
            unsigned char c = (unsigned char)type;

            if (c == 'a' || c == 'p')
                rc = rt_error(&s, AUGUR_EPARSE, "expected a blank after the line type '%c'", c);
            else if (c >= 0x20 && c < 0x7f)
                rc = rt_error(&s, AUGUR_EPARSE,
                              "unknown line type '%c' (DIMACS lines start with c, p or a)", c);
            else
                rc = rt_error(&s, AUGUR_EPARSE,
                              "unknown line type '\\x%02x' (DIMACS lines start with c, p or a)", c);
            goto fail;
        }
        rt_next_line(&s);
    }
    if (!p_line) {
        rc = rt_error(&s, AUGUR_EPARSE, "no problem line 'p sp N M' (is this a DIMACS file?)");
        goto fail;
    }
    if (k < narcs) {
        rc = rt_error(&s, AUGUR_ETRUNC,
                      "the file ends after %llu arcs; the problem line (line %llu) announces %llu",
                      (unsigned long long)k, (unsigned long long)p_line, (unsigned long long)narcs);
        goto fail;
    }
    ds->coo.nrows = ds->coo.ncols = (uint32_t)nverts;
    ds->coo.nnz = k;
    ds->coo.row = row;
    ds->coo.col = col;
    ds->coo.val = val;
    ds->symmetry = opts->undirected ? AUGUR_SYM_SYMMETRIC : AUGUR_SYM_GENERAL;
    ds->field = AUGUR_FIELD_INTEGER;
    ds->weighted = true;
    ds->nentries_read = k;
    return 0;
fail:
    augur_free(row);
    augur_free(col);
    augur_free(val);
    return rc;
}
