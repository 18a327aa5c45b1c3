/*
 * fuzz_compdb.c - libFuzzer target for the compile_commands.json reader of
 * `augur measure` (module: measure): the input is the database, in a folder
 * beside a source file k.c. A failure must say what; an entry that is found
 * must give a NULL-terminated argument list without the compiler's output
 * and dependency options or the source itself, and a folder.
 */
#include <stdint.h>
#include <string.h>

#include "augur/base.h"
#include "fuzz/fuzz_tmp.h"
#include "measure/measure_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char src[512];
    struct augur_diag diag;
    char path[512], **argv = NULL, *dir = NULL;
    size_t argc = 0;

    if (!src[0])
        fuzz_tmp_write("k.c", "void k(void) {}\n", 16, src);
    fuzz_tmp_write("compile_commands.json", data, size, path);
    augur_diag_init(&diag);
    if (rt_cc_entry(fuzz_tmp(), src, &argv, &argc, &dir, &diag) != 0) {
        if (diag.code == 0 || diag.msg[0] == '\0' || argv || dir)
            __builtin_trap(); /* a failure must say what, and give nothing */
        return 0;
    }
    if (!argv || !dir || argv[argc] != NULL)
        __builtin_trap();
    for (size_t i = 0; i < argc; i++)
        if (!strcmp(argv[i], "-c") || !strcmp(argv[i], "-o") || !strcmp(argv[i], "-MD") ||
            !strcmp(argv[i], "-MF") || !strcmp(argv[i], src))
            __builtin_trap();
    augur_argv_free(argv);
    augur_free(dir);
    return 0;
}
