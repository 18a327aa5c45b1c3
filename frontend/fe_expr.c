/*
 * fe_expr.c - C expressions to skeleton expressions, accesses and
 * operation counts (module: frontend).
 */
#include <stdlib.h>
#include <string.h>

#include "fe_int.h"

#define MAX_DEPTH 180

static struct fe_val none(void)
{
    struct fe_val v = { NULL, -1, false, false, 1, AUGUR_T_VOID };

    return v;
}

static struct fe_val scalar(const struct augur_expr *e)
{
    struct fe_val v = none();

    v.e = e;
    return v;
}

static struct fe_val pointer(int32_t array, const struct augur_expr *index)
{
    struct fe_val v = none();

    v.array = array;
    v.e = index;
    return v;
}

static const struct augur_expr *zero(struct fe_conv *cv)
{
    return augur_expr_int(cv->skel, AUGUR_T_I64, 0);
}

/* The value of v as a scalar expression (an opaque one when it has none). */
static const struct augur_expr *value_of(struct fe_conv *cv, struct fe_val v, enum augur_type t)
{
    if (v.e && !v.vec && v.array < 0)
        return v.e;
    return fe_opaque(cv, t == AUGUR_T_VOID || t == AUGUR_T_REC ? AUGUR_T_I64 : t, "value");
}

/* i + j with the obvious simplifications (0 + j). */
static const struct augur_expr *add(struct fe_conv *cv, const struct augur_expr *a,
                                    const struct augur_expr *b)
{
    if (!a)
        return b;
    if (a->kind == AUGUR_EXPR_INT && a->u.i == 0)
        return b;
    if (b->kind == AUGUR_EXPR_INT && b->u.i == 0)
        return a;
    return augur_expr_binary(cv->skel, AUGUR_OP_ADD, a, b);
}

static bool is_kind(CXCursor c, enum CXCursorKind k)
{
    return clang_getCursorKind(c) == k;
}

static CXCursor kid(CXCursor c, size_t i)
{
    struct fe_cursors kids = { 0 };
    CXCursor r = clang_getNullCursor();

    fe_children(c, &kids);
    if (i < kids.n)
        r = kids.v[i];
    fe_cursors_release(&kids);
    return r;
}

/* The last expression child (casts have a TypeRef first). */
static CXCursor expr_kid(CXCursor c)
{
    struct fe_cursors kids = { 0 };
    CXCursor r = clang_getNullCursor();

    fe_children(c, &kids);
    for (size_t i = 0; i < kids.n; i++)
        if (clang_isExpression(clang_getCursorKind(kids.v[i])))
            r = kids.v[i];
    fe_cursors_release(&kids);
    return r;
}

static size_t nkids(CXCursor c)
{
    struct fe_cursors kids = { 0 };
    size_t n;

    fe_children(c, &kids);
    n = kids.n;
    fe_cursors_release(&kids);
    return n;
}

/* The scalar element type under pointers and arrays, and the number of scalars per step. */
static CXType innermost(CXType t, uint64_t *count)
{
    uint64_t n = 1;

    t = clang_getCanonicalType(t);
    for (int i = 0; i < 16; i++) {
        if (t.kind == CXType_ConstantArray) {
            long long k = clang_getArraySize(t);

            n *= k > 0 ? (uint64_t)k : 1;
            t = clang_getCanonicalType(clang_getArrayElementType(t));
        } else if (t.kind == CXType_IncompleteArray || t.kind == CXType_VariableArray) {
            t = clang_getCanonicalType(clang_getArrayElementType(t));
        } else {
            break;
        }
    }
    if (count)
        *count = n;
    return t;
}

/* ---- arrays ---------------------------------------------------------------------------- */

int32_t fe_array_for(struct fe_conv *cv, CXCursor decl, const char *name, CXType pointee,
                     enum augur_space space, bool param, CXCursor at)
{
    int32_t a = augur_skel_find_array(cv->b, name);
    CXType elem = innermost(pointee, NULL);
    enum augur_type t;
    long long size;

    (void)decl;
    if (a >= 0)
        return a;
    if (augur_skel_find_sym(cv->b, name) >= 0 || !augur_skel_name_is_valid(name)) {
        char unique[256];

        fe_unique_name(cv, name, unique, sizeof(unique));
        a = augur_skel_find_array(cv->b, unique);
        if (a >= 0)
            return a;
        name = unique;
        return fe_array_for(cv, decl, unique, pointee, space, param, at);
    }
    t = fe_type(elem);
    size = clang_Type_getSizeOf(elem);
    if (t == AUGUR_T_VOID || size <= 0) {
        t = AUGUR_T_U8; /* void * and unknown types: bytes */
        size = 1;
    }
    if (t == AUGUR_T_PTR)
        size = 8;
    return (int32_t)augur_skel_add_array(cv->b, name, t, (uint32_t)size, space, param,
                                         fe_loc(cv, clang_Cursor_isNull(decl) ? at : decl));
}

bool fe_is_record(CXType t)
{
    t = clang_getCanonicalType(t);
    if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
        t = clang_getCanonicalType(clang_getPointeeType(t));
    return t.kind == CXType_Record;
}

/* True when c is "*p" (a unary operator whose operand is a pointer). */
static bool is_deref(CXCursor c)
{
    return is_kind(c, CXCursor_UnaryOperator) && nkids(c) == 1 &&
           clang_getCanonicalType(clang_getCursorType(fe_strip(kid(c, 0)))).kind ==
               CXType_Pointer &&
           clang_getCanonicalType(clang_getCursorType(c)).kind != CXType_Pointer;
}

/* True when c is C++'s copy of a struct value: a constructor call on the value copied. */
static bool is_copy(CXCursor c)
{
    return is_kind(c, CXCursor_CallExpr) && nkids(c) == 1 &&
           clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_Constructor;
}

/*
 * member_path() of c; *arrow: the path names a pointer to a struct (its
 * members are path->m), not the struct (path.m).
 */
static bool member_path_at(struct fe_conv *cv, CXCursor c, char *out, size_t size, CXCursor *root,
                           bool *arrow)
{
    CXCursor base;
    char name[256];
    size_t len;
    bool ok, base_arrow = false;
    int n;

    c = fe_strip(c);
    if (is_copy(c))
        return member_path_at(cv, kid(c, 0), out, size, root, arrow);
    if (is_deref(c))
        return member_path_at(cv, kid(c, 0), out, size, root, arrow) && *arrow;
    if (is_kind(c, CXCursor_DeclRefExpr)) {
        CXCursor d = clang_getCursorReferenced(c);

        if (clang_getCursorKind(d) == CXCursor_ParmDecl && cv->inlining.n) {
            const struct fe_var *v = fe_var(cv, d);

            if (v->has_arg) {
                unsigned nthis = cv->nthis;

                /* the argument reads as at its call site */
                cv->nthis = v->arg_nthis;
                ok = member_path_at(cv, v->arg, out, size, root, arrow);
                cv->nthis = nthis;
                return ok;
            }
        }
        fe_spelling(c, out, size);
        *root = d;
        *arrow = clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_Pointer;
        return out[0] != '\0';
    }
    if (!is_kind(c, CXCursor_MemberRefExpr) || nkids(c) > 1)
        return false;
    fe_spelling(c, name, sizeof(name));
    if (nkids(c) == 1 && !is_kind(fe_strip(kid(c, 0)), CXCursor_CXXThisExpr)) {
        base = kid(c, 0);
        ok = member_path_at(cv, base, out, size, root, &base_arrow);
    } else {
        /* a member of the object of the method being inlined (implicit this, this->m) */
        unsigned nthis = cv->nthis;

        if (!nthis && clang_getCursorKind(cv->func) == CXCursor_CXXMethod) {
            /* the kernel is a method: its own object, "this" */
            n = snprintf(out, size, "this->%s", name);
            *root = cv->func;
            *arrow = clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_Pointer;
            return n > 0 && (size_t)n < size;
        }
        if (!nthis)
            return false;
        cv->nthis = cv->this_at[nthis - 1];
        ok = member_path_at(cv, cv->this_v[nthis - 1], out, size, root, &base_arrow);
        cv->nthis = nthis;
    }
    if (!ok)
        return false;
    len = strlen(out);
    n = snprintf(out + len, size - len, "%s%s", base_arrow ? "->" : ".", name);
    *arrow = clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_Pointer;
    return n > 0 && (size_t)n < size - len;
}

/*
 * The access path of a struct member chain: "graph.edge_dst", "A->p"; false
 * when not a path. A pointer or struct parameter of an inlined helper starts
 * from its argument's path, so that A->col in the helper is the kernel's
 * A->col, and a member of an inlined method's object from the object's
 * (rowptr in g.degree(v) is g.rowptr); *p reads as p's pointee, and a C++
 * copy of a struct as the struct copied.
 */
static bool member_path(struct fe_conv *cv, CXCursor c, char *out, size_t size, CXCursor *root)
{
    bool arrow;

    return member_path_at(cv, c, out, size, root, &arrow);
}

/*
 * True when path names a member of a named struct (g.n, p->n, and n in a
 * method of g), not a member reached through another member (p->next->n:
 * data in memory, not a parameter's value).
 */
static bool one_member(const char *path)
{
    unsigned n = 0;

    for (const char *p = path; *p; p++)
        n += *p == '.' || (*p == '-' && p[1] == '>');
    return n == 1;
}

/* A parameter of the kernel; the kernel itself for a method's implicit this (member_path). */
static bool is_param_of(struct fe_conv *cv, CXCursor decl)
{
    if (clang_getCursorKind(decl) == CXCursor_CXXMethod)
        return clang_equalCursors(decl, cv->func);
    return clang_getCursorKind(decl) == CXCursor_ParmDecl &&
           clang_equalCursors(clang_getCursorSemanticParent(decl), cv->func);
}

static bool is_global(CXCursor decl)
{
    CXCursor p = clang_getCursorSemanticParent(decl);

    return clang_getCursorKind(decl) == CXCursor_VarDecl &&
           clang_getCursorKind(p) == CXCursor_TranslationUnit;
}

/* Whether t (or what a reference to it refers to) is std::vector<T> or std::array<T, N>. */
bool fe_std_container(CXType t)
{
    CXCursor d;
    char name[64];

    t = clang_getCanonicalType(t);
    if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference)
        t = clang_getCanonicalType(clang_getPointeeType(t));
    if (t.kind != CXType_Record)
        return false;
    d = clang_getTypeDeclaration(t);
    fe_spelling(d, name, sizeof(name));
    if (strcmp(name, "vector") != 0 && strcmp(name, "array") != 0)
        return false;
    /* std, or an inline namespace in it (libc++'s std::__1) */
    for (CXCursor p = clang_getCursorSemanticParent(d);
         clang_getCursorKind(p) == CXCursor_Namespace; p = clang_getCursorSemanticParent(p)) {
        fe_spelling(p, name, sizeof(name));
        if (!strcmp(name, "std"))
            return true;
    }
    return false;
}

/* The object of v[i] when it is a std::vector's or std::array's operator[]; else null. */
CXCursor fe_container_subscript(CXCursor c)
{
    CXCursor callee = clang_getCursorReferenced(c), obj, m;
    char name[32];

    if (!is_kind(c, CXCursor_CallExpr) || clang_Cursor_isNull(callee) ||
        clang_getCursorKind(callee) != CXCursor_CXXMethod)
        return clang_getNullCursor();
    fe_spelling(callee, name, sizeof(name));
    if (!strcmp(name, "operator[]") && clang_Cursor_getNumArguments(c) == 2) {
        obj = clang_Cursor_getArgument(c, 0);
    } else if (!strcmp(name, "at") && clang_Cursor_getNumArguments(c) == 1 &&
               is_kind(m = fe_strip(kid(c, 0)), CXCursor_MemberRefExpr) && nkids(m) == 1) {
        obj = kid(m, 0); /* v.at(i): the object of the member call */
    } else {
        return clang_getNullCursor();
    }
    if (!fe_std_container(clang_getCursorType(fe_strip(obj))))
        return clang_getNullCursor();
    return obj;
}

bool fe_container_size(CXCursor c)
{
    CXCursor callee = clang_getCursorReferenced(c), m;
    char name[8];

    if (!is_kind(c, CXCursor_CallExpr) || clang_getCursorKind(callee) != CXCursor_CXXMethod ||
        !is_kind(m = fe_strip(kid(c, 0)), CXCursor_MemberRefExpr) || nkids(m) != 1)
        return false;
    fe_spelling(callee, name, sizeof(name));
    return !strcmp(name, "size") && fe_std_container(clang_getCursorType(fe_strip(kid(m, 0))));
}

/* The index of v[i] or v.at(i) (fe_container_subscript() names its object). */
static CXCursor container_index(CXCursor c)
{
    int n = clang_Cursor_getNumArguments(c);

    return clang_Cursor_getArgument(c, (unsigned)(n - 1));
}

static bool has_kid_kind(CXCursor c, enum CXCursorKind k)
{
    struct fe_cursors kids = { 0 };
    bool found = false;

    fe_children(c, &kids);
    for (size_t i = 0; i < kids.n; i++)
        found |= clang_getCursorKind(kids.v[i]) == k;
    fe_cursors_release(&kids);
    return found;
}

struct cast_of {
    CXCursor decl;
    CXType pointee;
    bool found;
};

