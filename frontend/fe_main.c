/*
 * fe_main.c - the front end's entry points: compiler arguments and
 * compile_commands.json, parsing, diagnostics, kernels (module: frontend).
 */
#define _DEFAULT_SOURCE /* realpath() */
#include <ctype.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <clang-c/CXCompilationDatabase.h>

#include "fe_int.h"

#define SHIM_DIR  "/augur-shim"
#define SHIM_PATH SHIM_DIR "/cuda_shim.h"

/* ---- small shared helpers ----------------------------------------------------------------- */

void fe_cursors_push(struct fe_cursors *cs, CXCursor c)
{
    if (cs->n == cs->cap) {
        cs->cap = cs->cap ? cs->cap * 2 : 16;
        cs->v = augur_reallocarray(cs->v, cs->cap, sizeof(*cs->v));
    }
    cs->v[cs->n++] = c;
}

void fe_cursors_release(struct fe_cursors *cs)
{
    augur_free(cs->v);
    cs->v = NULL;
    cs->n = cs->cap = 0;
}

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    fe_cursors_push(data, c);
    return CXChildVisit_Continue;
}

void fe_children(CXCursor c, struct fe_cursors *out)
{
    clang_visitChildren(c, collect, out);
}

CXCursor fe_strip_implicit(CXCursor c)
{
    for (int i = 0; i < 64 && clang_getCursorKind(c) == CXCursor_UnexposedExpr; i++) {
        struct fe_cursors kids = { 0 };
        CXCursor next = c;

        fe_children(c, &kids);
        if (kids.n == 1 && clang_isExpression(clang_getCursorKind(kids.v[0])))
            next = kids.v[0];
        fe_cursors_release(&kids);
        if (clang_equalCursors(next, c))
            break;
        c = next;
    }
    return c;
}

CXCursor fe_strip(CXCursor c)
{
    for (int i = 0; i < 64; i++) {
        CXCursor next = fe_strip_implicit(c);

        if (clang_getCursorKind(next) == CXCursor_ParenExpr) {
            struct fe_cursors kids = { 0 };

            fe_children(next, &kids);
            if (kids.n == 1)
                next = kids.v[0];
            fe_cursors_release(&kids);
        }
        if (clang_equalCursors(next, c))
            break;
        c = next;
    }
    return c;
}

void fe_spelling(CXCursor c, char *buf, size_t size)
{
    CXString s = clang_getCursorSpelling(c);
    const char *p = clang_getCString(s);

    snprintf(buf, size, "%s", p ? p : "");
    clang_disposeString(s);
}

/*
 * Where a location is written in a file: a token of a macro argument where
 * the argument is spelled, a token of a macro body where its (outermost
 * written) invocation stands. libclang's clang_getSpellingLocation maps
 * through SourceManager::getFileLoc, which does exactly this.
 */
static void file_loc(CXSourceLocation l, CXFile *file, unsigned *line, unsigned *col,
                     unsigned *offset)
{
    clang_getSpellingLocation(l, file, line, col, offset);
}

void fe_cursor_pos(CXCursor c, unsigned *offset, unsigned *line, unsigned *col, CXFile *file)
{
    CXSourceLocation loc = clang_getRangeStart(clang_getCursorExtent(c));
    CXFile f = NULL;
    unsigned l = 0, k = 0, o = 0;

    file_loc(loc, &f, &l, &k, &o);
    if (offset)
        *offset = o;
    if (line)
        *line = l;
    if (col)
        *col = k;
    if (file)
        *file = f;
}

void fe_extent_offsets(CXCursor c, unsigned *begin, unsigned *end)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile fb = NULL, fe = NULL;
    unsigned b = 0, e = 0;

    file_loc(clang_getRangeStart(r), &fb, NULL, NULL, &b);
    file_loc(clang_getRangeEnd(r), &fe, NULL, NULL, &e);
    if (fb && fe && clang_File_isEqual(fb, fe)) {
        /* a body token last and an argument first (i < (n) of a for-loop macro): the span */
        *begin = b < e ? b : e;
        *end = b < e ? e : b;
        return;
    }
    clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL, begin);
    clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, end);
}

CXSourceRange fe_file_extent(CXTranslationUnit tu, CXCursor c)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile fb = NULL, fe = NULL;
    unsigned b = 0, e = 0;

    /* Inside a macro the raw extent may start in the #define: use where it was expanded. */
    clang_getExpansionLocation(clang_getRangeStart(r), &fb, NULL, NULL, &b);
    clang_getExpansionLocation(clang_getRangeEnd(r), &fe, NULL, NULL, &e);
    if (!fb || !fe || !clang_File_isEqual(fb, fe) || e < b)
        return r;
    return clang_getRange(clang_getLocationForOffset(tu, fb, b),
                          clang_getLocationForOffset(tu, fb, e));
}

bool fe_spelled_extent(const struct fe_tu *t, CXCursor c, CXSourceRange *out)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile fb = NULL, fe = NULL;
    unsigned b = 0, e = 0;

    file_loc(clang_getRangeStart(r), &fb, NULL, NULL, &b);
    file_loc(clang_getRangeEnd(r), &fe, NULL, NULL, &e);
    if (!fb || !fe || !clang_File_isEqual(fb, fe))
        return false;
    if (b > e) {
        /* Tokens of a macro's body and of its arguments: the innermost invocation holding both. */
        size_t best = t->nexpansions;

        if (!clang_File_isEqual(fb, t->file))
            return false;
        for (size_t i = 0; i < t->nexpansions; i++)
            if (t->exp_begin[i] <= e && b < t->exp_end[i] &&
                (best == t->nexpansions ||
                 t->exp_end[i] - t->exp_begin[i] < t->exp_end[best] - t->exp_begin[best]))
                best = i;
        if (best == t->nexpansions)
            return false;
        b = t->exp_begin[best];
        e = t->exp_end[best];
    } else if (clang_File_isEqual(fb, t->file)) {
        /*
         * A range that cuts an invocation (++r of a for-loop macro: its "++" where the macro
         * starts, its "r" in an argument) takes all of it, so that the invocation expands.
         */
        bool grown = true;

        for (int round = 0; grown && round < 8; round++) {
            grown = false;
            for (size_t i = 0; i < t->nexpansions; i++) {
                unsigned eb = t->exp_begin[i], ee = t->exp_end[i];

                /* an end at an invocation's start is where its body's last token maps */
                if (eb >= b && eb <= e && ee > e)
                    e = ee, grown = true;
                else if (eb < b && b < ee && ee <= e)
                    b = eb, grown = true;
            }
        }
    }
    *out = clang_getRange(clang_getLocationForOffset(t->tu, fb, b),
                          clang_getLocationForOffset(t->tu, fb, e));
    return true;
}

/* The file c is written in: where its name was expanded, so a macro such as __global__ does not
 * hide a function. */
static CXFile expansion_file(CXCursor c)
{
    CXFile file = NULL;

    clang_getExpansionLocation(clang_getCursorLocation(c), &file, NULL, NULL, NULL);
    return file;
}

bool fe_in_kernel_file(const struct fe_tu *t, CXCursor c)
{
    CXFile file = expansion_file(c);

    return file && t->file && clang_File_isEqual(file, t->file);
}

