/*
 * measure_proc.c - for augur_measure(): reads a kernel's C signature,
 * finds a file's flags in compile_commands.json, and runs compilers and
 * drivers as child processes with a time limit (module: measure).
 */
#define _XOPEN_SOURCE 700 /* realpath() */

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "measure_int.h"

/* ---- the signature ------------------------------------------------------------------------- */

static bool is_ident(int c)
{
    return isalnum(c) || c == '_';
}

/* Skips a comment, string or character literal at text[i]; returns the index after it, or i. */
static size_t skip_lexical(const char *text, size_t len, size_t i)
{
    if (i + 1 < len && text[i] == '/' && text[i + 1] == '*') {
        const char *end = NULL;

        for (size_t j = i + 2; j + 1 < len; j++)
            if (text[j] == '*' && text[j + 1] == '/') {
                end = text + j + 2;
                break;
            }
        return end ? (size_t)(end - text) : len;
    }
    if (i + 1 < len && text[i] == '/' && text[i + 1] == '/') {
        while (i < len && text[i] != '\n')
            i++;
        return i;
    }
    if (text[i] == '"' || text[i] == '\'') {
        char q = text[i++];

        while (i < len && text[i] != q && text[i] != '\n')
            i += text[i] == '\\' ? 2 : 1;
        return i < len ? i + 1 : len;
    }
    return i;
}

static const char *const type_words[] = {
    "void",     "char",   "short", "int",   "long",     "float",    "double",     "signed",
    "unsigned", "_Bool",  "bool",  "const", "volatile", "restrict", "__restrict", "__restrict__",
    "_Complex", "struct", "union", "enum",  "register", "static",
};

static bool is_type_word(const char *w, size_t n)
{
    for (size_t i = 0; i < sizeof(type_words) / sizeof(type_words[0]); i++)
        if (strlen(type_words[i]) == n && strncmp(type_words[i], w, n) == 0)
            return true;
    return false;
}

/* A qualifier that may stand between '*' and a parameter's name. */
static bool is_qualifier(const char *w, size_t n)
{
    static const char *const q[] = { "const", "volatile", "restrict", "__restrict",
                                     "__restrict__" };

    for (size_t i = 0; i < sizeof(q) / sizeof(q[0]); i++)
        if (strlen(q[i]) == n && strncmp(q[i], w, n) == 0)
            return true;
    return false;
}

/* True when the collapsed declaration holds the word w. */
static bool has_word(const char *decl, const char *w)
{
    size_t n = strlen(w);

    for (const char *p = strstr(decl, w); p; p = strstr(p + 1, w))
        if ((p == decl || !is_ident((unsigned char)p[-1])) && !is_ident((unsigned char)p[n]))
            return true;
    return false;
}

