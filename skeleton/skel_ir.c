/*
 * skel_ir.c - skeleton IR: name tables, types, expressions and the builder (module: skeleton).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "skel_int.h"

/* ---- tables ------------------------------------------------------------------- */

static const char *const type_names[] = {
#define X(e, name, size) name,
    AUGUR_TYPES(X)
#undef X
        NULL
};

static const unsigned type_sizes[] = {
#define X(e, name, size) size,
    AUGUR_TYPES(X)
#undef X
};

static const char *const op_names[] = {
#define X(e, s, p) s,
    AUGUR_OPS(X)
#undef X
        NULL
};

static const int op_precs[] = {
#define X(e, s, p) p,
    AUGUR_OPS(X)
#undef X
};

static const char *const node_kind_names[] = {
#define X(e, name) name,
    AUGUR_NODE_KINDS(X)
#undef X
        NULL
};

#define NAME_TABLE(var, MAP) const char *const var[] = { MAP(NAME_ENTRY) NULL }
#define NAME_ENTRY(e, name)  name,

NAME_TABLE(augur_skel_sym_kind_names, AUGUR_SYM_KINDS);
NAME_TABLE(augur_skel_space_names, AUGUR_SPACES);
NAME_TABLE(augur_skel_bind_src_names, AUGUR_BIND_SRCS);
NAME_TABLE(augur_skel_note_kind_names, AUGUR_NOTE_KINDS);
NAME_TABLE(augur_skel_loop_form_names, AUGUR_LOOP_FORMS);
NAME_TABLE(augur_skel_sched_names, AUGUR_SCHEDS);
NAME_TABLE(augur_skel_access_mode_names, AUGUR_ACCESS_MODES);
NAME_TABLE(augur_skel_sync_names, AUGUR_SYNC_KINDS);
NAME_TABLE(augur_skel_jump_names, AUGUR_JUMP_KINDS);
NAME_TABLE(augur_skel_region_names, AUGUR_REGION_KINDS);
NAME_TABLE(augur_skel_opkind_names, AUGUR_OPKINDS);

int augur_skel_lookup(const char *const *names, const char *s, size_t len)
{
    for (int i = 0; names[i]; i++)
        if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0)
            return i;
    return -1;
}

const char *augur_type_name(enum augur_type t)
{
    return (unsigned)t < AUGUR_T_COUNT ? type_names[t] : "?";
}

unsigned augur_type_size(enum augur_type t)
{
    return (unsigned)t < AUGUR_T_COUNT ? type_sizes[t] : 0;
}

bool augur_type_parse(const char *name, size_t len, enum augur_type *out)
{
    int i = augur_skel_lookup(type_names, name, len);

    if (i < 0)
        return false;
    *out = (enum augur_type)i;
    return true;
}

bool augur_type_is_float(enum augur_type t)
{
    return t == AUGUR_T_F32 || t == AUGUR_T_F64;
}

bool augur_type_is_signed(enum augur_type t)
{
    return t == AUGUR_T_I8 || t == AUGUR_T_I16 || t == AUGUR_T_I32 || t == AUGUR_T_I64;
}

bool augur_type_is_int(enum augur_type t)
{
    return t >= AUGUR_T_BOOL && t <= AUGUR_T_U64;
}

void augur_type_range(enum augur_type t, double *lo, double *hi)
{
    switch (t) {
    case AUGUR_T_BOOL:
        *lo = 0, *hi = 1;
        break;
    case AUGUR_T_I8:
        *lo = INT8_MIN, *hi = INT8_MAX;
        break;
    case AUGUR_T_U8:
        *lo = 0, *hi = UINT8_MAX;
        break;
    case AUGUR_T_I16:
        *lo = INT16_MIN, *hi = INT16_MAX;
        break;
    case AUGUR_T_U16:
        *lo = 0, *hi = UINT16_MAX;
        break;
    case AUGUR_T_I32:
        *lo = INT32_MIN, *hi = INT32_MAX;
        break;
    case AUGUR_T_U32:
        *lo = 0, *hi = UINT32_MAX;
        break;
    case AUGUR_T_I64:
        *lo = -9223372036854775808.0, *hi = 9223372036854775807.0;
        break;
    default:
        *lo = 0, *hi = 18446744073709551615.0;
        break;
    }
}

void augur_type_write(void *p, enum augur_type t, union augur_value v)
{
    switch (t) {
    case AUGUR_T_BOOL:
    case AUGUR_T_I8:
    case AUGUR_T_U8:
        *(uint8_t *)p = (uint8_t)v.u;
        break;
    case AUGUR_T_I16:
    case AUGUR_T_U16: {
        uint16_t x = (uint16_t)v.u;

        memcpy(p, &x, 2);
        break;
    }
    case AUGUR_T_I32:
    case AUGUR_T_U32: {
        uint32_t x = (uint32_t)v.u;

        memcpy(p, &x, 4);
        break;
    }
    case AUGUR_T_F32: {
        float x = (float)v.f;

        memcpy(p, &x, 4);
        break;
    }
    default:
        memcpy(p, &v, 8);
        break;
    }
}

