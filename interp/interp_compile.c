/*
 * interp_compile.c - compiles a kernel's skeleton once into the
 * interpreter's register bytecode: typed expressions, loops with hoisted
 * invariant bounds, branches, accesses as events, OpenMP worksharing
 * (module: interp).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp_int.h"

#define MAX_REGS  65000u
#define NO_REG    0xffffu
#define MAX_LOOPS 256

struct konst {
    union augur_value v;
    bool fp;
    uint16_t reg;
    bool used;
};

struct loopctx {
    struct augur_vec brk;  /* pcs of jumps to the loop's exit */
    struct augur_vec cont; /* pcs of jumps to its continue point */
};

struct comp {
    struct augur_interp *in;
    struct augur_diag *diag;
    int rc;
    const struct augur_node *kernel;
    const struct augur_kernel_info *k;
    struct augur_vec code;  /* struct ins */
    struct augur_vec cnode; /* uint32_t node id per instruction */
    uint32_t node;          /* node id of the instructions being emitted */
    uint32_t cbase, tbase, top, maxtop;
    struct konst *kt; /* constants: open-addressing table */
    uint32_t kcap, nk;
    struct loopctx loops[MAX_LOOPS];
    unsigned nloops;
    struct augur_vec rets;
    unsigned par_depth; /* parallel regions around the code being compiled */
    struct augur_vec ws, forks;
    bool *stored; /* per array: stored into with a value anywhere in the kernel */
    bool *wsym;   /* scratch: syms written in a loop */
    bool warned_opaque;
    bool *shared;             /* syms shared by the team of the enclosing region, or NULL */
    struct augur_vec fshared; /* uint32_t: every region's shared syms */
    struct augur_vec reds;    /* struct redinfo: array-section reductions */
};

/* ---- locations and messages ------------------------------------------------------------ */

void interp_where(const struct augur_interp *in, uint32_t node, const char **file, uint32_t *line,
                  uint32_t *col)
{
    const struct augur_node *n = node < in->skel->nnodes ? in->skel->nodes[node] : NULL;
    struct augur_srcloc loc = n ? n->loc : in->kernel->loc;
    uint32_t f = loc.line ? loc.file : in->kernel->loc.file;

    *file = f < in->skel->nfiles ? in->skel->files[f] : NULL;
    *line = loc.line;
    *col = loc.col;
}

int interp_fail(struct augur_interp *in, uint32_t node, const char *fmt, ...)
{
    const char *file;
    uint32_t line, col;
    va_list ap;

    if (in->err)
        return in->err;
    interp_where(in, node, &file, &line, &col);
    va_start(ap, fmt);
    augur_diag_setv(in->diag, AUGUR_ERUN, file, line, col, fmt, ap);
    va_end(ap);
    in->err = AUGUR_ERUN;
    return AUGUR_ERUN;
}

void interp_warn(struct augur_interp *in, uint32_t node, const char *fmt, ...)
{
    struct augur_diag d;
    const char *file;
    uint32_t line, col;
    va_list ap;

    if (!in->opts.on_warn)
        return;
    augur_diag_init(&d);
    interp_where(in, node, &file, &line, &col);
    va_start(ap, fmt);
    augur_diag_setv(&d, 0, file, line, col, fmt, ap);
    va_end(ap);
    in->opts.on_warn(in->opts.ud, &d);
}

static int fail(struct comp *c, int code, uint32_t node, const char *fmt, ...) AUGUR_PRINTF(4, 5);

static int fail(struct comp *c, int code, uint32_t node, const char *fmt, ...)
{
    const char *file;
    uint32_t line, col;
    va_list ap;

    if (c->rc)
        return c->rc;
    interp_where(c->in, node, &file, &line, &col);
    va_start(ap, fmt);
    augur_diag_setv(c->diag, code, file, line, col, fmt, ap);
    va_end(ap);
    c->rc = code;
    return code;
}

/* ---- types ----------------------------------------------------------------------------- */

static bool isf(enum augur_type t)
{
    return t == AUGUR_T_F32 || t == AUGUR_T_F64;
}

/* Integers held in all 64 bits without normalisation. */
static bool is64(enum augur_type t)
{
    return t == AUGUR_T_I64 || t == AUGUR_T_U64 || t == AUGUR_T_PTR || t == AUGUR_T_VOID ||
           t == AUGUR_T_REC;
}

/* Compared and divided as unsigned 64-bit values. */
static bool isu64(enum augur_type t)
{
    return t == AUGUR_T_U64 || t == AUGUR_T_PTR;
}

static bool is_signed_int(enum augur_type t)
{
    return augur_type_is_signed(t) && !isf(t);
}

/* The normalising opcode of an integer type, or -1 when none is needed. */
static int norm_op(enum augur_type t)
{
    switch (t) {
    case AUGUR_T_BOOL:
        return OP_BOOL;
    case AUGUR_T_I8:
        return OP_SEXT8;
    case AUGUR_T_U8:
        return OP_ZEXT8;
    case AUGUR_T_I16:
        return OP_SEXT16;
    case AUGUR_T_U16:
        return OP_ZEXT16;
    case AUGUR_T_I32:
        return OP_SEXT32;
    case AUGUR_T_U32:
        return OP_ZEXT32;
    default:
        return -1;
    }
}

/* ---- emitting ----------------------------------------------------------------------------- */

static uint32_t pc_of(const struct comp *c)
{
    return (uint32_t)c->code.len;
}

static uint32_t emit(struct comp *c, enum interp_op op, unsigned x, uint32_t a, uint32_t b,
                     uint32_t cc, uint32_t d, uint32_t e, int64_t imm)
{
    struct ins *I = augur_vec_push(&c->code);
    uint32_t *nd = augur_vec_push(&c->cnode);

    I->op = (uint8_t)op;
    I->x = (uint8_t)x;
    I->a = (uint16_t)a;
    I->b = (uint16_t)b;
    I->c = (uint16_t)cc;
    I->d = d;
    I->e = e;
    I->imm.i = imm;
    *nd = c->node;
    return (uint32_t)c->code.len - 1;
}

static struct ins *at(struct comp *c, uint32_t pc)
{
    return &AUGUR_VEC_AT(&c->code, struct ins, pc);
}

/* Points every jump listed in v at pc and empties v. */
static void patch(struct comp *c, struct augur_vec *v, uint32_t pc)
{
    for (size_t i = 0; i < v->len; i++)
        at(c, AUGUR_VEC_AT(v, uint32_t, i))->d = pc;
    v->len = 0;
}

static void note_jump(struct augur_vec *v, uint32_t pc)
{
    *(uint32_t *)augur_vec_push(v) = pc;
}

static uint32_t newtmp(struct comp *c)
{
    uint32_t r = c->tbase + c->top++;

    if (c->top > c->maxtop)
        c->maxtop = c->top;
    if (r >= MAX_REGS) {
        fail(c, AUGUR_ELIMIT, c->node, "kernel needs more than %u registers", MAX_REGS);
        return c->tbase;
    }
    return r;
}

/* The count slot of a node (0 is a slot nobody reads). */
static uint32_t slot(const struct comp *c, const struct augur_node *n)
{
    return n->id - c->kernel->id + 1;
}

/* ---- constants ------------------------------------------------------------------------------- */

static uint64_t khash(union augur_value v, bool fp)
{
    uint64_t h = v.u ^ (fp ? 0x9e3779b97f4a7c15u : 0);

    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 33;
    return h;
}

static struct konst *kfind(struct comp *c, union augur_value v, bool fp)
{
    uint32_t i = (uint32_t)(khash(v, fp) & (c->kcap - 1));

    while (c->kt[i].used && (c->kt[i].fp != fp || c->kt[i].v.u != v.u))
        i = (i + 1) & (c->kcap - 1);
    return &c->kt[i];
}

static void kadd(struct comp *c, union augur_value v, bool fp)
{
    struct konst *k;

    if ((c->nk + 1) * 2 > c->kcap) {
        struct konst *old = c->kt;
        uint32_t oldcap = c->kcap;

        c->kcap = c->kcap ? c->kcap * 2 : 64;
        c->kt = augur_calloc(c->kcap, sizeof(*c->kt));
        for (uint32_t i = 0; i < oldcap; i++)
            if (old[i].used)
                *kfind(c, old[i].v, old[i].fp) = old[i];
        augur_free(old);
    }
    k = kfind(c, v, fp);
    if (k->used)
        return;
    k->used = true;
    k->v = v;
    k->fp = fp;
    c->nk++;
}

/* The value a constant expression has in a register. */
static union augur_value const_value(const struct augur_expr *e, bool *fp)
{
    union augur_value v;

