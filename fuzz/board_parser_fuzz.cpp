// libFuzzer harness for the solver's board input: read_all (the 64 KiB cap) and parse_board, compiled out
// of unflip_solver.cpp unchanged. Run it with `make fuzz` (README, "Checks"); the test suite runs it briefly.
//
// What must hold for every input:
//   - a rejected input is exactly one line `error: ...` on standard error and exit status 2, nothing else;
//   - an accepted one is 2 to 15 rows of one width, 2 to 15 tiles of 0/1, read without a word on standard
//     error, and written back out as 0/1 digits (and as 1/2 digits, unless it is all white, which the
//     protocol reads as 0/1) it parses to itself;
//   - and nothing that AddressSanitizer or UndefinedBehaviorSanitizer would report.
//
// The solver rejects input through std::exit(2), which libFuzzer would count as a crash. So `exit` is renamed
// for the solver's source to a function that throws instead, and its `main` is renamed out of libFuzzer's
// way. Every standard header is included first, so only the solver's own code sees the new name.

#include <bits/stdc++.h>
#include <sys/mman.h>

namespace unflip_fuzz {
struct Exited {
    int status;
};
}  // namespace unflip_fuzz

namespace std {
[[noreturn]] inline void unflip_fuzz_exit(int status) { throw unflip_fuzz::Exited{status}; }
}  // namespace std

#define exit unflip_fuzz_exit
#define main unflip_solver_main
#include "../unflip_solver.cpp"
#undef main
#undef exit

namespace {

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

// The board the solver reads from text, or nothing, with what it wrote on standard error.
std::optional<Board> parse(const std::string& text, std::string& errors) {
    CapturedStderr captured;
    try {
        std::istringstream in(text);
        Board board = parse_board(read_all(in, "standard input"));
        errors = captured.finish();
        return board;
    } catch (const unflip_fuzz::Exited& exited) {
        errors = captured.finish();
        if (exited.status != 2) violated("exit status " + std::to_string(exited.status) + " (expected 2)", text);
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
    std::string errors;
    const std::optional<Board> again = parse(digits(board, white, black), errors);
    if (!again || *again != board)
        violated(std::string("the board written as ") + white + "/" + black + " digits reads differently", input);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string input(reinterpret_cast<const char*>(data), size);
    std::string errors;
    const std::optional<Board> board = parse(input, errors);
    if (!board) {
        const bool one_line = errors.size() > 1 && errors.find('\n') == errors.size() - 1;
        if (errors.rfind("error: ", 0) != 0 || !one_line) violated("a rejection is not one 'error:' line", input);
        return 0;
    }
    if (!errors.empty()) violated("an accepted board wrote to standard error", input);
    const size_t rows = board->size(), width = rows ? board->front().size() : 0;
    if (rows < 2 || rows > 15) violated("accepted a board of " + std::to_string(rows) + " rows", input);
    if (width < 2 || width > 15) violated("accepted a board " + std::to_string(width) + " tiles wide", input);
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
