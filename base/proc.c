/*
 * proc.c - child processes with a time limit, and the words of command
 * lines: what running a compiler or a generated program needs (module: base).
 */
#define _XOPEN_SOURCE 700

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "augur/base.h"

/* The process environment (POSIX declares it nowhere without _GNU_SOURCE). */
extern char **environ;

static void push(struct augur_vec *v, const char *s)
{
    *(char **)augur_vec_push(v) = augur_strdup(s);
}

static char **finish_argv(struct augur_vec *v)
{
    augur_vec_push(v);
    return augur_vec_take(v, NULL);
}

void augur_argv_free(char **argv)
{
    if (!argv)
        return;
    for (char **a = argv; *a; a++)
        augur_free(*a);
    augur_free(argv);
}

void augur_shell_join(struct augur_buf *buf, char *const *argv)
{
    for (size_t i = 0; argv[i]; i++) {
        const char *a = argv[i];
        bool plain = a[0] != '\0';

        for (const char *p = a; *p; p++)
            plain &= isalnum((unsigned char)*p) || strchr("-_./=+,:@%", *p) != NULL;
        if (i)
            augur_buf_putc(buf, ' ');
        if (plain) {
            augur_buf_puts(buf, a);
            continue;
        }
        augur_buf_putc(buf, '\'');
        for (const char *p = a; *p; p++) {
            if (*p == '\'')
                augur_buf_puts(buf, "'\\''");
            else
                augur_buf_putc(buf, *p);
        }
        augur_buf_putc(buf, '\'');
    }
}

/* ---- child processes ------------------------------------------------------------------------ */

/* Reads what fd has; false at end of file. Keeps at most max bytes in buf. */
static bool drain(int fd, struct augur_buf *buf, size_t max)
{
    char chunk[65536];
    ssize_t n = read(fd, chunk, sizeof(chunk));

    if (n < 0)
        return errno == EINTR || errno == EAGAIN;
    if (n == 0)
        return false;
    if (buf && buf->len < max)
        augur_buf_add(buf, chunk, (size_t)n < max - buf->len ? (size_t)n : max - buf->len);
    return true;
}

int augur_run_child(char *const *argv, char *const *envp, const char *cwd, double timeout,
                    size_t max, struct augur_buf *out, struct augur_buf *err,
                    struct augur_child *child, struct augur_diag *diag)
{
    int po[2] = { -1, -1 }, pe[2] = { -1, -1 };
    double t0 = augur_now();
    bool open_o = true, open_e = true;
    pid_t pid;

    memset(child, 0, sizeof(*child));
    if (pipe(po) != 0 || pipe(pe) != 0) {
        int e = errno;

        if (po[0] >= 0)
            close(po[0]), close(po[1]);
        return augur_diag_set(diag, AUGUR_ERUN, NULL, 0, 0, "cannot make a pipe: %s", strerror(e));
    }
    pid = fork();
    if (pid < 0) {
        int e = errno;

        close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
        return augur_diag_set(diag, AUGUR_ERUN, NULL, 0, 0, "cannot start '%s': %s", argv[0],
                              strerror(e));
    }
    if (pid == 0) {
        setpgid(0, 0);
        dup2(po[1], 1);
        dup2(pe[1], 2);
        close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
        if (cwd && chdir(cwd) != 0) {
            static const char msg[] = "cannot enter the compiler's folder\n";

            if (write(2, msg, sizeof(msg) - 1) < 0)
                _exit(127);
            _exit(127);
        }
        if (envp)
            environ = (char **)envp;
        execvp(argv[0], argv);
        {
            const char *e = strerror(errno);

            if (write(2, "cannot run ", 11) < 0 || write(2, argv[0], strlen(argv[0])) < 0 ||
                write(2, ": ", 2) < 0 || write(2, e, strlen(e)) < 0 || write(2, "\n", 1) < 0)
                _exit(127);
        }
        _exit(127);
    }
    setpgid(pid, pid); /* also here: whichever runs first */
    close(po[1]);
    close(pe[1]);
    fcntl(po[0], F_SETFL, O_NONBLOCK);
    fcntl(pe[0], F_SETFL, O_NONBLOCK);
    while (open_o || open_e) {
        struct pollfd fds[2];
        double left = timeout - (augur_now() - t0);
        int n;

        if (left <= 0) {
            child->timed_out = true;
            break;
        }
        fds[0].fd = open_o ? po[0] : -1;
        fds[0].events = POLLIN;
        fds[1].fd = open_e ? pe[0] : -1;
        fds[1].events = POLLIN;
        n = poll(fds, 2, left > 3600 ? 3600000 : (int)(left * 1000) + 1);
        if (n < 0 && errno != EINTR)
            break;
        if (n <= 0)
            continue;
        if (open_o && (fds[0].revents & (POLLIN | POLLHUP | POLLERR)))
            open_o = drain(po[0], out, max);
        if (open_e && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)))
            open_e = drain(pe[0], err, max);
    }
    if (child->timed_out || open_o || open_e) {
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
    }
    close(po[0]);
    close(pe[0]);
    for (;;) {
        siginfo_t info;

        /*
         * Wait for the leader without reaping it, so that its group id stays
         * ours, then end stray members of the group.
         */
        memset(&info, 0, sizeof(info));
        if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT | WNOHANG) < 0 && errno == EINTR)
            continue;
        if (info.si_pid == pid) {
            kill(-pid, SIGKILL);
            break;
        }
        if (augur_now() - t0 > timeout && !child->timed_out) {
            child->timed_out = true;
            kill(-pid, SIGKILL);
        }
        {
            struct timespec ts = { 0, 5000000 };

            nanosleep(&ts, NULL);
        }
    }
    while (waitpid(pid, &child->status, 0) < 0 && errno == EINTR)
        ;
    child->seconds = augur_now() - t0;
    return 0;
}

char **augur_cc_words(const char *cc, size_t *n)
{
    struct augur_vec v;
    char *copy, *save = NULL;

    if (!cc || !*cc)
        cc = getenv("CC");
    if (!cc || !*cc)
        cc = "cc";
    augur_vec_init(&v, sizeof(char *));
    copy = augur_strdup(cc);
    for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
        push(&v, w);
    if (!v.len)
        push(&v, "cc");
    augur_free(copy);
    *n = v.len;
    return finish_argv(&v);
}
