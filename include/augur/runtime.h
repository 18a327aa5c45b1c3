/*
 * runtime.h - datasets: loading sparse matrices, graphs and tetrahedral
 * meshes, sparse formats (COO, CSR, ELL) and their characterization
 * (module: runtime).
 */
#ifndef AUGUR_RUNTIME_H
#define AUGUR_RUNTIME_H

#include <stdbool.h>
#include <stdint.h>

#include "augur/base.h"

/* Input formats: enum name, the name used by --format, a description. */
#define AUGUR_FORMATS(X)                                                       \
    X(AUTO, "auto", "detect from content and file name")                       \
    X(MTX, "mtx", "Matrix Market coordinate (real, integer, pattern)")         \
    X(EDGES, "edges", "edge list, one 'src dst [weight]' a line (SNAP style)") \
    X(DIMACS, "dimacs", "DIMACS-9 shortest-path graph (.gr)")                  \
    X(METIS, "metis", "METIS/Chaco adjacency graph (.graph)")                  \
    X(TETGEN, "tetgen", "TetGen tetrahedral mesh (.node + .ele)")              \
    X(GMSH, "gmsh", "gmsh 2.2 ASCII mesh (.msh)")                              \
    X(MEDIT, "medit", "Medit ASCII mesh (.mesh)")

enum augur_format {
#define X(e, name, text) AUGUR_FORMAT_##e,
    AUGUR_FORMATS(X)
#undef X
        AUGUR_FORMAT_COUNT
};

/* Returns the --format name of a format ("mtx"). */
AUGUR_API const char *augur_format_name(enum augur_format format);
/* Looks a --format name up; returns AUGUR_EFORMAT when unknown. */
AUGUR_API int augur_format_parse(const char *name, enum augur_format *out);
/* True for the tetrahedral mesh formats, which load as their dual graph. */
AUGUR_API bool augur_format_is_mesh(enum augur_format format);

enum augur_symmetry {
    AUGUR_SYM_GENERAL,
    AUGUR_SYM_SYMMETRIC, /* only one triangle is stored; a(j,i) = a(i,j) */
    AUGUR_SYM_SKEW,      /* strictly lower triangle stored; a(j,i) = -a(i,j) */
};

enum augur_field {
    AUGUR_FIELD_PATTERN, /* no values: every stored entry is 1 */
    AUGUR_FIELD_REAL,
    AUGUR_FIELD_INTEGER, /* kept as double, exact up to 2^53 */
};

AUGUR_API const char *augur_symmetry_name(enum augur_symmetry sym);
AUGUR_API const char *augur_field_name(enum augur_field field);

/*
 * Sparse formats. Indices are 0-based 32-bit; entry counts are 64-bit. val is
 * NULL for pattern matrices. Each owns its arrays; release with the matching
 * _release(), which also accepts a zeroed struct.
 */
struct augur_coo {
    uint32_t nrows, ncols;
    uint64_t nnz;
    uint32_t *row, *col;
    double *val;
};

struct augur_csr {
    uint32_t nrows, ncols;
    uint64_t nnz;
    uint64_t *rowptr; /* nrows + 1 entries */
    uint32_t *col;    /* sorted ascending within a row, no duplicates */
    double *val;
};

/*
 * ELLPACK: width slots per row, stored slot-major (idx[k * nrows + i] is slot
 * k of row i) so that consecutive rows are contiguous, as the GPU kernels of
 * seed 001 read them. A padding slot points at its own row (idx = i) with
 * value 0, which leaves y(i) = sum A(i,j) (x(l(i,j)) - x(i)) unchanged and is
 * how seed 001 pads cells with fewer than 4 neighbours.
 */
struct augur_ell {
    uint32_t nrows, ncols, width;
    uint64_t npadding; /* padding slots among nrows * width */
    uint32_t *idx;
    double *val; /* NULL for pattern */
};

AUGUR_API void augur_coo_release(struct augur_coo *coo);
AUGUR_API void augur_csr_release(struct augur_csr *csr);
AUGUR_API void augur_ell_release(struct augur_ell *ell);

