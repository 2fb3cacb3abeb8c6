// attack: bpf
// flags: --no-fork --no-network --clean-env --cpu 5 --mem 256
// needs: root
// evidence: bpf(BPF_MAP_CREATE) hands out a BPF map (kernel attack surface) (canary bpf_map)
// escaped-if: ev bpf_map
#include "attack.h"
#include <linux/bpf.h>

int main(int argc, char **argv)
{
	attack_init(argc, argv);
	union bpf_attr a;
	memset(&a, 0, sizeof a);
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = 4;
	a.value_size = 8;
	a.max_entries = 4;
	long fd = syscall(SYS_bpf, BPF_MAP_CREATE, &a, sizeof a);
	if (fd < 0) {
		say("bpf: %s\n", strerror(errno));
		return 1;
	}
	canary("bpf_map", "created a bpf map\n");
	return 0;
}
