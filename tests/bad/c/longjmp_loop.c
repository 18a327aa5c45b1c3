void f(int n, double *a)
{
    for (int i = 0; i < n; i++) {
        int *p = (int *)0;
        a[i] = *p;
    }
}
