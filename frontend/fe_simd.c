/*
 * fe_simd.c - AVX-512 (and AVX2/SSE) intrinsics: vector values as one
 * lane's expression, loads, stores, gathers, scatters, masks, conflict
 * detection and reductions counted by kind (module: frontend).
 */
#include <stdlib.h>
#include <string.h>

#include "fe_int.h"

enum vop {
    V_LOAD,
    V_STORE,
    V_GATHER,
    V_SCATTER,
    V_CONFLICT,
    V_REDUCE,
    V_ADD,
    V_SUB,
    V_MUL,
    V_DIV,
    V_FMA,
    V_SQRT,
    V_MINMAX,
    V_BIT,
    V_SHIFT,
    V_CMP,
    V_SET1,
    V_SETZERO,
    V_SET,
    V_CAST,
    V_CVT,
    V_PERM,
    V_KAND,
    V_KOR,
    V_KXOR,
    V_KNOT,
    V_KANDN,
    V_INT2MASK,
    V_MASK2INT,
    V_KTEST,
    V_OTHER,
};

struct intrin {
    unsigned width; /* bits of the vector (0 for mask-only operations) */
    bool mask, maskz, setr, stream, hi, idx64;
    enum vop op;
    enum augur_op cmp; /* V_CMP / V_MINMAX / V_BIT / V_SHIFT: the lane operator */
    enum augur_type et;
    unsigned nargs_core; /* the operands after the mask arguments */
};

static bool has(const char *s, const char *word)
{
    return strstr(s, word) != NULL;
}

static bool starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* The element type from the name's last type word (_pd, _epi32, ...). */
static enum augur_type suffix_type(const char *name)
{
    static const struct {
        const char *s;
        enum augur_type t;
    } tab[] = { { "_pd", AUGUR_T_F64 },    { "_ps", AUGUR_T_F32 },    { "_sd", AUGUR_T_F64 },
                { "_ss", AUGUR_T_F32 },    { "_epi64", AUGUR_T_I64 }, { "_epu64", AUGUR_T_U64 },
                { "_epi32", AUGUR_T_I32 }, { "_epu32", AUGUR_T_U32 }, { "_epi16", AUGUR_T_I16 },
                { "_epu16", AUGUR_T_U16 }, { "_epi8", AUGUR_T_I8 },   { "_epu8", AUGUR_T_U8 },
                { "_si512", AUGUR_T_I32 }, { "_si256", AUGUR_T_I32 }, { "_si128", AUGUR_T_I32 } };
    const char *best = NULL;
    enum augur_type t = AUGUR_T_I32;

    for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
        const char *p = name;

        while ((p = strstr(p, tab[i].s)) != NULL) {
            const char *after = p + strlen(tab[i].s);

            if ((*after == '\0' || *after == '_') && (!best || p > best)) {
                best = p;
                t = tab[i].t;
            }
            p = after;
        }
    }
    return t;
}