    if (e->kind == AUGUR_EXPR_FP) {
        *fp = true;
        v.f = e->type == AUGUR_T_F32 ? (double)(float)e->u.f : e->u.f;
    } else {
        *fp = false;
        v.i = interp_norm(e->u.i, e->type);
    }
    return v;
}

static void collect_consts(struct comp *c, const struct augur_expr *e)
{
    bool fp;
    union augur_value v;

    if (!e)
        return;
    switch (e->kind) {
    case AUGUR_EXPR_INT:
    case AUGUR_EXPR_FP:
        v = const_value(e, &fp);
        kadd(c, v, fp);
        break;
    case AUGUR_EXPR_LOAD:
        collect_consts(c, e->u.load.index);
        break;
    case AUGUR_EXPR_UNARY:
        collect_consts(c, e->u.un.a);
        break;
    case AUGUR_EXPR_BINARY:
        collect_consts(c, e->u.bin.a);
        collect_consts(c, e->u.bin.b);
        break;
    case AUGUR_EXPR_SELECT:
        collect_consts(c, e->u.sel.cond);
        collect_consts(c, e->u.sel.a);
        collect_consts(c, e->u.sel.b);
        break;
    case AUGUR_EXPR_CAST:
        collect_consts(c, e->u.cast.a);
        break;
    default:
        break;
    }
}

static void collect_node(struct comp *c, const struct augur_node *n)
{
    const struct augur_node *kid;

    switch (n->kind) {
    case AUGUR_NODE_LOOP:
        collect_consts(c, n->u.loop.init);
        collect_consts(c, n->u.loop.cond);
        collect_consts(c, n->u.loop.next);
        collect_consts(c, n->u.loop.omp.chunk);
        collect_consts(c, n->u.loop.omp.num_threads);
        break;
    case AUGUR_NODE_BRANCH:
        collect_consts(c, n->u.branch.cond);
        break;
    case AUGUR_NODE_ACCESS:
        collect_consts(c, n->u.access.index);
        collect_consts(c, n->u.access.value);
        collect_consts(c, n->u.access.mask);
        if (n->u.access.value && n->u.access.mode != AUGUR_ACCESS_READ)
            c->stored[n->u.access.array] = true;
        break;
    case AUGUR_NODE_ASSIGN:
        collect_consts(c, n->u.assign.value);
        break;
    case AUGUR_NODE_REGION:
        collect_consts(c, n->u.region.omp.num_threads);
        break;
    default:
        break;
    }
    augur_node_for_each_kid(n, kid) {
        collect_node(c, kid);
    }
}

static uint32_t kreg(struct comp *c, union augur_value v, bool fp)
{
    struct konst *k = kfind(c, v, fp);

    if (!k->used)
        AUGUR_BUG("constant missed by the prepass");
    return k->reg;
}

/* ---- expressions --------------------------------------------------------------------------------
 */

static uint32_t cexpr(struct comp *c, const struct augur_expr *e, uint32_t dst);
static void cjump(struct comp *c, const struct augur_expr *e, bool when, struct augur_vec *to,
                  uint32_t cslot);

/* A destination: dst when given, else a new temporary. */
static uint32_t dest(struct comp *c, uint32_t dst)
{
    return dst != NO_REG ? dst : newtmp(c);
}

static uint32_t mov_to(struct comp *c, uint32_t r, uint32_t dst)
{
    if (dst == NO_REG || dst == r)
        return r;
    emit(c, OP_MOV, 0, dst, r, 0, 0, 0, 0);
    return dst;
}

/* Converts register r holding a value of type from into type to. */
static uint32_t conv(struct comp *c, uint32_t r, enum augur_type from, enum augur_type to,
                     uint32_t dst)
{
    uint32_t d;
    int no;

    if (from == to || (is64(from) && is64(to)))
        return mov_to(c, r, dst);
    if (isf(to)) {
        if (isf(from)) {
            if (to == AUGUR_T_F64)
                return mov_to(c, r, dst);
            d = dest(c, dst);
            emit(c, OP_F32, 0, d, r, 0, 0, 0, 0);
            return d;
        }
        d = dest(c, dst);
        emit(c, isu64(from) ? OP_U2F : OP_I2F, 0, d, r, 0, 0, 0, 0);
        if (to == AUGUR_T_F32)
            emit(c, OP_F32, 0, d, d, 0, 0, 0, 0);
        return d;
    }
    if (isf(from)) {
        d = dest(c, dst);
        if (to == AUGUR_T_BOOL) {
            emit(c, OP_FNE, 0, d, r, kreg(c, (union augur_value){ .f = 0.0 }, true), 0, 0, 0);
            return d;
        }
        emit(c, isu64(to) || !augur_type_is_signed(to) ? OP_F2U : OP_F2I, 0, d, r, 0, 0, 0, 0);
        no = norm_op(to);
        if (no >= 0)
            emit(c, (enum interp_op)no, 0, d, d, 0, 0, 0, 0);
        return d;
    }
    /* integer to integer: widening keeps the normalised bits */
    if (is64(to))
        return mov_to(c, r, dst);
    no = norm_op(to);
    if (no < 0)
        return mov_to(c, r, dst);
    if (from == AUGUR_T_BOOL && to != AUGUR_T_BOOL)
        return mov_to(c, r, dst); /* 0 or 1 fits every integer type */
    if (to != AUGUR_T_BOOL && !is64(from) &&
        ((is_signed_int(from) == is_signed_int(to) &&
          augur_type_size(from) <= augur_type_size(to)) ||
         (!is_signed_int(from) && augur_type_size(from) < augur_type_size(to))))
        return mov_to(c, r, dst); /* the value is already in range */
    d = dest(c, dst);
    emit(c, (enum interp_op)no, 0, d, r, 0, 0, 0, 0);
    return d;
}

/* Evaluates e converted to type t. */
static uint32_t cexpr_as(struct comp *c, const struct augur_expr *e, enum augur_type t,
                         uint32_t dst)
{
    uint32_t r;

    if (e->type == t || (is64(e->type) && is64(t)))
        return cexpr(c, e, dst);
    r = cexpr(c, e, NO_REG);
    return conv(c, r, e->type, t, dst);
}

static bool is_cmp(enum augur_op op)
{
    return op == AUGUR_OP_LT || op == AUGUR_OP_LE || op == AUGUR_OP_GT || op == AUGUR_OP_GE ||
           op == AUGUR_OP_EQ || op == AUGUR_OP_NE;
}

/* Emits dst = (ra op rb) for a comparison in type ct. */
static uint32_t ccmp(struct comp *c, enum augur_op op, uint32_t ra, uint32_t rb, enum augur_type ct,
                     uint32_t dst)
{
    uint32_t d = dest(c, dst), t;
    bool f = isf(ct), u = isu64(ct);

    if (op == AUGUR_OP_GT || op == AUGUR_OP_GE) {
        t = ra;
        ra = rb;
        rb = t;
        op = op == AUGUR_OP_GT ? AUGUR_OP_LT : AUGUR_OP_LE;
    }
    switch (op) {
    case AUGUR_OP_LT:
        emit(c, f ? OP_FLT : u ? OP_LTU : OP_LTS, 0, d, ra, rb, 0, 0, 0);
        break;
    case AUGUR_OP_LE:
        emit(c, f ? OP_FLE : u ? OP_LEU : OP_LES, 0, d, ra, rb, 0, 0, 0);
        break;
    case AUGUR_OP_EQ:
        emit(c, f ? OP_FEQ : OP_EQ, 0, d, ra, rb, 0, 0, 0);
        break;
    default:
        emit(c, f ? OP_FNE : OP_NE, 0, d, ra, rb, 0, 0, 0);
        break;
    }
    return d;
}

