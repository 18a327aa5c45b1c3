/*
 * rt_tetgen.c - reader of TetGen meshes: a .node and an .ele file (module: data).
 *
 * .node: "N dim [nattr [nbound]]", then N lines "id x y z [attrs] [marker]".
 * .ele:  "T nodes_per_tet [nattr]", then T lines "id v1 .. v4 [v5 .. v10] [attrs]".
 * Ids are consecutive from 0 or 1, as the first line says; '#' starts a
 * comment anywhere. Both files may be gzip. Only the four corners of a
 * 10-node tet enter the mesh; the other six are checked to be in range.
 */
#include <stdio.h>
#include <string.h>

#include "rt_int.h"

/* After the fields of a line: blanks, then the end of the line or a comment. */
static int end_of_line(struct rt_scan *s, const char *what)
{
    rt_skip_blanks(s);
    if (*s->p == '#')
        return 0;
    return rt_expect_eol(s, what);
}

static bool more_on_line(struct rt_scan *s)
{
    rt_skip_blanks(s);
    return !(*s->p == '#' || *s->p == '\n' || s->p >= s->end);
}

static int check_count(struct rt_scan *s, uint64_t n, uint64_t min_bytes, const char *what)
{
    const char *nl = memchr(s->p, '\n', (size_t)(s->end - s->p));
    uint64_t left = nl ? (uint64_t)(s->end - nl - 1) : 0;
    uint64_t fit = (left + 1) / min_bytes, lines = nl ? rt_count_lines(s) - 1 : 0;

    if (lines < fit)
        fit = lines;
    if (n > fit)
        return rt_error_line(s, AUGUR_ETRUNC,
                             "%llu %s announced, but the rest of the file can hold at most %llu",
                             (unsigned long long)n, what, (unsigned long long)fit);
    if (n >= UINT32_MAX)
        return rt_error_line(s, AUGUR_ELIMIT, "%llu %s: more than 32-bit indices can hold",
                             (unsigned long long)n, what);
    return 0;
}

/* Reads the id at the start of item i: 0 or 1 for the first, consecutive after. */
static int item_id(struct rt_scan *s, uint64_t i, uint64_t *base, const char *what)
{
    const char *start;
    uint64_t id;
    int rc;

    rt_skip_blanks(s);
    start = s->p;
    rc = rt_parse_u64(s, &id, what);
    if (rc)
        return rc;
    if (i == 0) {
        if (id > 1) {
            s->p = start;
            return rt_error(s, AUGUR_ERANGE, "the first %s must be 0 or 1, not %llu", what,
                            (unsigned long long)id);
        }
        *base = id;
    } else if (id != *base + i) {
        s->p = start;
        return rt_error(s, AUGUR_EPARSE, "%s %llu out of sequence: expected %llu", what,
                        (unsigned long long)id, (unsigned long long)(*base + i));
    }
    return 0;
}

static int read_node(const char *text, size_t len, const char *file, uint64_t *nnodes,
                     uint64_t *base, struct augur_diag *diag)
{
    struct rt_scan s;
    uint64_t n, dim, nattr = 0, nbound = 0;
    int rc;

    rt_scan_init(&s, text, len, file, diag);
    if (!rt_next_content_line(&s, "#"))
        return rt_error(&s, AUGUR_ETRUNC, "empty .node file");
    rc = rt_parse_u64(&s, &n, "number of nodes");
    if (!rc)
        rc = rt_parse_u64(&s, &dim, "dimension");
    if (!rc && more_on_line(&s))
        rc = rt_parse_u64(&s, &nattr, "number of attributes");
    if (!rc && more_on_line(&s))
        rc = rt_parse_u64(&s, &nbound, "number of boundary markers (0 or 1)");
    if (!rc)
        rc = end_of_line(&s, "the .node header");
    if (rc)
        return rc;
    if (dim != 3)
        return rt_error_line(&s, AUGUR_EFORMAT, "dimension %llu: a tetrahedral mesh is 3D",
                             (unsigned long long)dim);
    if (nbound > 1)
        return rt_error_line(&s, AUGUR_EPARSE, "%llu boundary markers: must be 0 or 1",
                             (unsigned long long)nbound);
    /* "1 0 0 0\n" is the shortest node line. */
    rc = check_count(&s, n, 8, "nodes");
    if (rc)
        return rc;
    rt_next_line(&s);
    for (uint64_t i = 0; i < n; i++) {
        double x;
        int64_t marker;

        if (!rt_next_content_line(&s, "#"))
            return rt_error(&s, AUGUR_ETRUNC, "file ends after %llu of %llu nodes",
                            (unsigned long long)i, (unsigned long long)n);
        rc = item_id(&s, i, base, "node id");
        for (uint64_t k = 0; k < 3 + nattr && !rc; k++)
            rc = rt_parse_double(&s, &x, k < 3 ? "node coordinate" : "node attribute");
        if (!rc && nbound)
            rc = rt_parse_i64(&s, &marker, "boundary marker");
        if (!rc)
            rc = end_of_line(&s, "the node's fields");
        if (rc)
            return rc;
        rt_next_line(&s);
    }
    if (rt_next_content_line(&s, "#"))
        return rt_error(&s, AUGUR_EPARSE, "unexpected content after the last of %llu nodes",
                        (unsigned long long)n);
    *nnodes = n;
    return 0;
}