static unsigned str_hash(const char *s)
{
    unsigned h = 2166136261u;

    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

void *fe_map_get(const struct fe_map *m, const char *key)
{
    if (!m->cap)
        return NULL;
    for (size_t i = str_hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->v[i].key)
            return NULL;
        if (strcmp(m->v[i].key, key) == 0)
            return m->v[i].val;
    }
}

void fe_map_put(struct fe_map *m, const char *key, void *val)
{
    size_t i;

    if ((m->n + 1) * 2 > m->cap) {
        struct fe_map bigger = { NULL, 0, m->cap ? m->cap * 2 : 64 };

        bigger.v = augur_calloc(bigger.cap, sizeof(*bigger.v));
        for (size_t j = 0; j < m->cap; j++)
            if (m->v[j].key)
                fe_map_put(&bigger, m->v[j].key, m->v[j].val);
        augur_free(m->v);
        *m = bigger;
    }
    for (i = str_hash(key) & (m->cap - 1); m->v[i].key; i = (i + 1) & (m->cap - 1)) {
        if (strcmp(m->v[i].key, key) == 0) {
            m->v[i].val = val;
            return;
        }
    }
    m->v[i].key = key;
    m->v[i].val = val;
    m->n++;
}

void fe_map_release(struct fe_map *m)
{
    augur_free(m->v);
    m->v = NULL;
    m->n = m->cap = 0;
}

/* ---- front end object ----------------------------------------------------------------------- */

int augur_fe_new(struct augur_fe **out, struct augur_diag *diag)
{
    struct augur_fe *fe;
    CXIndex index = clang_createIndex(0, 0);

    if (!index)
        return augur_diag_set(diag, AUGUR_ECLANG, NULL, 0, 0, "cannot create a libclang index");
    fe = augur_calloc(1, sizeof(*fe));
    fe->index = index;
    *out = fe;
    return 0;
}

void augur_fe_free(struct augur_fe *fe)
{
    if (!fe)
        return;
    clang_disposeIndex(fe->index);
    augur_free(fe);
}

const char *augur_fe_cuda_shim(void)
{
    return fe_cuda_shim_text;
}

/* ---- arguments --------------------------------------------------------------------------------
 */

struct args {
    char **v;
    size_t n, cap;
    bool openmp;
};

static void arg_add(struct args *a, const char *s)
{
    if (a->n + 1 >= a->cap) {
        a->cap = a->cap ? a->cap * 2 : 32;
        a->v = augur_reallocarray(a->v, a->cap, sizeof(*a->v));
    }
    a->v[a->n++] = augur_strdup(s);
    a->v[a->n] = NULL;
}

static void args_release(struct args *a)
{
    for (size_t i = 0; i < a->n; i++)
        augur_free(a->v[i]);
    augur_free(a->v);
}

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Adds "-I" + dir, making a relative dir absolute against cwd. */
static void add_path_arg(struct args *a, const char *flag, const char *dir, const char *cwd)
{
    struct augur_buf b;

    augur_buf_init(&b);
    augur_buf_puts(&b, flag);
    if (dir[0] != '/' && cwd && cwd[0]) {
        augur_buf_puts(&b, cwd);
        augur_buf_putc(&b, '/');
    }
    augur_buf_puts(&b, dir);
    arg_add(a, b.s);
    augur_buf_release(&b);
}

/*
 * Keeps the flags that change what the parser sees (includes, defines,
 * language, target features); drops outputs, dependency files, -Werror and
 * the OpenMP flag (the file is parsed without it, _OPENMP defined instead).
 */
static void filter_args(struct args *a, const char *const *in, size_t n, const char *cwd,
                        const char *skip_file)
{
    static const char *const two_word[] = { "-isystem", "-iquote", "-idirafter", "-include", NULL };

    for (size_t i = 0; i < n; i++) {
        const char *s = in[i];
        bool handled = false;

        if (skip_file && strcmp(s, skip_file) == 0)
            continue;
        if (starts(s, "-fopenmp")) {
            a->openmp = true;
            continue;
        }
        if (strcmp(s, "-I") == 0 && i + 1 < n) {
            add_path_arg(a, "-I", in[++i], cwd);
            continue;
        }
        if (starts(s, "-I")) {
            add_path_arg(a, "-I", s + 2, cwd);
            continue;
        }
        for (int k = 0; two_word[k] && !handled; k++) {
            if (strcmp(s, two_word[k]) == 0 && i + 1 < n) {
                arg_add(a, s);
                add_path_arg(a, "", in[++i], cwd);
                handled = true;
            }
        }
        if (handled)
            continue;
        if (strcmp(s, "-D") == 0 || strcmp(s, "-U") == 0 || strcmp(s, "-x") == 0) {
            if (i + 1 < n) {
                arg_add(a, s);
                arg_add(a, in[++i]);
            }
            continue;
        }
        if (starts(s, "--cuda-gpu-arch=sm_")) {
            if (atoi(s + 19) <= 86) /* libclang 14 knows sm_86 at most */
                arg_add(a, s);
            continue;
        }
        if (starts(s, "-D") || starts(s, "-U") || starts(s, "-std=") || starts(s, "-m") ||
            (starts(s, "-f") && !starts(s, "-fdiagnostics") && !starts(s, "-fcolor")))
            arg_add(a, s);
    }
}

#define DB_MAX_BYTES ((size_t)1 << 30) /* a compile_commands.json of a large project */

/* Does entry e of a compile_commands.json name the file at real path want? */
static bool db_entry_is(json_t *e, const char *want)
{
    const char *dir = json_string_value(json_object_get(e, "directory"));
    const char *file = json_string_value(json_object_get(e, "file"));
    char path[4096], real[PATH_MAX];

    if (file[0] == '/')
        snprintf(path, sizeof(path), "%s", file);
    else
        snprintf(path, sizeof(path), "%s/%s", dir, file);
    return realpath(path, real) && strcmp(real, want) == 0;
}

/*
 * Reads the compile_commands.json at path with augur's own limits and messages
 * (libclang prints its errors to stderr and infers flags for a file it does
 * not list): a list of entries with "directory", "file" and "command" or
 * "arguments", one of them for filename.
 */
static int db_check(const char *path, const char *filename, struct augur_diag *diag)
{
    struct augur_buf text;
    json_error_t je;
    json_t *doc, *e;
    char want[PATH_MAX];
    size_t i;
    bool found = false;
    int rc;

    augur_buf_init(&text);
    rc = augur_file_read(path, DB_MAX_BYTES, &text, NULL, diag);
    doc = rc ? NULL : json_loadb(text.s, text.len, 0, &je);
    augur_buf_release(&text);
    if (rc)
        return rc;
    if (!doc)
        return augur_diag_set(diag, AUGUR_EPARSE, path, je.line > 0 ? (uint32_t)je.line : 0,
                              je.line > 0 && je.column > 0 ? (uint32_t)je.column : 0, "JSON: %s",
                              je.text);
    if (!json_is_array(doc)) {
        rc = augur_diag_set(diag, AUGUR_EPARSE, path, 0, 0,
                            "expected a list of compile commands, found %s",
                            json_is_object(doc) ? "an object" : "a single value");
        goto out;
    }
    json_array_foreach(doc, i, e)
    {
        json_t *cmd = json_object_get(e, "command"), *args = json_object_get(e, "arguments");

        if (!json_is_string(json_object_get(e, "directory")) ||
            !json_is_string(json_object_get(e, "file")) ||
            !(json_is_string(cmd) || json_is_array(args))) {
            rc = augur_diag_set(diag, AUGUR_EPARSE, path, 0, 0,
                                "entry %zu: needs \"directory\", \"file\" and \"command\" or "
                                "\"arguments\"",
                                i + 1);
            goto out;
        }
    }
    if (realpath(filename, want))
        for (i = 0; i < json_array_size(doc) && !found; i++)
            found = db_entry_is(json_array_get(doc, i), want);
    if (!found)
        rc = augur_diag_set(diag, AUGUR_ENOENT, path, 0, 0, "no entry for '%s'", filename);
out:
    json_decref(doc);
    return rc;
}