static uint32_t cbinary(struct comp *c, const struct augur_expr *e, uint32_t dst)
{
    enum augur_op op = e->u.bin.op;
    const struct augur_expr *a = e->u.bin.a, *b = e->u.bin.b;
    enum augur_type t = e->type;
    uint32_t save = c->top, ra, rb, d;
    int no;

    if (op == AUGUR_OP_LAND || op == AUGUR_OP_LOR) {
        struct augur_vec to;
        uint32_t skip;

        augur_vec_init(&to, sizeof(uint32_t));
        d = newtmp(c); /* not dst: the operands may read it */
        emit(c, OP_LDI, 0, d, 0, 0, 0, 0, op == AUGUR_OP_LOR);
        cjump(c, e, op == AUGUR_OP_LOR, &to, 0);
        emit(c, OP_LDI, 0, d, 0, 0, 0, 0, op == AUGUR_OP_LAND);
        skip = pc_of(c);
        patch(c, &to, skip);
        augur_vec_release(&to);
        if (dst == NO_REG)
            return d;
        c->top = save;
        return mov_to(c, d, dst);
    }
    if (is_cmp(op)) {
        enum augur_type ct = augur_type_arith(a->type, b->type);

        ra = cexpr_as(c, a, ct, NO_REG);
        rb = cexpr_as(c, b, ct, NO_REG);
        c->top = save;
        return ccmp(c, op, ra, rb, ct, dst);
    }
    if (op == AUGUR_OP_SHL || op == AUGUR_OP_SHR) {
        if (isf(t) || isf(b->type)) {
            fail(c, AUGUR_EUNSUP, c->node, "shift of a floating-point value");
            return 0;
        }
        ra = cexpr_as(c, a, t, NO_REG);
        rb = cexpr(c, b, NO_REG);
        c->top = save;
        d = dest(c, dst);
        if (op == AUGUR_OP_SHL) {
            emit(c, OP_SHL, 0, d, ra, rb, 0, 0, 0);
            no = norm_op(t);
            if (no >= 0)
                emit(c, (enum interp_op)no, 0, d, d, 0, 0, 0, 0);
        } else {
            emit(c, is_signed_int(t) ? OP_SHRS : OP_SHRU, 0, d, ra, rb, 0, 0, 0);
        }
        return d;
    }
    if (isf(t)) {
        enum interp_op fop;

        switch (op) {
        case AUGUR_OP_ADD:
            fop = OP_FADD;
            break;
        case AUGUR_OP_SUB:
            fop = OP_FSUB;
            break;
        case AUGUR_OP_MUL:
            fop = OP_FMUL;
            break;
        case AUGUR_OP_DIV:
            fop = OP_FDIV;
            break;
        case AUGUR_OP_MIN:
            fop = OP_FMIN;
            break;
        case AUGUR_OP_MAX:
            fop = OP_FMAX;
            break;
        default:
            fail(c, AUGUR_EUNSUP, c->node, "operator '%s' on floating-point values",
                 augur_op_name(op));
            return 0;
        }
        ra = cexpr_as(c, a, t, NO_REG);
        rb = cexpr_as(c, b, t, NO_REG);
        c->top = save;
        d = dest(c, dst);
        emit(c, fop, 0, d, ra, rb, 0, 0, 0);
        if (t == AUGUR_T_F32 && op != AUGUR_OP_MIN && op != AUGUR_OP_MAX)
            emit(c, OP_F32, 0, d, d, 0, 0, 0, 0);
        return d;
    }
    /* integers: a constant right operand of + and - becomes an immediate */
    if ((op == AUGUR_OP_ADD || op == AUGUR_OP_SUB) && b->kind == AUGUR_EXPR_INT) {
        int64_t imm = interp_norm(b->u.i, b->type);

        if (b->type != t)
            imm = interp_convert((union augur_value){ .i = imm }, b->type, t).i;
        if (op == AUGUR_OP_SUB)
            imm = (int64_t)(0 - (uint64_t)imm);
        ra = cexpr_as(c, a, t, NO_REG);
        c->top = save;
        d = dest(c, dst);
        if (t == AUGUR_T_I32)
            emit(c, OP_ADDI32S, 0, d, ra, 0, 0, 0, imm);
        else if (t == AUGUR_T_U32)
            emit(c, OP_ADDI32U, 0, d, ra, 0, 0, 0, imm);
        else {
            emit(c, OP_ADDI, 0, d, ra, 0, 0, 0, imm);
            no = norm_op(t);
            if (no >= 0)
                emit(c, (enum interp_op)no, 0, d, d, 0, 0, 0, 0);
        }
        return d;
    }
    ra = cexpr_as(c, a, t, NO_REG);
    rb = cexpr_as(c, b, t, NO_REG);
    c->top = save;
    d = dest(c, dst);
    switch (op) {
    case AUGUR_OP_ADD:
        if (t == AUGUR_T_I32 || t == AUGUR_T_U32) {
            emit(c, t == AUGUR_T_I32 ? OP_ADD32S : OP_ADD32U, 0, d, ra, rb, 0, 0, 0);
            return d;
        }
        emit(c, OP_ADD, 0, d, ra, rb, 0, 0, 0);
        break;
    case AUGUR_OP_SUB:
        emit(c, OP_SUB, 0, d, ra, rb, 0, 0, 0);
        break;
    case AUGUR_OP_MUL:
        emit(c, OP_MUL, 0, d, ra, rb, 0, 0, 0);
        break;
    case AUGUR_OP_DIV:
        emit(c, is_signed_int(t) ? OP_DIVS : OP_DIVU, 0, d, ra, rb, c->node, 0, 0);
        break;
    case AUGUR_OP_MOD:
        emit(c, is_signed_int(t) ? OP_MODS : OP_MODU, 0, d, ra, rb, c->node, 0, 0);
        break;
    case AUGUR_OP_BAND:
        emit(c, OP_AND, 0, d, ra, rb, 0, 0, 0);
        break;
    case AUGUR_OP_BOR:
        emit(c, OP_OR, 0, d, ra, rb, 0, 0, 0);
        break;
    case AUGUR_OP_BXOR:
        emit(c, OP_XOR, 0, d, ra, rb, 0, 0, 0);
        break;
    case AUGUR_OP_MIN:
        emit(c, isu64(t) ? OP_MINU : OP_MINS, 0, d, ra, rb, 0, 0, 0);
        return d;
    case AUGUR_OP_MAX:
        emit(c, isu64(t) ? OP_MAXU : OP_MAXS, 0, d, ra, rb, 0, 0, 0);
        return d;
    default:
        fail(c, AUGUR_EUNSUP, c->node, "operator '%s' cannot be run", augur_op_name(op));
        return d;
    }
    no = norm_op(t);
    if (no >= 0)
        emit(c, (enum interp_op)no, 0, d, d, 0, 0, 0, 0);
    return d;
}

static uint32_t cload(struct comp *c, const struct augur_expr *e, uint32_t dst)
{
    const struct arr_info *A = &c->in->ainfo[e->u.load.array];
    uint32_t save = c->top, ri, d;
    enum interp_op op = OP_LD;

    if (isf(e->u.load.index->type)) {
        fail(c, AUGUR_EUNSUP, c->node, "array '%s' indexed by a floating-point value",
             c->k->arrays[e->u.load.array].name);
        return 0;
    }
    ri = cexpr(c, e->u.load.index, NO_REG);
    c->top = save;
    d = dest(c, dst);
    if (e->u.load.offset == 0) {
        if (e->type == AUGUR_T_U32 && A->esize == 4)
            op = OP_LD32U;
        else if (e->type == AUGUR_T_I32 && A->esize == 4)
            op = OP_LD32S;
        else if (is64(e->type) && A->esize == 8)
            op = OP_LD64;
    }
    emit(c, op, e->type, d, ri, e->u.load.array, c->node, 0, e->u.load.offset);
    return d;
}

static uint32_t cexpr(struct comp *c, const struct augur_expr *e, uint32_t dst)
{
    uint32_t save = c->top, r, d;
    bool fp;

    if (c->rc)
        return 0;
    switch (e->kind) {
    case AUGUR_EXPR_INT:
    case AUGUR_EXPR_FP: {
        union augur_value v = const_value(e, &fp);

        return mov_to(c, kreg(c, v, fp), dst);
    }
    case AUGUR_EXPR_SYM:
        if (c->shared && c->shared[e->u.sym]) {
            d = dest(c, dst);
            emit(c, OP_LDS, 0, d, e->u.sym, 0, 0, 0, 0);
            return d;
        }
        return mov_to(c, e->u.sym, dst);
    case AUGUR_EXPR_LOAD:
        return cload(c, e, dst);
    case AUGUR_EXPR_UNARY: {
        enum augur_type t = e->type, at = e->u.un.a->type;

        switch (e->u.un.op) {
        case AUGUR_OP_NEG:
            r = cexpr_as(c, e->u.un.a, t, NO_REG);
            c->top = save;
            d = dest(c, dst);
            if (isf(t)) {
                emit(c, OP_FNEG, 0, d, r, 0, 0, 0, 0);
            } else {
                int no = norm_op(t);

                emit(c, OP_NEG, 0, d, r, 0, 0, 0, 0);
                if (no >= 0)
                    emit(c, (enum interp_op)no, 0, d, d, 0, 0, 0, 0);
            }
            return d;
        case AUGUR_OP_NOT:
            r = cexpr(c, e->u.un.a, NO_REG);
            c->top = save;
            d = dest(c, dst);
            if (isf(at))
                emit(c, OP_FEQ, 0, d, r, kreg(c, (union augur_value){ .f = 0.0 }, true), 0, 0, 0);
            else
                emit(c, OP_LNOT, 0, d, r, 0, 0, 0, 0);
            return d;
        case AUGUR_OP_BNOT: {
            int no = norm_op(t);

            if (isf(t)) {
                fail(c, AUGUR_EUNSUP, c->node, "'~' of a floating-point value");
                return 0;
            }
            r = cexpr_as(c, e->u.un.a, t, NO_REG);
            c->top = save;
            d = dest(c, dst);
            emit(c, OP_BNOT, 0, d, r, 0, 0, 0, 0);
            if (no >= 0)
                emit(c, (enum interp_op)no, 0, d, d, 0, 0, 0, 0);
            return d;
        }
        default:
            fail(c, AUGUR_EUNSUP, c->node, "unknown unary operator");
            return 0;
        }
    }
    case AUGUR_EXPR_BINARY:
        return cbinary(c, e, dst);
    case AUGUR_EXPR_SELECT: {
        struct augur_vec to;
        uint32_t j;

        augur_vec_init(&to, sizeof(uint32_t));
        d = dest(c, dst);
        cjump(c, e->u.sel.cond, false, &to, 0);
        cexpr_as(c, e->u.sel.a, e->type, d);
        c->top = save + (dst == NO_REG);
        j = emit(c, OP_JMP, 0, 0, 0, 0, 0, 0, 0);
        patch(c, &to, pc_of(c));
        cexpr_as(c, e->u.sel.b, e->type, d);
        c->top = save + (dst == NO_REG);
        at(c, j)->d = pc_of(c);
        augur_vec_release(&to);
        return d;
    }
    case AUGUR_EXPR_CAST:
        return cexpr_as(c, e->u.cast.a, e->type, dst);
    case AUGUR_EXPR_OPAQUE:
        if (!c->warned_opaque) {
            c->warned_opaque = true;
            interp_warn(c->in, c->node,
                        "value outside the slice ('%s') stands in as a random number", e->u.opaque);
        }
        d = dest(c, dst);
        emit(c, OP_RAND, e->type, d, 0, 0, 0, 0, 0);
        return d;
    default:
        fail(c, AUGUR_EUNSUP, c->node, "unknown expression kind");
        return 0;
    }
}

