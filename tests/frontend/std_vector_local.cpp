// Local std::vector arrays: one made with its size (and a fill value) is a
// local array of that extent, filled by its constructor; its elements and
// size() read as an array's. One grown by the library (resize, push_back)
// is not followed, and says so for each of its accesses.
#include <vector>

void first_seen(int n, const int *rowptr, const int *col, double *y)
{
    std::vector<int> seen(n, -1);
    std::vector<double> acc(n);

    for (int i = 0; i < n; i++)
        for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
            if (seen[col[j]] != i) {
                seen[col[j]] = i;
                acc[col[j]] += 1.0;
            }
    for (int i = 0; i < (int)acc.size(); i++)
        y[i] = acc[i];
}

void grown(int n, const int *col, double *y)
{
    std::vector<int> v;

    v.resize(n);
    for (int i = 0; i < n; i++) {
        v[col[i]] = i;
        y[i] = v[i];
    }
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: std_vector_local.cpp:26:5: unsupported: 'resize', a method of the C++ library: not followed
// CHECK: std_vector_local.cpp:28:9: unsupported: an element of a container that is no parameter, global or member of one, nor a local made with its size: the store is left out
// CHECK: std_vector_local.cpp:29:16: unsupported: an element of a container {{.*}}: the load is left out
// CHECK-LABEL: kernel first_seen
// CHECK: array seen i32[n] local @9:5
// CHECK-NEXT: array acc f64[n] local @10:5
// CHECK: store seen[copy.k + (i64)lane] = -1 @9:22 x8
// CHECK: store acc[copy.k.2 + (i64)lane] @10:25 x4
// CHECK: if seen[col[j]] != i @14:13
// CHECK-NEXT: load col[j] @15:22
// CHECK-NEXT: store seen[col[j]] = i @15:17 indirect(col)
// CHECK: update acc[col[j]] @16:17 indirect(col)
// CHECK: for i.2 = 0; i.2 < (i32)(u64)n; i.2 += 1 @18:5
// CHECK-LABEL: kernel grown
// CHECK: call resize @26:5
