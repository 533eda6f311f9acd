// certificate: the proof that no solution is shorter than the one found, written for a checker that
// shares nothing with the solver (check_certificate.py; docs/certificates.md gives the format).
//
// The proof is the search of the last bound exhausted (budget k − 1 for an optimum k), node by node: a
// branch at a 1-point p lists its children, the moves with a corner at p still allowed there, each one
// excluding those before it; and every node the search pruned is a leaf naming the bound that prunes it,
// which the checker recomputes from the leaf's position: the covering weighting in scope (declared at the
// root, and again wherever the search re-solved the LP, with the parity rows' multipliers where those
// proved it), the pair count, the adjacent-lines count, or a 1-point left with no move to spend. Every
// leaf and every weighting is checked here first, exactly, in integers, so a certificate this file
// writes is one the checker accepts; when a pruned node has no bound the format can state, the solver
// fails instead of writing a certificate that proves nothing.
#pragma once

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "errors.h"
#include "board_input.h"
#include "lattice.h"
#include "line_costs.h"
#include "cover_lp.h"
#include "bounds.h"

namespace unflip {
namespace {

// The certificate could not be made: a pruned node without a bound it can state, a file that cannot be
// written. What() says which; the solver exits "failed".
class CertificateFailed : public Failed {
public:
    explicit CertificateFailed(const std::string& why) : Failed(why) {}
};

// Version 2 adds the certificate of a board no target is reachable on ("claim unsolvable"); the form of
// every other certificate is version 1's.
constexpr int kCertificateVersion = 2;
// The certificate's search re-solves the LP at a node once its subtree has taken this many nodes (or
// sooner, as --lp-after asks): on random 11×11 boards its tree is then 9× smaller than at the search's
// default of 2,000 and 20× faster to check, for about the same time to write (docs/certificates.md).
constexpr int kCertificateLpAfter = 20;
// The certificate's search is split this many decisions below the root into pieces for the threads
// (Driver::certify_in_pieces); above them it re-solves the LP after each node's first child. 0 is one
// piece, the whole tree.
constexpr int kCertificateSplitDepth = 2;

// A weighting as the certificate states it, in units of 1/kWeightScale: a weight per lattice point and
// the multipliers of parity rows (cut: Σ_{moves at q but m} x − x_m ≥ −D_q, valid for any set of moves).
template <class L>
struct Weighting {
    static constexpr int kLatticePoints = L::kLatticePoints;
    struct Cut {
        typename L::Point point;
        uint16_t move;
        int64_t times;
    };
    std::array<int64_t, kLatticePoints> point{};
    std::vector<Cut> cuts;

    bool operator==(const Weighting& o) const {
        if (point != o.point || cuts.size() != o.cuts.size()) return false;
        for (size_t k = 0; k < cuts.size(); ++k)
            if (cuts[k].point != o.cuts[k].point || cuts[k].move != o.cuts[k].move || cuts[k].times != o.cuts[k].times)
                return false;
        return true;
    }
    // What a 1-point is worth to the bound: its weight, less the multipliers of the cuts at it.
    std::array<int64_t, kLatticePoints> worth() const {
        std::array<int64_t, kLatticePoints> w = point;
        for (const Cut& cut : cuts) w[cut.point] -= cut.times;
        return w;
    }
};

template <class L>
class Certifier {
    using Bits = unflip::Bits<L>;
    using Move = unflip::Move<L>;
    using Lattice = unflip::Lattice<L>;
    using Node = unflip::Node<L>;
    using Weighting = unflip::Weighting<L>;
    using CoverBound = unflip::CoverBound<L>;
    using CoverLp = unflip::CoverLp<L>;
    static constexpr int kStride = L::kStride, kLatticePoints = L::kLatticePoints;

public:
    // A piece of the tree, written by a worker into its own text for the whole certificate to place
    // where its hole is (hole(), fill()); it starts in the scope of the certificate it is part of.
    Certifier(const Certifier& whole, int piece)
        : lattice_(whole.lattice_), costs_(whole.costs_), slot_(whole.slot_), scope_{whole.hole_scopes_[piece]},
          worth_(scope_.back().worth()) {}