/* Emits a jump (noted in to) taken when ra op rb holds (when) or fails (!when). */
static void cjump_cmp(struct comp *c, enum augur_op op, uint32_t ra, uint32_t rb,
                      enum augur_type ct, bool when, struct augur_vec *to, uint32_t cslot)
{
    bool u = isu64(ct);
    uint32_t t;
    enum interp_op jo;

    if (isf(ct)) {
        uint32_t save = c->top, r = ccmp(c, op, ra, rb, ct, NO_REG);

        c->top = save;
        note_jump(to, emit(c, when ? OP_JNZ : OP_JZ, 0, 0, r, 0, 0, cslot, 0));
        return;
    }
    if (!when) {
        switch (op) {
        case AUGUR_OP_LT:
            op = AUGUR_OP_GE;
            break;
        case AUGUR_OP_LE:
            op = AUGUR_OP_GT;
            break;
        case AUGUR_OP_GT:
            op = AUGUR_OP_LE;
            break;
        case AUGUR_OP_GE:
            op = AUGUR_OP_LT;
            break;
        case AUGUR_OP_EQ:
            op = AUGUR_OP_NE;
            break;
        default:
            op = AUGUR_OP_EQ;
            break;
        }
    }
    if (op == AUGUR_OP_GT || op == AUGUR_OP_GE) {
        t = ra;
        ra = rb;
        rb = t;
        op = op == AUGUR_OP_GT ? AUGUR_OP_LT : AUGUR_OP_LE;
    }
    switch (op) {
    case AUGUR_OP_LT:
        jo = u ? OP_JLTU : OP_JLTS;
        break;
    case AUGUR_OP_LE:
        jo = u ? OP_JLEU : OP_JLES;
        break;
    case AUGUR_OP_EQ:
        jo = OP_JEQ;
        break;
    default:
        jo = OP_JNE;
        break;
    }
    note_jump(to, emit(c, jo, 0, 0, ra, rb, 0, cslot, 0));
}

static void cjump(struct comp *c, const struct augur_expr *e, bool when, struct augur_vec *to,
                  uint32_t cslot)
{
    uint32_t save = c->top, r;

    if (c->rc)
        return;
    if (e->kind == AUGUR_EXPR_UNARY && e->u.un.op == AUGUR_OP_NOT) {
        cjump(c, e->u.un.a, !when, to, cslot);
        return;
    }
    if (e->kind == AUGUR_EXPR_BINARY &&
        (e->u.bin.op == AUGUR_OP_LAND || e->u.bin.op == AUGUR_OP_LOR)) {
        bool land = e->u.bin.op == AUGUR_OP_LAND;

        if (land != when) {
            /* a && b false: a false or b false; a || b true: a true or b true */
            cjump(c, e->u.bin.a, when, to, cslot);
            cjump(c, e->u.bin.b, when, to, cslot);
        } else {
            struct augur_vec skip;

            augur_vec_init(&skip, sizeof(uint32_t));
            cjump(c, e->u.bin.a, !when, &skip, 0);
            cjump(c, e->u.bin.b, when, to, cslot);
            patch(c, &skip, pc_of(c));
            augur_vec_release(&skip);
        }
        return;
    }
    if (e->kind == AUGUR_EXPR_BINARY && is_cmp(e->u.bin.op)) {
        enum augur_type ct = augur_type_arith(e->u.bin.a->type, e->u.bin.b->type);
        uint32_t ra = cexpr_as(c, e->u.bin.a, ct, NO_REG);
        uint32_t rb = cexpr_as(c, e->u.bin.b, ct, NO_REG);

        cjump_cmp(c, e->u.bin.op, ra, rb, ct, when, to, cslot);
        c->top = save;
        return;
    }
    r = cexpr(c, e, NO_REG);
    if (isf(e->type)) {
        uint32_t z = kreg(c, (union augur_value){ .f = 0.0 }, true);

        r = ccmp(c, AUGUR_OP_NE, r, z, e->type, NO_REG);
    }
    c->top = save;
    note_jump(to, emit(c, when ? OP_JNZ : OP_JZ, 0, 0, r, 0, 0, cslot, 0));
}

/* ---- invariance
 * ----------------------------------------------------------------------------------- */

static void mark_written(struct comp *c, const struct augur_node *n)
{
    const struct augur_node *kid;

    if (n->kind == AUGUR_NODE_ASSIGN)
        c->wsym[n->u.assign.sym] = true;
    if (n->kind == AUGUR_NODE_LOOP && n->u.loop.var >= 0)
        c->wsym[n->u.loop.var] = true;
    augur_node_for_each_kid(n, kid) {
        mark_written(c, kid);
    }
}

/* True when e has the same value at every iteration of the loop whose writes are marked. */
static bool invariant(const struct comp *c, const struct augur_expr *e)
{
    if (!e)
        return true;
    switch (e->kind) {
    case AUGUR_EXPR_INT:
    case AUGUR_EXPR_FP:
        return true;
    case AUGUR_EXPR_SYM:
        return !c->wsym[e->u.sym] && !(c->shared && c->shared[e->u.sym]) &&
               strcmp(c->k->syms[e->u.sym].name, "lane") != 0;
    case AUGUR_EXPR_LOAD:
        return !c->stored[e->u.load.array] && invariant(c, e->u.load.index);
    case AUGUR_EXPR_UNARY:
        return invariant(c, e->u.un.a);
    case AUGUR_EXPR_BINARY:
        return invariant(c, e->u.bin.a) && invariant(c, e->u.bin.b);
    case AUGUR_EXPR_SELECT:
        return invariant(c, e->u.sel.cond) && invariant(c, e->u.sel.a) && invariant(c, e->u.sel.b);
    case AUGUR_EXPR_CAST:
        return invariant(c, e->u.cast.a);
    default:
        return false;
    }
}

static bool cheap(const struct augur_expr *e)
{
    return e->kind == AUGUR_EXPR_INT || e->kind == AUGUR_EXPR_FP || e->kind == AUGUR_EXPR_SYM;
}

/* ---- statements
 * ------------------------------------------------------------------------------------- */

static void cnode(struct comp *c, const struct augur_node *n);

static void ckids(struct comp *c, const struct augur_node *n, uint32_t from, uint32_t to)
{
    for (uint32_t i = from; i < to && !c->rc; i++)
        cnode(c, n->kids[i]);
}

/*
 * A loop's body; returns its continue point. The front end counts a for
 * loop's step and test operations in an ops node at the end of the body,
 * on the loop's own line: a continue runs them too, so the continue point
 * is before that node.
 */
