// C++ references to elements and range-based for loops: T &r = y[i] names
// that element (a store through r is a store into y), and a range-based for
// walks an array or a std container by an index, its variable set to each
// element or, as a reference, naming it. A reference to a local scalar is
// not followed, and says so.
#include <vector>

void scatter_ref(int nnz, const int *col, const double *w, double *y)
{
    for (int k = 0; k < nnz; k++) {
        double &r = y[col[k]];

        r += w[k];
    }
}

double ranges(const std::vector<int> &deg, std::vector<double> &out)
{
    double s = 0, c[4] = { 1, 2, 3, 4 };
    int count = 0;
    int &alias = count;

    for (int d : deg)
        s += d;
    for (double &o : out)
        o = s;
    for (double v : c)
        s += v;
    alias++;
    return s + count;
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: cpp_refs_ranges.cpp:21:5: unsupported: the reference 'alias' names nothing the skeleton can place
// CHECK-LABEL: kernel scatter_ref
// CHECK: load col[k] @11:23
// CHECK-NEXT: set r = (i64)col[k] @11:9
// CHECK-NEXT: load w[k] @13:14
// CHECK-NEXT: update y[r] @13:9 indirect(col)
// CHECK-LABEL: kernel ranges
// CHECK: for range.k = 0_i64; range.k < (i64)deg.size; range.k += 1_i64 @23:5
// CHECK-NEXT: load deg[range.k] @23:10
// CHECK: for range.k.2 = 0_i64; range.k.2 < (i64)out.size; range.k.2 += 1_i64 @25:5
// CHECK-NEXT: set o = range.k.2 @25:10
// CHECK-NEXT: store out[o] @26:9
// CHECK: for range.k.3 = 0_i64; range.k.3 < 4_i64; range.k.3 += 1_i64 @27:5
// CHECK-NEXT: load c[range.k.3] @27:10
