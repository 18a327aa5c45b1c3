/*
 * measure_sched.c - the copy of a kernel's file that runs the schedule the
 * caller asks for (module: measure): the kernel's OpenMP worksharing
 * directives say schedule(runtime), and OMP_SCHEDULE names the schedule.
 * A C-aware line scanner, not a parser: it knows comments, literals, line
 * splices, directives and braces, which is all that finding the directives
 * takes.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "measure_int.h"

#define RUNTIME "schedule(runtime)"

/* A preprocessing directive: text[start] is its '#', text[end] the newline that ends it. */
struct dir {
    size_t start, end;
    uint32_t first, last; /* its physical lines */
    bool omp, ws;         /* #pragma omp ...; a directive with a loop (its name holds "for") */
    bool rewrite;
    size_t name_end;           /* after its directive name: where a clause goes */
    size_t sched_lo, sched_hi; /* its schedule clause (sched_hi 0: none) */
};

struct scan {
    const char *text;
    size_t len;
    struct augur_vec dirs; /* struct dir, in order */
    uint8_t *code;         /* per line (1-based): holds a token outside directives and comments */
    uint32_t nlines;
    size_t body_open, body_close; /* the kernel's braces (body_close 0: not found) */
    bool no_body;                 /* a ';' before any '{': a declaration */
    uint32_t pragma_op;           /* the line of a _Pragma inside the body (0: none) */
};

