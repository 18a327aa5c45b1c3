/*
 * fe_int.h - what the files of the front end share; the only header that
 * includes <clang-c/Index.h> (module: frontend).
 */
#ifndef AUGUR_FE_INT_H
#define AUGUR_FE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <clang-c/Index.h>

#include "augur/frontend.h"

struct augur_fe {
    CXIndex index;
};

/* ---- cursors ------------------------------------------------------------------------- */

/* A growable array of cursors. */
struct fe_cursors {
    CXCursor *v;
    size_t n, cap;
};

void fe_cursors_push(struct fe_cursors *cs, CXCursor c);
void fe_cursors_release(struct fe_cursors *cs);
/* Appends the direct children of c. */
void fe_children(CXCursor c, struct fe_cursors *out);
/* Skips implicit casts (UnexposedExpr with one expression child) and parentheses. */
CXCursor fe_strip(CXCursor c);
/* Skips implicit casts only. */
CXCursor fe_strip_implicit(CXCursor c);
/* A cursor's spelling copied into buf. */
void fe_spelling(CXCursor c, char *buf, size_t size);
/* Where a cursor starts (see fe_extent_offsets()): file offset, line, column (and the file). */
void fe_cursor_pos(CXCursor c, unsigned *offset, unsigned *line, unsigned *col, CXFile *file);
/*
 * Offsets of a cursor's extent where it is written: a macro argument's code
 * where the argument is spelled, a macro body's where the macro is invoked.
 */
void fe_extent_offsets(CXCursor c, unsigned *begin, unsigned *end);
/* A cursor's extent in the file it was expanded in (whole macro invocations). */
CXSourceRange fe_file_extent(CXTranslationUnit tu, CXCursor c);

/* ---- the translation unit ---------------------------------------------------------------- */

enum fe_pragma_kind { FE_PRAGMA_OMP, FE_PRAGMA_AUGUR };

/* A #pragma omp / #pragma augur line (or a _Pragma in a macro), found in the tokens. */
struct fe_pragma {
    enum fe_pragma_kind kind;
    unsigned offset, line, col;
    char *text; /* the words after "omp" or "augur" */
    bool used;
};

/* A macro definition, tokenized. */
struct fe_macro {
    char *name;
    bool funclike, variadic;
    char **params;
    size_t nparams;
    char **body; /* token spellings */
    size_t nbody;
};

struct fe_map_entry {
    const char *key;
    void *val;
};

/* A string-keyed hash map of borrowed keys. */
struct fe_map {
    struct fe_map_entry *v;
    size_t n, cap;
};

void *fe_map_get(const struct fe_map *m, const char *key);
void fe_map_put(struct fe_map *m, const char *key, void *val);
void fe_map_release(struct fe_map *m);

struct fe_tu {
    struct augur_fe *fe;
    CXTranslationUnit tu;
    CXFile file;          /* the kernels' file: the main file, or the one included file with them */
    const char *path;     /* its name: as given by the caller for the main file */
    const char *contents; /* the kernels' file's text (owned by libclang) */
    size_t size;
    bool cuda;
    const struct augur_fe_opts *opts;
    struct augur_arena arena;  /* strings that live as long as the TU */
    struct fe_map macros;      /* name -> CXCursor * (definition), in arena */
    struct fe_map macro_cache; /* name -> struct fe_macro *, tokenized on demand */
    struct fe_map funcs;       /* name -> CXCursor * of a definition with a body */
    struct fe_cursors kernels; /* candidate kernels in source order */
    struct fe_pragma *pragmas; /* sorted by offset */
    size_t npragmas;
    unsigned *skipped_begin, *skipped_end; /* preprocessor-skipped ranges of the main file */
    size_t nskipped;
    unsigned *exp_begin, *exp_end; /* macro invocations written in the main file (offsets) */
    size_t nexpansions, capexpansions;
};

/* True when c is written in the kernels' file (the main file or the one included file that
 * holds the kernels). */
bool fe_in_kernel_file(const struct fe_tu *t, CXCursor c);

/*
 * The range of the main file's text that c is written in: its spelled
 * extent (code in macro arguments included), or the innermost macro
 * invocation holding it when its tokens come from a macro's body and
 * arguments both. False when it has none.
 */
