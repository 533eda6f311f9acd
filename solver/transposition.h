// transposition: the lock-free table shared by all threads.
//
// For each difference state, the largest remaining budget that already failed from it. One 64-bit word an
// entry (58-bit fingerprint, 6-bit budget) so plain atomic loads and stores stay consistent without locks;
// two slots a bucket, the first kept for the larger budget, the second always replaced. A lost or
// overwritten entry only costs a re-search, never a wrong answer; entries are written only for subtrees
// that were searched to the end (see Search::dfs).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <sys/mman.h>

#include "errors.h"
#include "lattice.h"

namespace unflip {
namespace {

constexpr int kMaxStoredBudget = 63;            // a table entry keeps the failed budget in 6 bits
constexpr int kInitialTableLog2 = 12;           // 64 KiB: the table grows with the search
constexpr int kLargeTableLog2 = 24;             // 256 MB, the most it grows to on boards from 9×9 up
constexpr int kSmallTableLog2 = 20;             // 16 MB below that, where searches are short
constexpr int kLargeTableFromSize = 9;

inline uint64_t splitmix64(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// The words mixed from the last to the first, each into the hash of those after it.
template <class L>
inline uint64_t hash_of(const Bits<L>& d) {
    uint64_t hash = splitmix64(d.w[L::kWords - 1]);
    for (int word = L::kWords - 2; word >= 0; --word) hash = splitmix64(d.w[word] ^ hash);
    return hash;
}
// A tri grid's: its second plane's words, then the first's.
template <class L>
inline uint64_t hash_of(const TriBits<L>& d) {
    uint64_t hash = hash_of(d.two);
    for (int word = L::kWords - 1; word >= 0; --word) hash = splitmix64(d.one.w[word] ^ hash);
    return hash;
}

class TranspositionTable {
public:
    // The table starts small and grows between bound iterations (when no thread is using it) as the
    // search proves big enough to need it, up to `max_log2_buckets`. A 256 MB table costs about 0.15 s
    // of page faults before it is any use, which would dominate the many boards solved in a few
    // thousand nodes.
    TranspositionTable(int initial_log2_buckets, int max_log2_buckets) : max_log2_(max_log2_buckets) {
        allocate(std::min(initial_log2_buckets, max_log2_buckets));
    }
    ~TranspositionTable() { munmap(slots_, bytes_); }
    TranspositionTable(const TranspositionTable&) = delete;
    TranspositionTable& operator=(const TranspositionTable&) = delete;

    size_t buckets() const { return mask_ + 1; }

    // Not thread-safe: only between iterations. Entries move to the bigger table; none is lost.
    void grow_for(uint64_t expected_entries) {
        int log2 = log2_;
        while (log2 < max_log2_ && (size_t{1} << log2) < expected_entries) ++log2;
        if (log2 == log2_) return;
        std::atomic<uint64_t>* old_slots = slots_;
        const size_t old_buckets = buckets(), old_bytes = bytes_;
        allocate(log2);
        for (size_t b = 0; b < old_buckets; ++b)
            for (int s = 1; s >= 0; --s) {
                const uint64_t e = old_slots[b * 2 + s].load(std::memory_order_relaxed);
                // The fingerprint holds the hash above its low kBudgetBits bits, and the old bucket
                // index those (tables have at least 2^kBudgetBits buckets), so the whole hash is recovered.
                if (e) record_failure((fingerprint_of(e) << kBudgetBits) | (b & kBudgetMask), budget_of(e));
            }
        munmap(old_slots, old_bytes);
    }

    int failed_budget(uint64_t hash) const {
        const std::atomic<uint64_t>* bucket = slots_ + (hash & mask_) * 2;
        const uint64_t fingerprint = hash >> kBudgetBits;
        for (int s = 0; s < 2; ++s) {
            const uint64_t e = bucket[s].load(std::memory_order_relaxed);
            if (e && fingerprint_of(e) == fingerprint) return budget_of(e);
        }
        return -1;
    }

    void record_failure(uint64_t hash, int budget) {
        if (budget < 1 || budget > kMaxStoredBudget) return;
        std::atomic<uint64_t>* bucket = slots_ + (hash & mask_) * 2;
        const uint64_t fingerprint = hash >> kBudgetBits, entry = pack(fingerprint, budget);
        const uint64_t kept = bucket[0].load(std::memory_order_relaxed);
        if (!kept || fingerprint_of(kept) == fingerprint || budget_of(kept) <= budget) {
            if (kept && fingerprint_of(kept) != fingerprint) bucket[1].store(kept, std::memory_order_relaxed);
            bucket[0].store(entry, std::memory_order_relaxed);
        } else {
            bucket[1].store(entry, std::memory_order_relaxed);
        }
    }

private:
    // An entry: the state's fingerprint (its hash without the low kBudgetBits bits) above the budget.
    static constexpr int kBudgetBits = 6;
    static constexpr uint64_t kBudgetMask = (uint64_t{1} << kBudgetBits) - 1;
    static_assert(kMaxStoredBudget <= static_cast<int>(kBudgetMask), "a stored budget must fit its bits");
    static uint64_t pack(uint64_t fingerprint, int budget) {
        return (fingerprint << kBudgetBits) | static_cast<uint64_t>(budget);
    }
    static uint64_t fingerprint_of(uint64_t entry) { return entry >> kBudgetBits; }
    static int budget_of(uint64_t entry) { return static_cast<int>(entry & kBudgetMask); }

    // On failure the table is left as it was, so growing can fail without losing it.
    void allocate(int log2) {
        const size_t bytes = (size_t{1} << log2) * 2 * sizeof(uint64_t);
        // Fresh anonymous pages are zero (an empty table) and paid for only when touched. Entries land
        // at random, so with 4 KiB pages a search faults in nearly every page; huge pages cut those
        // faults 512-fold.
        void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (memory == MAP_FAILED)
            throw AllocationFailed("cannot allocate the transposition table (" + std::to_string(bytes >> 20) +
                                   " MiB)");
        madvise(memory, bytes, MADV_HUGEPAGE);
        slots_ = static_cast<std::atomic<uint64_t>*>(memory);
        log2_ = log2;
        mask_ = (size_t{1} << log2) - 1;
        bytes_ = bytes;
    }

    int log2_ = 0, max_log2_ = 0;
    size_t mask_ = 0, bytes_ = 0;
    std::atomic<uint64_t>* slots_ = nullptr;
};

}  // namespace
}  // namespace unflip
