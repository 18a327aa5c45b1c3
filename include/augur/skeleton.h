/*
 * skeleton.h - the skeleton IR: kernels reduced to their address and
 * control-flow slice, with accesses, operation counts and source locations;
 * builder, validator, text (.skel) and JSON forms, bindings (module: skeleton).
 */
#ifndef AUGUR_SKELETON_H
#define AUGUR_SKELETON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "augur/base.h"

/*
 * A skeleton keeps, for each kernel function, the computations that decide
 * addresses and control flow (loop bounds, index arithmetic, loads of index
 * arrays, branch conditions and the stores that feed them) as executable
 * expressions; everything else is reduced to operation counts. Everything a
 * skeleton holds lives in its arena: nodes, expressions, strings, arrays.
 * The structures are public and read-only by convention.
 */

/* ---- value types --------------------------------------------------------- */

/* Scalar types: enum name, text name, size in bytes. */
#define AUGUR_TYPES(X) \
    X(VOID, "void", 0) \
    X(BOOL, "bool", 1) \
    X(I8, "i8", 1)     \
    X(U8, "u8", 1)     \
    X(I16, "i16", 2)   \
    X(U16, "u16", 2)   \
    X(I32, "i32", 4)   \
    X(U32, "u32", 4)   \
    X(I64, "i64", 8)   \
    X(U64, "u64", 8)   \
    X(F32, "f32", 4)   \
    X(F64, "f64", 8)   \
    X(PTR, "ptr", 8)   \
    X(REC, "rec", 0) /* a struct element: its size is the array's elem_size */

enum augur_type {
#define X(e, name, size) AUGUR_T_##e,
    AUGUR_TYPES(X)
#undef X
        AUGUR_T_COUNT
};

AUGUR_API const char *augur_type_name(enum augur_type t);
/* Size in bytes (0 for void and rec). */
AUGUR_API unsigned augur_type_size(enum augur_type t);
/* Looks a type name up ("f64"); returns false when unknown. */
AUGUR_API bool augur_type_parse(const char *name, size_t len, enum augur_type *out);
AUGUR_API bool augur_type_is_float(enum augur_type t);
AUGUR_API bool augur_type_is_signed(enum augur_type t);
/* True for bool and the integer types (not ptr). */
AUGUR_API bool augur_type_is_int(enum augur_type t);
/* The values an integer type holds, as doubles (u64's top rounded up; others exact). */
AUGUR_API void augur_type_range(enum augur_type t, double *lo, double *hi);

/* A value of an element type: integers in i (u64 in u), floating point in f. */
union augur_value {
    int64_t i;
    uint64_t u;
    double f;
};

/* Stores v at p as one element of type t (its size: augur_type_size()). */
AUGUR_API void augur_type_write(void *p, enum augur_type t, union augur_value v);
/* The type of a binary arithmetic operation on a and b (C's usual conversions). */
AUGUR_API enum augur_type augur_type_arith(enum augur_type a, enum augur_type b);

/* A source location: index into augur_skel.files, 1-based line and column (0: unknown). */
struct augur_srcloc {
    uint32_t file;
    uint32_t line;
    uint32_t col;
};

/* ---- expressions --------------------------------------------------------- */

#define AUGUR_EXPR_KINDS(X)                                        \
    X(INT, "int")       /* u.i: integer constant of type type */   \
    X(FP, "fp")         /* u.f: floating-point constant */         \
    X(SYM, "sym")       /* u.sym: index into the kernel's syms */  \
    X(LOAD, "load")     /* u.load: array[index] (+offset bytes) */ \
    X(UNARY, "unary")   /* u.un: op a */                           \
    X(BINARY, "binary") /* u.bin: a op b */                        \
    X(SELECT, "select") /* u.sel: cond ? a : b */                  \
    X(CAST, "cast")     /* u.cast: (type) a */                     \
    X(OPAQUE, "opaque") /* u.opaque: a value outside the slice */

enum augur_expr_kind {
#define X(e, name) AUGUR_EXPR_##e,
    AUGUR_EXPR_KINDS(X)
#undef X
        AUGUR_EXPR_KIND_COUNT
};

/*
 * Operators: enum name, spelling, precedence (higher binds tighter; 0 for the
 * function-style min and max, 15 for the unary ones).
 */
