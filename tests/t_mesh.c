/*
 * t_mesh.c - tests of the tetrahedral mesh readers (gmsh, Medit, TetGen) and
 * of the face-adjacency dual graph (module: data).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "augur/augur.h"
#include "data/rt_int.h"
#include "tap.h"

/* ---- helpers ------------------------------------------------------------- */

static void ds_clear(struct augur_dataset *ds)
{
    augur_free(ds->cells);
    augur_free(ds->cell_lines);
    augur_free(ds->cells_file);
    augur_free(ds->coo.row);
    augur_free(ds->coo.col);
    augur_free(ds->coo.val);
    memset(ds, 0, sizeof(*ds));
}

enum fmt { GMSH, MEDIT, TETGEN };

static const char *const fmt_name[] = { "gmsh", "medit", "tetgen" };

/*
 * Parses a mesh held in memory and builds its dual. For TetGen, text holds
 * the .node part, a line "--ele--", then the .ele part.
 */
static int parse_mesh(enum fmt f, const char *text, struct augur_dataset *ds,
                      struct augur_diag *diag)
{
    int rc;

    memset(ds, 0, sizeof(*ds));
    augur_diag_init(diag);
    ds->path = (char *)"mem";
    if (f == GMSH) {
        rc = rt_read_gmsh(text, strlen(text), "mem.msh", NULL, ds, diag);
    } else if (f == MEDIT) {
        rc = rt_read_medit(text, strlen(text), "mem.mesh", NULL, ds, diag);
    } else {
        const char *sep = strstr(text, "--ele--\n");
        size_t nlen = sep ? (size_t)(sep - text) : strlen(text);
        char *node = augur_malloc(nlen + 1);
        const char *ele = sep ? sep + 8 : "";

        memcpy(node, text, nlen);
        node[nlen] = '\0';
        rc = rt_parse_tetgen(node, nlen, "mem.node", ele, strlen(ele), "mem.ele", ds, diag);
        augur_free(node);
    }
    if (rc == 0)
        rc = rt_mesh_build_dual(ds, diag);
    ds->path = NULL;
    return rc;
}

/* Does ds->coo hold exactly the pairs (row, col) given, in order? */
static bool dual_is(const struct augur_dataset *ds, const uint32_t (*pairs)[2], size_t n)
{
    if (ds->coo.nnz != n || ds->coo.nrows != ds->ncells || ds->coo.ncols != ds->ncells)
        return false;
    for (size_t k = 0; k < n; k++)
        if (ds->coo.row[k] != pairs[k][0] || ds->coo.col[k] != pairs[k][1])
            return false;
    return ds->symmetry == AUGUR_SYM_SYMMETRIC && ds->field == AUGUR_FIELD_PATTERN &&
           ds->coo.val == NULL && ds->nentries_read == n;
}

static void write_file(const char *path, const char *text, bool gz)
{
    if (gz) {
        gzFile g = gzopen(path, "wb");

        gzwrite(g, text, (unsigned)strlen(text));
        gzclose(g);
    } else {
        FILE *fp = fopen(path, "w");

        fputs(text, fp);
        fclose(fp);
    }
}

/* ---- tiny meshes with known duals, in the three formats ------------------ */

/*
 * Two tets sharing the face (2, 3, 4) of five nodes: one dual edge and six
 * boundary faces.
 */
static const char two_gmsh[] = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
                               "$PhysicalNames\n1\n3 1 \"volume\"\n$EndPhysicalNames\n"
                               "$Nodes\n5\n"
                               "17 0 0 0\n"
                               "3 1 0 0\n"
                               "1000000 0 1 0\n"
                               "42 0 0 1\n"
                               "8 1 1 1\n"
                               "$EndNodes\n"
                               "$Elements\n5\n"
                               "1 15 2 0 1 17\n"
                               "2 1 2 0 1 17 3\n"
                               "3 4 2 1 1 17 3 1000000 42\n"
                               "4 2 2 0 1 3 1000000 42\n"
                               "9 4 3 1 1 0 3 1000000 42 8\n"
                               "$EndElements\n"
                               "$NodeData\n1\n\"t\"\n1\n0.0\n3\n0\n1\n1\n17 1.5\n$EndNodeData\n";

static const char two_medit[] = "# two tets\nMeshVersionFormatted\n2\nDimension 3\n"
                                "Vertices\n5\n"
                                "0 0 0 1\n1 0 0 1\n0 1 0 1\n0 0 1 1\n1 1 1 1\n"
                                "Triangles 1\n2 3 4 7\n"
                                "Corners 2 1 5\n"
                                "Tetrahedra\n2\n"
                                "1 2 3 4 0\n"
                                "2 3 4 5 # trailing comment\n 0\n"
                                "Normals\n1\n0.0 0.0 1.0\n"
                                "End\n";

static const char two_tetgen[] = "# nodes, 0-based, with an attribute and markers\n"
                                 "5 3 1 1\n"
                                 "0 0 0 0 9.5 1\n"
                                 "1 1 0 0 9.5 1\n"
                                 "2 0 1 0 9.5 1 # comment\n"
                                 "3 0 0 1 9.5 0\n"
                                 "4 1 1 1 9.5 1\n"
                                 "--ele--\n"
                                 "2 4 1\n"
                                 "0 0 1 2 3 -1\n"
                                 "\n"
                                 "1 1 2 3 4 -2\n"
                                 "# Generated by hand\n";

/*
 * The unit cube, corner v at (v & 1, v >> 1 & 1, v >> 2 & 1), split into five
 * tets: four corner tets around the central tet (1, 2, 4, 7). The dual is a
 * star around the central tet (listed last); 12 boundary faces.
 */
static const char cube5_gmsh[] = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
                                 "$Nodes\n8\n"
                                 "1 0 0 0\n2 1 0 0\n3 0 1 0\n4 1 1 0\n"
                                 "5 0 0 1\n6 1 0 1\n7 0 1 1\n8 1 1 1\n"
                                 "$EndNodes\n"
                                 "$Elements\n5\n"
                                 "1 4 0 1 2 3 5\n"
                                 "2 4 0 4 2 3 8\n"
                                 "3 4 0 6 2 5 8\n"
                                 "4 4 0 7 3 5 8\n"
                                 "5 4 0 2 3 5 8\n"
                                 "$EndElements\n";