static enum CXChildVisitResult cast_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    struct cast_of *k = data;
    CXType t = clang_getCanonicalType(clang_getCursorType(c));

    (void)parent;
    if (is_kind(c, CXCursor_CStyleCastExpr) && t.kind == CXType_Pointer &&
        clang_getCanonicalType(clang_getPointeeType(t)).kind != CXType_Void) {
        CXCursor e = fe_strip(expr_kid(c));

        if (is_kind(e, CXCursor_DeclRefExpr) &&
            clang_equalCursors(clang_getCursorReferenced(e), k->decl)) {
            k->pointee = clang_getPointeeType(t);
            k->found = true;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* The element type of the first cast of untyped pointer decl in the kernel ((double *)vx). */
static bool cast_pointee(struct fe_conv *cv, CXCursor decl, CXType *pointee)
{
    struct cast_of k = { decl, { CXType_Invalid, { NULL, NULL } }, false };

    clang_visitChildren(cv->func, cast_visit, &k);
    if (k.found)
        *pointee = k.pointee;
    return k.found;
}

/* Counts, under a function's body, the references to decl and those of the form (*decl)[i]. */
struct deref_uses {
    struct fe_conv *cv;
    CXCursor decl;
    unsigned refs, subscripted;
};

static enum CXChildVisitResult deref_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    struct deref_uses *u = data;

    (void)parent;
    if (is_kind(c, CXCursor_DeclRefExpr) &&
        clang_equalCursors(clang_getCursorReferenced(c), u->decl))
        u->refs++;
    if (is_kind(c, CXCursor_ArraySubscriptExpr) && nkids(c) == 2) {
        CXCursor base = fe_strip(kid(c, 0));
        const char *op = is_kind(base, CXCursor_UnaryOperator)
                             ? fe_opmap_get(u->cv->t, &u->cv->opmap, base)
                             : NULL;

        if (op && !strcmp(op, "*") && nkids(base) == 1) {
            CXCursor x = fe_strip(kid(base, 0));

            if (is_kind(x, CXCursor_DeclRefExpr) &&
                clang_equalCursors(clang_getCursorReferenced(x), u->decl))
                u->subscripted++;
        }
    }
    return CXChildVisit_Recurse;
}

/*
 * A pointer-to-pointer parameter the kernel only ever subscripts through
 * one dereference, (*result)[i] (an output array handed over by address):
 * the array it points to stands for it, with its elements.
 */
static bool deref_only(struct fe_conv *cv, CXCursor decl, CXType pointee)
{
    struct deref_uses u = { cv, decl, 0, 0 };

    if (clang_getCanonicalType(pointee).kind != CXType_Pointer || !is_param_of(cv, decl))
        return false;
    clang_visitChildren(cv->func, deref_visit, &u);
    return u.refs > 0 && u.refs == u.subscripted;
}

/* First use of a parameter or a global: what it becomes. */
static void classify_decl(struct fe_conv *cv, CXCursor decl, struct fe_var *v)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(decl));
    char name[256];
    bool param = is_param_of(cv, decl), global = is_global(decl);

    /* a local filled by the program's input routine is a global of the skeleton */
    if ((!param && !global && !fe_filled_by_call(cv, decl)) || fe_is_program_arg(cv, decl))
        return;
    fe_spelling(decl, name, sizeof(name));
    if (t.kind == CXType_Pointer || t.kind == CXType_ConstantArray ||
        t.kind == CXType_IncompleteArray) {
        CXType pointee = t.kind == CXType_Pointer ? clang_getPointeeType(t) : t;
        enum augur_space space = AUGUR_SPACE_GLOBAL;

        /* void *x read through (double *)x: an array of doubles */
        if (clang_getCanonicalType(pointee).kind == CXType_Void)
            cast_pointee(cv, decl, &pointee);
        /* double **result written as (*result)[i]: the doubles */
        if (t.kind == CXType_Pointer && deref_only(cv, decl, pointee))
            pointee = clang_getPointeeType(clang_getCanonicalType(pointee));

        /* An array the kernel never accesses (passed along to a call) is not declared. */
        if (cv->final && !fe_slice_accesses(cv->slice, name))
            return;
        if (global && has_kid_kind(decl, CXCursor_CUDAConstantAttr))
            space = AUGUR_SPACE_CONST;
        if (global && has_kid_kind(decl, CXCursor_CUDASharedAttr))
            space = AUGUR_SPACE_SHARED;
        v->kind = FV_ARRAY;
        v->array = fe_array_for(cv, decl, name, pointee, space, param, decl);
        if (t.kind == CXType_ConstantArray && v->array >= 0) {
            uint64_t count;

            innermost(t, &count);
            augur_skel_array(cv->b, (uint32_t)v->array)->extent = augur_expr_int(
                cv->skel, count <= INT32_MAX ? AUGUR_T_I32 : AUGUR_T_I64, (int64_t)count);
        }
        return;
    }
    if (fe_type(t) != AUGUR_T_VOID && fe_type(t) != AUGUR_T_REC) {
        if (cv->final && cv->slice) {
            /* A parameter the kernel assigns works on a local copy (see fe_build). */
            for (size_t i = 0; i < cv->slice->written_params.n; i++)
                if (clang_equalCursors(cv->slice->written_params.v[i], decl))
                    return;
            /* Outside the slice its value is not needed (an opaque value stands in). */
            if (!fe_slice_has_decl(cv->slice, decl))
                return;
        }
        v->kind = FV_SCALAR;
        v->sym = fe_declare_sym(cv, decl, name, AUGUR_SYM_PARAM, fe_type(t));
    }
}

const struct augur_expr *fe_bytes_to_count(struct fe_conv *cv, const struct augur_expr *bytes,
                                           uint32_t size)
{
    const struct augur_expr *b = bytes;

    while (b->kind == AUGUR_EXPR_CAST)
        b = b->u.cast.a;
    /* n * sizeof(T) / sizeof(T) is n */
    if (b->kind == AUGUR_EXPR_BINARY && b->u.bin.op == AUGUR_OP_MUL) {
        const struct augur_expr *x = b->u.bin.a, *y = b->u.bin.b;

        if (y->kind == AUGUR_EXPR_INT && (uint64_t)y->u.i == size)
            return x->type == AUGUR_T_I64 ? x : augur_expr_cast(cv->skel, AUGUR_T_I64, x);
        if (x->kind == AUGUR_EXPR_INT && (uint64_t)x->u.i == size)
            return y->type == AUGUR_T_I64 ? y : augur_expr_cast(cv->skel, AUGUR_T_I64, y);
    }
    return augur_expr_binary(cv->skel, AUGUR_OP_DIV, augur_expr_cast(cv->skel, AUGUR_T_I64, bytes),
                             augur_expr_int(cv->skel, AUGUR_T_I64, size));
}

void fe_touch_decl(struct fe_conv *cv, CXCursor decl)
{
    struct fe_var *v = fe_var(cv, decl);

    if (v->kind == FV_NONE)
        classify_decl(cv, decl, v);
}

/* ---- accesses ---------------------------------------------------------------------------- */

struct augur_node *fe_access(struct fe_conv *cv, CXCursor at, uint32_t array,
                             enum augur_access_mode mode, enum augur_type type, uint32_t offset,
                             const struct augur_expr *index, const struct augur_expr *value,
                             uint32_t lanes, const struct augur_expr *mask, uint32_t flags)
{
    struct augur_node *n;
    const struct augur_array *a = augur_skel_array(cv->b, array);

    if (type == AUGUR_T_VOID || type == AUGUR_T_REC ||
        offset + augur_type_size(type) > a->elem_size) {
        type = a->elem == AUGUR_T_REC ? AUGUR_T_U8 : a->elem;
        offset = 0;
    }
    if (cv->atomic && mode != AUGUR_ACCESS_READ)
        flags |= AUGUR_ACC_ATOMIC;
    if (mode == AUGUR_ACCESS_READ && lanes == 1 && !mask) {
        for (size_t i = 0; i < cv->reads.len; i++) {
            struct fe_read *r = &AUGUR_VEC_AT(&cv->reads, struct fe_read, i);

            if (r->array == array && augur_expr_equal(r->index, index)) {
                flags |= AUGUR_ACC_REUSE;
                break;
            }
        }
        if (!(flags & AUGUR_ACC_REUSE)) {
            struct fe_read *r = augur_vec_push(&cv->reads);

            r->array = array;
            r->index = index;
        }
    } else if (mode != AUGUR_ACCESS_READ) {
        size_t m = 0;

        for (size_t i = 0; i < cv->reads.len; i++)
            if (AUGUR_VEC_AT(&cv->reads, struct fe_read, i).array != array)
                AUGUR_VEC_AT(&cv->reads, struct fe_read, m++) =
                    AUGUR_VEC_AT(&cv->reads, struct fe_read, i);
        cv->reads.len = m;
    }
    if (value && cv->final && cv->slice && !fe_slice_has_array(cv->slice, a->name))
        value = NULL;
    if (mode == AUGUR_ACCESS_READ)
        value = NULL;
    n = augur_skel_leaf(cv->b, AUGUR_NODE_ACCESS, fe_loc(cv, at));
    n->u.access.array = array;
    n->u.access.mode = mode;
    n->u.access.type = type;
    n->u.access.offset = offset;
    n->u.access.index = index;
    n->u.access.value = value;
    n->u.access.lanes = lanes ? lanes : 1;
    n->u.access.mask = mask;
    n->u.access.flags = flags;
    cv->last_access = n;
    return n;
}

/* ---- pointers and lvalues ------------------------------------------------------------------- */

static struct fe_val decl_ref(struct fe_conv *cv, CXCursor ref);

/* The array a member path of a parameter or global stands for (A->p), with elements of pointee. */
static struct fe_val member_array(struct fe_conv *cv, CXCursor c, CXType pointee)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(c));
    char path[512];
    CXCursor root;

    if (member_path(cv, c, path, sizeof(path), &root) &&
        (t.kind == CXType_Pointer || t.kind == CXType_ConstantArray ||
         t.kind == CXType_IncompleteArray)) {
        bool param = is_param_of(cv, root), global = is_global(root);

        if ((param || global) && (!cv->final || fe_slice_accesses(cv->slice, path)))
            return pointer(fe_array_for(cv, clang_getCursorReferenced(c), path, pointee,
                                        AUGUR_SPACE_GLOBAL, param, c),
                           zero(cv));
    }
    return none();
}

/*
 * An untyped pointer member (void *data of a struct) cast to a typed one:
 * the array takes the cast's element type when the cast is the first to
 * name it.
 */
static struct fe_val typed_pointer(struct fe_conv *cv, CXCursor e, CXType pointee)
{
    if (is_kind(e, CXCursor_MemberRefExpr))
        return member_array(cv, e, pointee);
    return fe_pointer(cv, e);
}

/*
 * rows[i] of an array of pointers (double **rows, each row's pointer into one
 * block, as HPCCG's ptr_to_vals_in_row): the load of rows[i], whose value is
 * the row's first element in the array the pointers point into, named
 * "ROWS.pointee". The interpreter holds a pointer as that element offset.
 * rows[2] (a constant) is no row: such pointers point at separate arrays.
 */
static struct fe_val pointer_row(struct fe_conv *cv, CXCursor c, CXType t)
{
    struct fe_val rows = fe_pointer(cv, kid(c, 0)), v;
    char name[300];
    int32_t a;

    /* vecs[1][i] of a constant row is more likely one of several separate arrays */
    if (rows.array < 0 || augur_skel_array(cv->b, (uint32_t)rows.array)->elem != AUGUR_T_PTR ||
        is_kind(fe_strip(kid(c, 1)), CXCursor_IntegerLiteral))
        return none();
    if (snprintf(name, sizeof(name), "%s.pointee",
                 augur_skel_array(cv->b, (uint32_t)rows.array)->name) >= (int)sizeof(name))
        return none();
    v = fe_expr(cv, c, FE_RVALUE);
    a = fe_array_for(cv, clang_getNullCursor(), name, clang_getPointeeType(t),
                     augur_skel_array(cv->b, (uint32_t)rows.array)->space,
                     augur_skel_array(cv->b, (uint32_t)rows.array)->param, c);
    return pointer(a, value_of(cv, v, AUGUR_T_I64));
}

/*
 * v.METHOD() of a std::vector or std::array that is a parameter, a global or
 * a member of one: true, with the container's path and whether it is a
 * parameter's.
 */
static bool container_method(struct fe_conv *cv, CXCursor c, const char *method, char *path,
                             size_t size, bool *param)
{
    CXCursor callee = clang_getCursorReferenced(c), m = fe_strip(kid(c, 0)), obj, root;
    char name[32];

    if (!is_kind(c, CXCursor_CallExpr) || clang_Cursor_isNull(callee) ||
        clang_getCursorKind(callee) != CXCursor_CXXMethod || !is_kind(m, CXCursor_MemberRefExpr) ||
        nkids(m) != 1)
        return false;
    fe_spelling(callee, name, sizeof(name));
    obj = fe_strip(kid(m, 0));
    if (strcmp(name, method) != 0 || !fe_std_container(clang_getCursorType(obj)) ||
        !member_path(cv, obj, path, size, &root))
        return false;
    *param = is_param_of(cv, root);
    return *param || is_global(root);
}

/*
 * adj[u] of a std::vector of std::vectors (an adjacency list) that is a
 * parameter, a global or a member of one: the vectors' headers are the
 * array adj, their elements one block "adj.pointee", and row u is the
 * block from its start (the load of adj[u]'s first field) on, its length
 * the load of its second (bound rec(0:u64:csr.rowptr,8:u64:deg), as the
 * rows of an array of structs). *len is read only when asked for.
 */
static bool container_row(struct fe_conv *cv, CXCursor row, int32_t *block,
                          const struct augur_expr **start, const struct augur_expr **len)
{
    CXCursor obj = fe_container_subscript(row), root;
    CXType vt = clang_getCanonicalType(clang_getCursorType(row)), et;
    char path[512], bname[520];
    struct fe_val i;
    const struct augur_expr *ix;
    bool param;
    int32_t h;

    if (clang_Cursor_isNull(obj) || !fe_std_container(vt) ||
        (et = clang_Type_getTemplateArgumentAsType(vt, 0)).kind == CXType_Invalid ||
        fe_std_container(et) || !member_path(cv, obj, path, sizeof(path), &root) ||
        !((param = is_param_of(cv, root)) || is_global(root)) ||
        (cv->final && !fe_slice_accesses(cv->slice, path)))
        return false;
    h = fe_array_for(cv, clang_getCursorReferenced(fe_strip(obj)), path, vt, AUGUR_SPACE_GLOBAL,
                     param, obj);
    if (augur_skel_array(cv->b, (uint32_t)h)->elem_size < 16)
        return false;
    snprintf(bname, sizeof(bname), "%s.pointee", path);
    *block = fe_array_for(cv, clang_getNullCursor(), bname, et, AUGUR_SPACE_GLOBAL, param, row);
    cv->subscript++;
    i = fe_expr(cv, container_index(row), FE_RVALUE);
    cv->subscript--;
    ix = value_of(cv, i, AUGUR_T_I64);
    fe_access(cv, row, (uint32_t)h, AUGUR_ACCESS_READ, AUGUR_T_U64, 0, ix, NULL, 1, NULL, 0);
    *start = augur_expr_load(cv->skel, AUGUR_T_U64, (uint32_t)h, 0, ix);
    if (len) {
        fe_access(cv, row, (uint32_t)h, AUGUR_ACCESS_READ, AUGUR_T_U64, 8, ix, NULL, 1, NULL, 0);
        *len = augur_expr_load(cv->skel, AUGUR_T_U64, (uint32_t)h, 8, ix);
    }
    return true;
}

/* The array of a local container made with its size (fe_local_container()), or -1. */
static int32_t local_container(struct fe_conv *cv, CXCursor obj)
{
    CXCursor d;

    obj = fe_strip(obj);
    if (!is_kind(obj, CXCursor_DeclRefExpr))
        return -1;
    d = clang_getCursorReferenced(obj);
    return clang_getCursorKind(d) == CXCursor_VarDecl && !is_global(d) &&
                   fe_var(cv, d)->kind == FV_ARRAY
               ? fe_var(cv, d)->array
               : -1;
}

