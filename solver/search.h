// search: one worker's IDA* depth-first search, orbital branching, handing work to others.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <iterator>
#include <memory>
#include <mutex>
#include <vector>

#include "lattice.h"
#include "line_costs.h"
#include "cover_lp.h"
#include "transposition.h"

namespace unflip {
namespace {

constexpr uint64_t kNodeBatch = 1024;           // nodes a worker counts before publishing them

struct Switches {
    // Off unless asked for: sibling exclusion already removes nearly every transposition, so on the
    // weekly levels the table prunes 1-4% of nodes while its cache misses cost 1.5-2x the time
    // (bench/switches.py; README, "What each technique is worth").
    bool tt = false;         // transposition table
    bool exclusion = true;   // a branch forbids the sibling moves tried before it
    bool ordering = true;    // try moves clearing more 1-points first
    bool pair_bound = true;  // ceil(sum of row costs / 2), ceil(sum of column costs / 2)
    bool line_bound = true;  // adjacent lines' costs add up
    bool cover_bound = true; // the covering LP's weighting of the 1-points, solved at the root
    bool fewest_branches = true;  // branch at the 1-point with the fewest available moves
    bool symmetry = true;    // a branch whose move is an image of an earlier one's is not searched
    int tt_min_budget = 3;   // the table is consulted only this far from the leaves
    int parity_rounds = 6;   // rounds of parity rows cutting a node's LP (0: none)
    int lp_after = 2000;     // the covering LP is solved again at a node once its subtree has taken
                             // this many nodes (0: at the root only)
};

// A piece of one bound's search: from a root, the node reached by `path`, with `excluded` forbidden,
// searching either the whole node (`moves` empty) or just the branches for `moves` there.
struct Task {
    int root = 0;
    std::vector<uint16_t> path, excluded, moves;
    SymmetryGroup group = kTrivialGroup;   // the symmetries the node's subproblem is invariant under
};

// State shared by the workers of one search: stop flags, the winning line, node counts for budgets, and
// the queue through which busy workers hand part of their subtree to idle ones.
struct Shared {
    std::atomic<bool> found{false};
    std::atomic<bool> aborted{false};   // budget ran out
    std::atomic<uint64_t> nodes{0};
    std::mutex mutex;
    std::vector<uint16_t> solution;
    int solution_target = -1;

    std::mutex queue_mutex;
    std::condition_variable queue_ready;
    std::deque<Task> queue;
    int idle = 0;                        // workers waiting for a task (under queue_mutex)
    std::atomic<bool> hungry{false};     // some worker waits and the queue is empty

    // Enumerating every optimal solution: each one reached is recorded and the search goes on.
    bool enumerating = false;
    bool listing = false;                // keep the solutions, not just their count
    uint64_t max_solutions = 0;          // 0: no limit
    uint64_t solution_count = 0;         // under mutex
    std::vector<std::vector<uint16_t>> solutions;
    std::atomic<bool> limited{false};    // max_solutions reached: there may be more

    bool stopping() const {
        return found.load(std::memory_order_relaxed) || aborted.load(std::memory_order_relaxed) ||
               limited.load(std::memory_order_relaxed);
    }

    void record_solution(const std::vector<uint16_t>& path) {
        std::lock_guard<std::mutex> lock(mutex);
        if (limited) return;
        ++solution_count;
        if (listing) solutions.push_back(path);
        if (max_solutions && solution_count >= max_solutions) limited = true;
    }
};

class Search {
public:
    Search(const Lattice& lattice, const LineCosts& costs, TranspositionTable* tt, const Switches& sw,
           Shared& shared)
        : lattice_(lattice), tt_(tt), sw_(sw), shared_(shared),
          moves_(lattice.moves.data()) {
        std::copy(costs.of_row.begin(), costs.of_row.end(), row_line_cost_);
        std::copy(costs.of_column.begin(), costs.of_column.end(), column_line_cost_);
    }