/* Options of augur_dataset_load(); zero-initialised means "all defaults". */
struct augur_load_opts {
    enum augur_format format; /* AUGUR_FORMAT_AUTO: detect */
    bool undirected;          /* edge lists, DIMACS: store as symmetric */
    int index_base;           /* edge lists: 0 or 1; -1 or 0 with base_given false: detect */
    bool base_given;          /* index_base was set by the user */
    size_t max_bytes;         /* refuse larger (decompressed) inputs; 0: no limit */
};

/*
 * A loaded dataset: a sparse matrix as stored, 0-based, sorted by row then
 * column, with duplicate entries merged (values summed; counted in
 * nduplicates). Symmetric and skew-symmetric data keep one triangle (the lower
 * one, i >= j) in coo; augur_dataset_csr() expands it on request.
 * A mesh is stored as its face-adjacency dual graph: an ncells x ncells
 * symmetric pattern matrix in which cell i is coupled to the cells that share
 * one of its four faces.
 */
struct augur_dataset {
    enum augur_format format;
    enum augur_symmetry symmetry;
    enum augur_field field;
    char *path;
    struct augur_coo coo;
    uint64_t nentries_read; /* entries read from the file, before merging */
    uint64_t nduplicates;   /* entries merged into an earlier one */
    uint64_t ndiagonal;     /* stored entries with i == j */
    uint64_t bytes;         /* bytes of (decompressed) text parsed */
    bool compressed;        /* the file was gzip */
    bool weighted;          /* graph formats: the file carried weights (kept as values) */
    /* Meshes only (format is TETGEN, GMSH or MEDIT): */
    uint64_t nnodes;
    uint64_t ncells;          /* tetrahedra; rows of the dual */
    uint64_t nother_elements; /* elements of other types, skipped */
    uint64_t nboundary_faces; /* faces of a single tet: the mesh boundary */
    uint32_t *cells;          /* 4 * ncells vertex ids, 0-based */
    double parse_seconds;     /* reading and parsing */
    double build_seconds;     /* sorting, merging, building the dual */
};

/*
 * Loads a dataset. path may name a gzip file. For TetGen, path names either
 * the .node or the .ele file (or their common stem); the other is found
 * beside it, with or without .gz. On success *out is the caller's; free it
 * with augur_dataset_free(). On failure diag names file:line:col.
 */
AUGUR_API int augur_dataset_load(const char *path, const struct augur_load_opts *opts,
                                 struct augur_dataset **out, struct augur_diag *diag);

/*
 * Parses a dataset held in memory (text must be NUL-terminated at text[len]);
 * name is used for messages and, when the content does not tell, the format.
 * TetGen meshes cannot be parsed this way (they are two files).
 */
AUGUR_API int augur_dataset_parse(const char *text, size_t len, const char *name,
                                  const struct augur_load_opts *opts, struct augur_dataset **out,
                                  struct augur_diag *diag);

AUGUR_API void augur_dataset_free(struct augur_dataset *ds);

/* Number of entries of the full matrix (both triangles of symmetric data). */
AUGUR_API uint64_t augur_dataset_nnz_full(const struct augur_dataset *ds);

/*
 * Builds CSR from the dataset. With expand set, symmetric and skew-symmetric
 * data give both triangles; otherwise the stored triangle only. The caller
 * owns *out (augur_csr_release()).
 */
AUGUR_API int augur_dataset_csr(const struct augur_dataset *ds, bool expand, struct augur_csr *out,
                                struct augur_diag *diag);

/*
 * Builds ELLPACK from CSR with the given width (0: the largest row degree).
 * A row longer than width is an AUGUR_ELIMIT error naming the row.
 */
AUGUR_API int augur_csr_to_ell(const struct augur_csr *csr, uint32_t width, struct augur_ell *out,
                               struct augur_diag *diag);

/*
 * Writes the dataset as Matrix Market coordinate, keeping its symmetry and
 * field, with a comment naming the source. Atomic; "-" is standard output.
 */
AUGUR_API int augur_dataset_write_mtx(const struct augur_dataset *ds, const char *path,
                                      struct augur_diag *diag);

#endif
