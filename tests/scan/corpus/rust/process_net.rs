// expect: network@3 process@4 ffi@6 process@11 network@12 process@16 dynload@17
use std::io::Read;
use std::net::TcpStream;
use std::process::Command;

extern "C" {
    fn getpid() -> i32;
}

fn main() {
    let out = Command::new("id").output().unwrap();
    let mut s = TcpStream::connect("127.0.0.1:80").unwrap();
    let mut buf = String::new();
    s.read_to_string(&mut buf).unwrap();
    unsafe {
        libc::fork();
        let lib = libloading::Library::new("libc.so.6").unwrap();
        let _ = lib;
    }
    println!("{:?} {}", out, unsafe { getpid() });
}
