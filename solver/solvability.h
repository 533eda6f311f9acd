// solvability: GF(2) elimination (GF(3) under tri), so an unsolvable board never starts a search.
#pragma once

#include <utility>
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

// Under tri: elimination over GF(3), a field, on the squares' D-vectors (each square once: its press's
// four changes), decides whether D is in their span. The vectors are TriBits, added mod 3 plane by plane.
template <class L>
inline TriBits<L> sum_mod_3(const TriBits<L>& x, const TriBits<L>& y) {
    TriBits<L> r;
    for (int i = 0; i < L::kWords; ++i) {
        const uint64_t a1 = x.one.w[i], b1 = x.two.w[i], a2 = y.one.w[i], b2 = y.two.w[i];
        const uint64_t zero1 = ~(a1 | b1), zero2 = ~(a2 | b2);
        r.one.w[i] = (a1 & zero2) | (zero1 & a2) | (b1 & b2);   // 1+0, 0+1, 2+2
        r.two.w[i] = (b1 & zero2) | (zero1 & b2) | (a1 & a2);   // 2+0, 0+2, 1+1
    }
    return r;
}
template <class L>
inline TriBits<L> negated(TriBits<L> x) {
    std::swap(x.one, x.two);
    return x;
}

template <class L>
inline bool solvable(const Lattice<L>& lattice, TriBits<L> d) {
    std::vector<TriBits<L>> basis(L::kLatticePoints);   // basis[p]: lowest point p, value 1 there
    std::vector<bool> has(L::kLatticePoints, false);
    // v minus its multiple of the basis vector at its lowest point, until that point has none.
    auto reduce = [&](TriBits<L>& v) {
        for (int p = v.lowest(); p >= 0; p = v.lowest()) {
            if (!has[p]) return p;
            v = sum_mod_3(v, v.value(p) == 1 ? negated(basis[p]) : basis[p]);
        }
        return -1;
    };
    for (const Move<L>& m : lattice.moves) {
        if (m.times != 1) continue;
        TriBits<L> v;
        v.press(m);
        const int p = reduce(v);
        if (p < 0) continue;
        basis[p] = v.value(p) == 1 ? v : negated(v);
        has[p] = true;
    }
    return reduce(d) < 0;
}

}  // namespace
}  // namespace unflip