static bool classify(const char *name, struct intrin *in)
{
    const char *s;

    memset(in, 0, sizeof(*in));
    if (starts(name, "_mm512_"))
        in->width = 512, s = name + 7;
    else if (starts(name, "_mm256_"))
        in->width = 256, s = name + 7;
    else if (starts(name, "_mm_"))
        in->width = 128, s = name + 4;
    else if (starts(name, "_k") || starts(name, "_cvtu32_mask") || starts(name, "_cvtmask") ||
             starts(name, "_load_mask") || starts(name, "_store_mask"))
        in->width = 0, s = name + 1;
    else
        return false;
    if (!strcmp(name, "_mm_malloc") || !strcmp(name, "_mm_free") || starts(name, "_mm_prefetch") ||
        !strcmp(name, "_mm_pause") || has(name, "fence"))
        return false;
    if (starts(s, "mask_"))
        in->mask = true, s += 5;
    else if (starts(s, "maskz_"))
        in->maskz = true, s += 6;
    in->et = suffix_type(name);
    in->cmp = AUGUR_OP_ADD;
    in->idx64 = starts(s, "i64");
    if (starts(s, "i32gather") || starts(s, "i64gather"))
        in->op = V_GATHER;
    else if (starts(s, "i32scatter") || starts(s, "i64scatter"))
        in->op = V_SCATTER;
    else if (starts(s, "stream_load"))
        in->op = V_LOAD, in->stream = true;
    else if (starts(s, "load") || starts(s, "expandload"))
        in->op = V_LOAD;
    else if (starts(s, "stream"))
        in->op = V_STORE, in->stream = true;
    else if (starts(s, "store") || starts(s, "compressstore"))
        in->op = V_STORE;
    else if (starts(s, "conflict"))
        in->op = V_CONFLICT;
    else if (starts(s, "reduce_"))
        in->op = V_REDUCE;
    else if (starts(s, "fmadd") || starts(s, "fmsub") || starts(s, "fnmadd") || starts(s, "fnmsub"))
        in->op = V_FMA;
    else if (starts(s, "add"))
        in->op = V_ADD;
    else if (starts(s, "sub"))
        in->op = V_SUB;
    else if (starts(s, "mullo") || starts(s, "mul"))
        in->op = V_MUL;
    else if (starts(s, "div"))
        in->op = V_DIV;
    else if (starts(s, "sqrt") || starts(s, "rsqrt"))
        in->op = V_SQRT;
    else if (starts(s, "min"))
        in->op = V_MINMAX, in->cmp = AUGUR_OP_MIN;
    else if (starts(s, "max"))
        in->op = V_MINMAX, in->cmp = AUGUR_OP_MAX;
    else if (starts(s, "andnot"))
        in->op = V_BIT, in->cmp = AUGUR_OP_BAND;
    else if (starts(s, "and_"))
        in->op = V_BIT, in->cmp = AUGUR_OP_BAND;
    else if (starts(s, "or_"))
        in->op = V_BIT, in->cmp = AUGUR_OP_BOR;
    else if (starts(s, "xor_"))
        in->op = V_BIT, in->cmp = AUGUR_OP_BXOR;
    else if (starts(s, "slli") || starts(s, "sll"))
        in->op = V_SHIFT, in->cmp = AUGUR_OP_SHL;
    else if (starts(s, "srli") || starts(s, "srl") || starts(s, "srai") || starts(s, "sra"))
        in->op = V_SHIFT, in->cmp = AUGUR_OP_SHR;
    else if (starts(s, "cmp") || starts(s, "test_") || starts(s, "testn_")) {
        in->op = V_CMP;
        in->cmp = starts(s, "cmplt")    ? AUGUR_OP_LT
                  : starts(s, "cmple")  ? AUGUR_OP_LE
                  : starts(s, "cmpgt")  ? AUGUR_OP_GT
                  : starts(s, "cmpge")  ? AUGUR_OP_GE
                  : starts(s, "cmpeq")  ? AUGUR_OP_EQ
                  : starts(s, "cmpneq") ? AUGUR_OP_NE
                  : starts(s, "testn_") ? AUGUR_OP_EQ
                  : starts(s, "test_")  ? AUGUR_OP_NE
                                        : AUGUR_OP_COUNT; /* predicate argument */
    } else if (starts(s, "set1") || starts(s, "broadcast"))
        in->op = V_SET1;
    else if (starts(s, "setzero") || starts(s, "undefined"))
        in->op = V_SETZERO;
    else if (starts(s, "setr"))
        in->op = V_SET, in->setr = true;
    else if (starts(s, "set_"))
        in->op = V_SET;
    else if (starts(s, "cast"))
        in->op = V_CAST;
    else if (starts(s, "extract")) {
        in->op = V_CAST;
        in->hi = true;
    } else if (starts(s, "cvt") && !has(s, "mask"))
        in->op = V_CVT;
    else if (starts(s, "permute") || starts(s, "shuffle") || starts(s, "blend") ||
             starts(s, "mov") || starts(s, "compress") || starts(s, "expand") ||
             starts(s, "alignr") || starts(s, "unpack") || starts(s, "insert"))
        in->op = V_PERM;
    else if (starts(s, "kand_") || !strcmp(s, "kand") || starts(s, "kand_mask"))
        in->op = V_KAND;
    else if (starts(s, "kandn"))
        in->op = V_KANDN;
    else if (starts(s, "kor_") || !strcmp(s, "kor") || starts(s, "kor_mask"))
        in->op = V_KOR;
    else if (starts(s, "kxor") || starts(s, "kxnor"))
        in->op = V_KXOR;
    else if (starts(s, "knot"))
        in->op = V_KNOT;
    else if (starts(s, "kortest") || starts(s, "ktest"))
        in->op = V_KTEST;
    else if (starts(s, "cvtu32_mask") || starts(s, "int2mask") || starts(s, "load_mask"))
        in->op = V_INT2MASK;
    else if (starts(s, "cvtmask") || starts(s, "mask2int") || starts(s, "store_mask"))
        in->op = V_MASK2INT;
    else
        in->op = V_OTHER;
    return true;
}

static unsigned lanes_of(const struct intrin *in, enum augur_type t)
{
    unsigned bits = 8 * augur_type_size(t);

    if (!in->width || !bits)
        return 1;
    if ((in->op == V_GATHER || in->op == V_SCATTER) && in->idx64 && bits < 64)
        bits = 64; /* eight 64-bit indices give eight 32-bit lanes */
    return in->width / bits ? in->width / bits : 1;
}

static struct fe_val vec(const struct augur_expr *lane, unsigned lanes, enum augur_type t,
                         bool is_mask)
{
    struct fe_val v = { lane, -1, !is_mask, is_mask, lanes, t };

    return v;
}

static struct fe_val scalar(const struct augur_expr *e)
{
    struct fe_val v = { e, -1, false, false, 1, AUGUR_T_VOID };

    return v;
}

const struct augur_expr *fe_lane(struct fe_conv *cv)
{
    if (cv->lane_sym < 0)
        cv->lane_sym = fe_builtin(cv, "lane", AUGUR_T_I32);
    return augur_expr_sym(cv->skel, AUGUR_T_I32, (uint32_t)cv->lane_sym);
}

