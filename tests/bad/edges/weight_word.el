0 1 0.5
1 2 heavy
