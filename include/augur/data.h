/*
 * data.h - datasets: loading sparse matrices, graphs and tetrahedral
 * meshes, sparse formats (COO, CSR, ELL) and their characterization
 * (module: data).
 */
#ifndef AUGUR_DATA_H
#define AUGUR_DATA_H

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
 * k of row i), so that the threads of a warp that take consecutive rows read
 * consecutive words. Seed 001 stores its arrays cell-major instead
 * (A[4 * i + k]); a kernel written that way binds the transpose. A padding
 * slot points at its own row (idx = i) with value 0, which leaves
 * y(i) = sum A(i,j) (x(l(i,j)) - x(i)) unchanged and costs no load the kernel
 * does not already make (x(i)); Langguth et al. JPDC'15 says only that cells with fewer than
 * 4 neighbours are padded.
 */
struct augur_ell {
    uint32_t nrows, ncols, width;
    uint64_t npadding; /* padding slots among nrows * width */
    uint32_t *idx;
    double *val; /* NULL for pattern */
};

/*
 * Jagged diagonal storage (JDS): the rows sorted by decreasing length
 * (stable: rows of one length keep their order), perm[r] the original row at
 * position r. Diagonal d holds entry d of every row longer than d, in that
 * order, at ptr[d] .. ptr[d + 1] - 1; ndiag is the longest row's length.
 */
struct augur_jds {
    uint32_t nrows, ncols, ndiag;
    uint64_t nnz;
    uint64_t *ptr;  /* ndiag + 1 offsets */
    uint32_t *col;  /* nnz, diagonal by diagonal */
    double *val;    /* nnz; NULL for pattern */
    uint32_t *perm; /* nrows */
};

/*
 * SELL-C (sliced ELLPACK, sigma 1: rows in their original order): chunks
 * of C rows stored column by column, each chunk as wide as its longest row.
 * Slot cs[c] + j * C + r holds entry j of row c * C + r. A padding slot of
 * a row points at the row itself with value 0, as ELL padding does; the
 * rows past nrows that fill the last chunk point at column 0.
 */
struct augur_sell {
    uint32_t nrows, ncols, chunk, nchunks;
    uint64_t nslots, npadding;
    uint64_t *cs;  /* nchunks + 1 chunk starts, in slots */
    uint32_t *cl;  /* nchunks widths */
    uint32_t *col; /* nslots */
    double *val;   /* nslots; NULL for pattern */
};

AUGUR_API void augur_coo_release(struct augur_coo *coo);
AUGUR_API void augur_csr_release(struct augur_csr *csr);
AUGUR_API void augur_ell_release(struct augur_ell *ell);
AUGUR_API void augur_jds_release(struct augur_jds *jds);
AUGUR_API void augur_sell_release(struct augur_sell *sell);

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
 * Builds jagged diagonal storage from CSR. AUGUR_ELIMIT when it does not
 * fit in memory. The caller owns *out (augur_jds_release()).
 */
AUGUR_API int augur_csr_to_jds(const struct augur_csr *csr, struct augur_jds *out,
                               struct augur_diag *diag);

/*
 * Builds SELL-C from CSR with chunks of chunk rows (1 to 64). AUGUR_EINVAL
 * for another chunk size, AUGUR_ELIMIT when the padded slots do not fit in
 * memory. The caller owns *out (augur_sell_release()).
 */
AUGUR_API int augur_csr_to_sell(const struct augur_csr *csr, uint32_t chunk, struct augur_sell *out,
                                struct augur_diag *diag);

/*
 * A dataset holding csr's entries (copied) as a general matrix: real when
 * csr has values, else a pattern. name is its path in messages and in the
 * files it is written to. The caller owns *out (augur_dataset_free()).
 */
AUGUR_API int augur_dataset_from_csr(const struct augur_csr *csr, const char *name,
                                     struct augur_dataset **out, struct augur_diag *diag);

/*
 * Writes the dataset as Matrix Market coordinate, keeping its symmetry and
 * field, with a comment naming the source. Atomic; "-" is standard output.
 */
AUGUR_API int augur_dataset_write_mtx(const struct augur_dataset *ds, const char *path,
                                      struct augur_diag *diag);

/* ---- reordering: one renumbering of the rows and columns alike ------------ */

/*
 * Reorderings (enum name, the --method name, a description). Each renumbers
 * a square dataset's rows and columns by one permutation, so a graph or a
 * mesh's dual stays the same graph with its nodes renamed.
 */
