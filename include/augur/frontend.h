/*
 * frontend.h - C, OpenMP, AVX-512 and CUDA kernels to skeletons through
 * libclang (module: frontend).
 */
#ifndef AUGUR_FRONTEND_H
#define AUGUR_FRONTEND_H

#include <stdbool.h>
#include <stddef.h>

#include "augur/base.h"
#include "augur/skeleton.h"

/* A front end: a libclang index reused across files. Opaque. */
struct augur_fe;

/*
 * Called for every compiler diagnostic of severity warning or worse (error
 * true for errors and fatal errors) and for every front-end remark about an
 * unsupported construct; diag holds file:line:col and the message.
 */
typedef void augur_fe_diag_fn(void *ud, const struct augur_diag *diag, bool error);

/* Options of augur_fe_parse(); zero-initialised means "all defaults". */
struct augur_fe_opts {
    const char *const *args; /* extra compiler arguments (after "--") */
    size_t nargs;
    const char *build_dir; /* a folder with compile_commands.json (-p), or NULL */
    const char *function;  /* only this kernel, or NULL for every kernel */
    const char *bind;      /* "name=target,..." bindings (command line precedence) */
    const char *launch;    /* CUDA launch "GRID,BLOCK" (expressions over the kernel's scalars) */
    /* a CUDA template kernel nothing instantiates: "T=double,BLOCK=256" (type parameters
       default to float) */
    const char *templ;
    bool cuda; /* parse as CUDA even when the name does not end in .cu */
    /*
     * CUDA: parse without augur's declarations of the CUDA API (vector types,
     * threadIdx, math, textures): the source or an -include brings its own,
     * or, with --cuda-path=DIR among args, clang's wrapper of that toolkit.
     */
    bool no_shim;
    bool no_infer; /* do not infer bindings from the structure */
    augur_fe_diag_fn *on_diag;
    void *ud;
};

/* Creates a front end. Caller owns it; free with augur_fe_free(). */
AUGUR_API int augur_fe_new(struct augur_fe **out, struct augur_diag *diag);
/* Frees a front end; NULL is a no-op. */
AUGUR_API void augur_fe_free(struct augur_fe *fe);

/*
 * Parses the C or CUDA file path and builds the skeleton of every kernel in
 * it: every function with a body defined in the file (for CUDA, every
 * __global__ function), or only opts->function. The file is parsed without
 * -fopenmp (OpenMP directives are read from its tokens); flags come from
 * opts->build_dir's compile_commands.json and then opts->args.
 *
 * Returns 0 and the skeleton in *out (the caller's; augur_skel_free()), or
 * AUGUR_EPARSE when the file does not compile (diag names the first error;
 * every diagnostic goes to opts->on_diag), AUGUR_ENOENT when the file or the
 * function is missing, AUGUR_EBIND for a bad binding, AUGUR_ECLANG when
 * libclang fails. Unsupported constructs (goto, function pointers,
 * recursion, setjmp, inline assembly, variable-length arrays, ...) do not
 * fail: they are kept as notes in the kernel and reported to on_diag.
 */
AUGUR_API int augur_fe_parse(struct augur_fe *fe, const char *path,
                             const struct augur_fe_opts *opts, struct augur_skel **out,
                             struct augur_diag *diag);

/*
 * The same for a source held in memory (text[len] need not be
 * NUL-terminated); path names it in locations and decides C or CUDA.
 */
AUGUR_API int augur_fe_parse_source(struct augur_fe *fe, const char *path, const char *text,
                                    size_t len, const struct augur_fe_opts *opts,
                                    struct augur_skel **out, struct augur_diag *diag);

/* The CUDA shim header the front end parses .cu files with (borrowed, static). */
AUGUR_API const char *augur_fe_cuda_shim(void);

#endif