/* Fills p from the declaration text[a, b) (comments removed, whitespace collapsed). */
static void read_param(const char *text, size_t a, size_t b, struct rt_param *p)
{
    struct augur_buf d;
    int depth = 0;
    size_t name_at = 0, name_len = 0;

    augur_buf_init(&d);
    for (size_t i = a; i < b;) {
        size_t j = skip_lexical(text, b, i);

        if (j != i && text[i] == '/') {
            i = j;
            if (d.len && d.s[d.len - 1] != ' ')
                augur_buf_putc(&d, ' ');
            continue;
        }
        if (isspace((unsigned char)text[i])) {
            if (d.len && d.s[d.len - 1] != ' ')
                augur_buf_putc(&d, ' ');
            i++;
            continue;
        }
        augur_buf_putc(&d, text[i]);
        i++;
    }
    while (d.len && d.s[d.len - 1] == ' ')
        d.s[--d.len] = '\0';
    p->decl = augur_buf_detach(&d, NULL);
    /* the name: the last identifier outside brackets that is not a type word */
    for (size_t i = 0; p->decl[i];) {
        char c = p->decl[i];

        if (c == '(' || c == '[') {
            depth++;
            if (c == '(')
                p->aggregate = true; /* function pointers, pointers to arrays */
            if (c == '[' && depth == 1)
                p->pointer = true;
            i++;
        } else if (c == ')' || c == ']') {
            depth--;
            i++;
        } else if (c == '*') {
            if (depth == 0)
                p->pointer = true;
            i++;
        } else if (is_ident((unsigned char)c) && !isdigit((unsigned char)c)) {
            size_t s = i;

            while (is_ident((unsigned char)p->decl[i]))
                i++;
            if (depth == 0 && !is_type_word(p->decl + s, i - s)) {
                name_at = s;
                name_len = i - s;
            }
        } else {
            i++;
        }
    }
    if (strcmp(p->decl, "...") == 0)
        p->aggregate = true;
    /* a pointer to arrays, "double (*X)[4]": the name in the parentheses, a pointer */
    {
        const char *o = strstr(p->decl, "(*");

        if (o && !p->name && !name_len) {
            size_t s = (size_t)(o - p->decl) + 2, e;

            for (;;) { /* (*restrict X), (*const X) */
                while (p->decl[s] == ' ')
                    s++;
                for (e = s; is_ident((unsigned char)p->decl[e]); e++)
                    ;
                if (!is_qualifier(p->decl + s, e - s))
                    break;
                s = e;
            }
            if (e > s && !isdigit((unsigned char)p->decl[s])) {
                size_t c = e;

                while (p->decl[c] == ' ')
                    c++;
                if (p->decl[c] == ')') {
                    c++;
                    while (p->decl[c] == ' ')
                        c++;
                    if (p->decl[c] == '[' && !strchr(p->decl + c, '(')) {
                        p->aggregate = false;
                        p->pointer = true;
                        name_at = s;
                        name_len = e - s;
                    }
                }
            }
        }
    }
    /* "uint32_t n": the last identifier is the name only when a type precedes it */
    if (name_len && name_at > 0) {
        p->name = augur_malloc(name_len + 1);
        memcpy(p->name, p->decl + name_at, name_len);
        p->name[name_len] = '\0';
    }
    if (!p->pointer && (has_word(p->decl, "struct") || has_word(p->decl, "union") ||
                        has_word(p->decl, "_Complex")))
        p->aggregate = true;
    p->floating = !p->pointer && (has_word(p->decl, "double") || has_word(p->decl, "float"));
}

static void line_col(const char *text, size_t at, uint32_t *line, uint32_t *col)
{
    uint32_t l = 1, c = 1;

    for (size_t i = 0; i < at; i++) {
        if (text[i] == '\n')
            l++, c = 1;
        else
            c++;
    }
    *line = l;
    *col = c;
}

/* True when the return type text[a, b) says the function returns a value to test. */
static bool returns_value(const char *text, size_t a, size_t b)
{
    struct rt_param r;
    bool v;

    memset(&r, 0, sizeof(r));
    read_param(text, a, b, &r);
    v = !(has_word(r.decl, "void") && !strchr(r.decl, '*')) && !r.aggregate;
    augur_free(r.decl);
    augur_free(r.name);
    return v;
}

static void release_params(struct rt_sig *sig)
{
    for (uint32_t i = 0; i < sig->nparams; i++) {
        augur_free(sig->params[i].name);
        augur_free(sig->params[i].decl);
    }
    augur_free(sig->params);
    sig->params = NULL;
    sig->nparams = 0;
}