static const char cube5_medit[] = "MeshVersionFormatted 1\nDimension\n3\n"
                                  "Vertices 8\n"
                                  "0 0 0 0 1 0 0 0 0 1 0 0 1 1 0 0\n"
                                  "0 0 1 0 1 0 1 0 0 1 1 0 1 1 1 0\n"
                                  "Tetrahedra 5\n"
                                  "1 2 3 5 1\n4 2 3 8 1\n6 2 5 8 1\n7 3 5 8 1\n2 3 5 8 2\n";

static const char cube5_tetgen[] = "8 3 0 0\n"
                                   "1 0 0 0\n2 1 0 0\n3 0 1 0\n4 1 1 0\n"
                                   "5 0 0 1\n6 1 0 1\n7 0 1 1\n8 1 1 1\n"
                                   "--ele--\n"
                                   "5 10 0\n"
                                   "1 1 2 3 5 1 2 3 5 1 2\n"
                                   "2 4 2 3 8 4 4 4 4 4 4\n"
                                   "3 6 2 5 8 6 6 6 6 6 6\n"
                                   "4 7 3 5 8 7 7 7 7 7 7\n"
                                   "5 2 3 5 8 8 8 8 8 8 8\n";

static const uint32_t cube5_dual[][2] = { { 4, 0 }, { 4, 1 }, { 4, 2 }, { 4, 3 } };

/*
 * The cube split into six tets around the diagonal 0-7 (one per permutation
 * of the axes): the dual is the 6-cycle 0-1-4-5-3-2-0; 12 boundary faces.
 */
static const char cube6_gmsh[] = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
                                 "$Nodes\n8\n"
                                 "8 1 1 1\n7 0 1 1\n6 1 0 1\n5 0 0 1\n"
                                 "4 1 1 0\n3 0 1 0\n2 1 0 0\n1 0 0 0\n"
                                 "$EndNodes\n"
                                 "$Elements\n6\n"
                                 "10 4 2 0 0 1 2 4 8\n"
                                 "11 4 2 0 0 1 2 6 8\n"
                                 "12 4 2 0 0 1 3 4 8\n"
                                 "13 4 2 0 0 1 3 7 8\n"
                                 "14 4 2 0 0 1 5 6 8\n"
                                 "15 4 2 0 0 1 5 7 8\n"
                                 "$EndElements\n";

static const char cube6_medit[] =
    "MeshVersionFormatted 2\nDimension 3\n"
    "Vertices\n8\n"
    "0 0 0 0\n1 0 0 0\n0 1 0 0\n1 1 0 0\n"
    "0 0 1 0\n1 0 1 0\n0 1 1 0\n1 1 1 0\n"
    "Tetrahedra\n6\n"
    "1 2 4 8 0\n1 2 6 8 0\n1 3 4 8 0\n1 3 7 8 0\n1 5 6 8 0\n1 5 7 8 0\n"
    "End\n";

static const char cube6_tetgen[] =
    "8 3\n"
    "0 0 0 0\n1 1 0 0\n2 0 1 0\n3 1 1 0\n"
    "4 0 0 1\n5 1 0 1\n6 0 1 1\n7 1 1 1\n"
    "--ele--\n"
    "6 4\n"
    "0 0 1 3 7\n1 0 1 5 7\n2 0 2 3 7\n3 0 2 6 7\n4 0 4 5 7\n5 0 4 6 7\n";

static const uint32_t cube6_dual[][2] = {
    { 1, 0 }, { 2, 0 }, { 3, 2 }, { 4, 1 }, { 5, 3 }, { 5, 4 }
};

static void test_tiny(void)
{
    static const uint32_t two_dual[][2] = { { 1, 0 } };
    static const struct {
        const char *name;
        enum fmt f;
        const char *text;
        uint64_t nnodes, ncells, nother;
        const uint32_t (*dual)[2];
        size_t nedges;
        uint64_t nboundary;
    } cases[] = {
        { "two tets", GMSH, two_gmsh, 5, 2, 3, two_dual, 1, 6 },
        { "two tets", MEDIT, two_medit, 5, 2, 1, two_dual, 1, 6 },
        { "two tets", TETGEN, two_tetgen, 5, 2, 0, two_dual, 1, 6 },
        { "cube in 5", GMSH, cube5_gmsh, 8, 5, 0, cube5_dual, 4, 12 },
        { "cube in 5", MEDIT, cube5_medit, 8, 5, 0, cube5_dual, 4, 12 },
        { "cube in 5 (10-node tets)", TETGEN, cube5_tetgen, 8, 5, 0, cube5_dual, 4, 12 },
        { "cube in 6", GMSH, cube6_gmsh, 8, 6, 0, cube6_dual, 6, 12 },
        { "cube in 6", MEDIT, cube6_medit, 8, 6, 0, cube6_dual, 6, 12 },
        { "cube in 6", TETGEN, cube6_tetgen, 8, 6, 0, cube6_dual, 6, 12 },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct augur_dataset ds;
        struct augur_diag d;
        char name[128];
        int rc = parse_mesh(cases[i].f, cases[i].text, &ds, &d);

        snprintf(name, sizeof(name), "%s, %s: parses and builds the dual", cases[i].name,
                 fmt_name[cases[i].f]);
        if (!is_int(rc, 0, name))
            diag("%s:%u:%u: %s", d.file, d.line, d.col, d.msg);
        snprintf(name, sizeof(name), "%s, %s: nodes, tets, other elements", cases[i].name,
                 fmt_name[cases[i].f]);
        ok(ds.nnodes == cases[i].nnodes && ds.ncells == cases[i].ncells &&
               ds.nother_elements == cases[i].nother,
           name);
        snprintf(name, sizeof(name), "%s, %s: the exact dual", cases[i].name, fmt_name[cases[i].f]);
        ok(rc == 0 && dual_is(&ds, cases[i].dual, cases[i].nedges), name);
        snprintf(name, sizeof(name), "%s, %s: boundary faces", cases[i].name, fmt_name[cases[i].f]);
        is_int(ds.nboundary_faces, cases[i].nboundary, name);
        ds_clear(&ds);
    }
}

