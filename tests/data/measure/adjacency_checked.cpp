// A kernel over an adjacency list (std::vector<std::vector<int>>): augur
// measure builds the vectors row by row from the data; the kernel aborts
// unless every neighbour is a node of the graph.
#include <cstdlib>
#include <vector>

void neighbour_sums(const std::vector<std::vector<int>> &adj, const std::vector<double> &x,
                    std::vector<double> &y)
{
    for (std::size_t u = 0; u < adj.size(); u++) {
        double s = 0;

        for (int v : adj[u]) {
            if (v < 0 || (std::size_t)v >= adj.size())
                abort();
            s += x[v];
        }
        y[u] = s;
    }
}
