/*
 * rt_load.c - format detection and the dataset loader entry point (module: data).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rt_int.h"

static const char *const format_names[] = {
#define X(e, name, text) name,
    AUGUR_FORMATS(X)
#undef X
};

const char *augur_format_name(enum augur_format format)
{
    return (unsigned)format < AUGUR_FORMAT_COUNT ? format_names[format] : "unknown";
}

int augur_format_parse(const char *name, enum augur_format *out)
{
    for (int i = 0; i < AUGUR_FORMAT_COUNT; i++) {
        if (strcmp(name, format_names[i]) == 0) {
            *out = (enum augur_format)i;
            return 0;
        }
    }
    return AUGUR_EFORMAT;
}

bool augur_format_is_mesh(enum augur_format format)
{
    return format == AUGUR_FORMAT_TETGEN || format == AUGUR_FORMAT_GMSH ||
           format == AUGUR_FORMAT_MEDIT;
}

const char *augur_symmetry_name(enum augur_symmetry sym)
{
    switch (sym) {
    case AUGUR_SYM_GENERAL:
        return "general";
    case AUGUR_SYM_SYMMETRIC:
        return "symmetric";
    case AUGUR_SYM_SKEW:
        return "skew-symmetric";
    }
    return "unknown";
}

const char *augur_field_name(enum augur_field field)
{
    switch (field) {
    case AUGUR_FIELD_PATTERN:
        return "pattern";
    case AUGUR_FIELD_REAL:
        return "real";
    case AUGUR_FIELD_INTEGER:
        return "integer";
    }
    return "unknown";
}

/* The file name's extension, ignoring a trailing ".gz"; "" when none. */
static void extension(const char *path, char *ext, size_t size)
{
    const char *base = strrchr(path, '/');
    size_t n;
    const char *dot;
    char name[256];

    base = base ? base + 1 : path;
    snprintf(name, sizeof(name), "%s", base);
    n = strlen(name);
    if (n > 3 && strcasecmp(name + n - 3, ".gz") == 0)
        name[n - 3] = '\0';
    dot = strrchr(name, '.');
    snprintf(ext, size, "%s", dot ? dot + 1 : "");
}

static enum augur_format format_from_extension(const char *path)
{
    static const struct {
        const char *ext;
        enum augur_format format;
    } table[] = {
        { "mtx", AUGUR_FORMAT_MTX },        { "mm", AUGUR_FORMAT_MTX },
        { "gr", AUGUR_FORMAT_DIMACS },      { "graph", AUGUR_FORMAT_METIS },
        { "metis", AUGUR_FORMAT_METIS },    { "node", AUGUR_FORMAT_TETGEN },
        { "ele", AUGUR_FORMAT_TETGEN },     { "msh", AUGUR_FORMAT_GMSH },
        { "mesh", AUGUR_FORMAT_MEDIT },     { "txt", AUGUR_FORMAT_EDGES },
        { "edges", AUGUR_FORMAT_EDGES },    { "el", AUGUR_FORMAT_EDGES },
        { "edgelist", AUGUR_FORMAT_EDGES }, { "tsv", AUGUR_FORMAT_EDGES },
        { "csv", AUGUR_FORMAT_EDGES },
    };
    char ext[32];

    extension(path, ext, sizeof(ext));
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
        if (strcasecmp(ext, table[i].ext) == 0)
            return table[i].format;
    return AUGUR_FORMAT_AUTO;
}

/* Content signatures win over the name: a file says what it is. */
static enum augur_format format_from_content(const char *text, size_t len)
{
    const char *p = text, *end = text + len;

    if (len >= 14 && strncmp(text, "%%MatrixMarket", 14) == 0)
        return AUGUR_FORMAT_MTX;
    /* Skip blank lines and comments common to gmsh, Medit and DIMACS. */
    while (p < end) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
            p++;
        if (p < end && *p == '#') {
            const char *nl = memchr(p, '\n', (size_t)(end - p));

            p = nl ? nl + 1 : end;
            continue;
        }
        break;
    }
    if ((size_t)(end - p) >= 11 && strncmp(p, "$MeshFormat", 11) == 0)
        return AUGUR_FORMAT_GMSH;
    if ((size_t)(end - p) >= 20 && strncmp(p, "MeshVersionFormatted", 20) == 0)
        return AUGUR_FORMAT_MEDIT;
    if ((size_t)(end - p) >= 2 && (p[0] == 'c' || p[0] == 'p') && (p[1] == ' ' || p[1] == '\n')) {
        /* DIMACS: "c comment" lines and a "p sp N M" problem line. */
        const char *q = p;

        while (q < end && *q == 'c') {
            const char *nl = memchr(q, '\n', (size_t)(end - q));

            q = nl ? nl + 1 : end;
        }
        if ((size_t)(end - q) >= 4 && strncmp(q, "p sp", 4) == 0)
            return AUGUR_FORMAT_DIMACS;
    }
    return AUGUR_FORMAT_AUTO;
}