    Certifier(const Lattice& lattice, const LineCosts<L>& costs, const std::string& path)
        : lattice_(lattice), costs_(costs), path_(path), partial_(path + ".partial"), slot_(lattice.moves.size()) {
        for (int p = 0; p < kLatticePoints; ++p)
            for (size_t k = 0; k < lattice.at[p].size(); ++k) {
                const Move& m = lattice.moves[lattice.at[p][k]];
                for (int c = 0; c < 4; ++c)
                    if (m.corner[c] == p) slot_[lattice.at[p][k]][c] = static_cast<uint8_t>(k);
            }
        file_ = std::fopen(partial_.c_str(), "wb");
        if (!file_) throw CertificateFailed("cannot write the certificate '" + path + "'");
        scope_.emplace_back();
        worth_ = scope_.back().worth();
    }
    ~Certifier() {
        if (file_) {
            std::fclose(file_);
            std::remove(partial_.c_str());
        }
    }
    Certifier(const Certifier&) = delete;
    Certifier& operator=(const Certifier&) = delete;

    // The board, the target (0, 1, or 2 for either), the solution found and the claim it is optimal.
    void header(const Board& board, int target, int solution_target, const std::vector<uint16_t>& moves) {
        board_header(board, target);
        text_ += "solution " + std::to_string(solution_target) + " " + std::to_string(moves.size()) + "\n";
        for (uint16_t index : moves) {
            const Move& m = lattice_.moves[index];
            text_ += std::to_string(m.row) + " " + std::to_string(m.col) + " " + std::to_string(m.size) + "\n";
        }
        text_ += "claim " + std::to_string(moves.size()) + "\n";
        text_ += "denominator " + std::to_string(kWeightScale) + "\n";
    }
    // The board and target, and the claim that no set of moves reaches the target (or either): each
    // target's proof is then one unreachable() set.
    void unsolvable_header(const Board& board, int target) {
        board_header(board, target);
        text_ += "claim unsolvable\n";
    }

    // The proof for one target that no solution has `budget` moves or fewer; its tree follows.
    void begin_proof(int target) {
        text_ += "proof " + std::to_string(target) + "\n";
        scope_.assign(1, Weighting{});
        worth_ = scope_.back().worth();
    }

    // A weighting declared at the node about to be written, for the moves `blocked` does not mark.
    void declare(const Weighting& weighting, const uint8_t* blocked) {
        check_feasible(weighting, blocked);
        const Weighting& before = scope_.back();
        std::string changes;
        int changed = 0;
        for (int p = 0; p < kLatticePoints; ++p)
            if (weighting.point[p] != before.point[p]) {
                ++changed;
                changes += " " + std::to_string(file_point(p)) + " " + std::to_string(weighting.point[p]);
            }
        text_ += "w " + std::to_string(changed) + changes + " " + std::to_string(weighting.cuts.size());
        for (const typename Weighting::Cut& cut : weighting.cuts)
            text_ += " " + std::to_string(file_point(cut.point)) + " " + std::to_string(slot_of(cut.move, cut.point)) +
                     " " + std::to_string(cut.times);
        text_ += "\n";
        scope_.push_back(weighting);
        worth_ = weighting.worth();
    }
    // The covering bound's weights as a weighting.
    static Weighting covering(const CoverWeights<L>& weights) {
        Weighting w;
        std::copy(std::begin(weights.of), std::end(weights.of), w.point.begin());
        return w;
    }
    // An LP's exact duals as a weighting.
    static Weighting from_duals(const typename CoverLp::ExactDuals& duals) {
        Weighting w;
        std::copy(std::begin(duals.point), std::end(duals.point), w.point.begin());
        for (int k = 0; k < duals.cuts; ++k)
            if (duals.cut[k] > 0) w.cuts.push_back({duals.cut_point[k], duals.cut_move[k], duals.cut[k]});
        return w;
    }

