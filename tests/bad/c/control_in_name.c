void f[31m(int n, double *a)
{
    a[0] = n;
}