    void reset(int root, const Bits& d, const CoverWeights& weights, const CoverLp::State* lp_state) {
        root_ = root;
        base_depth_ = 0;
        d_ = d;
        weight_ = weights;
        if (lp_state) {
            if (!lp_) lp_ = std::make_unique<CoverLp>(lattice_);
            lp_->restore(*lp_state);
        }
        cover_sum_ = weight_.sum(d);
        row_sum_ = col_sum_ = 0;
        std::fill(std::begin(row_mask_), std::end(row_mask_), 0);
        std::fill(std::begin(col_mask_), std::end(col_mask_), 0);
        std::fill(std::begin(row_cost_), std::end(row_cost_), 0);
        std::fill(std::begin(col_cost_), std::end(col_cost_), 0);
        for (int i = 0; i <= lattice_.h; ++i)
            for (int j = 0; j <= lattice_.w; ++j)
                if (d.test(point(i, j))) {
                    row_mask_[i] |= static_cast<uint16_t>(1u << j);
                    col_mask_[j] |= static_cast<uint16_t>(1u << i);
                }
        for (int i = 0; i <= lattice_.h; ++i) {
            row_cost_[i] = row_line_cost_[i][row_mask_[i]];
            row_sum_ += row_cost_[i];
        }
        for (int j = 0; j <= lattice_.w; ++j) {
            col_cost_[j] = column_line_cost_[j][col_mask_[j]];
            col_sum_ += col_cost_[j];
        }
        path_.clear();
        std::fill(std::begin(blocked_), std::end(blocked_), 0);
        for (int q = 0; q < kLatticePoints; ++q) available_[q] = static_cast<uint8_t>(lattice_.at[q].size());
    }

    // A blocked move is on the path or forbidden by an earlier sibling; available_[q] counts the moves
    // with a corner at q that are not (refuted siblings aside: see dfs). It only steers the choice of
    // branch point, so an overcount costs speed, never correctness.
    void block(uint16_t index) {
        blocked_[index] = 1;
        for (uint8_t q : moves_[index].corner) --available_[q];
    }
    void unblock(uint16_t index) {
        blocked_[index] = 0;
        for (uint8_t q : moves_[index].corner) ++available_[q];
    }

    // Every solution toggles each 1-point an odd number of times, so it uses at least one available move
    // at any 1-point we pick. The point with the fewest available moves gives the fewest branches (one
    // is a forced move, none a dead end), as in exact-cover search; without the switch, the first point.
    int branch_point() const {
        if (!sw_.fewest_branches) return d_.lowest();
        int best = -1, fewest = kUnbounded;
        for (int word = 0; word < 4; ++word)
            for (uint64_t bits = d_.w[word]; bits; bits &= bits - 1) {
                const int q = word * 64 + __builtin_ctzll(bits);
                if (available_[q] < fewest) {
                    fewest = available_[q];
                    best = q;
                    if (fewest <= 1) return best;
                }
            }
        return best;
    }

    // A lower bound on the moves still needed; stops early once it exceeds `budget`.
    int bound(int budget) const {
        int h = d_.empty() ? 0 : 1;
        if (sw_.pair_bound) h = std::max({h, (row_sum_ + 1) / 2, (col_sum_ + 1) / 2});
        if (sw_.cover_bound) h = std::max(h, CoverWeights::moves_for(cover_sum_));
        // A move's two rows are k ≥ 2 apart, so no move serves two adjacent rows: their costs add up.
        // (The same holds for columns; it subsumes the largest single line cost.)
        if (sw_.line_bound)
            for (int i = 0; i < std::max(lattice_.h, lattice_.w) && h <= budget; ++i)   // 0 past the edge
                h = std::max({h, row_cost_[i] + row_cost_[i + 1], col_cost_[i] + col_cost_[i + 1]});
        return h;
    }

    // The pair bound of the position after `index`, from the four lines it changes, without making
    // the move: most children fail it, and turning them away here is much cheaper than entering them.
    int pair_bound_after(uint16_t index) const {
        const Move& m = moves_[index];
        int rows = row_sum_, columns = col_sum_;
        for (int i : {int(m.row), m.row + m.size})
            rows += row_line_cost_[i][row_mask_[i] ^ m.row_pair] - row_cost_[i];
        for (int j : {int(m.col), m.col + m.size})
            columns += column_line_cost_[j][col_mask_[j] ^ m.column_pair] - col_cost_[j];
        return std::max((rows + 1) / 2, (columns + 1) / 2);
    }

    // The covering bound of the position after `index`: the move's 1-corners lose their weight, its
    // 0-corners gain theirs.
    int64_t cover_sum_after(uint16_t index) const {
        int64_t sum = cover_sum_;
        for (uint8_t p : moves_[index].corner) sum += d_.test(p) ? -weight_.of[p] : weight_.of[p];
        return sum;
    }
    int cover_bound_after(uint16_t index) const { return CoverWeights::moves_for(cover_sum_after(index)); }

