// bounds: the search's lower bounds on the moves a position still needs, each one class behind one small
// interface, so the search holds them without knowing their insides and a new bound is its class here
// and its line in bounds.def (docs/bounds.md works an example through).
//
// The interface, which every bound implements (BoundDefaults supplies what a bound may leave out):
//   struct Root                          what the bound computes once per root, before any search;
//   static Root prepare(context, d)      shared read-only by every worker
//   static int proven_at_root(root)      what the root's preparation proves beyond value() at the root
//   explicit Bound(context)              one per worker, built once and reset for each task
//   void reset(d, root)                  a task's search starts at the root, d its difference grid
//   void apply(move, d) / undo(move, d)  the search makes or takes back a move; d is the position after
//   int value(d, budget)                 moves d still needs at least; may stop counting above budget
//   bool refutes(move, d, budget)        the child `move` leads to needs more than budget moves, decided
//                                        without making the move (from its four corners)
// and, for a bound that can prove more at a node whose subtree has grown big (kRefines = true):
//   bool refinement_due(subtree_nodes, budget, estimated_work)
//                                        the node's subtree has taken this many nodes so far, it has budget
//                                        moves left, and the work estimate weighed its children at this
//                                        much on entry (0: not estimated)
//   int refine(node, budget)             prove more here (the children still to come are re-checked
//                                        with refutes); returns what the bound now proves for the node
//   void leave(node)                     back to what the bound was before refine at this node
// and, for a bound that works at every node it enters (kTightens = true):
//   int tighten(node, budget)            on entering the node, before its branches: what the bound proves
//                                        for it (the children are then checked with refutes)
//   void loosen(node)                    on leaving it: back to what the bound was before tighten
// Every bound must stay admissible: a value or a refutation that overstates loses optimality.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <vector>

#include "lattice.h"
#include "line_costs.h"
#include "cover_lp.h"
#include "lagrangian.h"
#include "switches.h"

namespace unflip {
namespace {

// What a bound may read for as long as it lives: the board's lattice, the line cost tables, the switches.
template <class L>
struct BoundContext {
    const Lattice<L>& lattice;
    const LineCosts<L>& costs;
    const Switches& sw;
};

// A search node as a bound that refines sees it.
template <class L>
struct Node {
    const Grid<L>& d;              // its difference grid
    const uint8_t* blocked;     // per move: 1 when the node may not use it (on the path, or excluded); under
                                // tri, per (square, times) entry
    size_t depth;               // moves from the root
};

// The interface's optional parts, doing nothing; a bound derives from it and hides what it implements.
// (Its parts take any layout's context, move, grid and node.)
struct BoundDefaults {
    struct Root {};
    template <class Context, class Grid>
    static Root prepare(const Context&, const Grid&) { return {}; }
    static int proven_at_root(const Root&) { return 0; }
    template <class AnyMove, class Grid>
    bool refutes(const AnyMove&, const Grid&, int) const { return false; }
    static constexpr bool kRefines = false;
    bool refinement_due(uint64_t, int, float) const { return false; }
    template <class AnyNode>
    int refine(const AnyNode&, int) { return 0; }
    template <class AnyNode>
    void leave(const AnyNode&) {}
    static constexpr bool kTightens = false;
    template <class AnyNode>
    int tighten(const AnyNode&, int) { return 0; }
    template <class AnyNode>
    void loosen(const AnyNode&) {}
};

// The lattice's rows and columns as line masks (bit j of row i is point (i, j); bit i of column j too) and
// each line's cost, kept beside the search's d because the line costs are looked up by them on every move.
template <class L>
class LineState {
    using Grid = unflip::Grid<L>;
    using Move = unflip::Move<L>;
    using LineMask = typename L::LineMask;
    static constexpr int kStride = L::kStride;

public:
    explicit LineState(const BoundContext<L>& context) : h_(context.lattice.h), w_(context.lattice.w) {
        // Hot-path copies of the line cost tables, one indirection closer.
        std::copy(context.costs.of_row.begin(), context.costs.of_row.end(), row_line_cost_);
        std::copy(context.costs.of_column.begin(), context.costs.of_column.end(), column_line_cost_);
    }

