/*
 * measure.c - augur_measure(): the kernel's arguments from the bound
 * dataset, the generated driver, its compilation and timed run, and the
 * bytes and flops the skeleton interpreter counts on the same data
 * (module: measure).
 */
#define _XOPEN_SOURCE 700 /* realpath() */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measure_int.h"

/* The process environment (POSIX declares it nowhere without _GNU_SOURCE). */
extern char **environ;

#define DRIVER_MAX_REPS  UINT64_C(1000000) /* repetitions the min-time rule may add */
#define OUTPUT_MAX_BYTES ((size_t)64 << 20)
#define SOURCE_MAX_BYTES ((size_t)64 << 20)

/*
 * One value the driver hands over, as generated: an argument of the call (the first nparams),
 * a member of a struct argument, or a variable of the kernel's file the skeleton binds.
 */
struct arg {
    enum { A_NULL, A_ARRAY, A_INT, A_FLOAT, A_STRUCT } kind;
    uint64_t offset, bytes; /* A_ARRAY: where it lies in the blob */
    int64_t i;
    double f;
    int owner;        /* a member: the index of its struct argument; else -1 */
    char *cname;      /* a member's or a file variable's C name; NULL for an argument */
    bool global;      /* a variable of the kernel's file */
    bool fixed;       /* a global array of fixed size: the data are copied into it */
    bool written;     /* an array the kernel stores into */
    bool real;        /* its elements are floating-point (the work check's second look) */
    bool always;      /* ... outside every if */
    bool restore;     /* written, and its values decide branches or addresses: reset each call */
    bool by_value;    /* A_STRUCT: passed by value, not by address */
    bool by_address;  /* A_ARRAY of a T **p parameter the kernel reads as (*p)[i]: &pointer */
    char *ctype;      /* A_STRUCT: the struct type as the declaration writes it */
    uint32_t elem;    /* A_ARRAY: bytes per element */
    const char *name; /* the skeleton's name (borrowed) */
    /*
     * A_ARRAY of pointers (double **rows, one per row into one block): the
     * value holding the block its elements point into, whose element offsets
     * the data give and the driver's setup turns into pointers; -1: none
     */
    int pointee;
    bool vector; /* A_ARRAY passed as a std::vector (ctype), built once from the data */
};

/* Everything one measurement holds while it runs. */
struct job {
    int second_look; /* the work check's second look: 1 changed, 2 failed, 0 none or unchanged */
    const struct augur_skel *skel;
    const struct augur_node *kernel;
    struct augur_bound *data;
    const struct augur_measure_opts *o;
    struct augur_measurement *m;
    char src[PATH_MAX];
    struct rt_sig sig;
    struct arg *args; /* nargs: the parameters first, then members and file variables */
    uint32_t nargs;
    int round_param, level_param;
    int64_t round_offset; /* the round param's value less the round (round - 1: -1) */
    struct augur_buf blob;
    struct augur_buf notes;
    char dir[PATH_MAX];
    bool made_dir;
    char **flags; /* compiler flags (NULL-terminated) */
    size_t nflags;
    char *cc_dir;
    char **cc; /* the kernel's compiler and its own words ($CC may hold several) */
    size_t ncc;
    char **c_cc; /* the driver's: the same for a C kernel, $CC or cc for a C++ one */
    size_t nc_cc;
    bool cxx; /* the kernel's file is C++: compiled as C++, the driver's calls extern "C" */
    bool has_omp;
    /* a schedule override: the copy of the file that runs it, and its name under dir */
    struct augur_buf copy;
    char copy_name[NAME_MAX + 16];
    bool made_copy;
};

static void note(struct job *j, const char *fmt, ...) AUGUR_PRINTF(2, 3);

static void note(struct job *j, const char *fmt, ...)
{
    char line[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    augur_buf_printf(&j->notes, "%s\n", line);
}

static const char *file_of(const struct job *j, uint32_t f)
{
    return f < j->skel->nfiles ? j->skel->files[f] : NULL;
}

/* ---- arguments ------------------------------------------------------------------------------ */

static const struct augur_sym *find_sym(const struct augur_node *k, const char *name)
{
    for (uint32_t i = 0; i < k->u.kernel.nsyms; i++)
        if (k->u.kernel.syms[i].kind == AUGUR_SYM_PARAM && !strcmp(k->u.kernel.syms[i].name, name))
            return &k->u.kernel.syms[i];
    for (uint32_t i = 0; i < k->u.kernel.nsyms; i++)
        if (k->u.kernel.syms[i].kind == AUGUR_SYM_PARAM &&
            augur_skel_name_is(k->u.kernel.syms[i].name, name))
            return &k->u.kernel.syms[i];
    return NULL;
}

static const struct augur_array *find_array(const struct augur_node *k, const char *name)
{
    for (uint32_t i = 0; i < k->u.kernel.narrays; i++)
        if (!strcmp(k->u.kernel.arrays[i].name, name))
            return &k->u.kernel.arrays[i];
    for (uint32_t i = 0; i < k->u.kernel.narrays; i++) /* made unique: "ptr.2" */
        if (augur_skel_name_is(k->u.kernel.arrays[i].name, name))
            return &k->u.kernel.arrays[i];
    return NULL;
}

/* True when the kernel reaches something through parameter name ("g->n", "s.col"). */
static bool reached_through(const struct augur_node *k, const char *name)
{
    size_t n = strlen(name);

    for (uint32_t i = 0; i < k->u.kernel.narrays + k->u.kernel.nsyms; i++) {
        const char *s = i < k->u.kernel.narrays ? k->u.kernel.arrays[i].name
                                                : k->u.kernel.syms[i - k->u.kernel.narrays].name;

        if (!strncmp(s, name, n) && (s[n] == '.' || !strncmp(s + n, "->", 2)))
            return true;
    }
    return false;
}

/* The value --bind gave a parameter outside the skeleton: 1 found, 0 not, < 0 malformed. */
static int given_value(const struct job *j, const char *name, double *v, struct augur_diag *diag)
{
    const char *p = j->o->values;
    size_t n = strlen(name);

    while (p && *p) {
        const char *eq = strchr(p, '='), *end = strchr(p, ',');

        if (!end)
            end = p + strlen(p);
        if (!eq || eq > end || eq == p)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "bad value list '%s': expected NAME=VALUE,...", j->o->values);
        if ((size_t)(eq - p) == n && !strncmp(p, name, n)) {
            char num[64], *stop;
            const char *s = eq + 1;

            if (*s == '=')
                s++; /* NAME==VALUE, as bindings write literals */
            if ((size_t)(end - s) >= sizeof(num) || end == s)
                return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "bad value for '%s'", name);
            memcpy(num, s, (size_t)(end - s));
            num[end - s] = '\0';
            errno = 0;
            *v = strtod(num, &stop);
            if (errno || *stop || !isfinite(*v))
                return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                      "'%s' needs a number, not '%s'", name, num);
            return 1;
        }
        p = *end ? end + 1 : end;
    }
    return 0;
}

/* Every name of the value list must be a parameter the skeleton does not hold. */
static int check_values(struct job *j, struct augur_diag *diag)
{
    const char *p = j->o->values;

    while (p && *p) {
        const char *eq = strchr(p, '='), *end = strchr(p, ',');
        bool found = false;

        if (!end)
            end = p + strlen(p);
        if (!eq || eq > end || eq == p)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "bad value list '%s': expected NAME=VALUE,...", j->o->values);
        for (uint32_t i = 0; i < j->sig.nparams; i++) {
            const char *nm = j->sig.params[i].name;

            found |= nm && strlen(nm) == (size_t)(eq - p) && !strncmp(nm, p, (size_t)(eq - p));
        }
        if (!found)
            return augur_diag_set(diag, AUGUR_EBIND, j->src, j->kernel->loc.line,
                                  j->kernel->loc.col,
                                  "cannot bind '%.*s': no parameter of %s has that name",
                                  (int)(eq - p), p, j->kernel->u.kernel.name);
        p = *end ? end + 1 : end;
    }
    return 0;
}

/* A level array of a search: bfs.level, bfs.level(U) (U the unvisited value), 1-based too. */
static bool is_level(const char *bind)
{
    return bind && (!strcmp(bind, "bfs.level") || !strcmp(bind, "bfs1.level") ||
                    !strncmp(bind, "bfs.level(", 10) || !strncmp(bind, "bfs1.level(", 11));
}

/* The C name behind a skeleton name: without the ".N" that made it unique ("ptr.2"). */
static char *c_name(const char *name)
{
    const char *dot = strrchr(name, '.');
    size_t n = strlen(name);

    if (dot && dot[1] && strspn(dot + 1, "0123456789") == strlen(dot + 1))
        n = (size_t)(dot - name);
    {
        char *c = augur_malloc(n + 1);

        memcpy(c, name, n);
        c[n] = '\0';
        return c;
    }
}

/* True when the subtree of n stores into (or updates) array a. */
/*
 * Whether the kernel stores into array a; with always, only a store outside every if counts.
 * A store under an if depends on the data (a relaxation that finds nothing shorter stores
 * nothing), so a call that changed nothing is an error only for arrays always stored into.
 */
static bool writes(const struct augur_node *n, uint32_t a, bool always)
{
    const struct augur_node *kid;

    if (n->kind == AUGUR_NODE_ACCESS && n->u.access.array == a &&
        n->u.access.mode != AUGUR_ACCESS_READ)
        return true;
    if (always && n->kind == AUGUR_NODE_BRANCH)
        return false;
    augur_node_for_each_kid(n, kid) {
        if (writes(kid, a, always))
            return true;
    }
    return false;
}

/* Whether e reads array a, directly or through a scalar that holds a value read from it. */
static bool expr_reads(const struct augur_expr *e, uint32_t a, const bool *tainted)
{
    if (!e)
        return false;
    switch (e->kind) {
    case AUGUR_EXPR_LOAD:
        return e->u.load.array == a || expr_reads(e->u.load.index, a, tainted);
    case AUGUR_EXPR_SYM:
        return tainted[e->u.sym];
    case AUGUR_EXPR_UNARY:
        return expr_reads(e->u.un.a, a, tainted);
    case AUGUR_EXPR_BINARY:
        return expr_reads(e->u.bin.a, a, tainted) || expr_reads(e->u.bin.b, a, tainted);
    case AUGUR_EXPR_SELECT:
        return expr_reads(e->u.sel.cond, a, tainted) || expr_reads(e->u.sel.a, a, tainted) ||
               expr_reads(e->u.sel.b, a, tainted);
    case AUGUR_EXPR_CAST:
        return expr_reads(e->u.cast.a, a, tainted);
    default:
        return false;
    }
}

/* Marks the scalars set from values of array a; true when it marked a new one. */
static bool taint(const struct augur_node *n, uint32_t a, bool *tainted)
{
    const struct augur_node *kid;
    bool more = false;

    if (n->kind == AUGUR_NODE_ASSIGN && !tainted[n->u.assign.sym] &&
        expr_reads(n->u.assign.value, a, tainted))
        more = tainted[n->u.assign.sym] = true;
    augur_node_for_each_kid(n, kid) {
        more |= taint(kid, a, tainted);
    }
    return more;
}

/* Whether a value of array a decides a branch, a loop's bounds or an address under n. */
static bool decides(const struct augur_node *n, uint32_t a, const bool *tainted)
{
    const struct augur_node *kid;

    if (n->kind == AUGUR_NODE_BRANCH && expr_reads(n->u.branch.cond, a, tainted))
        return true;
    if (n->kind == AUGUR_NODE_LOOP &&
        (expr_reads(n->u.loop.init, a, tainted) || expr_reads(n->u.loop.cond, a, tainted) ||
         expr_reads(n->u.loop.next, a, tainted)))
        return true;
    if (n->kind == AUGUR_NODE_ACCESS &&
        (expr_reads(n->u.access.index, a, tainted) || expr_reads(n->u.access.mask, a, tainted)))
        return true;
    augur_node_for_each_kid(n, kid) {
        if (decides(kid, a, tainted))
            return true;
    }
    return false;
}

/*
 * Whether the kernel's own stores into array a change what its next call does: a value of a
 * decides one of its branches, loop bounds or addresses (a BFS's visited check, union-find's
 * parents), so that a call after the warm-up would do other work than the first.
 */