/* Flags for filename from compile_commands.json in dir; false when it has none. */
static int db_args(const char *dir, const char *filename, struct args *a, struct augur_diag *diag)
{
    CXCompilationDatabase_Error err;
    CXCompilationDatabase db;
    CXCompileCommands cmds;
    char abs[4096];
    int rc = 0;

    /* libclang prints to stderr when the file is missing: look first. */
    snprintf(abs, sizeof(abs), "%s/compile_commands.json", dir);
    if (access(abs, R_OK) != 0)
        return augur_diag_set(diag, AUGUR_ENOENT, dir, 0, 0,
                              "cannot load compile_commands.json from '%s'", dir);
    if ((rc = db_check(abs, filename, diag)) != 0)
        return rc;
    db = clang_CompilationDatabase_fromDirectory(dir, &err);
    if (err != CXCompilationDatabase_NoError || !db)
        return augur_diag_set(diag, AUGUR_ENOENT, dir, 0, 0,
                              "cannot load compile_commands.json from '%s'", dir);
    if (filename[0] != '/' && getcwd(abs, sizeof(abs)))
        snprintf(abs + strlen(abs), sizeof(abs) - strlen(abs), "/%s", filename);
    else
        snprintf(abs, sizeof(abs), "%s", filename);
    cmds = clang_CompilationDatabase_getCompileCommands(db, abs);
    if (!cmds || clang_CompileCommands_getSize(cmds) == 0) {
        rc = augur_diag_set(diag, AUGUR_ENOENT, filename, 0, 0,
                            "'%s' is not in %s/compile_commands.json", filename, dir);
    } else {
        CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, 0);
        unsigned nargs = clang_CompileCommand_getNumArgs(cmd);
        CXString cwd = clang_CompileCommand_getDirectory(cmd);
        CXString file = clang_CompileCommand_getFilename(cmd);
        char **in = augur_calloc(nargs + 1, sizeof(*in));

        for (unsigned i = 0; i < nargs; i++) {
            CXString s = clang_CompileCommand_getArg(cmd, i);

            in[i] = augur_strdup(clang_getCString(s));
            clang_disposeString(s);
        }
        /* Skip the compiler itself; drop -c, -o FILE and the source name. */
        for (unsigned i = 1; i < nargs; i++) {
            if (strcmp(in[i], "-o") == 0 || strcmp(in[i], "-MF") == 0 ||
                strcmp(in[i], "-MT") == 0 || strcmp(in[i], "-MQ") == 0) {
                in[i][0] = '\0';
                if (i + 1 < nargs)
                    in[++i][0] = '\0';
            }
        }
        {
            const char **kept = augur_calloc(nargs + 1, sizeof(*kept));
            size_t nk = 0;

            for (unsigned i = 1; i < nargs; i++)
                if (in[i][0])
                    kept[nk++] = in[i];
            filter_args(a, kept, nk, clang_getCString(cwd), clang_getCString(file));
            augur_free(kept);
        }
        for (unsigned i = 0; i < nargs; i++)
            augur_free(in[i]);
        augur_free(in);
        clang_disposeString(cwd);
        clang_disposeString(file);
    }
    if (cmds)
        clang_CompileCommands_dispose(cmds);
    clang_CompilationDatabase_dispose(db);
    return rc;
}

/* True when the source mentions OpenMP directives (then _OPENMP is defined, as -fopenmp would). */
static bool mentions_openmp(const char *text, size_t len)
{
    /* a directive, or its words given to a pragma macro: OMP("omp ..."), PRAGMA(omp ...) */
    static const char *const words[] = { "pragma omp", "\"omp ", "(omp " };

    for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++) {
        size_t k = strlen(words[w]);

        for (size_t i = 0; i + k <= len; i++)
            if (text[i] == words[w][0] && memcmp(text + i, words[w], k) == 0)
                return true;
    }
    return false;
}

/* ---- diagnostics ------------------------------------------------------------------------------
 */

/* Reports clang's diagnostics; returns the number of errors (the first lands in diag). */
/* The text of a CUDA file's host functions, whose errors do not keep augur from its kernels. */
struct host_spans {
    struct host_span {
        CXFile file;
        unsigned begin, end; /* offsets of the function's text */
    } * v;
    size_t n, cap;
};

static bool has_attr(CXCursor c, enum CXCursorKind kind);

static enum CXChildVisitResult find_host_code(CXCursor c, CXCursor parent, CXClientData data)
{
    struct host_spans *h = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    CXSourceRange r;
    CXFile fb = NULL, fe = NULL;
    unsigned b = 0, e = 0;

    (void)parent;
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec)
        return CXChildVisit_Recurse;
    if ((k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate) ||
        !clang_isCursorDefinition(c) || has_attr(c, CXCursor_CUDADeviceAttr) ||
        has_attr(c, CXCursor_CUDAGlobalAttr))
        return CXChildVisit_Continue;
    r = clang_getCursorExtent(c);
    clang_getSpellingLocation(clang_getRangeStart(r), &fb, NULL, NULL, &b);
    clang_getSpellingLocation(clang_getRangeEnd(r), &fe, NULL, NULL, &e);
    if (!fb || !fe || !clang_File_isEqual(fb, fe) || e < b)
        return CXChildVisit_Continue;
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 32;
        struct host_span *v = augur_reallocarray(h->v, cap, sizeof(*v));

        if (!v)
            return CXChildVisit_Break; /* out of memory: every error counts */
        h->v = v;
        h->cap = cap;
    }
    h->v[h->n++] = (struct host_span){ fb, b, e };
    return CXChildVisit_Continue;
}

static bool in_host_code(const struct host_spans *h, CXFile file, unsigned offset)
{
    for (size_t i = 0; h && file && i < h->n; i++)
        if (clang_File_isEqual(h->v[i].file, file) && h->v[i].begin <= offset &&
            offset <= h->v[i].end)
            return true;
    return false;
}

/*
 * Reports libclang's diagnostics through opts->on_diag; returns the errors
 * that count. In a CUDA file (host non-NULL) an error inside a host function
 * does not: augur reads only device code, and a host program's helpers
 * (helper_cuda.h, cuBLAS, ...) are none of its business. Such errors become
 * one warning with their count.
 */
