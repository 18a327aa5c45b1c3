void f(int n, int *a)
{
    for (int i = 0; i < n; i++)
        switch (a[i]) {
        case 0:
            a[i] = 1;
        case 1:
            a[i] = 2;
            break;
        default:
            break;
        }
}