    void reset(const Grid& d) {
        row_sum_ = col_sum_ = 0;
        std::fill(std::begin(row_mask_), std::end(row_mask_), 0);
        std::fill(std::begin(col_mask_), std::end(col_mask_), 0);
        std::fill(std::begin(row_cost_), std::end(row_cost_), 0);
        std::fill(std::begin(col_cost_), std::end(col_cost_), 0);
        for (int i = 0; i <= h_; ++i)
            for (int j = 0; j <= w_; ++j)
                if (d.test(point<L>(i, j))) {
                    row_mask_[i] |= static_cast<LineMask>(LineMask{1} << j);
                    col_mask_[j] |= static_cast<LineMask>(LineMask{1} << i);
                }
        for (int i = 0; i <= h_; ++i) {
            row_cost_[i] = static_cast<uint8_t>(line_cost(row_line_cost_[i], row_mask_[i]));
            row_sum_ += row_cost_[i];
        }
        for (int j = 0; j <= w_; ++j) {
            col_cost_[j] = static_cast<uint8_t>(line_cost(column_line_cost_[j], col_mask_[j]));
            col_sum_ += col_cost_[j];
        }
    }

    // A move toggles the same pairs whether it is made or taken back.
    void toggle(const Move& m) {
        for (int i : {int(m.row), m.row + m.size}) {
            row_mask_[i] ^= m.row_pair;
            const int cost = line_cost(row_line_cost_[i], row_mask_[i]);
            row_sum_ += cost - row_cost_[i];
            row_cost_[i] = static_cast<uint8_t>(cost);
        }
        for (int j : {int(m.col), m.col + m.size}) {
            col_mask_[j] ^= m.column_pair;
            const int cost = line_cost(column_line_cost_[j], col_mask_[j]);
            col_sum_ += cost - col_cost_[j];
            col_cost_[j] = static_cast<uint8_t>(cost);
        }
    }

    // The row and column cost sums after `m`, from the four lines it changes.
    int row_sum_after(const Move& m) const {
        int rows = row_sum_;
        for (int i : {int(m.row), m.row + m.size})
            rows += line_cost(row_line_cost_[i], row_mask_[i] ^ m.row_pair) - row_cost_[i];
        return rows;
    }
    int col_sum_after(const Move& m) const {
        int columns = col_sum_;
        for (int j : {int(m.col), m.col + m.size})
            columns += line_cost(column_line_cost_[j], col_mask_[j] ^ m.column_pair) - col_cost_[j];
        return columns;
    }