static unsigned report_diags(CXTranslationUnit tu, const struct host_spans *host,
                             const struct augur_fe_opts *opts, struct augur_diag *diag)
{
    unsigned n = clang_getNumDiagnostics(tu), errors = 0, host_errors = 0;
    struct augur_diag first_host;

    augur_diag_init(&first_host);

    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
        CXString msg = clang_getDiagnosticSpelling(d);
        CXFile file = NULL;
        unsigned line = 0, col = 0, offset = 0;
        struct augur_diag one;
        bool error = sev >= CXDiagnostic_Error;
        const char *fname = NULL;
        CXString fs = { 0 };

        clang_getSpellingLocation(clang_getDiagnosticLocation(d), &file, &line, &col, &offset);
        if (file) {
            fs = clang_getFileName(file);
            fname = clang_getCString(fs);
        }
        if (error && sev < CXDiagnostic_Fatal && in_host_code(host, file, offset)) {
            if (host_errors++ == 0)
                augur_diag_set(&first_host, 0, fname, line, col, "%s", clang_getCString(msg));
        } else if (sev >= CXDiagnostic_Warning) {
            augur_diag_init(&one);
            augur_diag_set(&one, error ? AUGUR_EPARSE : 0, fname, line, col, "%s: %s",
                           error ? "error" : "warning", clang_getCString(msg));
            if (opts && opts->on_diag)
                opts->on_diag(opts->ud, &one, error);
            if (error && errors++ == 0)
                augur_diag_set(diag, AUGUR_EPARSE, fname, line, col, "error: %s",
                               clang_getCString(msg));
        }
        if (file)
            clang_disposeString(fs);
        clang_disposeString(msg);
        clang_disposeDiagnostic(d);
    }
    if (host_errors && opts && opts->on_diag) {
        struct augur_diag one;

        augur_diag_init(&one);
        augur_diag_set(&one, 0, first_host.file[0] ? first_host.file : NULL, first_host.line,
                       first_host.col,
                       "warning: %u error%s in host code, which augur does not analyse (the "
                       "first: %s)",
                       host_errors, host_errors == 1 ? "" : "s", first_host.msg);
        opts->on_diag(opts->ud, &one, false);
    }
    return errors;
}

/* ---- kernels -----------------------------------------------------------------------------------
 */

struct calls {
    struct fe_tu *t;
    struct fe_map *called;
};

static enum CXChildVisitResult find_calls(CXCursor c, CXCursor parent, CXClientData data)
{
    struct calls *cl = data;

    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        CXCursor ref = clang_getCursorReferenced(c);

        if (!clang_Cursor_isNull(ref) && clang_getCursorKind(ref) == CXCursor_FunctionDecl) {
            char name[256];

            fe_spelling(ref, name, sizeof(name));
            if (fe_map_get(&cl->t->funcs, name))
                fe_map_put(cl->called, augur_arena_strdup(&cl->t->arena, name), (void *)1);
        }
    }
    return CXChildVisit_Recurse;
}

static bool has_attr(CXCursor c, enum CXCursorKind kind)
{
    struct fe_cursors kids = { 0 };
    bool found = false;

    fe_children(c, &kids);
    for (size_t i = 0; i < kids.n; i++)
        if (clang_getCursorKind(kids.v[i]) == kind)
            found = true;
    fe_cursors_release(&kids);
    return found;
}

/* What kernel_file() learns in one pass over the top level. */
struct file_scan {
    const struct fe_tu *t;
    CXFile main, other; /* other: the first included file holding a kernel */
    bool in_main, several;
    struct augur_buf names; /* "Kernel (kernel.cu), ..." of the kernels outside the main file */
};

static enum CXChildVisitResult scan_kernel_files(CXCursor c, CXCursor parent, CXClientData data)
{
    struct file_scan *fs = data;
    const struct augur_fe_opts *opts = fs->t->opts;
    CXFile f;
    char name[256];
    bool kernel;

    (void)parent;
    if ((clang_getCursorKind(c) != CXCursor_FunctionDecl &&
         clang_getCursorKind(c) != CXCursor_FunctionTemplate) ||
        !clang_isCursorDefinition(c) ||
        clang_Location_isInSystemHeader(clang_getCursorLocation(c)) || !(f = expansion_file(c)))
        return CXChildVisit_Continue;
    fe_spelling(c, name, sizeof(name));
    if (opts->function)
        kernel = strcmp(name, opts->function) == 0;
    else
        kernel = fs->t->cuda && has_attr(c, CXCursor_CUDAGlobalAttr);
    if (!kernel)
        return CXChildVisit_Continue;
    if (clang_File_isEqual(f, fs->main)) {
        fs->in_main = true;
    } else {
        CXString s = clang_getFileName(f);

        if (fs->other && !clang_File_isEqual(f, fs->other))
            fs->several = true;
        else
            fs->other = f;
        augur_buf_printf(&fs->names, "%s%s (%s)", fs->names.len ? ", " : "", name,
                         clang_getCString(s));
        clang_disposeString(s);
    }
    return CXChildVisit_Continue;
}

/*
 * Points t at the file the kernels are written in: the main file, unless it
 * defines none and one file it includes does (a driver that #includes its
 * kernel.cu); an error when they are spread over several included files.
 */
static int kernel_file(struct fe_tu *t, struct augur_diag *diag)
{
    struct file_scan fs = { .t = t, .main = t->file };
    int rc = 0;

    augur_buf_init(&fs.names);
    clang_visitChildren(clang_getTranslationUnitCursor(t->tu), scan_kernel_files, &fs);
    if (!fs.in_main && fs.several) {
        rc = augur_diag_set(diag, AUGUR_ENOENT, t->path, 0, 0,
                            "'%s' defines no kernel; the files it includes do: %s; name one with "
                            "--function",
                            t->path, fs.names.s);
    } else if (!fs.in_main && fs.other) {
        CXString s = clang_getFileName(fs.other);

        t->file = fs.other;
        t->path = augur_arena_strdup(&t->arena, clang_getCString(s));
        clang_disposeString(s);
        t->contents = clang_getFileContents(t->tu, t->file, &t->size);
    }
    augur_buf_release(&fs.names);
    return rc;
}

static enum CXChildVisitResult top_level(CXCursor c, CXCursor parent, CXClientData data)
{
    struct fe_tu *t = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    char name[256];

    (void)parent;
    if (k == CXCursor_MacroDefinition) {
        CXCursor *copy = augur_arena_alloc(&t->arena, sizeof(*copy));

        *copy = c;
        fe_spelling(c, name, sizeof(name));
        fe_map_put(&t->macros, augur_arena_strdup(&t->arena, name), copy);
    } else if (k == CXCursor_MacroExpansion) {
        CXSourceRange r = clang_getCursorExtent(c);
        CXFile f = NULL;
        unsigned b = 0, e = 0;

        clang_getSpellingLocation(clang_getRangeStart(r), &f, NULL, NULL, &b);
        clang_getSpellingLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &e);
        if (f && t->file && clang_File_isEqual(f, t->file) && b < e) {
            if (t->nexpansions == t->capexpansions) {
                t->capexpansions = t->capexpansions ? 2 * t->capexpansions : 64;
                t->exp_begin =
                    augur_reallocarray(t->exp_begin, t->capexpansions, sizeof(*t->exp_begin));
                t->exp_end = augur_reallocarray(t->exp_end, t->capexpansions, sizeof(*t->exp_end));
            }
            t->exp_begin[t->nexpansions] = b;
            t->exp_end[t->nexpansions++] = e;
        }
    } else if (k == CXCursor_FunctionDecl && clang_isCursorDefinition(c)) {
        CXCursor *copy = augur_arena_alloc(&t->arena, sizeof(*copy));

        *copy = c;
        fe_spelling(c, name, sizeof(name));
        fe_map_put(&t->funcs, augur_arena_strdup(&t->arena, name), copy);
        if (fe_in_kernel_file(t, c))
            fe_cursors_push(&t->kernels, c);
    } else if (k == CXCursor_CXXMethod && clang_isCursorDefinition(c) && !t->cuda &&
               !clang_CXXMethod_isStatic(c) && fe_in_kernel_file(t, c)) {
        /* a method defined in the file (void Csr::spmv(...) const { ... }): a kernel
           candidate, its object's members read as those of "this" */
        fe_cursors_push(&t->kernels, c);
    } else if (k == CXCursor_FunctionTemplate && clang_isCursorDefinition(c)) {
        /* a helper template (memcpy_SIMD<T>): inlined from its pattern, the arguments' arrays
           giving the types; a plain function of the same name wins */
        fe_spelling(c, name, sizeof(name));
        if (!fe_map_get(&t->funcs, name)) {
            CXCursor *copy = augur_arena_alloc(&t->arena, sizeof(*copy));

            *copy = c;
            fe_map_put(&t->funcs, augur_arena_strdup(&t->arena, name), copy);
        }
    }
    return CXChildVisit_Continue;
}

