// v.at(i) reads as v[i]; v.size() is the element count of v's target,
// whatever a loop suggests: "row + 1 < rowptr.size()" walks n rows of a
// rowptr of n + 1.
#include <vector>

void rows_at(const std::vector<int> &rowptr, const std::vector<int> &col,
             const std::vector<double> &val, const std::vector<double> &x, std::vector<double> &y)
{
    for (std::size_t row = 0; row + 1 < rowptr.size(); row++) {
        double sum = 0.0;

        for (auto j = rowptr.at(row); j < rowptr.at(row + 1); j++)
            sum += val.at(j) * x.at(col.at(j));
        y.at(row) = sum;
    }
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: not bound
// CHECK: param rowptr.size u64 @9:41 bind n+1 (inferred)
// CHECK: for row = (u64)0; row + 1 < rowptr.size; row += 1_u64 @9:5
// CHECK: load x[col[j]] @13:32 indirect(col)
// CHECK: store y[row] @14:9
