// expect: asm@8 opcode-bytes@16 asm@17 process@18
// C++: raw strings hide nothing and reveal nothing; a macro hides asm.
#include <cstdlib>
#include <cstdint>
#include <array>
#include <iostream>

#define VOLATILE_ASM asm volatile

static const char *doc = R"doc(
asm volatile("syscall"); std::system("id"); fork();
)doc";

int main()
{
    std::array<std::uint8_t, 3> bytes{0x0f, 0x05, 0xc3};
    VOLATILE_ASM("nop");
    std::system("id");
    auto s = u8"text with execve(\"/bin/sh\")";
    std::cout << doc << s << int(bytes[0]) << '\n';
    return 0;
}
