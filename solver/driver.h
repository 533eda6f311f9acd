// driver: iterative deepening, the task queue, budgets, progress, enumeration.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "contract.h"
#include "board_input.h"
#include "lattice.h"
#include "solvability.h"
#include "line_costs.h"
#include "transposition.h"
#include "annealing.h"
#include "search.h"
#include "certificate.h"

namespace unflip {
namespace {

// Annealing's effort after an exhausted bound, on each thread: its schedule's proposals per node that
// bound took (AnnealingSchedule, annealing.h), at least kMinAnnealSteps, in runs no longer than its longest.
constexpr uint64_t kMinAnnealSteps = 1 << 18;
// The Lagrangian's iterations annealing's budget counts as one node: a bound it shortened to a thirtieth of
// the nodes is not a thirtieth of the work. An iteration takes about a third of a node's time on 13×13
// boards, but counted so, annealing after 15×15 #5's bound 37 missed the 38-move solution and bound 38 was
// searched (docs/experiments/2026-12-04-the-lagrangian-warm-from-the-node-above.md); one a node gives it
// about the proposals it had before the Lagrangian.
constexpr uint64_t kLagrangianIterationsPerNode = 1;

// The build without threads (UNFLIP_NO_THREADS, from SOLVER_WEB_FLAGS in solver/build.mk: WebAssembly for
// a page, which cannot start one) runs its one worker inline, in the driver's own thread, which then
// watches the time budget and writes the progress lines between the worker's node batches
// (Shared::watch). Every other build is unchanged by it.
#ifdef UNFLIP_NO_THREADS
constexpr bool kInlineWorker = true;
#else
constexpr bool kInlineWorker = false;
#endif
constexpr int kMaxWorkers = kInlineWorker ? 1 : limit_as<int>(limit::max_threads);

struct Options {
    std::string file;            // empty: standard input
    int target = 0;              // 0, 1, or kEither
    int threads = 0;             // 0: all logical cores
    double max_seconds = 0;      // 0: no limit
    uint64_t max_nodes = 0;      // 0: no limit
    bool quiet = false;
    bool lower_bound_only = false;   // report the root's bound, no search
    bool enumerate = false;          // every optimal solution: --all-solutions, --count, --max-solutions
    bool list_solutions = false;     // print them, not just their count
    uint64_t max_solutions = 0;
    std::string certificate;         // --certificate: where the proof of optimality goes (certificate.h)
    Switches sw;
    // Cubes (cubes.h): at one bound, list the pieces `split_depth` decisions down (from `cube` when given),
    // or solve the piece `cube` names.
    int bound = -1;              // -1: iterative deepening from the root's bound
    int split_depth = -1;        // -1: no listing
    std::vector<std::string> cube;   // empty: the whole board; several are searched in turn, as one
    // A cube search its node budget stops hands back what it has not searched, as cubes (cubes.h).
    bool hand_back = false;
    // Search on the 32-point layout even when the board fits the 16-point one: the same answers by the
    // wide code, a cross-check of it on every small board.
    bool wide_lattice = false;
    // --scheme tri: three colours, each press turning its tiles one step mod 3 (TriBits, lattice.h).
    bool tri = false;
};
constexpr int kEither = 2;

struct CubeListing;

struct Outcome {
    ExitCode code = ExitCode::unsolvable;
    int target = 0;              // the target the answer is about
    std::vector<uint16_t> moves;
    int lower_bound = 0;         // with ExitCode::stopped or bound_only: no solution has fewer moves
    bool bound_only = false;     // --lower-bound: lower_bound is the answer
    bool enumerated = false;     // every optimal solution was looked for
    uint64_t solution_count = 0;
    bool incomplete = false;     // --max-solutions or a budget stopped the enumeration: there may be more
    bool counting_stopped = false;   // a budget ran out while enumerating, the optimum (moves) proven
    bool exhausted = false;      // a cube (cubes.h) holds no solution within lower_bound moves
    std::vector<std::vector<uint16_t>> solutions;
    uint64_t nodes = 0;
    double seconds = 0;
};

using Clock = std::chrono::steady_clock;

template <class L>
class Driver {
    using Grid = unflip::Grid<L>;
    using Lattice = unflip::Lattice<L>;
    using Search = unflip::Search<L>;
    using SearchBounds = unflip::SearchBounds<L>;
    using CoverBound = unflip::CoverBound<L>;
    using CoverLp = unflip::CoverLp<L>;
    using Certifier = unflip::Certifier<L>;
    using Weighting = unflip::Weighting<L>;
    using Annealer = unflip::Annealer<L>;

public:
    Driver(const Board& board, const Options& options)
        : options_(workable(certifiable(options, board))), board_(board),
          lattice_(static_cast<int>(board.size()), static_cast<int>(board[0].size())), costs_(lattice_.h, lattice_.w) {
        if (options_.sw.tt)
            tt_.emplace(kInitialTableLog2,
                        std::max(lattice_.h, lattice_.w) >= kLargeTableFromSize ? kLargeTableLog2 : kSmallTableLog2);
        const bool both = options_.target == kEither;
        for (int target : {0, 1})
            if (both || options_.target == target) {
                Root root;
                root.target = target;
                root.d = lattice_.difference(board, target);
                root.solvable = solvable(lattice_, root.d);
                // Symmetry breaking and the table do not mix: an entry written under an orbit's
                // exclusion would be reused where that orbit was never searched.
                if (options_.sw.symmetry && options_.sw.exclusion && !options_.sw.tt)
                    root.group = lattice_.symmetries_of(root.d);
                if (root.solvable)
                    root.bounds = SearchBounds::prepare({lattice_, costs_, options_.sw}, bounds_switched<L>(options_.sw),
                                                        root.d);
                roots_.push_back(std::move(root));
            }
        threads_ = options_.threads > 0 ? options_.threads
                   : kInlineWorker       ? 1
                                         : std::max(1u, std::thread::hardware_concurrency());
        shared_.max_nodes = options_.max_nodes;
        shared_.workers = static_cast<uint64_t>(threads_);
    }

