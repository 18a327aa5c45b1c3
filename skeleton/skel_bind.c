/*
 * skel_bind.c - bindings of skeleton arrays and scalars to a dataset: the
 * target names, explicit bindings, inference from structure (module: skeleton).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skel_int.h"

/* Array targets; see docs/skeleton.md "Bindings". */
static const char *const array_targets[] = {
    "csr.rowptr",        "csr.col",       "csr.val",
    "csr.rowpairs",      "csc.colptr",    "csc.row",
    "csc.val",           "coo.row",       "coo.col",
    "coo.val",           "edges.src",     "edges.dst",
    "edges.weight",      "edges.pairs",   "ell.idx",
    "ell.val",           "ell.idx.rows",  "ell.val.rows",
    "mesh.cells",        "deg",           "bfs.level",
    "bfs.frontier",      "bfs.visited",   "bfs.parent",
    "bfs.next",          "jds.ptr",       "jds.col",
    "jds.val",           "jds.perm",      "tiling.tgroup_tile",
    "tiling.tile_group", "tiling.gcount", "tiling.gu",
    "tiling.gv",         "tiling.gw",     NULL,
};

/* The fields of a sellC target. */
static const char *const sell_fields[] = { "cs", "cl", "col", "val", NULL };

/* Array targets sized by a scalar expression: vec(SIZE), parts(SIZE), ... */
static const char *const sized_targets[] = { "vec", "parts", "owner", "iota", NULL };

/* Scalar targets besides "=VALUE", sellC.nchunks and expressions of them. */
static const char *const scalar_targets[] = {
    "n",  "m",         "nnz",         "ell.width",       "round",         "nthreads",
    "nv", "jds.ndiag", "tiling.size", "tiling.ntgroups", "tiling.ntiles", "tiling.ngroups",
    NULL
};

int augur_bind_sell(const char *t, size_t len, uint32_t *chunk, size_t *field)
{
    uint32_t c = 0;
    size_t i = 4;

    if (len < 6 || memcmp(t, "sell", 4) != 0 || !isdigit((unsigned char)t[4]) || t[4] == '0')
        return -1;
    while (i < len && isdigit((unsigned char)t[i]) && c <= 64)
        c = c * 10 + (uint32_t)(t[i++] - '0');
    if (i >= len || t[i] != '.' || c > 64 || (c & (c - 1)))
        return -1;
    *chunk = c;
    *field = i + 1;
    return 0;
}

/* A scalar target name of length len: the table's, or sellC.nchunks. */
static bool scalar_name_ok(const char *s, size_t len)
{
    uint32_t c;
    size_t f;

    if (augur_skel_lookup(scalar_targets, s, len) >= 0)
        return true;
    return augur_bind_sell(s, len, &c, &f) == 0 && len - f == 7 && !memcmp(s + f, "nchunks", 7);
}

/* ---- scalar expressions ------------------------------------------------------------------ */

/* A scalar expression being read: p the next character of whole. */
struct xparse {
    const char *p, *whole;
    augur_bind_value_fn *fn;
    void *ud;
    struct augur_diag *diag;
    int rc;
};

static int x_fail(struct xparse *x, const char *fmt, ...) AUGUR_PRINTF(2, 3);

static int x_fail(struct xparse *x, const char *fmt, ...)
{
    char msg[sizeof(x->diag->msg)];
    va_list ap;

    if (x->rc)
        return x->rc;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    x->rc = augur_diag_set(x->diag, AUGUR_EBIND, NULL, 0, 0, "%s", msg);
    return x->rc;
}

static int64_t x_sum(struct xparse *x, int depth);

static int64_t x_primary(struct xparse *x, int depth)
{
    const char *p = x->p;

    if (x->rc)
        return 0;
    if (depth > 64) {
        x_fail(x, "the expression '%s' nests too deeply", x->whole);
        return 0;
    }
    if (*p == '-') {
        int64_t v;

        x->p++;
        v = x_primary(x, depth + 1);
        if (v == INT64_MIN) {
            x_fail(x, "'%s' overflows", x->whole);
            return 0;
        }
        return -v;
    }
    if (*p == '(') {
        int64_t v;

        x->p++;
        v = x_sum(x, depth + 1);
        if (!x->rc && *x->p != ')')
            x_fail(x, "a ')' is missing in '%s'", x->whole);
        else if (!x->rc)
            x->p++;
        return v;
    }
    if (isdigit((unsigned char)*p)) {
        int64_t v = 0;

        while (isdigit((unsigned char)*x->p)) {
            if (v > (INT64_MAX - (*x->p - '0')) / 10) {
                x_fail(x, "'%s' overflows", x->whole);
                return 0;
            }
            v = v * 10 + (*x->p++ - '0');
        }
        return v;
    }
    if (isalpha((unsigned char)*p) || *p == '_') {
        int64_t v = 0;
        char name[64];
        size_t len;

        while (isalnum((unsigned char)*x->p) || *x->p == '_' || *x->p == '.')
            x->p++;
        len = (size_t)(x->p - p);
        if (!scalar_name_ok(p, len)) {
            x_fail(x,
                   "unknown name '%.*s' in '%s': a size or scalar binding is an integer "
                   "expression (+ - * / and parentheses) of n, m, nnz, nv, ell.width, nthreads, "
                   "round, jds.ndiag, sellC.nchunks (C a power of two up to 64: sell8.nchunks), "
                   "tiling.size, tiling.ntgroups, tiling.ntiles, tiling.ngroups "
                   "and integers",
                   (int)len, p, x->whole);
            return 0;
        }
        if (x->fn && len < sizeof(name)) {
            memcpy(name, p, len);
            name[len] = '\0';
            x->rc = x->fn(x->ud, name, &v, x->diag);
        }
        return v;
    }
    if (*p)
        x_fail(x, "unexpected '%c' in '%s': expected a number, a name or '('", *p, x->whole);
    else
        x_fail(x, "'%s' ends too early", x->whole);
    return 0;
}

static int64_t x_product(struct xparse *x, int depth)
{
    int64_t v = x_primary(x, depth);

    while (!x->rc && (*x->p == '*' || *x->p == '/')) {
        char op = *x->p++;
        int64_t w = x_primary(x, depth);

        if (x->rc)
            break;
        if (op == '/') {
            if (w == 0 && x->fn) {
                x_fail(x, "division by zero in '%s'", x->whole);
                break;
            }
            v = w == 0 || (v == INT64_MIN && w == -1) ? 0 : v / w;
        } else if (__builtin_mul_overflow(v, w, &v)) {
            x_fail(x, "'%s' overflows", x->whole);
        }
    }
    return v;
}

static int64_t x_sum(struct xparse *x, int depth)
{
    int64_t v = x_product(x, depth);

    while (!x->rc && (*x->p == '+' || *x->p == '-')) {
        char op = *x->p++;
        int64_t w = x_product(x, depth);

        if (x->rc)
            break;
        if (op == '+' ? __builtin_add_overflow(v, w, &v) : __builtin_sub_overflow(v, w, &v))
            x_fail(x, "'%s' overflows", x->whole);
    }
    return v;
}

int augur_bind_expr_eval(const char *expr, size_t len, augur_bind_value_fn *fn, void *ud,
                         int64_t *out, struct augur_diag *diag)
{
    char buf[256];
    struct xparse x = { 0 };
    int64_t v;

    if (len >= sizeof(buf))
        return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0, "binding '%.*s' is too long", (int)len,
                              expr);
    memcpy(buf, expr, len);
    buf[len] = '\0';
    x.p = x.whole = buf;
    x.fn = fn;
    x.ud = ud;
    x.diag = diag;
    v = x_sum(&x, 0);
    if (!x.rc && *x.p)
        x_fail(&x, "unexpected '%c' in '%s'", *x.p, x.whole);
    if (!x.rc && out)
        *out = v;
    return x.rc;
}

/* True for a scalar expression (names checked, nothing evaluated). */
static bool expr_ok(const char *s, size_t len)
{
    return len > 0 && augur_bind_expr_eval(s, len, NULL, NULL, NULL, NULL) == 0;
}

/* ---- target names ------------------------------------------------------------------------ */

/* A 0-based target, or SIZE in NAME(SIZE) for the sized ones. */
static bool base_target_ok(const char *t, size_t n)
{
    uint32_t c;
    size_t f;

    /* bfs.level(U): the levels with U for the nodes not reached yet */
    if (n > 11 && !memcmp(t, "bfs.level(", 10) && t[n - 1] == ')') {
        size_t i = t[10] == '-' ? 11 : 10;

        if (i >= n - 1 || n - 1 - i > 18)
            return false;
        for (; i < n - 1; i++)
            if (!isdigit((unsigned char)t[i]))
                return false;
        return true;
    }

    for (int i = 0; sized_targets[i]; i++) {
        size_t k = strlen(sized_targets[i]);

        if (n > k + 2 && !memcmp(t, sized_targets[i], k) && t[k] == '(' && t[n - 1] == ')') {
            const char *e = t + k + 1;
            size_t len = n - k - 2;
            bool named = false;
            int64_t v = 0;

            for (size_t j = 0; j < len; j++)
                named |= isalpha((unsigned char)e[j]) || e[j] == '_';
            /* a size without names is known now: it must be positive (vec(0) is a mistake) */
            if (!named)
                return augur_bind_expr_eval(e, len, NULL, NULL, &v, NULL) == 0 && v > 0;
            return expr_ok(e, len);
        }
    }
    if (augur_bind_sell(t, n, &c, &f) == 0)
        return augur_skel_lookup(sell_fields, t + f, n - f) >= 0;
    return augur_skel_lookup(array_targets, t, n) >= 0;
}

int augur_bind_rec(const char *t, size_t len, struct augur_rec_field *f, unsigned max, unsigned *n)
{
    size_t i = 4;

    *n = 0;
    if (len < 6 || memcmp(t, "rec(", 4) != 0 || t[len - 1] != ')')
        return -1;
    while (i < len - 1) {
        size_t end = i, c1, c2;
        char base[sizeof(f->target)];
        uint64_t off = 0;

        /* a field runs to the next comma outside parentheses (vec(n+1) holds none) */
        for (int depth = 0; end < len - 1 && (depth > 0 || t[end] != ','); end++)
            depth += t[end] == '(' ? 1 : t[end] == ')' ? -1 : 0;
        for (c1 = i; c1 < end && isdigit((unsigned char)t[c1]) && off < UINT32_MAX; c1++)
            off = off * 10 + (uint64_t)(t[c1] - '0');
        if (*n == max || c1 == i || c1 >= end || t[c1] != ':' || off >= UINT32_MAX)
            return -1;
        for (c2 = c1 + 1; c2 < end && t[c2] != ':'; c2++)
            ;
        if (c2 >= end || end - c2 - 1 >= sizeof(f->target) ||
            !augur_type_parse(t + c1 + 1, c2 - c1 - 1, &f[*n].type) ||
            !(augur_type_is_int(f[*n].type) || augur_type_is_float(f[*n].type)))
            return -1;
        f[*n].offset = (uint32_t)off;
        memcpy(f[*n].target, t + c2 + 1, end - c2 - 1);
        f[*n].target[end - c2 - 1] = '\0';
        if (!base_target_ok(f[*n].target, end - c2 - 1) &&
            !augur_bind_one_based(f[*n].target, base, sizeof(base)))
            return -1;
        for (unsigned j = 0; j < *n; j++) /* fields may not overlap */
            if (f[j].offset < off + augur_type_size(f[*n].type) &&
                off < f[j].offset + augur_type_size(f[j].type))
                return -1;
        ++*n;
        i = end + (end < len - 1);
    }
    return *n ? 0 : -1;
}

bool augur_bind_one_based(const char *t, char *base, size_t size)
{
    size_t n = strlen(t), head = strcspn(t, ".(");

    /* "csr1.rowptr", "vec1(n)", "deg1": the family's name with a trailing 1 */
    if (head < 2 || t[head - 1] != '1' || n >= size || base_target_ok(t, n))
        return false;
    memcpy(base, t, head - 1);
    memcpy(base + head - 1, t + head, n - head + 1);
    return base_target_ok(base, n - 1);
}

bool augur_bind_is_array_target(const char *t)
{
    struct augur_rec_field f[AUGUR_REC_MAX_FIELDS];
    char base[256];
    unsigned n;

    return base_target_ok(t, strlen(t)) || augur_bind_one_based(t, base, sizeof(base)) ||
           augur_bind_rec(t, strlen(t), f, AUGUR_REC_MAX_FIELDS, &n) == 0;
}

bool augur_kernel_runs_tiling(const struct augur_node *kernel)
{
    const struct augur_kernel_info *k = &kernel->u.kernel;

    for (uint32_t i = 0; i < k->narrays; i++)
        if (k->arrays[i].bind && !strncmp(k->arrays[i].bind, "tiling", 6))
            return true;
    for (uint32_t i = 0; i < k->nsyms; i++)
        if (k->syms[i].bind && !strncmp(k->syms[i].bind, "tiling", 6))
            return true;
    return false;
}

bool augur_bind_uses_round(const char *t)
{
    for (const char *p = t ? strstr(t, "round") : NULL; p; p = strstr(p + 1, "round")) {
        bool before = p > t && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.');
        bool after = isalnum((unsigned char)p[5]) || p[5] == '_' || p[5] == '.';

        if (!before && !after)
            return true;
    }
    return false;
}

bool augur_bind_is_scalar_target(const char *t)
{
    if (t[0] == '=') {
        char *end;

        if (!t[1] || isspace((unsigned char)t[1]))
            return false;
        (void)strtod(t + 1, &end);
        return *end == '\0';
    }
    return expr_ok(t, strlen(t));
}

/* ---- explicit bindings ----------------------------------------------------------------- */

/*
 * A name with its struct members joined by '.' ("A->p" and "A.p" are both "A.p"), into buf;
 * false when it does not fit.
 */
static bool dotted(const char *name, char *buf, size_t size)
{
    size_t n = 0;

    for (const char *p = name; *p; p++) {
        if (p[0] == '-' && p[1] == '>')
            p++;
        if (n + 1 >= size)
            return false;
        buf[n++] = *p == '>' ? '.' : *p;
    }
    buf[n] = '\0';
    return true;
}

/*
 * True when the skeleton's name skel_name is name: exactly (exact), or as made unique there
 * ("ptr.2"); a struct member written with '.' names the one the skeleton writes with "->".
 */
static bool name_matches(const char *skel_name, const char *name, bool exact)
{
    char a[256], b[256];

    if (exact ? !strcmp(skel_name, name) : augur_skel_name_is(skel_name, name))
        return true;
    if (!dotted(skel_name, a, sizeof(a)) || !dotted(name, b, sizeof(b)))
        return false;
    return exact ? !strcmp(a, b) : augur_skel_name_is(a, b);
}

static int bind_one(struct augur_skel *skel, struct augur_node *k, const char *name,
                    const char *target, enum augur_bind_src src, bool *found,
                    struct augur_diag *diag)
{
    struct augur_kernel_info *ki = &k->u.kernel;
    bool exact = false;

    /* the C name as the skeleton keeps it, or made unique there ("ptr.2") */
    for (uint32_t i = 0; i < ki->narrays && !exact; i++)
        exact = name_matches(ki->arrays[i].name, name, true);
    for (uint32_t i = 0; i < ki->nsyms && !exact; i++)
        exact = name_matches(ki->syms[i].name, name, true);
    for (uint32_t i = 0; i < ki->narrays; i++) {
        struct augur_array *a = &ki->arrays[i];

        if (!name_matches(a->name, name, exact))
            continue;
        if (!augur_bind_is_array_target(target))
            return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0,
                                  "'%s' is an array: '%s' is not an array binding (csr.rowptr, "
                                  "csr.col, vec(n), ...)",
                                  name, target);
        *found = true;
        if (a->bind_src != AUGUR_BIND_NONE && a->bind_src < src)
            return 0; /* a binding of higher precedence stays */
        a->bind = augur_arena_strdup(&skel->arena, target);
        a->bind_src = src;
        return 0;
    }
    for (uint32_t i = 0; i < ki->nsyms; i++) {
        struct augur_sym *s = &ki->syms[i];

        if (!name_matches(s->name, name, exact))
            continue;
        if (s->kind != AUGUR_SYM_PARAM)
            return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0,
                                  "'%s' is a %s, not a kernel parameter: it cannot be bound", name,
                                  augur_skel_sym_kind_names[s->kind]);
        if (!augur_bind_is_scalar_target(target)) {
            char why[sizeof(diag->msg)] = "";

            /* the expression's own complaint (an unknown name and the names that exist) */
            if (target[0] != '=' &&
                augur_bind_expr_eval(target, strlen(target), NULL, NULL, NULL, diag) != 0 && diag) {
                why[0] = ':';
                why[1] = ' ';
                memcpy(why + 2, diag->msg, strnlen(diag->msg, sizeof(why) - 3));
                why[2 + strnlen(diag->msg, sizeof(why) - 3)] = '\0';
            }
            return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0,
                                  "'%s' is a scalar: '%s' is not a scalar binding (n, nnz, "
                                  "round, an expression such as n-1, or a number)%s",
                                  name, target, why);
        }
        *found = true;
        if (s->bind_src != AUGUR_BIND_NONE && s->bind_src < src)
            return 0;
        s->bind = augur_arena_strdup(&skel->arena, target);
        s->bind_src = src;
        return 0;
    }
    return 0;
}

int augur_skel_bind(struct augur_skel *skel, struct augur_node *kernel, const char *spec,
                    enum augur_bind_src src, struct augur_diag *diag)
{
    const char *p = spec;

    if (src == AUGUR_BIND_NONE || (unsigned)src >= AUGUR_BIND_SRC_COUNT)
        return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0, "invalid binding source");
    while (*p) {
        const char *eq;
        size_t len = 0;
        int depth = 0;

        /* a binding runs to the next comma outside parentheses: rec(0:i32:csr.rowptr,...) */
        for (; p[len] && (depth > 0 || p[len] != ','); len++)
            depth += p[len] == '(' ? 1 : p[len] == ')' ? -1 : 0;
        char item[258], *name, *target; /* room for the '=' a number gets */
        bool found = false;
        int rc;

        if (len == 0 || len >= sizeof(item) - 2)
            return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0,
                                  "bad binding list '%s': expected NAME=TARGET,...", spec);
        /* blanks do not count ("n - 1" is "n-1"): the text form keeps a target as one word */
        {
            size_t w = 0;

            for (size_t r = 0; r < len; r++)
                if (!isspace((unsigned char)p[r]))
                    item[w++] = p[r];
            item[w] = '\0';
        }
        eq = strchr(item, '=');
        if (!eq || eq == item || !eq[1])
            return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0,
                                  "bad binding '%s': expected NAME=TARGET", item);
        name = item;
        target = item + (eq - item) + 1;
        item[eq - item] = '\0';
        /* "n==5" would be read as n = "=5": a literal value is written n=5 too; "4*n" is an
           expression */
        if (isdigit((unsigned char)target[0]) || target[0] == '-' || target[0] == '.') {
            char *end;

            (void)strtod(target, &end);
            if (end != target && *end == '\0') {
                memmove(target + 1, target, strlen(target) + 1);
                target[0] = '=';
            }
        }
        for (uint32_t i = 0; i < skel->nkernels; i++) {
            if (kernel && skel->kernels[i] != kernel)
                continue;
            rc = bind_one(skel, skel->kernels[i], name, target, src, &found, diag);
            if (rc)
                return rc;
        }
        if (!found)
            return augur_diag_set(diag, AUGUR_EBIND, NULL, 0, 0,
                                  "cannot bind '%s': no array or scalar parameter of that name%s%s",
                                  name, kernel ? " in kernel " : "",
                                  kernel ? kernel->u.kernel.name : "");
        p += len;
        if (*p == ',')
            p++;
    }
    return 0;
}

/* ---- inference ---------------------------------------------------------------------------- */

struct guess {
    const char *target;
    const char *why;
};

/* What a loop from A[e] to A[e'] walks. */
enum row_kind {
    ROW_CSR,   /* A[i] .. A[i + 1]: a row pointer */
    ROW_PAIRS, /* A[2 * v] .. A[2 * v + 1]: interleaved begin and end offsets */
    ROW_PARTS, /* A[t] .. A[t + 1], t the thread's number: per-thread ranges */
    ROW_JDS,   /* A[d] .. A[d + 1] of a jagged diagonal (claimed by find_jds) */
    ROW_REC,   /* A[v].start .. A[v].start + A[v].count: an array of structs per node */
    ROW_OFF,   /* 0 .. A[i + 1] - A[i]: an offset into row i, read as A[i] + k */
    ROW_PTR,   /* 0 .. D[i] of an array of pointers A: the entries A[i][k], D[i] long */
};

