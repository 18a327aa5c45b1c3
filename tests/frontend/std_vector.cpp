// A C++ kernel over std::vector parameters: v[i] is element i of the array
// the vector holds (named as the vector), v.size() a scalar of the kernel
// ("y.size", bound as the loop it bounds says), v.data() the array itself.
#include <cstdint>
#include <vector>

void csr_product(const std::vector<int64_t> &rowptr, const std::vector<int> &col,
                 const std::vector<double> &val, const std::vector<double> &x,
                 std::vector<double> &y)
{
    double *out = y.data();

    for (std::size_t i = 0; i < y.size(); ++i) {
        double s = 0.0;

        for (auto j = rowptr[i]; j < rowptr[i + 1]; ++j)
            s += val[j] * x[col[j]];
        out[i] = s;
    }
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: not bound
// CHECK-NOT: cannot read this operator
// CHECK: param y.size u64 @13:33 bind n (inferred)
// CHECK: array y f64[] global param @11:19 bind vec(n) (inferred)
// CHECK-NEXT: array rowptr i64[] global param @7:18 bind csr.rowptr (inferred)
// CHECK-NEXT: array val f64[] global param @8:18 bind csr.val (inferred)
// CHECK-NEXT: array x f64[] global param @8:50 bind vec(m) (inferred)
// CHECK-NEXT: array col i32[] global param @7:54 bind csr.col (inferred)
// CHECK: for i = (u64)0; i < y.size; i += 1_u64 @13:5
// CHECK-NEXT: load rowptr[i] @16:23
// CHECK-NEXT: load rowptr[i + 1] @16:38
// CHECK-NEXT: for j = rowptr[i]; j < rowptr[i + 1]; j += 1_i64 @16:9
// CHECK: load x[col[j]] @17:27 indirect(col)
// CHECK: store y[i] @18:9
// small.el: 6 rows, 8 entries: rowptr twice a row, val, col and x at each
// entry, y once a row.
// RUN: %augur simulate %s --data %S/../data/graphs/small.el | FileCheck --check-prefix=SIM %s
// SIM: per array:
// SIM: y 6
// SIM-NEXT: rowptr 12
// SIM-NEXT: val 8
// SIM-NEXT: x 8
// SIM-NEXT: col 8