    int h() const { return h_; }
    int w() const { return w_; }
    int row_sum() const { return row_sum_; }
    int col_sum() const { return col_sum_; }
    int row_cost(int i) const { return row_cost_[i]; }   // 0 past the edge
    int col_cost(int j) const { return col_cost_[j]; }

private:
    int h_, w_;
    LineMask row_mask_[kStride] = {}, col_mask_[kStride] = {};
    uint8_t row_cost_[kStride] = {}, col_cost_[kStride] = {};
    int row_sum_ = 0, col_sum_ = 0;
    LineTable<L> row_line_cost_[kStride] = {};
    LineTable<L> column_line_cost_[kStride] = {};
};

// A move puts one pair into each of two rows and two columns, so the rows' costs need at least half their
// sum in moves, and so do the columns': ceil(sum of row costs / 2), ceil(sum of column costs / 2).
template <class L>
class PairBound : public BoundDefaults {
    using Grid = unflip::Grid<L>;
    using Move = unflip::Move<L>;

public:
    explicit PairBound(const BoundContext<L>& context) : lines_(context) {}
    void reset(const Grid& d, const Root&) { lines_.reset(d); }
    void apply(const Move& m, const Grid&) { lines_.toggle(m); }
    void undo(const Move& m, const Grid&) { lines_.toggle(m); }
    int value(const Grid&, int) const { return std::max((lines_.row_sum() + 1) / 2, (lines_.col_sum() + 1) / 2); }
    // Most children fail it, and turning them away here is much cheaper than entering them.
    bool refutes(const Move& m, const Grid&, int budget) const {
        return std::max((lines_.row_sum_after(m) + 1) / 2, (lines_.col_sum_after(m) + 1) / 2) > budget;
    }

private:
    LineState<L> lines_;
};

// A move's two rows are k ≥ 2 apart, so no move serves two adjacent rows: their costs add up. (The same
// holds for columns; it subsumes the largest single line cost.)
template <class L>
class LineBound : public BoundDefaults {
    using Grid = unflip::Grid<L>;
    using Move = unflip::Move<L>;

public:
    explicit LineBound(const BoundContext<L>& context) : lines_(context) {}
    void reset(const Grid& d, const Root&) { lines_.reset(d); }
    void apply(const Move& m, const Grid&) { lines_.toggle(m); }
    void undo(const Move& m, const Grid&) { lines_.toggle(m); }
    int value(const Grid&, int budget) const {
        int h = 0;
        for (int i = 0; i < std::max(lines_.h(), lines_.w()) && h <= budget; ++i)
            h = std::max({h, lines_.row_cost(i) + lines_.row_cost(i + 1), lines_.col_cost(i) + lines_.col_cost(i + 1)});
        return h;
    }

private:
    LineState<L> lines_;
};

// The work estimate: a child's subtree grows about 2^kEstimateLog2Base (16) times with each move its bound
// leaves spare, and an estimate stops growing past kEstimateSpareCap spare moves.
constexpr float kEstimateLog2Base = 4;
constexpr float kEstimateSpareCap = 40;
// The estimate's per-point arrays reach this far: a row of moves is taken kStride at a time, so its
// last lanes read and write past the lattice row (into nothing, or the row below), never past this.
template <class L>
constexpr int kEstimatePoints = L::kLatticePoints + 2 * L::kStride;

// The covering LP's weighting of the 1-points (cover_lp.h), solved at the root, and again at a node whose
// subtree has taken --lp-after nodes, warm from the LP last solved above it; beside it, the same LP's
// duals with its parity rows folded in (CoverLp::parity_weights), the larger sum counting. A move changes
// each weighted sum by its four corners' weights, so a child is decided from them without making the move.
template <class L>
class CoverBound : public BoundDefaults {
    using Grid = unflip::Grid<L>;
    using Move = unflip::Move<L>;
    using Lattice = unflip::Lattice<L>;
    using BoundContext = unflip::BoundContext<L>;
    using Node = unflip::Node<L>;
    // The LP and its weights work on the squares once each (the layout's own moves for two colours): under
    // tri too they only ask which points still differ. Every nonzero point needs some pressed square with
    // a corner there, so weak duality gives Σ x ≥ Σ of the weights of the nonzero points (design section 2).
    using Plain = typename L::Plain;
    using CoverWeights = unflip::CoverWeights<Plain>;
    using CoverLp = unflip::CoverLp<Plain>;
    static constexpr int kStride = L::kStride, kLatticePoints = L::kLatticePoints, kMaxSide = L::kMaxSide;
    static constexpr int kEstimatePoints = unflip::kEstimatePoints<L>;

public:
    struct Root {
        CoverWeights weights;   // all zero without the covering bound
        CoverWeights parity_weights;   // the root's LP with its parity rows, as weights (the covering
                                       // ones with --no-parity-weights)
        typename CoverLp::State lp;   // the covering LP solved at the root
        int lp_bound = 0;       // the fewest moves the root's LP proves, parity rows included
    };

    static Root prepare(const BoundContext& context, const Grid& d) {
        Root root;
        CoverLp lp(context.lattice.plain());
        lp.update_by_pivot(context.sw.lp_updates);
        lp.repair_rounding(context.sw.dual_repair);
        lp.start_cold(d.nonzero());
        lp.solve(kUnbounded);
        lp.weights(root.weights);
        lp.save(root.lp);
        // The parity rows tighten the root's bound, and their duals, folded into point weights, bound the
        // search below it too; the LP the search re-solves starts from the covering LP alone.
        lp.solve(kUnbounded, context.sw.parity_rounds);
        root.lp_bound = lp.proven_moves();
        if (!context.sw.parity_weights || !lp.parity_weights(root.parity_weights)) root.parity_weights = root.weights;
        return root;
    }
    static int proven_at_root(const Root& root) { return root.lp_bound; }