bool fe_spelled_extent(const struct fe_tu *t, CXCursor c, CXSourceRange *out);

/* Reads the pragmas and macro uses of the main file; fills t->pragmas. */
void fe_scan_pragmas(struct fe_tu *t);
/*
 * A CUDA kernel's launch as the host code writes it (kernel<<<G, B>>>(args)),
 * as "G, B" in out, the host variables passed as arguments named as the
 * kernel's parameters (param[0..nparams)) and a variable set once (dim3
 * grid(x, 1, 1); int blocks = ...;) replaced by its expression: 1 when
 * every launch reads the same, 0 when there is none, -1 when launches
 * differ.
 */
int fe_host_launch(struct fe_tu *t, const char *kernel, const char *const *param, unsigned nparams,
                   struct augur_buf *out);
/* The macro named name, tokenized (NULL when there is none). */
const struct fe_macro *fe_macro(struct fe_tu *t, const char *name);

/* ---- operators through tokens ------------------------------------------------------------- */

/*
 * libclang's C API does not say which operator a BinaryOperator,
 * UnaryOperator or CompoundAssignOperator applies. The operator map finds
 * them by walking the expression's tokens (macros expanded) in step with the
 * cursors; a walk that does not match leaves the operators unknown.
 */
struct fe_opmap_entry {
    CXCursor c;
    unsigned hash;
    char op[4];
    bool postfix;
};

struct fe_opmap {
    struct fe_opmap_entry *v;
    size_t n, cap;
    struct fe_cursors tried; /* roots already walked */
};

void fe_opmap_release(struct fe_opmap *m);
/* The operator spelling of c ("+", "+=", "++"), walking the tokens if needed; NULL if unknown. */
const char *fe_opmap_get(struct fe_tu *t, struct fe_opmap *m, CXCursor c);
/* For a unary operator: true when it is written after its operand (i++). */
bool fe_opmap_postfix(struct fe_tu *t, struct fe_opmap *m, CXCursor c);

/* ---- conversion ----------------------------------------------------------------------------- */

/* The slice found by the first pass, applied by the second. */
struct fe_slice {
    struct fe_cursors decls; /* scalar declarations whose values the slice needs */
    struct fe_cursors written_params;
    struct fe_cursors params; /* parameters the kernel uses (arrays, scalars in the slice) */
    char **arrays;            /* arrays whose stored values the slice needs */
    size_t narrays;
    char **accessed; /* arrays the kernel accesses (the others stay undeclared) */
    size_t naccessed;
};

bool fe_slice_has_decl(const struct fe_slice *s, CXCursor decl);
bool fe_slice_has_array(const struct fe_slice *s, const char *name);
bool fe_slice_accesses(const struct fe_slice *s, const char *name);
/* The object of v[i] when it is a std::vector's or std::array's operator[]; else null. */
CXCursor fe_container_subscript(CXCursor c);
/* Whether t (or what a reference to it refers to) is std::vector<T> or std::array<T, N>. */
bool fe_std_container(CXType t);
/* Whether c is v.size() of such a container (a read of it, as a subscript is). */
bool fe_container_size(CXCursor c);
void fe_slice_release(struct fe_slice *s);

/* What a declaration stands for in the skeleton. */
enum fe_var_kind {
    FV_NONE,   /* not represented (outside the slice, unsupported) */
    FV_SCALAR, /* sym */
    FV_ARRAY,  /* array */
    FV_PTR,    /* pointer into array, at element offset sym */
    FV_VEC,    /* SIMD vector: lanes holds one lane's value */
    FV_MASK,   /* SIMD mask from intrinsics: lanes holds one lane's bit */
    FV_SUBST,  /* a parameter of an inlined helper: stands for its argument */
};

struct fe_var {
    CXCursor decl;
    unsigned hash;
    enum fe_var_kind kind;
    int32_t sym;
    int32_t array;
    uint32_t lanes_n; /* FV_VEC / FV_MASK */
    CXCursor set_in;  /* the loop whose iterations set it afresh (x = e not reading x) */
    bool null_init;   /* a pointer declared NULL: it warns at the end if no array came */
    bool ref;         /* FV_PTR of a C++ reference (T &r = y[i]): r is the element it names */
    enum augur_type lane_type;
    const struct augur_expr *lanes; /* FV_VEC / FV_MASK: value of lane "lane" */
    const struct augur_expr *subst; /* FV_SUBST: scalar argument */
    int32_t subst_array;            /* FV_SUBST of a pointer: array, with subst as offset */
    bool has_arg;                   /* a pointer or struct parameter of an inlined helper: */
    CXCursor arg;                   /* its argument, which member paths (A->col) start from, */
    unsigned arg_nthis;             /* read with the objects of the call site (fe_conv.nthis) */
};