    Outcome run() {
        start_ = Clock::now();
        Outcome out;
        out.target = roots_.front().target;

        out.enumerated = options_.enumerate;
        if (!measure_live_roots()) {
            if constexpr (kCertifies)
                if (!options_.certificate.empty()) certify_unsolvable();
            return finish(out);
        }

        int bound = kUnbounded;
        for (Root* root : live_) {
            if (root->h < bound) {
                bound = root->h;
                out.target = root->target;
            }
        }
        if (options_.lower_bound_only) {
            out.code = ExitCode::solved;
            out.bound_only = true;
            out.lower_bound = bound;
            return finish(out);
        }
        if (bound == 0) {   // already solved: the empty set is the one solution
            out.code = ExitCode::solved;
            if constexpr (kCertifies)
                if (!options_.certificate.empty()) certify(0, out);
            if (options_.enumerate) {
                out.enumerated = true;
                out.solution_count = 1;
                if (options_.list_solutions) out.solutions.emplace_back();
            }
            return finish(out);
        }

        for (uint64_t bound_start = 0, iterations_start = 0;; ++bound) {
            run_bound(bound, all_live(), options_.sw);
            // Size the table to the work: an entry for each node of the bound just searched.
            const uint64_t nodes = shared_.nodes.load(), iterations = shared_.lagrangian_iterations.load();
            if (tt_) tt_->grow_for(nodes - bound_start);
            if (shared_.found) {
                // A solution is searched for at each bound in turn, so one shorter than this bound was
                // ruled out below it: some bound claimed more than the truth.
                if (lattice_.presses_on(shared_.solution) < bound)
                    throw Contradiction("the search met a solution of " +
                                        std::to_string(lattice_.presses_on(shared_.solution)) + " moves at bound " +
                                        std::to_string(bound) + ", below which it had ruled every solution out");
                return solved(bound, shared_.solution, shared_.solution_target, out);
            }
            if (shared_.aborted) {
                out.code = ExitCode::stopped;
                out.lower_bound = bound;
                return finish(out);
            }
            if (!options_.quiet)
                std::fprintf(stderr, "bound %d exhausted, nodes=%llu\n", bound,
                             static_cast<unsigned long long>(shared_.nodes.load()));
            // Every solution has more than `bound` moves now, so one of bound + 1 is optimal.
            // Annealing's budget is the bound's work in nodes' time: the Lagrangian's iterations count too.
            const uint64_t work = nodes - bound_start + (iterations - iterations_start) / kLagrangianIterationsPerNode;
            if (options_.sw.annealing && work >= static_cast<uint64_t>(options_.sw.anneal_after)) anneal(bound + 1, work);
            if (shared_.aborted) {
                out.code = ExitCode::stopped;
                out.lower_bound = bound + 1;
                return finish(out);
            }
            if (annealed_size() <= bound)
                throw Contradiction("annealing met a solution of " + std::to_string(annealed_size()) +
                                   " moves, which the search ruled out: one of them is wrong");
            if (annealed_size() == bound + 1) return solved(bound + 1, annealed_, annealed_target_, out);
            bound_start = nodes;
            iterations_start = iterations;
        }
    }

private:
    Outcome& solved(int optimum, const std::vector<uint16_t>& moves, int target, Outcome& out) {
        out.code = ExitCode::solved;
        out.moves = moves;
        out.target = target;
        if (options_.enumerate) enumerate(optimum, out);
        if constexpr (kCertifies)
            if (!options_.certificate.empty()) certify(optimum, out);
        return finish(out);
    }

