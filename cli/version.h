// d3dcap --version: this build's version and commit, and the replay devices
// this machine has.
#pragma once

#include <string>

namespace d3dcap::cli {

std::string version_text();

}  // namespace d3dcap::cli
