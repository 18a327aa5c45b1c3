/*
 * fe_cuda.c - CUDA: the shipped shim header, thread and block indices as
 * builtin syms, barriers, read-only loads and atomics (module: frontend).
 */
#include <string.h>

#include "cuda_shim.h"
#include "fe_int.h"

const char *const fe_cuda_shim_text = fe_cuda_shim_body;

int32_t fe_cuda_builtin(struct fe_conv *cv, CXCursor member)
{
    static const char *const vars[] = { "threadIdx", "blockIdx", "blockDim", "gridDim", NULL };
    struct fe_cursors kids = { 0 };
    char field[16], var[32], name[64];
    CXCursor base, decl;
    int32_t r = -1;

    fe_spelling(member, field, sizeof(field));
    if (strcmp(field, "x") && strcmp(field, "y") && strcmp(field, "z"))
        return -1;
    fe_children(member, &kids);
    if (kids.n == 1) {
        base = fe_strip(kids.v[0]);
        if (clang_getCursorKind(base) == CXCursor_DeclRefExpr) {
            decl = clang_getCursorReferenced(base);
            fe_spelling(decl, var, sizeof(var));
            /*
             * the shim's declarations, which live in no file of the user, or a
             * file-scope extern one of the user's own (--no-shim): not a local
             * variable that happens to have the name
             */
            bool builtin = !fe_in_kernel_file(cv->t, decl) ||
                           (clang_getCursorKind(clang_getCursorSemanticParent(decl)) ==
                                CXCursor_TranslationUnit &&
                            clang_Cursor_getStorageClass(decl) == CX_SC_Extern);

            for (int i = 0; vars[i]; i++)
                if (!strcmp(var, vars[i]) && builtin) {
                    snprintf(name, sizeof(name), "%s.%s", var, field);
                    r = fe_builtin(cv, name, AUGUR_T_U32);
                }
        }
    }
    fe_cursors_release(&kids);
    return r;
}

static struct fe_val sval(const struct augur_expr *e)
{
    struct fe_val v = { e, -1, false, false, 1, AUGUR_T_VOID };

    return v;
}

/* atomicAdd(&a[i], v) and friends: an atomic read-modify-write of a[i]. */
static bool atomic(struct fe_conv *cv, CXCursor call, const char *name, struct fe_val *result)
{
    static const struct {
        const char *name;
        int kind; /* 0 add, 1 sub, 2 exch, 3 min, 4 max, 5 and, 6 or, 7 xor, 8 cas, 9 inc/dec */
    } tab[] = { { "atomicAdd", 0 }, { "atomicSub", 1 }, { "atomicExch", 2 }, { "atomicMin", 3 },
                { "atomicMax", 4 }, { "atomicAnd", 5 }, { "atomicOr", 6 },   { "atomicXor", 7 },
                { "atomicCAS", 8 }, { "atomicInc", 9 }, { "atomicDec", 9 } };
    int n = clang_Cursor_getNumArguments(call), kind = -1;
    bool used = !cv->discard;
    struct fe_val p, v, c = sval(NULL);
    const struct augur_array *arr;
    const struct augur_expr *old, *ret, *nv = NULL, *ve;
    enum augur_type t;

    for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
        if (!strcmp(name, tab[i].name))
            kind = tab[i].kind;
    if (kind < 0 || n < 2)
        return false;
    p = fe_pointer(cv, clang_Cursor_getArgument(call, 0));
    if (kind == 8 && n == 3)
        c = fe_expr(cv, clang_Cursor_getArgument(call, 1), FE_RVALUE);
    v = fe_expr(cv, clang_Cursor_getArgument(call, (unsigned)(kind == 8 ? 2 : 1)), FE_RVALUE);
    if (p.array < 0) {
        fe_note(cv, AUGUR_NOTE_WARNING, call, "'%s' on memory that cannot be placed is left out",
                name);
        *result = sval(fe_opaque(cv, AUGUR_T_I32, name));
        return true;
    }
    arr = augur_skel_array(cv->b, (uint32_t)p.array);
    t = arr->elem == AUGUR_T_REC ? AUGUR_T_U8 : arr->elem;
    /*
     * The value before the update, which the call returns, read before it
     * stores (a sym the slice drops when the return value is not used); the
     * update's own value reads the element.
     */
    old = augur_expr_load(cv->skel, t, (uint32_t)p.array, 0, p.e);
    ret = used ? fe_capture(cv, call, "atomic.old", old) : NULL;
    ve = v.e && v.array < 0 && !v.vec ? v.e : fe_opaque(cv, t, "value");
    switch (kind) {
    case 0:
        nv = augur_expr_binary(cv->skel, AUGUR_OP_ADD, old, ve);
        break;
    case 1:
        nv = augur_expr_binary(cv->skel, AUGUR_OP_SUB, old, ve);
        break;
    case 2:
        nv = ve;
        break;
    case 3:
        nv = augur_expr_binary(cv->skel, AUGUR_OP_MIN, old, ve);
        break;
    case 4:
        nv = augur_expr_binary(cv->skel, AUGUR_OP_MAX, old, ve);
        break;
    case 5:
        nv = augur_expr_binary(cv->skel, AUGUR_OP_BAND, old, ve);
        break;
    case 6:
        nv = augur_expr_binary(cv->skel, AUGUR_OP_BOR, old, ve);
        break;
    case 7:
        nv = augur_expr_binary(cv->skel, AUGUR_OP_BXOR, old, ve);
        break;
    case 8:
        nv = augur_expr_select(
            cv->skel,
            augur_expr_binary(cv->skel, AUGUR_OP_EQ, old,
                              c.e && c.array < 0 ? c.e : fe_opaque(cv, t, "compare")),
            ve, old);
        break;
    default:
        nv = fe_opaque(cv, t, name);
        break;
    }
    if (nv->type != t)
        nv = augur_expr_cast(cv->skel, t, nv);
    fe_access(cv, call, (uint32_t)p.array, AUGUR_ACCESS_RMW, t, 0, p.e, nv, 1, NULL,
              AUGUR_ACC_ATOMIC);
    fe_count(cv, augur_type_is_float(t) ? AUGUR_OPK_FADD : AUGUR_OPK_IADD, t, 1, false, 1, call);
    *result = sval(ret);
    return true;
}

