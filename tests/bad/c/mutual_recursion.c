static void g(int n, double *a);
static void h(int n, double *a)
{
    if (n > 0)
        g(n - 1, a);
}
static void g(int n, double *a)
{
    a[n] = 1;
    h(n, a);
}
void f(int n, double *a)
{
    g(n, a);
}