/* A value during conversion: a scalar expression, a pointer into an array, or a vector. */
struct fe_val {
    const struct augur_expr *e; /* scalar value (NULL: no value) */
    int32_t array;              /* >= 0: a pointer into this array at element index e */
    bool vec, mask;             /* SIMD value: e is lane "lane"'s value */
    uint32_t lanes;
    enum augur_type type; /* lane type of a vector */
};

struct fe_conv {
    struct fe_tu *t;
    struct augur_skel *skel;
    struct augur_skel_builder *b;
    CXCursor func; /* the kernel */
    bool final;    /* second pass: the slice applies, notes are kept */
    const struct fe_slice *slice;
    struct augur_vec vars;       /* struct fe_var */
    struct fe_cursors sym_decls; /* declaration of each sym (null cursor for builtins) */
    struct augur_vec ops;        /* struct augur_opcount of the open region */
    struct augur_srcloc ops_loc;
    struct augur_vec reads; /* struct fe_read: reads of the open region */
    struct fe_opmap opmap;
    struct fe_cursors inlining;       /* helpers being inlined (recursion check) */
    unsigned ninlined;                /* calls inlined so far */
    const struct augur_expr *ret_val; /* value of the helper being inlined */
    bool discard;                     /* the call being read is a statement: its value unused */
    uint32_t loops;                   /* loops open */
    CXCursor loop; /* the innermost open loop of the function converted, or null */
    /*
     * The objects of the C++ methods being inlined, innermost last (g of
     * g.degree(v)); this_v[i] is read with the first this_at[i] of them (its
     * own implicit this), a method called on the same object repeating both.
     */
    CXCursor this_v[16];
    unsigned this_at[16];
    unsigned nthis;
    /* the outermost open loop (null: none) and the declarations assigned anywhere in it */
    CXCursor top_loop;
    struct fe_cursors top_assigned;
    /* the operation fe_count() counted last: an expression's outermost one */
    struct augur_opcount last_op;
    struct fe_cursors carried;      /* the accumulators carried in the ops not yet flushed */
    uint32_t atomic;                /* inside "omp atomic": read-modify-writes are atomic */
    uint32_t subscript;             /* inside an array subscript: integer ops are addressing */
    struct augur_node *last_access; /* the access emitted last */
    unsigned unsupported;           /* notes of kind unsupported recorded */
    bool io_noted;                  /* the note on I/O and timing calls is given */
    int32_t lane_sym;               /* the builtin "lane", or -1 */
    int rc;                         /* a hard failure (out of range, ...) */
    struct augur_diag *diag;
};

/* A read seen in the open region (for the reuse flag). */
struct fe_read {
    uint32_t array;
    const struct augur_expr *index;
};

/* Location of a cursor as a skeleton location. */
struct augur_srcloc fe_loc(struct fe_conv *cv, CXCursor c);
/* Records a note (second pass only) and reports it to on_diag. */
void fe_note(struct fe_conv *cv, enum augur_note_kind kind, CXCursor at, const char *fmt, ...)
    AUGUR_PRINTF(4, 5);

/* Adds operation counts to the open region. */
void fe_count(struct fe_conv *cv, enum augur_opkind op, enum augur_type type, uint32_t lanes,
              bool masked, uint64_t n, CXCursor at);
/* True when a cursor of kind under root (its children, recursively) refers to decl. */
bool fe_mentions(CXCursor root, enum CXCursorKind kind, CXCursor decl);
/* Takes one uncarried count of an operation off the open region (false: it has none). */
bool fe_uncount(struct fe_conv *cv, enum augur_opkind op, enum augur_type type, uint32_t lanes,
                bool masked);
/*
 * Marks the operation counted last as loop-carried (the value it makes
 * feeds it again in the loop's next iteration), when it is a
 * floating-point add, multiply or multiply-add: integer ones take a cycle.
 */