/*
 * tex1Dfetch(tex, i): element i of the array the texture is bound to, read
 * through the read-only cache as __ldg reads. The array is named after the
 * texture reference (a file-scope texture<T>) or object (a parameter); the
 * host's cudaBindTexture is not read, so it is bound as any array is.
 */
static bool texture_fetch(struct fe_conv *cv, CXCursor call, struct fe_val *result)
{
    CXCursor tex = fe_strip(clang_Cursor_getArgument(call, 0)), decl;

    /* a texture reference passed by value: its copy construction holds the reference */
    for (int depth = 0; depth < 4 && clang_getCursorKind(tex) == CXCursor_CallExpr; depth++) {
        struct fe_cursors kids = { 0 };

        fe_children(tex, &kids);
        if (kids.n == 1)
            tex = fe_strip(kids.v[0]);
        fe_cursors_release(&kids);
        if (kids.n != 1)
            break;
    }
    CXType t = clang_getCursorType(call);
    enum augur_type et = fe_type(t);
    char name[128];
    struct fe_val ix;
    int32_t a;

    if (clang_getCursorKind(tex) != CXCursor_DeclRefExpr || et == AUGUR_T_VOID || et == AUGUR_T_REC)
        return false;
    decl = clang_getCursorReferenced(tex);
    if (clang_getCursorKind(decl) != CXCursor_VarDecl &&
        clang_getCursorKind(decl) != CXCursor_ParmDecl)
        return false;
    fe_spelling(decl, name, sizeof(name));
    a = fe_array_for(cv, decl, name, t, AUGUR_SPACE_GLOBAL,
                     clang_getCursorKind(decl) == CXCursor_ParmDecl, call);
    if (a < 0)
        return false;
    ix = fe_expr(cv, clang_Cursor_getArgument(call, 1), FE_RVALUE);
    fe_access(cv, call, (uint32_t)a, AUGUR_ACCESS_READ, et, 0, ix.e, NULL, 1, NULL, AUGUR_ACC_LDG);
    *result = sval(augur_expr_load(cv->skel, et, (uint32_t)a, 0, ix.e));
    return true;
}