    // Annealing for solutions of `goal` moves, on every thread, for each live root that can still have
    // one, until one has: the schedule's proposals per node of the bound just exhausted on each thread,
    // from a seed of its own, so that a thread's runs are the same on every run. The shortest met is
    // annealed_ (the first root's, of two as short).
    void anneal(int goal, uint64_t bound_nodes) {
        const uint64_t steps = std::max(kMinAnnealSteps, Annealer::Schedule::kStepsPerNode * bound_nodes);
        const uint64_t longest = Annealer::Schedule::longest_run(lattice_.plain().moves.size());
        for (size_t r = 0; r < live_.size() && !shared_.aborted && annealed_size() > goal; ++r) {
            if (live_[r]->h > goal) continue;
            std::vector<Annealer> annealers;
            annealers.reserve(threads_);
            for (int t = 0; t < threads_; ++t)
                annealers.emplace_back(lattice_, live_[r]->d, (uint64_t{static_cast<uint32_t>(goal)} << 40) ^
                                                                  (uint64_t{r} << 32) ^ static_cast<uint64_t>(t));
            std::atomic<bool> met{false};   // a thread met a solution of `goal` moves: the others stop
            auto stop = [&] {
                if (shared_.watch) shared_.watch();
                return met.load(std::memory_order_relaxed) || shared_.aborted.load();
            };
            on_every_thread(goal, "annealing", [&](int t) {
                for (uint64_t left = steps; left > 0 && !stop();) {
                    const uint64_t run = std::min(left, longest);
                    annealers[t].run(run, goal, stop);
                    if (annealers[t].best_size() <= goal) met = true;
                    left -= run;
                }
            });
            for (const Annealer& annealer : annealers)
                if (annealer.best_size() < annealed_size()) {
                    annealed_ = annealer.best();
                    annealed_target_ = live_[r]->target;
                }
        }
    }

    int annealed_size() const { return annealed_.empty() ? kUnbounded : lattice_.presses_on(annealed_); }

    // Every optimal solution, at the optimum `bound`: the search again at that bound, each solution
    // recorded as it is reached. Exclusion stays on (it is what makes each set arrive once); symmetry
    // breaking and the table, which keep one solution of many, are off. With both targets the
    // answer is about target 0 when it reaches the optimum, else target 1.
    void enumerate(int bound, Outcome& out) {
        Switches sw = options_.sw;
        sw.exclusion = true;
        sw.symmetry = false;
        sw.tt = false;
        shared_.found = false;
        shared_.enumerating = true;
        shared_.listing = options_.list_solutions;
        shared_.max_solutions = options_.max_solutions;
        for (size_t r = 0; r < live_.size(); ++r) {
            if (live_[r]->h > bound) continue;
            run_bound(bound, {static_cast<int>(r)}, sw);
            if (shared_.aborted && !shared_.limited) {
                // The optimum stands proven; only the count is cut short, so it is reported with what
                // was found so far. With none found here, the target is the one whose solution proved
                // the optimum.
                out.code = ExitCode::stopped;
                out.counting_stopped = true;
                if (shared_.solution_count > 0) out.target = live_[r]->target;
                break;
            }
            if (shared_.solution_count > 0) {
                out.target = live_[r]->target;
                break;
            }
        }
        out.solution_count = shared_.solution_count;
        out.incomplete = shared_.limited || out.counting_stopped;
        out.solutions = shared_.solutions;
    }