/* Keeps the kernels: __global__ functions for CUDA, functions nobody in the file calls for C. */
static void pick_kernels(struct fe_tu *t)
{
    struct fe_map called = { 0 };
    struct calls cl = { t, &called };
    size_t m = 0;

    if (!t->cuda)
        for (size_t i = 0; i < t->kernels.n; i++)
            clang_visitChildren(t->kernels.v[i], find_calls, &cl);
    for (size_t i = 0; i < t->kernels.n; i++) {
        CXCursor c = t->kernels.v[i];
        char name[256];
        bool keep;

        fe_spelling(c, name, sizeof(name));
        if (t->opts->function)
            keep = strcmp(name, t->opts->function) == 0;
        else if (t->cuda)
            keep = has_attr(c, CXCursor_CUDAGlobalAttr);
        else
            keep = strcmp(name, "main") != 0 && !fe_map_get(&called, name);
        if (keep)
            t->kernels.v[m++] = c;
    }
    /* A program with no other candidate: main() holds the kernel's loops. */
    for (size_t i = 0; i < t->kernels.n && m == 0 && !t->opts->function && !t->cuda; i++) {
        char name[8];

        fe_spelling(t->kernels.v[i], name, sizeof(name));
        if (!strcmp(name, "main"))
            t->kernels.v[m++] = t->kernels.v[i];
    }
    t->kernels.n = m;
    fe_map_release(&called);
}

/* ---- template kernels ------------------------------------------------------------------------
 *
 * libclang shows a function template as a template alone, whether host
 * code or an explicit instantiation ("template __global__ void
 * k<float>(...);") instantiates it. A __global__ template is analysed by
 * parsing the file again with its "template <...>" blanked out (lines and
 * columns stay) and its parameters declared: typedef double T; static
 * constexpr int BLOCK = 256, in place of the header when it ends its line
 * (so that the file's own types are known), else before the file. Explicit
 * instantiations, which name a template that is gone, are blanked too, and
 * the first gives the parameters' defaults. Host code that names the
 * kernel as a template then fails, which report_diags() forgives.
 */

#define TEMPLATE_PATH SHIM_DIR "/augur_template_args.h"

struct tmpl_inst {
    char *file; /* the kernels' file, given again as this text */
    char *text;
    size_t len;
    struct augur_buf decls; /* the parameters' declarations, -include'd (when not in the text) */
    char note[400];
    struct augur_buf args; /* the arguments in order, "int, double" (the kernel's template_args) */
};

#define TMPL_MAX_ARGS 16

/* The explicit instantiations of template kernel kname in t's file. */
struct tmpl_explicit {
    unsigned n;                    /* how many */
    bool from_extern;              /* args are an extern template declaration's */
    unsigned nargs;                /* the first definition's arguments (else a declaration's) */
    char args[TMPL_MAX_ARGS][256]; /* their text: "Reduction<normal>", "256" */
    unsigned begin[64], end[64];   /* each one's "template" .. ";" (the first 64) */
};

/*
 * Finds "template [...] kname<ARGS>(...);" in t's file by its tokens: the
 * keyword template not followed by '<', then kname and '<' before the ';'.
 */
static void explicit_instances(const struct fe_tu *t, const char *kname, struct tmpl_explicit *x)
{
    CXSourceRange all = clang_getRange(clang_getLocationForOffset(t->tu, t->file, 0),
                                       clang_getLocationForOffset(t->tu, t->file, t->size));
    CXToken *toks = NULL;
    unsigned ntoks = 0;

    memset(x, 0, sizeof(*x));
    clang_tokenize(t->tu, all, &toks, &ntoks);
    for (unsigned i = 0; i + 1 < ntoks; i++) {
        CXString s = clang_getTokenSpelling(t->tu, toks[i]), s1;
        bool kw = clang_getTokenKind(toks[i]) == CXToken_Keyword &&
                  !strcmp(clang_getCString(s), "template");
        unsigned begin, lt = 0, semi = 0, first = i;

        clang_disposeString(s);
        s1 = clang_getTokenSpelling(t->tu, toks[i + 1]);
        kw = kw && strcmp(clang_getCString(s1), "<") != 0;
        clang_disposeString(s1);
        if (!kw)
            continue;
        if (i > 0) { /* extern template ...: a declaration, blanked from the extern */
            CXString s0 = clang_getTokenSpelling(t->tu, toks[i - 1]);

            if (!strcmp(clang_getCString(s0), "extern"))
                first = i - 1;
            clang_disposeString(s0);
        }
        clang_getSpellingLocation(clang_getTokenLocation(t->tu, toks[first]), NULL, NULL, NULL,
                                  &begin);
        for (unsigned j = i + 1; j < ntoks && !semi; j++) {
            CXString sj = clang_getTokenSpelling(t->tu, toks[j]);
            const char *sp = clang_getCString(sj);
            unsigned off;

            clang_getSpellingLocation(clang_getTokenLocation(t->tu, toks[j]), NULL, NULL, NULL,
                                      &off);
            if (!strcmp(sp, ";") || !strcmp(sp, "{"))
                semi = off + 1;
            else if (!lt && j + 1 < ntoks && !strcmp(sp, kname)) {
                CXString sn = clang_getTokenSpelling(t->tu, toks[j + 1]);

                if (!strcmp(clang_getCString(sn), "<"))
                    clang_getSpellingLocation(clang_getTokenLocation(t->tu, toks[j + 1]), NULL,
                                              NULL, NULL, &lt);
                lt += lt ? 1 : 0; /* just after the '<' */
                clang_disposeString(sn);
            }
            clang_disposeString(sj);
        }
        if (!lt || !semi || t->contents[semi - 1] != ';')
            continue;
        if (x->n < 64) {
            x->begin[x->n] = begin;
            x->end[x->n] = semi;
        }
        x->n++;
        if (!x->nargs || (x->from_extern && first == i)) {
            /* the arguments: top-level commas up to the '>' that closes the list */
            int depth = 0;
            unsigned a = lt;

            x->nargs = 0;
            x->from_extern = first != i;
            for (unsigned p = lt; p < semi && x->nargs < TMPL_MAX_ARGS; p++) {
                char c = t->contents[p];

                if (c == '<' || c == '(')
                    depth++;
                else if ((c == '>' || c == ')') && depth > 0)
                    depth--;
                else if ((c == ',' && depth == 0) || (c == '>' && depth == 0)) {
                    unsigned b = a, e = p;

                    while (b < e && isspace((unsigned char)t->contents[b]))
                        b++;
                    while (e > b && isspace((unsigned char)t->contents[e - 1]))
                        e--;
                    snprintf(x->args[x->nargs++], sizeof(x->args[0]), "%.*s", (int)(e - b),
                             t->contents + b);
                    a = p + 1;
                    if (c == '>')
                        break;
                }
            }
        }
    }
    clang_disposeTokens(t->tu, toks, ntoks);
}

