// A pull step over an adjacency list as C++ graph codes keep one: each
// node averages its neighbours' values.
#include <cstddef>
#include <vector>

void adj_pull(const std::vector<std::vector<int>> &adj, const std::vector<double> &x,
              std::vector<double> &y)
{
    for (std::size_t u = 0; u < adj.size(); u++) {
        double s = 0;

        for (int v : adj[u])
            s += x[v];
        y[u] = adj[u].empty() ? 0.0 : s / adj[u].size();
    }
}
