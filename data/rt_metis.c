/*
 * rt_metis.c - the METIS/Chaco adjacency graph reader, .graph files (module: data).
 *
 * A header "n m [fmt [ncon]]", then one line of neighbours per vertex.
 * Every edge is listed from both ends. The fast path stores the entries below
 * the diagonal (j < i) as the result, sorting each row's few entries, and the
 * ones above transposed into 64-bit keys; radix-sorted, the keys must equal
 * the entries below, weights included. Memory is 24 bytes an edge (48 with
 * weights), all written in order: on a virtual machine first touches of
 * fresh pages cost more than parsing. Any asymmetry or repeated neighbour
 * sends the reader to the slow path, which reads the lists again in full
 * (CSR by vertex) to name the line and column of the first offence.
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
    uint64_t hdr_line;
    /* The slow path's full lists: */
    uint64_t *rowptr; /* n + 1 offsets into adj */
    uint32_t *adj;    /* 2m neighbours, 0-based */
    double *ew;       /* 2m edge weights, or NULL */
};

/* The fast path's arrays: the result (below the diagonal) and the transposed rest. */
struct halves {
    uint32_t *row, *col;
    double *val;
    uint64_t *up, *tmp; /* (j << 32 | i) for each entry j > i of vertex i */
    double *upw, *tmpw;
};

/* Returned by the fast path when the slow one must find the offence. */
#define SLOW_PATH 1

struct pair {
    uint32_t j;
    double w;
};

static int cmp_pair(const void *a, const void *b)
{
    uint32_t x = ((const struct pair *)a)->j, y = ((const struct pair *)b)->j;

    return (x > y) - (x < y);
}

static inline bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static inline bool ends_token(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\0' || c == '\f' || c == '\v';
}

/*
 * A plain decimal of at most 18 digits that ends at a delimiter: the fast
 * path. Anything else is left to the general parser, which words the errors.
 */