    explicit CoverBound(const BoundContext& context)
        : lattice_(context.lattice), sw_(context.sw), squares_blocked_(L::kTri ? context.lattice.plain().moves.size() : 0) {
        for (size_t index = 0; index < lattice_.moves.size(); ++index) {
            const Move& m = lattice_.moves[index];
            if (m.col == 0)
                move_rows_.push_back({m.size, static_cast<int>(index), m.corner[0], lattice_.w - m.size + 1});
        }
    }

    void reset(const Grid& d, const Root& root) {
        weight_ = root.weights;
        sum_ = weight_.sum(d.nonzero());
        if (sw_.parity_weights) {
            parity_weight_ = root.parity_weights;
            parity_sum_ = parity_weight_.sum(d.nonzero());
        }
        root_lp_ = &root.lp;
        lp_current_ = false;
        held_ = false;
        for (Tightened& tightened : tightened_) tightened.ran = false;
        lay_steps(d);
    }

    // The move's 1-corners lose their weight, its 0-corners gain theirs: the same whether it is made or
    // taken back, with d the position after. (Under tri, a corner's weight counts while it is nonzero:
    // see tri_change; the parity weights and the work estimate's steps are off there.)
    void apply(const Move& m, const Grid& d) {
        if constexpr (L::kTri) {
            sum_ -= tri_change(m, d, false);   // d is after the press: what going back would change, undone
            return;
        }
        for (int p : m.corner) sum_ += d.test(p) ? weight_.of[p] : -weight_.of[p];
        if (sw_.parity_weights)
            for (int p : m.corner) parity_sum_ += d.test(p) ? parity_weight_.of[p] : -parity_weight_.of[p];
        if (held_)
            for (int p : m.corner) held_sum_ += d.test(p) ? held_weight_.of[p] : -held_weight_.of[p];
        for (int p : m.corner) {
            step_[p] = -step_[p];
            parity_step_[p] = -parity_step_[p];
        }
    }
    void undo(const Move& m, const Grid& d) {
        if constexpr (L::kTri) sum_ -= tri_change(m, d, true);   // d is before the press
        else apply(m, d);
    }

    int value(const Grid&, int) const { return CoverWeights::moves_for(strongest_sum()); }

    bool refutes(const Move& m, const Grid& d, int budget) const {
        if constexpr (L::kTri) return CoverWeights::moves_for(sum_ + tri_change(m, d, true)) > budget;
        int64_t sum = sum_;
        for (int p : m.corner) sum += d.test(p) ? -weight_.of[p] : weight_.of[p];
        if (CoverWeights::moves_for(sum) > budget) return true;
        if (sw_.parity_weights) {
            int64_t parity_sum = parity_sum_;
            for (int p : m.corner) parity_sum += d.test(p) ? -parity_weight_.of[p] : parity_weight_.of[p];
            if (CoverWeights::moves_for(parity_sum) > budget) return true;
        }
        if (!held_) return false;
        int64_t held_sum = held_sum_;
        for (int p : m.corner) held_sum += d.test(p) ? -held_weight_.of[p] : held_weight_.of[p];
        return CoverWeights::moves_for(held_sum) > budget;
    }