#define AUGUR_REORDERS(X)                                                            \
    X(NONE, "none", "the dataset's own numbering")                                   \
    X(RCM, "rcm",                                                                    \
      "reverse Cuthill-McKee: breadth-first from a peripheral node, neighbours by "  \
      "increasing degree, reversed")                                                 \
    X(METIS, "metis",                                                                \
      "metis:B: METIS k-way parts of about B rows (k = ceil(n / B)), numbered part " \
      "by part")

enum augur_reorder_method {
#define X(e, name, text) AUGUR_REORDER_##e,
    AUGUR_REORDERS(X)
#undef X
        AUGUR_REORDER_COUNT
};

struct augur_reorder {
    enum augur_reorder_method method;
    uint32_t block; /* METIS: B, the rows per part (>= 1) */
};

/*
 * Parses "none", "rcm" or "metis:B" (B a whole number >= 1). AUGUR_EINVAL
 * with a message quoting text otherwise.
 */
AUGUR_API int augur_reorder_parse(const char *text, struct augur_reorder *out,
                                  struct augur_diag *diag);
/* The spelling augur_reorder_parse() reads ("metis:4096") into buf. */
AUGUR_API void augur_reorder_format(const struct augur_reorder *how, char *buf, size_t size);

/* What a reordering did, measured on the data. */
struct augur_reorder_info {
    double seconds;                             /* the permutation and the permuted copy */
    uint64_t bandwidth_before, bandwidth_after; /* max |i - j| over the stored entries */
    double distance_before, distance_after;     /* mean |i - j| over the stored entries */
    uint32_t parts;                             /* METIS: k */
    uint64_t edge_cut;                          /* METIS: edges between parts */
};

/*
 * Renumbers ds (borrowed) into a new dataset *out: entry (i, j) becomes
 * (p(i), p(j)) with the same value, symmetric data keeps its lower
 * triangle (skew values change sign where an entry crosses the diagonal),
 * and a mesh's cells are renumbered with its dual. The graph reordered is
 * the pattern of A + A^T without its diagonal. order[k] is the original
 * index of new row k (n entries; the caller frees it with augur_free()).
 * METIS is run with a fixed seed: the same input gives the same order.
 * Errors: AUGUR_EINVAL for a non-square dataset or B outside 1..n,
 * AUGUR_ELIMIT for a graph beyond METIS's 32-bit indices, AUGUR_ERUN when
 * METIS fails. info may be NULL.
 */
AUGUR_API int augur_dataset_reorder(const struct augur_dataset *ds, const struct augur_reorder *how,
                                    struct augur_dataset **out, uint32_t **order,
                                    struct augur_reorder_info *info, struct augur_diag *diag);

/*
 * Writes a permutation as text: a comment line, then line k + 1 holds
 * order[k] + 1 (1-based: the original row that is now row k + 1). Atomic;
 * "-" is standard output.
 */
AUGUR_API int augur_order_write(const uint32_t *order, uint32_t n, const char *comment,
                                const char *path, struct augur_diag *diag);

/* ---- characterization: Table I features and clustering coefficient ------ */

/*
 * What "non-zero block" means in the Table I features (Zhu et al. PACT'19, after
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
 * The global clustering coefficient of Zhu et al. PACT'19 (eq. 1-3), exact. The local
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

/* ---- sampling, clustering estimate, kernel streams, categorizer --------- */

/*
 * Performance-preserving samplers of Zhu et al. PACT'19 section III (docs/sampling.md
 * says where the pseudo-code leaves gaps and how each is filled): enum name,
 * the name used by --method, a description.
 */
#define AUGUR_SAMPLERS(X)                                                   \
    X(RE, "re", "Random Edge: entries drawn uniformly without replacement") \
    X(SA, "sa",                                                             \
      "Stride Average (Algorithm 1): two squares on the diagonal and two "  \
      "on the anti-diagonal")                                               \
    X(RT, "rt", "Random Tile (Algorithm 2): random tiles of adaptive size") \
    X(RB, "rb", "Random Row Blocks: runs of consecutive whole rows at random places")

enum augur_sampler {
#define X(e, name, text) AUGUR_SAMPLER_##e,
    AUGUR_SAMPLERS(X)
#undef X
        AUGUR_SAMPLER_COUNT
};

/* Returns the --method name of a sampler ("sa"). */
AUGUR_API const char *augur_sampler_name(enum augur_sampler s);
/* Looks a --method name up; AUGUR_EINVAL when unknown. */
AUGUR_API int augur_sampler_parse(const char *name, enum augur_sampler *out);

