#include "mcp/state_changes.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <vector>

namespace companyos::mcp {
namespace {

struct Line {
  std::string_view text;
  std::size_t indent = 0;
  std::optional<std::int64_t> number;  // the leading eN
  std::string key;                     // the line without its number
};

Line parse_line(std::string_view text) {
  Line line;
  line.text = text;
  line.indent = std::min(text.find_first_not_of(' '), text.size());
  line.key = std::string(text);
  std::string_view rest = text.substr(line.indent);
  if (rest.size() < 2 || rest[0] != 'e') return line;
  const std::size_t digits_end = std::min(rest.find(' '), rest.size());
  std::int64_t number = 0;
  const auto [end, error] = std::from_chars(rest.data() + 1, rest.data() + digits_end, number);
  if (error != std::errc() || end != rest.data() + digits_end || digits_end == 1) return line;
  line.number = number;
  line.key = std::string(text.substr(0, line.indent)) + "e" + std::string(rest.substr(digits_end));
  return line;
}

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> lines;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    lines.push_back(parse_line(text.substr(0, end)));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

enum class OpKind { kMatch, kRemove, kAdd };
struct Op {
  OpKind kind;
  std::size_t before = 0;  // index into the old lines (match, remove)
  std::size_t after = 0;   // index into the new lines (match, add)
};

// The edit script: the longest common subsequence of the lines' keys, with the lines both
// states start and end with set aside first.
std::optional<std::vector<Op>> edit_script(const std::vector<Line>& a, const std::vector<Line>& b) {
  std::size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix].key == b[prefix].key) ++prefix;
  std::size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix].key == b[b.size() - 1 - suffix].key) {
    ++suffix;
  }
  const std::size_t n = a.size() - prefix - suffix;
  const std::size_t m = b.size() - prefix - suffix;
  if (n > 0 && m > 0 && n * m > kMaxComparedLinePairs) return std::nullopt;

  std::vector<Op> ops;
  for (std::size_t i = 0; i < prefix; ++i) ops.push_back({OpKind::kMatch, i, i});
  // common[i][j]: the longest common subsequence of the middle's a[i..] and b[j..].
  std::vector<std::uint32_t> common((n + 1) * (m + 1), 0);
  const auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return common[i * (m + 1) + j]; };
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      at(i, j) = a[prefix + i].key == b[prefix + j].key ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    }
  }
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[prefix + i].key == b[prefix + j].key) {
      ops.push_back({OpKind::kMatch, prefix + i++, prefix + j++});
    } else if (j == m || (i < n && at(i + 1, j) >= at(i, j + 1))) {
      ops.push_back({OpKind::kRemove, prefix + i++, 0});
    } else {
      ops.push_back({OpKind::kAdd, 0, prefix + j++});
    }
  }
  for (std::size_t k = 0; k < suffix; ++k) {
    ops.push_back({OpKind::kMatch, a.size() - suffix + k, b.size() - suffix + k});
  }
  return ops;
}

std::string numbered(std::int64_t number) { return "e" + std::to_string(number); }

class ChangesWriter {
 public:
  ChangesWriter(const std::vector<Line>& before, const std::vector<Line>& after, const std::vector<Op>& ops)
      : a_(before), b_(after), ops_(ops) {}

  std::string write() {
    std::size_t k = 0;
    while (k < ops_.size()) {
      if (ops_[k].kind == OpKind::kMatch) {
        std::size_t end = k;
        while (end < ops_.size() && ops_[end].kind == OpKind::kMatch) ++end;
        write_matched(k, end);
        k = end;
      } else {
        std::size_t end = k;
        while (end < ops_.size() && ops_[end].kind != OpKind::kMatch) ++end;
        write_block(k, end);
        k = end;
      }
    }
    return out_;
  }

 private:
  std::int64_t delta(const Op& op) const {
    const auto& old_number = a_[op.before].number;
    const auto& new_number = b_[op.after].number;
    return old_number && new_number ? *new_number - *old_number : 0;
  }

