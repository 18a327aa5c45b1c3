/*
 * rt_metis.c - the METIS/Chaco adjacency graph reader (.graph: "n m [fmt [ncon]]" then one
 * line of neighbours per vertex) (module: runtime).
 *
 * The adjacency lists are read as they stand (CSR by vertex, 2m entries), each
 * list is sorted, and one pass with a cursor per vertex checks that every edge
 * is listed from both ends with the same weight: processing the vertices in
 * order, the neighbours j < i of vertex i must be exactly the vertices that
 * listed i before, in increasing order. The lower triangle is kept.
 */
#include <stdio.h>
#include <stdlib.h>

#include "rt_int.h"

/* Edge weights are kept as doubles, which hold integers exactly up to 2^53. */
#define EXACT_INT_MAX (INT64_C(1) << 53)

struct metis {
    uint64_t n, m, ncon;
    bool vsize, vwgt, ewgt;
    const char *body; /* the line after the header */
    uint64_t body_line;
    uint64_t *rowptr; /* n + 1 offsets into adj */
    uint32_t *adj;    /* 2m neighbours, 0-based */
    double *ew;       /* 2m edge weights, or NULL */
};

struct pair {
    uint32_t j;
    double w;
};

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

    return (x > y) - (x < y);
}

static int cmp_pair(const void *a, const void *b)
{
    uint32_t x = ((const struct pair *)a)->j, y = ((const struct pair *)b)->j;

    return (x > y) - (x < y);
}

static inline bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Sorts one adjacency list (with its weights) by neighbour. */
static void sort_list(uint32_t *a, double *w, uint64_t len, struct augur_vec *scratch)
{
    if (len <= 24) {
        for (uint64_t x = 1; x < len; x++) {
            uint32_t key = a[x];
            double wk = w ? w[x] : 0;
            uint64_t y = x;

            for (; y > 0 && a[y - 1] > key; y--) {
                a[y] = a[y - 1];
                if (w)
                    w[y] = w[y - 1];
            }
            a[y] = key;
            if (w)
                w[y] = wk;
        }
        return;
    }
    if (!w) {
        qsort(a, len, sizeof(*a), cmp_u32);
        return;
    }
    augur_vec_reserve(scratch, len);
    for (uint64_t x = 0; x < len; x++) {
        AUGUR_VEC_AT(scratch, struct pair, x).j = a[x];
        AUGUR_VEC_AT(scratch, struct pair, x).w = w[x];
    }
    qsort(scratch->data, len, sizeof(struct pair), cmp_pair);
    for (uint64_t x = 0; x < len; x++) {
        a[x] = AUGUR_VEC_AT(scratch, struct pair, x).j;
        w[x] = AUGUR_VEC_AT(scratch, struct pair, x).w;
    }
}

/*
 * The slow path of an error found after parsing: finds the line of vertex v
 * (0-based) and on it the neighbour entry nbr (0-based), and records the
 * error there. Only error messages pay for the rescan.
 */
static int error_at(const struct metis *g, struct rt_scan *s, uint64_t v, uint32_t nbr, int code,
                    const char *fmt, ...) AUGUR_PRINTF(6, 7);

static int error_at(const struct metis *g, struct rt_scan *s, uint64_t v, uint32_t nbr, int code,
                    const char *fmt, ...)
{
    const char *p = g->body;
    uint64_t line = g->body_line, seen = 0;
    uint64_t skip = (g->vsize ? 1 : 0) + (g->vwgt ? g->ncon : 0), tok = 0;
    va_list ap;

    for (;;) {
        const char *q = p, *nl;

        while (is_blank(*q))
            q++;
        if (*q != '%' && seen++ == v)
            break;
        nl = memchr(p, '\n', (size_t)(s->end - p));
        if (!nl)
            break; /* not reached: v was read */
        p = nl + 1;
        line++;
    }
    s->line = line;
    s->line_start = p;
    s->p = p;
    for (;;) {
        const char *start;
        uint64_t x = 0;

        while (is_blank(*p))
            p++;
        if (*p == '\n' || p >= s->end)
            break;
        start = p;
        while (!is_blank(*p) && *p != '\n' && p < s->end) {
            x = x < UINT32_MAX ? x * 10 + (uint64_t)(*p - '0') : x;
            p++;
        }
        if (tok >= skip && (g->ewgt ? (tok - skip) % 2 == 0 : true) && x == (uint64_t)nbr + 1) {
            s->p = start;
            break;
        }
        tok++;
    }
    va_start(ap, fmt);
    augur_diag_setv(s->diag, code, s->file, rt_line(s), rt_col(s), fmt, ap);
    va_end(ap);
    return code;
}