static inline bool fast_u64(const char **pp, uint64_t *out)
{
    const char *q = *pp, *start = q;
    uint64_t v;

    if ((unsigned)(*q - '0') > 9)
        return false;
    v = (unsigned)(*q++ - '0');
    while ((unsigned)(*q - '0') <= 9)
        v = v * 10 + (unsigned)(*q++ - '0');
    if (q - start > 18 || !ends_token(*q))
        return false;
    *pp = q;
    *out = v;
    return true;
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
        qsort(a, len, sizeof(*a), augur_cmp_u32);
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

/* Moves to the line of vertex i (0-based), past comment lines; the file may not end first. */
static int next_vertex_line(const struct metis *g, struct rt_scan *s, uint64_t i)
{
    for (;;) {
        const char *q = s->p;

        if (rt_eof(s))
            return rt_error(s, AUGUR_ETRUNC,
                            "the file ends after %llu vertex lines; the header (line %llu) "
                            "announces %llu vertices",
                            (unsigned long long)i, (unsigned long long)g->hdr_line,
                            (unsigned long long)g->n);
        while (is_blank(*q))
            q++;
        if (*q != '%')
            return 0;
        rt_next_line(s);
    }
}

/* Checks the vertex size and weights that open a vertex line when fmt says so. */
static int vertex_fields(const struct metis *g, struct rt_scan *s)
{
    uint64_t x;
    int rc;

    if (g->vsize && (rc = rt_parse_u64(s, &x, "vertex size")))
        return rc;
    for (uint64_t c = 0; c < (g->vwgt ? g->ncon : 0); c++)
        if ((rc = rt_parse_u64(s, &x, "vertex weight")))
            return rc;
    return 0;
}

/*
 * The general parse of one neighbour entry of vertex i (and its weight), with
 * every check and message; k entries were read before it.
 */
static int neighbour_slow(const struct metis *g, struct rt_scan *s, uint64_t i, uint64_t k,
                          uint64_t *j, double *w)
{
    const char *start;
    int64_t sw;
    int rc;

    rt_skip_blanks(s);
    start = s->p;
    if ((rc = rt_parse_u64(s, j, "neighbour")))
        return rc;
    if (*j == 0 || *j > g->n || *j == i + 1) {
        s->p = start;
        if (*j == i + 1)
            return rt_error(s, AUGUR_EPARSE,
                            "vertex %llu lists itself (METIS graphs have no self loops)",
                            (unsigned long long)*j);
        return rt_error(s, AUGUR_ERANGE, "neighbour %llu is out of range 1..%llu",
                        (unsigned long long)*j, (unsigned long long)g->n);
    }
    if (k == 2 * g->m) {
        s->p = start;
        return rt_error(s, AUGUR_EPARSE,
                        "more than 2m = %llu neighbour entries (the header on line %llu says m = "
                        "%llu edges, each listed from both ends)",
                        (unsigned long long)(2 * g->m), (unsigned long long)g->hdr_line,
                        (unsigned long long)g->m);
    }
    *w = 0;
    if (!g->ewgt)
        return 0;
    rt_skip_blanks(s);
    start = s->p;
    if ((rc = rt_parse_i64(s, &sw, "edge weight")))
        return rc;
    if (sw <= 0 || sw > EXACT_INT_MAX) {
        s->p = start;
        return rt_error(s, AUGUR_ERANGE, "edge weight %lld is out of range 1..2^53", (long long)sw);
    }
    *w = (double)sw;
    return 0;
}

/*
 * The fast parse of one neighbour entry (and weight): a plain in-range
 * number. False leaves the cursor alone for neighbour_slow().
 */
static inline bool neighbour_fast(const struct metis *g, struct rt_scan *s, uint64_t i, uint64_t *j,
                                  double *w)
{
    const char *q = s->p;
    uint64_t x;

    while (*q == ' ' || *q == '\t')
        q++;
    if (!fast_u64(&q, j) || *j - 1 >= g->n || *j == i + 1)
        return false;
    if (g->ewgt) {
        while (*q == ' ' || *q == '\t')
            q++;
        if (!fast_u64(&q, &x) || x == 0 || x > (uint64_t)EXACT_INT_MAX)
            return false;
        *w = (double)x;
    }
    s->p = q;
    return true;
}

static inline void end_line(struct rt_scan *s)
{
    if (*s->p == '\n') {
        s->line_start = ++s->p;
        s->line++;
    } else {
        rt_next_line(s);
    }
}

static int no_extra_lines(const struct metis *g, struct rt_scan *s)
{
    if (rt_next_content_line(s, "%"))
        return rt_error(s, AUGUR_EPARSE,
                        "unexpected line after the last vertex (the header on line %llu announces "
                        "%llu vertices)",
                        (unsigned long long)g->hdr_line, (unsigned long long)g->n);
    return 0;
}

static int count_error(const struct metis *g, const struct rt_scan *at_m, uint64_t k)
{
    return rt_error(at_m, AUGUR_EPARSE,
                    "the header says m = %llu edges, but the adjacency lists hold %llu entries "
                    "(each edge is listed from both ends: %llu expected)",
                    (unsigned long long)g->m, (unsigned long long)k,
                    (unsigned long long)(2 * g->m));
}

/* ---- the slow path: full lists, exact messages ---------------------------- */

/* Reads the n adjacency lines into rowptr/adj/ew. */
static int parse_lists(struct metis *g, struct rt_scan *s)
{
    uint64_t k = 0;
    int rc;

    for (uint64_t i = 0; i < g->n; i++) {
        if ((rc = next_vertex_line(g, s, i)) || (rc = vertex_fields(g, s)))
            return rc;
        g->rowptr[i] = k;
        for (;;) {
            uint64_t j;
            double w = 0;

            if (k == 2 * g->m || !neighbour_fast(g, s, i, &j, &w)) {
                if (rt_at_eol(s))
                    break;
                if ((rc = neighbour_slow(g, s, i, k, &j, &w)))
                    return rc;
            }
            g->adj[k] = (uint32_t)(j - 1);
            if (g->ew)
                g->ew[k] = w;
            k++;
        }
        end_line(s);
    }
    g->rowptr[g->n] = k;
    return no_extra_lines(g, s);
}

/*
 * The slow path when the lists are not symmetric: finds the first edge, in
 * vertex order, that is listed from one end only (or with two weights) and
 * names its line. The lists are sorted. Processing the vertices in order, the
 * neighbours j < i of vertex i must be exactly the vertices that listed i
 * before, in increasing order: a cursor per vertex walks them.
 */
static int locate_asymmetry(const struct metis *g, struct rt_scan *s)
{
    uint64_t *cur = augur_mallocarray(g->n, sizeof(*cur));
    int rc = 0;

    memcpy(cur, g->rowptr, g->n * sizeof(*cur));
    for (uint64_t i = 0; i < g->n && !rc; i++) {
        uint64_t hi = g->rowptr[i + 1];

        if (cur[i] < hi && g->adj[cur[i]] < i) {
            uint32_t k = g->adj[cur[i]];

            rc = error_at(g, s, i, k, AUGUR_EPARSE,
                          "vertex %llu lists %llu but vertex %llu does not list %llu",
                          (unsigned long long)i + 1, (unsigned long long)k + 1,
                          (unsigned long long)k + 1, (unsigned long long)i + 1);
            break;
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
                    break;
                }
                cur[j]++;
            } else if (c < g->rowptr[j + 1] && g->adj[c] < i) {
                uint32_t k = g->adj[c];

                rc = error_at(g, s, j, k, AUGUR_EPARSE,
                              "vertex %llu lists %llu but vertex %llu does not list %llu",
                              (unsigned long long)j + 1, (unsigned long long)k + 1,
                              (unsigned long long)k + 1, (unsigned long long)j + 1);
                break;
            } else {
                rc = error_at(g, s, i, j, AUGUR_EPARSE,
                              "vertex %llu lists %llu but vertex %llu does not list %llu",
                              (unsigned long long)i + 1, (unsigned long long)j + 1,
                              (unsigned long long)j + 1, (unsigned long long)i + 1);
                break;
            }
        }
    }
    augur_free(cur);
    if (!rc) /* not reached: the caller saw an asymmetry */
        rc = augur_diag_set(s->diag, AUGUR_EPARSE, s->file, 0, 0,
                            "the adjacency lists are not symmetric");
    return rc;
}