/*
 * The element count of container obj (a std::vector or std::array, or a
 * row adj[u] of an adjacency list): a local's extent, a row's length (its
 * load), else the kernel's scalar "PATH.size" of a parameter's, a global's
 * or a member of one (declared at at); NULL for any other.
 */
static const struct augur_expr *container_size(struct fe_conv *cv, CXCursor obj, CXCursor at)
{
    const struct augur_expr *start, *len;
    CXCursor root;
    char path[512];
    int32_t a, s;

    obj = fe_strip(obj);
    if (!fe_std_container(clang_getCursorType(obj)))
        return NULL;
    if (!clang_Cursor_isNull(fe_container_subscript(obj)))
        return container_row(cv, obj, &a, &start, &len) ? len : NULL;
    if ((a = local_container(cv, obj)) >= 0)
        return augur_skel_array(cv->b, (uint32_t)a)->extent;
    if (!member_path(cv, obj, path, sizeof(path) - 5, &root) ||
        !(is_param_of(cv, root) || is_global(root)))
        return NULL;
    strcat(path, ".size");
    s = augur_skel_find_sym(cv->b, path);
    if (s < 0)
        s = fe_declare_sym(cv, at, path, AUGUR_SYM_PARAM, AUGUR_T_U64);
    return augur_expr_sym(cv->skel, augur_skel_sym(cv->b, (uint32_t)s)->type, (uint32_t)s);
}

bool fe_range_of(struct fe_conv *cv, CXCursor range, int32_t *array,
                 const struct augur_expr **count, const struct augur_expr **start)
{
    CXCursor r = fe_strip(range), root;
    CXType t = clang_getCanonicalType(clang_getCursorType(r)), et;
    const struct augur_expr *n;
    char path[512];

    *start = NULL;
    if (t.kind == CXType_ConstantArray) {
        struct fe_val p = fe_pointer(cv, r);

        if (p.array < 0 || clang_getArraySize(t) <= 0)
            return false;
        *array = p.array;
        *count = augur_expr_int(cv->skel, AUGUR_T_I64, clang_getArraySize(t));
        return true;
    }
    if (!clang_Cursor_isNull(fe_container_subscript(r))) {
        /* a row of an adjacency list: from its start, its length long */
        if (!container_row(cv, r, array, start, &n))
            return false;
        *start = augur_expr_cast(cv->skel, AUGUR_T_I64, *start);
    } else if (!(n = container_size(cv, r, range))) {
        return false;
    } else if ((*array = local_container(cv, r)) < 0) {
        /* a parameter's, a global's, a member's: container_size() placed its path */
        et = clang_Type_getTemplateArgumentAsType(t, 0);
        if (et.kind == CXType_Invalid || !member_path(cv, r, path, sizeof(path), &root) ||
            (cv->final && !fe_slice_accesses(cv->slice, path)))
            return false;
        *array = fe_array_for(cv, clang_getCursorReferenced(r), path, et, AUGUR_SPACE_GLOBAL,
                              is_param_of(cv, root), r);
    }
    *count = augur_expr_cast(cv->skel, AUGUR_T_I64, n);
    return true;
}

/*
 * v[i] of a std::vector or std::array that is a parameter, a global or a
 * member of one: element i of an array named as the container (the data it
 * holds), T its element type. none() for other containers and objects.
 */
static struct fe_val container_element(struct fe_conv *cv, CXCursor c)
{
    CXCursor obj = fe_container_subscript(c), root;
    CXType et = clang_getCanonicalType(clang_getCursorType(c));
    char path[512];
    struct fe_val i;
    bool param;
    int32_t a;

    if (!clang_Cursor_isNull(obj) && !clang_Cursor_isNull(fe_container_subscript(fe_strip(obj)))) {
        const struct augur_expr *start;

        /* adj[u][k]: element k of row u of an adjacency list */
        if (!container_row(cv, fe_strip(obj), &a, &start, NULL))
            return none();
        cv->subscript++;
        i = fe_expr(cv, container_index(c), FE_RVALUE);
        cv->subscript--;
        return pointer(a, add(cv, augur_expr_cast(cv->skel, AUGUR_T_I64, start),
                              value_of(cv, i, AUGUR_T_I64)));
    }
    if (clang_Cursor_isNull(obj) || !member_path(cv, obj, path, sizeof(path), &root))
        return none();
    if ((a = local_container(cv, obj)) < 0) {
        if (!((param = is_param_of(cv, root)) || is_global(root)) ||
            (cv->final && !fe_slice_accesses(cv->slice, path)))
            return none();
        a = fe_array_for(cv, clang_getCursorReferenced(fe_strip(obj)), path, et, AUGUR_SPACE_GLOBAL,
                         param, obj);
    }
    cv->subscript++;
    i = fe_expr(cv, container_index(c), FE_RVALUE);
    cv->subscript--;
    return pointer(a, value_of(cv, i, AUGUR_T_I64));
}

struct fe_val fe_pointer(struct fe_conv *cv, CXCursor c)
{
    enum CXCursorKind k;
    CXType t;

    c = fe_strip(c);
    k = clang_getCursorKind(c);
    t = clang_getCanonicalType(clang_getCursorType(c));
    if (k == CXCursor_CStyleCastExpr) {
        CXType ct = t.kind == CXType_Pointer ? clang_getPointeeType(t) : t;
        CXCursor e = fe_strip(expr_kid(c));
        CXType et = clang_getCanonicalType(clang_getCursorType(e));

        /* (double *)A->data of a void * member or parameter: an array of doubles */
        if (t.kind == CXType_Pointer && et.kind == CXType_Pointer &&
            clang_getCanonicalType(clang_getPointeeType(et)).kind == CXType_Void &&
            clang_getCanonicalType(ct).kind != CXType_Void)
            return typed_pointer(cv, e, ct);
        return fe_pointer(cv, expr_kid(c));
    }
    if (k == CXCursor_CallExpr && !clang_Cursor_isNull(fe_identity_arg(c)))
        return fe_pointer(cv, fe_identity_arg(c));
    if (k == CXCursor_DeclRefExpr) {
        struct fe_val v = decl_ref(cv, c);

        return v.array >= 0 ? v : none();
    }
    if (k == CXCursor_MemberRefExpr)
        return member_array(cv, c, t.kind == CXType_Pointer ? clang_getPointeeType(t) : t);
    if (k == CXCursor_BinaryOperator) {
        const char *op = fe_opmap_get(cv->t, &cv->opmap, c);
        CXCursor l = kid(c, 0), r = kid(c, 1);
        CXType lt = clang_getCanonicalType(clang_getCursorType(fe_strip(l)));

        if (op && (!strcmp(op, "+") || !strcmp(op, "-"))) {
            bool lptr = lt.kind == CXType_Pointer || lt.kind == CXType_ConstantArray ||
                        lt.kind == CXType_IncompleteArray;
            struct fe_val p = fe_pointer(cv, lptr ? l : r), i;
            const struct augur_expr *ie;

            /* the offset is address generation, as a subscript is (fe_count) */
            cv->subscript++;
            i = fe_expr(cv, lptr ? r : l, FE_RVALUE);
            cv->subscript--;
            ie = value_of(cv, i, AUGUR_T_I64);

            if (p.array < 0)
                return none();
            if (!strcmp(op, "-"))
                return pointer(p.array, augur_expr_binary(cv->skel, AUGUR_OP_SUB, p.e, ie));
            return pointer(p.array, add(cv, p.e, ie));
        }
        return none();
    }
    if (k == CXCursor_UnaryOperator) {
        const char *op = fe_opmap_get(cv->t, &cv->opmap, c);

        if (op && (!strcmp(op, "++") || !strcmp(op, "--"))) {
            /* *p++, *++p: the pointer steps, the access uses its value before or after */
            struct fe_val v = fe_expr(cv, c, FE_RVALUE);

            return v.array >= 0 ? v : none();
        }
        if (op && !strcmp(op, "&")) {
            uint32_t off = 0;
            enum augur_type et;

            return fe_lvalue(cv, kid(c, 0), &off, &et);
        }
        if (op && !strcmp(op, "*") && is_kind(fe_strip(kid(c, 0)), CXCursor_DeclRefExpr)) {
            /* (*result)[i]: classify_decl made a double **result its doubles (deref_only) */
            struct fe_val p = fe_pointer(cv, kid(c, 0));

            if (p.array >= 0 && augur_skel_array(cv->b, (uint32_t)p.array)->elem != AUGUR_T_PTR)
                return p;
        }
        return none();
    }
    if (k == CXCursor_ArraySubscriptExpr && t.kind == CXType_ConstantArray) {
        /* a[i] of a two-dimensional array: a pointer to row i */
        uint64_t count;
        struct fe_val p = fe_pointer(cv, kid(c, 0)), i;

        cv->subscript++;
        i = fe_expr(cv, kid(c, 1), FE_RVALUE);
        cv->subscript--;
        innermost(t, &count);
        if (p.array < 0)
            return none();
        return pointer(
            p.array, add(cv, p.e,
                         augur_expr_binary(cv->skel, AUGUR_OP_MUL, value_of(cv, i, AUGUR_T_I64),
                                           augur_expr_int(cv->skel, AUGUR_T_I64, (int64_t)count))));
    }
    if (k == CXCursor_ArraySubscriptExpr && t.kind == CXType_Pointer)
        return pointer_row(cv, c, t);
    if (k == CXCursor_CallExpr && t.kind == CXType_Pointer) {
        char path[512];
        bool param;

        /* v.data() of a std::vector: its array */
        if (container_method(cv, c, "data", path, sizeof(path), &param) &&
            (!cv->final || fe_slice_accesses(cv->slice, path)))
            return pointer(fe_array_for(cv, clang_getNullCursor(), path, clang_getPointeeType(t),
                                        AUGUR_SPACE_GLOBAL, param, c),
                           zero(cv));
    }
    if (k == CXCursor_ConditionalOperator || k == CXCursor_CallExpr) {
        fe_expr(cv, c, FE_DISCARD);
        return none();
    }
    return none();
}

static struct fe_val decl_ref(struct fe_conv *cv, CXCursor ref);

struct fe_val fe_lvalue(struct fe_conv *cv, CXCursor c, uint32_t *offset, enum augur_type *type)
{
    enum CXCursorKind k;
    CXType t;

    c = fe_strip(c);
    k = clang_getCursorKind(c);
    t = clang_getCanonicalType(clang_getCursorType(c));
    *offset = 0;
    *type = fe_type(t);
    if (k == CXCursor_CallExpr)
        return container_element(cv, c);
    if (k == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(c);

        /* r of T &r = y[i]: the element */
        if (clang_getCursorKind(d) == CXCursor_VarDecl && fe_var(cv, d)->ref)
            return decl_ref(cv, c);
        return none();
    }
    if (k == CXCursor_ArraySubscriptExpr) {
        CXCursor base = kid(c, 0), idx = kid(c, 1);
        CXType bt = clang_getCanonicalType(clang_getCursorType(fe_strip(base)));
        struct fe_val p, i;
        uint64_t count = 1;

        /* a[i] with a the index and i the pointer is legal C */
        if (bt.kind != CXType_Pointer && bt.kind != CXType_ConstantArray &&
            bt.kind != CXType_IncompleteArray && bt.kind != CXType_VariableArray) {
            CXCursor tmp = base;

            base = idx;
            idx = tmp;
        }
        p = fe_pointer(cv, base);
        cv->subscript++;
        i = fe_expr(cv, idx, FE_RVALUE);
        cv->subscript--;
        if (p.array < 0)
            return none();
        if (t.kind == CXType_ConstantArray) {
            innermost(t, &count);
            return pointer(
                p.array,
                add(cv, p.e,
                    augur_expr_binary(cv->skel, AUGUR_OP_MUL, value_of(cv, i, AUGUR_T_I64),
                                      augur_expr_int(cv->skel, AUGUR_T_I64, (int64_t)count))));
        }
        return pointer(p.array, add(cv, p.e, value_of(cv, i, AUGUR_T_I64)));
    }
    if (k == CXCursor_UnaryOperator) {
        const char *op = fe_opmap_get(cv->t, &cv->opmap, c);

        if (op && !strcmp(op, "*"))
            return fe_pointer(cv, kid(c, 0));
        return none();
    }
    if (k == CXCursor_MemberRefExpr && nkids(c) == 1) {
        CXCursor base = fe_strip(kid(c, 0));
        CXType bt = clang_getCanonicalType(clang_getCursorType(base));
        CXCursor field = clang_getCursorReferenced(c);
        long long bits = clang_Cursor_getOffsetOfField(field);
        struct fe_val p;

        if (bt.kind == CXType_Pointer) {
            char path[512];
            CXCursor root;

            /* A scalar field through a parameter pointer (A->n) is a scalar, not an element. */
            if (member_path(cv, c, path, sizeof(path), &root) &&
                (is_param_of(cv, root) || is_global(root)) &&
                is_kind(fe_strip(kid(c, 0)), CXCursor_DeclRefExpr))
                return none();
            p = fe_pointer(cv, base);
        } else {
            uint32_t off2;
            enum augur_type t2;

            if (is_kind(base, CXCursor_DeclRefExpr)) {
                /* s.f of a struct variable that stands for an array element (element_view) */
                CXCursor d = clang_getCursorReferenced(base);

                if (clang_getCursorKind(d) != CXCursor_VarDecl || fe_var(cv, d)->kind != FV_PTR)
                    return none();
                p = decl_ref(cv, base);
            } else if (!is_kind(base, CXCursor_ArraySubscriptExpr) &&
                       !is_kind(base, CXCursor_MemberRefExpr) &&
                       !is_kind(base, CXCursor_UnaryOperator)) {
                return none();
            } else {
                p = fe_lvalue(cv, base, &off2, &t2);
                if (p.array >= 0)
                    *offset = off2;
            }
        }
        if (p.array < 0 || bits < 0)
            return none();
        *offset += (uint32_t)(bits / 8);
        return p;
    }
    return none();
}

/* ---- declarations ---------------------------------------------------------------------------- */

static struct fe_val decl_ref(struct fe_conv *cv, CXCursor ref)
{
    CXCursor decl = clang_getCursorReferenced(ref);
    enum CXCursorKind dk = clang_getCursorKind(decl);
    struct fe_var *v;
    char name[256];

