#include "core/text.h"

#include <algorithm>
#include <cstddef>

namespace companyos {
namespace {

struct LeadByte {
  std::size_t length;  // bytes in the sequence
  char32_t bits;       // payload carried by the lead byte
  char32_t minimum;    // smallest code point this length may encode
};

std::optional<LeadByte> read_lead(unsigned char byte) {
  if (byte < 0x80) return LeadByte{1, byte, 0};
  if ((byte & 0xE0) == 0xC0) return LeadByte{2, byte & 0x1Fu, 0x80};
  if ((byte & 0xF0) == 0xE0) return LeadByte{3, byte & 0x0Fu, 0x800};
  if ((byte & 0xF8) == 0xF0) return LeadByte{4, byte & 0x07u, 0x10000};
  return std::nullopt;
}

struct Decoded {
  char32_t code_point;
  std::size_t length;  // bytes it took
};

// The character that starts at text[i], or nullopt when the bytes there are not one.
std::optional<Decoded> decode_at(std::string_view text, std::size_t i) {
  const auto lead = read_lead(static_cast<unsigned char>(text[i]));
  if (!lead || i + lead->length > text.size()) return std::nullopt;
  char32_t code_point = lead->bits;
  for (std::size_t k = 1; k < lead->length; ++k) {
    const auto byte = static_cast<unsigned char>(text[i + k]);
    if ((byte & 0xC0) != 0x80) return std::nullopt;
    code_point = (code_point << 6) | (byte & 0x3Fu);
  }
  if (code_point < lead->minimum || code_point > 0x10FFFF ||
      (code_point >= 0xD800 && code_point <= 0xDFFF)) {
    return std::nullopt;
  }
  return Decoded{code_point, lead->length};
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    const auto decoded = decode_at(text, i);
    if (!decoded) return false;
    i += decoded->length;
  }
  return true;
}

bool is_valid_utf8_without_nul(std::string_view text) {
  return text.find('\0') == std::string_view::npos && is_valid_utf8(text);
}

std::optional<std::u32string> decode_utf8(std::string_view text) {
  std::u32string decoded;
  std::size_t i = 0;
  while (i < text.size()) {
    const auto next = decode_at(text, i);
    if (!next) return std::nullopt;
    decoded.push_back(next->code_point);
    i += next->length;
  }
  return decoded;
}

namespace {

char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

bool equals_ignoring_ascii_case(std::string_view a, std::string_view b) {
  return std::ranges::equal(a, b, {}, ascii_lower, ascii_lower);
}

std::string ascii_lowercase(std::string_view text) {
  std::string lower(text);
  std::ranges::transform(lower, lower.begin(), ascii_lower);
  return lower;
}

std::string_view trim_ascii_space(std::string_view text) {
  constexpr std::string_view kSpace = " \t\n\r\f\v";
  const auto first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kSpace) - first + 1);
}

}  // namespace companyos

namespace companyos {
namespace {

bool is_bidi_control(char32_t c) {
  return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) ||
         (c >= 0x2066 && c <= 0x2069);
}

void append_hex(std::string& out, const char* prefix, unsigned value, int digits) {
  static constexpr char kDigits[] = "0123456789abcdef";
  out += prefix;
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) out.push_back(kDigits[(value >> shift) & 0xF]);
}

// Appends the escape of the character at text[i] when it needs one, and says how many
// bytes it took (0: none needed, copy the byte).
std::size_t escape_at(std::string_view text, std::size_t i, bool keep_newlines, std::string* out) {
  const auto byte = static_cast<unsigned char>(text[i]);
  if (byte < 0x80) {
    if (byte >= 0x20 && byte != 0x7F) return 0;
    if (byte == '\n' && keep_newlines) return 0;
    if (out != nullptr) {
      switch (byte) {
        case '\n': *out += "\\n"; break;
        case '\t': *out += "\\t"; break;
        case '\r': *out += "\\r"; break;
        default: append_hex(*out, "\\x", byte, 2);
      }
    }
    return 1;
  }
  const auto decoded = decode_at(text, i);
  if (!decoded) {
    if (out != nullptr) append_hex(*out, "\\x", byte, 2);
    return 1;
  }
  const char32_t c = decoded->code_point;
  if (!(c >= 0x80 && c <= 0x9F) && !is_bidi_control(c)) return 0;
  if (out != nullptr) append_hex(*out, "\\u", static_cast<unsigned>(c), 4);
  return decoded->length;
}

}  // namespace

std::string escape_for_terminal(std::string_view text, bool keep_newlines) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t taken = escape_at(text, i, keep_newlines, &out);
    if (taken == 0) {
      // A whole character: multi-byte sequences are copied together.
      const auto decoded = static_cast<unsigned char>(text[i]) < 0x80 ? std::nullopt : decode_at(text, i);
      const std::size_t length = decoded ? decoded->length : 1;
      out.append(text.substr(i, length));
      i += length;
    } else {
      i += taken;
    }
  }
  return out;
}

std::string quote_for_terminal(std::string_view text, std::size_t limit) {
  std::string quoted;
  std::size_t written = 0;
  for (char c : text) {
    // Cut only at a UTF-8 lead byte so a multi-byte character is never split.
    if (limit != 0 && written >= limit && (static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      quoted += "…";
      break;
    }
    if (c == '"' || c == '\\') quoted.push_back('\\');
    quoted.push_back(c);
    ++written;
  }
  return "\"" + escape_for_terminal(quoted) + "\"";
}

std::string with_thousands(std::int64_t count) {
  std::string digits = std::to_string(count < 0 ? -count : count);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return count < 0 ? "-" + out : out;
}

std::size_t count_characters(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

}  // namespace companyos