  // Unchanged lines: those whose numbers moved are written as runs of one shift; the rest
  // are left out (the old state has them), unless a change below needs them as context.
  void write_matched(std::size_t begin, std::size_t end) {
    std::size_t k = begin;
    while (k < end) {
      if (!b_[ops_[k].after].number || delta(ops_[k]) == 0) {
        ++k;
        continue;
      }
      const std::int64_t shift = delta(ops_[k]);
      std::size_t last = k;
      std::size_t next = k + 1;
      while (next < end && (!b_[ops_[next].after].number || delta(ops_[next]) == shift)) {
        if (b_[ops_[next].after].number) last = next;
        ++next;
      }
      const Line& first_new = b_[ops_[k].after];
      std::string line = "= " + std::string(first_new.indent, ' ') + numbered(*first_new.number);
      if (last == k) {
        line += " unchanged, was " + numbered(*a_[ops_[k].before].number);
      } else {
        line += "-" + numbered(*b_[ops_[last].after].number) + " unchanged, were " +
                numbered(*a_[ops_[k].before].number) + "-" + numbered(*a_[ops_[last].before].number);
      }
      emit(line, ops_[last].before + 1);
      k = last + 1;
    }
  }

  // The containers of the block's first line (matched lines before it, less indented), and
  // with `anchor` the line just before it, which places a block that starts with an added line.
  void write_context(std::size_t begin, std::size_t end, bool anchor) {
    // The block's first line: its first added one, else its first removed one.
    const auto first = ops_.begin() + static_cast<std::ptrdiff_t>(begin);
    const auto last = ops_.begin() + static_cast<std::ptrdiff_t>(end);
    const auto added = std::find_if(first, last, [](const Op& op) { return op.kind == OpKind::kAdd; });
    std::size_t indent = added != last ? b_[added->after].indent : a_[first->before].indent;
    // The matched lines before the block, nearest first: the containers (less indented),
    // and the line just before it, which places the block.
    std::vector<std::size_t> context;
    for (std::size_t k = begin; k-- > 0;) {
      const Op& op = ops_[k];
      if (op.kind != OpKind::kMatch) continue;
      if (op.before < consumed_) break;
      const Line& line = b_[op.after];
      if (anchor || line.indent < indent) {
        if (delta(op) == 0) context.push_back(k);
        indent = std::min(indent, line.indent);
        anchor = false;
      }
      if (indent == 0) break;
    }
    for (auto it = context.rbegin(); it != context.rend(); ++it) {
      emit("  " + std::string(b_[ops_[*it].after].text), ops_[*it].before + 1);
    }
  }

  // Lines removed and added between two unchanged ones. An added line with the number of a
  // removed one replaces it ("~"), paired in order so both states' orders hold.
  void write_block(std::size_t begin, std::size_t end) {
    std::vector<std::size_t> removed;
    std::vector<std::size_t> added;
    for (std::size_t k = begin; k < end; ++k) (ops_[k].kind == OpKind::kRemove ? removed : added).push_back(k);
    struct Written {
      std::string line;
      std::size_t consumed;  // 0 for an added line, which consumes nothing
    };
    std::vector<Written> lines;
    const auto remove = [&](std::size_t k) {
      lines.push_back({"- " + std::string(a_[ops_[k].before].text), ops_[k].before + 1});
    };
    std::size_t next_removed = 0;
    for (const std::size_t add : added) {
      const Line& line = b_[ops_[add].after];
      std::optional<std::size_t> pair;
      for (std::size_t r = next_removed; r < removed.size() && line.number; ++r) {
        const Line& old = a_[ops_[removed[r]].before];
        if (old.number == line.number && old.indent == line.indent) {
          pair = r;
          break;
        }
      }
      if (!pair) {
        lines.push_back({"+ " + std::string(line.text), 0});
        continue;
      }
      for (; next_removed < *pair; ++next_removed) remove(removed[next_removed]);
      lines.push_back({"~ " + std::string(line.text), ops_[removed[*pair]].before + 1});
      next_removed = *pair + 1;
    }
    for (; next_removed < removed.size(); ++next_removed) remove(removed[next_removed]);
    // A "-" or "~" line finds its place by itself; a "+" line is placed after what came before.
    write_context(begin, end, !lines.empty() && lines.front().consumed == 0);
    for (const Written& written : lines) emit(written.line, written.consumed);
  }

  void emit(const std::string& line, std::size_t consumed) {
    out_ += line;
    out_.push_back('\n');
    consumed_ = std::max(consumed_, consumed);
  }

  const std::vector<Line>& a_;
  const std::vector<Line>& b_;
  const std::vector<Op>& ops_;
  std::string out_;
  std::size_t consumed_ = 0;  // old lines before this one are accounted for
};

}  // namespace

std::optional<std::string> outline_changes(std::string_view before, std::string_view after) {
  const std::vector<Line> a = split_lines(before);
  const std::vector<Line> b = split_lines(after);
  const auto ops = edit_script(a, b);
  if (!ops) return std::nullopt;
  return ChangesWriter(a, b, *ops).write();
}

}  // namespace companyos::mcp