/*
 * Random Tile's default tile side is t = n * sqrt(p / AUGUR_RT_TILES), so
 * that about AUGUR_RT_TILES tiles of average density reach the rate p.
 */
#define AUGUR_RT_TILES 8
/*
 * Random Row Blocks' default number of blocks: the entries are cut into
 * AUGUR_RB_BLOCKS equal segments, and each gives one run of whole rows.
 */
#define AUGUR_RB_BLOCKS 32
/*
 * The sample is renumbered: it keeps every row and column that holds a
 * sampled entry, in the original order. A gap of d between two kept indices
 * stays d when d < 2 * AUGUR_SAMPLE_ALIGN, else becomes AUGUR_SAMPLE_ALIGN +
 * (d mod AUGUR_SAMPLE_ALIGN): short strides are exact, every index keeps its
 * position modulo AUGUR_SAMPLE_ALIGN (its offset in a 64-byte line of 8-byte
 * elements), and indices on different lines stay on different lines.
 */
#define AUGUR_SAMPLE_ALIGN 8u

/* Options of augur_sample_csr(). */
struct augur_sample_opts {
    enum augur_sampler method;
    double rate;   /* p, the fraction of the entries to take: 0 < p <= 1 */
    uint64_t seed; /* RE, RT and RB draw from it (SA is deterministic unless shifted) */
    uint32_t tile; /* RT: the default tile side t; 0 picks n * sqrt(p / AUGUR_RT_TILES) */
    /*
     * SA: each square placed at random (from seed) in its half of the axes
     * instead of centred on n/4 and 3n/4: the other draws of an interval.
     */
    bool shifted;
};

/* What a sampler did. */
struct augur_sample_info {
    enum augur_sampler method;
    double rate;
    uint64_t seed;
    bool shifted;      /* SA squares placed by the seed */
    uint64_t nnz_full; /* entries of the matrix sampled */
    uint64_t target;   /* round(p * nnz_full), at least 1 */
    uint64_t nnz;      /* entries taken */
    double achieved;   /* nnz / nnz_full */
    bool whole;        /* p = 1: the sample is the whole matrix */
    /* SA: rows [row_lo[k], row_lo[k] + row_side) and columns alike, k = 0, 1 */
    uint32_t row_lo[2], row_side, col_lo[2], col_side;
    /* RT */
    uint32_t tile;          /* t */
    uint64_t ntiles;        /* tiles drawn */
    uint64_t ndense;        /* of which enlarged to 1.5 t */
    uint64_t nsparse;       /* of which reduced to 0.5 t */
    uint64_t last_tile_nnz; /* new entries the last tile added */
    bool reached;           /* nnz >= target (RT may stop short after its tile budget) */
    /* RB */
    uint32_t blocks;     /* row blocks: AUGUR_RB_BLOCKS, fewer for a tiny target */
    uint32_t rows_taken; /* whole rows taken */
};

/*
 * A sample: a sparse matrix (sorted CSR, values kept when the input has
 * them) in its own numbering, and the original index of each of its rows
 * and columns (square input: one numbering for both).
 */
struct augur_sample {
    struct augur_csr csr;
    uint32_t *row_orig; /* csr.nrows entries; -1 (UINT32_MAX) marks a gap index */
    uint32_t *col_orig; /* csr.ncols entries; -1 marks a gap index */
    /*
     * Random Row Blocks on a square matrix numbers the taken rows alone and
     * folds every other column j onto j mod F (docs/sampling.md): its
     * col_orig names the taken rows, and a folded entry's column has no
     * single original.
     */
    struct augur_sample_info info;
};

AUGUR_API void augur_sample_release(struct augur_sample *s);

/*
 * Samples the matrix csr (sorted rows, as augur_dataset_csr() builds; pass
 * the expanded pattern of symmetric data). Errors (AUGUR_EINVAL or
 * AUGUR_ERANGE, explained in diag): a rate outside (0, 1], an empty matrix,
 * a matrix too small for the rate (fewer than one entry to take, or Stride
 * Average squares under one index wide), and a Stride Average sample whose
 * squares hold no entry. The caller owns *out (augur_sample_release()),
 * written only on success. The same seed gives the same sample.
 */
AUGUR_API int augur_sample_csr(const struct augur_csr *csr, const struct augur_sample_opts *opts,
                               struct augur_sample *out, struct augur_diag *diag);

/*
 * Wraps a sample as a general dataset (field taken from field, pattern when
 * the sample has no values) that augur_dataset_write_mtx() writes; its path
 * is description (copied). The caller owns *out (augur_dataset_free()).
 */