static uint32_t cbody(struct comp *c, const struct augur_node *n)
{
    uint32_t nbody = n->nkids, cont;
    const struct augur_node *last = nbody ? n->kids[nbody - 1] : NULL;

    if (n->u.loop.form == AUGUR_LOOP_FOR && last && last->kind == AUGUR_NODE_OPS &&
        last->loc.file == n->loc.file && last->loc.line == n->loc.line)
        nbody--;
    ckids(c, n, 0, nbody);
    cont = pc_of(c);
    ckids(c, n, nbody, n->nkids);
    return cont;
}

static void caccess(struct comp *c, const struct augur_node *n)
{
    const struct augur_access_info *a = &n->u.access;
    const struct augur_array *arr = &c->k->arrays[a->array];
    const struct arr_info *A = &c->in->ainfo[a->array];
    uint32_t save = c->top, size = augur_type_size(a->type), flags = 0, ri, rv = 0, lane = 0,
             top = 0, lanes_reg = 0;
    bool store = a->value && A->needs_data && a->mode != AUGUR_ACCESS_READ;
    struct augur_vec skip;
    enum interp_op ev = a->lanes > 1 ? OP_EVL : OP_EV;
    int64_t imm = a->offset;

    if (a->flags & AUGUR_ACC_ATOMIC)
        flags |= AUGUR_EV_ATOMIC;
    if (a->flags & AUGUR_ACC_LDG)
        flags |= AUGUR_EV_LDG;
    if (a->flags & AUGUR_ACC_STREAM)
        flags |= AUGUR_EV_STREAM;
    if (arr->space == AUGUR_SPACE_SHARED)
        flags |= AUGUR_EV_LOCAL;
    if (isf(a->index->type)) {
        fail(c, AUGUR_EUNSUP, n->id, "array '%s' indexed by a floating-point value", arr->name);
        return;
    }
    augur_vec_init(&skip, sizeof(uint32_t));
    if (a->lanes > 1) {
        int32_t ls = -1;

        flags |= AUGUR_EV_SIMD;
        for (uint32_t i = 0; i < c->k->nsyms; i++)
            if (c->k->syms[i].kind == AUGUR_SYM_BUILTIN && strcmp(c->k->syms[i].name, "lane") == 0)
                ls = (int32_t)i;
        lane = ls >= 0 ? (uint32_t)ls : newtmp(c);
        lanes_reg = newtmp(c);
        emit(c, OP_LDI, 0, lanes_reg, 0, 0, 0, 0, a->lanes);
        emit(c, OP_LDI, 0, lane, 0, 0, 0, 0, 0);
        top = pc_of(c);
        if (a->mask)
            cjump(c, a->mask, false, &skip, 0);
        imm |= (int64_t)lane << 32;
    }
    ri = cexpr(c, a->index, NO_REG);
    if (store)
        rv = cexpr_as(c, a->value, a->type, NO_REG);
    /* an atomic update stores before its events, where the thread may yield: no other
       thread runs between its read and its write */
    if (store && (a->flags & AUGUR_ACC_ATOMIC)) {
        emit(c, OP_ST, a->type, rv, ri, a->array, n->id, 0, a->offset);
        store = false;
    }
    if (a->mode == AUGUR_ACCESS_WRITE) {
        emit(c, ev, flags | AUGUR_EV_WRITE, size, ri, a->array, n->id, slot(c, n), imm);
    } else {
        emit(c, ev, flags, size, ri, a->array, n->id, slot(c, n), imm);
        if (a->mode == AUGUR_ACCESS_RMW)
            emit(c, ev, flags | AUGUR_EV_WRITE, size, ri, a->array, n->id, 0, imm);
    }
    if (store)
        emit(c, OP_ST, a->type, rv, ri, a->array, n->id, 0, a->offset);
    if (a->lanes > 1) {
        patch(c, &skip, pc_of(c));
        emit(c, OP_ADDI, 0, lane, lane, 0, 0, 0, 1);
        emit(c, OP_JLTS, 0, 0, lane, lanes_reg, top, 0, 0);
    }
    augur_vec_release(&skip);
    c->top = save;
}

static struct loopctx *push_loop(struct comp *c, const struct augur_node *n)
{
    struct loopctx *l;

    if (c->nloops == MAX_LOOPS) {
        fail(c, AUGUR_ELIMIT, n->id, "loops nested more than %d deep", MAX_LOOPS);
        return NULL;
    }
    l = &c->loops[c->nloops++];
    augur_vec_init(&l->brk, sizeof(uint32_t));
    augur_vec_init(&l->cont, sizeof(uint32_t));
    return l;
}

static void pop_loop(struct comp *c, uint32_t cont_pc, uint32_t exit_pc)
{
    struct loopctx *l = &c->loops[--c->nloops];

    patch(c, &l->cont, cont_pc);
    patch(c, &l->brk, exit_pc);
    augur_vec_release(&l->brk);
    augur_vec_release(&l->cont);
}

/* Strips casts that keep every value of the loop variable (widening, same signedness). */
static bool is_var(const struct augur_expr *e, int32_t var)
{
    while (e->kind == AUGUR_EXPR_CAST) {
        const struct augur_expr *a = e->u.cast.a;

        if (isf(e->type) || isf(a->type) || augur_type_size(e->type) < augur_type_size(a->type) ||
            (is_signed_int(a->type) && !is_signed_int(e->type)))
            return false;
        e = a;
    }
    return e->kind == AUGUR_EXPR_SYM && (int32_t)e->u.sym == var;
}

/* The canonical form of an OpenMP loop: var REL bound, var = var +/- step. */
struct canon {
    enum augur_op rel;
    const struct augur_expr *bound, *step;
    bool sub;
    enum augur_type ctype;
};

static bool canonical(struct comp *c, const struct augur_node *n, struct canon *cn)
{
    const struct augur_loop_info *l = &n->u.loop;
    const struct augur_expr *cond = l->cond, *next = l->next;
    const struct augur_expr *a, *b;
    enum augur_type vt = c->k->syms[l->var].type;

    if (!cond || cond->kind != AUGUR_EXPR_BINARY || isf(vt))
        return false;
    cn->rel = cond->u.bin.op;
    a = cond->u.bin.a;
    b = cond->u.bin.b;
    if (is_var(b, l->var) && !is_var(a, l->var)) {
        const struct augur_expr *t = a;

        a = b;
        b = t;
        switch (cn->rel) {
        case AUGUR_OP_LT:
            cn->rel = AUGUR_OP_GT;
            break;
        case AUGUR_OP_LE:
            cn->rel = AUGUR_OP_GE;
            break;
        case AUGUR_OP_GT:
            cn->rel = AUGUR_OP_LT;
            break;
        case AUGUR_OP_GE:
            cn->rel = AUGUR_OP_LE;
            break;
        default:
            break;
        }
    }
    if (!is_var(a, l->var) || isf(b->type))
        return false;
    if (cn->rel != AUGUR_OP_LT && cn->rel != AUGUR_OP_LE && cn->rel != AUGUR_OP_GT &&
        cn->rel != AUGUR_OP_GE && cn->rel != AUGUR_OP_NE)
        return false;
    cn->bound = b;
    cn->ctype = augur_type_arith(a->type, b->type);
    while (next->kind == AUGUR_EXPR_CAST && next->type == vt)
        next = next->u.cast.a;
    if (next->kind != AUGUR_EXPR_BINARY)
        return false;
    if (next->u.bin.op == AUGUR_OP_ADD && is_var(next->u.bin.a, l->var))
        cn->step = next->u.bin.b, cn->sub = false;
    else if (next->u.bin.op == AUGUR_OP_ADD && is_var(next->u.bin.b, l->var))
        cn->step = next->u.bin.a, cn->sub = false;
    else if (next->u.bin.op == AUGUR_OP_SUB && is_var(next->u.bin.a, l->var))
        cn->step = next->u.bin.b, cn->sub = true;
    else
        return false;
    if (isf(cn->step->type))
        return false;
    memset(c->wsym, 0, c->k->nsyms * sizeof(bool));
    mark_written(c, n);
    return invariant(c, cn->bound) && invariant(c, cn->step);
}

/*
 * Looks the line of node n up in an override list "LINE=V,..." (opts.probs,
 * opts.trips). Returns true with *v set when the line is listed.
 */
static bool override(const struct comp *c, const char *list, const struct augur_node *n, double *v)
{
    const char *p = list;

    if (!p || !n->loc.line || n->loc.file != c->kernel->loc.file)
        return false;
    while (*p) {
        char *end;
        unsigned long line = strtoul(p, &end, 10);

        if (*end != '=')
            return false; /* checked by check_overrides() */
        p = end + 1;
        *v = strtod(p, &end);
        if (line == n->loc.line)
            return true;
        p = *end == ',' ? end + 1 : end;
        if (end == p && *p)
            return false;
    }
    return false;
}