void augur_dataset_free(struct augur_dataset *ds)
{
    if (!ds)
        return;
    augur_coo_release(&ds->coo);
    augur_free(ds->cells);
    augur_free(ds->cell_lines);
    augur_free(ds->cells_file);
    augur_free(ds->path);
    augur_free(ds);
}

uint64_t augur_dataset_nnz_full(const struct augur_dataset *ds)
{
    if (ds->symmetry == AUGUR_SYM_GENERAL)
        return ds->coo.nnz;
    return 2 * ds->coo.nnz - ds->ndiagonal;
}

typedef int reader_fn(const char *text, size_t len, const char *file,
                      const struct augur_load_opts *opts, struct augur_dataset *ds,
                      struct augur_diag *diag);

static reader_fn *reader_for(enum augur_format format)
{
    switch (format) {
    case AUGUR_FORMAT_MTX:
        return rt_read_mtx;
    case AUGUR_FORMAT_EDGES:
        return rt_read_edges;
    case AUGUR_FORMAT_DIMACS:
        return rt_read_dimacs;
    case AUGUR_FORMAT_METIS:
        return rt_read_metis;
    case AUGUR_FORMAT_GMSH:
        return rt_read_gmsh;
    case AUGUR_FORMAT_MEDIT:
        return rt_read_medit;
    default:
        return NULL;
    }
}

/*
 * Dimensions are legal up to 2^32 - 1, but every consumer allocates per row
 * (CSR row pointers, dense vectors): a tiny file announcing billions of empty
 * rows would make them allocate gigabytes. Refuse dimensions far beyond what
 * the text could describe; real inputs with many isolated vertices stay well
 * inside the bound.
 */
static int check_dimensions(const struct augur_dataset *ds, const char *name, size_t len,
                            struct augur_diag *diag)
{
    uint64_t limit = (UINT64_C(1) << 24) + 64 * (uint64_t)len;
    uint64_t dim = ds->coo.nrows > ds->coo.ncols ? ds->coo.nrows : ds->coo.ncols;

    if (dim <= limit)
        return 0;
    return augur_diag_set(diag, AUGUR_ELIMIT, name, 0, 0,
                          "%llu rows or columns in %zu bytes of text: refusing a matrix so much "
                          "larger than its entries",
                          (unsigned long long)dim, len);
}

/* Detects the format (when not given), parses, builds a mesh's dual and normalises. */
static int parse_text(const char *text, size_t len, const char *name,
                      const struct augur_load_opts *opts, struct augur_dataset *ds,
                      struct augur_diag *diag)
{
    enum augur_format format = opts->format;
    double t0 = augur_now(), t1;
    int rc;

    if (format == AUGUR_FORMAT_AUTO)
        format = format_from_content(text, len);
    if (format == AUGUR_FORMAT_AUTO)
        format = format_from_extension(name);
    if (format == AUGUR_FORMAT_AUTO)
        return augur_diag_set(diag, AUGUR_EFORMAT, name, 0, 0,
                              "cannot tell the format from the content or the name; use --format");
    if (format == AUGUR_FORMAT_TETGEN)
        return augur_diag_set(diag, AUGUR_EFORMAT, name, 0, 0,
                              "a TetGen mesh is two files: name its .node or .ele file");
    ds->format = format;
    ds->bytes = len;
    rc = reader_for(format)(text, len, name, opts, ds, diag);
    if (rc)
        return rc;
    t1 = augur_now();
    ds->parse_seconds += t1 - t0;
    rc = check_dimensions(ds, name, len, diag);
    if (rc)
        return rc;
    if (augur_format_is_mesh(format)) {
        rc = rt_mesh_build_dual(ds, diag);
        if (rc)
            return rc;
    }
    rc = rt_coo_finish(ds, diag);
    ds->build_seconds = augur_now() - t1;
    return rc;
}

int augur_dataset_parse(const char *text, size_t len, const char *name,
                        const struct augur_load_opts *opts, struct augur_dataset **out,
                        struct augur_diag *diag)
{
    static const struct augur_load_opts defaults;
    struct augur_dataset *ds = augur_calloc(1, sizeof(*ds));
    int rc;

