/* clang-format off */
#define A A A
void f(int n, double *a) { a[0] = n; A }
