/*
 * rt_medit.c - reader of Medit ASCII meshes (.mesh): vertices and tetrahedra (module: data).
 *
 * A Medit file is a stream of blank-separated tokens: a keyword, then (for
 * most keywords) an item count and the items' fields. Line breaks carry no
 * meaning and '#' starts a comment to the end of the line. Keywords other
 * than Vertices and Tetrahedra are skipped by their known field counts.
 */
#include <strings.h>

#include "rt_int.h"

/* Keywords skipped: fields per item (in 3D) and whether the items are mesh elements. */
static const struct {
    const char *name;
    unsigned nfields;
    bool element;
} skipped[] = {
    { "Edges", 3, true },
    { "Triangles", 4, true },
    { "Quadrilaterals", 5, true },
    { "Pyramids", 6, true },
    { "Prisms", 7, true },
    { "Hexahedra", 9, true },
    { "EdgesP2", 4, true },
    { "TrianglesP2", 7, true },
    { "QuadrilateralsQ2", 10, true },
    { "TetrahedraP2", 11, true },
    { "HexahedraQ2", 28, true },
    { "Corners", 1, false },
    { "Ridges", 1, false },
    { "RequiredVertices", 1, false },
    { "RequiredEdges", 1, false },
    { "RequiredTriangles", 1, false },
    { "RequiredQuadrilaterals", 1, false },
    { "Normals", 3, false },
    { "Tangents", 3, false },
    { "NormalAtVertices", 2, false },
    { "NormalAtTriangleVertices", 3, false },
    { "NormalAtQuadrilateralVertices", 3, false },
    { "TangentAtVertices", 2, false },
    { "TangentAtEdges", 3, false },
};

/* Moves to the next token across line breaks and comments; false at the end of the text. */
static bool next_token(struct rt_scan *s)
{
    return rt_next_content_line(s, "#");
}

/* Reads the item count of a keyword; checks that n items of ntok tokens fit in the text. */
static int read_count(struct rt_scan *s, const char *keyword, unsigned ntok, uint64_t *out)
{
    uint64_t n, left;
    int rc;

    if (!next_token(s))
        return rt_error(s, AUGUR_ETRUNC, "file ends before the count of %s", keyword);
    rc = rt_parse_u64(s, &n, "item count");
    if (rc)
        return rc;
    /* Every token takes a character and a separator (the last one may end the file). */
    left = (uint64_t)(s->end - s->p);
    if (n > (left + 1) / (2 * (uint64_t)ntok))
        return rt_error(s, AUGUR_ETRUNC,
                        "%llu %s announced, but the rest of the file can hold at most %llu",
                        (unsigned long long)n, keyword,
                        (unsigned long long)((left + 1) / (2 * (uint64_t)ntok)));
    if (n >= UINT32_MAX)
        return rt_error(s, AUGUR_ELIMIT, "%llu %s: more than 32-bit indices can hold",
                        (unsigned long long)n, keyword);
    *out = n;
    return 0;
}

/* Moves to the next field of item i of n; an error when the file ends first. */
static int field(struct rt_scan *s, const char *keyword, uint64_t i, uint64_t n)
{
    if (next_token(s))
        return 0;
    return rt_error(s, AUGUR_ETRUNC, "file ends inside %s (item %llu of %llu)", keyword,
                    (unsigned long long)i + 1, (unsigned long long)n);
}

static int read_vertices(struct rt_scan *s, uint64_t *nvertices)
{
    uint64_t n;
    int rc = read_count(s, "Vertices", 4, &n);

    for (uint64_t i = 0; i < n && !rc; i++) {
        double x;
        int64_t ref;

        for (int k = 0; k < 3 && !rc; k++) {
            rc = field(s, "Vertices", i, n);
            if (!rc)
                rc = rt_parse_double(s, &x, "vertex coordinate");
        }
        if (!rc)
            rc = field(s, "Vertices", i, n);
        if (!rc)
            rc = rt_parse_i64(s, &ref, "vertex reference");
    }
    if (!rc)
        *nvertices = n;
    return rc;
}

static int read_tets(struct rt_scan *s, uint64_t nvertices, struct augur_vec *cells,
                     struct augur_vec *lines)
{
    uint64_t n;
    int rc = read_count(s, "Tetrahedra", 5, &n);

    if (rc)
        return rc;
    augur_vec_reserve(cells, 4 * n);
    augur_vec_reserve(lines, n);
    for (uint64_t i = 0; i < n; i++) {
        uint32_t v[4], line = 0;
        int64_t ref;

        for (int k = 0; k < 4; k++) {
            uint64_t id;
            const char *start;

            rc = field(s, "Tetrahedra", i, n);
            if (rc)
                return rc;
            if (k == 0)
                line = rt_line(s);
            start = s->p;
            rc = rt_parse_u64(s, &id, "vertex index");
            if (rc)
                return rc;
            if (id == 0 || id > nvertices) {
                s->p = start;
                return rt_error(s, AUGUR_ERANGE, "vertex index %llu is out of range 1..%llu",
                                (unsigned long long)id, (unsigned long long)nvertices);
            }
            v[k] = (uint32_t)(id - 1);
            for (int j = 0; j < k; j++)
                if (v[j] == v[k])
                    return augur_diag_set(s->diag, AUGUR_EPARSE, s->file, line, 0,
                                          "degenerate tetrahedron %llu: vertex %llu appears twice",
                                          (unsigned long long)i + 1, (unsigned long long)id);
        }
        rc = field(s, "Tetrahedra", i, n);
        if (!rc)
            rc = rt_parse_i64(s, &ref, "tetrahedron reference");
        if (rc)
            return rc;
        augur_vec_append(cells, v, 4);
        augur_vec_append(lines, &line, 1);
    }
    return 0;
}

