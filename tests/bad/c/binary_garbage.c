/* clang-format off */
void f(int n)
{}