AUGUR_API int augur_sample_dataset(const struct augur_sample *s, enum augur_field field,
                                   const char *description, struct augur_dataset **out,
                                   struct augur_diag *diag);

/*
 * Random Node Neighbor estimate of the global clustering coefficient
 * (Zhu et al. PACT'19 Algorithm 3): nodes drawn without replacement, each equally
 * likely, in an order stratified by degree (every prefix spread evenly over
 * the nodes ranked by degree), until their degrees add up to p * m; each
 * contributes its exact local
 * coefficient (eq. 1 or 2, as augur_clustering_compute() defines them) and
 * the estimate is the mean over the nodes drawn, those with k < 2 counting
 * as 0. With p = 1 every node is drawn and the value is exact.
 */
struct augur_rnn_opts {
    double rate; /* p, 0 < p <= 1 */
    uint64_t seed;
    bool directed;  /* eq. 1 on the pattern as stored; else eq. 2 on A + A^T */
    bool symmetric; /* the caller knows csr's pattern is symmetric (skips A + A^T) */
    /*
     * 0: stop at the rate. Else a relative error target, 0 < e < 1: past
     * the rate, keep drawing until the estimate's standard error is at most
     * e of it with at least AUGUR_RNN_MIN_LINKED nodes on a triangle drawn
     * (the error of a mean of rare non-zeros cannot be judged from fewer),
     * or until every node is drawn.
     */
    double rel_error;
};

#define AUGUR_RNN_MIN_LINKED 16

struct augur_cc_estimate {
    double value;
    /*
     * The estimate's standard error, from the drawn nodes' successive
     * differences in degree order (the variance estimator of a systematic
     * sample: it keeps the stratification's gain), with the finite
     * population correction: 0 when every node is drawn.
     */
    double std_error;
    double rate;
    double rel_error; /* the target asked for (0: none) */
    uint64_t seed;
    bool directed;
    uint32_t nnodes;        /* n */
    uint32_t nodes_sampled; /* node_ct */
    uint32_t nodes_low;     /* of which with k < 2 */
    uint32_t nodes_linked;  /* of which on a triangle (C_i > 0) */
    uint64_t edges_sampled; /* edge_ct: sum of k over the nodes drawn */
    uint64_t nedges;        /* m: arcs of the graph used, self loops left out */
};

/* csr must be square (AUGUR_EINVAL). *out is written only on success. */
AUGUR_API int augur_clustering_estimate(const struct augur_csr *csr,
                                        const struct augur_rnn_opts *opts,
                                        struct augur_cc_estimate *out, struct augur_diag *diag);

/*
 * Kernel address streams. Until the skeleton interpreter runs kernels on
 * data, these generate, in C, the memory accesses of three reference
 * kernels over a CSR matrix, in program order, with each array at a
 * malloc-like address (page aligned plus 16 bytes, arrays one page apart):
 *   spmv:    y = A x over CSR: rowptr[i], rowptr[i+1], then per entry val[j],
 *            col[j], x[col[j]], then y[i] (written);
 *   fv:      Langguth et al. JPDC'15 eq. 1 over ELLPACK of width max degree (slot-major,
 *            padding points at its own row): x[i], then per slot a[k n + i],
 *            idx[k n + i], x[idx], then y[i] (written);
 *   ireduce: the Euler reduction of Zhu et al. PACT'19 Fig. 1 over the entries as an
 *            edge list (u = row, v = column, row-major order): eu[e], ev[e],
 *            w[e], x[u], x[v], y[u] (read, written), y[v] (read, written).
 */
#define AUGUR_STREAM_KERNELS(X)                                                       \
    X(SPMV, "spmv", "CSR sparse matrix-vector product y = A x")                       \
    X(FV, "fv", "finite-volume kernel of Langguth et al. JPDC'15 eq. 1 over ELLPACK") \
    X(IREDUCE, "ireduce", "irregular reduction (Euler) over an edge list")

enum augur_stream_kernel {
#define X(e, name, text) AUGUR_STREAM_##e,
    AUGUR_STREAM_KERNELS(X)
#undef X
        AUGUR_STREAM_COUNT
};

AUGUR_API const char *augur_stream_kernel_name(enum augur_stream_kernel k);
AUGUR_API int augur_stream_kernel_parse(const char *name, enum augur_stream_kernel *out);

/* One access of a stream: the array is a small index (the cache simulator's tag). */
struct augur_stream_access {
    uint64_t addr;
    uint32_t size;
    uint8_t is_write;
    uint8_t array;
};