/* Files written on Windows: every line ends in CR LF. */
static void test_crlf(void)
{
    static const struct {
        enum fmt f;
        const char *text;
    } cases[] = { { GMSH, cube6_gmsh }, { MEDIT, cube6_medit }, { TETGEN, cube6_tetgen } };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *p = cases[i].text;
        char *crlf = augur_malloc(2 * strlen(p) + 1), *q = crlf, name[96];
        struct augur_dataset ds;
        struct augur_diag d;
        int rc;

        for (; *p; p++) {
            /* The TetGen test marker stays LF: it is not part of either file. */
            if (*p == '\n' && !(q >= crlf + 7 && memcmp(q - 7, "--ele--", 7) == 0))
                *q++ = '\r';
            *q++ = *p;
        }
        *q = '\0';
        rc = parse_mesh(cases[i].f, crlf, &ds, &d);
        snprintf(name, sizeof(name), "%s with CR LF line ends: the same dual",
                 fmt_name[cases[i].f]);
        if (!ok(rc == 0 && dual_is(&ds, cube6_dual, 6), name))
            diag("%s:%u:%u: %s", d.file, d.line, d.col, d.msg);
        ds_clear(&ds);
        augur_free(crlf);
    }
}

/* The node mapping of gmsh: sparse ids, any order; cells hold positions in $Nodes. */
static void test_gmsh_ids(void)
{
    struct augur_dataset ds;
    struct augur_diag d;

    ok(parse_mesh(GMSH, two_gmsh, &ds, &d) == 0, "gmsh: sparse node ids parse");
    ok(ds.cells && ds.cells[0] == 0 && ds.cells[1] == 1 && ds.cells[2] == 2 && ds.cells[3] == 3 &&
           ds.cells[4] == 1 && ds.cells[7] == 4,
       "gmsh: node ids 17, 3, 1000000, 42, 8 map to positions 0..4");
    ok(ds.cell_lines && ds.cell_lines[0] == 20 && ds.cell_lines[1] == 22,
       "gmsh: the line of each tet is kept");
    is_str(ds.cells_file, "mem.msh", "gmsh: the file of the tets");
    ds_clear(&ds);
    ok(parse_mesh(GMSH, cube6_gmsh, &ds, &d) == 0, "gmsh: nodes listed in reverse");
    ok(ds.cells && ds.cells[0] == 7 && ds.cells[3] == 0, "gmsh: reverse order maps by position");
    ds_clear(&ds);
}

/* ---- rt_mesh_build_dual on hand-made cells -------------------------------- */

static void test_dual_direct(void)
{
    /* Two tets on a face, with node ids far beyond 4 * ncells: the qsort path. */
    uint32_t cells[] = { 90000, 5, 70000, 123456, 5, 123456, 200000, 70000 };
    uint32_t lines[] = { 10, 11 };
    struct augur_dataset ds;
    struct augur_diag d;

    memset(&ds, 0, sizeof(ds));
    ds.path = (char *)"hand";
    ds.nnodes = 200001;
    ds.ncells = 2;
    ds.cells = cells;
    is_int(rt_mesh_build_dual(&ds, &d), 0, "dual: sparse node ids (comparison sort)");
    ok(ds.coo.nnz == 1 && ds.coo.row[0] == 1 && ds.coo.col[0] == 0 && ds.nboundary_faces == 6,
       "dual: sparse node ids give one edge and six boundary faces");
    augur_free(ds.coo.row);
    augur_free(ds.coo.col);
    memset(&ds.coo, 0, sizeof(ds.coo));

    /* A node id out of range names the tet. */
    ds.nnodes = 200000;
    augur_diag_init(&d);
    is_int(rt_mesh_build_dual(&ds, &d), AUGUR_ERANGE, "dual: node id out of range");
    ok(strstr(d.msg, "tet 2") != NULL, "dual: out-of-range message names the tet");
    ds.nnodes = 200001;

    /* A degenerate tet, with and without lines. */
    cells[5] = 5;
    augur_diag_init(&d);
    is_int(rt_mesh_build_dual(&ds, &d), AUGUR_EPARSE, "dual: degenerate tet");
    ok(strstr(d.msg, "degenerate tet 2") != NULL && d.line == 0 && strcmp(d.file, "hand") == 0,
       "dual: degenerate message names the tet");
    ds.cell_lines = lines;
    ds.cells_file = (char *)"hand.ele";
    augur_diag_init(&d);
    rt_mesh_build_dual(&ds, &d);
    ok(d.line == 11 && strcmp(d.file, "hand.ele") == 0, "dual: degenerate tet at its file:line");

    /* The same tet twice. */
    cells[4] = 90000, cells[5] = 5, cells[6] = 70000, cells[7] = 123456;
    augur_diag_init(&d);
    is_int(rt_mesh_build_dual(&ds, &d), AUGUR_EPARSE, "dual: duplicate tet");
    ok(d.line == 11 && strstr(d.msg, "line 10") != NULL, "dual: duplicate names both lines");
    ok(ds.coo.row == NULL, "dual: nothing is kept on failure");

    /* No tets: an empty dual. */
    ds.ncells = 0;
    is_int(rt_mesh_build_dual(&ds, &d), 0, "dual: no tets");
    ok(ds.coo.nnz == 0 && ds.coo.nrows == 0 && ds.nboundary_faces == 0, "dual: empty");
    augur_free(ds.coo.row);
    augur_free(ds.coo.col);
}

static uint32_t *coo_neighbours(const struct augur_dataset *ds);

/*
 * An umbrella of 2k tets around node 0: a ring 1..k with an apex above (top)
 * and below (bottom). Every tet has node 0, so the faces sorted around it are
 * many (the qsort branch of the bucket sort). Top tet i touches the top tets
 * i - 1 and i + 1 and the bottom tet i; its face (i, i+1, apex) is boundary.
 */
