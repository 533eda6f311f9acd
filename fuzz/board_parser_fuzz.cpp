// libFuzzer harness for the solver's board input: read_all (the 64 KiB cap) and parse_board, called from
// solver/board_input.h as the solver calls them. Run it with `make fuzz` (docs: the checks); the test suite
// runs it briefly.
//
// What must hold for every input:
//   - a rejected input is a Rejected exception whose reason is one line (the solver's main prints it as
//     `error: <reason>` and exits 2), with nothing written to standard error;
//   - an accepted one is kMinSide to kMaxSide rows (the contract's min_side and max_side) of one width of
//     as many tiles of 0/1, read without a word on standard error, and written back out as 0/1 digits (and
//     as 1/2 digits, unless it is all white, which the protocol reads as 0/1) it parses to itself;
//   - and nothing that AddressSanitizer or UndefinedBehaviorSanitizer would report.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>

#include "../solver/board_input.h"

namespace {

using namespace unflip;

// Standard error as a string while the parser runs: glibc lets the stream be swapped for a memory stream.
class CapturedStderr {
public:
    CapturedStderr() : saved_(stderr) { stderr = open_memstream(&data_, &size_); }
    ~CapturedStderr() { finish(); }
    std::string finish() {
        if (stderr != saved_) {
            std::fclose(stderr);
            stderr = saved_;
        }
        std::string text(data_ ? data_ : "", size_);
        std::free(data_);
        data_ = nullptr;
        size_ = 0;
        return text;
    }

private:
    FILE* saved_;
    char* data_ = nullptr;
    size_t size_ = 0;
};

[[noreturn]] void violated(const std::string& what, const std::string& input) {
    std::fprintf(stderr, "property violated: %s\ninput (%zu bytes)\n", what.c_str(), input.size());
    std::abort();
}

// The board the solver reads from text, or nothing and the reason it rejects the text; either way with what
// the parser wrote on standard error.
std::optional<Board> parse(const std::string& text, std::string& reason, std::string& errors) {
    CapturedStderr captured;
    try {
        std::istringstream in(text);
        Board board = parse_board(read_all(in, "standard input"));
        errors = captured.finish();
        return board;
    } catch (const Rejected& rejected) {
        errors = captured.finish();
        reason = rejected.what();
        return std::nullopt;
    }
}

std::string digits(const Board& board, char white, char black) {
    std::string text;
    for (const auto& row : board) {
        for (uint8_t tile : row) text += tile ? black : white;
        text += '\n';
    }
    return text;
}

void reads_back(const Board& board, char white, char black, const std::string& input) {
    std::string reason, errors;
    const std::optional<Board> again = parse(digits(board, white, black), reason, errors);
    if (!again || *again != board)
        violated(std::string("the board written as ") + white + "/" + black + " digits reads differently", input);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string input(reinterpret_cast<const char*>(data), size);
    std::string reason, errors;
    const std::optional<Board> board = parse(input, reason, errors);
    if (!errors.empty()) violated("the parser wrote to standard error", input);
    if (!board) {
        if (reason.empty() || reason.find('\n') != std::string::npos)
            violated("a rejection's reason is not one line", input);
        return 0;
    }
    const size_t rows = board->size(), width = rows ? board->front().size() : 0;
    if (rows < kMinSide || rows > kMaxSide) violated("accepted a board of " + std::to_string(rows) + " rows", input);
    if (width < kMinSide || width > kMaxSide) violated("accepted a board " + std::to_string(width) + " tiles wide", input);
    bool all_white = true;
    for (const auto& row : *board) {
        if (row.size() != width) violated("accepted a board whose rows differ in width", input);
        for (uint8_t tile : row) {
            if (tile > 1) violated("a tile is neither 0 nor 1", input);
            all_white = all_white && tile == 0;
        }
    }
    reads_back(*board, '0', '1', input);
    if (!all_white) reads_back(*board, '1', '2', input);
    return 0;
}