    // A target no set of moves reaches: 'U' and a set of points that every move has an even number of
    // corners in, and d's 1-points an odd number. It is found by elimination over GF(2): with each point
    // a variable, the moves' rows say 0 and d's says 1, and d outside the moves' span makes that solvable.
    void unreachable(const Bits& d) {
        Bits basis[kLatticePoints];
        int says[kLatticePoints] = {};
        bool has[kLatticePoints] = {};
        auto add = [&](Bits row, int rhs) {
            for (int p = row.lowest(); p >= 0; p = row.lowest()) {
                if (!has[p]) {
                    basis[p] = row;
                    says[p] = rhs;
                    has[p] = true;
                    return true;
                }
                row ^= basis[p];
                rhs ^= says[p];
            }
            return rhs == 0;
        };
        for (const Move& m : lattice_.moves) add(m.bits, 0);
        if (!add(d, 1)) throw CertificateFailed("the target is reachable, so it has no proof it is not");
        // Each basis row's lowest point is its own, and its others come after it: solve from the last.
        Bits witness;
        for (int p = kLatticePoints - 1; p >= 0; --p) {
            if (!has[p]) continue;
            int parity = says[p];
            for (int q = p + 1; q < kLatticePoints; ++q) parity ^= basis[p].test(q) & witness.test(q);
            if (parity) witness.flip(p);
        }
        std::string points;
        int count = 0, odd = 0;
        for (int p = 0; p < kLatticePoints; ++p)
            if (witness.test(p)) {
                ++count;
                odd ^= d.test(p);
                points += " " + std::to_string(file_point(p));
            }
        for (const Move& m : lattice_.moves) {
            int even = 0;
            for (int p : m.corner) even ^= witness.test(p);
            if (even) throw CertificateFailed("a proof of an unreachable target came out wrong");
        }
        if (!odd) throw CertificateFailed("a proof of an unreachable target came out wrong");
        text_ += "U " + std::to_string(count) + points + "\n";
    }

    // A node the search pruned: the first bound that shows d needs more than `budget` moves.
    void leaf(const Bits& d, int budget) {
        const char kind = proof_of(d, budget, worth_);
        if (!kind) throw CertificateFailed("a node the search pruned has no bound a certificate can state");
        text_ += kind;
        text_ += '\n';
        flush_if_full();
    }
    // Whether the weighting proves that d needs more than `budget` moves.
    static bool proves(const std::array<int64_t, kLatticePoints>& worth, const Bits& d, int budget) {
        int64_t total = 0;
        d.for_each([&](int p) { total += worth[p]; });
        return total > static_cast<int64_t>(kWeightScale) * budget;
    }

    // The search branches at p with d needing at most `budget` more moves, over `children` moves: the
    // `refuted` ones first, each pruned by a bound.
    void branch(int p, const Bits& d, int budget, int children, const uint16_t* refuted, int refuted_count) {
        if (p < 0) throw CertificateFailed("a certificate's search was handed branches without their node");
        text_ += "B " + std::to_string(file_point(p)) + "\n";
        branches_.push_back(Branch{p, children, 0, false, false});
        for (int k = 0; k < refuted_count; ++k) this->refuted(refuted[k], d, budget);
    }
    // A child that a bound prunes without entering it; d is its parent's.
    void refuted(uint16_t index, Bits d, int budget) {
        child(index);
        d ^= lattice_.moves[index].bits;
        leaf(d, budget - 1);
    }
    // A child the search enters: its node comes next.
    void child(uint16_t index) {
        Branch& branch = branches_.back();
        ++branch.written;
        text_ += std::to_string(slot_of(index, branch.point));
        text_ += ' ';
    }

