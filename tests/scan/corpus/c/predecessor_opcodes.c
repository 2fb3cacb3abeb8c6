/* expect: opcode-bytes@7 opcode-bytes@8 opcode-bytes@9 opcode-bytes@10 opcode-bytes@11 exec-memory@15 exec-memory@17 exec-memory@18 */
/* Bypass of the predecessor's scanner: machine code as data, made
 * executable and called. */
#include <string.h>
#include <sys/mman.h>

static unsigned char code[] = {0x48, 0xc7, 0xc0, 0x27, 0x00, 0x00, 0x00, 0x0f, 0x05, 0xc3};
static const char octal[] = "\270\047\000\000\000\017\005\303";
static const unsigned char decimal[] = {184, 39, 0, 0, 0, 15, 5, 195};
static const unsigned char enter32[] = {0xcd, 0x80};
static const unsigned int arm[] = {0xd2800ba8, 0xd4000001};

int main(void)
{
    void *p = mmap(0, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memcpy(p, code, sizeof code);
    long pid = ((long (*)(void))p)();
    long (*f)(void) = (long (*)(void))code;
    return (int)(pid + f() + octal[0] + decimal[0] + enter32[0] + (int)arm[0]);
}