static void test_dual_umbrella(void)
{
    enum { K = 60 };
    uint32_t cells[2 * K * 4], want[2 * K * 4];
    struct augur_dataset ds;
    struct augur_diag d;
    uint32_t *got;

    for (uint32_t i = 0; i < K; i++) {
        uint32_t a = 1 + i, b = 1 + (i + 1) % K, top = 2 * i, bot = 2 * i + 1;
        uint32_t prev = (i + K - 1) % K, next = (i + 1) % K;
        uint32_t t[4] = { 0, a, b, K + 1 }, u[4] = { b, 0, K + 2, a };
        uint32_t wt[3] = { 2 * prev, 2 * next, bot }, wb[3] = { 2 * prev + 1, 2 * next + 1, top };

        memcpy(cells + 4 * top, t, sizeof(t));
        memcpy(cells + 4 * bot, u, sizeof(u));
        for (int k = 0; k < 3; k++) {
            want[4 * top + k] = wt[k];
            want[4 * bot + k] = wb[k];
        }
        want[4 * top + 3] = want[4 * bot + 3] = UINT32_MAX;
    }
    for (uint32_t c = 0; c < 2 * K; c++) /* sort the three neighbours */
        for (int i = 1; i < 3; i++)
            for (int j = i; j > 0 && want[4 * c + j - 1] > want[4 * c + j]; j--) {
                uint32_t x = want[4 * c + j];

                want[4 * c + j] = want[4 * c + j - 1];
                want[4 * c + j - 1] = x;
            }
    memset(&ds, 0, sizeof(ds));
    ds.path = (char *)"umbrella";
    ds.nnodes = K + 3;
    ds.ncells = 2 * K;
    ds.cells = cells;
    is_int(rt_mesh_build_dual(&ds, &d), 0, "dual: umbrella of 120 tets around one node");
    is_int(ds.coo.nnz, 3 * K, "dual: umbrella has 3 k edges");
    is_int(ds.nboundary_faces, 2 * K, "dual: umbrella has 2 k boundary faces");
    got = coo_neighbours(&ds);
    ok(got && memcmp(got, want, sizeof(want)) == 0, "dual: umbrella neighbours exact");
    free(got);
    augur_free(ds.coo.row);
    augur_free(ds.coo.col);
}

/* ---- bad input ----------------------------------------------------------- */

struct bad {
    const char *what;
    enum fmt f;
    const char *text;
    int code;
    uint32_t line, col; /* col 0: not checked */
    const char *msg;    /* a part of the message */
    const char *file;   /* NULL: mem.msh, mem.mesh or mem.node */
};

