# Directed graph: 6 nodes, 8 edges (SNAP style, 0-based ids)
# FromNodeId	ToNodeId
0	1
0	2
1	2
2	0
2	3
3	4
4	5
5	3