static int parse_header(struct metis *g, struct rt_scan *s, struct rt_scan *at_m)
{
    const char *at;
    char fmt[8] = "";
    size_t flen;
    int rc;

    if (!rt_next_content_line(s, "%"))
        return rt_error(s, AUGUR_EPARSE, "no header line 'n m [fmt [ncon]]': the file is empty");
    rt_skip_blanks(s);
    at = s->p;
    if ((rc = rt_parse_u64(s, &g->n, "number of vertices")))
        return rc;
    if (g->n == 0 || g->n > UINT32_MAX) {
        s->p = at;
        return rt_error(s, AUGUR_ERANGE, "number of vertices %llu is out of range 1..4294967295",
                        (unsigned long long)g->n);
    }
    rt_skip_blanks(s);
    *at_m = *s;
    if ((rc = rt_parse_u64(s, &g->m, "number of edges")))
        return rc;
    rt_skip_blanks(s);
    at = s->p;
    if (rt_parse_word(s, fmt, sizeof(fmt))) {
        flen = strlen(fmt);
        if (flen > 3 || strspn(fmt, "01") != flen || s->p - at > 3) {
            s->p = at;
            return rt_error(s, AUGUR_EPARSE,
                            "fmt must be up to three digits 0 or 1 (vertex sizes, vertex weights, "
                            "edge weights), found '%s'",
                            fmt);
        }
        g->ewgt = fmt[flen - 1] == '1';
        g->vwgt = flen >= 2 && fmt[flen - 2] == '1';
        g->vsize = flen == 3 && fmt[0] == '1';
        rt_skip_blanks(s);
        at = s->p;
        if (!rt_at_eol(s)) {
            if ((rc = rt_parse_u64(s, &g->ncon, "number of vertex weights (ncon)")))
                return rc;
            if (!g->vwgt || g->ncon == 0) {
                s->p = at;
                return rt_error(s, AUGUR_EPARSE, "%s",
                                g->vwgt ? "ncon must be at least 1"
                                        : "ncon is given but fmt has no vertex weights (x1x)");
            }
        }
    }
    if (g->vwgt && g->ncon == 0)
        g->ncon = 1;
    return rt_expect_eol(s, "the header");
}

/* Reads the n adjacency lines into rowptr/adj/ew. */
static int parse_lists(struct metis *g, struct rt_scan *s, uint64_t hdr_line)
{
    uint64_t k = 0, cap = 2 * g->m;
    int rc;

    for (uint64_t i = 0; i < g->n; i++) {
        for (;;) {
            const char *q = s->p;

            if (rt_eof(s))
                return rt_error(s, AUGUR_ETRUNC,
                                "the file ends after %llu vertex lines; the header (line %llu) "
                                "announces %llu vertices",
                                (unsigned long long)i, (unsigned long long)hdr_line,
                                (unsigned long long)g->n);
            while (is_blank(*q))
                q++;
            if (*q != '%')
                break;
            rt_next_line(s);
        }
        g->rowptr[i] = k;
        if (g->vsize) {
            uint64_t x;

            if ((rc = rt_parse_u64(s, &x, "vertex size")))
                return rc;
        }
        for (uint64_t c = 0; c < (g->vwgt ? g->ncon : 0); c++) {
            uint64_t x;

            if ((rc = rt_parse_u64(s, &x, "vertex weight")))
                return rc;
        }
        while (!rt_at_eol(s)) {
            const char *start = s->p;
            uint64_t j;

            if ((rc = rt_parse_u64(s, &j, "neighbour")))
                return rc;
            if (j == 0 || j > g->n || j == i + 1) {
                s->p = start;
                if (j == i + 1)
                    return rt_error(s, AUGUR_EPARSE,
                                    "vertex %llu lists itself (METIS graphs have no self loops)",
                                    (unsigned long long)j);
                return rt_error(s, AUGUR_ERANGE, "neighbour %llu is out of range 1..%llu",
                                (unsigned long long)j, (unsigned long long)g->n);
            }
            if (k == cap) {
                s->p = start;
                return rt_error(s, AUGUR_EPARSE,
                                "more than 2m = %llu neighbour entries (the header on line %llu "
                                "says m = %llu edges, each listed from both ends)",
                                (unsigned long long)cap, (unsigned long long)hdr_line,
                                (unsigned long long)g->m);
            }
            g->adj[k] = (uint32_t)(j - 1);
            if (g->ewgt) {
                int64_t w;

                rt_skip_blanks(s);
                start = s->p;
                if ((rc = rt_parse_i64(s, &w, "edge weight")))
                    return rc;
                if (w <= 0 || w > EXACT_INT_MAX) {
                    s->p = start;
                    return rt_error(s, AUGUR_ERANGE, "edge weight %lld is out of range 1..2^53",
                                    (long long)w);
                }
                g->ew[k] = (double)w;
            }
            k++;
        }
        rt_next_line(s);
    }
    g->rowptr[g->n] = k;
    if (rt_next_content_line(s, "%"))
        return rt_error(s, AUGUR_EPARSE,
                        "unexpected line after the last vertex (the header on line %llu announces "
                        "%llu vertices)",
                        (unsigned long long)hdr_line, (unsigned long long)g->n);
    return 0;
}