/* Receives accesses in program order, n at a time. */
typedef void augur_stream_fn(void *ud, const struct augur_stream_access *acc, size_t n);

/*
 * Generates the accesses of kernel k over csr (its pattern; values are not
 * read), calling fn with batches. ell_width is fv's ELLPACK width (0: the
 * largest row degree; a sample keeps the full matrix's). Returns
 * AUGUR_EINVAL for a bad kernel, a width below the largest degree, or a
 * non-square matrix (every kernel indexes x and y by rows and columns).
 */
AUGUR_API int augur_stream_generate(const struct augur_csr *csr, enum augur_stream_kernel k,
                                    uint32_t ell_width, augur_stream_fn *fn, void *ud,
                                    struct augur_diag *diag);

/* Bytes of the arrays kernel k touches over csr (its footprint); ell_width as above. */
AUGUR_API uint64_t augur_stream_footprint(const struct augur_csr *csr, enum augur_stream_kernel k,
                                          uint32_t ell_width);

struct augur_cache_config;

/* Miss rates of one simulated run, per cache level (nearest the core first). */
struct augur_stream_result {
    unsigned nlevels;
    char name[4][16];
    uint64_t accesses[4], misses[4];
    double miss_rate[4]; /* misses / accesses (0 when no access) */
    uint64_t footprint;  /* bytes */
    double scale[4];     /* the capacity scale of each level */
    uint64_t size[4];    /* simulated capacity of each level, bytes */
};

/*
 * Simulates kernel k over csr on one thread of the caches cfg, level l's
 * capacity multiplied by scale[l] (scale may be NULL: 1 everywhere; 0 <
 * scale[l] <= 1: sets are removed, ways and line kept; fewer ways once a
 * single set is left; at least one line). Caches start empty; with warm,
 * the kernel runs twice and only the second pass is counted (an iteration's
 * steady state). *out is written only on success.
 */
AUGUR_API int augur_stream_simulate(const struct augur_csr *csr, enum augur_stream_kernel k,
                                    uint32_t ell_width, const struct augur_cache_config *cfg,
                                    const double *scale, bool warm, struct augur_stream_result *out,
                                    struct augur_diag *diag);

/*
 * Seed 002 eq. 7: |actual - predicted| / actual; 0 when both are 0, and
 * |predicted| when only actual is 0 (an absolute error where no relative one
 * exists).
 */
AUGUR_API double augur_error_rate(double actual, double predicted);

/*
 * How the caches of a sampled run are scaled, so that a sample meets caches
 * as small relative to its data as the full run does: enum name, name,
 * description. docs/sampling.md compares them.
 */
#define AUGUR_SCALINGS(X)                                                        \
    X(AUTO, "auto",                                                              \
      "reuse for spmv and ireduce, none for fv (removing sets changes how fv's " \
      "slot streams, n' elements apart, map to the sets); reuse for every "      \
      "kernel on a Random Row Blocks sample (its x is folded)")                  \
    X(NONE, "none", "the caches as given")                                       \
    X(REUSE, "reuse",                                                            \
      "the part of each cache beyond the kernel's live stream lines times "      \
      "n'/n, the ratio of the gathered vectors (the data a pass reuses)")        \
    X(FOOTPRINT, "footprint", "every capacity times the ratio of every byte the kernel touches")

enum augur_scaling {
#define X(e, name, text) AUGUR_SCALING_##e,
    AUGUR_SCALINGS(X)
#undef X
        AUGUR_SCALING_COUNT
};

AUGUR_API const char *augur_scaling_name(enum augur_scaling s);
AUGUR_API int augur_scaling_parse(const char *name, enum augur_scaling *out);

/*
 * Lines that kernel k keeps live while it streams (one per sequentially read
 * or written array: spmv 4, ireduce 3, fv 2 w + 1 for the slot streams of
 * width w = ell_width, 0: the largest degree).
 */
AUGUR_API uint64_t augur_stream_live_lines(const struct augur_csr *csr, enum augur_stream_kernel k,
                                           uint32_t ell_width);

/*
 * The capacity scale of each level of cfg for a sample of csr under
 * scaling, kernel k: AUTO as REUSE, or as NONE for fv (augur_sample_simulate()
 * takes REUSE for fv too on a Random Row Blocks sample); NONE 1; FOOTPRINT
 * footprint(sample) / footprint(csr);
 * REUSE, for a level of C bytes and lines of L bytes with S = L times the
 * live lines (fv at the full matrix's width): (S + (C - S) n'/n) / C when
 * C > S, else 1, so that the stream lines stay resident as in the full run
 * and the rest holds the same fraction of the gathered vectors; for ireduce
 * n'/n is raised to the ratio of the geometric means of |u - v| + 1 (sample
 * over csr) when that is larger (augur_sample_simulate() does not on a
 * Random Row Blocks sample). Each scale is clamped to (0, 1].
 */