/*
 * Stable LSD radix sort of key (and w) by the high 32 bits, 11 bits a pass,
 * ping-ponging with tkey/tw; maxhigh bounds the high halves.
 */
static void sort_by_high(uint64_t **key, double **w, uint64_t **tkey, double **tw, uint64_t len,
                         uint64_t maxhigh)
{
    uint64_t count[2048];

    for (unsigned shift = 32; shift < 64 && (maxhigh >> (shift - 32)) != 0; shift += 11) {
        uint64_t *k = *key, *tk = *tkey, sum = 0;
        double *kw = *w, *tkw = *tw;

        memset(count, 0, sizeof(count));
        for (uint64_t x = 0; x < len; x++)
            count[(k[x] >> shift) & 2047]++;
        for (unsigned d = 0; d < 2048; d++) {
            uint64_t c = count[d];

            count[d] = sum;
            sum += c;
        }
        for (uint64_t x = 0; x < len; x++) {
            uint64_t pos = count[(k[x] >> shift) & 2047]++;

            tk[pos] = k[x];
            if (kw)
                tkw[pos] = kw[x];
        }
        *key = tk;
        *tkey = k;
        *w = tkw;
        *tw = kw;
    }
}

/*
 * Reads the lists again in full and reports the first offence: a syntax
 * error, a wrong count, a repeated neighbour or an edge listed from one end.
 */
static int diagnose(struct metis *g, struct rt_scan *s, const struct rt_scan *at_m)
{
    struct augur_vec scratch;
    int rc;

    augur_vec_init(&scratch, sizeof(struct pair));
    s->p = s->line_start = g->body;
    s->line = g->body_line;
    g->rowptr = augur_mallocarray(g->n + 1, sizeof(*g->rowptr));
    g->adj = augur_mallocarray(g->m ? 2 * g->m : 1, sizeof(*g->adj));
    if (g->ewgt)
        g->ew = augur_mallocarray(g->m ? 2 * g->m : 1, sizeof(*g->ew));
    if ((rc = parse_lists(g, s)))
        goto out;
    if (g->rowptr[g->n] != 2 * g->m) {
        rc = count_error(g, at_m, g->rowptr[g->n]);
        goto out;
    }
    for (uint64_t i = 0; i < g->n; i++) {
        uint64_t lo = g->rowptr[i], hi = g->rowptr[i + 1];

        sort_list(g->adj + lo, g->ew ? g->ew + lo : NULL, hi - lo, &scratch);
        for (uint64_t x = lo + 1; x < hi; x++) {
            if (g->adj[x - 1] == g->adj[x]) {
                rc = error_at(g, s, i, g->adj[x], AUGUR_EPARSE,
                              "vertex %llu lists neighbour %llu twice", (unsigned long long)i + 1,
                              (unsigned long long)g->adj[x] + 1);
                goto out;
            }
        }
    }
    rc = locate_asymmetry(g, s);
out:
    augur_free(g->rowptr);
    augur_free(g->adj);
    augur_free(g->ew);
    g->rowptr = NULL;
    g->adj = NULL;
    g->ew = NULL;
    augur_vec_release(&scratch);
    return rc;
}

/* ---- the fast path ------------------------------------------------------------ */

static void halves_release(struct halves *h)
{
    augur_free(h->row);
    augur_free(h->col);
    augur_free(h->val);
    augur_free(h->up);
    augur_free(h->tmp);
    augur_free(h->upw);
    augur_free(h->tmpw);
    memset(h, 0, sizeof(*h));
}