/*
 * Sorts every list, rejects repeated neighbours, checks that each edge is
 * listed from both ends with one weight, and keeps the lower triangle in ds->coo.
 */
static int check_and_build(struct metis *g, struct rt_scan *s, struct augur_dataset *ds)
{
    struct augur_vec scratch;
    uint64_t *cur = NULL, e = 0;
    uint32_t *row = NULL, *col = NULL;
    double *val = NULL;
    int rc = 0;

    augur_vec_init(&scratch, sizeof(struct pair));
    for (uint64_t i = 0; i < g->n; i++) {
        uint64_t lo = g->rowptr[i], hi = g->rowptr[i + 1];

        for (uint64_t x = lo + 1; x < hi; x++) {
            if (g->adj[x - 1] >= g->adj[x]) {
                sort_list(g->adj + lo, g->ew ? g->ew + lo : NULL, hi - lo, &scratch);
                break;
            }
        }
        for (uint64_t x = lo + 1; x < hi; x++) {
            if (g->adj[x - 1] == g->adj[x]) {
                rc = error_at(g, s, i, g->adj[x], AUGUR_EPARSE,
                              "vertex %llu lists neighbour %llu twice", (unsigned long long)i + 1,
                              (unsigned long long)g->adj[x] + 1);
                goto out;
            }
        }
    }
    cur = augur_mallocarray(g->n, sizeof(*cur));
    memcpy(cur, g->rowptr, g->n * sizeof(*cur));
    row = augur_mallocarray(g->m ? g->m : 1, sizeof(*row));
    col = augur_mallocarray(g->m ? g->m : 1, sizeof(*col));
    if (g->ewgt)
        val = augur_mallocarray(g->m ? g->m : 1, sizeof(*val));
    for (uint64_t i = 0; i < g->n; i++) {
        uint64_t lo = g->rowptr[i], hi = g->rowptr[i + 1];

        /* The neighbours below i were all matched by earlier vertices: keep them. */
        if (cur[i] < hi && g->adj[cur[i]] < i) {
            uint32_t k = g->adj[cur[i]];

            rc = error_at(g, s, i, k, AUGUR_EPARSE,
                          "vertex %llu lists %llu but vertex %llu does not list %llu",
                          (unsigned long long)i + 1, (unsigned long long)k + 1,
                          (unsigned long long)k + 1, (unsigned long long)i + 1);
            goto out;
        }
        for (uint64_t x = lo; x < cur[i]; x++) {
            row[e] = (uint32_t)i;
            col[e] = g->adj[x];
            if (val)
                val[e] = g->ew[x];
            e++;
        }
        for (uint64_t x = cur[i]; x < hi; x++) {
            uint32_t j = g->adj[x];
            uint64_t c = cur[j];

            if (c < g->rowptr[j + 1] && g->adj[c] == i) {
                if (g->ew && g->ew[c] != g->ew[x]) {
                    rc = error_at(g, s, j, (uint32_t)i, AUGUR_EPARSE,
                                  "edge %llu-%llu has weight %.17g here but %.17g where vertex "
                                  "%llu lists it",
                                  (unsigned long long)j + 1, (unsigned long long)i + 1, g->ew[c],
                                  g->ew[x], (unsigned long long)i + 1);
                    goto out;
                }
                cur[j]++;
            } else if (c < g->rowptr[j + 1] && g->adj[c] < i) {
                uint32_t k = g->adj[c];

                rc = error_at(g, s, j, k, AUGUR_EPARSE,
                              "vertex %llu lists %llu but vertex %llu does not list %llu",
                              (unsigned long long)j + 1, (unsigned long long)k + 1,
                              (unsigned long long)k + 1, (unsigned long long)j + 1);
                goto out;
            } else {
                rc = error_at(g, s, i, j, AUGUR_EPARSE,
                              "vertex %llu lists %llu but vertex %llu does not list %llu",
                              (unsigned long long)i + 1, (unsigned long long)j + 1,
                              (unsigned long long)j + 1, (unsigned long long)i + 1);
                goto out;
            }
        }
    }
    ds->coo.nrows = ds->coo.ncols = (uint32_t)g->n;
    ds->coo.nnz = e;
    ds->coo.row = row;
    ds->coo.col = col;
    ds->coo.val = val;
    row = col = NULL;
    val = NULL;
out:
    augur_free(row);
    augur_free(col);
    augur_free(val);
    augur_free(cur);
    augur_vec_release(&scratch);
    return rc;
}

