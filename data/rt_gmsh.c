/*
 * rt_gmsh.c - reader of gmsh 2.x ASCII meshes (.msh): nodes and 4-node tets (module: data).
 *
 * Sections are "$Name" ... "$EndName". $MeshFormat, $Nodes and $Elements are
 * read; every other section is skipped to its end marker. Node ids may be
 * sparse and in any order: ids up to a bound proportional to the node count
 * map through a table, larger ones through a sorted list. Elements of any
 * known type other than the 4-node tet are counted and skipped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_int.h"

/* Nodes per element of every gmsh 2.2 element type (0: not a type). */
static const uint8_t type_nodes[] = {
    [1] = 2,   /* 2-node line */
    [2] = 3,   /* 3-node triangle */
    [3] = 4,   /* 4-node quadrangle */
    [4] = 4,   /* 4-node tetrahedron: the one kept */
    [5] = 8,   /* 8-node hexahedron */
    [6] = 6,   /* 6-node prism */
    [7] = 5,   /* 5-node pyramid */
    [8] = 3,   /* 3-node second order line */
    [9] = 6,   /* 6-node second order triangle */
    [10] = 9,  /* 9-node second order quadrangle */
    [11] = 10, /* 10-node second order tetrahedron */
    [12] = 27, /* 27-node second order hexahedron */
    [13] = 18, /* 18-node second order prism */
    [14] = 14, /* 14-node second order pyramid */
    [15] = 1,  /* 1-node point */
    [16] = 8,  /* 8-node second order quadrangle */
    [17] = 20, /* 20-node second order hexahedron */
    [18] = 15, /* 15-node second order prism */
    [19] = 13, /* 13-node second order pyramid */
    [20] = 9,  /* 9-node third order incomplete triangle */
    [21] = 10, /* 10-node third order triangle */
    [22] = 12, /* 12-node fourth order incomplete triangle */
    [23] = 15, /* 15-node fourth order triangle */
    [24] = 15, /* 15-node fifth order incomplete triangle */
    [25] = 21, /* 21-node fifth order complete triangle */
    [26] = 4,  /* 4-node third order edge */
    [27] = 5,  /* 5-node fourth order edge */
    [28] = 6,  /* 6-node fifth order edge */
    [29] = 20, /* 20-node third order tetrahedron */
    [30] = 35, /* 35-node fourth order tetrahedron */
    [31] = 56, /* 56-node fifth order tetrahedron */
    [92] = 64, /* 64-node third order hexahedron */
    [93] = 125 /* 125-node fourth order hexahedron */
};

#define TYPE_TET4 4

/* A node id beyond the dense table, with its position and line. */
struct sparse_id {
    uint64_t id;
    uint32_t index;
    uint32_t line;
};

struct node_map {
    uint32_t *dense; /* dense[id] = index + 1, 0 when absent; ids 0..ndense-1 */
    uint64_t ndense;
    struct augur_vec sparse; /* struct sparse_id, sorted by id once the nodes are read */
};