/*
 * Reads the lists into the two halves and checks that they match. Returns 0,
 * a parse error, or SLOW_PATH when the lists are not symmetric or repeat a
 * neighbour.
 */
static int read_fast(const struct metis *g, struct rt_scan *s, const struct rt_scan *at_m,
                     struct halves *h)
{
    struct augur_vec scratch;
    uint64_t m = g->m, e = 0, u = 0, alloc = m ? m : 1;
    int rc = 0;

    augur_vec_init(&scratch, sizeof(struct pair));
    h->row = augur_mallocarray(alloc, sizeof(*h->row));
    h->col = augur_mallocarray(alloc, sizeof(*h->col));
    h->up = augur_mallocarray(alloc, sizeof(*h->up));
    h->tmp = augur_mallocarray(alloc, sizeof(*h->tmp));
    if (g->ewgt) {
        h->val = augur_mallocarray(alloc, sizeof(*h->val));
        h->upw = augur_mallocarray(alloc, sizeof(*h->upw));
        h->tmpw = augur_mallocarray(alloc, sizeof(*h->tmpw));
    }
    for (uint64_t i = 0; i < g->n; i++) {
        uint64_t lo = e;
        bool sorted = true;

        if ((rc = next_vertex_line(g, s, i)) || (rc = vertex_fields(g, s)))
            goto out;
        for (;;) {
            uint64_t j;
            double w = 0;

            if (!neighbour_fast(g, s, i, &j, &w)) {
                if (rt_at_eol(s))
                    break;
                if ((rc = neighbour_slow(g, s, i, e + u, &j, &w)))
                    goto out;
            }
            j--;
            if (j < i) {
                if (e == m) {
                    rc = SLOW_PATH;
                    goto out;
                }
                sorted = sorted && (e == lo || h->col[e - 1] < j);
                h->row[e] = (uint32_t)i;
                h->col[e] = (uint32_t)j;
                if (h->val)
                    h->val[e] = w;
                e++;
            } else {
                if (u == m) {
                    rc = SLOW_PATH;
                    goto out;
                }
                h->up[u] = j << 32 | i;
                if (h->upw)
                    h->upw[u] = w;
                u++;
            }
        }
        end_line(s);
        if (!sorted) {
            sort_list(h->col + lo, h->val ? h->val + lo : NULL, e - lo, &scratch);
            for (uint64_t x = lo + 1; x < e; x++) {
                if (h->col[x - 1] == h->col[x]) {
                    rc = SLOW_PATH;
                    goto out;
                }
            }
        }
    }
    if ((rc = no_extra_lines(g, s)))
        goto out;
    if (e + u != 2 * m) {
        rc = count_error(g, at_m, e + u);
        goto out;
    }
    /* e == u == m: the transposed upper half must be the lower half. */
    sort_by_high(&h->up, &h->upw, &h->tmp, &h->tmpw, m, g->n - 1);
    for (uint64_t x = 0; x < m; x++) {
        if (h->up[x] != ((uint64_t)h->row[x] << 32 | h->col[x]) ||
            (h->val && h->upw[x] != h->val[x])) {
            rc = SLOW_PATH;
            goto out;
        }
    }
out:
    augur_vec_release(&scratch);
    return rc;
}

int rt_read_metis(const char *text, size_t len, const char *file,
                  const struct augur_load_opts *opts, struct augur_dataset *ds,
                  struct augur_diag *diag)
{
    struct rt_scan s, at_m;
    struct metis g = { 0 };
    struct halves h = { 0 };
    uint64_t room;
    int rc;

    (void)opts; /* METIS graphs are undirected and 1-based by definition */
    rt_scan_init(&s, text, len, file, diag);
    if ((rc = parse_header(&g, &s, &at_m)))
        return rc;
    g.hdr_line = s.line;
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
    rc = read_fast(&g, &s, &at_m, &h);
    if (rc == SLOW_PATH) {
        halves_release(&h);
        rc = diagnose(&g, &s, &at_m);
    }
    if (rc) {
        halves_release(&h);
        return rc;
    }
    augur_free(h.up);
    augur_free(h.tmp);
    augur_free(h.upw);
    augur_free(h.tmpw);
    ds->coo.nrows = ds->coo.ncols = (uint32_t)g.n;
    ds->coo.nnz = g.m;
    ds->coo.row = h.row;
    ds->coo.col = h.col;
    ds->coo.val = h.val;
    ds->symmetry = AUGUR_SYM_SYMMETRIC;
    ds->weighted = g.ewgt;
    ds->field = g.ewgt ? AUGUR_FIELD_INTEGER : AUGUR_FIELD_PATTERN;
    ds->nentries_read = g.m;
    return 0;
}