static bool feeds_back(const struct augur_node *k, uint32_t a)
{
    bool *tainted = augur_calloc(k->u.kernel.nsyms + 1, sizeof(*tainted)), yes;

    if (!tainted)
        return true; /* out of memory: restoring is the safe side */
    while (taint(k, a, tainted))
        ;
    yes = decides(k, a, tainted);
    augur_free(tainted);
    return yes;
}

/* A new value for the driver, after the parameters; returns its index. */
static uint32_t add_arg(struct job *j)
{
    j->args = augur_reallocarray(j->args, (size_t)j->nargs + 1, sizeof(*j->args));
    memset(&j->args[j->nargs], 0, sizeof(j->args[j->nargs]));
    j->args[j->nargs].owner = -1;
    j->args[j->nargs].pointee = -1;
    return j->nargs++;
}

/* Puts the data of array A (bound) into the blob as value g; *count is its elements. */
static int array_arg(struct job *j, int pi, const struct augur_array *A, struct arg *g,
                     uint64_t *count, struct augur_diag *diag)
{
    uint64_t bytes, at;
    int64_t round = 0;
    int rc;

    if (!A->bind) {
        char hint[256], bname[128];

        augur_skel_bind_hint(j->kernel, A->name, hint, sizeof(hint));
        augur_skel_bind_name(A->name, bname, sizeof(bname));
        return augur_diag_set(diag, AUGUR_EBIND, file_of(j, A->loc.file), A->loc.line, A->loc.col,
                              "array '%s' of kernel %s is not bound to the dataset: bind it with "
                              "--bind %s=TARGET (%s)",
                              A->name, j->kernel->u.kernel.name, bname, hint);
    }
    rc = augur_bound_array_count(j->data, A->bind, count, diag);
    if (rc)
        goto fail;
    if (augur_mul_overflows(*count, A->elem_size ? A->elem_size : 1, &bytes) ||
        bytes > (UINT64_C(1) << 40))
        return augur_diag_set(diag, AUGUR_ELIMIT, file_of(j, A->loc.file), A->loc.line, A->loc.col,
                              "array '%s' (%s) would take more than 1 TiB", A->name, A->bind);
    at = (j->blob.len + 63) & ~(uint64_t)63;
    augur_buf_reserve(&j->blob, (size_t)(at - j->blob.len + bytes));
    memset(j->blob.s + j->blob.len, 0, (size_t)(at - j->blob.len));
    j->blob.len = (size_t)at;
    if (is_level(A->bind) && pi >= 0) {
        j->level_param = pi;
        if (j->round_param >= 0)
            round = 1; /* a whole search starts from the source alone */
    }
    rc = augur_bound_array_fill(j->data, A, A->bind, round, *count, j->blob.s + at, diag);
    if (rc)
        goto fail;
    j->blob.len += (size_t)bytes;
    j->blob.s[j->blob.len] = '\0';
    g->kind = A_ARRAY;
    /* double **result written as (*result)[i]: the array's elements are the doubles */
    g->by_address = pi >= 0 && strchr(j->sig.params[pi].decl, '*') &&
                    strchr(strchr(j->sig.params[pi].decl, '*') + 1, '*') && A->elem != AUGUR_T_PTR;
    g->offset = at;
    g->bytes = bytes;
    g->elem = A->elem_size ? A->elem_size : 1;
    g->written = writes(j->kernel, (uint32_t)(A - j->kernel->u.kernel.arrays), false);
    g->real = augur_type_is_float(A->elem);
    g->always = writes(j->kernel, (uint32_t)(A - j->kernel->u.kernel.arrays), true);
    g->restore = g->written && feeds_back(j->kernel, (uint32_t)(A - j->kernel->u.kernel.arrays));
    g->name = A->name;
    return 0;
fail : {
    char msg[sizeof(diag->msg)];

    snprintf(msg, sizeof(msg), "%s", diag ? diag->msg : "");
    return augur_diag_set(diag, rc, file_of(j, A->loc.file), A->loc.line, A->loc.col,
                          "array '%s': %s", A->name, msg);
}
}

/* The value of a bound scalar sym into g; what describes it. */
static int scalar_arg(struct job *j, const struct augur_sym *s, struct arg *g, char *what,
                      size_t size, struct augur_diag *diag)
{
    double v;

    if (!s->bind) {
        char hint[256], bname[128];

        augur_skel_bind_hint(j->kernel, s->name, hint, sizeof(hint));
        augur_skel_bind_name(s->name, bname, sizeof(bname));
        return augur_diag_set(diag, AUGUR_EBIND, file_of(j, s->loc.file), s->loc.line, s->loc.col,
                              "scalar '%s' of kernel %s is not bound: bind it with --bind "
                              "%s=VALUE (%s)",
                              s->name, j->kernel->u.kernel.name, bname, hint);
    }
    if (!strcmp(s->bind, "nthreads")) {
        v = j->m->threads;
    } else {
        int rc = augur_bound_scalar(j->data, s->bind, &v, diag);

        if (rc) {
            char msg[sizeof(diag->msg)];

            snprintf(msg, sizeof(msg), "%s", diag ? diag->msg : "");
            return augur_diag_set(diag, rc, file_of(j, s->loc.file), s->loc.line, s->loc.col,
                                  "scalar '%s': %s", s->name, msg);
        }
    }
    snprintf(what, size, "%s (%.15g)", s->bind, v);
    if (augur_type_is_float(s->type)) {
        g->kind = A_FLOAT;
        g->f = v;
    } else {
        g->kind = A_INT;
        g->i = v >= 9223372036854775808.0 ? (int64_t)(uint64_t)v : (int64_t)v;
    }
    g->name = s->name;
    return 0;
}

/* The member name when name is "P->m" or "P.m" for parameter P; NULL otherwise. */
static const char *member_of(const char *name, const char *param)
{
    size_t n = strlen(param);

    if (strncmp(name, param, n) != 0)
        return NULL;
    if (name[n] == '.')
        return name + n + 1;
    if (name[n] == '-' && name[n + 1] == '>')
        return name + n + 2;
    return NULL;
}

/*
 * The struct type of a struct parameter as its declaration writes it: the declaration without
 * the name, one '*' and the qualifiers ("const sparse_cs *restrict A" -> "sparse_cs").
 */
static char *struct_type(const struct rt_param *p)
{
    static const char *const drop[] = { "const",      "volatile",     "restrict",
                                        "__restrict", "__restrict__", NULL };
    struct augur_buf b;
    const char *d = p->decl;
    bool star = false;

    augur_buf_init(&b);
    while (*d) {
        size_t n = 0;
        bool skip = false;

        if (*d == ' ') {
            d++;
            continue;
        }
        if (*d == '*') {
            if (star || !p->pointer)
                augur_buf_puts(&b, " *");
            star = true;
            d++;
            continue;
        }
        if (*d == '&') { /* a C++ reference: the struct itself is passed */
            d++;
            continue;
        }
        while (d[n] && d[n] != ' ' && d[n] != '*' && d[n] != '&')
            n++;
        for (int k = 0; drop[k]; k++)
            skip |= strlen(drop[k]) == n && !strncmp(d, drop[k], n);
        skip |= strlen(p->name) == n && !strncmp(d, p->name, n);
        if (!skip) {
            if (b.len)
                augur_buf_putc(&b, ' ');
            augur_buf_add(&b, d, n);
        }
        d += n;
    }
    return augur_buf_detach(&b, NULL);
}

/*
 * The array whose block A is ("rows.pointee" of rows, the front end's name for what
 * rows[i][k] reads): an array of pointers, or (rec) the headers of a std::vector of
 * vectors; -1 if none.
 */
static int32_t holder_of(const struct augur_node *k, const struct augur_array *A, bool rec)
{
    size_t n = strlen(A->name);

    if (n <= 8 || strcmp(A->name + n - 8, ".pointee") != 0)
        return -1;
    for (uint32_t i = 0; i < k->u.kernel.narrays; i++)
        if (strlen(k->u.kernel.arrays[i].name) == n - 8 &&
            !strncmp(k->u.kernel.arrays[i].name, A->name, n - 8) &&
            k->u.kernel.arrays[i].elem == (rec ? AUGUR_T_REC : AUGUR_T_PTR))
            return (int32_t)i;
    return -1;
}

/* The array of pointers whose block A is, or -1 (holder_of()). */
static int32_t pointee_of(const struct augur_node *k, const struct augur_array *A)
{
    return holder_of(k, A, false);
}

/*
 * The blocks of the arrays of pointers: each a value of its own, which the pointers' value
 * (the rows' element offsets, as the data give them) points into once the setup has run.
 */
static int pointer_blocks(struct job *j, struct augur_diag *diag)
{
    const struct augur_node *k = j->kernel;

    for (uint32_t i = 0; i < k->u.kernel.narrays; i++) {
        const struct augur_array *A = &k->u.kernel.arrays[i];
        int32_t r = pointee_of(k, A), v = holder_of(k, A, true);
        int64_t holder = -1;

        /* a std::vector of vectors passed to the kernel: its rows are built from the block */
        for (uint32_t x = 0; v >= 0 && x < j->sig.nparams && holder < 0; x++)
            if (j->args[x].vector && !j->args[x].written &&
                !strcmp(j->args[x].name, k->u.kernel.arrays[v].name))
                holder = x;
        if (v >= 0 && holder < 0)
            return augur_diag_set(diag, AUGUR_EUNSUP, file_of(j, A->loc.file), A->loc.line,
                                  A->loc.col,
                                  "'%s': augur measure builds a std::vector of vectors that is a "
                                  "parameter the kernel reads, not this one; time the kernel "
                                  "through a function that builds it",
                                  k->u.kernel.arrays[v].name);
        if (v >= 0)
            r = v;
        uint64_t count;
        uint32_t g;
        int rc;

        if (r < 0)
            continue;
        for (uint32_t x = 0; x < j->nargs && holder < 0; x++)
            if (j->args[x].kind == A_ARRAY && j->args[x].name &&
                !strcmp(j->args[x].name, k->u.kernel.arrays[r].name))
                holder = x;
        if (holder < 0)
            continue; /* the pointers are not passed: nothing reads the block */
        if ((v < 0 && j->args[holder].elem != 8) || j->args[holder].written)
            return augur_diag_set(diag, AUGUR_EUNSUP, file_of(j, A->loc.file), A->loc.line,
                                  A->loc.col,
                                  "'%s': augur measure builds arrays of pointers the kernel "
                                  "reads, of 8-byte pointers",
                                  k->u.kernel.arrays[r].name);
        g = add_arg(j); /* no argument, member or variable: the pointers' block alone */
        rc = array_arg(j, -1, A, &j->args[g], &count, diag);
        if (rc)
            return rc;
        j->args[holder].pointee = (int)g;
        note(j, "'%s' points into '%s' (%s, %" PRIu64 " elements) at the rows %s starts",
             k->u.kernel.arrays[r].name, A->name, A->bind, count, k->u.kernel.arrays[r].bind);
    }
    return 0;
}

/*
 * A struct parameter (pi) whose members the skeleton reaches: every reached member becomes a
 * value the driver sets before the call ("A->p" bound to csc.colptr, "A->n" to n); members the
 * skeleton does not reach stay zero.
 */
static int struct_arg(struct job *j, uint32_t pi, struct augur_measure_arg *ma,
                      struct augur_diag *diag)
{
    const struct augur_node *k = j->kernel;
    const struct rt_param *p = &j->sig.params[pi];
    struct augur_buf what;
    int rc = 0;