    // The work estimate (Search::branch_point): per 1-point q of d, the children at q that the weights let
    // through, each weighed by 2^(kEstimateLog2Base · (budget − 1 − its bound, unrounded)), into work[q]
    // (0 where q has none: a dead end; what lands on 0-points is no estimate). A child's subtree grows
    // about geometrically with the moves its bound leaves spare, so work[q] is about what branching at q
    // costs. Only the branch point follows from it, so floats do: a poor estimate costs nodes, never an
    // answer. `blocked` must hold kStride bytes past the last move.
    //
    // Vectorised in two passes. First each move's estimate, by its top-left point, a row of one size a
    // vector at a time: its corners' steps are four shifted loads. Then each point's sum, a vector of
    // points at a time: the moves with a corner there are four shifted loads of each size's estimates.
    // (Adding each move's estimate into its corners instead stores to overlapping places, and the loads
    // that follow wait on those stores: 3/4 of the time, measured.)
    void estimate_work(const uint8_t* blocked, int budget, float* work) {
        const float spare = static_cast<float>(budget - 1 - static_cast<double>(sum_) / kWeightScale);
        const float parity_spare =
            sw_.parity_weights ? static_cast<float>(budget - 1 - static_cast<double>(parity_sum_) / kWeightScale) : spare;
        const Floats zero = {}, exponent_bias = zero + 127.0f, mantissa = zero + static_cast<float>(1 << 23),
                     cap = zero + kEstimateSpareCap, per_move = zero + kEstimateLog2Base,
                     spare_lanes = zero + spare, parity_spare_lanes = zero + parity_spare;
        Ints lane;
        for (int i = 0; i < kLanes; ++i) lane[i] = i;
        Floats part;
        for (const MoveRow& row : move_rows_)
            for (int piece = 0; piece < row.moves; piece += kLanes) {
                const int k = row.size, at = row.point + piece;
                Floats cover = zero, parity = zero;
                for (int offset : {0, k, kStride * k, (kStride + 1) * k}) {
                    std::memcpy(&part, &step_[at + offset], sizeof part);
                    cover += part;
                    std::memcpy(&part, &parity_step_[at + offset], sizeof part);
                    parity += part;
                }
                cover = spare_lanes - cover;
                parity = parity_spare_lanes - parity;
                Floats left = cover < parity ? cover : parity;
                Bytes closed;
                std::memcpy(&closed, &blocked[row.first + piece], sizeof closed);
                const Ints open = __builtin_convertvector(__builtin_convertvector(closed, Shorts), Ints) == 0;
                const Ints live = (lane < row.moves - piece) & open & (left >= zero);
                left = left < cap ? left : cap;
                // 2^x by its bits: x's whole part the exponent field, its fraction the mantissa (exact at
                // whole x, linear between, within 6%).
                const Ints bits = __builtin_convertvector((left * per_move + exponent_bias) * mantissa, Ints);
                const Floats estimate = live ? (Floats)bits : zero;
                std::memcpy(&by_top_left_[k][kLead + at], &estimate, sizeof estimate);
            }
        // Lattice row r holds the top corners of the moves of size k ≤ h − r and the bottom corners of
        // those of size k ≤ r: the other loads would add only zeros, so they are left out (in the same
        // order otherwise, so the sums are the same to the bit).
        const int sizes = std::min(lattice_.h, lattice_.w);
        auto add = [&](Floats& total, int k, int q, int first_offset, int second_offset) {
            for (int offset : {first_offset, second_offset}) {
                std::memcpy(&part, &by_top_left_[k][kLead + q - offset], sizeof part);
                total += part;
            }
        };
        for (int r = 0; r <= lattice_.h; ++r) {
            const int tops = std::min(sizes, lattice_.h - r), bottoms = std::min(sizes, r);
            for (int q = r * kStride; q <= point<L>(r, lattice_.w); q += kLanes) {
                Floats total = zero;
                int k = 2;
                for (; k <= std::min(tops, bottoms); ++k) {
                    add(total, k, q, 0, k);
                    add(total, k, q, kStride * k, (kStride + 1) * k);
                }
                for (; k <= tops; ++k) add(total, k, q, 0, k);
                for (; k <= bottoms; ++k) add(total, k, q, kStride * k, (kStride + 1) * k);
                std::memcpy(&work[q], &total, sizeof total);
            }
        }
    }

    static constexpr bool kRefines = true;

    // Once the subtree has proved big, or on entry where the estimate foresees much work far from the
    // leaves: waiting for the subtree to prove big searches that much of it with the inherited weights,
    // and the LP refutes many such nodes in a few pivots; nearer the leaves, or on small boards, it costs
    // more than the nodes it saves (docs/experiments/2026-12-02-the-lp-where-the-estimate-foresees-work.md).
    bool refinement_due(uint64_t subtree_nodes, int budget, float estimated_work) const {
        const bool foreseen = sw_.lp_ahead && budget >= sw_.lp_ahead_from &&
                              estimated_work >= static_cast<float>(sw_.lp_ahead);
        return sw_.lp_after && (subtree_nodes > static_cast<uint64_t>(sw_.lp_after) || foreseen);
    }