/* Integer promotion: everything narrower than int becomes i32. */
static enum augur_type promote(enum augur_type t)
{
    if (augur_type_is_int(t) && augur_type_size(t) < 4)
        return AUGUR_T_I32;
    return t;
}

enum augur_type augur_type_arith(enum augur_type a, enum augur_type b)
{
    unsigned sa, sb;

    if (a == AUGUR_T_F64 || b == AUGUR_T_F64)
        return AUGUR_T_F64;
    if (a == AUGUR_T_F32 || b == AUGUR_T_F32)
        return AUGUR_T_F32;
    if (a == AUGUR_T_PTR || b == AUGUR_T_PTR)
        return AUGUR_T_PTR;
    if (!augur_type_is_int(a) || !augur_type_is_int(b))
        return AUGUR_T_I64; /* void or rec: treated as a wide integer */
    a = promote(a);
    b = promote(b);
    if (a == b)
        return a;
    sa = augur_type_size(a);
    sb = augur_type_size(b);
    if (augur_type_is_signed(a) == augur_type_is_signed(b))
        return sa >= sb ? a : b;
    /* One signed, one unsigned. */
    if (!augur_type_is_signed(a) && sa >= sb)
        return a;
    if (!augur_type_is_signed(b) && sb >= sa)
        return b;
    return augur_type_is_signed(a) ? a : b; /* the signed one is wider */
}

const char *augur_op_name(enum augur_op op)
{
    return (unsigned)op < AUGUR_OP_COUNT ? op_names[op] : "?";
}

bool augur_op_is_unary(enum augur_op op)
{
    return op == AUGUR_OP_NEG || op == AUGUR_OP_NOT || op == AUGUR_OP_BNOT;
}

bool augur_op_is_logical(enum augur_op op)
{
    return (op >= AUGUR_OP_LT && op <= AUGUR_OP_NE) || op == AUGUR_OP_LAND || op == AUGUR_OP_LOR ||
           op == AUGUR_OP_NOT;
}

int augur_skel_op_prec(enum augur_op op)
{
    return (unsigned)op < AUGUR_OP_COUNT ? op_precs[op] : 0;
}

const char *augur_node_kind_name(enum augur_node_kind kind)
{
    return (unsigned)kind < AUGUR_NODE_KIND_COUNT ? node_kind_names[kind] : "?";
}

const char *augur_opkind_name(enum augur_opkind k)
{
    return (unsigned)k < AUGUR_OPK_COUNT ? augur_skel_opkind_names[k] : "?";
}

/* Builtin syms: the names a skeleton may declare as "builtin". */
static const char *const builtin_names[] = {
    "threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x",   "blockIdx.y", "blockIdx.z",
    "blockDim.x",  "blockDim.y",  "blockDim.z",  "gridDim.x",    "gridDim.y",  "gridDim.z",
    "warpSize",    "lane",        "omp.thread",  "omp.nthreads", NULL,
};

bool augur_skel_builtin_is_known(const char *name)
{
    return augur_skel_lookup(builtin_names, name, strlen(name)) >= 0;
}

/* Words that the expression syntax gives a meaning of its own. */
static const char *const reserved_names[] = { "min", "max", "void", "bool", "i8",  "u8",
                                              "i16", "u16", "i32",  "u32",  "i64", "u64",
                                              "f32", "f64", "ptr",  "rec",  NULL };

bool augur_skel_name_is_reserved(const char *name)
{
    return augur_skel_lookup(reserved_names, name, strlen(name)) >= 0;
}

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
    return is_alpha(c) || (c >= '0' && c <= '9');
}

static const struct augur_expr *uncast(const struct augur_expr *e)
{
    while (e && e->kind == AUGUR_EXPR_CAST)
        e = e->u.cast.a;
    return e;
}

int64_t augur_skel_loop_const_trips(const struct augur_node *loop)
{
    const struct augur_expr *init, *cond, *a, *b;

    if (!loop || loop->kind != AUGUR_NODE_LOOP || loop->u.loop.form != AUGUR_LOOP_FOR)
        return -1;
    init = uncast(loop->u.loop.init);
    cond = loop->u.loop.cond;
    if (!init || init->kind != AUGUR_EXPR_INT || !cond || cond->kind != AUGUR_EXPR_BINARY)
        return -1;
    a = uncast(cond->u.bin.a);
    b = uncast(cond->u.bin.b);
    if (!a || !b || a->kind != AUGUR_EXPR_SYM || a->u.sym != (uint32_t)loop->u.loop.var ||
        b->kind != AUGUR_EXPR_INT)
        return -1;
    if (cond->u.bin.op == AUGUR_OP_LT || cond->u.bin.op == AUGUR_OP_NE)
        return b->u.i > init->u.i ? b->u.i - init->u.i : 0;
    if (cond->u.bin.op == AUGUR_OP_LE)
        return b->u.i >= init->u.i ? b->u.i - init->u.i + 1 : 0;
    return -1;
}

