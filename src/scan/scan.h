/* sandlock-scan: shared types.  Each language has a lexer (lex_*.c) that
 * turns source into tokens with exact comment and literal boundaries, and a
 * rule pass (rules_*.c) that reads only tokens, so nothing inside a comment
 * or a literal can ever match a rule by accident. */
#ifndef SANDLOCK_SCAN_H
#define SANDLOCK_SCAN_H

#include <stddef.h>
#include <stdint.h>

enum lang { L_NONE, L_C, L_CPP, L_PY, L_JS, L_RUST, L_GO, L_GOASM };

enum tkind { T_IDENT, T_NUM, T_STR, T_CHAR, T_PUNCT, T_DIRECTIVE };

/* token flags */
#define F_BOL 0x01      /* first token of a (logical) line */
#define F_PP 0x02       /* part of a C preprocessor directive */
#define F_BYTES 0x04    /* byte string (b"..", Rust b"..") */
#define F_FSTR 0x08     /* piece of an f-string or template literal */
#define F_RAW 0x10      /* raw string: no escapes */
#define F_NESTED 0x20   /* token lexed from inside a string (f-string/template code) */

typedef struct {
    int kind;
    int flags;
    int line, col;
    char *text;          /* source text (C: line splices removed) */
    size_t len;
    unsigned char *val;  /* strings and chars: decoded value */
    size_t vlen;
    long match;          /* index of the matching bracket, or -1 */
} tok_t;

typedef struct {
    tok_t *v;
    size_t n, cap;
} toks_t;

enum sev { SEV_LOW = 1, SEV_MEDIUM = 2, SEV_HIGH = 3 };

typedef struct {
    int line, col;
    int sev;
    const char *rule;
    char *msg;
} finding_t;

typedef struct {
    const char *file;
    enum lang lang;
    finding_t *v;
    size_t n, cap;
    int depth;            /* nesting of string-as-code scans */
    int pin_line, pin_col; /* when nonzero, every finding is placed here */
    size_t *seen;          /* hash of (line, rule) -> index+1 in v */
    size_t seen_cap;
} scan_t;

/* A view of the input: lexers read s[0..n); pos_of maps an index of s back
 * to a line and column of the original file (C line splices are removed
 * from s, so the map is needed there). */
typedef struct {
    const char *s;
    size_t n;
    const uint32_t *omap;   /* s index -> original offset, or NULL: identity */
    const uint32_t *lstart; /* original offsets where lines start */
    size_t nlines;
    uint32_t shift;          /* added to s indexes when omap is NULL */
    int base_line, base_col; /* nonzero: every position is this one */
} src_t;

