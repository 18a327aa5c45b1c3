/* Row lengths stored per node, y[v] = row[v + 1] - row[v]: the skeleton
   keeps no stored value, but reading row at v and v + 1 for each node
   makes it the rows' offsets (n + 1 of them), not a degree per node. */
void degrees(unsigned n, const unsigned *row, float *y)
{
    for (unsigned v = 0; v < n; v++)
        y[v] = row[v + 1] - row[v];
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: array row u32[] global param @4:26 bind csr.rowptr (inferred)
