/*
 * t_graphs.c - tests of the graph readers of the runtime module: edge lists,
 * DIMACS-9 .gr and METIS .graph, their bad inputs (with line and column), and
 * real graphs written in each format and read back.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "augur/augur.h"
#include "data/rt_int.h"
#include "tap.h"

typedef int reader_fn(const char *text, size_t len, const char *file,
                      const struct augur_load_opts *opts, struct augur_dataset *ds,
                      struct augur_diag *diag);

static const struct augur_load_opts no_opts;

/* Frees what a reader left in ds->coo (the reader's arrays, before rt_coo_finish). */
static void drop(struct augur_dataset *ds)
{
    augur_free(ds->coo.row);
    augur_free(ds->coo.col);
    augur_free(ds->coo.val);
    memset(&ds->coo, 0, sizeof(ds->coo));
}

/* Runs a reader on a copy of text[0, len) in a buffer of exactly len + 1 bytes. */
static int run_n(reader_fn *fn, const char *text, size_t len, const struct augur_load_opts *opts,
                 struct augur_dataset *ds, struct augur_diag *d)
{
    char *buf = malloc(len + 1);
    int rc;

    memcpy(buf, text, len);
    buf[len] = '\0';
    memset(ds, 0, sizeof(*ds));
    augur_diag_init(d);
    rc = fn(buf, len, "in", opts ? opts : &no_opts, ds, d);
    free(buf);
    return rc;
}

static int run(reader_fn *fn, const char *text, const struct augur_load_opts *opts,
               struct augur_dataset *ds, struct augur_diag *d)
{
    return run_n(fn, text, strlen(text), opts, ds, d);
}

struct triple {
    uint32_t r, c;
    double v;
};

static int cmp_triple(const void *a, const void *b)
{
    const struct triple *x = a, *y = b;

    if (x->r != y->r)
        return x->r < y->r ? -1 : 1;
    if (x->c != y->c)
        return x->c < y->c ? -1 : 1;
    return (x->v > y->v) - (x->v < y->v);
}

/*
 * The reader's COO as text, sorted: "r c;" or "r c v;" per entry, 0-based.
 * Symmetric entries are shown in the lower triangle: which one the reader
 * stored is its own business.
 */
static const char *coo_text(const struct augur_dataset *ds, char *buf, size_t size)
{
    struct triple *t = malloc((ds->coo.nnz + 1) * sizeof(*t));
    size_t n = 0;

    for (uint64_t k = 0; k < ds->coo.nnz; k++) {
        uint32_t r = ds->coo.row[k], c = ds->coo.col[k];

        if (ds->symmetry != AUGUR_SYM_GENERAL && r < c)
            t[k].r = c, t[k].c = r;
        else
            t[k].r = r, t[k].c = c;
        t[k].v = ds->coo.val ? ds->coo.val[k] : 0;
    }
    qsort(t, ds->coo.nnz, sizeof(*t), cmp_triple);
    buf[0] = '\0';
    for (uint64_t k = 0; k < ds->coo.nnz && n + 64 < size; k++) {
        if (ds->coo.val)
            n += (size_t)snprintf(buf + n, size - n, "%u %u %g;", t[k].r, t[k].c, t[k].v);
        else
            n += (size_t)snprintf(buf + n, size - n, "%u %u;", t[k].r, t[k].c);
    }
    free(t);
    return buf;
}

/* Checks a successful read: size, kind and entries. */
static void expect_coo(reader_fn *fn, const char *text, const struct augur_load_opts *opts,
                       uint32_t n, enum augur_symmetry sym, enum augur_field field, uint64_t nread,
                       const char *entries, const char *name)
{
    struct augur_dataset ds;
    struct augur_diag d;
    char buf[1024], what[256];
    int rc = run(fn, text, opts, &ds, &d);

    snprintf(what, sizeof(what), "%s: read", name);
    if (!is_int(rc, 0, what)) {
        diag("%s:%u:%u: %s", d.file, d.line, d.col, d.msg);
        return;
    }
    snprintf(what, sizeof(what), "%s: %u x %u, %s %s, %llu read", name, n, n,
             augur_symmetry_name(sym), augur_field_name(field), (unsigned long long)nread);
    if (!ok(ds.coo.nrows == n && ds.coo.ncols == n && ds.symmetry == sym && ds.field == field &&
                ds.weighted == (field != AUGUR_FIELD_PATTERN) && ds.nentries_read == nread &&
                (ds.coo.val != NULL) == ds.weighted,
            what))
        diag("got %u x %u, %s %s weighted=%d, %llu read", ds.coo.nrows, ds.coo.ncols,
             augur_symmetry_name(ds.symmetry), augur_field_name(ds.field), ds.weighted,
             (unsigned long long)ds.nentries_read);
    snprintf(what, sizeof(what), "%s: entries", name);
    is_str(coo_text(&ds, buf, sizeof(buf)), entries, what);
    drop(&ds);
}

/* Checks a failing read: the code, line:col, and a word of the message. */
static void expect_err_n(reader_fn *fn, const char *text, size_t len,
                         const struct augur_load_opts *opts, int code, uint32_t line, uint32_t col,
                         const char *needle, const char *name)
{
    struct augur_dataset ds;
    struct augur_diag d;
    char got[96], want[96], what[256];
    int rc = run_n(fn, text, len, opts, &ds, &d);

    if (rc == 0)
        drop(&ds);
    snprintf(got, sizeof(got), "%s in:%u:%u", augur_err_name(rc), d.line, d.col);
    snprintf(want, sizeof(want), "%s in:%u:%u", augur_err_name(code), line, col);
    snprintf(what, sizeof(what), "%s: error and place", name);
    is_str(got, want, what);
    snprintf(what, sizeof(what), "%s: message says '%s'", name, needle);
    if (!ok(strstr(d.msg, needle) != NULL && strcmp(d.file, "in") == 0, what))
        diag("message: %s", d.msg);
    if (ds.coo.row || ds.coo.col || ds.coo.val)
        ok(0, "a failing reader leaves nothing in ds->coo");
}

static void expect_err(reader_fn *fn, const char *text, const struct augur_load_opts *opts,
                       int code, uint32_t line, uint32_t col, const char *needle, const char *name)
{
    expect_err_n(fn, text, strlen(text), opts, code, line, col, needle, name);
}