void fe_carry_last(struct fe_conv *cv, CXCursor acc);
/* Emits the ops node of the open region (if any) and starts a new region. */
void fe_flush_ops(struct fe_conv *cv);
/* Forgets the reads of the region (control flow or a store may change them). */
void fe_forget_reads(struct fe_conv *cv);

/* The skeleton type of a clang type (AUGUR_T_VOID when it has none). */
enum augur_type fe_type(CXType t);
/* The variable record of a declaration (created on first use with kind FV_NONE). */
struct fe_var *fe_var(struct fe_conv *cv, CXCursor decl);
/* A fresh sym name based on name, unique in the kernel. */
void fe_unique_name(struct fe_conv *cv, const char *name, char *out, size_t size);
/* The sym of a builtin (threadIdx.x, lane, ...), declared on first use. */
int32_t fe_builtin(struct fe_conv *cv, const char *name, enum augur_type type);
/* Declares a sym for a declaration. */
/* The builtin sym "lane" (declared on first use): the lane of a SIMD access. */
const struct augur_expr *fe_lane(struct fe_conv *cv);
/* A local sym set to v at at (named name): v computed once, read where it is used. */
const struct augur_expr *fe_capture(struct fe_conv *cv, CXCursor at, const char *name,
                                    const struct augur_expr *v);
int32_t fe_declare_sym(struct fe_conv *cv, CXCursor decl, const char *name,
                       enum augur_sym_kind kind, enum augur_type type);
/* An opaque value. */
const struct augur_expr *fe_opaque(struct fe_conv *cv, enum augur_type type, const char *what);

/* Expressions (fe_expr.c). */
enum fe_ctx { FE_RVALUE, FE_DISCARD };
struct fe_val fe_expr(struct fe_conv *cv, CXCursor c, enum fe_ctx ctx);
/* The array and element index an lvalue designates (array < 0 when it is not an array element). */
struct fe_val fe_lvalue(struct fe_conv *cv, CXCursor c, uint32_t *offset, enum augur_type *type);
/* Emits an access node. */
struct augur_node *fe_access(struct fe_conv *cv, CXCursor at, uint32_t array,
                             enum augur_access_mode mode, enum augur_type type, uint32_t offset,
                             const struct augur_expr *index, const struct augur_expr *value,
                             uint32_t lanes, const struct augur_expr *mask, uint32_t flags);
/* Assigns a value to a scalar declaration (emits set when the slice needs it). */
void fe_assign_decl(struct fe_conv *cv, CXCursor decl, CXCursor at, const struct augur_expr *v);
/* The element count of a byte size (n * sizeof(T) gives n). */
const struct augur_expr *fe_bytes_to_count(struct fe_conv *cv, const struct augur_expr *bytes,
                                           uint32_t size);
/* Gives a parameter or global its sym or array now (declaration order). */
void fe_touch_decl(struct fe_conv *cv, CXCursor decl);
/* Resolves a pointer-typed expression to (array, element offset); array < 0 when unknown. */
struct fe_val fe_pointer(struct fe_conv *cv, CXCursor c);
/*
 * A local std::vector<T> vd made with a count (v(n), v(n, value)): a local
 * array of that extent, filled as the constructor fills it; false for
 * another construction (nothing done).
 */
bool fe_local_container(struct fe_conv *cv, CXCursor vd, const char *name, CXType t, CXCursor init);
/*
 * What a range-based for loop walks: a C array, or a std::vector or
 * std::array that is a parameter's, a global's, a member of one or a local
 * made with its size, or a row of an adjacency list (adj[u]); its array,
 * element count and first element (*start, NULL for 0). False otherwise.
 */
bool fe_range_of(struct fe_conv *cv, CXCursor range, int32_t *array,
                 const struct augur_expr **count, const struct augur_expr **start);
/* Looks up or declares the array a declaration or member path stands for. */
int32_t fe_array_for(struct fe_conv *cv, CXCursor decl, const char *name, CXType pointee,
                     enum augur_space space, bool param, CXCursor at);

/*
 * The argument a call hands back unchanged (__builtin_assume_aligned(p, 64),
 * __builtin_expect(e, c)), or a null cursor.
 */
CXCursor fe_identity_arg(CXCursor call);

