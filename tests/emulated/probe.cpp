// Executes one instruction of the set named by argv[1] ("avx" or "avx512") and exits
// 0. tests/emulated/probe.sh runs it on a CPU model without that set and expects
// SIGILL: proof that the emulator enforces the model, without which the emulated
// tests would show nothing.
#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s avx|avx512\n", argv[0]);
        return 2;
    }
    if (std::strcmp(argv[1], "avx") == 0) {
        asm volatile("vaddps %%ymm0, %%ymm0, %%ymm0" ::: "xmm0");
    } else if (std::strcmp(argv[1], "avx512") == 0) {
        asm volatile("vaddps %%zmm0, %%zmm0, %%zmm0" ::: "xmm0");
    } else {
        std::fprintf(stderr, "%s: unknown instruction set %s\n", argv[0], argv[1]);
        return 2;
    }
    std::printf("%s ran\n", argv[1]);
    return 0;
}
