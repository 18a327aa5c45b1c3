// An adjacency list, std::vector<std::vector<int>>: the vectors' headers
// are the array adj (24 bytes each), their elements one block adj.pointee,
// row u its start (adj[u]{0}) and length (adj[u]{8}, adj[u].size()), bound
// as the rows of an array of structs; a range-based for over adj[u] and an
// index loop over it read the same row.
#include <cstddef>
#include <vector>

void by_range(const std::vector<std::vector<int>> &adj, const std::vector<double> &x,
              std::vector<double> &y)
{
    for (std::size_t u = 0; u < adj.size(); u++) {
        double s = 0;

        for (int v : adj[u])
            s += x[v];
        y[u] = s;
    }
}

void by_index(const std::vector<std::vector<int>> &adj, std::vector<int> &total)
{
    for (std::size_t u = 0; u < adj.size(); u++)
        for (std::size_t k = 0; k < adj[u].size(); k++)
            total[u] += adj[u][k];
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: not bound
// CHECK-LABEL: kernel by_range
// CHECK: array adj rec(24)[] global param @9:15 bind rec(0:u64:csr.rowptr,8:u64:deg) (inferred)
// CHECK-NEXT: array adj.pointee i32[] global param @15:22 bind csr.col (inferred)
// CHECK: load adj[u]{0 u64} @15:22
// CHECK: for range.k = (i64)adj[u]{0 u64}; range.k < (i64)adj[u]{0 u64} + (i64)adj[u]{8 u64}; range.k += 1_i64 @15:9
// CHECK-NEXT: load adj.pointee[range.k] @15:14
// CHECK: load x[v] @16:18 indirect(adj.pointee)
// CHECK-LABEL: kernel by_index
// CHECK: array adj rec(24)[] global param @21:15 bind rec(0:u64:csr.rowptr,8:u64:deg) (inferred)
// CHECK: for k = (u64)0; k < adj[u]{8 u64}; k += 1_u64 @24:9
// CHECK: load adj.pointee[(i64)adj[u]{0 u64} + k] @25:25 indirect(adj)
