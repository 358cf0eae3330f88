#include "synth/llm/http_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <mutex>

namespace kw::synth::llm {
namespace {

using Clock = std::chrono::steady_clock;

struct Transfer {
    HttpResponse* response;
    const std::function<void(std::string_view)>* onData;
    std::stop_token stop;
    double firstByteLimitS;
    double idleLimitS;
    Clock::time_point lastByte;
    bool bodyStarted = false;
    bool cancelled = false;
    bool idle = false;
    bool firstByte = false; // the idle stop came before the body started
};

size_t onBody(char* data, size_t size, size_t count, void* user) {
    auto* t = static_cast<Transfer*>(user);
    const size_t n = size * count;
    t->lastByte = Clock::now();
    t->bodyStarted = true;
    t->response->body.append(data, n);
    if (t->onData && *t->onData) (*t->onData)(std::string_view(data, n));
    return n;
}

size_t onHeader(char* data, size_t size, size_t count, void* user) {
    auto* t = static_cast<Transfer*>(user);
    const size_t n = size * count;
    t->lastByte = Clock::now();
    std::string line(data, n);
    // A new status line (after a redirect or 100 Continue) starts a new header set.
    if (line.rfind("HTTP/", 0) == 0) t->response->headers.clear();
    const auto colon = line.find(':');
    if (colon == std::string::npos) return n;
    std::string name = line.substr(0, colon);
    std::string value = line.substr(colon + 1);
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const auto first = value.find_first_not_of(" \t");
    const auto last = value.find_last_not_of(" \t\r\n");
    value = first == std::string::npos ? std::string() : value.substr(first, last - first + 1);
    t->response->headers[name] = value;
    return n;
}

// Called by curl about once a second and on every transfer: cancellation and
// the idle limit are checked here (a non-zero return aborts the transfer).
int onProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    auto* t = static_cast<Transfer*>(user);
    if (t->stop.stop_requested()) {
        t->cancelled = true;
        return 1;
    }
    // Before the body starts the first-byte limit applies (a reasoning model
    // thinks in silence; a local server loads its model), the idle one after.
    const double limit = t->bodyStarted ? t->idleLimitS : t->firstByteLimitS;
    if (limit > 0 && std::chrono::duration<double>(Clock::now() - t->lastByte).count() > limit) {
        t->idle = true;
        t->firstByte = !t->bodyStarted;
        return 1;
    }
    return 0;
}

void globalInit() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

} // namespace

HttpResponse httpPost(const HttpRequest& request, const std::function<void(std::string_view)>& onData, std::stop_token stop) {
    globalInit();
    HttpResponse response;
    CURL* curl = curl_easy_init();
    if (!curl) {
        response.transport = TransportStatus::Other;
        response.transportError = "libcurl could not start a transfer";
        return response;
    }
    Transfer t{&response, &onData, stop, request.firstByteTimeoutS, request.idleTimeoutS, Clock::now()};
    curl_slist* headers = nullptr;
    for (const auto& h : request.headers) headers = curl_slist_append(headers, h.c_str());
    char errorBuffer[CURL_ERROR_SIZE] = {0};
    curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, onBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, onHeader);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &t);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, onProgress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &t);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L); // threads: no SIGALRM-based DNS timeouts
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(request.connectTimeoutS * 1000));
    if (request.totalTimeoutS > 0) curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(request.totalTimeoutS * 1000));
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errorBuffer);
    curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, ""); // whatever curl can decode
    curl_easy_setopt(curl, CURLOPT_TCP_KEEPALIVE, 1L);

    const CURLcode rc = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
    if (rc != CURLE_OK) {
        response.transportError = errorBuffer[0] ? errorBuffer : curl_easy_strerror(rc);
        if (t.cancelled)
            response.transport = TransportStatus::Cancelled;
        else if (t.idle)
            response.transport = t.firstByte ? TransportStatus::FirstByte : TransportStatus::Idle;
        else if (rc == CURLE_OPERATION_TIMEDOUT)
            response.transport = TransportStatus::Timeout;
        else if (rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST || rc == CURLE_COULDNT_RESOLVE_PROXY ||
                 rc == CURLE_SSL_CONNECT_ERROR)
            response.transport = TransportStatus::Connect;
        else
            response.transport = TransportStatus::Other;
    }
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    return response;
}

double parseRetryAfter(const std::string& value) {
    if (value.empty()) return -1;
    char* end = nullptr;
    const double seconds = std::strtod(value.c_str(), &end);
    if (end && *end == '\0' && seconds >= 0) return seconds;
    // An HTTP date: the wait is the distance from now.
    const time_t when = curl_getdate(value.c_str(), nullptr);
    if (when < 0) return -1;
    return std::max(0.0, std::difftime(when, std::time(nullptr)));
}

} // namespace kw::synth::llm