static int skip_keyword(struct rt_scan *s, const char *keyword, unsigned nfields, uint64_t *nitems)
{
    uint64_t n;
    int rc = read_count(s, keyword, nfields, &n);

    for (uint64_t i = 0; i < n && !rc; i++) {
        for (unsigned k = 0; k < nfields && !rc; k++) {
            double x;

            rc = field(s, keyword, i, n);
            if (!rc)
                rc = rt_parse_double(s, &x, "field");
        }
    }
    if (!rc)
        *nitems = n;
    return rc;
}

/* Reads the integer after a header keyword (MeshVersionFormatted, Dimension). */
static int header_value(struct rt_scan *s, const char *keyword, uint64_t *out)
{
    if (!next_token(s))
        return rt_error(s, AUGUR_ETRUNC, "file ends after %s", keyword);
    return rt_parse_u64(s, out, keyword);
}

int rt_read_medit(const char *text, size_t len, const char *file,
                  const struct augur_load_opts *opts, struct augur_dataset *ds,
                  struct augur_diag *diag)
{
    struct rt_scan s;
    struct augur_vec cells, lines;
    uint64_t version = 0, dim = 0, nvertices = 0, nother = 0;
    bool have_vertices = false, have_tets = false;
    char word[64];
    int rc = 0;

    (void)opts;
    augur_vec_init(&cells, sizeof(uint32_t));
    augur_vec_init(&lines, sizeof(uint32_t));
    rt_scan_init(&s, text, len, file, diag);

    while (next_token(&s)) {
        const char *at = s.p;
        size_t i;

        if (!rt_parse_word(&s, word, sizeof(word))) {
            rc = rt_error(&s, AUGUR_EPARSE, "expected a keyword");
            goto out;
        }
        if (version == 0 && strcasecmp(word, "MeshVersionFormatted") != 0) {
            s.p = at;
            rc = rt_error(&s, AUGUR_EFORMAT,
                          "not a Medit mesh: expected MeshVersionFormatted, found '%s'", word);
            goto out;
        }
        if (strcasecmp(word, "MeshVersionFormatted") == 0) {
            if (version) {
                s.p = at;
                rc = rt_error(&s, AUGUR_EPARSE, "second MeshVersionFormatted");
                goto out;
            }
            rc = header_value(&s, word, &version);
            if (!rc && (version < 1 || version > 4))
                rc = rt_error(&s, AUGUR_EFORMAT, "unknown Medit format version %llu",
                              (unsigned long long)version);
        } else if (strcasecmp(word, "Dimension") == 0) {
            rc = header_value(&s, word, &dim);
            if (!rc && dim != 3)
                rc = rt_error(&s, AUGUR_EFORMAT, "dimension %llu: only 3D meshes have tetrahedra",
                              (unsigned long long)dim);
        } else if (strcasecmp(word, "End") == 0) {
            break;
        } else if (strcasecmp(word, "Vertices") == 0 || strcasecmp(word, "Tetrahedra") == 0) {
            bool is_tets = word[0] == 'T' || word[0] == 't';

            if (dim == 0) {
                s.p = at;
                rc = rt_error(&s, AUGUR_EPARSE, "%s before Dimension", word);
            } else if (is_tets ? have_tets : have_vertices) {
                s.p = at;
                rc = rt_error(&s, AUGUR_EPARSE, "second %s section", word);
            } else if (is_tets && !have_vertices) {
                s.p = at;
                rc = rt_error(&s, AUGUR_EPARSE, "Tetrahedra before Vertices");
            } else if (is_tets) {
                have_tets = true;
                rc = read_tets(&s, nvertices, &cells, &lines);
            } else {
                have_vertices = true;
                rc = read_vertices(&s, &nvertices);
            }
        } else {
            for (i = 0; i < sizeof(skipped) / sizeof(skipped[0]); i++)
                if (strcasecmp(word, skipped[i].name) == 0)
                    break;
            if (i == sizeof(skipped) / sizeof(skipped[0])) {
                s.p = at;
                rc = rt_error(&s, AUGUR_EFORMAT, "unknown Medit keyword '%s'", word);
            } else {
                uint64_t n = 0;

                rc = skip_keyword(&s, skipped[i].name, skipped[i].nfields, &n);
                if (skipped[i].element)
                    nother += n;
            }
        }
        if (rc)
            goto out;
    }
    if (version == 0) {
        rc = rt_error(&s, AUGUR_EFORMAT, "not a Medit mesh: no MeshVersionFormatted");
        goto out;
    }
    if (!have_vertices) {
        rc = rt_error(&s, AUGUR_ETRUNC, "no Vertices in the file");
        goto out;
    }
    ds->format = AUGUR_FORMAT_MEDIT;
    ds->nnodes = nvertices;
    ds->ncells = lines.len;
    ds->nother_elements = nother;
    augur_free(ds->cells);
    augur_free(ds->cell_lines);
    augur_free(ds->cells_file);
    ds->cells = augur_vec_take(&cells, NULL);
    ds->cell_lines = augur_vec_take(&lines, NULL);
    ds->cells_file = augur_strdup(file);
out:
    augur_vec_release(&cells);
    augur_vec_release(&lines);
    return rc;
}
