// switches: every technique the search has, on or off (and its numbers), so that each one's worth can be
// measured. The command line's switch table sets them; the lower bounds' switches come from bounds.def.
#pragma once

namespace unflip {
namespace {

struct Switches {
    // Off unless asked for: sibling exclusion already removes nearly every transposition, so on the
    // weekly levels the table prunes 1-4% of nodes while its cache misses cost 1.5-2x the time
    // (bench/switches.py; docs/results.md, "What each technique is worth").
    bool tt = false;         // transposition table
    bool exclusion = true;   // a branch forbids the sibling moves tried before it
    bool ordering = true;    // try moves clearing more 1-points first
    bool fewest_branches = true;  // branch at the 1-point with the fewest available moves
    bool work_estimate = true;   // high in the tree, branch where the children's estimated work sums least
    bool symmetry = true;    // a branch whose move is an image of an earlier one's is not searched
    bool parity_weights = true;   // the parity rows' duals bound the subtree below their LP too
    bool lp_updates = true;  // the LP's duals and primal follow each pivot by rank-one changes
    bool dual_repair = true;  // a move the LP's rounded duals overload is mended, not the proof lost
    bool annealing = true;   // after a costly bound, look for a solution one move longer by annealing
    // A node's LP starts from the one solved above it with the parity rows that bind there, so that it
    // needs fewer rounds of its own (docs/experiments/2026-12-03-parity-rows-kept-for-the-nodes-below.md).
    bool kept_parity_rows = true;
    // At nodes with lagrangian_from moves left or more, the Lagrangian of the LP with parity rows of the
    // node's own (lagrangian.h), lagrangian_iterations subgradient steps at most.
    bool lagrangian = true;
    // Each lower bound, on unless its switch turns it off.
#define UNFLIP_BOUND(type, field, flag, help) bool field = true;
#include "bounds.def"
#undef UNFLIP_BOUND
    int tt_min_budget = 3;   // the table is consulted only this far from the leaves
    int estimate_from = 10;  // the work estimate chooses the branch point with this many moves left or more
    int parity_rounds = 6;   // rounds of parity rows cutting a node's LP (0: none)
    int parity_gain = 80;    // below the root, the rounds end at one that raised the LP by less than this
                             // many hundredths of a move (0: all parity_rounds of them)
    int anneal_after = 100000;   // annealing follows a bound that took this many nodes or more
    int lp_after = 2000;     // the covering LP is solved again at a node once its subtree has taken
                             // this many nodes (0: at the root only, lp_ahead too)
    int lp_ahead = 0;        // and on entering a node whose children the work estimate weighs at this
                             // much or more (0: never; 40 pays without the Lagrangian, which leaves the
                             // node LP little to do),
    int lp_ahead_from = 20;  // with this many moves left or more
    int lagrangian_from = 12;
    int lagrangian_iterations = 60;
};

}  // namespace
}  // namespace unflip