/* True for the rows that walk one node's entries (not a thread's range or a diagonal). */
static bool node_row(enum row_kind k)
{
    return k == ROW_CSR || k == ROW_PAIRS || k == ROW_REC;
}

struct infer {
    struct augur_skel *skel;
    struct augur_node *k;
    struct augur_diag *diag;
    int rc;
    struct guess *arrays;            /* one per array */
    struct guess *syms;              /* one per sym */
    bool *index_array;               /* its values become indices (directly or through a copy) */
    bool *written;                   /* per array: stored into or updated */
    bool *compared;                  /* per array: an element is compared in a condition */
    int8_t *first_access;            /* per array: 1 when its first access is a store, -1 a load */
    bool *node_id;                   /* per sym: used, as it is, as the index of an access */
    const struct augur_expr **value; /* per sym: its single assigned value, or NULL */
    uint32_t *nassign;
    uint8_t *cycle_state; /* per sym: scratch for cut_cycles() */
    bool *thread_cmp;     /* per array: an element is compared with the thread's number */
    int64_t *slots;       /* per array: slot-major accesses' slots (k of k * n + i), -1 unknown */
    uint32_t nrowptr;     /* rows of kind ROW_CSR, ROW_PAIRS or ROW_REC */
    struct {
        uint32_t x, a; /* row variable x walks the rows of row pointer a */
        const struct augur_expr *e1;
        enum row_kind kind;
        uint32_t x2;    /* ROW_PAIRS: the v of A[2 * v] */
        bool one_based; /* the rows run from 1: for (j = 1; j <= E; j++) */
        /* ROW_REC: the two fields' loads; ROW_PTR: count, the load of the row's length */
        const struct augur_expr *start, *count;
    } rows[32];
    uint32_t nrows;
    int32_t sell_var;     /* SELL-C: the chunk loop's variable (-1: none) */
    int64_t sell_chunk;   /* and C */
    uint32_t level_array; /* scratch for level_target() */
};

static const struct augur_expr *strip(const struct augur_expr *e)
{
    while (e && e->kind == AUGUR_EXPR_CAST)
        e = e->u.cast.a;
    return e;
}

/* The index of a vector access without its "+ lane": e + lane is e for the rules below. */
static const struct augur_expr *base_index(const struct augur_node *k, const struct augur_expr *e)
{
    const struct augur_expr *b;

    e = strip(e);
    if (!e || e->kind != AUGUR_EXPR_BINARY || e->u.bin.op != AUGUR_OP_ADD)
        return e;
    b = strip(e->u.bin.b);
    if (b && b->kind == AUGUR_EXPR_SYM && k->u.kernel.syms[b->u.sym].kind == AUGUR_SYM_BUILTIN &&
        !strcmp(k->u.kernel.syms[b->u.sym].name, "lane"))
        return strip(e->u.bin.a);
    return e;
}

/* Replaces a sym assigned exactly once by its value (a few levels deep). */
static const struct augur_expr *resolve(const struct infer *in, const struct augur_expr *e)
{
    for (int i = 0; i < 8; i++) {
        e = strip(e);
        if (!e || e->kind != AUGUR_EXPR_SYM || !in->value[e->u.sym])
            break;
        e = in->value[e->u.sym];
    }
    return strip(e);
}

/* True when b is a + 1. */
static bool is_succ(const struct infer *in, const struct augur_expr *a, const struct augur_expr *b)
{
    const struct augur_expr *x, *y;

    b = resolve(in, b);
    a = resolve(in, a);
    if (!b || b->kind != AUGUR_EXPR_BINARY || b->u.bin.op != AUGUR_OP_ADD)
        return false;
    x = resolve(in, b->u.bin.a);
    y = resolve(in, b->u.bin.b);
    if (y && y->kind == AUGUR_EXPR_INT && y->u.i == 1)
        return augur_expr_equal(x, a) || (x && a && x->kind == AUGUR_EXPR_SYM &&
                                          a->kind == AUGUR_EXPR_SYM && x->u.sym == a->u.sym);
    if (x && x->kind == AUGUR_EXPR_INT && x->u.i == 1)
        return augur_expr_equal(y, a);
    return false;
}

/* True when some read of array a under n is at index ix + 1 or ix - 1. */
static bool read_beside(const struct infer *in, const struct augur_node *n, uint32_t a,
                        const struct augur_expr *ix)
{
    if (n->kind == AUGUR_NODE_ACCESS && n->u.access.array == a &&
        n->u.access.mode == AUGUR_ACCESS_READ &&
        (is_succ(in, ix, n->u.access.index) || is_succ(in, n->u.access.index, ix)))
        return true;
    for (uint32_t i = 0; i < n->nkids; i++)
        if (read_beside(in, n->kids[i], a, ix))
            return true;
    return false;
}

static int set_array(struct infer *in, uint32_t a, const char *target, const char *why)
{
    struct augur_array *arr = &in->k->u.kernel.arrays[a];
    struct guess *g = &in->arrays[a];

    if (in->rc || arr->bind_src != AUGUR_BIND_NONE)
        return in->rc;
    if (g->target && strcmp(g->target, target) != 0) {
        const char *file = arr->loc.file < in->skel->nfiles ? in->skel->files[arr->loc.file] : NULL;

        in->rc = augur_diag_set(in->diag, AUGUR_EBIND, file, arr->loc.line, arr->loc.col,
                                "array '%s' of kernel %s looks like both %s (%s) and %s (%s): "
                                "bind it with --bind %s=TARGET or #pragma augur bind(%s=TARGET)",
                                arr->name, in->k->u.kernel.name, g->target, g->why, target, why,
                                arr->name, arr->name);
        return in->rc;
    }
    g->target = target;
    g->why = why;
    return 0;
}

/* A weaker guess: only when nothing else was found for the array. */
static void maybe_array(struct infer *in, uint32_t a, const char *target, const char *why)
{
    if (!in->arrays[a].target && in->k->u.kernel.arrays[a].bind_src == AUGUR_BIND_NONE &&
        in->k->u.kernel.arrays[a].space != AUGUR_SPACE_SHARED &&
        in->k->u.kernel.arrays[a].space != AUGUR_SPACE_LOCAL) {
        in->arrays[a].target = target;
        in->arrays[a].why = why;
    }
}

static void set_sym(struct infer *in, const struct augur_expr *e, const char *target,
                    const char *why)
{
    e = strip(e);
    if (!e || e->kind != AUGUR_EXPR_SYM)
        return;
    if (in->k->u.kernel.syms[e->u.sym].kind != AUGUR_SYM_PARAM ||
        in->k->u.kernel.syms[e->u.sym].bind_src != AUGUR_BIND_NONE || in->syms[e->u.sym].target)
        return;
    in->syms[e->u.sym].target = target;
    in->syms[e->u.sym].why = why;
}

/* Marks the arrays loaded as an operand of a comparison in a condition. */
static void mark_compared(struct infer *in, const struct augur_expr *c)
{
    c = resolve(in, c);
    if (!c)
        return;
    if (c->kind == AUGUR_EXPR_UNARY) {
        mark_compared(in, c->u.un.a);
        return;
    }
    if (c->kind == AUGUR_EXPR_LOAD) { /* "if (deg[v])": compared with zero */
        in->compared[c->u.load.array] = true;
        return;
    }
    if (c->kind != AUGUR_EXPR_BINARY)
        return;
    switch (c->u.bin.op) {
    case AUGUR_OP_LAND:
    case AUGUR_OP_LOR:
        mark_compared(in, c->u.bin.a);
        mark_compared(in, c->u.bin.b);
        break;
    case AUGUR_OP_EQ:
    case AUGUR_OP_NE:
    case AUGUR_OP_LT:
    case AUGUR_OP_LE:
    case AUGUR_OP_GT:
    case AUGUR_OP_GE:
        for (int side = 0; side < 2; side++) {
            const struct augur_expr *o = resolve(in, side ? c->u.bin.b : c->u.bin.a);

            if (o && o->kind == AUGUR_EXPR_LOAD)
                in->compared[o->u.load.array] = true;
        }
        break;
    default:
        break;
    }
}