    if (dk == CXCursor_EnumConstantDecl)
        return scalar(augur_expr_int(cv->skel, AUGUR_T_I32, clang_getEnumConstantDeclValue(decl)));
    if (dk != CXCursor_VarDecl && dk != CXCursor_ParmDecl)
        return none();
    v = fe_var(cv, decl);
    if (v->kind == FV_NONE)
        classify_decl(cv, decl, v);
    switch (v->kind) {
    case FV_SCALAR:
        return scalar(augur_expr_sym(cv->skel, augur_skel_sym(cv->b, (uint32_t)v->sym)->type,
                                     (uint32_t)v->sym));
    case FV_ARRAY:
        return pointer(v->array, zero(cv));
    case FV_PTR:
        return pointer(v->array,
                       augur_expr_sym(cv->skel, augur_skel_sym(cv->b, (uint32_t)v->sym)->type,
                                      (uint32_t)v->sym));
    case FV_SUBST:
        if (v->subst_array >= 0)
            return pointer(v->subst_array, v->subst);
        return scalar(v->subst);
    case FV_VEC:
    case FV_MASK: {
        struct fe_val r = none();

        r.e = v->lanes;
        r.vec = v->kind == FV_VEC;
        r.mask = v->kind == FV_MASK;
        r.lanes = v->lanes_n;
        r.type = v->lane_type;
        return r;
    }
    default:
        break;
    }
    fe_spelling(decl, name, sizeof(name));
    return scalar(fe_opaque(cv, fe_type(clang_getCursorType(decl)), name));
}

/* ---- operators ----------------------------------------------------------------------------- */

static int binop_of(const char *op, enum augur_op *out)
{
    static const struct {
        const char *s;
        enum augur_op op;
    } tab[] = {
        { "+", AUGUR_OP_ADD },  { "-", AUGUR_OP_SUB },   { "*", AUGUR_OP_MUL },
        { "/", AUGUR_OP_DIV },  { "%", AUGUR_OP_MOD },   { "<<", AUGUR_OP_SHL },
        { ">>", AUGUR_OP_SHR }, { "<", AUGUR_OP_LT },    { "<=", AUGUR_OP_LE },
        { ">", AUGUR_OP_GT },   { ">=", AUGUR_OP_GE },   { "==", AUGUR_OP_EQ },
        { "!=", AUGUR_OP_NE },  { "&", AUGUR_OP_BAND },  { "^", AUGUR_OP_BXOR },
        { "|", AUGUR_OP_BOR },  { "&&", AUGUR_OP_LAND }, { "||", AUGUR_OP_LOR },
    };

    for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
        if (!strcmp(tab[i].s, op)) {
            *out = tab[i].op;
            return 0;
        }
    return -1;
}

/* Counts one arithmetic operation of type t. */
static void count_op(struct fe_conv *cv, enum augur_op op, enum augur_type t, enum augur_type ot,
                     CXCursor at)
{
    bool fp = augur_type_is_float(t);
    enum augur_opkind k;

    switch (op) {
    case AUGUR_OP_ADD:
    case AUGUR_OP_SUB:
    case AUGUR_OP_NEG:
        k = fp ? AUGUR_OPK_FADD : AUGUR_OPK_IADD;
        break;
    case AUGUR_OP_MUL:
        k = fp ? AUGUR_OPK_FMUL : AUGUR_OPK_IMUL;
        break;
    case AUGUR_OP_DIV:
    case AUGUR_OP_MOD:
        k = fp ? AUGUR_OPK_FDIV : AUGUR_OPK_IDIV;
        break;
    case AUGUR_OP_SHL:
    case AUGUR_OP_SHR:
    case AUGUR_OP_BAND:
    case AUGUR_OP_BOR:
    case AUGUR_OP_BXOR:
    case AUGUR_OP_BNOT:
        k = AUGUR_OPK_IBIT;
        break;
    case AUGUR_OP_LT:
    case AUGUR_OP_LE:
    case AUGUR_OP_GT:
    case AUGUR_OP_GE:
    case AUGUR_OP_EQ:
    case AUGUR_OP_NE:
    case AUGUR_OP_MIN:
    case AUGUR_OP_MAX:
    case AUGUR_OP_NOT:
        k = AUGUR_OPK_CMP;
        t = ot;
        break;
    default:
        return; /* && and || are branches */
    }
    if (t == AUGUR_T_VOID || t == AUGUR_T_REC || t == AUGUR_T_PTR)
        t = AUGUR_T_I64;
    fe_count(cv, k, t, 1, false, 1, at);
}

static bool is_product(const struct augur_expr *e, enum augur_type t)
{
    return e->kind == AUGUR_EXPR_BINARY && e->u.bin.op == AUGUR_OP_MUL && e->type == t;
}

/* Converts a - b (or any binary op) on two scalar values, counting the operation. */
static const struct augur_expr *arith(struct fe_conv *cv, enum augur_op op,
                                      const struct augur_expr *a, const struct augur_expr *b,
                                      CXCursor at)
{
    const struct augur_expr *e = augur_expr_binary(cv->skel, op, a, b);

    /* round - 1 in a loop that never assigns round: computed once, before it */
    if (fe_loop_invariant(cv, at))
        return e;
    /*
     * a * b + c is one fused multiply-add: compilers contract it where the
     * target has one (clang by default, gcc outside strict ISO mode, nvcc).
     */
    if ((op == AUGUR_OP_ADD || op == AUGUR_OP_SUB) && e->kind == AUGUR_EXPR_BINARY &&
        augur_type_is_float(e->type) && a->type == e->type && b->type == e->type &&
        (is_product(a, e->type) || is_product(b, e->type)) &&
        fe_uncount(cv, AUGUR_OPK_FMUL, e->type, 1, false)) {
        fe_count(cv, AUGUR_OPK_FFMA, e->type, 1, false, 1, at);
        return e;
    }
    count_op(cv, op, e->type, augur_type_arith(a->type, b->type), at);
    return e;
}

/* Emits a branch around the nodes that conv(...) adds, dropping it when there are none. */
struct guard {
    struct augur_node *br;
    uint32_t before;
};

static void guard_open(struct fe_conv *cv, struct guard *g, const struct augur_expr *cond,
                       CXCursor at)
{
    g->br = augur_skel_open(cv->b, AUGUR_NODE_BRANCH, fe_loc(cv, at));
    g->br->u.branch.cond = cond;
}

static void guard_close(struct fe_conv *cv, struct guard *g)
{
    uint32_t n = augur_skel_nkids(cv->b);

    if (g->br->u.branch.nthen == 0 && n > 0 && g->before == 0)
        g->br->u.branch.nthen = n;
    augur_skel_close(cv->b);
    if (g->br->nkids == 0)
        augur_skel_drop_last(cv->b);
    fe_forget_reads(cv);
}

/* ---- assignment ------------------------------------------------------------------------------ */

/* True when e is a parameter's value as it is (n, A->n), cast or not. */
static bool is_param_value(struct fe_conv *cv, const struct augur_expr *e)
{
    while (e && e->kind == AUGUR_EXPR_CAST)
        e = e->u.cast.a;
    return e && e->kind == AUGUR_EXPR_SYM &&
           augur_skel_sym(cv->b, e->u.sym)->kind == AUGUR_SYM_PARAM;
}

/*
 * True when e is a number read from the command line: atoi(argv[1]), or
 * argc > 1 ? atoi(argv[1]) : 1000 (a default when it is not given).
 */
static bool is_input_value(const struct augur_expr *e)
{
    while (e && e->kind == AUGUR_EXPR_CAST)
        e = e->u.cast.a;
    if (!e)
        return false;
    if (e->kind == AUGUR_EXPR_OPAQUE)
        return e->u.opaque && fe_is_input(e->u.opaque);
    if (e->kind == AUGUR_EXPR_SELECT) {
        const struct augur_expr *a = e->u.sel.a, *b = e->u.sel.b;

        while (a->kind == AUGUR_EXPR_CAST)
            a = a->u.cast.a;
        while (b->kind == AUGUR_EXPR_CAST)
            b = b->u.cast.a;
        return (is_input_value(a) && (b->kind == AUGUR_EXPR_INT || b->kind == AUGUR_EXPR_FP)) ||
               (is_input_value(b) && (a->kind == AUGUR_EXPR_INT || a->kind == AUGUR_EXPR_FP));
    }
    return false;
}

void fe_assign_decl(struct fe_conv *cv, CXCursor decl, CXCursor at, const struct augur_expr *val)
{
    struct fe_var *v = fe_var(cv, decl);
    CXType t = clang_getCanonicalType(clang_getCursorType(decl));
    char name[256];

    if (v->kind == FV_NONE && clang_getCursorKind(decl) == CXCursor_VarDecl &&
        clang_Cursor_hasVarDeclGlobalStorage(decl) != 1 && fe_type(t) != AUGUR_T_VOID &&
        fe_type(t) != AUGUR_T_REC && is_param_value(cv, val) && fe_assigned_once(cv, decl)) {
        /* n = A->n, set once: a copy of the parameter, which stands for it */
        v->kind = FV_SUBST;
        v->subst_array = -1;
        v->subst = val->type == fe_type(t) ? val : augur_expr_cast(cv->skel, fe_type(t), val);
        return;
    }
    if (v->kind == FV_NONE && is_input_value(val) &&
        clang_getCursorKind(decl) == CXCursor_VarDecl &&
        clang_equalCursors(clang_getCursorSemanticParent(decl), cv->func) &&
        fe_type(t) != AUGUR_T_VOID && fe_type(t) != AUGUR_T_REC && fe_assigned_once(cv, decl) &&
        (!cv->final || !cv->slice || fe_slice_has_decl(cv->slice, decl))) {
        /* n = atoi(argv[1]): a size read from the command line, bound as a parameter is */
        fe_spelling(decl, name, sizeof(name));
        v->kind = FV_SCALAR;
        v->sym = fe_declare_sym(cv, decl, name, AUGUR_SYM_PARAM, fe_type(t));
        return;
    }

    if (v->kind == FV_NONE && !is_param_of(cv, decl) && !is_global(decl) &&
        (!cv->final || (cv->slice && fe_slice_has_decl(cv->slice, decl)))) {
        fe_spelling(decl, name, sizeof(name));
        if (fe_type(t) != AUGUR_T_VOID && fe_type(t) != AUGUR_T_REC) {
            v = fe_var(cv, decl);
            v->kind = FV_SCALAR;
            v->sym = fe_declare_sym(cv, decl, name, AUGUR_SYM_LOCAL, fe_type(t));
            v = fe_var(cv, decl);
        }
    }
    if (v->kind == FV_NONE && is_param_of(cv, decl))
        classify_decl(cv, decl, v), v = fe_var(cv, decl);
    if (v->kind == FV_SUBST) {
        v->subst = val;
        return;
    }
    if (v->kind != FV_SCALAR)
        return;
    if (cv->final && cv->slice && !fe_slice_has_decl(cv->slice, decl) &&
        augur_skel_sym(cv->b, (uint32_t)v->sym)->kind != AUGUR_SYM_LOCAL)
        return;
    if (cv->final && cv->slice && !fe_slice_has_decl(cv->slice, decl))
        return;
    {
        struct augur_node *n = augur_skel_leaf(cv->b, AUGUR_NODE_ASSIGN, fe_loc(cv, at));
        const struct augur_sym *s = augur_skel_sym(cv->b, (uint32_t)v->sym);

        n->u.assign.sym = (uint32_t)v->sym;
        n->u.assign.value = val->type == s->type ? val : augur_expr_cast(cv->skel, s->type, val);
    }
}

/* The declaration a (stripped) DeclRefExpr names, or a null cursor. */
static CXCursor ref_decl(CXCursor c)
{
    c = fe_strip(c);
    if (!is_kind(c, CXCursor_DeclRefExpr))
        return clang_getNullCursor();
    c = clang_getCursorReferenced(c);
    if (clang_getCursorKind(c) != CXCursor_VarDecl && clang_getCursorKind(c) != CXCursor_ParmDecl)
        return clang_getNullCursor();
    return c;
}

/*
 * True when a variable lives across the iterations of the innermost open
 * loop: a local of the function that holds the loop, declared before it
 * (what the loop's next iteration reads back of it is what this one wrote).
 */
static bool lives_across_loop(struct fe_conv *cv, CXCursor decl)
{
    CXFile lf = NULL, df = NULL;
    unsigned start, end, at;

    if (clang_Cursor_isNull(cv->loop) ||
        (clang_getCursorKind(decl) != CXCursor_VarDecl &&
         clang_getCursorKind(decl) != CXCursor_ParmDecl) ||
        clang_Cursor_hasVarDeclGlobalStorage(decl) == 1)
        return false;
    fe_extent_offsets(cv->loop, &start, &end);
    fe_cursor_pos(cv->loop, NULL, NULL, NULL, &lf);
    /* where the name is written (a macro argument's declaration where it is spelled) */
    clang_getSpellingLocation(clang_getCursorLocation(decl), &df, NULL, NULL, &at);
    if (!lf || !df || !clang_File_isEqual(lf, df) || (at >= start && at <= end))
        return false;
    return !clang_equalCursors(fe_var(cv, decl)->set_in, cv->loop);
}

/* True when expression c reads variable decl. */
static bool reads_var(CXCursor c, CXCursor decl)
{
    if (is_kind(fe_strip(c), CXCursor_DeclRefExpr))
        return clang_equalCursors(clang_getCursorReferenced(fe_strip(c)), decl);
    return fe_mentions(c, CXCursor_DeclRefExpr, decl);
}

/*
 * x op= e, or x = e reading x, where x lives across the loop: the
 * outermost operation of the right-hand side (counted last) feeds itself
 * in the next iteration, and the iterations wait for its latency.
 */
static void carry(struct fe_conv *cv, CXCursor decl, CXCursor rhs, bool compound, bool fp)
{
    enum CXCursorKind k = clang_getCursorKind(fe_strip(rhs));
    bool reads = compound || reads_var(rhs, decl);

    if (!lives_across_loop(cv, decl))
        return;
    if (!reads) /* set afresh: what the iteration adds to it later is its own */
        fe_var(cv, decl)->set_in = cv->loop;
    else if (fp && (compound || k == CXCursor_BinaryOperator || k == CXCursor_CallExpr))
        fe_carry_last(cv, decl);
}

/* Assigns a pointer value to a pointer variable. */
static void assign_pointer(struct fe_conv *cv, CXCursor decl, CXCursor at, struct fe_val p)
{
    struct fe_var *v = fe_var(cv, decl);
    char name[256];

    if (p.array < 0) {
        fe_note(cv, AUGUR_NOTE_WARNING, at,
                "cannot tell which array this pointer points to: accesses through it are left out");
        v->kind = FV_NONE;
        return;
    }
    if ((v->kind == FV_PTR || v->kind == FV_ARRAY) && v->array != p.array) {
        /* double buffering (swap x and y): the skeleton keeps each name on its own array */
        fe_spelling(decl, name, sizeof(name));
        fe_note(cv, AUGUR_NOTE_UNSUPPORTED, at,
                "pointer '%s' is pointed at another array ('%s'): accesses through '%s' keep "
                "using its first array",
                name, augur_skel_array(cv->b, (uint32_t)p.array)->name, name);
        return;
    }
    if (v->kind != FV_PTR) {
        fe_spelling(decl, name, sizeof(name));
        v->kind = FV_PTR;
        v->array = p.array;
        v->sym = fe_declare_sym(cv, decl, name, AUGUR_SYM_LOCAL, AUGUR_T_I64);
        v = fe_var(cv, decl);
    }
    {
        struct augur_node *n = augur_skel_leaf(cv->b, AUGUR_NODE_ASSIGN, fe_loc(cv, at));

        n->u.assign.sym = (uint32_t)v->sym;
        n->u.assign.value =
            p.e->type == AUGUR_T_I64 ? p.e : augur_expr_cast(cv->skel, AUGUR_T_I64, p.e);
    }
}