static const char garbage[] = "\x7f"
                              "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0\x01\0\0\0\xff\xfe\n\x01"
                              "\x80\x81\0\n";

/* ---- edge lists ------------------------------------------------------------ */

static void test_edges(void)
{
    struct augur_load_opts o = { 0 };

    expect_coo(rt_read_edges, "# SNAP style\n% another comment\n\n0 1\n1\t2\n  2 0  \n", NULL, 3,
               AUGUR_SYM_GENERAL, AUGUR_FIELD_PATTERN, 3, "0 1;1 2;2 0;",
               "edges: 0-based, comments, blanks, tabs");
    expect_coo(rt_read_edges, "1 2\n2 3\n3 5\n", NULL, 5, AUGUR_SYM_GENERAL, AUGUR_FIELD_PATTERN, 3,
               "0 1;1 2;2 4;", "edges: no 0 anywhere: detected as 1-based");
    expect_coo(rt_read_edges, "5 6\n0 1\n", NULL, 7, AUGUR_SYM_GENERAL, AUGUR_FIELD_PATTERN, 2,
               "0 1;5 6;", "edges: a 0 on the last line makes it 0-based");
    expect_coo(rt_read_edges, "1,2\r\n2 , 3\r\n3,\t1\n", NULL, 3, AUGUR_SYM_GENERAL,
               AUGUR_FIELD_PATTERN, 3, "0 1;1 2;2 0;", "edges: commas and CRLF (csv)");
    expect_coo(rt_read_edges, "1 2", NULL, 2, AUGUR_SYM_GENERAL, AUGUR_FIELD_PATTERN, 1, "0 1;",
               "edges: no final newline");
    expect_coo(rt_read_edges, "0 1 5\n1 2 -3\n2 2 0\n", NULL, 3, AUGUR_SYM_GENERAL,
               AUGUR_FIELD_INTEGER, 3, "0 1 5;1 2 -3;2 2 0;", "edges: integer weights");
    expect_coo(rt_read_edges, "0 1 0.5\n1 2 2\n1 0 1e3\n", NULL, 3, AUGUR_SYM_GENERAL,
               AUGUR_FIELD_REAL, 3, "0 1 0.5;1 0 1000;1 2 2;", "edges: real weights");
    expect_coo(rt_read_edges, "1,2,0.25\n", NULL, 2, AUGUR_SYM_GENERAL, AUGUR_FIELD_REAL, 1,
               "0 1 0.25;", "edges: csv with a weight");

    o.base_given = true;
    o.index_base = 0;
    expect_coo(rt_read_edges, "1 2\n2 3\n", &o, 4, AUGUR_SYM_GENERAL, AUGUR_FIELD_PATTERN, 2,
               "1 2;2 3;", "edges: --base 0 overrides detection");
    o.index_base = 1;
    expect_coo(rt_read_edges, "1 2\n2 3\n", &o, 3, AUGUR_SYM_GENERAL, AUGUR_FIELD_PATTERN, 2,
               "0 1;1 2;", "edges: --base 1");
    expect_err(rt_read_edges, "1 2\n2 0\n", &o, AUGUR_ERANGE, 2, 3, "1-based",
               "edges: --base 1 with a vertex 0");
    expect_err(rt_read_edges, "0 2\n", &o, AUGUR_ERANGE, 1, 1, "vertex id 0",
               "edges: --base 1 with a source 0");
    o.index_base = 7;
    expect_err(rt_read_edges, "1 2\n", &o, AUGUR_EINVAL, 0, 0, "0 or 1", "edges: base 7");

    memset(&o, 0, sizeof(o));
    o.undirected = true;
    expect_coo(rt_read_edges, "0 1\n1 0\n1 2\n", &o, 3, AUGUR_SYM_SYMMETRIC, AUGUR_FIELD_PATTERN, 3,
               "1 0;1 0;2 1;", "edges: --undirected keeps both directions for merging");

    expect_coo(rt_read_edges, "4294967295 1\n", NULL, 4294967295u, AUGUR_SYM_GENERAL,
               AUGUR_FIELD_PATTERN, 1, "4294967294 0;", "edges: id 2^32-1, 1-based, fits");
    expect_err(rt_read_edges, "0 1\n4294967295 1\n", NULL, AUGUR_ERANGE, 2, 1, "2^32",
               "edges: id 2^32-1 in a 0-based list");
    expect_err(rt_read_edges, "0 1\n1 4294967296\n", NULL, AUGUR_ERANGE, 2, 3, "too large",
               "edges: id beyond uint32");
    expect_err(rt_read_edges, "1000000000000000 1\n", NULL, AUGUR_ERANGE, 1, 1, "too large",
               "edges: id 10^15");
    expect_err(rt_read_edges, "99999999999999999999999999 1\n", NULL, AUGUR_ERANGE, 1, 1,
               "too large", "edges: id beyond uint64");
    expect_err(rt_read_edges, "0 1\n2 -1\n", NULL, AUGUR_ERANGE, 2, 3, "negative",
               "edges: negative id");
    expect_err(rt_read_edges, "0 1\n1 2 3\n", NULL, AUGUR_EPARSE, 2, 5, "line 1",
               "edges: weight on line 2 only");
    expect_err(rt_read_edges, "0 1 1\n\n1 2\n", NULL, AUGUR_EPARSE, 3, 4, "line 1",
               "edges: weight missing on line 3");
    expect_err(rt_read_edges, "0 1 1 7\n", NULL, AUGUR_EPARSE, 1, 7,
               "unexpected '7' after the weight", "edges: a fourth field");
    expect_err(rt_read_edges, "0 1 x\n", NULL, AUGUR_EPARSE, 1, 5, "weight", "edges: bad weight");
    expect_err(rt_read_edges, "0 1 inf\n", NULL, AUGUR_ERANGE, 1, 5, "finite",
               "edges: infinite weight");
    expect_err(rt_read_edges, "0 1\n1 x2\n", NULL, AUGUR_EPARSE, 2, 3, "'x2'", "edges: bad target");
    expect_err(rt_read_edges, "0 1\n1 2x\n", NULL, AUGUR_EPARSE, 2, 3, "'2x'",
               "edges: junk after a digit");
    expect_err(rt_read_edges, "0 1\n1 2 # note\n", NULL, AUGUR_EPARSE, 2, 5, "weight",
               "edges: no trailing comments");
    expect_err(rt_read_edges, "0 1\n1,,2\n", NULL, AUGUR_EPARSE, 2, 3, "target",
               "edges: empty csv field");
    expect_err(rt_read_edges, "0 1\n1", NULL, AUGUR_EPARSE, 2, 2, "end of file",
               "edges: truncated last line");
    expect_err(rt_read_edges, "0 1\n1\n2 3\n", NULL, AUGUR_EPARSE, 2, 2, "end of line",
               "edges: a line with one id");
    expect_err(rt_read_edges, "", NULL, AUGUR_EPARSE, 1, 1, "no edges", "edges: empty file");
    expect_err(rt_read_edges, "# only\n\n% comments\n", NULL, AUGUR_EPARSE, 4, 1, "no edges",
               "edges: comments only");
    expect_err_n(rt_read_edges, garbage, sizeof(garbage) - 1, NULL, AUGUR_EPARSE, 1, 1, "source",
                 "edges: binary garbage");
    expect_err_n(rt_read_edges, "0 1\n1\0 2\n", 8, NULL, AUGUR_EPARSE, 2, 2, "target",
                 "edges: a NUL byte inside a line");
}

