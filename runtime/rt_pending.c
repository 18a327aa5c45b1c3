/*
 * rt_pending.c - TEMPORARY during parallel development: readers not written yet.
 * Each developer deletes a function from here when its real one lands; the
 * file is deleted once empty.
 */
#include "rt_int.h"

#define PENDING(name) return augur_diag_set(diag, AUGUR_EUNSUP, file, 0, 0, name " not written yet")

int rt_read_mtx(const char *text, size_t len, const char *file, const struct augur_load_opts *opts,
                struct augur_dataset *ds, struct augur_diag *diag)
{
    (void)text, (void)len, (void)opts, (void)ds;
    PENDING("mtx");
}
int rt_read_edges(const char *text, size_t len, const char *file,
                  const struct augur_load_opts *opts, struct augur_dataset *ds,
                  struct augur_diag *diag)
{
    (void)text, (void)len, (void)opts, (void)ds;
    PENDING("edges");
}
int rt_read_dimacs(const char *text, size_t len, const char *file,
                   const struct augur_load_opts *opts, struct augur_dataset *ds,
                   struct augur_diag *diag)
{
    (void)text, (void)len, (void)opts, (void)ds;
    PENDING("dimacs");
}
int rt_read_metis(const char *text, size_t len, const char *file,
                  const struct augur_load_opts *opts, struct augur_dataset *ds,
                  struct augur_diag *diag)
{
    (void)text, (void)len, (void)opts, (void)ds;
    PENDING("metis");
}
int rt_coo_finish(struct augur_dataset *ds, struct augur_diag *diag)
{
    const char *file = ds->path;
    PENDING("coo finish");
}
void augur_coo_release(struct augur_coo *coo)
{
    (void)coo;
}
int augur_dataset_csr(const struct augur_dataset *ds, bool expand, struct augur_csr *out,
                      struct augur_diag *diag)
{
    const char *file = ds->path;
    (void)expand, (void)out;
    PENDING("csr");
}
int augur_dataset_write_mtx(const struct augur_dataset *ds, const char *path,
                            struct augur_diag *diag)
{
    const char *file = path;
    (void)ds;
    PENDING("write mtx");
}