    j->args[pi].kind = A_STRUCT;
    j->args[pi].by_value = !p->pointer;
    j->args[pi].ctype = struct_type(p);
    if (strstr(p->decl, "**") || strchr(p->decl, '[') || !j->args[pi].ctype[0])
        return augur_diag_set(diag, AUGUR_EUNSUP, j->src, p->line, p->col,
                              "parameter '%s' of %s ('%s'): augur measure builds a struct "
                              "passed by value or by one pointer, not this",
                              p->name, k->u.kernel.name, p->decl);
    augur_buf_init(&what);
    augur_buf_printf(&what, "struct %s", j->args[pi].ctype);
    for (uint32_t i = 0; i < k->u.kernel.narrays + k->u.kernel.nsyms && !rc; i++) {
        bool is_array = i < k->u.kernel.narrays;
        const char *name =
            is_array ? k->u.kernel.arrays[i].name : k->u.kernel.syms[i - k->u.kernel.narrays].name;
        const char *member = member_of(name, p->name);
        uint32_t g;
        uint64_t count;
        char desc[128];

        if (!member || (is_array && (pointee_of(k, &k->u.kernel.arrays[i]) >= 0 ||
                                     holder_of(k, &k->u.kernel.arrays[i], true) >= 0)))
            continue;
        {
            char *c = c_name(member);
            bool nested = strchr(c, '.') || strstr(c, "->");

            augur_free(c);
            if (nested) {
                rc = augur_diag_set(diag, AUGUR_EUNSUP, j->src, p->line, p->col,
                                    "'%s': augur measure sets a struct argument's own members, "
                                    "not members of members",
                                    name);
                break;
            }
        }
        g = add_arg(j);
        j->args[g].owner = (int)pi;
        j->args[g].cname = c_name(member);
        if (is_array) {
            const struct augur_array *A = &k->u.kernel.arrays[i];

            if (A->space != AUGUR_SPACE_GLOBAL)
                continue;
            rc = array_arg(j, -1, A, &j->args[g], &count, diag);
            snprintf(desc, sizeof(desc), "%s (%" PRIu64 " elements)", A->bind ? A->bind : "?",
                     count);
        } else {
            rc = scalar_arg(j, &k->u.kernel.syms[i - k->u.kernel.narrays], &j->args[g], desc,
                            sizeof(desc), diag);
        }
        if (!rc)
            augur_buf_printf(&what, ", .%s = %s", j->args[g].cname, desc);
    }
    ma->what = augur_buf_detach(&what, NULL);
    ma->pointer = p->pointer;
    ma->in_skeleton = true;
    return rc;
}

/*
 * Variables of the kernel's file that the skeleton binds (file-scope arrays and scalars,
 * statics included): values the driver sets before the first call, since the kernel's file is
 * compiled into the driver.
 */
static int file_vars(struct job *j, struct augur_diag *diag)
{
    const struct augur_node *k = j->kernel;
    int rc;

    for (uint32_t i = 0; i < k->u.kernel.narrays; i++) {
        const struct augur_array *A = &k->u.kernel.arrays[i];
        uint64_t count;
        uint32_t g;

        if (A->space != AUGUR_SPACE_GLOBAL || A->param || pointee_of(k, A) >= 0 ||
            holder_of(k, A, true) >= 0)
            continue;
        if (!A->bind) {
            note(j,
                 "array '%s' is a variable of the file and not bound: the run uses its own "
                 "contents",
                 A->name);
            continue;
        }
        g = add_arg(j);
        j->args[g].global = true;
        j->args[g].cname = c_name(A->name);
        j->args[g].fixed = A->extent != NULL;
        rc = array_arg(j, -1, A, &j->args[g], &count, diag);
        if (rc)
            return rc;
        note(j, "variable '%s' of the file is set to %s (%" PRIu64 " elements)", j->args[g].cname,
             A->bind, count);
    }
    for (uint32_t i = 0; i < k->u.kernel.nsyms; i++) {
        const struct augur_sym *s = &k->u.kernel.syms[i];
        bool in_sig = false;
        char what[128];
        uint32_t g;

        if (s->kind != AUGUR_SYM_PARAM || strchr(s->name, '>') ||
            (strchr(s->name, '.') && !augur_skel_name_is(s->name, s->name)))
            continue;
        for (uint32_t p = 0; p < j->sig.nparams; p++) {
            const char *nm = j->sig.params[p].name;

            in_sig |= nm && (augur_skel_name_is(s->name, nm) || member_of(s->name, nm));
        }
        if (in_sig)
            continue;
        g = add_arg(j);
        j->args[g].global = true;
        j->args[g].cname = c_name(s->name);
        rc = scalar_arg(j, s, &j->args[g], what, sizeof(what), diag);
        if (rc)
            return rc;
        note(j, "variable '%s' of the file is set to %s", j->args[g].cname, what);
    }
    return 0;
}

static int build_args(struct job *j, struct augur_diag *diag)
{
    const struct augur_node *k = j->kernel;
    struct augur_measurement *m = j->m;
    int rc;

    j->nargs = j->sig.nparams;
    j->args = augur_calloc(j->sig.nparams + 1, sizeof(*j->args));
    for (uint32_t i = 0; i < j->nargs; i++)
        j->args[i].owner = j->args[i].pointee = -1;
    m->args = augur_calloc(j->sig.nparams + 1, sizeof(*m->args));
    m->nargs = j->sig.nparams;
    j->round_param = j->level_param = -1;
    /* is it round-based? a round scalar and a bfs.level array among the parameters */
    for (uint32_t i = 0; i < j->sig.nparams; i++) {
        const char *nm = j->sig.params[i].name;
        const struct augur_sym *s = nm ? find_sym(k, nm) : NULL;

        if (s && augur_bind_uses_round(s->bind)) {
            double v1 = 1;

            j->round_param = (int)i;
            /* round - 1 and the like: the driver sets r + offset in round r */
            if (strcmp(s->bind, "round") != 0 &&
                augur_bound_scalar(j->data, s->bind, &v1, NULL) == 0)
                j->round_offset = (int64_t)v1 - 1;
        }
    }
    if (j->round_param >= 0) {
        bool level = false;

        for (uint32_t i = 0; i < j->sig.nparams; i++) {
            const char *nm = j->sig.params[i].name;
            const struct augur_array *A = nm ? find_array(k, nm) : NULL;

            level |= A && is_level(A->bind);
        }
        if (!level)
            j->round_param = -1;
    }
    for (uint32_t i = 0; i < j->sig.nparams; i++) {
        const struct rt_param *p = &j->sig.params[i];
        struct augur_measure_arg *ma = &m->args[i];
        struct arg *g = &j->args[i];
        const struct augur_sym *s = p->name ? find_sym(k, p->name) : NULL;
        const struct augur_array *A = p->name ? find_array(k, p->name) : NULL;
        double v = 0;

        ma->name = augur_strdup(p->name ? p->name : "?");
        if (p->name && !A && !s && reached_through(k, p->name) && !strchr(p->decl, '(') &&
            strcmp(p->decl, "...") != 0) {
            rc = struct_arg(j, i, ma, diag);
            if (rc)
                return rc;
            continue;
        }
        if (!p->name || p->aggregate || (p->name && reached_through(k, p->name) && !A && !s))
            return augur_diag_set(diag, AUGUR_EUNSUP, j->src, p->line, p->col,
                                  "parameter %" PRIu32 " of %s ('%s') is not an array, a number "
                                  "or a struct of them: augur measure cannot pass it",
                                  i + 1, k->u.kernel.name, p->decl);
        if (!p->pointer && (strstr(p->decl, "vector<") || strstr(p->decl, "array<"))) {
            uint64_t count;

            /* a C++ container the kernel indexes: a std::vector built from the data */
            if (!A || A->space != AUGUR_SPACE_GLOBAL || !strstr(p->decl, "std::vector<"))
                return augur_diag_set(diag, AUGUR_EUNSUP, j->src, p->line, p->col,
                                      "parameter '%s' of %s ('%s'): augur measure builds a "
                                      "std::vector the kernel indexes, not this container",
                                      p->name, k->u.kernel.name, p->decl);
            ma->in_skeleton = true;
            rc = array_arg(j, (int)i, A, g, &count, diag);
            if (rc)
                return rc;
            g->vector = true;
            g->ctype = struct_type(p);
            ma->elements = count;
            ma->elem_size = A->elem_size;
            ma->what = augur_strdup(A->bind);
            continue;
        }
        if (p->pointer && A && A->space == AUGUR_SPACE_GLOBAL) {
            uint64_t count;

            ma->in_skeleton = true;
            rc = array_arg(j, (int)i, A, g, &count, diag);
            if (rc)
                return rc;
            ma->pointer = true;
            ma->elements = count;
            ma->elem_size = A->elem_size;
            ma->what = augur_strdup(A->bind);
            continue;
        }
        if (p->pointer && s)
            return augur_diag_set(diag, AUGUR_EUNSUP, j->src, p->line, p->col,
                                  "parameter '%s' of %s points to a scalar the kernel reads: "
                                  "augur measure passes arrays and scalars only",
                                  p->name, k->u.kernel.name);
        if (p->pointer) {
            g->kind = A_NULL;
            ma->pointer = true;
            ma->what = augur_strdup("NULL");
            note(j, "parameter '%s' is not accessed in the skeleton: passed as NULL", p->name);
            continue;
        }
        if (s) {
            char what[128];

            ma->in_skeleton = true;
            rc = scalar_arg(j, s, g, what, sizeof(what), diag);
            if (rc)
                return rc;
            ma->what = augur_strdup(what);
            continue;
        }
        rc = given_value(j, p->name, &v, diag);
        if (rc < 0)
            return rc;
        if (rc == 0) {
            v = p->floating ? 0.5 : 1;
            note(j,
                 "parameter '%s' is not in the skeleton (it does not steer addresses or control): "
                 "passed %g (give another with --bind %s=VALUE)",
                 p->name, v, p->name);
        }
        {
            char what[64];

            snprintf(what, sizeof(what), "=%.15g", v);
            ma->what = augur_strdup(what);
        }
        if (p->floating || v != floor(v) || fabs(v) >= 9.2e18) {
            g->kind = A_FLOAT;
            g->f = v;
        } else {
            g->kind = A_INT;
            g->i = (int64_t)v;
        }
    }
    rc = file_vars(j, diag);
    return rc ? rc : pointer_blocks(j, diag);
}

/* ---- the working folder --------------------------------------------------------------------- */

static int write_file(struct job *j, const char *name, const void *data, size_t len,
                      struct augur_diag *diag)
{
    char path[PATH_MAX + 32];
    FILE *fp;
    bool ok;

    snprintf(path, sizeof(path), "%s/%s", j->dir, name);
    fp = fopen(path, "wb");
    if (!fp)
        return augur_diag_set(diag, AUGUR_EIO, path, 0, 0, "cannot write: %s", strerror(errno));
    ok = fwrite(data, 1, len, fp) == len;
    ok &= fclose(fp) == 0;
    if (!ok)
        return augur_diag_set(diag, AUGUR_EIO, path, 0, 0, "cannot write: %s", strerror(errno));
    return 0;
}

static const char *const work_files[] = { "data.bin", "kernel.c", "driver.c",
                                          "kernel.o", "driver.o", "driver" };