#define AUGUR_OPS(X) \
    X(NEG, "-", 15)  \
    X(NOT, "!", 15)  \
    X(BNOT, "~", 15) \
    X(MUL, "*", 13)  \
    X(DIV, "/", 13)  \
    X(MOD, "%", 13)  \
    X(ADD, "+", 12)  \
    X(SUB, "-", 12)  \
    X(SHL, "<<", 11) \
    X(SHR, ">>", 11) \
    X(LT, "<", 10)   \
    X(LE, "<=", 10)  \
    X(GT, ">", 10)   \
    X(GE, ">=", 10)  \
    X(EQ, "==", 9)   \
    X(NE, "!=", 9)   \
    X(BAND, "&", 8)  \
    X(BXOR, "^", 7)  \
    X(BOR, "|", 6)   \
    X(LAND, "&&", 5) \
    X(LOR, "||", 4)  \
    X(MIN, "min", 0) \
    X(MAX, "max", 0)

enum augur_op {
#define X(e, s, p) AUGUR_OP_##e,
    AUGUR_OPS(X)
#undef X
        AUGUR_OP_COUNT
};

AUGUR_API const char *augur_op_name(enum augur_op op);
AUGUR_API bool augur_op_is_unary(enum augur_op op);
/* True for the comparisons and && || (their result is an i32 0 or 1). */
AUGUR_API bool augur_op_is_logical(enum augur_op op);

struct augur_expr {
    enum augur_expr_kind kind;
    enum augur_type type;
    union {
        int64_t i;           /* INT; unsigned 64-bit values are stored as their bits */
        double f;            /* FP */
        uint32_t sym;        /* SYM */
        struct {             /* LOAD: the value of array[index] at byte offset */
            uint32_t array;  /* index into the kernel's arrays */
            uint32_t offset; /* byte offset inside a rec element, else 0 */
            const struct augur_expr *index;
        } load;
        struct {
            enum augur_op op;
            const struct augur_expr *a;
        } un;
        struct {
            enum augur_op op;
            const struct augur_expr *a, *b;
        } bin;
        struct {
            const struct augur_expr *cond, *a, *b;
        } sel;
        struct {
            const struct augur_expr *a;
        } cast;
        const char *opaque; /* what the value stands for ("call rand", "f64 data") */
    } u;
};

/* ---- symbols and arrays ------------------------------------------------------ */

#define AUGUR_SYM_KINDS(X)                                                     \
    X(PARAM, "param")     /* a scalar argument of the kernel */                \
    X(LOCAL, "local")     /* a scalar variable in the slice, loop variables */ \
    X(BUILTIN, "builtin") /* threadIdx.x, lane, omp.thread, ... (see docs) */

enum augur_sym_kind {
#define X(e, name) AUGUR_SYM_##e,
    AUGUR_SYM_KINDS(X)
#undef X
        AUGUR_SYM_KIND_COUNT
};

/* Where a binding came from, in order of precedence. */
#define AUGUR_BIND_SRCS(X) \
    X(NONE, "none")        \
    X(CLI, "cli")          \
    X(PRAGMA, "pragma")    \
    X(INFERRED, "inferred")

enum augur_bind_src {
#define X(e, name) AUGUR_BIND_##e,
    AUGUR_BIND_SRCS(X)
#undef X
        AUGUR_BIND_SRC_COUNT
};

struct augur_sym {
    const char *name; /* unique among the kernel's syms and arrays */
    enum augur_sym_kind kind;
    enum augur_type type;
    struct augur_srcloc loc;
    const char *bind; /* dataset binding ("n", "nnz", "round", "=5") or NULL */
    enum augur_bind_src bind_src;
};

#define AUGUR_SPACES(X) \
    X(GLOBAL, "global") \
    X(SHARED, "shared") \
    X(LOCAL, "local")   \
    X(CONST, "const")

enum augur_space {
#define X(e, name) AUGUR_SPACE_##e,
    AUGUR_SPACES(X)
#undef X
        AUGUR_SPACE_COUNT
};

struct augur_array {
    const char *name; /* the access path as written: "col", "graph.edge_dst", "A->p" */
    enum augur_type elem;
    uint32_t elem_size; /* bytes per element (the struct size for rec) */
    enum augur_space space;
    bool param;                      /* reached through a kernel argument */
    const struct augur_expr *extent; /* number of elements when known, else NULL */
    struct augur_srcloc loc;         /* declaration */
    const char *bind;                /* "csr.rowptr", "vec(n)", ... or NULL */
    enum augur_bind_src bind_src;
};

/*
 * A front-end remark kept with the kernel: unsupported constructs, opaque
 * calls, and the assumptions it makes (a validity guard taken as valid).
 */
#define AUGUR_NOTE_KINDS(X)       \
    X(WARNING, "warning")         \
    X(UNSUPPORTED, "unsupported") \
    X(GUARD, "guard")

enum augur_note_kind {
#define X(e, name) AUGUR_NOTE_##e,
    AUGUR_NOTE_KINDS(X)
#undef X
        AUGUR_NOTE_KIND_COUNT
};