/* Checks an override list: LINE=V pairs with V in [lo, hi]. */
static int check_overrides(struct comp *c, const char *opt, const char *list, double lo, double hi)
{
    const char *p = list;

    while (p && *p) {
        char *end;
        double v;

        errno = 0;
        if (strtoul(p, &end, 10) == 0 || end == p || *end != '=' || errno)
            goto bad;
        p = end + 1;
        v = strtod(p, &end);
        if (end == p || (*end && *end != ',') || !(v >= lo && v <= hi))
            goto bad;
        p = *end ? end + 1 : end;
    }
    return 0;
bad:
    return fail(c, AUGUR_EINVAL, c->kernel->id,
                "bad %s list '%s': expected LINE=VALUE,... with values in [%g, %g]", opt, list, lo,
                hi);
}

/* A loop whose condition is outside the slice runs trips times (or once, with a warning). */
static bool trip_loop(struct comp *c, const struct augur_node *n, double *trips)
{
    const struct augur_loop_info *l = &n->u.loop;

    if (override(c, c->in->opts.trips, n, trips))
        return true;
    if (l->cond && !augur_expr_has_opaque(l->cond))
        return false;
    if (!l->cond && l->trips < 0)
        return false; /* forever, left by break or return */
    if (l->trips >= 0) {
        *trips = l->trips;
        return true;
    }
    interp_warn(c->in, n->id,
                "loop condition depends on a value outside the slice and no trip count is "
                "given: it runs once (#pragma augur trips(N) sets a count)");
    *trips = 1;
    return true;
}

/* Marks the loop variables of the loops in n. */
static void mark_loop_vars(const struct augur_node *n, bool *v)
{
    const struct augur_node *kid;

    if (n->kind == AUGUR_NODE_LOOP && n->u.loop.var >= 0)
        v[n->u.loop.var] = true;
    augur_node_for_each_kid(n, kid) {
        mark_loop_vars(kid, v);
    }
}

/*
 * Enters parallel region r (its FORK is forks[f]): the scalars declared in
 * the kernel before the region are shared by the team, as in OpenMP; those
 * declared inside it and every loop variable are private. Nested regions
 * (a team of one) keep the outer region's choice. Returns the shared set
 * that was in force, for leave_region().
 */
static bool *enter_region(struct comp *c, const struct augur_node *r, uint32_t f)
{
    bool *old = c->shared, *sh;
    struct forkinfo *fi = &AUGUR_VEC_AT(&c->forks, struct forkinfo, f);
    const struct augur_srcloc kl = c->kernel->loc;

    fi->shared = (uint32_t)c->fshared.len;
    fi->nshared = 0;
    c->par_depth++;
    if (old)
        return old;
    sh = augur_calloc(c->k->nsyms + 1, sizeof(bool));
    memset(c->wsym, 0, c->k->nsyms * sizeof(bool));
    mark_loop_vars(r, c->wsym);
    for (uint32_t i = 0; i < c->k->nsyms; i++) {
        const struct augur_sym *y = &c->k->syms[i];

        if (y->kind != AUGUR_SYM_LOCAL || c->wsym[i] || !y->loc.line || !r->loc.line ||
            y->loc.file != r->loc.file || y->loc.file != kl.file || y->loc.line < kl.line ||
            y->loc.line > r->loc.line || (y->loc.line == r->loc.line && y->loc.col >= r->loc.col))
            continue;
        sh[i] = true;
        *(uint32_t *)augur_vec_push(&c->fshared) = i;
        AUGUR_VEC_AT(&c->forks, struct forkinfo, f).nshared++;
    }
    c->shared = sh;
    return old;
}

static void leave_region(struct comp *c, bool *old)
{
    c->par_depth--;
    if (c->shared != old)
        augur_free(c->shared);
    c->shared = old;
}

/* The loop's first access to array a, an update preferred. */
static const struct augur_node *red_access(const struct augur_node *n, uint32_t a,
                                           const struct augur_node *best)
{
    const struct augur_node *kid;

    if (n->kind == AUGUR_NODE_ACCESS && n->u.access.array == a &&
        (!best ||
         (best->u.access.mode != AUGUR_ACCESS_RMW && n->u.access.mode == AUGUR_ACCESS_RMW)))
        best = n;
    augur_node_for_each_kid(n, kid) {
        best = red_access(kid, a, best);
    }
    return best;
}

/*
 * A bound of an array section, s[0 .. len): empty (returns 0), an integer
 * or an integer scalar's name (returns 1), else -1.
 */
static int red_bound(const struct comp *c, const char *s, size_t len, int32_t *sym, bool *shared,
                     int64_t *v)
{
    char buf[128], *end;

    while (len && isspace((unsigned char)*s)) {
        s++;
        len--;
    }
    while (len && isspace((unsigned char)s[len - 1]))
        len--;
    *sym = -1;
    *shared = false;
    if (len == 0)
        return 0;
    if (len >= sizeof(buf))
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (isdigit((unsigned char)buf[0])) {
        *v = strtoll(buf, &end, 10);
        return *end == '\0' && *v >= 0 ? 1 : -1;
    }
    for (uint32_t i = 0; i < c->k->nsyms; i++)
        if (!strcmp(c->k->syms[i].name, buf) && augur_type_is_int(c->k->syms[i].type)) {
            *sym = (int32_t)i;
            *shared = c->shared && c->shared[i];
            return 1;
        }
    return -1;
}

/*
 * The array-section reductions of worksharing loop n (reduction(+: y[:n]),
 * reduction(+: y[lo:len]), or a whole array): appended to c->reds; returns
 * how many. Scalar reductions need nothing: the team shares the scalar,
 * which ends with the combined value.
 */
static uint32_t creductions(struct comp *c, const struct augur_node *n)
{
    const struct augur_omp *o = &n->u.loop.omp;
    uint32_t count = 0;

    for (uint32_t r = 0; r < o->nreductions; r++) {
        const char *v = o->reductions[r].var, *br = strchr(v, '['), *colon, *close;
        size_t nlen = br ? (size_t)(br - v) : strlen(v);
        const struct augur_node *acc;
        struct redinfo d;
        int32_t a = -1;

        while (nlen && isspace((unsigned char)v[nlen - 1]))
            nlen--;
        for (uint32_t i = 0; i < c->k->narrays; i++)
            if (strlen(c->k->arrays[i].name) == nlen && !strncmp(c->k->arrays[i].name, v, nlen))
                a = (int32_t)i;
        if (a < 0)
            continue; /* a scalar */
        memset(&d, 0, sizeof(d));
        d.array = (uint32_t)a;
        d.lo_sym = d.len_sym = -1;
        d.len = -1;
        colon = br ? strchr(br, ':') : NULL;
        close = br ? strchr(br, ']') : NULL;
        if (br &&
            (!colon || !close || close < colon ||
             red_bound(c, br + 1, (size_t)(colon - br - 1), &d.lo_sym, &d.lo_shared, &d.lo) < 0 ||
             red_bound(c, colon + 1, (size_t)(close - colon - 1), &d.len_sym, &d.len_shared,
                       &d.len) < 0)) {
            interp_warn(c->in, n->id,
                        "reduction section '%s' is not [LO:LEN] with integers or scalar names: "
                        "the whole array is combined",
                        v);
            d.lo_sym = d.len_sym = -1;
            d.lo = 0;
            d.len = -1;
        }
        acc = red_access(n, d.array, NULL);
        if (!acc) {
            interp_warn(c->in, n->id,
                        "reduction array '%s' is not accessed in the loop: its combination is "
                        "not simulated",
                        c->k->arrays[a].name);
            continue;
        }
        d.node = acc->id;
        d.slot = slot(c, acc);
        d.per = acc->u.access.mode == AUGUR_ACCESS_RMW ? 1 : 2;
        d.size = (uint16_t)augur_type_size(acc->u.access.type);
        *(struct redinfo *)augur_vec_push(&c->reds) = d;
        count++;
    }
    return count;
}

