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
    uint32_t *cell_lines;     /* line of each tet in cells_file (messages); may be NULL */
    char *cells_file;         /* the file holding the tets (TetGen: the .ele); may be NULL */
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

/* ---- characterization: Table I features and clustering coefficient ------ */

/*
 * What "non-zero block" means in the Table I features (seed 002, after
 * Sedaghati et al.). A block always lies within one row.
 * AUGUR_BLOCK_RUNS (block_size 0, the default): a maximal run of non-zeros in
 * adjacent columns (j, j+1, ..., j+s-1); its size is s.
 * block_size B >= 1: the row is cut into column blocks [kB, kB+B); a block is
 * non-zero when it holds at least one non-zero of the row, and its size is
 * the number of non-zeros it holds. B = 1 makes every non-zero its own block.
 */
#define AUGUR_BLOCK_RUNS 0u

/* Options of augur_features_compute(); zero-initialised means "all defaults". */
struct augur_feature_opts {
    uint32_t block_size;    /* AUGUR_BLOCK_RUNS or a column block width B >= 1 */
    double sample_fraction; /* 0 or 1: every row; in (0, 1): Random Row sampling */
    uint64_t seed;          /* seed of the row sample */
};

/* Min, max, mean and population standard deviation of a count; cv = std / mean (0 if mean is 0). */
struct augur_stat {
    uint64_t min, max;
    double mean, std, cv;
};

/*
 * Features of a sparse matrix's pattern. With Random Row sampling the per-row
 * statistics come from the sampled rows only, the totals marked "estimated"
 * below are the sample's sums scaled by nrows / nrows_sampled (rounded), and
 * bandwidth is the largest over the sample (a lower bound). nnz, nnz_tot and
 * nnz_frac are always exact (they come from the row pointers).
 */
struct augur_features {
    uint32_t nrows, ncols;
    uint64_t nnz;
    bool sampled;               /* Random Row sampling was used */
    uint32_t nrows_sampled;     /* rows examined (nrows when not sampled) */
    double sample_fraction;     /* as asked; 1 when not sampled */
    uint64_t seed;              /* seed of the sample */
    uint32_t block_size;        /* AUGUR_BLOCK_RUNS or B */
    uint64_t nempty_rows;       /* rows without non-zeros (estimated when sampled) */
    uint64_t bandwidth;         /* max |i - j| over the non-zeros */
    double mean_distance;       /* mean |i - j| over the non-zeros */
    struct augur_stat nnz_row;  /* Table I nnz_{min,max,mu,sig}: non-zeros per row (row degree) */
    uint64_t nnz_tot;           /* Table I nnz_tot: number of non-zeros */
    double nnz_frac;            /* Table I nnz_frac: 100 * nnz / (nrows * ncols), a percentage */
    uint64_t nnzb_tot;          /* Table I nnzb_tot: non-zero blocks (estimated when sampled) */
    struct augur_stat nnzb_row; /* Table I nnzb_*: non-zero blocks per row */
    struct augur_stat snzb;     /* Table I snzb_*: size of the non-zero blocks, over every block */
};

/*
 * Computes the features of csr's pattern (values are not read). opts may be
 * NULL (every row, blocks are runs). A sample_fraction outside [0, 1] is an
 * AUGUR_EINVAL error. Random Row sampling picks round(fraction * nrows) rows
 * (at least one) uniformly without replacement, reproducibly from seed.
 * *out is written only on success.
 */
AUGUR_API int augur_features_compute(const struct augur_csr *csr,
                                     const struct augur_feature_opts *opts,
                                     struct augur_features *out, struct augur_diag *diag);

/*
 * The global clustering coefficient of seed 002 (eq. 1-3), exact. The local
 * coefficient of node i is C_i = L_i / (k_i (k_i - 1)), where N_i holds the
 * neighbours of i, k_i = |N_i| and L_i counts the ordered pairs (j, k) of
 * distinct nodes of N_i joined by an edge j -> k. Undirected (eq. 2): N_i is
 * the neighbourhood in the symmetrised pattern (A + A^T), so that each edge
 * among the neighbours counts twice and C_i = 2 T_i / (k_i (k_i - 1)) with
 * T_i the triangles through i. Directed (eq. 1): N_i holds the out-neighbours
 * of i in the pattern as stored (row i of the matrix) and L_i counts the
 * stored entries (j, k) among them. Self loops (diagonal entries) are ignored.
 * As in Algorithm 3, a node with k_i < 2 has C_i = 0 and still counts in the
 * average (eq. 3) over all n nodes; mean_deg2 is the average over the nodes
 * with k_i >= 2 only.
 */
struct augur_cc {
    bool computed;
    double global;        /* eq. 3: sum of C_i / n over all n nodes */
    double mean_deg2;     /* sum of C_i / (n - nlow_degree); 0 when every node has k_i < 2 */
    uint32_t nnodes;      /* n */
    uint32_t nlow_degree; /* nodes with k_i < 2 (C_i = 0) */
    uint32_t max_degree;  /* largest k_i */
    uint64_t nedges;      /* directed: stored off-diagonal entries; undirected: edges {i, j} */
    uint64_t nlinks;      /* directed: sum of L_i; undirected: triangles (each once) */
};

/* Which coefficients augur_clustering_compute() computes; local arrays are optional. */
struct augur_cc_opts {
    bool directed;
    bool undirected;
    bool symmetric;           /* the caller knows A's pattern is symmetric: skips the transpose */
    double *local_directed;   /* NULL, or nrows entries that receive C_i (eq. 1) */
    double *local_undirected; /* NULL, or nrows entries that receive C_i (eq. 2) */
};

struct augur_clustering {
    struct augur_cc directed;
    struct augur_cc undirected;
};

/*
 * Computes the exact clustering coefficients of csr that opts asks for (NULL:
 * undirected only). csr must be square (AUGUR_EINVAL otherwise); pass the
 * expanded pattern of symmetric data, whose directed and undirected
 * coefficients are then equal, and set opts->symmetric to save time (if
 * that claim is false the values are wrong; memory stays safe). Triangles
 * are counted once each by orienting every edge from the endpoint of lower
 * degree to the higher one, so the cost is O(m^1.5) even with hub nodes.
 * *out is written only on success.
 */
AUGUR_API int augur_clustering_compute(const struct augur_csr *csr,
                                       const struct augur_cc_opts *opts,
                                       struct augur_clustering *out, struct augur_diag *diag);

#endif