/* Statements (fe_stmt.c). */
/*
 * When c allocates: true, with the byte count (NULL if unknown). Allocators
 * are the functions without a body in the file whose name holds "alloc"
 * (malloc, calloc, aligned_alloc, _mm_malloc, mkl_malloc, a program's
 * xmalloc_large) and that return a pointer.
 */
bool fe_alloc_size(struct fe_conv *cv, CXCursor c, const struct augur_expr **bytes);
/* True for library calls that only read or write files and clocks (printf, clock_gettime, exit). */
bool fe_is_io(const char *name);
/* True for the calls that read a number from text (atoi, strtol): a program's input sizes. */
bool fe_is_input(const char *name);
/* True for main()'s argv and envp, which the skeleton does not follow. */
bool fe_is_program_arg(struct fe_conv *cv, CXCursor decl);
/*
 * True when local decl of the kernel is filled through its address by a
 * function without a body here (read_matrix(path, &n, &rowptr)): the
 * kernel's input, bound as a parameter is.
 */
bool fe_filled_by_call(struct fe_conv *cv, CXCursor decl);
/* True when call c (to name) releases memory: a function without a body named like free. */
bool fe_is_free(struct fe_conv *cv, CXCursor c, const char *name);
/*
 * True when pointer variable decl moves in its function: it is stepped
 * (p++, p += k), set from arithmetic (p = q + k) or its address is taken.
 * One that does not is an alias of the array it is set to.
 */
bool fe_pointer_moves(struct fe_conv *cv, CXCursor decl);
/*
 * Pointer variable decl, not yet placed, set to p (array >= 0) at at: when
 * it views the array with another element type it becomes an array of its
 * own; at offset 0 and never moving, an alias of the array. True (p updated)
 * when one of them applies.
 */
bool fe_alias_pointer(struct fe_conv *cv, CXCursor decl, CXCursor at, struct fe_val *p);
/* True when decl is set once in its function (its initialiser or one =) and its address is not
 * taken. */
bool fe_assigned_once(struct fe_conv *cv, CXCursor decl);
void fe_stmt(struct fe_conv *cv, CXCursor s, unsigned lo);
/*
 * Whether expression e computes the same value in every iteration of the
 * open loops (it reads no memory, calls nothing and names nothing they
 * assign): compilers hoist it out of them, so its operations count once.
 */
bool fe_loop_invariant(struct fe_conv *cv, CXCursor e);
/* Inlines a call to a helper function; returns false when it cannot (an opaque call is due). */
bool fe_inline_call(struct fe_conv *cv, CXCursor call, CXCursor def, struct fe_val *result);
/* True for a struct type, or a reference to one. */
bool fe_is_record(CXType t);

/* Builds every kernel of the TU into skel. */
int fe_build(struct fe_tu *t, struct augur_skel *skel, struct augur_diag *diag);

/* The slice of a first-pass kernel (fe_slice.c). */
void fe_slice_compute(struct fe_conv *cv, const struct augur_node *kernel, struct fe_slice *out);
/* Sets indirect and via on every access of the kernel. */
void fe_mark_indirect(struct augur_skel *skel, struct augur_node *kernel);
/* Marks grid-stride loops of a CUDA kernel. */
void fe_mark_gridstride(struct augur_node *kernel);

/* SIMD intrinsics (fe_simd.c): true when c is one (result set). */
bool fe_simd_call(struct fe_conv *cv, CXCursor call, const char *name, struct fe_val *result);
/* The user-level intrinsic name of a call that comes from a macro (gathers), or NULL. */
const char *fe_simd_macro_name(struct fe_conv *cv, CXCursor call, char *buf, size_t size);

/* CUDA (fe_cuda.c). */
extern const char *const fe_cuda_shim_text;
/* threadIdx.x and friends: the builtin sym, or -1. */
int32_t fe_cuda_builtin(struct fe_conv *cv, CXCursor member);
/* CUDA runtime calls (__syncthreads, __ldg, atomics); true when handled. */
bool fe_cuda_call(struct fe_conv *cv, CXCursor call, const char *name, struct fe_val *result);

/* Pragma clauses (fe_stmt.c): parses an expression written in a pragma. */
const struct augur_expr *fe_pragma_expr(struct fe_conv *cv, const char *text, size_t len);

#endif
