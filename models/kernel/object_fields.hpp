// The fields the kernel model knows for each object type. A layout may place only these (so a
// typo is an error, not a field nothing reads), and the model reads and writes only these.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>

namespace walksim::kernel {

const std::map<std::string, std::set<std::string>>& known_object_fields();

// A field that is the later bytes of the member before it, not a member of its own: d_iname_tail,
// the inline name past its first word (d_iname). Nothing may be placed between the two.
inline bool continues_previous_field(std::string_view field) { return field == "d_iname_tail"; }

}  // namespace walksim::kernel