    // The covering LP of this node for the moves still allowed, warm from the last one solved above; its
    // weights replace the inherited ones where they prove more. Returns the fewest moves this node's LP
    // proves (with its parity rows, which the weights cannot carry below it).
    int refine(const Node& node, int budget) {
        if (saved_.size() <= node.depth) saved_.resize(node.depth + 1);
        Saved& saved = saved_[node.depth];
        CoverLp& lp = this->lp();
        lp.save(saved.lp);
        saved.weights = weight_;
        saved.sum = sum_;
        if (sw_.parity_weights) {
            saved.parity_weights = parity_weight_;
            saved.parity_sum = parity_sum_;
        }
        lp.set_position(node.d.nonzero(), squares_blocked(node.blocked));
        if (sw_.kept_parity_rows) lp.drop_slack_cuts();
        lp.solve(budget, 0);
        lp.weights(fresh_);
        adopt(fresh_, node.d, weight_, sum_);
        int proven = lp.proven_moves();
        // The parity rows raise the bound by about one move. Without handing their duals down they prove
        // something only for this node, so they are tried only where that can refute; handed down, they
        // pay in the whole subtree. The LPs below start from this one with the rows that bind here (a
        // parity row holds at every position) and drop those that no longer bind, so a few rounds of
        // their own finish them; with --no-kept-rows, from this node's covering LP alone.
        if (sw_.parity_rounds && proven <= budget && (sw_.parity_weights || lp.value() > budget - kParityReach)) {
            if (!sw_.kept_parity_rows) {
                if (covering_.size() <= node.depth) covering_.resize(node.depth + 1);
                lp.save(covering_[node.depth]);
            }
            lp.solve(budget, sw_.parity_rounds, least_round_gain());
            proven = std::max(proven, lp.proven_moves());
            if (sw_.parity_weights && lp.parity_weights(fresh_)) adopt(fresh_, node.d, parity_weight_, parity_sum_);
            if (!sw_.kept_parity_rows) lp.restore(covering_[node.depth]);
        }
        lay_steps(node.d);
        return std::max(proven, CoverWeights::moves_for(std::max(sum_, parity_sum_)));
    }

    // For a certificate (certificate.h): the weighting the bound holds now, and the exact duals of the
    // parity rows' LP that refine solved at the node it just refined (with kept rows the LP is still
    // there; without, the same solve again from the same state), so it proves what refine proved.
    const CoverWeights& weights() const { return weight_; }
    void parity_duals(int budget, typename CoverLp::ExactDuals& out) {
        CoverLp& lp = this->lp();
        if (sw_.kept_parity_rows) {
            lp.proof_duals(out);
            return;
        }
        typename CoverLp::State covering;
        lp.save(covering);
        lp.solve(budget, sw_.parity_rounds, least_round_gain());
        lp.proof_duals(out);
        lp.restore(covering);
    }
    // The same for the root's LP, as prepare solved it.
    static void root_parity_duals(const BoundContext& context, const Root& root, typename CoverLp::ExactDuals& out) {
        CoverLp lp(context.lattice.plain());
        lp.update_by_pivot(context.sw.lp_updates);
        lp.repair_rounding(context.sw.dual_repair);
        lp.restore(root.lp);
        lp.solve(kUnbounded, context.sw.parity_rounds);
        lp.proof_duals(out);
    }