static const struct bad bad_inputs[] = {
    /* gmsh */
    { "truncated in $Nodes", GMSH,
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n2\n1 0.5 0.5 0.5\n2 0.25 0", AUGUR_EPARSE, 7,
      9, "node coordinate, found end of file", NULL },
    { "nodes missing", GMSH,
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n3\n1 0 0 0\n2 0 0 1\n\n\n\n\n\n\n\n\n\n\n",
      AUGUR_ETRUNC, 18, 1, "after 2 of 3 nodes", NULL },
    { "missing $EndNodes", GMSH,
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 0 0\n$Elements\n0\n$EndElements\n",
      AUGUR_EPARSE, 7, 1, "expected $EndNodes", NULL },
    { "unknown element type", GMSH,
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 0 0\n$EndNodes\n"
      "$Elements\n1\n1 99 0 1\n$EndElements\n",
      AUGUR_EFORMAT, 10, 3, "unknown gmsh element type 99", NULL },
    { "tet node not defined", GMSH,
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n"
      "$EndNodes\n$Elements\n1\n7 4 2 0 0 1 2 3 5\n$EndElements\n",
      AUGUR_ERANGE, 13, 17, "node 5", NULL },
    { "tet node zero", GMSH,
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n"
      "$EndNodes\n$Elements\n1\n7 4 2 0 0 0 2 3 4\n$EndElements\n",
      AUGUR_ERANGE, 13, 11, "node 0", NULL },
    { "tet node negative", GMSH,
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n"
      "$EndNodes\n$Elements\n1\n7 4 2 0 0 1 -2 3 4\n$EndElements\n",
      AUGUR_ERANGE, 13, 13, "negative", NULL },
    { "node count 10^15", GMSH,
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1000000000000000\n1 0 0 0\n$EndNodes\n",
      AUGUR_ETRUNC, 5, 0, "at most", NULL },
    { "element count 10^15", GMSH,
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 0 0\n$EndNodes\n"
      "$Elements\n1000000000000000\n$EndElements\n",
      AUGUR_ETRUNC, 9, 0, "1000000000000000 elements", NULL },
    { "binary", GMSH, "$MeshFormat\n2.2 1 8\n\x01\x00\x00\x00\n$EndMeshFormat\n", AUGUR_EFORMAT, 2,
      0, "binary", NULL },
    { "version 4", GMSH, "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n", AUGUR_EFORMAT, 2, 0,
      "version 4.1", NULL },
    { "no $MeshFormat", GMSH, "$Nodes\n0\n$EndNodes\n", AUGUR_EFORMAT, 1, 1, "$MeshFormat", NULL },
    { "garbage", GMSH, "hello world\n", AUGUR_EPARSE, 1, 1, "section marker", NULL },
    { "unterminated section", GMSH, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Comments\nabc\n",
      AUGUR_ETRUNC, 4, 0, "$EndComments", NULL },
    { "duplicate node id", GMSH,
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n2\n5 0 0 0\n5 1 0 0\n$EndNodes\n",
      AUGUR_EPARSE, 7, 0, "defined twice", NULL },
    { "degenerate tet", GMSH,
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n"
      "$EndNodes\n$Elements\n1\n7 4 2 0 0 1 2 3 2\n$EndElements\n",
      AUGUR_EPARSE, 13, 17, "degenerate", NULL },
    { "non-manifold face", GMSH,
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n6\n1 0 0 0\n2 1 0 0\n3 0 1 0\n"
      "4 0 0 1\n5 0 0 -1\n6 1 1 1\n$EndNodes\n$Elements\n3\n"
      "1 4 0 1 2 3 4\n2 4 0 1 2 3 5\n3 4 0 1 2 3 6\n$EndElements\n",
      AUGUR_EPARSE, 17, 0, "non-manifold", NULL },
    { "no elements", GMSH, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n0\n$EndNodes\n",
      AUGUR_ETRUNC, 0, 0, "$Elements", NULL },
    { "extra field on a node", GMSH,
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 0 0 7\n$EndNodes\n", AUGUR_EPARSE, 6, 9,
      "unexpected", NULL },
    /* Medit */
    { "truncated", MEDIT,
      "MeshVersionFormatted 2\nDimension 3\nVertices\n2\n0.5 0.5 0.5 1\n0.5 0.5", AUGUR_ETRUNC, 6,
      8, "inside Vertices", NULL },
    { "vertex index 0", MEDIT,
      "MeshVersionFormatted 2\nDimension 3\nVertices\n4\n0 0 0 0\n1 0 0 0\n0 1 0 0\n0 0 1 0\n"
      "Tetrahedra\n1\n1 2 0 4 0\n",
      AUGUR_ERANGE, 11, 5, "vertex index 0", NULL },
    { "vertex index too large", MEDIT,
      "MeshVersionFormatted 2\nDimension 3\nVertices\n4\n0 0 0 0\n1 0 0 0\n0 1 0 0\n0 0 1 0\n"
      "Tetrahedra\n1\n1 2 3 5 0\n",
      AUGUR_ERANGE, 11, 7, "out of range 1..4", NULL },
    { "vertex index negative", MEDIT,
      "MeshVersionFormatted 2\nDimension 3\nVertices\n4\n0 0 0 0\n1 0 0 0\n0 1 0 0\n0 0 1 0\n"
      "Tetrahedra\n1\n-1 2 3 4 0\n",
      AUGUR_ERANGE, 11, 1, "negative", NULL },
    { "count 10^15", MEDIT, "MeshVersionFormatted 2\nDimension 3\nVertices\n1000000000000000\n",
      AUGUR_ETRUNC, 4, 17, "at most", NULL },
    { "degenerate", MEDIT,
      "MeshVersionFormatted 2\nDimension 3\nVertices\n4\n0 0 0 0\n1 0 0 0\n0 1 0 0\n0 0 1 0\n"
      "Tetrahedra\n2\n1 2 3 4 0\n4 3 4 1 0\n",
      AUGUR_EPARSE, 12, 0, "degenerate", NULL },
    { "non-manifold", MEDIT,
      "MeshVersionFormatted 2\nDimension 3\nVertices\n6\n0 0 0 0\n1 0 0 0\n0 1 0 0\n0 0 1 0\n"
      "0 0 -1 0\n1 1 1 0\nTetrahedra\n3\n1 2 3 4 0\n1 2 3 5 0\n6 3 2 1 0\n",
      AUGUR_EPARSE, 15, 0, "3 tets share the face of nodes 1, 2, 3", NULL },
    { "unknown keyword", MEDIT, "MeshVersionFormatted 2\nDimension 3\nFoo 3\n", AUGUR_EFORMAT, 3, 1,
      "unknown Medit keyword 'Foo'", NULL },
    { "2D", MEDIT, "MeshVersionFormatted 2\nDimension 2\n", AUGUR_EFORMAT, 2, 12, "dimension 2",
      NULL },
    { "garbage", MEDIT,
      "\x7f"
      "ELF\x02\x01\n",
      AUGUR_EFORMAT, 1, 1, "not a Medit mesh", NULL },
    { "bad number", MEDIT, "MeshVersionFormatted 2\nDimension 3\nVertices\n1\n0 0 x 0\n",
      AUGUR_EPARSE, 5, 5, "vertex coordinate", NULL },
    /* TetGen */
    { "truncated .ele", TETGEN,
      "4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n--ele--\n2 4 0\n1 1 2 3 4\n"
      "# cut where the second tet should be\n",
      AUGUR_ETRUNC, 4, 1, "after 1 of 2", "mem.ele" },
    { "node id out of range", TETGEN,
      "4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n--ele--\n1 4 0\n1 1 2 3 5\n", AUGUR_ERANGE, 2,
      9, "out of range 1..4", "mem.ele" },
    { "node id zero in a 1-based mesh", TETGEN,
      "4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n--ele--\n1 4 0\n1 0 2 3 4\n", AUGUR_ERANGE, 2,
      3, "node id 0", "mem.ele" },
    { "node id negative", TETGEN,
      "4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n--ele--\n1 4 0\n1 1 -2 3 4\n", AUGUR_ERANGE, 2,
      5, "negative", "mem.ele" },
    { "count 10^15", TETGEN, "1000000000000000 3 0 0\n1 0 0 0\n--ele--\n0 4\n", AUGUR_ETRUNC, 1, 0,
      "at most", NULL },
    { "ele count 10^15", TETGEN, "1 3 0 0\n1 0 0 0\n--ele--\n1000000000000000 4\n", AUGUR_ETRUNC, 1,
      0, "at most", "mem.ele" },
    { "ids out of sequence", TETGEN, "2 3 0 0\n1 0 0 0\n3 1 0 0\n--ele--\n0 4\n", AUGUR_EPARSE, 3,
      1, "expected 2", NULL },
    { "first id 2", TETGEN, "1 3 0 0\n2 0 0 0\n--ele--\n0 4\n", AUGUR_ERANGE, 2, 1, "0 or 1",
      NULL },
    { "degenerate", TETGEN,
      "4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n--ele--\n1 4 0\n1 1 2 1 4\n", AUGUR_EPARSE, 2,
      7, "degenerate", "mem.ele" },
    { "non-manifold", TETGEN,
      "6 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n5 0 0 -1\n6 1 1 1\n--ele--\n"
      "3 4 0\n1 1 2 3 4\n2 1 2 3 5\n# third\n3 1 2 3 6\n",
      AUGUR_EPARSE, 5, 0, "lines 2 and 3", "mem.ele" },
    { "2D", TETGEN, "1 2 0 0\n1 0 0\n--ele--\n0 4\n", AUGUR_EFORMAT, 1, 0, "dimension 2", NULL },
    { "6-node elements", TETGEN, "4 3\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n--ele--\n1 6\n",
      AUGUR_EFORMAT, 1, 0, "must be 4 or 10", "mem.ele" },
    { "garbage", TETGEN, "GIF89a\n--ele--\n", AUGUR_EPARSE, 1, 1, "number of nodes", NULL },
    { "trailing content", TETGEN, "1 3\n1 0 0 0\n2 0 0 0\n--ele--\n0 4\n", AUGUR_EPARSE, 3, 1,
      "after the last", NULL },
    { "empty .ele", TETGEN, "1 3\n1 0 0 0\n--ele--\n# nothing\n", AUGUR_ETRUNC, 0, 0, "empty .ele",
      "mem.ele" },
};

