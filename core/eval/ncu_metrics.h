#pragma once
// The Nsight Compute metrics a job asks for at the ncu profile level
// (ncu --page raw --metrics ...); profile/ncu_report.h reads them back.
#include <string>

namespace kw::eval {

const std::string& ncuMetricList();

// run.sh lines that set NCU to Nsight Compute's command line, or leave it
// empty: KW_NCU, then PATH, then the bin/ of CUDA_HOME, of the toolkit of the
// job's nvcc (CUDA_ROOT, cuda jobs) and /usr/local/cuda. Both GPU judges
// take ncu from there.
std::string ncuLookupScript();

} // namespace kw::eval
