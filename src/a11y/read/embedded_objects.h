// Web engines (Gecko, Chromium: the hypertext model of ATK and IAccessible2) stand for
// each embedded child of a text node — a link, an image, a nested section — with one
// U+FFFC OBJECT REPLACEMENT CHARACTER in the parent's text. A value full of them says
// nothing, so a snapshot puts each child's own text in its place.
#pragma once

#include <string>
#include <vector>

#include "a11y/model.h"

namespace companyos::a11y {

// For every node whose value holds U+FFFC: when it holds one per child, the k-th becomes
// the k-th child's text (its value, itself resolved, else its name); otherwise (children
// not read, or a toolkit that counts differently) every U+FFFC is dropped. Children come
// after their parent in `nodes`, as a depth-first read leaves them.
void resolve_embedded_objects(std::vector<Node>& nodes);

// The text with every U+FFFC removed.
std::string without_object_replacements(std::string text);

}  // namespace companyos::a11y
