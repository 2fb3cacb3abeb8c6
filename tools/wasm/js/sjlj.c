/*
 * The runtime of LLVM 16's WebAssembly setjmp/longjmp lowering
 * (WebAssemblyLowerEmscriptenEHSjLj with -wasm-enable-sjlj), the same
 * contract as Emscripten's emscripten_setjmp.c: a function that calls
 * setjmp keeps a table of (setjmp id, label); longjmp throws the
 * __c_longjmp tag (tag 1) with the jmp_buf and the value, and the
 * catching function finds its label by testSetjmp.
 */
#include <stdint.h>
#include <stdlib.h>

struct entry {
	uint32_t id, label;
};

static uint32_t temp_ret0;
static uint32_t next_id = 1;

uint32_t getTempRet0(void);
void setTempRet0(uint32_t v);
struct entry *saveSetjmp(uint32_t *env, uint32_t label, struct entry *table, uint32_t size);
uint32_t testSetjmp(uint32_t id, struct entry *table, uint32_t size);
void __wasm_longjmp(void *env, int val) __attribute__((noreturn));

uint32_t getTempRet0(void)
{
	return temp_ret0;
}

void setTempRet0(uint32_t v)
{
	temp_ret0 = v;
}

struct entry *saveSetjmp(uint32_t *env, uint32_t label, struct entry *table, uint32_t size)
{
	*env = next_id++;
	for (uint32_t i = 0; i < size; i++) {
		if (table[i].id == 0) {
			table[i].id = *env;
			table[i].label = label;
			table[i + 1].id = 0;
			setTempRet0(size);
			return table;
		}
	}
	size *= 2;
	table = realloc(table, sizeof(*table) * (size + 1));
	if (!table)
		abort();
	table = saveSetjmp(env, label, table, size);
	setTempRet0(size);
	return table;
}

uint32_t testSetjmp(uint32_t id, struct entry *table, uint32_t size)
{
	(void)size;
	for (uint32_t i = 0; table[i].id; i++)
		if (table[i].id == id)
			return table[i].label;
	return 0;
}

static struct {
	void *env;
	int val;
} args;

void __wasm_longjmp(void *env, int val)
{
	args.env = env;
	args.val = val ? val : 1;
	__builtin_wasm_throw(1, &args);
}