/* ---- DIMACS ------------------------------------------------------------------ */

static void test_dimacs(void)
{
    struct augur_load_opts o = { 0 };
    const char *gr = "c 9th DIMACS challenge\nc\np sp 4 4\na 1 2 7\na 2 3 1\n\nc between arcs\n"
                     "a 3 1 2\n  a 4 4 0\n";

    expect_coo(rt_read_dimacs, gr, NULL, 4, AUGUR_SYM_GENERAL, AUGUR_FIELD_INTEGER, 4,
               "0 1 7;1 2 1;2 0 2;3 3 0;", "dimacs: comments, arcs, a self loop");
    o.undirected = true;
    expect_coo(rt_read_dimacs, "p sp 3 2\na 1 2 5\na 2 1 5\n", &o, 3, AUGUR_SYM_SYMMETRIC,
               AUGUR_FIELD_INTEGER, 2, "1 0 5;1 0 5;", "dimacs: --undirected");
    expect_coo(rt_read_dimacs, "p sp 2 1\r\na 1 2 -9007199254740992\r\n", NULL, 2,
               AUGUR_SYM_GENERAL, AUGUR_FIELD_INTEGER, 1, "0 1 -9.0072e+15;",
               "dimacs: CRLF, length -2^53");
    expect_coo(rt_read_dimacs, "p sp 5 0\n", NULL, 5, AUGUR_SYM_GENERAL, AUGUR_FIELD_INTEGER, 0, "",
               "dimacs: no arcs");

    expect_err(rt_read_dimacs, "c x\na 1 2 3\np sp 2 1\n", NULL, AUGUR_EPARSE, 2, 1,
               "before the problem line", "dimacs: arc before p");
    expect_err(rt_read_dimacs, "p sp 2 1\na 1 2 3\np sp 2 1\n", NULL, AUGUR_EPARSE, 3, 1,
               "second problem line", "dimacs: two p lines");
    expect_err(rt_read_dimacs, "p max 2 1\na 1 2 3\n", NULL, AUGUR_EFORMAT, 1, 3, "'max'",
               "dimacs: p max");
    expect_err(rt_read_dimacs, "p\n", NULL, AUGUR_EFORMAT, 1, 2, "end of line", "dimacs: bare p");
    expect_err(rt_read_dimacs, "p sp 0 0\n", NULL, AUGUR_ERANGE, 1, 6, "out of range",
               "dimacs: N = 0");
    expect_err(rt_read_dimacs, "p sp 1000000000000000 1\na 1 2 3\n", NULL, AUGUR_ERANGE, 1, 6,
               "1000000000000000", "dimacs: 10^15 vertices");
    expect_err(rt_read_dimacs, "p sp 4 1000000000000000\na 1 2 3\n", NULL, AUGUR_ETRUNC, 1, 8,
               "only 1 lines", "dimacs: 10^15 arcs");
    expect_err(rt_read_dimacs, "p sp 4 3\na 1 2 3\na 2 3 4\n", NULL, AUGUR_ETRUNC, 1, 8,
               "only 2 lines", "dimacs: M beyond the lines left");
    expect_err(rt_read_dimacs, "p sp 4 3\na 1 2 3\na 2 3 4\n\n", NULL, AUGUR_ETRUNC, 5, 1,
               "ends after 2 arcs", "dimacs: fewer arcs than M");
    expect_err(rt_read_dimacs, "p sp 4 1\na 1 2 3\na 2 3 4\n", NULL, AUGUR_EPARSE, 3, 1,
               "more arcs than the 1", "dimacs: more arcs than M");
    expect_err(rt_read_dimacs, "p sp 4 1\na 0 2 3\n", NULL, AUGUR_ERANGE, 2, 3, "arc tail 0",
               "dimacs: tail 0");
    expect_err(rt_read_dimacs, "p sp 4 1\na 1  5 3\n", NULL, AUGUR_ERANGE, 2, 6, "arc head 5",
               "dimacs: head beyond N");
    expect_err(rt_read_dimacs, "p sp 4 1\na 1 2 1.5\n", NULL, AUGUR_EPARSE, 2, 7, "integer",
               "dimacs: non-integer length");
    expect_err(rt_read_dimacs, "p sp 4 1\na 1 2 99999999999999999\n", NULL, AUGUR_ERANGE, 2, 7,
               "2^53", "dimacs: length beyond 2^53");
    expect_err(rt_read_dimacs, "p sp 4 1\na 1 2\n", NULL, AUGUR_EPARSE, 2, 6, "end of line",
               "dimacs: missing length");
    expect_err(rt_read_dimacs, "p sp 4 1\na 1 2 3 4\n", NULL, AUGUR_EPARSE, 2, 9,
               "unexpected '4' after", "dimacs: extra field");
    expect_err(rt_read_dimacs, "p sp 4 1\ne 1 2\n", NULL, AUGUR_EPARSE, 2, 1, "line type 'e'",
               "dimacs: unknown line type");
    expect_err(rt_read_dimacs, "p sp 4 1\na1 2 3\n", NULL, AUGUR_EPARSE, 2, 1, "line type 'a'",
               "dimacs: 'a1' is no arc");
    expect_err_n(rt_read_dimacs, "p sp 4 1\na 1 2 3\0\n", 18, NULL, AUGUR_EPARSE, 2, 8,
                 "after the arc length", "dimacs: a NUL byte after the length");
    expect_err(rt_read_dimacs, "p sp 4 1\nab 1 2\n", NULL, AUGUR_EPARSE, 2, 1, "line type 'a'",
               "dimacs: 'ab' is no arc");
    expect_coo(rt_read_dimacs, "p sp 4 1\na 1 2 3", NULL, 4, AUGUR_SYM_GENERAL, AUGUR_FIELD_INTEGER,
               1, "0 1 3;", "dimacs: last arc without a newline");
    expect_err(rt_read_dimacs, "", NULL, AUGUR_EPARSE, 1, 1, "no problem line",
               "dimacs: empty file");
    expect_err(rt_read_dimacs, "c just\nc comments\n", NULL, AUGUR_EPARSE, 3, 1, "no problem line",
               "dimacs: comments only");
    expect_err_n(rt_read_dimacs, garbage, sizeof(garbage) - 1, NULL, AUGUR_EPARSE, 1, 1, "\\x7f",
                 "dimacs: binary garbage");
}