static void test_bad(void)
{
    for (size_t i = 0; i < sizeof(bad_inputs) / sizeof(bad_inputs[0]); i++) {
        const struct bad *b = &bad_inputs[i];
        struct augur_dataset ds;
        struct augur_diag d;
        char name[160];
        int rc;
        bool where;
        const char *want_file = b->file         ? b->file
                                : b->f == GMSH  ? "mem.msh"
                                : b->f == MEDIT ? "mem.mesh"
                                                : "mem.node";

        rc = parse_mesh(b->f, b->text, &ds, &d);
        snprintf(name, sizeof(name), "bad %s: %s is an error", fmt_name[b->f], b->what);
        if (!is_int(rc, b->code, name))
            diag("%s:%u:%u: %s", d.file, d.line, d.col, d.msg);
        where = strcmp(d.file, want_file) == 0 && (b->line == 0 || d.line == b->line) &&
                (b->col == 0 || d.col == b->col) && strstr(d.msg, b->msg) != NULL;
        snprintf(name, sizeof(name), "bad %s: %s names %s:%u%s and says '%s'", fmt_name[b->f],
                 b->what, want_file, b->line, b->col ? ":col" : "", b->msg);
        if (!ok(where, name))
            diag("got %s:%u:%u: %s", d.file, d.line, d.col, d.msg);
        ok(d.line > 0, "bad input: the diagnostic names a line");
        ds_clear(&ds);
    }
}

/* ---- TetGen file pairs ----------------------------------------------------- */

static void test_tetgen_files(void)
{
    char dir[] = "/tmp/t_mesh_XXXXXX", path[256], node[256], ele[256];
    const char *sep = strstr(cube6_tetgen, "--ele--\n");
    char *node_text = augur_malloc((size_t)(sep - cube6_tetgen) + 1);
    struct augur_dataset ds;
    struct augur_diag d;
    int rc;

    memcpy(node_text, cube6_tetgen, (size_t)(sep - cube6_tetgen));
    node_text[sep - cube6_tetgen] = '\0';
    if (!mkdtemp(dir)) {
        skip("cannot create a temporary folder", "tetgen files");
        augur_free(node_text);
        return;
    }
    snprintf(node, sizeof(node), "%s/cube.node", dir);
    snprintf(ele, sizeof(ele), "%s/cube.ele.gz", dir);
    write_file(node, node_text, false);
    write_file(ele, sep + 8, true);

    const char *names[] = { "cube", "cube.node", "cube.ele.gz", "cube.ele" };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        char name[128];

        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        memset(&ds, 0, sizeof(ds));
        augur_diag_init(&d);
        rc = rt_read_tetgen(path, NULL, &ds, &d);
        if (rc == 0)
            rc = rt_mesh_build_dual(&ds, &d);
        snprintf(name, sizeof(name), "tetgen: '%s' finds both files", names[i]);
        if (!is_int(rc, i == 3 ? AUGUR_ENOENT : 0, name))
            diag("%s:%u:%u: %s", d.file, d.line, d.col, d.msg);
        if (i < 3) {
            ok(dual_is(&ds, cube6_dual, 6) && ds.compressed && ds.cells_file &&
                   strcmp(ds.cells_file, ele) == 0,
               "tetgen: the pair's dual, gzip seen, tets in the .ele.gz");
        } else {
            snprintf(name, sizeof(name), "%s/cube.ele", dir);
            ok(strcmp(d.file, name) == 0, "tetgen: a missing named file is named");
        }
        ds_clear(&ds);
    }

    /* A .node without its .ele. */
    unlink(ele);
    snprintf(path, sizeof(path), "%s/cube.node", dir);
    memset(&ds, 0, sizeof(ds));
    augur_diag_init(&d);
    is_int(rt_read_tetgen(path, NULL, &ds, &d), AUGUR_ENOENT, "tetgen: .node without .ele");
    snprintf(path, sizeof(path), "%s/cube", dir);
    ok(strcmp(d.file, path) == 0 && strstr(d.msg, "cube.ele.gz") != NULL,
       "tetgen: the message names the .ele files tried");
    ds_clear(&ds);

    /* An error inside the .node file names it. */
    write_file(node, "3 3 0 0\n1 0 0 0\n", false);
    write_file(ele, "0 4\n", true);
    augur_diag_init(&d);
    is_int(rt_read_tetgen(ele, NULL, &ds, &d), AUGUR_ETRUNC, "tetgen: short .node");
    ok(strcmp(d.file, node) == 0 && d.line == 1, "tetgen: the .node error names the .node file");
    ds_clear(&ds);

    unlink(node);
    unlink(ele);
    rmdir(dir);
    augur_free(node_text);
}

/* ---- the real meshes ------------------------------------------------------- */

struct real_mesh {
    const char *file;
    uint64_t nnodes, ncells, nother; /* MANIFEST.md */
    bool check_dual;                 /* compare with the independent dual */
    uint64_t nboundary;              /* boundary faces when known independently, else 0 */
};

static const struct real_mesh real_meshes[] = {
    { "hinge_stl_tetgen_tet.node.gz", 59990, 287847, 0, false, 0 },
    { "gmsh_t13_stl_tetgen_tet.ele.gz", 48964, 186038, 0, true, 0 },
    /*
     * gmsh meshed one closed CAD volume: its 48,546 surface triangles are
     * exactly the faces of a single tet.
     */
    { "frame_step_gmsh_tet.msh.gz", 33057, 127372, 48546 + 5785 + 632, false, 48546 },
    { "sfepy_cube_cylinder_tet.mesh", 10490, 54517, 0, true, 0 },
    { "mfem_indheat_tet.msh", 4949, 29176, 5884, true, 0 },
    { "mfem_piece_tet.msh", 3939, 13179, 6908 + 852 + 126, false, 0 },
};