    void apply(uint16_t index) {
        const Move& m = moves_[index];
        d_ ^= m.bits;
        for (uint8_t p : m.corner) cover_sum_ += d_.test(p) ? weight_.of[p] : -weight_.of[p];
        for (int i : {int(m.row), m.row + m.size}) {
            row_mask_[i] ^= m.row_pair;
            const int cost = row_line_cost_[i][row_mask_[i]];
            row_sum_ += cost - row_cost_[i];
            row_cost_[i] = static_cast<uint8_t>(cost);
        }
        for (int j : {int(m.col), m.col + m.size}) {
            col_mask_[j] ^= m.column_pair;
            const int cost = column_line_cost_[j][col_mask_[j]];
            col_sum_ += cost - col_cost_[j];
            col_cost_[j] = static_cast<uint8_t>(cost);
        }
    }

    // Forbid a move for a whole search: the root split excludes a branch's earlier siblings this way.
    void exclude(uint16_t index) { block(index); }

    // Enter a move for good before a search: the root split applies its branch move this way.
    void push(uint16_t index) {
        apply(index);
        block(index);
        path_.push_back(index);
    }

    // The available moves with a corner at p, split by the pair bound of the position they lead to:
    // `refuted` cannot finish within budget - 1 more moves, `viable` can still be searched, the ones
    // clearing more 1-points first. Deciding a child from the four lines its move changes, without
    // making the move, is far cheaper than entering it.
    struct Branches {
        uint16_t viable[kMaxMovesPerPoint], refuted[kMaxMovesPerPoint];
        int viable_count = 0, refuted_count = 0;
    };
    // The expand loops on the stack, from the task's node down: what a worker can hand to another.
    struct Frame {
        Branches next;
        int current = 0, end = 0;
        SymmetryGroup group = kTrivialGroup;
        std::vector<uint16_t> excluded;   // what this loop has blocked: tried moves and their orbits
    };

    void branches(int p, int budget, Branches& out) const {
        uint16_t by_gain[5][kMaxMovesPerPoint];
        int filled[5] = {0, 0, 0, 0, 0};
        for (uint16_t index : lattice_.at[p]) {
            if (blocked_[index]) continue;
            if ((sw_.pair_bound && pair_bound_after(index) > budget - 1) ||
                (sw_.cover_bound && cover_bound_after(index) > budget - 1)) {
                out.refuted[out.refuted_count++] = index;
                continue;
            }
            const Move& m = moves_[index];
            const int gain = sw_.ordering ? d_.test(m.corner[0]) + d_.test(m.corner[1]) +
                                                d_.test(m.corner[2]) + d_.test(m.corner[3])
                                          : 1;
            by_gain[gain][filled[gain]++] = index;
        }
        for (int gain = 4; gain >= 1; --gain)
            for (int k = 0; k < filled[gain]; ++k) out.viable[out.viable_count++] = by_gain[gain][k];
    }

    // True when a solution within `budget` more moves was found (it is then in path()). A subtree cut
    // short because another thread won or the budget ran out proves nothing, so it is never recorded.
    // Search the node a task names, within `budget` moves of the iteration's bound: its own branches
    // are `moves` when the task gives them, else the node's.
    bool run(const Task& task, int bound) {
        for (uint16_t index : task.excluded)
            if (!blocked_[index]) block(index);
        for (uint16_t index : task.path) push(index);
        bound_ = bound;
        base_depth_ = path_.size();
        task_excluded_ = &task.excluded;
        const int budget = bound - static_cast<int>(path_.size());
        // A frame for each depth this task can reach, added as bounds grow rather than for the longest
        // conceivable solution up front: an easy board's search then touches a few pages, not 300 KB.
        if (frames_.size() <= static_cast<size_t>(budget)) frames_.resize(budget + 1);
        if (task.moves.empty()) return dfs(budget, task.group);
        if (++local_nodes_ % kNodeBatch == 0) publish_nodes();
        Branches given;
        for (uint16_t index : task.moves) given.viable[given.viable_count++] = index;
        // Weights from the LP of this very node: the root's say little this deep.
        if (sw_.cover_bound && solve_lp_here(budget) > budget) return false;
        return CoverWeights::moves_for(cover_sum_) <= budget && expand(budget, &given, task.group);
    }

    // True when a solution within `budget` more moves was found (it is then in path()); `group` holds
    // the symmetries this node's subproblem is invariant under. A subtree cut short because another
    // thread won or the budget ran out proves nothing, so it is never recorded.
    bool dfs(int budget, SymmetryGroup group) {
        if (++local_nodes_ % kNodeBatch == 0) {
            publish_nodes();
            if (shared_.hungry.load(std::memory_order_relaxed)) share_work();
        }
        if (d_.empty()) {
            // Exclusion splits the solutions among the branches, so each set of moves arrives here once.
            if (!shared_.enumerating) return true;
            shared_.record_solution(path_);
            return false;
        }
        if (bound(budget) > budget) return false;
        return expand(budget, nullptr, group);
    }