/* util.c */
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrndup(const char *s, size_t n);
void *xgrow(void *v, size_t n, size_t *cap, size_t first, size_t size);
int hash_reserve(size_t **tab, size_t *cap, size_t n);
void src_init(src_t *src, const char *orig, size_t on, const char *s, size_t n, const uint32_t *omap);
void src_free(src_t *src);
void pos_of(const src_t *src, size_t i, int *line, int *col);
tok_t *tok_push(toks_t *t, int kind, int flags, const src_t *src, size_t start, size_t end);
void toks_free(toks_t *t);
void toks_append(toks_t *dst, toks_t *src); /* moves src's tokens */
int tok_is(const tok_t *t, const char *s);
int tok_punct(const tok_t *t, const char *s);
int is_ident_start(unsigned char c);
int is_ident_char(unsigned char c);
size_t match_punct(const char *s, size_t n, size_t i, const char *const *table);
size_t lex_number(const char *s, size_t n, size_t i);
src_t src_sub(const src_t *src, size_t start, size_t end);
size_t decode_escapes(const char *s, size_t n, unsigned char *out, int lang);
int finding_seen(scan_t *sc, int line, const char *rule);
void add_finding(scan_t *sc, int line, int col, int sev, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
void add_finding_at(scan_t *sc, const tok_t *t, int sev, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* lexutil.c: the pieces the lexers share */
#define GAP_VT 0x01     /* \v is a blank */
#define GAP_SLASH 0x02  /* // and block comments */
#define GAP_NESTED 0x04 /* block comments nest (Rust) */
#define GAP_HASH 0x08   /* # comments and backslash-newline line joins (Python) */
#define GAP_GODIR 0x10  /* a //go: comment that starts a line is a token (Go) */
/* Moves *i past the blanks, comments and newlines before the next token:
 * F_BOL when that token starts a line, else 0; -1 at the end.  *bol carries
 * "at a line start" from one call to the next (start it at 1). */
int lex_skip(const char *s, size_t n, size_t *i, int *bol, int opts);
size_t line_end(const char *s, size_t n, size_t i);
/* A quoted body from s[j] closed by q, a backslash escaping the next
 * character: the index of the closing quote, or where it stops unclosed
 * (n, or a newline when nl). */
size_t quote_stop(const char *s, size_t n, size_t j, char q, int nl);
/* The same from the opening quote s[i]: the index past the closer (or the
 * stop when unclosed); *stop, when given, gets the body's end. */
size_t quoted_end(const char *s, size_t n, size_t i, int nl, size_t *stop);
size_t ident_end(const char *s, size_t n, size_t i);
/* t->val from the body b[0..bl): as written when raw, else its escapes decoded */
void tok_value(tok_t *t, const char *b, size_t bl, int raw, int lang);
void tok_retext(tok_t *t, const char *text);
/* A number at s[i] (a digit; or, with dot, '.' and a digit) pushed: the
 * index after it, or i when no number starts there. */
size_t push_number(toks_t *out, const src_t *src, size_t i, int fl, int dot);
/* The longest operator of table at s[i], or one character, pushed: the index after it. */
size_t push_punct(toks_t *out, const src_t *src, size_t i, int fl, const char *const *table);

/* lexers: return 0, or -1 (never for bad input: bad input lexes as best it can) */
void lex_c(const src_t *src, toks_t *out, int cpp);
void lex_py(const src_t *src, toks_t *out);
void lex_js(const src_t *src, toks_t *out);
void lex_rust(const src_t *src, toks_t *out);
void lex_go(const src_t *src, toks_t *out);

/* C: remove line splices, keeping a map back to the original offsets */
char *c_unsplice(const char *s, size_t n, size_t *outn, uint32_t **omap);

/* shared checks (common.c) */
void check_opcode_bytes(scan_t *sc, const toks_t *t, const char *openers);
void check_asm_text(scan_t *sc, const tok_t *at, const unsigned char *s, size_t n);
void check_common_idents(scan_t *sc, const toks_t *t);
void toks_match(toks_t *t); /* fill tok_t.match for (), [], {} */
int parse_int(const tok_t *t, unsigned long long *v, int *nondec);
/* Constant string value of tokens [a,b): literals joined by + (or juxtaposed),
 * chr(N) and parentheses.  Returns malloc'd value or NULL when not constant;
 * *obf set when the value was assembled (concatenation, chr) */
char *const_string(const toks_t *t, size_t a, size_t b, int *obf, int lang);
/* Split the arguments of a call whose '(' is at index open; fills starts/ends. */
int call_args(const toks_t *t, size_t open, size_t *starts, size_t *ends, int max);

/* rule passes */
void rules_c(scan_t *sc, const toks_t *t, int from_cpp);
void rules_c_defines(scan_t *sc, const toks_t *t);
void rules_py(scan_t *sc, const toks_t *t);
void rules_js(scan_t *sc, const toks_t *t);
void rules_rust(scan_t *sc, const toks_t *t);
void rules_go(scan_t *sc, const toks_t *t);
void rules_goasm(scan_t *sc, const char *s, size_t n);

/* scanning a string literal as code (exec("..."), eval('...')) */
void scan_code_string(scan_t *sc, enum lang lang, const tok_t *at, const unsigned char *s, size_t n);

/* cpp.c: run the C preprocessor; 0 ok, -1 not available/failed */
int cpp_scan(scan_t *sc, const char *path, int cplusplus);

#endif