    // --certificate: the proof, for each target asked, that no solution has fewer than `optimum` moves.
    // A root whose bound already says so is one leaf; any other is the search of the bound below the
    // optimum again, in pieces fixed in advance (certify_in_pieces) with every sibling excluded, no symmetry
    // breaking and the LP re-solved sooner, writing down every node it prunes (certificate.h). A budget
    // that runs out first leaves no certificate.
    void certify(int optimum, Outcome& out) {
        Certifier certifier(lattice_, costs_, options_.certificate);
        certifier.header(board_, options_.target, out.target, out.moves);
        Switches sw = options_.sw;
        sw.exclusion = true;
        sw.symmetry = false;
        sw.tt = false;
        sw.lp_after = std::min(sw.lp_after, kCertificateLpAfter);
        const std::vector<uint8_t> nothing_blocked(lattice_.moves.size(), 0);
        certifier_ = &certifier;
        shared_.found = false;
        for (size_t r = 0, live = 0; r < roots_.size() && optimum > 0; ++r) {
            const Root& root = roots_[r];
            certifier.begin_proof(root.target);
            if (!root.solvable) {
                certifier.unreachable(root.d);
                continue;
            }
            const int index = static_cast<int>(live++);   // its place among the live roots
            const int budget = optimum - 1;
            const typename CoverBound::Root* cover =
                SearchBounds::template find_root<CoverBound>(root.bounds, bounds_switched<L>(sw));
            Weighting start = cover ? Certifier::covering(cover->weights) : Weighting{};
            if (root.h > budget && !certifier.proof_of(root.d, budget, start.worth())) {
                typename CoverLp::ExactDuals duals;
                CoverBound::root_parity_duals({lattice_, costs_, sw}, *cover, duals);
                start = Certifier::from_duals(duals);
            }
            certifier.declare(start, nothing_blocked.data());
            if (root.h > budget) {
                certifier.leaf(root.d, budget);
                continue;
            }
            certify_in_pieces(index, budget, sw, certifier);
            if (shared_.found) throw CertificateFailed("the certificate's search found a solution below the optimum");
            if (shared_.aborted) break;
        }
        certifier_ = nullptr;
        if (shared_.aborted) {
            out.code = ExitCode::stopped;
            out.lower_bound = optimum;
            return;
        }
        certifier.finish();
    }

    // One root's tree, on all the threads: its top kCertificateSplitDepth decisions here, written as they
    // are made, and each node below them a piece, searched by whichever worker takes it into a text of
    // its own; the pieces then go in their holes. Which pieces there are, and what each searches, does not
    // depend on the threads, so neither does the proof: it is the same bytes on any number.
    void certify_in_pieces(int index, int budget, const Switches& sw, Certifier& certifier) {
        std::vector<Task> pieces;
        {
            Search top(lattice_, costs_, nullptr, sw, shared_);
            top.certify(&certifier);
            top.split_into(kCertificateSplitDepth, &pieces);
            top.reset(index, live_[index]->d, live_[index]->bounds);
            if (top.run(Task{index, {}, {}, {}, kTrivialGroup, {}}, budget)) shared_.found = true;
            top.publish_nodes();
        }
        if (shared_.found || shared_.aborted) return;
        texts_.assign(pieces.size(), std::string());
        run_tasks(budget, std::deque<Task>(pieces.begin(), pieces.end()), sw);
        if (!shared_.found && !shared_.aborted) certifier.fill(texts_);
        texts_.clear();
    }

    // --certificate on a board no target asked is reachable on: each target's proof is its unreachable set.
    void certify_unsolvable() {
        Certifier certifier(lattice_, costs_, options_.certificate);
        certifier.unsolvable_header(board_, options_.target);
        for (const Root& root : roots_) {
            certifier.begin_proof(root.target);
            certifier.unreachable(root.d);
        }
        certifier.finish();
    }

    // With a certificate asked for, the whole run (the roots' LPs too) bounds as the certificate can state:
    // a weighting with the parity rows folded in may weigh a point below zero, which its leaves do not
    // state; summed afresh at every pivot, an LP solved again from the same state takes the same path,
    // so the duals written for a node are those that refuted it; and its duals are written as rounded,
    // not mended (CoverLp::relieve), as the certificate's own search has always stated them. On a board
    // with a side past 15 the pair and line bounds are off: their lines of more than 16 points have
    // costs composed from their halves (line_costs.h), where the checker recomputes every line's cost
    // exactly, which it cannot tabulate at 32 points.
    static Options certifiable(Options options, const Board& board) {
        if (!options.certificate.empty()) {
            options.sw.parity_weights = false;
            options.sw.lp_updates = false;
            options.sw.dual_repair = false;
            options.sw.lagrangian = false;   // the checker does not know its proof yet
            if (std::max(board.size(), board[0].size()) > static_cast<size_t>(SmallLayout::kMaxSide))
                options.sw.pair_bound = options.sw.line_bound = false;
        }
        return options;
    }

