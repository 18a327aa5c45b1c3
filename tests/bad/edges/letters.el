0 1
src dst
