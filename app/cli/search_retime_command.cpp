// kernelwright-cli search retime ID NODE... [--time-budget S]: nodes timed
// again alone beside what the search measured (search/node_retime.h).
#include "search_retime_command.h"

#include "executor_options.h"
#include "exit_codes.h"

#include "search/node_retime.h"
#include "store/search_store.h"
#include "util/paths.h"

#include <cstdio>
#include <cstdlib>

namespace kw::cli {
namespace {

std::string speedText(double speedup, std::pair<double, double> interval) {
    if (speedup <= 0) return "-";
    char text[64];
    if (interval.first > 0)
        std::snprintf(text, sizeof text, "%.3gx (%.2f-%.2f)", speedup, interval.first, interval.second);
    else
        std::snprintf(text, sizeof text, "%.3gx", speedup);
    return text;
}

} // namespace

int runSearchRetime(const Args& args, const GlobalOptions& global) {
    const auto& pos = args.positional();
    if (pos.size() < 3) {
        std::fprintf(stderr, "usage: kernelwright-cli search retime ID NODE... [--time-budget S] (NODE: #N, as search show "
                             "lists them)\n");
        return kExitUsage;
    }
    search::RetimeRequest request;
    request.database = global.database.empty() ? paths::defaultDatabase() : std::filesystem::path(global.database);
    char* end = nullptr;
    request.searchId = std::strtoll(pos[1].c_str(), &end, 10);
    if (pos[1].empty() || *end || request.searchId < 1) {
        std::fprintf(stderr, "search retime: '%s' is not a search id (see `search list`)\n", pos[1].c_str());
        return kExitUsage;
    }
    if (auto budget = args.value("time-budget")) {
        request.timeBudgetS = std::strtod(budget->c_str(), &end);
        if (budget->empty() || *end || !(request.timeBudgetS > 0) || request.timeBudgetS > 600) {
            std::fprintf(stderr, "search retime: --time-budget is seconds per timing shape, more than 0 and at most 600\n");
            return kExitUsage;
        }
    }
    auto choice = executorChoice(args, 1);
    if (!choice) {
        std::fprintf(stderr, "search retime: %s\n", choice.error().message.c_str());
        return exitCodeFor(choice.error());
    }
    request.executor = *choice;
    {
        auto db = store::Database::open(request.database);
        if (!db) {
            std::fprintf(stderr, "search retime: %s\n", db.error().message.c_str());
            return kExitError;
        }
        store::SearchStore store(*db);
        for (std::size_t i = 2; i < pos.size(); ++i) {
            const std::string number = pos[i][0] == '#' ? pos[i].substr(1) : pos[i];
            const long long seq = std::strtoll(number.c_str(), &end, 10);
            auto id = number.empty() || *end
                          ? Result<std::int64_t>(makeError(ErrorCode::Validation, "'" + pos[i] + "' is not a node number (#N)"))
                          : store.nodeIdOfNumber(request.searchId, seq);
            if (!id) {
                std::fprintf(stderr, "search retime: %s\n", id.error().message.c_str());
                return kExitUsage;
            }
            request.nodeIds.push_back(*id);
        }
    }
    std::printf("%6s  %-26s %-26s %s\n", "node", "in the search (95 %)", "alone (95 %)", "verdict");
    std::fflush(stdout);
    auto rows = search::retimeNodes(request, [](const search::RetimeRow& r) {
        std::printf("%6s  %-26s %-26s %s%s%s\n", ("#" + std::to_string(r.seq)).c_str(),
                    speedText(r.inSearch, r.inSearchInterval).c_str(), speedText(r.alone, r.aloneInterval).c_str(),
                    r.status.c_str(), r.message.empty() ? "" : ": ", r.message.c_str());
        std::fflush(stdout);
    });
    if (!rows) {
        std::fprintf(stderr, "search retime: %s\n", rows.error().message.c_str());
        return exitCodeFor(rows.error());
    }
    return kExitOk;
}

} // namespace kw::cli
