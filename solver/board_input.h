// board input: reading and validating the board text, so the search only ever sees a board it can take.
#pragma once

#include <cstdint>
#include <cstdio>
#include <istream>
#include <sstream>
#include <string>
#include <vector>

#include "errors.h"
#include "contract.h"

namespace unflip {
namespace {

// A board as rows of tile colours 0/1 (the 1/2 encoding already mapped: 1 -> 0, 2 -> 1); under tri, rows of
// tile − 1 (0, 1 or 2): the presses each tile needs, mod 3.
using Board = std::vector<std::vector<uint8_t>>;

inline std::string describe_char(char ch) {
    unsigned char u = static_cast<unsigned char>(ch);
    if (u >= 0x21 && u < 0x7f) return std::string("'") + ch + "'";
    if (ch == ' ') return "a space";
    if (ch == '\t') return "a tab";
    char buf[16];
    std::snprintf(buf, sizeof buf, "byte 0x%02x", u);
    return buf;
}

inline std::string read_all(std::istream& in, const std::string& source) {
    std::string text;
    char buf[4096];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        text.append(buf, static_cast<size_t>(in.gcount()));
        if (text.size() > kMaxInputBytes)
            throw Rejected(source + " is larger than " + std::to_string(kMaxInputBytes) +
                   " bytes; a board is at most " + std::to_string(kMaxSide) + " lines of " +
                           std::to_string(kMaxSide) + " digits");
    }
    return text;
}

// Under tri, the board is the game's digits 1, 2, 3 and nothing else.
inline Board parse_board(const std::string& text, bool tri = false) {
    std::vector<std::string> lines;
    std::stringstream stream(text);
    for (std::string line; std::getline(stream, line);) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
            line.pop_back();
        lines.push_back(line);
    }
    while (!lines.empty() && lines.back().empty()) lines.pop_back();
    const char* digits = tri ? "1/2/3" : "0/1 or 1/2";
    if (lines.empty()) throw Rejected(std::string("empty input: expected N lines of N digits (") + digits + ")");

    int first_zero_line = 0, first_two_line = 0;
    for (size_t i = 0; i < lines.size(); ++i) {
        const int line_no = static_cast<int>(i) + 1;
        if (lines[i].empty())
            throw Rejected("line " + std::to_string(line_no) + " is blank; board rows must be consecutive");
        for (size_t j = 0; j < lines[i].size(); ++j) {
            char ch = lines[i][j];
            if (tri ? ch != '1' && ch != '2' && ch != '3' : ch != '0' && ch != '1' && ch != '2')
                throw Rejected("line " + std::to_string(line_no) + ", column " + std::to_string(j + 1) + ": " +
                       describe_char(ch) + " is not a tile (" + (tri ? "tri tiles are 1/2/3" : "tiles are 0/1 or 1/2") +
                       " digits)");
            if (ch == '0' && !first_zero_line) first_zero_line = line_no;
            if (ch == '2' && !first_two_line) first_two_line = line_no;
        }
        if (lines[i].size() != lines[0].size())
            throw Rejected("line " + std::to_string(line_no) + " has " + std::to_string(lines[i].size()) +
                   " tiles but line 1 has " + std::to_string(lines[0].size()) +
                   "; every row must have the same length");
    }
    const size_t rows = lines.size(), cols = lines[0].size();
    if (rows < kMinSide || rows > kMaxSide || cols < kMinSide || cols > kMaxSide)
        throw Rejected("the board is " + std::to_string(rows) + "x" + std::to_string(cols) +
                       " (rows x columns); each must be " + std::to_string(kMinSide) + " to " +
                       std::to_string(kMaxSide));
    if (first_zero_line && first_two_line)
        throw Rejected("the board mixes encodings: a 0 on line " + std::to_string(first_zero_line) +
               " and a 2 on line " + std::to_string(first_two_line) + "; use 0/1 or 1/2 throughout");

    if (tri) {
        Board board(rows, std::vector<uint8_t>(cols));
        for (size_t i = 0; i < rows; ++i)
            for (size_t j = 0; j < cols; ++j) board[i][j] = static_cast<uint8_t>(lines[i][j] - '1');
        return board;
    }
    // With a 2 anywhere the board is in the game's 1/2 encoding; otherwise digits are colours already.
    const char zero = first_two_line ? '1' : '0';
    Board board(rows, std::vector<uint8_t>(cols));
    for (size_t i = 0; i < rows; ++i)
        for (size_t j = 0; j < cols; ++j) board[i][j] = lines[i][j] == zero ? 0 : 1;
    return board;
}

}  // namespace
}  // namespace unflip
