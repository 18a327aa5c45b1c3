/*
 * interp_eval.c - values of the skeleton interpreter: normalising and
 * converting typed integers and floats, reading and writing elements, and a
 * tree evaluator for array extents and launch sizes (module: interp).
 */
#include <math.h>
#include <string.h>

#include "interp_int.h"

int64_t interp_norm(int64_t v, enum augur_type t)
{
    switch (t) {
    case AUGUR_T_BOOL:
        return v != 0;
    case AUGUR_T_I8:
        return (int8_t)(uint8_t)((uint64_t)v & 0xff);
    case AUGUR_T_U8:
        return (int64_t)((uint64_t)v & 0xff);
    case AUGUR_T_I16:
        return (int16_t)(uint16_t)((uint64_t)v & 0xffff);
    case AUGUR_T_U16:
        return (int64_t)((uint64_t)v & 0xffff);
    case AUGUR_T_I32:
        return (int32_t)(uint32_t)((uint64_t)v & 0xffffffffu);
    case AUGUR_T_U32:
        return (int64_t)((uint64_t)v & 0xffffffffu);
    default:
        return v;
    }
}

static bool isf(enum augur_type t)
{
    return t == AUGUR_T_F32 || t == AUGUR_T_F64;
}

static bool isu64(enum augur_type t)
{
    return t == AUGUR_T_U64 || t == AUGUR_T_PTR;
}

/* A double truncated toward zero into int64 (saturating; NaN gives 0). */
static int64_t f2i(double f)
{
    if (isnan(f))
        return 0;
    if (f >= 9223372036854775807.0)
        return INT64_MAX;
    if (f <= -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)f;
}

static uint64_t f2u(double f)
{
    if (isnan(f) || f <= 0)
        return f <= -1.0 ? (uint64_t)f2i(f) : 0;
    if (f >= 18446744073709551615.0)
        return UINT64_MAX;
    return (uint64_t)f;
}

union augur_value interp_convert(union augur_value v, enum augur_type from, enum augur_type to)
{
    union augur_value r;

    if (isf(to)) {
        if (isf(from))
            r.f = v.f;
        else if (isu64(from))
            r.f = (double)v.u;
        else
            r.f = (double)v.i;
        if (to == AUGUR_T_F32)
            r.f = (double)(float)r.f;
        return r;
    }
    if (isf(from)) {
        if (to == AUGUR_T_BOOL) {
            r.i = v.f != 0.0;
            return r;
        }
        r.i = isu64(to) || !augur_type_is_signed(to) ? (int64_t)f2u(v.f) : f2i(v.f);
        r.i = interp_norm(r.i, to);
        return r;
    }
    r.i = interp_norm(v.i, to);
    return r;
}

union augur_value interp_read(const uint8_t *p, enum augur_type t)
{
    union augur_value r;

    switch (t) {
    case AUGUR_T_BOOL:
        r.i = p[0] != 0;
        break;
    case AUGUR_T_I8:
        r.i = (int8_t)p[0];
        break;
    case AUGUR_T_U8:
        r.i = p[0];
        break;
    case AUGUR_T_I16: {
        int16_t v;

        memcpy(&v, p, 2);
        r.i = v;
        break;
    }
    case AUGUR_T_U16: {
        uint16_t v;

        memcpy(&v, p, 2);
        r.i = v;
        break;
    }
    case AUGUR_T_I32: {
        int32_t v;

        memcpy(&v, p, 4);
        r.i = v;
        break;
    }
    case AUGUR_T_U32: {
        uint32_t v;

        memcpy(&v, p, 4);
        r.i = v;
        break;
    }
    case AUGUR_T_F32: {
        float v;

        memcpy(&v, p, 4);
        r.f = v;
        break;
    }
    case AUGUR_T_F64:
        memcpy(&r.f, p, 8);
        break;
    default:
        memcpy(&r.i, p, 8);
        break;
    }
    return r;
}

static int cmp_vals(union augur_value a, union augur_value b, enum augur_type t)
{
    if (isf(t))
        return a.f < b.f ? -1 : a.f > b.f ? 1 : 0;
    if (isu64(t))
        return a.u < b.u ? -1 : a.u > b.u ? 1 : 0;
    return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
}