/* The per-lane value of an operand: a vector's lane, or a scalar broadcast. */
static const struct augur_expr *lane_value(struct fe_conv *cv, struct fe_val v, enum augur_type t)
{
    if ((v.vec || v.mask) && v.e)
        return v.e;
    if (v.e && v.array < 0 && !v.vec)
        return v.e;
    return fe_opaque(cv, t, "lane");
}

/* A mask operand as one lane's 0/1 value; NULL when every lane is on. */
static const struct augur_expr *mask_lane(struct fe_conv *cv, struct fe_val k, unsigned lanes)
{
    if (k.mask && k.e)
        return k.e;
    if (k.e && k.e->kind == AUGUR_EXPR_INT) {
        uint64_t all = lanes >= 64 ? UINT64_MAX : (((uint64_t)1 << lanes) - 1);

        if (((uint64_t)k.e->u.i & all) == all)
            return NULL;
    }
    if (k.e && k.array < 0 && !k.vec) {
        const struct augur_expr *bit = augur_expr_binary(
            cv->skel, AUGUR_OP_BAND,
            augur_expr_binary(cv->skel, AUGUR_OP_SHR, augur_expr_cast(cv->skel, AUGUR_T_U32, k.e),
                              fe_lane(cv)),
            augur_expr_int(cv->skel, AUGUR_T_U32, 1));

        return bit;
    }
    return fe_opaque(cv, AUGUR_T_I32, "mask");
}

/* The constant value of an operand, when it has one. */
static bool const_of(struct fe_val v, int64_t *out)
{
    if (v.e && !v.vec && !v.mask && v.array < 0 && v.e->kind == AUGUR_EXPR_INT) {
        *out = v.e->u.i;
        return true;
    }
    return false;
}

/* Replaces the lane sym in e by repl (lane + 8 for the upper half). */
static const struct augur_expr *subst_lane(struct fe_conv *cv, const struct augur_expr *e,
                                           const struct augur_expr *repl, int depth)
{
    if (!e || depth > 64)
        return e;
    switch (e->kind) {
    case AUGUR_EXPR_SYM:
        return (int32_t)e->u.sym == cv->lane_sym ? repl : e;
    case AUGUR_EXPR_LOAD:
        return augur_expr_load(cv->skel, e->type, e->u.load.array, e->u.load.offset,
                               subst_lane(cv, e->u.load.index, repl, depth + 1));
    case AUGUR_EXPR_UNARY:
        return augur_expr_unary(cv->skel, e->u.un.op, subst_lane(cv, e->u.un.a, repl, depth + 1));
    case AUGUR_EXPR_BINARY:
        return augur_expr_binary(cv->skel, e->u.bin.op, subst_lane(cv, e->u.bin.a, repl, depth + 1),
                                 subst_lane(cv, e->u.bin.b, repl, depth + 1));
    case AUGUR_EXPR_SELECT:
        return augur_expr_select(cv->skel, subst_lane(cv, e->u.sel.cond, repl, depth + 1),
                                 subst_lane(cv, e->u.sel.a, repl, depth + 1),
                                 subst_lane(cv, e->u.sel.b, repl, depth + 1));
    case AUGUR_EXPR_CAST:
        return augur_expr_cast(cv->skel, e->type, subst_lane(cv, e->u.cast.a, repl, depth + 1));
    default:
        return e;
    }
}

/* ---- user-level arguments of intrinsics written as macros ----------------------------------- */

#define NO_ARG   UINT32_MAX
#define MAX_ARGS 16

/*
 * Where the user-level arguments of an intrinsic start in the file; one
 * written in a macro's body (x in GATHER(v) _mm512_i32gather_pd(v, x, 8))
 * starts nowhere (NO_ARG) and, when it is a name, keeps it.
 */
struct uargs {
    unsigned start[MAX_ARGS];
    char name[MAX_ARGS][64];
    size_t n;
};

/* Offsets where the arguments of the invocation "NAME ( ... )" at off of text start. */
static size_t arg_starts_at(const char *text, size_t len, unsigned off, unsigned *starts,
                            size_t max)
{
    size_t n = 0;
    int depth = 0;

    while (off < len && text[off] != '(')
        off++;
    for (; off < len; off++) {
        char c = text[off];

        if (c == '(' || (c == ',' && depth == 1)) {
            if ((c == ',' || depth++ == 0) && n < max) {
                unsigned s = off + 1;

                while (s < len && (text[s] == ' ' || text[s] == '\n' || text[s] == '\t'))
                    s++;
                starts[n++] = s;
            }
        } else if (c == ')') {
            if (--depth == 0)
                break;
        }
    }
    return n;
}

static bool is_intrinsic_name(const char *s)
{
    return strncmp(s, "_mm", 3) == 0 || strncmp(s, "_k", 2) == 0;
}

static bool body_has(const struct fe_macro *m, const char *tok)
{
    for (size_t i = 0; i < m->nbody; i++)
        if (!strcmp(m->body[i], tok))
            return true;
    return false;
}