struct tmpl_scan {
    const struct fe_tu *t;
    char *text; /* blank_host_bodies(): the file's text being blanked */
    CXCursor found;
    unsigned n;
    struct augur_buf names;
};

static enum CXChildVisitResult find_templates(CXCursor c, CXCursor parent, CXClientData data)
{
    struct tmpl_scan *ts = data;
    char name[256];

    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_Namespace)
        return CXChildVisit_Recurse;
    /* CUDA: a __global__ template; C++: any function template of the file */
    if (clang_getCursorKind(c) != CXCursor_FunctionTemplate || !clang_isCursorDefinition(c) ||
        !fe_in_kernel_file(ts->t, c) || (ts->t->cuda && !has_attr(c, CXCursor_CUDAGlobalAttr)))
        return CXChildVisit_Continue;
    fe_spelling(c, name, sizeof(name));
    if (ts->t->opts->function && strcmp(name, ts->t->opts->function) != 0)
        return CXChildVisit_Continue;
    augur_buf_printf(&ts->names, "%s%s", ts->n ? ", " : "", name);
    if (ts->n++ == 0)
        ts->found = c;
    return CXChildVisit_Continue;
}

/* Blanks the bodies of the host functions written in t's file (inside their braces), in text:
 * host code that calls the template as one would not compile once it is not. */
static enum CXChildVisitResult blank_host_bodies(CXCursor c, CXCursor parent, CXClientData data)
{
    struct tmpl_scan *ts = data;
    struct fe_cursors kids = { 0 };
    enum CXCursorKind k = clang_getCursorKind(c);

    (void)parent;
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec)
        return CXChildVisit_Recurse;
    /* (C++: a template's body stays, the kernel's and its helpers') */
    if ((k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate) ||
        !clang_isCursorDefinition(c) || !fe_in_kernel_file(ts->t, c) ||
        has_attr(c, CXCursor_CUDADeviceAttr) || has_attr(c, CXCursor_CUDAGlobalAttr) ||
        (!ts->t->cuda && k == CXCursor_FunctionTemplate))
        return CXChildVisit_Continue;
    fe_children(c, &kids);
    for (size_t i = 0; i < kids.n; i++) {
        unsigned b = 0, e = 0;

        if (clang_getCursorKind(kids.v[i]) != CXCursor_CompoundStmt)
            continue;
        fe_extent_offsets(kids.v[i], &b, &e);
        for (unsigned j = b + 1; j + 1 < e && j < ts->t->size; j++)
            if (ts->text[j] != '\n')
                ts->text[j] = ' ';
    }
    fe_cursors_release(&kids);
    return CXChildVisit_Continue;
}

/* The value --template gives parameter name ("T=double,BLOCK=256"), into buf; false if none. */
static bool template_arg(const char *spec, const char *name, char *buf, size_t size)
{
    size_t n = strlen(name);

    for (const char *p = spec; p && *p;) {
        const char *end = strchr(p, ','), *eq = strchr(p, '=');
        size_t len = end ? (size_t)(end - p) : strlen(p);

        if (eq && eq < p + len && (size_t)(eq - p) == n && !strncmp(p, name, n)) {
            snprintf(buf, size, "%.*s", (int)(len - n - 1), eq + 1);
            return buf[0] != '\0';
        }
        p += len + (end != NULL);
    }
    return false;
}

/* Checks that every NAME of --template is a parameter of the template (names: ",T,BLOCK,"). */
static int template_names_known(const char *spec, const char *names, const char *kernel,
                                struct augur_diag *diag)
{
    for (const char *p = spec; p && *p;) {
        const char *end = strchr(p, ','), *eq = strchr(p, '=');
        size_t len = end ? (size_t)(end - p) : strlen(p), k;
        char want[132];

        if (!eq || eq > p + len || eq == p)
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "bad --template '%s': expected NAME=TYPE or NAME=VALUE,...",
                                  spec);
        k = (size_t)(eq - p) < 128 ? (size_t)(eq - p) : 128;
        snprintf(want, sizeof(want), ",%.*s,", (int)k, p);
        if (!strstr(names, want))
            return augur_diag_set(diag, AUGUR_EINVAL, NULL, 0, 0,
                                  "--template names '%.*s', which is no parameter of the template "
                                  "kernel '%s'",
                                  (int)k, p, kernel);
        p += len + (end != NULL);
    }
    return 0;
}

/*
 * Prepares inst for a template kernel of t's file that nothing instantiates:
 * 1 when there is one, 0 when none, else an error (a non-type parameter
 * without a value, several templates and no --function).
 */
