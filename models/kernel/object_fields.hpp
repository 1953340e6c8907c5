// The fields the kernel model knows for each object type. A layout may place only these (so a
// typo is an error, not a field nothing reads), and the model reads and writes only these.
#pragma once

#include <map>
#include <set>
#include <string>

namespace walksim::kernel {

const std::map<std::string, std::set<std::string>>& known_object_fields();

}  // namespace walksim::kernel