static bool is_pointer_type(CXType t)
{
    t = clang_getCanonicalType(t);
    return t.kind == CXType_Pointer;
}

/* x = v, x op= v, ++x, x++ on any lvalue; returns the value of the expression. */
static struct fe_val assign(struct fe_conv *cv, CXCursor at, CXCursor lhs, const char *op,
                            CXCursor rhs, bool postfix)
{
    CXCursor decl = ref_decl(lhs);
    CXType lt = clang_getCanonicalType(clang_getCursorType(fe_strip(lhs)));
    enum augur_type t = fe_type(lt);
    enum augur_op bop = AUGUR_OP_ADD;
    bool compound = strcmp(op, "=") != 0;
    bool incdec = !strcmp(op, "++") || !strcmp(op, "--");

    if (incdec)
        bop = op[0] == '+' ? AUGUR_OP_ADD : AUGUR_OP_SUB;
    else if (compound) {
        char base[4];

        snprintf(base, sizeof(base), "%.*s", (int)strlen(op) - 1, op);
        if (binop_of(base, &bop) != 0)
            return none();
    }
    /* r = v through T &r = y[i] stores into the element (the element path below) */
    if (!clang_Cursor_isNull(decl) && !fe_var(cv, decl)->ref) {
        struct fe_var *v = fe_var(cv, decl);

        if (v->kind == FV_NONE && (is_param_of(cv, decl) || is_global(decl)))
            classify_decl(cv, decl, v), v = fe_var(cv, decl);
        if (is_pointer_type(clang_getCursorType(decl))) {
            struct fe_val p;

            if (incdec || compound) {
                struct fe_val cur = decl_ref(cv, fe_strip(lhs));
                const struct augur_expr *step =
                    incdec ? augur_expr_int(cv->skel, AUGUR_T_I64, 1)
                           : value_of(cv, fe_expr(cv, rhs, FE_RVALUE), AUGUR_T_I64);

                if (cur.array < 0)
                    return none();
                p = pointer(cur.array, augur_expr_binary(cv->skel, bop, cur.e, step));
            } else {
                const struct augur_expr *bytes = NULL;

                if (v->kind == FV_NONE && fe_alloc_size(cv, rhs, &bytes)) {
                    /* p = malloc(...): a local array named after the pointer */
                    char pname[256];
                    CXType pt = clang_getCanonicalType(clang_getCursorType(decl));
                    int32_t a;

                    fe_spelling(decl, pname, sizeof(pname));
                    a = fe_array_for(cv, decl, pname, clang_getPointeeType(pt), AUGUR_SPACE_LOCAL,
                                     false, decl);
                    if (bytes)
                        augur_skel_array(cv->b, (uint32_t)a)->extent = fe_bytes_to_count(
                            cv, bytes, augur_skel_array(cv->b, (uint32_t)a)->elem_size);
                    v = fe_var(cv, decl);
                    v->kind = FV_ARRAY;
                    v->array = a;
                    return pointer(a, zero(cv));
                }
                p = fe_pointer(cv, rhs);
                if (v->kind == FV_NONE && p.array >= 0 && fe_alias_pointer(cv, decl, at, &p))
                    return p;
            }
            assign_pointer(cv, decl, at, p);
            if ((incdec || compound) && p.array >= 0) {
                /*
                 * *++p, *p++: the set runs before the access, which reads the pointer after
                 * it: its value itself, or stepped back for p++.
                 */
                struct fe_val now = decl_ref(cv, fe_strip(lhs));

                if (now.array == p.array && postfix && incdec)
                    return pointer(now.array,
                                   augur_expr_binary(
                                       cv->skel, bop == AUGUR_OP_ADD ? AUGUR_OP_SUB : AUGUR_OP_ADD,
                                       now.e, augur_expr_int(cv->skel, now.e->type, 1)));
                if (now.array == p.array)
                    return now;
            }
            return p;
        }
        if (v->kind == FV_VEC || v->kind == FV_MASK ||
            (!incdec && !compound &&
             clang_getCanonicalType(clang_getCursorType(decl)).kind == CXType_Vector)) {
            struct fe_val r = fe_expr(cv, rhs, FE_RVALUE);

            carry(cv, decl, rhs, false, r.vec && augur_type_is_float(r.type));
            v = fe_var(cv, decl);
            if (r.vec || r.mask) {
                v->kind = r.mask ? FV_MASK : FV_VEC;
                v->lanes = r.e;
                v->lanes_n = r.lanes;
                v->lane_type = r.type;
            }
            return r;
        }
        {
            struct fe_val cur = decl_ref(cv, fe_strip(lhs));
            const struct augur_expr *old = value_of(cv, cur, t), *nv;

            if (incdec) {
                nv = arith(cv, bop, old, augur_expr_int(cv->skel, AUGUR_T_I32, 1), at);
            } else {
                struct fe_val r = fe_expr(cv, rhs, FE_RVALUE);

                if (r.mask && !compound) {
                    /* a mask register assigned from an intrinsic */
                    v = fe_var(cv, decl);
                    v->kind = FV_MASK;
                    v->lanes = r.e;
                    v->lanes_n = r.lanes;
                    v->lane_type = r.type;
                    return r;
                }
                nv = value_of(cv, r, t);
                if (compound)
                    nv = arith(cv, bop, old, nv, at);
                carry(cv, decl, rhs, compound, augur_type_is_float(t));
            }
            fe_assign_decl(cv, decl, at, nv);
            {
                /*
                 * The set node runs before the statement that uses the
                 * value, so the value is read after it: x itself for ++x and
                 * x = v, x stepped back for x++.
                 */
                const struct augur_expr *now = value_of(cv, decl_ref(cv, fe_strip(lhs)), t);

                if (postfix && incdec)
                    now = augur_expr_binary(cv->skel,
                                            bop == AUGUR_OP_ADD ? AUGUR_OP_SUB : AUGUR_OP_ADD, now,
                                            augur_expr_int(cv->skel, now->type, 1));
                else if (postfix)
                    now = old;
                return scalar(now);
            }
        }
    }
    {
        uint32_t off = 0;
        enum augur_type et;
        struct fe_val where = fe_lvalue(cv, lhs, &off, &et);
        const struct augur_expr *val, *old;

        if (where.array < 0) {
            /* an lvalue we cannot place (a member of a local struct, ...): keep the reads */
            if (is_kind(fe_strip(lhs), CXCursor_ArraySubscriptExpr))
                fe_note(cv, AUGUR_NOTE_UNSUPPORTED, lhs,
                        "cannot tell which array this element lies in (a subscript of a pointer "
                        "loaded from memory, such as p[j][i]): the store is left out");
            else if (!clang_Cursor_isNull(fe_container_subscript(fe_strip(lhs))))
                fe_note(cv, AUGUR_NOTE_UNSUPPORTED, lhs,
                        "an element of a container that is no parameter, global or member of "
                        "one, nor a local made with its size: the store is left out");
            if (!incdec)
                fe_expr(cv, rhs, FE_DISCARD);
            return none();
        }
        old = augur_expr_load(cv->skel, et == AUGUR_T_VOID || et == AUGUR_T_REC ? AUGUR_T_I64 : et,
                              (uint32_t)where.array, off, where.e);
        if (incdec) {
            val = arith(cv, bop, old, augur_expr_int(cv->skel, AUGUR_T_I32, 1), at);
        } else {
            struct fe_val r = fe_expr(cv, rhs, FE_RVALUE);

            val = value_of(cv, r, et);
            if (compound)
                val = arith(cv, bop, old, val, at);
        }
        if (old->type != augur_skel_array(cv->b, (uint32_t)where.array)->elem &&
            augur_skel_array(cv->b, (uint32_t)where.array)->elem != AUGUR_T_REC)
            old = augur_expr_load(cv->skel, augur_skel_array(cv->b, (uint32_t)where.array)->elem,
                                  (uint32_t)where.array, off, where.e);
        fe_access(cv, at, (uint32_t)where.array,
                  compound || incdec ? AUGUR_ACCESS_RMW : AUGUR_ACCESS_WRITE, et, off, where.e,
                  val->type == old->type ? val : augur_expr_cast(cv->skel, old->type, val), 1, NULL,
                  0);
        return scalar(postfix ? old : val);
    }
}

/* ---- calls ------------------------------------------------------------------------------------
 */

CXCursor fe_identity_arg(CXCursor call)
{
    CXCursor callee;
    char name[64];

    call = fe_strip(call);
    if (!is_kind(call, CXCursor_CallExpr) || clang_Cursor_getNumArguments(call) < 1)
        return clang_getNullCursor();
    callee = clang_getCursorReferenced(call);
    if (clang_Cursor_isNull(callee))
        return clang_getNullCursor();
    fe_spelling(callee, name, sizeof(name));
    if (!strcmp(name, "__builtin_assume_aligned") || !strcmp(name, "__builtin_expect") ||
        !strcmp(name, "__builtin_expect_with_probability"))
        return clang_Cursor_getArgument(call, 0);
    return clang_getNullCursor();
}

static bool name_in(const char *name, const char *const *list)
{
    for (int i = 0; list[i]; i++)
        if (!strcmp(name, list[i]))
            return true;
    return false;
}

/* Evaluates every argument for its reads. */
static void eval_args(struct fe_conv *cv, CXCursor call)
{
    int n = clang_Cursor_getNumArguments(call);

    for (int i = 0; i < n; i++)
        fe_expr(cv, clang_Cursor_getArgument(call, (unsigned)i), FE_DISCARD);
}

static void opaque_call(struct fe_conv *cv, CXCursor call, const char *name)
{
    struct augur_node *n;

    eval_args(cv, call);
    fe_flush_ops(cv);
    n = augur_skel_leaf(cv->b, AUGUR_NODE_CALL, fe_loc(cv, call));
    n->u.call.name = augur_arena_strdup(&cv->skel->arena, name);
    fe_forget_reads(cv);
}

/*
 * The element value memset(p, byte, n) leaves in an array: 0 for a zero byte
 * (any element type), the byte repeated for an integer element; NULL else.
 */
static const struct augur_expr *memset_value(struct fe_conv *cv, const struct augur_array *a,
                                             int64_t byte)
{
    enum augur_type t = a->elem == AUGUR_T_REC ? AUGUR_T_U8 : a->elem;
    uint32_t size = augur_type_size(t);
    uint64_t v = 0;

    byte &= 0xff;
    if (byte == 0)
        return augur_expr_int(cv->skel, t, 0);
    if (!augur_type_is_int(t) || size == 0 || size > 8)
        return NULL;
    for (uint32_t i = 0; i < size; i++)
        v = v << 8 | (uint64_t)byte;
    /* as the element type reads it: a signed type's top bit is its sign */
    if (augur_type_is_signed(t) && size < 8 && (v >> (8 * size - 1)) & 1)
        return augur_expr_int(cv->skel, t, (int64_t)v - ((int64_t)1 << (8 * size)));
    return augur_expr_int(cv->skel, t, (int64_t)v);
}

/*
 * A loop "for k in [0, count) by L: load src[s + k + lane]; store dst[d + k +
 * lane]" for memcpy, and "store dst[d + k + lane] = fill" for memset (fill
 * NULL: a value not known), L lanes of COPY_BYTES (masked past count): the
 * vector moves that the compiler's inline expansion and libc's copies make.
 */
#define COPY_BYTES 32
static void copy_loop(struct fe_conv *cv, CXCursor call, struct fe_val dst, struct fe_val src,
                      const struct augur_expr *bytes, const struct augur_expr *fill)
{
    const struct augur_array *da = augur_skel_array(cv->b, (uint32_t)dst.array);
    const struct augur_expr *count, *k, *copied = fill, *kl, *mask = NULL;
    enum augur_type dt = da->elem == AUGUR_T_REC ? AUGUR_T_U8 : da->elem;
    uint32_t lanes = da->elem_size && da->elem_size < COPY_BYTES ? COPY_BYTES / da->elem_size : 1;
    struct augur_node *loop;
    char name[64];
    int32_t sym;

    fe_unique_name(cv, "copy.k", name, sizeof(name));
    sym = (int32_t)augur_skel_add_sym(cv->b, name, AUGUR_SYM_LOCAL, AUGUR_T_I64, fe_loc(cv, call));
    fe_cursors_push(&cv->sym_decls, clang_getNullCursor());
    k = augur_expr_sym(cv->skel, AUGUR_T_I64, (uint32_t)sym);
    count = fe_bytes_to_count(cv, bytes, da->elem_size);
    fe_flush_ops(cv);
    loop = augur_skel_open(cv->b, AUGUR_NODE_LOOP, fe_loc(cv, call));
    loop->u.loop.form = AUGUR_LOOP_FOR;
    loop->u.loop.var = sym;
    loop->u.loop.init = augur_expr_int(cv->skel, AUGUR_T_I64, 0);
    loop->u.loop.cond = augur_expr_binary(cv->skel, AUGUR_OP_LT, k, count);
    loop->u.loop.next =
        augur_expr_binary(cv->skel, AUGUR_OP_ADD, k, augur_expr_int(cv->skel, AUGUR_T_I64, lanes));
    kl = k;
    if (lanes > 1) {
        kl = augur_expr_binary(cv->skel, AUGUR_OP_ADD, k,
                               augur_expr_cast(cv->skel, AUGUR_T_I64, fe_lane(cv)));
        mask = augur_expr_binary(cv->skel, AUGUR_OP_LT, kl, count);
    }
    if (src.array >= 0) {
        const struct augur_array *sa = augur_skel_array(cv->b, (uint32_t)src.array);
        enum augur_type st = sa->elem == AUGUR_T_REC ? AUGUR_T_U8 : sa->elem;
        uint32_t sl = sa->elem_size == da->elem_size ? lanes : 1;

        fe_access(cv, call, (uint32_t)src.array, AUGUR_ACCESS_READ, st, 0,
                  add(cv, src.e, sl > 1 ? kl : k), NULL, sl, sl > 1 ? mask : NULL, 0);
        if (sl > 1)
            fe_count(cv, AUGUR_OPK_VLOAD, st, sl, true, 1, call);
        if (st == dt)
            copied = augur_expr_load(cv->skel, st, (uint32_t)src.array, 0, add(cv, src.e, kl));
    }
    fe_access(cv, call, (uint32_t)dst.array, AUGUR_ACCESS_WRITE, dt, 0, add(cv, dst.e, kl), copied,
              lanes, mask, 0);
    if (lanes > 1)
        fe_count(cv, AUGUR_OPK_VSTORE, dt, lanes, true, 1, call);
    fe_flush_ops(cv);
    augur_skel_close(cv->b);
    fe_forget_reads(cv);
}