/* ---- METIS ------------------------------------------------------------------- */

static void test_metis(void)
{
    struct augur_load_opts o = { 0 };

    expect_coo(rt_read_metis, "% a triangle\n3 3\n2 3\n1 3\n1 2\n", NULL, 3, AUGUR_SYM_SYMMETRIC,
               AUGUR_FIELD_PATTERN, 3, "1 0;2 0;2 1;", "metis: triangle");
    expect_coo(rt_read_metis, "5 3\n3 2\n% a comment between lists\n1\n1 4\n   3\n\n", NULL, 5,
               AUGUR_SYM_SYMMETRIC, AUGUR_FIELD_PATTERN, 3, "1 0;2 0;3 2;",
               "metis: unsorted lists, comment, isolated last vertex");
    expect_coo(rt_read_metis, "4 3 001\n4 2 2 5\n3 9 1 5\n2 9\n1 2\n", NULL, 4, AUGUR_SYM_SYMMETRIC,
               AUGUR_FIELD_INTEGER, 3, "1 0 5;2 1 9;3 0 2;", "metis: fmt 001, edge weights");
    expect_coo(rt_read_metis, "3 2 111 2\n1 10 20 2 4\n2 0 0 1 4 3 6\n3 5 5 2 6\n", NULL, 3,
               AUGUR_SYM_SYMMETRIC, AUGUR_FIELD_INTEGER, 2, "1 0 4;2 1 6;",
               "metis: fmt 111, sizes, 2 vertex weights, edge weights");
    expect_coo(rt_read_metis, "2 1 10\n7 2\n8 1\n", NULL, 2, AUGUR_SYM_SYMMETRIC,
               AUGUR_FIELD_PATTERN, 1, "1 0;", "metis: fmt 10, one vertex weight");
    expect_coo(rt_read_metis, "2 1 100\n7 2\n8 1\n", NULL, 2, AUGUR_SYM_SYMMETRIC,
               AUGUR_FIELD_PATTERN, 1, "1 0;", "metis: fmt 100, vertex sizes");
    expect_coo(rt_read_metis, "3 0\n\n\n\n", NULL, 3, AUGUR_SYM_SYMMETRIC, AUGUR_FIELD_PATTERN, 0,
               "", "metis: no edges");
    o.undirected = true;
    expect_coo(rt_read_metis, "2 1\r\n2\r\n1", &o, 2, AUGUR_SYM_SYMMETRIC, AUGUR_FIELD_PATTERN, 1,
               "1 0;", "metis: CRLF, no final newline");

    expect_err(rt_read_metis, "3 2\n2\n3\n1 2\n", NULL, AUGUR_EPARSE, 2, 1,
               "vertex 1 lists 2 but vertex 2 does not list 1", "metis: asymmetric");
    expect_err(rt_read_metis, "3 2\n2 3\n1\n2\n", NULL, AUGUR_EPARSE, 2, 3,
               "vertex 1 lists 3 but vertex 3 does not list 1", "metis: asymmetric, second entry");
    expect_err(rt_read_metis, "3 2\n3\n% c\n1\n2 1\n", NULL, AUGUR_EPARSE, 4, 1,
               "vertex 2 lists 1 but vertex 1 does not list 2", "metis: asymmetric, lower end");
    expect_err(rt_read_metis, "4 2\n\n4\n% c\n4\n2 1\n", NULL, AUGUR_EPARSE, 6, 3,
               "vertex 4 lists 1 but vertex 1 does not list 4", "metis: asymmetric, seen later");
    expect_err(rt_read_metis, "3 2\n2 3\n3\n2\n", NULL, AUGUR_EPARSE, 2, 1,
               "vertex 1 lists 2 but vertex 2 does not list 1",
               "metis: asymmetric, more entries above the diagonal than below");
    expect_err(rt_read_metis, "2 1 1\n2 5\n1 6\n", NULL, AUGUR_EPARSE, 3, 1, "weight 6 here but 5",
               "metis: weights differ between the ends");
    expect_err(rt_read_metis, "2 2\n2 2\n1 1\n", NULL, AUGUR_EPARSE, 2, 1, "twice",
               "metis: repeated neighbour");
    expect_err(rt_read_metis, "2 1\n1\n1\n", NULL, AUGUR_EPARSE, 2, 1, "itself",
               "metis: self loop");
    expect_err(rt_read_metis, "2 1\n2\n3\n", NULL, AUGUR_ERANGE, 3, 1, "out of range",
               "metis: neighbour beyond n");
    expect_err(rt_read_metis, "2 1\n0\n1\n", NULL, AUGUR_ERANGE, 2, 1, "out of range",
               "metis: neighbour 0");
    expect_err(rt_read_metis, "3 2\n2\n1\n\n% padding comment\n", NULL, AUGUR_EPARSE, 1, 3,
               "hold 2 entries", "metis: fewer entries than 2m");
    expect_err(rt_read_metis, "3 0\n2\n1\n\n", NULL, AUGUR_EPARSE, 2, 1, "more than 2m = 0",
               "metis: more entries than 2m");
    expect_err(rt_read_metis, "3 1\n2\n1\n", NULL, AUGUR_ETRUNC, 1, 1, "only 2 lines",
               "metis: n beyond the lines left");
    expect_err(rt_read_metis, "3 1\n% c\n2\n1\n", NULL, AUGUR_ETRUNC, 5, 1,
               "ends after 2 vertex lines", "metis: truncated after a comment");
    expect_err(rt_read_metis, "1000000000000000 1\n2\n1\n", NULL, AUGUR_ERANGE, 1, 1,
               "1000000000000000", "metis: 10^15 vertices");
    expect_err(rt_read_metis, "4000000000 1\n2\n1\n", NULL, AUGUR_ETRUNC, 1, 1,
               "4000000000 vertices", "metis: 4e9 vertices, 3 lines");
    expect_err(rt_read_metis, "2 1000000000000000\n2\n1\n", NULL, AUGUR_ETRUNC, 1, 3,
               "1000000000000000 edges", "metis: 10^15 edges");
    expect_err(rt_read_metis, "0 0\n", NULL, AUGUR_ERANGE, 1, 1, "out of range", "metis: n = 0");
    expect_err(rt_read_metis, "2 1 12\n2\n1\n", NULL, AUGUR_EPARSE, 1, 5, "'12'",
               "metis: fmt with a 2");
    expect_err(rt_read_metis, "2 1 1011\n2\n1\n", NULL, AUGUR_EPARSE, 1, 5, "three digits",
               "metis: fmt of 4 digits");
    expect_err(rt_read_metis, "2 1 1 2\n2 1\n1 1\n", NULL, AUGUR_EPARSE, 1, 7, "no vertex weights",
               "metis: ncon without vertex weights");
    expect_err(rt_read_metis, "2 1 10 0\n1 2\n1 1\n", NULL, AUGUR_EPARSE, 1, 8, "at least 1",
               "metis: ncon 0");
    expect_err(rt_read_metis, "2 1 10\n\n5 1\n", NULL, AUGUR_EPARSE, 2, 1, "vertex weight",
               "metis: missing vertex weight");
    expect_err(rt_read_metis, "2 1 10\n-1 2\n5 1\n", NULL, AUGUR_ERANGE, 2, 1, "negative",
               "metis: negative vertex weight");
    expect_err(rt_read_metis, "2 1 1\n2\n1 3\n", NULL, AUGUR_EPARSE, 2, 2, "edge weight",
               "metis: missing edge weight");
    expect_err(rt_read_metis, "2 1 1\n2 0\n1 0\n", NULL, AUGUR_ERANGE, 2, 3, "out of range",
               "metis: edge weight 0");
    expect_err(rt_read_metis, "2 1 1\n2 1.5\n1 1.5\n", NULL, AUGUR_EPARSE, 2, 3, "edge weight",
               "metis: real edge weight");
    expect_err(rt_read_metis, "2 1\n2\n1\n1\n", NULL, AUGUR_EPARSE, 4, 1, "after the last vertex",
               "metis: an extra line");
    expect_err(rt_read_metis, "2 1 0 0 0\n2\n1\n", NULL, AUGUR_EPARSE, 1, 7, "no vertex weights",
               "metis: header with too many fields");
    expect_err(rt_read_metis, "", NULL, AUGUR_EPARSE, 1, 1, "empty", "metis: empty file");
    expect_err(rt_read_metis, "%% only a comment\n\n", NULL, AUGUR_EPARSE, 3, 1, "empty",
               "metis: comments only");
    expect_err_n(rt_read_metis, garbage, sizeof(garbage) - 1, NULL, AUGUR_EPARSE, 1, 1,
                 "number of vertices", "metis: binary garbage");
}

