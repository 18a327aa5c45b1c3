/* goto into a loop: reported, the rest is analysed in order. */
void jump_in(int n, const int *col, double *y)
{
    int i = 0;
    if (n > 100)
        goto inside;
    for (i = 0; i < n; i++) {
inside:
        y[col[i]] += 1.0;
    }
}