bool fe_local_container(struct fe_conv *cv, CXCursor vd, const char *name, CXType t, CXCursor init)
{
    CXCursor c = fe_strip_implicit(init), callee = clang_getCursorReferenced(c);
    CXType et = clang_Type_getTemplateArgumentAsType(clang_getCanonicalType(t), 0);
    const struct augur_expr *count, *fill;
    struct augur_array *arr;
    int nargs = clang_Cursor_getNumArguments(c);
    struct fe_val n, v;
    int32_t a;

    if (!is_kind(c, CXCursor_CallExpr) || clang_getCursorKind(callee) != CXCursor_Constructor ||
        nargs < 1 || nargs > 3 || et.kind == CXType_Invalid ||
        !augur_type_is_int(fe_type(
            clang_getCanonicalType(clang_getCursorType(fe_strip(clang_Cursor_getArgument(c, 0)))))))
        return false;
    n = fe_expr(cv, clang_Cursor_getArgument(c, 0), FE_RVALUE);
    count = value_of(cv, n, AUGUR_T_I64);
    a = fe_array_for(cv, vd, name, et, AUGUR_SPACE_LOCAL, false, vd);
    arr = augur_skel_array(cv->b, (uint32_t)a);
    arr->extent = count;
    fe_var(cv, vd)->kind = FV_ARRAY;
    fe_var(cv, vd)->array = a;
    /* the constructor fills every element: with the value given, else with zeros */
    if (nargs >= 2 &&
        clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(c, 1))).kind !=
            CXType_Record) {
        v = fe_expr(cv, clang_Cursor_getArgument(c, 1), FE_RVALUE);
        fill = v.e;
    } else {
        fill = augur_type_is_float(arr->elem)
                   ? augur_expr_fp(cv->skel, arr->elem, 0.0)
                   : augur_expr_int(cv->skel, arr->elem == AUGUR_T_REC ? AUGUR_T_U8 : arr->elem, 0);
    }
    copy_loop(cv, c, pointer(a, zero(cv)), none(),
              augur_expr_binary(cv->skel, AUGUR_OP_MUL, count,
                                augur_expr_int(cv->skel, AUGUR_T_I64, (int64_t)arr->elem_size)),
              fill);
    return true;
}

/* A fresh local sym (no declaration) set to v here: a value captured before a store. */
const struct augur_expr *fe_capture(struct fe_conv *cv, CXCursor at, const char *name,
                                    const struct augur_expr *v)
{
    int32_t s = fe_declare_sym(cv, clang_getNullCursor(), name, AUGUR_SYM_LOCAL, v->type);
    struct augur_node *n = augur_skel_leaf(cv->b, AUGUR_NODE_ASSIGN, fe_loc(cv, at));

    n->u.assign.sym = (uint32_t)s;
    n->u.assign.value = v;
    return augur_expr_sym(cv->skel, v->type, (uint32_t)s);
}

/* The start offset of a cursor in its file (where a macro expands). */
static unsigned start_offset(struct fe_conv *cv, CXCursor c)
{
    unsigned off = 0;

    clang_getExpansionLocation(clang_getRangeStart(fe_file_extent(cv->t->tu, c)), NULL, NULL, NULL,
                               &off);
    return off;
}

/*
 * Compare-and-swap builtins: __atomic_compare_exchange_n(p, &expected, desired, ...),
 * __atomic_compare_exchange(p, &expected, &desired, ...), __sync_bool_compare_and_swap(p, old,
 * new) and __sync_val_compare_and_swap(p, old, new). One atomic update of *p whose stored value
 * is desired when *p equals the expected value (else *p itself):
 *   set cas.old = p[i]; set cas.ok = cas.old == expected
 *   update p[i] = cas.ok ? desired : cas.old   (atomic)
 * and, for __atomic_compare_exchange*, expected = cas.old (what a failed exchange writes back;
 * on success the two are equal). The result is cas.ok, or cas.old for the _val_ form. args are
 * the operands in source order. False when *p cannot be placed (the caller falls back).
 */
static bool cas_builtin(struct fe_conv *cv, CXCursor c, const char *name, const CXCursor *args,
                        size_t nargs, struct fe_val *result)
{
    bool gnu = !strncmp(name, "__atomic_", 9), val_form = strstr(name, "_val_") != NULL;
    struct fe_val p, ex, de;
    const struct augur_array *a;
    const struct augur_expr *old, *expected, *desired, *ok;
    enum augur_type et;
    CXCursor exdecl = clang_getNullCursor();

    if (nargs < 3)
        return false;
    p = fe_pointer(cv, args[0]);
    if (p.array < 0)
        return false;
    a = augur_skel_array(cv->b, (uint32_t)p.array);
    et = a->elem == AUGUR_T_REC ? AUGUR_T_U8 : a->elem;
    for (size_t i = 3; i < nargs; i++) /* weak flag, memory orders */
        fe_expr(cv, args[i], FE_DISCARD);
    if (gnu) {
        /* &expected: a local scalar (its value; it gets the old value back) or an element */
        CXCursor e = fe_strip(args[1]);

        ex = none();
        if (is_kind(e, CXCursor_UnaryOperator) && nkids(e) == 1) {
            CXCursor d = fe_strip(kid(e, 0));

            if (is_kind(d, CXCursor_DeclRefExpr) &&
                clang_getCursorKind(clang_getCursorReferenced(d)) == CXCursor_VarDecl &&
                fe_type(clang_getCanonicalType(clang_getCursorType(d))) != AUGUR_T_VOID &&
                fe_type(clang_getCanonicalType(clang_getCursorType(d))) != AUGUR_T_REC) {
                exdecl = clang_getCursorReferenced(d);
                ex = fe_expr(cv, d, FE_RVALUE);
            }
        }
        if (clang_Cursor_isNull(exdecl)) {
            struct fe_val q = fe_pointer(cv, args[1]);

            if (q.array >= 0) {
                const struct augur_array *qa = augur_skel_array(cv->b, (uint32_t)q.array);
                enum augur_type qt = qa->elem == AUGUR_T_REC ? AUGUR_T_U8 : qa->elem;

                fe_access(cv, c, (uint32_t)q.array, AUGUR_ACCESS_READ, qt, 0, q.e, NULL, 1, NULL,
                          0);
                ex = scalar(augur_expr_load(cv->skel, qt, (uint32_t)q.array, 0, q.e));
            }
        }
    } else {
        ex = fe_expr(cv, args[1], FE_RVALUE);
    }
    if (gnu && strcmp(name, "__atomic_compare_exchange") == 0) {
        /* the desired value through a pointer */
        struct fe_val q = fe_pointer(cv, args[2]);

        de = none();
        if (q.array >= 0)
            de = scalar(augur_expr_load(cv->skel, et, (uint32_t)q.array, 0, q.e));
    } else {
        de = fe_expr(cv, args[2], FE_RVALUE);
    }
    expected = value_of(cv, ex, et);
    desired = value_of(cv, de, et);
    if (expected->type != et)
        expected = augur_expr_cast(cv->skel, et, expected);
    if (desired->type != et)
        desired = augur_expr_cast(cv->skel, et, desired);
    old = fe_capture(cv, c, "cas.old", augur_expr_load(cv->skel, et, (uint32_t)p.array, 0, p.e));
    ok = fe_capture(cv, c, "cas.ok", augur_expr_binary(cv->skel, AUGUR_OP_EQ, old, expected));
    fe_access(cv, c, (uint32_t)p.array, AUGUR_ACCESS_RMW, et, 0, p.e,
              augur_expr_select(cv->skel, ok, desired, old), 1, NULL, AUGUR_ACC_ATOMIC);
    fe_count(cv, AUGUR_OPK_CMP, et, 1, false, 1, c);
    if (!clang_Cursor_isNull(exdecl))
        fe_assign_decl(cv, exdecl, c, old);
    *result = scalar(val_form ? old : ok);
    return true;
}

/* True for the compare-and-swap builtins cas_builtin() models (clang may name the __sync_ ones
   with their size: __sync_bool_compare_and_swap_4). */
static bool is_cas(const char *name)
{
    return !strcmp(name, "__atomic_compare_exchange_n") ||
           !strcmp(name, "__atomic_compare_exchange") ||
           !strncmp(name, "__sync_bool_compare_and_swap", 28) ||
           !strncmp(name, "__sync_val_compare_and_swap", 27);
}

/* __atomic_* and __sync_* builtins: an atomic access through the first argument. */
static struct fe_val atomic_builtin(struct fe_conv *cv, CXCursor c, const char *name, CXCursor ptr)
{
    struct fe_val p = fe_pointer(cv, ptr);
    bool load = strstr(name, "_load") != NULL, store = strstr(name, "_store") != NULL;
    enum augur_type t = fe_type(clang_getCursorType(c));
    struct fe_cursors kids = { 0 };

    /* the other operands, for their reads */
    fe_children(c, &kids);
    for (size_t i = 0; i < kids.n; i++)
        if (clang_isExpression(clang_getCursorKind(kids.v[i])) &&
            !clang_equalCursors(fe_strip(kids.v[i]), fe_strip(ptr)) &&
            clang_getCursorKind(fe_strip(kids.v[i])) != CXCursor_DeclRefExpr)
            fe_expr(cv, kids.v[i], FE_DISCARD);
    fe_cursors_release(&kids);
    if (p.array < 0) {
        fe_note(cv, AUGUR_NOTE_WARNING, c, "'%s' on memory that cannot be placed is left out",
                name);
        return scalar(fe_opaque(cv, t == AUGUR_T_VOID ? AUGUR_T_I32 : t, name));
    }
    {
        const struct augur_array *a = augur_skel_array(cv->b, (uint32_t)p.array);
        enum augur_type et = a->elem == AUGUR_T_REC ? AUGUR_T_U8 : a->elem;

        fe_access(cv, c, (uint32_t)p.array,
                  load    ? AUGUR_ACCESS_READ
                  : store ? AUGUR_ACCESS_WRITE
                          : AUGUR_ACCESS_RMW,
                  et, 0, p.e, NULL, 1, NULL, AUGUR_ACC_ATOMIC);
        if (load)
            return scalar(augur_expr_load(cv->skel, et, (uint32_t)p.array, 0, p.e));
        return scalar(fe_opaque(cv, t == AUGUR_T_VOID ? AUGUR_T_I32 : t, name));
    }
}

/* The first token of c (the builtin name of an AtomicExpr). */
static void first_token(struct fe_conv *cv, CXCursor c, char *out, size_t size)
{
    CXToken *toks = NULL;
    unsigned n = 0;

    out[0] = '\0';
    clang_tokenize(cv->t->tu, fe_file_extent(cv->t->tu, c), &toks, &n);
    if (n) {
        CXString s = clang_getTokenSpelling(cv->t->tu, toks[0]);

        snprintf(out, size, "%s", clang_getCString(s));
        clang_disposeString(s);
    }
    if (toks)
        clang_disposeTokens(cv->t->tu, toks, n);
}

/* e as 0 or 1: e itself when it is a comparison or a logical operation, else e != 0. */
static const struct augur_expr *truth(struct fe_conv *cv, const struct augur_expr *e)
{
    if (e->kind == AUGUR_EXPR_UNARY && e->u.un.op == AUGUR_OP_NOT)
        return e;
    if (e->kind == AUGUR_EXPR_BINARY) {
        switch (e->u.bin.op) {
        case AUGUR_OP_EQ:
        case AUGUR_OP_NE:
        case AUGUR_OP_LT:
        case AUGUR_OP_LE:
        case AUGUR_OP_GT:
        case AUGUR_OP_GE:
        case AUGUR_OP_LAND:
        case AUGUR_OP_LOR:
            return e;
        default:
            break;
        }
    }
    return augur_expr_binary(cv->skel, AUGUR_OP_NE, e, augur_expr_int(cv->skel, e->type, 0));
}

/* True when c contains an atomic builtin that stores (a compare-and-swap, a fetch-and-op). */
static bool stores_atomically(struct fe_conv *cv, CXCursor c, int depth)
{
    struct fe_cursors kids = { 0 };
    char name[64];
    bool found = false;

    if (depth > 64)
        return false;
    name[0] = '\0';
    if (is_kind(c, CXCursor_CallExpr)) {
        CXCursor callee = clang_getCursorReferenced(c);

        if (!clang_Cursor_isNull(callee))
            fe_spelling(callee, name, sizeof(name));
    } else if (is_kind(c, CXCursor_UnexposedExpr)) {
        first_token(cv, c, name, sizeof(name));
    }
    if ((!strncmp(name, "__atomic_", 9) || !strncmp(name, "__sync_", 7) ||
         !strncmp(name, "__c11_atomic_", 13)) &&
        !strstr(name, "_load") && strcmp(name, "__sync_synchronize") != 0)
        return true;
    /* CUDA's atomics (atomicCAS, atomicAdd, ...) store too */
    if (cv->t->cuda && !strncmp(name, "atomic", 6) && name[6] >= 'A' && name[6] <= 'Z')
        return true;
    fe_children(c, &kids);
    for (size_t i = 0; i < kids.n && !found; i++)
        found = stores_atomically(cv, kids.v[i], depth + 1);
    fe_cursors_release(&kids);
    return found;
}

static struct fe_val call(struct fe_conv *cv, CXCursor c)
{
    static const char *const fmath[] = {
        "exp",   "expf",   "log",    "logf",   "pow",    "powf",   "sin",    "sinf",       "cos",
        "cosf",  "tan",    "tanf",   "tanh",   "tanhf",  "exp2",   "log2",   "log10",      "cbrt",
        "erf",   "atan2",  "atan",   "asin",   "acos",   "expm1",  "log1p",  "hypot",      "fmod",
        "rsqrt", "rsqrtf", "__expf", "__logf", "__sinf", "__cosf", "__powf", "__fdividef", NULL
    };
    static const char *const fcheap[] = { "fabs",   "fabsf", "fmin", "fminf", "fmax",
                                          "fmaxf",  "floor", "ceil", "round", "trunc",
                                          "floorf", "ceilf", NULL };
    static const char *const unsup[] = {
        "setjmp",     "_setjmp",          "sigsetjmp",         "longjmp",
        "siglongjmp", "__builtin_setjmp", "__builtin_longjmp", NULL
    };
    CXCursor callee = clang_getCursorReferenced(c);
    char name[256];
    struct fe_val r = none();
    CXType rt = clang_getCanonicalType(clang_getCursorType(c));
    enum augur_type t = fe_type(rt);
    struct fe_cursors kids_unused = { 0 };
    CXCursor *def;

