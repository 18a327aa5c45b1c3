/* clang-format off */
#error "this file refuses to compile"
void f(int n, double *a) { a[0] = n; }