/*
 * The dual again, another way: a vertex-to-tets incidence list, then for each
 * face of each tet the other tets holding its three vertices. Returns the
 * neighbours (4 slots a tet, UINT32_MAX when empty, sorted) or NULL when a
 * tet has more than four, and counts the faces with no neighbour.
 */
static uint32_t *incidence_dual(const struct augur_dataset *ds, uint64_t *nboundary)
{
    uint64_t n = ds->ncells, nv = ds->nnodes;
    uint64_t *start = calloc(nv + 1, sizeof(*start));
    uint32_t *inc = malloc(4 * n * sizeof(*inc) + 1), *nbr = malloc(4 * n * sizeof(*nbr) + 1);
    uint64_t *fill = calloc(nv + 1, sizeof(*fill));

    *nboundary = 0;
    for (uint64_t k = 0; k < 4 * n; k++)
        start[ds->cells[k] + 1]++;
    for (uint64_t v = 0; v < nv; v++)
        start[v + 1] += start[v];
    for (uint64_t k = 0; k < 4 * n; k++) {
        uint32_t v = ds->cells[k];

        inc[start[v] + fill[v]++] = (uint32_t)(k / 4);
    }
    for (uint64_t t = 0; t < n; t++) {
        int m = 0;

        for (int k = 0; k < 4; k++)
            nbr[4 * t + k] = UINT32_MAX;
        for (int f = 0; f < 4; f++) {
            uint32_t fv[3];
            int nf = 0, found = 0;

            for (int k = 0; k < 4; k++)
                if (k != f)
                    fv[nf++] = ds->cells[4 * t + k];
            for (uint64_t p = start[fv[0]]; p < start[fv[0] + 1]; p++) {
                uint32_t u = inc[p];
                int has = 0;

                if (u == t)
                    continue;
                for (int k = 0; k < 4; k++)
                    has += ds->cells[4 * u + k] == fv[1] || ds->cells[4 * u + k] == fv[2];
                if (has == 2) {
                    if (m == 4) {
                        free(start), free(inc), free(nbr), free(fill);
                        return NULL;
                    }
                    nbr[4 * t + m++] = u;
                    found++;
                }
            }
            if (!found)
                (*nboundary)++;
        }
        for (int i = 1; i < m; i++)
            for (int j = i; j > 0 && nbr[4 * t + j - 1] > nbr[4 * t + j]; j--) {
                uint32_t x = nbr[4 * t + j];

                nbr[4 * t + j] = nbr[4 * t + j - 1];
                nbr[4 * t + j - 1] = x;
            }
    }
    free(start), free(inc), free(fill);
    return nbr;
}

/* The neighbours from the dual's lower triangle, in the same 4-slot form; NULL when > 4. */
static uint32_t *coo_neighbours(const struct augur_dataset *ds)
{
    uint64_t n = ds->ncells;
    uint32_t *nbr = malloc(4 * n * sizeof(*nbr) + 1);
    uint8_t *deg = calloc(n + 1, 1);

    for (uint64_t k = 0; k < 4 * n; k++)
        nbr[k] = UINT32_MAX;
    for (uint64_t e = 0; e < ds->coo.nnz; e++) {
        uint32_t i = ds->coo.row[e], j = ds->coo.col[e];

        if (i <= j || deg[i] == 4 || deg[j] == 4) {
            free(nbr), free(deg);
            return NULL;
        }
        nbr[4 * (uint64_t)i + deg[i]++] = j;
        nbr[4 * (uint64_t)j + deg[j]++] = i;
    }
    for (uint64_t t = 0; t < n; t++)
        for (int i = 1; i < deg[t]; i++)
            for (int j = i; j > 0 && nbr[4 * t + j - 1] > nbr[4 * t + j]; j--) {
                uint32_t x = nbr[4 * t + j];

                nbr[4 * t + j] = nbr[4 * t + j - 1];
                nbr[4 * t + j - 1] = x;
            }
    free(deg);
    return nbr;
}

/* Reads a real mesh through its reader and builds the dual (no rt_coo_finish). */
static int read_real(const char *path, struct augur_dataset *ds, struct augur_diag *diag)
{
    struct augur_buf text;
    int rc;

    memset(ds, 0, sizeof(*ds));
    augur_buf_init(&text);
    if (strstr(path, ".node") || strstr(path, ".ele")) {
        rc = rt_read_tetgen(path, NULL, ds, diag);
    } else {
        rc = augur_file_read(path, 0, &text, NULL, diag);
        if (rc == 0 && strstr(path, ".msh"))
            rc = rt_read_gmsh(text.s, text.len, path, NULL, ds, diag);
        else if (rc == 0)
            rc = rt_read_medit(text.s, text.len, path, NULL, ds, diag);
    }
    augur_buf_release(&text);
    if (rc == 0)
        rc = rt_mesh_build_dual(ds, diag);
    return rc;
}