static void remove_dir(struct job *j)
{
    char path[PATH_MAX + 32];

    if (!j->made_dir)
        return;
    for (size_t i = 0; i < sizeof(work_files) / sizeof(work_files[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", j->dir, work_files[i]);
        unlink(path);
    }
    for (size_t k = 0; k < j->o->nlinks; k++) {
        snprintf(path, sizeof(path), "%s/link%zu.o", j->dir, k);
        unlink(path);
    }
    if (j->made_copy) {
        char copy[sizeof(j->dir) + sizeof(j->copy_name)];

        snprintf(copy, sizeof(copy), "%s/%s", j->dir, j->copy_name);
        unlink(copy);
        snprintf(path, sizeof(path), "%s/source", j->dir);
        rmdir(path);
    }
    rmdir(j->dir);
    j->made_dir = false;
}

static int make_dir(struct job *j, struct augur_diag *diag)
{
    const char *base = j->o->tmpdir ? j->o->tmpdir : getenv("TMPDIR");

    if (!base || !*base)
        base = "/tmp";
    if ((size_t)snprintf(j->dir, sizeof(j->dir), "%s/augur-measure-XXXXXX", base) >= sizeof(j->dir))
        return augur_diag_set(diag, AUGUR_EIO, base, 0, 0, "folder name too long");
    if (!mkdtemp(j->dir))
        return augur_diag_set(diag, AUGUR_EIO, base, 0, 0, "cannot make a working folder: %s",
                              strerror(errno));
    j->made_dir = true;
    return 0;
}

/* ---- the driver ----------------------------------------------------------------------------- */

/* The C lvalue that value x of the driver sets: a file variable, or a member of struct y. */
static void lvalue(const struct job *j, uint32_t x, struct augur_buf *b)
{
    const struct arg *g = &j->args[x];

    if (g->owner >= 0)
        augur_buf_printf(b, "augur_s%d.%s", g->owner, g->cname);
    else
        augur_buf_puts(b, g->cname);
}

/* Sets value x (a member or a file variable) from the driver's arrays. */
static void gen_set(const struct job *j, uint32_t x, struct augur_buf *b)
{
    const struct arg *g = &j->args[x];
    struct augur_buf lv;

    augur_buf_init(&lv);
    lvalue(j, x, &lv);
    if (g->kind == A_ARRAY && g->fixed) {
        augur_buf_printf(b,
                         "    if (sizeof(%s) < %" PRIu64 "ULL) {\n"
                         "        fprintf(stderr, \"array '%s' of the file holds %%zu bytes; the "
                         "data need %" PRIu64 "\\n\", sizeof(%s));\n"
                         "        exit(5);\n"
                         "    }\n"
                         "    memcpy(%s, augur_a[%" PRIu32 "], %" PRIu64 "ULL);\n",
                         lv.s, g->bytes, g->cname, g->bytes, lv.s, lv.s, x, g->bytes);
    } else if (g->kind == A_ARRAY) {
        augur_buf_printf(b, "    %s = (__typeof__(%s))augur_a[%" PRIu32 "];\n", lv.s, lv.s, x);
    } else if (g->kind == A_INT) {
        augur_buf_printf(b, "    %s = (__typeof__(%s))augur_i[%" PRIu32 "];\n", lv.s, lv.s, x);
    } else if (g->kind == A_FLOAT) {
        augur_buf_printf(b, "    %s = (__typeof__(%s))augur_f[%" PRIu32 "];\n", lv.s, lv.s, x);
    }
    augur_buf_release(&lv);
}

/* Names the arrays the driver resets before each timed call, and why. */
static void note_restored(struct job *j)
{
    struct augur_buf names;

    augur_buf_init(&names);
    for (uint32_t x = 0; x < j->nargs; x++)
        if (j->args[x].kind == A_ARRAY && j->args[x].restore)
            augur_buf_printf(&names, "%s'%s'", names.len ? ", " : "", j->args[x].name);
    if (names.len)
        note(j,
             "%s restored to the data's values before each timed call: the kernel stores into "
             "them and their values decide its branches, loop bounds or addresses, so a call "
             "after the warm-up would do other work than the one predicted",
             names.s);
    augur_buf_release(&names);
}

/*
 * The kernel's translation unit: the user's file (its main renamed) and three functions the
 * driver calls: setup (the file's variables, once), written (where the arrays the kernel stores
 * into lie, for the work check) and call (the struct arguments, then the kernel).
 */
static void gen_kernel_tu(struct job *j, struct augur_buf *b)
{
    const char *name = j->kernel->u.kernel.name;
    struct augur_buf cxx;

    augur_buf_init(&cxx);
    if (j->cxx) {
        augur_buf_puts(&cxx, "}\n\n"
                             "/* C++ converts void * to no other pointer by itself */\n"
                             "struct augur_any {\n"
                             "    void *p;\n"
                             "    template <class T> operator T *() const\n"
                             "    {\n"
                             "        return static_cast<T *>(p);\n"
                             "    }\n"
                             "};\n");
        /* a struct's array member: a pointer set to the data, or a std::vector filled */
        augur_buf_puts(&cxx,
                       "#include <vector>\n"
                       "template <class T> static void augur_set(T *&m, void *p, unsigned long "
                       "long)\n"
                       "{\n    m = static_cast<T *>(p);\n}\n"
                       "template <class T, class A>\n"
                       "static void augur_set(std::vector<T, A> &m, void *p, unsigned long long "
                       "n)\n"
                       "{\n    m.assign(static_cast<T *>(p), static_cast<T *>(p) + n);\n}\n"
                       "template <class T> static void *augur_data(T *m)\n"
                       "{\n    return (void *)m;\n}\n"
                       "template <class T, class A> static void *augur_data(std::vector<T, A> &m)\n"
                       "{\n    return m.data();\n}\n");
        for (uint32_t x = 0; x < j->sig.nparams; x++) {
            if (j->args[x].vector)
                augur_buf_printf(&cxx,
                                 "typedef %s augur_ct%" PRIu32 ";\n"
                                 "static augur_ct%" PRIu32 " *augur_c%" PRIu32 ";\n",
                                 j->args[x].ctype, x, x, x);
            /* C++: the struct arguments are built once (their members may be containers) */
            if (j->args[x].kind == A_STRUCT)
                augur_buf_printf(&cxx, "static %s augur_s%" PRIu32 ";\n", j->args[x].ctype, x);
        }
    }

    augur_buf_printf(b,
                     "/* generated by augur measure: %s of %s, its main renamed, and the call */\n"
                     "#pragma GCC diagnostic ignored \"-Wmissing-%s\"\n"
                     "#define main augur_user_main\n"
                     "#include \"%s\"\n"
                     "#undef main\n"
                     "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
                     "%s"
                     "extern volatile int augur_drv_sink;\n"
                     "void augur_drv_setup(void *const *augur_a, const long long *augur_i,\n"
                     "                     const double *augur_f);\n"
                     "unsigned augur_drv_written(void *const *augur_a, void **where,\n"
                     "                           unsigned long long *bytes, unsigned *elem,\n"
                     "                           unsigned char *real, unsigned char *restore);\n"
                     "void augur_drv_call(void *const *augur_a, const long long *augur_i,\n"
                     "                    const double *augur_f);\n%s\n"
                     "void augur_drv_setup(void *const *augur_a, const long long *augur_i,\n"
                     "                     const double *augur_f)\n"
                     "{\n"
                     "    (void)augur_a;\n    (void)augur_i;\n    (void)augur_f;\n",
                     name, j->src, j->cxx ? "declarations" : "prototypes",
                     j->copy_name[0] ? j->copy_name : j->src,
                     j->cxx ? "/* C++: the driver, in C, calls these three */\n"
                              "extern \"C\" {\n"
                            : "",
                     cxx.len ? cxx.s : "");
    augur_buf_release(&cxx);
    /* std::vector arguments: built once, from the data (the kernel's stores land in them); a
       vector of vectors row by row, each from the block at its start, its length long */
    for (uint32_t x = 0; x < j->sig.nparams; x++)
        if (j->args[x].vector && j->args[x].pointee >= 0)
            augur_buf_printf(
                b,
                "    augur_c%" PRIu32 " = new augur_ct%" PRIu32 "(%" PRIu64 "ULL);\n"
                "    for (unsigned long long r = 0; r < %" PRIu64 "ULL; r++) {\n"
                "        typedef augur_ct%" PRIu32 "::value_type::value_type T;\n"
                "        unsigned long long s, len;\n\n"
                "        memcpy(&s, (char *)augur_a[%" PRIu32 "] + %" PRIu32 " * r, 8);\n"
                "        memcpy(&len, (char *)augur_a[%" PRIu32 "] + %" PRIu32 " * r + 8, 8);\n"
                "        (*augur_c%" PRIu32 ")[r].assign((T *)augur_a[%d] + s, "
                "(T *)augur_a[%d] + s + len);\n"
                "    }\n",
                x, x, j->args[x].bytes / j->args[x].elem, j->args[x].bytes / j->args[x].elem, x, x,
                j->args[x].elem, x, j->args[x].elem, x, j->args[x].pointee, j->args[x].pointee);
        else if (j->args[x].vector)
            augur_buf_printf(b,
                             "    augur_c%" PRIu32 " = new augur_ct%" PRIu32 "((augur_ct%" PRIu32
                             "::value_type *)augur_a[%" PRIu32 "],\n"
                             "        (augur_ct%" PRIu32 "::value_type *)augur_a[%" PRIu32
                             "] + %" PRIu64 "ULL);\n",
                             x, x, x, x, x, x, j->args[x].bytes / j->args[x].elem);
    /* the arrays of pointers: each row's offset in the block becomes its address there */
    for (uint32_t x = 0; x < j->nargs; x++) {
        const struct arg *g = &j->args[x];

        if (g->kind != A_ARRAY || g->pointee < 0 || g->vector)
            continue;
        augur_buf_printf(b,
                         "    for (unsigned long long k = 0; k < %" PRIu64 "ULL; k++) {\n"
                         "        unsigned long long off;\n"
                         "        char *row;\n\n"
                         "        memcpy(&off, (char *)augur_a[%" PRIu32 "] + 8 * k, 8);\n"
                         "        row = (char *)augur_a[%d] + off * %" PRIu32 "ULL;\n"
                         "        memcpy((char *)augur_a[%" PRIu32 "] + 8 * k, &row, 8);\n"
                         "    }\n",
                         g->bytes / 8, x, g->pointee, j->args[g->pointee].elem, x);
    }
    for (uint32_t x = j->sig.nparams; x < j->nargs; x++) {
        const struct arg *g = &j->args[x];

        if (g->global || (j->cxx && g->owner >= 0 && g->kind != A_ARRAY))
            gen_set(j, x, b);
        else if (j->cxx && g->owner >= 0)
            augur_buf_printf(b,
                             "    augur_set(augur_s%d.%s, augur_a[%" PRIu32 "], %" PRIu64 "ULL);\n",
                             g->owner, g->cname, x, g->bytes / g->elem);
    }
    augur_buf_puts(b, "}\n\n"
                      "unsigned augur_drv_written(void *const *augur_a, void **where,\n"
                      "                           unsigned long long *bytes, unsigned *elem,\n"
                      "                           unsigned char *real, unsigned char *restore)\n"
                      "{\n"
                      "    unsigned n = 0;\n\n"
                      "    (void)augur_a;\n    (void)where;\n    (void)bytes;\n    (void)elem;\n"
                      "    (void)real;\n    (void)restore;\n");
    for (uint32_t x = 0; x < j->nargs; x++) {
        const struct arg *g = &j->args[x];

        if (g->kind != A_ARRAY || !g->written)
            continue;
        if (g->fixed)
            augur_buf_printf(b, "    where[n] = (void *)%s;\n", g->cname);
        else if (g->vector)
            augur_buf_printf(b, "    where[n] = augur_c%" PRIu32 "->data();\n", x);
        else if (j->cxx && g->owner >= 0)
            augur_buf_printf(b, "    where[n] = augur_data(augur_s%d.%s);\n", g->owner, g->cname);
        else
            augur_buf_printf(b, "    where[n] = augur_a[%" PRIu32 "];\n", x);
        augur_buf_printf(b,
                         "    bytes[n] = %" PRIu64 "ULL;\n    real[n] = %d;\n    restore[n] = %d;\n"
                         "    elem[n++] = %" PRIu32 ";\n",
                         g->bytes, g->real, g->restore, g->elem);
    }
    augur_buf_puts(b, "    return n;\n}\n\n"
                      "void augur_drv_call(void *const *augur_a, const long long *augur_i,\n"
                      "                    const double *augur_f)\n"
                      "{\n");
    for (uint32_t i = 0; i < j->sig.nparams; i++)
        if (j->args[i].kind == A_STRUCT && !j->cxx)
            augur_buf_printf(b, "    %s augur_s%" PRIu32 ";\n", j->args[i].ctype, i);
    augur_buf_puts(b, "\n    (void)augur_a;\n    (void)augur_i;\n    (void)augur_f;\n");
    for (uint32_t i = 0; i < j->sig.nparams; i++) {
        if (j->args[i].kind != A_STRUCT || j->cxx)
            continue;
        augur_buf_printf(b, "    memset(&augur_s%" PRIu32 ", 0, sizeof(augur_s%" PRIu32 "));\n", i,
                         i);
        for (uint32_t x = j->sig.nparams; x < j->nargs; x++)
            if (j->args[x].owner == (int)i)
                gen_set(j, x, b);
    }
    /* a function template analysed as instantiated: called so (csr_mv<int, double>(...)) */
    augur_buf_printf(b, "    %s%s", j->sig.returns_value ? "if (" : "", name);
    if (j->kernel->u.kernel.template_args)
        augur_buf_printf(b, "<%s>", j->kernel->u.kernel.template_args);
    augur_buf_putc(b, '(');
    for (uint32_t i = 0; i < j->sig.nparams; i++) {
        const struct arg *g = &j->args[i];

        if (g->kind == A_STRUCT)
            augur_buf_printf(b, "%s%saugur_s%" PRIu32, i ? ", " : "", g->by_value ? "" : "&", i);
        else if (g->vector)
            augur_buf_printf(b, "%s*augur_c%" PRIu32, i ? ", " : "", i);
        else if (g->by_address)
            augur_buf_printf(b,
                             j->cxx ? "%saugur_any{(void *)&augur_a[%" PRIu32 "]}"
                                    : "%s(void *)&augur_a[%" PRIu32 "]",
                             i ? ", " : "", i);
        else if (j->cxx && (g->kind == A_ARRAY || g->kind == A_NULL))
            augur_buf_printf(b, "%saugur_any{augur_a[%" PRIu32 "]}", i ? ", " : "", i);
        else
            augur_buf_printf(b, "%s%s[%" PRIu32 "]", i ? ", " : "",
                             g->kind == A_INT     ? "augur_i"
                             : g->kind == A_FLOAT ? "augur_f"
                                                  : "augur_a",
                             i);
    }
    augur_buf_printf(b, ")%s\n}\n", j->sig.returns_value ? ")\n        augur_drv_sink++;" : ";");
}

static void gen_driver(struct job *j, struct augur_buf *b)
{
    uint32_t n = j->nargs ? j->nargs : 1;

    augur_buf_printf(b,
                     "/* generated by augur measure: reads the blob, warms up, times %s */\n"
                     "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
                     "#include <sys/wait.h>\n#include <time.h>\n#include <unistd.h>\n\n"
                     "void augur_drv_setup(void *const *a, const long long *i, const double *f);\n"
                     "unsigned augur_drv_written(void *const *a, void **where,\n"
                     "                           unsigned long long *bytes, unsigned *elem,\n"
                     "                           unsigned char *real, unsigned char *restore);\n"
                     "void augur_drv_call(void *const *a, const long long *i, const double *f);\n"
                     "volatile int augur_drv_sink;\n\n"
                     "#define NP %" PRIu32 "\n",
                     j->kernel->u.kernel.name, n);
    augur_buf_puts(b, "static const unsigned long long off[NP] = { ");
    for (uint32_t i = 0; i < n; i++)
        augur_buf_printf(b, "%s%" PRIu64 "ULL", i ? ", " : "",
                         i < j->nargs && j->args[i].kind == A_ARRAY ? j->args[i].offset
                                                                    : UINT64_MAX);
    augur_buf_puts(b, " };\nstatic const unsigned long long len[NP] = { ");
    for (uint32_t i = 0; i < n; i++)
        augur_buf_printf(b, "%s%" PRIu64 "ULL", i ? ", " : "", i < j->nargs ? j->args[i].bytes : 0);
    augur_buf_puts(b, " };\nstatic long long iv[NP] = { ");
    for (uint32_t i = 0; i < n; i++)
        augur_buf_printf(b, "%s%" PRId64 "LL", i ? ", " : "",
                         i < j->nargs && j->args[i].kind == A_INT ? j->args[i].i : 0);
    augur_buf_puts(b, " };\nstatic const double fv[NP] = { ");
    for (uint32_t i = 0; i < n; i++)
        augur_buf_printf(b, "%s%.17g", i ? ", " : "",
                         i < j->nargs && j->args[i].kind == A_FLOAT ? j->args[i].f : 0.0);
    augur_buf_printf(
        b,
        " };\n"
        "static const int round_param = %d, level_param = %d;\n"
        "static const long long round_offset = %lldLL;\n"
        "static const unsigned long long blob_bytes = %zuULL;\n\n"
        "/* One in an element of size bytes: 1 or 1.0. */\n"
        "static void one(unsigned char *p, unsigned size, int real)\n{\n"
        "    if (real && size == 4) {\n        float f = 1;\n\n        memcpy(p, &f, 4);\n"
        "    } else if (real && size == 8) {\n        double d = 1;\n\n        memcpy(p, &d, 8);\n"
        "    } else {\n        memset(p, 0, size);\n        p[0] = 1; /* little-endian */\n    }\n}\n\n"
        "static int is_one(const unsigned char *p, unsigned size, int real)\n{\n"
        "    unsigned char o[16];\n\n"
        "    if (size > sizeof(o))\n        return 1;\n"
        "    one(o, size, real);\n"
        "    return memcmp(o, p, size) == 0;\n}\n\n"
        "static double now(void)\n{\n"
        "    struct timespec t;\n\n"
        "    clock_gettime(CLOCK_MONOTONIC, &t);\n"
        "    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;\n}\n\n"
        "int main(int argc, char **argv)\n{\n"
        "    unsigned long long reps, max_reps, max_rounds, rounds = 1, n = 0, r;\n"
        "    double min_time, total = 0;\n"
        "    unsigned char *blob, *pristine = NULL, *prev = NULL, *before[NP];\n"
        "    void *a[NP], *where[NP];\n"
        "    unsigned long long wbytes[NP], changed = 0, elements = 0;\n"
        "    unsigned welem[NP], nw;\n"
        "    unsigned char wreal[NP], wrestore[NP];\n"
        "    FILE *fp;\n\n"
        "    if (argc != 6)\n        return 2;\n"
        "    reps = strtoull(argv[2], NULL, 10);\n"
        "    min_time = strtod(argv[3], NULL);\n"
        "    max_rounds = strtoull(argv[4], NULL, 10);\n"
        "    max_reps = strtoull(argv[5], NULL, 10);\n"
        "    blob = aligned_alloc(64, (blob_bytes + 64) / 64 * 64);\n"
        "    fp = fopen(argv[1], \"rb\");\n"
        "    if (!blob || !fp || fread(blob, 1, blob_bytes, fp) != blob_bytes) {\n"
        "        fprintf(stderr, \"cannot read the data blob '%%s'\\n\", argv[1]);\n"
        "        return 3;\n    }\n"
        "    fclose(fp);\n"
        "    setvbuf(stdout, NULL, _IOLBF, 0); /* lines reach augur as they are printed */\n"
        "    for (int k = 0; k < NP; k++)\n"
        "        a[k] = off[k] == ~0ULL ? NULL : blob + off[k];\n"
        "    augur_drv_setup(a, iv, fv);\n"
        "    /* the work check: what the warm-up changes in the arrays the kernel stores into */\n"
        "    nw = augur_drv_written(a, where, wbytes, welem, wreal, wrestore);\n"
        "    for (unsigned w = 0; w < nw; w++) {\n"
        "        before[w] = malloc(wbytes[w] + 1);\n"
        "        if (!before[w])\n            return 3;\n"
        "        memcpy(before[w], where[w], wbytes[w]);\n"
        "    }\n"
        "    if (level_param >= 0) {\n"
        "        pristine = malloc(len[level_param] + 1);\n"
        "        prev = malloc(len[level_param] + 1);\n"
        "        if (!pristine || !prev)\n            return 3;\n"
        "        memcpy(pristine, a[level_param], len[level_param]);\n"
        "    }\n"
        "    /* warm-up: one call, or one whole search counting its rounds */\n"
        "    if (round_param >= 0) {\n"
        "        for (r = 1;; r++) {\n"
        "            if (r > max_rounds) {\n"
        "                fprintf(stderr, \"the level array still changes after %%llu rounds\\n\",\n"
        "                        max_rounds);\n"
        "                return 4;\n            }\n"
        "            memcpy(prev, a[level_param], len[level_param]);\n"
        "            iv[round_param] = (long long)r + round_offset;\n"
        "            augur_drv_call(a, iv, fv);\n"
        "            if (memcmp(prev, a[level_param], len[level_param]) == 0)\n"
        "                break;\n        }\n"
        "        rounds = r;\n"
        "    } else {\n"
        "        augur_drv_call(a, iv, fv);\n    }\n"
        "    for (unsigned w = 0; w < nw; w++) {\n"
        "        for (unsigned long long e = 0; e + welem[w] <= wbytes[w]; e += welem[w])\n"
        "            changed += memcmp(before[w] + e, (unsigned char *)where[w] + e, welem[w]) "
        "!= 0;\n"
        "        elements += wbytes[w] / welem[w];\n"
        "        if (!wrestore[w]) {\n"
        "            free(before[w]);\n"
        "            before[w] = NULL;\n"
        "        }\n"
        "    }\n"
        "    printf(\"@augur-measure 1\\n@augur rounds %%llu\\n\", rounds);\n"
        "    if (nw)\n"
        "        printf(\"@augur changed %%llu of %%llu\\n\", changed, elements);\n"
        "    /*\n"
        "     * A second look when the call left its arrays as it found them: its result may\n"
        "     * equal the data by chance (labels all 0 after all 0). In a child, the arrays\n"
        "     * are refilled with ones and the kernel called again: one that stores changes them.\n"
        "     */\n"
        "    if (nw && changed == 0 && round_param < 0) {\n"
        "        pid_t pid;\n"
        "        int st = 0;\n\n"
        "        fflush(stdout);\n"
        "        pid = fork();\n"
        "        if (pid == 0) {\n"
        "            unsigned long long moved = 0;\n\n"
        "            for (unsigned w = 0; w < nw; w++)\n"
        "                for (unsigned long long e = 0; e + welem[w] <= wbytes[w]; e += welem[w])\n"
        "                    one((unsigned char *)where[w] + e, welem[w], wreal[w]);\n"
        "            augur_drv_call(a, iv, fv);\n"
        "            for (unsigned w = 0; w < nw; w++)\n"
        "                for (unsigned long long e = 0; e + welem[w] <= wbytes[w]; e += welem[w])\n"
        "                    moved += !is_one((unsigned char *)where[w] + e, welem[w], wreal[w]);\n"
        "            _exit(moved ? 0 : 1);\n"
        "        }\n"
        "        if (pid > 0 && waitpid(pid, &st, 0) == pid)\n"
        "            printf(\"@augur second look %%s\\n\", WIFEXITED(st) && WEXITSTATUS(st) == 0\n"
        "                   ? \"changed\" : WIFEXITED(st) && WEXITSTATUS(st) == 1 ? \"unchanged\"\n"
        "                   : \"failed\");\n"
        "    }\n"
        "    while ((n < reps || total < min_time) && (n < max_reps || n < reps)) {\n"
        "        double t0, t;\n\n"
        "        if (level_param >= 0)\n"
        "            memcpy(a[level_param], pristine, len[level_param]);\n"
        "        /* arrays whose values decide the kernel's work: as the data gave them */\n"
        "        for (unsigned w = 0; w < nw; w++)\n"
        "            if (before[w])\n"
        "                memcpy(where[w], before[w], wbytes[w]);\n"
        "        t0 = now();\n"
        "        if (round_param >= 0) {\n"
        "            for (r = 1; r <= rounds; r++) {\n"
        "                iv[round_param] = (long long)r + round_offset;\n"
        "                augur_drv_call(a, iv, fv);\n            }\n"
        "        } else {\n"
        "            augur_drv_call(a, iv, fv);\n        }\n"
        "        t = now() - t0;\n"
        "        printf(\"@augur time %%.9e\\n\", t);\n"
        "        total += t;\n        n++;\n    }\n"
        "    printf(\"@augur end %%llu\\n\", n);\n"
        "    for (unsigned w = 0; w < nw; w++)\n"
        "        free(before[w]);\n"
        "    free(pristine);\n    free(prev);\n    free(blob);\n"
        "    return fflush(stdout) == 0 ? 0 : 3;\n}\n",
        j->round_param, j->level_param, (long long)j->round_offset, j->blob.len);
}

/* ---- compiling --------------------------------------------------------------------------------
 */

static void push(struct augur_vec *v, const char *s)
{
    *(char **)augur_vec_push(v) = augur_strdup(s);
}

static char **finish_argv(struct augur_vec *v)
{
    augur_vec_push(v);
    return augur_vec_take(v, NULL);
}

/*
 * The compilers: the kernel's (for a C++ file the one asked for, else $CXX, else c++) and the
 * driver's C compiler ($CC, else cc, or the one asked for a C kernel).
 */
static void find_cc(struct job *j)
{
    const char *cxx = getenv("CXX");

    j->cc = augur_cc_words(j->cxx ? (j->o->cc      ? j->o->cc
                                     : cxx && *cxx ? cxx
                                                   : "c++")
                                  : j->o->cc,
                           &j->ncc);
    j->c_cc = augur_cc_words(j->cxx ? NULL : j->o->cc, &j->nc_cc);
}

static bool text_has_omp(const char *text)
{
    for (const char *p = strstr(text, "omp"); p; p = strstr(p + 1, "omp")) {
        const char *q = p;

        if (p > text && (p[-1] == '<') && !strncmp(p, "omp.h>", 6))
            return true;
        while (q > text && (q[-1] == ' ' || q[-1] == '\t'))
            q--;
        if (q - text >= 6 && !strncmp(q - 6, "pragma", 6)) {
            q -= 6;
            while (q > text && (q[-1] == ' ' || q[-1] == '\t'))
                q--;
            if (q > text && q[-1] == '#')
                return true;
        }
    }
    return false;
}

/*
 * True when the skeleton has an OpenMP team (a parallel region or a
 * worksharing loop): the directive may come from _Pragma in a macro,
 * which the file's text does not show as #pragma omp.
 */
static bool skel_has_omp(const struct augur_node *n)
{
    if ((n->kind == AUGUR_NODE_REGION && n->u.region.kind == AUGUR_REGION_PARALLEL) ||
        (n->kind == AUGUR_NODE_LOOP && n->u.loop.parallel))
        return true;
    for (uint32_t i = 0; i < n->nkids; i++)
        if (skel_has_omp(n->kids[i]))
            return true;
    return false;
}

/*
 * Removes "-x LANG" from the flags (the link and the driver must not read objects as source;
 * augur says -x c++ for the kernel's file itself); true when LANG was c++.
 */
static bool take_language(struct job *j)
{
    bool cxx = false;
    size_t m = 0;

    for (size_t i = 0; i < j->nflags; i++) {
        if (!strcmp(j->flags[i], "-x") && i + 1 < j->nflags) {
            cxx |= !strcmp(j->flags[i + 1], "c++");
            augur_free(j->flags[i]);
            augur_free(j->flags[++i]);
        } else if (!strncmp(j->flags[i], "-x", 2) && j->flags[i][2]) {
            cxx |= !strcmp(j->flags[i] + 2, "c++");
            augur_free(j->flags[i]);
        } else {
            j->flags[m++] = j->flags[i];
        }
    }
    j->nflags = m;
    if (j->flags)
        j->flags[m] = NULL;
    return cxx;
}

static int pick_flags(struct job *j, struct augur_diag *diag)
{
    struct augur_measurement *m = j->m;
    struct augur_vec v;
    bool fopenmp = false;

    if (j->o->compile_commands) {
        int rc =
            rt_cc_entry(j->o->compile_commands, j->src, &j->flags, &j->nflags, &j->cc_dir, diag);

        if (rc)
            return rc;
        m->flags_from = augur_strdup("compile_commands.json");
    } else {
        /* the defaults, then the user's flags: a later flag wins (-O2 after -O3) */
        augur_vec_init(&v, sizeof(char *));
        push(&v, "-O3");
        push(&v, "-march=native");
        /*
         * Loops start on a 32-byte boundary: where a hot loop falls in
         * the code is not the data's doing, and a loop across a boundary
         * ran the same SpMV 15 to 40 % slower (bench/align/align.sh).
         */
        push(&v, "-falign-loops=32");
        if (j->has_omp || j->o->openmp)
            push(&v, "-fopenmp");
        for (size_t i = 0; i < j->o->nargs; i++)
            push(&v, j->o->args[i]);
        m->flags_from = augur_strdup(j->o->args_given && j->o->nargs ? "defaults and command line"
                                                                     : "defaults");
        j->nflags = v.len;
        j->flags = finish_argv(&v);
    }
    for (size_t i = 0; i < j->nflags; i++)
        fopenmp |= !strcmp(j->flags[i], "-fopenmp") || !strncmp(j->flags[i], "-fopenmp=", 9) ||
                   !strcmp(j->flags[i], "-qopenmp");
    if (j->o->sched_given && !fopenmp)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                              "a schedule override needs the kernel compiled with OpenMP, and "
                              "its flags (%s) lack -fopenmp",
                              m->flags_from);
    if (j->has_omp && !fopenmp)
        note(j, "the file has OpenMP directives but the compiler flags lack -fopenmp: the kernel "
                "runs on one thread");
    return 0;
}

/* The first "FILE:LINE:COL: error: MESSAGE" of a compiler's output, into diag. */
static int compiler_error(const char *what, const char *text, int status, struct augur_diag *diag)
{
    /* the linker's "undefined reference to `name'": a function the kernel's file only declares */
    const char *undef = strstr(text, "undefined reference to ");

    if (undef) {
        const char *name = undef + strlen("undefined reference to ");
        size_t n;

        name += strspn(name, "`'\"");
        n = strcspn(name, "`'\"\n");
        return augur_diag_set(diag, AUGUR_EPARSE, NULL, 0, 0,
                              "the kernel calls '%.*s', which its file only declares: augur "
                              "measure links the kernel's file alone; give the source, object or "
                              "library that defines it with --link (alloc.c, alloc.o, -lname)",
                              (int)n, name);
    }
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n'), *e = strstr(line, ": error: ");
        size_t n = end ? (size_t)(end - line) : strlen(line);

        if (!e || (size_t)(e - line) >= n)
            e = strstr(line, ": fatal error: ");
        if (e && (size_t)(e - line) < n) {
            char loc[512], msg[512];
            unsigned long l = 0, c = 0;
            const char *colon;
            size_t ln = (size_t)(e - line);
            char *p;

            snprintf(loc, sizeof(loc), "%.*s", (int)(ln < sizeof(loc) - 1 ? ln : sizeof(loc) - 1),
                     line);
            snprintf(msg, sizeof(msg), "%.*s", (int)(line + n - (strchr(e + 1, ':') + 2)),
                     strchr(e + 1, ':') + 2);
            /* FILE:LINE:COL or FILE:LINE */
            colon = strrchr(loc, ':');
            if (colon) {
                c = strtoul(colon + 1, &p, 10);
                loc[colon - loc] = '\0';
                colon = strrchr(loc, ':');
                if (colon) {
                    l = strtoul(colon + 1, &p, 10);
                    loc[colon - loc] = '\0';
                } else {
                    l = c;
                    c = 0;
                }
            }
            return augur_diag_set(diag, AUGUR_EPARSE, loc, (uint32_t)l, (uint32_t)c, "%s", msg);
        }
        line = end ? end + 1 : NULL;
    }
    return augur_diag_set(diag, AUGUR_EPARSE, NULL, 0, 0, "the %s failed (status %d)", what,
                          status);
}

