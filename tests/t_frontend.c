/*
 * t_frontend.c - the front end through its API: kernels from memory, errors,
 * the OpenMP pitfall, and the round trip (dump -> parse -> dump) of the
 * skeleton of every tests/frontend source (module: frontend).
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "augur/augur.h"
#include "tap.h"

static char *format(const struct augur_skel *s)
{
    struct augur_buf buf;

    augur_buf_init(&buf);
    augur_skel_format(s, &buf);
    return augur_buf_detach(&buf, NULL);
}

struct diags {
    int errors, warnings;
    char first[600];
};

static void on_diag(void *ud, const struct augur_diag *d, bool error)
{
    struct diags *ds = ud;

    if (error && ds->errors++ == 0)
        augur_diag_format(d, ds->first, sizeof(ds->first));
    if (!error)
        ds->warnings++;
}

static const struct augur_node *find_kind(const struct augur_skel *s, enum augur_node_kind kind,
                                          uint32_t nth)
{
    for (uint32_t i = 0; i < s->nnodes; i++)
        if (s->nodes[i]->kind == kind && nth-- == 0)
            return s->nodes[i];
    return NULL;
}

static const char *array_of(const struct augur_node *n)
{
    const struct augur_node *k = augur_node_kernel(n);

    return k->u.kernel.arrays[n->u.access.array].name;
}

static void test_memory_kernel(struct augur_fe *fe)
{
    static const char src[] = "void k(int n, const int *col, const float *x, float *y)\n"
                              "{\n"
                              "    for (int i = 0; i < n; i += 2)\n"
                              "        if (col[i] >= 0)\n"
                              "            y[i] = x[col[i]] * 2.0f;\n"
                              "}\n";
    struct augur_fe_opts opts;
    struct augur_skel *s = NULL;
    struct augur_diag diag;
    const struct augur_node *loop, *acc;

    memset(&opts, 0, sizeof(opts));
    augur_diag_init(&diag);
    if (!ok(augur_fe_parse_source(fe, "mem.c", src, strlen(src), &opts, &s, &diag) == 0,
            "memory source parses")) {
        diag("%s", diag.msg);
        return;
    }
    is_int(s->nkernels, 1, "one kernel");
    is_str(s->kernels[0]->u.kernel.name, "k", "kernel name");
    loop = find_kind(s, AUGUR_NODE_LOOP, 0);
    ok(loop && loop->u.loop.form == AUGUR_LOOP_FOR, "a for loop");
    if (loop) {
        ok(loop->u.loop.next->kind == AUGUR_EXPR_BINARY &&
               loop->u.loop.next->u.bin.b->kind == AUGUR_EXPR_INT &&
               loop->u.loop.next->u.bin.b->u.i == 2,
           "step of 2");
        is_int(loop->loc.line, 3, "loop line");
        is_int(loop->loc.col, 5, "loop column");
    }
    ok(find_kind(s, AUGUR_NODE_BRANCH, 0) != NULL, "the if is a branch");
    acc = find_kind(s, AUGUR_NODE_ACCESS, 2);
    if (ok(acc != NULL, "third access")) {
        is_str(array_of(acc), "x", "third access reads x");
        ok(acc->u.access.indirect && acc->u.access.nvia == 1, "x[col[i]] is indirect");
        is_int(acc->u.access.type, AUGUR_T_F32, "x is f32");
        is_int(acc->loc.line, 5, "x access line");
    }
    acc = find_kind(s, AUGUR_NODE_ACCESS, 3);
    if (ok(acc != NULL, "fourth access"))
        ok(acc->u.access.mode == AUGUR_ACCESS_WRITE && !strcmp(array_of(acc), "y"),
           "fourth access writes y");
    ok(s->kernels[0]->u.kernel.arrays[0].bind == NULL,
       "an index map over the rows is left for the user to bind");
    is_str(s->kernels[0]->u.kernel.arrays[2].bind, "vec(n)", "y is a dense vector");
    ok(augur_skel_validate(s, &diag) == 0, "the result validates");
    augur_skel_free(s);
}

static void test_errors(struct augur_fe *fe)
{
    static const char bad[] = "void k(int n) { int x = ; }\n";
    static const char two[] = "void a(double *y) { y[0] = 1; }\nvoid b(double *y) { y[1] = 2; }\n";
    struct augur_fe_opts opts;
    struct augur_skel *s = NULL;
    struct augur_diag diag;
    struct diags ds;

    memset(&opts, 0, sizeof(opts));
    memset(&ds, 0, sizeof(ds));
    opts.on_diag = on_diag;
    opts.ud = &ds;
    augur_diag_init(&diag);
    ok(augur_fe_parse_source(fe, "bad.c", bad, strlen(bad), &opts, &s, &diag) == AUGUR_EPARSE &&
           s == NULL,
       "a syntax error fails with EPARSE");
    is_int(diag.line, 1, "error line");
    is_int(diag.col, 25, "error column");
    ok(strstr(diag.msg, "expected expression") != NULL, "clang's message kept");
    is_int(ds.errors, 1, "one error reported to on_diag");
    ok(strstr(ds.first, "bad.c:1:25: error:") != NULL, "reported as file:line:col: error:");

    ok(augur_fe_parse(fe, "/nonexistent/k.c", &opts, &s, &diag) == AUGUR_ENOENT,
       "a missing file is ENOENT");
    opts.function = "zzz";
    ok(augur_fe_parse_source(fe, "two.c", two, strlen(two), &opts, &s, &diag) == AUGUR_ENOENT &&
           strstr(diag.msg, "no function 'zzz'"),
       "a missing function is ENOENT");
    opts.function = "b";
    if (ok(augur_fe_parse_source(fe, "two.c", two, strlen(two), &opts, &s, &diag) == 0,
           "--function picks one kernel")) {
        is_int(s->nkernels, 1, "only b");
        is_str(s->kernels[0]->u.kernel.name, "b", "kernel b");
        augur_skel_free(s);
        s = NULL;
    }
    opts.function = NULL;
    if (ok(augur_fe_parse_source(fe, "two.c", two, strlen(two), &opts, &s, &diag) == 0,
           "every kernel by default"))
        is_int(s->nkernels, 2, "a and b");
    augur_skel_free(s);
    s = NULL;
    opts.bind = "y=nosuch.target";
    ok(augur_fe_parse_source(fe, "two.c", two, strlen(two), &opts, &s, &diag) == AUGUR_EBIND,
       "a bad binding is EBIND");
}

static void test_pitfall(struct augur_fe *fe)
{
    static const char src[] = "void k(int n, double *y)\n"
                              "{\n"
                              "#pragma omp parallel for schedule(guided, 4)\n"
                              "    for (int i = 0; i < n; i++)\n"
                              "        for (int j = 0; j < n; j++)\n"
                              "            y[i * n + j] = 0.0;\n"
                              "}\n";
    static const char *const args[] = { "-fopenmp" };
    struct augur_fe_opts opts;
    struct augur_skel *s = NULL;
    struct augur_diag diag;
    const struct augur_node *outer, *inner;

    memset(&opts, 0, sizeof(opts));
    opts.args = args;
    opts.nargs = 1;
    augur_diag_init(&diag);
    if (!ok(augur_fe_parse_source(fe, "omp.c", src, strlen(src), &opts, &s, &diag) == 0,
            "pitfall: parses with -fopenmp given"))
        return;
    outer = find_kind(s, AUGUR_NODE_LOOP, 0);
    inner = find_kind(s, AUGUR_NODE_LOOP, 1);
    ok(outer && inner && inner->parent == outer, "pitfall: both loops are visible, nested");
    if (outer) {
        ok(outer->u.loop.parallel, "pitfall: the outer loop is parallel");
        is_int(outer->u.loop.omp.flags, AUGUR_OMP_PARALLEL | AUGUR_OMP_FOR,
               "pitfall: parallel for");
        is_int(outer->u.loop.omp.sched, AUGUR_SCHED_GUIDED, "pitfall: guided schedule");
        ok(outer->u.loop.omp.chunk && outer->u.loop.omp.chunk->u.i == 4, "pitfall: chunk 4");
    }
    if (inner)
        ok(!inner->u.loop.parallel && inner->u.loop.omp.flags == 0,
           "pitfall: the inner loop has no directive");
    augur_skel_free(s);
}

/* The options of a test file's first RUN line, when it builds a skeleton (NULL otherwise). */
static char *first_run(const char *path)
{
    struct augur_buf buf;
    struct augur_diag diag;
    char *line = NULL, *p;

    augur_buf_init(&buf);
    augur_diag_init(&diag);
    if (augur_file_read(path, 0, &buf, NULL, &diag) == 0 && (p = strstr(buf.s, "RUN: ")) != NULL) {
        char *end = strchr(p, '\n');

        p += 5;
        if (end)
            *end = '\0';
        if (!strncmp(p, "%augur skeleton ", 16) && !strstr(p, "--json") && !strstr(p, " -p "))
            line = augur_strdup(p + 16);
    }
    augur_buf_release(&buf);
    return line;
}