static void test_real(const char *datasets)
{
    for (size_t i = 0; i < sizeof(real_meshes) / sizeof(real_meshes[0]); i++) {
        const struct real_mesh *m = &real_meshes[i];
        struct augur_dataset ds;
        struct augur_diag d;
        char path[1024], name[256];
        int rc;

        snprintf(path, sizeof(path), "%s/mesh/%s", datasets, m->file);
        augur_diag_init(&d);
        rc = read_real(path, &ds, &d);
        snprintf(name, sizeof(name), "%s: reads and builds the dual", m->file);
        if (!is_int(rc, 0, name)) {
            diag("%s:%u:%u: %s", d.file, d.line, d.col, d.msg);
            ds_clear(&ds);
            continue;
        }
        snprintf(name, sizeof(name), "%s: nodes as in MANIFEST.md", m->file);
        is_int(ds.nnodes, m->nnodes, name);
        snprintf(name, sizeof(name), "%s: tets as in MANIFEST.md", m->file);
        is_int(ds.ncells, m->ncells, name);
        snprintf(name, sizeof(name), "%s: other elements skipped as in MANIFEST.md", m->file);
        is_int(ds.nother_elements, m->nother, name);
        snprintf(name, sizeof(name), "%s: 4 T = 2 (dual edges) + boundary faces", m->file);
        is_int(4 * ds.ncells, 2 * ds.coo.nnz + ds.nboundary_faces, name);
        if (m->nboundary) {
            snprintf(name, sizeof(name), "%s: boundary faces = the file's boundary triangles",
                     m->file);
            is_int(ds.nboundary_faces, m->nboundary, name);
        }
        diag("%s: %llu dual edges, %llu boundary faces", m->file, (unsigned long long)ds.coo.nnz,
             (unsigned long long)ds.nboundary_faces);
        {
            uint32_t *mine = coo_neighbours(&ds);

            snprintf(name, sizeof(name), "%s: lower triangle, at most 4 neighbours a tet", m->file);
            ok(mine != NULL, name);
            if (m->check_dual && mine) {
                uint64_t nb = 0;
                uint32_t *other = incidence_dual(&ds, &nb);

                snprintf(name, sizeof(name), "%s: the incidence-list dual has the same neighbours",
                         m->file);
                ok(other && memcmp(mine, other, 4 * ds.ncells * sizeof(*mine)) == 0, name);
                snprintf(name, sizeof(name), "%s: and the same boundary faces", m->file);
                is_int(nb, ds.nboundary_faces, name);
                free(other);
            }
            free(mine);
        }
        ds_clear(&ds);
    }
}

/* Through the public loader: normalised dual, CSR, and ELLPACK of width 4. */
static void test_real_load(const char *datasets)
{
    for (size_t i = 0; i < sizeof(real_meshes) / sizeof(real_meshes[0]); i++) {
        const struct real_mesh *m = &real_meshes[i];
        struct augur_dataset *ds = NULL;
        struct augur_csr csr;
        struct augur_ell ell;
        struct augur_diag d;
        char path[1024], name[256];
        uint64_t maxdeg = 0, bad_pad = 0;
        int rc;

        snprintf(path, sizeof(path), "%s/mesh/%s", datasets, m->file);
        augur_diag_init(&d);
        rc = augur_dataset_load(path, NULL, &ds, &d);
        snprintf(name, sizeof(name), "%s: augur_dataset_load", m->file);
        if (!is_int(rc, 0, name)) {
            diag("%s:%u:%u: %s", d.file, d.line, d.col, d.msg);
            continue;
        }
        snprintf(name, sizeof(name), "%s: loaded as a symmetric pattern dual, no duplicates",
                 m->file);
        ok(augur_format_is_mesh(ds->format) && ds->symmetry == AUGUR_SYM_SYMMETRIC &&
               ds->field == AUGUR_FIELD_PATTERN && ds->nduplicates == 0 && ds->ndiagonal == 0 &&
               ds->coo.nrows == m->ncells &&
               4 * ds->ncells == 2 * ds->coo.nnz + ds->nboundary_faces,
           name);
        memset(&csr, 0, sizeof(csr));
        memset(&ell, 0, sizeof(ell));
        rc = augur_dataset_csr(ds, true, &csr, &d);
        snprintf(name, sizeof(name), "%s: expanded CSR", m->file);
        ok(rc == 0 && csr.nnz == 2 * ds->coo.nnz, name);
        for (uint32_t r = 0; rc == 0 && r < csr.nrows; r++)
            if (csr.rowptr[r + 1] - csr.rowptr[r] > maxdeg)
                maxdeg = csr.rowptr[r + 1] - csr.rowptr[r];
        snprintf(name, sizeof(name), "%s: max dual degree 4", m->file);
        is_int(maxdeg, 4, name);
        rc = rc ? rc : augur_csr_to_ell(&csr, 4, &ell, &d);
        snprintf(name, sizeof(name), "%s: ELLPACK of width 4 holds the dual", m->file);
        if (!ok(rc == 0 && ell.width == 4 && ell.nrows == m->ncells, name))
            diag("%s:%u:%u: %s", d.file, d.line, d.col, d.msg);
        for (uint64_t r = 0; rc == 0 && r < ell.nrows; r++) {
            uint64_t deg = csr.rowptr[r + 1] - csr.rowptr[r];

            for (uint64_t k = deg; k < 4; k++)
                bad_pad += ell.idx[k * ell.nrows + r] != r;
        }
        snprintf(name, sizeof(name), "%s: %s padding slots, each pointing at its own row", m->file,
                 "4 n - nnz");
        ok(rc == 0 && ell.npadding == 4 * (uint64_t)ell.nrows - csr.nnz && bad_pad == 0, name);
        augur_ell_release(&ell);
        augur_csr_release(&csr);
        augur_dataset_free(ds);
    }
}

/* gmsh and Medit text through augur_dataset_parse (what the fuzz targets call). */
static void test_parse_api(void)
{
    struct augur_dataset *ds = NULL;
    struct augur_diag d;
    int rc;

    augur_diag_init(&d);
    rc = augur_dataset_parse(cube6_gmsh, strlen(cube6_gmsh), "cube.msh", NULL, &ds, &d);
    ok(rc == 0 && ds->format == AUGUR_FORMAT_GMSH && dual_is(ds, cube6_dual, 6),
       "augur_dataset_parse: gmsh cube in 6");
    augur_dataset_free(ds);
    ds = NULL;
    rc = augur_dataset_parse(cube5_medit, strlen(cube5_medit), "x", NULL, &ds, &d);
    ok(rc == 0 && ds->format == AUGUR_FORMAT_MEDIT && dual_is(ds, cube5_dual, 4),
       "augur_dataset_parse: Medit cube in 5, detected by content");
    augur_dataset_free(ds);
}

int main(void)
{
    const char *datasets = tap_datasets();
    char manifest[1024];
    struct stat st;

    test_tiny();
    test_gmsh_ids();
    test_crlf();
    test_dual_direct();
    test_dual_umbrella();
    test_bad();
    test_tetgen_files();
    test_parse_api();
    snprintf(manifest, sizeof(manifest), "%s/MANIFEST.md", datasets ? datasets : ".");
    if (!datasets || stat(manifest, &st) != 0) {
        skip("AUGUR_DATASETS not set", "real meshes");
    } else {
        test_real(datasets);
        test_real_load(datasets);
    }
    return tap_done();
}