    if (!clang_Cursor_isNull(callee) && clang_getCursorKind(callee) == CXCursor_Constructor &&
        clang_CXXConstructor_isDefaultConstructor(callee) +
                clang_CXXConstructor_isCopyConstructor(callee) +
                clang_CXXConstructor_isMoveConstructor(callee) >
            0 &&
        clang_Cursor_getNumArguments(c) <= 1) {
        /* C++'s construction of a struct value (float3 v; a copy): no code of its own */
        fe_children(c, &kids_unused);
        for (size_t i = 0; i < kids_unused.n; i++)
            fe_expr(cv, kids_unused.v[i], FE_DISCARD);
        fe_cursors_release(&kids_unused);
        return none();
    }
    if (!clang_Cursor_isNull(callee) && clang_getCursorKind(callee) == CXCursor_CXXMethod) {
        CXCursor defn = clang_getCursorDefinition(callee);
        char mname[128];

        /* v.size(), v.empty() of a container: its element count (container_size()) */
        fe_spelling(callee, mname, sizeof(mname));
        if ((!strcmp(mname, "size") || !strcmp(mname, "empty")) && t != AUGUR_T_VOID &&
            is_kind(fe_strip(kid(c, 0)), CXCursor_MemberRefExpr) &&
            nkids(fe_strip(kid(c, 0))) == 1) {
            const struct augur_expr *size = container_size(cv, kid(fe_strip(kid(c, 0)), 0), c);

            if (size && !strcmp(mname, "empty"))
                return scalar(augur_expr_binary(cv->skel, AUGUR_OP_EQ, size,
                                                augur_expr_int(cv->skel, size->type, 0)));
            if (size)
                return scalar(size->type == t ? size : augur_expr_cast(cv->skel, t, size));
        }
        fe_spelling(callee, mname, sizeof(mname));
        /* the C++ library's methods (v.resize(n), v.push_back(x)): its code is not the kernel's */
        if (!clang_Cursor_isNull(defn) &&
            clang_Location_isInSystemHeader(clang_getCursorLocation(defn))) {
            fe_note(cv, AUGUR_NOTE_UNSUPPORTED, c,
                    "'%s', a method of the C++ library: not followed (its effect on the "
                    "container's size and contents is not known)",
                    mname);
            eval_args(cv, c);
            opaque_call(cv, c, mname);
            return scalar(fe_opaque(cv, t == AUGUR_T_VOID ? AUGUR_T_I32 : t, "call"));
        }
        /* g.degree(v), p->degree(v), degree(v) in a method: inlined on its object */
        if (is_kind(fe_strip(kid(c, 0)), CXCursor_MemberRefExpr) && !clang_Cursor_isNull(defn) &&
            fe_inline_call(cv, c, defn, &r))
            return r;
        fe_note(cv, AUGUR_NOTE_UNSUPPORTED, c,
                "C++ member call '%s' (a struct value's copy, an operator, a method without "
                "its body): not analysed",
                mname);
        opaque_call(cv, c, mname);
        return scalar(fe_opaque(cv, t == AUGUR_T_VOID ? AUGUR_T_I32 : t, "call"));
    }
    if (clang_Cursor_isNull(callee) || clang_getCursorKind(callee) != CXCursor_FunctionDecl) {
        fe_note(cv, AUGUR_NOTE_UNSUPPORTED, c,
                "call through a function pointer: the callee is not analysed");
        opaque_call(cv, c, "(function pointer)");
        return scalar(fe_opaque(cv, t == AUGUR_T_VOID ? AUGUR_T_I32 : t, "call"));
    }
    fe_spelling(callee, name, sizeof(name));
    if (!clang_Cursor_isNull(fe_identity_arg(c)))
        return fe_expr(cv, fe_identity_arg(c), FE_RVALUE);
    {
        char mname[128];

        /* AVX-512 gathers, scatters and compares are macros around __builtin_ia32_*. */
        if (!strncmp(name, "__builtin_ia32_", 15) &&
            fe_simd_macro_name(cv, c, mname, sizeof(mname)) && fe_simd_call(cv, c, mname, &r))
            return r;
    }
    if (fe_simd_call(cv, c, name, &r))
        return r;
    if (cv->t->cuda && fe_cuda_call(cv, c, name, &r))
        return r;
    if (!strcmp(name, "omp_get_thread_num"))
        return scalar(augur_expr_sym(cv->skel, AUGUR_T_I32,
                                     (uint32_t)fe_builtin(cv, "omp.thread", AUGUR_T_I32)));
    if (!strcmp(name, "omp_get_num_threads") || !strcmp(name, "omp_get_max_threads"))
        return scalar(augur_expr_sym(cv->skel, AUGUR_T_I32,
                                     (uint32_t)fe_builtin(cv, "omp.nthreads", AUGUR_T_I32)));
    if (name_in(name, unsup)) {
        fe_note(cv, AUGUR_NOTE_UNSUPPORTED, c,
                "'%s' is not supported: control flow through it is "
                "not followed",
                name);
        opaque_call(cv, c, name);
        return scalar(fe_opaque(cv, AUGUR_T_I32, name));
    }
    if (!strcmp(name, "sqrt") || !strcmp(name, "sqrtf")) {
        eval_args(cv, c);
        fe_count(cv, AUGUR_OPK_FSQRT, t, 1, false, 1, c);
        return scalar(fe_opaque(cv, t, name));
    }
    if (name_in(name, fmath) || name_in(name, fcheap)) {
        eval_args(cv, c);
        fe_count(cv, name_in(name, fmath) ? AUGUR_OPK_FMATH : AUGUR_OPK_CMP, t, 1, false, 1, c);
        return scalar(fe_opaque(cv, t, name));
    }
    if ((!strcmp(name, "abs") || !strcmp(name, "labs")) && clang_Cursor_getNumArguments(c) == 1) {
        const struct augur_expr *a =
            value_of(cv, fe_expr(cv, clang_Cursor_getArgument(c, 0), FE_RVALUE), t);

        fe_count(cv, AUGUR_OPK_CMP, t, 1, false, 1, c);
        return scalar(augur_expr_binary(cv->skel, AUGUR_OP_MAX, a,
                                        augur_expr_unary(cv->skel, AUGUR_OP_NEG, a)));
    }
    if (fe_is_free(cv, c, name))
        return none();
    if (fe_is_io(name) && !fe_map_get(&cv->t->funcs, name)) {
        /* output, input parsing and clocks: no kernel data; one note says so */
        if (!cv->io_noted && cv->final)
            fe_note(cv, AUGUR_NOTE_WARNING, c, "I/O and timing calls are left out ('%s', ...)",
                    name);
        cv->io_noted = cv->io_noted || cv->final;
        return scalar(fe_opaque(cv, t == AUGUR_T_VOID || t == AUGUR_T_REC ? AUGUR_T_I32 : t, name));
    }
    if (is_cas(name)) {
        CXCursor args[8];
        int na = clang_Cursor_getNumArguments(c);

        for (int i = 0; i < na && i < 8; i++)
            args[i] = clang_Cursor_getArgument(c, (unsigned)i);
        if (na > 0 && cas_builtin(cv, c, name, args, (size_t)(na < 8 ? na : 8), &r))
            return r;
    }
    if (!strncmp(name, "__sync_", 7) || !strncmp(name, "__atomic_", 9))
        return atomic_builtin(cv, c, name, clang_Cursor_getArgument(c, 0));
    if ((!strcmp(name, "memcpy") || !strcmp(name, "memmove") || !strcmp(name, "memset")) &&
        clang_Cursor_getNumArguments(c) == 3) {
        bool set = !strcmp(name, "memset");
        struct fe_val dst = fe_pointer(cv, clang_Cursor_getArgument(c, 0));
        struct fe_val src = set ? none() : fe_pointer(cv, clang_Cursor_getArgument(c, 1));
        struct fe_val n = fe_expr(cv, clang_Cursor_getArgument(c, 2), FE_RVALUE);

        const struct augur_expr *fill = NULL;

        if (set) {
            struct fe_val b = fe_expr(cv, clang_Cursor_getArgument(c, 1), FE_RVALUE);

            if (dst.array >= 0 && b.e && b.e->kind == AUGUR_EXPR_INT)
                fill = memset_value(cv, augur_skel_array(cv->b, (uint32_t)dst.array), b.e->u.i);
        }
        if (dst.array < 0 || (!set && src.array < 0)) {
            fe_note(cv, AUGUR_NOTE_WARNING, c,
                    "'%s' between arrays that cannot be placed is left out", name);
            return none();
        }
        copy_loop(cv, c, dst, src, value_of(cv, n, AUGUR_T_I64), fill);
        return dst;
    }
    def = fe_map_get(&cv->t->funcs, name);
    if (def && fe_inline_call(cv, c, *def, &r))
        return r;
    if (!def)
        fe_note(cv, AUGUR_NOTE_WARNING, c,
                "call to '%s' is not analysed (its body is not in this file)", name);
    opaque_call(cv, c, name);
    return scalar(fe_opaque(cv, t == AUGUR_T_VOID ? AUGUR_T_I32 : t, name));
}

/* ---- the expression walk ------------------------------------------------------------------------
 */

/* Folds a constant expression with clang's evaluator. */
static bool constant(struct fe_conv *cv, CXCursor c, struct fe_val *out)
{
    CXEvalResult r;
    CXType t = clang_getCanonicalType(clang_getCursorType(c));
    enum augur_type at = fe_type(t);
    bool ok = false;

    if (at == AUGUR_T_VOID || at == AUGUR_T_REC || at == AUGUR_T_PTR)
        return false;
    r = clang_Cursor_Evaluate(c);
    if (!r)
        return false;
    switch (clang_EvalResult_getKind(r)) {
    case CXEval_Int:
        if (augur_type_is_float(at))
            *out = scalar(augur_expr_fp(cv->skel, at, (double)clang_EvalResult_getAsLongLong(r)));
        else if (clang_EvalResult_isUnsignedInt(r))
            *out = scalar(augur_expr_int(cv->skel, at, (int64_t)clang_EvalResult_getAsUnsigned(r)));
        else
            *out = scalar(augur_expr_int(cv->skel, at, clang_EvalResult_getAsLongLong(r)));
        ok = true;
        break;
    case CXEval_Float:
        if (augur_type_is_float(at)) {
            *out = scalar(augur_expr_fp(cv->skel, at, clang_EvalResult_getAsDouble(r)));
            ok = true;
        }
        break;
    default:
        break;
    }
    clang_EvalResult_dispose(r);
    return ok;
}

static bool may_be_constant(enum CXCursorKind k)
{
    return k == CXCursor_BinaryOperator || k == CXCursor_UnaryOperator || k == CXCursor_ParenExpr ||
           k == CXCursor_CStyleCastExpr || k == CXCursor_UnaryExpr ||
           k == CXCursor_ConditionalOperator || k == CXCursor_DeclRefExpr ||
           k == CXCursor_IntegerLiteral || k == CXCursor_FloatingLiteral ||
           k == CXCursor_CharacterLiteral || k == CXCursor_CXXBoolLiteralExpr ||
           k == CXCursor_UnexposedExpr;
}