/* Collects single assignments, index arrays, and how each array and parameter is used. */
static void scan(struct infer *in, const struct augur_node *n)
{
    if (n->kind == AUGUR_NODE_ASSIGN) {
        uint32_t s = n->u.assign.sym;

        in->nassign[s]++;
        in->value[s] = in->nassign[s] == 1 ? n->u.assign.value : NULL;
    } else if (n->kind == AUGUR_NODE_LOOP && n->u.loop.var >= 0) {
        in->nassign[n->u.loop.var] += 2; /* a loop variable is never a single value */
        in->value[n->u.loop.var] = NULL;
    } else if (n->kind == AUGUR_NODE_ACCESS) {
        uint32_t a = n->u.access.array;

        for (uint32_t i = 0; i < n->u.access.nvia; i++)
            in->index_array[n->u.access.via[i]] = true;
        if (n->u.access.mode != AUGUR_ACCESS_READ)
            in->written[a] = true;
        if (!in->first_access[a])
            in->first_access[a] = n->u.access.mode == AUGUR_ACCESS_READ ? -1 : 1;
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        scan(in, n->kids[i]);
}

/*
 * Forgets the single value of every sym whose value reaches back to it (i = i + 1, or i = j and
 * j = i): the rules below follow values, and a cycle would have them follow it forever.
 * state: 0 not seen, 1 on the path, 2 done.
 */
static void cut_cycles_expr(struct infer *in, const struct augur_expr *e, uint8_t *state);

static void cut_cycles_sym(struct infer *in, uint32_t s, uint8_t *state)
{
    if (state[s] == 2 || !in->value[s])
        return;
    state[s] = 1;
    cut_cycles_expr(in, in->value[s], state);
    state[s] = 2;
}

static void cut_cycles_expr(struct infer *in, const struct augur_expr *e, uint8_t *state)
{
    if (!e)
        return;
    switch (e->kind) {
    case AUGUR_EXPR_SYM:
        if (state[e->u.sym] == 1)
            in->value[e->u.sym] = NULL;
        else
            cut_cycles_sym(in, e->u.sym, state);
        break;
    case AUGUR_EXPR_LOAD:
        cut_cycles_expr(in, e->u.load.index, state);
        break;
    case AUGUR_EXPR_UNARY:
        cut_cycles_expr(in, e->u.un.a, state);
        break;
    case AUGUR_EXPR_BINARY:
        cut_cycles_expr(in, e->u.bin.a, state);
        cut_cycles_expr(in, e->u.bin.b, state);
        break;
    case AUGUR_EXPR_SELECT:
        cut_cycles_expr(in, e->u.sel.cond, state);
        cut_cycles_expr(in, e->u.sel.a, state);
        cut_cycles_expr(in, e->u.sel.b, state);
        break;
    case AUGUR_EXPR_CAST:
        cut_cycles_expr(in, e->u.cast.a, state);
        break;
    default:
        break;
    }
}

static void cut_cycles(struct infer *in, uint8_t *state)
{
    for (uint32_t s = 0; s < in->k->u.kernel.nsyms; s++)
        cut_cycles_sym(in, s, state);
}

/* An array whose loaded values are stored into an index array is an index array too. */
static bool spread_index(struct infer *in, const struct augur_node *n)
{
    bool changed = false;

    if (n->kind == AUGUR_NODE_ACCESS && n->u.access.mode != AUGUR_ACCESS_READ &&
        n->u.access.value && in->index_array[n->u.access.array]) {
        for (uint32_t a = 0; a < in->k->u.kernel.narrays; a++)
            if (!in->index_array[a] && augur_expr_uses_array(n->u.access.value, a)) {
                in->index_array[a] = true;
                changed = true;
            }
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        changed |= spread_index(in, n->kids[i]);
    return changed;
}

/*
 * After scan() (single assignments known): syms that index an access as they
 * are (node ids, counters), arrays compared in a branch condition.
 */
static void find_uses(struct infer *in, const struct augur_node *n)
{
    if (n->kind == AUGUR_NODE_ACCESS) {
        const struct augur_expr *ix = resolve(in, base_index(in->k, n->u.access.index));

        if (ix && ix->kind == AUGUR_EXPR_SYM)
            in->node_id[ix->u.sym] = true;
    } else if (n->kind == AUGUR_NODE_BRANCH) {
        mark_compared(in, n->u.branch.cond);
    } else if (n->kind == AUGUR_NODE_ASSIGN && n->u.assign.value &&
               n->u.assign.value->kind == AUGUR_EXPR_BINARY) {
        /* a comparison kept in a sym for a later branch (ok = old == expected) */
        switch (n->u.assign.value->u.bin.op) {
        case AUGUR_OP_EQ:
        case AUGUR_OP_NE:
        case AUGUR_OP_LT:
        case AUGUR_OP_LE:
        case AUGUR_OP_GT:
        case AUGUR_OP_GE:
        case AUGUR_OP_LAND:
        case AUGUR_OP_LOR:
            mark_compared(in, n->u.assign.value);
            break;
        default:
            break;
        }
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        find_uses(in, n->kids[i]);
}

/* The bound of a for loop "v < B" / "v <= B" / "v != B", or NULL. */
static const struct augur_expr *loop_bound(const struct infer *in, const struct augur_node *n)
{
    const struct augur_expr *c = strip(n->u.loop.cond), *a;

    (void)in;
    if (n->u.loop.form != AUGUR_LOOP_FOR || !c || c->kind != AUGUR_EXPR_BINARY)
        return NULL;
    if (c->u.bin.op != AUGUR_OP_LT && c->u.bin.op != AUGUR_OP_LE && c->u.bin.op != AUGUR_OP_NE)
        return NULL;
    a = strip(c->u.bin.a);
    /* "v + 16 <= B" (a loop in steps of a vector) bounds v as well */
    if (a && a->kind == AUGUR_EXPR_BINARY &&
        (a->u.bin.op == AUGUR_OP_ADD || a->u.bin.op == AUGUR_OP_SUB) &&
        strip(a->u.bin.b)->kind == AUGUR_EXPR_INT)
        a = strip(a->u.bin.a);
    if (!a || a->kind != AUGUR_EXPR_SYM || a->u.sym != (uint32_t)n->u.loop.var)
        return NULL;
    return c->u.bin.b;
}

/* The array whose element the expression loads (after resolving syms), or -1. */
static int32_t loaded_array(const struct infer *in, const struct augur_expr *e,
                            const struct augur_expr **index)
{
    e = resolve(in, e);
    if (!e || e->kind != AUGUR_EXPR_LOAD)
        return -1;
    if (index)
        *index = e->u.load.index;
    return (int32_t)e->u.load.array;
}

/* True when e (resolved) is the sym s. */
static bool is_sym(const struct infer *in, const struct augur_expr *e, int32_t s)
{
    e = resolve(in, e);
    return e && s >= 0 && e->kind == AUGUR_EXPR_SYM && e->u.sym == (uint32_t)s;
}

/* True when e (resolved) is the OpenMP thread's number (t = omp_get_thread_num()). */
static bool is_thread(const struct infer *in, const struct augur_expr *e)
{
    const struct augur_sym *s;

    e = resolve(in, e);
    if (!e || e->kind != AUGUR_EXPR_SYM)
        return false;
    s = &in->k->u.kernel.syms[e->u.sym];
    return s->kind == AUGUR_SYM_BUILTIN && !strcmp(s->name, "omp.thread");
}

/* bool and char elements: masks, never counts such as degrees. */
static bool is_mask_type(enum augur_type t)
{
    return t == AUGUR_T_BOOL || t == AUGUR_T_I8 || t == AUGUR_T_U8;
}

/* The for loop whose variable is sym v, or NULL. */
static const struct augur_node *loop_of(const struct augur_node *n, uint32_t v)
{
    if (n->kind == AUGUR_NODE_LOOP && n->u.loop.form == AUGUR_LOOP_FOR && n->u.loop.var >= 0 &&
        (uint32_t)n->u.loop.var == v)
        return n;
    for (uint32_t i = 0; i < n->nkids; i++) {
        const struct augur_node *l = loop_of(n->kids[i], v);

        if (l)
            return l;
    }
    return NULL;
}

/* True for a loop from 1 to "v <= E" (Fortran and NPB style). */
static bool one_based_loop(const struct infer *in, const struct augur_node *l)
{
    const struct augur_expr *i, *c;

    if (!l || l->kind != AUGUR_NODE_LOOP || l->u.loop.form != AUGUR_LOOP_FOR)
        return false;
    i = resolve(in, l->u.loop.init);
    c = strip(l->u.loop.cond);
    return i && i->kind == AUGUR_EXPR_INT && i->u.i == 1 && c && c->kind == AUGUR_EXPR_BINARY &&
           c->u.bin.op == AUGUR_OP_LE;
}

/* The sym x of an index 2 * x (or x * 2), or -1. */
static int32_t pair_index(const struct infer *in, const struct augur_expr *e)
{
    const struct augur_expr *x, *y;

    e = resolve(in, e);
    if (!e || e->kind != AUGUR_EXPR_BINARY || e->u.bin.op != AUGUR_OP_MUL)
        return -1;
    /* the node itself, not the value it was set to (v = vlist[k]; xoff[2 * v]) */
    x = strip(e->u.bin.a);
    y = strip(e->u.bin.b);
    if (x && x->kind != AUGUR_EXPR_SYM)
        x = resolve(in, x);
    if (y && y->kind != AUGUR_EXPR_SYM)
        y = resolve(in, y);
    if (x && x->kind == AUGUR_EXPR_INT) {
        const struct augur_expr *t = x;

        x = y;
        y = t;
    }
    if (!x || !y || x->kind != AUGUR_EXPR_SYM || y->kind != AUGUR_EXPR_INT || y->u.i != 2)
        return -1;
    return (int32_t)x->u.sym;
}

/*
 * The terms of a sum, through +, casts and syms assigned once (at = cs[c] + j * C + r), into
 * t[0 .. max); their number, or -1 when there are more.
 */
static int sum_terms(const struct infer *in, const struct augur_expr *e,
                     const struct augur_expr **t, int n, int max, int depth)
{
    e = resolve(in, e);
    if (n < 0 || !e || depth > 16)
        return -1;
    if (e->kind == AUGUR_EXPR_BINARY && e->u.bin.op == AUGUR_OP_ADD)
        return sum_terms(in, e->u.bin.b, t, sum_terms(in, e->u.bin.a, t, n, max, depth + 1), max,
                         depth + 1);
    if (n >= max)
        return -1;
    t[n] = e;
    return n + 1;
}

/* The 0-based name of a binding target (csr1.col: csr.col) in buf, or t itself. */
static const char *zero_based(const char *t, char *buf, size_t size)
{
    return t && augur_bind_one_based(t, buf, size) ? buf : t;
}

static bool is_one_based(const char *t)
{
    char buf[128];

    return t && augur_bind_one_based(t, buf, sizeof(buf));
}

/* Offsets: positions in other arrays, not elements (csr.rowptr, jds.ptr, sell8.cs, parts(n)). */
static bool is_offsets(const char *t)
{
    char buf[128];
    uint32_t c;
    size_t f;

    t = zero_based(t, buf, sizeof(buf));
    if (!t)
        return false;
    if (augur_bind_sell(t, strlen(t), &c, &f) == 0)
        return !strcmp(t + f, "cs");
    return !strcmp(t, "csr.rowptr") || !strcmp(t, "csc.colptr") || !strcmp(t, "csr.rowpairs") ||
           !strcmp(t, "jds.ptr") || !strcmp(t, "tiling.tgroup_tile") ||
           !strcmp(t, "tiling.tile_group") || !strncmp(t, "parts(", 6);
}

/* Column indices: their values index vectors of m (csr.col, coo.col, jds.col, sell8.col). */
static bool is_columns(const char *t)
{
    char buf[128];
    uint32_t c;
    size_t f;

    t = zero_based(t, buf, sizeof(buf));
    if (!t)
        return false;
    if (augur_bind_sell(t, strlen(t), &c, &f) == 0)
        return !strcmp(t + f, "col");
    return !strcmp(t, "csr.col") || !strcmp(t, "coo.col") || !strcmp(t, "edges.dst") ||
           !strcmp(t, "jds.col");
}

/* The target array a has so far (explicit or guessed), or NULL. */
static const char *array_target(const struct infer *in, uint32_t a)
{
    return in->arrays[a].target ? in->arrays[a].target : in->k->u.kernel.arrays[a].bind;
}

/*
 * What a loop bound counts: the target of a scalar (n, nnz, ...), or SIZE when the bound loads
 * parts(SIZE) (e < ie[t + 1]: a thread's range of edges); NULL otherwise.
 */
static const char *bound_of(const struct infer *in, const struct augur_expr *b)
{
    const struct augur_expr *e = strip(b);
    const char *t;

    if (e && e->kind == AUGUR_EXPR_SYM)
        return in->syms[e->u.sym].target ? in->syms[e->u.sym].target
                                         : in->k->u.kernel.syms[e->u.sym].bind;
    e = resolve(in, b);
    if (!e || e->kind != AUGUR_EXPR_LOAD || !(t = array_target(in, e->u.load.array)))
        return NULL;
    return !strcmp(t, "parts(n)")     ? "n"
           : !strcmp(t, "parts(m)")   ? "m"
           : !strcmp(t, "parts(nnz)") ? "nnz"
                                      : NULL;
}

/* The constant multiplier in an index such as 4*i + k, or 0. */
/* True when e is a CUDA block index (blockIdx.x, .y, .z). */
static bool is_block_index(const struct infer *in, const struct augur_expr *e)
{
    const struct augur_sym *s;

    e = strip(e);
    if (!e || e->kind != AUGUR_EXPR_SYM)
        return false;
    s = &in->k->u.kernel.syms[e->u.sym];
    return s->kind == AUGUR_SYM_BUILTIN && !strncmp(s->name, "blockIdx.", 9);
}

static int64_t stride_of(const struct infer *in, const struct augur_expr *e, int depth)
{
    e = resolve(in, e);
    if (!e || depth > 16)
        return 0;
    if (e->kind == AUGUR_EXPR_BINARY && e->u.bin.op == AUGUR_OP_MUL) {
        const struct augur_expr *x = strip(e->u.bin.a), *y = strip(e->u.bin.b);

        /* blockIdx.x * 256 (+ threadIdx.x): where a block's threads start, not a stride */
        if (is_block_index(in, x) || is_block_index(in, y))
            return 0;
        if (x->kind == AUGUR_EXPR_INT && x->u.i > 1)
            return x->u.i;
        if (y->kind == AUGUR_EXPR_INT && y->u.i > 1)
            return y->u.i;
    }
    if (e->kind == AUGUR_EXPR_BINARY) {
        int64_t s = stride_of(in, e->u.bin.a, depth + 1);

        return s ? s : stride_of(in, e->u.bin.b, depth + 1);
    }
    return 0;
}

static bool name_has(const char *name, const char *const *words)
{
    const char *base = name;

    for (const char *p = name; *p; p++)
        if (*p == '.' || *p == '>')
            base = p + 1;
    for (int i = 0; words[i]; i++)
        if (strstr(base, words[i]))
            return true;
    return false;
}

/* Calls fn(in, x, bound) for every "x < bound" (<=, !=, or bound > x) test in a condition. */
static void tests(struct infer *in, const struct augur_expr *c, const struct augur_node *loop,
                  void (*fn)(struct infer *, const struct augur_node *, const struct augur_expr *,
                             const struct augur_expr *))
{
    c = strip(c);
    if (!c || c->kind != AUGUR_EXPR_BINARY)
        return;
    switch (c->u.bin.op) {
    case AUGUR_OP_LAND:
    case AUGUR_OP_LOR:
        tests(in, c->u.bin.a, loop, fn);
        tests(in, c->u.bin.b, loop, fn);
        break;
    case AUGUR_OP_LT:
    case AUGUR_OP_LE:
    case AUGUR_OP_NE:
        fn(in, loop, c->u.bin.a, c->u.bin.b);
        break;
    case AUGUR_OP_GT:
    case AUGUR_OP_GE:
        fn(in, loop, c->u.bin.b, c->u.bin.a);
        break;
    default:
        break;
    }
}

static void add_row(struct infer *in, uint32_t x, uint32_t a, const struct augur_expr *e1)
{
    for (uint32_t i = 0; i < in->nrows; i++)
        if (in->rows[i].x == x && in->rows[i].a == a)
            return;
    if (in->nrows < sizeof(in->rows) / sizeof(in->rows[0])) {
        in->rows[in->nrows].x = x;
        in->rows[in->nrows].a = a;
        in->rows[in->nrows].e1 = e1;
        in->rows[in->nrows].kind = ROW_CSR;
        in->nrows++;
    }
}

/*
 * The array a row's start loads: A[e1], or A[e1] plus an offset, the lane of a
 * row shared out among the threads of a warp or the lanes of a vector
 * ("j = rowptr[row] + lane; j < rowptr[row + 1]; j += 32").
 */
static int32_t start_array(const struct infer *in, const struct augur_expr *v,
                           const struct augur_expr **e1)
{
    int32_t a = loaded_array(in, v, e1);

    v = resolve(in, v);
    if (a >= 0 || !v || v->kind != AUGUR_EXPR_BINARY || v->u.bin.op != AUGUR_OP_ADD)
        return a;
    a = loaded_array(in, v->u.bin.a, e1);
    return a >= 0 ? a : loaded_array(in, v->u.bin.b, e1);
}

/* Does some start value of x load A[e1] with bound index e2 = e1 + 1? */
static void row_starts(struct infer *in, const struct augur_node *n, uint32_t x, int32_t a,
                       const struct augur_expr *e2)
{
    const struct augur_expr *v = NULL, *e1 = NULL;

    if (n->kind == AUGUR_NODE_ASSIGN && n->u.assign.sym == x)
        v = n->u.assign.value;
    if (n->kind == AUGUR_NODE_LOOP && n->u.loop.var == (int32_t)x)
        v = n->u.loop.init;
    if (v && start_array(in, v, &e1) == a && is_succ(in, e1, e2))
        add_row(in, x, (uint32_t)a, e1);
    for (uint32_t i = 0; i < n->nkids; i++)
        row_starts(in, n->kids[i], x, a, e2);
}

/* A load of a field of a struct element (A[e].f), resolved, or NULL. */
static const struct augur_expr *field_load(const struct infer *in, const struct augur_expr *e)
{
    e = resolve(in, e);
    if (!e || e->kind != AUGUR_EXPR_LOAD ||
        in->k->u.kernel.arrays[e->u.load.array].elem != AUGUR_T_REC)
        return NULL;
    return e;
}

/*
 * A row held in an array of structs, one per node (Rodinia's Node{starting,
 * no_of_edges}): x starts at A[v].start and runs below A[v].start + A[v].count.
 */
static void rec_row(struct infer *in, const struct augur_node *n, uint32_t x,
                    const struct augur_expr *bound)
{
    const struct augur_expr *b = resolve(in, bound), *v = NULL, *f, *g, *start;

    if (!b || b->kind != AUGUR_EXPR_BINARY || b->u.bin.op != AUGUR_OP_ADD)
        return;
    f = field_load(in, b->u.bin.a);
    g = field_load(in, b->u.bin.b);
    if (!f || !g || f->u.load.array != g->u.load.array || f->u.load.offset == g->u.load.offset ||
        !augur_expr_equal(f->u.load.index, g->u.load.index))
        return;
    if (n->kind == AUGUR_NODE_ASSIGN && n->u.assign.sym == x)
        v = n->u.assign.value;
    if (n->kind == AUGUR_NODE_LOOP && n->u.loop.var == (int32_t)x)
        v = n->u.loop.init;
    start = v ? field_load(in, v) : NULL;
    if (start && start->u.load.array == f->u.load.array &&
        augur_expr_equal(start->u.load.index, f->u.load.index) &&
        (start->u.load.offset == f->u.load.offset || start->u.load.offset == g->u.load.offset)) {
        uint32_t before = in->nrows;

        add_row(in, x, f->u.load.array, f->u.load.index);
        if (in->nrows > before) {
            in->rows[before].kind = ROW_REC;
            in->rows[before].start = start;
            in->rows[before].count = start->u.load.offset == f->u.load.offset ? g : f;
        }
        return;
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        rec_row(in, n->kids[i], x, bound);
}

/*
 * "for (k = 0; k < A[i + 1] - A[i]; k++)": k is an offset into row i, whose
 * entries the loop reads as col[A[i] + k] (a helper's degree(v) as the bound).
 */
static bool offset_row(struct infer *in, const struct augur_node *loop, uint32_t x,
                       const struct augur_expr *bound)
{
    const struct augur_expr *b = resolve(in, bound), *init, *i0 = NULL, *i1 = NULL;
    int32_t a0, a1;
    uint32_t before = in->nrows;

    if (!loop || loop->kind != AUGUR_NODE_LOOP || loop->u.loop.var != (int32_t)x || !b ||
        b->kind != AUGUR_EXPR_BINARY || b->u.bin.op != AUGUR_OP_SUB)
        return false;
    init = resolve(in, loop->u.loop.init);
    a1 = loaded_array(in, b->u.bin.a, &i1);
    a0 = loaded_array(in, b->u.bin.b, &i0);
    if (!init || init->kind != AUGUR_EXPR_INT || init->u.i != 0 || a0 < 0 || a0 != a1 ||
        !is_succ(in, i0, i1))
        return false;
    add_row(in, x, (uint32_t)a0, i0);
    if (in->nrows > before)
        in->rows[before].kind = ROW_OFF;
    return true;
}

/*
 * The arrays of pointers P whose row i a loop over x reads under n as P[i][x]
 * (P[i] + x), each added as a row of x, D[i] long (count, D[i]'s load); how many.
 */
static unsigned pointer_row_reads(struct infer *in, const struct augur_node *n, uint32_t x,
                                  const struct augur_expr *i, const struct augur_expr *count)
{
    unsigned found = 0;

    if (n->kind == AUGUR_NODE_ACCESS) {
        const struct augur_expr *ix = resolve(in, n->u.access.index), *p, *q, *i2 = NULL;
        int32_t a;

        if (ix && ix->kind == AUGUR_EXPR_BINARY && ix->u.bin.op == AUGUR_OP_ADD &&
            (p = strip(ix->u.bin.a)) != NULL && (q = strip(ix->u.bin.b)) != NULL) {
            if (p->kind == AUGUR_EXPR_SYM && p->u.sym == x)
                p = q;
            else if (!(q->kind == AUGUR_EXPR_SYM && q->u.sym == x))
                p = NULL;
            a = p ? loaded_array(in, p, &i2) : -1;
            /* P[i] + x of an array of pointers, or S[i].start + x of the struct array whose
               S[i].length bounds the loop (an adjacency list's vectors: adj[u][k]) */
            if (a >= 0 && i2 && augur_expr_equal(resolve(in, i2), resolve(in, i)) &&
                (in->k->u.kernel.arrays[a].elem == AUGUR_T_PTR ||
                 (in->k->u.kernel.arrays[a].elem == AUGUR_T_REC && count &&
                  count->kind == AUGUR_EXPR_LOAD && count->u.load.array == (uint32_t)a &&
                  resolve(in, p)->kind == AUGUR_EXPR_LOAD &&
                  resolve(in, p)->u.load.offset != count->u.load.offset))) {
                uint32_t before = in->nrows;

                add_row(in, x, (uint32_t)a, i);
                if (in->nrows > before) {
                    in->rows[before].kind = ROW_PTR;
                    in->rows[before].count = count;
                    in->rows[before].start = resolve(in, p);
                }
                found++;
            }
        }
    }
    for (uint32_t k = 0; k < n->nkids; k++)
        found += pointer_row_reads(in, n->kids[k], x, i, count);
    return found;
}

/*
 * "for (k = 0; k < D[i]; k++) ... P[i][k]" with P an array of pointers, each at
 * its row in one block (HPCCG's ptr_to_vals_in_row, HPCG's matrixValues): the
 * front end reads P[i][k] as P.pointee[P[i] + k], so P holds the rows' starts
 * (a row pointer) and D their lengths.
 */
static bool pointer_row(struct infer *in, const struct augur_node *loop, uint32_t x,
                        const struct augur_expr *bound)
{
    const struct augur_expr *init, *i = NULL;
    int32_t d = loaded_array(in, bound, &i);

    if (!loop || loop->kind != AUGUR_NODE_LOOP || loop->u.loop.var != (int32_t)x || d < 0 ||
        !(augur_type_is_int(in->k->u.kernel.arrays[d].elem) ||
          in->k->u.kernel.arrays[d].elem == AUGUR_T_REC))
        return false;
    init = resolve(in, loop->u.loop.init);
    return init && init->kind == AUGUR_EXPR_INT && init->u.i == 0 &&
           pointer_row_reads(in, loop, x, i, resolve(in, bound)) > 0;
}

static bool is_rowptr_target(const char *t)
{
    return t && (!strcmp(t, "csr.rowptr") || !strcmp(t, "csr1.rowptr"));
}

/* True when ix is A[e1] + x (either way round), the entry at offset x of row e1 of A. */
static bool offset_entry(const struct infer *in, const struct augur_expr *ix, uint32_t x,
                         uint32_t a, const struct augur_expr *e1)
{
    const struct augur_expr *p, *q, *i = NULL;

    ix = resolve(in, ix);
    if (!ix || ix->kind != AUGUR_EXPR_BINARY || ix->u.bin.op != AUGUR_OP_ADD)
        return false;
    p = strip(ix->u.bin.a);
    q = strip(ix->u.bin.b);
    if (!p || !q)
        return false;
    if (q->kind == AUGUR_EXPR_SYM && q->u.sym == x)
        q = p;
    else if (!(p->kind == AUGUR_EXPR_SYM && p->u.sym == x))
        return false;
    return loaded_array(in, q, &i) == (int32_t)a && i && e1 &&
           augur_expr_equal(resolve(in, i), resolve(in, e1));
}

static void row_test(struct infer *in, const struct augur_node *loop, const struct augur_expr *x,
                     const struct augur_expr *bound)
{
    const struct augur_expr *e2 = NULL;
    int32_t a;

    x = strip(x);
    /* "j + 8 <= A[i+1]" (a row walked in steps of a vector) tests j as well */
    if (x && x->kind == AUGUR_EXPR_BINARY && x->u.bin.op == AUGUR_OP_ADD &&
        strip(x->u.bin.b)->kind == AUGUR_EXPR_INT)
        x = strip(x->u.bin.a);
    if (!x || x->kind != AUGUR_EXPR_SYM)
        return;
    a = loaded_array(in, bound, &e2);
    if (a >= 0 && pointer_row(in, loop, x->u.sym, bound))
        return;
    /* "p < Up[j+1] - 1": a row less its last entry (CSparse's cs_usolve skips the diagonal) */
    if (a < 0 && (bound = resolve(in, bound)) && bound->kind == AUGUR_EXPR_BINARY &&
        (bound->u.bin.op == AUGUR_OP_ADD || bound->u.bin.op == AUGUR_OP_SUB) &&
        strip(bound->u.bin.b)->kind == AUGUR_EXPR_INT)
        a = loaded_array(in, bound->u.bin.a, &e2);
    if (a >= 0)
        row_starts(in, in->k, x->u.sym, a, e2);
    else if (!offset_row(in, loop, x->u.sym, bound))
        rec_row(in, in->k, x->u.sym, bound);
}

/*
 * The test of a loop's exit at the top of its body, "if (k >= A[i+1]) break;"
 * (a do { ... } while (1) that leaves that way), read as the loop's own
 * "k < A[i+1]": for k >= B, k > B, B <= k and B < k.
 */
static void break_test(struct infer *in, const struct augur_node *loop)
{
    const struct augur_node *b = NULL, *j;
    const struct augur_expr *c;

    for (uint32_t i = 0; i < loop->nkids && !b; i++)
        if (loop->kids[i]->kind == AUGUR_NODE_BRANCH)
            b = loop->kids[i];
        else if (loop->kids[i]->kind != AUGUR_NODE_ACCESS && loop->kids[i]->kind != AUGUR_NODE_OPS)
            return; /* the test must come before the body's work */
    if (!b || b->u.branch.nthen != 1 || b->nkids != 1)
        return;
    j = b->kids[0];
    c = strip(b->u.branch.cond);
    if (j->kind != AUGUR_NODE_JUMP || j->u.jump != AUGUR_JUMP_BREAK || !c ||
        c->kind != AUGUR_EXPR_BINARY)
        return;
    if (c->u.bin.op == AUGUR_OP_GE || c->u.bin.op == AUGUR_OP_GT)
        row_test(in, loop, c->u.bin.a, c->u.bin.b);
    else if (c->u.bin.op == AUGUR_OP_LE || c->u.bin.op == AUGUR_OP_LT)
        row_test(in, loop, c->u.bin.b, c->u.bin.a);
}

/* Row variables: "for (j = A[i]; j < A[i+1]; ...)" or "k = A[i]; while (k < A[i+1]) k++". */
static void find_rows(struct infer *in, const struct augur_node *n)
{
    if (n->kind == AUGUR_NODE_LOOP) {
        tests(in, n->u.loop.cond, n, row_test);
        break_test(in, n);
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        find_rows(in, n->kids[i]);
}

static void rows_bound(struct infer *in, const struct augur_node *n, const struct augur_expr *e,
                       const char *target);
static void rows_bound_var(struct infer *in, const struct augur_node *n, uint32_t v,
                           const char *target);

/* Row lengths: A[e + 1] - A[e] anywhere in an expression makes A a row pointer. */
static void length_expr(struct infer *in, const struct augur_expr *e, int depth)
{
    const struct augur_expr *x, *y, *i1 = NULL, *i0 = NULL;
    int32_t a, b;

    if (!e || depth > 32 || in->rc)
        return;
    switch (e->kind) {
    case AUGUR_EXPR_BINARY:
        if (e->u.bin.op == AUGUR_OP_SUB) {
            x = e->u.bin.a;
            y = e->u.bin.b;
            a = loaded_array(in, x, &i1);
            b = loaded_array(in, y, &i0);
            /* a jagged diagonal's length (find_jds) or a thread's range is no row's */
            if (a >= 0 && a == b && is_succ(in, i0, i1) &&
                augur_type_is_int(in->k->u.kernel.arrays[a].elem) &&
                !(in->arrays[a].target && is_offsets(in->arrays[a].target) &&
                  strcmp(in->arrays[a].target, "csr.rowptr") != 0 &&
                  strcmp(in->arrays[a].target, "csr1.rowptr") != 0)) {
                int32_t pv = pair_index(in, i0);

                if (pv >= 0) {
                    set_array(in, (uint32_t)a, "csr.rowpairs",
                              "A[2v + 1] - A[2v] is a row's length");
                    rows_bound_var(in, in->k, (uint32_t)pv, "n");
                } else {
                    set_array(in, (uint32_t)a, "csr.rowptr", "A[i + 1] - A[i] is a row's length");
                    rows_bound(in, in->k, i0, "n");
                }
            }
        }
        length_expr(in, e->u.bin.a, depth + 1);
        length_expr(in, e->u.bin.b, depth + 1);
        break;
    case AUGUR_EXPR_UNARY:
        length_expr(in, e->u.un.a, depth + 1);
        break;
    case AUGUR_EXPR_CAST:
        length_expr(in, e->u.cast.a, depth + 1);
        break;
    case AUGUR_EXPR_SELECT:
        length_expr(in, e->u.sel.cond, depth + 1);
        length_expr(in, e->u.sel.a, depth + 1);
        length_expr(in, e->u.sel.b, depth + 1);
        break;
    default:
        break;
    }
}

static void find_lengths(struct infer *in, const struct augur_node *n)
{
    if (n->kind == AUGUR_NODE_ASSIGN)
        length_expr(in, n->u.assign.value, 0);
    else if (n->kind == AUGUR_NODE_BRANCH)
        length_expr(in, n->u.branch.cond, 0);
    else if (n->kind == AUGUR_NODE_LOOP)
        length_expr(in, n->u.loop.cond, 0);
    else if (n->kind == AUGUR_NODE_ACCESS) {
        length_expr(in, n->u.access.index, 0);
        length_expr(in, n->u.access.value, 0);
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        find_lengths(in, n->kids[i]);
}

/*
 * The bound of a loop over the rows: target for a scalar; for a loop from 1 (j <= E), E is the
 * last row: one scalar is target, hi - lo + 1 makes hi the target and lo 1.
 */
static void bound_rows(struct infer *in, const struct augur_node *l, const char *target)
{
    const struct augur_expr *b = loop_bound(in, l), *x, *y;

    if (!b)
        return;
    if (!one_based_loop(in, l)) {
        set_sym(in, b, target, "it bounds the rows");
        return;
    }
    b = resolve(in, b);
    if (b && b->kind == AUGUR_EXPR_SYM) {
        set_sym(in, b, target, "it is the last of the rows, counted from 1");
        return;
    }
    if (!b || b->kind != AUGUR_EXPR_BINARY || b->u.bin.op != AUGUR_OP_ADD)
        return;
    x = resolve(in, b->u.bin.a);
    y = resolve(in, b->u.bin.b);
    if (x && x->kind == AUGUR_EXPR_INT) {
        const struct augur_expr *t = x;

        x = y;
        y = t;
    }
    /* (hi - lo + 1 rows: lastrow - firstrow + 1) */
    if (!x || !y || y->kind != AUGUR_EXPR_INT || y->u.i != 1 || x->kind != AUGUR_EXPR_BINARY ||
        x->u.bin.op != AUGUR_OP_SUB)
        return;
    {
        const struct augur_expr *hi = strip(x->u.bin.a), *lo = strip(x->u.bin.b);

        if (!hi || !lo || hi->kind != AUGUR_EXPR_SYM || lo->kind != AUGUR_EXPR_SYM ||
            in->syms[hi->u.sym].target || in->syms[lo->u.sym].target ||
            in->k->u.kernel.syms[hi->u.sym].bind || in->k->u.kernel.syms[lo->u.sym].bind)
            return;
        set_sym(in, hi, target, "it is the last row of hi - lo + 1, counted from 1");
        set_sym(in, lo, "=1", "it is the first row of hi - lo + 1, counted from 1");
    }
}

/* The bound of the loop whose variable is sym v (the rows), into n. */
static void rows_bound_var(struct infer *in, const struct augur_node *n, uint32_t v,
                           const char *target)
{
    if (n->kind == AUGUR_NODE_LOOP && n->u.loop.var >= 0 && (uint32_t)n->u.loop.var == v)
        bound_rows(in, n, target);
    for (uint32_t i = 0; i < n->nkids; i++)
        rows_bound_var(in, n->kids[i], v, target);
}

static bool uses_thread(const struct infer *in, const struct augur_expr *e, int depth);

/* In condition c, "v < B" (under &&): B, else NULL. */
static const struct augur_expr *guard_of(const struct augur_expr *c, uint32_t v)
{
    const struct augur_expr *x, *b;

    c = strip(c);
    if (!c || c->kind != AUGUR_EXPR_BINARY)
        return NULL;
    if (c->u.bin.op == AUGUR_OP_LAND)
        return (b = guard_of(c->u.bin.a, v)) ? b : guard_of(c->u.bin.b, v);
    x = strip(c->u.bin.a);
    if (c->u.bin.op == AUGUR_OP_LT && x && x->kind == AUGUR_EXPR_SYM && x->u.sym == v)
        return c->u.bin.b;
    return NULL;
}

/* A CUDA thread's guard over the rows, "if (v < B)" with v its node: B counts the rows. */
static void guard_rows(struct infer *in, const struct augur_node *n, uint32_t v, const char *target)
{
    const struct augur_expr *b;

    if (n->kind == AUGUR_NODE_BRANCH && (b = guard_of(n->u.branch.cond, v)) != NULL)
        set_sym(in, b, target, "a thread's guard bounds the rows");
    for (uint32_t i = 0; i < n->nkids; i++)
        guard_rows(in, n->kids[i], v, target);
}

/* The bound of the loop whose variable is the sym e (the rows), into n. */
static void rows_bound(struct infer *in, const struct augur_node *n, const struct augur_expr *e,
                       const char *target)
{
    const struct augur_expr *x = strip(e);

    e = resolve(in, e);
    if (e && e->kind == AUGUR_EXPR_SYM)
        rows_bound_var(in, n, e->u.sym, target);
    else if (in->k->u.kernel.cuda && x && x->kind == AUGUR_EXPR_SYM && uses_thread(in, x, 0))
        guard_rows(in, n, x->u.sym, target);
}

/*
 * The value an access stores: for a compare-and-swap (update p[i] = ok ? desired : old, old
 * loaded from the same array) the desired value; NULL for an update without a value.
 */
static const struct augur_expr *stored_value(const struct infer *in,
                                             const struct augur_access_info *a)
{
    const struct augur_expr *v = resolve(in, a->value);

    if (a->mode == AUGUR_ACCESS_RMW) {
        const struct augur_expr *x, *y;

        /* atomicMin(&level[w], depth + 1): min(level[w], depth + 1) stores its other side */
        if (v && v->kind == AUGUR_EXPR_BINARY &&
            (v->u.bin.op == AUGUR_OP_MIN || v->u.bin.op == AUGUR_OP_MAX)) {
            x = resolve(in, v->u.bin.a);
            y = resolve(in, v->u.bin.b);
        } else if (v && v->kind == AUGUR_EXPR_SELECT) {
            x = resolve(in, v->u.sel.a);
            y = resolve(in, v->u.sel.b);
        } else {
            return NULL;
        }
        if (y && y->kind == AUGUR_EXPR_LOAD && y->u.load.array == a->array)
            return x;
        if (x && x->kind == AUGUR_EXPR_LOAD && x->u.load.array == a->array)
            return y;
        return NULL;
    }
    return v;
}

/*
 * A round counter: scalars and constants (depth + 1), no loaded value, at least one sym, and
 * no sym that indexes arrays (a node id).
 */
static bool round_counter(const struct infer *in, const struct augur_expr *e, int depth)
{
    e = strip(e);
    if (!e || depth > 16)
        return false;
    switch (e->kind) {
    case AUGUR_EXPR_SYM:
        return !in->node_id[e->u.sym] && in->k->u.kernel.syms[e->u.sym].kind != AUGUR_SYM_BUILTIN;
    case AUGUR_EXPR_BINARY: {
        const struct augur_expr *x = strip(e->u.bin.a), *y = strip(e->u.bin.b);

        if (e->u.bin.op != AUGUR_OP_ADD && e->u.bin.op != AUGUR_OP_SUB)
            return false;
        if (x && x->kind == AUGUR_EXPR_INT)
            return round_counter(in, y, depth + 1);
        if (y && y->kind == AUGUR_EXPR_INT)
            return round_counter(in, x, depth + 1);
        return round_counter(in, x, depth + 1) && round_counter(in, y, depth + 1);
    }
    default:
        return false;
    }
}

/* True when c tests an element of the level array against a negative value (< 0, == -1). */
static bool negative_test(const struct infer *in, const struct augur_expr *c)
{
    const struct augur_expr *x, *y;
    enum augur_op op;

    c = resolve(in, c);
    if (!c || c->kind != AUGUR_EXPR_BINARY)
        return false;
    if (c->u.bin.op == AUGUR_OP_LAND || c->u.bin.op == AUGUR_OP_LOR)
        return negative_test(in, c->u.bin.a) || negative_test(in, c->u.bin.b);
    x = resolve(in, c->u.bin.a);
    y = resolve(in, c->u.bin.b);
    op = c->u.bin.op;
    if (!x || !y || x->kind != AUGUR_EXPR_LOAD || y->kind != AUGUR_EXPR_INT ||
        x->u.load.array != in->level_array)
        return false;
    return ((op == AUGUR_OP_LT || op == AUGUR_OP_GE) && y->u.i == 0) ||
           ((op == AUGUR_OP_EQ || op == AUGUR_OP_NE || op == AUGUR_OP_LE || op == AUGUR_OP_GT) &&
            y->u.i == -1);
}

static bool tests_negative(const struct infer *in, const struct augur_node *n)
{
    if (n->kind == AUGUR_NODE_BRANCH && negative_test(in, n->u.branch.cond))
        return true;
    if (n->kind == AUGUR_NODE_ASSIGN && negative_test(in, n->u.assign.value))
        return true;
    for (uint32_t i = 0; i < n->nkids; i++)
        if (tests_negative(in, n->kids[i]))
            return true;
    return false;
}

/*
 * A level array's target: bfs.level, whose unvisited nodes hold INT32_MAX, or bfs.level(-1)
 * when the kernel tests them as negative (level[w] < 0, level[w] == -1: GAP, Graph500).
 */
static const char *level_target(struct infer *in, uint32_t a)
{
    bool neg;

    in->level_array = a;
    neg = tests_negative(in, in->k);
    return neg ? "bfs.level(-1)" : "bfs.level";
}

/* The rules that need the rows. */
static void walk(struct infer *in, const struct augur_node *n)
{
    const struct augur_kernel_info *ki = &in->k->u.kernel;

    if (in->rc)
        return;
    if (n->kind == AUGUR_NODE_ACCESS) {
        const struct augur_access_info *a = &n->u.access;
        const struct augur_expr *ix = base_index(in->k, a->index);

        /* Arrays indexed by a row variable (val[j], or val[j + lane] eight at a time) are
           the columns and values. */
        bool is_rowptr = false;

        /* a row pointer read along an outer row (CSR of CSR) stays a row pointer */
        for (uint32_t r = 0; r < in->nrows; r++)
            is_rowptr |= in->rows[r].a == a->array;
        for (uint32_t r = 0; r < in->nrows && ix && !is_rowptr; r++) {
            bool one = in->rows[r].one_based;

            if (in->rows[r].a == a->array)
                continue;
            if (in->rows[r].kind == ROW_OFF || in->rows[r].kind == ROW_PTR
                    ? !(is_rowptr_target(in->arrays[in->rows[r].a].target) ||
                        (in->arrays[in->rows[r].a].target &&
                         !strncmp(in->arrays[in->rows[r].a].target, "rec(", 4))) ||
                          !offset_entry(in, a->index, in->rows[r].x, in->rows[r].a, in->rows[r].e1)
                    : ix->kind != AUGUR_EXPR_SYM || ix->u.sym != in->rows[r].x ||
                          !node_row(in->rows[r].kind))
                continue;
            if (in->index_array[a->array])
                set_array(in, a->array, one ? "csr1.col" : "csr.col",
                          "its values index other arrays in a row");
            else
                set_array(in, a->array, one ? "csr1.val" : "csr.val", "it is read along a row");
            break;
        }
        /*
         * A BFS level array: compared in a condition (against the "unvisited"
         * value or the previous round), and stored with a scalar parameter (the
         * round) or with one of its own elements plus one (the parent's level
         * + 1). Its values never index other arrays (a queue of nodes does),
         * and the parameter is no node id (level[src] = 0 indexes with it).
         */
        if (a->mode != AUGUR_ACCESS_READ && a->value && in->compared[a->array] &&
            !in->index_array[a->array] && ki->arrays[a->array].space == AUGUR_SPACE_GLOBAL &&
            augur_type_is_int(ki->arrays[a->array].elem)) {
            const struct augur_expr *v = stored_value(in, a);

            if (v && v->kind == AUGUR_EXPR_SYM && ki->syms[v->u.sym].kind == AUGUR_SYM_PARAM &&
                !in->node_id[v->u.sym]) {
                set_array(in, a->array, level_target(in, a->array),
                          "it is written with the round number");
                set_sym(in, v, "round", "it is stored as a level");
            } else if (v && v->kind == AUGUR_EXPR_BINARY && v->u.bin.op == AUGUR_OP_ADD) {
                const struct augur_expr *x = resolve(in, v->u.bin.a), *y = resolve(in, v->u.bin.b);

                if (x && x->kind == AUGUR_EXPR_INT) { /* 1 + level[node] */
                    const struct augur_expr *t = x;

                    x = y;
                    y = t;
                }
                if (x && y && x->kind == AUGUR_EXPR_LOAD && x->u.load.array == a->array &&
                    y->kind == AUGUR_EXPR_INT && y->u.i == 1)
                    set_array(in, a->array, level_target(in, a->array),
                              "it is written with one of its elements plus one");
                else if (round_counter(in, v, 0)) {
                    set_array(in, a->array, level_target(in, a->array),
                              "it is written with a round counter");
                    /* level[w] = depth + 1: the stored value is the round, depth one less */
                    if (x && y && x->kind == AUGUR_EXPR_SYM && y->kind == AUGUR_EXPR_INT &&
                        y->u.i > 0 && y->u.i < 1000 && ki->syms[x->u.sym].kind == AUGUR_SYM_PARAM)
                        set_sym(in, x,
                                augur_arena_strfmt(&in->skel->arena, "round-%" PRId64, y->u.i),
                                "one less than the round it stores as a level");
                }
            }
        }
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        walk(in, n->kids[i]);
}

/* The target a sym is bound to (explicitly or by the rules so far), or NULL. */
static const char *sym_target(const struct infer *in, const struct augur_expr *e)
{
    e = strip(e);
    if (!e || e->kind != AUGUR_EXPR_SYM)
        return NULL;
    return in->syms[e->u.sym].target ? in->syms[e->u.sym].target
                                     : in->k->u.kernel.syms[e->u.sym].bind;
}

/* True when a term of the sum e (through + only) is K * N or N * K with N bound to n. */
static bool has_n_term(const struct infer *in, const struct augur_expr *e, int depth)
{
    const char *t;

    e = resolve(in, e);
    if (!e || e->kind != AUGUR_EXPR_BINARY || depth > 16)
        return false;
    if (e->u.bin.op == AUGUR_OP_ADD)
        return has_n_term(in, e->u.bin.a, depth + 1) || has_n_term(in, e->u.bin.b, depth + 1);
    if (e->u.bin.op != AUGUR_OP_MUL)
        return false;
    t = sym_target(in, e->u.bin.b);
    if (!t || strcmp(t, "n"))
        t = sym_target(in, e->u.bin.a);
    return t && !strcmp(t, "n");
}

/* True for an index k * N + i (or N * k + i, i + k * N, k * N + lo + c) with N bound to n. */
static bool slot_major(const struct infer *in, const struct augur_expr *e)
{
    e = resolve(in, e);
    return e && e->kind == AUGUR_EXPR_BINARY && e->u.bin.op == AUGUR_OP_ADD && has_n_term(in, e, 0);
}

/* The sym v of a block index v * L (L * v) for accesses of L lanes (X[8*v + lane]), or -1. */
static int32_t vector_block(const struct infer *in, const struct augur_expr *ix, uint32_t lanes)
{
    const struct augur_expr *x, *y;

    ix = resolve(in, ix);
    if (lanes < 2 || !ix || ix->kind != AUGUR_EXPR_BINARY || ix->u.bin.op != AUGUR_OP_MUL)
        return -1;
    x = resolve(in, ix->u.bin.a);
    y = resolve(in, ix->u.bin.b);
    if (x && x->kind == AUGUR_EXPR_INT) {
        const struct augur_expr *t = x;

        x = y;
        y = t;
    }
    if (!x || !y || x->kind != AUGUR_EXPR_SYM || y->kind != AUGUR_EXPR_INT ||
        y->u.i != (int64_t)lanes)
        return -1;
    return (int32_t)x->u.sym;
}

/* B for a count of L-lane blocks (B + L - 1) / L or B / L (a block loop's bound), else NULL. */
static const struct augur_expr *block_count(const struct infer *in, const struct augur_expr *b,
                                            uint32_t lanes)
{
    const struct augur_expr *num, *den, *add;

    b = resolve(in, b);
    if (!b || b->kind != AUGUR_EXPR_BINARY || b->u.bin.op != AUGUR_OP_DIV)
        return NULL;
    num = resolve(in, b->u.bin.a);
    den = resolve(in, b->u.bin.b);
    if (!den || den->kind != AUGUR_EXPR_INT || den->u.i != (int64_t)lanes || !num)
        return NULL;
    if (num->kind == AUGUR_EXPR_BINARY && num->u.bin.op == AUGUR_OP_ADD) {
        add = resolve(in, num->u.bin.b);
        if (add && add->kind == AUGUR_EXPR_INT && add->u.i == (int64_t)lanes - 1)
            return resolve(in, num->u.bin.a);
    }
    return num;
}

/*
 * The scalar parameter that strides an index row by row, i * width + k (or
 * width * i + k): its sym, or -1.
 */
static int32_t param_stride(const struct infer *in, const struct augur_expr *e)
{
    const struct augur_kernel_info *ki = &in->k->u.kernel;

    e = resolve(in, e);
    while (e && e->kind == AUGUR_EXPR_CAST)
        e = resolve(in, e->u.cast.a);
    if (e && e->kind == AUGUR_EXPR_BINARY && e->u.bin.op == AUGUR_OP_ADD) {
        int32_t s = param_stride(in, e->u.bin.a);

        return s >= 0 ? s : param_stride(in, e->u.bin.b);
    }
    if (e && e->kind == AUGUR_EXPR_BINARY && e->u.bin.op == AUGUR_OP_MUL) {
        const struct augur_expr *x = strip(e->u.bin.a), *y = strip(e->u.bin.b);

        for (int k = 0; k < 2; k++, x = y) {
            while (x && x->kind == AUGUR_EXPR_CAST)
                x = strip(x->u.cast.a);
            if (x && x->kind == AUGUR_EXPR_SYM && ki->syms[x->u.sym].kind == AUGUR_SYM_PARAM)
                return (int32_t)x->u.sym;
        }
    }
    return -1;
}

/* Whether an array that n's accesses reach through index array a is also indexed by v. */
static bool reached_at(const struct infer *in, const struct augur_node *n, uint32_t a,
                       const struct augur_node *root, uint32_t v);

static bool indexed_by(const struct infer *in, const struct augur_node *n, uint32_t x, uint32_t v)
{
    if (n->kind == AUGUR_NODE_ACCESS && n->u.access.array == x) {
        const struct augur_expr *ix = resolve(in, base_index(in->k, n->u.access.index));

        if (ix && ix->kind == AUGUR_EXPR_SYM && ix->u.sym == v)
            return true;
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        if (indexed_by(in, n->kids[i], x, v))
            return true;
    return false;
}

static bool reached_at(const struct infer *in, const struct augur_node *n, uint32_t a,
                       const struct augur_node *root, uint32_t v)
{
    if (n->kind == AUGUR_NODE_ACCESS)
        for (uint32_t k = 0; k < n->u.access.nvia; k++)
            if (n->u.access.via[k] == a && indexed_by(in, root, n->u.access.array, v))
                return true;
    for (uint32_t i = 0; i < n->nkids; i++)
        if (reached_at(in, n->kids[i], a, root, v))
            return true;
    return false;
}

/* True when index array a's values index the vectors that the row variable v indexes too. */
static bool same_space(const struct infer *in, const struct augur_node *k, uint32_t a, uint32_t v)
{
    return reached_at(in, k, a, k, v);
}

/*
 * What walk_flat walks under: the variable of the innermost loop around
 * (var, -1: none) and its bound, or a CUDA thread's index and the bound its
 * guard tests (e = blockIdx.x * blockDim.x + threadIdx.x; if (e < nnz)).
 */
struct flat_var {
    int32_t var;
    const struct augur_expr *bound;
    const struct augur_expr *value; /* a guard's index: what it resolves to */
};

static bool has_coo(const struct infer *in);

static int64_t const_trips(const struct infer *in, const struct augur_node *l);
static const char *scaled_vec(struct infer *in, const char *vec, int64_t k);

/*
 * The largest value of e over the loops around it, when e is built from
 * non-negative constants and the variables of loops with constant trips
 * (j + 2 * 4 with j < 4: 11); -1 otherwise.
 */
static int64_t max_value(const struct infer *in, const struct augur_expr *e, int depth)
{
    int64_t a, b;

    e = resolve(in, e);
    if (!e || depth > 16)
        return -1;
    if (e->kind == AUGUR_EXPR_INT)
        return e->u.i >= 0 && e->u.i < (INT64_C(1) << 20) ? e->u.i : -1;
    if (e->kind == AUGUR_EXPR_SYM) {
        const struct augur_node *l = loop_of(in->k, e->u.sym);
        int64_t t = l ? const_trips(in, l) : 0;

        return t > 0 ? t - 1 : -1;
    }
    if (e->kind != AUGUR_EXPR_BINARY ||
        (e->u.bin.op != AUGUR_OP_ADD && e->u.bin.op != AUGUR_OP_MUL))
        return -1;
    a = max_value(in, e->u.bin.a, depth + 1);
    b = max_value(in, e->u.bin.b, depth + 1);
    if (a < 0 || b < 0)
        return -1;
    return e->u.bin.op == AUGUR_OP_ADD ? a + b : a * b;
}

/* The largest slot c of c * P in a sum, P the scalar bound to n; -1 when not such a sum. */
static int64_t slot_of(const struct infer *in, const struct augur_expr *e, int depth)
{
    const char *t;

    e = resolve(in, e);
    if (!e || e->kind != AUGUR_EXPR_BINARY || depth > 16)
        return -1;
    if (e->u.bin.op == AUGUR_OP_ADD) {
        int64_t a = slot_of(in, e->u.bin.a, depth + 1);

        return a >= 0 ? a : slot_of(in, e->u.bin.b, depth + 1);
    }
    if (e->u.bin.op != AUGUR_OP_MUL)
        return -1;
    t = sym_target(in, e->u.bin.b);
    if (t && !strcmp(t, "n"))
        return max_value(in, e->u.bin.a, 0);
    t = sym_target(in, e->u.bin.a);
    return t && !strcmp(t, "n") ? max_value(in, e->u.bin.b, 0) : -1;
}

/*
 * Per array, how many slots its slot-major accesses (c * n + i) reach: one
 * more than the largest c, or -1 when one of them is not a constant bound.
 */
static void count_slots(struct infer *in, const struct augur_node *n)
{
    if (n->kind == AUGUR_NODE_ACCESS && slot_major(in, n->u.access.index)) {
        uint32_t a = n->u.access.array;
        int64_t c = slot_of(in, n->u.access.index, 0);

        if (c < 0 || in->slots[a] < 0)
            in->slots[a] = -1;
        else if (c + 1 > in->slots[a])
            in->slots[a] = c + 1;
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        count_slots(in, n->kids[i]);
}

/*
 * A CUDA thread's element plus a multiple of an unbound scalar parameter
 * (i + VAR * nelr, i + j * nelr): the parameter counts the rows, padded or
 * not (a slot-major layout of n rows).
 */
static void padded_rows(struct infer *in, const struct augur_node *n)
{
    if (n->kind == AUGUR_NODE_ACCESS) {
        const struct augur_expr *e = resolve(in, n->u.access.index);

        if (e && e->kind == AUGUR_EXPR_BINARY && e->u.bin.op == AUGUR_OP_ADD) {
            for (int side = 0; side < 2; side++) {
                const struct augur_expr *x = strip(side ? e->u.bin.b : e->u.bin.a);
                const struct augur_expr *m = resolve(in, side ? e->u.bin.a : e->u.bin.b);

                if (!x || !uses_thread(in, x, 0) || !m || m->kind != AUGUR_EXPR_BINARY ||
                    m->u.bin.op != AUGUR_OP_MUL)
                    continue;
                for (int f = 0; f < 2; f++) {
                    const struct augur_expr *p = strip(f ? m->u.bin.b : m->u.bin.a);

                    if (p && p->kind == AUGUR_EXPR_SYM &&
                        in->k->u.kernel.syms[p->u.sym].kind == AUGUR_SYM_PARAM)
                        set_sym(in, p, "n", "a thread's element plus a multiple of it (rows)");
                }
            }
        }
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        padded_rows(in, n->kids[i]);
}

/* Edge lists and ELL: loops without a row pointer whose variable indexes index arrays. */
static void walk_flat(struct infer *in, const struct augur_node *n, struct flat_var fv,
                      int32_t *first_index)
{
    const struct augur_kernel_info *ki = &in->k->u.kernel;
    static const char *const dst_words[] = { "col", "dst", "to", "tail", "adj", "nbr", "J", NULL };
    static const char *const src_words[] = { "row", "src", "from", "head", "I", NULL };

    if (in->rc)
        return;
    if (n->kind == AUGUR_NODE_ACCESS && in->arrays[n->u.access.array].target == NULL &&
        ki->arrays[n->u.access.array].space == AUGUR_SPACE_GLOBAL) {
        const struct augur_access_info *a = &n->u.access;
        const struct augur_expr *ix = resolve(in, base_index(in->k, a->index));
        int64_t w = stride_of(in, a->index, 0);
        int32_t ps;

        /* X[8*v + lane] eight lanes at a time: consecutive blocks, unit stride */
        if (a->lanes > 1 && w == (int64_t)a->lanes && vector_block(in, ix, a->lanes) >= 0)
            w = 1;

        const char *lbt = fv.var >= 0 ? bound_of(in, fv.bound) : NULL;

        if (slot_major(in, a->index) && !in->index_array[a->array] && in->slots[a->array] > 0) {
            /* V[c * n + i] at constant slots c < K: K values per row, one array after another
               (a structure of arrays: Rodinia CFD's variables[i + VAR * nelr]) */
            set_array(in, a->array, scaled_vec(in, "vec(n)", in->slots[a->array]),
                      "K values per row, slot-major (c * n + i, c < K)");
        } else if (slot_major(in, a->index)) {
            /* X[k * n + i]: slot k of row i, slot-major as augur stores ELL */
            set_array(in, a->array, in->index_array[a->array] ? "ell.idx" : "ell.val",
                      "it is read slot-major (k * n + i)");
        } else if (w == 2 && !a->indirect && in->index_array[a->array] && lbt &&
                   !strcmp(lbt, "nnz")) {
            /* IA[2*e], IA[2*e+1] over the edges: the two ends of each edge (Zhu et al. PACT'19,
             * Fig. 1) */
            set_array(in, a->array, "edges.pairs", "two index entries per edge");
        } else if (w == 4 && !a->indirect && in->index_array[a->array] && fv.var >= 0 &&
                   !same_space(in, in->k, a->array, (uint32_t)fv.var)) {
            /* cells[4*c + v]: four vertex ids per cell, a tetrahedral mesh's (an ELL of width
               4 indexes the rows' own vectors, x[I[4*i + k]] beside x[i]) */
            set_array(in, a->array, "mesh.cells",
                      "four indices per row (a tetrahedron's vertices)");
        } else if (w > 1 && !a->indirect && !in->written[a->array]) {
            /* X[w*i + k]: w entries per row, row-major (Langguth et al.'s A and I); a written one
               is a dense block of w columns (walk_dense) */
            set_array(in, a->array, in->index_array[a->array] ? "ell.idx.rows" : "ell.val.rows",
                      "it is read with a constant stride per row");
        } else if (w == 0 && !a->indirect && !in->written[a->array] &&
                   (ps = param_stride(in, a->index)) >= 0) {
            /* X[i * width + k]: width entries per row, the width a parameter */
            uint32_t s = (uint32_t)ps;

            set_array(in, a->array, in->index_array[a->array] ? "ell.idx.rows" : "ell.val.rows",
                      "it is read with a parameter's stride per row");
            if (ki->syms[s].bind_src == AUGUR_BIND_NONE && !in->syms[s].target)
                in->syms[s] = (struct guess){ "ell.width", "it strides the rows of an ELL array" };
        } else if (fv.var >= 0 && ix && in->nrowptr == 0 &&
                   ((ix->kind == AUGUR_EXPR_SYM && ix->u.sym == (uint32_t)fv.var) ||
                    (fv.value && augur_expr_equal(ix, fv.value)))) {
            const struct augur_expr *b = fv.bound;
            const char *bt = bound_of(in, b);

            /* an index array read per row (bound n) is a map, not a list of entries */
            if (in->index_array[a->array] && (!bt || !strcmp(bt, "nnz"))) {
                const char *name = ki->arrays[a->array].name;
                bool dst = name_has(name, dst_words), src = name_has(name, src_words);

                if (*first_index < 0 && !dst)
                    *first_index = (int32_t)a->array;
                if (src && !dst)
                    set_array(in, a->array, "coo.row", "an index array read per entry");
                else if (dst)
                    set_array(in, a->array, "coo.col", "an index array read per entry");
                else if (*first_index == (int32_t)a->array)
                    set_array(in, a->array, "coo.row", "the first index array read per entry");
                else
                    set_array(in, a->array, "coo.col", "the second index array read per entry");
                if (b)
                    set_sym(in, b, "nnz", "it bounds the entries");
            } else if (fv.value && !in->index_array[a->array] && !in->written[a->array] && bt &&
                       !strcmp(bt, "nnz") && has_coo(in)) {
                /* a thread per entry reads its value beside the entry's two ends */
                maybe_array(in, a->array, "coo.val", "it is read per entry of an edge list");
            }
        }
    }
    if (n->kind == AUGUR_NODE_LOOP && n->u.loop.form == AUGUR_LOOP_FOR) {
        struct flat_var inner = { n->u.loop.var, loop_bound(in, n), NULL };

        for (uint32_t i = 0; i < n->nkids; i++)
            walk_flat(in, n->kids[i], inner, first_index);
        return;
    }
    if (n->kind == AUGUR_NODE_BRANCH && in->k->u.kernel.cuda) {
        /* a thread's guard "if (e < bound)" bounds e as a loop would */
        const struct augur_expr *c = strip(n->u.branch.cond), *e;

        if (c && c->kind == AUGUR_EXPR_BINARY && c->u.bin.op == AUGUR_OP_LT &&
            (e = strip(c->u.bin.a)) != NULL && e->kind == AUGUR_EXPR_SYM && uses_thread(in, e, 0)) {
            struct flat_var guard = { (int32_t)e->u.sym, c->u.bin.b, resolve(in, e) };

            for (uint32_t i = 0; i < n->nkids; i++)
                walk_flat(in, n->kids[i], i < n->u.branch.nthen ? guard : fv, first_index);
            return;
        }
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        walk_flat(in, n->kids[i], fv, first_index);
}

/* True when e depends on threadIdx.* (through syms assigned once). */
static bool uses_thread(const struct infer *in, const struct augur_expr *e, int depth)
{
    const struct augur_kernel_info *ki = &in->k->u.kernel;

    if (!e || depth > 16)
        return false;
    switch (e->kind) {
    case AUGUR_EXPR_SYM:
        if (ki->syms[e->u.sym].kind == AUGUR_SYM_BUILTIN)
            return !strncmp(ki->syms[e->u.sym].name, "threadIdx.", 10);
        return in->value[e->u.sym] && uses_thread(in, in->value[e->u.sym], depth + 1);
    case AUGUR_EXPR_UNARY:
        return uses_thread(in, e->u.un.a, depth + 1);
    case AUGUR_EXPR_BINARY:
        return uses_thread(in, e->u.bin.a, depth + 1) || uses_thread(in, e->u.bin.b, depth + 1);
    case AUGUR_EXPR_CAST:
        return uses_thread(in, e->u.cast.a, depth + 1);
    default:
        return false;
    }
}

/* The distinct fields (offset, type) that the loads of array a read, by offset; their count. */
static unsigned rec_fields(const struct augur_node *n, uint32_t a, struct augur_rec_field *f,
                           unsigned n_f)
{
    if (n->kind == AUGUR_NODE_ACCESS && n->u.access.array == a &&
        n->u.access.mode != AUGUR_ACCESS_WRITE) {
        unsigned i = 0;

        while (i < n_f && f[i].offset < n->u.access.offset)
            i++;
        if ((i == n_f || f[i].offset != n->u.access.offset) && n_f < AUGUR_REC_MAX_FIELDS) {
            memmove(&f[i + 1], &f[i], (n_f - i) * sizeof(*f));
            f[i] =
                (struct augur_rec_field){ .offset = n->u.access.offset, .type = n->u.access.type };
            n_f++;
        }
    }
    for (uint32_t k = 0; k < n->nkids; k++)
        n_f = rec_fields(n->kids[k], a, f, n_f);
    return n_f;
}

/*
 * An edge list kept as an array of structs (struct edge {src, dst[, w]}):
 * the rules above read its first field as one end of the edges; each field
 * gets its own, in the struct's order: the integer ones coo.row then
 * coo.col, a floating-point one coo.val.
 */
static void rec_edges(struct infer *in, const struct augur_node *k)
{
    const struct augur_kernel_info *ki = &in->k->u.kernel;

    for (uint32_t a = 0; a < ki->narrays; a++) {
        struct augur_rec_field f[AUGUR_REC_MAX_FIELDS];
        const char *t = in->arrays[a].target, *ends[] = { "coo.row", "coo.col" };
        unsigned nf, ints = 0, floats = 0;
        struct augur_buf b;

        if (ki->arrays[a].elem != AUGUR_T_REC || !t ||
            (strcmp(t, "coo.row") != 0 && strcmp(t, "coo.col") != 0))
            continue;
        nf = rec_fields(k, a, f, 0);
        for (unsigned i = 0; i < nf; i++) {
            floats += augur_type_is_float(f[i].type);
            ints += !augur_type_is_float(f[i].type);
        }
        if (ints != 2 || floats > 1)
            continue;
        augur_buf_init(&b);
        ints = 0;
        for (unsigned i = 0; i < nf; i++)
            augur_buf_printf(&b, "%s%" PRIu32 ":%s:%s", i ? "," : "rec(", f[i].offset,
                             augur_type_name(f[i].type),
                             augur_type_is_float(f[i].type) ? "coo.val" : ends[ints++]);
        augur_buf_putc(&b, ')');
        in->arrays[a].target = augur_arena_strdup(&in->skel->arena, b.s);
        in->arrays[a].why = "an edge list as an array of structs: one field per end";
        augur_buf_release(&b);
    }
}

/* True when the rules so far found the two ends of an edge list (coo.row, coo.col). */
static bool has_coo(const struct infer *in)
{
    const struct augur_kernel_info *ki = &in->k->u.kernel;

    for (uint32_t a = 0; a < ki->narrays; a++) {
        const char *t = in->arrays[a].target ? in->arrays[a].target : ki->arrays[a].bind;

        if (t && (!strcmp(t, "coo.row") || !strcmp(t, "coo.col")))
            return true;
    }
    return false;
}

/* The dense vector a loop bound's target sizes: vec(n), vec(m), vec(nnz); NULL for others. */
static const char *bound_vec(const char *t)
{
    return !t                  ? NULL
           : !strcmp(t, "n")   ? "vec(n)"
           : !strcmp(t, "m")   ? "vec(m)"
           : !strcmp(t, "nnz") ? "vec(nnz)"
                               : NULL;
}

/* vec(SIZE) with SIZE times k, in the skeleton's arena ("vec(m)", 4: "vec(4*m)"; vec1 too). */
static const char *scaled_vec(struct infer *in, const char *vec, int64_t k)
{
    size_t open = strcspn(vec, "(");

    return augur_arena_strfmt(&in->skel->arena, "%.*s%" PRId64 "*%.*s)", (int)open + 1, vec, k,
                              (int)(strlen(vec) - open - 2), vec + open + 1);
}

/*
 * The rows a loop from 1 (j <= E) counts, as the target of E: one scalar, or hi - lo + 1 with lo
 * bound to 1; NULL otherwise.
 */
static const char *one_based_count(const struct infer *in, const struct augur_node *l)
{
    const struct augur_expr *b = resolve(in, loop_bound(in, l)), *x, *y;
    const char *lo;

    if (b && b->kind == AUGUR_EXPR_SYM)
        return bound_of(in, b);
    if (!b || b->kind != AUGUR_EXPR_BINARY || b->u.bin.op != AUGUR_OP_ADD)
        return NULL;
    x = resolve(in, b->u.bin.a);
    y = resolve(in, b->u.bin.b);
    if (x && x->kind == AUGUR_EXPR_INT) {
        const struct augur_expr *t = x;

        x = y;
        y = t;
    }
    if (!x || !y || y->kind != AUGUR_EXPR_INT || y->u.i != 1 || x->kind != AUGUR_EXPR_BINARY ||
        x->u.bin.op != AUGUR_OP_SUB)
        return NULL;
    lo = bound_of(in, x->u.bin.b);
    return lo && !strcmp(lo, "=1") ? bound_of(in, x->u.bin.a) : NULL;
}

/* True when e (resolved) is k * v + something, or v * k + something. */
static bool affine_in(const struct infer *in, const struct augur_expr *e, uint32_t v, int64_t k)
{
    e = resolve(in, e);
    while (e && e->kind == AUGUR_EXPR_CAST)
        e = resolve(in, e->u.cast.a);
    if (!e || e->kind != AUGUR_EXPR_BINARY)
        return false;
    if (e->u.bin.op == AUGUR_OP_ADD || e->u.bin.op == AUGUR_OP_SUB)
        return affine_in(in, e->u.bin.a, v, k) ||
               (e->u.bin.op == AUGUR_OP_ADD && affine_in(in, e->u.bin.b, v, k));
    if (e->u.bin.op == AUGUR_OP_MUL) {
        const struct augur_expr *x = strip(e->u.bin.a), *y = strip(e->u.bin.b);

        if (x->kind == AUGUR_EXPR_INT)
            x = y, y = strip(e->u.bin.a);
        while (x && x->kind == AUGUR_EXPR_CAST)
            x = strip(x->u.cast.a);
        return x && y && x->kind == AUGUR_EXPR_SYM && x->u.sym == v && y->kind == AUGUR_EXPR_INT &&
               y->u.i == k;
    }
    return false;
}

/* True when an access to array x under n is indexed through an edge list's first end. */
static bool via_edge_rows(const struct infer *in, const struct augur_node *n, uint32_t x)
{
    if (n->kind == AUGUR_NODE_ACCESS && n->u.access.array == x)
        for (uint32_t v = 0; v < n->u.access.nvia; v++) {
            char buf[128];
            const char *t = zero_based(array_target(in, n->u.access.via[v]), buf, sizeof(buf));

            if (t && (!strcmp(t, "coo.row") || !strcmp(t, "edges.src")))
                return true;
        }
    for (uint32_t i = 0; i < n->nkids; i++)
        if (via_edge_rows(in, n->kids[i], x))
            return true;
    return false;
}

/* Dense vectors: what is left, by how it is indexed. */
static void walk_dense(struct infer *in, const struct augur_node *n,
                       const struct augur_node **loops, int nloops)
{
    const struct augur_kernel_info *ki = &in->k->u.kernel;

    if (n->kind == AUGUR_NODE_ACCESS) {
        const struct augur_access_info *a = &n->u.access;
        const struct augur_expr *ix = resolve(in, base_index(in->k, a->index));
        const char *target = NULL;

        for (uint32_t v = 0; v < a->nvia && !target; v++) {
            const char *t = array_target(in, a->via[v]);
            char buf[128];
            bool one = is_one_based(t);

            /* a row pointer gives positions in a row (j = rowptr[i]; ... x[col[j]]), not
               the element: the index array read at those positions decides */
            if (!t || is_offsets(t))
                continue;
            /* 1-based indices (csr1.col) index 1-based vectors; a vector both ends of an edge
               list index (q[b] - q[a]) holds the nodes of a square matrix, n of them */
            if (is_columns(t) && !via_edge_rows(in, in->k, a->array))
                target = one ? "vec1(m)" : "vec(m)";
            else if (!strcmp(zero_based(t, buf, sizeof(buf)), "mesh.cells"))
                target = one ? "vec1(nv)" : "vec(nv)"; /* the mesh's vertices */
            else
                target = one ? "vec1(n)" : "vec(n)";
        }
        if (!target && a->nvia)
            target = "vec(n)"; /* through a shared or local copy of an index array */
        int64_t w = stride_of(in, a->index, 0);

        /* X[4 * col[j] + k]: a block of K columns per element (a dense matrix times A) */
        if (target && w > 1)
            target = scaled_vec(in, target, w);
        /* X[8*v + lane] over v < (N + 7) / 8: eight elements of a vector of N at a time */
        int32_t block = ix ? vector_block(in, ix, a->lanes) : -1;

        if (!target && ix && (ix->kind == AUGUR_EXPR_SYM || block >= 0)) {
            uint32_t v = block >= 0 ? (uint32_t)block : ix->u.sym;

            for (int l = nloops - 1; l >= 0; l--) {
                if (v != (uint32_t)loops[l]->u.loop.var)
                    continue;
                if (loops[l]->u.loop.gridstride) {
                    target = "vec(n)";
                } else if (block < 0 && one_based_loop(in, loops[l])) {
                    /* for (j = 1; j <= E; j++) q[j]: a 1-based vector */
                    const char *t = bound_vec(one_based_count(in, loops[l]));

                    target = !t                     ? NULL
                             : !strcmp(t, "vec(n)") ? "vec1(n)"
                             : !strcmp(t, "vec(m)") ? "vec1(m)"
                                                    : "vec1(nnz)";
                } else {
                    const struct augur_expr *b = strip(loop_bound(in, loops[l]));

                    if (block >= 0)
                        b = block_count(in, b, a->lanes);
                    target = bound_vec(bound_of(in, b));
                }
                break;
            }
        }
        /* Y[4 * i + k] over i < n: K elements per row */
        if (!target && !a->nvia && w > 1) {
            for (int l = nloops - 1; l >= 0 && !target; l--) {
                const struct augur_expr *b = strip(loop_bound(in, loops[l]));
                const char *t;

                if (!affine_in(in, a->index, (uint32_t)loops[l]->u.loop.var, w) || !b ||
                    b->kind != AUGUR_EXPR_SYM)
                    continue;
                t = in->syms[b->u.sym].target ? in->syms[b->u.sym].target : ki->syms[b->u.sym].bind;
                if (bound_vec(t))
                    target = scaled_vec(in, bound_vec(t), w);
            }
        }
        if (!target && ix && uses_thread(in, ix, 0) && w <= 1)
            target = "vec(n)"; /* CUDA: one element per thread (blockIdx.x * blockDim.x + t) */
        /* an index array's values must be indices: a dense vector of zeros would not do */
        if (target && !in->index_array[a->array] && !in->written[a->array]) {
            if (!strcmp(target, "vec(nnz)") && has_coo(in)) {
                /* read per entry beside the entries' two ends: their values */
                maybe_array(in, a->array, "coo.val", "it is read per entry of an edge list");
                target = NULL;
            } else if ((!strcmp(target, "vec(n)") || !strcmp(target, "vec(m)")) &&
                       in->thread_cmp[a->array]) {
                /* compared with the thread's number: the thread that owns each node */
                maybe_array(in, a->array, !strcmp(target, "vec(n)") ? "owner(n)" : "owner(m)",
                            "per node, compared with the thread's number");
                target = NULL;
            } else if (!strcmp(target, "vec(n)") && augur_type_is_int(ki->arrays[a->array].elem) &&
                       read_beside(in, in->k, a->array, a->index)) {
                /* A[v] and A[v + 1] for each node: the offsets of the rows (the length
                   stored, y[v] = A[v + 1] - A[v], is no expression the skeleton keeps) */
                maybe_array(in, a->array, "csr.rowptr", "it is read at v and v + 1 per node");
                target = NULL;
            } else if ((!strcmp(target, "vec(n)") || !strcmp(target, "vec(m)")) &&
                       augur_type_is_int(ki->arrays[a->array].elem) &&
                       !is_mask_type(ki->arrays[a->array].elem)) {
                /* integers per node that the kernel only reads, at the node or at a
                   neighbour (pr[u] / deg[u], u = col[k]): the graph's degrees */
                maybe_array(in, a->array, "deg", "integers per node, only read");
                target = NULL;
            }
        }
        if (target && !in->index_array[a->array])
            maybe_array(in, a->array, target, "a dense vector");
    }
    if (n->kind == AUGUR_NODE_LOOP && nloops < 64) {
        loops[nloops] = n;
        for (uint32_t i = 0; i < n->nkids; i++)
            walk_dense(in, n->kids[i], loops, nloops + 1);
        return;
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        walk_dense(in, n->kids[i], loops, nloops);
}

/*
 * The largest value of index ix as a size scalar's sym plus k: the scalar
 * itself (p[n], p[n + 1]) or a loop's variable up to one (j <= naa + 1,
 * j < n); false when it is neither.
 */
static bool max_index(const struct infer *in, const struct augur_expr *ix,
                      const struct augur_node *const *loops, int nloops, uint32_t *sym, int64_t *k)
{
    const struct augur_expr *c;
    int64_t add = 0;

    ix = strip(resolve(in, ix));
    if (ix && ix->kind == AUGUR_EXPR_BINARY && ix->u.bin.op == AUGUR_OP_ADD &&
        strip(ix->u.bin.b)->kind == AUGUR_EXPR_INT) {
        add = strip(ix->u.bin.b)->u.i;
        ix = strip(ix->u.bin.a);
    }
    if (!ix || ix->kind != AUGUR_EXPR_SYM || add < 0 || add > 64)
        return false;
    for (int l = nloops - 1; l >= 0; l--) {
        if (loops[l]->u.loop.var != (int32_t)ix->u.sym)
            continue;
        c = strip(loops[l]->u.loop.cond);
        if (!c || c->kind != AUGUR_EXPR_BINARY ||
            (c->u.bin.op != AUGUR_OP_LT && c->u.bin.op != AUGUR_OP_LE) ||
            strip(c->u.bin.a)->kind != AUGUR_EXPR_SYM || strip(c->u.bin.a)->u.sym != ix->u.sym ||
            !max_index(in, c->u.bin.b, loops, l, sym, k))
            return false;
        *k += add - (c->u.bin.op == AUGUR_OP_LT);
        return true;
    }
    *sym = ix->u.sym;
    *k = add;
    return true;
}

/*
 * A dense vector sized by a scalar S (vec(n), vec1(n); S is n, m or nnz)
 * whose index reaches past it grows to hold it: CSparse's cs_cumsum writes
 * p[n] after its loop over i < n (vec(n+1)), NPB CG's conj_grad clears q[j]
 * for j <= naa + 1 (vec1(n+1)).
 */
static void past_the_end(struct infer *in, const struct augur_node *n,
                         const struct augur_node **loops, int nloops)
{
    if (n->kind == AUGUR_NODE_ACCESS) {
        struct guess *g = &in->arrays[n->u.access.array];
        bool one = g->target && !strncmp(g->target, "vec1(", 5);
        const char *t, *size = g->target ? g->target + (one ? 5 : 4) : NULL;
        int64_t k, have = 0;
        uint32_t s;
        size_t len;

        if (!size || (!one && strncmp(g->target, "vec(", 4) != 0) ||
            !max_index(in, n->u.access.index, loops, nloops, &s, &k))
            return;
        len = strcspn(size, "+)");
        t = in->syms[s].target ? in->syms[s].target : in->k->u.kernel.syms[s].bind;
        if (!t || !bound_vec(t) || strlen(t) != len || strncmp(t, size, len) != 0)
            return;
        if (size[len] == '+')
            have = strtoll(size + len + 1, NULL, 10);
        /* vec(S+h) holds indices up to S+h-1, vec1(S+h) up to S+h */
        if (one ? k > have : k + 1 > have)
            g->target = augur_arena_strfmt(&in->skel->arena, "%s(%s+%" PRId64 ")",
                                           one ? "vec1" : "vec", t, one ? k : k + 1);
        return;
    }
    if (n->kind == AUGUR_NODE_LOOP && nloops < 64) {
        loops[nloops] = n;
        for (uint32_t i = 0; i < n->nkids; i++)
            past_the_end(in, n->kids[i], loops, nloops + 1);
        return;
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        past_the_end(in, n->kids[i], loops, nloops);
}

/* Scalars by their conventional names. */
static void name_scalars(struct infer *in)
{
    static const char *const n_names[] = {
        "n",  "N",    "nrows",  "num_rows", "nnodes",    "num_nodes",    "numNodes",
        "nv", "nvtx", "ncells", "ntets",    "nvertices", "num_vertices", NULL
    };
    static const char *const m_names[] = { "ncols", "num_cols", "ncol", NULL };
    static const char *const nnz_names[] = { "nnz", "nedges",   "num_edges", "numEdges",
                                             "ne",  "nentries", "nnzs",      NULL };
    static const char *const width_names[] = { "width", "ell_width", "max_row", NULL };
    const struct augur_kernel_info *ki = &in->k->u.kernel;

    for (uint32_t s = 0; s < ki->nsyms; s++) {
        const char *name = ki->syms[s].name, *base = name;

        if (ki->syms[s].kind != AUGUR_SYM_PARAM || ki->syms[s].bind_src != AUGUR_BIND_NONE ||
            in->syms[s].target)
            continue;
        for (const char *p = name; *p; p++)
            if (*p == '.' || *p == '>')
                base = p + 1;
        if (augur_skel_lookup(n_names, base, strlen(base)) >= 0)
            in->syms[s] = (struct guess){ "n", "its name" };
        else if (augur_skel_lookup(m_names, base, strlen(base)) >= 0)
            in->syms[s] = (struct guess){ "m", "its name" };
        else if (augur_skel_lookup(nnz_names, base, strlen(base)) >= 0)
            in->syms[s] = (struct guess){ "nnz", "its name" };
        else if (augur_skel_lookup(width_names, base, strlen(base)) >= 0)
            in->syms[s] = (struct guess){ "ell.width", "its name" };
    }
}

/* Counts the uses of sym s in e. */
static uint32_t uses(const struct augur_expr *e, uint32_t s)
{
    if (!e)
        return 0;
    switch (e->kind) {
    case AUGUR_EXPR_SYM:
        return e->u.sym == s;
    case AUGUR_EXPR_LOAD:
        return uses(e->u.load.index, s);
    case AUGUR_EXPR_UNARY:
        return uses(e->u.un.a, s);
    case AUGUR_EXPR_BINARY:
        return uses(e->u.bin.a, s) + uses(e->u.bin.b, s);
    case AUGUR_EXPR_SELECT:
        return uses(e->u.sel.cond, s) + uses(e->u.sel.a, s) + uses(e->u.sel.b, s);
    case AUGUR_EXPR_CAST:
        return uses(e->u.cast.a, s);
    default:
        return 0;
    }
}

/* Counts the uses of sym s in every expression of the subtree. */
static uint32_t uses_in(const struct augur_node *n, uint32_t s)
{
    uint32_t c = 0;

    switch (n->kind) {
    case AUGUR_NODE_LOOP:
        c = uses(n->u.loop.init, s) + uses(n->u.loop.cond, s) + uses(n->u.loop.next, s) +
            uses(n->u.loop.omp.chunk, s) + uses(n->u.loop.omp.num_threads, s);
        break;
    case AUGUR_NODE_BRANCH:
        c = uses(n->u.branch.cond, s);
        break;
    case AUGUR_NODE_ACCESS:
        c = uses(n->u.access.index, s) + uses(n->u.access.value, s) + uses(n->u.access.mask, s);
        break;
    case AUGUR_NODE_ASSIGN:
        c = uses(n->u.assign.value, s) + (n->u.assign.sym == s);
        break;
    case AUGUR_NODE_KERNEL:
        c = uses(n->u.kernel.grid, s) + uses(n->u.kernel.block, s);
        for (uint32_t a = 0; a < n->u.kernel.narrays; a++)
            c += uses(n->u.kernel.arrays[a].extent, s);
        break;
    default:
        break;
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        c += uses_in(n->kids[i], s);
    return c;
}

/* A scalar that only bounds a loop whose variable nothing else uses counts repetitions: one sweep.
 */
static void repetitions(struct infer *in, const struct augur_node *n)
{
    if (n->kind == AUGUR_NODE_LOOP && n->u.loop.form == AUGUR_LOOP_FOR && n->u.loop.var >= 0) {
        const struct augur_expr *b = strip(loop_bound(in, n));
        uint32_t v = (uint32_t)n->u.loop.var;

        if (b && b->kind == AUGUR_EXPR_SYM &&
            in->k->u.kernel.syms[b->u.sym].kind == AUGUR_SYM_PARAM &&
            uses_in(in->k, v) == uses(n->u.loop.cond, v) + uses(n->u.loop.next, v) &&
            uses_in(in->k, b->u.sym) == uses(n->u.loop.cond, b->u.sym))
            set_sym(in, b, "=1", "it only counts repetitions of its loop");
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        repetitions(in, n->kids[i]);
}

/*
 * Node ids and worklists. A scalar parameter that indexes arrays as it is
 * (level[src] = 0, queue[0] = src) is a node: the search or sweep starts
 * at node 0. An index array the kernel fills before it reads it (a queue
 * or stack of nodes: queue[tail++] = dst ... node = queue[head]) holds
 * what the kernel stores: its initial contents do not matter, and it has
 * room for every node.
 */
static void nodes_and_worklists(struct infer *in)
{
    const struct augur_kernel_info *ki = &in->k->u.kernel;

    for (uint32_t s = 0; s < ki->nsyms; s++)
        if (in->node_id[s] && ki->syms[s].kind == AUGUR_SYM_PARAM &&
            augur_type_is_int(ki->syms[s].type) && !in->syms[s].target &&
            ki->syms[s].bind_src == AUGUR_BIND_NONE)
            in->syms[s] = (struct guess){ "=0", "it indexes arrays: a node id, node 0" };
    for (uint32_t a = 0; a < ki->narrays; a++)
        if (in->index_array[a] && in->written[a] && in->first_access[a] > 0 &&
            augur_type_is_int(ki->arrays[a].elem))
            maybe_array(in, a, "vec(n)", "a worklist of nodes the kernel fills before reading it");
}

/* Arrays read or written at the same index as a dense vector are dense vectors of that size. */
static void same_index(struct infer *in, const struct augur_node *n, const struct augur_node *root)
{
    const struct augur_kernel_info *ki = &in->k->u.kernel;

    if (n->kind == AUGUR_NODE_ACCESS && !in->arrays[n->u.access.array].target &&
        ki->arrays[n->u.access.array].bind_src == AUGUR_BIND_NONE &&
        ki->arrays[n->u.access.array].space == AUGUR_SPACE_GLOBAL &&
        !in->index_array[n->u.access.array]) {
        /* search the kernel for a bound dense vector accessed at this index */
        const struct augur_node *stack[256];
        int sp = 0;

        stack[sp++] = root;
        while (sp > 0) {
            const struct augur_node *m = stack[--sp];

            if (m->kind == AUGUR_NODE_ACCESS && m->u.access.array != n->u.access.array &&
                augur_expr_equal(m->u.access.index, n->u.access.index)) {
                uint32_t a = m->u.access.array;
                const char *t = in->arrays[a].target ? in->arrays[a].target : ki->arrays[a].bind;

                if (t && !strncmp(t, "vec(", 4)) {
                    maybe_array(in, n->u.access.array, t, "it is indexed like a dense vector");
                    break;
                }
            }
            for (uint32_t i = 0; i < m->nkids && sp < 256; i++)
                stack[sp++] = m->kids[i];
        }
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        same_index(in, n->kids[i], root);
}

/* ---- the layouts of libraries: thread ranges, jagged diagonals, SELL-C, masks ------------ */

/*
 * What each row found by find_rows walks: interleaved offsets (A[2v], A[2v+1]), a thread's range
 * (A[t], A[t+1] with t the thread's number), a jagged diagonal (claimed by find_jds), or a row
 * pointer, whose rows run from 1 when the loop over them does (for (j = 1; j <= E; j++)).
 */
static void classify_rows(struct infer *in)
{
    for (uint32_t r = 0; r < in->nrows; r++) {
        const char *t = in->arrays[in->rows[r].a].target;
        const struct augur_expr *e = resolve(in, in->rows[r].e1);
        int32_t x;

        in->rows[r].one_based = false;
        if (in->rows[r].kind == ROW_REC || in->rows[r].kind == ROW_OFF ||
            in->rows[r].kind == ROW_PTR)
            continue;
        in->rows[r].kind = ROW_CSR;
        if (t && !strcmp(t, "jds.ptr")) {
            in->rows[r].kind = ROW_JDS;
        } else if (is_thread(in, e)) {
            in->rows[r].kind = ROW_PARTS;
        } else if ((x = pair_index(in, e)) >= 0) {
            in->rows[r].kind = ROW_PAIRS;
            in->rows[r].x2 = (uint32_t)x;
        } else if (e && e->kind == AUGUR_EXPR_SYM) {
            in->rows[r].one_based = one_based_loop(in, loop_of(in->k, e->u.sym));
        }
    }
}

/* True when a row (of a row pointer) is walked for each value of sym v: v is a node. */
static bool walks_rows_of(const struct infer *in, uint32_t v)
{
    for (uint32_t r = 0; r < in->nrows; r++) {
        const struct augur_expr *e = resolve(in, in->rows[r].e1);

        if ((in->rows[r].kind == ROW_CSR || in->rows[r].kind == ROW_REC) && e &&
            e->kind == AUGUR_EXPR_SYM && e->u.sym == v)
            return true;
        if (in->rows[r].kind == ROW_PAIRS && in->rows[r].x2 == v)
            return true;
    }
    return false;
}

/* The target of row r's array of structs: its start field the row pointer, its count the degree. */
static const char *rec_row_target(struct infer *in, uint32_t r)
{
    return augur_arena_strfmt(
        &in->skel->arena, "rec(%" PRIu32 ":%s:csr.rowptr,%" PRIu32 ":%s:deg)",
        in->rows[r].start->u.load.offset, augur_type_name(in->rows[r].start->type),
        in->rows[r].count->u.load.offset, augur_type_name(in->rows[r].count->type));
}

/* Sets the row pointers' targets and the bounds of the loops over their rows. */
static void set_rows(struct infer *in)
{
    const struct augur_kernel_info *ki = &in->k->u.kernel;

    in->nrowptr = 0;
    for (uint32_t r = 0; r < in->nrows && !in->rc; r++) {
        const char *b = ki->arrays[in->rows[r].a].bind;
        char buf[128];
        bool one = in->rows[r].one_based;

        switch (in->rows[r].kind) {
        case ROW_CSR:
            in->nrowptr++;
            set_array(in, in->rows[r].a, one ? "csr1.rowptr" : "csr.rowptr",
                      "its A[i], A[i+1] bound a loop");
            /* a column pointer (bound by hand) walks the m columns */
            b = zero_based(b, buf, sizeof(buf));
            rows_bound(in, in->k, in->rows[r].e1, b && !strcmp(b, "csc.colptr") ? "m" : "n");
            break;
        case ROW_PAIRS:
            in->nrowptr++;
            set_array(in, in->rows[r].a, "csr.rowpairs", "its A[2v], A[2v+1] bound a loop");
            rows_bound_var(in, in->k, in->rows[r].x2, "n");
            break;
        case ROW_PARTS:
            /* a thread's range of nodes when each of them walks a row, else of entries */
            set_array(in, in->rows[r].a,
                      walks_rows_of(in, in->rows[r].x) ? "parts(n)" : "parts(nnz)",
                      "its A[t], A[t+1] bound a loop and t is the thread's number");
            break;
        case ROW_REC:
            in->nrowptr++;
            set_array(in, in->rows[r].a, rec_row_target(in, r),
                      "its A[v].start, A[v].start + A[v].count bound a loop");
            rows_bound(in, in->k, in->rows[r].e1, "n");
            break;
        case ROW_PTR:
            in->nrowptr++;
            if (in->k->u.kernel.arrays[in->rows[r].a].elem == AUGUR_T_REC) {
                /* a vector per node: its start and its length, side by side */
                set_array(in, in->rows[r].a, rec_row_target(in, r),
                          "its A[v].start + k for k < A[v].length is a node's row");
            } else {
                set_array(in, in->rows[r].a, "csr.rowptr",
                          "its pointers start the rows a loop reads as A[i][k]");
                set_array(in, in->rows[r].count->u.load.array, "deg",
                          "it bounds the loop over the row A[i][k] of an array of pointers");
            }
            rows_bound(in, in->k, in->rows[r].e1, "n");
            break;
        case ROW_JDS:
        case ROW_OFF: /* its A[i + 1] - A[i] made A a row pointer (length_expr) */
            break;
        }
    }
}

/* Whether e, as written (not resolved), is the sym r. */
static bool written_sym(const struct augur_expr *e, uint32_t r)
{
    e = strip(e);
    return e && e->kind == AUGUR_EXPR_SYM && e->u.sym == r;
}

/*
 * The access under n (a loop over the positions r of a diagonal) that stores through an index
 * array read at the position alone (y[perm[r]] += ...): that index array, or -1. at is r, or
 * r - A[d] when r runs from A[d].
 */
static int32_t jds_perm(const struct infer *in, const struct augur_node *n, uint32_t r, int32_t a,
                        uint32_t d, bool from_zero)
{
    if (n->kind == AUGUR_NODE_ACCESS && n->u.access.mode != AUGUR_ACCESS_READ) {
        const struct augur_expr *ix = NULL, *x0 = NULL;
        int32_t p = loaded_array(in, base_index(in->k, n->u.access.index), &ix);

        /* the position as written: a thread's local is no loop variable that resolve() keeps */
        if (p >= 0 && p != a && in->index_array[p] && from_zero && written_sym(ix, r))
            return p;
        ix = resolve(in, ix);
        if (p >= 0 && p != a && in->index_array[p] && ix) {
            if (from_zero && ix->kind == AUGUR_EXPR_SYM && ix->u.sym == r)
                return p;
            if (!from_zero && ix->kind == AUGUR_EXPR_BINARY && ix->u.bin.op == AUGUR_OP_SUB &&
                is_sym(in, ix->u.bin.a, (int32_t)r) && loaded_array(in, ix->u.bin.b, &x0) == a &&
                is_sym(in, x0, (int32_t)d))
                return p;
        }
    }
    for (uint32_t i = 0; i < n->nkids; i++) {
        int32_t p = jds_perm(in, n->kids[i], r, a, d, from_zero);

        if (p >= 0)
            return p;
    }
    return -1;
}

/* The entries of a diagonal: accesses at A[d] + r (or at r when r runs from A[d]). */
static void jds_entries(struct infer *in, const struct augur_node *n, uint32_t r, int32_t a,
                        int32_t p, uint32_t d, bool from_zero)
{
    if (n->kind == AUGUR_NODE_ACCESS && (int32_t)n->u.access.array != a &&
        (int32_t)n->u.access.array != p) {
        const struct augur_expr *t[4], *x0 = NULL, *w = strip(base_index(in->k, n->u.access.index));
        int nt = sum_terms(in, base_index(in->k, n->u.access.index), t, 0, 4, 0);
        bool at = false;

        if (!from_zero)
            at = nt == 1 && t[0]->kind == AUGUR_EXPR_SYM && t[0]->u.sym == r;
        else if (nt == 2)
            for (int i = 0; i < 2 && !at; i++)
                at = t[i]->kind == AUGUR_EXPR_SYM && t[i]->u.sym == r &&
                     loaded_array(in, t[1 - i], &x0) == a && is_sym(in, x0, (int32_t)d);
        /* A[d] + r with r a thread's position, as written */
        for (int i = 0; from_zero && !at && w && w->kind == AUGUR_EXPR_BINARY &&
                        w->u.bin.op == AUGUR_OP_ADD && i < 2;
             i++)
            at = written_sym(i ? w->u.bin.b : w->u.bin.a, r) &&
                 loaded_array(in, i ? w->u.bin.a : w->u.bin.b, &x0) == a &&
                 is_sym(in, x0, (int32_t)d);
        if (at)
            set_array(in, n->u.access.array,
                      in->index_array[n->u.access.array] ? "jds.col" : "jds.val",
                      "it is read along a jagged diagonal");
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        jds_entries(in, n->kids[i], r, a, p, d, from_zero);
}

/*
 * Jagged diagonals: a loop over d whose inner loop runs r < A[d+1] - A[d] (or from A[d] to
 * A[d+1]) and stores through an index array read at the position r alone (y[perm[r]]).
 */
static void try_jds(struct infer *in, const struct augur_node *ld, const struct augur_node *lr)
{
    const struct augur_expr *init, *b, *i0 = NULL, *i1 = NULL;
    uint32_t d = (uint32_t)ld->u.loop.var, r = (uint32_t)lr->u.loop.var;
    bool from_zero = false;
    int32_t a = -1, p;

    if (lr->u.loop.form != AUGUR_LOOP_FOR || lr->u.loop.var < 0)
        return;
    init = resolve(in, lr->u.loop.init);
    b = resolve(in, loop_bound(in, lr));
    if (!init || !b)
        return;
    if (init->kind == AUGUR_EXPR_INT && init->u.i == 0 && b->kind == AUGUR_EXPR_BINARY &&
        b->u.bin.op == AUGUR_OP_SUB) {
        a = loaded_array(in, b->u.bin.a, &i1);
        from_zero = true;
        if (a < 0 || loaded_array(in, b->u.bin.b, &i0) != a)
            return;
    } else {
        a = loaded_array(in, init, &i0);
        if (a < 0 || loaded_array(in, b, &i1) != a)
            return;
    }
    if (!is_succ(in, i0, i1) || !is_sym(in, i0, (int32_t)d) ||
        !augur_type_is_int(in->k->u.kernel.arrays[a].elem))
        return;
    p = jds_perm(in, lr, r, a, d, from_zero);
    if (p < 0)
        return;
    set_array(in, (uint32_t)a, "jds.ptr", "A[d], A[d+1] bound the positions of a diagonal");
    set_array(in, (uint32_t)p, "jds.perm",
              "it is read at a diagonal's position and indexes the output");
    set_sym(in, loop_bound(in, ld), "jds.ndiag", "it bounds the jagged diagonals");
    jds_entries(in, lr, r, a, p, d, from_zero);
}

/*
 * Jagged diagonals a thread per position (CUDA): in the loop over d, a guard
 * "r < A[d+1] - A[d]" on the thread's position r, the entries at A[d] + r,
 * and an output stored through an index array read at r (y[perm[r]]),
 * wherever in the kernel.
 */
static void try_jds_thread(struct infer *in, const struct augur_node *ld,
                           const struct augur_node *g)
{
    const struct augur_expr *c = strip(g->u.branch.cond), *x, *b, *i0 = NULL, *i1 = NULL;
    uint32_t d = (uint32_t)ld->u.loop.var;
    int32_t a, p;

    if (!c || c->kind != AUGUR_EXPR_BINARY || c->u.bin.op != AUGUR_OP_LT)
        return;
    x = strip(c->u.bin.a);
    b = resolve(in, c->u.bin.b);
    if (!x || x->kind != AUGUR_EXPR_SYM || !uses_thread(in, x, 0) || !b ||
        b->kind != AUGUR_EXPR_BINARY || b->u.bin.op != AUGUR_OP_SUB)
        return;
    a = loaded_array(in, b->u.bin.a, &i1);
    if (a < 0 || loaded_array(in, b->u.bin.b, &i0) != a || !is_succ(in, i0, i1) ||
        !is_sym(in, i0, (int32_t)d) || !augur_type_is_int(in->k->u.kernel.arrays[a].elem))
        return;
    p = jds_perm(in, in->k, x->u.sym, a, d, true);
    if (p < 0)
        return;
    set_array(in, (uint32_t)a, "jds.ptr", "A[d], A[d+1] bound the positions of a diagonal");
    set_array(in, (uint32_t)p, "jds.perm",
              "it is read at a thread's position and indexes the output");
    set_sym(in, loop_bound(in, ld), "jds.ndiag", "it bounds the jagged diagonals");
    jds_entries(in, g, x->u.sym, a, p, d, true);
}

static void jds_inner(struct infer *in, const struct augur_node *ld, const struct augur_node *n)
{
    if (n->kind == AUGUR_NODE_LOOP)
        try_jds(in, ld, n);
    else if (n->kind == AUGUR_NODE_BRANCH && in->k->u.kernel.cuda)
        try_jds_thread(in, ld, n);
    for (uint32_t i = 0; i < n->nkids; i++)
        jds_inner(in, ld, n->kids[i]);
}

static void find_jds(struct infer *in, const struct augur_node *n)
{
    if (n->kind == AUGUR_NODE_LOOP && n->u.loop.form == AUGUR_LOOP_FOR && n->u.loop.var >= 0)
        for (uint32_t i = 0; i < n->nkids; i++)
            jds_inner(in, n, n->kids[i]);
    for (uint32_t i = 0; i < n->nkids; i++)
        find_jds(in, n->kids[i]);
}

/* The loop of loops[0 .. nloops) whose variable is the sym e (resolved), or NULL. */
static const struct augur_node *enclosing(const struct infer *in, const struct augur_expr *e,
                                          const struct augur_node **loops, int nloops)
{
    e = resolve(in, e);
    for (int l = nloops - 1; l >= 0 && e && e->kind == AUGUR_EXPR_SYM; l--)
        if (loops[l]->u.loop.form == AUGUR_LOOP_FOR && loops[l]->u.loop.var >= 0 &&
            (uint32_t)loops[l]->u.loop.var == e->u.sym)
            return loops[l];
    return NULL;
}

/* The constant C of a loop "r = 0; r < C", or 0. */
static int64_t const_trips(const struct infer *in, const struct augur_node *l)
{
    const struct augur_expr *i = l ? resolve(in, l->u.loop.init) : NULL,
                            *b = l ? resolve(in, loop_bound(in, l)) : NULL,
                            *c = l ? strip(l->u.loop.cond) : NULL;

    if (!i || !b || !c || i->kind != AUGUR_EXPR_INT || i->u.i != 0 || b->kind != AUGUR_EXPR_INT ||
        c->kind != AUGUR_EXPR_BINARY || c->u.bin.op != AUGUR_OP_LT)
        return 0;
    return b->u.i;
}

/*
 * SELL-C: an access at cs[c] + j * C + r, with c a loop variable, j < cl[c] and r < C (C a power
 * of two up to 64): cs and cl are the chunk starts and widths, the array the entries, and the loop
 * over c runs over the chunks. An output at c * C + r holds C elements per chunk.
 */
static void find_sell(struct infer *in, const struct augur_node *n, const struct augur_node **loops,
                      int nloops)
{
    if (in->rc)
        return;
    if (n->kind == AUGUR_NODE_ACCESS && !in->arrays[n->u.access.array].target) {
        const struct augur_expr *t[4], *cx = NULL, *jx = NULL;
        const struct augur_node *lc = NULL, *lj = NULL, *lr = NULL;
        int nt = sum_terms(in, base_index(in->k, n->u.access.index), t, 0, 4, 0);
        int32_t cs = -1, cl = -1;
        int64_t chunk = 0;

        for (int i = 0; i < nt && nt == 3; i++) {
            const struct augur_expr *x = t[i], *y;

            if (x->kind == AUGUR_EXPR_LOAD && cs < 0) {
                cs = (int32_t)x->u.load.array;
                cx = x->u.load.index;
                lc = enclosing(in, cx, loops, nloops);
            } else if (x->kind == AUGUR_EXPR_BINARY && x->u.bin.op == AUGUR_OP_MUL) {
                y = resolve(in, x->u.bin.b);
                x = resolve(in, x->u.bin.a);
                if (x && x->kind == AUGUR_EXPR_INT) {
                    const struct augur_expr *s = x;

                    x = y;
                    y = s;
                }
                if (x && y && y->kind == AUGUR_EXPR_INT) {
                    chunk = y->u.i;
                    lj = enclosing(in, x, loops, nloops);
                }
            } else if (x->kind == AUGUR_EXPR_SYM) {
                lr = enclosing(in, x, loops, nloops);
            }
        }
        if (lc && lj && lr && chunk >= 1 && chunk <= 64 && !(chunk & (chunk - 1)) &&
            const_trips(in, lr) == chunk && (cl = loaded_array(in, loop_bound(in, lj), &jx)) >= 0 &&
            cl != cs && is_sym(in, jx, lc->u.loop.var) &&
            augur_type_is_int(in->k->u.kernel.arrays[cs].elem)) {
            struct augur_arena *ar = &in->skel->arena;
            uint32_t a = n->u.access.array;

            set_array(in, (uint32_t)cs, augur_arena_strfmt(ar, "sell%" PRId64 ".cs", chunk),
                      "cs[c] + j * C + r: the start of a chunk of C rows");
            set_array(in, (uint32_t)cl, augur_arena_strfmt(ar, "sell%" PRId64 ".cl", chunk),
                      "j < cl[c]: the width of a chunk");
            set_array(
                in, a,
                augur_arena_strfmt(
                    ar, in->index_array[a] ? "sell%" PRId64 ".col" : "sell%" PRId64 ".val", chunk),
                "it is read at cs[c] + j * C + r");
            set_sym(in, loop_bound(in, lc),
                    augur_arena_strfmt(ar, "sell%" PRId64 ".nchunks", chunk),
                    "it bounds the chunks of SELL-C");
            in->sell_var = lc->u.loop.var;
            in->sell_chunk = chunk;
        }
    }
    if (n->kind == AUGUR_NODE_LOOP && nloops < 64) {
        loops[nloops] = n;
        for (uint32_t i = 0; i < n->nkids; i++)
            find_sell(in, n->kids[i], loops, nloops + 1);
        return;
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        find_sell(in, n->kids[i], loops, nloops);
}

/* SELL-C's output: c * C + r with r < C holds C elements for each of the chunks. */
static void sell_output(struct infer *in, const struct augur_node *n,
                        const struct augur_node **loops, int nloops)
{
    if (n->kind == AUGUR_NODE_ACCESS && !in->index_array[n->u.access.array]) {
        const struct augur_expr *t[3];
        int nt = sum_terms(in, base_index(in->k, n->u.access.index), t, 0, 3, 0);

        for (int i = 0; i < 2 && nt == 2; i++)
            if (affine_in(in, t[i], (uint32_t)in->sell_var, in->sell_chunk) &&
                const_trips(in, enclosing(in, t[1 - i], loops, nloops)) == in->sell_chunk) {
                maybe_array(in, n->u.access.array,
                            augur_arena_strfmt(&in->skel->arena,
                                               "vec(%" PRId64 "*sell%" PRId64 ".nchunks)",
                                               in->sell_chunk, in->sell_chunk),
                            "C elements for each chunk of SELL-C");
                break;
            }
    }
    if (n->kind == AUGUR_NODE_LOOP && nloops < 64) {
        loops[nloops] = n;
        for (uint32_t i = 0; i < n->nkids; i++)
            sell_output(in, n->kids[i], loops, nloops + 1);
        return;
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        sell_output(in, n->kids[i], loops, nloops);
}

/*
 * A node id: a value loaded from an index array (u = col[k], v = frontier[k]) or a node whose
 * row the kernel walks.
 */
static bool node_value(const struct infer *in, const struct augur_expr *e)
{
    e = resolve(in, e);
    if (!e)
        return false;
    if (e->kind == AUGUR_EXPR_LOAD)
        return in->index_array[e->u.load.array];
    return e->kind == AUGUR_EXPR_SYM && walks_rows_of(in, e->u.sym);
}

/* True when some access of array a under n is a load (store) at the sym v. */
static bool accessed_at(const struct infer *in, const struct augur_node *n, uint32_t a, uint32_t v,
                        bool store)
{
    if (n->kind == AUGUR_NODE_ACCESS && n->u.access.array == a &&
        (n->u.access.mode != AUGUR_ACCESS_READ) == store) {
        const struct augur_expr *ix = resolve(in, base_index(in->k, n->u.access.index));

        if (ix && ix->kind == AUGUR_EXPR_SYM && ix->u.sym == v)
            return true;
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        if (accessed_at(in, n->kids[i], a, v, store))
            return true;
    return false;
}

/* True when every store into array a under n stores zero (false), and there is one. */
static bool clears_only(const struct infer *in, const struct augur_node *n, uint32_t a, bool *any)
{
    if (n->kind == AUGUR_NODE_ACCESS && n->u.access.array == a &&
        n->u.access.mode != AUGUR_ACCESS_READ) {
        const struct augur_expr *v = resolve(in, n->u.access.value);

        if (n->u.access.mode != AUGUR_ACCESS_WRITE || !v || v->kind != AUGUR_EXPR_INT || v->u.i)
            return false;
        *any = true;
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        if (!clears_only(in, n->kids[i], a, any))
            return false;
    return true;
}

/* True when condition c tests an element of array a for zero (!A[x], A[x] == 0). */
static bool tests_zero(const struct infer *in, const struct augur_expr *c, uint32_t a)
{
    const struct augur_expr *x, *y;

    c = resolve(in, c);
    if (!c)
        return false;
    if (c->kind == AUGUR_EXPR_UNARY && c->u.un.op == AUGUR_OP_NOT) {
        x = resolve(in, c->u.un.a);
        return x && x->kind == AUGUR_EXPR_LOAD && x->u.load.array == a;
    }
    if (c->kind != AUGUR_EXPR_BINARY)
        return false;
    if (c->u.bin.op == AUGUR_OP_LAND || c->u.bin.op == AUGUR_OP_LOR)
        return tests_zero(in, c->u.bin.a, a) || tests_zero(in, c->u.bin.b, a);
    x = resolve(in, c->u.bin.a);
    y = resolve(in, c->u.bin.b);
    return c->u.bin.op == AUGUR_OP_EQ && x && y && x->kind == AUGUR_EXPR_LOAD &&
           x->u.load.array == a && y->kind == AUGUR_EXPR_INT && y->u.i == 0;
}

static bool branches_test_zero(const struct infer *in, const struct augur_node *n, uint32_t a)
{
    if (n->kind == AUGUR_NODE_BRANCH && tests_zero(in, n->u.branch.cond, a))
        return true;
    for (uint32_t i = 0; i < n->nkids; i++)
        if (branches_test_zero(in, n->kids[i], a))
            return true;
    return false;
}

/* True when index ix is the node whose row a row of in walks (v, or a thread's node). */
static bool row_node(const struct infer *in, const struct augur_expr *ix)
{
    for (uint32_t r = 0; r < in->nrows && ix; r++)
        if ((in->rows[r].kind == ROW_CSR || in->rows[r].kind == ROW_REC) &&
            augur_expr_equal(resolve(in, in->rows[r].e1), ix))
            return true;
    return false;
}

/*
 * BFS masks and parents. A bool or char array compared in a condition and read at a neighbour
 * (through an index array) that the kernel never stores is the frontier; one read and stored at
 * the node whose row is walked is the visited set. An integer array stored with a node id other
 * than its index (parent[v] = u) holds parents.
 */
static void masks(struct infer *in, const struct augur_node *n)
{
    const struct augur_kernel_info *ki = &in->k->u.kernel;

    if (in->rc)
        return;
    if (n->kind == AUGUR_NODE_ACCESS) {
        const struct augur_access_info *a = &n->u.access;
        const struct augur_array *arr = &ki->arrays[a->array];
        uint32_t x = a->array;

        if (!in->arrays[x].target && arr->space == AUGUR_SPACE_GLOBAL && !in->index_array[x]) {
            const struct augur_expr *ix = resolve(in, base_index(in->k, a->index));

            bool cleared = false;

            if (is_mask_type(arr->elem) && in->compared[x] && !in->written[x] &&
                a->mode == AUGUR_ACCESS_READ && a->nvia > 0) {
                /* tested false (!seen[w]): the nodes not reached yet; else the frontier */
                if (branches_test_zero(in, in->k, x))
                    set_array(in, x, "bfs.visited",
                              "a mask tested false at a neighbour, never stored");
                else
                    set_array(in, x, "bfs.frontier",
                              "a mask read at a neighbour in a condition, never stored");
            } else if (is_mask_type(arr->elem) && in->compared[x] && in->written[x] &&
                       row_node(in, ix) && clears_only(in, in->k, x, &cleared) && cleared) {
                set_array(in, x, "bfs.frontier",
                          "a mask read and cleared at the node whose row is walked: the "
                          "frontier the round expands");
            } else if (in->k->u.kernel.cuda && in->nrows == 0 && is_mask_type(arr->elem) &&
                       in->compared[x] && in->written[x] && ix && uses_thread(in, ix, 0) &&
                       clears_only(in, in->k, x, &cleared) && cleared) {
                /* Rodinia's second BFS kernel: the nodes the round reached become the next
                   frontier, and their mask is cleared */
                const struct augur_expr *v = strip(base_index(in->k, a->index));

                set_array(in, x, "bfs.next",
                          "a mask a thread reads and clears at its node, no row walked: the "
                          "nodes the round reached");
                if (v && v->kind == AUGUR_EXPR_SYM)
                    guard_rows(in, in->k, v->u.sym, "n"); /* if (tid < N && next[tid]) */
            } else if (is_mask_type(arr->elem) && in->compared[x] && in->written[x] && ix &&
                       ix->kind == AUGUR_EXPR_SYM && walks_rows_of(in, ix->u.sym) &&
                       accessed_at(in, in->k, x, ix->u.sym, false) &&
                       accessed_at(in, in->k, x, ix->u.sym, true)) {
                set_array(in, x, "bfs.visited",
                          "a mask read and stored at the node whose row is walked");
            } else if (!is_mask_type(arr->elem) && augur_type_is_int(arr->elem) &&
                       a->mode == AUGUR_ACCESS_WRITE && a->value && node_value(in, a->value) &&
                       !augur_expr_equal(resolve(in, a->value), ix)) {
                set_array(in, x, "bfs.parent", "it is stored with a node id (a parent)");
            }
        }
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        masks(in, n->kids[i]);
}

/* Arrays an element of which is compared with the thread's number (owner[a] == t). */
static void thread_compares(struct infer *in, const struct augur_expr *c)
{
    c = resolve(in, c);
    if (!c || c->kind != AUGUR_EXPR_BINARY)
        return;
    if (c->u.bin.op == AUGUR_OP_LAND || c->u.bin.op == AUGUR_OP_LOR) {
        thread_compares(in, c->u.bin.a);
        thread_compares(in, c->u.bin.b);
    } else if (c->u.bin.op == AUGUR_OP_EQ || c->u.bin.op == AUGUR_OP_NE) {
        for (int side = 0; side < 2; side++) {
            int32_t a = loaded_array(in, side ? c->u.bin.b : c->u.bin.a, NULL);

            if (a >= 0 && is_thread(in, side ? c->u.bin.a : c->u.bin.b))
                in->thread_cmp[a] = true;
        }
    }
}

/* Thread counts (num_threads(nthreads)) and owners compared with the thread's number. */
static void threads(struct infer *in, const struct augur_node *n)
{
    const struct augur_expr *nt = n->kind == AUGUR_NODE_REGION ? n->u.region.omp.num_threads
                                  : n->kind == AUGUR_NODE_LOOP ? n->u.loop.omp.num_threads
                                                               : NULL;

    if (nt)
        set_sym(in, nt, "nthreads", "it is the number of threads");
    if (n->kind == AUGUR_NODE_BRANCH)
        thread_compares(in, n->u.branch.cond);
    for (uint32_t i = 0; i < n->nkids; i++)
        threads(in, n->kids[i]);
}

/* The largest constant index array a is accessed at under n, or -1 when some index is not. */
static int64_t const_index(const struct infer *in, const struct augur_node *n, uint32_t a,
                           int64_t max)
{
    if (max < -1)
        return max;
    if (n->kind == AUGUR_NODE_ACCESS && n->u.access.array == a) {
        const struct augur_expr *ix = resolve(in, n->u.access.index);

        if (!ix || ix->kind != AUGUR_EXPR_INT || ix->u.i < 0 || ix->u.i > 1024 ||
            n->u.access.lanes > 1)
            return -2;
        if (ix->u.i > max)
            max = ix->u.i;
    }
    for (uint32_t i = 0; i < n->nkids && max >= -1; i++)
        max = const_index(in, n->kids[i], a, max);
    return max;
}

/* Appends a warning note to the kernel (in the skeleton's arena). */
static void add_note(struct infer *in, struct augur_srcloc loc, const char *msg)
{
    struct augur_kernel_info *ki = &in->k->u.kernel;
    struct augur_note *notes =
        augur_arena_alloc(&in->skel->arena, (ki->nnotes + 1) * sizeof(*notes));

    if (ki->nnotes)
        memcpy(notes, ki->notes, ki->nnotes * sizeof(*notes));
    notes[ki->nnotes].kind = AUGUR_NOTE_WARNING;
    notes[ki->nnotes].loc = loc;
    notes[ki->nnotes].msg = augur_arena_strdup(&in->skel->arena, msg);
    ki->notes = notes;
    ki->nnotes++;
}

static bool via_of(const struct augur_node *n, uint32_t a, uint32_t f);

/*
 * A frontier of every node: a read-only index array read at the variable of a loop bounded by an
 * unbound scalar, whose values index a row pointer (v = frontier[k]; xoff[v]), is iota(n) and the
 * scalar n. The kernel then expands every node; a note says so.
 */
static void every_node(struct infer *in, const struct augur_node *n, const struct augur_node *loop)
{
    const struct augur_kernel_info *ki = &in->k->u.kernel;

    if (n->kind == AUGUR_NODE_ACCESS && loop) {
        const struct augur_expr *ix = resolve(in, base_index(in->k, n->u.access.index));
        const struct augur_expr *b = strip(loop_bound(in, loop));
        uint32_t f = n->u.access.array;

        if (ix && ix->kind == AUGUR_EXPR_SYM && ix->u.sym == (uint32_t)loop->u.loop.var && b &&
            b->kind == AUGUR_EXPR_SYM && ki->syms[b->u.sym].kind == AUGUR_SYM_PARAM &&
            !ki->syms[b->u.sym].bind && !in->syms[b->u.sym].target && in->index_array[f] &&
            !in->written[f] && !in->arrays[f].target && ki->arrays[f].space == AUGUR_SPACE_GLOBAL &&
            ki->arrays[f].bind_src == AUGUR_BIND_NONE) {
            bool rows = false;

            for (uint32_t r = 0; r < in->nrows && !rows; r++)
                rows = node_row(in->rows[r].kind) && via_of(in->k, in->rows[r].a, f);
            if (rows) {
                char msg[400];

                set_array(in, f, "iota(n)", "its values index a row pointer: every node");
                set_sym(in, b, "n", "it counts the nodes of a frontier of every node");
                snprintf(msg, sizeof(msg),
                         "'%s' is bound to iota(n) and '%s' to n: the frontier holds every node "
                         "(bind them for another frontier)",
                         ki->arrays[f].name, ki->syms[b->u.sym].name);
                add_note(in, ki->arrays[f].loc, msg);
            }
        }
    }
    if (n->kind == AUGUR_NODE_LOOP && n->u.loop.form == AUGUR_LOOP_FOR && n->u.loop.var >= 0)
        loop = n;
    for (uint32_t i = 0; i < n->nkids; i++)
        every_node(in, n->kids[i], loop);
}

/* True when an access of array a under n has an index that depends on array f's values. */
static bool via_of(const struct augur_node *n, uint32_t a, uint32_t f)
{
    if (n->kind == AUGUR_NODE_ACCESS && n->u.access.array == a)
        for (uint32_t k = 0; k < n->u.access.nvia; k++)
            if (n->u.access.via[k] == f)
                return true;
    for (uint32_t i = 0; i < n->nkids; i++)
        if (via_of(n->kids[i], a, f))
            return true;
    return false;
}

/*
 * An out-parameter (*nnext = count): written, and only ever accessed at constant indices, it has
 * as many elements as the largest index needs; its contents before the call do not matter. (An
 * array only read at constant indices holds coefficients from outside: no dataset gives them.)
 */
static void const_arrays(struct infer *in)
{
    const struct augur_kernel_info *ki = &in->k->u.kernel;

    for (uint32_t a = 0; a < ki->narrays; a++) {
        int64_t max;

        if (in->arrays[a].target || ki->arrays[a].bind_src != AUGUR_BIND_NONE ||
            ki->arrays[a].space != AUGUR_SPACE_GLOBAL || in->index_array[a] || !in->written[a])
            continue;
        max = const_index(in, in->k, a, -1);
        if (max >= 0)
            maybe_array(in, a, augur_arena_strfmt(&in->skel->arena, "vec(%" PRId64 ")", max + 1),
                        "it is only accessed at constant indices");
    }
    /*
     * CUDA __constant__ coefficients of real numbers or structs (a CFD code's far-field state):
     * no dataset gives them and no address or branch depends on them, so a dense vector of the
     * declared size stands in, and a note says so. Integer ones (sizes, offsets) stay unbound.
     */
    for (uint32_t a = 0; a < ki->narrays && ki->cuda; a++) {
        const struct augur_array *A = &ki->arrays[a];
        const struct augur_expr *x = A->extent;
        char msg[300];

        if (in->arrays[a].target || A->bind_src != AUGUR_BIND_NONE ||
            A->space != AUGUR_SPACE_CONST || !x || x->kind != AUGUR_EXPR_INT || x->u.i <= 0 ||
            (!augur_type_is_float(A->elem) && A->elem != AUGUR_T_REC) || in->compared[a])
            continue;
        maybe_array(in, a, augur_arena_strfmt(&in->skel->arena, "vec(%" PRId64 ")", x->u.i),
                    "__constant__ coefficients");
        snprintf(msg, sizeof(msg),
                 "__constant__ array '%s' holds values no dataset gives: bound to vec(%" PRId64
                 ") (bind it for others)",
                 A->name, x->u.i);
        add_note(in, A->loc, msg);
    }
}

/* The element count of an array target, as a scalar target ("n+1" for csr.rowptr); NULL. */
static const char *target_count(struct infer *in, const char *t)
{
    static const struct {
        const char *target, *count;
    } counts[] = {
        { "csr.rowptr", "n+1" }, { "csr1.rowptr", "n+1" }, { "csc.colptr", "m+1" },
        { "csr.col", "nnz" },    { "csr.val", "nnz" },     { "csr1.col", "nnz" },
        { "csc.row", "nnz" },    { "csc.val", "nnz" },     { "coo.row", "nnz" },
        { "coo.col", "nnz" },    { "coo.val", "nnz" },     { "deg", "n" },
        { "bfs.level", "n" },    { "bfs.parent", "n" },    { "bfs.visited", "n" },
    };
    size_t len;

    if (!t)
        return NULL;
    for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
        if (!strcmp(t, counts[i].target))
            return counts[i].count;
    len = strlen(t);
    if (len > 5 && !strncmp(t, "vec(", 4) && t[len - 1] == ')')
        return augur_arena_strfmt(&in->skel->arena, "%.*s", (int)(len - 5), t + 4);
    return NULL;
}

/*
 * v.size, the front end's name for a C++ container's v.size(): the count of
 * the target v is bound to, whatever a loop suggested (rowptr.size() is
 * n + 1 where "row + 1 < rowptr.size()" walks n rows).
 */
static void container_sizes(struct infer *in)
{
    const struct augur_kernel_info *ki = &in->k->u.kernel;

    for (uint32_t s = 0; s < ki->nsyms; s++) {
        const char *name = ki->syms[s].name, *count;
        size_t len = strlen(name);

        if (ki->syms[s].kind != AUGUR_SYM_PARAM || ki->syms[s].bind_src != AUGUR_BIND_NONE ||
            len <= 5 || strcmp(name + len - 5, ".size") != 0)
            continue;
        for (uint32_t a = 0; a < ki->narrays; a++) {
            if (strlen(ki->arrays[a].name) != len - 5 ||
                strncmp(ki->arrays[a].name, name, len - 5) != 0)
                continue;
            count =
                target_count(in, ki->arrays[a].bind ? ki->arrays[a].bind : in->arrays[a].target);
            if (count) {
                in->syms[s].target = count;
                in->syms[s].why = "the element count of the container's target";
            }
        }
    }
}

static int infer_kernel(struct augur_skel *skel, struct augur_node *k, struct augur_diag *diag)
{
    struct augur_kernel_info *ki = &k->u.kernel;
    struct infer in = { 0 };
    const struct augur_node *loops[64];
    int32_t first_index = -1;
    int rc;

    in.skel = skel;
    in.k = k;
    in.diag = diag;
    in.arrays = augur_calloc(ki->narrays + 1, sizeof(*in.arrays));
    in.index_array = augur_calloc(ki->narrays + 1, sizeof(*in.index_array));
    in.syms = augur_calloc(ki->nsyms + 1, sizeof(*in.syms));
    in.value = augur_calloc(ki->nsyms + 1, sizeof(*in.value));
    in.nassign = augur_calloc(ki->nsyms + 1, sizeof(*in.nassign));
    in.written = augur_calloc(ki->narrays + 1, sizeof(*in.written));
    in.compared = augur_calloc(ki->narrays + 1, sizeof(*in.compared));
    in.first_access = augur_calloc(ki->narrays + 1, sizeof(*in.first_access));
    in.node_id = augur_calloc(ki->nsyms + 1, sizeof(*in.node_id));
    in.cycle_state = augur_calloc(ki->nsyms + 1, sizeof(*in.cycle_state));
    in.thread_cmp = augur_calloc(ki->narrays + 1, sizeof(*in.thread_cmp));
    in.slots = augur_calloc(ki->narrays + 1, sizeof(*in.slots));
    if (!in.arrays || !in.index_array || !in.syms || !in.value || !in.nassign || !in.written ||
        !in.compared || !in.first_access || !in.node_id || !in.cycle_state || !in.thread_cmp ||
        !in.slots) {
        rc = augur_diag_set(diag, AUGUR_ENOMEM, NULL, 0, 0, "out of memory inferring bindings");
        goto out;
    }
    scan(&in, k);
    cut_cycles(&in, in.cycle_state);
    find_uses(&in, k);
    for (int i = 0; i < 8 && spread_index(&in, k); i++)
        ;
    find_rows(&in, k);
    /* the layouts that also walk A[d] .. A[d + 1] claim their arrays before the rows do */
    find_jds(&in, k);
    in.sell_var = -1;
    if (!in.rc)
        find_sell(&in, k, loops, 0);
    classify_rows(&in);
    set_rows(&in);
    if (!in.rc)
        find_lengths(&in, k);
    walk(&in, k);
    masks(&in, k);
    threads(&in, k);
    name_scalars(&in);
    if (k->u.kernel.cuda)
        padded_rows(&in, k);
    count_slots(&in, k);
    if (!in.rc)
        walk_flat(&in, k, (struct flat_var){ -1, NULL, NULL }, &first_index);
    rec_edges(&in, k);
    repetitions(&in, k);
    nodes_and_worklists(&in);
    if (!in.rc)
        every_node(&in, k, NULL);
    if (!in.rc && in.sell_var >= 0)
        sell_output(&in, k, loops, 0);
    if (!in.rc)
        walk_dense(&in, k, loops, 0);
    past_the_end(&in, k, loops, 0);
    if (!in.rc)
        same_index(&in, k, k);
    if (!in.rc)
        const_arrays(&in);
    container_sizes(&in);
    rc = in.rc;
    if (!rc) {
        for (uint32_t a = 0; a < ki->narrays; a++)
            if (in.arrays[a].target && ki->arrays[a].bind_src == AUGUR_BIND_NONE) {
                ki->arrays[a].bind = augur_arena_strdup(&skel->arena, in.arrays[a].target);
                ki->arrays[a].bind_src = AUGUR_BIND_INFERRED;
            }
        for (uint32_t s = 0; s < ki->nsyms; s++)
            if (in.syms[s].target && ki->syms[s].bind_src == AUGUR_BIND_NONE) {
                ki->syms[s].bind = augur_arena_strdup(&skel->arena, in.syms[s].target);
                ki->syms[s].bind_src = AUGUR_BIND_INFERRED;
            }
    }
out:
    augur_free(in.arrays);
    augur_free(in.index_array);
    augur_free(in.syms);
    augur_free(in.value);
    augur_free(in.nassign);
    augur_free(in.written);
    augur_free(in.compared);
    augur_free(in.first_access);
    augur_free(in.node_id);
    augur_free(in.cycle_state);
    augur_free(in.thread_cmp);
    augur_free(in.slots);
    return rc;
}

int augur_skel_infer_bindings(struct augur_skel *skel, struct augur_diag *diag)
{
    for (uint32_t i = 0; i < skel->nkernels; i++) {
        int rc = infer_kernel(skel, skel->kernels[i], diag);

        if (rc)
            return rc;
    }
    return 0;
}

/* ---- hints for missing bindings ---------------------------------------------------------- */

/* True when e reads array a, or a sym whose assignments under root read it (one level). */
static bool reads_through(const struct augur_node *root, const struct augur_node *n,
                          const struct augur_expr *e, uint32_t a)
{
    if (!e)
        return false;
    if (augur_expr_uses_array(e, a))
        return true;
    if (n->kind == AUGUR_NODE_ASSIGN && uses(e, n->u.assign.sym) &&
        augur_expr_uses_array(n->u.assign.value, a))
        return true;
    for (uint32_t i = 0; i < n->nkids; i++)
        if (reads_through(root, n->kids[i], e, a))
            return true;
    return false;
}

/* True when a loop under n starts or ends at a value of array a (rowptr[i], len = A[d+1] - A[d]).
 */
static bool bounds_loops(const struct augur_node *root, const struct augur_node *n, uint32_t a)
{
    if (n->kind == AUGUR_NODE_LOOP && (reads_through(root, root, n->u.loop.init, a) ||
                                       reads_through(root, root, n->u.loop.cond, a)))
        return true;
    for (uint32_t i = 0; i < n->nkids; i++)
        if (bounds_loops(root, n->kids[i], a))
            return true;
    return false;
}

/* True when some access under n has an index that depends on array a's values. */
static bool indexes(const struct augur_node *n, uint32_t a)
{
    if (n->kind == AUGUR_NODE_ACCESS)
        for (uint32_t k = 0; k < n->u.access.nvia; k++)
            if (n->u.access.via[k] == a)
                return true;
    for (uint32_t i = 0; i < n->nkids; i++)
        if (indexes(n->kids[i], a))
            return true;
    return false;
}

void augur_skel_bind_name(const char *name, char *buf, size_t size)
{
    if (size && !dotted(name, buf, size))
        snprintf(buf, size, "%s", name);
}

void augur_skel_bind_hint(const struct augur_node *kernel, const char *name, char *buf, size_t size)
{
    const struct augur_kernel_info *ki = &kernel->u.kernel;
    const char *hint = "n, m, nnz, an expression such as n-1, or a number";

    for (uint32_t a = 0; a < ki->narrays; a++) {
        enum augur_type t = ki->arrays[a].elem;

        if (strcmp(ki->arrays[a].name, name) != 0)
            continue;
        if (t == AUGUR_T_F32 || t == AUGUR_T_F64)
            hint = "csr.val, coo.val, jds.val, sell8.val, vec(n), vec(m), vec(nnz), ...";
        else if (t == AUGUR_T_REC || t == AUGUR_T_VOID)
            hint = "vec(n), vec(nnz), ...: structs only take a vec()";
        else if (bounds_loops(kernel, kernel, a))
            hint = "an offsets array: csr.rowptr, csc.colptr, csr.rowpairs, jds.ptr, sell8.cs, "
                   "parts(nnz), or csr1.rowptr counted from 1";
        else if (indexes(kernel, a))
            hint = "an index array: csr.col, csc.row, coo.row, coo.col, edges.pairs, ell.idx, "
                   "jds.col, jds.perm, sell8.col, iota(n), ...";
        else if (t == AUGUR_T_BOOL || t == AUGUR_T_I8 || t == AUGUR_T_U8)
            hint = "a mask: bfs.frontier, bfs.visited, bfs.next, vec(n), ...";
        else
            hint = "integers per node: deg, bfs.level, bfs.parent, owner(n), vec(n), vec(1), ...";
        break;
    }
    snprintf(buf, size, "%s", hint);
}

int augur_skel_check_bindings(const struct augur_skel *skel, const struct augur_node *kernel,
                              struct augur_diag *diag)
{
    for (uint32_t i = 0; i < skel->nkernels; i++) {
        const struct augur_kernel_info *ki = &skel->kernels[i]->u.kernel;

        if (kernel && skel->kernels[i] != kernel)
            continue;
        for (uint32_t a = 0; a < ki->narrays; a++) {
            const struct augur_array *arr = &ki->arrays[a];

            char hint[200], name[128];

            if (arr->bind || arr->space == AUGUR_SPACE_SHARED || arr->space == AUGUR_SPACE_LOCAL)
                continue;
            augur_skel_bind_hint(skel->kernels[i], arr->name, hint, sizeof(hint));
            augur_skel_bind_name(arr->name, name, sizeof(name));
            return augur_diag_set(
                diag, AUGUR_EBIND, arr->loc.file < skel->nfiles ? skel->files[arr->loc.file] : NULL,
                arr->loc.line, arr->loc.col,
                "array '%s' of kernel %s is not bound to the dataset: bind it with --bind "
                "%s=TARGET (%s) or #pragma augur bind(%s=TARGET)",
                arr->name, ki->name, name, hint, name);
        }
        for (uint32_t s = 0; s < ki->nsyms; s++) {
            const struct augur_sym *sym = &ki->syms[s];
            char name[128];

            if (sym->kind != AUGUR_SYM_PARAM || sym->bind ||
                !augur_skel_sym_used(skel->kernels[i], s))
                continue;
            augur_skel_bind_name(sym->name, name, sizeof(name));
            return augur_diag_set(
                diag, AUGUR_EBIND, sym->loc.file < skel->nfiles ? skel->files[sym->loc.file] : NULL,
                sym->loc.line, sym->loc.col,
                "scalar '%s' of kernel %s is not bound: bind it with --bind %s=TARGET (n, m, nnz, "
                "an expression such as n-1, or a number)",
                sym->name, ki->name, name);
        }
    }
    return 0;
}

int augur_skel_launch_parse(const char *s, uint64_t *grid, uint64_t *block)
{
    const char *comma = NULL, *p;
    char *end;
    unsigned long long g, b;
    int depth = 0;

    errno = 0;
    g = strtoull(s, &end, 10);
    if (!errno && end != s && *end == ',' && s[0] != '-') {
        const char *t = end + 1;

        b = strtoull(t, &end, 10);
        if (!errno && end != t && !*end && t[0] != '-') {
            if (g == 0 || b == 0)
                return -1;
            *grid = g;
            *block = b;
            return 0;
        }
    }
    /* expressions: one comma outside parentheses, something on both sides */
    for (p = s; *p; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')' && --depth < 0)
            return -1;
        else if (*p == ',' && depth == 0) {
            if (comma)
                return -1;
            comma = p;
        }
    }
    if (depth || !comma || strspn(s, " \t") == (size_t)(comma - s) ||
        !comma[1 + strspn(comma + 1, " \t")])
        return -1;
    *grid = *block = 0;
    return 1;
}
