/*
 * skel_int.h - what the files of the skeleton module share (module: skeleton).
 */
#ifndef AUGUR_SKEL_INT_H
#define AUGUR_SKEL_INT_H

#include "augur/skeleton.h"

/* Operator precedence (see AUGUR_OPS); the select operator binds at 3. */
int augur_skel_op_prec(enum augur_op op);
#define SKEL_PREC_SELECT 3
#define SKEL_PREC_UNARY  15

/* Looks an enum value up by its text name in a NULL-terminated name table; -1 when absent. */
int augur_skel_lookup(const char *const *names, const char *s, size_t len);

/* Name tables, indexed by the enums of skeleton.h. */
extern const char *const augur_skel_sym_kind_names[];
extern const char *const augur_skel_space_names[];
extern const char *const augur_skel_bind_src_names[];
extern const char *const augur_skel_note_kind_names[];
extern const char *const augur_skel_loop_form_names[];
extern const char *const augur_skel_sched_names[];
extern const char *const augur_skel_access_mode_names[];
extern const char *const augur_skel_sync_names[];
extern const char *const augur_skel_jump_names[];
extern const char *const augur_skel_region_names[];
extern const char *const augur_skel_opkind_names[];

/* The order of an ops node's counts: op, type, lanes, masked, carried (< 0, 0, > 0). */
int augur_skel_opcount_order(const struct augur_opcount *a, const struct augur_opcount *b);

/* True for names the text form cannot use for a sym or an array (types, min, max, ...). */
bool augur_skel_name_is_reserved(const char *name);

/* Formats one OpenMP directive ("parallel for schedule(dynamic, 64)") into buf. */
void augur_skel_format_omp(const struct augur_node *kernel, const struct augur_omp *omp,
                           struct augur_buf *buf);
/* Formats a location "@L:C" (or "@\"file\":L:C" when file differs from the kernel's). */
void augur_skel_format_loc(const struct augur_skel *skel, const struct augur_node *kernel,
                           struct augur_srcloc loc, struct augur_buf *buf);
/* Appends a quoted string with \" \\ \n \t escapes. */
void augur_skel_format_string(const char *s, struct augur_buf *buf);

#endif
