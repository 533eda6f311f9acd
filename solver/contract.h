// contract: the solver's exit statuses and the limits of what it accepts, from contract.def, where each
// is written down once for the C++ core and the Python front end alike (docs/protocol.md describes the
// protocol they belong to). Here: the ExitCode enum, each limit's value as the code uses it, and the
// entries in file order for `--contract`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace unflip {
namespace {

enum class ExitCode : int {
#define UNFLIP_EXIT(name, status, meaning) name = status,
#define UNFLIP_LIMIT(name, value, meaning)
#include "contract.def"
#undef UNFLIP_EXIT
#undef UNFLIP_LIMIT
};

// A limit as contract.def writes it, and what that text means: a whole number exactly (2^64 - 1 does
// not fit a double), or any number as the nearest double. Read by the compiler, so the values the code
// uses cannot differ from the text the front end reads.
struct Limit {
    const char* text;
    bool whole;           // digits only
    uint64_t whole_value;
    double value;
};

constexpr Limit read_limit(const char* text) {
    Limit limit{text, true, 0, 0};
    uint64_t digits = 0;
    int exponent = 0;
    const char* c = text;
    for (; *c >= '0' && *c <= '9'; ++c) digits = digits * 10 + static_cast<uint64_t>(*c - '0');
    if (*c == '.')
        for (++c; *c >= '0' && *c <= '9'; ++c) {
            digits = digits * 10 + static_cast<uint64_t>(*c - '0');
            --exponent;
        }
    if (*c == 'e' || *c == 'E') {
        ++c;
        const bool negative = *c == '-';
        if (*c == '-' || *c == '+') ++c;
        int written = 0;
        for (; *c >= '0' && *c <= '9'; ++c) written = written * 10 + (*c - '0');
        exponent += negative ? -written : written;
    }
    limit.whole = c != text && exponent == 0 && *c == '\0';
    for (const char* d = text; *d; ++d) limit.whole = limit.whole && *d >= '0' && *d <= '9';
    limit.whole_value = digits;
    // 10^|exponent| is exact in a double for the exponents a limit needs, so this rounds once.
    double scale = 1;
    for (int e = exponent < 0 ? -exponent : exponent; e > 0; --e) scale *= 10;
    limit.value = exponent < 0 ? static_cast<double>(digits) / scale : static_cast<double>(digits) * scale;
    return limit;
}

namespace limit {
#define UNFLIP_EXIT(name, status, meaning)
#define UNFLIP_LIMIT(name, value, meaning) constexpr Limit name = read_limit(#value);
#include "contract.def"
#undef UNFLIP_EXIT
#undef UNFLIP_LIMIT
}  // namespace limit

// A limit in the type it bounds; a whole type needs a whole limit, or the build fails.
template <typename T>
constexpr T limit_as(const Limit& limit) {
    if constexpr (std::is_integral<T>::value) {
        return limit.whole ? static_cast<T>(limit.whole_value) : throw "a whole limit is written as a fraction";
    } else {
        return static_cast<T>(limit.value);
    }
}

constexpr int kMinSide = limit_as<int>(limit::min_side);
constexpr int kMaxSide = limit_as<int>(limit::max_side);
constexpr size_t kMaxInputBytes = limit_as<size_t>(limit::max_input_bytes);

// contract.def's entries in its order, as `--contract` prints them: each value exactly as written.
struct ContractEntry {
    const char* kind;
    const char* name;
    const char* value;
};
constexpr ContractEntry kContractEntries[] = {
#define UNFLIP_EXIT(name, status, meaning) {"EXIT", #name, #status},
#define UNFLIP_LIMIT(name, value, meaning) {"LIMIT", #name, #value},
#include "contract.def"
#undef UNFLIP_EXIT
#undef UNFLIP_LIMIT
};

}  // namespace
}  // namespace unflip