static bool is_ident(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* A line splice at i ("\\\n" or "\\\r\n"): its length, else 0. */
static size_t splice(const char *t, size_t len, size_t i)
{
    if (t[i] != '\\')
        return 0;
    if (i + 1 < len && t[i + 1] == '\n')
        return 2;
    if (i + 2 < len && t[i + 1] == '\r' && t[i + 2] == '\n')
        return 3;
    return 0;
}

/* One more line crossed, where lines are counted (line not NULL). */
static void count_line(uint32_t *line)
{
    if (line)
        (*line)++;
}

/*
 * Past the comment at i ("/ *" or "//", splices honoured); *line counts the
 * newlines crossed (line NULL: not counted).
 */
static size_t skip_comment(const char *t, size_t len, size_t i, uint32_t *line)
{
    if (t[i + 1] == '*') {
        for (i += 2; i < len; i++) {
            if (t[i] == '\n')
                count_line(line);
            else if (t[i] == '*' && i + 1 < len && t[i + 1] == '/')
                return i + 2;
        }
        return len;
    }
    while (i < len && t[i] != '\n') {
        size_t s = splice(t, len, i);

        if (s) {
            count_line(line);
            i += s;
        } else {
            i++;
        }
    }
    return i;
}

static bool comment_at(const char *t, size_t len, size_t i)
{
    return t[i] == '/' && i + 1 < len && (t[i + 1] == '*' || t[i + 1] == '/');
}

/*
 * Past the string or character literal at i: it ends at its quote or the line's end, and
 * continues over splices (*line counts them; line NULL: not counted).
 */
static size_t skip_literal(const char *t, size_t len, size_t i, uint32_t *line)
{
    char q = t[i++];

    while (i < len && t[i] != q && t[i] != '\n') {
        size_t s = splice(t, len, i);

        if (s) {
            count_line(line);
            i += s;
        } else {
            i += t[i] == '\\' && i + 1 < len && t[i + 1] != '\n' ? 2 : 1;
        }
    }
    return i < len && t[i] == q ? i + 1 : i;
}

/*
 * The next token of a directive in [*p, end): an identifier or one other
 * character, blanks, splices and comments skipped. False at the end.
 */
static bool dir_token(const char *t, size_t end, size_t *p, size_t *ts, size_t *te)
{
    size_t i = *p;

    for (;;) {
        size_t s;

        if (i >= end)
            return false;
        if ((s = splice(t, end, i)) != 0)
            i += s;
        else if (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\f' || t[i] == '\v')
            i++;
        else if (comment_at(t, end, i))
            i = skip_comment(t, end, i, NULL);
        else
            break;
    }
    *ts = i;
    if (is_ident((unsigned char)t[i]))
        while (i < end && is_ident((unsigned char)t[i]))
            i++;
    else if (t[i] == '"' || t[i] == '\'')
        i = skip_literal(t, end, i, NULL); /* one token: no clause inside */
    else
        i++;
    *te = *p = i;
    return true;
}

static bool tok_is(const char *t, size_t ts, size_t te, const char *word)
{
    return te - ts == strlen(word) && strncmp(t + ts, word, te - ts) == 0;
}

/* Reads a directive's words: is it #pragma omp, with a loop, and where is its schedule? */
static void read_dir(const char *t, struct dir *d)
{
    static const char *const names[] = { "parallel", "for",  "simd",      "target",
                                         "teams",    "loop", "distribute" };
    size_t p = d->start + 1, ts, te;
    bool name = true;

    if (!dir_token(t, d->end, &p, &ts, &te) || !tok_is(t, ts, te, "pragma") ||
        !dir_token(t, d->end, &p, &ts, &te) || !tok_is(t, ts, te, "omp"))
        return;
    d->omp = true;
    d->name_end = te;
    while (dir_token(t, d->end, &p, &ts, &te)) {
        bool known = false;

        for (size_t k = 0; name && k < sizeof(names) / sizeof(names[0]); k++)
            known |= tok_is(t, ts, te, names[k]);
        if (known) {
            d->ws |= tok_is(t, ts, te, "for");
            d->name_end = te;
            continue;
        }
        name = false;
        if (tok_is(t, ts, te, "schedule")) {
            size_t q = p, s2, e2;
            int depth = 0;

            if (!dir_token(t, d->end, &q, &s2, &e2) || t[s2] != '(')
                continue;
            depth = 1;
            while (depth && dir_token(t, d->end, &q, &s2, &e2))
                depth += t[s2] == '(' ? 1 : t[s2] == ')' ? -1 : 0;
            if (depth == 0 && !d->sched_hi) {
                d->sched_lo = ts;
                d->sched_hi = e2;
            }
            p = q;
        }
    }
}

/* The directive at text[i] (a '#' first on its line); *line moves to its last line. */
static size_t scan_dir(struct scan *s, size_t i, uint32_t *line)
{
    const char *t = s->text;
    struct dir *d = augur_vec_push(&s->dirs);
    size_t j = i + 1, sp;

    d->start = i;
    d->first = *line;
    while (j < s->len && t[j] != '\n') {
        if ((sp = splice(t, s->len, j)) != 0) {
            (*line)++;
            j += sp;
        } else if (comment_at(t, s->len, j)) {
            j = skip_comment(t, s->len, j, line);
        } else if (t[j] == '"' || t[j] == '\'') {
            j = skip_literal(t, s->len, j, line);
        } else {
            j++;
        }
    }
    d->end = j;
    d->last = *line;
    read_dir(t, d);
    return j;
}

/* The kernel's braces, from the definition at offset def: one character of code at a time. */
static void track_body(struct scan *s, size_t i, size_t def, int *paren, int *brace)
{
    char c = s->text[i];

    if (i < def || s->body_close || s->no_body)
        return;
    if (c == '(')
        (*paren)++;
    else if (c == ')')
        (*paren)--;
    else if (c == ';' && *paren <= 0 && !s->body_open)
        s->no_body = true;
    else if (c == '{' && (*brace)++ == 0 && *paren <= 0 && !s->body_open)
        s->body_open = i;
    else if (c == '}' && *brace > 0 && --*brace == 0 && s->body_open)
        s->body_close = i;
}

static void scan_text(struct scan *s, size_t def)
{
    const char *t = s->text;
    uint32_t line = 1;
    bool bol = true;
    int paren = 0, brace = 0;

    for (size_t i = 0; i < s->len;) {
        size_t sp;

        if (t[i] == '\n') {
            line++;
            bol = true;
            i++;
        } else if (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\f' || t[i] == '\v') {
            i++;
        } else if ((sp = splice(t, s->len, i)) != 0) {
            line++;
            i += sp;
        } else if (comment_at(t, s->len, i)) {
            i = skip_comment(t, s->len, i, &line);
        } else if (t[i] == '#' && bol) {
            i = scan_dir(s, i, &line);
        } else {
            s->code[line] = 1;
            bol = false;
            if (t[i] == '"' || t[i] == '\'') {
                uint32_t from = line;

                i = skip_literal(t, s->len, i, &line);
                while (from < line)
                    s->code[++from] = 1; /* a literal continued over splices */
            } else if (is_ident((unsigned char)t[i])) {
                size_t e = i;

                while (e < s->len && is_ident((unsigned char)t[e]))
                    e++;
                if (s->body_open && !s->body_close && !s->pragma_op && tok_is(t, i, e, "_Pragma"))
                    s->pragma_op = line;
                i = e;
            } else {
                track_body(s, i, def, &paren, &brace);
                i++;
            }
        }
    }
}

/* The directive of the loop on line: the nearest line above that is not blank or comment. */
static int dir_of_loop(const struct scan *s, const int32_t *dir_at, uint32_t line)
{
    uint32_t l = line;

    while (l > 1) {
        l--;
        if (dir_at[l] >= 0) {
            const struct dir *d = &AUGUR_VEC_AT(&s->dirs, struct dir, (size_t)dir_at[l]);

            if (d->omp)
                return d->ws ? dir_at[l] : -1;
            l = d->first; /* another pragma (augur, unroll, ivdep) between them */
            continue;
        }
        if (s->code[l])
            return -1;
    }
    return -1;
}

static int mark_loops(struct scan *s, const char *path, const uint32_t *lines, size_t nlines,
                      struct augur_diag *diag)
{
    int32_t *dir_at = augur_mallocarray(s->nlines + 2, sizeof(int32_t));
    int rc = 0;

    for (uint32_t l = 0; l < s->nlines + 2; l++)
        dir_at[l] = -1;
    for (size_t k = 0; k < s->dirs.len; k++) {
        const struct dir *d = &AUGUR_VEC_AT(&s->dirs, struct dir, k);

        for (uint32_t l = d->first; l <= d->last && l <= s->nlines; l++)
            dir_at[l] = (int32_t)k;
    }
    for (size_t k = 0; k < nlines && !rc; k++) {
        int d = lines[k] >= 1 && lines[k] <= s->nlines ? dir_of_loop(s, dir_at, lines[k]) : -1;

        if (d < 0)
            rc = augur_diag_set(diag, AUGUR_EUNSUP, path, lines[k], 0,
                                "this worksharing loop has no '#pragma omp ... for' line right "
                                "before it (a directive from _Pragma or a macro?): a schedule "
                                "override cannot rewrite it; write the directive as a #pragma "
                                "line");
        else
            AUGUR_VEC_AT(&s->dirs, struct dir, (size_t)d).rewrite = true;
    }
    augur_free(dir_at);
    return rc;
}

/* The text with the directives marked rewritten, line numbers kept. */
static void emit(const struct scan *s, struct augur_buf *out, uint32_t *n)
{
    size_t at = 0;

    *n = 0;
    for (size_t k = 0; k < s->dirs.len; k++) {
        const struct dir *d = &AUGUR_VEC_AT(&s->dirs, struct dir, k);

        if (!d->rewrite)
            continue;
        (*n)++;
        if (!d->sched_hi) {
            augur_buf_add(out, s->text + at, d->name_end - at);
            augur_buf_puts(out, " " RUNTIME);
            at = d->name_end;
            continue;
        }
        augur_buf_add(out, s->text + at, d->sched_lo - at);
        augur_buf_puts(out, RUNTIME);
        /* the clause's own line breaks (splices, comments), as splices */
        for (size_t i = d->sched_lo; i < d->sched_hi; i++)
            if (s->text[i] == '\n')
                augur_buf_puts(out, "\\\n");
        at = d->sched_hi;
    }
    augur_buf_add(out, s->text + at, s->len - at);
}

int rt_sched_rewrite(const char *path, const char *text, size_t len, uint32_t line, uint32_t col,
                     const uint32_t *lines, size_t nlines, struct augur_buf *out,
                     uint32_t *ndirectives, struct augur_diag *diag)
{
    struct scan s;
    size_t def = 0;
    uint32_t l = 1;
    int rc = 0;

    memset(&s, 0, sizeof(s));
    s.text = text;
    s.len = len;
    for (size_t i = 0; i < len; i++)
        s.nlines += text[i] == '\n';
    s.nlines++;
    while (def < len && l < line)
        if (text[def++] == '\n')
            l++;
    for (uint32_t c = 1; c < col && def < len && text[def] != '\n'; c++)
        def++;
    augur_vec_init(&s.dirs, sizeof(struct dir));
    s.code = augur_calloc(s.nlines + 2, 1);
    scan_text(&s, def);
    if (!s.body_close) {
        rc = augur_diag_set(diag, AUGUR_EUNSUP, path, line, col,
                            "cannot find the kernel's body in the source (a macro?): a schedule "
                            "override rewrites its directives");
        goto out;
    }
    if (s.pragma_op) {
        rc = augur_diag_set(diag, AUGUR_EUNSUP, path, s.pragma_op, 0,
                            "the kernel uses _Pragma: a schedule override rewrites #pragma omp "
                            "lines only, and would time the source's own schedule there");
        goto out;
    }
    for (size_t k = 0; k < s.dirs.len; k++) {
        struct dir *d = &AUGUR_VEC_AT(&s.dirs, struct dir, k);

        if (d->omp && d->ws && d->start > s.body_open && d->start < s.body_close)
            d->rewrite = true;
    }
    rc = mark_loops(&s, path, lines, nlines, diag);
    if (rc)
        goto out;
    emit(&s, out, ndirectives);
    if (*ndirectives == 0)
        rc = augur_diag_set(diag, AUGUR_EUNSUP, path, line, col,
                            "the kernel has no OpenMP worksharing directive (omp for, parallel "
                            "for): no schedule to override");
out:
    augur_vec_release(&s.dirs);
    augur_free(s.code);
    return rc;
}