int rt_sig_read(const char *path, const char *text, size_t len, uint32_t line, uint32_t col,
                const char *name, struct rt_sig *sig, struct augur_diag *diag)
{
    size_t i = 0, nlen = strlen(name), open = 0, start;
    uint32_t l = 1;
    struct augur_vec params;
    int depth = 0;

    memset(sig, 0, sizeof(*sig));
    while (i < len && l < line)
        if (text[i++] == '\n')
            l++;
    if (col > 1 && i + col - 1 <= len)
        i += col - 1;
    start = i;
    /* the name followed by '(' before any '{' or ';' */
    while (i < len) {
        size_t j = skip_lexical(text, len, i);

        if (j != i) {
            i = j;
            continue;
        }
        if (text[i] == '{' || text[i] == ';')
            break;
        if (is_ident((unsigned char)text[i]) && (i == 0 || !is_ident((unsigned char)text[i - 1]))) {
            size_t s = i;

            while (i < len && is_ident((unsigned char)text[i]))
                i++;
            if (i - s == nlen && strncmp(text + s, name, nlen) == 0) {
                size_t k = i;

                while (k < len && isspace((unsigned char)text[k]))
                    k++;
                if (k < len && text[k] == '(') {
                    sig->returns_value = returns_value(text, start, s);
                    open = k;
                    break;
                }
            }
            continue;
        }
        i++;
    }
    if (!open)
        return augur_diag_set(diag, AUGUR_EUNSUP, path, line, col,
                              "cannot find the parameter list of '%s' in the source (a name made "
                              "by a macro?)",
                              name);
    augur_vec_init(&params, sizeof(struct rt_param));
    start = open + 1;
    for (i = open + 1; i < len; i++) {
        size_t j = skip_lexical(text, len, i);

        if (j != i) {
            i = j - 1;
            continue;
        }
        if (text[i] == '(' || text[i] == '[')
            depth++;
        else if ((text[i] == ')' || text[i] == ']') && depth > 0)
            depth--;
        else if ((text[i] == ',' || text[i] == ')') && depth == 0) {
            struct rt_param *p = augur_vec_push(&params);
            size_t a = start;

            while (a < i && isspace((unsigned char)text[a]))
                a++;
            line_col(text, a, &p->line, &p->col);
            read_param(text, start, i, p);
            start = i + 1;
            if (text[i] == ')')
                break;
        }
    }
    {
        size_t n;

        sig->params = augur_vec_take(&params, &n);
        sig->nparams = (uint32_t)n;
    }
    /* f(void) and f() take nothing */
    if (sig->nparams == 1 && (!sig->params[0].decl[0] || strcmp(sig->params[0].decl, "void") == 0))
        release_params(sig);
    return 0;
}

void rt_sig_release(struct rt_sig *sig)
{
    release_params(sig);
    memset(sig, 0, sizeof(*sig));
}

/* ---- compile_commands.json ------------------------------------------------------------------ */

/* Splits a shell command line as compile_commands.json's "command" writes it. */
static void split_command(const char *s, struct augur_vec *out)
{
    struct augur_buf w;
    bool in_word = false;

    augur_buf_init(&w);
    for (;;) {
        char c = *s;

        if (!c || isspace((unsigned char)c)) {
            if (in_word) {
                char *word = augur_buf_detach(&w, NULL);

                *(char **)augur_vec_push(out) = word;
                in_word = false;
            }
            if (!c)
                break;
            s++;
        } else if (c == '\'') {
            in_word = true;
            for (s++; *s && *s != '\''; s++)
                augur_buf_putc(&w, *s);
            if (*s)
                s++;
        } else if (c == '"') {
            in_word = true;
            for (s++; *s && *s != '"'; s++) {
                if (*s == '\\' && (s[1] == '"' || s[1] == '\\' || s[1] == '$' || s[1] == '`'))
                    s++;
                augur_buf_putc(&w, *s);
            }
            if (*s)
                s++;
        } else if (c == '\\' && s[1]) {
            in_word = true;
            augur_buf_putc(&w, s[1]);
            s += 2;
        } else {
            in_word = true;
            augur_buf_putc(&w, c);
            s++;
        }
    }
    augur_buf_release(&w);
}

/* path resolved against dir, then made canonical; false when it does not exist. */
static bool resolve(const char *dir, const char *path, char *out)
{
    char joined[PATH_MAX];

    if (path[0] == '/' || !dir)
        snprintf(joined, sizeof(joined), "%s", path);
    else if ((size_t)snprintf(joined, sizeof(joined), "%s/%s", dir, path) >= sizeof(joined))
        return false;
    return realpath(joined, out) != NULL;
}