/* ---- through the loader ------------------------------------------------------- */

static bool pending(int rc, const struct augur_diag *d)
{
    return rc != 0 && strstr(d->msg, "not written yet") != NULL;
}

/* Parses text as a whole dataset (reader, then rt_coo_finish). */
static int parse(const char *text, enum augur_format format, bool undirected,
                 struct augur_dataset **ds, struct augur_diag *d)
{
    struct augur_load_opts o = { 0 };

    o.format = format;
    o.undirected = undirected;
    augur_diag_init(d);
    return augur_dataset_parse(text, strlen(text), "in", &o, ds, d);
}

static void test_loader(void)
{
    struct augur_dataset *ds = NULL;
    struct augur_diag d;
    int rc;

    rc = parse("0 1\n1 0\n1 2\n2 1\n2 2\n", AUGUR_FORMAT_EDGES, true, &ds, &d);
    if (pending(rc, &d)) {
        skip(d.msg, "loader: --undirected merges both directions");
        return;
    }
    if (is_int(rc, 0, "loader: undirected edge list")) {
        is_int(ds->coo.nnz, 3, "loader: 5 lines, 2 edges listed both ways and a loop: 3 stored");
        is_int(ds->nduplicates, 2, "loader: the reverse directions are duplicates");
        is_int(augur_dataset_nnz_full(ds), 5, "loader: 5 entries in the full matrix");
        augur_dataset_free(ds);
    } else {
        diag("%s", d.msg);
    }
    rc = parse("c x\np sp 3 2\na 1 2 4\na 2 1 4\n", AUGUR_FORMAT_AUTO, true, &ds, &d);
    if (is_int(rc, 0, "loader: DIMACS detected from content")) {
        is_int(ds->format, AUGUR_FORMAT_DIMACS, "loader: format dimacs");
        is_int(ds->coo.nnz, 1, "loader: DIMACS both directions merged");
        is_double(ds->coo.val[0], 8, 0, "loader: merged lengths are summed");
        augur_dataset_free(ds);
    }
    rc = parse("3 2\n2\n1 3\n2\n", AUGUR_FORMAT_METIS, false, &ds, &d);
    if (is_int(rc, 0, "loader: METIS path")) {
        is_int(ds->coo.nnz, 2, "loader: METIS 2 edges");
        is_int(ds->nduplicates, 0, "loader: METIS has no duplicates");
        is_int(augur_dataset_nnz_full(ds), 4, "loader: METIS 4 entries in full");
        augur_dataset_free(ds);
    }
}

