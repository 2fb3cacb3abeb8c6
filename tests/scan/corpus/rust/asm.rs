// expect: asm@5 syscall-insn@5 exec-memory@7 opcode-bytes@8 opcode-bytes@9 asm@14 syscall-insn@14 exec-memory@15 syscall@17
use std::arch::asm;
use std::arch::global_asm;

global_asm!(".globl raw_exit", "raw_exit:", "mov $60, %eax", "syscall");

#[link_section = ".text"]
static CODE: [u8; 3] = [0x0f, 0x05, 0xc3];
static BYTES: &[u8] = b"\x48\x31\xc0\x0f\x05";

fn main() {
    let r: i64;
    unsafe {
        asm!("mov rax, 39", "syscall", out("rax") r);
        let f: fn() = std::mem::transmute(CODE.as_ptr());
        f();
        libc::syscall(libc::SYS_getpid);
    }
    println!("{} {}", r, BYTES.len());
}