    // The covering LP of this node for the moves still allowed, warm from the last one solved above;
    // its weights replace the inherited ones where they prove more. The caller restores lp_ from
    // saved_[depth] when it leaves the node.
    // Returns the fewest moves this node's LP proves (with its parity rows, which the weights cannot
    // carry below it).
    int solve_lp_here(int budget) {
        const size_t depth = path_.size();
        if (saved_.size() <= depth) saved_.resize(depth + 1);
        lp_->save(saved_[depth]);
        lp_->set_position(d_, blocked_);
        lp_->solve(budget, 0);
        lp_->weights(fresh_);
        int proven = lp_->proven_moves();
        if (sw_.parity_rounds && proven <= budget && lp_->value() > budget - kParityReach) {
            // The parity rows only for this node's bound: the point weights and the state the
            // children start from stay those of the covering LP alone, whose weights carry further.
            // They raise the bound by about one move, so they are tried only where that can refute.
            if (covering_.size() <= depth) covering_.resize(depth + 1);
            lp_->save(covering_[depth]);
            lp_->solve(budget, sw_.parity_rounds);
            proven = std::max(proven, lp_->proven_moves());
            lp_->restore(covering_[depth]);
        }
        const int64_t fresh_sum = fresh_.sum(d_);
        if (fresh_sum > cover_sum_) {
            weight_ = fresh_;
            cover_sum_ = fresh_sum;
        }
        return std::max(proven, CoverWeights::moves_for(cover_sum_));
    }

    // Branch on the moves at one 1-point. With exclusion each branch forbids the moves tried before it,
    // since any solution using one of them was already looked for in that branch; refuted moves count as
    // tried first, their branches being empty. Under a symmetry group G of the subproblem (orbital
    // branching), a failed branch forbids its move's whole G-orbit: a solution using an image g(m) maps by
    // g⁻¹ to one using m, already looked for. A branch's own subproblem keeps the symmetries fixing its
    // move.
    bool expand(int budget, const Branches* given, SymmetryGroup group) {
        const bool use_tt = sw_.tt && budget >= sw_.tt_min_budget;
        const uint64_t hash = use_tt ? hash_of(d_) : 0;
        if (use_tt && tt_->failed_budget(hash) >= budget) return false;

        Frame& frame = frames_[path_.size() - base_depth_];
        Branches& next = frame.next;
        next = Branches{};
        if (given) next = *given;
        else branches(branch_point(), budget, next);
        frame.end = next.viable_count;
        frame.group = group;
        frame.excluded.clear();

        // (Refuted moves only get the flag: leaving them in available_ costs the branch-point choice
        // 0.7% more nodes and saves 6% of the instructions.)
        if (sw_.exclusion)
            for (int k = 0; k < next.refuted_count; ++k) blocked_[next.refuted[k]] = 1;
        bool solved = false;
        int& tried = frame.current;
        const uint64_t nodes_at_start = local_nodes_;
        bool lp_here = false;
        const CoverWeights inherited = weight_;
        const int64_t inherited_sum = cover_sum_;
        const size_t depth = path_.size();
        for (tried = 0; tried < frame.end; ++tried) {
            const uint16_t index = next.viable[tried];
            if (blocked_[index]) continue;   // in the orbit of a branch tried before
            if (sw_.cover_bound && sw_.lp_after && !lp_here &&
                local_nodes_ - nodes_at_start > static_cast<uint64_t>(sw_.lp_after)) {
                // This subtree has proved big: the covering LP for the children still to come (the ones
                // tried already are excluded, so it is tighter than at entry) is now worth its cost.
                lp_here = true;
                if (solve_lp_here(budget) > budget) break;
            }
            if (lp_here && cover_bound_after(index) > budget - 1) {
                if (sw_.exclusion) exclude_here(frame, index);
                continue;
            }
            apply(index);
            block(index);
            path_.push_back(index);
            solved = dfs(budget - 1, group & lattice_.stabiliser[index]);
            if (solved) break;
            path_.pop_back();
            apply(index);
            if (sw_.exclusion) {
                frame.excluded.push_back(index);   // blocked already, as a path move
                exclude_orbit(frame, index, group);
            } else {
                unblock(index);
            }
            if (shared_.stopping()) break;
        }
        if (lp_here) {
            lp_->restore(saved_[depth]);
            weight_ = inherited;
            cover_sum_ = inherited_sum;
        }
        if (sw_.exclusion) {
            for (uint16_t index : frame.excluded) unblock(index);
            for (int k = 0; k < next.refuted_count; ++k) blocked_[next.refuted[k]] = 0;
        }
        if (!solved && !shared_.stopping() && use_tt) tt_->record_failure(hash, budget);
        return solved;
    }