    // At a node far enough from the leaves, the Lagrangian of its LP with parity rows of its own
    // (lagrangian.h), warm from the node above's multipliers, or from the last LP's duals where the node
    // above ran none. What it proves at the node bounds the node's subtree too: it is held as a third
    // weighting until loosen, where it proves more than the other two.
    static constexpr bool kTightens = true;
    int tighten(const Node& node, int budget) {
        if constexpr (L::kTri) {
            return 0;
        } else {
            if (!sw_.lagrangian || budget < sw_.lagrangian_from) return 0;
            if (tightened_.size() <= node.depth) tightened_.resize(node.depth + 1);
            Tightened& here = tightened_[node.depth];
            here.weights = held_weight_;
            here.sum = held_sum_;
            here.held = held_;
            const typename Lagrangian::State* start = &start_;
            if (node.depth > 0 && tightened_[node.depth - 1].ran) {
                start = &tightened_[node.depth - 1].best;
            } else {
                lp().proof_duals(duals_);
                start_.from_duals(duals_);
            }
            if (!lagrangian_) lagrangian_ = std::make_unique<Lagrangian>(lattice_);
            const typename Lagrangian::Proof proof =
                lagrangian_->run(node.d, node.blocked, budget, *start, here.best, sw_.lagrangian_iterations);
            here.ran = true;
            iterations_ += static_cast<uint64_t>(proof.iterations);
            if (proof.moves > budget) return proof.moves;
            const int64_t sum = proof.weights.sum(node.d) + proof.penalty;
            if (sum > strongest_sum()) {
                held_weight_ = proof.weights;
                held_sum_ = sum;
                held_ = true;
            }
            return proof.moves;
        }
    }
    void loosen(const Node& node) {
        if constexpr (!L::kTri) {
            if (!sw_.lagrangian || node.depth >= tightened_.size() || !tightened_[node.depth].ran) return;
            Tightened& here = tightened_[node.depth];
            held_weight_ = here.weights;
            held_sum_ = here.sum;
            held_ = here.held;
            here.ran = false;
        }
    }
    // The Lagrangian's iterations so far, on this bound's worker.
    uint64_t lagrangian_iterations() const { return iterations_; }

    void leave(const Node& node) {
        const Saved& saved = saved_[node.depth];
        lp_->restore(saved.lp);
        weight_ = saved.weights;
        sum_ = saved.sum;
        if (sw_.parity_weights) {
            parity_weight_ = saved.parity_weights;
            parity_sum_ = saved.parity_sum;
        }
        lay_steps(node.d);
    }

private:
    // The largest of the weightings' sums at the position: the one the bound proves.
    int64_t strongest_sum() const { return std::max({sum_, parity_sum_, held_ ? held_sum_ : sum_}); }

    // Per point, what its turning colour adds to each weighted sum, in moves, for the work estimate; a
    // move negates its four corners' (apply).
    void lay_steps(const Grid& d) {
        const CoverWeights& parity = sw_.parity_weights ? parity_weight_ : weight_;
        for (int p = 0; p < kLatticePoints; ++p) {
            const float sign = d.test(p) ? -1.0f : 1.0f;
            step_[p] = sign * static_cast<float>(weight_.of[p]) / kWeightScale;
            parity_step_[p] = sign * static_cast<float>(parity.of[p]) / kWeightScale;
        }
    }

    // Under tri: what a press's corners change in the weighted sum going from d to d plus the press
    // (`forward`) or minus it: a corner gains its weight as it turns nonzero, loses it as it turns 0, and
    // keeps it from 1 to 2 or back, so the sum moves by at most the press's corners' weights (at most 1).
    int64_t tri_change(const Move& m, const Grid& d, bool forward) const {
        int64_t change = 0;
        for (int q = 0; q < 4; ++q) {
            const int p = m.corner[q], value = d.value(p), step = forward ? step_at(m, q) : 3 - step_at(m, q);
            change += weight_.of[p] * ((((value + step) % 3) != 0) - (value != 0));
        }
        return change;
    }

    // The squares the LP must fix at zero: under tri those whose entries (index 2s: once, 2s + 1: twice)
    // are both blocked, since a square with one entry blocked may still be pressed the other number of times.
    const uint8_t* squares_blocked(const uint8_t* blocked) {
        if constexpr (!L::kTri) return blocked;
        for (size_t s = 0; s < squares_blocked_.size(); ++s) squares_blocked_[s] = blocked[2 * s] & blocked[2 * s + 1];
        return squares_blocked_.data();
    }

    // The root's LP takes every round, once; a node's stops at the first that gains less than this.
    double least_round_gain() const { return sw_.parity_gain / 100.0; }

    // A fresh weighting replaces the one held where it proves more at this node.
    static void adopt(const CoverWeights& fresh, const Grid& d, CoverWeights& held, int64_t& held_sum) {
        const int64_t fresh_sum = fresh.sum(d.nonzero());
        if (fresh_sum > held_sum) {
            held = fresh;
            held_sum = fresh_sum;
        }
    }