bool augur_skel_name_is(const char *skel_name, const char *name)
{
    size_t n = strlen(name);

    if (strncmp(skel_name, name, n) != 0)
        return false;
    if (skel_name[n] == '\0')
        return true;
    if (skel_name[n] != '.' || !is_digit(skel_name[n + 1]))
        return false;
    for (const char *p = skel_name + n + 1; *p; p++)
        if (!is_digit(*p))
            return false;
    return true;
}

/* Letters, digits and '_', in parts joined by '.' or '->', starting with a letter or '_'. */
static bool name_syntax_ok(const char *name)
{
    const char *p = name;

    if (!name || !is_alpha(*p))
        return false;
    for (;;) {
        while (is_alnum(*p))
            p++;
        if (*p == '\0')
            break;
        if (p[0] == '.')
            p++;
        else if (p[0] == '-' && p[1] == '>')
            p += 2;
        else
            return false;
        if (!is_alnum(*p))
            return false;
    }
    return true;
}

bool augur_skel_name_is_valid(const char *name)
{
    return name_syntax_ok(name) && !augur_skel_name_is_reserved(name);
}

bool augur_skel_kernel_name_is_valid(const char *name)
{
    return name_syntax_ok(name);
}

/* ---- skeleton --------------------------------------------------------------------- */

struct augur_skel *augur_skel_new(void)
{
    struct augur_skel *skel = augur_calloc(1, sizeof(*skel));

    augur_arena_init(&skel->arena, 0);
    return skel;
}

void augur_skel_free(struct augur_skel *skel)
{
    if (!skel)
        return;
    augur_arena_release(&skel->arena);
    augur_free(skel);
}

uint32_t augur_skel_add_file(struct augur_skel *skel, const char *path)
{
    const char **files;

    for (uint32_t i = 0; i < skel->nfiles; i++)
        if (strcmp(skel->files[i], path) == 0)
            return i;
    /* The table is small; it is copied at each addition to stay in the arena. */
    files = augur_arena_alloc(&skel->arena, (skel->nfiles + 1) * sizeof(*files));
    if (skel->nfiles)
        memcpy(files, skel->files, skel->nfiles * sizeof(*files));
    files[skel->nfiles] = augur_arena_strdup(&skel->arena, path);
    skel->files = files;
    return skel->nfiles++;
}

const struct augur_node *augur_node_kernel(const struct augur_node *n)
{
    while (n && n->kind != AUGUR_NODE_KERNEL)
        n = n->parent;
    return n;
}

const struct augur_node *augur_skel_find_kernel(const struct augur_skel *skel, const char *name)
{
    for (uint32_t i = 0; i < skel->nkernels; i++)
        if (strcmp(skel->kernels[i]->u.kernel.name, name) == 0)
            return skel->kernels[i];
    return NULL;
}

/* ---- expressions ------------------------------------------------------------------ */

static struct augur_expr *new_expr(struct augur_skel *skel, enum augur_expr_kind kind,
                                   enum augur_type type)
{
    struct augur_expr *e = augur_arena_alloc(&skel->arena, sizeof(*e));

    e->kind = kind;
    e->type = type;
    return e;
}

/* Truncates an integer to the width of type, as a C conversion does. */
static int64_t wrap(enum augur_type t, uint64_t v)
{
    switch (t) {
    case AUGUR_T_BOOL:
        return v != 0;
    case AUGUR_T_I8:
        return (int8_t)(uint8_t)v;
    case AUGUR_T_U8:
        return (uint8_t)v;
    case AUGUR_T_I16:
        return (int16_t)(uint16_t)v;
    case AUGUR_T_U16:
        return (uint16_t)v;
    case AUGUR_T_I32:
        return (int32_t)(uint32_t)v;
    case AUGUR_T_U32:
        return (uint32_t)v;
    default:
        return (int64_t)v;
    }
}

const struct augur_expr *augur_expr_int(struct augur_skel *skel, enum augur_type type, int64_t v)
{
    struct augur_expr *e = new_expr(skel, AUGUR_EXPR_INT, type);

    e->u.i = wrap(type, (uint64_t)v);
    return e;
}

const struct augur_expr *augur_expr_fp(struct augur_skel *skel, enum augur_type type, double v)
{
    struct augur_expr *e = new_expr(skel, AUGUR_EXPR_FP, type);

    e->u.f = type == AUGUR_T_F32 ? (double)(float)v : v;
    return e;
}