struct augur_note {
    enum augur_note_kind kind;
    struct augur_srcloc loc;
    const char *msg;
};

/* ---- nodes ------------------------------------------------------------------ */

#define AUGUR_NODE_KINDS(X)                                                \
    X(KERNEL, "kernel") /* u.kernel: one function; kids are its body */    \
    X(LOOP, "loop")     /* u.loop: for / while / do; kids are the body */  \
    X(BRANCH, "if")     /* u.branch: kids[0..nthen) then, the rest else */ \
    X(ACCESS, "access") /* u.access: one memory access (event) */          \
    X(ASSIGN, "set")    /* u.assign: a scalar of the slice gets a value */ \
    X(OPS, "ops")       /* u.ops: operation counts of a straight region */ \
    X(CALL, "call")     /* u.call: an opaque call */                       \
    X(SYNC, "sync")     /* u.sync: barrier */                              \
    X(JUMP, "jump")     /* u.jump: break, continue, return */              \
    X(REGION, "region") /* u.region: omp parallel/critical/...; kids body */

enum augur_node_kind {
#define X(e, name) AUGUR_NODE_##e,
    AUGUR_NODE_KINDS(X)
#undef X
        AUGUR_NODE_KIND_COUNT
};

AUGUR_API const char *augur_node_kind_name(enum augur_node_kind kind);

struct augur_kernel_info {
    const char *name;
    bool cuda;              /* a __global__ function */
    struct augur_sym *syms; /* exact size */
    uint32_t nsyms;
    struct augur_array *arrays; /* exact size */
    uint32_t narrays;
    struct augur_note *notes;
    uint32_t nnotes;
    const struct augur_expr *grid, *block; /* CUDA launch (blocks, threads per block) or NULL */
    /* a function template analysed as instantiated: its arguments ("int, double"), or NULL */
    const char *template_args;
};

#define AUGUR_LOOP_FORMS(X) X(FOR, "for") X(WHILE, "while") X(DO, "do")

enum augur_loop_form {
#define X(e, name) AUGUR_LOOP_##e,
    AUGUR_LOOP_FORMS(X)
#undef X
};

#define AUGUR_SCHEDS(X)   \
    X(NONE, "none")       \
    X(STATIC, "static")   \
    X(DYNAMIC, "dynamic") \
    X(GUIDED, "guided")   \
    X(AUTO, "auto")       \
    X(RUNTIME, "runtime")

enum augur_sched {
#define X(e, name) AUGUR_SCHED_##e,
    AUGUR_SCHEDS(X)
#undef X
        AUGUR_SCHED_COUNT
};

/* OpenMP directive words (bit flags of augur_omp.flags). */
#define AUGUR_OMP_PARALLEL (1u << 0)
#define AUGUR_OMP_FOR      (1u << 1)
#define AUGUR_OMP_SIMD     (1u << 2)
#define AUGUR_OMP_NOWAIT   (1u << 3)

struct augur_reduction {
    const char *op;  /* "+", "*", "max", "min", "&", "|", "^", "&&", "||" */
    const char *var; /* the variable as written */
};

/* The OpenMP directive on a loop or region (flags 0: none). */
struct augur_omp {
    uint32_t flags;
    enum augur_sched sched;
    const struct augur_expr *chunk;       /* schedule chunk or NULL */
    const struct augur_expr *num_threads; /* num_threads clause or NULL */
    uint32_t collapse;                    /* 0: not given */
    struct augur_reduction *reductions;
    uint32_t nreductions;
};

/*
 * A loop. FOR: var = init; while cond: body; var = next. WHILE: while cond:
 * body. DO: body; while cond. cond NULL means "forever" (left by break or
 * return). trips, when >= 0, stands in for a condition outside the slice.
 */
struct augur_loop_info {
    enum augur_loop_form form;
    int32_t var; /* FOR: the sym index of the loop variable, else -1 */
    const struct augur_expr *init, *cond, *next;
    bool parallel;   /* iterations are spread over threads (omp for, grid-stride) */
    bool gridstride; /* CUDA: start from the global thread id, step by the grid size */
    struct augur_omp omp;
    double trips; /* < 0: not given */
};

/* A branch; prob, when >= 0, is the probability of the then part. */
struct augur_branch_info {
    const struct augur_expr *cond;
    uint32_t nthen;
    double prob;
};

#define AUGUR_ACCESS_MODES(X) \
    X(READ, "load")           \
    X(WRITE, "store")         \
    X(RMW, "update")

enum augur_access_mode {
#define X(e, name) AUGUR_ACCESS_##e,
    AUGUR_ACCESS_MODES(X)
#undef X
};