    // Under tri, the techniques not yet shown admissible or sound mod 3 are off (design section 4, step 5
    // turns each on with its premise test): the pair and line bounds (their line costs count GF(2) pairs);
    // the parity rows and their weights ("a 0-point is met an even number of times" is false mod 3); the
    // work estimate (its steps assume a press toggles its corners, and its rows of moves assume one entry a
    // square); and the table (its entries under per-entry exclusion are unproven). (Symmetry is on: a
    // mirror's negated corner signs are its character, which symmetries_of reads.)
    static Options workable(Options options) {
        if constexpr (L::kTri) {
            options.sw.pair_bound = options.sw.line_bound = false;
            options.sw.parity_rounds = 0;
            options.sw.parity_weights = false;
            options.sw.work_estimate = false;
            options.sw.tt = false;
        }
        return options;
    }
    // Tri certificates are not made yet (the command line refuses --certificate under tri).
    static constexpr bool kCertifies = !L::kTri;

    // The roots that can be solved, in live_, each with its lower bound: every bound below it fails
    // without search. False when there are none.
    bool measure_live_roots() {
        for (Root& root : roots_)
            if (root.solvable) live_.push_back(&root);
        Search probe(lattice_, costs_, table(), options_.sw, shared_);
        for (Root* root : live_) {
            probe.reset(0, root->d, root->bounds);
            root->h = probe.bound_at_root(root->bounds);
        }
        return !live_.empty();
    }

    std::vector<int> all_live() const {
        std::vector<int> all(live_.size());
        for (size_t r = 0; r < live_.size(); ++r) all[r] = static_cast<int>(r);
        return all;
    }

    struct Root {
        int target = 0;
        Grid d;
        bool solvable = false;
        int h = 0;
        SymmetryGroup group = kTrivialGroup;   // the symmetries of d the search may break
        typename SearchBounds::Roots bounds;   // what each bound prepared at this root
    };

    // One bound's search: a task per root that can still make it, on a queue the workers take from;
    // whenever one waits, a busy one hands it the untried branches of its shallowest loop (see
    // Search::share_work), until every worker waits and the queue is empty, or a solution or a budget
    // stops them.
    void run_bound(int bound, const std::vector<int>& roots, const Switches& sw) {
        std::deque<Task> tasks;
        for (int r : roots)
            if (live_[r]->h <= bound)
                tasks.push_back(Task{r, {}, {}, {}, sw.symmetry ? live_[r]->group : kTrivialGroup, {}});
        run_tasks(bound, std::move(tasks), sw);
    }

    // One bound's search from the tasks given (a cube's is one task), as run_bound describes.
    void run_tasks(int bound, std::deque<Task> tasks, const Switches& sw) {
        shared_.queue = std::move(tasks);
        shared_.idle = 0;
        shared_.hungry = false;
        on_every_thread(bound, "searching", [&](int) { work(sw, bound); });
    }

    // job(t) on threads_ threads (t = 0, 1, ...), while this one watches the time budget and writes a
    // progress line about once a second: `bound B <doing>, nodes=N`. A thread that fails (memory it cannot
    // get) stops the others; its exception is rethrown here.
    template <typename Job>
    void on_every_thread(int bound, const char* doing, Job&& job) {
        auto last_report = Clock::now();
        if constexpr (kInlineWorker) {
            shared_.watch = [&] { watch(bound, doing, last_report); };
            try {
                job(0);
            } catch (...) {
                shared_.watch = nullptr;
                throw;
            }
            shared_.watch = nullptr;
            return;
        }
        std::atomic<int> running{0};
        std::mutex done_mutex;
        std::condition_variable done;
        std::exception_ptr failure;
        auto worker = [&](int t) {
            try {
                job(t);
            } catch (...) {
                std::lock_guard<std::mutex> lock(done_mutex);
                if (!failure) failure = std::current_exception();
                shared_.aborted = true;
            }
            std::lock_guard<std::mutex> lock(done_mutex);
            --running;
            done.notify_all();
        };

        std::vector<std::thread> pool;
        pool.reserve(threads_);
        for (int t = 0; t < threads_ && !shared_.aborted; ++t) {
            ++running;
            try {
                pool.emplace_back(worker, t);
            } catch (const std::system_error& error) {
                --running;
                shared_.aborted = true;
                std::lock_guard<std::mutex> lock(done_mutex);
                if (!failure)
                    failure = std::make_exception_ptr(AllocationFailed(
                        "cannot start worker thread " + std::to_string(t + 1) + " of " + std::to_string(threads_) +
                        ": " + error.code().message()));
            }
        }

        {
            std::unique_lock<std::mutex> lock(done_mutex);
            while (running > 0) {
                done.wait_for(lock, std::chrono::milliseconds(20));
                watch(bound, doing, last_report);
            }
        }
        for (std::thread& t : pool) t.join();
        if (failure) std::rethrow_exception(failure);
    }

