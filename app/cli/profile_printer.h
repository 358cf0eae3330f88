#pragma once
// Human-readable profiles and machine models for the terminal.
#include "machine/machine_model.h"
#include "profile/profile_report.h"

#include <cstdio>

namespace kw::cli {

void printProfile(std::FILE* out, const profile::ProfileReport& report);
void printMachine(std::FILE* out, const machine::MachineModel& model);

} // namespace kw::cli