static int run_cc(struct job *j, char **argv, const char *cwd, const char *what,
                  struct augur_diag *diag)
{
    struct augur_buf out, err;
    struct augur_child ch;
    double limit = j->o->cc_timeout > 0 ? j->o->cc_timeout : 300;
    int rc;

    augur_buf_init(&out);
    augur_buf_init(&err);
    rc = augur_run_child(argv, NULL, cwd, limit, OUTPUT_MAX_BYTES, &out, &err, &ch, diag);
    if (rc)
        goto out;
    augur_buf_add(&out, err.s, err.len);
    if (out.len && j->o->on_output)
        j->o->on_output(j->o->ud, what, out.s);
    if (ch.timed_out)
        rc = augur_diag_set(diag, AUGUR_ERUN, NULL, 0, 0, "the %s ran past %g s and was stopped",
                            what, limit);
    else if (!WIFEXITED(ch.status) || WEXITSTATUS(ch.status) != 0)
        rc = compiler_error(what, out.s,
                            WIFEXITED(ch.status) ? WEXITSTATUS(ch.status) : -WTERMSIG(ch.status),
                            diag);
out:
    augur_buf_release(&out);
    augur_buf_release(&err);
    return rc;
}

static int compile(struct job *j, struct augur_diag *diag)
{
    struct augur_measurement *m = j->m;
    struct augur_vec v;
    char path[PATH_MAX + 32], **argv = NULL;
    struct augur_buf cmd;
    int rc;

    augur_buf_init(&cmd);
    /* the kernel's file, with its flags, where its compile command ran */
    augur_vec_init(&v, sizeof(char *));
    for (size_t i = 0; i < j->ncc; i++)
        push(&v, j->cc[i]);
    for (size_t i = 0; i < j->nflags; i++)
        push(&v, j->flags[i]);
    if (j->copy_name[0]) {
        /* the copy's "" includes: where the original's are */
        const char *slash = strrchr(j->src, '/');

        push(&v, "-iquote");
        snprintf(path, sizeof(path), "%.*s", slash > j->src ? (int)(slash - j->src) : 1, j->src);
        push(&v, path);
    }
    push(&v, "-c");
    if (j->cxx) {
        push(&v, "-x");
        push(&v, "c++");
    }
    snprintf(path, sizeof(path), "%s/kernel.c", j->dir);
    push(&v, path);
    push(&v, "-o");
    snprintf(path, sizeof(path), "%s/kernel.o", j->dir);
    push(&v, path);
    argv = finish_argv(&v);
    augur_shell_join(&cmd, argv);
    m->compile_cmd = augur_buf_detach(&cmd, NULL);
    if (j->cc_dir)
        m->cc_dir = augur_strdup(j->cc_dir);
    rc = run_cc(j, argv, j->cc_dir, "compile", diag);
    augur_argv_free(argv);
    argv = NULL;
    if (rc)
        goto out;
    /* the driver's own file, in C with plain flags */
    augur_vec_init(&v, sizeof(char *));
    for (size_t i = 0; i < j->nc_cc; i++)
        push(&v, j->c_cc[i]);
    push(&v, "-O2");
    push(&v, "-std=gnu11");
    push(&v, "-c");
    snprintf(path, sizeof(path), "%s/driver.c", j->dir);
    push(&v, path);
    push(&v, "-o");
    snprintf(path, sizeof(path), "%s/driver.o", j->dir);
    push(&v, path);
    argv = finish_argv(&v);
    rc = run_cc(j, argv, j->dir, "driver compile", diag);
    augur_argv_free(argv);
    argv = NULL;
    if (rc)
        goto out;
    /* the user's other sources (--link FILE.c), compiled as the kernel's file is */
    for (size_t k = 0; k < j->o->nlinks; k++) {
        const char *f = j->o->links[k];
        size_t len = strlen(f);

        if (len < 3 || strcmp(f + len - 2, ".c") != 0)
            continue;
        augur_vec_init(&v, sizeof(char *));
        for (size_t i = 0; i < j->nc_cc; i++) /* C, whatever the kernel's language */
            push(&v, j->c_cc[i]);
        for (size_t i = 0; i < j->nflags; i++)
            push(&v, j->flags[i]);
        push(&v, "-c");
        push(&v, f);
        push(&v, "-o");
        snprintf(path, sizeof(path), "%s/link%zu.o", j->dir, k);
        push(&v, path);
        argv = finish_argv(&v);
        rc = run_cc(j, argv, NULL, "compile of --link file", diag);
        augur_argv_free(argv);
        argv = NULL;
        if (rc)
            goto out;
    }
    /* the link, with the file's flags (-fopenmp brings its runtime) */
    augur_vec_init(&v, sizeof(char *));
    for (size_t i = 0; i < j->ncc; i++)
        push(&v, j->cc[i]);
    for (size_t i = 0; i < j->nflags; i++)
        push(&v, j->flags[i]);
    snprintf(path, sizeof(path), "%s/kernel.o", j->dir);
    push(&v, path);
    snprintf(path, sizeof(path), "%s/driver.o", j->dir);
    push(&v, path);
    for (size_t k = 0; k < j->o->nlinks; k++) {
        const char *f = j->o->links[k];
        size_t len = strlen(f);

        if (len >= 3 && strcmp(f + len - 2, ".c") == 0) {
            snprintf(path, sizeof(path), "%s/link%zu.o", j->dir, k);
            push(&v, path);
        } else {
            push(&v, f); /* an object, an archive, -lname, -Ldir */
        }
    }
    push(&v, "-o");
    snprintf(path, sizeof(path), "%s/driver", j->dir);
    push(&v, path);
    push(&v, "-lm");
    argv = finish_argv(&v);
    augur_buf_init(&cmd);
    augur_shell_join(&cmd, argv);
    m->link_cmd = augur_buf_detach(&cmd, NULL);
    rc = run_cc(j, argv, j->cc_dir, "link", diag);
out:
    augur_argv_free(argv);
    augur_buf_release(&cmd);
    return rc;
}