    // The search re-solved the LP at the branch's node (the children so far excluded). A new weighting
    // starts a tail: the node again, with its weighting, branching at the same point for the children
    // still to come; a refuted node is a tail leaf, by the new weighting or the parity rows' duals.
    template <typename Bounds>
    void refined(Bounds& bounds, const Node& here, int budget, bool refuted_here) {
        CoverBound* cover = bounds.template find<CoverBound>();
        if (!cover) {
            if (refuted_here) throw CertificateFailed("a bound refuted a node in a way a certificate cannot state");
            return;
        }
        Branch& branch = branches_.back();
        const Weighting now = covering(cover->weights());
        const bool changed = !(now == scope_.back());
        if (!refuted_here) {
            if (!changed) return;
            text_ += "T ";
            declare(now, here.blocked);
            text_ += "B " + std::to_string(file_point(branch.point)) + "\n";
            branch.declared = true;
            return;
        }
        text_ += "T ";
        branch.closed = true;
        if (!proof_of(here.d, budget, worth_)) {
            Weighting proof = now;
            if (!changed || !proves(now.worth(), here.d, budget)) {
                typename CoverLp::ExactDuals duals;
                cover->parity_duals(budget, duals);
                proof = from_duals(duals);
            }
            declare(proof, here.blocked);
            branch.declared = true;
        }
        leaf(here.d, budget);
    }

    void end_branch() {
        const Branch& branch = branches_.back();
        if (!branch.closed && branch.written != branch.children)
            throw CertificateFailed("a branch of the search left out a move at its point");
        if (!branch.closed) text_ += "E\n";
        if (branch.declared) pop();
        branches_.pop_back();
        flush_if_full();
    }

    // The search goes on elsewhere from here (a piece); its text comes in fill().
    void hole() {
        holes_.push_back(std::move(text_));
        text_.clear();
        hole_scopes_.push_back(scope_.back());
    }
    // Each hole's piece, in the order of the holes: the text is then whole up to where it is now.
    void fill(std::vector<std::string>& pieces) {
        if (pieces.size() != holes_.size()) throw CertificateFailed("a piece of the certificate is missing");
        std::string tail = std::move(text_);
        for (size_t k = 0; k < holes_.size(); ++k) {
            text_ = std::move(holes_[k]);
            flush();
            text_ = std::move(pieces[k]);
            flush();
        }
        holes_.clear();
        hole_scopes_.clear();
        text_ = std::move(tail);
    }
    // A piece's text, once its subtree is written.
    std::string take() { return std::move(text_); }

    // The whole certificate is written: give it its name.
    void finish() {
        text_ += "end\n";
        flush();
        const bool written = std::fflush(file_) == 0 && !std::ferror(file_);
        const bool closed = std::fclose(file_) == 0;
        file_ = nullptr;
        if (!written || !closed || std::rename(partial_.c_str(), path_.c_str()) != 0) {
            std::remove(partial_.c_str());
            throw CertificateFailed("cannot write the certificate '" + path_ + "'");
        }
    }