const struct augur_expr *augur_expr_sym(struct augur_skel *skel, enum augur_type type, uint32_t sym)
{
    struct augur_expr *e = new_expr(skel, AUGUR_EXPR_SYM, type);

    e->u.sym = sym;
    return e;
}

const struct augur_expr *augur_expr_load(struct augur_skel *skel, enum augur_type type,
                                         uint32_t array, uint32_t offset,
                                         const struct augur_expr *index)
{
    struct augur_expr *e = new_expr(skel, AUGUR_EXPR_LOAD, type);

    e->u.load.array = array;
    e->u.load.offset = offset;
    e->u.load.index = index;
    return e;
}

const struct augur_expr *augur_expr_unary(struct augur_skel *skel, enum augur_op op,
                                          const struct augur_expr *a)
{
    enum augur_type t = op == AUGUR_OP_NOT ? AUGUR_T_I32 : promote(a->type);
    struct augur_expr *e;

    if (a->kind == AUGUR_EXPR_INT) {
        uint64_t v = (uint64_t)a->u.i;

        switch (op) {
        case AUGUR_OP_NEG:
            return augur_expr_int(skel, t, (int64_t)(0 - v));
        case AUGUR_OP_NOT:
            return augur_expr_int(skel, t, v == 0);
        case AUGUR_OP_BNOT:
            return augur_expr_int(skel, t, (int64_t)~v);
        default:
            break;
        }
    }
    if (a->kind == AUGUR_EXPR_FP && op == AUGUR_OP_NEG)
        return augur_expr_fp(skel, a->type, -a->u.f);
    e = new_expr(skel, AUGUR_EXPR_UNARY, t);
    e->u.un.op = op;
    e->u.un.a = a;
    return e;
}

/* Folds an integer operation; returns false when it cannot (division by zero, shifts). */
static bool fold(enum augur_op op, enum augur_type t, int64_t x, int64_t y, int64_t *out)
{
    uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
    bool sgn = augur_type_is_signed(t);

    switch (op) {
    case AUGUR_OP_ADD:
        *out = (int64_t)(ux + uy);
        return true;
    case AUGUR_OP_SUB:
        *out = (int64_t)(ux - uy);
        return true;
    case AUGUR_OP_MUL:
        *out = (int64_t)(ux * uy);
        return true;
    case AUGUR_OP_DIV:
    case AUGUR_OP_MOD:
        if (y == 0 || (sgn && y == -1))
            return false;
        if (sgn)
            *out = op == AUGUR_OP_DIV ? x / y : x % y;
        else
            *out = (int64_t)(op == AUGUR_OP_DIV ? ux / uy : ux % uy);
        return true;
    case AUGUR_OP_BAND:
        *out = (int64_t)(ux & uy);
        return true;
    case AUGUR_OP_BOR:
        *out = (int64_t)(ux | uy);
        return true;
    case AUGUR_OP_BXOR:
        *out = (int64_t)(ux ^ uy);
        return true;
    case AUGUR_OP_MIN:
        *out = sgn ? (x < y ? x : y) : (int64_t)(ux < uy ? ux : uy);
        return true;
    case AUGUR_OP_MAX:
        *out = sgn ? (x > y ? x : y) : (int64_t)(ux > uy ? ux : uy);
        return true;
    default:
        return false; /* comparisons and shifts stay as written */
    }
}

const struct augur_expr *augur_expr_binary(struct augur_skel *skel, enum augur_op op,
                                           const struct augur_expr *a, const struct augur_expr *b)
{
    enum augur_type t;
    struct augur_expr *e;
    int64_t v;

    if (augur_op_is_logical(op))
        t = AUGUR_T_I32;
    else if (op == AUGUR_OP_SHL || op == AUGUR_OP_SHR)
        t = promote(a->type);
    else
        t = augur_type_arith(a->type, b->type);
    if (a->kind == AUGUR_EXPR_INT && b->kind == AUGUR_EXPR_INT && augur_type_is_int(t) &&
        fold(op, t, wrap(t, (uint64_t)a->u.i), wrap(t, (uint64_t)b->u.i), &v))
        return augur_expr_int(skel, t, v);
    e = new_expr(skel, AUGUR_EXPR_BINARY, t);
    e->u.bin.op = op;
    e->u.bin.a = a;
    e->u.bin.b = b;
    return e;
}

const struct augur_expr *augur_expr_select(struct augur_skel *skel, const struct augur_expr *cond,
                                           const struct augur_expr *a, const struct augur_expr *b)
{
    struct augur_expr *e = new_expr(skel, AUGUR_EXPR_SELECT, augur_type_arith(a->type, b->type));

    e->u.sel.cond = cond;
    e->u.sel.a = a;
    e->u.sel.b = b;
    return e;
}