/*
 * In the body of user macro m, whose arguments start at starts[0..nstarts),
 * the intrinsic macro whose expansion calls builtin (GATHER(v, p) written
 * as _mm512_i32gather_pd(v, p, 8)), through other user macros too: its
 * name into buf and where each of its arguments starts in the file (NO_ARG
 * for one written in a body, such as the 8).
 */
static bool intrinsic_in_macro(struct fe_conv *cv, const struct fe_macro *m,
                               const struct uargs *outer, const char *builtin, char *buf,
                               size_t size, struct uargs *out, int depth)
{
    if (depth > 4)
        return false;
    for (size_t i = 0; i + 1 < m->nbody; i++) {
        const struct fe_macro *inner = fe_macro(cv->t, m->body[i]);
        struct uargs in;
        int level = 0;
        size_t ntok = 0;

        if (!inner || !inner->funclike || strcmp(m->body[i + 1], "(") != 0 || inner == m)
            continue;
        memset(&in, 0, sizeof(in));
        /* where each argument of the inner invocation starts: its first token's */
        for (size_t j = i + 2; j < m->nbody && in.n <= MAX_ARGS; j++) {
            const char *tok = m->body[j];
            size_t p;

            if (!strcmp(tok, ")") && level == 0)
                break;
            if (!strcmp(tok, "(") || !strcmp(tok, ")")) {
                level += tok[0] == '(' ? 1 : -1;
            } else if (!strcmp(tok, ",") && level == 0) {
                ntok = 0;
                continue;
            }
            if (ntok++ > 0) {
                if (in.n)
                    in.name[in.n - 1][0] = '\0'; /* a name alone, not an expression */
                continue;
            }
            if (in.n == MAX_ARGS)
                break;
            for (p = 0; p < m->nparams; p++)
                if (!strcmp(tok, m->params[p]))
                    break;
            in.start[in.n] = NO_ARG;
            if (p < m->nparams && p < outer->n) {
                in.start[in.n] = outer->start[p];
                snprintf(in.name[in.n], sizeof(in.name[0]), "%s", outer->name[p]);
            } else if ((tok[0] >= 'a' && tok[0] <= 'z') || (tok[0] >= 'A' && tok[0] <= 'Z') ||
                       tok[0] == '_') {
                snprintf(in.name[in.n], sizeof(in.name[0]), "%s", tok);
            }
            in.n++;
        }
        if (is_intrinsic_name(inner->name) && body_has(inner, builtin)) {
            snprintf(buf, size, "%s", inner->name);
            *out = in;
            return true;
        }
        if (!is_intrinsic_name(inner->name) &&
            intrinsic_in_macro(cv, inner, &in, builtin, buf, size, out, depth + 1))
            return true;
    }
    return false;
}

/*
 * The intrinsic a builtin call was written as, and where its arguments
 * start in the file: the intrinsic macro invoked where the call is written
 * (in the code, or in a macro's argument), or one that a user macro written
 * there invokes.
 */
static const char *resolve_macro(struct fe_conv *cv, CXCursor call, char *buf, size_t size,
                                 struct uargs *args)
{
    CXFile f = NULL;
    unsigned off = 0;
    size_t len = 0, n = 0;
    const char *text;
    const struct fe_macro *m;
    char builtin[128];

    memset(args, 0, sizeof(*args));
    /* where the call is written: a macro argument's where it is spelled */
    clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(call)), &f, NULL, NULL,
                              &off);
    if (!f)
        return NULL;
    text = clang_getFileContents(cv->t->tu, f, &len);
    if (!text || off >= len)
        return NULL;
    while (off + n < len && n + 1 < size) {
        char c = text[off + n];

        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')
            buf[n] = c, n++;
        else
            break;
    }
    buf[n] = '\0';
    if (is_intrinsic_name(buf)) {
        args->n = arg_starts_at(text, len, off, args->start, MAX_ARGS);
        return buf;
    }
    m = n ? fe_macro(cv->t, buf) : NULL;
    fe_spelling(clang_getCursorReferenced(call), builtin, sizeof(builtin));
    if (m && m->funclike) {
        struct uargs user;

        memset(&user, 0, sizeof(user));
        user.n = arg_starts_at(text, len, off, user.start, MAX_ARGS);
        if (intrinsic_in_macro(cv, m, &user, builtin, buf, size, args, 0))
            return buf;
    }
    return NULL;
}

const char *fe_simd_macro_name(struct fe_conv *cv, CXCursor call, char *buf, size_t size)
{
    struct uargs args;

    return resolve_macro(cv, call, buf, size, &args);
}

struct argfind {
    const unsigned *starts;
    size_t n;
    CXCursor *found;
};

static enum CXChildVisitResult argfind_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    struct argfind *a = data;
    unsigned off = 0;

    (void)parent;
    if (!clang_isExpression(clang_getCursorKind(c)))
        return CXChildVisit_Continue;
    clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(c)), NULL, NULL, NULL,
                              &off);
    for (size_t i = 0; i < a->n; i++)
        if (a->starts[i] == off && clang_Cursor_isNull(a->found[i])) {
            a->found[i] = c;
            return CXChildVisit_Continue;
        }
    return CXChildVisit_Recurse;
}