AUGUR_API void augur_scaling_scales(enum augur_scaling scaling, const struct augur_csr *csr,
                                    const struct augur_csr *sample, enum augur_stream_kernel k,
                                    const struct augur_cache_config *cfg, double scale[4]);

/*
 * Samples csr with opts and simulates kernel k on the sample with the
 * caches scaled as scaling says (warm: as augur_stream_simulate(); fv at the
 * full matrix's ELL width and slot stride: slot k of sample row i at
 * k * n + i, n the full matrix's rows, as in the full run's arrays). info
 * (may be NULL) receives what the sampler did. Under REUSE (AUTO for spmv
 * and ireduce) a cold pass's first-touch misses of the gathered vectors are
 * counted at the full run's accesses per distinct line (docs/sampling.md,
 * "Caches for a smaller input"). *out is written only on success.
 */
AUGUR_API int
augur_sample_simulate(const struct augur_csr *csr, const struct augur_sample_opts *opts,
                      enum augur_stream_kernel k, const struct augur_cache_config *cfg,
                      enum augur_scaling scaling, bool warm, struct augur_stream_result *out,
                      struct augur_sample_info *info, struct augur_diag *diag);

/*
 * The categorizer (Zhu et al. PACT'19 section III-D): a CART decision tree over the
 * Table I features, the RNN clustering coefficient and two measures of the
 * numbering's locality that picks Stride Average, Random Tile or Random Row
 * Blocks. Feature enum name, name in the tree file.
 */
/* clang-format off */
#define AUGUR_CAT_FEATURES(X) \
    X(NNZ_TOT, "nnz_tot")     \
    X(NNZ_FRAC, "nnz_frac")   \
    X(NNZ_MIN, "nnz_min")     \
    X(NNZ_MAX, "nnz_max")     \
    X(NNZ_MU, "nnz_mu")       \
    X(NNZ_SIG, "nnz_sig")     \
    X(NNZB_TOT, "nnzb_tot")   \
    X(NNZB_MIN, "nnzb_min")   \
    X(NNZB_MAX, "nnzb_max")   \
    X(NNZB_MU, "nnzb_mu")     \
    X(NNZB_SIG, "nnzb_sig")   \
    X(SNZB_MIN, "snzb_min")   \
    X(SNZB_MAX, "snzb_max")   \
    X(SNZB_MU, "snzb_mu")     \
    X(SNZB_SIG, "snzb_sig")   \
    X(NNZ_CV, "nnz_cv")       \
    X(CC, "cc")               \
    X(DIST_MED, "dist_med")   \
    X(PREV_LINE, "prev_line")
/* clang-format on */

enum augur_cat_feature {
#define X(e, name) AUGUR_CAT_##e,
    AUGUR_CAT_FEATURES(X)
#undef X
        AUGUR_CAT_NFEATURES
};

AUGUR_API const char *augur_cat_feature_name(enum augur_cat_feature f);

/* How the features are computed; the tree file records it. */
struct augur_cat_opts {
    double row_fraction; /* Table I by Random Row sampling of this fraction; 0 or 1: every row */
    double rnn_rate;     /* the RNN rate of the clustering coefficient (0: 0.01) */
    uint64_t seed;
    uint32_t block_size; /* as in augur_feature_opts */
};

/*
 * The feature vector of csr (square; pass the expanded pattern of symmetric
 * data and say so with symmetric). cc is the undirected RNN estimate;
 * dist_med the median of |i - j| over the entries (i, j), every row, in
 * indices (how far from the diagonal the numbering puts the entries, so
 * how far from its row a gather lands: about n/4 for a matrix numbered at
 * random, the half bandwidth or less for a banded one; unlike the mean, a
 * few far entries, as in a road network, do not move it); prev_line the share
 * of the entries (i, j), i > 0, whose line of x (j / AUGUR_SAMPLE_ALIGN) row
 * i - 1 touches too (how much of a row's gathers the row before has just
 * brought into the cache: near 0 for a matrix numbered at random).
 */
AUGUR_API int augur_cat_features(const struct augur_csr *csr, bool symmetric,
                                 const struct augur_cat_opts *opts, double out[AUGUR_CAT_NFEATURES],
                                 struct augur_diag *diag);

