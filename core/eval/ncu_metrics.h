#pragma once
// The Nsight Compute metrics a job asks for at the ncu profile level
// (ncu --page raw --metrics ...); profile/ncu_report.h reads them back.
#include <string>

namespace ks::eval {

const std::string& ncuMetricList();

} // namespace ks::eval