/* The sample files of tests/data/graphs, format told by content or name. */
static void test_files(void)
{
    static const struct {
        const char *name;
        enum augur_format format;
        enum augur_symmetry sym;
        enum augur_field field;
        uint32_t n;
        const char *entries;
    } files[] = {
        { "small.el", AUGUR_FORMAT_EDGES, AUGUR_SYM_GENERAL, AUGUR_FIELD_PATTERN, 6,
          "0 1;0 2;1 2;2 0;2 3;3 4;4 5;5 3;" },
        { "weighted.csv", AUGUR_FORMAT_EDGES, AUGUR_SYM_GENERAL, AUGUR_FIELD_REAL, 4,
          "0 1 0.5;1 2 1.25;2 0 2;2 3 0.4;" },
        { "small.gr", AUGUR_FORMAT_DIMACS, AUGUR_SYM_GENERAL, AUGUR_FIELD_INTEGER, 5,
          "0 1 10;1 0 10;1 2 4;2 2 0;2 3 7;3 4 1;4 0 12;" },
        { "small.graph", AUGUR_FORMAT_METIS, AUGUR_SYM_SYMMETRIC, AUGUR_FIELD_PATTERN, 7,
          "1 0;2 1;3 2;4 3;5 0;5 4;6 0;6 1;6 2;6 3;6 4;6 5;" },
        { "weighted.graph", AUGUR_FORMAT_METIS, AUGUR_SYM_SYMMETRIC, AUGUR_FIELD_INTEGER, 4,
          "1 0 3;2 1 6;3 0 2;3 1 1;3 2 9;" },
    };
    const char *top = getenv("AUGUR_SOURCE_DIR");
    char path[1024], what[256], buf[1024];

    if (!top) {
        skip("AUGUR_SOURCE_DIR not set", "sample graph files");
        return;
    }
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        struct augur_dataset *ds = NULL;
        struct augur_diag d;
        int rc;

        snprintf(path, sizeof(path), "%s/tests/data/graphs/%s", top, files[i].name);
        augur_diag_init(&d);
        rc = augur_dataset_load(path, NULL, &ds, &d);
        if (pending(rc, &d)) {
            skip(d.msg, files[i].name);
            continue;
        }
        snprintf(what, sizeof(what), "%s: loads", files[i].name);
        if (!is_int(rc, 0, what)) {
            diag("%s:%u:%u: %s", d.file, d.line, d.col, d.msg);
            continue;
        }
        snprintf(what, sizeof(what), "%s: %s, %s %s, %u vertices", files[i].name,
                 augur_format_name(files[i].format), augur_symmetry_name(files[i].sym),
                 augur_field_name(files[i].field), files[i].n);
        ok(ds->format == files[i].format && ds->symmetry == files[i].sym &&
               ds->field == files[i].field && ds->coo.nrows == files[i].n,
           what);
        snprintf(what, sizeof(what), "%s: entries", files[i].name);
        is_str(coo_text(ds, buf, sizeof(buf)), files[i].entries, what);
        augur_dataset_free(ds);
    }
}

/* ---- real graphs written in each format and read back ---------------------------- */

static char tmpdir[64];

/* A deterministic integer weight for edge {i, j} (the same both ways). */
static double weight_of(uint32_t i, uint32_t j)
{
    uint32_t hi = i > j ? i : j, lo = i > j ? j : i;

    return (double)(1 + (hi * 31u + lo * 17u) % 100u);
}

static bool csr_same(const struct augur_csr *a, const struct augur_csr *b, const char *name)
{
    if (a->nrows != b->nrows || a->ncols != b->ncols || a->nnz != b->nnz) {
        diag("%s: %u x %u, %llu entries vs %u x %u, %llu", name, a->nrows, a->ncols,
             (unsigned long long)a->nnz, b->nrows, b->ncols, (unsigned long long)b->nnz);
        return false;
    }
    for (uint32_t i = 0; i <= a->nrows; i++) {
        if (a->rowptr[i] != b->rowptr[i]) {
            diag("%s: rowptr[%u] %llu vs %llu", name, i, (unsigned long long)a->rowptr[i],
                 (unsigned long long)b->rowptr[i]);
            return false;
        }
    }
    for (uint64_t k = 0; k < a->nnz; k++) {
        if (a->col[k] != b->col[k]) {
            diag("%s: col[%llu] %u vs %u", name, (unsigned long long)k, a->col[k], b->col[k]);
            return false;
        }
    }
    return true;
}

/* Every value is weight_of(row, col), or (merged) scale times it. */
static bool values_are_weights(const struct augur_csr *c, double scale)
{
    if (!c->val)
        return false;
    for (uint32_t i = 0; i < c->nrows; i++)
        for (uint64_t k = c->rowptr[i]; k < c->rowptr[i + 1]; k++)
            if (c->val[k] != scale * weight_of(i, c->col[k]))
                return false;
    return true;
}

static void path_in_tmp(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", tmpdir, name);
}

/* Edge list: every entry of c, ids + base, with a weight when asked. */
static void write_edges(const struct augur_csr *c, const char *path, unsigned base, bool weights)
{
    FILE *f = fopen(path, "w");

    fprintf(f, "# written by t_graphs from a Matrix Market file\n%% base %u\n", base);
    for (uint32_t i = 0; i < c->nrows; i++) {
        for (uint64_t k = c->rowptr[i]; k < c->rowptr[i + 1]; k++) {
            if (weights)
                fprintf(f, "%u\t%u\t%g\n", i + base, c->col[k] + base, weight_of(i, c->col[k]));
            else
                fprintf(f, "%u %u\n", i + base, c->col[k] + base);
        }
    }
    fclose(f);
}