struct augur_tree;

/* CART training options; zero means the default. */
struct augur_tree_opts {
    unsigned max_depth;    /* default 3 */
    unsigned min_leaf;     /* default 2: no leaf holds fewer training matrices */
    uint64_t feature_mask; /* bit f set: feature f may be split on; 0: every feature */
    /*
     * NULL: splits by the labels' Gini impurity. Else n x AUGUR_SAMPLER_COUNT
     * costs, cost[i * AUGUR_SAMPLER_COUNT + s] the error of sampler s on
     * matrix i (>= 0; INFINITY: s is not a candidate): a leaf answers the
     * sampler of least summed cost over its matrices, and a split is the one
     * that lowers the summed cost of the two sides' answers most.
     */
    const double *cost;
};

/*
 * Trains a tree on n feature vectors x[i * AUGUR_CAT_NFEATURES ...] with
 * labels y[i] (a sampler: SA, RT or RB): Gini impurity (or opts->cost),
 * binary splits at the midpoints between distinct values, greedy, stopping
 * at max_depth, at pure nodes (no split lowers the cost) and where no split
 * leaves min_leaf on both sides. The leaves count the labels. feat records
 * how the features were computed. The caller owns *out (augur_tree_free()).
 */
AUGUR_API int augur_tree_train(const double *x, const enum augur_sampler *y, size_t n,
                               const struct augur_tree_opts *opts,
                               const struct augur_cat_opts *feat, struct augur_tree **out,
                               struct augur_diag *diag);

/* Loads a tree file (the format is in docs/sampling.md); errors name file:line:col. */
AUGUR_API int augur_tree_load(const char *path, struct augur_tree **out, struct augur_diag *diag);
/* The same for text in memory (need not be NUL-terminated); name is used in messages. */
AUGUR_API int augur_tree_parse(const char *text, size_t len, const char *name,
                               struct augur_tree **out, struct augur_diag *diag);
AUGUR_API void augur_tree_free(struct augur_tree *t);

/* Appends the tree file text to buf; parsing it gives the same tree. comment may be NULL. */
AUGUR_API void augur_tree_format(const struct augur_tree *t, const char *comment,
                                 struct augur_buf *buf);

/* How the tree's features must be computed. Borrowed. */
AUGUR_API const struct augur_cat_opts *augur_tree_feature_opts(const struct augur_tree *t);

/* The sampler a tree picks for a feature vector; *leaf (may be NULL) gets the leaf's id. */
AUGUR_API enum augur_sampler augur_tree_classify(const struct augur_tree *t,
                                                 const double x[AUGUR_CAT_NFEATURES],
                                                 unsigned *leaf);

/* Number of nodes and depth (a lone leaf has depth 0). */
/*
 * Errors given per matrix, for `augur train categorizer --errors`: each
 * line "NAME SA RT RB", a matrix file's name (without its folder) and the
 * error Stride Average, Random Tile and Random Row Blocks make on it (finite,
 * >= 0), with '#' comments; a name given twice is an error.
 */
struct augur_cat_error {
    char name[256];
    double err[AUGUR_SAMPLER_COUNT]; /* Random Edge: INFINITY (not a candidate) */
};
struct augur_cat_errors {
    struct augur_cat_error *rows;
    size_t n;
};
/* Errors name file:line:col: AUGUR_EPARSE, AUGUR_ERANGE for a bad number. */
AUGUR_API int augur_cat_errors_parse(const char *text, size_t len, const char *name,
                                     struct augur_cat_errors *out, struct augur_diag *diag);
AUGUR_API int augur_cat_errors_load(const char *path, struct augur_cat_errors *out,
                                    struct augur_diag *diag);
/* The row of a matrix file's name (its folder dropped), or NULL. */
AUGUR_API const struct augur_cat_error *augur_cat_errors_find(const struct augur_cat_errors *e,
                                                              const char *path);
AUGUR_API void augur_cat_errors_release(struct augur_cat_errors *e);

AUGUR_API unsigned augur_tree_nnodes(const struct augur_tree *t);
AUGUR_API unsigned augur_tree_depth(const struct augur_tree *t);

/*
 * Generated training matrices. R-MAT (Chakrabarti et al.): 2^scale nodes,
 * edge_factor * 2^scale edges drawn with quadrant probabilities a, b, c and
 * 1 - a - b - c, duplicates and self loops dropped; general pattern.
 * Block diagonal (Langguth et al. JPDC'15 section 4): n nodes in disjoint blocks of b
 * consecutive ids, each node joined to degree distinct random others of
 * its own block (b >= degree + 1); general pattern. Sorted CSR without
 * values; the caller owns *out (augur_csr_release()).
 */