/* Flags of an access. */
#define AUGUR_ACC_ATOMIC (1u << 0) /* atomic read-modify-write */
#define AUGUR_ACC_LDG    (1u << 1) /* CUDA read-only cache (__ldg) */
#define AUGUR_ACC_REUSE  (1u << 2) /* the same element was read earlier in this region */
#define AUGUR_ACC_STREAM (1u << 3) /* non-temporal (stream) store or load */

/*
 * One memory access, an event when the skeleton runs. With lanes > 1 it is a
 * SIMD access: index (and mask) are evaluated once per lane with the builtin
 * sym "lane" set to 0 .. lanes-1; a lane whose mask is 0 does not access.
 * value is the stored value when the slice needs it (stores into arrays that
 * the slice reads back), else NULL.
 */
struct augur_access_info {
    uint32_t array;
    enum augur_access_mode mode;
    enum augur_type type; /* type of one lane's value */
    uint32_t offset;      /* byte offset inside a rec element */
    const struct augur_expr *index;
    const struct augur_expr *value;
    const struct augur_expr *mask; /* NULL: all lanes */
    uint32_t lanes;                /* 1 for scalar accesses */
    uint32_t flags;
    bool indirect; /* the index depends on loaded values */
    uint32_t *via; /* the arrays those values were loaded from */
    uint32_t nvia;
};

struct augur_assign_info {
    uint32_t sym;
    const struct augur_expr *value;
};

/*
 * Operation kinds counted per region: enum name, text name. Vector forms
 * carry lanes > 1; the masked flag marks AVX-512 masked variants.
 */
#define AUGUR_OPKINDS(X)                                            \
    X(FADD, "fadd") /* floating add and subtract */                 \
    X(FMUL, "fmul")                                                 \
    X(FFMA, "ffma") /* fused multiply-add */                        \
    X(FDIV, "fdiv")                                                 \
    X(FSQRT, "fsqrt")                                               \
    X(FMATH, "fmath") /* exp, log, pow, sin, ... */                 \
    X(IADD, "iadd")   /* integer add and subtract */                \
    X(IMUL, "imul")                                                 \
    X(IDIV, "idiv")   /* integer division and remainder */          \
    X(IBIT, "ibit")   /* and, or, xor, not, shifts */               \
    X(CMP, "cmp")     /* comparisons, min, max */                   \
    X(CVT, "cvt")     /* conversions between int and float */       \
    X(VLOAD, "vload") /* contiguous vector load */                  \
    X(VSTORE, "vstore")                                             \
    X(GATHER, "gather")                                             \
    X(SCATTER, "scatter")                                           \
    X(CONFLICT, "conflict") /* _mm512_conflict_epi32/64 */          \
    X(REDUCE, "reduce")     /* horizontal reductions */             \
    X(BCAST, "bcast")       /* set1, broadcast, set */              \
    X(PERM, "perm")         /* permute, shuffle, blend, compress */ \
    X(MASK, "mask")         /* mask register operations */          \
    X(VOTHER, "vother")     /* other vector operations */

enum augur_opkind {
#define X(e, name) AUGUR_OPK_##e,
    AUGUR_OPKINDS(X)
#undef X
        AUGUR_OPK_COUNT
};

AUGUR_API const char *augur_opkind_name(enum augur_opkind k);

struct augur_opcount {
    enum augur_opkind op;
    enum augur_type type;
    uint32_t lanes; /* 1: scalar */
    bool masked;
    /*
     * The result feeds the same operation in the next iteration of the
     * innermost loop (a loop-carried accumulator, sum += ...): the
     * iterations wait for its latency, not its issue slot.
     */
    bool carried;
    uint64_t count;
    /*
     * Carried: the independent accumulators the count is spread over
     * (acc0 += ...; acc1 += ...: two chains that overlap); 0 or 1: one.
     */
    uint32_t chains;
};

struct augur_ops_info {
    struct augur_opcount *v; /* sorted by (op, type, lanes, masked, carried), no duplicates */
    uint32_t n;
};

struct augur_call_info {
    const char *name;
};

#define AUGUR_SYNC_KINDS(X)                   \
    X(THREADS, "threads") /* __syncthreads */ \
    X(WARP, "warp")       /* __syncwarp */    \
    X(BARRIER, "barrier") /* omp barrier */   \
    X(FENCE, "fence")     /* memory fences, omp flush */

enum augur_sync_kind {
#define X(e, name) AUGUR_SYNC_##e,
    AUGUR_SYNC_KINDS(X)
#undef X
};

#define AUGUR_JUMP_KINDS(X) X(BREAK, "break") X(CONTINUE, "continue") X(RETURN, "return")

enum augur_jump_kind {
#define X(e, name) AUGUR_JUMP_##e,
    AUGUR_JUMP_KINDS(X)
#undef X
};