const struct augur_expr *augur_expr_cast(struct augur_skel *skel, enum augur_type type,
                                         const struct augur_expr *a)
{
    struct augur_expr *e = new_expr(skel, AUGUR_EXPR_CAST, type);

    e->u.cast.a = a;
    return e;
}

const struct augur_expr *augur_expr_opaque(struct augur_skel *skel, enum augur_type type,
                                           const char *what)
{
    struct augur_expr *e = new_expr(skel, AUGUR_EXPR_OPAQUE, type);

    e->u.opaque = augur_arena_strdup(&skel->arena, what);
    return e;
}

bool augur_expr_equal(const struct augur_expr *a, const struct augur_expr *b)
{
    if (a == b)
        return true;
    if (!a || !b || a->kind != b->kind || a->type != b->type)
        return false;
    switch (a->kind) {
    case AUGUR_EXPR_INT:
        return a->u.i == b->u.i;
    case AUGUR_EXPR_FP:
        return memcmp(&a->u.f, &b->u.f, sizeof(double)) == 0;
    case AUGUR_EXPR_SYM:
        return a->u.sym == b->u.sym;
    case AUGUR_EXPR_LOAD:
        return a->u.load.array == b->u.load.array && a->u.load.offset == b->u.load.offset &&
               augur_expr_equal(a->u.load.index, b->u.load.index);
    case AUGUR_EXPR_UNARY:
        return a->u.un.op == b->u.un.op && augur_expr_equal(a->u.un.a, b->u.un.a);
    case AUGUR_EXPR_BINARY:
        return a->u.bin.op == b->u.bin.op && augur_expr_equal(a->u.bin.a, b->u.bin.a) &&
               augur_expr_equal(a->u.bin.b, b->u.bin.b);
    case AUGUR_EXPR_SELECT:
        return augur_expr_equal(a->u.sel.cond, b->u.sel.cond) &&
               augur_expr_equal(a->u.sel.a, b->u.sel.a) && augur_expr_equal(a->u.sel.b, b->u.sel.b);
    case AUGUR_EXPR_CAST:
        return augur_expr_equal(a->u.cast.a, b->u.cast.a);
    case AUGUR_EXPR_OPAQUE:
        return strcmp(a->u.opaque, b->u.opaque) == 0;
    default:
        return false;
    }
}

/* Calls fn on every node of e (pre-order) until it returns true. */
static bool any(const struct augur_expr *e, bool (*fn)(const struct augur_expr *, uint32_t),
                uint32_t arg)
{
    if (!e)
        return false;
    if (fn(e, arg))
        return true;
    switch (e->kind) {
    case AUGUR_EXPR_LOAD:
        return any(e->u.load.index, fn, arg);
    case AUGUR_EXPR_UNARY:
        return any(e->u.un.a, fn, arg);
    case AUGUR_EXPR_BINARY:
        return any(e->u.bin.a, fn, arg) || any(e->u.bin.b, fn, arg);
    case AUGUR_EXPR_SELECT:
        return any(e->u.sel.cond, fn, arg) || any(e->u.sel.a, fn, arg) || any(e->u.sel.b, fn, arg);
    case AUGUR_EXPR_CAST:
        return any(e->u.cast.a, fn, arg);
    default:
        return false;
    }
}

static bool is_opaque(const struct augur_expr *e, uint32_t arg)
{
    (void)arg;
    return e->kind == AUGUR_EXPR_OPAQUE;
}

static bool is_sym(const struct augur_expr *e, uint32_t sym)
{
    return e->kind == AUGUR_EXPR_SYM && e->u.sym == sym;
}

static bool is_load_of(const struct augur_expr *e, uint32_t array)
{
    return e->kind == AUGUR_EXPR_LOAD && e->u.load.array == array;
}

bool augur_expr_has_opaque(const struct augur_expr *e)
{
    return any(e, is_opaque, 0);
}

bool augur_expr_uses_sym(const struct augur_expr *e, uint32_t sym)
{
    return any(e, is_sym, sym);
}

bool augur_expr_uses_array(const struct augur_expr *e, uint32_t array)
{
    return any(e, is_load_of, array);
}

static bool omp_uses_sym(const struct augur_omp *o, uint32_t sym)
{
    return augur_expr_uses_sym(o->chunk, sym) || augur_expr_uses_sym(o->num_threads, sym);
}

