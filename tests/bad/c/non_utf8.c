void f(int n, double *a)
{
    a[0] = n; /* ÿþ */
}