AUGUR_API int augur_generate_rmat(unsigned scale, unsigned edge_factor, double a, double b,
                                  double c, uint64_t seed, struct augur_csr *out,
                                  struct augur_diag *diag);
AUGUR_API int augur_generate_blocks(uint32_t n, uint32_t b, uint32_t degree, uint64_t seed,
                                    struct augur_csr *out, struct augur_diag *diag);

/* ---- tiling and grouping (Chen et al., CGO 2016; Zhu et al. PACT'19 section IV) ---- */

/* Lanes of a conflict-free group: one 512-bit vector of 32-bit indices. */
#define AUGUR_TILING_LANES 16u

/*
 * The schedule statistics of the tiled-and-grouped irregular reduction
 * (docs/tiling.md). Every entry (i, j) of the matrix is an edge between
 * nodes i and j of n = max(nrows, ncols) nodes. Nodes are cut into blocks
 * of tile_size; tile (I, J) holds the edges with i in block I and j in
 * block J. Within a tile, edges in row-major order go first fit into groups
 * of at most AUGUR_TILING_LANES in which no node appears twice; tiles in
 * (I, J) order go first fit into tile groups in which no two tiles share a
 * node block (all threads run one tile group at a time).
 */
struct augur_tiling_stats {
    uint32_t tile_size;
    uint32_t nnodes;    /* n = max(nrows, ncols) */
    uint64_t nblocks;   /* node blocks: ceil(n / tile_size) */
    uint64_t nedges;    /* the matrix's entries */
    uint64_t ntiles;    /* non-empty tiles */
    uint64_t ngroups;   /* conflict-free groups over all tiles */
    uint64_t nfull;     /* groups with all AUGUR_TILING_LANES lanes used */
    double lanes_used;  /* nedges / ngroups */
    double simd_util;   /* the SIMD utilization ratio: nedges / (lanes * ngroups) */
    uint64_t ntgroups;  /* tile groups */
    double avg_mimd;    /* Zhu et al. PACT'19 avg_MIMD: ntiles / ntgroups, tiles per tile group */
    uint64_t min_tiles; /* fewest tiles in a tile group */
    uint64_t max_tiles; /* most tiles in a tile group */
    uint64_t max_tile_edges; /* most edges in one tile */
};

/*
 * Computes the tiling-and-grouping statistics of csr at tile_size (the
 * values are not read). Deterministic; O(nnz + n) memory. A tile_size of 0,
 * a matrix without entries or an inconsistent CSR is AUGUR_EINVAL. *out is
 * written only on success.
 */
AUGUR_API int augur_tiling_compute(const struct augur_csr *csr, uint32_t tile_size,
                                   struct augur_tiling_stats *out, struct augur_diag *diag);

/*
 * The schedule itself, as a tiled-and-grouped kernel runs it (the tiling.*
 * binding targets, docs/tiling.md): tile group c holds the tiles
 * [tgroup_tile[c], tgroup_tile[c + 1]) (in (I, J) order), tile k the groups
 * [tile_group[k], tile_group[k + 1]), group g gcount[g] edges in lanes
 * g * AUGUR_TILING_LANES onwards (gu, gv: the endpoints i and j; gw: the
 * entry's value, 1 for a pattern; unused lanes 0).
 */
struct augur_tiling_sched {
    uint32_t tile_size;
    uint64_t ntgroups, ntiles, ngroups;
    uint64_t *tgroup_tile; /* ntgroups + 1 */
    uint64_t *tile_group;  /* ntiles + 1 */
    uint32_t *gcount;      /* ngroups: 1 .. AUGUR_TILING_LANES */
    uint32_t *gu, *gv;     /* AUGUR_TILING_LANES * ngroups */
    double *gw;            /* AUGUR_TILING_LANES * ngroups */
    struct augur_tiling_stats stats;
};

/*
 * Builds the schedule of csr at tile_size (the same as
 * augur_tiling_compute() counts, which *out->stats holds). Errors as
 * augur_tiling_compute(), and AUGUR_ELIMIT when the schedule would not fit
 * in memory. Release with augur_tiling_sched_release().
 */
AUGUR_API int augur_tiling_schedule(const struct augur_csr *csr, uint32_t tile_size,
                                    struct augur_tiling_sched *out, struct augur_diag *diag);
AUGUR_API void augur_tiling_sched_release(struct augur_tiling_sched *s);

#endif