static bool node_uses_sym(const struct augur_node *n, uint32_t sym)
{
    switch (n->kind) {
    case AUGUR_NODE_LOOP:
        if (n->u.loop.var == (int32_t)sym || augur_expr_uses_sym(n->u.loop.init, sym) ||
            augur_expr_uses_sym(n->u.loop.cond, sym) || augur_expr_uses_sym(n->u.loop.next, sym) ||
            omp_uses_sym(&n->u.loop.omp, sym))
            return true;
        break;
    case AUGUR_NODE_BRANCH:
        if (augur_expr_uses_sym(n->u.branch.cond, sym))
            return true;
        break;
    case AUGUR_NODE_ACCESS:
        if (augur_expr_uses_sym(n->u.access.index, sym) ||
            augur_expr_uses_sym(n->u.access.value, sym) ||
            augur_expr_uses_sym(n->u.access.mask, sym))
            return true;
        break;
    case AUGUR_NODE_ASSIGN:
        if (n->u.assign.sym == sym || augur_expr_uses_sym(n->u.assign.value, sym))
            return true;
        break;
    case AUGUR_NODE_REGION:
        if (omp_uses_sym(&n->u.region.omp, sym))
            return true;
        break;
    default:
        break;
    }
    for (uint32_t i = 0; i < n->nkids; i++)
        if (node_uses_sym(n->kids[i], sym))
            return true;
    return false;
}

bool augur_skel_sym_used(const struct augur_node *kernel, uint32_t sym)
{
    const struct augur_kernel_info *k = &kernel->u.kernel;

    if (k->cuda || augur_expr_uses_sym(k->grid, sym) || augur_expr_uses_sym(k->block, sym))
        return true;
    for (uint32_t a = 0; a < k->narrays; a++)
        if (augur_expr_uses_sym(k->arrays[a].extent, sym))
            return true;
    return node_uses_sym(kernel, sym);
}

/* ---- builder ---------------------------------------------------------------------- */

struct open_node {
    struct augur_node *node;
    struct augur_vec kids; /* struct augur_node * */
};

struct augur_skel_builder {
    struct augur_skel *skel;
    struct augur_vec stack;   /* struct open_node; [0] is the kernel */
    struct augur_vec kernels; /* struct augur_node *: finished kernels */
    struct augur_vec syms, arrays, notes;
};

struct augur_skel_builder *augur_skel_builder_new(struct augur_skel *skel)
{
    struct augur_skel_builder *b = augur_calloc(1, sizeof(*b));

    b->skel = skel;
    augur_vec_init(&b->stack, sizeof(struct open_node));
    augur_vec_init(&b->kernels, sizeof(struct augur_node *));
    augur_vec_append(&b->kernels, skel->kernels, skel->nkernels);
    augur_vec_init(&b->syms, sizeof(struct augur_sym));
    augur_vec_init(&b->arrays, sizeof(struct augur_array));
    augur_vec_init(&b->notes, sizeof(struct augur_note));
    return b;
}

void augur_skel_builder_free(struct augur_skel_builder *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->stack.len; i++)
        augur_vec_release(&AUGUR_VEC_AT(&b->stack, struct open_node, i).kids);
    augur_vec_release(&b->stack);
    augur_vec_release(&b->kernels);
    augur_vec_release(&b->syms);
    augur_vec_release(&b->arrays);
    augur_vec_release(&b->notes);
    augur_free(b);
}

struct augur_skel *augur_skel_builder_skel(struct augur_skel_builder *b)
{
    return b->skel;
}

static struct open_node *top(struct augur_skel_builder *b)
{
    if (!b->stack.len)
        return NULL;
    return &AUGUR_VEC_AT(&b->stack, struct open_node, b->stack.len - 1);
}

static struct augur_node *new_node(struct augur_skel_builder *b, enum augur_node_kind kind,
                                   struct augur_srcloc loc)
{
    struct augur_node *n = augur_arena_alloc(&b->skel->arena, sizeof(*n));

    n->kind = kind;
    n->loc = loc;
    switch (kind) {
    case AUGUR_NODE_LOOP:
        n->u.loop.var = -1;
        n->u.loop.trips = -1;
        break;
    case AUGUR_NODE_BRANCH:
        n->u.branch.prob = -1;
        break;
    case AUGUR_NODE_ACCESS:
        n->u.access.lanes = 1;
        break;
    default:
        break;
    }
    return n;
}

struct augur_node *augur_skel_begin_kernel(struct augur_skel_builder *b, const char *name,
                                           struct augur_srcloc loc)
{
    struct augur_node *n;
    struct open_node *o;

    if (b->stack.len)
        AUGUR_BUG("a kernel is already open");
    n = new_node(b, AUGUR_NODE_KERNEL, loc);
    n->u.kernel.name = augur_arena_strdup(&b->skel->arena, name);
    o = augur_vec_push(&b->stack);
    o->node = n;
    augur_vec_init(&o->kids, sizeof(struct augur_node *));
    b->syms.len = b->arrays.len = b->notes.len = 0;
    return n;
}

/* Copies a vector into the arena at its exact size. */
static void *arena_copy(struct augur_skel *skel, const struct augur_vec *v)
{
    void *p;

    if (!v->len)
        return NULL;
    p = augur_arena_alloc(&skel->arena, v->len * v->elem);
    memcpy(p, v->data, v->len * v->elem);
    return p;
}

