/*
 * measure_int.h - what the files of augur_measure() share: the kernel's
 * C signature, compile_commands.json entries, child processes (module: measure).
 */
#ifndef AUGUR_RT_MEASURE_INT_H
#define AUGUR_RT_MEASURE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "augur/measure.h"

/* One parameter of a C function definition, as written. */
struct rt_param {
    char *name;
    char *decl;     /* the declaration text, whitespace collapsed */
    bool pointer;   /* a '*' or '[' outside parentheses */
    bool floating;  /* a float or double scalar */
    bool aggregate; /* struct or union by value, a function pointer, "..." */
    uint32_t line, col;
};

/* A function's signature: parameters in order and whether it returns a value. */
struct rt_sig {
    struct rt_param *params;
    uint32_t nparams;
    bool returns_value;
};

/*
 * Finds the definition of function name in text (the file path), starting
 * at line:col (1-based: where the skeleton says the kernel begins), and
 * splits its parameter list. AUGUR_EUNSUP when it cannot be read (the name
 * comes from a macro, K&R style). Caller releases sig with rt_sig_release().
 */
int rt_sig_read(const char *path, const char *text, size_t len, uint32_t line, uint32_t col,
                const char *name, struct rt_sig *sig, struct augur_diag *diag);
void rt_sig_release(struct rt_sig *sig);

/*
 * The arguments of source's entry in compile_commands (the file or its
 * folder): without the compiler, -c, -o FILE, dependency options and the
 * source itself. *argv (NULL-terminated, each string augur_malloc'd) and
 * *dir (the entry's directory) are the caller's (augur_argv_free, augur_free).
 * AUGUR_ENOENT when the file has no entry.
 */
int rt_cc_entry(const char *cc_path, const char *source, char ***argv, size_t *argc, char **dir,
                struct augur_diag *diag);

/*
 * Reads the generated driver's standard output (text, NUL-terminated) into
 * m: the times of its repetitions and their summary, its rounds and the
 * work check's counts; *second_look gets the work check's second look (1
 * changed, 2 failed, 0 none). AUGUR_ERUN when the output is incomplete
 * (no header, no end line, or a count of times that does not match).
 */
/*
 * The kernel's file text[len] (path names it in messages) as the copy that
 * runs a schedule chosen at run time: into out, every OpenMP worksharing
 * directive (omp for, parallel for, ... for simd) inside the function whose
 * definition starts at line:col, and the one right before each of lines[]
 * (the kernel's worksharing loops, an inlined helper's included), says
 * schedule(runtime): a schedule clause replaced, else one added after the
 * directive's name. Line numbers are kept. *ndirectives gets the number
 * rewritten. AUGUR_EUNSUP, naming the line, when a loop of lines has no
 * '#pragma omp ... for' line right before it (_Pragma, a macro), when the
 * kernel's body holds _Pragma or cannot be found, or when there is no
 * directive to rewrite: the copy would time the source's own schedule.
 */
int rt_sched_rewrite(const char *path, const char *text, size_t len, uint32_t line, uint32_t col,
                     const uint32_t *lines, size_t nlines, struct augur_buf *out,
                     uint32_t *ndirectives, struct augur_diag *diag);

int rt_measure_output(const char *text, struct augur_measurement *m, int *second_look,
                      struct augur_diag *diag);
#endif
