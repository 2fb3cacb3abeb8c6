// expect: clean
//! Honest Rust: lifetimes, chars, raw strings, nested comments.
/* Traps: /* nested: asm!("syscall") */ Command::new("sh") std::net */
use std::collections::HashMap;
use std::io::{self, BufRead};

struct Parser<'a> {
    text: &'a str,
}

impl<'a> Parser<'a> {
    fn words(&self) -> Vec<&'a str> {
        self.text.split(' ').collect()
    }
}

fn main() {
    let quote = '\'';
    let ch = 'x';
    let raw = r#"asm!("syscall"); Command::new("sh"); "quoted""#;
    let bytes = b"not \x0f code \x05";
    let table: [u8; 3] = [0x0f, 0x01, 0x05];
    let mut counts: HashMap<String, usize> = HashMap::new();
    let stdin = io::stdin();
    for line in stdin.lock().lines() {
        let line = line.unwrap();
        let p = Parser { text: &line };
        for w in p.words() {
            *counts.entry(w.to_string()).or_insert(0) += 1;
        }
    }
    let system_total = counts.len();
    let asm_len = raw.len();
    let v = vec![3, 1, 2].clone();
    println!("{} {} {} {} {} {:?} {:?}", quote, ch, system_total, asm_len, bytes.len(), table, v);
    std::process::exit(0);
}