static void close_top(struct augur_skel_builder *b)
{
    struct open_node *o = top(b);
    struct augur_node *n = o->node;

    n->nkids = (uint32_t)o->kids.len;
    n->kids = arena_copy(b->skel, &o->kids);
    for (uint32_t i = 0; i < n->nkids; i++)
        n->kids[i]->parent = n;
    augur_vec_release(&o->kids);
    b->stack.len--;
}

void augur_skel_end_kernel(struct augur_skel_builder *b)
{
    struct augur_node *k;

    if (b->stack.len != 1)
        AUGUR_BUG("end_kernel with %zu open nodes", b->stack.len);
    k = top(b)->node;
    k->u.kernel.nsyms = (uint32_t)b->syms.len;
    k->u.kernel.syms = arena_copy(b->skel, &b->syms);
    k->u.kernel.narrays = (uint32_t)b->arrays.len;
    k->u.kernel.arrays = arena_copy(b->skel, &b->arrays);
    k->u.kernel.nnotes = (uint32_t)b->notes.len;
    k->u.kernel.notes = arena_copy(b->skel, &b->notes);
    close_top(b);
    *(struct augur_node **)augur_vec_push(&b->kernels) = k;
}

void augur_skel_abandon_kernel(struct augur_skel_builder *b)
{
    while (b->stack.len) {
        augur_vec_release(&top(b)->kids);
        b->stack.len--;
    }
}

struct augur_node *augur_skel_open(struct augur_skel_builder *b, enum augur_node_kind kind,
                                   struct augur_srcloc loc)
{
    struct open_node *parent = top(b), *o;
    struct augur_node *n;

    if (!parent)
        AUGUR_BUG("no kernel is open");
    if (kind == AUGUR_NODE_KERNEL)
        AUGUR_BUG("kernels are opened with augur_skel_begin_kernel");
    n = new_node(b, kind, loc);
    *(struct augur_node **)augur_vec_push(&parent->kids) = n;
    o = augur_vec_push(&b->stack);
    o->node = n;
    augur_vec_init(&o->kids, sizeof(struct augur_node *));
    return n;
}

void augur_skel_close(struct augur_skel_builder *b)
{
    if (b->stack.len < 2)
        AUGUR_BUG("close without an open node");
    close_top(b);
}

struct augur_node *augur_skel_leaf(struct augur_skel_builder *b, enum augur_node_kind kind,
                                   struct augur_srcloc loc)
{
    struct augur_node *n = augur_skel_open(b, kind, loc);

    close_top(b);
    return n;
}

struct augur_node *augur_skel_current(struct augur_skel_builder *b)
{
    struct open_node *o = top(b);

    return o ? o->node : NULL;
}

uint32_t augur_skel_nkids(struct augur_skel_builder *b)
{
    struct open_node *o = top(b);

    return o ? (uint32_t)o->kids.len : 0;
}

void augur_skel_drop_last(struct augur_skel_builder *b)
{
    struct open_node *o = top(b);

    if (!o || !o->kids.len)
        AUGUR_BUG("drop_last without a kid");
    o->kids.len--;
}

uint32_t augur_skel_add_sym(struct augur_skel_builder *b, const char *name,
                            enum augur_sym_kind kind, enum augur_type type, struct augur_srcloc loc)
{
    struct augur_sym *s = augur_vec_push(&b->syms);

    s->name = augur_arena_strdup(&b->skel->arena, name);
    s->kind = kind;
    s->type = type;
    s->loc = loc;
    return (uint32_t)(b->syms.len - 1);
}

uint32_t augur_skel_add_array(struct augur_skel_builder *b, const char *name, enum augur_type elem,
                              uint32_t elem_size, enum augur_space space, bool param,
                              struct augur_srcloc loc)
{
    struct augur_array *a = augur_vec_push(&b->arrays);

    a->name = augur_arena_strdup(&b->skel->arena, name);
    a->elem = elem;
    a->elem_size = elem_size;
    a->space = space;
    a->param = param;
    a->loc = loc;
    return (uint32_t)(b->arrays.len - 1);
}

void augur_skel_add_note(struct augur_skel_builder *b, enum augur_note_kind kind,
                         struct augur_srcloc loc, const char *fmt, ...)
{
    struct augur_note *note = augur_vec_push(&b->notes);
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    note->kind = kind;
    note->loc = loc;
    note->msg = augur_arena_strdup(&b->skel->arena, msg);
}

struct augur_sym *augur_skel_sym(struct augur_skel_builder *b, uint32_t i)
{
    if (i >= b->syms.len)
        AUGUR_BUG("sym %u out of range", i);
    return &AUGUR_VEC_AT(&b->syms, struct augur_sym, i);
}