bool fe_cuda_call(struct fe_conv *cv, CXCursor call, const char *name, struct fe_val *result)
{
    static const struct {
        const char *name;
        enum augur_sync_kind kind;
    } syncs[] = {
        { "__syncthreads", AUGUR_SYNC_THREADS },     { "__syncthreads_count", AUGUR_SYNC_THREADS },
        { "__syncthreads_and", AUGUR_SYNC_THREADS }, { "__syncthreads_or", AUGUR_SYNC_THREADS },
        { "__syncwarp", AUGUR_SYNC_WARP },           { "__threadfence", AUGUR_SYNC_FENCE },
        { "__threadfence_block", AUGUR_SYNC_FENCE }, { "__threadfence_system", AUGUR_SYNC_FENCE }
    };
    int n = clang_Cursor_getNumArguments(call);

    for (size_t i = 0; i < sizeof(syncs) / sizeof(syncs[0]); i++) {
        if (strcmp(name, syncs[i].name) == 0) {
            struct augur_node *s;

            for (int a = 0; a < n; a++)
                fe_expr(cv, clang_Cursor_getArgument(call, (unsigned)a), FE_DISCARD);
            fe_flush_ops(cv);
            s = augur_skel_leaf(cv->b, AUGUR_NODE_SYNC, fe_loc(cv, call));
            s->u.sync = syncs[i].kind;
            fe_forget_reads(cv);
            *result = sval(NULL);
            return true;
        }
    }
    if (!strcmp(name, "__ldg") && n == 1) {
        CXCursor arg = clang_Cursor_getArgument(call, 0);
        CXType at = clang_getCanonicalType(clang_getCursorType(fe_strip(arg)));
        enum augur_type t = fe_type(clang_getCursorType(call));

        if (at.kind == CXType_Pointer) {
            struct fe_val p = fe_pointer(cv, arg);

            if (p.array >= 0) {
                const struct augur_array *arr = augur_skel_array(cv->b, (uint32_t)p.array);
                enum augur_type et = arr->elem == AUGUR_T_REC ? t : arr->elem;

                fe_access(cv, call, (uint32_t)p.array, AUGUR_ACCESS_READ, et, 0, p.e, NULL, 1, NULL,
                          AUGUR_ACC_LDG);
                *result = sval(augur_expr_load(cv->skel, et, (uint32_t)p.array, 0, p.e));
            } else {
                *result = sval(fe_opaque(cv, t, "__ldg"));
            }
        } else {
            /* __ldg(a[i]) as some papers write it: the outermost load goes through the cache */
            struct augur_node *before = cv->last_access;

            *result = fe_expr(cv, arg, FE_RVALUE);
            if (cv->last_access != before && cv->last_access &&
                cv->last_access->u.access.mode == AUGUR_ACCESS_READ)
                cv->last_access->u.access.flags |= AUGUR_ACC_LDG;
        }
        return true;
    }
    if (!strcmp(name, "tex1Dfetch") && n == 2 && texture_fetch(cv, call, result))
        return true;
    if (!strncmp(name, "make_", 5) && clang_getCursorType(call).kind != CXType_Invalid &&
        fe_type(clang_getCursorType(call)) == AUGUR_T_REC) {
        /* make_float4(...) and friends: a vector value built from its arguments */
        for (int a = 0; a < n; a++)
            fe_expr(cv, clang_Cursor_getArgument(call, (unsigned)a), FE_DISCARD);
        *result = sval(NULL);
        return true;
    }
    if (!strncmp(name, "atomic", 6))
        return atomic(cv, call, name, result);
    if ((!strcmp(name, "min") || !strcmp(name, "max") || !strcmp(name, "umin") ||
         !strcmp(name, "umax")) &&
        n == 2) {
        struct fe_val a = fe_expr(cv, clang_Cursor_getArgument(call, 0), FE_RVALUE);
        struct fe_val b = fe_expr(cv, clang_Cursor_getArgument(call, 1), FE_RVALUE);
        enum augur_type t = fe_type(clang_getCursorType(call));

        fe_count(cv, AUGUR_OPK_CMP, t, 1, false, 1, call);
        if (!a.e || !b.e || a.array >= 0 || b.array >= 0) {
            *result = sval(fe_opaque(cv, t, name));
            return true;
        }
        *result = sval(augur_expr_binary(
            cv->skel, strstr(name, "min") ? AUGUR_OP_MIN : AUGUR_OP_MAX, a.e, b.e));
        return true;
    }
    if (!strncmp(name, "__shfl", 6) || !strncmp(name, "__ballot", 8) ||
        !strncmp(name, "__all", 5) || !strncmp(name, "__any", 5)) {
        enum augur_type t = fe_type(clang_getCursorType(call));

        for (int a = 0; a < n; a++)
            fe_expr(cv, clang_Cursor_getArgument(call, (unsigned)a), FE_DISCARD);
        fe_count(cv, AUGUR_OPK_PERM, t == AUGUR_T_VOID ? AUGUR_T_I32 : t, 32, false, 1, call);
        *result = sval(fe_opaque(cv, t, name));
        return true;
    }
    if (!strncmp(name, "cuda", 4)) {
        /* runtime calls in device code (rare): evaluated for their arguments */
        for (int a = 0; a < n; a++)
            fe_expr(cv, clang_Cursor_getArgument(call, (unsigned)a), FE_DISCARD);
        *result = sval(fe_opaque(cv, AUGUR_T_I32, name));
        return true;
    }
    return false;
}