/* ---- running ----------------------------------------------------------------------------------
 */

static const char *signal_name(int sig)
{
    static const struct {
        int sig;
        const char *name;
    } names[] = {
        { SIGSEGV, "SIGSEGV" }, { SIGBUS, "SIGBUS" },   { SIGFPE, "SIGFPE" },
        { SIGILL, "SIGILL" },   { SIGABRT, "SIGABRT" }, { SIGKILL, "SIGKILL" },
        { SIGTERM, "SIGTERM" }, { SIGINT, "SIGINT" },   { SIGTRAP, "SIGTRAP" },
        { SIGPIPE, "SIGPIPE" }, { SIGSYS, "SIGSYS" },   { SIGXCPU, "SIGXCPU" },
    };

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (names[i].sig == sig)
            return names[i].name;
    return "a signal";
}

/* The environment of the driver: the caller's, with the OpenMP settings. */
static char **driver_env(struct job *j)
{
    static const char *const keys[3] = { "OMP_NUM_THREADS", "OMP_PROC_BIND", "OMP_PLACES" };
    const char *defaults[3] = { NULL, "close", "cores" };
    struct augur_measurement *m = j->m;
    char **vals[3] = { &m->omp_num_threads, &m->omp_proc_bind, &m->omp_places };
    char threads[32];
    struct augur_vec v;

    snprintf(threads, sizeof(threads), "%u", m->threads);
    defaults[0] = threads;
    augur_vec_init(&v, sizeof(char *));
    for (char **e = environ; e && *e; e++) {
        bool ours = false;

        for (int k = 0; k < 3; k++)
            ours |= !strncmp(*e, keys[k], strlen(keys[k])) && (*e)[strlen(keys[k])] == '=';
        /* the schedule asked for replaces the caller's */
        ours |= m->omp_schedule && !strncmp(*e, "OMP_SCHEDULE=", 13);
        if (!ours)
            push(&v, *e);
    }
    if (m->omp_schedule) {
        struct augur_buf b;

        augur_buf_init(&b);
        augur_buf_printf(&b, "OMP_SCHEDULE=%s", m->omp_schedule);
        *(char **)augur_vec_push(&v) = augur_buf_detach(&b, NULL);
    }
    for (int k = 0; k < 3; k++) {
        const char *env = getenv(keys[k]);
        const char *val = defaults[k];
        struct augur_buf b;

        /* the thread count asked for wins; the environment's placement wins */
        if (env && *env && (k > 0 || !j->o->threads)) {
            val = env;
            m->omp_from_env[k] = true;
        }
        *vals[k] = augur_strdup(val);
        augur_buf_init(&b);
        augur_buf_printf(&b, "%s=%s", keys[k], val);
        *(char **)augur_vec_push(&v) = augur_buf_detach(&b, NULL);
    }
    return finish_argv(&v);
}