static int eval(struct augur_interp *in, const struct augur_expr *e, const union augur_value *r,
                const struct rt_arr *arr, uint32_t node, union augur_value *out);

/* Evaluates e in its own type. */
static int eval_as(struct augur_interp *in, const struct augur_expr *e, enum augur_type t,
                   const union augur_value *r, const struct rt_arr *arr, uint32_t node,
                   union augur_value *out)
{
    union augur_value v;
    int rc = eval(in, e, r, arr, node, &v);

    if (rc)
        return rc;
    *out = interp_convert(v, e->type, t);
    return 0;
}

static int eval_binary(struct augur_interp *in, const struct augur_expr *e,
                       const union augur_value *r, const struct rt_arr *arr, uint32_t node,
                       union augur_value *out)
{
    enum augur_op op = e->u.bin.op;
    enum augur_type t = e->type, ct;
    union augur_value a, b = { .i = 0 };
    int rc;

    if (op == AUGUR_OP_LAND || op == AUGUR_OP_LOR) {
        rc = eval_as(in, e->u.bin.a, AUGUR_T_BOOL, r, arr, node, &a);
        if (rc)
            return rc;
        if ((op == AUGUR_OP_LAND) != (a.i != 0)) {
            out->i = a.i != 0;
            return 0;
        }
        rc = eval_as(in, e->u.bin.b, AUGUR_T_BOOL, r, arr, node, &b);
        out->i = b.i != 0;
        return rc;
    }
    ct = op == AUGUR_OP_SHL || op == AUGUR_OP_SHR ? t
         : augur_op_is_logical(op) ? augur_type_arith(e->u.bin.a->type, e->u.bin.b->type)
                                   : t;
    rc = eval_as(in, e->u.bin.a, ct, r, arr, node, &a);
    if (!rc)
        rc = eval_as(in, e->u.bin.b,
                     op == AUGUR_OP_SHL || op == AUGUR_OP_SHR ? e->u.bin.b->type : ct, r, arr, node,
                     &b);
    if (rc)
        return rc;
    switch (op) {
    case AUGUR_OP_LT:
        out->i = cmp_vals(a, b, ct) < 0;
        return 0;
    case AUGUR_OP_LE:
        out->i = cmp_vals(a, b, ct) <= 0;
        return 0;
    case AUGUR_OP_GT:
        out->i = cmp_vals(a, b, ct) > 0;
        return 0;
    case AUGUR_OP_GE:
        out->i = cmp_vals(a, b, ct) >= 0;
        return 0;
    case AUGUR_OP_EQ:
        out->i = isf(ct) ? a.f == b.f : a.i == b.i;
        return 0;
    case AUGUR_OP_NE:
        out->i = isf(ct) ? a.f != b.f : a.i != b.i;
        return 0;
    case AUGUR_OP_MIN:
        *out = cmp_vals(a, b, t) <= 0 ? a : b;
        return 0;
    case AUGUR_OP_MAX:
        *out = cmp_vals(a, b, t) >= 0 ? a : b;
        return 0;
    default:
        break;
    }
    if (isf(t)) {
        switch (op) {
        case AUGUR_OP_ADD:
            out->f = a.f + b.f;
            break;
        case AUGUR_OP_SUB:
            out->f = a.f - b.f;
            break;
        case AUGUR_OP_MUL:
            out->f = a.f * b.f;
            break;
        case AUGUR_OP_DIV:
            out->f = a.f / b.f;
            break;
        default:
            return interp_fail(in, node, "operator '%s' on floating-point values",
                               augur_op_name(op));
        }
        if (t == AUGUR_T_F32)
            out->f = (double)(float)out->f;
        return 0;
    }
    switch (op) {
    case AUGUR_OP_ADD:
        out->u = a.u + b.u;
        break;
    case AUGUR_OP_SUB:
        out->u = a.u - b.u;
        break;
    case AUGUR_OP_MUL:
        out->u = a.u * b.u;
        break;
    case AUGUR_OP_DIV:
    case AUGUR_OP_MOD:
        if (b.i == 0)
            return interp_fail(in, node, "division by zero");
        if (augur_type_is_signed(t)) {
            if (a.i == INT64_MIN && b.i == -1)
                out->i = op == AUGUR_OP_DIV ? INT64_MIN : 0;
            else
                out->i = op == AUGUR_OP_DIV ? a.i / b.i : a.i % b.i;
        } else {
            out->u = op == AUGUR_OP_DIV ? a.u / b.u : a.u % b.u;
        }
        break;
    case AUGUR_OP_SHL:
        out->u = a.u << (b.u & 63);
        break;
    case AUGUR_OP_SHR:
        if (augur_type_is_signed(t))
            out->i = a.i >> (b.u & 63);
        else
            out->u = a.u >> (b.u & 63);
        break;
    case AUGUR_OP_BAND:
        out->u = a.u & b.u;
        break;
    case AUGUR_OP_BOR:
        out->u = a.u | b.u;
        break;
    case AUGUR_OP_BXOR:
        out->u = a.u ^ b.u;
        break;
    default:
        return interp_fail(in, node, "operator '%s' cannot be evaluated", augur_op_name(op));
    }
    out->i = interp_norm(out->i, t);
    return 0;
}

