/* Found through -Iinc from compile_commands.json (db_kernel.c). */
#define ELL_STRIDE WIDTH