static void cloop_ws(struct comp *c, const struct augur_node *n, const struct canon *cn, bool fork)
{
    const struct augur_loop_info *l = &n->u.loop;
    enum augur_type vt = c->k->syms[l->var].type;
    uint32_t save = c->top, ops, ws = (uint32_t)c->ws.len, next, cont, exitpc;
    struct wsinfo *wi;
    struct loopctx *lc;
    uint32_t chunk = NO_REG, fidx = (uint32_t)c->forks.len;
    bool *outer = NULL;

    if (fork) {
        uint32_t ntr = NO_REG;
        struct forkinfo *fi;

        if (l->omp.num_threads)
            ntr = cexpr_as(c, l->omp.num_threads, AUGUR_T_I64, newtmp(c));
        fi = augur_vec_push(&c->forks);
        fi->node = n->id;
        fi->nt_reg = (uint16_t)ntr;
        emit(c, OP_FORK, 0, 0, 0, 0, (uint32_t)c->forks.len - 1, 0, 0);
        outer = enter_region(c, n, (uint32_t)c->forks.len - 1);
    }
    ops = newtmp(c);
    newtmp(c);
    newtmp(c);
    newtmp(c);
    cexpr_as(c, l->init, vt, ops);
    conv(c, ops, vt, cn->ctype, ops + 1);
    cexpr_as(c, cn->bound, cn->ctype, ops + 2);
    cexpr_as(c, cn->step, vt, ops + 3);
    if (cn->sub)
        emit(c, OP_NEG, 0, ops + 3, ops + 3, 0, 0, 0, 0);
    else if (!is64(vt) && !is_signed_int(vt)) {
        /* an unsigned step of a narrow type: its sign-extended value (i += -1u counts down) */
        int no = norm_op(vt == AUGUR_T_U32   ? AUGUR_T_I32
                         : vt == AUGUR_T_U16 ? AUGUR_T_I16
                                             : AUGUR_T_I8);
        if (vt != AUGUR_T_BOOL && no >= 0)
            emit(c, (enum interp_op)no, 0, ops + 3, ops + 3, 0, 0, 0, 0);
    }
    if (l->omp.chunk && !c->in->opts.sched_given)
        chunk = cexpr_as(c, l->omp.chunk, AUGUR_T_I64, newtmp(c));
    wi = augur_vec_push(&c->ws);
    wi->sched = l->omp.sched;
    wi->chunk_reg = (uint16_t)chunk;
    if (c->in->opts.sched_given) {
        /* the caller's "what if" replaces the directive's schedule, chunk and all */
        wi->sched = c->in->opts.sched;
        wi->chunk = c->in->opts.chunk;
    }
    wi->var = (uint16_t)l->var;
    wi->ops = (uint16_t)ops;
    wi->vtype = vt;
    wi->ctype = cn->ctype;
    wi->rel = cn->rel;
    wi->nowait = fork || (l->omp.flags & AUGUR_OMP_NOWAIT);
    wi->node = slot(c, n);
    wi->red = (uint32_t)c->reds.len;
    wi->nred = creductions(c, n);
    emit(c, OP_WSBEGIN, 0, 0, 0, 0, ws, 0, 0);
    next = emit(c, OP_WSNEXT, 0, 0, 0, 0, ws, 0, 0);
    lc = push_loop(c, n);
    if (!lc) {
        if (fork)
            leave_region(c, outer);
        return;
    }
    cont = cbody(c, n);
    emit(c, OP_JMP, 0, 0, 0, 0, next, 0, 0);
    exitpc = emit(c, OP_WSEND, 0, 0, 0, 0, ws, 0, 0);
    AUGUR_VEC_AT(&c->ws, struct wsinfo, ws).exit_pc = exitpc;
    pop_loop(c, cont, exitpc);
    if (fork) {
        emit(c, OP_JOIN, 0, 0, 0, 0, fidx, 0, 0);
        leave_region(c, outer);
    }
    c->top = save;
}

static void cloop(struct comp *c, const struct augur_node *n)
{
    const struct augur_loop_info *l = &n->u.loop;
    uint32_t save = c->top, top, test, exitpc, cs = slot(c, n), tc = 0;
    struct loopctx *lc;
    struct augur_vec to;
    double trips = 0;
    bool tripped = false, hoisted = false;
    uint32_t hreg = 0, oreg;
    enum augur_type hct = AUGUR_T_I64;
    enum augur_op hop = AUGUR_OP_LT;
    bool hleft = false;

    if (!l->gridstride && !c->kernel->u.kernel.cuda && l->form == AUGUR_LOOP_FOR &&
        ((l->omp.flags & AUGUR_OMP_FOR) || (l->parallel && l->omp.flags == 0))) {
        struct canon cn;
        bool fork = l->omp.flags == 0 || (l->omp.flags & AUGUR_OMP_PARALLEL);

        if (canonical(c, n, &cn)) {
            if (l->omp.collapse > 1)
                interp_warn(c->in, n->id,
                            "collapse(%u): only the outer loop's iterations are shared out",
                            l->omp.collapse);
            cloop_ws(c, n, &cn, fork);
            return;
        }
        interp_warn(c->in, n->id,
                    "parallel loop is not in OpenMP canonical form (var < bound, var += step, "
                    "both invariant): it runs on one thread");
    }
    augur_vec_init(&to, sizeof(uint32_t));
    if (l->form == AUGUR_LOOP_FOR)
        cexpr_as(c, l->init, c->k->syms[l->var].type, (uint32_t)l->var);
    tripped = trip_loop(c, n, &trips);
    if (tripped) {
        tc = newtmp(c);
        emit(c, OP_TRIPS, 0, tc, 0, 0, 0, 0, 0);
        at(c, pc_of(c) - 1)->imm.f = trips;
    } else if (l->cond && l->form != AUGUR_LOOP_DO && l->cond->kind == AUGUR_EXPR_BINARY &&
               is_cmp(l->cond->u.bin.op)) {
        /* hoist an invariant, non-trivial side of the comparison out of the loop */
        const struct augur_expr *a = l->cond->u.bin.a, *b = l->cond->u.bin.b;

        hct = augur_type_arith(a->type, b->type);
        memset(c->wsym, 0, c->k->nsyms * sizeof(bool));
        mark_written(c, n);
        if (!isf(hct) && !cheap(b) && invariant(c, b)) {
            hreg = cexpr_as(c, b, hct, newtmp(c));
            hoisted = true;
            hleft = false;
        } else if (!isf(hct) && !cheap(a) && invariant(c, a)) {
            hreg = cexpr_as(c, a, hct, newtmp(c));
            hoisted = true;
            hleft = true;
        }
        hop = l->cond->u.bin.op;
    }
    lc = push_loop(c, n);
    if (!lc) {
        augur_vec_release(&to);
        return;
    }
    test = 0;
    if (l->form != AUGUR_LOOP_DO)
        note_jump(&to, emit(c, OP_JMP, 0, 0, 0, 0, 0, 0, 0));
    top = pc_of(c);
    if (l->form == AUGUR_LOOP_DO)
        emit(c, OP_CNT, 0, 0, 0, 0, 0, cs, 0);
    {
        uint32_t contpc = cbody(c, n);

        c->node = n->id; /* the step and the test are the loop's, not its last statement's */
        /* continue point: the step's operations, the step, then the test */
        if (l->form == AUGUR_LOOP_FOR)
            cexpr_as(c, l->next, c->k->syms[l->var].type, (uint32_t)l->var);
        if (tripped)
            emit(c, OP_ADDI, 0, tc, tc, 0, 0, 0, -1);
        test = pc_of(c);
        patch(c, &to, test);
        {
            struct augur_vec back;
            uint32_t bslot = l->form == AUGUR_LOOP_DO ? 0 : cs;

            augur_vec_init(&back, sizeof(uint32_t));
            if (tripped) {
                note_jump(&back, emit(c, OP_JNZ, 0, 0, tc, 0, 0, bslot, 0));
            } else if (!l->cond) {
                note_jump(&back, emit(c, OP_JMP, 0, 0, 0, 0, 0, bslot, 0));
            } else if (hoisted) {
                uint32_t s2 = c->top;

                oreg = cexpr_as(c, hleft ? l->cond->u.bin.b : l->cond->u.bin.a, hct, NO_REG);
                cjump_cmp(c, hop, hleft ? hreg : oreg, hleft ? oreg : hreg, hct, true, &back,
                          bslot);
                c->top = s2;
            } else {
                cjump(c, l->cond, true, &back, bslot);
            }
            patch(c, &back, top);
            augur_vec_release(&back);
        }
        exitpc = pc_of(c);
        pop_loop(c, contpc, exitpc);
    }
    augur_vec_release(&to);
    c->top = save;
}

static void cbranch(struct comp *c, const struct augur_node *n)
{
    const struct augur_branch_info *b = &n->u.branch;
    struct augur_vec to;
    uint32_t j;
    double p;

    augur_vec_init(&to, sizeof(uint32_t));
    if (override(c, c->in->opts.probs, n, &p)) {
        j = emit(c, OP_PROB, 0, 0, 0, 0, 0, 0, 0);
        at(c, j)->imm.f = p;
        note_jump(&to, j);
    } else if (augur_expr_has_opaque(b->cond)) {
        p = b->prob;
        if (p < 0) {
            p = c->in->opts.default_prob;
            interp_warn(c->in, n->id,
                        "branch condition depends on a value outside the slice: taken with "
                        "probability %g (#pragma augur prob(P) sets it)",
                        p);
        }
        j = emit(c, OP_PROB, 0, 0, 0, 0, 0, 0, 0);
        at(c, j)->imm.f = p;
        note_jump(&to, j);
    } else {
        cjump(c, b->cond, false, &to, 0);
    }
    emit(c, OP_CNT, 0, 0, 0, 0, 0, slot(c, n), 0);
    ckids(c, n, 0, b->nthen);
    if (b->nthen < n->nkids) {
        j = emit(c, OP_JMP, 0, 0, 0, 0, 0, 0, 0);
        patch(c, &to, pc_of(c));
        ckids(c, n, b->nthen, n->nkids);
        at(c, j)->d = pc_of(c);
    } else {
        patch(c, &to, pc_of(c));
    }
    augur_vec_release(&to);
}

