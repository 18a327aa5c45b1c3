#!/usr/bin/env python3
# trace_lru.py - replays an `augur simulate --trace` file through an
# independent, deliberately plain set-associative LRU cache (one level,
# write-allocate), optionally with arrays moved to other addresses, and
# prints the read and write misses. A cross-check of the cache simulator on
# the interpreter's own event stream (docs/validation.md); slow (pure Python).
#
# usage: bench/trace_lru.py TRACE [--size 32768] [--ways 8] [--line 64]
#                           [--place NAME=ADDR,...]
import argparse
import struct
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--size", type=int, default=32768)
    ap.add_argument("--ways", type=int, default=8)
    ap.add_argument("--line", type=int, default=64)
    ap.add_argument("--place", default="")
    a = ap.parse_args()
    data = open(a.trace, "rb").read()
    if data[:8] != b"AUGURTRC":
        sys.exit("trace_lru: not an augur trace")
    hb, rb, narr, nacc, nthr, nev = struct.unpack_from("<IIIIIQ", data, 12)
    off = 40
    (klen,) = struct.unpack_from("<H", data, off)
    off += 2 + klen
    bases, names = [], []
    for _ in range(narr):
        base, extent, esize, nlen = struct.unpack_from("<QQIH", data, off)
        off += 22
        names.append(data[off:off + nlen].decode())
        off += nlen
        bases.append(base)
    delta = [0] * narr
    for item in filter(None, a.place.split(",")):
        name, addr = item.split("=")
        delta[names.index(name)] = int(addr, 0) - bases[names.index(name)]
    nsets = a.size // (a.line * a.ways)
    sets = [[] for _ in range(nsets)]
    rec = struct.Struct("<QIIHHHBB")
    rmiss = wmiss = 0
    for pos in range(hb, hb + rb * nev, rb):
        addr, _node, _warp, _thr, size, arr, _lane, flags = rec.unpack_from(data, pos)
        addr += delta[arr]
        first, last = addr // a.line, (addr + max(size, 1) - 1) // a.line
        for ln in range(first, last + 1):
            s = sets[ln % nsets]
            if ln in s:
                s.remove(ln)
            else:
                if flags & 1:
                    wmiss += 1
                else:
                    rmiss += 1
                if len(s) == a.ways:
                    s.pop()
            s.insert(0, ln)
    print(f"events {nev} read_misses {rmiss} write_misses {wmiss}")


if __name__ == "__main__":
    main()