/* DIMACS: every entry of c as an arc with weight_of(). */
static void write_dimacs(const struct augur_csr *c, const char *path)
{
    FILE *f = fopen(path, "w");

    fprintf(f, "c written by t_graphs\np sp %u %llu\nc arcs follow\n", c->nrows,
            (unsigned long long)c->nnz);
    for (uint32_t i = 0; i < c->nrows; i++)
        for (uint64_t k = c->rowptr[i]; k < c->rowptr[i + 1]; k++)
            fprintf(f, "a %u %u %g\n", i + 1, c->col[k] + 1, weight_of(i, c->col[k]));
    fclose(f);
}

/*
 * METIS from a symmetric full pattern without diagonal: each list in
 * reverse order (the reader sorts), a comment every 1000 vertices, edge
 * weights when asked.
 */
static void write_metis(const struct augur_csr *c, const char *path, bool weights)
{
    FILE *f = fopen(path, "w");

    fprintf(f, "%% written by t_graphs\n%u %llu%s\n", c->nrows, (unsigned long long)c->nnz / 2,
            weights ? " 001" : "");
    for (uint32_t i = 0; i < c->nrows; i++) {
        if (i % 1000 == 999)
            fprintf(f, "%% vertex %u next\n", i + 2);
        for (uint64_t k = c->rowptr[i + 1]; k-- > c->rowptr[i];) {
            fprintf(f, k + 1 < c->rowptr[i + 1] ? " %u" : "%u", c->col[k] + 1);
            if (weights)
                fprintf(f, " %g", weight_of(i, c->col[k]));
        }
        fputc('\n', f);
    }
    fclose(f);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return (x > y) - (x < y);
}

/* The pattern of A + A^T without the diagonal, as a CSR (plain malloc). */
static void symmetrise(const struct augur_csr *a, struct augur_csr *s)
{
    uint64_t *key = malloc((2 * a->nnz + 1) * sizeof(*key)), n = 0, u = 0;

    for (uint32_t i = 0; i < a->nrows; i++) {
        for (uint64_t k = a->rowptr[i]; k < a->rowptr[i + 1]; k++) {
            if (a->col[k] == i)
                continue;
            key[n++] = (uint64_t)i << 32 | a->col[k];
            key[n++] = (uint64_t)a->col[k] << 32 | i;
        }
    }
    qsort(key, n, sizeof(*key), cmp_u64);
    memset(s, 0, sizeof(*s));
    s->nrows = s->ncols = a->nrows;
    s->rowptr = calloc((size_t)a->nrows + 1, sizeof(*s->rowptr));
    s->col = malloc((n + 1) * sizeof(*s->col));
    for (uint64_t k = 0; k < n; k++) {
        if (k && key[k] == key[k - 1])
            continue;
        s->col[u++] = (uint32_t)key[k];
        s->rowptr[(key[k] >> 32) + 1]++;
    }
    for (uint32_t i = 0; i < a->nrows; i++)
        s->rowptr[i + 1] += s->rowptr[i];
    s->nnz = u;
    free(key);
}

/* Loads path with the given options and returns its CSR (expanded). */
static int load_csr(const char *path, enum augur_format format, bool undirected, int base,
                    struct augur_dataset **ds, struct augur_csr *csr, struct augur_diag *d)
{
    struct augur_load_opts o = { 0 };
    int rc;

    o.format = format;
    o.undirected = undirected;
    if (base >= 0) {
        o.base_given = true;
        o.index_base = base;
    }
    augur_diag_init(d);
    memset(csr, 0, sizeof(*csr));
    rc = augur_dataset_load(path, &o, ds, d);
    if (rc)
        return rc;
    rc = augur_dataset_csr(*ds, true, csr, d);
    if (rc) {
        augur_dataset_free(*ds);
        *ds = NULL;
    }
    return rc;
}

/* Reports a load failure; returns true when it was one. */
static bool failed(int rc, const struct augur_diag *d, const char *name)
{
    char what[256];

    if (!rc)
        return false;
    snprintf(what, sizeof(what), "%s: load", name);
    is_int(rc, 0, what);
    diag("%s:%u:%u: %s", d->file, d->line, d->col, d->msg);
    return true;
}

static void test_road(const char *data)
{
    struct augur_dataset *mm = NULL, *ds = NULL;
    struct augur_csr full, low, got;
    struct augur_diag d;
    char src[1024], path[256];
    int rc;

    snprintf(src, sizeof(src), "%s/mtx/road_usa_NY.mtx.gz", data);
    rc = load_csr(src, AUGUR_FORMAT_MTX, false, -1, &mm, &full, &d);
    if (pending(rc, &d)) {
        skip(d.msg, "road NY: edge list, DIMACS and METIS round trips");
        return;
    }
    if (failed(rc, &d, "road NY (Matrix Market)"))
        return;
    rc = augur_dataset_csr(mm, false, &low, &d);
    if (failed(rc, &d, "road NY lower triangle"))
        goto out_full;
    is_int(full.nrows, 264346, "road NY: 264346 vertices");
    is_int(full.nnz, 730100, "road NY: 730100 entries in full");

    /* Edge list listing both directions, as SNAP does, read --undirected. */
    path_in_tmp(path, sizeof(path), "ny.el");
    write_edges(&full, path, 1, false);
    rc = load_csr(path, AUGUR_FORMAT_EDGES, true, -1, &ds, &got, &d);
    if (!failed(rc, &d, "road NY edge list")) {
        ok(csr_same(&got, &full, "edges"), "road NY: edge list --undirected gives the same CSR");
        ok(ds->symmetry == AUGUR_SYM_SYMMETRIC && ds->field == AUGUR_FIELD_PATTERN,
           "road NY: edge list is a symmetric pattern");
        is_int(ds->nentries_read, 730100, "road NY: edge list lines read");
        is_int(ds->nduplicates, 365050, "road NY: each reverse direction merged");
        augur_csr_release(&got);
        augur_dataset_free(ds);
    }

    /* DIMACS with each edge once, weighted, read --undirected. */
    path_in_tmp(path, sizeof(path), "ny.gr");
    write_dimacs(&low, path);
    rc = load_csr(path, AUGUR_FORMAT_DIMACS, true, -1, &ds, &got, &d);
    if (!failed(rc, &d, "road NY DIMACS")) {
        ok(csr_same(&got, &full, "dimacs"), "road NY: DIMACS --undirected gives the same CSR");
        ok(values_are_weights(&got, 1), "road NY: DIMACS arc lengths kept as values");
        ok(ds->field == AUGUR_FIELD_INTEGER && ds->weighted, "road NY: DIMACS integer weights");
        augur_csr_release(&got);
        augur_dataset_free(ds);
    }

    /* METIS with edge weights, lists reversed, comments between them. */
    path_in_tmp(path, sizeof(path), "ny.graph");
    write_metis(&full, path, true);
    rc = load_csr(path, AUGUR_FORMAT_METIS, false, -1, &ds, &got, &d);
    if (!failed(rc, &d, "road NY METIS")) {
        ok(csr_same(&got, &full, "metis"), "road NY: METIS gives the same CSR");
        ok(values_are_weights(&got, 1), "road NY: METIS edge weights kept as values");
        is_int(ds->nentries_read, 365050, "road NY: METIS edges read");
        augur_csr_release(&got);
        augur_dataset_free(ds);
    }
    augur_csr_release(&low);
out_full:
    augur_csr_release(&full);
    augur_dataset_free(mm);
}