static int read_ele(const char *text, size_t len, const char *file, uint64_t nnodes, uint64_t base,
                    struct augur_dataset *ds, struct augur_diag *diag)
{
    struct rt_scan s;
    uint64_t n, npt, nattr = 0, ebase = 0;
    uint32_t *cells = NULL, *lines = NULL;
    int rc;

    rt_scan_init(&s, text, len, file, diag);
    if (!rt_next_content_line(&s, "#"))
        return rt_error(&s, AUGUR_ETRUNC, "empty .ele file");
    rc = rt_parse_u64(&s, &n, "number of tetrahedra");
    if (!rc)
        rc = rt_parse_u64(&s, &npt, "nodes per tetrahedron (4 or 10)");
    if (!rc && more_on_line(&s))
        rc = rt_parse_u64(&s, &nattr, "number of attributes");
    if (!rc)
        rc = end_of_line(&s, "the .ele header");
    if (rc)
        return rc;
    if (npt != 4 && npt != 10)
        return rt_error_line(&s, AUGUR_EFORMAT, "%llu nodes per tetrahedron: must be 4 or 10",
                             (unsigned long long)npt);
    /* An id and npt node ids, each a character and a separator. */
    rc = check_count(&s, n, 2 * (npt + 1), "tetrahedra");
    if (rc)
        return rc;
    rt_next_line(&s);
    cells = augur_mallocarray(n ? 4 * n : 1, sizeof(*cells));
    lines = augur_mallocarray(n ? n : 1, sizeof(*lines));
    for (uint64_t i = 0; i < n; i++) {
        uint32_t *v = cells + 4 * i;
        double x;

        if (!rt_next_content_line(&s, "#")) {
            rc = rt_error(&s, AUGUR_ETRUNC, "file ends after %llu of %llu tetrahedra",
                          (unsigned long long)i, (unsigned long long)n);
            goto fail;
        }
        lines[i] = rt_line(&s);
        rc = item_id(&s, i, &ebase, "tetrahedron id");
        for (uint64_t k = 0; k < npt && !rc; k++) {
            const char *start;
            uint64_t id;

            rt_skip_blanks(&s);
            start = s.p;
            rc = rt_parse_u64(&s, &id, "node id");
            if (rc)
                break;
            if (id < base || id - base >= nnodes) {
                s.p = start;
                if (nnodes == 0)
                    rc = rt_error(&s, AUGUR_ERANGE, "node id %llu: the .node file has no nodes",
                                  (unsigned long long)id);
                else
                    rc = rt_error(&s, AUGUR_ERANGE, "node id %llu is out of range %llu..%llu",
                                  (unsigned long long)id, (unsigned long long)base,
                                  (unsigned long long)(base + nnodes - 1));
                break;
            }
            if (k >= 4)
                continue;
            v[k] = (uint32_t)(id - base);
            for (uint64_t j = 0; j < k; j++)
                if (v[j] == v[k]) {
                    s.p = start;
                    rc = rt_error(&s, AUGUR_EPARSE,
                                  "degenerate tetrahedron: node %llu appears twice",
                                  (unsigned long long)id);
                    break;
                }
        }
        for (uint64_t k = 0; k < nattr && !rc; k++)
            rc = rt_parse_double(&s, &x, "tetrahedron attribute");
        if (!rc)
            rc = end_of_line(&s, "the tetrahedron's fields");
        if (rc)
            goto fail;
        rt_next_line(&s);
    }
    if (rt_next_content_line(&s, "#")) {
        rc = rt_error(&s, AUGUR_EPARSE, "unexpected content after the last of %llu tetrahedra",
                      (unsigned long long)n);
        goto fail;
    }
    augur_free(ds->cells);
    augur_free(ds->cell_lines);
    ds->cells = cells;
    ds->cell_lines = lines;
    ds->ncells = n;
    return 0;
fail:
    augur_free(cells);
    augur_free(lines);
    return rc;
}