    void exclude_here(Frame& frame, uint16_t index) {
        block(index);
        frame.excluded.push_back(index);
    }

    void exclude_orbit(Frame& frame, uint16_t index, SymmetryGroup group) {
        if (group == kTrivialGroup || !sw_.symmetry) return;
        for (int g = 1; g < kSymmetries; ++g) {
            if (!(group >> g & 1)) continue;
            const uint16_t image = lattice_.move_image[g][index];
            if (!blocked_[image]) exclude_here(frame, image);
        }
    }

    // An idle worker waits: hand it the untried branches of the shallowest loop that has some (the
    // biggest piece of work there is, most likely), and stop that loop after its current branch.
    // With exclusion each handed branch forbids all the siblings before it, as it would here, except
    // under the table the one still running (see Driver): an entry written under an exclusion is only
    // sound once the excluded branch has finished.
    void share_work() {
        std::lock_guard<std::mutex> lock(shared_.queue_mutex);
        if (!shared_.queue.empty() || shared_.idle == 0) return;
        const size_t active = path_.size() - base_depth_;
        size_t f = 0;
        while (f < active && frames_[f].current + 1 >= frames_[f].end) ++f;
        if (f == active) return;
        Task task;
        task.root = root_;
        task.path.assign(path_.begin(), path_.begin() + static_cast<long>(base_depth_ + f));
        Frame& frame = frames_[f];
        task.group = frame.group;
        if (sw_.exclusion) {
            task.excluded = *task_excluded_;
            for (size_t g = 0; g <= f; ++g) {
                const Frame& above = frames_[g];
                task.excluded.insert(task.excluded.end(), above.next.refuted, above.next.refuted + above.next.refuted_count);
                task.excluded.insert(task.excluded.end(), above.excluded.begin(), above.excluded.end());
            }
            if (!sw_.tt) {
                const uint16_t running = frame.next.viable[frame.current];
                task.excluded.push_back(running);
                if (sw_.symmetry)
                    for (int g = 1; g < kSymmetries; ++g)
                        if (frame.group >> g & 1) task.excluded.push_back(lattice_.move_image[g][running]);
            }
        }
        task.moves.assign(frame.next.viable + frame.current + 1, frame.next.viable + frame.end);
        frame.end = frame.current + 1;
        shared_.queue.push_back(std::move(task));
        shared_.hungry = false;
        shared_.queue_ready.notify_one();
    }

    void publish_nodes() {
        shared_.nodes.fetch_add(local_nodes_ - published_nodes_, std::memory_order_relaxed);
        published_nodes_ = local_nodes_;
    }

    const std::vector<uint16_t>& path() const { return path_; }

private:
    const Lattice& lattice_;
    TranspositionTable* tt_;
    const Switches& sw_;
    Shared& shared_;

    Bits d_;
    // The lattice's rows and columns as line masks (bit j of row i is point (i, j); bit i of column j
    // too), kept beside d_ because the line costs are looked up by them on every move.
    uint16_t row_mask_[kStride] = {}, col_mask_[kStride] = {};
    uint8_t row_cost_[kStride] = {}, col_cost_[kStride] = {};
    int row_sum_ = 0, col_sum_ = 0;
    CoverWeights weight_;
    int64_t cover_sum_ = 0;   // Σ weight_ over the 1-points of d_
    std::unique_ptr<CoverLp> lp_;          // the covering LP at the deepest LP node above
    std::vector<CoverLp::State> saved_;    // its state on entry to each LP node, by depth
    std::vector<CoverLp::State> covering_; // a node's covering LP while parity rows are tried on it
    CoverWeights fresh_;

    std::vector<Frame> frames_;
    size_t base_depth_ = 0;                         // path length at the task's node
    int root_ = 0, bound_ = 0;
    const std::vector<uint16_t>* task_excluded_ = nullptr;
    // Hot-path copies of the lattice's moves and the line cost tables, one indirection closer.
    const Move* moves_;
    const uint8_t* row_line_cost_[kStride] = {};
    const uint8_t* column_line_cost_[kStride] = {};
    uint8_t blocked_[kMaxMoves] = {};   // per move: on the path, or forbidden by an earlier sibling
    uint8_t available_[kLatticePoints] = {};
    std::vector<uint16_t> path_;
    uint64_t local_nodes_ = 0, published_nodes_ = 0;
};

}  // namespace
}  // namespace unflip