    ds->path = augur_strdup(name);
    rc = parse_text(text, len, name, opts ? opts : &defaults, ds, diag);
    if (rc) {
        augur_dataset_free(ds);
        return rc;
    }
    *out = ds;
    return 0;
}

int augur_dataset_load(const char *path, const struct augur_load_opts *opts,
                       struct augur_dataset **out, struct augur_diag *diag)
{
    static const struct augur_load_opts defaults;
    struct augur_dataset *ds = NULL;
    struct augur_buf text;
    double t0 = augur_now(), t1;
    int rc;

    augur_buf_init(&text);
    if (!opts)
        opts = &defaults;
    ds = augur_calloc(1, sizeof(*ds));
    ds->path = augur_strdup(path);
    if (opts->format == AUGUR_FORMAT_TETGEN ||
        (opts->format == AUGUR_FORMAT_AUTO && format_from_extension(path) == AUGUR_FORMAT_TETGEN)) {
        ds->format = AUGUR_FORMAT_TETGEN;
        rc = rt_read_tetgen(path, opts, ds, diag);
        if (rc)
            goto fail;
        t1 = augur_now();
        ds->parse_seconds = t1 - t0;
        rc = rt_mesh_build_dual(ds, diag);
        if (!rc)
            rc = rt_coo_finish(ds, diag);
        if (rc)
            goto fail;
        ds->build_seconds = augur_now() - t1;
    } else {
        rc = augur_file_read(path, opts->max_bytes, &text, &ds->compressed, diag);
        if (rc)
            goto fail;
        ds->parse_seconds = augur_now() - t0; /* reading and inflating count as parsing */
        rc = parse_text(text.s, text.len, path, opts, ds, diag);
        if (rc)
            goto fail;
    }
    augur_buf_release(&text);
    *out = ds;
    return 0;
fail:
    augur_buf_release(&text);
    augur_dataset_free(ds);
    return rc;
}

int augur_dataset_from_csr(const struct augur_csr *csr, const char *name,
                           struct augur_dataset **out, struct augur_diag *diag)
{
    struct augur_dataset *ds;
    size_t n = csr->nnz ? (size_t)csr->nnz : 1;
    int rc;

    if (csr->rowptr[0] != 0 || csr->rowptr[csr->nrows] != csr->nnz)
        return augur_diag_set(diag, AUGUR_EINVAL, name, 0, 0,
                              "row pointers do not span the entries");
    for (uint32_t i = 0; i < csr->nrows; i++)
        if (csr->rowptr[i + 1] < csr->rowptr[i])
            return augur_diag_set(diag, AUGUR_EINVAL, name, 0, 0, "row %u ends before it starts",
                                  i);
    for (uint64_t k = 0; k < csr->nnz; k++)
        if (csr->col[k] >= csr->ncols)
            return augur_diag_set(diag, AUGUR_EINVAL, name, 0, 0,
                                  "entry %" PRIu64 ": column %u of %u columns", k, csr->col[k],
                                  csr->ncols);
    ds = augur_calloc(1, sizeof(*ds));

    ds->format = AUGUR_FORMAT_MTX;
    ds->symmetry = AUGUR_SYM_GENERAL;
    ds->field = csr->val ? AUGUR_FIELD_REAL : AUGUR_FIELD_PATTERN;
    ds->path = augur_strdup(name ? name : "(memory)");
    ds->coo.nrows = csr->nrows;
    ds->coo.ncols = csr->ncols;
    ds->coo.nnz = csr->nnz;
    ds->coo.row = augur_mallocarray(n, sizeof(uint32_t));
    ds->coo.col = augur_mallocarray(n, sizeof(uint32_t));
    if (csr->val) {
        ds->coo.val = augur_mallocarray(n, sizeof(double));
        memcpy(ds->coo.val, csr->val, (size_t)csr->nnz * sizeof(double));
    }
    for (uint32_t i = 0; i < csr->nrows; i++)
        for (uint64_t k = csr->rowptr[i]; k < csr->rowptr[i + 1]; k++)
            ds->coo.row[k] = i;
    memcpy(ds->coo.col, csr->col, (size_t)csr->nnz * sizeof(uint32_t));
    ds->nentries_read = csr->nnz;
    if ((rc = rt_coo_finish(ds, diag)) != 0) {
        augur_dataset_free(ds);
        return rc;
    }
    *out = ds;
    return 0;
}
