/*
 * fuzz_tree.c - libFuzzer target for the categorizer tree file parser: a
 * failure must say what and where; a tree that parses must format to text
 * that parses to the same text, and classify without leaving the tree
 * (module: data).
 */
#include <stdint.h>
#include <string.h>

#include "augur/base.h"
#include "augur/data.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct augur_tree *t = NULL, *back = NULL;
    struct augur_buf a, b;
    struct augur_diag diag;
    double x[AUGUR_CAT_NFEATURES];
    unsigned leaf;

    augur_diag_init(&diag);
    if (augur_tree_parse((const char *)data, size, "fuzz.tree", &t, &diag) != 0) {
        if (diag.code == 0 || diag.msg[0] == '\0' || t != NULL)
            __builtin_trap();
        return 0;
    }
    augur_buf_init(&a);
    augur_buf_init(&b);
    augur_tree_format(t, "fuzz", &a);
    if (augur_tree_parse(a.s, a.len, "again.tree", &back, &diag) != 0)
        __builtin_trap();
    augur_tree_format(back, "fuzz", &b);
    if (a.len != b.len || memcmp(a.s, b.s, a.len) != 0)
        __builtin_trap();
    for (int v = 0; v < 3; v++) {
        for (unsigned f = 0; f < AUGUR_CAT_NFEATURES; f++)
            x[f] = v == 0 ? 0.0 : v == 1 ? 1e300 : -1e300;
        augur_tree_classify(t, x, &leaf);
        if (leaf >= augur_tree_nnodes(t))
            __builtin_trap();
    }
    augur_buf_release(&a);
    augur_buf_release(&b);
    augur_tree_free(back);
    augur_tree_free(t);
    return 0;
}