#define AUGUR_REGION_KINDS(X) \
    X(PARALLEL, "parallel")   \
    X(CRITICAL, "critical")   \
    X(ATOMIC, "atomic")       \
    X(MASTER, "master")       \
    X(SINGLE, "single")

enum augur_region_kind {
#define X(e, name) AUGUR_REGION_##e,
    AUGUR_REGION_KINDS(X)
#undef X
};

struct augur_region_info {
    enum augur_region_kind kind;
    struct augur_omp omp; /* clauses of an omp parallel region */
};

struct augur_node {
    enum augur_node_kind kind;
    uint32_t id; /* dense pre-order id over the whole skeleton */
    struct augur_srcloc loc;
    struct augur_node *parent;
    struct augur_node **kids; /* exact size, arena-owned */
    uint32_t nkids;
    union {
        struct augur_kernel_info kernel; /* KERNEL */
        struct augur_loop_info loop;     /* LOOP */
        struct augur_branch_info branch; /* BRANCH */
        struct augur_access_info access; /* ACCESS */
        struct augur_assign_info assign; /* ASSIGN */
        struct augur_ops_info ops;       /* OPS */
        struct augur_call_info call;     /* CALL */
        enum augur_sync_kind sync;       /* SYNC */
        enum augur_jump_kind jump;       /* JUMP */
        struct augur_region_info region; /* REGION */
    } u;
};