struct augur_array *augur_skel_array(struct augur_skel_builder *b, uint32_t i)
{
    if (i >= b->arrays.len)
        AUGUR_BUG("array %u out of range", i);
    return &AUGUR_VEC_AT(&b->arrays, struct augur_array, i);
}

uint32_t augur_skel_nsyms(struct augur_skel_builder *b)
{
    return (uint32_t)b->syms.len;
}

uint32_t augur_skel_narrays(struct augur_skel_builder *b)
{
    return (uint32_t)b->arrays.len;
}

int32_t augur_skel_find_sym(struct augur_skel_builder *b, const char *name)
{
    for (size_t i = 0; i < b->syms.len; i++)
        if (strcmp(AUGUR_VEC_AT(&b->syms, struct augur_sym, i).name, name) == 0)
            return (int32_t)i;
    return -1;
}

int32_t augur_skel_find_array(struct augur_skel_builder *b, const char *name)
{
    for (size_t i = 0; i < b->arrays.len; i++)
        if (strcmp(AUGUR_VEC_AT(&b->arrays, struct augur_array, i).name, name) == 0)
            return (int32_t)i;
    return -1;
}

int augur_skel_opcount_order(const struct augur_opcount *a, const struct augur_opcount *b)
{

    if (a->op != b->op)
        return a->op < b->op ? -1 : 1;
    if (a->type != b->type)
        return a->type < b->type ? -1 : 1;
    if (a->lanes != b->lanes)
        return a->lanes < b->lanes ? -1 : 1;
    if (a->masked != b->masked)
        return (int)a->masked - (int)b->masked;
    return (int)a->carried - (int)b->carried;
}

static int opcount_cmp(const void *a, const void *b)
{
    return augur_skel_opcount_order(a, b);
}

void augur_skel_set_ops(struct augur_skel_builder *b, struct augur_node *n,
                        const struct augur_opcount *v, uint32_t nv)
{
    struct augur_opcount *out = NULL;
    uint32_t m = 0;

    if (nv) {
        out = augur_arena_alloc(&b->skel->arena, nv * sizeof(*out));
        memcpy(out, v, nv * sizeof(*out));
        qsort(out, nv, sizeof(*out), opcount_cmp);
        for (uint32_t i = 0; i < nv; i++) {
            if (m && opcount_cmp(&out[m - 1], &out[i]) == 0) {
                /* two entries of one kind: their counts add, and their chains */
                out[m - 1].count += out[i].count;
                if (out[m - 1].carried)
                    out[m - 1].chains = (out[m - 1].chains ? out[m - 1].chains : 1) +
                                        (out[i].chains ? out[i].chains : 1);
            } else {
                out[m++] = out[i];
            }
        }
    }
    n->u.ops.v = out;
    n->u.ops.n = m;
}

void augur_skel_set_via(struct augur_skel_builder *b, struct augur_node *n, const uint32_t *via,
                        uint32_t nvia)
{
    uint32_t *v = NULL;

    if (nvia) {
        v = augur_arena_alloc(&b->skel->arena, nvia * sizeof(*v));
        memcpy(v, via, nvia * sizeof(*v));
    }
    n->u.access.via = v;
    n->u.access.nvia = nvia;
}

void augur_skel_set_reductions(struct augur_skel_builder *b, struct augur_omp *omp,
                               const struct augur_reduction *v, uint32_t n)
{
    struct augur_reduction *r = NULL;

    if (n) {
        r = augur_arena_alloc(&b->skel->arena, n * sizeof(*r));
        for (uint32_t i = 0; i < n; i++) {
            r[i].op = augur_arena_strdup(&b->skel->arena, v[i].op);
            r[i].var = augur_arena_strdup(&b->skel->arena, v[i].var);
        }
    }
    omp->reductions = r;
    omp->nreductions = n;
}

static void number(struct augur_node *n, struct augur_vec *nodes)
{
    n->id = (uint32_t)nodes->len;
    *(struct augur_node **)augur_vec_push(nodes) = n;
    for (uint32_t i = 0; i < n->nkids; i++)
        number(n->kids[i], nodes);
}

int augur_skel_builder_finish(struct augur_skel_builder *b, struct augur_diag *diag)
{
    struct augur_skel *skel = b->skel;
    struct augur_vec nodes;

    if (b->stack.len)
        AUGUR_BUG("finish with %zu open nodes", b->stack.len);
    augur_vec_init(&nodes, sizeof(struct augur_node *));
    skel->nkernels = (uint32_t)b->kernels.len;
    skel->kernels = arena_copy(skel, &b->kernels);
    for (uint32_t i = 0; i < skel->nkernels; i++)
        number(skel->kernels[i], &nodes);
    skel->nnodes = (uint32_t)nodes.len;
    skel->nodes = arena_copy(skel, &nodes);
    augur_vec_release(&nodes);
    return augur_skel_validate(skel, diag);
}
