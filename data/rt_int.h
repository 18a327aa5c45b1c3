/*
 * rt_int.h - internals shared by the dataset readers of the runtime module:
 * a fast line scanner over an in-memory text and the reader entry points.
 */
#ifndef AUGUR_RT_INT_H
#define AUGUR_RT_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "augur/data.h"

/*
 * A cursor over a NUL-terminated text, tracking the 1-based line and the
 * start of that line so that errors name file:line:col.
 */
struct rt_scan {
    const char *p;
    const char *end; /* points at the terminating NUL */
    const char *line_start;
    uint64_t line;
    const char *file;
    struct augur_diag *diag;
};

void rt_scan_init(struct rt_scan *s, const char *text, size_t len, const char *file,
                  struct augur_diag *diag);

/* Records an error at the cursor (line and column) and returns code. */
int rt_error(const struct rt_scan *s, int code, const char *fmt, ...) AUGUR_PRINTF(3, 4);
/* Same, at the start of the current line (column 0: not named). */
int rt_error_line(const struct rt_scan *s, int code, const char *fmt, ...) AUGUR_PRINTF(3, 4);

static inline uint32_t rt_col(const struct rt_scan *s)
{
    uint64_t c = (uint64_t)(s->p - s->line_start) + 1;

    return c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

static inline uint32_t rt_line(const struct rt_scan *s)
{
    return s->line > UINT32_MAX ? UINT32_MAX : (uint32_t)s->line;
}

static inline bool rt_eof(const struct rt_scan *s)
{
    return s->p >= s->end;
}

/* Skips spaces, tabs and carriage returns (not newlines). */
static inline void rt_skip_blanks(struct rt_scan *s)
{
    while (*s->p == ' ' || *s->p == '\t' || *s->p == '\r' || *s->p == '\f' || *s->p == '\v')
        s->p++;
}

/* After blanks, is the cursor at the end of the line (or of the text)? */
static inline bool rt_at_eol(struct rt_scan *s)
{
    rt_skip_blanks(s);
    return *s->p == '\n' || s->p >= s->end;
}

/* Moves to the start of the next line. */
static inline void rt_next_line(struct rt_scan *s)
{
    const char *nl = memchr(s->p, '\n', (size_t)(s->end - s->p));

    if (!nl) {
        s->p = s->end;
        return;
    }
    s->p = nl + 1;
    s->line_start = s->p;
    s->line++;
}

/*
 * Moves to the next line that holds something other than blanks or a comment
 * starting with one of the characters in comment (may be NULL). Returns false
 * at the end of the text.
 */
bool rt_next_content_line(struct rt_scan *s, const char *comment);

/* Error when anything but blanks is left on the line ("what": for the message). */
int rt_expect_eol(struct rt_scan *s, const char *what);

/*
 * Number parsers: skip blanks, parse one token that must end at a blank, a
 * newline or the end of the text, and name file:line:col in the error.
 * "what" says what was expected ("row index").
 */
int rt_parse_u64(struct rt_scan *s, uint64_t *out, const char *what);
int rt_parse_i64(struct rt_scan *s, int64_t *out, const char *what);
int rt_parse_double(struct rt_scan *s, double *out, const char *what);
/* Copies the next blank-delimited word into buf (truncating); false when none. */
bool rt_parse_word(struct rt_scan *s, char *buf, size_t size);

/*
 * Counts the newlines from the cursor to the end: an upper bound check for
 * headers that announce a number of entry lines. Uses memchr; fast.
 */
uint64_t rt_count_lines(const struct rt_scan *s);

/*
 * Readers: parse text (NUL-terminated, len bytes) into ds, filling format,
 * symmetry, field, coo (unsorted, 0-based, exactly sized arrays may be larger
 * than nnz), nentries_read and weighted. rt_coo_finish() then normalises.
 */
int rt_read_mtx(const char *text, size_t len, const char *file, const struct augur_load_opts *opts,
                struct augur_dataset *ds, struct augur_diag *diag);
int rt_read_edges(const char *text, size_t len, const char *file,
                  const struct augur_load_opts *opts, struct augur_dataset *ds,
                  struct augur_diag *diag);
int rt_read_dimacs(const char *text, size_t len, const char *file,
                   const struct augur_load_opts *opts, struct augur_dataset *ds,
                   struct augur_diag *diag);
int rt_read_metis(const char *text, size_t len, const char *file,
                  const struct augur_load_opts *opts, struct augur_dataset *ds,
                  struct augur_diag *diag);
/*
 * Mesh readers fill nnodes, ncells, cells, cell_lines, cells_file and
 * nother_elements; the dual is built after.
 */
int rt_read_gmsh(const char *text, size_t len, const char *file, const struct augur_load_opts *opts,
                 struct augur_dataset *ds, struct augur_diag *diag);
int rt_read_medit(const char *text, size_t len, const char *file,
                  const struct augur_load_opts *opts, struct augur_dataset *ds,
                  struct augur_diag *diag);
/* TetGen reads two files itself: path names the .node or .ele file or their stem. */
int rt_read_tetgen(const char *path, const struct augur_load_opts *opts, struct augur_dataset *ds,
                   struct augur_diag *diag);
/* The TetGen parser behind rt_read_tetgen(): a .node and an .ele text in memory. */
int rt_parse_tetgen(const char *node_text, size_t node_len, const char *node_file,
                    const char *ele_text, size_t ele_len, const char *ele_file,
                    struct augur_dataset *ds, struct augur_diag *diag);

/*
 * Builds the face-adjacency dual of ds->cells into ds->coo (symmetric
 * pattern, lower triangle) and sets nboundary_faces. A face shared by more
 * than two tets is an error (a non-manifold mesh).
 */
int rt_mesh_build_dual(struct augur_dataset *ds, struct augur_diag *diag);

/*
 * Normalises ds->coo: for symmetric and skew data moves upper-triangle
 * entries to the lower triangle (negating skew values), sorts by row then
 * column, merges duplicates (summing values; counted in nduplicates), counts
 * the diagonal, and trims the arrays to nnz.
 */
int rt_coo_finish(struct augur_dataset *ds, struct augur_diag *diag);

#endif