static int template_kernel(struct fe_tu *t, struct tmpl_inst *inst, struct augur_diag *diag)
{
    struct tmpl_scan ts = { .t = t };
    struct fe_cursors kids = { 0 };
    struct augur_buf names, given;
    struct tmpl_explicit x;
    char kname[256];
    unsigned begin = 0, end = 0, param = 0;
    bool in_place = true;
    int rc = 0;

    augur_buf_init(&ts.names);
    clang_visitChildren(clang_getTranslationUnitCursor(t->tu), find_templates, &ts);
    if (ts.n != 1) {
        if (ts.n > 1)
            rc = augur_diag_set(diag, AUGUR_ENOENT, t->path, 0, 0,
                                "'%s' has template kernels %s (read uninstantiated): name one "
                                "with --function",
                                t->path, ts.names.s);
        augur_buf_release(&ts.names);
        return rc;
    }
    augur_buf_release(&ts.names);
    augur_buf_init(&names);
    augur_buf_init(&given);
    augur_buf_printf(&names, ",");
    fe_spelling(ts.found, kname, sizeof(kname));
    explicit_instances(t, kname, &x);
    fe_extent_offsets(ts.found, &begin, &end);
    end = begin; /* grows to the last parameter's end */
    fe_children(ts.found, &kids);
    for (size_t i = 0; i < kids.n && !rc; i++) {
        enum CXCursorKind k = clang_getCursorKind(kids.v[i]);
        char pname[128], value[256];
        unsigned b, e;

        if (k != CXCursor_TemplateTypeParameter && k != CXCursor_NonTypeTemplateParameter &&
            k != CXCursor_TemplateTemplateParameter)
            continue;
        fe_spelling(kids.v[i], pname, sizeof(pname));
        fe_extent_offsets(kids.v[i], &b, &e);
        if (e > end)
            end = e;
        augur_buf_printf(&names, "%s,", pname);
        if (k == CXCursor_TemplateTemplateParameter) {
            rc = augur_diag_set(diag, AUGUR_EUNSUP, t->path, 0, 0,
                                "template kernel '%s': its template template parameter '%s' is "
                                "not supported",
                                kname, pname);
        } else if (template_arg(t->opts->templ, pname, value, sizeof(value))) {
            augur_buf_printf(&given, "%s%s=%s", given.len ? ", " : "", pname, value);
        } else if (param < x.nargs) {
            snprintf(value, sizeof(value), "%s", x.args[param]);
            augur_buf_printf(&given, "%s%s=%s (the file's explicit instantiation)",
                             given.len ? ", " : "", pname, value);
        } else if (k == CXCursor_TemplateTypeParameter) {
            snprintf(value, sizeof(value), "float");
            augur_buf_printf(&given, "%s%s=float (by default)", given.len ? ", " : "", pname);
        } else {
            rc = augur_diag_set(diag, AUGUR_EINVAL, t->path, 0, 0,
                                "template kernel '%s': augur reads it uninstantiated; give its "
                                "parameter '%s' a value with --template %s=VALUE",
                                kname, pname, pname);
        }
        if (rc)
            break;
        param++;
        augur_buf_printf(&inst->args, "%s%s", inst->args.len ? ", " : "", value);
        if (k == CXCursor_TemplateTypeParameter) {
            augur_buf_printf(&inst->decls, "typedef %s %s;\n", value, pname);
        } else {
            CXString ty = clang_getTypeSpelling(clang_getCursorType(kids.v[i]));

            augur_buf_printf(&inst->decls, "static constexpr %s %s = %s;\n", clang_getCString(ty),
                             pname, value);
            clang_disposeString(ty);
        }
    }
    fe_cursors_release(&kids);
    if (!rc)
        rc = template_names_known(t->opts->templ, names.s ? names.s : "", kname, diag);
    /* "template <...>": from the keyword to the '>' after the last parameter */
    while (!rc && end < t->size && t->contents[end] != '>')
        end++;
    if (!rc && (end >= t->size || begin >= end))
        rc = augur_diag_set(diag, AUGUR_EUNSUP, t->path, 0, 0,
                            "template kernel '%s': cannot find its template header", kname);
    if (!rc) {
        inst->file = augur_strdup(t->path);
        inst->text = augur_malloc(t->size + 1);
        if (!inst->file || !inst->text) {
            rc = augur_diag_set(diag, AUGUR_ENOMEM, NULL, 0, 0, "out of memory");
        } else {
            memcpy(inst->text, t->contents, t->size);
            inst->text[t->size] = '\0';
            inst->len = t->size;
            for (unsigned i = begin; i <= end; i++)
                if (inst->text[i] != '\n')
                    inst->text[i] = ' ';
            /* explicit instantiations name the template, which is gone */
            for (unsigned j = 0; j < x.n && j < 64; j++)
                for (unsigned i = x.begin[j]; i < x.end[j] && i < t->size; i++)
                    if (inst->text[i] != '\n')
                        inst->text[i] = ' ';
            ts.text = inst->text;
            clang_visitChildren(clang_getTranslationUnitCursor(t->tu), blank_host_bodies, &ts);
            /* the declarations where the header was, when nothing follows it on its line */
            for (unsigned i = end + 1; i < t->size && t->contents[i] != '\n'; i++)
                in_place &= isspace((unsigned char)t->contents[i]) != 0;
            if (in_place && inst->decls.len) {
                char *text = augur_malloc(t->size + inst->decls.len + 1);

                memcpy(text, inst->text, begin);
                for (size_t i = 0; i < inst->decls.len; i++)
                    text[begin + i] = inst->decls.s[i] == '\n' ? ' ' : inst->decls.s[i];
                memcpy(text + begin + inst->decls.len, inst->text + begin, t->size - begin);
                inst->len = t->size + inst->decls.len;
                text[inst->len] = '\0';
                augur_free(inst->text);
                inst->text = text;
                augur_buf_reset(&inst->decls);
            }
            snprintf(inst->note, sizeof(inst->note),
                     "template kernel '%s' analysed with %s (--template NAME=TYPE,... to choose)",
                     kname, given.s ? given.s : "no parameters");
        }
    }
    augur_buf_release(&names);
    augur_buf_release(&given);
    return rc ? rc : 1;
}

static void tmpl_release(struct tmpl_inst *inst)
{
    augur_free(inst->file);
    augur_free(inst->text);
    augur_buf_release(&inst->decls);
    augur_buf_release(&inst->args);
}

/* ---- parsing
 * -------------------------------------------------------------------------------------- */

static int parse(struct augur_fe *fe, const char *path, const char *text, size_t len,
                 bool in_memory, const struct augur_fe_opts *opts_in, const struct tmpl_inst *inst,
                 struct augur_skel **out, struct augur_diag *diag)
{
    struct tmpl_inst next = { 0 };
    static const struct augur_fe_opts defaults;
    const struct augur_fe_opts *opts = opts_in ? opts_in : &defaults;
    struct args a = { 0 };
    struct fe_tu t;
    struct CXUnsavedFile unsaved[12];
    unsigned nunsaved = 0;
    struct augur_buf src;
    struct augur_skel *skel = NULL;
    enum CXErrorCode err;
    size_t ndefined; /* functions defined in the file, before the kernels are picked */
    struct host_spans host = { 0 };
    bool cuda = opts->cuda || augur_str_ends_with(path, ".cu") || augur_str_ends_with(path, ".cuh");
    bool cxx = !cuda && augur_path_is_cxx(path);
    int rc = 0;