#define augur_node_for_each_kid(n, k) \
    for (uint32_t k##_i = 0; k##_i < (n)->nkids && ((k) = (n)->kids[k##_i], 1); k##_i++)

/* A whole skeleton: the kernels of one source file. */
struct augur_skel {
    struct augur_arena arena;
    const char **files; /* source files; srcloc.file indexes them */
    uint32_t nfiles;
    struct augur_node **kernels;
    uint32_t nkernels;
    struct augur_node **nodes; /* every node by id */
    uint32_t nnodes;
};

/* ---- building ------------------------------------------------------------------ */

/* Returns an empty skeleton. Caller owns it; free with augur_skel_free(). */
AUGUR_API struct augur_skel *augur_skel_new(void);
/* Frees a skeleton and everything in its arena; NULL is a no-op. */
AUGUR_API void augur_skel_free(struct augur_skel *skel);
/* Adds a source file name (or finds it) and returns its index. */
AUGUR_API uint32_t augur_skel_add_file(struct augur_skel *skel, const char *path);

/*
 * Expression constructors: the result lives in the skeleton's arena.
 * augur_expr_binary computes the result type (C's usual conversions; i32
 * for comparisons and logical operators) and folds constant operands;
 * augur_expr_unary folds negated constants.
 */
AUGUR_API const struct augur_expr *augur_expr_int(struct augur_skel *skel, enum augur_type type,
                                                  int64_t v);
AUGUR_API const struct augur_expr *augur_expr_fp(struct augur_skel *skel, enum augur_type type,
                                                 double v);
AUGUR_API const struct augur_expr *augur_expr_sym(struct augur_skel *skel, enum augur_type type,
                                                  uint32_t sym);
AUGUR_API const struct augur_expr *augur_expr_load(struct augur_skel *skel, enum augur_type type,
                                                   uint32_t array, uint32_t offset,
                                                   const struct augur_expr *index);
AUGUR_API const struct augur_expr *augur_expr_unary(struct augur_skel *skel, enum augur_op op,
                                                    const struct augur_expr *a);
AUGUR_API const struct augur_expr *augur_expr_binary(struct augur_skel *skel, enum augur_op op,
                                                     const struct augur_expr *a,
                                                     const struct augur_expr *b);
AUGUR_API const struct augur_expr *augur_expr_select(struct augur_skel *skel,
                                                     const struct augur_expr *cond,
                                                     const struct augur_expr *a,
                                                     const struct augur_expr *b);
AUGUR_API const struct augur_expr *augur_expr_cast(struct augur_skel *skel, enum augur_type type,
                                                   const struct augur_expr *a);
AUGUR_API const struct augur_expr *augur_expr_opaque(struct augur_skel *skel, enum augur_type type,
                                                     const char *what);

/* True when two expressions are the same tree. */
AUGUR_API bool augur_expr_equal(const struct augur_expr *a, const struct augur_expr *b);
/* True when e (or a part of it) is an OPAQUE value. */
AUGUR_API bool augur_expr_has_opaque(const struct augur_expr *e);
/* True when e reads the sym / the array. */
AUGUR_API bool augur_expr_uses_sym(const struct augur_expr *e, uint32_t sym);
/*
 * Whether anything of kernel reads or sets sym: an expression of a node, an
 * array's extent, the launch. A CUDA kernel's scalars count as used. A
 * parameter nothing uses (one an assert() only tests) needs no binding.
 */
AUGUR_API bool augur_skel_sym_used(const struct augur_node *kernel, uint32_t sym);
AUGUR_API bool augur_expr_uses_array(const struct augur_expr *e, uint32_t array);

struct augur_skel_builder;

/*
 * A builder adds kernels to a skeleton. Nodes are opened (they become the
 * parent of what follows) and closed; a leaf is opened and closed at once.
 * The node returned by open/leaf may be filled in until it is closed (kids)
 * or until augur_skel_builder_finish (everything else). Caller owns the
 * builder; free with augur_skel_builder_free().
 */
AUGUR_API struct augur_skel_builder *augur_skel_builder_new(struct augur_skel *skel);
AUGUR_API void augur_skel_builder_free(struct augur_skel_builder *b);
AUGUR_API struct augur_skel *augur_skel_builder_skel(struct augur_skel_builder *b);
/* Opens a kernel (a new root); name is copied. */
AUGUR_API struct augur_node *augur_skel_begin_kernel(struct augur_skel_builder *b, const char *name,
                                                     struct augur_srcloc loc);
/* Closes the kernel opened last (its syms, arrays and notes become exact-size arrays). */
AUGUR_API void augur_skel_end_kernel(struct augur_skel_builder *b);
/* Drops the kernel being built (its memory stays in the arena until the skeleton is freed). */
AUGUR_API void augur_skel_abandon_kernel(struct augur_skel_builder *b);
AUGUR_API struct augur_node *augur_skel_open(struct augur_skel_builder *b,
                                             enum augur_node_kind kind, struct augur_srcloc loc);
AUGUR_API void augur_skel_close(struct augur_skel_builder *b);
AUGUR_API struct augur_node *augur_skel_leaf(struct augur_skel_builder *b,
                                             enum augur_node_kind kind, struct augur_srcloc loc);
/* The innermost open node (the kernel when no other is open), or NULL. */
AUGUR_API struct augur_node *augur_skel_current(struct augur_skel_builder *b);
/* The number of kids added so far to the innermost open node. */
AUGUR_API uint32_t augur_skel_nkids(struct augur_skel_builder *b);
/* Removes the last kid of the innermost open node (it must be a closed leaf). */
AUGUR_API void augur_skel_drop_last(struct augur_skel_builder *b);
/* Declarations of the open kernel; each returns the new index (names are copied). */
AUGUR_API uint32_t augur_skel_add_sym(struct augur_skel_builder *b, const char *name,
                                      enum augur_sym_kind kind, enum augur_type type,
                                      struct augur_srcloc loc);
AUGUR_API uint32_t augur_skel_add_array(struct augur_skel_builder *b, const char *name,
                                        enum augur_type elem, uint32_t elem_size,
                                        enum augur_space space, bool param,
                                        struct augur_srcloc loc);
AUGUR_API void augur_skel_add_note(struct augur_skel_builder *b, enum augur_note_kind kind,
                                   struct augur_srcloc loc, const char *fmt, ...)
    AUGUR_PRINTF(4, 5);
/* Pointers to the open kernel's declarations; valid until the next add. */
AUGUR_API struct augur_sym *augur_skel_sym(struct augur_skel_builder *b, uint32_t i);
AUGUR_API struct augur_array *augur_skel_array(struct augur_skel_builder *b, uint32_t i);
AUGUR_API uint32_t augur_skel_nsyms(struct augur_skel_builder *b);
AUGUR_API uint32_t augur_skel_narrays(struct augur_skel_builder *b);
/* Looks a name up in the open kernel: returns the index or -1. */
AUGUR_API int32_t augur_skel_find_sym(struct augur_skel_builder *b, const char *name);
AUGUR_API int32_t augur_skel_find_array(struct augur_skel_builder *b, const char *name);
/* Sets an ops node's counts (copied, sorted and merged). */
AUGUR_API void augur_skel_set_ops(struct augur_skel_builder *b, struct augur_node *n,
                                  const struct augur_opcount *v, uint32_t nv);
/* Sets an access's via list (copied). */
AUGUR_API void augur_skel_set_via(struct augur_skel_builder *b, struct augur_node *n,
                                  const uint32_t *via, uint32_t nvia);
/* Sets an omp reduction list (copied). */
AUGUR_API void augur_skel_set_reductions(struct augur_skel_builder *b, struct augur_omp *omp,
                                         const struct augur_reduction *v, uint32_t n);

/*
 * Numbers the nodes (dense pre-order over all kernels), fills skel->nodes
 * and validates the whole skeleton. Every node must be closed. Returns 0 or
 * AUGUR_EINVAL with diag naming the first problem.
 */
AUGUR_API int augur_skel_builder_finish(struct augur_skel_builder *b, struct augur_diag *diag);

/* ---- checking and printing --------------------------------------------------- */

/*
 * Checks every invariant of the IR (ids, parents, kinds, expression types,
 * symbol and array indices, names, loop variables, jumps inside loops, ...).
 * Returns 0 or AUGUR_EINVAL with diag naming the node's file:line:col.
 */
AUGUR_API int augur_skel_validate(const struct augur_skel *skel, struct augur_diag *diag);

/* Appends the text form (.skel) to buf; the format is described in docs/skeleton.md. */
AUGUR_API void augur_skel_format(const struct augur_skel *skel, struct augur_buf *buf);
/* Writes the text form to fp; returns 0 or AUGUR_EIO. */
AUGUR_API int augur_skel_dump(FILE *fp, const struct augur_skel *skel);
/* Appends an expression in the text form's syntax, names taken from kernel. */
AUGUR_API void augur_expr_format(const struct augur_node *kernel, const struct augur_expr *e,
                                 struct augur_buf *buf);
/* Appends the JSON form of the skeleton (one document, indented). */
AUGUR_API void augur_skel_format_json(const struct augur_skel *skel, struct augur_buf *buf);

/*
 * Parses the text form (text[len] must be '\0'); name is used in messages.
 * On success *out is the caller's (augur_skel_free()); on failure diag names
 * name:line:col. The result is validated.
 */
AUGUR_API int augur_skel_parse(const char *text, size_t len, const char *name,
                               struct augur_skel **out, struct augur_diag *diag);
/* Reads and parses a .skel file. */
AUGUR_API int augur_skel_load(const char *path, struct augur_skel **out, struct augur_diag *diag);

/*
 * True when name can name a sym or an array in the text form: an identifier,
 * possibly joined with "." or "->" (graph.edge_dst, A->p, i.2), and none of
 * the words the syntax reserves (min, max and the type names).
 */
AUGUR_API bool augur_skel_name_is_valid(const char *name);
/*
 * True when name can name a kernel: the same syntax, reserved words included
 * (a kernel's name stands only after "kernel", where no expression is read,
 * and must stay the C function's name).
 */
AUGUR_API bool augur_skel_kernel_name_is_valid(const char *name);
/*
 * Whether skel_name names the C name name: the same, or name made unique by
 * the front end ("ptr.2" for a parameter ptr, a word the text form
 * reserves, or one a sym already took).
 */
AUGUR_API bool augur_skel_name_is(const char *skel_name, const char *name);
/*
 * The trip count of a for loop of constant bounds, for (v = a; v < b; ...)
 * (or <=, !=) with integer constants a and b; -1 when not constant. The
 * step is not read: the caller checks it (v++ for a count).
 */
AUGUR_API int64_t augur_skel_loop_const_trips(const struct augur_node *loop);
/* True when name is a builtin sym: threadIdx.x (y, z), blockIdx.*, blockDim.*, gridDim.*,
 * warpSize, lane, omp.thread, omp.nthreads. */
AUGUR_API bool augur_skel_builtin_is_known(const char *name);

/* The kernel a node belongs to. */
AUGUR_API const struct augur_node *augur_node_kernel(const struct augur_node *n);
/* Finds a kernel by name, or NULL. */
AUGUR_API const struct augur_node *augur_skel_find_kernel(const struct augur_skel *skel,
                                                          const char *name);

/* ---- bindings ------------------------------------------------------------------ */

/*
 * Binding targets connect skeleton arrays and scalars to a dataset; the list
 * and their meaning are in docs/skeleton.md ("Bindings"). Returns true when
 * target is a known array target (csr.rowptr, vec(n), ...) or scalar target
 * (n, nnz, round, =VALUE, ...).
 */
AUGUR_API bool augur_bind_is_array_target(const char *target);
AUGUR_API bool augur_bind_is_scalar_target(const char *target);
/*
 * True when a scalar binding reads the round ("round", "round-1", "2*round"):
 * its parameter is the round of a level-synchronous search, set anew for each
 * round (augur_interp_set_round()).
 */
AUGUR_API bool augur_bind_uses_round(const char *target);

/*
 * True when a kernel binds an array or scalar to a tiling.* target: it runs
 * the tiled-and-grouped schedule of a tile size (docs/tiling.md).
 */
AUGUR_API bool augur_kernel_runs_tiling(const struct augur_node *kernel);

/*
 * The value of a name in a scalar binding expression: 0 and *out, or an
 * error in diag.
 */
typedef int augur_bind_value_fn(void *ud, const char *name, int64_t *out, struct augur_diag *diag);

/*
 * Evaluates the scalar binding expression expr[0..len): integer arithmetic
 * (+ - * /, parentheses, unary minus) over integers and scalar target names,
 * whose values fn gives (fn NULL: the names are only checked). Returns 0 and
 * *out (when not NULL), or AUGUR_EBIND: an unknown name (the message lists
 * the names that exist), a syntax error, a division by zero, an overflow.
 */
AUGUR_API int augur_bind_expr_eval(const char *expr, size_t len, augur_bind_value_fn *fn, void *ud,
                                   int64_t *out, struct augur_diag *diag);

/*
 * Reads "sellC." at the start of t[0..len): 0 with the chunk size C (a power
 * of two from 1 to 64) and the offset of the field after the dot, else -1.
 */
AUGUR_API int augur_bind_sell(const char *t, size_t len, uint32_t *chunk, size_t *field);

/* One field of an array of structs bound field by field: rec(OFFSET:TYPE:TARGET,...). */
#define AUGUR_REC_MAX_FIELDS 8
struct augur_rec_field {
    uint32_t offset;      /* byte offset inside the element */
    enum augur_type type; /* the field's type: an integer or floating type */
    char target[96];      /* an array target that is not itself rec() */
};

/*
 * Reads "rec(OFFSET:TYPE:TARGET,...)" in t[0..len): 0 with its *n fields
 * (at most max, in the order written), else -1 (not such a target, or a bad
 * field: a type that is not a number's, a target that is not an array
 * target, fields that overlap).
 */
AUGUR_API int augur_bind_rec(const char *t, size_t len, struct augur_rec_field *f, unsigned max,
                             unsigned *n);

/*
 * True when t is the 1-based variant of an array target ("csr1.rowptr",
 * "vec1(n)"); base (size bytes) then gets the 0-based name.
 */
AUGUR_API bool augur_bind_one_based(const char *t, char *base, size_t size);

/*
 * Applies "name=target,name=target,..." to kernel (every kernel when NULL)
 * with the given source; a name that is not an array or scalar param of
 * the kernel, or a target of the wrong kind, is an AUGUR_EBIND error.
 * Bindings of a lower precedence (pragma < cli) are replaced.
 */
AUGUR_API int augur_skel_bind(struct augur_skel *skel, struct augur_node *kernel, const char *spec,
                              enum augur_bind_src src, struct augur_diag *diag);

/*
 * Infers bindings for the unbound arrays and scalar params of every kernel
 * from the skeleton's structure (row pointers bounding inner loops, index
 * arrays, dense vectors, sizes). Never replaces an explicit binding.
 * Returns 0, or AUGUR_EBIND when two inferences conflict (diag names the
 * array and its line).
 */
AUGUR_API int augur_skel_infer_bindings(struct augur_skel *skel, struct augur_diag *diag);

/*
 * The binding targets that fit an array or scalar parameter of kernel, for
 * a message about a missing binding: from the array's element type and how
 * the kernel uses it ("an offsets array: csr.rowptr, csc.colptr, ..." for an
 * integer array whose values start or bound loops; "csr.val, coo.val,
 * vec(n), ..." for a floating-point one; "n, m, nnz, an expression such as
 * n-1, or a number" for a scalar). Writes a NUL-terminated text of at most
 * size bytes to buf; an unknown name gets the scalar's list.
 */
AUGUR_API void augur_skel_bind_hint(const struct augur_node *kernel, const char *name, char *buf,
                                    size_t size);

/*
 * The name to give --bind for an array or scalar of a skeleton: a struct
 * member's "->" becomes "." (A->p: A.p), which a shell does not read as a
 * redirection and augur_skel_bind() accepts. Writes a NUL-terminated text
 * of at most size bytes to buf.
 */
AUGUR_API void augur_skel_bind_name(const char *name, char *buf, size_t size);

/*
 * Reads a CUDA launch "GRID,BLOCK" (--launch): 0 with two positive whole
 * numbers in *grid and *block; 1 for expressions (one comma outside
 * parentheses, something on both sides: the front end reads them over the
 * kernel's scalars and n, nnz, m; *grid and *block are set to 0); -1 when
 * malformed, with nothing set.
 */
AUGUR_API int augur_skel_launch_parse(const char *s, uint64_t *grid, uint64_t *block);

/*
 * Checks that every global array and every scalar param of kernel (all
 * kernels when NULL) is bound. Returns 0 or AUGUR_EBIND naming the first
 * unbound one and its line.
 */
AUGUR_API int augur_skel_check_bindings(const struct augur_skel *skel,
                                        const struct augur_node *kernel, struct augur_diag *diag);

#endif