    // The LP at the deepest node above that solved one: the root's until then, restored only when a task
    // first needs it (most tasks never do).
    CoverLp& lp() {
        if (!lp_) {
            lp_ = std::make_unique<CoverLp>(lattice_.plain());
            lp_->update_by_pivot(sw_.lp_updates);
            lp_->repair_rounding(sw_.dual_repair);
        }
        if (!lp_current_) {
            lp_->restore(*root_lp_);
            lp_current_ = true;
        }
        return *lp_;
    }

    // What refine at a depth replaced, for leave.
    struct Saved {
        typename CoverLp::State lp;
        CoverWeights weights, parity_weights;
        int64_t sum = 0, parity_sum = 0;
    };

    // What tighten replaced at a depth, for loosen, and the multipliers it found there, for the nodes below.
    using Lagrangian = unflip::Lagrangian<Plain>;
    struct Tightened {
        CoverWeights weights;
        int64_t sum = 0;
        bool held = false;
        bool ran = false;   // the node at this depth on the current path ran the Lagrangian: best is its
        typename Lagrangian::State best;
    };

    const Lattice& lattice_;
    const Switches& sw_;
    // The Lagrangian's weighting (points and penalty), once a node's proves more than the other two.
    CoverWeights held_weight_;
    int64_t held_sum_ = 0;
    bool held_ = false;
    std::vector<Tightened> tightened_;   // by depth
    std::unique_ptr<Lagrangian> lagrangian_;
    typename Lagrangian::State start_;
    typename CoverLp::ExactDuals duals_;
    uint64_t iterations_ = 0;
    CoverWeights weight_;
    int64_t sum_ = 0;                       // Σ weight_ over the 1-points of d
    // The last LP with parity rows above, its duals folded into point weights (CoverLp::parity_weights),
    // kept beside the covering weights: each proves more in some places.
    CoverWeights parity_weight_;
    int64_t parity_sum_ = 0;
    const typename CoverLp::State* root_lp_ = nullptr;
    bool lp_current_ = false;               // lp_ holds the root's LP or one solved below it
    std::unique_ptr<CoverLp> lp_;
    std::vector<Saved> saved_;              // by depth
    std::vector<typename CoverLp::State> covering_;  // a node's covering LP while parity rows are tried on it
    CoverWeights fresh_;
    std::vector<uint8_t> squares_blocked_;  // squares_blocked's, under tri
    float step_[kEstimatePoints] = {}, parity_step_[kEstimatePoints] = {};   // lay_steps
    // The estimate's lanes (GCC's vector extension; no function takes or returns one, which without AVX
    // is an ABI GCC warns about): a lattice row of moves at once where the target's vectors are that
    // wide (AVX-512), part of a row otherwise.
    // (Their width may not depend on the layout, which GCC's vector extension does not take in a template;
    // a lattice row is at least 16 points, as wide as the widest vector's floats.)
    static constexpr int kLanes = kVectorBytes / sizeof(float);
    static_assert(kLanes <= kStride, "a vector of moves stays within a lattice row");
    using Floats = float __attribute__((vector_size(kLanes * sizeof(float))));
    using Ints = int32_t __attribute__((vector_size(kLanes * sizeof(int32_t))));
    static_assert(sizeof(Floats) <= kVectorBytes && sizeof(Ints) <= kVectorBytes,
                  "no wider than the target's vectors (lattice.h)");
    using Bytes = uint8_t __attribute__((vector_size(kLanes)));
    // Bytes widen to Ints through Shorts: GCC 12 does 16 bytes to 16 ints at once a byte at a time,
    // which cost 5% of the whole search on 13×13 boards (every node there estimates).
    using Shorts = uint16_t __attribute__((vector_size(2 * kLanes)));
    struct MoveRow {
        int size, first, point, moves;   // the moves of one size along one row: the first's index and
    };                                   // top-left point, and how many
    std::vector<MoveRow> move_rows_;
    // Per size, each move's estimate by its top-left point, kLead places in: a point's moves of the size
    // are up to (kStride + 1)·size before it. The places no row of moves writes stay 0.
    static constexpr int kLead = (kStride + 1) * kMaxSide + 1;
    float by_top_left_[kMaxSide + 1][kLead + kEstimatePoints] = {};
};

}  // namespace
}  // namespace unflip