    memset(&t, 0, sizeof(t));
    augur_buf_init(&src);
    augur_arena_init(&t.arena, 0);
    if (!in_memory) {
        if (access(path, R_OK) != 0) {
            rc = augur_diag_set(diag, AUGUR_ENOENT, path, 0, 0, "cannot read '%s'", path);
            goto out;
        }
        rc = augur_file_read(path, (size_t)64 << 20, &src, NULL, diag);
        if (rc)
            goto out;
        text = src.s;
        len = src.len;
    }
    if (cuda) {
        /* <cuda_runtime.h> and friends resolve to the shim, which -include brings in. */
        static const char *const headers[] = { SHIM_DIR "/cuda_runtime.h",
                                               SHIM_DIR "/cuda_runtime_api.h", SHIM_DIR "/cuda.h",
                                               SHIM_DIR "/device_launch_parameters.h" };
        static const char redirect[] = "#pragma once\n#include \"cuda_shim.h\"\n";

        bool toolkit = false; /* --no-shim with --cuda-path=DIR: that toolkit's headers */

        for (size_t i = 0; i < opts->nargs; i++)
            toolkit |= opts->no_shim && starts(opts->args[i], "--cuda-path=");
        arg_add(&a, "-x");
        arg_add(&a, "cuda");
        arg_add(&a, "--cuda-device-only");
        if (!toolkit)
            arg_add(&a, "-nocudainc");
        arg_add(&a, "-nocudalib");
        arg_add(&a, "-Wno-unknown-cuda-version");
        /* the shim declares device math static, defined by no file: clang would say so */
        arg_add(&a, "-Wno-undefined-internal");
        /* errors in host code are skipped: clang must go on to the device code after them */
        arg_add(&a, "-ferror-limit=0");
        /* never look at an installed CUDA unless asked: the shim is all the parser needs */
        if (!toolkit)
            arg_add(&a, "--cuda-path=/nonexistent-augur-cuda");
        if (!opts->no_shim) {
            arg_add(&a, "-isystem");
            arg_add(&a, SHIM_DIR);
            arg_add(&a, "-include");
            arg_add(&a, SHIM_PATH);
            unsaved[nunsaved].Filename = SHIM_PATH;
            unsaved[nunsaved].Contents = fe_cuda_shim_text;
            unsaved[nunsaved].Length = (unsigned long)strlen(fe_cuda_shim_text);
            nunsaved++;
        }
        for (size_t i = 0; !opts->no_shim && i < sizeof(headers) / sizeof(headers[0]); i++) {
            unsaved[nunsaved].Filename = headers[i];
            unsaved[nunsaved].Contents = redirect;
            unsaved[nunsaved].Length = (unsigned long)strlen(redirect);
            nunsaved++;
        }
    } else {
        arg_add(&a, "-x");
        arg_add(&a, cxx ? "c++" : "c");
    }
    if (opts->build_dir && (rc = db_args(opts->build_dir, path, &a, diag)) != 0)
        goto out;
    filter_args(&a, opts->args, opts->nargs, NULL, NULL);
    /* "-x c++" among the flags (a C++ header, .h): read as C++ */
    for (size_t i = 0; !cuda && i < a.n; i++)
        if ((!strcmp(a.v[i], "-x") && i + 1 < a.n && !strcmp(a.v[i + 1], "c++")) ||
            !strcmp(a.v[i], "-xc++"))
            cxx = true;
    if (cuda) {
        bool arch = false;

        for (size_t i = 0; i < a.n; i++)
            arch |= starts(a.v[i], "--cuda-gpu-arch=");
        if (!arch)
            arg_add(&a, "--cuda-gpu-arch=sm_80");
    }
    if (a.openmp || mentions_openmp(text, len))
        arg_add(&a, "-D_OPENMP=201511");
    if (inst) {
        /* the template kernel's file with its header blanked, and its parameters */
        unsaved[nunsaved].Filename = inst->file;
        unsaved[nunsaved].Contents = inst->text;
        unsaved[nunsaved].Length = (unsigned long)inst->len;
        nunsaved++;
        unsaved[nunsaved].Filename = TEMPLATE_PATH;
        unsaved[nunsaved].Contents = inst->decls.s ? inst->decls.s : "";
        unsaved[nunsaved].Length = (unsigned long)inst->decls.len;
        nunsaved++;
        arg_add(&a, "-include");
        arg_add(&a, TEMPLATE_PATH);
        arg_add(&a, "-Wno-return-type"); /* the host functions' bodies are blanked */
    }
    if (in_memory && !(inst && !strcmp(inst->file, path))) {
        unsaved[nunsaved].Filename = path;
        unsaved[nunsaved].Contents = text;
        unsaved[nunsaved].Length = (unsigned long)len;
        nunsaved++;
    }
    err = clang_parseTranslationUnit2(
        fe->index, path, (const char *const *)a.v, (int)a.n, unsaved, nunsaved,
        CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing, &t.tu);
    if (err != CXError_Success || !t.tu) {
        rc = augur_diag_set(diag, AUGUR_ECLANG, path, 0, 0, "libclang cannot parse '%s' (error %d)",
                            path, (int)err);
        goto out;
    }
    if (cuda)
        clang_visitChildren(clang_getTranslationUnitCursor(t.tu), find_host_code, &host);
    if (report_diags(t.tu, cuda ? &host : NULL, opts, diag)) {
        rc = AUGUR_EPARSE;
        goto out;
    }
    t.fe = fe;
    t.path = path;
    t.cuda = cuda;
    t.opts = opts;
    t.file = clang_getFile(t.tu, path);
    if (!t.file) {
        rc = augur_diag_set(diag, AUGUR_ECLANG, path, 0, 0, "libclang lost the file '%s'", path);
        goto out;
    }
    t.contents = clang_getFileContents(t.tu, t.file, &t.size);
    rc = kernel_file(&t, diag);
    if (rc)
        goto out;
    clang_visitChildren(clang_getTranslationUnitCursor(t.tu), top_level, &t);
    ndefined = t.kernels.n;
    pick_kernels(&t);
    if (!t.kernels.n && (cuda || cxx) && !inst) {
        rc = template_kernel(&t, &next, diag);
        if (rc == 1)
            rc = 0; /* parsed again below, once this parse is released */
        if (rc || next.file)
            goto out;
    }
    if (!t.kernels.n) {
        if (opts->function)
            rc = augur_diag_set(diag, AUGUR_ENOENT, path, 0, 0, "no function '%s' defined in '%s'",
                                opts->function, path);
        else if (ndefined && !cuda)
            rc = augur_diag_set(diag, AUGUR_ENOENT, path, 0, 0,
                                "no kernel function in '%s': every function it defines is called "
                                "in it (recursion?); name the kernel with --function",
                                path);
        else
            rc = augur_diag_set(diag, AUGUR_ENOENT, path, 0, 0, "no kernel %sfunction in '%s'",
                                cuda ? "(__global__) " : "", path);
        goto out;
    }
    fe_scan_pragmas(&t);
    skel = augur_skel_new();
    rc = fe_build(&t, skel, diag);
    if (rc)
        goto out;
    *out = skel;
    skel = NULL;
out:
    augur_skel_free(skel);
    if (t.tu)
        clang_disposeTranslationUnit(t.tu);
    fe_cursors_release(&t.kernels);
    fe_map_release(&t.macros);
    fe_map_release(&t.macro_cache);
    fe_map_release(&t.funcs);
    for (size_t i = 0; i < t.npragmas; i++)
        augur_free(t.pragmas[i].text);
    augur_free(t.pragmas);
    augur_free(t.skipped_begin);
    augur_free(t.exp_begin);
    augur_free(t.exp_end);
    augur_free(t.skipped_end);
    augur_arena_release(&t.arena);
    augur_buf_release(&src);
    args_release(&a);
    augur_free(host.v);
    if (!rc && next.file) {
        if (opts->on_diag) {
            struct augur_diag one;

            augur_diag_init(&one);
            augur_diag_set(&one, 0, next.file, 0, 0, "note: %s", next.note);
            opts->on_diag(opts->ud, &one, false);
        }
        rc = parse(fe, path, text, len, in_memory, opts, &next, out, diag);
        for (uint32_t i = 0; !rc && *out && i < (*out)->nkernels && next.args.len; i++)
            (*out)->kernels[i]->u.kernel.template_args =
                augur_arena_strdup(&(*out)->arena, next.args.s);
    }
    tmpl_release(&next);
    return rc;
}

int augur_fe_parse(struct augur_fe *fe, const char *path, const struct augur_fe_opts *opts,
                   struct augur_skel **out, struct augur_diag *diag)
{
    return parse(fe, path, NULL, 0, false, opts, NULL, out, diag);
}

int augur_fe_parse_source(struct augur_fe *fe, const char *path, const char *text, size_t len,
                          const struct augur_fe_opts *opts, struct augur_skel **out,
                          struct augur_diag *diag)
{
    return parse(fe, path, text, len, true, opts, NULL, out, diag);
}