/* Splits "ARGS %s [| ...]" into options and compiler arguments, shell-quote aware. */
static int words(char *s, char **out, int max)
{
    int n = 0;

    while (*s && n < max) {
        char *w, *d;

        while (*s == ' ')
            s++;
        if (!*s || *s == '|')
            break;
        w = d = s;
        while (*s && *s != ' ') {
            if (*s == '\'') {
                for (s++; *s && *s != '\''; s++)
                    *d++ = *s;
                if (*s)
                    s++;
            } else {
                *d++ = *s++;
            }
        }
        if (*s)
            s++;
        *d = '\0';
        out[n++] = w;
    }
    return n;
}

static void round_trip_file(struct augur_fe *fe, const char *dir, const char *name)
{
    char path[1400], label[300];
    char *run, *w[32], *a = NULL, *b2 = NULL;
    const char *cargs[16];
    struct augur_fe_opts opts;
    struct augur_skel *s = NULL, *s2 = NULL;
    struct augur_diag diag;
    int nw, nc = 0;
    bool after = false;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    run = first_run(path);
    if (!run)
        return;
    memset(&opts, 0, sizeof(opts));
    nw = words(run, w, 32);
    for (int i = 0; i < nw; i++) {
        if (after) {
            if (nc < 16)
                cargs[nc++] = w[i];
        } else if (!strcmp(w[i], "--")) {
            after = true;
        } else if (!strcmp(w[i], "--launch") && i + 1 < nw) {
            opts.launch = w[++i];
        } else if (!strcmp(w[i], "--bind") && i + 1 < nw) {
            opts.bind = w[++i];
        } else if (!strcmp(w[i], "--function") && i + 1 < nw) {
            opts.function = w[++i];
        } else if (!strcmp(w[i], "--template") && i + 1 < nw) {
            opts.templ = w[++i];
        } else if (!strcmp(w[i], "--no-shim")) {
            opts.no_shim = true;
        }
    }
    opts.args = cargs;
    opts.nargs = (size_t)nc;
    augur_diag_init(&diag);
    snprintf(label, sizeof(label), "round trip %s", name);
    if (augur_fe_parse(fe, path, &opts, &s, &diag) != 0) {
        ok(0, label);
        diag("%s:%u:%u: %s", diag.file, diag.line, diag.col, diag.msg);
    } else {
        a = format(s);
        if (augur_skel_parse(a, strlen(a), name, &s2, &diag) != 0) {
            ok(0, label);
            diag("%u:%u: %s", diag.line, diag.col, diag.msg);
        } else {
            b2 = format(s2);
            is_str(b2, a, label);
        }
    }
    augur_free(a);
    augur_free(b2);
    augur_skel_free(s);
    augur_skel_free(s2);
    augur_free(run);
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_round_trips(struct augur_fe *fe)
{
    const char *top = getenv("AUGUR_SOURCE_DIR");
    char dir[1024];
    DIR *d;
    struct dirent *e;
    char *names[256];
    size_t n = 0;

    snprintf(dir, sizeof(dir), "%s/tests/frontend", top ? top : ".");
    d = opendir(dir);
    if (!d) {
        skip("no tests/frontend folder (AUGUR_SOURCE_DIR unset)", "round trips");
        return;
    }
    while ((e = readdir(d)) != NULL && n < 256) {
        size_t len = strlen(e->d_name);

        if ((len > 2 && !strcmp(e->d_name + len - 2, ".c")) ||
            (len > 3 && !strcmp(e->d_name + len - 3, ".cu")) ||
            (len > 4 && !strcmp(e->d_name + len - 4, ".cpp")))
            names[n++] = augur_strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof(*names), name_cmp);
    for (size_t i = 0; i < n; i++) {
        round_trip_file(fe, dir, names[i]);
        augur_free(names[i]);
    }
}

int main(void)
{
    struct augur_fe *fe = NULL;
    struct augur_diag diag;

    augur_diag_init(&diag);
    if (!ok(augur_fe_new(&fe, &diag) == 0, "front end created"))
        return tap_done();
    ok(strstr(augur_fe_cuda_shim(), "threadIdx") != NULL, "the CUDA shim is built in");
    test_memory_kernel(fe);
    test_errors(fe);
    test_pitfall(fe);
    test_round_trips(fe);
    augur_fe_free(fe);
    return tap_done();
}