int rt_cc_entry(const char *cc_path, const char *source, char ***argv, size_t *argc, char **dir,
                struct augur_diag *diag)
{
    char file[PATH_MAX], src[PATH_MAX], real[PATH_MAX];
    struct stat st;
    json_error_t jerr;
    json_t *db = NULL, *entry;
    size_t idx;
    int rc = AUGUR_ENOENT;

    if (stat(cc_path, &st) != 0)
        return augur_diag_set(diag, AUGUR_ENOENT, cc_path, 0, 0, "cannot read: %s",
                              strerror(errno));
    if (S_ISDIR(st.st_mode))
        snprintf(file, sizeof(file), "%s/compile_commands.json", cc_path);
    else
        snprintf(file, sizeof(file), "%s", cc_path);
    if (!realpath(source, src))
        return augur_diag_set(diag, AUGUR_ENOENT, source, 0, 0, "cannot read: %s", strerror(errno));
    {
        struct augur_buf text;

        augur_buf_init(&text);
        rc = augur_file_read(file, 0, &text, NULL, diag);
        db = rc ? NULL : json_loadb(text.s, text.len, 0, &jerr);
        augur_buf_release(&text);
        if (rc)
            return rc;
        rc = AUGUR_ENOENT;
    }
    if (!db)
        return augur_diag_set(diag, AUGUR_EPARSE, file, (uint32_t)(jerr.line > 0 ? jerr.line : 0),
                              (uint32_t)(jerr.column > 0 ? jerr.column : 0), "%s", jerr.text);
    if (!json_is_array(db)) {
        json_decref(db);
        return augur_diag_set(diag, AUGUR_EPARSE, file, 1, 1,
                              "expected an array of compile commands");
    }
    json_array_foreach(db, idx, entry)
    {
        const char *d = json_string_value(json_object_get(entry, "directory"));
        const char *f = json_string_value(json_object_get(entry, "file"));
        json_t *args = json_object_get(entry, "arguments");
        const char *cmd = json_string_value(json_object_get(entry, "command"));
        struct augur_vec words, kept;
        size_t nw;
        char **w;

        if (!f || !resolve(d, f, real) || strcmp(real, src) != 0)
            continue;
        augur_vec_init(&words, sizeof(char *));
        augur_vec_init(&kept, sizeof(char *));
        if (json_is_array(args)) {
            size_t k;
            json_t *a;

            json_array_foreach(args, k, a)
            {
                if (json_is_string(a))
                    *(char **)augur_vec_push(&words) = augur_strdup(json_string_value(a));
            }
        } else if (cmd) {
            split_command(cmd, &words);
        }
        w = words.data;
        nw = words.len;
        for (size_t k = 1; k < nw; k++) {
            const char *a = w[k];

            if (strcmp(a, "-c") == 0 || strcmp(a, "-MD") == 0 || strcmp(a, "-MMD") == 0 ||
                strcmp(a, "-MP") == 0 || strcmp(a, "--") == 0)
                continue;
            if (strcmp(a, "-o") == 0 || strcmp(a, "-MF") == 0 || strcmp(a, "-MT") == 0 ||
                strcmp(a, "-MQ") == 0) {
                k++;
                continue;
            }
            if (strncmp(a, "-o", 2) == 0 && a[2])
                continue;
            if (a[0] != '-' && (strcmp(a, f) == 0 || (resolve(d, a, real) && !strcmp(real, src))))
                continue;
            *(char **)augur_vec_push(&kept) = augur_strdup(a);
        }
        for (size_t k = 0; k < nw; k++)
            augur_free(w[k]);
        augur_vec_release(&words);
        *argc = kept.len;
        augur_vec_push(&kept); /* the NULL at the end */
        *argv = augur_vec_take(&kept, NULL);
        *dir = augur_strdup(d ? d : ".");
        rc = 0;
        break;
    }
    json_decref(db);
    if (rc)
        augur_diag_set(diag, rc, file, 0, 0, "no entry for '%s'", src);
    return rc;
}