static void cregion(struct comp *c, const struct augur_node *n)
{
    const struct augur_region_info *r = &n->u.region;
    uint32_t save = c->top, j;

    switch (r->kind) {
    case AUGUR_REGION_PARALLEL: {
        uint32_t f = (uint32_t)c->forks.len, ntr = NO_REG;
        struct forkinfo *fi;
        bool *outer;

        if (r->omp.num_threads)
            ntr = cexpr_as(c, r->omp.num_threads, AUGUR_T_I64, newtmp(c));
        fi = augur_vec_push(&c->forks);
        fi->node = n->id;
        fi->nt_reg = (uint16_t)ntr;
        emit(c, OP_FORK, 0, 0, 0, 0, f, 0, 0);
        outer = enter_region(c, n, f);
        ckids(c, n, 0, n->nkids);
        leave_region(c, outer);
        emit(c, OP_JOIN, 0, 0, 0, 0, f, 0, 0);
        break;
    }
    case AUGUR_REGION_MASTER:
        j = emit(c, OP_MASTER, 0, 0, 0, 0, 0, 0, 0);
        ckids(c, n, 0, n->nkids);
        at(c, j)->d = pc_of(c);
        break;
    case AUGUR_REGION_SINGLE:
        j = emit(c, OP_SINGLE, 0, 0, 0, 0, 0, 0, 0);
        ckids(c, n, 0, n->nkids);
        at(c, j)->d = pc_of(c);
        if (!(r->omp.flags & AUGUR_OMP_NOWAIT))
            emit(c, OP_BARRIER, 0, 0, 0, 0, n->id, 0, 0);
        break;
    default: /* critical, atomic: their body, in turn */
        ckids(c, n, 0, n->nkids);
        break;
    }
    c->top = save;
}

static void cnode(struct comp *c, const struct augur_node *n)
{
    uint32_t save = c->top;

    if (c->rc)
        return;
    c->node = n->id;
    switch (n->kind) {
    case AUGUR_NODE_ACCESS:
        caccess(c, n);
        break;
    case AUGUR_NODE_ASSIGN: {
        uint32_t s = n->u.assign.sym;

        if (c->shared && c->shared[s])
            emit(c, OP_STS, 0, s, cexpr_as(c, n->u.assign.value, c->k->syms[s].type, NO_REG), 0, 0,
                 0, 0);
        else
            cexpr_as(c, n->u.assign.value, c->k->syms[s].type, s);
        break;
    }
    case AUGUR_NODE_OPS:
    case AUGUR_NODE_CALL:
        emit(c, OP_CNT, 0, 0, 0, 0, 0, slot(c, n), 0);
        break;
    case AUGUR_NODE_SYNC:
        if (n->u.sync == AUGUR_SYNC_THREADS || n->u.sync == AUGUR_SYNC_BARRIER)
            emit(c, OP_BARRIER, 0, 0, 0, 0, n->id, slot(c, n), 0);
        else
            emit(c, OP_CNT, 0, 0, 0, 0, 0, slot(c, n), 0);
        break;
    case AUGUR_NODE_JUMP:
        if (n->u.jump == AUGUR_JUMP_RETURN) {
            if (c->par_depth) {
                fail(c, AUGUR_EUNSUP, n->id, "'return' inside an OpenMP parallel region");
                return;
            }
            note_jump(&c->rets, emit(c, OP_JMP, 0, 0, 0, 0, 0, 0, 0));
        } else if (c->nloops == 0) {
            fail(c, AUGUR_EUNSUP, n->id, "'%s' outside a loop",
                 n->u.jump == AUGUR_JUMP_BREAK ? "break" : "continue");
        } else {
            struct loopctx *l = &c->loops[c->nloops - 1];

            note_jump(n->u.jump == AUGUR_JUMP_BREAK ? &l->brk : &l->cont,
                      emit(c, OP_JMP, 0, 0, 0, 0, 0, 0, 0));
        }
        break;
    case AUGUR_NODE_REGION:
        cregion(c, n);
        break;
    case AUGUR_NODE_BRANCH:
        cbranch(c, n);
        break;
    case AUGUR_NODE_LOOP:
        cloop(c, n);
        break;
    default:
        break;
    }
    c->top = save;
}

/* ---- the kernel
 * ---------------------------------------------------------------------------------------- */

int interp_compile(struct augur_interp *in, struct augur_diag *diag)
{
    struct comp c;
    int rc;

    memset(&c, 0, sizeof(c));
    c.in = in;
    c.diag = diag;
    c.kernel = in->kernel;
    c.k = &in->kernel->u.kernel;
    augur_vec_init(&c.code, sizeof(struct ins));
    augur_vec_init(&c.cnode, sizeof(uint32_t));
    augur_vec_init(&c.rets, sizeof(uint32_t));
    augur_vec_init(&c.ws, sizeof(struct wsinfo));
    augur_vec_init(&c.forks, sizeof(struct forkinfo));
    augur_vec_init(&c.fshared, sizeof(uint32_t));
    augur_vec_init(&c.reds, sizeof(struct redinfo));
    c.stored = augur_calloc(c.k->narrays + 1, sizeof(bool));
    c.wsym = augur_calloc(c.k->nsyms + 1, sizeof(bool));
    c.node = in->kernel->id;
    if (check_overrides(&c, "probability", in->opts.probs, 0, 1) ||
        check_overrides(&c, "trip count", in->opts.trips, 0, 1e15)) {
        rc = c.rc;
        goto out;
    }
    /* constants: the expressions' own, and the zeros the compiler compares with */
    kadd(&c, (union augur_value){ .i = 0 }, false);
    kadd(&c, (union augur_value){ .f = 0.0 }, true);
    collect_node(&c, in->kernel);
    if (c.k->nsyms + c.nk >= MAX_REGS) {
        rc = fail(&c, AUGUR_ELIMIT, in->kernel->id, "kernel has too many names and constants");
        goto out;
    }
    c.cbase = c.k->nsyms;
    {
        uint32_t r = c.cbase;

        for (uint32_t i = 0; i < c.kcap; i++)
            if (c.kt[i].used)
                c.kt[i].reg = (uint16_t)r++;
    }
    c.tbase = c.cbase + c.nk;
    ckids(&c, in->kernel, 0, in->kernel->nkids);
    c.node = in->kernel->id;
    patch(&c, &c.rets, pc_of(&c));
    emit(&c, OP_END, 0, 0, 0, 0, 0, 0, 0);
    rc = c.rc;
    if (rc)
        goto out;
    in->nregs = c.tbase + c.maxtop + 1;
    in->init_regs = augur_calloc(in->nregs, sizeof(union augur_value));
    for (uint32_t i = 0; i < c.kcap; i++)
        if (c.kt[i].used)
            in->init_regs[c.kt[i].reg] = c.kt[i].v;
    {
        size_t n;

        in->code = augur_vec_take(&c.code, &n);
        in->ncode = (uint32_t)n;
        in->code_node = augur_vec_take(&c.cnode, &n);
        in->ws = augur_vec_take(&c.ws, &n);
        in->nws = (uint32_t)n;
        in->forks = augur_vec_take(&c.forks, &n);
        in->nforks = (uint32_t)n;
        in->fork_shared = augur_vec_take(&c.fshared, &n);
        in->reds = augur_vec_take(&c.reds, &n);
        in->nreds = (uint32_t)n;
    }
    for (uint32_t i = 0; i < c.k->narrays; i++)
        in->ainfo[i].written = c.stored[i];
out:
    augur_vec_release(&c.code);
    augur_vec_release(&c.cnode);
    augur_vec_release(&c.rets);
    augur_vec_release(&c.ws);
    augur_vec_release(&c.forks);
    augur_vec_release(&c.fshared);
    augur_vec_release(&c.reds);
    augur_free(c.shared);
    for (unsigned i = 0; i < c.nloops; i++) {
        augur_vec_release(&c.loops[i].brk);
        augur_vec_release(&c.loops[i].cont);
    }
    augur_free(c.kt);
    augur_free(c.stored);
    augur_free(c.wsym);
    return rc;
}