static void test_wiki(const char *data)
{
    struct augur_dataset *mm = NULL, *ds = NULL;
    struct augur_csr a, sym, got;
    struct augur_diag d;
    char src[1024], path[256];
    int rc;

    snprintf(src, sizeof(src), "%s/mtx/snap_wiki-Vote.mtx", data);
    rc = load_csr(src, AUGUR_FORMAT_MTX, false, -1, &mm, &a, &d);
    if (pending(rc, &d)) {
        skip(d.msg, "wiki-Vote: edge list, DIMACS and METIS round trips");
        return;
    }
    if (failed(rc, &d, "wiki-Vote (Matrix Market)"))
        return;
    is_int(a.nrows, 8298, "wiki-Vote: 8298 vertices");
    is_int(a.nnz, 103689, "wiki-Vote: 103689 directed edges");

    /* Directed edge list, 1-based (detected) and 0-based (told). */
    path_in_tmp(path, sizeof(path), "wiki1.txt");
    write_edges(&a, path, 1, false);
    rc = load_csr(path, AUGUR_FORMAT_AUTO, false, -1, &ds, &got, &d);
    if (!failed(rc, &d, "wiki-Vote edge list, 1-based")) {
        ok(csr_same(&got, &a, "edges 1"), "wiki-Vote: 1-based edge list (detected) same CSR");
        ok(ds->format == AUGUR_FORMAT_EDGES && ds->symmetry == AUGUR_SYM_GENERAL,
           "wiki-Vote: .txt read as a directed edge list");
        augur_csr_release(&got);
        augur_dataset_free(ds);
    }
    path_in_tmp(path, sizeof(path), "wiki0.csv");
    write_edges(&a, path, 0, true);
    rc = load_csr(path, AUGUR_FORMAT_EDGES, false, 0, &ds, &got, &d);
    if (!failed(rc, &d, "wiki-Vote edge list, 0-based")) {
        ok(csr_same(&got, &a, "edges 0"), "wiki-Vote: 0-based weighted edge list, --base 0");
        ok(values_are_weights(&got, 1), "wiki-Vote: edge list weights kept");
        is_int(ds->field, AUGUR_FIELD_INTEGER, "wiki-Vote: integer weights");
        augur_csr_release(&got);
        augur_dataset_free(ds);
    }

    /* Directed DIMACS, format told by content. */
    path_in_tmp(path, sizeof(path), "wiki.gr");
    write_dimacs(&a, path);
    rc = load_csr(path, AUGUR_FORMAT_AUTO, false, -1, &ds, &got, &d);
    if (!failed(rc, &d, "wiki-Vote DIMACS")) {
        ok(csr_same(&got, &a, "dimacs"), "wiki-Vote: directed DIMACS gives the same CSR");
        ok(values_are_weights(&got, 1), "wiki-Vote: DIMACS lengths kept");
        ok(ds->format == AUGUR_FORMAT_DIMACS && ds->symmetry == AUGUR_SYM_GENERAL,
           "wiki-Vote: DIMACS detected, directed");
        augur_csr_release(&got);
        augur_dataset_free(ds);
    }

    /* METIS holds undirected graphs: the symmetrised pattern, without loops. */
    symmetrise(&a, &sym);
    path_in_tmp(path, sizeof(path), "wiki.graph");
    write_metis(&sym, path, false);
    rc = load_csr(path, AUGUR_FORMAT_AUTO, false, -1, &ds, &got, &d);
    if (!failed(rc, &d, "wiki-Vote METIS")) {
        ok(csr_same(&got, &sym, "metis"), "wiki-Vote: METIS of A + A^T gives its CSR");
        ok(ds->format == AUGUR_FORMAT_METIS && ds->field == AUGUR_FIELD_PATTERN,
           "wiki-Vote: .graph read as METIS pattern");
        augur_csr_release(&got);
        augur_dataset_free(ds);
    }
    free(sym.rowptr);
    free(sym.col);
    augur_csr_release(&a);
    augur_dataset_free(mm);
}

static void test_real(void)
{
    const char *data = tap_datasets();
    char path[1024];

    snprintf(path, sizeof(path), "%s/MANIFEST.md", data ? data : "");
    if (!data || access(path, R_OK) != 0) {
        skip("AUGUR_DATASETS not set", "real graphs in each format");
        return;
    }
    snprintf(tmpdir, sizeof(tmpdir), "/tmp/t_graphs.XXXXXX");
    if (!ok(mkdtemp(tmpdir) != NULL, "temporary folder"))
        return;
    test_road(data);
    test_wiki(data);
    {
        static const char *const names[] = { "ny.el",     "ny.gr",   "ny.graph",  "wiki1.txt",
                                             "wiki0.csv", "wiki.gr", "wiki.graph" };

        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
            path_in_tmp(path, sizeof(path), names[i]);
            unlink(path);
        }
    }
    rmdir(tmpdir);
}

int main(void)
{
    test_edges();
    test_dimacs();
    test_metis();
    test_loader();
    test_files();
    test_real();
    return tap_done();
}