    // The first bound, in the order the checker reads them cheapest first, that shows d needs more than
    // `budget` moves: 'O' (a 1-point left and no move to spend), 'W' (the weighting in scope), 'P' (the
    // pair count), 'L' (two adjacent lines); 0 when none does.
    char proof_of(const Bits& d, int budget, const std::array<int64_t, kLatticePoints>& worth) const {
        if (d.empty()) throw CertificateFailed("the search pruned a position that is solved");
        if (budget <= 0) return 'O';
        if (proves(worth, d, budget)) return 'W';
        int row[kStride + 1] = {}, column[kStride + 1] = {};
        unsigned column_mask[kStride] = {};
        int rows = 0, columns = 0;
        for (int i = 0; i <= lattice_.h; ++i) {
            const unsigned mask = d.line(i);
            for (int j = 0; j <= lattice_.w; ++j)
                if (mask >> j & 1) column_mask[j] |= 1u << i;
            row[i] = line_cost(costs_.of_row[i], mask);
            rows += row[i];
        }
        for (int j = 0; j <= lattice_.w; ++j) {
            column[j] = line_cost(costs_.of_column[j], column_mask[j]);
            columns += column[j];
        }
        if (std::max((rows + 1) / 2, (columns + 1) / 2) > budget) return 'P';
        for (int i = 0; i < kStride; ++i)
            if (row[i] + row[i + 1] > budget || column[i] + column[i + 1] > budget) return 'L';
        return 0;
    }

private:
    void board_header(const Board& board, int target) {
        text_ += "unflip-certificate " + std::to_string(kCertificateVersion) + "\n";
        text_ += "board " + std::to_string(lattice_.h) + " " + std::to_string(lattice_.w) + "\n";
        for (const auto& row : board) {
            for (uint8_t tile : row) text_ += static_cast<char>('0' + tile);
            text_ += "\n";
        }
        text_ += "target " + (target == 2 ? std::string("either") : std::to_string(target)) + "\n";
    }

    struct Branch {
        int point;
        int children, written;   // the moves allowed at the point, and the children written so far
        bool declared;   // a weighting was declared in it (a tail), to be dropped when it ends
        bool closed;     // a tail leaf ended it, not 'E'
    };

    void pop() {
        scope_.pop_back();
        worth_ = scope_.back().worth();
    }

    // Every move still allowed loads its corners (and the parity rows it is in) with at most one whole.
    void check_feasible(const Weighting& weighting, const uint8_t* blocked) const {
        std::vector<int64_t> load(lattice_.moves.size(), 0);
        for (size_t index = 0; index < lattice_.moves.size(); ++index)
            for (int p : lattice_.moves[index].corner) load[index] += weighting.point[p];
        for (const typename Weighting::Cut& cut : weighting.cuts) {
            if (cut.times < 0) throw CertificateFailed("a parity multiplier is negative");
            for (uint16_t index : lattice_.at[cut.point]) load[index] += index == cut.move ? -cut.times : cut.times;
        }
        for (size_t index = 0; index < lattice_.moves.size(); ++index)
            if (!blocked[index] && load[index] > kWeightScale)
                throw CertificateFailed("a weighting overloads a move the node may use");
        for (int64_t w : weighting.point)
            if (w < 0) throw CertificateFailed("a point weight is negative");
    }

    int file_point(int p) const { return (p / kStride) * (lattice_.w + 1) + p % kStride; }
    int slot_of(uint16_t index, int p) const {
        const Move& m = lattice_.moves[index];
        for (int c = 0; c < 4; ++c)
            if (m.corner[c] == p) return slot_[index][c];
        throw CertificateFailed("a child's move has no corner at its branch point");
    }

    // (Text after a hole waits for the hole's piece; a piece's text is all kept, for fill().)
    void flush_if_full() {
        if (file_ && holes_.empty() && text_.size() >= (1u << 20)) flush();
    }
    void flush() {
        if (std::fwrite(text_.data(), 1, text_.size(), file_) != text_.size())
            throw CertificateFailed("cannot write the certificate '" + path_ + "'");
        text_.clear();
    }

    const Lattice& lattice_;
    const LineCosts<L>& costs_;
    std::string path_, partial_;
    std::FILE* file_ = nullptr;
    std::string text_;
    std::vector<std::string> holes_;                   // the text before each hole not yet filled
    std::vector<Weighting> hole_scopes_;               // the weighting in scope at each
    std::vector<std::array<uint8_t, 4>> slot_;        // per move and corner: its place among the corner's moves
    std::vector<Weighting> scope_;                     // the weightings in scope, innermost last
    std::array<int64_t, kLatticePoints> worth_{};      // scope_.back().worth()
    std::vector<Branch> branches_;
};

}  // namespace
}  // namespace unflip