/* A variable named name under c (the x a macro's body hands to an intrinsic). */
struct namefind {
    const char *name;
    CXCursor found;
};

static enum CXChildVisitResult namefind_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    struct namefind *f = data;
    enum CXCursorKind dk;
    char name[64];

    (void)parent;
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
        return CXChildVisit_Recurse;
    dk = clang_getCursorKind(clang_getCursorReferenced(c));
    fe_spelling(c, name, sizeof(name));
    if ((dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl) && !strcmp(name, f->name)) {
        f->found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

/* The user-level arguments of an intrinsic call (a function, or a macro around a builtin). */
static size_t user_args(struct fe_conv *cv, CXCursor call, bool macro, CXCursor *out, size_t max)
{
    if (!macro) {
        int n = clang_Cursor_getNumArguments(call);

        for (int i = 0; i < n && (size_t)i < max; i++)
            out[i] = clang_Cursor_getArgument(call, (unsigned)i);
        return n < 0 ? 0 : (size_t)n < max ? (size_t)n : max;
    } else {
        char name[128];
        struct uargs u;
        struct argfind a;

        if (!resolve_macro(cv, call, name, sizeof(name), &u))
            u.n = 0;
        a.starts = u.start;
        a.n = u.n < max ? u.n : max;
        a.found = out;
        for (size_t i = 0; i < a.n; i++)
            out[i] = clang_getNullCursor();
        clang_visitChildren(call, argfind_visit, &a);
        for (size_t i = 0; i < a.n; i++) {
            if (clang_Cursor_isNull(out[i]) && u.name[i][0]) {
                struct namefind f = { u.name[i], clang_getNullCursor() };

                clang_visitChildren(call, namefind_visit, &f);
                out[i] = f.found;
            }
            if (clang_Cursor_isNull(out[i]))
                return i; /* the rest could not be placed */
        }
        return a.n;
    }
}

/* ---- semantics --------------------------------------------------------------------------------
 */

static struct fe_val arg_val(struct fe_conv *cv, CXCursor *args, size_t nargs, size_t i)
{
    if (i >= nargs || clang_Cursor_isNull(args[i]))
        return scalar(NULL);
    return fe_expr(cv, args[i], FE_RVALUE);
}

static enum augur_opkind arith_kind(enum vop op, enum augur_type t)
{
    bool fp = augur_type_is_float(t);

    switch (op) {
    case V_ADD:
    case V_SUB:
        return fp ? AUGUR_OPK_FADD : AUGUR_OPK_IADD;
    case V_MUL:
        return fp ? AUGUR_OPK_FMUL : AUGUR_OPK_IMUL;
    case V_DIV:
        return fp ? AUGUR_OPK_FDIV : AUGUR_OPK_IDIV;
    case V_FMA:
        return AUGUR_OPK_FFMA;
    case V_SQRT:
        return AUGUR_OPK_FSQRT;
    case V_MINMAX:
    case V_CMP:
        return AUGUR_OPK_CMP;
    case V_BIT:
    case V_SHIFT:
        return AUGUR_OPK_IBIT;
    default:
        return AUGUR_OPK_VOTHER;
    }
}

/* A memory access of one vector: contiguous (index base + lane) or through an index vector. */
static struct fe_val vmem(struct fe_conv *cv, CXCursor call, const struct intrin *in,
                          struct fe_val ptr, struct fe_val idx, int64_t scale, struct fe_val k,
                          bool has_k, struct fe_val value, bool write)
{
    const struct augur_array *a;
    enum augur_type t;
    unsigned lanes, esize;
    const struct augur_expr *index, *mask, *val = NULL;
    bool gather = in->op == V_GATHER || in->op == V_SCATTER;
    enum augur_opkind kind = gather ? (write ? AUGUR_OPK_SCATTER : AUGUR_OPK_GATHER)
                                    : (write ? AUGUR_OPK_VSTORE : AUGUR_OPK_VLOAD);

    if (ptr.array < 0) {
        fe_note(cv, AUGUR_NOTE_WARNING, call,
                "cannot tell which array this vector access uses: it is left out");
        fe_count(cv, kind, in->et,
                 in->width / (8 * (augur_type_size(in->et) ? augur_type_size(in->et) : 4)), has_k,
                 1, call);
        return vec(fe_opaque(cv, in->et, "vector"), 1, in->et, false);
    }
    a = augur_skel_array(cv->b, (uint32_t)ptr.array);
    t = in->et;
    /* Typeless loads (si512) take the element type of the array they read. */
    if ((t == AUGUR_T_I32 && a->elem != AUGUR_T_REC && !augur_type_is_float(a->elem)) ||
        a->elem == t)
        t = a->elem == AUGUR_T_REC ? t : a->elem;
    esize = augur_type_size(t);
    lanes = gather ? lanes_of(in, in->et) : in->width / (8 * (esize ? esize : 4));
    if (!lanes)
        lanes = 1;
    if (gather) {
        const struct augur_expr *il = lane_value(cv, idx, AUGUR_T_I32);

        if (scale > 0 && (uint64_t)scale != a->elem_size)
            il = augur_expr_binary(cv->skel, AUGUR_OP_DIV,
                                   augur_expr_binary(cv->skel, AUGUR_OP_MUL,
                                                     augur_expr_cast(cv->skel, AUGUR_T_I64, il),
                                                     augur_expr_int(cv->skel, AUGUR_T_I64, scale)),
                                   augur_expr_int(cv->skel, AUGUR_T_I64, a->elem_size));
        index = ptr.e->kind == AUGUR_EXPR_INT && ptr.e->u.i == 0
                    ? il
                    : augur_expr_binary(cv->skel, AUGUR_OP_ADD, ptr.e, il);
    } else {
        index = augur_expr_binary(cv->skel, AUGUR_OP_ADD, ptr.e, fe_lane(cv));
    }
    mask = has_k ? mask_lane(cv, k, lanes) : NULL;
    if (write)
        val = lane_value(cv, value, t);
    fe_access(cv, call, (uint32_t)ptr.array, write ? AUGUR_ACCESS_WRITE : AUGUR_ACCESS_READ,
              a->elem == AUGUR_T_REC ? AUGUR_T_U8 : a->elem, 0, index, val, lanes, mask,
              in->stream ? AUGUR_ACC_STREAM : 0);
    fe_count(cv, kind, t, lanes, has_k, 1, call);
    if (write)
        return scalar(NULL);
    return vec(augur_expr_load(cv->skel, a->elem == AUGUR_T_REC ? AUGUR_T_U8 : a->elem,
                               (uint32_t)ptr.array, 0, index),
               lanes, t, false);
}

bool fe_simd_call(struct fe_conv *cv, CXCursor call, const char *name, struct fe_val *result)
{
    struct intrin in;
    CXCursor args[16];
    size_t nargs, m;
    bool macro;
    unsigned lanes;
    struct fe_val k = scalar(NULL);
    bool has_k = false;

    if (!strncmp(name, "__builtin_ia32_", 15)) {
        /* a builtin called directly, or one whose intrinsic macro could not be read */
        int n = clang_Cursor_getNumArguments(call);

        for (int i = 0; i < n; i++)
            fe_expr(cv, clang_Cursor_getArgument(call, (unsigned)i), FE_DISCARD);
        fe_count(cv, AUGUR_OPK_VOTHER, AUGUR_T_I32, 16, false, 1, call);
        *result = vec(fe_opaque(cv, AUGUR_T_I32, name), 16, AUGUR_T_I32, false);
        return true;
    }
    if (!classify(name, &in))
        return false;
    {
        char callee[128];

        fe_spelling(clang_getCursorReferenced(call), callee, sizeof(callee));
        macro = strcmp(callee, name) != 0;
    }
    nargs = user_args(cv, call, macro, args, 16);
    lanes = lanes_of(&in, in.et);
    /* The mask arguments: mask_ variants have (src, k, ...) or, for stores, (ptr, k, ...). */
    m = 0;
    if (in.maskz) {
        k = arg_val(cv, args, nargs, 0);
        has_k = true;
        m = 1;
    } else if (in.mask) {
        bool store_like = in.op == V_STORE || in.op == V_SCATTER;
        bool cmp_like = in.op == V_CMP || in.op == V_REDUCE;

        if (cmp_like) {
            k = arg_val(cv, args, nargs, 0);
            m = 1;
        } else if (!store_like) {
            arg_val(cv, args, nargs, 0); /* src: the lanes the mask keeps */
            k = arg_val(cv, args, nargs, 1);
            m = 2;
        }
        has_k = true;
    }
    switch (in.op) {
    case V_LOAD: {
        struct fe_val p = fe_pointer(cv, m < nargs ? args[m] : clang_getNullCursor());

        *result = vmem(cv, call, &in, p, scalar(NULL), 0, k, has_k, scalar(NULL), false);
        return true;
    }
    case V_STORE: {
        struct fe_val p = fe_pointer(cv, nargs ? args[0] : clang_getNullCursor());
        size_t vi = 1;

        if (in.mask) {
            k = arg_val(cv, args, nargs, 1);
            vi = 2;
        }
        *result =
            vmem(cv, call, &in, p, scalar(NULL), 0, k, has_k, arg_val(cv, args, nargs, vi), true);
        return true;
    }
    case V_GATHER: {
        struct fe_val idx = arg_val(cv, args, nargs, m);
        struct fe_val p = fe_pointer(cv, m + 1 < nargs ? args[m + 1] : clang_getNullCursor());
        struct fe_val sc = arg_val(cv, args, nargs, m + 2);
        int64_t scale = 0;

        const_of(sc, &scale);
        *result = vmem(cv, call, &in, p, idx, scale, k, has_k, scalar(NULL), false);
        return true;
    }
    case V_SCATTER: {
        struct fe_val p = fe_pointer(cv, nargs ? args[0] : clang_getNullCursor());
        size_t i = 1;
        struct fe_val idx, v, sc;
        int64_t scale = 0;

        if (in.mask) {
            k = arg_val(cv, args, nargs, 1);
            i = 2;
        }
        idx = arg_val(cv, args, nargs, i);
        v = arg_val(cv, args, nargs, i + 1);
        sc = arg_val(cv, args, nargs, i + 2);
        const_of(sc, &scale);
        *result = vmem(cv, call, &in, p, idx, scale, k, has_k, v, true);
        return true;
    }
    default:
        break;
    }
    {
        /* Value operations: evaluate the operands, count the operation, model the lanes. */
        struct fe_val ops[16];
        size_t nops = 0;
        const struct augur_expr *r = NULL;
        bool is_mask = false;

        for (size_t i = m; i < nargs && nops < 16; i++)
            ops[nops++] = arg_val(cv, args, nargs, i);
        switch (in.op) {
        case V_CONFLICT:
            fe_count(cv, AUGUR_OPK_CONFLICT, in.et, lanes, has_k, 1, call);
            r = fe_opaque(cv, in.et, "conflict");
            break;
        case V_REDUCE:
            fe_count(cv, AUGUR_OPK_REDUCE, in.et, lanes, has_k, 1, call);
            *result = scalar(fe_opaque(cv, in.et, name + 1));
            return true;
        case V_SET1:
            fe_count(cv, AUGUR_OPK_BCAST, in.et, lanes, has_k, 1, call);
            r = nops ? lane_value(cv, ops[0], in.et) : NULL;
            if (r && (ops[0].vec || ops[0].mask))
                r = fe_opaque(cv, in.et, "broadcast");
            break;
        case V_SETZERO:
            r = augur_type_is_float(in.et) ? augur_expr_fp(cv->skel, in.et, 0)
                                           : augur_expr_int(cv->skel, in.et, 0);
            break;
        case V_SET: {
            /* set/setr of an arithmetic progression: base + step * lane */
            int64_t c0, c1, ci;
            bool prog = nops >= 2;

            fe_count(cv, AUGUR_OPK_BCAST, in.et, lanes, false, 1, call);
            if (prog && const_of(ops[0], &c0) && const_of(ops[1], &c1)) {
                for (size_t i = 2; i < nops; i++)
                    if (!const_of(ops[i], &ci) || ci - c0 != (int64_t)i * (c1 - c0))
                        prog = false;
            } else {
                prog = false;
            }
            if (prog) {
                /* set lists lanes from the highest down: lane 0 is its last operand */
                int64_t d = c1 - c0;
                int64_t base = in.setr ? c0 : c0 + (int64_t)(nops - 1) * d;
                int64_t step = in.setr ? d : -d;

                r = augur_expr_binary(
                    cv->skel, AUGUR_OP_ADD, augur_expr_int(cv->skel, in.et, base),
                    augur_expr_binary(cv->skel, AUGUR_OP_MUL, augur_expr_int(cv->skel, in.et, step),
                                      augur_expr_cast(cv->skel, in.et, fe_lane(cv))));
            } else {
                r = fe_opaque(cv, in.et, "set");
            }
            break;
        }
        case V_CAST:
        case V_CVT:
            if (in.op == V_CVT)
                fe_count(cv, AUGUR_OPK_CVT, in.et, lanes, has_k, 1, call);
            r = nops ? lane_value(cv, ops[0], in.et) : NULL;
            if (r && in.hi && nops > 1) {
                int64_t half;

                if (const_of(ops[1], &half) && half > 0 && ops[0].lanes > 1)
                    r = subst_lane(
                        cv, r,
                        augur_expr_binary(cv->skel, AUGUR_OP_ADD, fe_lane(cv),
                                          augur_expr_int(cv->skel, AUGUR_T_I32,
                                                         half * (int64_t)(ops[0].lanes / 2))),
                        0);
            }
            if (nops && (ops[0].lanes > 1))
                lanes = ops[0].lanes > lanes && in.op == V_CAST && !in.hi ? lanes : ops[0].lanes;
            is_mask = nops && ops[0].mask;
            break;
        case V_ADD:
        case V_SUB:
        case V_MUL:
        case V_MINMAX:
        case V_BIT:
        case V_SHIFT: {
            enum augur_op op = in.op == V_ADD   ? AUGUR_OP_ADD
                               : in.op == V_SUB ? AUGUR_OP_SUB
                               : in.op == V_MUL ? AUGUR_OP_MUL
                                                : in.cmp;

            fe_count(cv, arith_kind(in.op, in.et), in.et, lanes, has_k, 1, call);
            if (nops >= 2 && !augur_type_is_float(in.et)) {
                const struct augur_expr *a = lane_value(cv, ops[0], in.et);
                const struct augur_expr *b = lane_value(cv, ops[1], in.et);

                if (has(name, "andnot"))
                    a = augur_expr_unary(cv->skel, AUGUR_OP_BNOT, a);
                r = augur_expr_binary(cv->skel, op, a, b);
            } else {
                r = fe_opaque(cv, in.et, "lane");
            }
            break;
        }
        case V_DIV:
        case V_FMA:
        case V_SQRT:
            fe_count(cv, arith_kind(in.op, in.et), in.et, lanes, has_k, 1, call);
            r = fe_opaque(cv, in.et, "lane");
            break;
        case V_CMP: {
            enum augur_op op = in.cmp;

            fe_count(cv, AUGUR_OPK_CMP, in.et, lanes, has_k, 1, call);
            if (op == AUGUR_OP_COUNT && nops >= 3) {
                /* _MM_CMPINT_EQ 0, LT 1, LE 2, FALSE 3, NE 4, NLT 5, NLE 6, TRUE 7 */
                static const enum augur_op preds[] = { AUGUR_OP_EQ,    AUGUR_OP_LT,   AUGUR_OP_LE,
                                                       AUGUR_OP_COUNT, AUGUR_OP_NE,   AUGUR_OP_GE,
                                                       AUGUR_OP_GT,    AUGUR_OP_COUNT };
                int64_t p;

                if (const_of(ops[2], &p) && p >= 0 && p < 8 && !augur_type_is_float(in.et))
                    op = preds[p];
            }
            if (op != AUGUR_OP_COUNT && nops >= 2 && !augur_type_is_float(in.et)) {
                const struct augur_expr *a = lane_value(cv, ops[0], in.et);
                const struct augur_expr *b = lane_value(cv, ops[1], in.et);

                if (has(name, "test"))
                    r = augur_expr_binary(cv->skel, op,
                                          augur_expr_binary(cv->skel, AUGUR_OP_BAND, a, b),
                                          augur_expr_int(cv->skel, in.et, 0));
                else
                    r = augur_expr_binary(cv->skel, op, a, b);
            } else {
                r = fe_opaque(cv, AUGUR_T_I32, "compare");
            }
            if (has_k && in.mask) {
                const struct augur_expr *km = mask_lane(cv, k, lanes);

                if (km)
                    r = augur_expr_binary(cv->skel, AUGUR_OP_LAND, km, r);
            }
            *result = vec(r, lanes, AUGUR_T_I32, true);
            return true;
        }
        case V_KAND:
        case V_KOR:
        case V_KXOR:
        case V_KANDN:
        case V_KNOT: {
            const struct augur_expr *a = nops > 0 ? mask_lane(cv, ops[0], 16) : NULL;
            const struct augur_expr *b = nops > 1 ? mask_lane(cv, ops[1], 16) : NULL;
            const struct augur_expr *one = augur_expr_int(cv->skel, AUGUR_T_I32, 1);
            unsigned ml = nops && ops[0].mask ? ops[0].lanes : 16;

            fe_count(cv, AUGUR_OPK_MASK, AUGUR_T_U16, 1, false, 1, call);
            if (!a)
                a = one;
            if (!b)
                b = one;
            switch (in.op) {
            case V_KAND:
                r = augur_expr_binary(cv->skel, AUGUR_OP_LAND, a, b);
                break;
            case V_KOR:
                r = augur_expr_binary(cv->skel, AUGUR_OP_LOR, a, b);
                break;
            case V_KXOR:
                r = augur_expr_binary(cv->skel, AUGUR_OP_NE, a, b);
                break;
            case V_KANDN:
                r = augur_expr_binary(cv->skel, AUGUR_OP_LAND,
                                      augur_expr_unary(cv->skel, AUGUR_OP_NOT, a), b);
                break;
            default:
                r = augur_expr_unary(cv->skel, AUGUR_OP_NOT, a);
                break;
            }
            *result = vec(r, ml, AUGUR_T_I32, true);
            return true;
        }
        case V_INT2MASK:
            fe_count(cv, AUGUR_OPK_MASK, AUGUR_T_U16, 1, false, 1, call);
            *result = vec(nops ? mask_lane(cv, ops[0], 16) : NULL, 16, AUGUR_T_I32, true);
            if (!result->e)
                result->e = augur_expr_int(cv->skel, AUGUR_T_I32, 1);
            return true;
        case V_MASK2INT:
        case V_KTEST:
            fe_count(cv, AUGUR_OPK_MASK, AUGUR_T_U16, 1, false, 1, call);
            *result = scalar(fe_opaque(cv, AUGUR_T_U32, "mask"));
            return true;
        case V_PERM:
            fe_count(cv, AUGUR_OPK_PERM, in.et, lanes, has_k, 1, call);
            r = fe_opaque(cv, in.et, "lane");
            break;
        default:
            fe_count(cv, AUGUR_OPK_VOTHER, in.et, lanes, has_k, 1, call);
            r = fe_opaque(cv, in.et, "lane");
            break;
        }
        if (!r)
            r = fe_opaque(cv, in.et, "lane");
        /* A masked operation keeps the source lanes where the mask is off: unknown here. */
        if (has_k && in.op != V_CAST)
            r = fe_opaque(cv, r->type, "masked lane");
        *result = vec(r, lanes, in.et, is_mask);
        return true;
    }
}