/* True when the subtree has no side effects worth keeping (no calls, assignments or accesses). */
static enum CXChildVisitResult pure_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    enum CXCursorKind k = clang_getCursorKind(c);

    (void)parent;
    if (k == CXCursor_CallExpr || k == CXCursor_ArraySubscriptExpr ||
        k == CXCursor_CompoundAssignOperator || k == CXCursor_UnaryOperator ||
        k == CXCursor_MemberRefExpr || k == CXCursor_BinaryOperator) {
        /* Operators might be assignments or dereferences: let clang's evaluator decide. */
        if (k == CXCursor_CallExpr || k == CXCursor_ArraySubscriptExpr ||
            k == CXCursor_CompoundAssignOperator) {
            *(bool *)data = false;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

static bool side_effect_free(CXCursor c)
{
    bool pure = true;
    enum CXCursorKind k = clang_getCursorKind(c);

    if (k == CXCursor_CallExpr || k == CXCursor_ArraySubscriptExpr ||
        k == CXCursor_CompoundAssignOperator)
        return false;
    clang_visitChildren(c, pure_visit, &pure);
    return pure;
}

static struct fe_val expr(struct fe_conv *cv, CXCursor c, enum fe_ctx ctx, int depth);

static struct fe_val expr_at(struct fe_conv *cv, CXCursor c, int depth)
{
    return expr(cv, c, FE_RVALUE, depth);
}

static struct fe_val expr(struct fe_conv *cv, CXCursor c, enum fe_ctx ctx, int depth)
{
    enum CXCursorKind k;
    CXType t;
    enum augur_type at;
    struct fe_val v;

    if (clang_Cursor_isNull(c))
        return none();
    if (depth > MAX_DEPTH) {
        fe_note(cv, AUGUR_NOTE_UNSUPPORTED, c,
                "expression nested too deeply: its value is left out");
        return scalar(fe_opaque(cv, AUGUR_T_I64, "deep expression"));
    }
    c = fe_strip_implicit(c);
    k = clang_getCursorKind(c);
    t = clang_getCanonicalType(clang_getCursorType(c));
    at = fe_type(t);
    if (may_be_constant(k) && k != CXCursor_DeclRefExpr && side_effect_free(c) &&
        constant(cv, c, &v))
        return v;
    switch (k) {
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_FloatingLiteral:
    case CXCursor_CXXBoolLiteralExpr:
        if (constant(cv, c, &v))
            return v;
        return scalar(fe_opaque(cv, at, "literal"));
    case CXCursor_ParenExpr:
        return expr(cv, kid(c, 0), ctx, depth + 1);
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(c);

        if (clang_getCursorKind(d) == CXCursor_VarDecl && !is_param_of(cv, d) &&
            clang_isConstQualifiedType(clang_getCursorType(d)) && constant(cv, c, &v))
            return v;
        if (clang_getCursorKind(d) == CXCursor_VarDecl && fe_var(cv, d)->ref) {
            /* a reference to an element: a read of the element */
            struct fe_val where = decl_ref(cv, c);

            if (where.array >= 0 && at != AUGUR_T_VOID && at != AUGUR_T_REC) {
                fe_access(cv, c, (uint32_t)where.array, AUGUR_ACCESS_READ, at, 0, where.e, NULL, 1,
                          NULL, 0);
                return scalar(augur_expr_load(cv->skel, at, (uint32_t)where.array, 0, where.e));
            }
        }
        return decl_ref(cv, c);
    }
    case CXCursor_MemberRefExpr: {
        int32_t b = cv->t->cuda ? fe_cuda_builtin(cv, c) : -1;
        char path[512];
        CXCursor root;

        if (b >= 0)
            return scalar(
                augur_expr_sym(cv->skel, augur_skel_sym(cv->b, (uint32_t)b)->type, (uint32_t)b));
        if (t.kind == CXType_Pointer || t.kind == CXType_ConstantArray)
            return fe_pointer(cv, c);
        if (member_path(cv, c, path, sizeof(path), &root) &&
            (is_param_of(cv, root) || is_global(root)) && at != AUGUR_T_VOID && at != AUGUR_T_REC &&
            one_member(path)) {
            int32_t s = augur_skel_find_sym(cv->b, path);

            if (s < 0)
                s = fe_declare_sym(cv, clang_getCursorReferenced(c), path, AUGUR_SYM_PARAM, at);
            return scalar(
                augur_expr_sym(cv->skel, augur_skel_sym(cv->b, (uint32_t)s)->type, (uint32_t)s));
        }
    }
        /* fallthrough - a field of an element */
    case CXCursor_ArraySubscriptExpr: {
        uint32_t off = 0;
        enum augur_type et;
        struct fe_val where;

        if (k == CXCursor_ArraySubscriptExpr && t.kind == CXType_ConstantArray)
            return fe_pointer(cv, c);
        where = fe_lvalue(cv, c, &off, &et);
        if (where.array < 0) {
            /* a pointer element (argv[1]) is an address, not data the kernel works on */
            if (k == CXCursor_ArraySubscriptExpr && t.kind != CXType_Pointer)
                fe_note(cv, AUGUR_NOTE_UNSUPPORTED, c,
                        "cannot tell which array this element lies in (a subscript of a pointer "
                        "loaded from memory, such as p[j][i]): the load is left out");
            if (k == CXCursor_MemberRefExpr && nkids(c) == 1)
                expr_at(cv, kid(c, 0), depth + 1);
            return scalar(fe_opaque(cv, at == AUGUR_T_VOID || at == AUGUR_T_REC ? AUGUR_T_I64 : at,
                                    "element"));
        }
        if (at == AUGUR_T_VOID && t.kind == CXType_Unexposed) {
            /* src[i] of a helper template's T *src: the array the argument named gives T */
            const struct augur_array *A = augur_skel_array(cv->b, (uint32_t)where.array);

            if (A->elem != AUGUR_T_REC && A->elem != AUGUR_T_VOID)
                at = et = A->elem;
        }
        if (at == AUGUR_T_VOID || at == AUGUR_T_REC) {
            fe_note(cv, AUGUR_NOTE_WARNING, c, "a whole-struct copy is not counted as an access");
            return none();
        }
        fe_access(cv, c, (uint32_t)where.array, AUGUR_ACCESS_READ, et, off, where.e, NULL, 1, NULL,
                  0);
        return scalar(augur_expr_load(
            cv->skel, at, (uint32_t)where.array,
            off + augur_type_size(at) <= augur_skel_array(cv->b, (uint32_t)where.array)->elem_size
                ? off
                : 0,
            where.e));
    }
    case CXCursor_UnaryOperator: {
        const char *op = fe_opmap_get(cv->t, &cv->opmap, c);
        CXCursor a = kid(c, 0);

        if (!op) {
            fe_note(cv, AUGUR_NOTE_WARNING, c,
                    "cannot read this operator (macro?): its value is "
                    "left out");
            expr_at(cv, a, depth + 1);
            return scalar(fe_opaque(cv, at == AUGUR_T_VOID ? AUGUR_T_I64 : at, "operator"));
        }
        if (!strcmp(op, "++") || !strcmp(op, "--"))
            return assign(cv, c, a, op, clang_getNullCursor(),
                          fe_opmap_postfix(cv->t, &cv->opmap, c));
        if (!strcmp(op, "&"))
            return fe_pointer(cv, c);
        if (!strcmp(op, "*")) {
            uint32_t off = 0;
            enum augur_type et;
            struct fe_val where = fe_lvalue(cv, c, &off, &et);

            if (where.array < 0 || at == AUGUR_T_VOID || at == AUGUR_T_REC)
                return scalar(fe_opaque(cv, AUGUR_T_I64, "dereference"));
            fe_access(cv, c, (uint32_t)where.array, AUGUR_ACCESS_READ, et, 0, where.e, NULL, 1,
                      NULL, 0);
            return scalar(augur_expr_load(cv->skel, at, (uint32_t)where.array, 0, where.e));
        }
        v = expr_at(cv, a, depth + 1);
        if (v.vec)
            return v;
        if (!strcmp(op, "+"))
            return v;
        if (!strcmp(op, "!") && v.array >= 0) /* "if (!p)" on a placed array: never null */
            return scalar(augur_expr_int(cv->skel, AUGUR_T_I32, 0));
        {
            enum augur_op uop = !strcmp(op, "-")   ? AUGUR_OP_NEG
                                : !strcmp(op, "!") ? AUGUR_OP_NOT
                                                   : AUGUR_OP_BNOT;
            const struct augur_expr *e = value_of(cv, v, at);

            count_op(cv, uop, e->type, e->type, c);
            return scalar(augur_expr_unary(cv->skel, uop, e));
        }
    }
    case CXCursor_BinaryOperator: {
        const char *op = fe_opmap_get(cv->t, &cv->opmap, c);
        CXCursor l = kid(c, 0), r = kid(c, 1);
        enum augur_op bop;
        struct fe_val a, b;

        if (!op) {
            fe_note(cv, AUGUR_NOTE_WARNING, c,
                    "cannot read this operator (macro?): its value is "
                    "left out");
            expr_at(cv, l, depth + 1);
            expr_at(cv, r, depth + 1);
            return scalar(fe_opaque(cv, at == AUGUR_T_VOID ? AUGUR_T_I64 : at, "operator"));
        }
        if (!strcmp(op, "="))
            return assign(cv, c, l, op, r, false);
        if (!strcmp(op, ","))
            return expr_at(cv, l, depth + 1), expr(cv, r, ctx, depth + 1);
        if (binop_of(op, &bop) != 0)
            return scalar(fe_opaque(cv, at, "operator"));
        if (t.kind == CXType_Pointer)
            return fe_pointer(cv, c);
        a = expr_at(cv, l, depth + 1);
        if (bop == AUGUR_OP_LAND || bop == AUGUR_OP_LOR) {
            /* The right side runs only when the left allows it. */
            struct guard g = { NULL, 0 };
            const struct augur_expr *ae = value_of(cv, a, AUGUR_T_I32), *cs;

            if (stores_atomically(cv, r, 0)) {
                /*
                 * "level[v] == INF && CAS(&level[v], ...)": the right side stores into what
                 * the left read, so the value is kept in a sym, set before the store:
                 * set cond = left; if (cond) { ...; set cond = right != 0 }.
                 */
                cs = fe_capture(cv, c, "cond", truth(cv, ae));
                guard_open(cv, &g,
                           bop == AUGUR_OP_LAND ? cs : augur_expr_unary(cv->skel, AUGUR_OP_NOT, cs),
                           c);
                b = expr_at(cv, r, depth + 1);
                {
                    struct augur_node *n = augur_skel_leaf(cv->b, AUGUR_NODE_ASSIGN, fe_loc(cv, r));

                    n->u.assign.sym = cs->u.sym;
                    n->u.assign.value = truth(cv, value_of(cv, b, AUGUR_T_I32));
                }
                guard_close(cv, &g);
                return scalar(cs);
            }
            guard_open(cv, &g,
                       bop == AUGUR_OP_LAND ? ae : augur_expr_unary(cv->skel, AUGUR_OP_NOT, ae), c);
            b = expr_at(cv, r, depth + 1);
            guard_close(cv, &g);
            return scalar(augur_expr_binary(cv->skel, bop, ae, value_of(cv, b, AUGUR_T_I32)));
        }
        b = expr_at(cv, r, depth + 1);
        if (a.array >= 0 && b.array >= 0 && a.array == b.array) {
            /* pointer difference or comparison: compare the offsets */
            return scalar(augur_expr_binary(cv->skel, bop, a.e, b.e));
        }
        if (a.vec || b.vec)
            return scalar(fe_opaque(cv, at, "vector"));
        return scalar(arith(cv, bop, value_of(cv, a, at), value_of(cv, b, at), c));
    }
    case CXCursor_CompoundAssignOperator: {
        const char *op = fe_opmap_get(cv->t, &cv->opmap, c);

        if (!op) {
            fe_note(cv, AUGUR_NOTE_WARNING, c,
                    "cannot read this operator (macro?): its value is "
                    "left out");
            expr_at(cv, kid(c, 1), depth + 1);
            return none();
        }
        return assign(cv, c, kid(c, 0), op, kid(c, 1), false);
    }
    case CXCursor_ConditionalOperator: {
        struct fe_val cnd = expr_at(cv, kid(c, 0), depth + 1), a, b;
        const struct augur_expr *ce = value_of(cv, cnd, AUGUR_T_I32);
        struct augur_node *br;

        if (t.kind == CXType_Pointer) {
            fe_note(cv, AUGUR_NOTE_WARNING, c, "a pointer chosen at run time is not followed");
            return none();
        }
        br = augur_skel_open(cv->b, AUGUR_NODE_BRANCH, fe_loc(cv, c));
        br->u.branch.cond = ce;
        a = expr_at(cv, kid(c, 1), depth + 1);
        fe_forget_reads(cv);
        br->u.branch.nthen = augur_skel_nkids(cv->b);
        b = expr_at(cv, kid(c, 2), depth + 1);
        augur_skel_close(cv->b);
        if (br->nkids == 0)
            augur_skel_drop_last(cv->b);
        fe_forget_reads(cv);
        if (a.vec == b.vec && a.mask == b.mask && (a.vec || a.mask) && a.e && b.e &&
            a.type == b.type) {
            /* c ? v : w of two vectors: each lane chooses (the halves of a 512-bit vector) */
            struct fe_val chosen = a;

            chosen.e = augur_expr_select(cv->skel, ce, a.e, b.e);
            chosen.lanes = a.lanes > b.lanes ? a.lanes : b.lanes;
            return chosen;
        }
        if (a.vec || b.vec)
            return scalar(fe_opaque(cv, at, "vector"));
        return scalar(augur_expr_select(cv->skel, ce, value_of(cv, a, at), value_of(cv, b, at)));
    }
    case CXCursor_CStyleCastExpr: {
        CXCursor e = expr_kid(c);

        if (t.kind == CXType_Pointer)
            return fe_pointer(cv, c);
        v = expr_at(cv, e, depth + 1);
        if (v.vec || v.mask || at == AUGUR_T_VOID || !v.e)
            return v;
        if (augur_type_is_float(at) != augur_type_is_float(v.e->type))
            fe_count(cv, AUGUR_OPK_CVT, at, 1, false, 1, c);
        return scalar(v.e->type == at ? v.e : augur_expr_cast(cv->skel, at, v.e));
    }
    case CXCursor_CallExpr: {
        bool outer = cv->discard;
        struct fe_val r;

        if (!clang_Cursor_isNull(fe_container_subscript(c))) {
            uint32_t off = 0;
            enum augur_type et;
            struct fe_val where = fe_lvalue(cv, c, &off, &et);

            if (where.array < 0 || at == AUGUR_T_VOID || at == AUGUR_T_REC) {
                fe_note(cv, AUGUR_NOTE_UNSUPPORTED, c,
                        "an element of a container that is no parameter, global or member of "
                        "one, nor a local made with its size: the load is left out");
                return scalar(fe_opaque(
                    cv, at == AUGUR_T_VOID || at == AUGUR_T_REC ? AUGUR_T_I64 : at, "element"));
            }
            fe_access(cv, c, (uint32_t)where.array, AUGUR_ACCESS_READ, et, 0, where.e, NULL, 1,
                      NULL, 0);
            return scalar(augur_expr_load(cv->skel, at, (uint32_t)where.array, 0, where.e));
        }
        cv->discard = ctx == FE_DISCARD;
        r = call(cv, c);
        cv->discard = outer;
        return r;
    }
    case CXCursor_UnaryExpr:
        if (constant(cv, c, &v))
            return v;
        return scalar(fe_opaque(cv, at, "sizeof"));
    case CXCursor_UnexposedExpr: {
        struct fe_cursors kids = { 0 };
        char first[64];

        /* __atomic_load_n(&a[i], ...) and friends are AtomicExprs */
        first_token(cv, c, first, sizeof(first));
        if (!strncmp(first, "__atomic_", 9) || !strncmp(first, "__c11_atomic_", 13)) {
            CXCursor ptr = clang_getNullCursor();

            if (is_cas(first)) {
                /* the operands in source order */
                CXCursor args[8];
                size_t na = 0;
                struct fe_val r;

                fe_children(c, &kids);
                for (size_t i = 0; i < kids.n && na < 8; i++) {
                    size_t j = na++;

                    if (!clang_isExpression(clang_getCursorKind(kids.v[i]))) {
                        na--;
                        continue;
                    }
                    while (j > 0 && start_offset(cv, args[j - 1]) > start_offset(cv, kids.v[i])) {
                        args[j] = args[j - 1];
                        j--;
                    }
                    args[j] = kids.v[i];
                }
                fe_cursors_release(&kids);
                if (cas_builtin(cv, c, first, args, na, &r))
                    return r;
            }
            fe_children(c, &kids);
            for (size_t i = 0; i < kids.n && clang_Cursor_isNull(ptr); i++)
                if (clang_getCanonicalType(clang_getCursorType(fe_strip(kids.v[i]))).kind ==
                    CXType_Pointer)
                    ptr = kids.v[i];
            fe_cursors_release(&kids);
            if (!clang_Cursor_isNull(ptr))
                return atomic_builtin(cv, c, first, ptr);
        }
        fe_children(c, &kids);
        for (size_t i = 0; i < kids.n; i++)
            expr_at(cv, kids.v[i], depth + 1);
        fe_cursors_release(&kids);
        return scalar(fe_opaque(cv, at == AUGUR_T_VOID || at == AUGUR_T_REC ? AUGUR_T_I64 : at,
                                "expression"));
    }
    case CXCursor_StringLiteral:
        return none();
    default: {
        struct fe_cursors kids = { 0 };

        fe_children(c, &kids);
        for (size_t i = 0; i < kids.n; i++)
            if (clang_isExpression(clang_getCursorKind(kids.v[i])))
                expr_at(cv, kids.v[i], depth + 1);
        fe_cursors_release(&kids);
        return scalar(fe_opaque(cv, at == AUGUR_T_VOID || at == AUGUR_T_REC ? AUGUR_T_I64 : at,
                                "expression"));
    }
    }
}

struct fe_val fe_expr(struct fe_conv *cv, CXCursor c, enum fe_ctx ctx)
{
    (void)ctx;
    return expr(cv, c, ctx, 0);
}