int rt_measure_output(const char *text, struct augur_measurement *m, int *second_look,
                      struct augur_diag *diag)
{
    struct augur_vec t;
    bool header = false, end = false;
    uint64_t ended = 0;

    augur_vec_init(&t, sizeof(double));
    for (const char *line = text; line && *line;) {
        const char *nl = strchr(line, '\n');

        if (!strncmp(line, "@augur-measure 1", 16))
            header = true;
        else if (!strncmp(line, "@augur rounds ", 14))
            m->rounds = (uint32_t)strtoul(line + 14, NULL, 10);
        else if (!strncmp(line, "@augur changed ", 15))
            m->work_checked =
                sscanf(line + 15, "%" SCNu64 " of %" SCNu64, &m->changed, &m->written) == 2;
        else if (!strncmp(line, "@augur second look ", 19))
            *second_look = !strncmp(line + 19, "changed\n", 8)  ? 1
                           : !strncmp(line + 19, "failed\n", 7) ? 2
                                                                : 0;
        else if (!strncmp(line, "@augur time ", 12)) {
            char *stop;
            double v = strtod(line + 12, &stop);

            /* NaN would make the sort and the summary meaningless */
            if (stop == line + 12 || !(v >= 0 && v < HUGE_VAL)) {
                augur_vec_release(&t);
                return augur_diag_set(diag, AUGUR_ERUN, NULL, 0, 0,
                                      "the driver's output has a time that is not a number of "
                                      "seconds: '%.*s'",
                                      (int)(nl ? nl - line : (ptrdiff_t)strlen(line)), line);
            }
            *(double *)augur_vec_push(&t) = v;
        } else if (!strncmp(line, "@augur end ", 11)) {
            ended = strtoull(line + 11, NULL, 10);
            end = true;
        }
        line = nl ? nl + 1 : NULL;
    }
    if (!header || !end || ended != t.len || t.len == 0) {
        augur_vec_release(&t);
        return augur_diag_set(diag, AUGUR_ERUN, NULL, 0, 0,
                              "the driver's output is incomplete (%zu times read)", t.len);
    }
    m->reps = t.len;
    m->times = augur_vec_take(&t, NULL);
    {
        double *s = augur_mallocarray((size_t)m->reps, sizeof(double));

        memcpy(s, m->times, (size_t)m->reps * sizeof(double));
        qsort(s, (size_t)m->reps, sizeof(double), augur_cmp_double);
        m->min = s[0];
        m->max = s[m->reps - 1];
        m->median = m->reps % 2 ? s[m->reps / 2] : 0.5 * (s[m->reps / 2 - 1] + s[m->reps / 2]);
        m->total = 0;
        for (uint64_t i = 0; i < m->reps; i++)
            m->total += s[i];
        m->mean = m->total / (double)m->reps;
        augur_free(s);
    }
    return 0;
}

static int run_driver(struct job *j, struct augur_diag *diag)
{
    const struct augur_measure_opts *o = j->o;
    double limit = o->timeout > 0 ? o->timeout : 60;
    char exe[PATH_MAX + 32], blob[PATH_MAX + 32], reps[32], mt[64], mr[32], mx[32];
    char *argv[7], **env = driver_env(j);
    struct augur_buf out, err;
    struct augur_child ch;
    uint64_t r = o->reps ? o->reps : 10;
    int rc;

    snprintf(exe, sizeof(exe), "%s/driver", j->dir);
    snprintf(blob, sizeof(blob), "%s/data.bin", j->dir);
    snprintf(reps, sizeof(reps), "%" PRIu64, r);
    snprintf(mt, sizeof(mt), "%.9g", o->min_time > 0 ? o->min_time : 0.2);
    {
        uint64_t n = 0;

        for (uint32_t i = 0; i < j->sig.nparams; i++)
            if (j->args[i].kind == A_ARRAY && (int)i == j->level_param)
                n = j->m->args[i].elements;
        snprintf(mr, sizeof(mr), "%" PRIu64, n + 2);
    }
    snprintf(mx, sizeof(mx), "%" PRIu64, DRIVER_MAX_REPS);
    argv[0] = exe;
    argv[1] = blob;
    argv[2] = reps;
    argv[3] = mt;
    argv[4] = mr;
    argv[5] = mx;
    argv[6] = NULL;
    augur_buf_init(&out);
    augur_buf_init(&err);
    rc = augur_run_child(argv, env, NULL, limit, OUTPUT_MAX_BYTES, &out, &err, &ch, diag);
    augur_argv_free(env);
    if (rc)
        goto out;
    if (err.len && o->on_output)
        o->on_output(o->ud, "run", err.s);
    if (ch.timed_out) {
        size_t done = 0;

        for (const char *p = strstr(out.s, "@augur time "); p; p = strstr(p + 1, "@augur time "))
            done++;
        rc = augur_diag_set(diag, AUGUR_ERUN, NULL, 0, 0,
                            "%s ran past the time limit of %g s and was killed (%s; %zu timed "
                            "repetition%s done)",
                            j->kernel->u.kernel.name, limit,
                            strstr(out.s, "@augur-measure") ? "after the warm-up"
                                                            : "in the warm-up call",
                            done, done == 1 ? "" : "s");
    } else if (WIFSIGNALED(ch.status)) {
        int sig = WTERMSIG(ch.status);
        struct augur_buf nulls;

        /* a pointer the skeleton does not use went in as NULL: the likeliest cause, named */
        augur_buf_init(&nulls);
        for (uint32_t i = 0; i < j->sig.nparams; i++)
            if (j->args[i].kind == A_NULL)
                augur_buf_printf(&nulls, "%s'%s'", nulls.len ? ", " : "",
                                 j->sig.params[i].name ? j->sig.params[i].name : "?");
        rc = augur_diag_set(diag, AUGUR_ERUN, NULL, 0, 0, "%s crashed: killed by %s (%s)%s%s%s%s",
                            j->kernel->u.kernel.name, signal_name(sig), strsignal(sig),
                            strstr(out.s, "@augur-measure") ? "" : " in the warm-up call",
                            nulls.len ? "; passed as NULL, since the skeleton does not access "
                                        "them: "
                                      : "",
                            nulls.len ? nulls.s : "",
                            nulls.len ? " (does the kernel use them in a way augur leaves out? "
                                        "see the notes of augur skeleton)"
                                      : "");
        augur_buf_release(&nulls);
    } else if (WEXITSTATUS(ch.status) != 0) {
        const char *nl = strchr(err.s, '\n');

        rc = augur_diag_set(diag, AUGUR_ERUN, NULL, 0, 0,
                            "the driver of %s exited with status %d%s%.*s",
                            j->kernel->u.kernel.name, WEXITSTATUS(ch.status), err.len ? ": " : "",
                            (int)(nl ? nl - err.s : (ptrdiff_t)err.len), err.s);
    } else {
        rc = rt_measure_output(out.s, j->m, &j->second_look, diag);
    }
out:
    augur_buf_release(&out);
    augur_buf_release(&err);
    return rc;
}

/*
 * The work check: a kernel that stores into arrays must change some of them in its warm-up
 * call. One that changed none did not run what the skeleton describes (a guard that returned
 * early, a size or a struct member left 0), and its time is not reported.
 */
static int check_work(struct job *j, struct augur_diag *diag)
{
    const struct augur_measurement *m = j->m;
    struct augur_buf names;
    bool always = false;
    int rc;

    if (!m->work_checked || m->changed > 0 || m->written == 0)
        return 0;
    augur_buf_init(&names);
    for (uint32_t x = 0; x < j->nargs; x++)
        if (j->args[x].kind == A_ARRAY && j->args[x].written) {
            augur_buf_printf(&names, "%s'%s'", names.len ? ", " : "", j->args[x].name);
            always |= j->args[x].always;
        }
    if (!always) {
        note(j,
             "the warm-up call changed none of the %" PRIu64 " elements of %s: every store "
             "is under an if, and the data called for none",
             m->written, names.s);
        augur_buf_release(&names);
        return 0;
    }
    if (j->second_look) {
        note(j,
             j->second_look == 1
                 ? "the warm-up call left %s as it found them (its result equals the data); "
                   "refilled with ones, they changed in a call: the kernel does its work"
                 : "the warm-up call left %s as it found them, and a call on them refilled with "
                   "ones failed: the work check could not look again",
             names.s);
        augur_buf_release(&names);
        return 0;
    }
    if (j->o->allow_empty) {
        note(j, "the warm-up call changed none of the %" PRIu64 " elements of %s", m->written,
             names.s);
        augur_buf_release(&names);
        return 0;
    }
    rc = augur_diag_set(diag, AUGUR_ERUN, j->src, j->kernel->loc.line, j->kernel->loc.col,
                        "%s changed none of the %" PRIu64 " elements of %s that the skeleton "
                        "stores into: the compiled kernel did not do the work it describes (a "
                        "guard that returned early? a size or a struct member left 0?); "
                        "--allow-empty times it anyway",
                        j->kernel->u.kernel.name, m->written, names.s);
    augur_buf_release(&names);
    return rc;
}

/* ---- bytes and flops ----------------------------------------------------------------------------
 */

static void count_node(struct job *j, const struct augur_interp *in, const struct augur_node *n)
{
    struct augur_measurement *m = j->m;
    const struct augur_node *kid;

    if (n->kind == AUGUR_NODE_ACCESS) {
        const struct augur_array *A = &j->kernel->u.kernel.arrays[n->u.access.array];
        uint64_t c = augur_interp_node_count(in, n->id, -1);
        unsigned size = augur_type_size(n->u.access.type);

        if (!size)
            size = A->elem_size;
        m->accesses += c;
        if (n->u.access.mode != AUGUR_ACCESS_WRITE)
            m->bytes_read += c * size;
        if (n->u.access.mode != AUGUR_ACCESS_READ)
            m->bytes_written += c * size;
    } else if (n->kind == AUGUR_NODE_OPS) {
        uint64_t c = augur_interp_node_count(in, n->id, -1);

        for (uint32_t i = 0; i < n->u.ops.n; i++) {
            const struct augur_opcount *op = &n->u.ops.v[i];
            uint64_t per = op->op == AUGUR_OPK_FFMA ? 2
                           : op->op == AUGUR_OPK_FADD || op->op == AUGUR_OPK_FMUL ||
                                   op->op == AUGUR_OPK_FDIV || op->op == AUGUR_OPK_FSQRT
                               ? 1
                               : 0;

            m->flops += per * op->count * (op->lanes ? op->lanes : 1) * c;
        }
    }
    augur_node_for_each_kid(n, kid) {
        count_node(j, in, kid);
    }
}

