// solvability: GF(2) elimination, so an unsolvable board never starts a search.
#pragma once

#include <vector>

#include "lattice.h"

namespace unflip {
namespace {

// Boards of 6×6 and smaller are not all solvable: the moves span a proper subspace of the difference
// grids. Elimination over GF(2) decides membership exactly, so the search only ever starts on a board it
// can finish.
template <class L>
inline bool solvable(const Lattice<L>& lattice, Bits<L> d) {
    std::vector<Bits<L>> basis(L::kLatticePoints);
    std::vector<bool> has(L::kLatticePoints, false);
    for (const Move<L>& m : lattice.moves) {
        Bits<L> v = m.bits;
        for (int p = v.lowest(); p >= 0; p = v.lowest()) {
            if (!has[p]) {
                basis[p] = v;
                has[p] = true;
                break;
            }
            v ^= basis[p];
        }
    }
    for (int p = d.lowest(); p >= 0; p = d.lowest()) {
        if (!has[p]) return false;
        d ^= basis[p];
    }
    return true;
}

}  // namespace
}  // namespace unflip
