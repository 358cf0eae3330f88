#pragma once
#include "args.h"
#include "commands.h"

namespace kw::cli {

// kernelwright-cli search retime ID NODE... [--time-budget S] [--executor ...]
int runSearchRetime(const Args& args, const GlobalOptions& global);

} // namespace kw::cli