static void count(struct job *j, struct augur_interp *in)
{
    struct augur_measurement *m = j->m;
    struct augur_diag d;
    int rc;

    augur_diag_init(&d);
    if (j->round_param >= 0)
        rc = augur_interp_run_rounds(in, 0, &m->interp_rounds, &d);
    else
        rc = augur_interp_run(in, &d);
    if (rc) {
        char msg[1200];

        augur_diag_format(&d, msg, sizeof(msg));
        note(j, "no bytes and flops: the skeleton interpreter failed: %s", msg);
        return;
    }
    count_node(j, in, j->kernel);
    augur_interp_op_totals(in, m->ops);
    m->have_counts = true;
    if (j->round_param >= 0 && m->interp_rounds != m->rounds)
        note(j,
             "the interpreter ran %" PRIu32 " rounds, the compiled kernel %" PRIu32
             ": bytes and flops are the interpreter's",
             m->interp_rounds, m->rounds);
}

/* ---- a schedule override -----------------------------------------------------------------------
 */

/* The lines of the kernel's worksharing loops; each must lie in the kernel's own file. */
static int ws_lines(const struct job *j, const struct augur_node *n, struct augur_vec *lines,
                    struct augur_diag *diag)
{
    const struct augur_node *kid;

    if (n->kind == AUGUR_NODE_LOOP && (n->u.loop.omp.flags & AUGUR_OMP_FOR)) {
        if (n->loc.file != j->kernel->loc.file || n->loc.line == 0)
            return augur_diag_set(diag, AUGUR_EUNSUP, file_of(j, n->loc.file), n->loc.line,
                                  n->loc.col,
                                  "this worksharing loop of kernel '%s' is not in its file: a "
                                  "schedule override rewrites the kernel's file only",
                                  j->kernel->u.kernel.name);
        *(uint32_t *)augur_vec_push(lines) = n->loc.line;
    }
    augur_node_for_each_kid(n, kid) {
        int rc = ws_lines(j, kid, lines, diag);

        if (rc)
            return rc;
    }
    return 0;
}

/*
 * The schedule asked for: checked, as OMP_SCHEDULE, and the copy of the file that runs it
 * (written into the working folder later, as source/NAME, its lines those of the original).
 */
static int sched_copy(struct job *j, const struct augur_buf *text, struct augur_diag *diag)
{
    const struct augur_measure_opts *o = j->o;
    const char *base = strrchr(j->src, '/');
    char val[48];
    enum augur_sched kind;
    uint64_t chunk;
    struct augur_vec lines;
    int rc;

    /* what the interpreter and OMP_SCHEDULE take reads back */
    augur_sched_format(o->sched, o->chunk, val, sizeof(val));
    rc = augur_sched_parse(val, &kind, &chunk, diag);
    if (rc)
        return rc;
    augur_vec_init(&lines, sizeof(uint32_t));
    rc = ws_lines(j, j->kernel, &lines, diag);
    augur_buf_printf(&j->copy, "#line 1 \"%s\"\n", j->src);
    if (!rc)
        rc = rt_sched_rewrite(j->src, text->s, text->len, j->kernel->loc.line, j->kernel->loc.col,
                              lines.data, lines.len, &j->copy, &j->m->sched_directives, diag);
    augur_vec_release(&lines);
    if (rc)
        return rc;
    base = base ? base + 1 : j->src;
    if (strlen(base) > NAME_MAX)
        return augur_diag_set(diag, AUGUR_EUNSUP, j->src, 0, 0, "the file's name is too long");
    snprintf(j->copy_name, sizeof(j->copy_name), "source/%.*s", NAME_MAX, base);
    j->m->omp_schedule = augur_strdup(val);
    return 0;
}

static int write_copy(struct job *j, struct augur_diag *diag)
{
    char path[PATH_MAX + 32];

    snprintf(path, sizeof(path), "%s/source", j->dir);
    if (mkdir(path, 0700) != 0)
        return augur_diag_set(diag, AUGUR_EIO, path, 0, 0, "cannot make a folder: %s",
                              strerror(errno));
    j->made_copy = true;
    return write_file(j, j->copy_name, j->copy.s, j->copy.len, diag);
}

/* ---- the whole measurement ----------------------------------------------------------------------
 */

void augur_measurement_free(struct augur_measurement *m)
{
    if (!m)
        return;
    augur_free(m->kernel);
    augur_free(m->source);
    augur_free(m->times);
    augur_free(m->compile_cmd);
    augur_free(m->link_cmd);
    augur_free(m->cc_dir);
    augur_free(m->flags_from);
    augur_free(m->omp_num_threads);
    augur_free(m->omp_proc_bind);
    augur_free(m->omp_places);
    augur_free(m->omp_schedule);
    for (uint32_t i = 0; i < m->nargs; i++) {
        augur_free(m->args[i].name);
        augur_free(m->args[i].what);
    }
    augur_free(m->args);
    augur_free(m->workdir);
    augur_free(m->notes);
    augur_free(m);
}

int augur_measure(const struct augur_skel *skel, const struct augur_node *kernel,
                  struct augur_bound *data, const struct augur_measure_opts *opts,
                  struct augur_measurement **out, struct augur_diag *diag)
{
    static const struct augur_measure_opts defaults;
    struct job j;
    struct augur_buf text, gen;
    struct augur_interp *in = NULL;
    struct augur_interp_opts io;
    const char *path;
    int rc;

    memset(&j, 0, sizeof(j));
    augur_buf_init(&text);
    augur_buf_init(&gen);
    augur_buf_init(&j.blob);
    augur_buf_init(&j.notes);
    augur_buf_init(&j.copy);
    j.skel = skel;
    j.kernel = kernel;
    j.data = data;
    j.o = opts ? opts : &defaults;
    j.round_param = j.level_param = -1;
    j.m = augur_calloc(1, sizeof(*j.m));
    if (!kernel || kernel->kind != AUGUR_NODE_KERNEL) {
        rc = augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "no kernel to measure");
        goto out;
    }
    path = file_of(&j, kernel->loc.file);
    if (kernel->u.kernel.cuda) {
        rc = augur_diag_set(diag, AUGUR_EUNSUP, path, kernel->loc.line, kernel->loc.col,
                            "%s is a CUDA kernel: augur measure times C functions on the CPU",
                            kernel->u.kernel.name);
        goto out;
    }
    for (uint32_t i = 0; i < kernel->u.kernel.nsyms + kernel->u.kernel.narrays; i++) {
        const char *nm = i < kernel->u.kernel.nsyms
                             ? kernel->u.kernel.syms[i].name
                             : kernel->u.kernel.arrays[i - kernel->u.kernel.nsyms].name;

        if (!strncmp(nm, "this->", 6)) {
            rc = augur_diag_set(diag, AUGUR_EUNSUP, path, kernel->loc.line, kernel->loc.col,
                                "%s is a method reading its object's members ('%s'): augur "
                                "measure times a function it can call with the data; time the "
                                "method through a function that builds the object",
                                kernel->u.kernel.name, nm);
            goto out;
        }
    }
    if (!strcmp(kernel->u.kernel.name, "main")) {
        rc = augur_diag_set(diag, AUGUR_EUNSUP, path, kernel->loc.line, kernel->loc.col,
                            "the kernel is the program's main(): augur measure times a function "
                            "it can call with the data; move the loop into a function, or time "
                            "the program itself");
        goto out;
    }
    if (!path || !realpath(path, j.src)) {
        rc = augur_diag_set(diag, AUGUR_ENOENT, path, 0, 0,
                            "cannot find the kernel's source file (a skeleton file is not "
                            "enough: augur measure compiles the C file)");
        goto out;
    }
    if (strpbrk(j.src, "\"\\\n") || strstr(j.src, "*/")) {
        rc = augur_diag_set(diag, AUGUR_EUNSUP, j.src, 0, 0,
                            "the path holds a quote, backslash, newline or '*/'");
        goto out;
    }
    rc = augur_file_read(j.src, SOURCE_MAX_BYTES, &text, NULL, diag);
    if (rc)
        goto out;
    j.has_omp = text_has_omp(text.s) || (!kernel->u.kernel.cuda && skel_has_omp(kernel));
    j.m->kernel = augur_strdup(kernel->u.kernel.name);
    j.m->source = augur_strdup(j.src);
    snprintf(j.m->clock, sizeof(j.m->clock), "CLOCK_MONOTONIC");
    j.m->threads = j.o->threads;
    if (!j.m->threads) {
        const char *env = getenv("OMP_NUM_THREADS");
        char *end;
        unsigned long v = env ? strtoul(env, &end, 10) : 0;

        j.m->threads = env && *env && !*end && v > 0 && v <= 4096 ? (unsigned)v : 1;
    }
    rc = rt_sig_read(j.src, text.s, text.len, kernel->loc.line, kernel->loc.col,
                     kernel->u.kernel.name, &j.sig, diag);
    if (rc)
        goto out;
    rc = check_values(&j, diag);
    if (!rc && j.o->sched_given)
        rc = sched_copy(&j, &text, diag);
    if (rc)
        goto out;
    /* the interpreter checks every binding against the data (file:line:col on failure) */
    memset(&io, 0, sizeof(io));
    io.nthreads =
        j.m->threads < AUGUR_CACHESIM_MAX_THREADS ? j.m->threads : AUGUR_CACHESIM_MAX_THREADS;
    io.sched_given = j.o->sched_given;
    io.sched = j.o->sched;
    io.chunk = j.o->chunk;
    rc = augur_interp_new_bound(skel, kernel, data, &io, &in, diag);
    if (rc == AUGUR_EBIND)
        goto out;
    if (rc) {
        char msg[1200];

        augur_diag_format(diag, msg, sizeof(msg));
        note(&j, "no bytes and flops: the skeleton interpreter cannot run the kernel: %s", msg);
        in = NULL;
        augur_diag_init(diag);
    }
    rc = build_args(&j, diag);
    if (rc)
        goto out;
    note_restored(&j);
    j.m->round_based = j.round_param >= 0;
    rc = pick_flags(&j, diag);
    j.cxx = augur_path_is_cxx(j.src) || take_language(&j);
    find_cc(&j);
    if (!rc)
        rc = make_dir(&j, diag);
    if (!rc)
        rc = write_file(&j, "data.bin", j.blob.s, j.blob.len, diag);
    if (!rc && j.copy_name[0])
        rc = write_copy(&j, diag);
    if (rc)
        goto out;
    gen_kernel_tu(&j, &gen);
    rc = write_file(&j, "kernel.c", gen.s, gen.len, diag);
    if (rc)
        goto out;
    augur_buf_reset(&gen);
    gen_driver(&j, &gen);
    rc = write_file(&j, "driver.c", gen.s, gen.len, diag);
    if (!rc)
        rc = compile(&j, diag);
    if (!rc)
        rc = run_driver(&j, diag);
    if (rc)
        goto out;
    rc = check_work(&j, diag);
    if (rc)
        goto out;
    if (in && !j.o->no_counts)
        count(&j, in);
    if (j.o->keep)
        j.m->workdir = augur_strdup(j.dir);
    if (j.notes.len)
        j.m->notes = augur_buf_detach(&j.notes, NULL);
    *out = j.m;
    j.m = NULL;
out:
    if (!j.o->keep)
        remove_dir(&j);
    augur_interp_free(in);
    augur_measurement_free(j.m);
    rt_sig_release(&j.sig);
    for (uint32_t x = 0; x < j.nargs; x++) {
        augur_free(j.args[x].cname);
        augur_free(j.args[x].ctype);
    }
    augur_free(j.args);
    augur_argv_free(j.flags);
    augur_argv_free(j.cc);
    augur_argv_free(j.c_cc);
    augur_free(j.cc_dir);
    augur_buf_release(&text);
    augur_buf_release(&gen);
    augur_buf_release(&j.blob);
    augur_buf_release(&j.notes);
    augur_buf_release(&j.copy);
    return rc;
}