    // The time budget, and a progress line when a second has passed since the last one. (The node budget
    // is the workers' own: see Search::node_fits.)
    void watch(int bound, const char* doing, Clock::time_point& last_report) {
        const auto now = Clock::now();
        if (options_.max_seconds > 0 && seconds_since(start_) >= options_.max_seconds) shared_.aborted = true;
        if (!options_.quiet && now - last_report >= std::chrono::seconds(1)) {
            last_report = now;
            std::fprintf(stderr, "bound %d %s, nodes=%llu\n", bound, doing,
                         static_cast<unsigned long long>(shared_.nodes.load()));
        }
    }

    // One worker's share of a bound: tasks from the queue until every worker waits and it is empty, or
    // the search stops.
    void work(const Switches& sw, int bound) {
        Search search(lattice_, costs_, table(), sw, shared_);
        for (;;) {
            Task task;
            {
                std::unique_lock<std::mutex> lock(shared_.queue_mutex);
                ++shared_.idle;
                bool finished = false;
                while (shared_.queue.empty()) {
                    if (shared_.idle == threads_ || shared_.stopping()) {
                        finished = true;
                        break;
                    }
                    shared_.hungry = true;
                    shared_.queue_ready.wait_for(lock, std::chrono::milliseconds(5));
                }
                if (finished) {
                    shared_.queue_ready.notify_all();
                    break;
                }
                task = std::move(shared_.queue.front());
                shared_.queue.pop_front();
                --shared_.idle;
            }
            if (shared_.stopping()) continue;
            const Root& root = *live_[task.root];
            search.reset(task.root, root.d, root.bounds);
            std::optional<Certifier> piece;   // a certificate's piece: its text, texts_[task.piece]
            if (certifier_) search.certify(&piece.emplace(*certifier_, task.piece));
            if (search.run(task, bound) && !shared_.found.exchange(true)) {
                std::lock_guard<std::mutex> lock(shared_.mutex);
                shared_.solution = search.path();
                shared_.solution_target = root.target;
            }
            if (piece) texts_[task.piece] = piece->take();   // each worker its own pieces' places
        }
        search.publish_nodes();
        shared_.lagrangian_iterations += search.lagrangian_iterations();
    }

    static double seconds_since(Clock::time_point start) {
        return std::chrono::duration<double>(Clock::now() - start).count();
    }

    Outcome& finish(Outcome& out) {
        out.nodes = shared_.nodes.load();
        out.seconds = seconds_since(start_);
        return out;
    }

public:
    const Lattice& lattice() const { return lattice_; }

    // The cubes of the board (of options.cube when given) at options.bound, options.split_depth decisions
    // down; the search of the cubes options.cube names at options.bound, in turn; and, after a search its
    // node budget stopped, with options.hand_back, the cubes of what it had not searched. All in cubes.h.
    CubeListing split();
    Outcome solve_cube();
    CubeListing handed_back() const;

private:
    TranspositionTable* table() { return tt_ ? &*tt_ : nullptr; }

    const Options options_;   // a copy: a certificate run changes three of its switches (certifiable)
    Board board_;
    Lattice lattice_;
    LineCosts<L> costs_;
    std::optional<TranspositionTable> tt_;   // with --tt only: its memory is mapped, not left to malloc
    std::vector<Root> roots_;
    std::vector<Root*> live_;
    Shared shared_;
    int threads_ = 1;
    Certifier* certifier_ = nullptr;   // while a certificate is written
    std::vector<uint16_t> annealed_;   // the shortest solution annealing has met (empty: none)
    int annealed_target_ = 0;
    std::vector<std::string> texts_;   // its pieces' texts, by Task::piece
    Clock::time_point start_;
};

}  // namespace
}  // namespace unflip