static int eval(struct augur_interp *in, const struct augur_expr *e, const union augur_value *r,
                const struct rt_arr *arr, uint32_t node, union augur_value *out)
{
    const struct augur_kernel_info *k = &in->kernel->u.kernel;
    union augur_value a;
    int rc;

    switch (e->kind) {
    case AUGUR_EXPR_INT:
        out->i = interp_norm(e->u.i, e->type);
        return 0;
    case AUGUR_EXPR_FP:
        out->f = e->type == AUGUR_T_F32 ? (double)(float)e->u.f : e->u.f;
        return 0;
    case AUGUR_EXPR_SYM:
        *out = r[e->u.sym];
        return 0;
    case AUGUR_EXPR_LOAD: {
        const struct rt_arr *A = arr ? &arr[e->u.load.array] : NULL;

        rc = eval(in, e->u.load.index, r, arr, node, &a);
        if (rc)
            return rc;
        if (!A || !A->data)
            return interp_fail(in, node, "the value of '%s' is not known here",
                               k->arrays[e->u.load.array].name);
        if (a.u >= A->extent)
            return interp_fail(in, node, "index %lld of '%s' is out of range [0, %llu)",
                               (long long)a.i, k->arrays[e->u.load.array].name,
                               (unsigned long long)A->extent);
        *out = interp_read(A->data + a.u * A->esize + e->u.load.offset, e->type);
        return 0;
    }
    case AUGUR_EXPR_UNARY:
        switch (e->u.un.op) {
        case AUGUR_OP_NOT:
            rc = eval(in, e->u.un.a, r, arr, node, &a);
            out->i = isf(e->u.un.a->type) ? a.f == 0.0 : a.i == 0;
            return rc;
        case AUGUR_OP_NEG:
            rc = eval_as(in, e->u.un.a, e->type, r, arr, node, &a);
            if (isf(e->type))
                out->f = -a.f;
            else
                out->i = interp_norm((int64_t)(0 - a.u), e->type);
            return rc;
        default:
            rc = eval_as(in, e->u.un.a, e->type, r, arr, node, &a);
            out->i = interp_norm((int64_t)~a.u, e->type);
            return rc;
        }
    case AUGUR_EXPR_BINARY:
        return eval_binary(in, e, r, arr, node, out);
    case AUGUR_EXPR_SELECT:
        rc = eval_as(in, e->u.sel.cond, AUGUR_T_BOOL, r, arr, node, &a);
        if (rc)
            return rc;
        return eval_as(in, a.i ? e->u.sel.a : e->u.sel.b, e->type, r, arr, node, out);
    case AUGUR_EXPR_CAST:
        return eval_as(in, e->u.cast.a, e->type, r, arr, node, out);
    default:
        return interp_fail(in, node, "the value '%s' is outside the slice",
                           e->kind == AUGUR_EXPR_OPAQUE ? e->u.opaque : "?");
    }
}

int interp_eval(struct augur_interp *in, const struct augur_expr *e, const union augur_value *r,
                const struct rt_arr *arr, uint32_t node, union augur_value *out)
{
    union augur_value v;
    int rc = eval(in, e, r, arr, node, &v);

    if (rc)
        return rc;
    *out = v;
    return 0;
}