int rt_read_metis(const char *text, size_t len, const char *file,
                  const struct augur_load_opts *opts, struct augur_dataset *ds,
                  struct augur_diag *diag)
{
    struct rt_scan s, at_m;
    struct metis g = { 0 };
    uint64_t hdr_line, room;
    int rc;

    (void)opts; /* METIS graphs are undirected and 1-based by definition */
    rt_scan_init(&s, text, len, file, diag);
    if ((rc = parse_header(&g, &s, &at_m)))
        return rc;
    hdr_line = s.line;
    rt_next_line(&s);
    g.body = s.p;
    g.body_line = s.line;
    /* Check the header against the text before allocating by it. */
    room = rt_count_lines(&s);
    if (g.n > room) {
        struct rt_scan at_n = at_m;

        at_n.p = at_n.line_start;
        rt_skip_blanks(&at_n);
        return rt_error(&at_n, AUGUR_ETRUNC,
                        "the header announces %llu vertices but only %llu lines follow",
                        (unsigned long long)g.n, (unsigned long long)room);
    }
    room = (uint64_t)(s.end - s.p) / 4;
    if (g.m > room)
        return rt_error(&at_m, AUGUR_ETRUNC,
                        "the header announces %llu edges, more than the %llu bytes left can "
                        "list (each edge appears twice, at least 2 bytes each)",
                        (unsigned long long)g.m, (unsigned long long)(s.end - s.p));
    g.rowptr = augur_mallocarray(g.n + 1, sizeof(*g.rowptr));
    g.adj = augur_mallocarray(g.m ? 2 * g.m : 1, sizeof(*g.adj));
    if (g.ewgt)
        g.ew = augur_mallocarray(g.m ? 2 * g.m : 1, sizeof(*g.ew));
    if ((rc = parse_lists(&g, &s, hdr_line)))
        goto out;
    if (g.rowptr[g.n] != 2 * g.m) {
        rc = rt_error(&at_m, AUGUR_EPARSE,
                      "the header says m = %llu edges, but the adjacency lists hold %llu "
                      "entries (each edge is listed from both ends: %llu expected)",
                      (unsigned long long)g.m, (unsigned long long)g.rowptr[g.n],
                      (unsigned long long)(2 * g.m));
        goto out;
    }
    if ((rc = check_and_build(&g, &s, ds)))
        goto out;
    ds->symmetry = AUGUR_SYM_SYMMETRIC;
    ds->weighted = g.ewgt;
    ds->field = g.ewgt ? AUGUR_FIELD_INTEGER : AUGUR_FIELD_PATTERN;
    ds->nentries_read = g.m;
out:
    augur_free(g.rowptr);
    augur_free(g.adj);
    augur_free(g.ew);
    return rc;
}