static int sparse_cmp(const void *x, const void *y)
{
    const struct sparse_id *a = x, *b = y;

    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

/* Index of node id, or UINT32_MAX when there is no such node. */
static uint32_t node_lookup(const struct node_map *map, uint64_t id)
{
    const struct sparse_id *v = map->sparse.data;
    size_t lo = 0, hi = map->sparse.len;

    if (id < map->ndense)
        return map->dense[id] ? map->dense[id] - 1 : UINT32_MAX;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (v[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < map->sparse.len && v[lo].id == id ? v[lo].index : UINT32_MAX;
}

/*
 * Checks that n items of at least min_bytes each (separator included) fit
 * in what is left of the text, one a line at least.
 */
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

/* Reads the header word of a section line ("$Nodes") into buf; the line must hold nothing else. */
static int section_word(struct rt_scan *s, char *buf, size_t size)
{
    rt_skip_blanks(s);
    if (*s->p != '$')
        return rt_error(s, AUGUR_EPARSE,
                        "expected a section marker such as '$Nodes', found '%.20s'", s->p);
    rt_parse_word(s, buf, size);
    return rt_expect_eol(s, buf);
}

/* Expects the line "$End<name>" at the next content line. */
static int expect_end(struct rt_scan *s, const char *name)
{
    char word[80], want[80];

    snprintf(want, sizeof(want), "$End%s", name);
    word[0] = '\0';
    if (!rt_next_content_line(s, NULL))
        return rt_error(s, AUGUR_ETRUNC, "file ends before %s", want);
    rt_parse_word(s, word, sizeof(word));
    if (strcmp(word, want) != 0) {
        s->p = s->line_start;
        rt_skip_blanks(s);
        return rt_error(s, AUGUR_EPARSE, "expected %s, found '%.20s'", want, word);
    }
    return rt_expect_eol(s, want);
}

/* Skips a section we do not read, up to and including its end marker. */
static int skip_section(struct rt_scan *s, const char *name)
{
    char word[80], want[80];
    uint32_t line = rt_line(s);

    snprintf(want, sizeof(want), "$End%s", name);
    rt_next_line(s);
    while (rt_next_content_line(s, NULL)) {
        if (*s->p == '$' && rt_parse_word(s, word, sizeof(word)) && strcmp(word, want) == 0)
            return rt_expect_eol(s, want);
        rt_next_line(s);
    }
    return augur_diag_set(s->diag, AUGUR_ETRUNC, s->file, line, 0,
                          "section $%s has no %s before the end of the file", name, want);
}

static int read_format(struct rt_scan *s)
{
    char version[32];
    uint64_t file_type, data_size;
    double v;
    char *end;
    int rc;

    rt_next_line(s);
    if (!rt_next_content_line(s, NULL))
        return rt_error(s, AUGUR_ETRUNC, "file ends inside $MeshFormat");
    if (!rt_parse_word(s, version, sizeof(version)))
        return rt_error(s, AUGUR_EPARSE, "expected the format version");
    v = strtod(version, &end);
    if (end == version || *end)
        return rt_error_line(s, AUGUR_EPARSE, "bad format version '%s'", version);
    if (v >= 3.0 || v < 2.0)
        return rt_error_line(s, AUGUR_EFORMAT,
                             "gmsh format version %s is not supported: only 2.x ASCII is read "
                             "(save with 'gmsh -format msh22')",
                             version);
    rc = rt_parse_u64(s, &file_type, "file type (0 for ASCII)");
    if (rc)
        return rc;
    if (file_type != 0)
        return rt_error_line(s, AUGUR_EFORMAT,
                             "binary gmsh files (file type %llu) are not supported: save as "
                             "ASCII ('gmsh -format msh22' without -bin)",
                             (unsigned long long)file_type);
    rc = rt_parse_u64(s, &data_size, "data size");
    if (rc)
        return rc;
    rc = rt_expect_eol(s, "the data size");
    if (rc)
        return rc;
    rt_next_line(s);
    return expect_end(s, "MeshFormat");
}

static int read_nodes(struct rt_scan *s, struct node_map *map, uint64_t *nnodes)
{
    uint64_t n;
    int rc;

    rt_next_line(s);
    if (!rt_next_content_line(s, NULL))
        return rt_error(s, AUGUR_ETRUNC, "file ends before the node count");
    rc = rt_parse_u64(s, &n, "node count");
    if (!rc)
        rc = rt_expect_eol(s, "the node count");
    if (rc)
        return rc;
    /* "1 0 0 0\n": four tokens and their separators. */
    rc = check_count(s, n, 8, "nodes");
    if (rc)
        return rc;
    rt_next_line(s);
    map->ndense = 4 * n + 1024;
    map->dense = augur_calloc(map->ndense, sizeof(*map->dense));
    for (uint64_t i = 0; i < n; i++) {
        uint64_t id;
        double xyz[3];

        if (!rt_next_content_line(s, NULL))
            return rt_error(s, AUGUR_ETRUNC, "file ends after %llu of %llu nodes",
                            (unsigned long long)i, (unsigned long long)n);
        if (*s->p == '$')
            return rt_error(s, AUGUR_ETRUNC, "section ends after %llu of %llu nodes",
                            (unsigned long long)i, (unsigned long long)n);
        rc = rt_parse_u64(s, &id, "node id");
        if (rc)
            return rc;
        if (id == 0)
            return rt_error_line(s, AUGUR_ERANGE, "node id 0: gmsh node ids start at 1");
        for (int k = 0; k < 3 && !rc; k++)
            rc = rt_parse_double(s, &xyz[k], "node coordinate");
        if (!rc)
            rc = rt_expect_eol(s, "the node coordinates");
        if (rc)
            return rc;
        if (id < map->ndense) {
            if (map->dense[id])
                return rt_error_line(s, AUGUR_EPARSE, "node id %llu is defined twice",
                                     (unsigned long long)id);
            map->dense[id] = (uint32_t)i + 1;
        } else {
            struct sparse_id *sp = augur_vec_push(&map->sparse);

            sp->id = id;
            sp->index = (uint32_t)i;
            sp->line = rt_line(s);
        }
        rt_next_line(s);
    }
    if (map->sparse.len > 1) {
        struct sparse_id *v = map->sparse.data;

        qsort(v, map->sparse.len, sizeof(*v), sparse_cmp);
        for (size_t i = 1; i < map->sparse.len; i++)
            if (v[i].id == v[i - 1].id)
                return augur_diag_set(s->diag, AUGUR_EPARSE, s->file, v[i].line, 0,
                                      "node id %llu is defined twice (first at line %u)",
                                      (unsigned long long)v[i].id, v[i - 1].line);
    }
    *nnodes = n;
    return expect_end(s, "Nodes");
}

struct tets {
    struct augur_vec cells; /* uint32_t, four per tet */
    struct augur_vec lines; /* uint32_t, one per tet */
    uint64_t nother;
};

static int read_element(struct rt_scan *s, const struct node_map *map, struct tets *t)
{
    uint64_t id, type, ntags, node;
    uint32_t v[4];
    const char *start;
    int rc;

    rc = rt_parse_u64(s, &id, "element id");
    if (rc)
        return rc;
    start = s->p;
    rc = rt_parse_u64(s, &type, "element type");
    if (rc)
        return rc;
    if (type >= sizeof(type_nodes) || type_nodes[type] == 0) {
        s->p = start;
        rt_skip_blanks(s);
        return rt_error(s, AUGUR_EFORMAT, "unknown gmsh element type %llu",
                        (unsigned long long)type);
    }
    rc = rt_parse_u64(s, &ntags, "number of tags");
    for (uint64_t k = 0; k < ntags && !rc; k++) {
        int64_t tag;

        rc = rt_parse_i64(s, &tag, "tag");
    }
    if (rc)
        return rc;
    for (unsigned k = 0; k < type_nodes[type]; k++) {
        start = s->p;
        rc = rt_parse_u64(s, &node, "node id");
        if (rc)
            return rc;
        if (type != TYPE_TET4)
            continue;
        v[k] = node_lookup(map, node);
        if (v[k] == UINT32_MAX) {
            s->p = start;
            rt_skip_blanks(s);
            return rt_error(s, AUGUR_ERANGE,
                            "element %llu refers to node %llu, which is not defined",
                            (unsigned long long)id, (unsigned long long)node);
        }
        for (unsigned j = 0; j < k; j++)
            if (v[j] == v[k]) {
                s->p = start;
                rt_skip_blanks(s);
                return rt_error(s, AUGUR_EPARSE, "degenerate tet %llu: node %llu appears twice",
                                (unsigned long long)id, (unsigned long long)node);
            }
    }
    rc = rt_expect_eol(s, "the element's nodes");
    if (rc)
        return rc;
    if (type == TYPE_TET4) {
        uint32_t line = rt_line(s);

        augur_vec_append(&t->cells, v, 4);
        augur_vec_append(&t->lines, &line, 1);
    } else {
        t->nother++;
    }
    return 0;
}

static int read_elements(struct rt_scan *s, const struct node_map *map, struct tets *t)
{
    uint64_t n;
    int rc;

    rt_next_line(s);
    if (!rt_next_content_line(s, NULL))
        return rt_error(s, AUGUR_ETRUNC, "file ends before the element count");
    rc = rt_parse_u64(s, &n, "element count");
    if (!rc)
        rc = rt_expect_eol(s, "the element count");
    if (rc)
        return rc;
    /* "1 15 0 1\n" (a point without tags) is the shortest element. */
    rc = check_count(s, n, 8, "elements");
    if (rc)
        return rc;
    rt_next_line(s);
    for (uint64_t i = 0; i < n; i++) {
        if (!rt_next_content_line(s, NULL))
            return rt_error(s, AUGUR_ETRUNC, "file ends after %llu of %llu elements",
                            (unsigned long long)i, (unsigned long long)n);
        if (*s->p == '$')
            return rt_error(s, AUGUR_ETRUNC, "section ends after %llu of %llu elements",
                            (unsigned long long)i, (unsigned long long)n);
        rc = read_element(s, map, t);
        if (rc)
            return rc;
        rt_next_line(s);
    }
    return expect_end(s, "Elements");
}

int rt_read_gmsh(const char *text, size_t len, const char *file, const struct augur_load_opts *opts,
                 struct augur_dataset *ds, struct augur_diag *diag)
{
    struct rt_scan s;
    struct node_map map;
    struct tets t;
    uint64_t nnodes = 0;
    bool have_format = false, have_nodes = false, have_elements = false;
    char word[64];
    int rc = 0;

    (void)opts;
    memset(&map, 0, sizeof(map));
    augur_vec_init(&map.sparse, sizeof(struct sparse_id));
    augur_vec_init(&t.cells, sizeof(uint32_t));
    augur_vec_init(&t.lines, sizeof(uint32_t));
    t.nother = 0;
    rt_scan_init(&s, text, len, file, diag);

    while (rt_next_content_line(&s, NULL)) {
        rc = section_word(&s, word, sizeof(word));
        if (rc)
            goto out;
        if (!have_format && strcmp(word, "$MeshFormat") != 0) {
            s.p = s.line_start;
            rc = rt_error(&s, AUGUR_EFORMAT,
                          "not a gmsh 2.x file: expected $MeshFormat first, found '%s'", word);
            goto out;
        }
        if (strcmp(word, "$MeshFormat") == 0) {
            if (have_format) {
                rc = rt_error_line(&s, AUGUR_EPARSE, "second $MeshFormat section");
                goto out;
            }
            have_format = true;
            rc = read_format(&s);
        } else if (strcmp(word, "$Nodes") == 0) {
            if (have_nodes) {
                rc = rt_error_line(&s, AUGUR_EPARSE, "second $Nodes section");
                goto out;
            }
            have_nodes = true;
            rc = read_nodes(&s, &map, &nnodes);
        } else if (strcmp(word, "$Elements") == 0) {
            if (have_elements) {
                rc = rt_error_line(&s, AUGUR_EPARSE, "second $Elements section");
                goto out;
            }
            if (!have_nodes) {
                rc = rt_error_line(&s, AUGUR_EPARSE, "$Elements before $Nodes");
                goto out;
            }
            have_elements = true;
            rc = read_elements(&s, &map, &t);
        } else if (strncmp(word, "$End", 4) == 0) {
            rc = rt_error_line(&s, AUGUR_EPARSE, "%s without its opening section", word);
        } else {
            rc = skip_section(&s, word + 1);
        }
        if (rc)
            goto out;
        rt_next_line(&s);
    }
    if (!have_format) {
        rc = rt_error(&s, AUGUR_EFORMAT, "not a gmsh file: no $MeshFormat section");
        goto out;
    }
    if (!have_nodes || !have_elements) {
        rc = rt_error(&s, AUGUR_ETRUNC, "file ends without a %s section",
                      have_nodes ? "$Elements" : "$Nodes");
        goto out;
    }
    ds->format = AUGUR_FORMAT_GMSH;
    ds->nnodes = nnodes;
    ds->ncells = t.lines.len;
    ds->nother_elements = t.nother;
    augur_free(ds->cells);
    augur_free(ds->cell_lines);
    augur_free(ds->cells_file);
    ds->cells = augur_vec_take(&t.cells, NULL);
    ds->cell_lines = augur_vec_take(&t.lines, NULL);
    ds->cells_file = augur_strdup(file);
out:
    augur_free(map.dense);
    augur_vec_release(&map.sparse);
    augur_vec_release(&t.cells);
    augur_vec_release(&t.lines);
    return rc;
}