int rt_parse_tetgen(const char *node_text, size_t node_len, const char *node_file,
                    const char *ele_text, size_t ele_len, const char *ele_file,
                    struct augur_dataset *ds, struct augur_diag *diag)
{
    uint64_t nnodes = 0, base = 0;
    int rc;

    rc = read_node(node_text, node_len, node_file, &nnodes, &base, diag);
    if (rc)
        return rc;
    rc = read_ele(ele_text, ele_len, ele_file, nnodes, base, ds, diag);
    if (rc)
        return rc;
    ds->format = AUGUR_FORMAT_TETGEN;
    ds->nnodes = nnodes;
    ds->nother_elements = 0;
    augur_free(ds->cells_file);
    ds->cells_file = augur_strdup(ele_file);
    return 0;
}

static bool has_suffix(const char *s, size_t len, const char *suffix)
{
    size_t n = strlen(suffix);

    return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

/*
 * Reads the first of "<stem><ext>" and "<stem><ext>.gz" that exists (or the
 * path given, when it names this file), and returns its name in *name.
 */
static int read_part(const char *given, const char *stem, size_t stem_len, const char *ext,
                     const struct augur_load_opts *opts, struct augur_buf *text, bool *gz,
                     char **name, struct augur_diag *diag)
{
    struct augur_buf path;
    int rc;

    augur_buf_init(&path);
    if (given) {
        *name = augur_strdup(given);
        return augur_file_read(given, opts->max_bytes, text, gz, diag);
    }
    for (int k = 0; k < 2; k++) {
        augur_buf_reset(&path);
        augur_buf_add(&path, stem, stem_len);
        augur_buf_puts(&path, ext);
        if (k)
            augur_buf_puts(&path, ".gz");
        rc = augur_file_read(path.s, opts->max_bytes, text, gz, diag);
        if (rc != AUGUR_ENOENT) {
            if (rc == 0)
                *name = augur_buf_detach(&path, NULL);
            augur_buf_release(&path);
            return rc;
        }
    }
    augur_buf_reset(&path);
    augur_buf_add(&path, stem, stem_len);
    rc =
        augur_diag_set(diag, AUGUR_ENOENT, path.s, 0, 0,
                       "TetGen mesh: found neither '%s%s' nor '%s%s.gz'", path.s, ext, path.s, ext);
    augur_buf_release(&path);
    return rc;
}

int rt_read_tetgen(const char *path, const struct augur_load_opts *opts, struct augur_dataset *ds,
                   struct augur_diag *diag)
{
    static const struct augur_load_opts defaults;
    struct augur_buf node, ele;
    char *node_name = NULL, *ele_name = NULL;
    const char *given_node = NULL, *given_ele = NULL;
    size_t stem_len = strlen(path);
    bool node_gz = false, ele_gz = false;
    int rc;

    if (!opts)
        opts = &defaults;
    augur_buf_init(&node);
    augur_buf_init(&ele);
    if (has_suffix(path, stem_len, ".gz"))
        stem_len -= 3;
    if (has_suffix(path, stem_len, ".node")) {
        given_node = path;
        stem_len -= 5;
    } else if (has_suffix(path, stem_len, ".ele")) {
        given_ele = path;
        stem_len -= 4;
    } else {
        stem_len = strlen(path);
    }
    rc = read_part(given_node, path, stem_len, ".node", opts, &node, &node_gz, &node_name, diag);
    if (!rc)
        rc = read_part(given_ele, path, stem_len, ".ele", opts, &ele, &ele_gz, &ele_name, diag);
    if (!rc)
        rc = rt_parse_tetgen(node.s, node.len, node_name, ele.s, ele.len, ele_name, ds, diag);
    if (!rc) {
        ds->bytes = node.len + ele.len;
        ds->compressed = node_gz || ele_gz;
    }
    augur_free(node_name);
    augur_free(ele_name);
    augur_buf_release(&node);
    augur_buf_release(&ele);
    return rc;
}
